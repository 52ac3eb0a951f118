// The price matrix (价格管理): products × price lists (cdm 014030), one price (014031), bulk adjustment by
// percentage with rounding rules and its dry run / preview (014032, 014033), price import for one list
// (014034, header priceTitleId like 014019/014021). Every change lands in the change log that the
// 调价记录 export (014024) reads; a stopped list is refused with PRODUCT_PRICE_TITLE_STATUS_4005.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMAS_DIR } from '../../src/server/catalog/load-catalog.ts';
import { makeXls, makeXlsx, multipart, readXlsx } from '../fixtures/spreadsheets.ts';
import { ok, startTestServer, type TestServer } from './helpers.ts';

const PM = { list: '014030', set: '014031', adjust: '014032', preview: '014033', import: '014034' };

let t: TestServer;
let demo: string;
let clerk: string;
let demo2: string;
let demoId: number;
const products: Record<string, number> = {};
const titles: Record<string, number> = {};
let subCategory: number;


async function idOf(table: string, where: Record<string, unknown>): Promise<number> {
  let q = t.database.db.selectFrom(table).select('id');
  for (const [k, v] of Object.entries(where)) q = q.where(k, '=', v);
  return Number((await q.executeTakeFirstOrThrow()).id);
}

/** Stored cents of a product on a list (undefined: no price). */
async function stored(title: number, product: number): Promise<number | undefined> {
  const r = await t.database.db.selectFrom('productPrice').select('price').where('priceTitleId', '=', title).where('productId', '=', product).executeTakeFirst();
  return r ? Number(r.price) : undefined;
}

async function auditCount(): Promise<number> {
  const r = await t.database.db.selectFrom('auditLog').select((eb: any) => eb.fn.countAll().as('n')).where('entity', '=', 'productPrice').executeTakeFirst();
  return Number((r as { n?: unknown } | undefined)?.n ?? 0);
}

const setPrice = (title: number, product: number, price: unknown, token = demo, extra: Record<string, unknown> = {}) =>
  t.call('cdm', PM.set, { productId: product, priceTitleId: title, price, ...extra }, token);

/** The matrix rows of the test products as {code: price on that list}. */
async function column(title: number, token = demo): Promise<Record<string, string | null>> {
  const data = await ok(t.call('cdm', PM.list, { page: 1, pageSize: 50, filters: { keyword: 'PM', priceTitleIds: [title] } }, token));
  return Object.fromEntries(data.list.map((r: any) => [r.code, r[`p${title}`]]));
}

const upload = (fileName: string, buf: Buffer, title: number, token = demo) => {
  const up = multipart(fileName, buf);
  return t.call('cdm', PM.import, undefined, token, { payload: up.payload, headers: { ...up.headers, priceTitleId: String(title) } });
};

beforeAll(async () => {
  t = await startTestServer();
  demo = await t.login('demo', 'admin', 'demo123');
  clerk = await t.login('demo', 'clerk', 'demo123');
  demo2 = await t.login('demo2', 'admin', 'demo123');
  demoId = await idOf('company', { code: 'demo' });
  const cat = await ok(t.call('cdm', '010403', { code: 'PMC', name: '价格测试类' }, demo));
  subCategory = (await ok(t.call('cdm', '010403', { code: 'PMC1', name: '价格测试子类', parentId: cat.id }, demo))).id;
  for (const [code, name, price, categoryId] of [['PM001', '矩阵商品一', '9.99', subCategory], ['PM002', '矩阵商品二', '20.00', cat.id], ['PM003', '矩阵商品三', '0.50', null]] as const) {
    products[code] = (await ok(t.call('cdm', '010203', { code, name, price, categoryId, specification: `规格${code}` }, demo))).id;
  }
  titles.SP01 = await idOf('priceTitle', { companyId: demoId, code: 'SP01' });
  titles.PP01 = await idOf('priceTitle', { companyId: demoId, code: 'PP01' });
  for (const [code, name, kind, enabled] of [['SPB', '基准价', 'sale', true], ['SPT', '调价目标', 'sale', true], ['SPX', '停用价', 'sale', false], ['SPI', '导入价', 'sale', true]] as const) {
    titles[code] = (await ok(t.call('cdm', '014003', { code, name, kind, enabled }, demo))).id;
  }
});

