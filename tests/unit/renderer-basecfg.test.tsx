// @vitest-environment jsdom
// The renderer capabilities the /baseConfig screens brought, tested once each through those screens'
// own schema files against a fake server: singleton forms with nested `flags.x` fields (setConfig),
// query forms (汇率 查询某日汇率), ids from the URL query and create-only fields (账号详情), values from
// the query (发送邮件 ?templateId=), tree rows and 新增下级 (部门), the `list` action with top-level
// params (角色成员), read-only forms (邮件发送记录 查看), the chart section over list conditions
// (汇率变动记录), and the `disabled: true` field pattern.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import ListScreen from '../../src/client/renderer/kinds/ListScreen';
import FormScreen from '../../src/client/renderer/kinds/FormScreen';
import { initialValuesOf, writePath } from '../../src/client/renderer/form/SchemaForm';
import { listBody } from '../../src/client/renderer/data/listQuery';
import { parentKeys, pruneEmptyChildren, treeOf } from '../../src/client/renderer/list/tree';
import { valuesFromQuery } from '../../src/client/renderer/kinds/FormScreen';
import type { FormPart } from '../../src/client/renderer/types';
import type { ScreenFile, ScreenRoute } from '../../src/client/router/screenTypes';
import setConfig from '../../schemas/screens/baseConfig/setConfig.json';
import exchange from '../../schemas/screens/baseConfig/exchange.json';
import accountDetail from '../../schemas/screens/baseConfig/accountManagementDetail.json';
import accountList from '../../schemas/screens/baseConfig/accountManagementList.json';
import department from '../../schemas/screens/baseConfig/department.json';
import role from '../../schemas/screens/baseConfig/role.json';
import emailHistory from '../../schemas/screens/baseConfig/emailHistory.json';
import emailTemplate from '../../schemas/screens/baseConfig/emailTemplate.json';
import emailTemplateList from '../../schemas/screens/baseConfig/emailTemplateList.json';
import dynamicExchange from '../../schemas/screens/baseConfig/dynamicExchange.json';
import companyIp from '../../schemas/screens/baseConfig/companyIp.json';
import { chartsDrawn, recordCharts } from './chart-recorder';
import {
  button,
  buttons,
  click,
  formItem,
  inputOf,
  login,
  mount,
  polyfillDom,
  resetAll,
  rows,
  server,
  settle,
  text,
  toasts,
  type,
  unmount,
  until,
} from './renderer-harness';

beforeAll(() => {
  polyfillDom();
  recordCharts();
});
beforeEach(resetAll);
afterEach(unmount);

const asFile = (json: unknown) => json as unknown as ScreenFile;
const metaOf = (json: { route: string; title: string; permission: string; menu: { group: string; order: number } }, file: string): ScreenRoute =>
  ({ file, route: json.route, title: json.title, permission: json.permission, menu: json.menu }) as ScreenRoute;
const modal = () => document.querySelector('.ant-modal') as HTMLElement;
const drawer = () => document.querySelector('.ant-drawer') as HTMLElement;
const switchOf = (label: string, scope?: ParentNode) => formItem(label, scope).querySelector('button.ant-switch') as HTMLButtonElement;

const settings = {
  name: '演示贸易有限公司',
  code: 'demo',
  timeZone: 8,
  defaultLanguage: 'zh-CN',
  currencyId: 1,
  receMultiple: '1.1',
  limitMultiple: '0.8',
  ceilingMultiple: '1.5',
  addRooType: 0,
  containerTypes: ['20GP', '40GP'],
  flags: {
    presale: true, invoiceStock: false, negativeStock: false, orderApproval: false, purchaseApproval: false, containerManagement: false,
    multiCurrency: true, ipWhitelist: false, priceLimit: false, creditCheck: false, locationRequired: false, testCompany: false,
  },
  version: 4,
};

