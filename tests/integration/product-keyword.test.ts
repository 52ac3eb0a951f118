// Keyword search over products with the bigram keyword index (resources/keyword-index.ts), on a real
// database (SQLite, or PostgreSQL when DATABASE_URL is set): the product list (cdm 010201), the
// inventory list (011301) and stock by location (011302) find exactly the products whose code, barcode,
// name or English name contain the keyword (either case of ASCII letters) — after creating, changing,
// removing and importing products — whichever way the index is used.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keywordGrams } from '../../src/server/resources/keyword-grams.ts';
import { candidatesCondition, planKeyword, PRODUCT_KEYWORDS, rebuildKeywords, type KeywordPlan, type Strategy } from '../../src/server/resources/keyword-index.ts';
import { whereConditions } from '../../src/server/resources/query.ts';
import { loadResources } from '../../src/server/resources/index.ts';
import { Tenant } from '../../src/server/catalog/tenant.ts';
import { makeXlsx, multipart } from '../fixtures/spreadsheets.ts';
import { ok, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let demo: string;
let demo2: string;
let demoId: number;
let wh1: number;

const PRODUCT = { list: '010201', get: '010202', save: '010203', remove: '010204', import: '010206' };
const STOCK = { inventory: '011301', distribution: '011302', init: '022603' };

interface P { id: number; version: number; code: string; barcode: string | null; name: string; nameEn: string | null; price: string }

/** What the server keeps, by id: the test's own copy of every product of demo. */
const products = new Map<number, P>();

async function save(values: Record<string, unknown>, token = demo): Promise<P> {
  const p = await ok(t.call('cdm', PRODUCT.save, values, token));
  const row: P = { id: p.id, version: p.version, code: p.code, barcode: p.barcode, name: p.name, nameEn: p.nameEn, price: p.price };
  if (token === demo) products.set(row.id, row);
  return row;
}

/** LIKE's and ILIKE's rule for the test data (ASCII letters either case; no other cased letters). */
const fold = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
const expected = (keyword: string) =>
  [...products.values()].filter((p) => [p.code, p.barcode, p.name, p.nameEn].some((v) => v && fold(v).includes(fold(keyword.trim()))));
const byCode = (a: P, b: P) => (a.code < b.code ? -1 : a.code > b.code ? 1 : a.id - b.id);
const byPriceDesc = (a: P, b: P) => Number(b.price) - Number(a.price) || b.id - a.id;

async function list(body: Record<string, unknown>, token = demo) {
  return ok(t.call('cdm', PRODUCT.list, { page: 1, pageSize: 1000, ...body }, token));
}

/** Every product the list finds for a keyword, in its default order (code), and its total. */
async function found(keyword: string) {
  const r = await list({ keyword });
  return { codes: r.list.map((x: any) => x.code), total: r.total };
}

async function expectFinds(keyword: string) {
  const want = expected(keyword).sort(byCode).map((p) => p.code);
  expect(await found(keyword), keyword).toEqual({ codes: want, total: want.length });
}

const BRANDS = ['永固', '金狮', '东成'];
const NOUNS: Array<[string, string]> = [['十字螺丝', 'Phillips screw'], ['六角螺母', 'Hex nut'], ['LED灯泡', 'LED bulb'], ['螺丝刀套装', 'Screwdriver set'], ['封箱胶带', 'Packing tape']];
const SPECS = ['M3×10', 'M4', '5米', '12W'];

beforeAll(async () => {
  t = await startTestServer();
  demo = await t.login('demo', 'admin', 'demo123');
  demo2 = await t.login('demo2', 'admin', 'demo123');
  const company = await t.database.db.selectFrom('company').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow();
  demoId = Number(company.id);
  wh1 = (await ok(t.call('cdm', '011001', { page: 1, pageSize: 10 }, demo))).list[0].id;
  let i = 0;
  for (const brand of BRANDS) {
    for (const [noun, nounEn] of NOUNS) {
      for (const spec of SPECS) {
        i++;
        await save({
          code: `KW${String(i).padStart(3, '0')}`, name: `${brand}${noun} ${spec}`, nameEn: i % 3 ? `${nounEn} ${spec}` : null,
          barcode: i % 2 ? null : `69000000${String(i).padStart(5, '0')}`, price: String((i * 37) % 100 + 1),
        });
      }
    }
  }
  // The grams of 螺丝钉 (螺丝, 丝钉), but not the word.
  await save({ code: 'KW900', name: '螺丝和丝钉', price: '3' });
  // Another company's product is never found.
  await save({ code: 'KW901', name: '永固十字螺丝 他司', price: '3' }, demo2);
});

afterAll(async () => {
  await t?.close();
});

describe('product list keyword', () => {
  it('finds exactly the products whose code, barcode, name or English name contain the keyword', async () => {
    for (const keyword of ['螺丝', '十字螺丝', '永固十字', 'screw', 'SCREW', 'Screw', 'led', 'LED灯', 'M3×10', 'm3×10', 'kw01', 'KW0', '6900000000',
      'nut M4', 'hex NUT', '丝 M', '12w', '套装', ' 胶带 ', '螺丝刀', 'KW060', 'no-such', '100%', 'a_b']) {
      await expectFinds(keyword);
    }
    expect(expected('螺丝').length).toBe(25);
  });

  it('a one-character keyword searches without the index and finds the same rows', async () => {
    for (const keyword of ['螺', 'x', 'W', '9', '%']) await expectFinds(keyword);
  });

  it('a keyword whose grams all occur, but not next to each other, finds nothing', async () => {
    expect(keywordGrams('螺丝钉')!.length).toBe(2);
    expect(await found('螺丝钉')).toEqual({ codes: [], total: 0 });
    expect(await found('和丝钉')).toEqual({ codes: ['KW900'], total: 1 });
  });

  it('pages in any order are slices of the same rows', async () => {
    const want = expected('螺丝');
    const pageSize = 7;
    for (const [sort, order] of [[{ field: 'price', order: 'descend' }, byPriceDesc], [{ field: 'code', order: 'ascend' }, byCode]] as const) {
      const sorted = [...want].sort(order).map((p) => p.code);
      for (const page of [1, 2, 3, Math.ceil(sorted.length / pageSize)]) {
        const r = await list({ keyword: '螺丝', page, pageSize, sort });
        expect(r.list.map((x: any) => x.code), `${sort.field} page ${page}`).toEqual(sorted.slice((page - 1) * pageSize, page * pageSize));
        expect(r.total).toBe(sorted.length);
      }
    }
    // A page far past the first reads ids first, then the rows: same answer, every column.
    const plain = await list({ page: 1, pageSize: 100, sort: { field: 'price', order: 'descend' } });
    const deep = await list({ page: 9, pageSize: 7, sort: { field: 'price', order: 'descend' } });
    expect(deep.list).toEqual(plain.list.slice(56, 63));
    expect(deep.list[0]).toMatchObject({ categoryName: null, supplierName: null, unitSmall: '个' });
  });

  it('follows every change: a renamed product is found by its new name only, a removed one not at all', async () => {
    const p = await save({ code: 'KWR01', name: '旧名称扳手', nameEn: 'Old wrench', barcode: '6911111111111', price: '5' });
    await expectFinds('旧名称');
    await expectFinds('wrench');
    const renamed = await save({ id: p.id, version: p.version, name: '新名称钳子', nameEn: null });
    expect(await found('旧名称')).toEqual({ codes: [], total: 0 });
    expect(await found('wrench')).toEqual({ codes: [], total: 0 });
    expect(await found('新名称')).toEqual({ codes: ['KWR01'], total: 1 });
    // Fields that are not searched change nothing; the barcode still finds it.
    await save({ id: renamed.id, version: renamed.version, price: '6', brand: '新品牌' });
    expect((await found('69111111')).codes).toEqual(['KWR01']);
    await ok(t.call('cdm', PRODUCT.remove, { ids: [p.id] }, demo));
    products.delete(p.id);
    expect(await found('新名称')).toEqual({ codes: [], total: 0 });
    expect(await found('69111111')).toEqual({ codes: [], total: 0 });
    await expectFinds('KWR');
  });

  it('follows an import: new products are found, changed names by the new name only', async () => {
    const before = [...products.values()].find((p) => p.code === 'KW001')!;
    const file = await makeXlsx([
      ['商品编码', '商品名称', '英文名称', '条码'],
      ['KW001', '导入改名扳手 A1', 'Import wrench', null],
      ['KWI01', '导入新品螺丝钉', 'Imported screw nail', '6922222222222'],
      ['KWI02', '导入新品胶带', null, null],
    ]);
    const { payload, headers } = multipart('商品.xlsx', file);
    expect(await ok(t.call('cdm', PRODUCT.import, undefined, demo, { payload, headers }))).toEqual({ created: 2, updated: 1, unchanged: 0 });
    const all = await list({ filters: { code: ['KW001', 'KWI01', 'KWI02'] } });
    for (const x of all.list) products.set(x.id, { id: x.id, version: x.version, code: x.code, barcode: x.barcode, name: x.name, nameEn: x.nameEn, price: x.price });
    expect(products.get(before.id)!.name).toBe('导入改名扳手 A1');
    expect((await found('螺丝钉')).codes).toEqual(['KWI01']);
    expect((await found('6922222')).codes).toEqual(['KWI01']);
    expect((await found('导入改名')).codes).toEqual(['KW001']);
    expect((await found('Import WRENCH')).codes).toEqual(['KW001']);
    for (const keyword of ['十字螺丝 M3', '胶带', 'screw', '导入']) await expectFinds(keyword);
  });

  it('never finds another company\'s products', async () => {
    expect((await found('他司')).codes).toEqual([]);
    expect((await list({ keyword: '十字螺丝' }, demo2)).list.map((x: any) => x.code)).toEqual(['KW901']);
  });
});

describe('every way of using the index gives the keyword test\'s rows', () => {
  it('drive, probe (SQLite) and scan, for pages and counts', async () => {
    const db = t.database.db;
    const dialect = t.database.dialect;
    const tenant = new Tenant(db, demoId);
    const product = loadResources().get('product')!;
    const env = { dialect, tzHours: 8 };
    for (const keyword of ['螺丝', '十字螺丝 M', 'screw', 'LED', '螺丝钉', 'KW00', 'zz']) {
      const grams = keywordGrams(keyword)!;
      const [test] = whereConditions(product, { keyword }, env);
      const ids = async (plan: KeywordPlan | null) => {
        let q = test.apply(tenant.select('product').select('product.id'));
        const c = plan && candidatesCondition(dialect, PRODUCT_KEYWORDS, demoId, plan, 'product.id');
        if (c) q = q.where(c.sql);
        return ((await q.orderBy('product.id').execute()) as Array<{ id: number }>).map((r) => Number(r.id));
      };
      const want = await ids(null);
      expect(want, keyword).toEqual(expected(keyword).map((p) => p.id).sort((a, b) => a - b));
      const planned = await planKeyword({ db, dialect, ix: PRODUCT_KEYWORDS, source: 'product', companyId: demoId, grams, rows: 50, probe: dialect === 'sqlite' });
      expect(planned.grams.length).toBe(Math.min(3, grams.length));
      const strategies: Strategy[] = dialect === 'sqlite' ? ['drive', 'probe', 'scan'] : ['drive', 'scan'];
      for (const strategy of strategies) {
        expect(await ids({ strategy, grams: planned.grams }), `${keyword} ${strategy}`).toEqual(want);
      }
    }
  });
});

describe('inventory lists', () => {
  it('inventory (011301) and stock by location (011302) find the products by keyword', async () => {
    const stocked = [...products.values()].filter((p) => p.code.startsWith('KW0')).slice(0, 24);
    const lines = stocked.map((p, i) => ({ productId: p.id, qty: i + 1 }));
    await ok(t.call('oms', STOCK.init, { warehouseId: wh1, lines, post: true }, demo));
    const inStock = new Set(stocked.map((p) => p.id));
    for (const keyword of ['螺丝', '十字螺丝', 'KW01', 'kw01', '6900000000', 'M4', '螺丝钉', '螺']) {
      // code or name contains the keyword (either case), or the barcode is the keyword
      const want = stocked.filter((p) => fold(p.code).includes(fold(keyword)) || fold(p.name).includes(fold(keyword)) || p.barcode === keyword)
        .sort(byCode).map((p) => p.id);
      const inv = await ok(t.call('cdm', STOCK.inventory, { page: 1, pageSize: 100, keyword, warehouseId: wh1 }, demo));
      expect(inv.list.map((r: any) => r.productId), `inventory ${keyword}`).toEqual(want);
      expect(inv.total).toBe(want.length);
      const dist = await ok(t.call('cdm', STOCK.distribution, { page: 1, pageSize: 100, keyword, warehouseId: wh1 }, demo));
      expect(dist.list.map((r: any) => r.productId).filter((id: number) => inStock.has(id)).sort((a: number, b: number) => a - b), `distribution ${keyword}`)
        .toEqual([...want].sort((a, b) => a - b));
    }
    const exact = stocked.find((p) => p.barcode)!;
    expect((await ok(t.call('cdm', STOCK.inventory, { page: 1, pageSize: 10, keyword: exact.barcode }, demo))).list.map((r: any) => r.productId)).toEqual([exact.id]);
  });
});

describe('the index itself', () => {
  it('holds what rebuilding it from the products gives', async () => {
    const db = t.database.db;
    const pairs = async () => ((await db.selectFrom('productKeyword').select(['companyId', 'gram', 'productId']).execute()) as Array<Record<string, unknown>>)
      .map((r) => `${r.companyId}:${r.gram}:${r.productId}`).sort();
    const kept = await pairs();
    expect(kept.length).toBeGreaterThan(1000);
    await db.deleteFrom('productKeyword').execute();
    await rebuildKeywords(db, t.database.dialect, PRODUCT_KEYWORDS, 'product');
    expect(await pairs()).toEqual(kept);
  });
});
