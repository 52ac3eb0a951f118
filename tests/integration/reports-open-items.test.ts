// 应收报表 (oms 023123/023124), 应付报表 (023125/023126) and 财务报表 (023127/023128: posted receipts and
// payments by date and method; drafts and reversed ones left out) on a real database (SQLite, or PostgreSQL when
// DATABASE_URL is set): open items of one side by document date — amount, settled (receipts or payments
// allocated), open — in company-currency cents; cancelled items left out, the other side never mixed in;
// every grouping's rows against figures computed here from the documents made, totals over all groups equal
// to the sum of the rows, filters, the .xlsx with its 合计 line, rights and company isolation.
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportJobsIdle } from '../../src/server/domain/export-jobs.ts';
import { ok, startTestServer, type TestServer } from './helpers.ts';

const OB = { save: '026213', cancel: '026216' };
const PAY = { save: '026003', reverse: '026007' };
const R = { receivable: '023123', receivableExport: '023124', payable: '023125', payableExport: '023126', cash: '023127', cashExport: '023128' };

let t: TestServer;
let admin: string;
let demo2: string;
let finance: string;
let sales: string;
let cA: number;
let cB: number;
let sA: number;
let sB: number;

async function opening(body: Record<string, unknown>) {
  const doc = await ok(t.call('oms', OB.save, { post: true, ...body }, admin));
  const item = (await t.database.db.selectFrom('openItem').select('id').where('sourceType', '=', 'openingBalance').where('sourceId', '=', doc.id).executeTakeFirstOrThrow()).id;
  return { doc, item: Number(item) };
}

const MEASURES = ['amount', 'settled', 'open'];
const DATES = ['2024-01-01', '2024-12-31'];
const report = (code: string, groupBy: string, filters: Record<string, unknown> = {}, token = admin) =>
  t.call('oms', code, { page: 1, pageSize: 50, groupBy, filters: { dateRange: DATES, ...filters } }, token);
const toCents = (v: string) => BigInt(v.replace('.', ''));
const text = (c: bigint) => `${c / 100n}.${String(c % 100n).padStart(2, '0')}`;
const sumRows = (list: any[]) => Object.fromEntries(MEASURES.map((f) => [f, text(list.reduce((s, r) => s + toCents(String(r[f])), 0n))]));

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login();
  demo2 = await t.login('demo2', 'admin', 'demo123');
  finance = await t.login('demo', 'finance', 'demo123');
  sales = await t.login('demo', 'sales', 'demo123');
  cA = (await ok(t.call('cdm', '011703', { code: 'YSA', name: '应收报表客户甲' }, admin))).id;
  cB = (await ok(t.call('cdm', '011703', { code: 'YSB', name: '应收报表客户乙' }, admin))).id;
  sA = (await ok(t.call('cdm', '011603', { code: 'YFA', name: '应付报表供应商甲' }, admin))).id;
  sB = (await ok(t.call('cdm', '011603', { code: 'YFB', name: '应付报表供应商乙' }, admin))).id;
  // receivables: A 800.00 (02-01; 500.00 received), 300.00 (03-15); B 200.00 (03-20); a cancelled 999.00
  const a1 = await opening({ side: 'receivable', clientId: cA, amount: '800.00', docDate: '2024-02-01', dueDate: '2024-03-01' });
  await opening({ side: 'receivable', clientId: cA, amount: '300.00', docDate: '2024-03-15', dueDate: '2024-04-15' });
  await opening({ side: 'receivable', clientId: cB, amount: '200.00', docDate: '2024-03-20', dueDate: '2024-04-20' });
  const gone = await opening({ side: 'receivable', clientId: cB, amount: '999.00', docDate: '2024-03-21', dueDate: '2024-04-21' });
  await ok(t.call('oms', OB.cancel, { id: gone.doc.id, version: gone.doc.version }, admin));
  await ok(t.call('oms', PAY.save, { direction: 'receipt', clientId: cA, amount: '500.00', payDate: '2024-03-01', method: 'bank', lines: [{ openItemId: a1.item, amount: '500.00' }], post: true }, admin));
  // payables: supplier A 1,000.00 (01-10; 250.00 paid), supplier B 400.00 (02-05)
  const p1 = await opening({ side: 'payable', supplierId: sA, amount: '1000.00', docDate: '2024-01-10', dueDate: '2024-02-10' });
  await opening({ side: 'payable', supplierId: sB, amount: '400.00', docDate: '2024-02-05', dueDate: '2024-03-05' });
  await ok(t.call('oms', PAY.save, { direction: 'payment', supplierId: sA, amount: '250.00', payDate: '2024-02-20', method: 'bank', lines: [{ openItemId: p1.item, amount: '250.00' }], post: true }, admin));
  // money without allocations: a cash receipt of 120.00 (an advance), a reversed one of 77.00 and a draft of 66.00
  await ok(t.call('oms', PAY.save, { direction: 'receipt', clientId: cB, amount: '120.00', payDate: '2024-03-05', method: 'cash', post: true }, admin));
  const rev = await ok(t.call('oms', PAY.save, { direction: 'receipt', clientId: cB, amount: '77.00', payDate: '2024-03-06', method: 'cash', post: true }, admin));
  await ok(t.call('oms', PAY.reverse, { id: rev.id }, admin));
  await ok(t.call('oms', PAY.save, { direction: 'receipt', clientId: cB, amount: '66.00', payDate: '2024-03-07', method: 'cash' }, admin));
}, 120_000);
afterAll(async () => t?.close());

