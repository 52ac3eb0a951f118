// The generic master-data handlers end to end: list, get, save, remove, export, template, import,
// options and the audit log, on a real database (SQLite, or PostgreSQL when DATABASE_URL is set).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, advanceClock, startTestServer, type TestServer } from './helpers.ts';
import { makeXls, makeXlsx, multipart, readXlsx, sheetXml, type Cell } from '../fixtures/spreadsheets.ts';

let t: TestServer;
let demo: string;
let demo2: string;

// cdm codes of the resources used here
const SUPPLIER = { list: '011601', get: '011602', save: '011603', remove: '011604', import: '011606', export: '011609', options: '011611', template: '011619' };
const CURRENCY = { list: '012101', get: '012102', save: '012103', remove: '012104', export: '012105', import: '012106', template: '012107', options: '012108' };
const RATE = { list: '012501', save: '012503', import: '012506' };
const ROLE = { save: '013303', remove: '013304' };
const ACCOUNT = { list: '013401', get: '013402', save: '013403', remove: '013404' };
const AUDIT = { list: '019702', export: '019701' };


async function download(code: string, body: unknown, token: string, headers?: Record<string, string>) {
  const res = await t.raw('cdm', code, body, token, { headers });
  if (String(res.headers['content-type']).includes('json')) throw new Error(`expected a file, got ${res.body}`);
  return res;
}

function fileNameOf(res: { headers: Record<string, unknown> }): string {
  const m = /filename\*=UTF-8''([^;]+)/.exec(String(res.headers['content-disposition']));
  return m ? decodeURIComponent(m[1]) : '';
}

async function upload(code: string, fileName: string, body: Buffer, token: string) {
  const { payload, headers } = multipart(fileName, body);
  return t.call('cdm', code, undefined, token, { payload, headers });
}

async function currencyId(token: string, code: string): Promise<number> {
  const list = await ok(t.call('cdm', CURRENCY.list, { page: 1, pageSize: 50, filters: { code } }, token));
  return list.list[0].id;
}

beforeAll(async () => {
  t = await startTestServer();
  demo = await t.login('demo', 'admin', 'demo123');
  demo2 = await t.login('demo2', 'admin', 'demo123');
});

afterAll(async () => {
  await t?.close();
});

