// The data-management families of cdm 0105 … 0191 (issue 33 item 4, docs/master-data-groups.md) as a
// client calls them. For each of the eleven: the demo rows are there; the demo administrator creates,
// lists, reads, edits and removes a row; a user without the screen's right is refused and one with the
// read right only cannot write; company demo2 neither sees nor touches demo's rows nor names demo's
// clients, suppliers or currencies; bad input gets Chinese messages naming the field and writes nothing.
// Then what each family is wired to: cdm 010214 and the `unit` dictionary read the units of measure, and a
// renamed unit or brand is renamed on the products using it (one in use is not removed); number rules
// shape the next document number (a sales order made after the rule is saved gets the rule's number); one
// default address per client, one primary contact per party, one default bank account per currency and
// one default tax rate per kind — also when several clerks mark one at once, and an import leaving two is
// refused. SQLite, or PostgreSQL when DATABASE_URL is set.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/connection.ts';
import { MIGRATIONS } from '../../src/server/db/migrate.ts';
import { makeXlsx, multipart } from '../fixtures/spreadsheets.ts';
import { freshPgDatabase, isPostgres, ok, startTestServer, type TestServer } from './helpers.ts';

type Row = Record<string, any>;
let t: TestServer;
let demo: string;
let demo2: string;
const ids: Record<string, number> = {};

const codes = (g: string) => ({ list: `${g}01`, get: `${g}02`, save: `${g}03`, remove: `${g}04`, export: `${g}05`, import: `${g}06`, template: `${g}07`, options: `${g}08` });

async function tokenWith(rights: string[]): Promise<string> {
  const tag = crypto.randomBytes(3).toString('hex');
  const role = await ok(t.call('cdm', '013303', { name: `角色${tag}`, rights }, demo));
  await ok(t.call('cdm', '013403', { userName: `u${tag}`, password: 'secret123', roleIds: [role.id] }, demo));
  return t.login('demo', `u${tag}`, 'secret123');
}

async function idOf(token: string, code: string, body: Row, pick: (r: Row) => boolean): Promise<number> {
  const rows = (await ok(t.call('cdm', code, { page: 1, pageSize: 100, ...body }, token))).list as Row[];
  const hit = rows.find(pick);
  if (!hit) throw new Error(`${code}: no row`);
  return Number(hit.id);
}

beforeAll(async () => {
  t = await startTestServer({ LOGIN_MAX_FAILURES: '1000' });
  demo = await t.login('demo', 'admin', 'demo123');
  demo2 = await t.login('demo2', 'admin', 'demo123');
  ids.c001 = await idOf(demo, '011701', {}, (r) => r.code === 'C001');
  ids.s001 = await idOf(demo, '011601', {}, (r) => r.code === 'S001');
  ids.cny = await idOf(demo, '012101', {}, (r) => r.code === 'CNY');
  ids.usd = await idOf(demo, '012101', {}, (r) => r.code === 'USD');
  ids.demo2Cny = await idOf(demo2, '012101', {}, (r) => r.code === 'CNY');
});
afterAll(async () => t?.close());

interface Family {
  group: string;
  title: string;
  right: string;
  /** what the demo company is seeded with: at least these rows (by their label field) */
  seeded: string[];
  label: string;
  create: () => Row;
  /** the created row shows these */
  shows?: Row;
  edit: Row;
  /** a body refused field by field, and the messages it gets */
  bad: () => Row;
  messages: string[];
  /** a body demo2 saves naming demo's rows: refused with these field errors */
  foreign?: () => { body: Row; errors: Array<{ field: string; message: string }> };
}