describe('nested fields and singleton forms (公司设置)', () => {
  it('writePath / initialValuesOf read and write dotted paths', () => {
    const out: Record<string, unknown> = {};
    writePath(out, 'flags.presale', true);
    writePath(out, 'name', 'x');
    expect(out).toEqual({ flags: { presale: true }, name: 'x' });
    const part: FormPart = { fields: [{ field: 'flags.presale', title: 'a' }, { field: 'flags.ipWhitelist', title: 'b', defaultValue: false }, { field: 'name', title: 'c' }] };
    expect(initialValuesOf(part, { flags: { presale: true, other: 1 }, name: 'n', extra: 2 })).toEqual({ flags: { presale: true }, name: 'n' });
    expect(initialValuesOf(part, null)).toEqual({ flags: { ipWhitelist: false } });
  });

  it('加柜方式 reads as its label, not a number', async () => {
    login(['baseConfig.setConfig', 'baseConfig.setConfig.edit']);
    server.on('013601', () => ({ data: settings }));
    await mount(<FormScreen meta={metaOf(setConfig, 'baseConfig/setConfig')} file={asFile(setConfig)} />, { path: '/baseConfig/setConfig', route: '/baseConfig/setConfig' });
    await until(() => text().includes('加柜方式'), 'form');
    await until(() => (formItem('加柜方式').textContent ?? '').includes('按体积加柜'), 'label');
    expect(formItem('加柜方式').querySelector('input[type="number"], .ant-input-number')).toBeNull();
  });

  it('loads the settings without an id, shows each flag as a switch, and saves flags nested with the version', async () => {
    login(['baseConfig.setConfig', 'baseConfig.setConfig.edit']);
    server.on('013601', () => ({ data: settings }));
    server.on('013602', (b) => ({ data: { ...settings, ...b, flags: { ...settings.flags, ...b.flags }, version: 5 } }));
    await mount(<FormScreen meta={metaOf(setConfig, 'baseConfig/setConfig')} file={asFile(setConfig)} />, { path: '/baseConfig/setConfig', route: '/baseConfig/setConfig' });
    await until(() => text().includes('业务开关'), 'form');
    expect(server.last('013601')).toEqual({});
    expect(inputOf('超收倍数').value).toBe('1.1');
    expect(switchOf('启用预售').getAttribute('aria-checked')).toBe('true');
    expect(switchOf('启用IP白名单').getAttribute('aria-checked')).toBe('false');
    expect(text()).toContain('20GP');
    await click(switchOf('允许负库存'));
    await click(button('保存'));
    await until(() => server.bodies('013602').length === 1, 'save');
    const body = server.last('013602');
    expect(body.version).toBe(4);
    expect(body.receMultiple).toBe('1.1');
    expect(body.containerTypes).toEqual(['20GP', '40GP']);
    // every company flag the form shows, nested under flags
    expect(body.flags).toMatchObject({ presale: true, ipWhitelist: false, negativeStock: true, multiCurrency: true });
    expect(Object.keys(body.flags)).toHaveLength(12);
    expect(Object.keys(body)).not.toContain('flags.presale');
    await until(() => toasts('success').includes('保存成功'), 'toast');
  });

  it('a server message naming a nested field lands on that switch', async () => {
    login(['baseConfig.setConfig', 'baseConfig.setConfig.edit']);
    server.on('013601', () => ({ data: settings }));
    server.on('013602', () => ({ code: 'COMMON_VALIDATION_4000', msg: '开关不可用', data: { errors: [{ field: 'flags.testCompany', message: '测试公司开关只能由平台设置' }] } }));
    await mount(<FormScreen meta={metaOf(setConfig, 'baseConfig/setConfig')} file={asFile(setConfig)} />, { path: '/baseConfig/setConfig', route: '/baseConfig/setConfig' });
    await until(() => text().includes('业务开关'), 'form');
    await click(button('保存'));
    await until(() => formItem('测试公司').textContent!.includes('测试公司开关只能由平台设置'), 'field message');
  });

  it('a toolbar form over a singleton (IP 白名单开关) loads the settings and saves only its flag', async () => {
    login(['baseConfig.companyIp', 'baseConfig.setConfig.edit']);
    server.on('013901', () => ({ data: { list: [{ id: 1, cidr: '127.0.0.1', enabled: true }], total: 1 } }));
    server.on('013601', () => ({ data: settings }));
    server.on('013602', (b) => ({ data: { ...settings, flags: { ...settings.flags, ...b.flags }, version: 5 } }));
    await mount(<ListScreen meta={metaOf(companyIp, 'baseConfig/companyIp')} file={asFile(companyIp)} />);
    await until(() => rows().length === 1, 'rows');
    await click(button('白名单开关'));
    await until(() => !!modal()?.querySelector('button.ant-switch'), 'modal');
    expect(server.last('013601')).toEqual({});
    await click(switchOf('启用IP白名单', modal()));
    await click(button('保存', modal()));
    await until(() => server.bodies('013602').length === 1, 'save');
    expect(server.last('013602')).toEqual({ flags: { ipWhitelist: true }, version: 4 });
    await until(() => toasts('success').includes('IP 白名单开关已保存'), 'toast');
  });
});