afterAll(async () => {
  await t?.close();
});

describe('matrix', () => {
  it('answers product rows with one decimal-string field per price list, and the lists as columns', async () => {
    await ok(setPrice(titles.SP01, products.PM001, '12.5'));
    const data = await ok(t.call('cdm', PM.list, { page: 1, pageSize: 20, keyword: 'PM' }, demo));
    expect(data.total).toBe(3);
    expect(data.list.map((r: any) => r.code)).toEqual(['PM001', 'PM002', 'PM003']);
    const first = data.list[0];
    expect(first).toMatchObject({ id: products.PM001, code: 'PM001', name: '矩阵商品一', specification: '规格PM001', unitSmall: '个', price: '9.99', categoryName: '价格测试子类' });
    expect(first[`p${titles.SP01}`]).toBe('12.50');
    expect(first[`p${titles.SPT}`]).toBeNull();
    const cols = data.priceTitles.map((x: any) => [x.name, x.kind, x.enabled, x.label]);
    expect(cols).toEqual(expect.arrayContaining([['标准采购价', 'purchase', true, '标准采购价'], ['标准销售价', 'sale', true, '标准销售价'], ['停用价', 'sale', false, '停用价（停用）']]));
    // purchase lists first, each with its currency
    expect(data.priceTitles[0].kind).toBe('purchase');
    expect(data.priceTitles.find((x: any) => x.id === titles.SP01)).toMatchObject({ currencyName: '人民币', currencyCharacter: '¥' });
  });

  it('takes its conditions inside filters too: chosen lists, category (with the categories below), paging', async () => {
    const data = await ok(t.call('cdm', PM.list, { page: 1, pageSize: 20, filters: { keyword: 'PM', priceTitleIds: [titles.SP01, titles.SPX] } }, demo));
    expect(data.priceTitles.map((x: any) => x.id).sort()).toEqual([titles.SP01, titles.SPX].sort());
    expect(Object.keys(data.list[0]).filter((k) => /^p\d+$/.test(k)).sort()).toEqual([`p${titles.SP01}`, `p${titles.SPX}`].sort());
    const cat = await idOf('category', { companyId: demoId, code: 'PMC' });
    const byCat = await ok(t.call('cdm', PM.list, { page: 1, pageSize: 20, filters: { categoryId: cat } }, demo));
    expect(byCat.list.map((r: any) => r.code)).toEqual(['PM001', 'PM002']);
    const page2 = await ok(t.call('cdm', PM.list, { page: 2, pageSize: 2, keyword: 'PM', sort: { field: 'code', order: 'descend' } }, demo));
    expect(page2).toMatchObject({ total: 3, page: 2 });
    expect(page2.list.map((r: any) => r.code)).toEqual(['PM001']);
  });
});