const FAMILIES: Family[] = [
  {
    group: '0105', title: '品牌', right: 'commodity.brand', label: 'name', seeded: ['华东五金', '金鹰', '欧瑞', '利信'],
    create: () => ({ code: 'T-BR', name: '测试品牌', nameEn: 'Test Brand' }), shows: { enabled: true },
    edit: { nameEn: 'Test Brand II' },
    bad: () => ({ code: '品 牌', name: '', nameEn: 'x'.repeat(101) }),
    messages: ['品牌编码格式不正确', '品牌名称不能为空', '英文名称长度不能超过 100 个字符'],
  },
  {
    group: '0106', title: '计量单位', right: 'commodity.unit', label: 'name', seeded: ['个', '件', '盒', '包', '箱', '套', '千克'],
    create: () => ({ code: 'PAL', name: '托', sort: 50 }), shows: { decimals: 0, enabled: true },
    edit: { decimals: 2 },
    bad: () => ({ code: 'X Y', name: '超长的单位名称一二三四五', decimals: 7 }),
    messages: ['单位编码格式不正确', '单位名称长度不能超过 10 个字符', '小数位数不能大于 6'],
  },
  {
    group: '0108', title: '包装规格', right: 'commodity.packing', label: 'name', seeded: ['紧固件标准箱 1000 个', '保温杯 24 只装'],
    create: () => ({ name: '测试箱 48 只', qtyPerCarton: 48, cartonLength: '40', cartonWidth: '30', cartonHeight: '25', grossWeight: '10.5', netWeight: '10' }),
    shows: { cartonLength: '40.0', grossWeight: '10.500', cartonSize: '40.0 × 30.0 × 25.0', cartonVolume: '0.0300' },
    edit: { qtyPerCarton: 50 },
    bad: () => ({ name: '坏箱', qtyPerCarton: 0, cartonLength: '12.34', grossWeight: 'abc' }),
    messages: ['每箱数量不能小于 1', '外箱长（cm）最多 1 位小数', '毛重（kg）必须是数字'],
  },
  {
    group: '0115', title: '客户收货地址', right: 'market.clientAddress', label: 'address', seeded: ['解放路 188 号百货大楼仓库'],
    create: () => ({ clientId: ids.c001, contact: '测试', phone: '0574-87654321', province: '浙江省', city: '宁波市', address: '测试路 1 号' }),
    shows: { clientName: '杭州百货贸易公司', fullAddress: '浙江省宁波市测试路 1 号', isDefault: false },
    edit: { postcode: '315000' },
    bad: () => ({ clientId: ids.c001, address: '', phone: '电话' }),
    messages: ['详细地址不能为空', '联系电话格式不正确'],
    foreign: () => ({ body: { clientId: ids.c001, address: '别家客户的地址' }, errors: [{ field: 'clientId', message: '客户不存在' }] }),
  },
  {
    group: '0118', title: '联系人', right: 'market.contact', label: 'name', seeded: ['李小姐', '赵会计', '陈经理'],
    create: () => ({ partyKind: 'supplier', supplierId: ids.s001, name: '测试联系人', mobile: '13800000000', email: 't@example.com' }),
    shows: { supplierName: '宁波华东五金制品厂', partyName: '宁波华东五金制品厂', clientId: null, isPrimary: false },
    edit: { title: '经理' },
    bad: () => ({ partyKind: 'partner', name: '', email: 'not-mail', mobile: '手机' }),
    messages: ['往来单位类型取值不正确，可选：客户、供应商', '姓名不能为空', '邮箱格式不正确', '手机格式不正确'],
    foreign: () => ({ body: { partyKind: 'supplier', supplierId: ids.s001, name: '别家的联系人' }, errors: [{ field: 'supplierId', message: '供应商不存在' }] }),
  },
  {
    group: '0119', title: '公司银行账户', right: 'baseConfig.bankAccount', label: 'name', seeded: ['中行基本户', '招行一般户', '中行美元户'],
    create: () => ({ name: '工行欧元户', bankName: '中国工商银行上海分行', accountNo: '1001 2345 6789 000', currencyId: ids.usd }),
    shows: { currencyName: '美元', isDefault: false, enabled: true },
    edit: { swiftCode: 'ICBKCNBJSHI' },
    bad: () => ({ name: '坏账户', bankName: '某银行', accountNo: '账号一', swiftCode: '123', currencyId: null }),
    messages: ['银行账号格式不正确', 'SWIFT 代码格式不正确', '币种不能为空'],
    foreign: () => ({ body: { name: '别家币种的账户', bankName: '某银行', accountNo: '999', currencyId: ids.usd }, errors: [{ field: 'currencyId', message: '币种不存在' }] }),
  },
  {
    group: '0149', title: '付款条件', right: 'baseConfig.paymentTerm', label: 'name', seeded: ['款到发货', '发票后 30 天', '月结 30 天', '发货后 7 天'],
    create: () => ({ code: 'NET60', name: '发票后 60 天', basis: 'invoice', days: 60 }), shows: { basis: 'invoice', days: 60 },
    edit: { days: 45 },
    bad: () => ({ code: 'BAD', name: '坏条件', basis: 'weekly', days: 400 }),
    messages: ['起算依据取值不正确，可选：预付款、发货日、发票日、月结', '天数不能大于 365'],
  },
  {
    group: '0160', title: '运输方式', right: 'baseConfig.shippingMethod', label: 'name', seeded: ['汽车运输', '海运整柜', '海运拼箱', '空运', '快递', '客户自提'],
    create: () => ({ code: 'RAIL', name: '铁路运输', sort: 7 }), shows: { sort: 7 },
    edit: { remark: '中欧班列' },
    bad: () => ({ code: '铁路', name: '', sort: -1 }),
    messages: ['运输方式编码格式不正确', '运输方式名称不能为空', '排序不能小于 0'],
  },
  {
    group: '0170', title: '税率', right: 'baseConfig.taxRate', label: 'name', seeded: ['增值税 13%（销项）', '增值税 13%（进项）', '出口零税率'],
    create: () => ({ name: '增值税 6%（销项）', rate: '0.06', kind: 'output' }), shows: { rate: '0.0600', ratePercent: '6%', isDefault: false },
    edit: { remark: '现代服务' },
    bad: () => ({ name: '坏税率', rate: '1.5', kind: 'vat' }),
    messages: ['税率不能大于 1', '类型取值不正确，可选：销项、进项'],
  },
  {
    group: '0180', title: '港口与地区', right: 'baseConfig.port', label: 'name', seeded: ['上海港', '宁波港', '洛杉矶', '义乌'],
    // typed in lower case: kept in upper case
    create: () => ({ code: 'cnszx', name: '深圳港', countryCode: 'cn', country: '中国', kind: 'port' }), shows: { code: 'CNSZX', countryCode: 'CN' },
    edit: { nameEn: 'Shenzhen' },
    bad: () => ({ code: 'C-1', name: '', countryCode: 'CHN', kind: 'sea' }),
    messages: ['编码格式不正确', '名称不能为空', '国家/地区代码长度不能超过 2 个字符', '类型取值不正确，可选：港口、机场、内陆点、地区'],
  },
  {
    group: '0191', title: '单据编号规则', right: 'system.numberRule', label: 'series', seeded: ['SO', 'CG'],
    create: () => ({ series: 'DN', prefix: 'fh', datePart: 'yyyymm', serialWidth: 5 }), shows: { prefix: 'FH', seriesName: '送货单', enabled: true },
    edit: { remark: '按月计数' },
    bad: () => ({ series: 'SO2', prefix: '1X', datePart: 'weekly', serialWidth: 9 }),
    messages: ['编号系列格式不正确', '前缀格式不正确', '流水号位数不能大于 8'],
  },
];

