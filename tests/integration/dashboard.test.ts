// 数据大屏 (oms 023201 sales wall, 023202 whole company) on a real database (SQLite, or PostgreSQL when
// DATABASE_URL is set), over a month boundary driven by an injected clock (UTC+8): last month 2027-03,
// yesterday 2027-04-01, today 2027-04-02. The figures are held to sums the test makes itself over what it
// seeded: today against yesterday, this month against last month to the same day, the month's trend, the
// top-N order, sales by province, stock value (against the ledger), receivables and overdue receivables,
// open warehouse work; another company's documents are never counted; without the right the call is refused.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { companyDayRange } from '../../src/core/format.ts';
import { ok, startTestServer, type TestServer } from './helpers.ts';
import { clockAt, moneyText as money, tradeFlow } from './trade-flow.ts';

const DASH = { sales: '023201', all: '023202' };

let t: TestServer;
let demo: string;
let demo2: string;
let clerk: string;
let companyId: number;
let w1: number;
let loc1: number;
let p1: number;
let p2: number;
let p3: number;
let clientA: number;
let clientB: number;
let clientC: number;

const LAST_1 = '2027-03-01';
const LAST_2 = '2027-03-02';
const LAST_20 = '2027-03-20';
const YESTERDAY = '2027-04-01';
const TODAY = '2027-04-02';

const flow = tradeFlow(() => t, () => demo);
const flow2 = tradeFlow(() => t, () => demo2);

async function at(iso: string) {
  clockAt(iso);
  demo = await t.login('demo', 'admin', 'demo123');
  demo2 = await t.login('demo2', 'admin', 'demo123');
  clerk = await t.login('demo', 'clerk', 'demo123');
}
/** 10:00 company time (UTC+8) of a day. */
const morning = (day: string) => `${day}T02:00:00.000Z`;






/** Cents of decimal text, and back: the test's own exact arithmetic. */
const c = (v: string) => BigInt(v.replace('.', ''));
const sum = (...v: string[]) => money(v.reduce((a, b) => a + c(b), 0n));

/** Reference-price value of the company's on-hand stock at an instant, summed over every stock move. */
async function ledgerStockValue(upTo: string): Promise<string> {
  const moves = await t.database.db.selectFrom('stockMove').innerJoin('product', 'product.id', 'stockMove.productId')
    .select(['stockMove.qty', 'stockMove.createdAt', 'product.price']).where('stockMove.companyId', '=', companyId).execute();
  let v = 0n;
  for (const m of moves) if (String(m.createdAt) <= upTo) v += BigInt(Number(m.qty)) * BigInt(String(m.price));
  return money(v);
}

const wall = async (code: string, token = demo) => ok(t.call('oms', code, {}, token));

// What the test seeds (amounts are order currency = company currency CNY):
//   last month: 03-01 A 10×3 = 30.00 (广东); 03-02 B 2×5 = 10.00 (浙江, by delivery address); 03-20 C 1×7 = 7.00 (in the trend only)
//   yesterday:  A 5×3 = 15.00; B 1×4 = 4.00 — A's order shipped (one delivery note, 5 pieces); receipt 300.00
//   today:      A 4×3 = 12.00 + 1×2 = 2.00 → 14.00; C 3×2 = 6.00 (address unknown → 未识别); a draft (not counted);
//               receipt 50.00; B's order left as an open outbound task
//   demo2:      an order of 999.00 today (never counted)
const SALES = {
  lastMonthToDate: sum('30.00', '10.00'),
  yesterday: sum('15.00', '4.00'),
  today: sum('14.00', '6.00'),
};

