// 开票报表 (oms 023121/023122) on a real database (SQLite, or PostgreSQL when DATABASE_URL is set): delivered
// quantities by delivery date with the part invoiced and the rest, posted invoice quantities and base amounts
// by invoice date (drafts and cancelled invoices left out, and a cancelled invoice gives its quantity back to
// "not invoiced"), each grouping's rows against figures computed here from the documents made, totals over
// every group equal to the sum of the rows, filters, the .xlsx with its 合计 line, rights and company isolation.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startTestServer, type TestServer } from './helpers.ts';
import { tradeFlow } from './trade-flow.ts';

const SO = { save: '020903', get: '020902', confirm: '020905' };
const DP = { save: '020703', confirm: '020705' };
const PK = { save: '024003' };
const DN = { save: '024103' };
const SI = { get: '022402', save: '022403', post: '022404', cancel: '022405', lines: '022406' };
const R = { list: '023121', export: '023122' };

let t: TestServer;
let admin: string;
let demo2: string;
let clerk: string;
let sales: string;
let wh: number;
let loc: number;
let listId: number;
let seq = 0;
let p1: { id: number; code: string };
let p2: { id: number; code: string };
let cA: { id: number; code: string };
let cB: { id: number; code: string };
const amounts: Record<string, bigint> = {};

async function product(price: string) {
  const code = `MBP${String(++seq).padStart(3, '0')}`;
  const id = (await ok(t.call('cdm', '010203', { code, name: `开票报表商品${code}`, unitSmall: '个' }, admin))).id as number;
  await ok(t.call('cdm', '014031', { productId: id, priceTitleId: listId, price }, admin));
  await ok(t.call('oms', '022603', { warehouseId: wh, lines: [{ productId: id, qty: 1000, locationId: loc }], post: true }, admin));
  return { id, code };
}

async function client() {
  const code = `MBK${String(++seq).padStart(3, '0')}`;
  const id = (await ok(t.call('cdm', '011703', { code, name: `开票报表客户${code}`, priceTitleId: listId, creditLimit: '0', backOrderPolicy: 'keep', paymentDays: 30 }, admin))).id as number;
  return { id, code };
}

async function deliver(clientId: number, deliveryDate: string, lines: Array<{ productId: number; qty: number }>) {
  const so = await ok(t.call('oms', SO.save, { clientId, warehouseId: wh, lines }, admin));
  await ok(t.call('oms', SO.confirm, { id: so.id, version: so.version }, admin));
  const order = await ok(t.call('oms', SO.get, { id: so.id }, admin));
  const plan = await ok(t.call('oms', DP.save, { orderId: so.id, lines: order.lines.map((l: any) => ({ orderLineId: l.id, qty: l.qty })) }, admin));
  const confirmed = await ok(t.call('oms', DP.confirm, { id: plan.id, version: plan.version }, admin));
  await ok(t.call('oms', PK.save, { taskIds: [confirmed.taskId], post: true }, admin));
  return ok(t.call('oms', DN.save, { taskId: confirmed.taskId, deliveryDate, post: true }, admin));
}

/** Open delivery lines of a client, by product code. */
async function open(clientId: number) {
  const list = (await ok(t.call('oms', SI.lines, { clientId, page: 1, pageSize: 100 }, admin))).list as any[];
  return (code: string) => list.find((l) => l.productCode === code)!;
}

/** An invoice of (product, qty) lines of a client on a day: posted unless told; its base amount in cents. */
async function invoice(c: { id: number }, invoiceDate: string, lines: Array<[string, number]>, post = true) {
  const line = await open(c.id);
  const draft = await ok(t.call('oms', SI.save, { clientId: c.id, invoiceDate, taxRate: '13', lines: lines.map(([code, qty]) => ({ deliveryLineId: line(code).deliveryLineId, qty })), post }, admin));
  const inv = await ok(t.call('oms', SI.get, { id: draft.id }, admin));
  return { inv, cents: BigInt(String(inv.totalAmountBase).replace('.', '')) };
}