describe.each(FAMILIES)('$title (cdm $group)', (f) => {
  const c = codes(f.group);
  let created: Row;

  it('lists the demo rows; the administrator creates, lists, reads, edits and removes one', async () => {
    const seeded = await ok(t.call('cdm', c.list, { page: 1, pageSize: 100 }, demo));
    expect(seeded.list.map((r: Row) => r[f.label])).toEqual(expect.arrayContaining(f.seeded));
    created = await ok(t.call('cdm', c.save, f.create(), demo));
    expect(created).toMatchObject({ version: 1, ...(f.shows ?? {}) });
    const listed = await ok(t.call('cdm', c.list, { page: 1, pageSize: 100 }, demo));
    expect(listed.total).toBe(seeded.total + 1);
    expect(listed.list.find((r: Row) => r.id === created.id)).toMatchObject(f.shows ?? {});
    const got = await ok(t.call('cdm', c.get, { id: created.id }, demo));
    expect(got).toMatchObject({ id: created.id, ...(f.shows ?? {}) });
    const edited = await ok(t.call('cdm', c.save, { id: created.id, version: got.version, ...f.edit }, demo));
    expect(edited).toMatchObject({ version: 2, ...f.edit });
    // a stale version is refused
    expect((await t.call('cdm', c.save, { id: created.id, version: 1, ...f.edit }, demo)).code).toBe('COMMON_VERSION_CONFLICT_4009');
    expect(await ok(t.call('cdm', c.remove, { id: created.id }, demo))).toEqual({ removed: 1 });
    expect((await t.call('cdm', c.get, { id: created.id }, demo)).code).toBe('COMMON_NOT_FOUND_4004');
    expect((await ok(t.call('cdm', c.list, { page: 1, pageSize: 100 }, demo))).total).toBe(seeded.total);
    created = await ok(t.call('cdm', c.save, f.create(), demo));
  });

  it('refuses bad input with Chinese messages naming the fields, and writes nothing', async () => {
    const before = (await ok(t.call('cdm', c.list, { page: 1 }, demo))).total;
    const bad = await t.call('cdm', c.save, f.bad(), demo);
    expect(bad.code).toBe('COMMON_VALIDATION_4000');
    expect(bad.data.errors.map((e: Row) => e.message)).toEqual(expect.arrayContaining(f.messages));
    expect(bad.msg).toContain(f.messages[0]);
    expect((await ok(t.call('cdm', c.list, { page: 1 }, demo))).total).toBe(before);
    // a copy of a row with a unique key is refused by it
    const dup = await t.call('cdm', c.save, f.create(), demo);
    expect(dup.code).toBe('COMMON_UNIQUE_4011');
  });

  it('needs the screen’s rights: none, nothing; the read right, no writes', async () => {
    const nobody = await tokenWith(['baseConfig.currency']);
    for (const code of [c.list, c.get, c.save, c.remove]) {
      expect((await t.call('cdm', code, code === c.list ? { page: 1 } : { id: created.id }, nobody)).code, code).toBe('COMMON_NO_RIGHT_4003');
    }
    const reader = await tokenWith([f.right]);
    expect((await ok(t.call('cdm', c.get, { id: created.id }, reader))).id).toBe(created.id);
    expect((await t.call('cdm', c.save, { id: created.id, version: created.version, remark: '越权' }, reader)).code).toBe('COMMON_NO_RIGHT_4003');
    expect((await t.call('cdm', c.remove, { id: created.id }, reader)).code).toBe('COMMON_NO_RIGHT_4003');
  });

  it('keeps companies apart: demo2 neither sees, reads, edits nor removes demo’s rows', async () => {
    const theirs = await ok(t.call('cdm', c.list, { page: 1, pageSize: 100 }, demo2));
    expect(theirs.list.map((r: Row) => r.id)).not.toContain(created.id);
    expect((await t.call('cdm', c.get, { id: created.id }, demo2)).code).toBe('COMMON_NOT_FOUND_4004');
    expect((await t.call('cdm', c.save, { id: created.id, version: created.version, remark: '别家改' }, demo2)).code).toBe('COMMON_NOT_FOUND_4004');
    expect((await t.call('cdm', c.remove, { id: created.id }, demo2)).code).toBe('COMMON_NOT_FOUND_4004');
    expect((await ok(t.call('cdm', c.get, { id: created.id }, demo))).remark ?? null).not.toBe('别家改');
    if (f.foreign) {
      const { body, errors } = f.foreign();
      const r = await t.call('cdm', c.save, body, demo2);
      expect(r.code).toBe('COMMON_VALIDATION_4000');
      expect(r.data.errors).toEqual(expect.arrayContaining(errors));
      expect((await ok(t.call('cdm', c.list, { page: 1 }, demo2))).total).toBe(theirs.total);
    }
  });
});