beforeAll(async () => {
  t = await startTestServer({ LOGIN_MAX_FAILURES: '1000', LOGIN_MAX_FAILURES_PER_IP: '100000' });
  await at(morning(LAST_1));
  companyId = Number((await t.database.db.selectFrom('company').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id);
  w1 = (await ok(t.call('cdm', '011003', { code: 'DBW1', name: '大屏一仓' }, demo))).id;
  loc1 = (await ok(t.call('cdm', '011103', { warehouseId: w1, lcCode: 'A-01-01-1', zone: 'A', row: '01', column: '01', level: '1', type: 'storage' }, demo))).id;
  p1 = (await ok(t.call('cdm', '010203', { code: 'DB1', name: '大屏商品一', unitSmall: '个', price: '2.50' }, demo))).id;
  p2 = (await ok(t.call('cdm', '010203', { code: 'DB2', name: '大屏商品二', unitSmall: '个', price: '1.00' }, demo))).id;
  p3 = (await ok(t.call('cdm', '010203', { code: 'DB3', name: '大屏商品三', unitSmall: '个', price: '4.00' }, demo))).id;
  const listId = Number((await t.database.db.selectFrom('priceTitle').select('id').where('companyId', '=', companyId).where('code', '=', 'SP01').executeTakeFirstOrThrow()).id);
  for (const p of [p1, p2, p3]) await ok(t.call('cdm', '014031', { productId: p, priceTitleId: listId, price: '2' }, demo));
  clientA = (await ok(t.call('cdm', '011703', { code: 'DBA', name: '大屏客户甲', address: '广东省广州市天河区体育西路 1 号', priceTitleId: listId, creditLimit: '0' }, demo))).id;
  clientB = (await ok(t.call('cdm', '011703', { code: 'DBB', name: '大屏客户乙', address: '上海市浦东新区', priceTitleId: listId, creditLimit: '0' }, demo))).id;
  clientC = (await ok(t.call('cdm', '011703', { code: 'DBC', name: '大屏客户丙', priceTitleId: listId, creditLimit: '0' }, demo))).id;
  await flow.stockIn(w1, loc1, p1, 100);
  await flow.stockIn(w1, loc1, p2, 50);
  await flow.stockIn(w1, loc1, p3, 20);
  await flow.order(clientA, w1, LAST_1, [{ productId: p1, qty: 10, price: '3' }]);
  const itemA = await flow.openingReceivable(clientA, '1000.00', LAST_1, LAST_20);
  await flow.openingReceivable(clientB, '80.00', LAST_1, '2027-05-01');

  await at(morning(LAST_2));
  await flow.order(clientB, w1, LAST_2, [{ productId: p2, qty: 2, price: '5' }], { deliveryAddress: '浙江省杭州市西湖区' });
  await at(morning(LAST_20));
  await flow.order(clientC, w1, LAST_20, [{ productId: p3, qty: 1, price: '7' }]);
  // the last day of March is closed (the balances then read its snapshot plus the moves since)
  await at(morning(YESTERDAY));
  await ok(t.call('oms', '023105', { day: '2027-03-31' }, demo));
  const soA = await flow.order(clientA, w1, YESTERDAY, [{ productId: p1, qty: 5, price: '3' }]);
  await flow.order(clientB, w1, YESTERDAY, [{ productId: p2, qty: 1, price: '4' }]);
  await flow.ship(soA.id);
  await flow.receipt(clientA, itemA.id, '300.00', YESTERDAY);

  await at(morning(TODAY));
  await flow.order(clientA, w1, TODAY, [{ productId: p1, qty: 4, price: '3' }, { productId: p2, qty: 1, price: '2' }]);
  const soC = await flow.order(clientC, w1, TODAY, [{ productId: p3, qty: 3, price: '2' }]);
  await flow.order(clientA, w1, TODAY, [{ productId: p1, qty: 50, price: '3' }], {}, false);
  await flow.receipt(clientA, itemA.id, '50.00', TODAY);
  await flow.plan(soC.id);
  // another company's order today
  const w2 = (await ok(t.call('cdm', '011003', { code: 'DBX', name: '他司仓' }, demo2))).id;
  const l2 = (await ok(t.call('cdm', '011103', { warehouseId: w2, lcCode: 'A-01-01-1', zone: 'A', row: '01', column: '01', level: '1', type: 'storage' }, demo2))).id;
  const px = (await ok(t.call('cdm', '010203', { code: 'DBX1', name: '他司商品', unitSmall: '个', price: '9.00' }, demo2))).id;
  const cx = (await ok(t.call('cdm', '011703', { code: 'DBX', name: '他司客户', address: '广东省深圳市', creditLimit: '0' }, demo2))).id;
  await flow2.stockIn(w2, l2, px, 1000);
  await flow2.order(cx, w2, TODAY, [{ productId: px, qty: 111, price: '9' }]);
}, 180_000);

afterAll(async () => {
  vi.useRealTimers();
  await t?.close();
});

describe('数据大屏 figures', () => {
  it('sales wall: today against yesterday, this month against last month to the same day, in exact company-currency text', async () => {
    const d = await wall(DASH.sales);
    expect(d).toMatchObject({ companyName: '演示贸易有限公司', currencyCode: 'CNY', today: TODAY, wall: 'sales' });
    expect(d.salesToday).toBe(SALES.today);
    expect(d.salesYesterday).toBe(SALES.yesterday);
    expect(d.ordersToday).toBe(2);
    expect(d.ordersYesterday).toBe(2);
    expect(d.salesMonth).toBe(sum(SALES.yesterday, SALES.today));
    expect(d.ordersMonth).toBe(4);
    // 03-01 and 03-02 only: the 20th lies past today's day of the month
    expect(d.salesLastMonth).toBe(SALES.lastMonthToDate);
    expect(d.ordersLastMonth).toBe(2);
    expect([d.receiptsToday, d.receiptsYesterday, d.receiptsMonth, d.receiptsLastMonth]).toEqual(['50.00', '300.00', '350.00', '0.00']);
    // 350 received of 39 sold: the gauge stops at 100
    expect(d.collectionRate).toEqual({ value: 100, max: 100, name: '本月回款率' });
    // the whole-company fields are not on the sales wall
    expect(d.stockValue).toBeUndefined();
  });

  it('the month trend: this month day by day so far, last month by the same days of the month', async () => {
    const { salesTrend } = await wall(DASH.sales);
    // April's days; March's 31st has no place on April's axis
    expect(salesTrend.labels).toHaveLength(30);
    expect(salesTrend.labels[0]).toBe('1日');
    expect(salesTrend.series[0]).toEqual({ name: '本月', values: [19, 20] });
    const last = salesTrend.series[1];
    expect(last.name).toBe('上月');
    expect(last.values).toHaveLength(30);
    expect([last.values[0], last.values[1], last.values[19]]).toEqual([30, 10, 7]);
    expect(last.values.reduce((a: number, b: number) => a + b, 0)).toBe(47);
  });

  it('top products and clients of this month, best first (amounts exact), and sales by province', async () => {
    const d = await wall(DASH.sales);
    // p1: 15 + 12 = 27.00 (9 pieces); p3: 6.00; p2: 4 + 2 = 6.00 → tie at 6.00 ordered by code (DB2 before DB3)
    expect(d.topProducts.map((r: any) => [r.rank, r.code, r.amount, r.qty])).toEqual([[1, 'DB1', '27.00', 9], [2, 'DB2', '6.00', 2], [3, 'DB3', '6.00', 3]]);
    expect(d.topClients.map((r: any) => [r.rank, r.code, r.name, r.amount, r.orders])).toEqual([[1, 'DBA', '大屏客户甲', '29.00', 2], [2, 'DBC', '大屏客户丙', '6.00', 1], [3, 'DBB', '大屏客户乙', '4.00', 1]]);
    // B's order of this month has no delivery address: its client's (上海); C has no address at all
    expect(d.salesByRegion.items).toEqual([{ name: '广东省', value: 29 }, { name: '未识别', value: 6 }, { name: '上海市', value: 4 }]);
  });

  it('whole company: shipments, stock value (against the ledger), receivables, overdue receivables, open warehouse work', async () => {
    const d = await wall(DASH.all);
    expect(d.wall).toBe('all');
    expect(d.salesToday).toBe(SALES.today);
    expect([d.shipmentsToday, d.shipmentsYesterday, d.shipmentsMonth, d.shipmentsLastMonth, d.shippedQtyMonth]).toEqual([0, 1, 1, 0, 5]);
    expect(d.stockValue).toBe(await ledgerStockValue(new Date().toISOString()));
    expect(d.stockValueYesterday).toBe(await ledgerStockValue(companyDayRange(YESTERDAY, 8)[1]));
    // 100×2.50 + 50×1.00 + 20×4.00 = 380.00 in, 5 × 2.50 shipped yesterday
    expect(d.stockValueYesterday).toBe('367.50');
    // A: 1000 − 300 − 50 = 650 (due 03-20: overdue); B: 80 (due in May)
    expect(d.receivable).toBe('730.00');
    expect([d.overdueReceivable, d.overdueItems, d.overdueClients]).toEqual(['650.00', 1, 1]);
    expect(d.overdueTop).toEqual([{ rank: 1, id: clientA, code: 'DBA', name: '大屏客户甲', amount: '650.00', oldestDue: LAST_20 }]);
    // C's order planned today: one open outbound task in 大屏一仓 (and the seeded demo warehouse has none)
    const i = d.workload.labels.indexOf('大屏一仓');
    expect(i).toBeGreaterThanOrEqual(0);
    expect(d.workload.series.map((s: any) => [s.name, s.values[i]])).toEqual([['待拣货出库任务', 1], ['拣货中出库任务', 0], ['未过账拣货单', 0], ['待收货入库任务', 0]]);
    expect(d.outboundOpen).toBe(1);
  });

  it('a change shows on the next refresh', async () => {
    await flow.order(clientB, w1, TODAY, [{ productId: p2, qty: 3, price: '1.10' }]);
    const d = await wall(DASH.sales);
    expect(d.salesToday).toBe(sum(SALES.today, '3.30'));
    expect(d.ordersToday).toBe(3);
  });

  it('another company sees only its own; without the right the call is refused', async () => {
    const other = await wall(DASH.all, demo2);
    expect(other.companyName).toBe('第二演示公司');
    expect([other.salesToday, other.ordersToday, other.salesYesterday]).toEqual(['999.00', 1, '0.00']);
    expect(other.topClients.map((r: any) => r.code)).toEqual(['DBX']);
    expect(other.overdueReceivable).toBe('0.00');
    for (const code of [DASH.sales, DASH.all]) {
      const r = await t.call('oms', code, {}, clerk);
      expect(r.code).toBe('COMMON_NO_RIGHT_4003');
      expect(r.data ?? null).toBeNull();
    }
  });
});
