// Money to the cent, one rounding rule (issue 33 §5), on SQLite and PostgreSQL. After a mixed run — orders
// with awkward prices and discounts in CNY and USD, shipped, invoiced in full and in part, a partial
// receipt, an advance paid ahead, part of it refunded — every total the API shows is recomputed from the
// rows it shows beside it, and every pair of screens that mean the same thing agrees: 0 cents apart.
// The rule (docs/money.md): a line's amount is rounded to the cent once and carried, never recomputed from a
// rounded unit price; a document's total is the sum of its rounded lines; in company currency the header
// is the total converted once (half up) and the lines share it, the remainder on the largest line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyFinance } from '../../src/server/domain/finance/verify.ts';
import { ok, startTestServer, type TestServer } from './helpers.ts';
import { tradeFlow } from './trade-flow.ts';

const SO = { get: '020902' };
const SI = { get: '022402', save: '022403', post: '022404', lines: '022406' };
const PAY = { save: '026003', list: '026001', advances: '026012', openItems: '026010' };
const REFUND = { save: '026403' };
const AR = { aging: '026201', items: '026202', statement: '026203' };

let t: TestServer;
let admin: string;
let wh: number;
let loc: number;
let listId: number;
let usd: number;
let seq = 0;
const flow = tradeFlow(() => t, () => admin);
const call = (code: string, body: Record<string, unknown>, family: 'oms' | 'cdm' = 'oms') => ok(t.call(family, code, body, admin));
const cents = (m: unknown) => Math.round(Number(m) * 100);
const sum = (rows: any[], f: string) => rows.reduce((s, r) => s + cents(r[f]), 0);

async function product(price: string) {
  const code = `MR${String(++seq).padStart(4, '0')}`;
  const id = (await call('010203', { code, name: `对账商品${code}`, unitSmall: '个' }, 'cdm')).id as number;
  await call('014031', { productId: id, priceTitleId: listId, price }, 'cdm');
  await flow.stockIn(wh, loc, id, 5000);
  return id;
}

async function client(name: string) {
  return (await call('011703', { code: `MK${String(++seq).padStart(4, '0')}`, name, priceTitleId: listId, creditLimit: '0', backOrderPolicy: 'keep', paymentDays: 30 }, 'cdm')).id as number;
}

/** An order of awkward lines shipped in full; then one invoice of part of it (posted) and one of the rest. */
async function soldAndInvoiced(clientId: number, currencyId?: number) {
  const lines = [{ qty: 333, price: '0.9877', discount: '16.67' }, { qty: 7, price: '3.3333', discount: '3.33' }, { qty: 11, price: '12.3457', discount: '0' }, { qty: 29, price: '0.3333', discount: '7.5' }];
  const withProducts = [];
  for (const l of lines) withProducts.push({ productId: await product(String(Math.max(1, Math.round(Number(l.price))))), ...l });
  const so = await flow.order(clientId, wh, undefined, withProducts, currencyId ? { currencyId } : {});
  await flow.ship(so.id);
  const order = await call(SO.get, { id: so.id });
  const open = (await call(SI.lines, { clientId, page: 1, pageSize: 100 })).list as any[];
  // first invoice: part of the first two lines; second: the rest of everything
  const first = await call(SI.save, { clientId, taxRate: '13', lines: [{ deliveryLineId: open[0].deliveryLineId, qty: 100 }, { deliveryLineId: open[1].deliveryLineId, qty: 3 }], post: true });
  const rest = (await call(SI.lines, { clientId, page: 1, pageSize: 100 })).list as any[];
  const second = await call(SI.save, { clientId, taxRate: '13', lines: rest.map((l) => ({ deliveryLineId: l.deliveryLineId, qty: l.openQty })), post: true });
  return { order, invoices: [await call(SI.get, { id: first.id }), await call(SI.get, { id: second.id })] };
}