describe('one price', () => {
  it('sets, changes and removes a price exactly (cents), answering the stored value', async () => {
    expect(await ok(setPrice(titles.SPT, products.PM002, '0.1'))).toMatchObject({ price: '0.10', changed: true });
    expect(await stored(titles.SPT, products.PM002)).toBe(10);
    expect(await ok(setPrice(titles.SPT, products.PM002, 1234567.89))).toMatchObject({ price: '1234567.89' });
    expect(await stored(titles.SPT, products.PM002)).toBe(123456789);
    expect(await ok(setPrice(titles.SPT, products.PM002, '1234567.89'))).toMatchObject({ changed: false });
    expect((await column(titles.SPT)).PM002).toBe('1234567.89');
    expect(await ok(setPrice(titles.SPT, products.PM002, ''))).toMatchObject({ price: null, changed: true });
    expect(await stored(titles.SPT, products.PM002)).toBeUndefined();
    expect(await ok(setPrice(titles.SPT, products.PM002, null))).toMatchObject({ changed: false });
  });

  it('refuses a bad price with a Chinese message naming the field, and writes nothing', async () => {
    const before = await auditCount();
    for (const [price, message] of [['12.345', '价格最多 2 位小数'], ['-1', '价格必须是不小于 0 的数字'], ['abc', '价格必须是不小于 0 的数字'], ['1000000000.01', '价格不能超过 1,000,000,000.00']] as const) {
      const r = await setPrice(titles.SPT, products.PM001, price);
      expect(r.code).toBe('COMMON_VALIDATION_4000');
      expect(r.msg).toBe(message);
      expect(r.data.errors[0].field).toBe('price');
    }
    const noProduct = await t.call('cdm', PM.set, { productId: 'x', priceTitleId: titles.SPT, price: '1' }, demo);
    expect(noProduct).toMatchObject({ code: 'COMMON_VALIDATION_4000', msg: '商品格式不正确' });
    expect((await t.call('cdm', PM.set, { priceTitleId: titles.SPT, price: '1' }, demo)).msg).toBe('商品不能为空');
    expect((await setPrice(titles.SPT, 999999, '1')).code).toBe('PRODUCT_NOT_EXIST_4001');
    expect(await ok(setPrice(titles.SPT, products.PM001, '1000000000'))).toMatchObject({ price: '1000000000.00' });
    await ok(setPrice(titles.SPT, products.PM001, null));
    expect(await auditCount()).toBe(before + 2);
  });

  it('refuses a stopped price list with the price-title-status code', async () => {
    const r = await setPrice(titles.SPX, products.PM001, '1.00');
    expect(r.code).toBe('PRODUCT_PRICE_TITLE_STATUS_4005');
    expect(r.msg).toBe('价格表已停用');
    expect(await stored(titles.SPX, products.PM001)).toBeUndefined();
  });

  it('is optimistic: a price changed since the editor read it is a conflict', async () => {
    await ok(setPrice(titles.SPT, products.PM003, '5.00'));
    await ok(setPrice(titles.SPT, products.PM003, '6.00', demo, { expected: '5.00' }));
    const stale = await setPrice(titles.SPT, products.PM003, '7.00', demo, { expected: '5.00' });
    expect(stale.code).toBe('COMMON_VERSION_CONFLICT_4009');
    expect(stale.msg).toBe('商品价格已被其他人修改，请刷新后重试');
    expect(await stored(titles.SPT, products.PM003)).toBe(600);
    // expected null: the editor saw no price, but there is one now
    expect((await setPrice(titles.SPT, products.PM003, '7.00', demo, { expected: null })).code).toBe('COMMON_VERSION_CONFLICT_4009');
    await ok(setPrice(titles.SPT, products.PM003, null, demo, { expected: '6' }));
  });

  it('writes the change log the 调价记录 export (014024) reads', async () => {
    await ok(setPrice(titles.SPB, products.PM001, '8.00'));
    await ok(setPrice(titles.SPB, products.PM001, '10.00'));
    const res = await t.raw('cdm', '014024', {}, demo, { headers: { priceTitleId: String(titles.SPB) } });
    const [sheet] = await readXlsx(res.rawPayload);
    expect(sheet.rows.slice(1).map((r) => [r[1].text, r[2].text, r[3].text, r[4].value ?? null, r[5].value, r[6].text])).toEqual([
      ['admin', '修改', 'PM001', 8, 10, '25.00%'],
      ['admin', '新增', 'PM001', null, 8, ''],
    ]);
  });
});

