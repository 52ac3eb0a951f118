// Basic settings through the catalog codes: company titles, customs codes, the company's own record,
// rate history for the dynamicExchange chart, role members, the department tree — each within the
// caller's company and behind its rights.
import crypto from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeXlsx, multipart, readXlsx } from '../fixtures/spreadsheets.ts';
import { ok, startTestServer, type TestServer } from './helpers.ts';


const RISE = { list: '014201', get: '014202', save: '014203', remove: '014204', export: '014205', import: '014206', template: '014207', options: '014208', setDefault: '014209' };
const CUSTOMS = { list: '014501', get: '014502', save: '014503', remove: '014504', export: '014505', import: '014506', template: '014507', options: '014508' };
const COMPANY = { get: '013603', save: '013604' };

let t: TestServer;
let demo: string;
let demo2: string;


async function uploadMedia(token: string, name: string, body: Buffer, type: string): Promise<string> {
  const { payload, headers } = multipart(name, body, type);
  return (await ok(t.call('storage', '980107', undefined, token, { payload, headers }))).mediaId;
}

const png = () => sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 200, g: 10, b: 10 } } }).png().toBuffer();

async function currencyId(token: string, code: string): Promise<number> {
  return (await ok(t.call('cdm', '012101', { page: 1, filters: { code } }, token))).list[0].id;
}

/** An account holding exactly the given rights (a fresh role), logged in. */
async function tokenWith(rights: string[]): Promise<string> {
  const tag = crypto.randomBytes(3).toString('hex');
  const role = await ok(t.call('cdm', '013303', { name: `角色${tag}`, rights }, demo));
  await ok(t.call('cdm', '013403', { userName: `u${tag}`, password: 'secret123', roleIds: [role.id] }, demo));
  return t.login('demo', `u${tag}`, 'secret123');
}

beforeAll(async () => {
  t = await startTestServer();
  demo = await t.login('demo', 'admin', 'demo123');
  demo2 = await t.login('demo2', 'admin', 'demo123');
});
afterAll(async () => t?.close());