describe('query forms (汇率: 查询某日汇率)', () => {
  it('submits to the query code, stays open and shows the answer filled into the result text', async () => {
    login(['baseConfig.exchange']);
    server.on('012501', () => ({ data: { list: [], total: 0 } }));
    server.on('012108', () => ({ data: [{ id: 2, label: '美元' }] }));
    server.on('012508', () => ({ data: { currencyId: 2, currencyCode: 'USD', currencyName: '美元', rateDate: '2026-05-01', rate: '7.180000', isBase: false } }));
    // the currency and date are given as the form's starting values (selects and pickers are not typed in jsdom)
    const file = JSON.parse(JSON.stringify(exchange));
    file.forms.rateOn.initialValues = { currencyId: 2, date: '2026-05-15' };
    await mount(<ListScreen meta={metaOf(exchange, 'baseConfig/exchange')} file={asFile(file)} />);
    await until(() => buttons('查询某日汇率').length === 1, 'toolbar');
    expect(buttons('新增')).toHaveLength(0); // no edit right
    await click(button('查询某日汇率'));
    await until(() => !!modal(), 'modal');
    await click(button('查询', modal()));
    await until(() => !!document.querySelector('.renderer-form-result'), 'result');
    expect(server.last('012508')).toEqual({ currencyId: 2, date: '2026-05-15' });
    expect(document.querySelector('.renderer-form-result')!.textContent).toBe('美元（USD）在 2026-05-15 的汇率为 7.180000（2026-05-01 起生效）');
    expect(modal()).not.toBeNull();
    expect(toasts('success')).toEqual([]);
    expect(server.bodies('012501')).toHaveLength(1); // nothing saved: no reload
  });
});