describe('bulk adjustment', () => {
  const adjust = (body: Record<string, unknown>, token = demo) => t.call('cdm', PM.adjust, { priceTitleId: titles.SPT, ...body }, token);

  beforeAll(async () => {
    // The basis list: 9.99, 20.00, 0.50 (the reference prices too); the target starts empty.
    for (const [code, price] of [['PM001', '9.99'], ['PM002', '20.00'], ['PM003', '0.50']] as const) await ok(setPrice(titles.SPB, products[code], price));
    for (const code of ['PM001', 'PM002', 'PM003']) await ok(setPrice(titles.SPT, products[code], null));
  });

  // 9.99 × 1.05 = 10.4895; 20.00 × 1.05 = 21.00; 0.50 × 1.05 = 0.525 — rounded half-up by each rule.
  const expected: Record<string, [string, string, string]> = {
    cent: ['10.49', '21.00', '0.53'],
    jiao: ['10.50', '21.00', '0.50'],
    yuan: ['10.00', '21.00', '1.00'],
    ending9: ['10.49', '20.99', '0.49'],
  };

  for (const [rounding, [a, b, c]] of Object.entries(expected)) {
    it(`+5 % of another list, rounding ${rounding}: ${a}, ${b}, ${c}`, async () => {
      const r = await ok(adjust({ basis: 'title', basisTitleId: titles.SPB, percent: '5', rounding, filters: { keyword: 'PM' } }));
      expect(r).toMatchObject({ matched: 3, skipped: 0, dryRun: false });
      expect(await column(titles.SPT)).toEqual({ PM001: a, PM002: b, PM003: c });
    });
  }

  it('by percentage of the list itself (−3.5 %), only the chosen products; again with no change changes nothing', async () => {
    await ok(adjust({ basis: 'title', basisTitleId: titles.SPB, percent: 5, rounding: 'cent', keyword: 'PM' }));
    // 10.49 × 0.965 = 10.12285 → 10.12; 21.00 × 0.965 = 20.265 → 20.27 (half-up)
    const r = await ok(adjust({ basis: 'self', percent: '-3.5', productIds: [products.PM001, products.PM002] }));
    expect(r).toMatchObject({ matched: 2, changed: 2, unchanged: 0, skipped: 0 });
    expect(await column(titles.SPT)).toEqual({ PM001: '10.12', PM002: '20.27', PM003: '0.53' });
    expect(await stored(titles.SPT, products.PM002)).toBe(2027);
    const before = await auditCount();
    expect(await ok(adjust({ basis: 'self', percent: '0', productIds: [products.PM001] }))).toMatchObject({ changed: 0, unchanged: 1 });
    expect(await auditCount()).toBe(before);
  });

  it('from the reference price, creating missing prices; self skips products with no price', async () => {
    await ok(setPrice(titles.SPT, products.PM003, null));
    expect(await ok(adjust({ basis: 'self', percent: '1', keyword: 'PM' }))).toMatchObject({ matched: 3, skipped: 1, changed: 2 });
    expect((await column(titles.SPT)).PM003).toBeNull();
    const r = await ok(adjust({ basis: 'reference', percent: '10', rounding: 'cent', keyword: 'PM003' }));
    expect(r).toMatchObject({ matched: 1, changed: 1 });
    expect((await column(titles.SPT)).PM003).toBe('0.55');
  });

  it('dryRun answers the before/after pairs and changes nothing', async () => {
    const before = { prices: await column(titles.SPT), audit: await auditCount() };
    const r = await ok(adjust({ basis: 'title', basisTitleId: titles.SPB, percent: '5', rounding: 'yuan', keyword: 'PM', dryRun: true }));
    expect(r).toMatchObject({ dryRun: true, matched: 3 });
    expect(r.samples.map((s: any) => [s.code, s.before, s.after])).toEqual([['PM001', before.prices.PM001, '10.00'], ['PM002', before.prices.PM002, '21.00'], ['PM003', '0.55', '1.00']]);
    expect(await column(titles.SPT)).toEqual(before.prices);
    expect(await auditCount()).toBe(before.audit);
  });

  it('the preview names what is missing, then shows the pairs as HTML', async () => {
    const empty = await ok(t.call('cdm', PM.preview, { basis: 'self', rounding: 'cent' }, demo));
    expect(empty.missing).toEqual(['价格表', '调整幅度']);
    const full = await ok(t.call('cdm', PM.preview, { priceTitleId: titles.SPT, basis: 'title', basisTitleId: titles.SPB, percent: '5', rounding: 'cent', filters: { keyword: 'PM001' } }, demo));
    expect(full).toMatchObject({ format: 'html', missing: [], counts: { matched: 1 } });
    expect(full.body).toContain('<td style="border:1px solid #eee;padding:2px 8px;text-align:right">10.49</td>');
    const stopped = await ok(t.call('cdm', PM.preview, { priceTitleId: titles.SPX, percent: '5' }, demo));
    expect(stopped.body).toContain('价格表已停用');
  });

  it('refuses a stopped list, a bad percentage or rounding, a price over the limit — with Chinese messages', async () => {
    const stopped = await adjust({ priceTitleId: titles.SPX, percent: '5' });
    expect(stopped).toMatchObject({ code: 'PRODUCT_PRICE_TITLE_STATUS_4005', msg: '价格表已停用' });
    expect((await adjust({ percent: 'abc' })).msg).toBe('调整幅度必须是数字（如 5 表示上调 5%，-3.5 表示下调 3.5%）');
    expect((await adjust({ percent: '-101' })).msg).toBe('调整幅度不能小于 -100');
    expect((await adjust({ percent: '5', rounding: 'floor' })).msg).toBe('取整方式取值不正确');
    expect((await adjust({ percent: '5', basis: 'title' })).msg).toBe('请选择基准价格表');
    expect((await adjust({})).msg).toBe('调整幅度（%）不能为空');
    const before = await column(titles.SPT);
    await ok(setPrice(titles.SPB, products.PM002, '999999999.00'));
    const over = await adjust({ basis: 'title', basisTitleId: titles.SPB, percent: '5', keyword: 'PM' });
    expect(over.code).toBe('COMMON_VALIDATION_4000');
    expect(over.msg).toContain('商品 PM002 调整后的价格 1049999998.95 超过上限');
    // all or nothing: PM001 was not written either
    expect(await column(titles.SPT)).toEqual(before);
    await ok(setPrice(titles.SPB, products.PM002, '20.00'));
  });
});