describe('units of measure and brands on products', () => {
  it('cdm 010214 and the dictionary `unit` offer the enabled units in their order', async () => {
    const units = await ok(t.call('cdm', '010214', undefined, demo, { method: 'GET' }));
    expect(units.slice(0, 3)).toEqual([
      { value: '个', label: '个', code: 'PCS', decimals: 0 }, { value: '件', label: '件', code: 'PCE', decimals: 0 }, { value: '盒', label: '盒', code: 'BOX', decimals: 0 },
    ]);
    expect(units.map((u: Row) => u.value)).toContain('托');
    const kg = units.find((u: Row) => u.value === '千克');
    const kgOption = (await ok(t.call('cdm', '010608', { keyword: 'KG' }, demo))).find((o: Row) => o.code === 'KG');
    expect(kgOption.label).toBe('千克');
    await ok(t.call('cdm', '010603', { id: kgOption.id, version: 1, enabled: false }, demo));
    expect((await ok(t.call('cdm', '010214', undefined, demo, { method: 'GET' }))).map((u: Row) => u.value)).not.toContain('千克');
    expect(kg.decimals).toBe(3);
    const dictionaries = await ok(t.call('cdm', '013801', undefined, demo));
    expect(dictionaries.unit.map((u: Row) => u.value)).toEqual(units.map((u: Row) => u.value).filter((v: string) => v !== '千克'));
    // demo2 has its own units
    expect((await ok(t.call('cdm', '010214', undefined, demo2, { method: 'GET' }))).map((u: Row) => u.value)).not.toContain('托');
    // the dictionary no longer holds units
    const item = await t.call('cdm', '013804', { dictCode: 'unit', value: '打', label: '打' }, demo);
    expect(item.data.errors).toEqual([{ field: 'dictCode', message: '计量单位请在“商品 → 计量单位”中维护，不再使用字典 unit' }]);
  });

  it('renames a unit or a brand on the products using it, and keeps one in use', async () => {
    const unit = await ok(t.call('cdm', '010603', { code: 'DZ', name: '打' }, demo));
    const brand = (await ok(t.call('cdm', '010508', { keyword: 'JY' }, demo)))[0];
    expect(brand).toMatchObject({ label: '金鹰', code: 'JY' });
    // disabled brands are not offered
    expect((await ok(t.call('cdm', '010508', {}, demo))).map((o: Row) => o.label)).not.toContain('利信');
    const product = await ok(t.call('cdm', '010203', { code: 'MDF-1', name: '单位品牌测试商品', brand: '金鹰', unitSmall: '打', unitBig: '箱', bigQty: 10 }, demo));
    const inUse = await t.call('cdm', '010604', { id: unit.id }, demo);
    expect(inUse.code).toBe('COMMON_REFERENCED_4010');
    expect(inUse.msg).toBe('计量单位“打”正在被商品使用，不能删除');
    expect((await t.call('cdm', '010504', { id: brand.id }, demo)).msg).toBe('品牌“金鹰”正在被商品使用，不能删除');

    await ok(t.call('cdm', '010603', { id: unit.id, version: 1, name: '打（12 个）' }, demo));
    const brandRow = await ok(t.call('cdm', '010502', { id: brand.id }, demo));
    await ok(t.call('cdm', '010503', { id: brand.id, version: brandRow.version, name: '金鹰牌' }, demo));
    const after = await ok(t.call('cdm', '010202', { id: product.id }, demo));
    expect(after).toMatchObject({ unitSmall: '打（12 个）', unitBig: '箱', brand: '金鹰牌', version: 3 });
    // another company's product of the same unit name is not touched
    const theirs = await ok(t.call('cdm', '010203', { code: 'MDF-1', name: '二公司商品', brand: '金鹰牌', unitSmall: '箱' }, demo2));
    const box = (await ok(t.call('cdm', '010608', { keyword: 'CTN' }, demo))).find((o: Row) => o.code === 'CTN');
    await ok(t.call('cdm', '010603', { id: box.id, version: 1, name: '大箱' }, demo));
    expect((await ok(t.call('cdm', '010202', { id: theirs.id }, demo2))).unitSmall).toBe('箱');
    expect((await ok(t.call('cdm', '010202', { id: product.id }, demo))).unitBig).toBe('大箱');
  });
});