describe('form pages with ids and values from the URL query', () => {
  const account = { id: 2, userName: 'clerk', staffId: 2, roleIds: [2], warehouseId: 1, enabled: true, purchasePriceId: null, salePriceId: null, remark: null, version: 3 };

  it('账号详情?id=2 loads that account, keeps the user name read-only and has no password field; saving goes back to the list', async () => {
    login(['baseConfig.accountManagementDetail', 'baseConfig.accountManagementList.edit']);
    server.on('013402', () => ({ data: account }));
    server.on('013403', (b) => ({ data: { ...account, ...b, version: 4 } }));
    await mount(<FormScreen meta={metaOf(accountDetail, 'baseConfig/accountManagementDetail')} file={asFile(accountDetail)} />, {
      path: '/baseConfig/accountManagementDetail?id=2',
      route: '/baseConfig/accountManagementDetail',
    });
    await until(() => text().includes('默认销售价格表'), 'form');
    expect(server.last('013402')).toEqual({ id: '2' });
    expect(inputOf('用户名').value).toBe('clerk');
    expect(inputOf('用户名').readOnly).toBe(true);
    expect(() => formItem('密码')).toThrow();
    await click(button('保存'));
    await until(() => server.bodies('013403').length === 1, 'save');
    expect(server.last('013403')).toMatchObject({ id: 2, version: 3, userName: 'clerk', roleIds: [2], enabled: true });
    expect(server.last('013403')).not.toHaveProperty('password');
  });

  it('账号详情 without an id is a new account: the password is asked for (create only) and required', async () => {
    login(['baseConfig.accountManagementDetail', 'baseConfig.accountManagementList.edit']);
    await mount(<FormScreen meta={metaOf(accountDetail, 'baseConfig/accountManagementDetail')} file={asFile(accountDetail)} />, {
      path: '/baseConfig/accountManagementDetail',
      route: '/baseConfig/accountManagementDetail',
    });
    await until(() => text().includes('密码'), 'form');
    expect(server.bodies('013402')).toHaveLength(0);
    expect(inputOf('密码').type).toBe('password');
    await type(inputOf('用户名'), 'new.user');
    await click(button('保存'));
    await until(() => formItem('密码').textContent!.includes('请输入密码'), 'required');
    await type(inputOf('密码'), '123');
    await until(() => formItem('密码').textContent!.includes('密码至少 8 个字符'), 'min length');
    expect(server.bodies('013403')).toHaveLength(0);
  });

  it('发送邮件?templateId=1 starts with that template (a number), labels the button 发送 and sends the lists', async () => {
    expect(valuesFromQuery({ templateId: 'number', code: 'string' }, new URLSearchParams('templateId=1&code=007&x=1'))).toEqual({ templateId: 1, code: '007' });
    expect(valuesFromQuery({ templateId: 'number' }, new URLSearchParams('templateId=abc'))).toEqual({});
    login(['baseConfig.emailTemplate', 'baseConfig.emailTemplate.send']);
    server.on('014308', () => ({ data: [{ id: 1, label: '订单确认' }] }));
    server.on('013801', () => ({ data: { emailFormat: [{ value: 'html', label: 'HTML' }] } }));
    server.on('014310', () => ({ data: { subject: '订单确认：{orderNo}', body: '<p>hi</p>', format: 'html', placeholders: ['orderNo'], missing: ['orderNo'] } }));
    const file = JSON.parse(JSON.stringify(emailTemplate));
    file.initialValues = { to: ['a@example.com'] };
    await mount(<FormScreen meta={metaOf(emailTemplate, 'baseConfig/emailTemplate')} file={asFile(file)} />, {
      path: '/baseConfig/emailTemplate?templateId=1',
      route: '/baseConfig/emailTemplate',
    });
    await until(() => text().includes('订单确认'), 'template chosen');
    // the preview asks with the template id once the values settle
    await until(() => server.bodies('014310').length === 1, 'preview', 3000);
    expect(server.last('014310')).toEqual({ templateId: 1 });
    await until(() => text().includes('缺少参数：orderNo'), 'missing params');
    server.on('014311', () => ({ data: { id: 9, status: 'sent' } }));
    await click(button('发送'));
    await until(() => server.bodies('014311').length === 1, 'send');
    expect(server.last('014311')).toEqual({ templateId: 1, to: ['a@example.com'] });
    await until(() => toasts('success').includes('邮件已发送'), 'toast');
  });
});

