// The daily closing (日结, oms 023105), the daily closing report (日结报表, 023103/023104), the sales
// report (销售报表, 023101/023102) and the presale report (预售报表, 023106) on a real database (SQLite, or PostgreSQL when DATABASE_URL is set), over
// three company days driven by an injected clock (2027-03-10..12, UTC+8; the 12th is "today"):
// - a closed day's snapshots equal a recomputation over the whole ledger up to the end of that day, whatever
//   order the days are closed in, and closing again gives the same rows; a day not yet over is refused;
// - the report's end-of-day stock value and receivables (snapshot + the moves since) equal the recomputation,
//   also for today, which no closing covers; a move at 23:59:59 company time is that day's;
// - the day's orders, deliveries and receipts are those made; the totals equal the sum of the rows;
//   a snapshot row changed by hand shows in the report (it reads the snapshot), closing again mends it;
// - 综合汇总报表 (023108) agrees with it by day and gives period-end balances by week and month;
// - the sales report by every grouping its schema offers, totals = the sum of the rows = the lines' sum;
// - the presale report: the lines a whitelisted client ordered against expected arrivals, by plan and more;
// - 批量导出 (023110/023111): several reports in one export-centre job, one .zip; rights checked at the start;
// - rights, Chinese messages for bad input, and companies kept apart.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import JSZip from 'jszip';
import { companyDayRange } from '../../src/core/format.ts';
import { exportJobsIdle } from '../../src/server/domain/export-jobs.ts';
import { ok, startTestServer, type TestServer } from './helpers.ts';
import { moneyText as money, SALES_CODES, tradeFlow } from './trade-flow.ts';

const R = { sale: '023101', saleExport: '023102', clapper: '023103', clapperExport: '023104', close: '023105', presale: '023106', summary: '023108', exportAll: '023110', exportAllFile: '023111' };

let t: TestServer;
let demo: string;
let demo2: string;
let clerk: string;
let companyId: number;
let w1: number;
let w2: number;
let loc1: number;
let loc2: number;
let p1: number;
let p2: number;
let cat: number;
let staff: number;
let clientA: number;
let clientB: number;

const D1 = '2027-03-10';
const D2 = '2027-03-11';
const D3 = '2027-03-12';
const { stockIn, order, ship, openingReceivable, receipt } = tradeFlow(() => t, () => demo);

/** The clock at an instant (UTC), and fresh tokens valid at it. */
async function at(iso: string) {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  vi.setSystemTime(new Date(iso));
  demo = await t.login('demo', 'admin', 'demo123');
  demo2 = await t.login('demo2', 'admin', 'demo123');
  clerk = await t.login('demo', 'clerk', 'demo123');
}

const endOf = (day: string) => companyDayRange(day, 8)[1];
const cents = (v: unknown) => BigInt(String(v));

/** On hand per "product:warehouse" at the end of a day, summed over the whole ledger in the test. */
async function ledgerStock(day: string, cid = companyId): Promise<Record<string, number>> {
  const moves = await t.database.db.selectFrom('stockMove').select(['productId', 'warehouseId', 'qty', 'createdAt']).where('companyId', '=', cid).execute();
  const out: Record<string, number> = {};
  for (const m of moves) {
    if (String(m.createdAt) > endOf(day)) continue;
    const k = `${Number(m.productId)}:${Number(m.warehouseId)}`;
    out[k] = (out[k] ?? 0) + Number(m.qty);
  }
  for (const k of Object.keys(out)) if (out[k] === 0) delete out[k];
  return out;
}

/** Each client's open receivables (cents) at the end of a day, from every item and allocation. */
async function ledgerReceivables(day: string, cid = companyId): Promise<Record<string, string>> {
  const end = endOf(day);
  const items = await t.database.db.selectFrom('openItem').select(['id', 'partyId', 'amountBase', 'status', 'createdAt', 'updatedAt'])
    .where('companyId', '=', cid).where('side', '=', 'receivable').where('partyType', '=', 'client').execute();
  const allocs = await t.database.db.selectFrom('financeAllocation').select(['itemId', 'itemBase', 'createdAt']).where('companyId', '=', cid).execute();
  const party = new Map(items.map((i) => [Number(i.id), String(Number(i.partyId))]));
  const out: Record<string, bigint> = {};
  for (const i of items) {
    if (String(i.createdAt) > end || (i.status === 'cancelled' && String(i.updatedAt) <= end)) continue;
    const k = String(Number(i.partyId));
    out[k] = (out[k] ?? 0n) + cents(i.amountBase);
  }
  for (const a of allocs) {
    const k = party.get(Number(a.itemId));
    if (!k || String(a.createdAt) > end) continue;
    out[k] = (out[k] ?? 0n) - cents(a.itemBase);
  }
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== 0n).map(([k, v]) => [k, v.toString()]));
}