describe('import', () => {
  it('round-trips the 014021 template: a filled template creates and updates prices', async () => {
    await ok(setPrice(titles.SPI, products.PM001, '1.00'));
    const tpl = await t.raw('cdm', '014021', {}, demo, { headers: { priceTitleId: String(titles.SPI) } });
    const [sheet] = await readXlsx(tpl.rawPayload);
    // What a user keeps of the template: its header and the rows of the products they price.
    const rows = sheet.rows.map((r) => [r[0].text, r[1].text, r[2].text, r[3].value ?? null]);
    const mine = rows.filter((r, i) => i === 0 || String(r[0]).startsWith('PM'));
    const filled = mine.map((r, i) => (i === 0 ? r : [r[0], r[1], r[2], r[0] === 'PM001' ? 1.5 : r[0] === 'PM002' ? 2 : null]));
    const r = await ok(upload('导入价.xlsx', await makeXlsx(filled as any), titles.SPI));
    expect(r).toEqual({ created: 1, updated: 1, unchanged: 0, skipped: 1 });
    expect(await column(titles.SPI)).toEqual({ PM001: '1.50', PM002: '2.00', PM003: null });
  });

  it('is all or nothing, with every bad row reported', async () => {
    const before = await column(titles.SPI);
    const bad = await makeXlsx([['商品编码', '价格'], ['PM001', 3], ['NOPE', 1], ['PM002', '1.234'], ['PM003', -2], ['PM001', 4], ['', 5]]);
    const r = await upload('坏.xlsx', bad, titles.SPI);
    expect(r.code).toBe('COMMON_IMPORT_4012');
    expect(r.msg).toBe('导入失败：共 5 行有错误，未写入任何数据');
    expect(r.data.errors.map((e: any) => [e.row, e.field])).toEqual([[3, 'productCode'], [4, 'price'], [5, 'price'], [6, 'productCode'], [7, 'productCode']]);
    expect(r.data.errors[0].message).toBe('第 3 行：商品编码“NOPE”不存在');
    expect(r.data.errors[1].message).toBe('第 4 行：价格最多 2 位小数');
    expect(await column(titles.SPI)).toEqual(before);
  });

  it('reads .xls too; needs the header, the columns and an enabled list', async () => {
    const xls = makeXls([['商品编码', '价格'], ['PM003', '0.3']]);
    expect(await ok(upload('价格.xls', xls, titles.SPI))).toMatchObject({ created: 1 });
    expect((await column(titles.SPI)).PM003).toBe('0.30');
    const noHeader = multipart('价格.xls', xls);
    expect((await t.call('cdm', PM.import, undefined, demo, { payload: noHeader.payload, headers: noHeader.headers })).code).toBe('COMMON_HEADER_4016');
    expect((await upload('价格.xls', xls, titles.SPX)).code).toBe('PRODUCT_PRICE_TITLE_STATUS_4005');
    const noColumn = await upload('价格.xlsx', await makeXlsx([['商品编码', '售价'], ['PM003', 1]]), titles.SPI);
    expect(noColumn.data.errors[0].message).toBe('缺少必填列“价格”，请使用价格导入模板');
    const wrongType = multipart('价格.txt', Buffer.from('hello'));
    expect((await t.call('cdm', PM.import, undefined, demo, { payload: wrongType.payload, headers: { ...wrongType.headers, priceTitleId: String(titles.SPI) } })).code).toBe('COMMON_IMPORT_FILE_4013');
  });
});