describe('应收报表', () => {
  it('each grouping from the items made; totals = rows; cancelled items and payables left out', async () => {
    const expected: Record<string, [string, Array<[string, ...string[]]>]> = {
      month: ['month', [['2024-02', '800.00', '500.00', '300.00'], ['2024-03', '500.00', '0.00', '500.00']]],
      // weeks from Monday: 02-01 is a Thursday (01-29), 03-15 a Friday (03-11), 03-20 a Wednesday (03-18)
      week: ['week', [['2024-01-29', '800.00', '500.00', '300.00'], ['2024-03-11', '300.00', '0.00', '300.00'], ['2024-03-18', '200.00', '0.00', '200.00']]],
      client: ['clientCode', [['YSA', '1100.00', '500.00', '600.00'], ['YSB', '200.00', '0.00', '200.00']]],
    };
    for (const [groupBy, [label, rows]] of Object.entries(expected)) {
      const data = await ok(report(R.receivable, groupBy));
      expect(data.list.map((r: any) => [r[label], ...MEASURES.map((f) => r[f])]), groupBy).toEqual(rows);
      expect(data.totals, groupBy).toEqual(sumRows(data.list));
      expect(data.totals).toEqual({ amount: '1300.00', settled: '500.00', open: '800.00' });
    }
    expect((await ok(report(R.receivable, 'client', { clientId: cB }))).list.map((r: any) => r.clientName)).toEqual(['应收报表客户乙']);
    expect((await ok(report(R.receivable, 'month', { dateRange: ['2024-03-01', '2024-03-31'] }))).totals).toEqual({ amount: '500.00', settled: '0.00', open: '500.00' });
    expect((await ok(report(R.receivable, 'month', { sourceType: 'salesInvoice' }))).list).toEqual([]);
    expect((await ok(report(R.receivable, 'client', { onlyOpen: true }))).totals).toEqual({ amount: '1300.00', settled: '500.00', open: '800.00' });
    expect((await report(R.receivable, 'supplier')).code).toBe('COMMON_VALIDATION_4000');
    expect((await report(R.receivable, 'month', { clientId: 999999 })).msg).toContain('客户不存在');
    expect((await report(R.receivable, 'month', { dateRange: ['2024-03-01', '2024-02-01'] })).msg).toContain('开始日期不能晚于结束日期');
  });

  it('exports with a 合计 line; the accountant reads it, the sales role is refused; another company sees none of it', async () => {
    const xlsx = await t.raw('oms', R.receivableExport, { groupBy: 'client', filters: { dateRange: DATES } }, finance);
    expect(xlsx.statusCode).toBe(200);
    expect(decodeURIComponent(String(xlsx.headers['content-disposition']))).toContain('应收报表_按客户_');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    wb.worksheets[0]!.eachRow((row) => rows.push(Array.from((row.values as unknown[]).slice(1), (v: any) => (v && typeof v === 'object' && 'richText' in v ? v.richText.map((x: any) => x.text).join('') : v ?? null))));
    expect(rows).toEqual([['客户编码', '客户', '应收金额', '已收金额', '未收金额'], ['YSA', '应收报表客户甲', 1100, 500, 600], ['YSB', '应收报表客户乙', 200, 0, 200], ['合计', null, 1300, 500, 800]]);
    expect((await report(R.receivable, 'month', {}, sales)).code).toBe('COMMON_NO_RIGHT_4003');
    expect((await t.call('oms', R.receivableExport, { groupBy: 'month' }, sales)).code).toBe('COMMON_NO_RIGHT_4003');
    expect((await ok(report(R.receivable, 'client', {}, demo2))).list).toEqual([]);
    expect((await report(R.receivable, 'client', { clientId: cA }, demo2)).msg).toContain('客户不存在');
  });
});