async function snapshot(day: string, cid = companyId) {
  const stock = await t.database.db.selectFrom('stockSnapshot').select(['productId', 'warehouseId', 'onHand']).where('companyId', '=', cid).where('day', '=', day).execute();
  const recv = await t.database.db.selectFrom('receivableSnapshot').select(['clientId', 'balance']).where('companyId', '=', cid).where('day', '=', day).execute();
  return {
    stock: Object.fromEntries(stock.map((r) => [`${Number(r.productId)}:${Number(r.warehouseId)}`, Number(r.onHand)])),
    receivables: Object.fromEntries(recv.map((r) => [String(Number(r.clientId)), String(r.balance)])),
  };
}

/** Reference-price value (cents) of on-hand quantities, optionally of one warehouse. */
async function valueOf(stock: Record<string, number>, warehouseId?: number): Promise<string> {
  const prices = new Map((await t.database.db.selectFrom('product').select(['id', 'price']).where('companyId', '=', companyId).execute()).map((p) => [Number(p.id), cents(p.price)]));
  let v = 0n;
  for (const [k, q] of Object.entries(stock)) {
    const [p, w] = k.split(':').map(Number);
    if (warehouseId && w !== warehouseId) continue;
    v += BigInt(q) * (prices.get(p!) ?? 0n);
  }
  return money(v);
}

const sumRows = (rows: any[], f: string) => rows.reduce((s: bigint, r: any) => s + BigInt(String(r[f]).replace('.', '')), 0n);
const clapper = (body: Record<string, unknown>, token = demo) => t.call('oms', R.clapper, { page: 1, pageSize: 50, ...body }, token);
const sale = (body: Record<string, unknown>, token = demo) => t.call('oms', R.sale, { page: 1, pageSize: 50, ...body }, token);
const pick = (data: any, fields: string[]) => data.list.map((r: any) => fields.map((f) => r[f]));