describe('empty email forms', () => {
  it('saving an empty new template shows the field errors only: no preview request, no toast', async () => {
    login(['baseConfig.emailTemplateList', 'baseConfig.emailTemplateList.edit']);
    server.on('014301', () => ({ data: { list: [], total: 0 } }));
    server.on('013801', () => ({ data: { emailFormat: [{ value: 'html', label: 'HTML' }, { value: 'text', label: '纯文本' }] } }));
    server.on('014309', () => ({ code: 'COMMON_VALIDATION_4000', msg: '请选择邮件模板，或填写邮件主题和正文', data: { errors: [{ field: 'templateId', message: '请选择邮件模板，或填写邮件主题和正文' }] } }));
    await mount(<ListScreen meta={metaOf(emailTemplateList, 'baseConfig/emailTemplateList')} file={asFile(emailTemplateList)} />);
    await until(() => buttons('新增').length > 0, 'toolbar');
    await click(button('新增'));
    await until(() => buttons('保存').length > 0, 'form');
    await click(buttons('保存').at(-1));
    await until(() => formItem('邮件主题').textContent!.includes('请'), 'field error');
    await settle(300); // past the preview's debounce
    expect(server.bodies('014309')).toHaveLength(0);
    expect(toasts('error')).toEqual([]);
  });
});

describe('tree rows (部门)', () => {
  const tree = [
    { id: 1, key: 1, name: '总经办', code: 'D01', staffCount: 1, sort: 1, children: [{ id: 2, key: 2, name: '采购部', code: 'D02', staffCount: 0, sort: 2, parentId: 1, children: [] }] },
    { id: 3, key: 3, name: '财务部', code: 'D03', staffCount: 0, sort: 3, children: [] },
  ];

  it('treeOf / pruneEmptyChildren / parentKeys', () => {
    expect(treeOf({})).toBeNull();
    expect(treeOf({ tree: true })).toEqual({ children: 'children', expandAll: true });
    const pruned = pruneEmptyChildren(tree, 'children');
    expect(pruned[1]).not.toHaveProperty('children');
    expect((pruned[0]!.children as Record<string, unknown>[])[0]).not.toHaveProperty('children');
    expect(tree[1]!.children).toEqual([]); // the answer itself is not changed
    expect(parentKeys(pruned, 'id', 'children')).toEqual([1]);
  });

  it('draws the whole tree open without paging; 删除 only on leaves without staff; 新增下级 starts a new department under the row', async () => {
    login(['baseConfig.department', 'baseConfig.department.edit', 'baseConfig.department.remove']);
    server.on('012909', () => ({ data: tree }));
    await mount(<ListScreen meta={metaOf(department, 'baseConfig/department')} file={asFile(department)} />);
    await until(() => rows().length === 3, 'rows');
    expect(rows().map((r) => r[0])).toEqual(['总经办', '采购部', '财务部']);
    expect(document.querySelector('.ant-pagination')).toBeNull();
    expect(document.querySelectorAll('.ant-table-row-expand-icon:not(.ant-table-row-expand-icon-spaced)')).toHaveLength(1);
    const byName = (n: string) => [...document.querySelectorAll('tr.ant-table-row')].find((tr) => tr.textContent!.includes(n)) as HTMLElement;
    expect(buttons('删除', byName('总经办'))).toHaveLength(0);
    expect(buttons('删除', byName('采购部'))).toHaveLength(1);
    server.on('012903', (b) => ({ data: { id: 4, version: 1, ...b } }));
    server.on('012902', () => ({ data: { id: 2, name: '采购部', code: 'D02', version: 1 } }));
    await click(button('新增下级', byName('采购部')));
    await until(() => !!modal()?.querySelector('input'), 'modal');
    const loads = server.bodies('012909').length; // the parent tree select asks for the tree too
    expect(server.bodies('012902')).toHaveLength(0); // a new record, not the row's
    expect(inputOf('部门编码', modal()).value).toBe('');
    await type(inputOf('部门编码', modal()), 'D021');
    await type(inputOf('部门名称', modal()), '采购一组');
    await click(button('保存', modal()));
    await until(() => server.bodies('012903').length === 1, 'save');
    expect(server.last('012903')).toEqual({ parentId: 2, code: 'D021', name: '采购一组', sort: 0 });
    await until(() => server.bodies('012909').length > loads, 'reload');
  });
});