const cents = (c: bigint) => `${c / 100n}.${String(c % 100n).padStart(2, '0')}`;
const MEASURES = ['deliveredQty', 'deliveredInvoicedQty', 'uninvoicedQty', 'invoicedQty', 'invoicedAmount'];
const report = (groupBy: string, filters: Record<string, unknown> = {}, token = admin) =>
  t.call('oms', R.list, { page: 1, pageSize: 50, groupBy, filters: { product: 'MBP', ...filters } }, token);

const flow = tradeFlow(() => t, () => admin);

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login();
  demo2 = await t.login('demo2', 'admin', 'demo123');
  clerk = await t.login('demo', 'clerk', 'demo123');
  sales = await t.login('demo', 'sales', 'demo123');
  ({ wh, loc } = await flow.warehouse('MBW', '开票报表仓'));
  listId = await flow.saleList();
  p1 = await product('11.30');
  p2 = await product('2.00');
  cA = await client();
  cB = await client();
  // A: 10 × p1 and 5 × p2 shipped on 10-05; 6 of p1 invoiced on 11-03; a draft of 2 × p2 and a cancelled one of 3 × p2
  await deliver(cA.id, '2026-10-05', [{ productId: p1.id, qty: 10 }, { productId: p2.id, qty: 5 }]);
  amounts.a = (await invoice(cA, '2026-11-03', [[p1.code, 6]])).cents;
  await invoice(cA, '2026-11-04', [[p2.code, 2]], false);
  const gone = (await invoice(cA, '2026-11-04', [[p2.code, 3]])).inv;
  await ok(t.call('oms', SI.cancel, { id: gone.id, version: gone.version }, admin));
  // B: 4 × p1 shipped on 11-10 and invoiced in full on 11-12
  await deliver(cB.id, '2026-11-10', [{ productId: p1.id, qty: 4 }]);
  amounts.b = (await invoice(cB, '2026-11-12', [[p1.code, 4]])).cents;
}, 120_000);
afterAll(async () => t?.close());

function sumRows(list: any[]) {
  const out: Record<string, unknown> = {};
  for (const f of MEASURES) {
    out[f] = f === 'invoicedAmount'
      ? cents(list.reduce((s, r) => s + BigInt(String(r[f]).replace('.', '')), 0n))
      : list.reduce((s, r) => s + Number(r[f]), 0);
  }
  return out;
}