describe('number rules shape the next document number', () => {
  it('a sales order saved after its rule is changed gets the rule’s number; switched off, the built-in one', async () => {
    const product = await ok(t.call('cdm', '010203', { code: 'NR-1', name: '编号测试商品', price: '2' }, demo));
    const warehouse = await idOf(demo, '011001', {}, () => true);
    const order = () => ok(t.call('oms', '020903', { clientId: ids.c001, warehouseId: warehouse, lines: [{ productId: product.id, qty: 1, price: '2' }] }, demo));
    const builtIn = await order();
    expect(builtIn.docNo).toMatch(/^SO\d{8}\d{4}$/);
    const day = builtIn.docNo.slice(2, 10);

    const so = (await ok(t.call('cdm', '019101', { page: 1, pageSize: 50, filters: { series: 'SO' } }, demo))).list[0];
    expect(so).toMatchObject({ series: 'SO', seriesName: '销售订单', nextNo: `SO${day}${String(Number(builtIn.docNo.slice(-4)) + 1).padStart(4, '0')}` });
    const preview = await ok(t.call('cdm', '019106', { series: 'SO', prefix: 'XS', datePart: 'yymmdd', serialWidth: 5 }, demo));
    expect(preview.nextNo).toBe(`XS${day.slice(2)}00001`);
    expect(preview.body).toContain('销售订单的下一个编号：XS');
    await ok(t.call('cdm', '019103', { id: so.id, version: so.version, prefix: 'xs', datePart: 'yymmdd', serialWidth: 5 }, demo));
    const listed = (await ok(t.call('cdm', '019101', { page: 1, filters: { series: 'SO' } }, demo))).list[0];
    expect(listed).toMatchObject({ prefix: 'XS', nextNo: preview.nextNo });
    const [a, b] = [await order(), await order()];
    expect([a.docNo, b.docNo]).toEqual([`XS${day.slice(2)}00001`, `XS${day.slice(2)}00002`]);
    // other series keep their numbers; another company is not affected
    const demo2Product = await ok(t.call('cdm', '010203', { code: 'NR-1', name: '二公司编号商品' }, demo2));
    const demo2Client = await ok(t.call('cdm', '011703', { code: 'K1', name: '二公司客户' }, demo2));
    const demo2Wh = await idOf(demo2, '011001', {}, () => true);
    expect((await ok(t.call('oms', '020903', { clientId: demo2Client.id, warehouseId: demo2Wh, lines: [{ productId: demo2Product.id, qty: 1, price: '2' }] }, demo2))).docNo).toMatch(/^SO\d{12}$/);

    const monthly = await ok(t.call('cdm', '019103', { series: 'PK', prefix: 'JH', datePart: 'none', serialWidth: 6 }, demo));
    expect((await ok(t.call('cdm', '019101', { page: 1, filters: { series: 'PK' } }, demo))).list[0]).toMatchObject({ id: monthly.id, nextNo: 'JH000001', seriesName: '拣货单' });

    // switched off: the built-in rule again, its counter where it was
    const now = await ok(t.call('cdm', '019102', { id: so.id }, demo));
    await ok(t.call('cdm', '019103', { id: so.id, version: now.version, enabled: false }, demo));
    expect((await order()).docNo).toBe(`SO${day}${String(Number(builtIn.docNo.slice(-4)) + 1).padStart(4, '0')}`);
  });

  it('refuses a series that does not exist and a prefix another series numbers with', async () => {
    const unknown = await t.call('cdm', '019103', { series: 'ZZZ', prefix: 'ZZ' }, demo);
    expect(unknown.data.errors).toEqual([{ field: 'series', message: '编号系列“ZZZ”不存在，请从列表中选择' }]);
    const builtIn = await t.call('cdm', '019103', { series: 'DP', prefix: 'CG' }, demo);
    expect(builtIn.data.errors).toEqual([{ field: 'prefix', message: '前缀“CG”是采购订单的内置前缀，请换一个前缀' }]);
    const taken = await t.call('cdm', '019103', { series: 'DP', prefix: 'JH' }, demo);
    expect(taken.data.errors).toEqual([{ field: 'prefix', message: '前缀“JH”已用于拣货单的编号规则，请换一个前缀' }]);
    const series = await ok(t.call('cdm', '019105', {}, demo));
    expect(series).toEqual(expect.arrayContaining([{ value: 'SO', label: '销售订单（SO）' }, { value: 'QC', label: expect.stringContaining('期初') }]));
    const preview = await ok(t.call('cdm', '019106', { series: 'SO', prefix: '1', serialWidth: 2 }, demo));
    expect(preview.body).toBe('前缀须为 1–10 位大写字母或数字，以字母开头；流水号位数须为 3–8');
  });
});