let run: { today: string; clients: number[]; sold: Array<Awaited<ReturnType<typeof soldAndInvoiced>>> };

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login();
  ({ wh, loc } = await flow.warehouse('MRW', '对账仓'));
  listId = await flow.saleList();
  usd = (await call('012101', { page: 1, pageSize: 10 }, 'cdm')).list.find((c: any) => c.code === 'USD').id;
  const today = (await call(AR.aging, { partyType: 'client', page: 1, pageSize: 1 })).today as string;
  const cny = await client('对账客户甲（人民币）');
  const dollar = await client('对账客户乙（美元）');
  const sold = [await soldAndInvoiced(cny), await soldAndInvoiced(dollar, usd)];
  // yesterday is closed (日结) halfway through today — late, as an office does after a holiday: today's
  // money so far and what follows must each count once on today's figures
  const yesterday = new Date(Date.parse(`${today}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  await call('023105', { day: yesterday });
  // a partial receipt against each client's second invoice, in its currency
  for (const [i, c] of [cny, dollar].entries()) {
    const items = (await call(PAY.openItems, { partyType: 'client', partyId: c })).list as any[];
    const item = items.find((x) => x.docNo === sold[i]!.invoices[1].docNo) ?? items[0];
    await call(PAY.save, { direction: 'receipt', clientId: c, payDate: today, amount: '100.01', method: 'bank', post: true, lines: [{ openItemId: item.id, amount: '100.01' }], ...(i === 1 ? { currencyId: usd } : {}) });
  }
  // an advance paid ahead by each, a third of the CNY one refunded today
  const adv = await call(PAY.save, { direction: 'receipt', clientId: cny, payDate: today, amount: '276.55', method: 'bank', post: true, lines: [] });
  await call(PAY.save, { direction: 'receipt', clientId: dollar, payDate: today, amount: '33.33', method: 'bank', post: true, lines: [], currencyId: usd });
  await call(REFUND.save, { partyType: 'client', clientId: cny, refundDate: today, method: 'bank', post: true, lines: [{ payDocumentId: adv.id, amount: '92.18' }] });
  run = { today, clients: [cny, dollar], sold };
});
afterAll(async () => t?.close());

describe('every total the API shows is the sum of the rows it shows', () => {
  it('orders and invoices: totals are the sums of their rounded lines, in their currency and in company currency', async () => {
    for (const { order, invoices } of run.sold) {
      expect(sum(order.lines, 'amount'), order.docNo).toBe(cents(order.totalAmount));
      for (const inv of invoices) {
        expect(sum(inv.lines, 'amount'), inv.docNo).toBe(cents(inv.totalAmount));
        expect(sum(inv.lines, 'amountBase'), `${inv.docNo} base`).toBe(cents(inv.totalAmountBase));
        expect(sum(inv.lines, 'taxAmount'), `${inv.docNo} tax`).toBe(cents(inv.taxAmount));
      }
      // invoiced in two parts, the order's lines in full: the invoices carry the order's amounts
      const invoiced = invoices.flatMap((i: any) => i.lines);
      expect(invoiced.reduce((s: number, l: any) => s + cents(l.amount), 0), order.docNo).toBe(cents(order.totalAmount));
    }
  });

  it('the aging, each client\'s open items and statement agree to the cent, advances netted where the column says so', async () => {
    const aging = await call(AR.aging, { partyType: 'client', today: run.today, page: 1, pageSize: 500 });
    for (const f of ['total', 'advance', 'balance', 'notDue']) expect(sum(aging.list, f), f).toBe(cents(aging.totals[f]));
    for (const r of aging.list) expect(cents(r.total) - cents(r.advance), r.name).toBe(cents(r.balance));
    for (const id of run.clients) {
      const row = aging.list.find((r: any) => r.id === id);
      const items = await call(AR.items, { partyType: 'client', id, today: run.today });
      const open = (items.list as any[]).reduce((s, i) => s + cents(i.openBase), 0);
      expect(open, `open items of ${row.name}`).toBe(cents(row.total));
      // the year of the run's clock, so the period holds whatever day the suite runs on
      const st = await call(AR.statement, { id, dateFrom: `${run.today.slice(0, 4)}-01-01`, dateTo: run.today });
      expect(cents(st.closingBalance), `statement of ${row.name}`).toBe(cents(row.total));
      expect(cents(st.advanceBalance), `advance of ${row.name}`).toBe(cents(row.advance));
      expect(cents(st.netBalance), `net of ${row.name}`).toBe(cents(row.balance));
    }
    // 预收预付款 lists the same advances
    const adv = await call(PAY.advances, { direction: 'receipt', page: 1, pageSize: 500 });
    expect(adv.list.length).toBeGreaterThan(0);
    expect(cents(aging.totals.advance)).toBeGreaterThan(0);
  });

  it('the wall\'s 应收余额 is the aging\'s 未结合计 (023202 = 026201 total)', async () => {
    const aging = await call(AR.aging, { partyType: 'client', today: run.today, page: 1, pageSize: 1 });
    const wall = await call('023202', {});
    expect(cents(wall.receivable)).toBe(cents(aging.totals.total));
  });

  it('财务报表 of today: 收款 is the sum of today\'s posted receipts in 收付款单 (026001), 付款 of its payments, the refund apart', async () => {
    const cash = await call('023127', { page: 1, pageSize: 50, groupBy: 'day', filters: { dateRange: [run.today, run.today] } });
    const posted = (direction: string) => call(PAY.list, { page: 1, pageSize: 500, direction, status: 'posted', dateFrom: run.today, dateTo: run.today });
    const receipts = (await posted('receipt')).list as any[];
    const payments = (await posted('payment')).list as any[];
    expect(cents(cash.totals.receiptAmount)).toBe(sum(receipts, 'amountBase'));
    expect(cash.totals.receiptCount).toBe(receipts.length);
    expect(cents(cash.totals.paymentAmount)).toBe(sum(payments, 'amountBase'));
    expect(cents(cash.totals.refundOutAmount)).toBe(9218);
    expect(cents(cash.totals.netAmount)).toBe(cents(cash.totals.receiptAmount) + cents(cash.totals.refundInAmount) - cents(cash.totals.paymentAmount) - cents(cash.totals.refundOutAmount));
  });

  it('and the ledgers verify', async () => {
    const v = await verifyFinance(t.database.db);
    expect(v.differences.map((d: any) => d.message)).toEqual([]);
  });
});