beforeAll(async () => {
  t = await startTestServer({ LOGIN_MAX_FAILURES: '1000', LOGIN_MAX_FAILURES_PER_IP: '100000' });
  // day 1, 10:00 company time
  await at(`${D1}T02:00:00.000Z`);
  companyId = Number((await t.database.db.selectFrom('company').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id);
  w1 = (await ok(t.call('cdm', '011003', { code: 'DCW1', name: '日结一仓' }, demo))).id;
  w2 = (await ok(t.call('cdm', '011003', { code: 'DCW2', name: '日结二仓' }, demo))).id;
  loc1 = (await ok(t.call('cdm', '011103', { warehouseId: w1, lcCode: 'A-01-01-1', zone: 'A', row: '01', column: '01', level: '1', type: 'storage' }, demo))).id;
  loc2 = (await ok(t.call('cdm', '011103', { warehouseId: w2, lcCode: 'A-01-01-1', zone: 'A', row: '01', column: '01', level: '1', type: 'storage' }, demo))).id;
  cat = (await ok(t.call('cdm', '010403', { code: 'DCC', name: '日结类' }, demo))).id;
  p1 = (await ok(t.call('cdm', '010203', { code: 'DC1', name: '日结商品一', unitSmall: '个', price: '2.50', categoryId: cat }, demo))).id;
  p2 = (await ok(t.call('cdm', '010203', { code: 'DC2', name: '日结商品二', unitSmall: '个', price: '1.00' }, demo))).id;
  const listId = Number((await t.database.db.selectFrom('priceTitle').select('id').where('companyId', '=', companyId).where('code', '=', 'SP01').executeTakeFirstOrThrow()).id);
  for (const p of [p1, p2]) await ok(t.call('cdm', '014031', { productId: p, priceTitleId: listId, price: '2' }, demo));
  staff = (await ok(t.call('cdm', '013203', { code: 'DCS', name: '业务员老李' }, demo))).id;
  clientA = (await ok(t.call('cdm', '011703', { code: 'DCA', name: '日结客户甲', priceTitleId: listId, creditLimit: '0' }, demo))).id;
  clientB = (await ok(t.call('cdm', '011703', { code: 'DCB', name: '日结客户乙', priceTitleId: listId, creditLimit: '0' }, demo))).id;

  await stockIn(w1, loc1, p1, 100);
  await stockIn(w2, loc2, p2, 50);
  const itemA = await openingReceivable(clientA, '1000.00', D1);
  const so1 = await order(clientA, w1, D1, [{ productId: p1, qty: 10, price: '3' }], { salesmanId: staff });
  await ship(so1.id);
  // an order dated the week before, entered today (sales by order date)
  await order(clientA, w2, '2027-03-01', [{ productId: p2, qty: 1, price: '2' }]);
  // the last instant of day 1 in company time, and the first of day 2
  await at(`${D1}T15:59:59.000Z`);
  await stockIn(w1, loc1, p2, 3);
  await at(`${D1}T16:00:00.000Z`);
  await stockIn(w1, loc1, p2, 4);

  // day 2
  await at(`${D2}T03:00:00.000Z`);
  await stockIn(w2, loc2, p1, 20);
  await receipt(clientA, itemA.id, '300.00', D2);
  await order(clientB, w2, D2, [{ productId: p2, qty: 5, price: '1.5' }, { productId: p1, qty: 2, price: '3' }]);
  // a draft does not count
  await order(clientB, w2, D2, [{ productId: p1, qty: 99, price: '3' }], {}, false);
  // a purchase order: 10 × 1.5
  const supplier = (await ok(t.call('cdm', '011603', { code: 'DCSUP', name: '日结供应商' }, demo))).id;
  const po = await ok(t.call('oms', '020203', { supplierId: supplier, warehouseId: w1, orderDate: D2, lines: [{ productId: p1, qty: 10, price: '1.5' }] }, demo));
  await ok(t.call('oms', '020205', { id: po.id, version: po.version }, demo));

  // day 3: today
  await at(`${D3}T01:00:00.000Z`);
  await stockIn(w2, loc2, p2, 7);
  const itemB = await openingReceivable(clientB, '200.00', D3);
  await receipt(clientB, itemB.id, '50.00', D3);
  // a payment in advance to the supplier
  await ok(t.call('oms', SALES_CODES.pay.save, { direction: 'payment', supplierId: supplier, payDate: D3, amount: '100.00', method: 'bank', post: true }, demo));
}, 120_000);

afterAll(async () => {
  vi.useRealTimers();
  await t?.close();
});

describe('daily closing', () => {
  it('refuses a day not over yet and a bad date in Chinese, closing nothing', async () => {
    const today = await t.call('oms', R.close, { day: D3 }, demo);
    expect(today.code).toBe('COMMON_VALIDATION_4000');
    expect(today.msg).toContain(`只能日结已经结束的日期（今天是 ${D3}）`);
    const bad = await t.call('oms', R.close, { day: '2027-02-30' }, demo);
    expect(bad.msg).toContain('日结日期不是有效的日期（YYYY-MM-DD）');
    expect((await t.call('oms', R.close, {}, demo)).code).toBe('COMMON_VALIDATION_4000');
    expect(await t.database.db.selectFrom('dailyClosing').select('id').execute()).toEqual([]);
  });

  it('a closed day equals a recomputation over the whole ledger, in whatever order days are closed; closing again changes nothing', async () => {
    // day 2 first (no earlier closing: from the ledger), then day 1 (a past day), then day 2 again (from day 1)
    const c2 = await ok(t.call('oms', R.close, { day: D2 }, demo));
    expect(c2).toMatchObject({ day: D2, prevDay: null });
    const first2 = await snapshot(D2);
    const c1 = await ok(t.call('oms', R.close, { day: D1 }, demo));
    expect(c1).toMatchObject({ day: D1, prevDay: null });
    const again2 = await ok(t.call('oms', R.close, { day: D2 }, demo));
    expect(again2).toMatchObject({ id: c2.id, day: D2, prevDay: D1, stockRows: c2.stockRows, receivableRows: c2.receivableRows });
    const s1 = await snapshot(D1);
    const s2 = await snapshot(D2);
    expect(s2).toEqual(first2);
    expect(s1.stock).toEqual(await ledgerStock(D1));
    expect(s2.stock).toEqual(await ledgerStock(D2));
    expect(s1.receivables).toEqual(await ledgerReceivables(D1));
    expect(s2.receivables).toEqual(await ledgerReceivables(D2));
    // what the test made: the 23:59:59 move is day 1's, the 00:00 one day 2's
    expect(s1.stock[`${p2}:${w1}`]).toBe(3);
    expect(s2.stock[`${p2}:${w1}`]).toBe(7);
    expect(s1.stock[`${p1}:${w1}`]).toBe(90);
    expect(s1.receivables).toMatchObject({ [String(clientA)]: '100000' });
    expect(s2.receivables).toMatchObject({ [String(clientA)]: '70000' });
    expect(s2.receivables[String(clientB)]).toBeUndefined();
    const d1Again = await ok(t.call('oms', R.close, { day: D1 }, demo));
    expect(d1Again.stockRows).toBe(c1.stockRows);
    expect(await snapshot(D1)).toEqual(s1);
    // the closing is recorded in the operation log
    const audit = await t.database.db.selectFrom('auditLog').select(['action', 'recordLabel']).where('entity', '=', 'dailyClosing').execute();
    expect(audit.map((a) => a.recordLabel)).toContain(`日结 ${D1}`);
  });
});

describe('日结报表', () => {
  it('by day: the day\'s orders, deliveries and receipts; end-of-day balances = the recomputation (today too: snapshot + today\'s moves)', async () => {
    const data = await ok(clapper({ groupBy: 'day', filters: { dateRange: [D1, D3] } }));
    expect(pick(data, ['day', 'orderCount', 'salesAmount', 'deliveryCount', 'deliveredQty', 'receiptCount', 'receiptAmount'])).toEqual([
      [D1, 1, '30.00', 1, 10, 0, '0.00'],
      [D2, 1, '13.50', 0, 0, 1, '300.00'],
      [D3, 0, '0.00', 0, 0, 1, '50.00'],
    ]);
    for (const [i, d] of [D1, D2, D3].entries()) {
      expect(data.list[i].stockValue).toBe(await valueOf(await ledgerStock(d)));
      const recv = Object.values(await ledgerReceivables(d)).reduce((s, v) => s + BigInt(v), 0n);
      expect(data.list[i].receivable).toBe(money(recv));
    }
    expect(data.list.map((r: any) => r.receivable)).toEqual(['1000.00', '700.00', '850.00']);
    // the totals: flows summed over the rows, balances at the end of the range
    for (const f of ['orderCount', 'deliveryCount', 'deliveredQty', 'receiptCount']) expect(BigInt(data.totals[f])).toBe(sumRows(data.list, f));
    for (const f of ['salesAmount', 'receiptAmount']) expect(cents(String(data.totals[f]).replace('.', ''))).toBe(sumRows(data.list, f));
    expect(data.totals).toMatchObject({ orderCount: 2, salesAmount: '43.50', deliveryCount: 1, deliveredQty: 10, receiptCount: 2, receiptAmount: '350.00', stockValue: data.list[2].stockValue, receivable: '850.00' });
    expect(data).toMatchObject({ from: D1, to: D3, total: 3 });
  });

  it('one warehouse: its stock value each day (the 23:59:59 move on day 1), no receipts or receivables', async () => {
    const data = await ok(clapper({ groupBy: 'day', filters: { dateRange: [D1, D3], warehouseId: w1 } }));
    // day 1: 90 × 2.50 + 3 × 1.00; day 2: + 4 × 1.00
    expect(pick(data, ['day', 'orderCount', 'deliveredQty', 'receiptCount', 'stockValue', 'receivable'])).toEqual([
      [D1, 1, 10, 0, '228.00', null], [D2, 0, 0, 0, '232.00', null], [D3, 0, 0, 0, '232.00', null],
    ]);
    expect(data.totals).toMatchObject({ stockValue: '232.00', receivable: null });
  });

  it('by warehouse and by salesman', async () => {
    const byWh = await ok(clapper({ groupBy: 'warehouse', filters: { dateRange: [D1, D3] } }));
    const row = (code: string) => byWh.list.find((r: any) => r.warehouseCode === code);
    expect(row('DCW1')).toMatchObject({ warehouseName: '日结一仓', orderCount: 1, salesAmount: '30.00', deliveredQty: 10, stockValue: '232.00' });
    // today's +7 is in: snapshot of day 2 + today's moves
    expect(row('DCW2')).toMatchObject({ orderCount: 1, salesAmount: '13.50', stockValue: await valueOf(await ledgerStock(D3), w2) });
    expect(row('DCW2').stockValue).toBe('107.00');
    const none = byWh.list.find((r: any) => r.warehouseId === null);
    expect(none).toMatchObject({ warehouseName: '（收付款与应收，不分仓库）', receiptCount: 2, receiptAmount: '350.00', receivable: '850.00' });
    expect(cents(String(byWh.totals.stockValue).replace('.', ''))).toBe(sumRows(byWh.list, 'stockValue'));

    const byStaff = await ok(clapper({ groupBy: 'staff', filters: { dateRange: [D1, D3] }, sort: { field: 'salesAmount', order: 'descend' } }));
    expect(pick(byStaff, ['staffName', 'orderCount', 'salesAmount', 'deliveredQty', 'stockValue'])).toEqual([
      ['业务员老李', 1, '30.00', 10, null], ['（未指定业务员；收付款）', 1, '13.50', 0, null],
    ]);
    expect(byStaff.totals).toMatchObject({ orderCount: 2, salesAmount: '43.50', stockValue: null });
    const one = await ok(clapper({ groupBy: 'day', filters: { dateRange: [D1, D1], salesmanId: staff } }));
    expect(pick(one, ['day', 'orderCount', 'salesAmount', 'receiptCount', 'stockValue'])).toEqual([[D1, 1, '30.00', 0, null]]);
  });

  it('reads the balances from the latest snapshot, not the ledger: a snapshot row changed by hand shows, closing again mends it', async () => {
    const w1Today = async () => (await ok(clapper({ groupBy: 'warehouse', filters: { dateRange: [D3, D3], warehouseId: w1 } }))).list[0].stockValue;
    expect(await w1Today()).toBe('232.00');
    await t.database.db.updateTable('stockSnapshot').set({ onHand: 1090 }).where('companyId', '=', companyId).where('day', '=', D2)
      .where('productId', '=', p1).where('warehouseId', '=', w1).execute();
    expect(await w1Today()).toBe('2732.00');
    await ok(t.call('oms', R.close, { day: D2 }, demo));
    expect(await w1Today()).toBe('232.00');
  });

  it('no dates: today; bad input refused in Chinese', async () => {
    const today = await ok(clapper({ groupBy: 'day' }));
    expect(today).toMatchObject({ from: D3, to: D3, total: 1 });
    expect(today.list[0]).toMatchObject({ day: D3, receiptAmount: '50.00' });
    const long = await clapper({ groupBy: 'day', filters: { dateRange: ['2025-01-01', D3] } });
    expect(long.msg).toContain('日期范围不能超过 366 天');
    expect((await clapper({ groupBy: 'client' })).code).toBe('COMMON_VALIDATION_4000');
    expect((await clapper({ groupBy: 'day', filters: { warehouseId: 999999 } })).msg).toContain('仓库不存在');
  });

  it('exports the whole report with its 合计 line', async () => {
    const res = await t.raw('oms', R.clapperExport, { groupBy: 'day', filters: { dateRange: [D1, D3] } }, demo);
    expect(res.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    wb.worksheets[0]!.eachRow((r) => rows.push((r.values as unknown[]).slice(1).map((v: any) => (v && typeof v === 'object' && 'richText' in v ? v.richText.map((x: any) => x.text).join('') : v ?? null))));
    expect(rows[0]).toEqual(['日期', '订单数', '销售金额', '发货单数', '发货数量', '收款笔数', '收款金额', '日终库存金额', '日终应收余额']);
    expect(rows.map((r) => r[0])).toEqual(['日期', D1, D2, D3, '合计']);
    expect(rows[4]!.slice(1, 7)).toEqual([2, 43.5, 1, 10, 2, 350]);
  });
});

describe('综合汇总报表', () => {
  it('by day it agrees with 日结报表; by week and month one row with the balances at the end of the period', async () => {
    const summary = (body: Record<string, unknown>) => ok(t.call('oms', R.summary, { page: 1, pageSize: 50, ...body }, demo));
    const byDay = await summary({ groupBy: 'day', filters: { dateRange: [D1, D3] } });
    const daily = await ok(clapper({ groupBy: 'day', filters: { dateRange: [D1, D3] } }));
    expect(pick(byDay, ['day', 'purchaseAmount', 'orderCount', 'salesAmount', 'deliveredQty', 'receiptAmount', 'paymentAmount', 'stockValue', 'receivable'])).toEqual([
      [D1, '0.00', 1, '30.00', 10, '0.00', '0.00', daily.list[0].stockValue, '1000.00'],
      [D2, '15.00', 1, '13.50', 0, '300.00', '0.00', daily.list[1].stockValue, '700.00'],
      [D3, '0.00', 0, '0.00', 0, '50.00', '100.00', daily.list[2].stockValue, '850.00'],
    ]);
    const totals = { purchaseAmount: '15.00', orderCount: 2, salesAmount: '43.50', deliveredQty: 10, receiptAmount: '350.00', paymentAmount: '100.00', stockValue: daily.list[2].stockValue, receivable: '850.00' };
    expect(byDay.totals).toMatchObject(totals);
    for (const groupBy of ['week', 'month']) {
      const one = await summary({ groupBy, filters: { dateRange: [D1, D3] } });
      expect(one.list, groupBy).toHaveLength(1);
      expect(one.list[0], groupBy).toMatchObject(totals);
      expect(one.totals, groupBy).toMatchObject(totals);
    }
    // February and March: the end of February from the ledger (before any closing), March at the range's end
    const months = await summary({ groupBy: 'month', filters: { dateRange: ['2027-02-01', D3] } });
    expect(pick(months, ['month', 'stockValue', 'receivable'])).toEqual([
      ['2027-02', await valueOf(await ledgerStock('2027-02-28')), money(Object.values(await ledgerReceivables('2027-02-28')).reduce((a, v) => a + BigInt(v), 0n))],
      ['2027-03', daily.list[2].stockValue, '850.00'],
    ]);
    const byWh = await summary({ groupBy: 'warehouse', filters: { dateRange: [D1, D3] } });
    expect(byWh.list.find((r: any) => r.warehouseCode === 'DCW1')).toMatchObject({ purchaseAmount: '15.00', salesAmount: '30.00', stockValue: '232.00', receivable: '0.00' });
    expect(byWh.list.find((r: any) => r.warehouseId === null)).toMatchObject({ receiptAmount: '350.00', paymentAmount: '100.00', receivable: '850.00' });
    expect((await t.call('oms', R.summary, { groupBy: 'staff' }, demo)).code).toBe('COMMON_VALIDATION_4000');
  });

  it('with no dates, a week or month row is that period so far, not only today (the clock is on D3)', async () => {
    const summary = (body: Record<string, unknown>) => ok(t.call('oms', R.summary, { page: 1, pageSize: 50, ...body }, demo));
    for (const [groupBy, start] of [['month', '2027-03-01'], ['week', '2027-03-08']]) {
      const unset = await summary({ groupBy });
      expect(unset.list, groupBy).toEqual((await summary({ groupBy, filters: { dateRange: [start, D3] } })).list);
      // D1's order and D2's receipt are in it
      expect(Number(unset.list[0].salesAmount), groupBy).toBeGreaterThanOrEqual(43.5);
      expect(unset.list[0].receiptAmount, groupBy).toBe('350.00');
    }
    // by day it stays today
    expect((await summary({ groupBy: 'day' })).list.map((r: any) => r.day)).toEqual([D3]);
  });
});

describe('销售报表', () => {
  const MEASURES = ['qty', 'shippedQty', 'amount'];
  it('every grouping its schema offers: totals = the sum of the rows = the sum of the lines', async () => {
    const expected: Record<string, unknown[][]> = {
      day: [['2027-03-01', 1, 0, '2.00'], [D1, 10, 10, '30.00'], [D2, 7, 0, '13.50']],
      week: [['2027-03-01', 1, 0, '2.00'], ['2027-03-08', 17, 10, '43.50']],
      month: [['2027-03', 18, 10, '45.50']],
      client: [['DCA', 11, 10, '32.00'], ['DCB', 7, 0, '13.50']],
      product: [['DC1', 12, 10, '36.00'], ['DC2', 6, 0, '9.50']],
      category: [['日结类', 12, 10, '36.00'], ['（未指定）', 6, 0, '9.50']],
      staff: [['业务员老李', 10, 10, '30.00'], ['（未指定）', 8, 0, '15.50']],
      warehouse: [['DCW1', 10, 10, '30.00'], ['DCW2', 8, 0, '15.50']],
    };
    const label: Record<string, string> = { day: 'day', week: 'week', month: 'month', client: 'clientCode', product: 'productCode', category: 'categoryName', staff: 'staffName', warehouse: 'warehouseCode' };
    // the lines, summed by the test
    const lines = await t.database.db.selectFrom('salesOrderLine').innerJoin('salesOrder', 'salesOrder.id', 'salesOrderLine.orderId')
      .select(['salesOrderLine.qty', 'salesOrderLine.amount', 'salesOrder.status']).where('salesOrder.companyId', '=', companyId).execute();
    const sold = lines.filter((l) => l.status !== 'draft' && l.status !== 'cancelled');
    for (const [groupBy, rows] of Object.entries(expected)) {
      const sortField = groupBy === 'category' || groupBy === 'staff' ? label[groupBy] : undefined;
      const data = await ok(sale({ groupBy, filters: { dateRange: ['2027-03-01', D3] }, ...(sortField ? { sort: { field: sortField, order: 'ascend' } } : {}) }));
      expect(pick(data, [label[groupBy]!, ...MEASURES]), groupBy).toEqual(rows);
      expect(data.totals, groupBy).toEqual({ qty: 18, shippedQty: 10, amount: '45.50' });
      expect(BigInt(data.totals.qty)).toBe(sumRows(data.list, 'qty'));
      expect(cents(data.totals.amount.replace('.', ''))).toBe(sumRows(data.list, 'amount'));
      expect(data.totals.qty).toBe(sold.reduce((s, l) => s + Number(l.qty), 0));
      expect(cents(data.totals.amount.replace('.', ''))).toBe(sold.reduce((s, l) => s + cents(l.amount), 0n));
    }
  });

  it('filters: dates, client, salesman, warehouse, category, product; bad input in Chinese', async () => {
    const f = async (filters: Record<string, unknown>) => (await ok(sale({ groupBy: 'month', filters: { dateRange: ['2027-03-01', D3], ...filters } }))).totals;
    expect(await f({ dateRange: [D2, D2] })).toEqual({ qty: 7, shippedQty: 0, amount: '13.50' });
    expect(await f({ clientId: clientA })).toEqual({ qty: 11, shippedQty: 10, amount: '32.00' });
    expect(await f({ salesmanId: staff })).toEqual({ qty: 10, shippedQty: 10, amount: '30.00' });
    expect(await f({ warehouseId: w2 })).toEqual({ qty: 8, shippedQty: 0, amount: '15.50' });
    expect(await f({ categoryId: cat })).toEqual({ qty: 12, shippedQty: 10, amount: '36.00' });
    expect(await f({ product: 'dc2' })).toEqual({ qty: 6, shippedQty: 0, amount: '9.50' });
    expect((await sale({ groupBy: 'supplier' })).code).toBe('COMMON_VALIDATION_4000');
    expect((await sale({ groupBy: 'day', filters: { dateRange: [D3, D1] } })).msg).toContain('开始日期不能晚于结束日期');
    expect((await sale({ groupBy: 'day', filters: { clientId: 999999 } })).msg).toContain('客户不存在');
    const xlsx = await t.raw('oms', R.saleExport, { groupBy: 'client', filters: { dateRange: ['2027-03-01', D3] } }, demo);
    expect(xlsx.statusCode).toBe(200);
    expect(decodeURIComponent(String(xlsx.headers['content-disposition']))).toContain('销售报表_按客户_');
  });
});

describe('批量导出', () => {
  it('several reports in one background job: one .zip with each report\'s workbook; rights and bad input checked at the start', async () => {
    const job = await ok(t.call('oms', R.exportAll, { reports: ['sale', 'clapper', 'summaryAll'], dateRange: [D1, D3] }, demo));
    expect(job).toMatchObject({ name: '导出多个报表', status: 'queued' });
    await exportJobsIdle();
    const jobs = await ok(t.call('cdm', '019902', { page: 1, pageSize: 10 }, demo));
    expect(jobs.list.find((j: any) => j.id === job.id)).toMatchObject({ status: 'done' });
    const file = await t.raw('cdm', '019903', { id: job.id }, demo);
    expect(file.statusCode).toBe(200);
    const zip = await JSZip.loadAsync(file.rawPayload);
    const names = Object.keys(zip.files).sort();
    expect(names.map((n) => n.replace(/_\d{8}\.xlsx$/, ''))).toEqual(['日结报表_按日', '综合汇总报表_按月', '销售报表_按月']);
    // the daily report inside: the three days and the 合计 line, as the report's own export gives them
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await zip.file(names.find((n) => n.startsWith('日结报表'))!)!.async('nodebuffer')) as unknown as ArrayBuffer);
    const first: unknown[] = [];
    wb.worksheets[0]!.eachRow((r) => { const v = (r.values as any[])[1]; first.push(v && typeof v === 'object' && 'richText' in v ? v.richText.map((x: any) => x.text).join('') : v); });
    expect(first).toEqual(['日期', D1, D2, D3, '合计']);

    // refused at the start, with nothing queued: a bad date, an unknown report, a report the caller may not export
    expect((await t.call('oms', R.exportAll, { reports: ['sale'], dateRange: [D3, D1] }, demo)).msg).toContain('开始日期不能晚于结束日期');
    expect((await t.call('oms', R.exportAll, { reports: ['nope'] }, demo)).code).toBe('COMMON_VALIDATION_4000');
    expect((await t.call('oms', R.exportAll, { reports: [] }, demo)).code).toBe('COMMON_VALIDATION_4000');
    // a range one of the chosen reports does not allow (其他出入库: at most 366 days), named now, not when the job runs
    const jobsBefore = (await ok(t.call('cdm', '019902', { page: 1, pageSize: 10 }, demo))).total;
    const tooLong = await t.call('oms', R.exportAll, { reports: ['sale', 'other'], dateRange: ['2026-01-01', '2027-03-12'] }, demo);
    expect([tooLong.code, tooLong.msg]).toEqual(['COMMON_VALIDATION_4000', '报表“其他出入库报表”：日期范围不能超过 366 天']);
    expect((await ok(t.call('cdm', '019902', { page: 1, pageSize: 10 }, demo))).total).toBe(jobsBefore);
    await t.database.db.updateTable('role').set({ rights: JSON.stringify(['reportForms.exportAll', 'reportForms.clapper', 'reportForms.clapper.export']) }).where('companyId', '=', companyId).where('name', '=', '会计').execute();
    const refused = await t.call('oms', R.exportAll, { reports: ['clapper', 'sale'] }, await t.login('demo', 'finance', 'demo123'));
    expect(refused.code).toBe('COMMON_NO_RIGHT_4003');
    // the direct download of the same batch
    const direct = await t.raw('oms', R.exportAllFile, { reports: ['summaryAll'], dateRange: [D1, D3] }, demo);
    expect(Object.keys((await JSZip.loadAsync(direct.rawPayload)).files)).toHaveLength(1);
  });
});