describe('one default per party', () => {
  it('a client’s first address is its default; marking another takes the flag; a client in use keeps its addresses', async () => {
    const client = await ok(t.call('cdm', '011703', { code: 'ADR1', name: '地址测试客户' }, demo));
    const first = await ok(t.call('cdm', '011503', { clientId: client.id, address: '一号路 1 号' }, demo));
    expect(first.isDefault).toBe(true);
    const second = await ok(t.call('cdm', '011503', { clientId: client.id, address: '二号路 2 号' }, demo));
    expect(second.isDefault).toBe(false);
    const third = await ok(t.call('cdm', '011503', { clientId: client.id, address: '三号路 3 号', isDefault: true }, demo));
    expect(third.isDefault).toBe(true);
    const defaults = await ok(t.call('cdm', '011501', { page: 1, filters: { clientId: client.id, isDefault: true } }, demo));
    expect(defaults.list.map((r: Row) => r.address)).toEqual(['三号路 3 号']);
    // C001's default is untouched
    expect((await ok(t.call('cdm', '011501', { page: 1, filters: { clientId: ids.c001, isDefault: true } }, demo))).total).toBe(1);
    // several clerks marking at once: one default stays
    const all = await Promise.all(Array.from({ length: 5 }, (_, i) => ok(t.call('cdm', '011503', { clientId: client.id, address: `并发路 ${i} 号`, isDefault: true }, demo))));
    expect(all).toHaveLength(5);
    expect((await ok(t.call('cdm', '011501', { page: 1, filters: { clientId: client.id, isDefault: true } }, demo))).total).toBe(1);
    const used = await t.call('cdm', '011704', { id: client.id }, demo);
    expect(used.code).toBe('COMMON_REFERENCED_4010');
    expect(used.msg).toBe('客户“地址测试客户”正在被客户收货地址使用，不能删除');
  });

  it('an import leaving a client two default addresses is refused and writes nothing', async () => {
    const before = (await ok(t.call('cdm', '011501', { page: 1 }, demo))).total;
    const body = await makeXlsx([['客户', '详细地址', '默认地址'], ['C001', '导入路 1 号', '是'], ['C001', '导入路 2 号', '否']]);
    const { payload, headers } = multipart('addresses.xlsx', body);
    const r = await t.call('cdm', '011506', undefined, demo, { payload, headers });
    expect(r.code).toBe('COMMON_VALIDATION_4000');
    expect(r.msg).toBe('客户“杭州百货贸易公司”有多个默认收货地址，每个客户只能有一个默认地址');
    expect((await ok(t.call('cdm', '011501', { page: 1 }, demo))).total).toBe(before);
    const fine = multipart('addresses.xlsx', await makeXlsx([['客户', '详细地址', '默认地址'], ['C001', '导入路 1 号', '否']]));
    expect(await ok(t.call('cdm', '011506', undefined, demo, fine))).toEqual({ created: 1, updated: 0, unchanged: 0 });
  });

  it('one primary contact per client or supplier; a contact names only the party its kind says', async () => {
    const primary = await ok(t.call('cdm', '011803', { partyKind: 'supplier', supplierId: ids.s001, name: '新主联系人', isPrimary: true }, demo));
    const s001 = await ok(t.call('cdm', '011801', { page: 1, filters: { supplierId: ids.s001, isPrimary: true } }, demo));
    expect(s001.list.map((r: Row) => r.name)).toEqual(['新主联系人']);
    expect((await ok(t.call('cdm', '011801', { page: 1, filters: { clientId: ids.c001, isPrimary: true } }, demo))).list.map((r: Row) => r.name)).toEqual(['李小姐']);
    // turned into a client's contact (the form no longer sends the hidden supplier): the supplier is let go
    const moved = await ok(t.call('cdm', '011803', { id: primary.id, version: primary.version, partyKind: 'client', clientId: ids.c001 }, demo));
    expect(moved).toMatchObject({ partyKind: 'client', clientId: ids.c001, supplierId: null, isPrimary: true });
    expect((await ok(t.call('cdm', '011801', { page: 1, filters: { clientId: ids.c001, isPrimary: true } }, demo))).list.map((r: Row) => r.name)).toEqual(['新主联系人']);
    const missing = await t.call('cdm', '011803', { partyKind: 'client', name: '无主' }, demo);
    expect(missing.data.errors).toEqual([{ field: 'clientId', message: '客户联系人须选择客户' }]);
    const both = await t.call('cdm', '011803', { partyKind: 'client', clientId: ids.c001, supplierId: ids.s001, name: '两头' }, demo);
    expect(both.data.errors).toEqual([{ field: 'supplierId', message: '客户联系人不能同时填写供应商' }]);
  });

  it('one default bank account per currency, enabled; one default tax rate per kind', async () => {
    const cnyDefault = async () => (await ok(t.call('cdm', '011901', { page: 1, filters: { currencyId: ids.cny, isDefault: true } }, demo))).list.map((r: Row) => r.name);
    expect(await cnyDefault()).toEqual(['中行基本户']);
    await ok(t.call('cdm', '011903', { name: '建行结算户', bankName: '中国建设银行', accountNo: '3100 1234 5678', currencyId: ids.cny, isDefault: true }, demo));
    expect(await cnyDefault()).toEqual(['建行结算户']);
    expect((await ok(t.call('cdm', '011901', { page: 1, filters: { currencyId: ids.usd, isDefault: true } }, demo))).list.map((r: Row) => r.name)).toEqual(['中行美元户']);
    const off = await t.call('cdm', '011903', { name: '停用户', bankName: '某银行', accountNo: '1', currencyId: ids.cny, isDefault: true, enabled: false }, demo);
    expect(off.data.errors).toEqual([{ field: 'isDefault', message: '停用的账户不能设为默认' }]);
    // offered to receipts and payments: enabled accounts only
    expect((await ok(t.call('cdm', '011908', {}, demo))).map((o: Row) => o.label)).toEqual(expect.arrayContaining(['中行基本户', '建行结算户', '中行美元户']));

    const tax = await ok(t.call('cdm', '017003', { name: '增值税 9%（进项）', rate: '0.09', kind: 'input', isDefault: true }, demo));
    expect(tax.ratePercent).toBe('9%');
    const inputs = await ok(t.call('cdm', '017001', { page: 1, filters: { kind: 'input', isDefault: true } }, demo));
    expect(inputs.list.map((r: Row) => r.name)).toEqual(['增值税 9%（进项）']);
    expect((await ok(t.call('cdm', '017001', { page: 1, filters: { kind: 'output', isDefault: true } }, demo))).list.map((r: Row) => r.name)).toEqual(['增值税 13%（销项）']);
    const same = await t.call('cdm', '017003', { name: '又一个 9%', rate: '0.09', kind: 'input' }, demo);
    expect(same.code).toBe('COMMON_UNIQUE_4011');
  });
});

