// @vitest-environment jsdom
// The registry (lazy loading, adding a type, unknown types as error boxes), the detail kind
// (descriptions, tabs, related list bound to the record, audit trail) and the document skeleton
// (header, editable lines with exact totals, state actions, save body).
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import DetailScreen from '../../src/client/renderer/kinds/DetailScreen';
import DocumentScreen from '../../src/client/renderer/kinds/DocumentScreen';
import ListScreen from '../../src/client/renderer/kinds/ListScreen';
import { columnTypes, Registry } from '../../src/client/renderer';
import { buildRightsTree } from '../../src/client/renderer/widgets/rightsTree';
import { fillBody, fillRoute } from '../../src/client/renderer/template';
import type { ScreenFile, ScreenRoute } from '../../src/client/router/screenTypes';
import { button, buttons, click, headers, login, mount, polyfillDom, resetAll, rows, server, settle, text, type, unmount, until } from './renderer-harness';

beforeAll(polyfillDom);
beforeEach(resetAll);
afterEach(unmount);

const meta = (file: string, route = '/x'): ScreenRoute => ({ file, route, title: '测试', permission: '1', menu: { group: 'baseConfig', order: 1 } });
const screen = (extra: Record<string, unknown>): ScreenFile =>
  ({ route: '/x', title: '测试', permission: '1', menu: { group: 'baseConfig', order: 1 }, hidden: false, children: false, ...extra }) as ScreenFile;

describe('registry', () => {
  it('loads a type only when asked, once, and reports unknown types with their path', async () => {
    const r = new Registry<{ n: number }>('测试类型');
    const loader = vi.fn(async () => ({ default: { n: 1 } }));
    r.register('a', loader);
    expect(loader).not.toHaveBeenCalled();
    const [x, y] = await Promise.all([r.load('a'), r.load('a')]);
    expect(x).toEqual({ n: 1 });
    expect(y).toBe(x);
    expect(loader).toHaveBeenCalledTimes(1);
    expect(r.check('b', 'columns[3].type')).toEqual({ path: 'columns[3].type', message: '未知的测试类型 "b"' });
    await expect(r.load('b')).rejects.toThrow('未知的测试类型 "b"');
  });

  it('a column type registered by a module is used by schemas with no renderer change', async () => {
    columnTypes.define('percent', { align: 'right', cell: () => (v) => `${Number(v) * 100}%` });
    login([]);
    server.on('012101', () => ({ data: { list: [{ id: 1, share: 0.25 }], total: 1 } }));
    await mount(<ListScreen meta={meta('t/p')} file={screen({ kind: 'list', api: { list: 'cdm:012101' }, columns: [{ field: 'share', title: '占比', type: 'percent' }] })} />);
    await until(() => rows().length === 1, 'rows');
    expect(rows()[0]).toEqual(['25%']);
  });

  it('an unknown action and a link column without a route are error boxes with their paths', async () => {
    login([]);
    server.on('012101', () => ({ data: { list: [{ id: 1, a: 'x' }], total: 1 } }));
    const file = screen({
      kind: 'list',
      api: { list: 'cdm:012101' },
      columns: [{ field: 'a', title: 'A', type: 'link' }],
      toolbar: [{ action: 'stamp', title: '盖章' }, { action: 'form', title: '新增', form: 'missing' }],
      rowActions: [{ action: 'call', title: '确认', api: 'cdm:012104', when: { field: 'a', op: 'like' } }],
    });
    await mount(<ListScreen meta={meta('t/e')} file={file} />);
    await until(() => rows().length === 1, 'rows');
    const box = document.querySelector('[role="alert"]')!.textContent!;
    expect(box).toContain('columns[0].link: link 列缺少路由 link');
    expect(box).toContain('toolbar[0].action: 未知的操作 "stamp"');
    expect(box).toContain('toolbar[1].form: 表单 "missing" 未在 forms 中定义');
    expect(box).toContain('rowActions[0].when.op: 未知的条件运算符 "like"');
  });

  it('templates fill routes (encoded) and bodies (types kept)', () => {
    expect(fillRoute('/a/{id}/{name}', { id: 3, name: 'x/y' })).toBe('/a/3/x%2Fy');
    expect(fillBody({ id: '{id}', ids: '{ids}', note: '第{id}行', n: 1 }, { id: 3, ids: [1, 2] })).toEqual({ id: 3, ids: [1, 2], note: '第3行', n: 1 });
  });

  it('the rights tree groups rights by menu group, then by route (page right first)', () => {
    const tree = buildRightsTree([
      { code: 'baseConfig.currency.edit', name: '新增', route: '/baseConfig/currency', group: 'baseConfig' },
      { code: 'baseConfig.currency', name: '币种', route: '/baseConfig/currency', group: 'baseConfig' },
      { code: 'commodity.list', name: '商品列表', route: '/commodity/list', group: 'commodity' },
      { code: 'x.api', name: '接口权限' },
    ]);
    expect(tree.map((g) => g.title)).toEqual(['商品', '基础设置', '其他']);
    const currency = tree[1]!.children![0]!;
    expect(currency.title).toBe('币种');
    expect(currency.children!.map((c) => c.key)).toEqual(['baseConfig.currency', 'baseConfig.currency.edit']);
    expect(tree[2]!.children![0]).toEqual({ key: 'x.api', title: '接口权限（x.api）' });
  });
});