describe('开票报表', () => {
  it('each grouping: rows from the documents, totals over all groups = sum of the rows', async () => {
    const A = cents(amounts.a!);
    const B = cents(amounts.b!);
    const AB = cents(amounts.a! + amounts.b!);
    const expected: Record<string, Array<[string, ...unknown[]]>> = {
      month: [['2026-10', 15, 6, 9, 0, '0.00'], ['2026-11', 4, 4, 0, 10, AB]],
      // weeks from Monday: 10-05 is a Monday, 11-03 and 11-10 Tuesdays, 11-12 a Thursday
      week: [['2026-10-05', 15, 6, 9, 0, '0.00'], ['2026-11-02', 0, 0, 0, 6, A], ['2026-11-09', 4, 4, 0, 4, B]],
      day: [['2026-10-05', 15, 6, 9, 0, '0.00'], ['2026-11-03', 0, 0, 0, 6, A], ['2026-11-10', 4, 4, 0, 0, '0.00'], ['2026-11-12', 0, 0, 0, 4, B]],
      client: [[cA.code, 15, 6, 9, 6, A], [cB.code, 4, 4, 0, 4, B]],
      product: [[p1.code, 14, 10, 4, 10, AB], [p2.code, 5, 0, 5, 0, '0.00']],
    };
    const label: Record<string, string> = { month: 'month', week: 'week', day: 'day', client: 'clientCode', product: 'productCode' };
    for (const [groupBy, rows] of Object.entries(expected)) {
      const data = await ok(report(groupBy));
      expect(data.list.map((r: any) => [r[label[groupBy]!], ...MEASURES.map((f) => r[f])]), groupBy).toEqual(rows);
      expect(data.total).toBe(rows.length);
      expect(data.totals, groupBy).toEqual(sumRows(data.list));
      expect(data.totals).toEqual({ deliveredQty: 19, deliveredInvoicedQty: 10, uninvoicedQty: 9, invoicedQty: 10, invoicedAmount: AB });
    }
    // paging: totals stay over every group
    const page = await ok(t.call('oms', R.list, { page: 2, pageSize: 1, groupBy: 'client', filters: { product: 'MBP' } }, admin));
    expect(page.list.map((r: any) => r.clientCode)).toEqual([cB.code]);
    expect(page.totals.deliveredQty).toBe(19);
    // sorted by a measure
    const sorted = await ok(t.call('oms', R.list, { page: 1, pageSize: 50, groupBy: 'product', sort: { field: 'uninvoicedQty', order: 'descend' }, filters: { product: 'MBP' } }, admin));
    expect(sorted.list.map((r: any) => r.productCode)).toEqual([p2.code, p1.code]);
  });

  it('filters: dates (each source by its own date), client, product; bad input refused in Chinese', async () => {
    expect((await ok(report('client', { dateRange: ['2026-11-01', '2026-11-30'] }))).totals)
      .toEqual({ deliveredQty: 4, deliveredInvoicedQty: 4, uninvoicedQty: 0, invoicedQty: 10, invoicedAmount: cents(amounts.a! + amounts.b!) });
    expect((await ok(report('month', { clientId: cA.id }))).totals)
      .toEqual({ deliveredQty: 15, deliveredInvoicedQty: 6, uninvoicedQty: 9, invoicedQty: 6, invoicedAmount: cents(amounts.a!) });
    expect((await ok(report('client', { product: p2.code }))).list.map((r: any) => [r.clientCode, r.uninvoicedQty])).toEqual([[cA.code, 5]]);
    expect((await report('staff')).code).toBe('COMMON_VALIDATION_4000');
    expect((await report('day', { dateRange: ['2026-11-30', '2026-11-01'] })).msg).toContain('开始日期不能晚于结束日期');
    expect((await report('day', { clientId: 999999 })).msg).toContain('客户不存在');
  });

  it('exports the whole report with a 合计 line', async () => {
    const xlsx = await t.raw('oms', R.export, { groupBy: 'client', filters: { product: 'MBP' } }, admin);
    expect(xlsx.statusCode).toBe(200);
    expect(decodeURIComponent(String(xlsx.headers['content-disposition']))).toContain('开票报表_按客户_');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    wb.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1).map((v: any) => (v && typeof v === 'object' && 'richText' in v ? v.richText.map((x: any) => x.text).join('') : v ?? null))));
    expect(rows[0]).toEqual(['客户编码', '客户', '发货数量', '其中已开票', '已发货未开票', '开票数量', '开票金额（本位币）']);
    expect(rows.map((r) => r[0])).toEqual(['客户编码', cA.code, cB.code, '合计']);
    expect(rows[3]!.slice(2)).toEqual([19, 10, 9, 10, Number(cents(amounts.a! + amounts.b!))]);
  });

  it('rights: the sales role reads it, a clerk is refused; another company sees none of it', async () => {
    expect((await ok(report('client', {}, sales))).totals.deliveredQty).toBe(19);
    expect((await report('client', {}, clerk)).code).toBe('COMMON_NO_RIGHT_4003');
    expect((await t.call('oms', R.export, { groupBy: 'client' }, clerk)).code).toBe('COMMON_NO_RIGHT_4003');
    expect((await ok(report('client', {}, demo2))).list).toEqual([]);
    expect((await report('client', { clientId: cA.id }, demo2)).msg).toContain('客户不存在');
  });
});