describe('list', () => {
  beforeAll(async () => {
    const usd = await currencyId(demo, 'USD');
    for (let i = 1; i <= 25; i++) {
      await ok(t.call('cdm', SUPPLIER.save, {
        code: `L${String(i).padStart(3, '0')}`, name: `列表供应商${i}${i === 7 ? '_100%' : ''}`, paymentDays: i,
        enabled: i % 5 !== 0, currencyId: i % 2 ? usd : null,
      }, demo));
    }
  });

  it('pages with a total, filters exactly and by range, and sorts by a declared field', async () => {
    const p1 = await ok(t.call('cdm', SUPPLIER.list, { page: 1, pageSize: 10, filters: { code: 'L' }, sort: { field: 'code', order: 'descend' } }, demo));
    expect(p1.total).toBe(25);
    expect(p1.page).toBe(1);
    expect(p1.pageSize).toBe(10);
    expect(p1.list.map((r: any) => r.code).slice(0, 3)).toEqual(['L025', 'L024', 'L023']);
    const p3 = await ok(t.call('cdm', SUPPLIER.list, { page: 3, pageSize: 10, filters: { code: 'L' }, sort: { field: 'code', order: 'descend' } }, demo));
    expect(p3.list.map((r: any) => r.code)).toEqual(['L005', 'L004', 'L003', 'L002', 'L001']);

    const disabled = await ok(t.call('cdm', SUPPLIER.list, { page: 1, pageSize: 50, filters: { enabled: false } }, demo));
    expect(disabled.list.map((r: any) => r.code)).toEqual(['L005', 'L010', 'L015', 'L020', 'L025']);
    expect(disabled.list.every((r: any) => r.enabled === false)).toBe(true);

    const range = await ok(t.call('cdm', SUPPLIER.list, { page: 1, pageSize: 50, filters: { paymentDays: [10, 12] }, sort: { field: 'paymentDays', order: 'ascend' } }, demo));
    expect(range.list.map((r: any) => r.paymentDays)).toEqual([10, 11, 12]);
    const usd = await currencyId(demo, 'USD');
    const byCurrency = await ok(t.call('cdm', SUPPLIER.list, { page: 1, pageSize: 50, filters: { currencyId: [usd] } }, demo));
    expect(byCurrency.total).toBe(13);
    expect(byCurrency.list[0].currencyName).toBe('美元');
  });

  it('matches the keyword literally (% and _ are not wildcards)', async () => {
    const hit = await ok(t.call('cdm', SUPPLIER.list, { page: 1, pageSize: 50, keyword: '_100%' }, demo));
    expect(hit.list.map((r: any) => r.code)).toEqual(['L007']);
    const none = await ok(t.call('cdm', SUPPLIER.list, { page: 1, pageSize: 50, keyword: '%' }, demo));
    expect(none.total).toBe(1);
  });

  it('refuses sort and filter fields that the resource does not declare', async () => {
    const badSort = await t.call('cdm', SUPPLIER.list, { page: 1, sort: { field: 'name; drop table supplier', order: 'ascend' } }, demo);
    expect(badSort.code).toBe('COMMON_VALIDATION_4000');
    const badFilter = await t.call('cdm', SUPPLIER.list, { page: 1, filters: { companyId: 2 } }, demo);
    expect(badFilter.code).toBe('COMMON_VALIDATION_4000');
    const notFilterable = await t.call('cdm', SUPPLIER.list, { page: 1, filters: { remark: 'x' } }, demo);
    expect(notFilterable.msg).toContain('备注');
    const tooBig = await t.call('cdm', SUPPLIER.list, { page: 1, pageSize: 1001 }, demo);
    expect(tooBig.code).toBe('COMMON_VALIDATION_4000');
    expect(tooBig.msg).toContain('每页条数');
  });
});