describe('应付报表', () => {
  it('each grouping from the items made; totals = rows; receivables left out; rights and companies', async () => {
    const expected: Record<string, [string, Array<[string, ...string[]]>]> = {
      month: ['month', [['2024-01', '1000.00', '250.00', '750.00'], ['2024-02', '400.00', '0.00', '400.00']]],
      supplier: ['supplierCode', [['YFA', '1000.00', '250.00', '750.00'], ['YFB', '400.00', '0.00', '400.00']]],
    };
    for (const [groupBy, [label, rows]] of Object.entries(expected)) {
      const data = await ok(report(R.payable, groupBy, {}, finance));
      expect(data.list.map((r: any) => [r[label], ...MEASURES.map((f) => r[f])]), groupBy).toEqual(rows);
      // 期末未付 is the open payables as recorded by the end of 2024: these items were entered today, so none yet
      const { balance, ...sums } = data.totals;
      expect(sums, groupBy).toEqual(sumRows(data.list));
      expect(sums).toEqual({ amount: '1400.00', settled: '250.00', open: '1150.00' });
      expect(balance).toBe('0.00');
    }
    // with no dates: each supplier's open payables now (no closing yet: read from the movements) = 未付
    const now = await ok(t.call('oms', R.payable, { page: 1, pageSize: 50, groupBy: 'supplier' }, finance));
    expect(now.list.map((r: any) => [r.supplierCode, r.open, r.balance])).toEqual([['YFA', '750.00', '750.00'], ['YFB', '400.00', '400.00']]);
    expect(now.totals.balance).toBe('1150.00');
    expect((await ok(report(R.payable, 'supplier', { supplierId: sA }))).list.map((r: any) => r.supplierName)).toEqual(['应付报表供应商甲']);
    expect((await report(R.payable, 'client')).code).toBe('COMMON_VALIDATION_4000');
    const xlsx = await t.raw('oms', R.payableExport, { groupBy: 'month', filters: { dateRange: DATES } }, admin);
    expect(decodeURIComponent(String(xlsx.headers['content-disposition']))).toContain('应付报表_按月_');
    expect((await report(R.payable, 'month', {}, sales)).code).toBe('COMMON_NO_RIGHT_4003');
    expect((await ok(report(R.payable, 'supplier', {}, demo2))).list).toEqual([]);
    expect((await report(R.payable, 'month', { supplierId: sA }, demo2)).msg).toContain('供应商不存在');
  });
});

