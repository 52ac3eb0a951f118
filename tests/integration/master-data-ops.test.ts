// Hand-written master-data calls: product lookups, codes, images, logs and labels; category tree;
// exchange rate of a day; dictionaries; price-list and presale files (priceTitleId / pptId).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSZip, readXlsx } from '../fixtures/spreadsheets.ts';
import { ok, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let demo: string;
let demo2: string;
let demoId: number;
const products: Record<string, number> = {};


async function file(code: string, body: unknown, token: string, opts: { headers?: Record<string, string>; query?: Record<string, string> } = {}) {
  const res = await t.raw('cdm', code, body, token, opts);
  if (String(res.headers['content-type']).includes('json')) throw new Error(`expected a file, got ${res.body}`);
  return res;
}

const fileName = (res: { headers: Record<string, unknown> }) => decodeURIComponent(/filename\*=UTF-8''([^;]+)/.exec(String(res.headers['content-disposition']))![1]);
const texts = (row: Array<{ text: string }>) => row.map((c) => c.text);

async function idOf(table: string, where: Record<string, unknown>): Promise<number> {
  let q = t.database.db.selectFrom(table).select('id');
  for (const [k, v] of Object.entries(where)) q = q.where(k, '=', v);
  return Number((await q.executeTakeFirstOrThrow()).id);
}

beforeAll(async () => {
  t = await startTestServer();
  demo = await t.login('demo', 'admin', 'demo123');
  demo2 = await t.login('demo2', 'admin', 'demo123');
  demoId = await idOf('company', { code: 'demo' });
  const cat = await ok(t.call('cdm', '010403', { code: 'C1', name: '五金' }, demo));
  const sub = await ok(t.call('cdm', '010403', { code: 'C11', name: '螺丝', parentId: cat.id, sort: 2 }, demo));
  await ok(t.call('cdm', '010403', { code: 'C12', name: '螺母', parentId: cat.id, sort: 1 }, demo));
  await ok(t.call('cdm', '010403', { code: 'C111', name: '自攻螺丝', parentId: sub.id }, demo));
  for (const [code, name, barcode, price] of [['A100', '十字螺丝', '6901234567890', '1.50'], ['A200', '六角螺母', '6901234567891', '0.80'], ['A300', '垫片', null, '0.10']] as const) {
    const p = await ok(t.call('cdm', '010203', { code, name, barcode, price, categoryId: sub.id, midQty: 10, bigQty: 100, unitSmall: '个', unitMid: '盒', unitBig: '箱' }, demo));
    products[code] = p.id;
  }
});

afterAll(async () => {
  await t?.close();
});

describe('products', () => {
  it('looks a product up by code or barcode, within the company', async () => {
    expect((await ok(t.call('cdm', '010213', { code: 'A100' }, demo))).name).toBe('十字螺丝');
    const byBarcode = await ok(t.call('cdm', '010213', { code: '6901234567891' }, demo));
    expect(byBarcode).toMatchObject({ code: 'A200', price: '0.80', categoryName: '螺丝' });
    expect((await t.call('cdm', '010213', { code: 'NOPE' }, demo)).code).toBe('PRODUCT_NOT_EXIST_4001');
    expect((await t.call('cdm', '010213', { code: 'A100' }, demo2)).code).toBe('PRODUCT_NOT_EXIST_4001');
  });

  it('lists unit options from the units of measure (cdm 0106)', async () => {
    const units = await ok(t.call('cdm', '010214', undefined, demo, { method: 'GET' }));
    expect(units.slice(0, 3)).toEqual([{ value: '个', label: '个', code: 'PCS', decimals: 0 }, { value: '件', label: '件', code: 'PCE', decimals: 0 }, { value: '盒', label: '盒', code: 'BOX', decimals: 0 }]);
  });

  it('hands out product codes from the company sequence, never twice, skipping codes in use', async () => {
    await ok(t.call('cdm', '010203', { code: 'P000001', name: '手工编码商品' }, demo));
    const first = await ok(t.call('cdm', '010226', undefined, demo));
    expect(first.code).toBe('P000002');
    const many = await Promise.all(Array.from({ length: 12 }, () => ok(t.call('cdm', '010226', undefined, demo))));
    const codes = many.map((x) => x.code);
    expect(new Set(codes).size).toBe(12);
    expect(codes.every((c) => /^P\d{6}$/.test(c) && c > 'P000002')).toBe(true);
    // a separate sequence per company
    expect((await ok(t.call('cdm', '010226', undefined, demo2))).code).toBe('P000001');
  });

  it('zips the images of the selected products', async () => {
    const storedName = `${crypto.randomBytes(16).toString('hex')}.png`;
    const bytes = crypto.randomBytes(64);
    fs.mkdirSync(path.join(t.config.dataDir, 'media'), { recursive: true });
    fs.writeFileSync(path.join(t.config.dataDir, 'media', storedName), bytes);
    const mediaId = crypto.randomBytes(11).toString('hex');
    await t.database.db.insertInto('media').values({
      id: mediaId, companyId: demoId, mime: 'image/png', ext: 'png', size: bytes.length, sha256: crypto.createHash('sha256').update(bytes).digest('hex'),
      originalName: 'a.png', storedName, createdAt: new Date().toISOString(),
    }).execute();
    const p = await ok(t.call('cdm', '010202', { id: products.A100 }, demo));
    const bad = await t.call('cdm', '010203', { id: p.id, version: p.version, imageId: 'doesnotexist' }, demo);
    expect(bad.msg).toBe('图片不存在，请重新上传');
    await ok(t.call('cdm', '010203', { id: p.id, version: p.version, imageId: mediaId }, demo));

    const res = await file('010248', { ids: [products.A100, products.A200] }, demo);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(fileName(res)).toMatch(/^商品图片_\d{8}\.zip$/);
    const zip = await JSZip.loadAsync(res.rawPayload);
    expect(Object.keys(zip.files)).toEqual(['A100.png']);
    expect(Buffer.from(await zip.file('A100.png')!.async('uint8array')).equals(bytes)).toBe(true);

    expect((await t.call('cdm', '010248', { ids: [products.A300] }, demo)).code).toBe('IMAGE_NONE_4053');
    expect((await t.call('cdm', '010248', { ids: [products.A100] }, demo2)).code).toBe('IMAGE_NONE_4053');
  });

  it('exports a product change log field by field', async () => {
    const p = await ok(t.call('cdm', '010202', { id: products.A300 }, demo));
    await ok(t.call('cdm', '010203', { id: p.id, version: p.version, name: '平垫片', price: '0.12' }, demo));
    const res = await file('010249', { productId: products.A300 }, demo);
    expect(fileName(res)).toMatch(/^商品变更记录_A300_\d{8}\.xlsx$/);
    const [sheet] = await readXlsx(res.rawPayload);
    expect(texts(sheet.rows[0])).toEqual(['时间', '操作人', 'IP', '操作', '商品编号', '商品', '字段', '原值', '新值']);
    const changes = sheet.rows.slice(1).filter((r) => r[3].text === '修改').map((r) => [r[6].text, r[7].text, r[8].text]);
    expect(changes).toEqual([['商品名称', '垫片', '平垫片'], ['参考价', '0.10', '0.12']]);
    expect((await t.call('cdm', '010249', { productId: products.A300 }, demo2)).code).toBe('COMMON_NOT_FOUND_4004');
    expect((await t.call('cdm', '010249', { from: '2026-13-01' }, demo)).code).toBe('COMMON_VALIDATION_4000');
  });

  it('exports barcode labels with the box specification', async () => {
    const res = await file('010259', { ids: [products.A200, products.A100] }, demo);
    const [sheet] = await readXlsx(res.rawPayload);
    expect(texts(sheet.rows[0])).toEqual(['商品编码', '商品名称', '条码', '规格', '箱规', '小单位', '中单位', '大单位']);
    expect(texts(sheet.rows[1]).slice(0, 5)).toEqual(['A100', '十字螺丝', '6901234567890', '', '10/100']);
    expect(sheet.rows).toHaveLength(3);
  });

  it('refuses a big pack that is not a whole number of mid packs', async () => {
    const r = await t.call('cdm', '010203', { code: 'B1', name: '箱规错误', midQty: 6, bigQty: 100 }, demo);
    expect(r.msg).toBe('大包装数量必须是中包装数量的整数倍');
  });
});

describe('category tree, exchange rates, dictionaries', () => {
  it('returns the whole category tree ordered by sort', async () => {
    const tree = await ok(t.call('cdm', '010404', undefined, demo));
    expect(tree.map((n: any) => n.name)).toEqual(['五金']);
    expect(tree[0].children.map((n: any) => n.name)).toEqual(['螺母', '螺丝']);
    expect(tree[0].children[1].children.map((n: any) => n.code)).toEqual(['C111']);
    expect(await ok(t.call('cdm', '010404', undefined, demo2))).toEqual([]);
  });

  it('gives the latest rate on or before a date', async () => {
    const usd = await idOf('currency', { companyId: demoId, code: 'USD' });
    await ok(t.call('cdm', '012503', { currencyId: usd, rateDate: '2026-02-01', rate: '7.2' }, demo));
    expect(await ok(t.call('cdm', '012508', { currencyId: usd, date: '2026-01-31' }, demo))).toMatchObject({ rateDate: '2026-01-01', rate: '7.123400' });
    expect(await ok(t.call('cdm', '012508', { currencyId: usd, date: '2026-02-01' }, demo))).toMatchObject({ rateDate: '2026-02-01', rate: '7.200000' });
    const none = await t.call('cdm', '012508', { currencyId: usd, date: '2025-12-31' }, demo);
    expect(none.code).toBe('EXCHANGE_RATE_NOT_FOUND_4051');
    expect(none.msg).toBe('美元在 2025-12-31 及之前没有汇率，请先维护汇率');
    const cny = await idOf('currency', { companyId: demoId, code: 'CNY' });
    expect(await ok(t.call('cdm', '012508', { currencyId: cny, date: '2020-01-01' }, demo))).toMatchObject({ rate: '1.000000', isBase: true });
    expect((await t.call('cdm', '012508', { currencyId: usd, date: '2026-02-01' }, demo2)).code).toBe('COMMON_NOT_FOUND_4004');
    expect((await t.call('cdm', '012508', { currencyId: usd, date: '2026-2-30' }, demo)).code).toBe('COMMON_VALIDATION_4000');
  });

  it('publishes dictionaries: resource enums and the company items', async () => {
    await ok(t.call('cdm', '013804', { dictCode: 'payMethod', value: 'tt', label: '电汇', sort: 1 }, demo));
    await ok(t.call('cdm', '013804', { dictCode: 'payMethod', value: 'cash', label: '现金', sort: 2, enabled: false }, demo));
    const all = await ok(t.call('cdm', '013801', undefined, demo));
    expect(all.payMethod).toEqual([{ value: 'tt', label: '电汇' }]);
    expect(all.productStatus).toEqual([{ value: 'onSale', label: '在售' }, { value: 'stopped', label: '停售' }]);
    expect(all.unit.length).toBe(7);
    expect((await ok(t.call('cdm', '013801', undefined, demo2))).payMethod).toBeUndefined();
  });
});

describe('price lists', () => {
  let sale: number;
  let purchase: number;
  beforeAll(async () => {
    sale = await idOf('priceTitle', { companyId: demoId, code: 'SP01' });
    purchase = await idOf('priceTitle', { companyId: demoId, code: 'PP01' });
    const now = new Date().toISOString();
    const stamp = { companyId: demoId, version: 1, createdAt: now, updatedAt: now };
    await t.database.db.insertInto('productPrice').values([
      { ...stamp, priceTitleId: sale, productId: products.A100, price: 250 },
      { ...stamp, priceTitleId: sale, productId: products.A200, price: 100 },
      { ...stamp, priceTitleId: purchase, productId: products.A100, price: 150 },
    ]).execute();
    await t.database.db.insertInto('auditLog').values({
      companyId: demoId, accountId: 1, userName: 'admin', at: now, ip: '127.0.0.1', endpoint: 'cdm:014022', action: 'update',
      entity: 'productPrice', recordId: `${sale}:${products.A100}`, recordLabel: 'A100', changes: JSON.stringify([{ field: 'price', title: '价格', from: '2.00', to: '2.50' }]),
    }).execute();
  });

  it('needs a priceTitleId header naming a price list of the company', async () => {
    expect((await t.call('cdm', '014019', {}, demo)).code).toBe('COMMON_HEADER_4016');
    expect((await t.call('cdm', '014019', {}, demo, { headers: { priceTitleId: 'abc' } })).code).toBe('COMMON_HEADER_4016');
    const foreign = await t.call('cdm', '014019', {}, demo2, { headers: { priceTitleId: String(sale) } });
    expect(foreign.code).toBe('COMMON_NOT_FOUND_4004');
    expect(foreign.msg).toBe('价格表不存在或已被删除');
  });

  it('exports the prices of a list', async () => {
    const res = await file('014019', {}, demo, { headers: { priceTitleId: String(sale) } });
    expect(fileName(res)).toMatch(/^标准销售价价格_\d{8}\.xlsx$/);
    const [sheet] = await readXlsx(res.rawPayload);
    expect(texts(sheet.rows[0]).slice(0, 6)).toEqual(['商品编码', '商品名称', '规格', '单位', '价格', '币种']);
    expect(sheet.rows.slice(1).map((r) => [r[0].text, r[4].value, r[5].text])).toEqual([['A100', 2.5, '人民币'], ['A200', 1, '人民币']]);
  });

  it('gives an import template prefilled with every product', async () => {
    const res = await file('014021', {}, demo, { headers: { priceTitleId: String(sale) } });
    const [sheet, notes] = await readXlsx(res.rawPayload);
    expect(texts(sheet.rows[0])).toEqual(['商品编码', '商品名称', '规格', '价格']);
    const rows = sheet.rows.slice(1).map((r) => [r[0].text, r[3].value ?? null]);
    expect(rows).toEqual(expect.arrayContaining([['A100', 2.5], ['A300', null]]));
    expect(notes.name).toBe('填写说明');
  });

  it('exports price changes and the comparison with the purchase price', async () => {
    const changes = await file('014024', {}, demo, { headers: { priceTitleId: String(sale) } });
    const [c] = await readXlsx(changes.rawPayload);
    expect(c.rows.slice(1).map((r) => [r[3].text, r[4].value, r[5].value, r[6].text])).toEqual([['A100', 2, 2.5, '25.00%']]);

    const cmp = await file('014026', {}, demo, { headers: { priceTitleId: String(sale) } });
    const [s] = await readXlsx(cmp.rawPayload);
    expect(texts(s.rows[0])).toEqual(['商品编码', '商品名称', '规格', '标准销售价', '采购价（标准采购价）', '差额', '毛利率']);
    expect(s.rows.slice(1).map((r) => [r[0].text, r[3].value, r[4].value ?? null, r[5].value ?? null, r[6].text])).toEqual([
      ['A100', 2.5, 1.5, 1, '40.00%'],
      ['A200', 1, null, null, ''],
    ]);
  });
});

describe('presale files', () => {
  let planId: number;
  beforeAll(async () => {
    const plan = await ok(t.call('cdm', '014803', { code: 'PS01', name: '春季预售', startDate: '2026-03-01', endDate: '2026-04-01' }, demo));
    planId = plan.id;
    const now = new Date().toISOString();
    const stamp = { companyId: demoId, version: 1, createdAt: now, updatedAt: now };
    await t.database.db.insertInto('presaleItem').values([
      { ...stamp, planId, productId: products.A200, qty: 500, price: 90 },
      { ...stamp, planId, productId: products.A100, qty: 1000, price: 199 },
    ]).execute();
    const client = await idOf('client', { companyId: demoId, code: 'C001' });
    await t.database.db.insertInto('presaleWhitelist').values({ ...stamp, planId, clientId: client }).execute();
  });

  it('refuses an end before the start', async () => {
    const r = await t.call('cdm', '014803', { code: 'PS02', name: '错误日期', startDate: '2026-05-01', endDate: '2026-04-01' }, demo);
    expect(r.msg).toBe('结束日期不能早于开始日期');
  });

  it('exports the plan items by pptId in the query or header', async () => {
    const res = await file('014811', {}, demo, { query: { pptId: String(planId) } });
    expect(fileName(res)).toMatch(/^春季预售预售商品_\d{8}\.xlsx$/);
    const [sheet] = await readXlsx(res.rawPayload);
    expect(sheet.rows.slice(1).map((r) => [r[0].text, r[4].value, r[5].value])).toEqual([['A100', 1000, 1.99], ['A200', 500, 0.9]]);
    const viaHeader = await file('014811', {}, demo, { headers: { pptId: String(planId) } });
    expect(viaHeader.rawPayload.length).toBeGreaterThan(1000);
    expect((await t.call('cdm', '014811', {}, demo2, { query: { pptId: String(planId) } })).code).toBe('COMMON_NOT_FOUND_4004');
    expect((await t.call('cdm', '014811', {}, demo)).code).toBe('COMMON_HEADER_4016');
  });

  it('gives the items template and the whitelist', async () => {
    const tpl = await file('014812', {}, demo, { query: { pptId: String(planId) } });
    const [items] = await readXlsx(tpl.rawPayload);
    expect(texts(items.rows[0])).toEqual(['商品编码', '商品名称', '数量', '预售价']);
    expect(items.rows).toHaveLength(3);
    const wl = await file('014813', {}, demo, { headers: { pptId: String(planId) } });
    const [w] = await readXlsx(wl.rawPayload);
    expect(w.rows.slice(1).map((r) => [r[0].text, r[1].text])).toEqual([['C001', '杭州百货贸易公司']]);
  });

  it('refuses to remove a plan that still has items', async () => {
    const r = await t.call('cdm', '014804', { id: planId }, demo);
    expect(r.code).toBe('COMMON_REFERENCED_4010');
    expect(r.msg).toBe('预售计划“春季预售”正在被预售商品使用，不能删除');
  });
});
