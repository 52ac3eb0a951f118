// 退款单 (advanceRefund) on a real database (SQLite, or PostgreSQL when DATABASE_URL is set): an advance
// (unallocated money of a posted receipt / payment) paid back. Posting books the refund as the party's
// item settled at once by the advance, so the advance shrinks by exactly the refund; more than the advance,
// another party's / company's document, another currency or a pending cheque are refused and write
// nothing; two refunds racing over one advance: exactly one posts; reversal gives the advance back;
// the supplier side mirrors it; aging, statement and npm run verify stay consistent; rights are checked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyFinance } from '../../src/server/domain/finance/verify.ts';
import { ok, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let demo: string;
let demo2: string;
let finance: string;
let clerk: string;
let usd: number;
let cny: number;

const REFUND = { list: '026401', get: '026402', save: '026403', remove: '026404', post: '026405', cancel: '026406', reverse: '026407', relate: '026409' };
const PAY = { save: '026003', get: '026002', advances: '026012' };
const AR = { aging: '026201', items: '026202', statement: '026203' };
const AP = { aging: '026301', items: '026302' };

let seq = 0;
const newClient = async () => (await ok(t.call('cdm', '011703', { code: `RC${String(++seq).padStart(3, '0')}`, name: `退款测试客户${seq}` }, demo))).id as number;
const newSupplier = async () => (await ok(t.call('cdm', '011603', { code: `RS${String(++seq).padStart(3, '0')}`, name: `退款测试供应商${seq}` }, demo))).id as number;

/** A posted receipt (client) or payment (supplier) allocated to nothing: all of it is an advance. */
async function advance(party: { clientId?: number; supplierId?: number }, amount: string, extra: Record<string, unknown> = {}) {
  const direction = party.clientId ? 'receipt' : 'payment';
  return ok(t.call('oms', PAY.save, { direction, ...party, payDate: '2026-03-10', amount, method: 'bank', post: true, lines: [], ...extra }, demo)) as Promise<{ id: number; docNo: string }>;
}

async function unallocated(payId: number) {
  return (await ok(t.call('oms', PAY.get, { id: payId }, demo))).unallocatedAmount as string;
}

async function refundCount(token = demo) {
  return (await ok(t.call('oms', REFUND.list, { page: 1, pageSize: 1 }, token))).total as number;
}

async function verifyClean() {
  expect((await verifyFinance(t.database.db)).differences.map((d) => d.message)).toEqual([]);
}

beforeAll(async () => {
  t = await startTestServer({ LOGIN_MAX_FAILURES: '1000', LOGIN_MAX_FAILURES_PER_IP: '100000' });
  demo = await t.login('demo', 'admin', 'demo123');
  demo2 = await t.login('demo2', 'admin', 'demo123');
  finance = await t.login('demo', 'finance', 'demo123');
  clerk = await t.login('demo', 'clerk', 'demo123');
  const currencies = (await ok(t.call('cdm', '012101', { page: 1, pageSize: 10 }, demo))).list;
  usd = currencies.find((c: any) => c.code === 'USD').id;
  cny = currencies.find((c: any) => c.code === 'CNY').id;
});

afterAll(async () => {
  await t?.close();
});

describe('a client advance refunded (退预收款)', () => {
  let client: number;
  let receipt: { id: number; docNo: string };
  let first: any;

  it('refunding part of an advance shrinks it by exactly that, the refund item settled at once', async () => {
    client = await newClient();
    receipt = await advance({ clientId: client }, '1000.00');
    expect(await unallocated(receipt.id)).toBe('1000.00');
    const saved = await ok(t.call('oms', REFUND.save, {
      partyType: 'client', clientId: client, refundDate: '2026-03-20', method: 'bank', account: '基本户', post: true,
      lines: [{ payDocumentId: receipt.id, amount: '300.00' }],
    }, finance));
    first = await ok(t.call('oms', REFUND.get, { id: saved.id }, finance));
    expect(first).toMatchObject({ status: 'posted', partyType: 'client', partyTypeText: '退预收款', amount: '300.00', currencyName: '人民币', refundDate: '2026-03-20' });
    expect(first.docNo).toMatch(/^TK/);
    expect(first.lines.map((l: any) => [l.payDocNo, l.amount, l.unallocatedAmount])).toEqual([[receipt.docNo, '300.00', '700.00']]);
    expect(await unallocated(receipt.id)).toBe('700.00');
    const adv = await ok(t.call('oms', PAY.advances, { page: 1, pageSize: 50, clientId: client }, demo));
    expect(adv.list.map((r: any) => [r.docNo, r.unallocatedAmount])).toEqual([[receipt.docNo, '700.00']]);
    // the refund is the client's item, settled by the receipt
    const items = (await ok(t.call('oms', AR.items, { id: client, all: true, today: '2026-03-31' }, demo))).list as any[];
    expect(items.map((i) => [i.docNo, i.kind, i.amount, i.openAmount, i.status])).toEqual([[first.docNo, '预收退款', '300.00', '0.00', 'settled']]);
    // 应收账款: the client's 预收款 is 700 now (a credit balance)
    const aging = await ok(t.call('oms', AR.aging, { keyword: '退款测试客户1', today: '2026-03-31', page: 1, pageSize: 50 }, demo));
    expect(aging.list.find((r: any) => r.id === client)).toMatchObject({ advance: '700.00', balance: '-700.00' });
    // the statement shows the refund (debit) and the receipt's money settling it (credit)
    const st = await ok(t.call('oms', AR.statement, { id: client, dateFrom: '2026-03-01', dateTo: '2026-03-31' }, demo));
    expect(st.rows.map((r: any) => [r.date, r.docNo, r.kind, r.debit, r.credit])).toEqual([
      ['2026-03-20', first.docNo, '预收退款', '300.00', null],
      ['2026-03-20', receipt.docNo, '收款核销', null, '300.00'],
    ]);
    // the document chain: the refund, and under it the receipt it drew on
    const chain = await ok(t.call('oms', REFUND.relate, { id: first.id }, finance));
    expect(chain.chain.map((c: any) => c.number)).toEqual([first.docNo, receipt.docNo]);
    await verifyClean();
  });

  it('more than the advance is refused naming the document and the figures, and writes nothing', async () => {
    const before = await refundCount();
    const over = await t.call('oms', REFUND.save, { partyType: 'client', clientId: client, post: true, lines: [{ payDocumentId: receipt.id, amount: '700.01' }] }, finance);
    expect(over.code).toBe('FINANCE_OVER_PAYMENT_4172');
    expect(over.msg).toBe(`第 1 行：收付款单 ${receipt.docNo} 的未核销金额为 700.00，本次核销 700.01 超出未核销金额`);
    const zero = await t.call('oms', REFUND.save, { partyType: 'client', clientId: client, lines: [{ payDocumentId: receipt.id, amount: '0' }] }, finance);
    expect(zero.msg).toContain('退款金额必须大于 0');
    expect(await refundCount()).toBe(before);
    expect(await unallocated(receipt.id)).toBe('700.00');
  });

  it('another party\'s, another company\'s, another currency\'s document or a pending cheque is refused', async () => {
    const before = await refundCount();
    const other = await newClient();
    const wrongParty = await t.call('oms', REFUND.save, { partyType: 'client', clientId: other, lines: [{ payDocumentId: receipt.id, amount: '1' }] }, finance);
    expect(wrongParty.msg).toContain(`收付款单 ${receipt.docNo} 不是本单客户的收款单`);
    const supplier = await newSupplier();
    const wrongKind = await t.call('oms', REFUND.save, { partyType: 'supplier', supplierId: supplier, lines: [{ payDocumentId: receipt.id, amount: '1' }] }, finance);
    expect(wrongKind.msg).toContain('不是本单供应商的付款单');
    // demo2 names demo's receipt: not found in its company
    const demo2Client = (await ok(t.call('cdm', '011703', { code: 'RX01', name: '二公司客户' }, demo2))).id;
    const otherCompany = await t.call('oms', REFUND.save, { partyType: 'client', clientId: demo2Client, lines: [{ payDocumentId: receipt.id, amount: '1' }] }, demo2);
    expect(otherCompany.msg).toContain('第 1 行：收付款单不存在');
    // a USD advance with a CNY one in one refund, or a CNY advance on a USD refund
    const usdReceipt = await advance({ clientId: client }, '50.00', { currencyId: usd });
    const mixed = await t.call('oms', REFUND.save, { partyType: 'client', clientId: client, lines: [{ payDocumentId: receipt.id, amount: '1' }, { payDocumentId: usdReceipt.id, amount: '1' }] }, finance);
    expect(mixed.msg).toContain(`第 2 行：收付款单 ${usdReceipt.docNo} 的币种与本单不同`);
    // nor paid back before it came in
    const early = await t.call('oms', REFUND.save, { partyType: 'client', clientId: client, refundDate: '2026-03-09', lines: [{ payDocumentId: receipt.id, amount: '1' }] }, finance);
    expect(early.msg).toContain(`第 1 行：退款日期 2026-03-09 早于收付款单 ${receipt.docNo} 的收付日期 2026-03-10`);
    // a post-dated cheque not yet cleared is not an advance
    const cheque = await advance({ clientId: client }, '80.00', { method: 'cheque', chequeNo: 'CHQ-R1', chequeDate: '2026-04-30' });
    const pending = await t.call('oms', REFUND.save, { partyType: 'client', clientId: client, lines: [{ payDocumentId: cheque.id, amount: '10' }] }, finance);
    expect(pending.msg).toContain(`收付款单 ${cheque.docNo} 的支票尚未兑现`);
    expect(await refundCount()).toBe(before);
    expect(await unallocated(receipt.id)).toBe('700.00');
    // the USD advance alone is fine: the refund takes its currency and that day's rate
    const usdOk = await ok(t.call('oms', REFUND.save, { partyType: 'client', clientId: client, refundDate: '2026-03-20', lines: [{ payDocumentId: usdReceipt.id, amount: '50.00' }] }, finance));
    expect(await ok(t.call('oms', REFUND.get, { id: usdOk.id }, finance))).toMatchObject({ status: 'draft', currencyName: '美元', amount: '50.00' });
    await ok(t.call('oms', REFUND.remove, { id: usdOk.id }, finance));
  });

  it('two refunds racing over the same advance: exactly one posts, the other is refused and stays a draft', async () => {
    // 700 left: 400 fits alone, twice does not
    const a = await ok(t.call('oms', REFUND.save, { partyType: 'client', clientId: client, lines: [{ payDocumentId: receipt.id, amount: '400.00' }] }, finance));
    const b = await ok(t.call('oms', REFUND.save, { partyType: 'client', clientId: client, lines: [{ payDocumentId: receipt.id, amount: '400.00' }] }, demo));
    const answers = await Promise.all([t.call('oms', REFUND.post, { id: a.id }, finance), t.call('oms', REFUND.post, { id: b.id }, demo)]);
    expect(answers.map((r) => r.code).sort()).toEqual(['200', 'FINANCE_OVER_PAYMENT_4172']);
    expect(answers.find((r) => r.code !== '200')!.msg).toContain(`收付款单 ${receipt.docNo} 的未核销金额为 300.00，本次核销 400.00`);
    const statuses = await Promise.all([a.id, b.id].map(async (id) => (await ok(t.call('oms', REFUND.get, { id }, demo))).status));
    expect(statuses.sort()).toEqual(['draft', 'posted']);
    expect(await unallocated(receipt.id)).toBe('300.00');
    // the refused one booked no item
    const items = (await ok(t.call('oms', AR.items, { id: client, all: true, today: '2026-03-31' }, demo))).list as any[];
    expect(items.filter((i) => i.kind === '预收退款').length).toBe(2);
    await verifyClean();
  });

  it('reversal gives the advance back, and a refund refused for want of it can then be posted', async () => {
    const list = (await ok(t.call('oms', REFUND.list, { page: 1, pageSize: 50, clientId: client }, demo))).list as any[];
    const posted = list.find((r) => r.status === 'posted' && r.amount === '400.00');
    const draft = list.find((r) => r.status === 'draft');
    expect(draft.amount).toBe('400.00');
    const refused = await t.call('oms', REFUND.post, { id: draft.id }, demo);
    expect(refused.code).toBe('FINANCE_OVER_PAYMENT_4172');
    await ok(t.call('oms', REFUND.reverse, { id: posted.id }, finance));
    expect(await unallocated(receipt.id)).toBe('700.00');
    const items = (await ok(t.call('oms', AR.items, { id: client, all: true, today: '2026-03-31' }, demo))).list as any[];
    expect(items.find((i) => i.docNo === posted.docNo)).toBeUndefined();
    await ok(t.call('oms', REFUND.post, { id: draft.id }, demo));
    expect(await unallocated(receipt.id)).toBe('300.00');
    // a reversed refund cannot be reversed again
    const again = await t.call('oms', REFUND.reverse, { id: posted.id }, finance);
    expect(again.code).toBe('DOCUMENT_STATUS_4131');
    expect(await unallocated(receipt.id)).toBe('300.00');
    await verifyClean();
  });

  it('rights: a clerk without 退款单 rights reads and writes nothing; the accountant does both', async () => {
    const before = await refundCount();
    expect((await t.call('oms', REFUND.list, { page: 1, pageSize: 1 }, clerk)).code).not.toBe('200');
    const save = await t.call('oms', REFUND.save, { partyType: 'client', clientId: client, lines: [{ payDocumentId: receipt.id, amount: '1' }] }, clerk);
    expect(save.code).not.toBe('200');
    expect(await refundCount()).toBe(before);
    expect(await refundCount(finance)).toBe(before);
  });
});

describe('a supplier\'s prepayment returned (预付款退回)', () => {
  it('mirrors the client side: the payable item settled, the 预付款 shrinks and comes back on reversal', async () => {
    const supplier = await newSupplier();
    const payment = await advance({ supplierId: supplier }, '500.00');
    const saved = await ok(t.call('oms', REFUND.save, {
      partyType: 'supplier', supplierId: supplier, refundDate: '2026-03-25', method: 'cash', post: true, lines: [{ payDocumentId: payment.id, amount: '200.00' }],
    }, finance));
    const doc = await ok(t.call('oms', REFUND.get, { id: saved.id }, finance));
    expect(doc).toMatchObject({ status: 'posted', partyTypeText: '预付款退回', amount: '200.00', supplierId: supplier, clientId: null });
    expect(await unallocated(payment.id)).toBe('300.00');
    const adv = await ok(t.call('oms', PAY.advances, { page: 1, pageSize: 50, supplierId: supplier }, demo));
    expect(adv.list.map((r: any) => [r.kindText, r.unallocatedAmount])).toEqual([['预付款', '300.00']]);
    const items = (await ok(t.call('oms', AP.items, { id: supplier, all: true, today: '2026-03-31' }, demo))).list as any[];
    expect(items.map((i) => [i.docNo, i.kind, i.openAmount, i.status])).toEqual([[doc.docNo, '预付退回', '0.00', 'settled']]);
    const aging = await ok(t.call('oms', AP.aging, { today: '2026-03-31', page: 1, pageSize: 50 }, demo));
    expect(aging.list.find((r: any) => r.id === supplier)).toMatchObject({ advance: '300.00' });
    await verifyClean();
    await ok(t.call('oms', REFUND.reverse, { id: saved.id }, finance));
    expect(await unallocated(payment.id)).toBe('500.00');
    await verifyClean();
  });
});

describe('drafts', () => {
  it('a draft is cancelled or deleted like a receipt, the advance untouched', async () => {
    const client = await newClient();
    const receipt = await advance({ clientId: client }, '100.00', { currencyId: cny });
    const d1 = await ok(t.call('oms', REFUND.save, { partyType: 'client', clientId: client, lines: [{ payDocumentId: receipt.id, amount: '100.00' }] }, finance));
    await ok(t.call('oms', REFUND.cancel, { id: d1.id }, finance));
    expect((await ok(t.call('oms', REFUND.get, { id: d1.id }, finance))).status).toBe('cancelled');
    const d2 = await ok(t.call('oms', REFUND.save, { partyType: 'client', clientId: client, lines: [{ payDocumentId: receipt.id, amount: '100.00' }] }, finance));
    await ok(t.call('oms', REFUND.remove, { id: d2.id }, finance));
    expect(await unallocated(receipt.id)).toBe('100.00');
  });
});

describe('财务报表 (cash in and out)', () => {
  it('counts a refund to a client as money out and one from a supplier as money in, on the refund date', async () => {
    const client = await newClient();
    const supplier = await newSupplier();
    const receipt = await advance({ clientId: client }, '100.00', { payDate: '2025-05-02' });
    const payment = await advance({ supplierId: supplier }, '200.00', { payDate: '2025-05-02' });
    await ok(t.call('oms', REFUND.save, { partyType: 'client', clientId: client, refundDate: '2025-05-03', method: 'cash', post: true, lines: [{ payDocumentId: receipt.id, amount: '30.00' }] }, finance));
    await ok(t.call('oms', REFUND.save, { partyType: 'supplier', supplierId: supplier, refundDate: '2025-05-04', method: 'bank', post: true, lines: [{ payDocumentId: payment.id, amount: '50.00' }] }, finance));
    // a draft moved no money
    await ok(t.call('oms', REFUND.save, { partyType: 'client', clientId: client, refundDate: '2025-05-05', lines: [{ payDocumentId: receipt.id, amount: '1.00' }] }, finance));
    const month = await ok(t.call('oms', '023127', { page: 1, pageSize: 50, groupBy: 'month', filters: { dateRange: ['2025-05-01', '2025-05-31'] } }, demo));
    // 收款 / 付款 are the 收付款单 alone (they agree with 026001); the refunds have their own columns and move the net
    expect(month.totals).toEqual({ receiptCount: 1, receiptAmount: '100.00', paymentCount: 1, paymentAmount: '200.00', refundInAmount: '50.00', refundOutAmount: '30.00', netAmount: '-80.00' });
    const cash = await ok(t.call('oms', '023127', { page: 1, pageSize: 50, groupBy: 'day', filters: { dateRange: ['2025-05-01', '2025-05-31'], method: 'cash' } }, demo));
    expect(cash.totals).toEqual({ receiptCount: 0, receiptAmount: '0.00', paymentCount: 0, paymentAmount: '0.00', refundInAmount: '0.00', refundOutAmount: '30.00', netAmount: '-30.00' });
  });
});
