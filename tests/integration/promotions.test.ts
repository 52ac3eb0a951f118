// Promotions (促销活动, issue 16) over HTTP, on SQLite and PostgreSQL: a sales order line picks up the
// promotion that applies (price off, percentage, buy N get M; per product or category with its
// sub-categories; every client or one client group = the clients of a sale price list; valid dates) and
// shows it; overlapping promotions — the lowest price per unit for the client wins; the floor (list ×
// limitMultiple) caps a price cut and keeps a too generous gift off; the free units are a line at price 0
// reserved at confirmation like every line; a typed price takes no promotion; refusals in Chinese
// changing nothing; rights and companies apart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyStock } from '../../src/server/domain/stock/verify.ts';
import { ok, startTestServer, type TestServer } from './helpers.ts';

const PROMO = { list: '014601', get: '014602', save: '014603', remove: '014604', products: '014606', addProduct: '014608', detail: '014611' };
const SO = { get: '020902', save: '020903', confirm: '020905', pick: '020911', copy: '020912', change: '020913' };

let t: TestServer;
let admin: string;
let demo2: string;
let sales: string;
let wh: number;
let listId: number;
let vipListId: number;
let client: number;
let vipClient: number;
let seq = 0;

async function product(extra: Record<string, unknown> = {}) {
  const code = `CX${String(++seq).padStart(4, '0')}`;
  const id = (await ok(t.call('cdm', '010203', { code, name: `促销商品${code}`, unitSmall: '个', ...extra }, admin))).id as number;
  return { id, code };
}

async function priced(price: string, extra: Record<string, unknown> = {}) {
  const p = await product(extra);
  await ok(t.call('cdm', '014031', { productId: p.id, priceTitleId: listId, price }, admin));
  await ok(t.call('cdm', '014031', { productId: p.id, priceTitleId: vipListId, price }, admin));
  return p;
}

let promoSeq = 0;
async function promotion(values: Record<string, unknown>, products: number[] = []) {
  const saved = await ok(t.call('cdm', PROMO.save, { code: `P${String(++promoSeq).padStart(3, '0')}`, name: `促销${promoSeq}`, scope: 'product', startDate: '2026-11-01', endDate: '2026-11-30', ...values }, admin));
  for (const productId of products) await ok(t.call('cdm', PROMO.addProduct, { promotionId: saved.id, productId }, admin));
  return saved.id as number;
}

const order = (lines: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}, token = admin) =>
  t.call('oms', SO.save, { clientId: client, warehouseId: wh, orderDate: '2026-11-26', lines, ...extra }, token);

async function saved(lines: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}) {
  const s = await ok(order(lines, extra));
  return ok(t.call('oms', SO.get, { id: s.id }, admin));
}

async function settings(values: Record<string, unknown>) {
  const s = await ok(t.call('cdm', '013601', {}, admin));
  await ok(t.call('cdm', '013602', { version: s.version, ...values }, admin));
}

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login();
  demo2 = await t.login('demo2', 'admin', 'demo123');
  sales = await t.login('demo', 'sales', 'demo123');
  wh = (await ok(t.call('cdm', '011003', { code: 'CXW', name: '促销仓' }, admin))).id;
  listId = Number((await t.database.db.selectFrom('priceTitle').select('id').where('code', '=', 'SP01').executeTakeFirstOrThrow()).id);
  vipListId = (await ok(t.call('cdm', '014003', { code: 'SPVIP', name: '大客户价', kind: 'sale', enabled: true }, admin))).id;
  client = (await ok(t.call('cdm', '011703', { code: 'CX01', name: '普通客户', priceTitleId: listId, creditLimit: '0' }, admin))).id;
  vipClient = (await ok(t.call('cdm', '011703', { code: 'CX02', name: '大客户', priceTitleId: vipListId, creditLimit: '0' }, admin))).id;
  // the demo company's floor is list × 0.8: off here, on in the test of the floor
  await settings({ limitMultiple: '0', ceilingMultiple: '0' });
});
afterAll(async () => t?.close());