describe('detail kind', () => {
  const role = { id: 4, name: '采购员', enabled: true, createdAt: '2024-01-02T03:04:05Z', rightCount: 12 };
  const detail = screen({
    route: '/baseConfig/roleDetail/:id',
    kind: 'detail',
    api: { get: 'cdm:013302' },
    titleField: 'name',
    actions: [{ action: 'call', title: '停用', api: 'cdm:013303', body: { id: '{id}', enabled: false }, when: { enabled: true } }],
    sections: [
      { type: 'descriptions', title: '基本信息', items: [{ field: 'name', title: '名称' }, { field: 'enabled', title: '状态', type: 'boolean', trueText: '启用', falseText: '停用' }, { field: 'createdAt', title: '创建时间', type: 'datetime' }] },
      {
        type: 'tabs',
        tabs: [
          { title: '账号', sections: [{ type: 'list', bind: { roleIds: 'id' }, list: { api: { list: 'cdm:012101' }, columns: [{ field: 'userName', title: '用户名' }] } }] },
          { title: '操作记录', sections: [{ type: 'audit', entity: 'role' }] },
        ],
      },
    ],
  });

  it('shows the record, its related list filtered by the record id, and actions following `when`', async () => {
    login(['baseConfig.role.edit']);
    server.on('013302', () => ({ data: role }));
    server.on('012101', () => ({ data: { list: [{ id: 1, userName: 'li' }], total: 1 } }));
    await mount(<DetailScreen meta={meta('baseConfig/roleDetail', detail.route)} file={detail} />, { path: '/baseConfig/roleDetail/4', route: '/baseConfig/roleDetail/:id' });
    await until(() => rows().length === 1, 'related list');
    expect(server.last('013302')).toEqual({ id: 4 }); // a numeric route id goes to the server as a number
    expect(text()).toContain('测试 - 采购员');
    expect(text()).toContain('启用');
    expect(text()).toContain('2024-01-02 11:04:05');
    expect(server.last('012101')).toEqual({ page: 1, pageSize: 20, filters: { roleIds: 4 } });
    expect(buttons('停用')).toHaveLength(1);
    // The audit tab: hidden for a user without the audit list right.
    await click([...document.querySelectorAll('.ant-tabs-tab')].find((t) => t.textContent === '操作记录'));
    await settle();
    expect(server.bodies('019702')).toHaveLength(0);
  });

  it('the audit trail lists the changes of this record for a user holding the audit right', async () => {
    login(['system.operationHistory']);
    server.on('013302', () => ({ data: role }));
    server.on('012101', () => ({ data: { list: [], total: 0 } }));
    server.on('019702', () => ({ data: { list: [{ id: 1, at: '2024-05-01T00:00:00Z', userName: 'admin', action: 'update', changes: [{ field: 'name', title: '名称', from: '采购', to: '采购员' }] }], total: 1 } }));
    await mount(<DetailScreen meta={meta('baseConfig/roleDetail', detail.route)} file={detail} />, { path: '/baseConfig/roleDetail/4', route: '/baseConfig/roleDetail/:id' });
    await until(() => server.bodies('012101').length === 1, 'related list');
    await click([...document.querySelectorAll('.ant-tabs-tab')].find((t) => t.textContent === '操作记录'));
    await until(() => server.bodies('019702').length === 1, 'audit list');
    expect(server.last('019702')).toEqual({ page: 1, pageSize: 10, filters: { entity: 'role', recordId: '4' }, sort: { field: 'at', order: 'descend' } });
    await until(() => text().includes('名称：采购 → 采购员'), 'changes');
    expect(text()).toContain('修改');
  });
});