describe('the rest of the rules', () => {
  it('packaging: net weight no more than gross; ports: a UN/LOCODE of their country; a region any code', async () => {
    const heavy = await t.call('cdm', '010803', { name: '重箱', qtyPerCarton: 1, grossWeight: '1', netWeight: '2' }, demo);
    expect(heavy.data.errors).toEqual([{ field: 'netWeight', message: '净重不能大于毛重' }]);
    const port = await t.call('cdm', '018003', { code: 'USSHA', name: '错国家', countryCode: 'CN', kind: 'port' }, demo);
    expect(port.data.errors).toEqual([{ field: 'code', message: '港口与机场的编码应为 UN/LOCODE：5 位大写字母或数字，前两位是国家/地区代码（CN），如 CNSHA' }]);
    expect(await ok(t.call('cdm', '018003', { code: 'EU', name: '欧盟', countryCode: 'EU', kind: 'region' }, demo))).toMatchObject({ code: 'EU', kind: 'region' });
    // offered by code or name
    expect((await ok(t.call('cdm', '018008', { keyword: 'CNSHA' }, demo))).map((o: Row) => o.label)).toEqual(['上海港']);
    // payment terms offered to sales orders by name
    expect((await ok(t.call('cdm', '014908', {}, demo))).map((o: Row) => o.label)).toEqual(expect.arrayContaining(['月结 30 天', '款到发货']));
  });

  it('exports and hands out import templates', async () => {
    for (const g of ['0105', '0106', '0108', '0115', '0118', '0149', '0160', '0170', '0180']) {
      const file = await t.raw('cdm', `${g}05`, {}, demo);
      expect(file.statusCode, g).toBe(200);
      expect(String(file.headers['content-type'])).toContain('spreadsheetml');
      expect((await t.raw('cdm', `${g}07`, {}, demo)).statusCode, g).toBe(200);
    }
    expect((await t.raw('cdm', '011905', {}, demo)).statusCode).toBe(200);
  });
});