describe('rights and companies', () => {
  it('a clerk without the report rights is refused; another company sees none of it and its closing is its own', async () => {
    for (const code of [R.sale, R.clapper, R.close]) expect((await t.call('oms', code, { groupBy: 'day', day: D1 }, clerk)).code).toBe('COMMON_NO_RIGHT_4003');
    const other = await ok(t.call('oms', R.sale, { page: 1, pageSize: 50, groupBy: 'client', filters: { dateRange: ['2027-03-01', D3] } }, demo2));
    expect(other).toMatchObject({ total: 0, totals: { qty: 0, amount: '0.00' } });
    const otherDay = await ok(clapper({ groupBy: 'day', filters: { dateRange: [D1, D3] } }, demo2));
    expect(otherDay.totals).toMatchObject({ orderCount: 0, receiptCount: 0, receivable: '0.00' });
    expect((await t.call('oms', R.sale, { groupBy: 'day', filters: { clientId: clientA } }, demo2)).msg).toContain('客户不存在');
    const before = await snapshot(D1);
    const c = await ok(t.call('oms', R.close, { day: D1 }, demo2));
    expect(c.day).toBe(D1);
    expect(await snapshot(D1)).toEqual(before);
    const company2 = Number((await t.database.db.selectFrom('company').select('id').where('code', '=', 'demo2').executeTakeFirstOrThrow()).id);
    expect((await snapshot(D1, company2)).stock).toEqual(await ledgerStock(D1, company2));
  });
});