describe('the list action (角色 → 成员)', () => {
  it('listBody puts params at the top level, under paging', () => {
    expect(listBody({ page: 2, pageSize: 10, filters: { a: '' } }, undefined, { id: 7, page: 99 })).toEqual({ id: 7, page: 2, pageSize: 10 });
  });

  it('opens the members of the row in a modal: the code gets {id} at the top level, the title names the role', async () => {
    login(['baseConfig.role']);
    server.on('013301', () => ({ data: { list: [{ id: 4, name: '采购员', allRights: false }], total: 1 } }));
    server.on('013310', () => ({ data: { list: [{ id: 2, userName: 'clerk', staffName: '采购员小王', enabled: true }], total: 1 } }));
    await mount(<ListScreen meta={metaOf(role, 'baseConfig/role')} file={asFile(role)} />);
    await until(() => rows().length === 1, 'roles');
    expect(buttons('编辑')).toHaveLength(0);
    await click(button('成员'));
    await until(() => !!modal() && rows(modal()).length === 1, 'members');
    expect(server.last('013310')).toEqual({ id: 4, page: 1, pageSize: 20 });
    expect(modal().textContent).toContain('持有角色“采购员”的账号');
    expect(rows(modal())[0]).toEqual(['clerk', '采购员小王', '启用']);
  });
});

describe('row actions of the account list', () => {
  const acc = { id: 2, userName: 'clerk', staffName: '采购员小王', roleNames: ['采购员'], enabled: true, version: 3 };

  it('停用 / 启用 follow the state; 重置密码 sends {id, password} through a masked field', async () => {
    login(['baseConfig.accountManagementList', 'baseConfig.accountManagementList.edit']);
    server.on('013401', () => ({ data: { list: [acc, { ...acc, id: 3, userName: 'old', enabled: false }], total: 2 } }));
    await mount(<ListScreen meta={metaOf(accountList, 'baseConfig/accountManagementList')} file={asFile(accountList)} />);
    await until(() => rows().length === 2, 'rows');
    expect(rows()[0]![2]).toBe('采购员');
    const row = (n: string) => [...document.querySelectorAll('tr.ant-table-row')].find((tr) => tr.textContent!.includes(n)) as HTMLElement;
    expect(buttons('停用', row('clerk'))).toHaveLength(1);
    expect(buttons('启用', row('clerk'))).toHaveLength(0);
    expect(buttons('启用', row('old'))).toHaveLength(1);
    expect(buttons('删除')).toHaveLength(0); // no remove right
    await click(button('重置密码', row('clerk')));
    await until(() => !!modal()?.querySelector('input[type=password]'), 'modal');
    expect(inputOf('用户名', modal()).value).toBe('clerk');
    expect(inputOf('用户名', modal()).disabled).toBe(true);
    server.on('013408', () => ({ data: null }));
    await type(inputOf('新密码', modal()), 'secret99');
    await click(button('重置', modal()));
    await until(() => server.bodies('013408').length === 1, 'reset');
    expect(server.last('013408')).toMatchObject({ id: 2, password: 'secret99' });
    await until(() => toasts('success').includes('密码已重置，该账号需用新密码重新登录'), 'toast');
  });
});

