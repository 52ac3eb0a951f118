// 价格查询 (/price, oms 022501 and its picker 022502) as a client sees it: one product's price on every
// price list (none shown as none), its last 10 purchase prices from confirmed orders (drafts and
// cancelled orders left out), each competitor item's latest observed price; the picker's search by code,
// barcode and name; refusals, rights and company isolation. SQLite, or PostgreSQL with DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startTestServer, type TestServer } from './helpers.ts';

const Q = { query: '022501', search: '022502' };
const PO = { save: '020203', confirm: '020205', cancel: '020206' };

let t: TestServer;
let demo: string;
let demo2: string;
let clerk: string;
let screw: number;
let nut: number;
let supplierId: number;
let warehouseId: number;
const titles: Record<string, number> = {};
const orders: Array<{ id: number; docNo: string; orderDate: string }> = [];

async function po(orderDate: string, price: string, state: 'confirmed' | 'draft' | 'cancelled' = 'confirmed') {
  const saved = await ok(t.call('oms', PO.save, { supplierId, warehouseId, orderDate, lines: [{ productId: screw, qty: 100, price }, { productId: nut, qty: 5, price: '0.5' }] }, demo));
  if (state !== 'draft') {
    const c = await ok(t.call('oms', PO.confirm, { id: saved.id, version: saved.version }, demo));
    if (state === 'cancelled') await ok(t.call('oms', PO.cancel, { id: saved.id, version: c.version }, demo));
  }
  return saved;
}

beforeAll(async () => {
  t = await startTestServer();
  demo = await t.login('demo', 'admin', 'demo123');
  demo2 = await t.login('demo2', 'admin', 'demo123');
  clerk = await t.login('demo', 'clerk', 'demo123');
  screw = (await ok(t.call('cdm', '010203', { code: 'PQ01', barcode: '6901234500011', name: '查价十字螺丝', specification: 'M4×20', price: '1.50', unitSmall: '个', midQty: 1, bigQty: 1 }, demo))).id;
  nut = (await ok(t.call('cdm', '010203', { code: 'PQ02', name: '查价六角螺母', unitSmall: '个', midQty: 1, bigQty: 1 }, demo))).id;
  for (const r of (await ok(t.call('cdm', '014001', { page: 1, pageSize: 50 }, demo))).list) titles[r.code] = r.id;
  titles.SP02 = (await ok(t.call('cdm', '014003', { code: 'SP02', name: '批发价', kind: 'sale' }, demo))).id;
  await ok(t.call('cdm', '014031', { productId: screw, priceTitleId: titles.SP01, price: '12.5' }, demo));
  await ok(t.call('cdm', '014031', { productId: screw, priceTitleId: titles.PP01, price: '8.3' }, demo));

  supplierId = (await ok(t.call('cdm', '011603', { code: 'PQS', name: '查价供应商' }, demo))).id;
  warehouseId = (await ok(t.call('cdm', '011001', { page: 1, pageSize: 10 }, demo))).list[0].id;
  // Twelve confirmed orders on twelve days (prices 1.0001 … 1.0012), one draft and one cancelled order
  // later than all of them.
  for (let i = 1; i <= 12; i++) {
    const day = `2026-05-${String(i).padStart(2, '0')}`;
    const saved = await po(day, `1.${String(i).padStart(4, '0')}`);
    orders.push({ id: saved.id, docNo: saved.docNo, orderDate: day });
  }
  await po('2026-06-01', '9.9999', 'draft');
  await po('2026-06-02', '8.8888', 'cancelled');

  const acme = (await ok(t.call('cdm', '015003', { name: '永固五金' }, demo))).id;
  const other = (await ok(t.call('cdm', '015003', { name: '申工紧固件' }, demo))).id;
  const item = (await ok(t.call('cdm', '015013', { competitorId: acme, code: 'YG-01', name: '永固十字螺丝', specification: 'M4×20', productId: screw }, demo))).id;
  await ok(t.call('cdm', '015013', { competitorId: other, name: '申工螺丝（未观察）', productId: screw }, demo));
  await ok(t.call('cdm', '015023', { competitorProductId: item, observedOn: '2026-03-01', price: '1.2000', source: '展会报价' }, demo));
  await ok(t.call('cdm', '015023', { competitorProductId: item, observedOn: '2026-04-15', price: '1.2345', source: '天猫旗舰店' }, demo));
});

afterAll(async () => {
  await t?.close();
});