describe('company titles (companyRise)', () => {
  it('creates, reads, lists, updates and removes a title', async () => {
    const seeded = await ok(t.call('cdm', RISE.list, { page: 1 }, demo));
    expect(seeded.list.map((r: any) => r.name)).toEqual(['演示贸易有限公司']);
    expect(seeded.list[0]).toMatchObject({ isDefault: true, taxNo: '91310115MA1K000001', swiftCode: 'BKCHCNBJ300' });

    const created = await ok(t.call('cdm', RISE.save, {
      name: '演示贸易（香港）有限公司', nameEn: 'Demo Trading (HK) Ltd.', taxNo: 'HK-12345678', address: '香港中环', phone: '+852 2888 0000',
      email: 'hk@demo.example', bankName: '汇丰银行', bankAccount: '123-456789-001', swiftCode: 'HSBCHKHH',
    }, demo));
    expect(created).toMatchObject({ version: 1, isDefault: false, enabled: true, bankAccount: '123-456789-001' });
    const got = await ok(t.call('cdm', RISE.get, { id: created.id }, demo));
    expect(got.nameEn).toBe('Demo Trading (HK) Ltd.');
    const updated = await ok(t.call('cdm', RISE.save, { id: created.id, version: 1, phone: '+852 2888 0001' }, demo));
    expect(updated).toMatchObject({ version: 2, phone: '+852 2888 0001', name: '演示贸易（香港）有限公司' });

    const dup = await t.call('cdm', RISE.save, { name: '演示贸易（香港）有限公司' }, demo);
    expect(dup).toMatchObject({ code: 'COMMON_UNIQUE_4011', msg: '抬头名称“演示贸易（香港）有限公司”已存在' });
    const bad = await t.call('cdm', RISE.save, { name: '坏数据', email: 'not-an-email', swiftCode: 'X1' }, demo);
    expect(bad.code).toBe('COMMON_VALIDATION_4000');
    expect(bad.data.errors.map((e: any) => e.field).sort()).toEqual(['email', 'swiftCode']);

    const opts = await ok(t.call('cdm', RISE.options, {}, demo));
    expect(opts.map((o: any) => o.label)).toEqual(expect.arrayContaining(['演示贸易有限公司', '演示贸易（香港）有限公司']));

    const file = await t.raw('cdm', RISE.export, {}, demo);
    const [sheet] = await readXlsx(file.rawPayload);
    expect(sheet.rows[0].map((c) => c.text)).toContain('纳税人识别号');
    expect(sheet.rows.length).toBe(3);

    expect(await ok(t.call('cdm', RISE.remove, { id: created.id }, demo))).toEqual({ removed: 1 });
    expect((await t.call('cdm', RISE.get, { id: created.id }, demo)).code).toBe('COMMON_NOT_FOUND_4004');
  });

  it('keeps one default title: saving or setting a default takes it from the others', async () => {
    const first = (await ok(t.call('cdm', RISE.list, { page: 1, filters: { isDefault: true } }, demo))).list[0];
    const b = await ok(t.call('cdm', RISE.save, { name: '默认抬头测试B', isDefault: true }, demo));
    const defaults = async () => (await ok(t.call('cdm', RISE.list, { page: 1, filters: { isDefault: true } }, demo))).list.map((r: any) => r.id);
    expect(await defaults()).toEqual([b.id]);
    // the title that lost the flag got a new version (an open form of it cannot silently take it back)
    expect((await ok(t.call('cdm', RISE.get, { id: first.id }, demo))).version).toBe(first.version + 1);

    expect(await ok(t.call('cdm', RISE.setDefault, { id: first.id }, demo))).toEqual({ id: first.id, isDefault: true });
    expect(await defaults()).toEqual([first.id]);
    expect(await ok(t.call('cdm', RISE.setDefault, { id: first.id }, demo))).toEqual({ id: first.id, isDefault: true });

    const off = await ok(t.call('cdm', RISE.save, { name: '停用抬头', enabled: false }, demo));
    const refused = await t.call('cdm', RISE.setDefault, { id: off.id }, demo);
    expect(refused.code).toBe('COMMON_VALIDATION_4000');
    expect(refused.msg).toContain('已停用');
    expect((await t.call('cdm', RISE.setDefault, { id: first.id }, demo2)).code).toBe('COMMON_NOT_FOUND_4004');
    expect(await defaults()).toEqual([first.id]);
  });

  it('takes a logo uploaded by the same company, and only an image', async () => {
    const logo = await uploadMedia(demo, 'logo.png', await png(), 'image/png');
    const saved = await ok(t.call('cdm', RISE.save, { name: '带标志的抬头', logoId: logo }, demo));
    expect(saved.logoId).toBe(logo);

    const pdf = await uploadMedia(demo, 'a.pdf', Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n'), 'application/pdf');
    const notImage = await t.call('cdm', RISE.save, { name: 'PDF 标志', logoId: pdf }, demo);
    expect(notImage.data.errors).toEqual([{ field: 'logoId', message: '标志必须是图片（PNG、JPEG、GIF 或 WebP）' }]);

    const foreign = await uploadMedia(demo2, 'logo2.png', await png(), 'image/png');
    const other = await t.call('cdm', RISE.save, { name: '别家标志', logoId: foreign }, demo);
    expect(other.data.errors).toEqual([{ field: 'logoId', message: '标志图片不存在，请重新上传' }]);
  });

  it('imports titles from a spreadsheet and hands out a template', async () => {
    const tpl = await t.raw('cdm', RISE.template, {}, demo);
    const [sheet] = await readXlsx(tpl.rawPayload);
    expect(sheet.rows[0].map((c) => c.text)).toEqual(expect.arrayContaining(['抬头名称', '英文名称', '银行账号', '默认抬头']));
    const body = await makeXlsx([['抬头名称', '纳税人识别号', '开户银行'], ['导入抬头一', '91330100TEST00001', '工商银行'], ['导入抬头二', null, null]]);
    const { payload, headers } = multipart('titles.xlsx', body);
    expect(await ok(t.call('cdm', RISE.import, undefined, demo, { payload, headers }))).toEqual({ created: 2, updated: 0, unchanged: 0 });
    const list = await ok(t.call('cdm', RISE.list, { page: 1, keyword: '导入抬头' }, demo));
    expect(list.list.map((r: any) => [r.name, r.bankName]).sort()).toEqual([['导入抬头一', '工商银行'], ['导入抬头二', null]]);
  });
});

describe('customs codes (customsList)', () => {
  it('keeps HS codes with exact tax rates', async () => {
    const seeded = await ok(t.call('cdm', CUSTOMS.list, { page: 1, filters: { hsCode: '8471' } }, demo));
    expect(seeded.list).toEqual([expect.objectContaining({ hsCode: '8471300000', unit: '台', importTaxRate: '0.0000', vatRate: '0.1300', exportRebateRate: '0.1300' })]);

    const created = await ok(t.call('cdm', CUSTOMS.save, { hsCode: '3926909090', name: '其他塑料制品', unit: '千克', importTaxRate: '0.065', vatRate: 0.13, exportRebateRate: '0.13', supervision: 'AB' }, demo));
    expect(created).toMatchObject({ importTaxRate: '0.0650', vatRate: '0.1300', exportRebateRate: '0.1300', enabled: true });
    const bad = await t.call('cdm', CUSTOMS.save, { hsCode: '39A6', name: 'x', vatRate: '1.5', importTaxRate: '0.12345' }, demo);
    expect(bad.code).toBe('COMMON_VALIDATION_4000');
    expect(Object.fromEntries(bad.data.errors.map((e: any) => [e.field, e.message]))).toEqual({
      hsCode: 'HS 编码格式不正确', vatRate: '增值税税率不能大于 1', importTaxRate: '进口关税税率最多 4 位小数',
    });
    expect((await t.call('cdm', CUSTOMS.save, { hsCode: '3926909090', name: '重复' }, demo)).code).toBe('COMMON_UNIQUE_4011');

    // a range filter on a rate compares exact decimals
    const vat = await ok(t.call('cdm', CUSTOMS.list, { page: 1, pageSize: 50, filters: { importTaxRate: ['0.05', '0.1'] }, sort: { field: 'importTaxRate', order: 'ascend' } }, demo));
    expect(vat.list.map((r: any) => r.hsCode)).toEqual(['3926909090', '8516500000']);

    const options = await ok(t.call('cdm', CUSTOMS.options, { keyword: '塑料' }, demo));
    expect(options.map((o: any) => o.label)).toEqual(['3926909090', '6402999900']);

    const updated = await ok(t.call('cdm', CUSTOMS.save, { id: created.id, version: created.version, vatRate: '0.09' }, demo));
    expect(updated.vatRate).toBe('0.0900');
    expect(await ok(t.call('cdm', CUSTOMS.remove, { ids: [created.id] }, demo))).toEqual({ removed: 1 });
  });

  it('imports codes (updating by HS code) and exports them', async () => {
    const body = await makeXlsx([
      ['HS 编码', '商品名称', '法定第一单位', '增值税税率'],
      ['8516500000', '微波炉（更新）', '台', 0.13],
      ['8509400090', '食品研磨机', '台', 0.13],
    ]);
    const { payload, headers } = multipart('customs.xlsx', body);
    expect(await ok(t.call('cdm', CUSTOMS.import, undefined, demo, { payload, headers }))).toEqual({ created: 1, updated: 1, unchanged: 0 });
    const got = await ok(t.call('cdm', CUSTOMS.list, { page: 1, filters: { hsCode: '85' } }, demo));
    expect(got.list.map((r: any) => [r.hsCode, r.name])).toEqual([['8509400090', '食品研磨机'], ['8516500000', '微波炉（更新）']]);

    const broken = await makeXlsx([['HS 编码', '商品名称', '增值税税率'], ['1234', '好行', 0.13], ['12AB', '坏行', 3]]);
    const b = multipart('broken.xlsx', broken);
    const failed = await t.call('cdm', CUSTOMS.import, undefined, demo, { payload: b.payload, headers: b.headers });
    expect(failed.code).toBe('COMMON_IMPORT_4012');
    expect(failed.data.errors.map((e: any) => e.field).sort()).toEqual(['hsCode', 'vatRate']);
    expect((await ok(t.call('cdm', CUSTOMS.list, { page: 1, filters: { hsCode: '1234' } }, demo))).total).toBe(0);

    const file = await t.raw('cdm', CUSTOMS.export, { filters: { hsCode: '85' } }, demo);
    const [sheet] = await readXlsx(file.rawPayload);
    expect(sheet.rows.slice(1).map((r) => r[0].text)).toEqual(['8509400090', '8516500000']);
  });

  it('is invisible to another company', async () => {
    expect((await ok(t.call('cdm', CUSTOMS.list, { page: 1 }, demo2))).total).toBe(0);
    expect(await ok(t.call('cdm', CUSTOMS.options, {}, demo2))).toEqual([]);
    const mine = await ok(t.call('cdm', CUSTOMS.save, { hsCode: '8471300000', name: '第二公司自己的编码' }, demo2));
    expect(mine.hsCode).toBe('8471300000');
  });
});

describe('company record (company)', () => {
  it('reads and saves the company master record with its version', async () => {
    const info = await ok(t.call('cdm', COMPANY.get, {}, demo));
    expect(info).toMatchObject({ code: 'demo', name: '演示贸易有限公司', nameEn: 'Demo Trading Co., Ltd.', taxNo: '91310115MA1K000001', logoId: null });
    const logo = await uploadMedia(demo, 'company.png', await png(), 'image/png');
    const saved = await ok(t.call('cdm', COMPANY.save, { version: info.version, address: '  上海市静安区南京西路 1 号 ', website: '', logoId: logo, phone: null }, demo));
    expect(saved).toMatchObject({ version: info.version + 1, address: '上海市静安区南京西路 1 号', website: null, phone: null, logoId: logo, name: '演示贸易有限公司' });

    const stale = await t.call('cdm', COMPANY.save, { version: info.version, address: '旧版本' }, demo);
    expect(stale).toMatchObject({ code: 'COMMON_VERSION_CONFLICT_4009', msg: '公司信息已被其他人修改，请刷新后重试' });
    const bad = await t.call('cdm', COMPANY.save, { version: saved.version, email: 'nope', name: '' }, demo);
    expect(bad.code).toBe('COMMON_VALIDATION_4000');
    expect(bad.data.errors.map((e: any) => e.field).sort()).toEqual(['email', 'name']);
    const pdf = await uploadMedia(demo, 'x.pdf', Buffer.from('%PDF-1.4\n%%EOF\n'), 'application/pdf');
    expect((await t.call('cdm', COMPANY.save, { version: saved.version, logoId: pdf }, demo)).data.errors[0].field).toBe('logoId');

    // the rename reaches the session, and the audit log has the change
    const renamed = await ok(t.call('cdm', COMPANY.save, { version: saved.version, name: '演示贸易股份有限公司' }, demo));
    expect(renamed.name).toBe('演示贸易股份有限公司');
    expect((await ok(t.call('auth', '990104', {}, demo))).companyName).toBe('演示贸易股份有限公司');
    const audit = await ok(t.call('cdm', '019702', { page: 1, filters: { entity: 'company' } }, demo));
    expect(audit.list[0].changes).toEqual([{ field: 'name', title: '公司名称', from: '演示贸易有限公司', to: '演示贸易股份有限公司' }]);

    // demo2 reads and writes only its own record
    const other = await ok(t.call('cdm', COMPANY.get, {}, demo2));
    expect(other).toMatchObject({ code: 'demo2', name: '第二演示公司', nameEn: null });
    await ok(t.call('cdm', COMPANY.save, { version: other.version, nameEn: 'Second Demo' }, demo2));
    expect((await ok(t.call('cdm', COMPANY.get, {}, demo))).nameEn).toBe('Demo Trading Co., Ltd.');
    expect((await t.call('cdm', COMPANY.save, { version: other.version + 1, logoId: logo }, demo2)).data.errors[0].message).toBe('标志图片不存在，请重新上传');
  });
});

describe('rate history (dynamicExchange)', () => {
  it('returns the series of a currency over a date range, starting with the rate in force', async () => {
    const eur = await currencyId(demo, 'EUR');
    for (const [rateDate, rate] of [['2026-02-01', '7.80'], ['2026-03-01', '7.9123'], ['2026-04-01', '7.85'], ['2026-05-01', '8']]) {
      await ok(t.call('cdm', '012503', { currencyId: eur, rateDate, rate }, demo));
    }
    const all = await ok(t.call('cdm', '012509', { currencyId: eur }, demo));
    expect(all.map((p: any) => [p.date, p.rate])).toEqual([
      ['2026-01-01', '7.785600'], ['2026-02-01', '7.800000'], ['2026-03-01', '7.912300'], ['2026-04-01', '7.850000'], ['2026-05-01', '8.000000'],
    ]);
    expect(all[2].value).toBe(7.9123);

    const range = await ok(t.call('cdm', '012509', { currencyId: eur, from: '2026-02-15', to: '2026-04-01' }, demo));
    expect(range).toEqual([
      { date: '2026-02-15', rate: '7.800000', value: 7.8, carried: true },
      { date: '2026-03-01', rate: '7.912300', value: 7.9123 },
      { date: '2026-04-01', rate: '7.850000', value: 7.85 },
    ]);
    expect(await ok(t.call('cdm', '012509', { currencyId: eur, from: '2025-01-01', to: '2025-12-31' }, demo))).toEqual([]);
    const cny = await currencyId(demo, 'CNY');
    expect(await ok(t.call('cdm', '012509', { currencyId: cny }, demo))).toEqual([]);

    const backwards = await t.call('cdm', '012509', { currencyId: eur, from: '2026-05-01', to: '2026-01-01' }, demo);
    expect(backwards.data.errors).toEqual([{ field: 'to', message: '结束日期不能早于开始日期' }]);
    const badDate = await t.call('cdm', '012509', { currencyId: eur, from: '2026-02-30' }, demo);
    expect(badDate.data.errors).toEqual([{ field: 'from', message: '开始日期不是有效的日期（YYYY-MM-DD）' }]);
    expect((await t.call('cdm', '012509', { currencyId: eur }, demo2)).code).toBe('COMMON_NOT_FOUND_4004');
  });

  it('serves the rate list and export under the dynamicExchange right alone', async () => {
    const viewer = await tokenWith(['baseConfig.dynamicExchange']);
    const eur = await currencyId(demo, 'EUR');
    const list = await ok(t.call('cdm', '012510', { page: 1, filters: { currencyId: eur }, sort: { field: 'rateDate', order: 'ascend' } }, viewer));
    expect(list.list[0]).toMatchObject({ rateDate: '2026-01-01', rate: '7.785600', currencyName: '欧元' });
    expect((await ok(t.call('cdm', '012509', { currencyId: eur }, viewer))).length).toBeGreaterThan(1);
    expect((await t.call('cdm', '012501', { page: 1 }, viewer)).code).toBe('COMMON_NO_RIGHT_4003');
    expect((await t.call('cdm', '012511', {}, viewer)).code).toBe('COMMON_NO_RIGHT_4003');
    const exporter = await tokenWith(['baseConfig.dynamicExchange', 'baseConfig.dynamicExchange.export']);
    const file = await t.raw('cdm', '012511', { filters: { currencyId: eur } }, exporter);
    expect(String(file.headers['content-type'])).toContain('spreadsheetml');
  });
});

describe('role members and the department tree', () => {
  it('lists the accounts holding a role (by parsed id, not by text match)', async () => {
    // ids 700007 and 7000071 share digits: a text match alone would mix them up
    const demoId = Number((await t.database.db.selectFrom('company').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id);
    const now = new Date().toISOString();
    const [target, lookalike] = [700007, 7000071];
    for (const id of [target, lookalike]) {
      await t.database.db.insertInto('role').values({ id, companyId: demoId, name: `成员测试${id}`, allRights: 0, rights: '[]', version: 1, createdAt: now, updatedAt: now }).execute();
    }
    const staff = await ok(t.call('cdm', '013203', { code: 'M001', name: '成员员工' }, demo));
    await ok(t.call('cdm', '013403', { userName: 'member.b', password: 'secret123', roleIds: [target], staffId: staff.id }, demo));
    await ok(t.call('cdm', '013403', { userName: 'member.a', password: 'secret123', roleIds: [lookalike, target], enabled: false }, demo));
    await ok(t.call('cdm', '013403', { userName: 'member.c', password: 'secret123', roleIds: [lookalike] }, demo));

    const members = await ok(t.call('cdm', '013310', { id: target }, demo));
    expect(members).toEqual({
      total: 2,
      list: [
        { id: expect.any(Number), userName: 'member.a', staffName: null, enabled: false },
        { id: expect.any(Number), userName: 'member.b', staffName: '成员员工', enabled: true },
      ],
    });
    expect((await ok(t.call('cdm', '013310', { id: lookalike }, demo))).list.map((m: any) => m.userName)).toEqual(['member.a', 'member.c']);
    expect((await t.call('cdm', '013310', { id: target }, demo2)).code).toBe('COMMON_NOT_FOUND_4004');
    expect((await t.call('cdm', '013310', { id: 'x' }, demo)).code).toBe('COMMON_VALIDATION_4000');
  });

  it('returns the department tree with staff counts', async () => {
    const d02 = (await ok(t.call('cdm', '012901', { page: 1, filters: { code: 'D02' } }, demo))).list[0];
    const d03 = await ok(t.call('cdm', '012903', { code: 'D04', name: '采购一组', parentId: d02.id, sort: 1 }, demo));
    await ok(t.call('cdm', '012903', { code: 'D00', name: '独立部门', sort: 9 }, demo));
    await ok(t.call('cdm', '013203', { code: 'E101', name: '组员甲', departmentId: d03.id }, demo));
    await ok(t.call('cdm', '013203', { code: 'E102', name: '组员乙', departmentId: d03.id }, demo));

    const clerk = await t.login('demo', 'clerk');
    const tree = await ok(t.call('cdm', '012909', undefined, clerk));
    const shape = (nodes: any[]): unknown => nodes.map((n) => [n.code, n.staffCount, shape(n.children)]);
    expect(shape(tree)).toEqual([
      // the seed's D02 采购部 (采购员小王), D03 销售部 (销售员小李) and D05 仓储部 (仓管员小张) under D01 总经办
      ['D01', 1, [['D02', 1, [['D04', 2, []]]], ['D03', 1, []], ['D05', 1, []]]],
      ['D00', 0, []],
    ]);
    expect(tree[0]).toMatchObject({ key: tree[0].id, value: tree[0].id, title: '总经办', parentId: null });

    const other = await ok(t.call('cdm', '012909', undefined, demo2));
    expect(shape(other)).toEqual([['D01', 1, [['D02', 0, []]]]]);
  });
});

describe('account detail helpers', () => {
  it('offers the enabled price lists of a kind for the default purchase and sale lists', async () => {
    const clerk = await t.login('demo', 'clerk');
    expect(await ok(t.call('cdm', '013410', { kind: 'purchase' }, clerk))).toEqual([{ id: expect.any(Number), label: '标准采购价', code: 'PP01', kind: 'purchase' }]);
    await ok(t.call('cdm', '014003', { code: 'SP02', name: '批发价_100%', kind: 'sale' }, demo));
    await ok(t.call('cdm', '014003', { code: 'SP03', name: '停用价', kind: 'sale', enabled: false }, demo));
    expect((await ok(t.call('cdm', '013410', { kind: 'sale' }, demo))).map((o: any) => o.code)).toEqual(['SP01', 'SP02']);
    expect((await ok(t.call('cdm', '013410', { keyword: '_100%' }, demo))).map((o: any) => o.code)).toEqual(['SP02']);
    expect((await ok(t.call('cdm', '013410', {}, demo2))).map((o: any) => o.code)).toEqual(['PP01', 'SP01']);
    expect((await t.call('cdm', '013410', { kind: 'other' }, demo)).code).toBe('COMMON_VALIDATION_4000');
  });
});

describe('rights', () => {
  it('refuses the settings codes to an account without their rights', async () => {
    const clerk = await t.login('demo', 'clerk');
    for (const code of ['014201', '014203', '014209', '014501', '014503', '013603', '013604', '012509', '013310']) {
      expect((await t.call('cdm', code, {}, clerk)).code, code).toBe('COMMON_NO_RIGHT_4003');
    }
    // viewing is not editing
    const viewer = await tokenWith(['baseConfig.companyRise', 'baseConfig.customsList', 'baseConfig.company']);
    expect((await t.call('cdm', RISE.list, { page: 1 }, viewer)).code).toBe('200');
    expect((await t.call('cdm', RISE.save, { name: '无权新增' }, viewer)).code).toBe('COMMON_NO_RIGHT_4003');
    expect((await t.call('cdm', CUSTOMS.remove, { id: 1 }, viewer)).code).toBe('COMMON_NO_RIGHT_4003');
    expect((await t.call('cdm', COMPANY.get, {}, viewer)).code).toBe('200');
    expect((await t.call('cdm', COMPANY.save, { version: 1 }, viewer)).code).toBe('COMMON_NO_RIGHT_4003');
  });
});
