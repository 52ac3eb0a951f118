// What the product page and the order line picker ask the server, on a real database (SQLite, or
// PostgreSQL when DATABASE_URL is set): the documents a product appears in (newest first, its quantity,
// the screen route, paged), its prices on each price list, and the purchase line picker (orderable
// products only, the supplier's last price first).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let demo: string;
let demo2: string;
let clerk: string;
let wh1: number;
let supplierId: number;


let seq = 0;
async function product(extra: Record<string, unknown> = {}, token = demo): Promise<{ id: number; code: string }> {
  const code = `PGP${String(++seq).padStart(4, '0')}`;
  const p = await ok(t.call('cdm', '010203', { code, name: `商品页测试${seq}`, unitBig: '箱', unitSmall: '个', bigQty: 12, price: '2.50', ...extra }, token));
  return { id: p.id, code };
}

async function confirmedPo(lines: Array<Record<string, unknown>>) {
  const po = await ok(t.call('oms', '020203', { supplierId, warehouseId: wh1, lines }, demo));
  await ok(t.call('oms', '020205', { id: po.id, version: po.version }, demo));
  return ok(t.call('oms', '020202', { id: po.id }, demo));
}

beforeAll(async () => {
  t = await startTestServer({ LOGIN_MAX_FAILURES: '1000', LOGIN_MAX_FAILURES_PER_IP: '100000' });
  demo = await t.login('demo', 'admin', 'demo123');
  demo2 = await t.login('demo2', 'admin', 'demo123');
  clerk = await t.login('demo', 'clerk', 'demo123');
  wh1 = (await ok(t.call('cdm', '011001', { page: 1, pageSize: 10 }, demo))).list[0].id;
  supplierId = (await ok(t.call('cdm', '011601', { page: 1, pageSize: 10 }, demo))).list[0].id;
});

afterAll(async () => {
  await t?.close();
});

describe('product page', () => {
  it('lists the documents holding the product, newest first, with its quantity and route, paged', async () => {
    const a = await product();
    const other = await product();
    const po1 = await confirmedPo([{ productId: a.id, qty: 30, price: '1' }, { productId: a.id, qty: 6, price: '1' }, { productId: other.id, qty: 5, price: '1' }]);
    const rn = await ok(t.call('oms', '021403', { orderId: po1.id, post: true, lines: [{ orderLineId: po1.lines[0].id, countedQty: 10 }] }, demo));
    const po2 = await ok(t.call('oms', '020203', { supplierId, warehouseId: wh1, lines: [{ productId: a.id, qty: 1, price: '1' }] }, demo));
    const docs = await ok(t.call('cdm', '010228', { productId: a.id, page: 1, pageSize: 20 }, demo));
    expect(docs.total).toBe(3);
    expect(docs.list.map((d: any) => [d.docTypeText, d.docNo, d.statusText, d.qty])).toEqual([
      ['采购订单', po2.docNo, '草稿', 1],
      ['收货单', rn.docNo, '已过账', 10],
      ['采购订单', po1.docNo, '部分收货', 36],
    ]);
    expect(docs.list[1].route).toBe(`/entrepot/receivingNoteDetail/${rn.id}`);
    // the same through `filters`, as the product page's related list sends it; page 2 of size 2
    const page2 = await ok(t.call('cdm', '010228', { page: 2, pageSize: 2, filters: { productId: a.id } }, demo));
    expect(page2.list.map((d: any) => d.docNo)).toEqual([po1.docNo]);
    expect((await ok(t.call('cdm', '010228', { productId: other.id }, demo))).list.map((d: any) => d.docNo)).toEqual([po1.docNo]);
    // another company sees nothing of it
    expect((await ok(t.call('cdm', '010228', { productId: a.id }, demo2))).total).toBe(0);
    expect((await t.call('cdm', '010228', { productId: a.id }, clerk)).code).toBe('COMMON_NO_RIGHT_4003');
    expect((await t.call('cdm', '010228', { productId: 'x' }, demo)).msg).toContain('商品');
  });

  it('shows the prices of every price list holding the product', async () => {
    const a = await product();
    const empty = await ok(t.call('cdm', '010227', { productId: a.id }, demo));
    expect(empty.list).toEqual([]);
    const titles = (await ok(t.call('cdm', '014001', { page: 1, pageSize: 50 }, demo))).list;
    const title = titles[0];
    const db = t.database.db;
    const company = await db.selectFrom('product').select('companyId').where('id', '=', a.id).executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    await db.insertInto('productPrice').values({ companyId: company.companyId, priceTitleId: title.id, productId: a.id, price: 1999, version: 1, createdAt: now, updatedAt: now } as never).execute();
    const prices = await ok(t.call('cdm', '010227', { productId: a.id }, demo));
    expect(prices.list).toHaveLength(1);
    expect(prices.list[0]).toMatchObject({ priceTitleId: title.id, priceTitleName: title.name, price: '19.99' });
  });
});

describe('purchase line picker', () => {
  it('offers orderable products only, exact code first, with units and the supplier\'s last price', async () => {
    const a = await product({ name: '蓝色螺丝' });
    await product({ name: '蓝色螺丝（停售）', status: 'stopped' });
    const pick = async (keyword: string) => (await ok(t.call('oms', '020210', { keyword, supplierId }, demo))).list;
    const first = await pick('蓝色螺丝');
    expect(first.map((p: any) => p.code)).toEqual([a.code]);
    expect(first[0]).toMatchObject({ unitBig: '箱', unitSmall: '个', bigQty: 12, price: '2.50', priceSource: '参考价' });
    await confirmedPo([{ productId: a.id, qty: 1, price: '1.2345' }]);
    const again = await pick(a.code);
    expect(again[0]).toMatchObject({ id: a.id, price: '1.2345' });
    expect(again[0].priceSource).toContain('最近采购');
    expect(await ok(t.call('oms', '020210', { keyword: a.code }, demo2)).then((d: any) => d.list)).toEqual([]);
  });
});