describe('the screen’s calls', () => {
  it('the adjust form offers only enabled lists (its option source, as the screen declares it)', async () => {
    const screen = JSON.parse(fs.readFileSync(path.join(SCHEMAS_DIR, 'screens/commodity/priceManager.json'), 'utf8'));
    const field = screen.forms.adjust.fields.find((f: any) => f.field === 'priceTitleId');
    expect(field.options.api).toBe('cdm:014001');
    const offered = (await ok(t.call('cdm', '014001', field.options.body, demo))).list.map((x: any) => x.id);
    expect(offered).toContain(titles.SPT);
    expect(offered).not.toContain(titles.SPX);
  });
});

describe('rights and companies', () => {
  it('a user without the price rights is refused every call', async () => {
    for (const [code, body] of [[PM.list, { page: 1 }], [PM.set, { productId: products.PM001, priceTitleId: titles.SPT, price: '1' }], [PM.adjust, { priceTitleId: titles.SPT, percent: '1' }], [PM.preview, {}]] as const) {
      const r = await t.call('cdm', code, body, clerk);
      expect(r.code).toBe('COMMON_NO_RIGHT_4003');
      expect(r.msg).toMatch(/^无权限执行“.+”，请联系管理员授权$/);
    }
    const up = multipart('价格.xls', makeXls([['商品编码', '价格'], ['PM001', 1]]));
    expect((await t.call('cdm', PM.import, undefined, clerk, { payload: up.payload, headers: { ...up.headers, priceTitleId: String(titles.SPI) } })).code).toBe('COMMON_NO_RIGHT_4003');
  });

  it('keeps companies apart: another company sees neither the lists nor the products', async () => {
    const other = await ok(t.call('cdm', PM.list, { page: 1, pageSize: 50, keyword: 'PM' }, demo2));
    expect(other.list).toEqual([]);
    expect(other.priceTitles.map((x: any) => x.id)).not.toContain(titles.SPT);
    const foreignList = await setPrice(titles.SPT, products.PM001, '1', demo2);
    expect(foreignList).toMatchObject({ code: 'COMMON_NOT_FOUND_4004', msg: '价格表不存在或已被删除' });
    const own = await idOf('priceTitle', { companyId: await idOf('company', { code: 'demo2' }), code: 'SP01' });
    expect((await setPrice(own, products.PM001, '1', demo2)).code).toBe('PRODUCT_NOT_EXIST_4001');
    expect((await t.call('cdm', PM.adjust, { priceTitleId: titles.SPT, percent: '1' }, demo2)).code).toBe('COMMON_NOT_FOUND_4004');
    // adjusting the other company's own list by filters never reaches this company's products
    expect(await ok(t.call('cdm', PM.adjust, { priceTitleId: own, basis: 'reference', percent: '1', productIds: [products.PM001] }, demo2))).toMatchObject({ matched: 0, changed: 0 });
    expect(await stored(own, products.PM001)).toBeUndefined();
  });
});