describe('read-only forms (邮件发送记录 → 查看)', () => {
  it('shows the row in read-only fields and the body in the sandboxed preview frame, with only 关闭', async () => {
    login(['baseConfig.emailHistory']);
    const mail = { id: 5, subject: '订单确认：PO1', recipients: 'a@example.com', cc: null, status: 'failed', error: 'Connection refused', body: '<p>您好<script>parent.alert(1)</script></p>', format: 'html', queuedAt: '2026-01-01T00:00:00Z' };
    server.on('014401', () => ({ data: { list: [mail], total: 1 } }));
    await mount(<ListScreen meta={metaOf(emailHistory, 'baseConfig/emailHistory')} file={asFile(emailHistory)} />);
    await until(() => rows().length === 1, 'rows');
    expect(text()).toContain('发送失败');
    expect(buttons('重新发送')).toHaveLength(0); // no resend right
    await click(button('查看'));
    await until(() => !!drawer()?.querySelector('iframe'), 'drawer');
    expect(server.bodies('014402')).toHaveLength(0); // the row itself, not loaded again
    expect(inputOf('主题', drawer()).value).toBe('订单确认：PO1');
    expect(inputOf('主题', drawer()).readOnly).toBe(true);
    expect(inputOf('错误信息', drawer()).value).toBe('Connection refused');
    const frame = drawer().querySelector('iframe')!;
    expect(frame.getAttribute('sandbox')).toBe('');
    expect(frame.getAttribute('srcdoc')).toContain("default-src 'none'");
    expect(frame.getAttribute('srcdoc')).toContain('<p>您好<script>');
    expect(buttons('保存', drawer())).toHaveLength(0);
    expect(buttons('关闭', drawer()).filter((b) => b.textContent!.includes('关'))).toHaveLength(1);
  });
});

describe('the chart section over the list conditions (汇率变动记录)', () => {
  it('asks for nothing until a currency is chosen, then draws the history of the filters now applied', async () => {
    login(['baseConfig.dynamicExchange']);
    server.on('012510', () => ({ data: { list: [], total: 0 } }));
    server.on('012108', () => ({ data: [{ id: 2, label: '美元' }] }));
    server.on('012509', () => ({ data: [{ date: '2026-01-01', rate: '7.1', value: 7.1 }, { date: '2026-02-01', rate: '7.2', value: 7.2 }, { date: '2026-03-01', rate: '7.15', value: 7.15 }] }));
    await mount(<ListScreen meta={metaOf(dynamicExchange, 'baseConfig/dynamicExchange')} file={asFile(dynamicExchange)} />);
    await until(() => text().includes('选择币种并查询后'), 'hint');
    expect(server.bodies('012509')).toHaveLength(0);
    await unmount();

    // a currency chosen (as the filter's default here: selects are not typed in jsdom) and a date range
    const file = JSON.parse(JSON.stringify(dynamicExchange));
    file.filters[0].defaultValue = 2;
    file.columns.find((c: { field: string }) => c.field === 'rateDate').search = { widget: 'dateRange', defaultValue: ['2026-01-01', null] };
    await mount(<ListScreen meta={metaOf(dynamicExchange, 'baseConfig/dynamicExchange')} file={asFile(file)} />);
    await until(() => chartsDrawn().length === 1, 'chart');
    expect(server.last('012509')).toEqual({ currencyId: 2, from: '2026-01-01' });
    expect(server.last('012510')).toMatchObject({ filters: { currencyId: 2, rateDate: ['2026-01-01', null] } });
    // a line (the section names no other part) of the three rates, with the screen's 4 decimals
    expect(chartsDrawn()).toEqual([
      { type: 'line', data: { labels: ['2026-01-01', '2026-02-01', '2026-03-01'], series: [{ name: '汇率', values: [7.1, 7.2, 7.15] }] }, decimals: 4, height: 260 },
    ]);
    await settle();
  });
});

describe('constant disabled fields', () => {
  it('`disabled: true` stays disabled (formily would reset it with readOnly=false)', async () => {
    login(['baseConfig.company', 'baseConfig.company.edit']);
    const company = (await import('../../schemas/screens/baseConfig/company.json')).default;
    server.on('013603', () => ({ data: { id: 1, code: 'demo', name: '演示', version: 2 } }));
    await mount(<FormScreen meta={metaOf(company, 'baseConfig/company')} file={asFile(company)} />, { path: '/baseConfig/company', route: '/baseConfig/company' });
    await until(() => text().includes('公司标志'), 'form');
    expect(inputOf('公司编码').value).toBe('demo');
    expect(inputOf('公司编码').disabled).toBe(true);
    expect(inputOf('公司名称').disabled).toBe(false);
  });
});
