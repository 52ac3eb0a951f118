// Commodity screens beyond the product list, as a client sees them: competitor products and their
// observed prices (competing), a product's versions and their field-by-field comparison (diffInfo), the
// display order (sortList), products with images and their zip (imageDownload), and the product import
// at 10,000 rows (all or nothing, errors by row). SQLite, or PostgreSQL when DATABASE_URL is set.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSZip, makeXlsx, multipart, type Cell } from '../fixtures/spreadsheets.ts';
import { ok, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let demo: string;
let demo2: string;
let demoId: number;
const products: Record<string, number> = {};

const PRODUCT = { list: '010201', get: '010202', save: '010203', import: '010206', template: '010245', imagesZip: '010248' };
const COMPETITOR = { list: '015001', save: '015003', remove: '015004', options: '015005' };
const COMPETING = { list: '015011', get: '015012', save: '015013', remove: '015014', export: '015015', import: '015016' };
const PRICE = { list: '015021', save: '015023', remove: '015024' };
const VERSION = { list: '015031', diff: '015032' };
const SORT = { list: '015041', save: '015042', move: '015043', remove: '015044' };
const IMAGES = { list: '015051' };

type Envelope = { code: string; msg: string; data: any };


async function upload(code: string, fileName: string, body: Buffer, token: string): Promise<Envelope> {
  const { payload, headers } = multipart(fileName, body);
  return t.call('cdm', code, undefined, token, { payload, headers });
}

async function saveProduct(token: string, values: Record<string, unknown>): Promise<any> {
  return ok(t.call('cdm', PRODUCT.save, { midQty: 1, bigQty: 1, unitSmall: '个', ...values }, token));
}

async function updateProduct(id: number, values: Record<string, unknown>, token = demo): Promise<any> {
  const p = await ok(t.call('cdm', PRODUCT.get, { id }, token));
  return ok(t.call('cdm', PRODUCT.save, { id, version: p.version, ...values }, token));
}

beforeAll(async () => {
  t = await startTestServer();
  demo = await t.login('demo', 'admin', 'demo123');
  demo2 = await t.login('demo2', 'admin', 'demo123');
  demoId = Number((await t.database.db.selectFrom('company').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id);
  const cat = await ok(t.call('cdm', '010403', { code: 'K1', name: '紧固件' }, demo));
  for (const [code, name, price] of [['K100', '十字螺丝', '1.50'], ['K200', '六角螺母', '0.80'], ['K300', '平垫片', '0.10'], ['K400', '弹簧垫圈', '0.20']] as const) {
    products[code] = (await saveProduct(demo, { code, name, price, categoryId: cat.id })).id;
  }
});

afterAll(async () => {
  await t?.close();
});

describe('competing', () => {
  let acme: number;
  let cpScrew: number;
  let cpNut: number;

  beforeAll(async () => {
    acme = (await ok(t.call('cdm', COMPETITOR.save, { name: '永固五金', website: 'https://yonggu.example.com' }, demo))).id;
    const other = (await ok(t.call('cdm', COMPETITOR.save, { name: '申工紧固件' }, demo))).id;
    cpScrew = (await ok(t.call('cdm', COMPETING.save, { competitorId: acme, code: 'YG-01', name: '永固十字螺丝', specification: 'M4×20', productId: products.K100 }, demo))).id;
    cpNut = (await ok(t.call('cdm', COMPETING.save, { competitorId: other, name: '申工螺母', productId: products.K200 }, demo))).id;
  });

  it('lists competitor products with our product, the latest observed price and the gap to our price', async () => {
    const usd = (await ok(t.call('cdm', '012101', { page: 1, filters: { code: 'USD' } }, demo))).list[0].id;
    await ok(t.call('cdm', PRICE.save, { competitorProductId: cpScrew, observedOn: '2026-03-01', price: '1.2000', source: '展会报价' }, demo));
    await ok(t.call('cdm', PRICE.save, { competitorProductId: cpScrew, observedOn: '2026-04-15', price: '1.2345', source: '天猫旗舰店' }, demo));
    await ok(t.call('cdm', PRICE.save, { competitorProductId: cpScrew, observedOn: '2026-02-01', price: '0.9000' }, demo));
    await ok(t.call('cdm', PRICE.save, { competitorProductId: cpNut, observedOn: '2026-04-01', price: '0.1100', currencyId: usd }, demo));

    const list = await ok(t.call('cdm', COMPETING.list, { page: 1, pageSize: 20 }, demo));
    expect(list.total).toBe(2);
    const screw = list.list.find((r: any) => r.id === cpScrew);
    expect(screw).toMatchObject({
      competitorName: '永固五金', code: 'YG-01', name: '永固十字螺丝', productCode: 'K100', productName: '十字螺丝',
      latestPrice: '1.2345', latestObservedOn: '2026-04-15', latestSource: '天猫旗舰店', latestCurrencyName: '人民币',
      ourPrice: '1.50', ourPriceSource: '参考价', priceGap: '0.2655', priceGapRate: 21.51,
    });
    // Different currencies: the price is shown, no gap is guessed.
    const nut = list.list.find((r: any) => r.id === cpNut);
    expect(nut).toMatchObject({ latestPrice: '0.1100', latestCurrencyName: '美元', ourPrice: '0.80', priceGap: null, priceGapRate: null });

    // Filters and keyword (our code, their name, competitor name).
    expect((await ok(t.call('cdm', COMPETING.list, { page: 1, filters: { competitorId: acme } }, demo))).list.map((r: any) => r.id)).toEqual([cpScrew]);
    expect((await ok(t.call('cdm', COMPETING.list, { page: 1, keyword: 'K200' }, demo))).list.map((r: any) => r.id)).toEqual([cpNut]);
    expect((await ok(t.call('cdm', COMPETING.list, { page: 1, keyword: '申工' }, demo))).list.map((r: any) => r.id)).toEqual([cpNut]);
    // The observation history, newest first.
    const prices = await ok(t.call('cdm', PRICE.list, { page: 1, filters: { competitorProductId: cpScrew } }, demo));
    expect(prices.list.map((p: any) => [p.observedOn, p.price])).toEqual([['2026-04-15', '1.2345'], ['2026-03-01', '1.2000'], ['2026-02-01', '0.9000']]);
  });

  it('compares with the default sale price list of the account when it has one', async () => {
    const cny = (await ok(t.call('cdm', '012101', { page: 1, filters: { code: 'CNY' } }, demo))).list[0].id;
    const title = await ok(t.call('cdm', '014003', { code: 'SALE-A', name: '批发价', kind: 'sale', currencyId: cny }, demo));
    const now = new Date().toISOString();
    await t.database.db.insertInto('productPrice').values({ companyId: demoId, priceTitleId: title.id, productId: products.K100, price: 200, version: 1, createdAt: now, updatedAt: now }).execute();
    const admin = (await ok(t.call('cdm', '013401', { page: 1, filters: { userName: 'admin' } }, demo))).list[0];
    await ok(t.call('cdm', '013403', { id: admin.id, version: admin.version, salePriceId: title.id }, demo));
    try {
      const screw = (await ok(t.call('cdm', COMPETING.list, { page: 1, keyword: 'K100' }, demo))).list[0];
      expect(screw).toMatchObject({ ourPrice: '2.00', ourPriceSource: '批发价', priceGap: '0.7655', priceGapRate: 62.01 });
    } finally {
      const again = await ok(t.call('cdm', '013402', { id: admin.id }, demo));
      await ok(t.call('cdm', '013403', { id: admin.id, version: again.version, salePriceId: null }, demo));
    }
  });

  it('checks input in Chinese and keeps companies apart', async () => {
    const tooPrecise = await t.call('cdm', PRICE.save, { competitorProductId: cpScrew, observedOn: '2026-04-16', price: '1.23456' }, demo);
    expect(tooPrecise.code).toBe('COMMON_VALIDATION_4000');
    expect(tooPrecise.msg).toContain('单价最多 4 位小数');
    const badDate = await t.call('cdm', PRICE.save, { competitorProductId: cpScrew, observedOn: '2026-02-30', price: '1' }, demo);
    expect(badDate.msg).toContain('观察日期不是有效的日期');
    const dup = await t.call('cdm', COMPETING.save, { competitorId: acme, code: 'YG-01', name: '重复', productId: products.K300 }, demo);
    expect(dup.code).not.toBe('200');
    expect(dup.msg).toContain('YG-01');
    const noProduct = await t.call('cdm', COMPETING.save, { competitorId: acme, name: '缺商品' }, demo);
    expect(noProduct.msg).toContain('对应商品不能为空');

    // Another company sees none of it and cannot link to our rows.
    expect((await ok(t.call('cdm', COMPETING.list, { page: 1 }, demo2))).total).toBe(0);
    expect((await ok(t.call('cdm', COMPETITOR.options, {}, demo2)))).toEqual([]);
    const own = (await ok(t.call('cdm', COMPETITOR.save, { name: '永固五金' }, demo2))).id;
    const foreign = await t.call('cdm', COMPETING.save, { competitorId: own, name: '借用商品', productId: products.K100 }, demo2);
    expect(foreign.code).toBe('COMMON_VALIDATION_4000');
    expect((await t.call('cdm', PRICE.save, { competitorProductId: cpScrew, observedOn: '2026-04-01', price: '1' }, demo2)).code).toBe('COMMON_VALIDATION_4000');

    // A competitor product with observations is not removed behind their back.
    const refused = await t.call('cdm', COMPETING.remove, { id: cpScrew }, demo);
    expect(refused.code).not.toBe('200');
    expect(refused.msg).toContain('竞品价格');
    expect((await ok(t.call('cdm', COMPETING.list, { page: 1 }, demo))).total).toBe(2);
  });

  it('imports competitor products by competitor and product code, all or nothing', async () => {
    const bad = await makeXlsx([
      ['竞争对手', '竞品编码', '竞品名称', '对应商品'],
      ['永固五金', 'YG-02', '永固螺母', 'K200'],
      ['不存在的对手', 'X-1', '某竞品', 'K300'],
      ['永固五金', 'YG-03', '永固垫片', 'NOPE'],
    ]);
    const r = await upload(COMPETING.import, '竞品.xlsx', bad, demo);
    expect(r.code).toBe('COMMON_IMPORT_4012');
    expect(r.data.errors.map((e: any) => e.message)).toEqual(['第 3 行：竞争对手“不存在的对手”不存在', '第 4 行：对应商品“NOPE”不存在']);
    expect((await ok(t.call('cdm', COMPETING.list, { page: 1 }, demo))).total).toBe(2);
    const good = await makeXlsx([['竞争对手', '竞品编码', '竞品名称', '对应商品'], ['永固五金', 'YG-02', '永固螺母', 'K200'], ['永固五金', 'YG-01', '永固十字螺丝（新包装）', 'K100']]);
    expect(await ok(upload(COMPETING.import, '竞品.xlsx', good, demo))).toEqual({ created: 1, updated: 1, unchanged: 0 });
    const rows = (await ok(t.call('cdm', COMPETING.list, { page: 1, filters: { competitorId: acme } }, demo))).list;
    expect(rows.map((x: any) => [x.code, x.name, x.productCode])).toEqual([['YG-01', '永固十字螺丝（新包装）', 'K100'], ['YG-02', '永固螺母', 'K200']]);
  });
});

describe('diffInfo: product versions', () => {
  let id: number;

  beforeAll(async () => {
    id = (await saveProduct(demo, { code: 'V100', name: '版本商品', price: '10.00', brand: '华东', status: 'onSale' })).id;
    await updateProduct(id, { name: '版本商品（改名）', price: '12.50' });
    await updateProduct(id, { status: 'stopped', brand: null, specification: 'M6' });
  });

  it('lists every version, newest first, with who changed what', async () => {
    const v = await ok(t.call('cdm', VERSION.list, { page: 1, pageSize: 10, filters: { productCode: 'V100' } }, demo));
    expect(v.total).toBe(3);
    expect(v.list.map((x: any) => [x.version, x.current, x.actionText, x.userName])).toEqual([[3, true, '修改', 'admin'], [2, false, '修改', 'admin'], [1, false, '新增', 'admin']]);
    expect(v.list[1].changes).toEqual([
      { field: 'name', title: '商品名称', from: '版本商品', to: '版本商品（改名）' },
      { field: 'price', title: '参考价', from: '10.00', to: '12.50' },
    ]);
  });

  it('compares the previous version with the current one field by field', async () => {
    const d = await ok(t.call('cdm', VERSION.diff, { page: 1, filters: { productCode: 'V100' } }, demo));
    expect([d.fromVersion, d.toVersion, d.currentVersion]).toEqual([2, 3, 3]);
    const changed = d.list.filter((r: any) => r.changed).map((r: any) => [r.title, r.before, r.after]);
    expect(changed).toEqual([['品牌', '华东', null], ['规格', null, 'M6'], ['状态', '在售', '停售']]);
    const name = d.list.find((r: any) => r.field === 'name');
    expect(name).toEqual({ field: 'name', title: '商品名称', before: '版本商品（改名）', after: '版本商品（改名）', changed: false });
    expect(d.list.map((r: any) => r.title)).toContain('商品编码');
  });

  it('compares any two versions, and only the changed fields when asked', async () => {
    const d = await ok(t.call('cdm', VERSION.diff, { page: 1, productId: id, filters: { fromVersion: 1, toVersion: 3, onlyChanged: true } }, demo));
    expect(d.list.map((r: any) => [r.title, r.before, r.after])).toEqual([
      ['商品名称', '版本商品', '版本商品（改名）'], ['品牌', '华东', null], ['规格', null, 'M6'], ['状态', '在售', '停售'], ['参考价', '10.00', '12.50'],
    ]);
    const back = await ok(t.call('cdm', VERSION.diff, { page: 1, productId: id, filters: { fromVersion: 3, toVersion: 1, onlyChanged: true } }, demo));
    expect(back.list.find((r: any) => r.field === 'price')).toMatchObject({ before: '12.50', after: '10.00' });
  });

  it('explains bad requests in Chinese and sees only its own company', async () => {
    const empty = await ok(t.call('cdm', VERSION.diff, { page: 1 }, demo));
    expect(empty).toMatchObject({ list: [], total: 0 });
    const tooNew = await t.call('cdm', VERSION.diff, { page: 1, filters: { productCode: 'V100', toVersion: 9 } }, demo);
    expect(tooNew.code).toBe('COMMON_VALIDATION_4000');
    expect(tooNew.msg).toContain('目标版本不能大于当前版本 3');
    expect((await t.call('cdm', VERSION.diff, { page: 1, filters: { productCode: 'NOPE' } }, demo)).code).toBe('PRODUCT_NOT_EXIST_4001');
    expect((await t.call('cdm', VERSION.list, { page: 1, filters: { productCode: 'V100' } }, demo2)).code).toBe('PRODUCT_NOT_EXIST_4001');
    expect((await t.call('cdm', VERSION.diff, { page: 1, productId: id }, demo2)).code).toBe('PRODUCT_NOT_EXIST_4001');
  });

  it('does not count a change of display order as a product version', async () => {
    await ok(t.call('cdm', SORT.save, { id, sortNo: 900 }, demo));
    await ok(t.call('cdm', SORT.remove, { id }, demo));
    const v = await ok(t.call('cdm', VERSION.list, { page: 1, filters: { productCode: 'V100' } }, demo));
    expect(v.list.map((x: any) => x.version)).toEqual([3, 2, 1]);
    const d = await ok(t.call('cdm', VERSION.diff, { page: 1, filters: { productCode: 'V100', fromVersion: 1, onlyChanged: true } }, demo));
    expect(d.list.map((r: any) => r.field)).toEqual(['name', 'brand', 'specification', 'status', 'price']);
  });
});

describe('sortList: display order', () => {
  const sorted = async (token = demo) => (await ok(t.call('cdm', SORT.list, { page: 1, pageSize: 50 }, token))).list.map((r: any) => [r.code, r.sortNo]);

  it('adds products at the end, swaps neighbours, refuses a number in use', async () => {
    expect(await sorted()).toEqual([]);
    expect(await ok(t.call('cdm', SORT.save, { productCode: 'K300' }, demo))).toMatchObject({ code: 'K300', sortNo: 1 });
    await ok(t.call('cdm', SORT.save, { productCode: 'K100' }, demo));
    await ok(t.call('cdm', SORT.save, { id: products.K200, sortNo: 10 }, demo));
    expect(await sorted()).toEqual([['K300', 1], ['K100', 2], ['K200', 10]]);

    await ok(t.call('cdm', SORT.move, { id: products.K200, direction: 'up' }, demo));
    expect(await sorted()).toEqual([['K300', 1], ['K200', 2], ['K100', 10]]);
    await ok(t.call('cdm', SORT.move, { id: products.K300, direction: 'down' }, demo));
    expect(await sorted()).toEqual([['K200', 1], ['K300', 2], ['K100', 10]]);

    const top = await t.call('cdm', SORT.move, { id: products.K200, direction: 'up' }, demo);
    expect(top.code).toBe('COMMON_VALIDATION_4000');
    expect(top.msg).toContain('已经是第一个，不能上移');
    const inUse = await t.call('cdm', SORT.save, { id: products.K400, sortNo: 2 }, demo);
    expect(inUse.code).toBe('COMMON_VALIDATION_4000');
    expect(inUse.msg).toContain('排序号 2 已被商品 K300 平垫片 使用');
    const notSorted = await t.call('cdm', SORT.move, { id: products.K400, direction: 'down' }, demo);
    expect(notSorted.msg).toContain('K400 不在排序列表中');
    expect((await t.call('cdm', SORT.save, { productCode: 'NOPE' }, demo)).code).toBe('PRODUCT_NOT_EXIST_4001');
    expect((await t.call('cdm', SORT.save, { id: products.K400, sortNo: 0 }, demo)).code).toBe('COMMON_VALIDATION_4000');

    // The move is in the product's change log.
    const audit = await ok(t.call('cdm', '019702', { page: 1, filters: { entity: 'product', recordId: String(products.K200) } }, demo));
    expect(audit.list[0].changes).toEqual([{ field: 'sortNo', title: '排序号', from: 2, to: 1 }]);
  });

  it('lists unsorted products, removes from the order, keeps companies apart', async () => {
    const unsorted = await ok(t.call('cdm', SORT.list, { page: 1, filters: { scope: 'unsorted', keyword: 'K' } }, demo));
    expect(unsorted.list.map((r: any) => [r.code, r.sorted])).toEqual([['K400', false]]);
    await ok(t.call('cdm', SORT.remove, { ids: [products.K300, products.K100] }, demo));
    expect(await sorted()).toEqual([['K200', 1]]);
    expect(await sorted(demo2)).toEqual([]);
    expect((await t.call('cdm', SORT.move, { id: products.K200, direction: 'down' }, demo2)).code).toBe('PRODUCT_NOT_EXIST_4001');
    expect((await t.call('cdm', SORT.save, { id: products.K400 }, demo2)).code).toBe('PRODUCT_NOT_EXIST_4001');
  });

  it('products appended at the same moment get distinct numbers', async () => {
    const codes = ['K100', 'K300', 'K400', 'V100'];
    const answers = await Promise.all(codes.map((productCode) => t.call('cdm', SORT.save, { productCode }, demo)));
    expect(answers.map((a) => a.code)).toEqual(['200', '200', '200', '200']);
    const list = await sorted();
    expect(list.map(([code]: [string]) => code).sort()).toEqual(['K100', 'K200', 'K300', 'K400', 'V100']);
    expect(new Set(list.map(([, n]: [string, number]) => n)).size).toBe(5);
    await ok(t.call('cdm', SORT.remove, { ids: codes.map((c) => products[c] ?? 0).filter(Boolean) }, demo));
    const v100 = (await ok(t.call('cdm', SORT.list, { page: 1, keyword: 'V100' }, demo))).list[0];
    await ok(t.call('cdm', SORT.remove, { id: v100.id }, demo));
    expect(await sorted()).toEqual([['K200', 1]]);
  });

  it('a clerk without the right cannot reorder', async () => {
    const clerk = await t.login('demo', 'clerk', 'demo123');
    const r = await t.call('cdm', SORT.move, { id: products.K200, direction: 'down' }, clerk);
    expect(r.code).not.toBe('200');
    expect(await sorted()).toEqual([['K200', 1]]);
  });
});

describe('imageDownload', () => {
  it('lists only products with an image and zips the selected ones', async () => {
    const storedName = `${crypto.randomBytes(16).toString('hex')}.jpg`;
    const bytes = crypto.randomBytes(128);
    fs.mkdirSync(path.join(t.config.dataDir, 'media'), { recursive: true });
    fs.writeFileSync(path.join(t.config.dataDir, 'media', storedName), bytes);
    const mediaId = crypto.randomBytes(11).toString('hex');
    await t.database.db.insertInto('media').values({
      id: mediaId, companyId: demoId, mime: 'image/jpeg', ext: 'jpg', size: bytes.length, sha256: crypto.createHash('sha256').update(bytes).digest('hex'),
      originalName: 'k.jpg', storedName, createdAt: new Date().toISOString(),
    }).execute();
    await updateProduct(products.K300, { imageId: mediaId });

    const list = await ok(t.call('cdm', IMAGES.list, { page: 1, pageSize: 50 }, demo));
    expect(list.list.map((r: any) => [r.code, r.imageId, r.categoryName])).toEqual([['K300', mediaId, '紧固件']]);
    expect((await ok(t.call('cdm', IMAGES.list, { page: 1, keyword: '螺丝' }, demo))).total).toBe(0);
    expect((await ok(t.call('cdm', IMAGES.list, { page: 1 }, demo2))).total).toBe(0);

    const res = await t.raw('cdm', PRODUCT.imagesZip, { ids: list.list.map((r: any) => r.id) }, demo);
    expect(res.headers['content-type']).toBe('application/zip');
    const zip = await JSZip.loadAsync(res.rawPayload);
    expect(Object.keys(zip.files)).toEqual(['K300.jpg']);
    expect(Buffer.from(await zip.file('K300.jpg')!.async('uint8array')).equals(bytes)).toBe(true);
  });
});

describe('product import at 10,000 rows', () => {
  const ROWS = 10_000;

  async function productCount(prefix: string): Promise<number> {
    return (await ok(t.call('cdm', PRODUCT.list, { page: 1, pageSize: 1, filters: { code: prefix } }, demo))).total;
  }

  function rows(header: string[], bad?: number): Cell[][] {
    const out: Cell[][] = [header];
    for (let i = 0; i < ROWS; i++) {
      const n = String(i + 1).padStart(5, '0');
      const values: Record<string, Cell> = {
        商品编码: `M${n}`, 条码: `69${10_000_000_000 + i}`, 商品名称: `大批量商品 ${n}`, 商品类别: '紧固件', 品牌: '华东', 规格: `M${(i % 9) + 2}`,
        状态: i % 5 ? '在售' : '停售', 锁定: '未锁定', 默认供应商: 'S001', 小单位: '个', 中单位: '盒', 大单位: '箱',
        中包装数量: 10, 大包装数量: i === bad ? 25 : 100, 参考价: (i % 100) + 0.5,
      };
      out.push(header.map((h) => values[h] ?? null));
    }
    return out;
  }

  it('rejects the whole file for one bad row near the end, naming it; then writes all 10,000', async () => {
    const started = Date.now();
    const template = await t.raw('cdm', PRODUCT.template, {}, demo);
    const { readSpreadsheet } = await import('../../src/server/files/xlsx.ts');
    const header = (await readSpreadsheet(template.rawPayload, 'xlsx')).rows[0].cells.map(String);
    expect(header).toEqual(expect.arrayContaining(['商品编码', '商品名称', '商品类别', '中包装数量', '大包装数量', '参考价']));

    const bad = ROWS - 7; // data row index → spreadsheet row bad + 2
    const rejected = await upload(PRODUCT.import, '商品.xlsx', await makeXlsx(rows(header, bad)), demo);
    expect(rejected.code).toBe('COMMON_IMPORT_4012');
    expect(rejected.msg).toBe('导入失败：共 1 行有错误，未写入任何数据');
    expect(rejected.data.errors).toEqual([{ row: bad + 2, field: 'bigQty', title: '大包装数量', message: `第 ${bad + 2} 行：大包装数量必须是中包装数量的整数倍` }]);
    expect(await productCount('M')).toBe(0);

    const done = await ok(upload(PRODUCT.import, '商品.xlsx', await makeXlsx(rows(header)), demo));
    expect(done).toEqual({ created: ROWS, updated: 0, unchanged: 0 });
    expect(await productCount('M')).toBe(ROWS);
    const last = (await ok(t.call('cdm', PRODUCT.list, { page: 1, filters: { code: `M${ROWS}` } }, demo))).list[0];
    expect(last).toMatchObject({ name: `大批量商品 ${ROWS}`, categoryName: '紧固件', supplierName: '宁波华东五金制品厂', bigQty: 100, price: '99.50', status: 'onSale' });
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});