describe('migration 036 on a database that had the unit dictionary', () => {
  it('moves each company’s dictionary items `unit` into its units of measure, once per name, and drops them', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tbo-m036-'));
    const pgDb = isPostgres() ? await freshPgDatabase(process.env.DATABASE_URL!) : undefined;
    const database = openDatabase({ dataDir, databaseUrl: pgDb?.url });
    try {
      const { db, dialect } = database;
      const upTo = MIGRATIONS.findIndex((m) => m.name === '036-master-data-families');
      await db.schema.createTable('schema_migration').addColumn('name', 'text', (c) => c.primaryKey()).addColumn('applied_at', 'text', (c) => c.notNull()).execute();
      for (const m of MIGRATIONS.slice(0, upTo)) await db.transaction().execute((trx) => m.up(trx, dialect));
      const now = new Date().toISOString();
      const company = async (code: string) => Number((await db.insertInto('company').values({
        code, name: code, timeZone: 8, defaultLanguage: 'zh-CN', receMultiple: '1', limitMultiple: '1', ceilingMultiple: '1', addRooType: 0,
        containerTypes: '[]', flags: '{}', enabled: 1, version: 1, createdAt: now, updatedAt: now,
      }).returning('id').executeTakeFirstOrThrow()).id);
      const [a, b] = [await company('a'), await company('b')];
      const item = (companyId: number, dictCode: string, value: string, label: string, sort: number, enabled = 1) =>
        ({ companyId, dictCode, value, label, sort, enabled, version: 1, createdAt: now, updatedAt: now });
      await db.insertInto('dictItem').values([
        item(a, 'unit', '个', '个', 0), item(a, 'unit', 'box', '箱', 1), item(a, 'unit', 'box2', '箱', 2), item(a, 'unit', 'dz', '打', 3, 0),
        item(b, 'unit', '个', '个', 0), item(a, 'payMethod', 'tt', '电汇', 0),
      ]).execute();
      await db.transaction().execute((trx) => MIGRATIONS[upTo]!.up(trx, dialect));
      const units = await db.selectFrom('measureUnit').select(['companyId', 'code', 'name', 'sort', 'enabled', 'decimals']).orderBy('companyId').orderBy('sort').execute();
      expect(units.map((u) => [Number(u.companyId) === a ? 'a' : 'b', u.code, u.name, Number(u.sort), Number(u.enabled), Number(u.decimals)])).toEqual([
        ['a', '个', '个', 0, 1, 0], ['a', 'box', '箱', 1, 1, 0], ['a', 'dz', '打', 3, 0, 0], ['b', '个', '个', 0, 1, 0],
      ]);
      const left = await db.selectFrom('dictItem').select(['dictCode']).execute();
      expect(left.map((r) => r.dictCode)).toEqual(['payMethod']);
    } finally {
      await database.close();
      await pgDb?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