describe('财务报表', () => {
  it('posted receipts and payments by day, week, month and method; totals = rows; drafts and reversed left out', async () => {
    const expected: Record<string, [string, unknown[][]]> = {
      month: ['month', [['2024-02', 0, '0.00', 1, '250.00', '-250.00'], ['2024-03', 2, '620.00', 0, '0.00', '620.00']]],
      day: ['day', [['2024-02-20', 0, '0.00', 1, '250.00', '-250.00'], ['2024-03-01', 1, '500.00', 0, '0.00', '500.00'], ['2024-03-05', 1, '120.00', 0, '0.00', '120.00']]],
      // 02-20 a Tuesday (02-19); 03-01 a Friday (02-26); 03-05 a Tuesday (03-04)
      week: ['week', [['2024-02-19', 0, '0.00', 1, '250.00', '-250.00'], ['2024-02-26', 1, '500.00', 0, '0.00', '500.00'], ['2024-03-04', 1, '120.00', 0, '0.00', '120.00']]],
      method: ['methodText', [['现金', 1, '120.00', 0, '0.00', '120.00'], ['银行转账', 1, '500.00', 1, '250.00', '250.00']]],
    };
    const F = ['receiptCount', 'receiptAmount', 'paymentCount', 'paymentAmount', 'netAmount'];
    for (const [groupBy, [label, rows]] of Object.entries(expected)) {
      const data = await ok(t.call('oms', R.cash, { page: 1, pageSize: 50, groupBy, sort: groupBy === 'method' ? { field: 'receiptAmount', order: 'ascend' } : null, filters: { dateRange: DATES } }, finance));
      expect(data.list.map((r: any) => [r[label], ...F.map((f) => r[f])]), groupBy).toEqual(rows);
      expect(data.totals).toEqual({ receiptCount: 2, receiptAmount: '620.00', paymentCount: 1, paymentAmount: '250.00', refundInAmount: '0.00', refundOutAmount: '0.00', netAmount: '370.00' });
      const sum = (f: string) => (data.list as any[]).reduce((s2, r) => s2 + toCents(String(r[f])), 0n);
      expect(data.totals.netAmount).toBe(text(sum('netAmount')));
      expect(data.totals.receiptAmount).toBe(text(sum('receiptAmount')));
    }
    const cash = await ok(t.call('oms', R.cash, { page: 1, pageSize: 50, groupBy: 'month', filters: { dateRange: DATES, method: 'cash' } }, admin));
    expect(cash.totals).toMatchObject({ receiptCount: 1, receiptAmount: '120.00', netAmount: '120.00' });
    expect((await t.call('oms', R.cash, { groupBy: 'client' }, admin)).code).toBe('COMMON_VALIDATION_4000');
    expect((await t.call('oms', R.cash, { groupBy: 'month', filters: { method: 'gold' } }, admin)).code).toBe('COMMON_VALIDATION_4000');
    const xlsx = await t.raw('oms', R.cashExport, { groupBy: 'month', filters: { dateRange: DATES } }, admin);
    expect(decodeURIComponent(String(xlsx.headers['content-disposition']))).toContain('财务报表_按月_');
    expect((await t.call('oms', R.cash, { groupBy: 'month' }, sales)).code).toBe('COMMON_NO_RIGHT_4003');
    expect((await ok(t.call('oms', R.cash, { page: 1, pageSize: 50, groupBy: 'month', filters: { dateRange: DATES } }, demo2))).list).toEqual([]);
  });
});

describe('批量导出 of these reports', () => {
  it('应收, 应付, 财务 and 开票 in one background job; the sales role may not export the finance ones', async () => {
    const job = await ok(t.call('oms', '023110', { reports: ['receivable', 'dealWith', 'finance', 'makeBallot'], dateRange: DATES }, admin));
    await exportJobsIdle();
    const file = await t.raw('cdm', '019903', { id: job.id }, admin);
    expect(file.statusCode).toBe(200);
    const zip = await JSZip.loadAsync(file.rawPayload);
    expect(Object.keys(zip.files).map((n) => n.replace(/_\d{8}\.xlsx$/, '')).sort()).toEqual(['应付报表_按月', '应收报表_按月', '开票报表_按月', '财务报表_按月'].sort());
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await zip.file(Object.keys(zip.files).find((n) => n.startsWith('应收报表'))!)!.async('nodebuffer')) as unknown as ArrayBuffer);
    const first: unknown[] = [];
    wb.worksheets[0]!.eachRow((r) => { const v = (r.values as any[])[1]; first.push(v && typeof v === 'object' && 'richText' in v ? v.richText.map((x: any) => x.text).join('') : v); });
    expect(first).toEqual(['月份', '2024-02', '2024-03', '合计']);
    expect((await t.call('oms', '023110', { reports: ['receivable'] }, sales)).code).toBe('COMMON_NO_RIGHT_4003');
  });
});