describe('预售报表', () => {
  it('the lines ordered against expected arrivals, by plan, day, client and product; totals = the sum of the rows', async () => {
    // the presale switch on; a product with 4 in stock and 30 expected into warehouse 2; a plan listing it; a whitelisted client
    const s = await ok(t.call('cdm', '013601', {}, demo));
    await ok(t.call('cdm', '013602', { version: s.version, flags: { ...s.flags, presale: true } }, demo));
    const p3 = (await ok(t.call('cdm', '010203', { code: 'DC3', name: '日结预售品', unitSmall: '个', price: '5.00' }, demo))).id;
    const listId = Number((await t.database.db.selectFrom('priceTitle').select('id').where('companyId', '=', companyId).where('code', '=', 'SP01').executeTakeFirstOrThrow()).id);
    await ok(t.call('cdm', '014031', { productId: p3, priceTitleId: listId, price: '8' }, demo));
    await stockIn(w2, loc2, p3, 4);
    const supplierId = (await ok(t.call('cdm', '011603', { code: 'DCS1', name: '预售供应商' }, demo))).id;
    const po = await ok(t.call('oms', '020203', { supplierId, warehouseId: w2, expectedDate: '2027-04-20', lines: [{ productId: p3, qty: 30, price: 1 }] }, demo));
    await ok(t.call('oms', '020205', { id: po.id, version: po.version }, demo));
    const got = await ok(t.call('oms', '020202', { id: po.id }, demo));
    const ipl = await ok(t.call('oms', '021203', { orderId: po.id, lines: [{ orderLineId: got.lines[0].id, qty: 30 }] }, demo));
    await ok(t.call('oms', '021204', { id: ipl.id, version: ipl.version }, demo));
    const plan = (await ok(t.call('cdm', '014803', { code: 'DC-YS', name: '春季预售', status: 'active' }, demo))).id;
    const now = new Date().toISOString();
    await t.database.db.insertInto('presaleItem').values({ companyId, version: 1, createdAt: now, updatedAt: now, planId: plan, productId: p3, qty: 40, price: 800 }).execute();
    await ok(t.call('cdm', '014823', { planId: plan, clientId: clientB }, demo));
    // 4 from stock and 6 against the arrival; then 5 more, all against it (dated before the sales report's range)
    await order(clientB, w2, '2027-02-15', [{ productId: p3, qty: 10, price: '8' }]);
    await order(clientB, w2, '2027-02-16', [{ productId: p3, qty: 5, price: '8' }]);
    const lines = await t.database.db.selectFrom('salesOrderLine').select(['presaleQty', 'presalePlanId']).where('companyId', '=', companyId).where('productId', '=', p3).orderBy('id').execute();
    expect(lines.map((l) => [Number(l.presaleQty), Number(l.presalePlanId)])).toEqual([[6, plan], [5, plan]]);

    const report = (body: Record<string, unknown>) => ok(t.call('oms', R.presale, { page: 1, pageSize: 50, ...body }, demo));
    const byPlan = await report({ groupBy: 'plan' });
    expect(pick(byPlan, ['planCode', 'planName', 'presaleQty', 'qty', 'shippedQty', 'amount'])).toEqual([['DC-YS', '春季预售', 11, 15, 0, '120.00']]);
    expect(byPlan.totals).toEqual({ presaleQty: 11, qty: 15, shippedQty: 0, amount: '120.00' });
    const byDay = await report({ groupBy: 'day' });
    expect(pick(byDay, ['day', 'presaleQty', 'amount'])).toEqual([['2027-02-15', 6, '80.00'], ['2027-02-16', 5, '40.00']]);
    expect(BigInt(byDay.totals.presaleQty)).toBe(sumRows(byDay.list, 'presaleQty'));
    expect(pick(await report({ groupBy: 'client' }), ['clientCode', 'presaleQty'])).toEqual([['DCB', 11]]);
    expect((await report({ groupBy: 'product', filters: { presalePlanId: plan, dateRange: ['2027-02-16', '2027-02-16'] } })).totals).toEqual({ presaleQty: 5, qty: 5, shippedQty: 0, amount: '40.00' });
    expect((await t.call('oms', R.presale, { groupBy: 'plan', filters: { presalePlanId: 999999 } }, demo)).msg).toContain('预售计划不存在');
    // another company sees none of it
    expect((await ok(t.call('oms', R.presale, { page: 1, pageSize: 50, groupBy: 'plan' }, demo2))).total).toBe(0);
  });
});