describe('price query', () => {
  it('answers the product, its price on every price list, the last 10 purchases and competitor prices in one call', async () => {
    const r = await ok(t.call('oms', Q.query, { id: screw }, demo));
    expect(r).toMatchObject({ id: screw, code: 'PQ01', barcode: '6901234500011', name: '查价十字螺丝', specification: 'M4×20', referencePrice: '1.50' });

    // Every list, sale lists first; a list without a price for the product says so (null).
    expect(r.priceLists.map((p: any) => [p.kindText, p.priceTitleCode, p.priceTitleName, p.price])).toEqual([
      ['销售价', 'SP01', '标准销售价', '12.50'],
      ['销售价', 'SP02', '批发价', null],
      ['采购价', 'PP01', '标准采购价', '8.30'],
    ]);
    expect(r.priceLists[0]).toMatchObject({ currencyName: '人民币', enabled: true });

    // Last 10 confirmed order lines, newest order date first; the draft and the cancelled order are not prices paid.
    expect(r.purchases).toHaveLength(10);
    expect(r.purchases.map((p: any) => [p.orderDate, p.price])).toEqual(
      Array.from({ length: 10 }, (_, i) => [`2026-05-${String(12 - i).padStart(2, '0')}`, `1.${String(12 - i).padStart(4, '0')}`]),
    );
    const newest = orders[11]!;
    expect(r.purchases[0]).toMatchObject({
      docNo: newest.docNo, orderId: newest.id, route: `/procurement/purchaseOrder/${newest.id}`, supplierCode: 'PQS', supplierName: '查价供应商',
      qty: 100, statusText: '已确认', currencyName: '人民币',
    });

    // Each competitor item with its latest observation; an item never observed comes last, without a price.
    expect(r.competitors.map((c: any) => [c.competitorName, c.name, c.price, c.observedOn, c.source])).toEqual([
      ['永固五金', '永固十字螺丝', '1.2345', '2026-04-15', '天猫旗舰店'],
      ['申工紧固件', '申工螺丝（未观察）', null, null, null],
    ]);

    // A product nobody bought or compared answers empty parts, not errors.
    const bare = await ok(t.call('oms', Q.query, { id: (await ok(t.call('cdm', '010203', { code: 'PQ03', name: '无记录商品', unitSmall: '个', midQty: 1, bigQty: 1 }, demo))).id }, demo));
    expect(bare.purchases).toEqual([]);
    expect(bare.competitors).toEqual([]);
    expect(bare.priceLists.every((p: any) => p.price === null)).toBe(true);
  });

  it('the picker finds a product by exact code or barcode first, by part of code or name, or by id', async () => {
    const byBarcode = await ok(t.call('oms', Q.search, { keyword: '6901234500011' }, demo));
    expect(byBarcode[0]).toEqual({ id: screw, code: 'PQ01', barcode: '6901234500011', label: '查价十字螺丝（M4×20）' });
    const byName = await ok(t.call('oms', Q.search, { keyword: '查价' }, demo));
    expect(byName.map((p: any) => p.code)).toEqual(['PQ01', 'PQ02']);
    const byCode = await ok(t.call('oms', Q.search, { keyword: 'PQ02' }, demo));
    expect(byCode[0].id).toBe(nut);
    expect(await ok(t.call('oms', Q.search, { id: nut }, demo))).toEqual([{ id: nut, code: 'PQ02', barcode: null, label: '查价六角螺母' }]);
    expect(await ok(t.call('oms', Q.search, { keyword: '没有这个' }, demo))).toEqual([]);
  });

  it('refuses a missing or foreign product in Chinese, needs the 价格查询 right, keeps companies apart', async () => {
    const missing = await t.call('oms', Q.query, { id: 999999 }, demo);
    expect(missing.code).toBe('PRODUCT_NOT_EXIST_4001');
    expect(missing.msg).toBe('商品不存在');
    const bad = await t.call('oms', Q.query, { id: 'abc' }, demo);
    expect(bad.code).toBe('COMMON_VALIDATION_4000');
    expect(bad.msg).toContain('商品');
    expect((await t.call('oms', Q.query, {}, demo)).code).toBe('COMMON_VALIDATION_4000');

    expect((await t.call('oms', Q.query, { id: screw }, demo2)).code).toBe('PRODUCT_NOT_EXIST_4001');
    expect(await ok(t.call('oms', Q.search, { keyword: 'PQ01' }, demo2))).toEqual([]);
    expect(await ok(t.call('oms', Q.search, { id: screw }, demo2))).toEqual([]);

    expect((await t.call('oms', Q.query, { id: screw }, clerk)).code).toBe('COMMON_NO_RIGHT_4003');
    expect((await t.call('oms', Q.search, { keyword: 'PQ' }, clerk)).code).toBe('COMMON_NO_RIGHT_4003');
  });
});