describe('get, save and versions', () => {
  it('creates, reads, updates with the version and refuses a stale version', async () => {
    const usd = await currencyId(demo, 'USD');
    const created = await ok(t.call('cdm', SUPPLIER.save, { code: 'V001', name: '版本测试供应商', currencyId: usd, paymentDays: 30 }, demo));
    expect(created.version).toBe(1);
    expect(created.enabled).toBe(true);
    const got = await ok(t.call('cdm', SUPPLIER.get, { id: created.id }, demo));
    expect(got).toMatchObject({ code: 'V001', currencyId: usd, currencyName: '美元', paymentDays: 30 });

    const updated = await ok(t.call('cdm', SUPPLIER.save, { id: created.id, version: 1, name: '版本测试供应商（改）' }, demo));
    expect(updated.version).toBe(2);
    expect(updated.paymentDays).toBe(30); // fields not sent are kept

    const stale = await t.call('cdm', SUPPLIER.save, { id: created.id, version: 1, name: '过期的修改' }, demo);
    expect(stale.code).toBe('COMMON_VERSION_CONFLICT_4009');
    expect(stale.msg).toBe('供应商已被其他人修改，请刷新后重试');
    expect((await ok(t.call('cdm', SUPPLIER.get, { id: created.id }, demo))).name).toBe('版本测试供应商（改）');

    const missing = await t.call('cdm', SUPPLIER.get, { id: 999999 }, demo);
    expect(missing.code).toBe('COMMON_NOT_FOUND_4004');
    expect(missing.msg).toBe('供应商不存在或已被删除');
  });

  it('validates every field with Chinese messages naming it, and writes nothing', async () => {
    const r = await t.call('cdm', SUPPLIER.save, { code: '', name: 'x'.repeat(101), paymentDays: 1.5, email: 'not-mail', enabled: 'maybe' }, demo);
    expect(r.code).toBe('COMMON_VALIDATION_4000');
    const messages = r.data.errors.map((e: any) => e.message);
    expect(messages).toEqual(expect.arrayContaining(['供应商编码不能为空', '供应商名称长度不能超过 100 个字符', '账期（天）必须是整数', '邮箱格式不正确']));
    expect(r.data.errors.find((e: any) => e.field === 'enabled').message).toContain('状态取值不正确');

    const rate = await t.call('cdm', RATE.save, { currencyId: await currencyId(demo, 'USD'), rateDate: '2026-02-30', rate: '7.1234567' }, demo);
    expect(rate.data.errors.map((e: any) => e.message)).toEqual(['日期不是有效的日期（YYYY-MM-DD）', '汇率最多 6 位小数']);
    const cur = await t.call('cdm', CURRENCY.save, { code: 'ABC', currencyName: '  ' }, demo);
    expect(cur.msg).toBe('币种名称不能为空');
  });

  it('keeps money and decimals exact', async () => {
    const usd = await currencyId(demo, 'USD');
    const rate = await ok(t.call('cdm', RATE.save, { currencyId: usd, rateDate: '2026-03-01', rate: '7.000001' }, demo));
    expect(rate.rate).toBe('7.000001');
    const client = await ok(t.call('cdm', '011703', { code: 'M001', name: '金额客户', creditLimit: 0.1 + 0.2 }, demo));
    expect(client.creditLimit).toBe('0.30');
    const big = await ok(t.call('cdm', '011703', { id: client.id, version: 1, creditLimit: '12345678901.99' }, demo));
    expect(big.creditLimit).toBe('12345678901.99');
    const three = await t.call('cdm', '011703', { id: client.id, version: 2, creditLimit: '1.005' }, demo);
    expect(three.msg).toBe('信用额度最多 2 位小数');
  });

  it('refuses a duplicate of a unique field or key within the company only', async () => {
    const dup = await t.call('cdm', SUPPLIER.save, { code: 'S001', name: '重复' }, demo);
    expect(dup.code).toBe('COMMON_UNIQUE_4011');
    expect(dup.msg).toBe('供应商编码“S001”已存在');
    // another company may use the same code
    await ok(t.call('cdm', SUPPLIER.save, { code: 'S001', name: '二公司的供应商' }, demo2));

    const usd = await currencyId(demo, 'USD');
    const rateDup = await t.call('cdm', RATE.save, { currencyId: usd, rateDate: '2026-01-01', rate: '7.2' }, demo);
    expect(rateDup.code).toBe('COMMON_UNIQUE_4011');
    expect(rateDup.msg).toBe('币种+日期“美元 2026-01-01”已存在');
  });

  it('treats a reference to another company as missing', async () => {
    const foreignCurrency = await currencyId(demo2, 'CNY');
    const r = await t.call('cdm', SUPPLIER.save, { code: 'X001', name: '跨公司引用', currencyId: foreignCurrency }, demo);
    expect(r.code).toBe('COMMON_VALIDATION_4000');
    expect(r.msg).toBe('结算币种不存在');
    const list = await ok(t.call('cdm', SUPPLIER.list, { page: 1, filters: { code: 'X001' } }, demo));
    expect(list.total).toBe(0);
  });

  it('keeps a tree free of cycles', async () => {
    const a = await ok(t.call('cdm', '012903', { code: 'T1', name: '树一' }, demo));
    const b = await ok(t.call('cdm', '012903', { code: 'T2', name: '树二', parentId: a.id }, demo));
    expect(b.parentName).toBe('树一');
    const cycle = await t.call('cdm', '012903', { id: a.id, version: 1, parentId: b.id }, demo);
    expect(cycle.msg).toBe('上级部门不能是自身或其下级');
  });

  it('checks IP ranges with the whitelist parser', async () => {
    const bad = await t.call('cdm', '013903', { cidr: '300.1.1.1/8' }, demo);
    expect(bad.msg).toBe('IP 地址或网段格式不正确');
    const good = await ok(t.call('cdm', '013903', { cidr: '10.0.0.0/8', enabled: false }, demo));
    expect(good.cidr).toBe('10.0.0.0/8');
  });
});

