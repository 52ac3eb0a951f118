// 直销报表 (oms 023131/023132), 其他出入库报表 (023133/023134) and 应用使用统计 (023135/023136) on a real
// database (SQLite, or PostgreSQL when DATABASE_URL is set), over two company days driven by an injected
// clock (2027-05-10 and 11, UTC+8; the 11th is "today"):
// - 直销: sales orders of a direct client (销售渠道 直销, the default) and a dealer (经销) split by channel,
//   every grouping its schema offers against figures worked out by hand, totals = the sum of the rows = the
//   order lines summed here, drafts left out, the channel filter;
// - 其他出入库: opening stock (one cancelled: its reversal counts under 期初入库, out), adjustments in and out
//   (one at 23:59:59 company time: that day's), a sales return received, goods returned to the supplier,
//   picking's moves between locations; a purchase receipt and the delivery are left out; each grouping by hand,
//   totals against the ledger summed here by document; with no dates this month so far; more than 366 days
//   refused in Chinese; after the daily closing of day 1 the same figures, read from its per-day sums;
// - 应用使用统计: logins, devices, active users, calls and failed calls by day, user and module against the
//   sessions and the per-minute aggregate read here; distinct counts in the grand totals counted once;
// - each exports its .xlsx with a 合计 line, also through the export centre; rights; companies kept apart.
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { companyDateRange, formatDate } from '../../src/core/format.ts';
import { exportJobsIdle } from '../../src/server/domain/export-jobs.ts';
import { monitorOf } from '../../src/server/domain/system/monitor.ts';
import { ok, startTestServer, type TestServer } from './helpers.ts';
import { clockAt, moneyText as money, tradeFlow, xlsxRows } from './trade-flow.ts';

const R = { direct: '023131', directExport: '023132', other: '023133', otherExport: '023134', app: '023135', appExport: '023136' };
const SO = { save: '020903', get: '020902', confirm: '020905' };
const INIT = { save: '022603', cancel: '022605' };
const ADJUST = { save: '022703' };
const PO = { save: '020203', get: '020202', confirm: '020205' };
const RN = { save: '021403', get: '021402' };
const RP = { save: '021703', confirm: '021704', ship: '021705' };
const SR = { save: '021103', get: '021102', confirm: '021105', receivable: '021110' };
const EXPORT_JOBS = { start: '019901', list: '019902', download: '019903' };

let t: TestServer;
let demo: string;
let demo2: string;
let sales: string;
let finance: string;
let clerk: string;
let companyId: number;
let w1: number;
let w2: number;
let pA: number;
let pB: number;
let cat: number;
let staff: number;
let direct: number;
let dealer: number;

const D1 = '2027-05-10'; // a Monday
const D2 = '2027-05-11';
const RANGE = [D1, D2];

const { order, ship } = tradeFlow(() => t, () => demo);

async function at(iso: string) {
  clockAt(iso);
  demo = await t.login('demo', 'admin', 'demo123');
  demo2 = await t.login('demo2', 'admin', 'demo123');
  sales = await t.login('demo', 'sales', 'demo123');
  finance = await t.login('demo', 'finance', 'demo123');
  clerk = await t.login('demo', 'clerk', 'demo123');
  // the logins took real time (password hashing): back to the instant asked for
  vi.setSystemTime(new Date(iso));
}



const call = (code: string, groupBy: string, filters: Record<string, unknown> = {}, token = demo) =>
  t.call('oms', code, { page: 1, pageSize: 50, groupBy, filters: { dateRange: RANGE, ...filters } }, token);
const pick = (data: any, fields: string[]) => data.list.map((r: any) => fields.map((f) => r[f]));
const cents = (v: unknown) => BigInt(String(v).replace('.', ''));
/** The sum of a measure over the rows, in the answer's form (numbers, or money text). */
function sumOf(rows: any[], f: string): number | string {
  if (typeof rows[0]?.[f] === 'number') return rows.reduce((s, r) => s + r[f], 0);
  return money(rows.reduce((s: bigint, r: any) => s + cents(r[f]), 0n));
}
const totalsOfRows = (rows: any[], fields: string[]) => Object.fromEntries(fields.map((f) => [f, sumOf(rows, f)]));