describe('promotions picked up by sales order lines', () => {
  it('a percentage on chosen products: the line gets the cut price, shows the promotion, and the lookup offers it', async () => {
    const p = await priced('20.00');
    const other = await priced('20.00');
    await promotion({ name: '双十一九折', kind: 'percentOff', percent: '10' }, [p.id]);
    const picked = await ok(t.call('oms', SO.pick, { keyword: p.code, clientId: client, warehouseId: wh, orderDate: '2026-11-26' }, admin));
    expect(picked.list[0]).toMatchObject({ price: '18.00', listPrice: '20.00' });
    expect(picked.list[0].promotionText).toContain('双十一九折');
    // 5 × 18.00 = 90.00; the other product no promotion: 3 × 20.00
    const doc = await saved([{ productId: p.id, qty: 5 }, { productId: other.id, qty: 3 }]);
    expect(doc.lines.map((l: any) => [l.price, l.listPrice, l.amount])).toEqual([['18.0000', '20.0000', '90.00'], ['20.0000', '20.0000', '60.00']]);
    expect(doc.lines[0].promotionText).toBe('双十一九折（P001，打折：减 10%）');
    expect(doc.lines[1].promotionText).toBeNull();
    expect(doc.totalAmount).toBe('150.00');
    // saved again as the screen sends it (the promoted price): still the promotion; a price the clerk typed: none
    const again = await ok(t.call('oms', SO.save, { id: doc.id, version: doc.version, clientId: client, warehouseId: wh, orderDate: '2026-11-26', lines: doc.lines }, admin));
    const reread = await ok(t.call('oms', SO.get, { id: again.id }, admin));
    expect(reread.lines[0]).toMatchObject({ price: '18.0000', promotionText: '双十一九折（P001，打折：减 10%）' });
    const typed = await saved([{ productId: p.id, qty: 5, price: '19.5' }]);
    expect(typed.lines[0]).toMatchObject({ price: '19.5000', promotionText: null, amount: '97.50' });
    // outside its days: none
    const december = await saved([{ productId: p.id, qty: 1 }], { orderDate: '2026-12-01' });
    expect(december.lines[0]).toMatchObject({ price: '20.0000', promotionText: null });
  });

  it('a price off for a category and its sub-categories, only for one client group (a sale price list)', async () => {
    const parent = (await ok(t.call('cdm', '010403', { code: 'CXC', name: '促销类' }, admin))).id;
    const child = (await ok(t.call('cdm', '010403', { code: 'CXC1', name: '促销子类', parentId: parent }, admin))).id;
    const p = await priced('10.00', { categoryId: child });
    await promotion({ name: '大客户减价', kind: 'amountOff', offAmount: '1.5', scope: 'category', categoryId: parent, priceTitleId: vipListId });
    const vip = await saved([{ productId: p.id, qty: 4 }], { clientId: vipClient });
    expect(vip.lines[0]).toMatchObject({ price: '8.5000', amount: '34.00' });
    expect(vip.lines[0].promotionText).toContain('大客户减价');
    const plain = await saved([{ productId: p.id, qty: 4 }]);
    expect(plain.lines[0]).toMatchObject({ price: '10.0000', promotionText: null });
  });

  it('overlapping promotions: the lowest price per unit for the client wins, ties by the lower code', async () => {
    const p = await priced('10.00');
    await promotion({ name: '减一元', kind: 'amountOff', offAmount: '1' }, [p.id]); // 9.00
    await promotion({ name: '八五折', kind: 'percentOff', percent: '15' }, [p.id]); // 8.50
    await promotion({ name: '买四送一', kind: 'buyGet', buyQty: 4, getQty: 1 }, [p.id]); // 4 units: 10 × 4/5 = 8.00; 2 units: not earned
    const four = await saved([{ productId: p.id, qty: 4 }]);
    expect(four.lines.map((l: any) => [l.qty, l.price, l.amount, l.giftOf])).toEqual([[4, '10.0000', '40.00', null], [1, '0.0000', '0.00', 1]]);
    expect(four.lines[0].promotionText).toContain('买四送一');
    expect(four.lines[1].promotionText).toContain('赠品');
    const two = await saved([{ productId: p.id, qty: 2 }]);
    expect(two.lines).toHaveLength(1);
    expect(two.lines[0]).toMatchObject({ price: '8.5000', amount: '17.00' });
    expect(two.lines[0].promotionText).toContain('八五折');
    // a tie (another 15 %, later code) changes nothing
    await promotion({ name: '也是八五折', kind: 'percentOff', percent: '15' }, [p.id]);
    expect((await saved([{ productId: p.id, qty: 2 }])).lines[0].promotionText).toContain('八五折（P');
    expect((await saved([{ productId: p.id, qty: 2 }])).lines[0].promotionText).not.toContain('也是八五折');
  });

  it('buy N get M: the gift line at price 0 is reserved with the rest on confirmation; saved again it is made again, not doubled', async () => {
    const p = await priced('6.00');
    await ok(t.call('oms', '022603', { warehouseId: wh, lines: [{ productId: p.id, qty: 100 }], post: true }, admin));
    await promotion({ name: '买十送二', kind: 'buyGet', buyQty: 10, getQty: 2 }, [p.id]);
    // 25 units: 2 × 2 = 4 free
    const doc = await saved([{ productId: p.id, qty: 25 }]);
    expect(doc.lines.map((l: any) => [l.lineNo, l.qty, l.price, l.amount, l.giftOf])).toEqual([[1, 25, '6.0000', '150.00', null], [2, 4, '0.0000', '0.00', 1]]);
    expect(doc).toMatchObject({ totalQty: 29, totalAmount: '150.00' });
    // the screen sends both lines back, with the quantity changed to 30: 6 free, one gift line
    const lines = doc.lines.map((l: any) => (l.giftOf == null ? { ...l, qty: 30 } : l));
    const again = await ok(t.call('oms', SO.save, { id: doc.id, version: doc.version, clientId: client, warehouseId: wh, orderDate: '2026-11-26', lines }, admin));
    const reread = await ok(t.call('oms', SO.get, { id: again.id }, admin));
    expect(reread.lines.map((l: any) => [l.qty, l.amount, l.giftOf])).toEqual([[30, '180.00', null], [6, '0.00', 1]]);
    await ok(t.call('oms', SO.confirm, { id: reread.id, version: reread.version }, admin));
    const confirmed = await ok(t.call('oms', SO.get, { id: reread.id }, admin));
    expect(confirmed.lines.map((l: any) => l.reservedQty)).toEqual([30, 6]);
    const s = await t.database.db.selectFrom('stockSummary').select(['committed']).where('productId', '=', p.id).where('warehouseId', '=', wh).executeTakeFirstOrThrow();
    expect(Number(s.committed)).toBe(36);
    expect((await verifyStock(t.database.db)).differences).toEqual([]);
    // the gift line is not changed on its own
    const change = await t.call('oms', SO.change, { id: confirmed.id, version: confirmed.version, lineNo: 2, qty: 20, reason: '多送' }, admin);
    expect(change.code).toBe('COMMON_VALIDATION_4000');
    expect(change.msg).toContain('促销赠品');
    // a copy gets its gift from the promotions again, not from the old gift line
    const copy = await ok(t.call('oms', SO.copy, { id: confirmed.id }, admin));
    const copied = await ok(t.call('oms', SO.get, { id: copy.id }, admin));
    expect(copied.lines.map((l: any) => [l.qty, l.price, l.giftOf])).toEqual([[30, '6.0000', null], [6, '0.0000', 1]]);
  });

  it('the floor (list × limitMultiple): a price cut is capped there, a gift below it is not given, a promotion below it is refused', async () => {
    const p = await priced('10.00');
    const q = await priced('10.00');
    await promotion({ name: '减三元', kind: 'amountOff', offAmount: '3' }, [p.id]);
    await promotion({ name: '买一送一', kind: 'buyGet', buyQty: 1, getQty: 1 }, [q.id]);
    await settings({ limitMultiple: '0.8', ceilingMultiple: '0' });
    try {
      const doc = await saved([{ productId: p.id, qty: 2 }, { productId: q.id, qty: 2 }]);
      // 10 − 3 = 7 < 8: capped at 8.00; buy 1 get 1 = 5.00 per unit < 8: not given
      expect(doc.lines.map((l: any) => [l.qty, l.price])).toEqual([[2, '8.0000'], [2, '10.0000']]);
      expect(doc.lines[0].promotionText).toContain('已按最低售价 8.00 封顶');
      // the clerk's own discount on top of the capped price is a price below the floor: refused for a clerk without the override
      const below = await t.call('oms', SO.save, { clientId: client, warehouseId: wh, orderDate: '2026-11-26', lines: [{ productId: p.id, qty: 1, discount: '5' }] }, sales);
      expect(below.code).toBe('SALES_PRICE_LOW_4143');
      const tooMuch = await t.call('cdm', PROMO.save, { code: 'PBAD', name: '七折', kind: 'percentOff', percent: '30', scope: 'product', startDate: '2026-11-01', endDate: '2026-11-30' }, admin);
      expect(tooMuch.code).toBe('COMMON_VALIDATION_4000');
      expect(tooMuch.msg).toContain('最多减 20%');
      const gift = await t.call('cdm', PROMO.save, { code: 'PBAD', name: '买二送一', kind: 'buyGet', buyQty: 2, getQty: 1, scope: 'product', startDate: '2026-11-01', endDate: '2026-11-30' }, admin);
      expect(gift.msg).toContain('低于最低售价');
      expect((await ok(t.call('cdm', PROMO.list, { page: 1, pageSize: 50, keyword: 'PBAD' }, admin))).total).toBe(0);
    } finally {
      await settings({ limitMultiple: '0', ceilingMultiple: '0' });
    }
  });
});