describe('accounts', () => {
  it('never returns the password, ends sessions when it changes or the account is disabled', async () => {
    const roles = await ok(t.call('cdm', '013309', {}, demo));
    const clerkRole = roles.find((r: any) => r.label === '采购员').id;
    const acc = await ok(t.call('cdm', ACCOUNT.save, { userName: 'tester', password: 'secret-111', roleIds: [clerkRole] }, demo));
    expect(acc.roleNames).toEqual(['采购员']);
    expect(JSON.stringify(acc)).not.toMatch(/password"|passwordHash|scrypt/);
    const listed = await ok(t.call('cdm', ACCOUNT.list, { page: 1, keyword: 'tester' }, demo));
    expect(JSON.stringify(listed)).not.toMatch(/passwordHash|scrypt/);

    const token = await t.login('demo', 'tester', 'secret-111');
    expect((await t.call('cdm', SUPPLIER.list, { page: 1 }, token)).code).toBe('200');
    const changed = await ok(t.call('cdm', ACCOUNT.save, { id: acc.id, version: 1, password: 'secret-222' }, demo));
    expect(changed.passwordChangedAt).toBeTruthy();
    advanceClock(1100); // the caller cache holds for at most a second
    expect((await t.call('cdm', SUPPLIER.list, { page: 1 }, token)).code).toBe('5011');

    const token2 = await t.login('demo', 'tester', 'secret-222');
    await ok(t.call('cdm', ACCOUNT.save, { id: acc.id, version: 2, enabled: false }, demo));
    advanceClock(1100);
    expect(['5011', '5019']).toContain((await t.call('cdm', SUPPLIER.list, { page: 1 }, token2)).code);

    const audit = await ok(t.call('cdm', AUDIT.list, { page: 1, filters: { entity: 'account', recordId: String(acc.id), action: 'update' }, sort: { field: 'at', order: 'ascend' } }, demo));
    const pw = audit.list[0].changes.find((c: any) => c.field === 'password');
    expect(pw).toEqual({ field: 'password', title: '密码', from: '******', to: '******' });
    expect(JSON.stringify(audit)).not.toContain('secret');
  });

  it('lets a role editor grant only rights it holds itself', async () => {
    const editorRights = ['baseConfig.role', 'baseConfig.role.edit', 'baseConfig.accountManagementList', 'baseConfig.accountManagementList.edit'];
    const role = await ok(t.call('cdm', ROLE.save, { name: '角色管理员', rights: editorRights }, demo));
    const acc = await ok(t.call('cdm', ACCOUNT.save, { userName: 'roleadmin', password: 'secret-111', roleIds: [role.id] }, demo));
    const token = await t.login('demo', 'roleadmin', 'secret-111');
    const all = await t.call('cdm', ROLE.save, { name: '越权一', allRights: true }, token);
    expect(all.msg).toBe('您没有全部权限，不能授予全部权限');
    const more = await t.call('cdm', ROLE.save, { name: '越权二', rights: ['baseConfig.role', 'commodity.list'] }, token);
    expect(more.msg).toBe('不能授予您自己没有的权限：commodity.list');
    await ok(t.call('cdm', ROLE.save, { name: '子集角色', rights: ['baseConfig.role'] }, token));
    const roles = await ok(t.call('cdm', '013309', {}, demo));
    const adminRole = roles.find((r: any) => r.label === '管理员').id;
    const self = await t.call('cdm', ACCOUNT.save, { id: acc.id, version: acc.version, roleIds: [role.id, adminRole] }, token);
    expect(self.msg).toBe('角色“管理员”包含您没有的权限，不能分配');
  });

  it('refuses to delete or disable the caller itself', async () => {
    const me = (await ok(t.call('cdm', ACCOUNT.list, { page: 1, filters: { userName: 'admin' } }, demo))).list[0];
    expect((await t.call('cdm', ACCOUNT.remove, { id: me.id }, demo)).code).toBe('ACCOUNT_SELF_4052');
    expect((await t.call('cdm', ACCOUNT.save, { id: me.id, version: me.version, enabled: false }, demo)).code).toBe('ACCOUNT_SELF_4052');
  });
});

describe('remove', () => {
  it('refuses while another row references it, names both, and removes when free', async () => {
    const cur = await ok(t.call('cdm', CURRENCY.save, { code: 'RMV', currencyName: '待删币种' }, demo));
    const sup = await ok(t.call('cdm', SUPPLIER.save, { code: 'R001', name: '引用币种的供应商', currencyId: cur.id }, demo));
    const refused = await t.call('cdm', CURRENCY.remove, { id: cur.id }, demo);
    expect(refused.code).toBe('COMMON_REFERENCED_4010');
    expect(refused.msg).toBe('币种“待删币种”正在被供应商使用，不能删除');

    await ok(t.call('cdm', SUPPLIER.remove, { ids: [sup.id] }, demo));
    expect((await t.call('cdm', SUPPLIER.get, { id: sup.id }, demo)).code).toBe('COMMON_NOT_FOUND_4004');
    expect(await ok(t.call('cdm', CURRENCY.remove, { id: cur.id }, demo))).toEqual({ removed: 1 });
    const audit = await ok(t.call('cdm', AUDIT.list, { page: 1, filters: { entity: 'currency', action: 'remove', recordId: String(cur.id) } }, demo));
    expect(audit.total).toBe(1);
    expect(audit.list[0].recordLabel).toBe('待删币种');
  });

  it('sees ids held in JSON lists (account.roleIds) and the company base currency', async () => {
    const roles = await ok(t.call('cdm', '013309', {}, demo));
    const clerkRole = roles.find((r: any) => r.label === '采购员').id;
    const refused = await t.call('cdm', ROLE.remove, { id: clerkRole }, demo);
    expect(refused.code).toBe('COMMON_REFERENCED_4010');
    expect(refused.msg).toBe('角色“采购员”正在被账号使用，不能删除');
    const cny = await currencyId(demo, 'CNY');
    const base = await t.call('cdm', CURRENCY.remove, { id: cny }, demo);
    expect(base.code).toBe('COMMON_REFERENCED_4010');
  });

  it('removes nothing when one of several ids is unknown', async () => {
    const a = await ok(t.call('cdm', SUPPLIER.save, { code: 'R101', name: '批量删除一' }, demo));
    const r = await t.call('cdm', SUPPLIER.remove, { ids: [a.id, 987654] }, demo);
    expect(r.code).toBe('COMMON_NOT_FOUND_4004');
    expect((await t.call('cdm', SUPPLIER.get, { id: a.id }, demo)).code).toBe('200');
  });
});

describe('export and template', () => {
  it('streams an xlsx with Chinese headers; formula-looking text stays text', async () => {
    for (const [code, name] of [['F001', '=HYPERLINK("http://evil.example","点我")'], ['F002', '+1+2'], ['F003', '-3'], ['F004', '@SUM(A1)']]) {
      await ok(t.call('cdm', SUPPLIER.save, { code, name, paymentDays: 45 }, demo));
    }
    const res = await download(SUPPLIER.export, { filters: { code: 'F' }, sort: { field: 'code', order: 'ascend' } }, demo);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(fileNameOf(res)).toMatch(/^供应商_\d{8}\.xlsx$/);
    const [sheet] = await readXlsx(res.rawPayload);
    expect(sheet.rows[0].map((c) => c.text)).toEqual([
      '供应商编码', '供应商名称', '联系人', '电话', '邮箱', '地址', '结算币种', '账期（天）', '税号', '开户银行', '银行账号', '状态', '备注',
    ]);
    expect(sheet.rows).toHaveLength(5);
    const names = sheet.rows.slice(1).map((r) => r[1]);
    expect(names.map((c) => c.text)).toEqual(['=HYPERLINK("http://evil.example","点我")', '+1+2', '-3', '@SUM(A1)']);
    for (const c of names) expect(c.type).not.toBe('Formula');
    expect(sheet.rows[1][7].value).toBe(45);
    expect(sheet.rows[1][11].text).toBe('启用');
    for (const xml of await sheetXml(res.rawPayload)) expect(xml).not.toMatch(/<f[ >]/);
  });

  it('exports references by label and money as numbers', async () => {
    const res = await download('011709', { filters: { code: 'M001' } }, demo);
    const [sheet] = await readXlsx(res.rawPayload);
    const header = sheet.rows[0].map((c) => c.text);
    expect(sheet.rows[1][header.indexOf('信用额度')].value).toBe(12345678901.99);
  });

  it('refuses bad filters before any file is sent', async () => {
    const r = await t.call('cdm', SUPPLIER.export, { sort: { field: 'password' } }, demo);
    expect(r.code).toBe('COMMON_VALIDATION_4000');
  });

  it('gives a template with the importable columns and a notes sheet', async () => {
    const res = await download(CURRENCY.template, {}, demo);
    expect(fileNameOf(res)).toBe('币种导入模板.xlsx');
    const [data, notes] = await readXlsx(res.rawPayload);
    expect(data.rows[0].map((c) => c.text)).toEqual(['币种代码', '币种名称', '币种符号', '本位币', '状态', '备注']);
    expect(data.rows).toHaveLength(1);
    expect(notes.name).toBe('填写说明');
    expect(notes.rows.map((r) => r[0]?.text)).toContain('币种代码');
  });
});

describe('import', () => {
  const header: Cell[] = ['供应商编码', '供应商名称', '账期（天）', '结算币种', '状态', '备注'];

  async function supplierCount(): Promise<number> {
    return (await ok(t.call('cdm', SUPPLIER.list, { page: 1, pageSize: 1 }, demo))).total;
  }

  it('reports every bad row of an .xlsx with its row number and writes nothing', async () => {
    const before = await supplierCount();
    const file = await makeXlsx([
      header,
      ['I001', '导入一', 10, '美元', '启用', null],
      ['I002', '', 'abc', '不存在的币种', '启用', null],
      ['I003', '导入三', 5, 'USD', '停用', null],
      ['I001', '重复编码', 1, null, null, null],
      ['S001', '已存在则更新', 60, null, null, null],
    ]);
    const r = await upload(SUPPLIER.import, '供应商.xlsx', file, demo);
    expect(r.code).toBe('COMMON_IMPORT_4012');
    expect(r.msg).toBe('导入失败：共 2 行有错误，未写入任何数据');
    const rows = r.data.errors.map((e: any) => `${e.row}:${e.field}`);
    expect(rows).toEqual(expect.arrayContaining(['3:name', '3:paymentDays', '3:currencyId', '5:code']));
    expect(r.data.errors.find((e: any) => e.row === 3 && e.field === 'currencyId').message).toBe('第 3 行：结算币种“不存在的币种”不存在');
    expect(await supplierCount()).toBe(before);
  });

  it('reads a legacy .xls the same way', async () => {
    const before = await supplierCount();
    const bad = makeXls([header, ['X101', 'xls 一', 3, null, null, null], ['X102', 'xls 二', -1, null, '也许', null]]);
    const r = await upload(SUPPLIER.import, 'legacy.xls', bad, demo);
    expect(r.code).toBe('COMMON_IMPORT_4012');
    expect(r.data.errors.map((e: any) => e.row)).toEqual([3, 3]);
    expect(r.data.errors.map((e: any) => e.message)).toEqual(['第 3 行：账期（天）不能小于 0', '第 3 行：状态取值不正确，应为启用或停用']);
    expect(await supplierCount()).toBe(before);

    const good = makeXls([header, ['X101', 'xls 一', 3, '欧元', null, '来自 xls'], ['X102', 'xls 二', 7, null, '停用', null]]);
    expect(await ok(upload(SUPPLIER.import, 'legacy.xls', good, demo))).toEqual({ created: 2, updated: 0, unchanged: 0 });
    const x = await ok(t.call('cdm', SUPPLIER.list, { page: 1, filters: { code: ['X101', 'X102'] }, sort: { field: 'code' } }, demo));
    expect(x.list.map((s: any) => [s.code, s.paymentDays, s.currencyName, s.enabled, s.remark])).toEqual([
      ['X101', 3, '欧元', true, '来自 xls'], ['X102', 7, null, false, null],
    ]);
  });

  it('creates new rows and updates existing ones by the unique code, with audit entries', async () => {
    const before = await supplierCount();
    const file = await makeXlsx([
      ['*供应商编码', '供应商名称', '账期（天）', '不认识的列'],
      ['I201', '导入新供应商', 15, 'ignored'],
      ['S001', '宁波华东五金制品厂（导入改名）', 30, 'ignored'],
    ]);
    const r = await ok(upload(SUPPLIER.import, '供应商.xlsx', file, demo));
    expect(r).toEqual({ created: 1, updated: 1, unchanged: 0 });
    expect(await supplierCount()).toBe(before + 1);
    const s001 = (await ok(t.call('cdm', SUPPLIER.list, { page: 1, filters: { code: 'S001' } }, demo))).list[0];
    expect(s001.name).toBe('宁波华东五金制品厂（导入改名）');
    expect(s001.contact).toBe('陈经理'); // columns not in the file are kept
    expect(s001.version).toBe(2);
    const audit = await ok(t.call('cdm', AUDIT.list, { page: 1, filters: { entity: 'supplier', recordId: String(s001.id), action: 'update' } }, demo));
    expect(audit.list[0].changes).toEqual([{ field: 'name', title: '供应商名称', from: '宁波华东五金制品厂', to: '宁波华东五金制品厂（导入改名）' }]);
    const summary = await ok(t.call('cdm', AUDIT.list, { page: 1, filters: { entity: 'supplier', action: 'import' } }, demo));
    expect(summary.list[0].recordLabel).toBe('供应商.xlsx');
    // the same file again changes nothing
    expect(await ok(upload(SUPPLIER.import, '供应商.xlsx', file, demo))).toEqual({ created: 0, updated: 0, unchanged: 2 });
  });

  it('resolves composite keys and dates (exchange rates by currency + date)', async () => {
    const file = await makeXlsx([
      ['币种', '日期', '汇率'],
      ['USD', new Date(Date.UTC(2026, 3, 1)), 7.25],
      ['欧元', '2026-04-01', '7.9'],
      ['美元', '2026-01-01', 7.1],
    ]);
    expect(await ok(upload(RATE.import, 'rates.xlsx', file, demo))).toEqual({ created: 2, updated: 1, unchanged: 0 });
    const list = await ok(t.call('cdm', RATE.list, { page: 1, filters: { rateDate: ['2026-04-01', '2026-04-01'] }, sort: { field: 'rate', order: 'ascend' } }, demo));
    expect(list.list.map((r: any) => [r.currencyName, r.rate])).toEqual([['美元', '7.250000'], ['欧元', '7.900000']]);
  });

  it('checks the file by extension and content', async () => {
    const text = Buffer.from('code,name\nA,B\n');
    expect((await upload(SUPPLIER.import, 'a.xlsx', text, demo)).code).toBe('COMMON_IMPORT_FILE_4013');
    const realXlsx = await makeXlsx([header]);
    const wrongExt = await upload(SUPPLIER.import, 'a.xls', realXlsx, demo);
    expect(wrongExt.code).toBe('COMMON_IMPORT_FILE_4013');
    expect(wrongExt.msg).toBe('附件格式错误，请重新上传！');
    expect((await upload(SUPPLIER.import, 'a.csv', text, demo)).code).toBe('COMMON_IMPORT_FILE_4013');
    const none = await t.call('cdm', SUPPLIER.import, {}, demo);
    expect(none.code).toBe('COMMON_IMPORT_EMPTY_4014');
    expect(none.msg).toBe('请上传附件！');
    const broken = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(100, 1)]);
    expect((await upload(SUPPLIER.import, 'broken.xlsx', broken, demo)).code).toBe('COMMON_IMPORT_FILE_4013');
  });

  it('names a missing required column', async () => {
    const r = await upload(SUPPLIER.import, 's.xlsx', await makeXlsx([['供应商名称'], ['只有名称']]), demo);
    expect(r.code).toBe('COMMON_IMPORT_4012');
    expect(r.data.errors[0]).toMatchObject({ row: 1, field: 'code', message: '缺少必填列“供应商编码”' });
  });
});