describe('document kind (skeleton)', () => {
  const doc = screen({
    route: '/procurement/purchaseOrder/:id',
    kind: 'document',
    api: { get: 'cdm:012102', save: 'cdm:012103' },
    header: { fields: [{ field: 'supplierName', title: '供应商', required: true }, { field: 'remark', title: '备注' }] },
    lines: {
      field: 'lines',
      columns: [
        { field: 'sku', title: '商品' },
        { field: 'qty', title: '数量', type: 'number', editor: 'number' },
        { field: 'price', title: '单价', type: 'money', editor: 'money' },
        { field: 'amount', title: '金额', type: 'money', product: ['qty', 'price'] },
      ],
      totals: { fields: ['qty', 'amount'] },
    },
    state: { field: 'status', options: [{ value: 'draft', label: '草稿' }, { value: 'confirmed', label: '已确认' }] },
    actions: [{ action: 'call', title: '确认', api: 'cdm:012104', when: { status: 'draft' }, permission: '1' }],
  });
  const order = {
    id: 8,
    version: 1,
    status: 'draft',
    supplierName: '甲',
    lines: [
      { id: 1, sku: 'A', qty: '3', price: '0.10' },
      { id: 2, sku: 'B', qty: '1', price: '0.20' },
    ],
  };

  it('draws header, lines with exact computed amounts and totals, the state and its actions; saves header and lines', async () => {
    login(['baseConfig.currency.remove', 'baseConfig.currency.edit']);
    server.on('012102', () => ({ data: order }));
    server.on('012103', (b) => ({ data: { ...b, version: 2 } }));
    await mount(<DocumentScreen meta={meta('procurement/purchaseOrder', doc.route)} file={doc} />, { path: '/procurement/purchaseOrder/8', route: '/procurement/purchaseOrder/:id' });
    await until(() => rows().length === 2, 'lines');
    expect(headers()).toEqual(['行', '商品', '数量', '单价', '金额', '删除']); // the delete column is named (screen readers)
    expect(text()).toContain('草稿');
    expect(buttons('确认')).toHaveLength(1);
    expect([...document.querySelectorAll('.renderer-total')].map((e) => e.textContent)).toEqual(['4', '0.50']);
    const qty = document.querySelectorAll('.ant-table-tbody tr.ant-table-row')[0]!.querySelectorAll('input')[0] as HTMLInputElement;
    await type(qty, '10');
    expect([...document.querySelectorAll('.renderer-total')].map((e) => e.textContent)).toEqual(['11', '1.20']);
    await click(button('保存'));
    await until(() => server.bodies('012103').length === 1, 'save');
    expect(server.last('012103')).toEqual({
      id: 8,
      version: 1,
      supplierName: '甲',
      lines: [
        { id: 1, sku: 'A', qty: 10, price: '0.10', amount: '1.00' }, // typed: a number, in the column's type
        { id: 2, sku: 'B', qty: '1', price: '0.20', amount: '0.20' },
      ],
    });
  });
});