beforeAll(async () => {
  t = await startTestServer({ LOGIN_MAX_FAILURES: '1000', LOGIN_MAX_FAILURES_PER_IP: '100000' });
  // day 1, 10:00 company time
  await at(`${D1}T02:00:00.000Z`);
  companyId = Number((await t.database.db.selectFrom('company').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id);
  w1 = (await ok(t.call('cdm', '011003', { code: 'ORW1', name: '其他一仓' }, demo))).id;
  w2 = (await ok(t.call('cdm', '011003', { code: 'ORW2', name: '其他二仓' }, demo))).id;
  const loc1 = (await ok(t.call('cdm', '011103', { warehouseId: w1, lcCode: 'A-01-01-1', zone: 'A', row: '01', column: '01', level: '1', type: 'storage' }, demo))).id;
  const loc2 = (await ok(t.call('cdm', '011103', { warehouseId: w2, lcCode: 'A-01-01-1', zone: 'A', row: '01', column: '01', level: '1', type: 'storage' }, demo))).id;
  cat = (await ok(t.call('cdm', '010403', { code: 'ORC', name: '其他报表类' }, demo))).id;
  pA = (await ok(t.call('cdm', '010203', { code: 'OR1', name: '报表商品甲', unitSmall: '个', price: '2.50', categoryId: cat }, demo))).id;
  pB = (await ok(t.call('cdm', '010203', { code: 'OR2', name: '报表商品乙', unitSmall: '个', price: '1.00' }, demo))).id;
  const listId = Number((await t.database.db.selectFrom('priceTitle').select('id').where('companyId', '=', companyId).where('code', '=', 'SP01').executeTakeFirstOrThrow()).id);
  for (const p of [pA, pB]) await ok(t.call('cdm', '014031', { productId: p, priceTitleId: listId, price: '2' }, demo));
  staff = (await ok(t.call('cdm', '013203', { code: 'ORS', name: '直销员小王' }, demo))).id;
  direct = (await ok(t.call('cdm', '011703', { code: 'DSA', name: '直销客户甲', priceTitleId: listId, creditLimit: '0' }, demo))).id;
  dealer = (await ok(t.call('cdm', '011703', { code: 'DSB', name: '经销客户乙', priceTitleId: listId, creditLimit: '0', channel: 'dealer' }, demo))).id;

  // stock: opening 100 A + 50 B in warehouse 1; 3 A lost; at the day's last instant 2 B found
  await ok(t.call('oms', INIT.save, { warehouseId: w1, lines: [{ productId: pA, qty: 100, locationId: loc1 }, { productId: pB, qty: 50, locationId: loc1 }], post: true }, demo));
  await ok(t.call('oms', ADJUST.save, { warehouseId: w1, reason: 'loss', lines: [{ productId: pA, qty: -3, locationId: loc1 }], post: true }, demo));
  await at(`${D1}T15:59:59.000Z`);
  await ok(t.call('oms', ADJUST.save, { warehouseId: w1, reason: 'gain', lines: [{ productId: pB, qty: 2, locationId: loc1 }], post: true }, demo));
  // day 2 from its first instant: 10 B opened in warehouse 2 and cancelled again
  await at(`${D1}T16:00:00.000Z`);
  const init2 = await ok(t.call('oms', INIT.save, { warehouseId: w2, lines: [{ productId: pB, qty: 10, locationId: loc2 }], post: true }, demo));
  await ok(t.call('oms', INIT.cancel, { id: init2.id, version: init2.version }, demo));

  // day 2, 11:00: sales — the direct client's order dated day 1 (with a salesman), shipped; the dealer's of day 2; a draft
  await at(`${D2}T03:00:00.000Z`);
  const o1 = await order(direct, w1, D1, [{ productId: pA, qty: 10, price: '3' }], { salesmanId: staff });
  await ship(o1.id);
  await order(dealer, w1, D2, [{ productId: pB, qty: 5, price: '1.5' }, { productId: pA, qty: 2, price: '3' }]);
  await order(dealer, w1, D2, [{ productId: pA, qty: 99, price: '3' }], {}, false);
  // a purchase receipt (not an "other" move)
  const supplier = (await ok(t.call('cdm', '011603', { code: 'ORSUP', name: '其他报表供应商' }, demo))).id;
  const po = await ok(t.call('oms', PO.save, { supplierId: supplier, warehouseId: w1, orderDate: D2, lines: [{ productId: pB, qty: 7, price: '0.5' }] }, demo));
  await ok(t.call('oms', PO.confirm, { id: po.id, version: po.version }, demo));
  const got = await ok(t.call('oms', PO.get, { id: po.id }, demo));
  const note = await ok(t.call('oms', RN.save, { orderId: po.id, post: true, lines: [{ orderLineId: got.lines[0].id, countedQty: 7, locationId: loc1 }] }, demo));
  // 3 of them returned to the supplier (采购退货出库)
  const received = await ok(t.call('oms', RN.get, { id: note.id }, demo));
  const plan = await ok(t.call('oms', RP.save, { receivingNoteId: note.id, reason: '质量问题', lines: [{ receivingLineId: received.lines[0].id, qty: 3, locationId: loc1 }] }, demo));
  await ok(t.call('oms', RP.confirm, { id: plan.id }, demo));
  await ok(t.call('oms', RP.ship, { id: plan.id }, demo));
  // 2 A of the direct client's order come back (销售退货入库)
  const shipped = await ok(t.call('oms', SO.get, { id: o1.id }, demo));
  const ret = await ok(t.call('oms', SR.save, { orderId: o1.id, reason: '质量问题', lines: [{ orderLineId: shipped.lines[0].id, qty: 2 }] }, demo));
  const retDoc = await ok(t.call('oms', SR.get, { id: ret.id }, demo));
  await ok(t.call('oms', SR.confirm, { id: ret.id, version: retDoc.version }, demo));
  const open = await ok(t.call('oms', SR.receivable, { returnId: ret.id }, demo));
  await ok(t.call('oms', RN.save, { returnId: ret.id, lines: [{ returnLineId: open.lines[0].returnLineId, countedQty: 2, locationId: loc1 }], post: true }, demo));
  // demo2 has data of its own that must never show
  const w9 = (await ok(t.call('cdm', '011003', { code: 'X9', name: '别家仓' }, demo2))).id;
  const p9 = (await ok(t.call('cdm', '010203', { code: 'X9', name: '别家商品', unitSmall: '个', price: '9.00' }, demo2))).id;
  await ok(t.call('oms', INIT.save, { warehouseId: w9, lines: [{ productId: p9, qty: 9 }], post: true }, demo2));
}, 180_000);

afterAll(async () => {
  vi.useRealTimers();
  await t?.close();
});

const DIRECT_MEASURES = ['directQty', 'directAmount', 'dealerQty', 'dealerAmount', 'amount'];

describe('直销报表', () => {
  it('splits sales by the client\'s channel in every grouping; totals = rows = the order lines summed here', async () => {
    const expected: Record<string, [string, unknown[][]]> = {
      day: ['day', [[D1, 10, '30.00', 0, '0.00', '30.00'], [D2, 0, '0.00', 7, '13.50', '13.50']]],
      week: ['week', [[D1, 10, '30.00', 7, '13.50', '43.50']]],
      month: ['month', [['2027-05', 10, '30.00', 7, '13.50', '43.50']]],
      client: ['clientCode', [['DSA', 10, '30.00', 0, '0.00', '30.00'], ['DSB', 0, '0.00', 7, '13.50', '13.50']]],
      product: ['productCode', [['OR1', 10, '30.00', 2, '6.00', '36.00'], ['OR2', 0, '0.00', 5, '7.50', '7.50']]],
      // by category code: the products without one first
      category: ['categoryName', [['（未指定）', 0, '0.00', 5, '7.50', '7.50'], ['其他报表类', 10, '30.00', 2, '6.00', '36.00']]],
      staff: ['staffName', [['（未指定）', 0, '0.00', 7, '13.50', '13.50'], ['直销员小王', 10, '30.00', 0, '0.00', '30.00']]],
      warehouse: ['warehouseCode', [['ORW1', 10, '30.00', 7, '13.50', '43.50']]],
    };
    // independently: the confirmed lines with their client's channel, from the tables
    const lines = await t.database.db.selectFrom('salesOrderLine').innerJoin('salesOrder', 'salesOrder.id', 'salesOrderLine.orderId').innerJoin('client', 'client.id', 'salesOrder.clientId')
      .select(['salesOrderLine.qty', 'salesOrderLine.amount', 'salesOrder.status', 'client.channel']).where('salesOrder.companyId', '=', companyId).execute();
    const sold = lines.filter((l) => l.status !== 'draft' && l.status !== 'cancelled');
    const side = (c: string) => sold.filter((l) => l.channel === c);
    const ledger = {
      directQty: side('direct').reduce((s, l) => s + Number(l.qty), 0), directAmount: money(side('direct').reduce((s, l) => s + BigInt(l.amount), 0n)),
      dealerQty: side('dealer').reduce((s, l) => s + Number(l.qty), 0), dealerAmount: money(side('dealer').reduce((s, l) => s + BigInt(l.amount), 0n)),
      amount: money(sold.reduce((s, l) => s + BigInt(l.amount), 0n)),
    };
    expect(ledger).toEqual({ directQty: 10, directAmount: '30.00', dealerQty: 7, dealerAmount: '13.50', amount: '43.50' });
    const schema = (await import('../../schemas/screens/reportForms/direct_selling.json')).default as { groupings: Array<{ value: string }> };
    expect(schema.groupings.map((g) => g.value).sort()).toEqual(Object.keys(expected).sort());
    for (const [groupBy, [label, rows]] of Object.entries(expected)) {
      const data = await ok(call(R.direct, groupBy));
      expect(pick(data, [label, ...DIRECT_MEASURES]), groupBy).toEqual(rows);
      expect(data.totals, groupBy).toEqual(totalsOfRows(data.list, DIRECT_MEASURES));
      expect(data.totals, groupBy).toEqual(ledger);
    }
  });

  it('filters by channel, salesman and category; refuses a grouping its schema does not offer', async () => {
    expect(pick(await ok(call(R.direct, 'client', { channel: 'dealer' })), ['clientCode', 'dealerQty', 'amount'])).toEqual([['DSB', 7, '13.50']]);
    expect(pick(await ok(call(R.direct, 'client', { salesmanId: staff })), ['clientCode', 'directQty'])).toEqual([['DSA', 10]]);
    expect(pick(await ok(call(R.direct, 'product', { categoryId: cat })), ['productCode', 'directQty', 'dealerQty'])).toEqual([['OR1', 10, 2]]);
    expect((await ok(call(R.direct, 'month', { dateRange: ['2027-04-01', '2027-04-30'] }))).list).toEqual([]);
    const bad = await call(R.direct, 'supplier');
    expect(bad.code).toBe('COMMON_VALIDATION_4000');
    const badChannel = await call(R.direct, 'client', { channel: 'retail' });
    expect(badChannel.code).toBe('COMMON_VALIDATION_4000');
  });

  it('a client changed to 经销 on the client form moves its sales to the dealer columns', async () => {
    const c = await ok(t.call('cdm', '011702', { id: direct }, demo));
    expect(c.channel).toBe('direct');
    await ok(t.call('cdm', '011703', { ...c, channel: 'dealer' }, demo));
    expect(pick(await ok(call(R.direct, 'month')), ['month', ...DIRECT_MEASURES])).toEqual([['2027-05', 0, '0.00', 17, '43.50', '43.50']]);
    const back = await ok(t.call('cdm', '011702', { id: direct }, demo));
    await ok(t.call('cdm', '011703', { ...back, channel: 'direct' }, demo));
    expect(pick(await ok(call(R.direct, 'month')), ['month', 'directQty'])).toEqual([['2027-05', 10]]);
  });
});

const OTHER_MEASURES = ['inQty', 'inValue', 'outQty', 'outValue', 'netQty', 'netValue'];
/** The "other" moves of the ledger, summed here by document: what the report must total. */
async function ledgerOther(filter: (m: { docType: string; returnId: unknown; warehouseId: number }) => boolean = () => true) {
  const moves = await t.database.db.selectFrom('stockMove').leftJoin('receivingNote', 'receivingNote.id', 'stockMove.docId').innerJoin('product', 'product.id', 'stockMove.productId')
    .select(['stockMove.docType', 'stockMove.qty', 'stockMove.warehouseId', 'receivingNote.returnId', 'product.price']).where('stockMove.companyId', '=', companyId).execute();
  const other = new Set(['stockInit', 'stockAdjust', 'stockTake', 'returnPlan', 'putaway', 'pickingOrder']);
  const out = { inQty: 0, inValue: 0n, outQty: 0, outValue: 0n };
  for (const m of moves) {
    const isOther = other.has(m.docType) || (m.docType === 'receivingNote' && m.returnId != null);
    if (!isOther || !filter({ docType: m.docType, returnId: m.returnId, warehouseId: Number(m.warehouseId) })) continue;
    const q = Number(m.qty);
    if (q > 0) { out.inQty += q; out.inValue += BigInt(q) * BigInt(m.price); } else { out.outQty -= q; out.outValue -= BigInt(q) * BigInt(m.price); }
  }
  return { inQty: out.inQty, inValue: money(out.inValue), outQty: out.outQty, outValue: money(out.outValue), netQty: out.inQty - out.outQty, netValue: money(out.inValue - out.outValue) };
}

describe('其他出入库报表', () => {
  it('by type: opening stock (its cancellation out), adjustments, returns in and out, picking between locations; purchase receipts and deliveries left out', async () => {
    const data = await ok(call(R.other, 'type'));
    const rows = Object.fromEntries(data.list.map((r: any) => [r.moveType, OTHER_MEASURES.map((f) => r[f])]));
    expect(rows).toEqual({
      init: [160, '310.00', 10, '10.00', 150, '300.00'],
      adjust: [2, '2.00', 3, '7.50', -1, '-5.50'],
      salesReturn: [2, '5.00', 0, '0.00', 2, '5.00'],
      purchaseReturn: [0, '0.00', 3, '3.00', -3, '-3.00'],
      // picking took the 10 A of the delivery from their location to the staging area: the same in and out
      transfer: [10, '25.00', 10, '25.00', 0, '0.00'],
    });
    expect(data.list.find((r: any) => r.moveType === 'init')).toMatchObject({ moveTypeName: '期初入库', label: '期初入库' });
    expect(data.totals).toEqual(totalsOfRows(data.list, OTHER_MEASURES));
    expect(data.totals).toEqual(await ledgerOther());
    expect(data).toMatchObject({ from: D1, to: D2 });
  });

  it('by day (23:59:59 company time is that day\'s), week, month, warehouse, product and category', async () => {
    const expected: Record<string, [string, unknown[][]]> = {
      day: ['day', [[D1, 152, '302.00', 3, '7.50', 149, '294.50'], [D2, 22, '40.00', 23, '38.00', -1, '2.00']]],
      week: ['week', [[D1, 174, '342.00', 26, '45.50', 148, '296.50']]],
      month: ['month', [['2027-05', 174, '342.00', 26, '45.50', 148, '296.50']]],
      warehouse: ['warehouseCode', [['ORW1', 164, '332.00', 16, '35.50', 148, '296.50'], ['ORW2', 10, '10.00', 10, '10.00', 0, '0.00']]],
      product: ['productCode', [['OR1', 112, '280.00', 13, '32.50', 99, '247.50'], ['OR2', 62, '62.00', 13, '13.00', 49, '49.00']]],
      category: ['categoryName', [['（未指定）', 62, '62.00', 13, '13.00', 49, '49.00'], ['其他报表类', 112, '280.00', 13, '32.50', 99, '247.50']]],
    };
    const all = await ledgerOther();
    for (const [groupBy, [label, rows]] of Object.entries(expected)) {
      const data = await ok(call(R.other, groupBy));
      expect(pick(data, [label, ...OTHER_MEASURES]), groupBy).toEqual(rows);
      expect(data.totals, groupBy).toEqual(all);
    }
  });

  it('filters by type, warehouse and day; with no dates this month so far; a range too long or a bad date refused in Chinese', async () => {
    const adjust = await ok(call(R.other, 'product', { moveType: 'adjust' }));
    expect(pick(adjust, ['productCode', 'inQty', 'outQty'])).toEqual([['OR1', 0, 3], ['OR2', 2, 0]]);
    const w2only = await ok(call(R.other, 'type', { warehouseId: w2 }));
    expect(w2only.totals).toEqual(await ledgerOther((m) => m.warehouseId === w2));
    const day1 = await ok(call(R.other, 'type', { dateRange: [D1, D1] }));
    expect(pick(day1, ['moveType', 'inQty', 'outQty']).sort()).toEqual([['adjust', 2, 3], ['init', 150, 0]]);
    const noDates = await ok(t.call('oms', R.other, { page: 1, pageSize: 50, groupBy: 'month' }, demo));
    expect(noDates).toMatchObject({ from: '2027-05-01', to: D2 });
    expect(pick(noDates, ['month', 'inQty'])).toEqual([['2027-05', 174]]);
    const long = await call(R.other, 'type', { dateRange: ['2026-01-01', D2] });
    expect(long.code).toBe('COMMON_VALIDATION_4000');
    expect(long.msg).toContain('日期范围不能超过 366 天');
    const bad = await call(R.other, 'type', { dateRange: ['2027-02-30', D2] });
    expect(bad.msg).toContain('开始日期不是有效的日期（YYYY-MM-DD）');
    expect((await call(R.other, 'type', { warehouseId: 999999 })).msg).toContain('仓库不存在');
  });
});

describe('其他出入库报表 after the daily closing', () => {
  it('a closed day is read from the closing\'s per-day sums: every grouping the same; a sum changed by hand shows; closing again mends it', async () => {
    const groupings = ['type', 'day', 'week', 'month', 'warehouse', 'product', 'category'];
    const before = await Promise.all(groupings.map(async (g) => (await ok(call(R.other, g))).list));
    const filteredBefore = (await ok(call(R.other, 'product', { moveType: 'adjust', warehouseId: w1, categoryId: cat, product: 'OR1' }))).list;
    await ok(t.call('oms', '023105', { day: D1 }, demo));
    const sums = await t.database.db.selectFrom('stockMoveDay').select(['day', 'productId', 'moveType', 'inQty', 'outQty']).where('companyId', '=', companyId).execute();
    // day 1: opening stock of A and B, A's loss and B's find (the purchase receipt and delivery are day 2's)
    expect(sums.map((r) => [r.day, Number(r.productId), r.moveType, Number(r.inQty), Number(r.outQty)]).sort()).toEqual([
      [D1, pA, 'adjust', 0, 3], [D1, pA, 'init', 100, 0], [D1, pB, 'adjust', 2, 0], [D1, pB, 'init', 50, 0],
    ].sort());
    for (const [i, g] of groupings.entries()) expect((await ok(call(R.other, g))).list, g).toEqual(before[i]);
    expect((await ok(call(R.other, 'product', { moveType: 'adjust', warehouseId: w1, categoryId: cat, product: 'OR1' }))).list).toEqual(filteredBefore);
    // the report reads the sums, not the moves, for day 1
    await t.database.db.updateTable('stockMoveDay').set({ outQty: 30 }).where('companyId', '=', companyId).where('day', '=', D1).where('productId', '=', pA).where('moveType', '=', 'adjust').execute();
    expect(pick(await ok(call(R.other, 'type', { moveType: 'adjust' })), ['moveType', 'outQty', 'outValue'])).toEqual([['adjust', 30, '75.00']]);
    await ok(t.call('oms', '023105', { day: D1 }, demo));
    expect(pick(await ok(call(R.other, 'type', { moveType: 'adjust' })), ['moveType', 'outQty', 'outValue'])).toEqual([['adjust', 3, '7.50']]);
  });
});

const APP_MEASURES = ['logins', 'devices', 'activeUsers', 'calls', 'failed'];

/** Sessions and the per-minute aggregate of the demo company in the range, read here. */
async function usageRead() {
  await monitorOf(t.database)?.flushUsage();
  const [fromAt, toAt] = companyDateRange(D1, D2, 8);
  const sessions = (await t.database.db.selectFrom('authSession').select(['accountId', 'createdAt', 'userAgent']).where('companyId', '=', companyId).execute())
    .filter((s) => s.createdAt >= fromAt && s.createdAt <= toAt);
  const minutes = (await t.database.db.selectFrom('apiUsageMinute').select(['minute', 'accountId', 'endpoint', 'code', 'calls']).where('companyId', '=', companyId).execute())
    .filter((m) => m.minute >= D1 && m.minute < `${D2} 99`);
  return { sessions, minutes };
}

describe('应用使用统计', () => {
  it('by day: logins, devices and active users from the sessions; calls and failures from the aggregate; distinct totals counted once', async () => {
    // a refused call counts as not successful
    expect((await call(R.other, 'nothing')).code).toBe('COMMON_VALIDATION_4000');
    const { sessions, minutes } = await usageRead();
    const data = await ok(call(R.app, 'day'));
    const byDay = (day: string) => {
      const s = sessions.filter((x) => formatDate(x.createdAt, 8) === day);
      const m = minutes.filter((x) => x.minute.startsWith(day));
      const users = new Set([...s.map((x) => Number(x.accountId)), ...m.map((x) => Number(x.accountId))].filter((a) => a > 0));
      return [day, s.length, new Set(s.map((x) => `${x.accountId}|${x.userAgent}`)).size, users.size,
        m.reduce((n, x) => n + Number(x.calls), 0), m.filter((x) => x.code !== '200').reduce((n, x) => n + Number(x.calls), 0)];
    };
    expect(pick(data, ['day', ...APP_MEASURES])).toEqual([byDay(D1), byDay(D2)]);
    expect(data.list[0].logins).toBeGreaterThan(0);
    expect(data.list[1].failed).toBeGreaterThan(0);
    const allUsers = new Set([...sessions.map((x) => Number(x.accountId)), ...minutes.map((x) => Number(x.accountId))].filter((a) => a > 0));
    expect(data.totals).toEqual({
      logins: sessions.length, calls: sumOf(data.list, 'calls'), failed: sumOf(data.list, 'failed'),
      devices: new Set(sessions.map((x) => `${x.accountId}|${x.userAgent}`)).size, activeUsers: allUsers.size,
    });
    // the four users of demo logged in on both days: a sum over the days would count them twice
    expect(data.totals.activeUsers).toBe(4);
    expect(sumOf(data.list, 'activeUsers')).toBe(8);
  });

  it('by user and by module; a user filter', async () => {
    let { sessions, minutes } = await usageRead();
    const byUser = await ok(call(R.app, 'account'));
    const accounts = await t.database.db.selectFrom('account').select(['id', 'userName']).where('companyId', '=', companyId).execute();
    const nameOf = new Map(accounts.map((a) => [Number(a.id), a.userName]));
    const expected = [...new Set([...sessions.map((s) => Number(s.accountId)), ...minutes.map((m) => Number(m.accountId))])].map((id) => [
      nameOf.get(id), sessions.filter((s) => Number(s.accountId) === id).length, minutes.filter((m) => Number(m.accountId) === id).reduce((n, m) => n + Number(m.calls), 0),
    ]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(pick(byUser, ['userName', 'logins', 'calls'])).toEqual(expected);
    expect(byUser.list.find((r: any) => r.userName === 'sales')).toMatchObject({ devices: 1, activeUsers: 1 });

    // the export centre's list (a call any user may make) is the 报表 module's: the screens calling it are
    await ok(t.call('cdm', EXPORT_JOBS.list, { page: 1, pageSize: 5 }, demo));
    // read again: the calls just made are in the aggregate now
    ({ sessions, minutes } = await usageRead());
    const byModule = await ok(call(R.app, 'module'));
    const names = byModule.list.map((r: any) => r.moduleName);
    expect(names).toEqual(expect.arrayContaining(['报表', '仓库', '销售', '基础设置', '（登录，不分模块）']));
    const login = byModule.list.find((r: any) => r.module === 'login');
    expect([login.logins, login.calls]).toEqual([sessions.length, 0]);
    // the report calls made above are the 报表 module's; every call is in some module
    const reports = minutes.filter((m) => m.endpoint.startsWith('oms:0231') || m.endpoint === `cdm:${EXPORT_JOBS.list}`).reduce((n, m) => n + Number(m.calls), 0);
    expect(minutes.some((m) => m.endpoint === `cdm:${EXPORT_JOBS.list}`)).toBe(true);
    expect(byModule.list.find((r: any) => r.module === 'reportForms').calls).toBe(reports);
    expect(sumOf(byModule.list, 'calls')).toBe(minutes.reduce((n, m) => n + Number(m.calls), 0));

    const onlySales = await ok(call(R.app, 'account', { user: 'SALE' }));
    expect(pick(onlySales, ['userName'])).toEqual([['sales']]);
    expect((await ok(call(R.app, 'day', { user: 'nobody' }))).totals).toMatchObject({ logins: 0, calls: 0, activeUsers: 0 });
  });
});

describe('exports, rights and companies', () => {
  it('each report exports its groups and a 合计 line', async () => {
    const direct = await t.raw('oms', R.directExport, { groupBy: 'client', filters: { dateRange: RANGE } }, demo);
    expect(decodeURIComponent(String(direct.headers['content-disposition']))).toContain('直销报表_按客户_');
    expect(await xlsxRows(direct.rawPayload)).toEqual([
      ['客户编码', '客户', '直销数量', '直销金额', '经销数量', '经销金额', '销售金额合计'],
      ['DSA', '直销客户甲', 10, 30, 0, 0, 30], ['DSB', '经销客户乙', 0, 0, 7, 13.5, 13.5], ['合计', null, 10, 30, 7, 13.5, 43.5],
    ]);
    const other = await t.raw('oms', R.otherExport, { groupBy: 'warehouse', filters: { dateRange: RANGE } }, demo);
    expect(await xlsxRows(other.rawPayload)).toEqual([
      ['仓库编码', '仓库', '入库数量', '入库金额（参考价）', '出库数量', '出库金额（参考价）', '净入库数量', '净入库金额'],
      ['ORW1', '其他一仓', 164, 332, 16, 35.5, 148, 296.5], ['ORW2', '其他二仓', 10, 10, 10, 10, 0, 0], ['合计', null, 174, 342, 26, 45.5, 148, 296.5],
    ]);
    const app = await t.raw('oms', R.appExport, { groupBy: 'month', filters: { dateRange: RANGE } }, demo);
    const appRows = await xlsxRows(app.rawPayload);
    expect(appRows[0]).toEqual(['月份', '登录次数', '登录设备数', '活跃用户数', '调用次数', '未成功次数']);
    expect(appRows.at(-1)![0]).toBe('合计');
  });

  it('the export centre runs each in the background; the file lands there for the account that started it', async () => {
    const ids: number[] = [];
    for (const code of [R.directExport, R.otherExport, R.appExport]) {
      const job = await ok(t.call('cdm', EXPORT_JOBS.start, { api: `oms:${code}`, body: { groupBy: 'month', filters: { dateRange: RANGE } } }, demo));
      ids.push(job.id);
    }
    await exportJobsIdle();
    const jobs = await ok(t.call('cdm', EXPORT_JOBS.list, { page: 1, pageSize: 50 }, demo));
    const mine = jobs.list.filter((j: any) => ids.includes(j.id));
    expect(mine.map((j: any) => j.status)).toEqual(['done', 'done', 'done']);
    const file = await t.raw('cdm', EXPORT_JOBS.download, { id: ids[1] }, demo);
    expect(file.statusCode).toBe(200);
    expect((await xlsxRows(file.rawPayload)).at(-1)).toEqual(['合计', 174, 342, 26, 45.5, 148, 296.5]);
    // the sales role may start 直销's export, not 其他's
    expect((await t.call('cdm', EXPORT_JOBS.start, { api: `oms:${R.otherExport}`, body: { groupBy: 'month' } }, sales)).code).toBe('COMMON_NO_RIGHT_4003');
  });

  it('批量导出 takes the three in one job, one .zip', async () => {
    const job = await ok(t.call('oms', '023110', { reports: ['direct_selling', 'other', 'app'], dateRange: RANGE }, demo));
    await exportJobsIdle();
    const file = await t.raw('cdm', EXPORT_JOBS.download, { id: job.id }, demo);
    expect(file.statusCode).toBe(200);
    const zip = await JSZip.loadAsync(file.rawPayload);
    expect(Object.keys(zip.files).map((n) => n.replace(/_\d{8}\.xlsx$/, '')).sort()).toEqual(['其他出入库报表_按类型', '应用使用统计_按日', '直销报表_按月'].sort());
    // the sales role holds 直销's export, not 其他's
    expect((await t.call('oms', '023110', { reports: ['direct_selling', 'other'] }, sales)).code).toBe('COMMON_NO_RIGHT_4003');
  });

  it('rights: sales holds 直销 but not 其他 or 应用使用; finance holds 其他; the clerk none', async () => {
    expect((await call(R.direct, 'month', {}, sales)).code).toBe('200');
    expect((await call(R.other, 'type', {}, sales)).code).toBe('COMMON_NO_RIGHT_4003');
    expect((await call(R.other, 'type', {}, finance)).code).toBe('200');
    expect((await call(R.app, 'day', {}, finance)).code).toBe('COMMON_NO_RIGHT_4003');
    for (const code of [R.direct, R.other, R.app]) expect((await call(code, 'month', {}, clerk)).code).toBe('COMMON_NO_RIGHT_4003');
  });

  it('another company sees only its own', async () => {
    const other = await ok(call(R.other, 'warehouse', {}, demo2));
    expect(pick(other, ['warehouseCode', 'inQty'])).toEqual([['X9', 9]]);
    expect((await ok(call(R.direct, 'client', {}, demo2))).list).toEqual([]);
    const app = await ok(call(R.app, 'account', {}, demo2));
    expect(app.list.map((r: any) => r.userName)).toEqual(['admin']);
  });
});