describe('promotions as master data', () => {
  it('refuses what makes no sense in Chinese and changes nothing', async () => {
    const base = { code: 'PX1', name: '无效', scope: 'product', startDate: '2026-11-01', endDate: '2026-11-30' };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ kind: 'amountOff' }, '每单位减价必须大于 0'],
      [{ kind: 'percentOff', percent: '100' }, '折扣必须大于 0 且小于 100'],
      [{ kind: 'buyGet', buyQty: 3 }, '“送”数量必须大于 0'],
      [{ kind: 'percentOff', percent: '5', scope: 'category' }, '必须选择分类'],
      [{ kind: 'percentOff', percent: '5', endDate: '2026-10-01' }, '结束日期不能早于开始日期'],
      [{ kind: 'percentOff', percent: '5', priceTitleId: Number((await t.database.db.selectFrom('priceTitle').select('id').where('code', '=', 'PP01').executeTakeFirstOrThrow()).id) }, '客户组必须是销售价格表'],
      [{ kind: 'discount' }, '促销方式'],
    ];
    for (const [values, message] of cases) {
      const r = await t.call('cdm', PROMO.save, { ...base, ...values }, admin);
      expect(r.code, message).toBe('COMMON_VALIDATION_4000');
      expect(r.msg).toContain(message);
    }
    expect((await ok(t.call('cdm', PROMO.list, { page: 1, pageSize: 50, keyword: 'PX1' }, admin))).total).toBe(0);
  });

  it('the detail page reads one promotion with its labels; its products list; a promotion used by orders is not deleted', async () => {
    const p = await priced('4.00');
    const id = await promotion({ name: '详情页促销', kind: 'percentOff', percent: '12.5', priceTitleId: vipListId }, [p.id]);
    const detail = await ok(t.call('cdm', PROMO.detail, { id }, admin));
    expect(detail).toMatchObject({ name: '详情页促销', kind: 'percentOff', percent: '12.50', priceTitleName: '大客户价', enabled: true });
    const products = await ok(t.call('cdm', PROMO.products, { page: 1, pageSize: 20, filters: { promotionId: id } }, admin));
    expect(products.list.map((r: any) => r.productName)).toEqual([`促销商品${p.code}`]);
    const dup = await t.call('cdm', PROMO.addProduct, { promotionId: id, productId: p.id }, admin);
    expect(dup.code).not.toBe('200');
    await saved([{ productId: p.id, qty: 1 }], { clientId: vipClient });
    const removed = await t.call('cdm', PROMO.remove, { id }, admin);
    expect(removed.code).not.toBe('200');
    expect((await ok(t.call('cdm', PROMO.detail, { id }, admin))).name).toBe('详情页促销');
  });

  it('rights and companies: the sales role reads promotions but does not write them; another company neither sees nor uses them', async () => {
    const p = await priced('8.00');
    const id = await promotion({ name: '本公司促销', kind: 'percentOff', percent: '50' }, [p.id]);
    expect((await ok(t.call('cdm', PROMO.list, { page: 1, pageSize: 50 }, sales))).list.some((r: any) => r.id === id)).toBe(true);
    const write = await t.call('cdm', PROMO.save, { code: 'PS1', name: '销售员促销', kind: 'percentOff', percent: '5', scope: 'product', startDate: '2026-11-01', endDate: '2026-11-30' }, sales);
    expect(write.code).not.toBe('200');
    expect((await ok(t.call('cdm', PROMO.list, { page: 1, pageSize: 50 }, demo2))).list.some((r: any) => r.id === id)).toBe(false);
    const other = await t.call('cdm', PROMO.detail, { id }, demo2);
    expect(other.code).not.toBe('200');
    const cross = await t.call('cdm', PROMO.addProduct, { promotionId: id, productId: p.id }, demo2);
    expect(cross.code).not.toBe('200');
  });
});