describe('options and the audit log', () => {
  it('lists enabled rows as {id, label, code} (the code a clerk types finds the option too)', async () => {
    const opts = await ok(t.call('cdm', SUPPLIER.options, undefined, demo, { method: 'GET' }));
    expect(opts.length).toBeGreaterThan(5);
    expect(Object.keys(opts[0]).sort()).toEqual(['code', 'id', 'label']);
    const one = await ok(t.call('cdm', SUPPLIER.get, { id: opts[0].id }, demo));
    expect(opts[0]).toEqual({ id: one.id, label: one.name, code: one.code });
    const disabled = await ok(t.call('cdm', SUPPLIER.list, { page: 1, pageSize: 100, filters: { enabled: false } }, demo));
    const ids = new Set(opts.map((o: any) => o.id));
    for (const s of disabled.list) expect(ids.has(s.id)).toBe(false);
  });

  it('records field-by-field changes with titles', async () => {
    const c = await ok(t.call('cdm', CURRENCY.save, { code: 'AUD', currencyName: '澳元' }, demo));
    await ok(t.call('cdm', CURRENCY.save, { id: c.id, version: 1, currencyName: '澳大利亚元', enabled: false }, demo));
    const log = await ok(t.call('cdm', AUDIT.list, { page: 1, filters: { entity: 'currency', recordId: String(c.id) }, sort: { field: 'at', order: 'ascend' } }, demo));
    expect(log.list.map((e: any) => e.action)).toEqual(['create', 'update']);
    expect(log.list[1]).toMatchObject({ userName: 'admin', entityTitle: '币种', recordLabel: '澳大利亚元', endpoint: 'cdm:012103' });
    expect(log.list[1].changes).toEqual([
      { field: 'currencyName', title: '币种名称', from: '澳元', to: '澳大利亚元' },
      { field: 'enabled', title: '状态', from: '启用', to: '停用' },
    ]);
    const res = await download(AUDIT.export, { filters: { entity: 'currency', recordId: String(c.id) }, sort: { field: 'at', order: 'ascend' } }, demo);
    const [sheet] = await readXlsx(res.rawPayload);
    expect(sheet.rows[0].map((x) => x.text)).toContain('字段变化');
    expect(sheet.rows[2].map((x) => x.text).join('|')).toContain('币种名称：澳元 → 澳大利亚元');
    // demo2 sees none of demo's log
    const other = await ok(t.call('cdm', AUDIT.list, { page: 1, filters: { entity: 'currency', recordId: String(c.id) } }, demo2));
    expect(other.total).toBe(0);
  });
});
