// Finance on a real database (SQLite, or PostgreSQL when DATABASE_URL is set): opening balances feed the
// open-items ledger; one receipt allocated over three items in two currencies books the exchange
// difference; over-allocation is refused in Chinese and changes nothing; an advance is used later;
// reversal and a bounced cheque reopen what they settled; aging buckets and the statement from an
// injected "today"; npm run verify's finance check clean and catching a tampered open amount; purchase
// invoice payables paid through a payment; rights and companies kept apart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyFinance } from '../../src/server/domain/finance/verify.ts';
import { ok, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let demo: string;
let demo2: string;
let clerk: string;
let usd: number;
let cny: number;

const PAY = { list: '026001', get: '026002', save: '026003', post: '026005', reverse: '026007', allocate: '026009', openItems: '026010', advances: '026012' };
const CHQ = { list: '026101', deposit: '026102', clear: '026103', bounce: '026104' };
const AR = { aging: '026201', items: '026202', statement: '026203' };
const OB = { save: '026213', cancel: '026216' };

let seq = 0;
async function newClient(extra: Record<string, unknown> = {}): Promise<number> {
  const code = `FC${String(++seq).padStart(3, '0')}`;
  return (await ok(t.call('cdm', '011703', { code, name: `财务测试客户${seq}`, ...extra }, demo))).id;
}

/** A posted opening receivable: its open item. */
async function opening(clientId: number, amount: string, extra: Record<string, unknown> = {}) {
  const doc = await ok(t.call('oms', OB.save, { side: 'receivable', clientId, amount, docDate: '2026-02-01', post: true, ...extra }, demo));
  const items = await ok(t.call('oms', PAY.openItems, { partyType: 'client', partyId: clientId }, demo));
  return { doc, item: items.list.find((i: any) => i.docNo === doc.docNo) };
}

async function itemsOf(clientId: number, all = true) {
  return (await ok(t.call('oms', AR.items, { id: clientId, all, today: '2026-06-01' }, demo))).list as any[];
}

async function verifyClean() {
  expect((await verifyFinance(t.database.db)).differences.map((d) => d.message)).toEqual([]);
}

beforeAll(async () => {
  t = await startTestServer({ LOGIN_MAX_FAILURES: '1000', LOGIN_MAX_FAILURES_PER_IP: '100000' }, undefined, { demoWalk: true });
  demo = await t.login('demo', 'admin', 'demo123');
  demo2 = await t.login('demo2', 'admin', 'demo123');
  clerk = await t.login('demo', 'clerk', 'demo123');
  const currencies = (await ok(t.call('cdm', '012101', { page: 1, pageSize: 10 }, demo))).list;
  usd = currencies.find((c: any) => c.code === 'USD').id;
  cny = currencies.find((c: any) => c.code === 'CNY').id;
  // USD 7.1234 since 2026-01-01 (seed); 7.2000 from 2026-03-01
  await ok(t.call('cdm', '012503', { currencyId: usd, rateDate: '2026-03-01', rate: '7.2' }, demo));
});

afterAll(async () => {
  await t?.close();
});

describe('receipts allocated to open items', () => {
  let client: number;
  let a: any; let b: any; let c: any;
  let receipt: any;

  it('one receipt over three items in two currencies, with the exchange difference on the allocation', async () => {
    client = await newClient({ paymentDays: 30 });
    a = (await opening(client, '1000.00', { reference: 'OLD-1' })).item;
    b = (await opening(client, '100.00', { currencyId: usd })).item;
    c = (await opening(client, '500.00')).item;
    // due dates from the client's payment terms
    expect([a.dueDate, b.dueDate, c.dueDate]).toEqual(['2026-03-03', '2026-03-03', '2026-03-03']);
    expect(b.currencyCode).toBe('USD');
    const saved = await ok(t.call('oms', PAY.save, {
      direction: 'receipt', clientId: client, payDate: '2026-03-10', currencyId: cny, amount: '1990.00', bankFee: '10.00', method: 'bank', post: true,
      lines: [{ openItemId: a.id, amount: '1000.00' }, { openItemId: b.id, amount: '100.00' }, { openItemId: c.id, amount: '200.00' }],
    }, demo));
    receipt = await ok(t.call('oms', PAY.get, { id: saved.id }, demo));
    expect(receipt.status).toBe('posted');
    // 1000 + 100 USD × 7.2 + 200 = 1920 of 2000 (1990 received + 10 bank fee): 80 stays as an advance
    expect(receipt.allocatedAmount).toBe('1920.00');
    expect(receipt.unallocatedAmount).toBe('80.00');
    const usdRow = receipt.allocations.find((r: any) => r.itemDocNo === b.docNo);
    expect(usdRow).toMatchObject({ amount: '100.00', paidAmount: '720.00', itemRate: '7.123400', payRate: '1.000000', itemBase: '712.34', paidBase: '720.00', exchangeDiff: '7.66' });
    expect([receipt.exchangeDiffTotal, receipt.exchangeResult]).toEqual(['7.66', '汇兑收益 7.66']);
    const items = await itemsOf(client);
    expect(items.map((i) => [i.docNo, i.openAmount, i.status])).toEqual([[a.docNo, '0.00', 'settled'], [b.docNo, '0.00', 'settled'], [c.docNo, '300.00', 'open']]);
    const adv = await ok(t.call('oms', PAY.advances, { page: 1, pageSize: 50, clientId: client }, demo));
    expect(adv.list.map((r: any) => [r.docNo, r.unallocatedAmount, r.kindText])).toEqual([[receipt.docNo, '80.00', '预收款']]);
    await verifyClean();
  });

  it('over-allocation is refused in Chinese and changes nothing', async () => {
    const before = await itemsOf(client);
    const over = await t.call('oms', PAY.save, { direction: 'receipt', clientId: client, payDate: '2026-03-11', amount: '1000', post: true, lines: [{ openItemId: c.id, amount: '300.01' }] }, demo);
    expect(over.code).toBe('FINANCE_OVER_ITEM_4171');
    expect(over.msg).toContain('未结金额为 300.00');
    const short = await t.call('oms', PAY.save, { direction: 'receipt', clientId: client, payDate: '2026-03-11', amount: '50', post: true, lines: [{ openItemId: c.id, amount: '60' }] }, demo);
    expect(short.code).toBe('FINANCE_OVER_PAYMENT_4172');
    // the advance: 80 left, 100 asked
    const more = await t.call('oms', PAY.allocate, { id: receipt.id, lines: [{ openItemId: c.id, amount: '100.00' }] }, demo);
    expect(more.code).toBe('FINANCE_OVER_PAYMENT_4172');
    expect(more.msg).toContain('未核销金额为 80.00');
    expect(await itemsOf(client)).toEqual(before);
    expect((await ok(t.call('oms', PAY.get, { id: receipt.id }, demo))).allocatedAmount).toBe('1920.00');
    const docs = await ok(t.call('oms', PAY.list, { page: 1, pageSize: 50, clientId: client }, demo));
    expect(docs.total).toBe(1);
  });

  it('the advance is used against a later item', async () => {
    const unknown = await t.call('oms', PAY.allocate, { id: receipt.id, itemDocNo: 'QC-NONE', allocAmount: '1' }, demo);
    expect(unknown.msg).toBe('往来单位没有单号为 QC-NONE 的未结款项');
    // as the document's 核销 form sends it: the item's number typed, the document's own values alongside
    const r = await ok(t.call('oms', PAY.allocate, { ...receipt, id: receipt.id, itemDocNo: c.docNo, allocAmount: '80.00' }, demo));
    expect(r).toMatchObject({ allocated: '2000.00', unallocated: '0.00' });
    expect((await itemsOf(client)).find((i) => i.id === c.id).openAmount).toBe('220.00');
    expect((await ok(t.call('oms', PAY.advances, { page: 1, pageSize: 50, clientId: client }, demo))).total).toBe(0);
    await verifyClean();
  });

  it('reversal reopens everything the receipt settled', async () => {
    const doc = await ok(t.call('oms', PAY.get, { id: receipt.id }, demo));
    await ok(t.call('oms', PAY.reverse, { id: receipt.id, version: doc.version }, demo));
    const after = await ok(t.call('oms', PAY.get, { id: receipt.id }, demo));
    expect(after.status).toBe('reversed');
    expect(after.allocatedAmount).toBe('0.00');
    // four allocations and four reversal rows, nothing rewritten
    expect(after.allocations.map((r: any) => r.kind)).toEqual(['allocate', 'allocate', 'allocate', 'allocate', 'reverse', 'reverse', 'reverse', 'reverse']);
    expect((await itemsOf(client)).map((i) => [i.openAmount, i.status])).toEqual([['1000.00', 'open'], ['100.00', 'open'], ['500.00', 'open']]);
    await verifyClean();
  });

  it('a post-dated cheque settles nothing until cleared; a bounce reopens, charges and flags the client; re-deposit and clear settle again', async () => {
    const saved = await ok(t.call('oms', PAY.save, {
      direction: 'receipt', clientId: client, payDate: '2026-03-12', amount: '300', method: 'cheque', chequeNo: 'CHQ-001', chequeDate: '2026-04-12', post: true,
      lines: [{ openItemId: a.id, amount: '300' }],
    }, demo));
    expect((await itemsOf(client)).find((i) => i.id === a.id).openAmount).toBe('1000.00');
    const early = await t.call('oms', PAY.allocate, { id: saved.id, lines: [{ openItemId: c.id, amount: '1' }] }, demo);
    expect(early.code).toBe('FINANCE_CHEQUE_PENDING_4175');
    const maturing = await ok(t.call('oms', CHQ.list, { page: 1, pageSize: 50, days: 30, today: '2026-03-20' }, demo));
    expect(maturing.list.map((r: any) => [r.chequeNo, r.chequeStatusText, r.postDated, r.daysToDue])).toEqual([['CHQ-001', '已收票', true, 23]]);
    expect((await ok(t.call('oms', CHQ.list, { page: 1, pageSize: 50, days: 10, today: '2026-03-20' }, demo))).total).toBe(0);
    await ok(t.call('oms', CHQ.deposit, { id: saved.id }, demo));
    await ok(t.call('oms', CHQ.clear, { id: saved.id }, demo));
    expect((await itemsOf(client)).find((i) => i.id === a.id).openAmount).toBe('700.00');
    const again = await t.call('oms', CHQ.clear, { id: saved.id }, demo);
    expect(again.code).toBe('FINANCE_CHEQUE_STATUS_4178');
    expect(again.msg).toContain('已兑现');
    // cleared is final; a cheque that bounces after deposit:
    const second = await ok(t.call('oms', PAY.save, {
      direction: 'receipt', clientId: client, payDate: '2026-03-12', amount: '200', method: 'cheque', chequeNo: 'CHQ-002', chequeDate: '2026-03-12', post: true,
      lines: [{ openItemId: c.id, amount: '200' }],
    }, demo));
    expect((await itemsOf(client)).find((i) => i.id === c.id).openAmount).toBe('300.00');
    await ok(t.call('oms', CHQ.deposit, { id: second.id }, demo));
    const bounced = await ok(t.call('oms', CHQ.bounce, { id: second.id, charge: '15.50' }, demo));
    expect(bounced).toMatchObject({ chequeStatus: 'bounced', reopened: 1, charge: '15.50' });
    const items = await itemsOf(client);
    expect(items.find((i) => i.id === c.id).openAmount).toBe('500.00');
    expect(items.find((i) => i.sourceType === 'chequeBounce')).toMatchObject({ kind: '退票费', openAmount: '15.50' });
    expect((await ok(t.call('cdm', '011702', { id: client }, demo))).chequeBounces).toBe(1);
    await ok(t.call('oms', CHQ.deposit, { id: second.id }, demo));
    await ok(t.call('oms', CHQ.clear, { id: second.id }, demo));
    expect((await itemsOf(client)).find((i) => i.id === c.id).openAmount).toBe('300.00');
    await verifyClean();
    // 今日收款 of that day: both cheques, by account and currency
    const proceeds = await ok(t.call('oms', '026013', { page: 1, pageSize: 50, date: '2026-03-12' }, demo));
    expect(proceeds.list.map((r: any) => [r.account, r.method, r.currencyCode, r.receipts, r.amount])).toEqual([['（未填账户）', 'cheque', 'CNY', 2, '500.00']]);
    expect(proceeds.totals).toEqual({ receipts: 2, amountBase: '500.00' });
  });
});

describe('aging and statement', () => {
  let client: number;

  it('aging buckets from an injected today; totals are the sum of the rows', async () => {
    client = await newClient();
    const due = ['2026-06-10', '2026-05-20', '2026-04-10', '2026-03-10', '2026-01-15'];
    for (const [i, d] of due.entries()) await opening(client, `${(i + 1) * 100}.00`, { docDate: '2026-01-10', dueDate: d });
    await opening(client, '50.00', { currencyId: usd, docDate: '2026-01-10', dueDate: '2026-06-01' });
    const r = await ok(t.call('oms', AR.aging, { today: '2026-06-01', keyword: '财务测试客户', page: 1, pageSize: 50 }, demo));
    const row = r.list.find((x: any) => x.id === client);
    // 50 USD at 7.1234 = 356.17, due today: not yet overdue
    expect(row).toMatchObject({ notDue: '456.17', d1to30: '200.00', d31to60: '300.00', d61to90: '400.00', over90: '500.00', total: '1856.17', overdue: '1400.00' });
    for (const k of ['notDue', 'd1to30', 'd31to60', 'd61to90', 'over90', 'total']) {
      const sum = r.list.reduce((s: number, x: any) => s + Math.round(Number(x[k]) * 100), 0);
      expect(Math.round(Number(r.totals[k]) * 100), k).toBe(sum);
    }
    const items = await ok(t.call('oms', AR.items, { id: client, today: '2026-06-01' }, demo));
    expect(items.list.map((i: any) => [i.bucketText, i.daysOverdue])).toEqual([
      ['逾期90天以上', 137], ['逾期61-90天', 83], ['逾期31-60天', 52], ['逾期1-30天', 12], ['未到期', 0], ['未到期', 0],
    ]);
    expect(items.totals.total).toBe('1856.17');
    // the finance desk lists them as to-dos: four overdue, two falling due within 10 days, each with its screen
    const name = (await ok(t.call('cdm', '011702', { id: client }, demo))).name;
    const desk = await ok(t.call('oms', '026014', { today: '2026-06-01', days: 10, page: 1, pageSize: 500 }, demo));
    const mine = desk.list.filter((r: any) => r.partyName === name);
    expect(mine.map((r: any) => [r.taskText, r.date, r.note])).toEqual([
      ['逾期应收', '2026-01-15', '逾期 137 天'], ['逾期应收', '2026-03-10', '逾期 83 天'], ['逾期应收', '2026-04-10', '逾期 52 天'], ['逾期应收', '2026-05-20', '逾期 12 天'],
      ['即将到期应收', '2026-06-01', '今天到期'], ['即将到期应收', '2026-06-10', '9 天后到期'],
    ]);
    expect(mine[0].route).toBe(`/financial/accounts_receivable_detail/${client}`);
  });

  it('statement: opening balance, items, receipts, closing balance equal to the open items', async () => {
    const items = (await ok(t.call('oms', PAY.openItems, { partyType: 'client', partyId: client }, demo))).list;
    // an item dated inside the period, then a receipt in it
    const inside = (await opening(client, '80.00', { docDate: '2026-05-05', dueDate: '2026-05-05' })).item;
    await ok(t.call('oms', PAY.save, {
      direction: 'receipt', clientId: client, payDate: '2026-05-10', amount: '230', post: true,
      lines: [{ openItemId: items[0].id, amount: '150' }, { openItemId: inside.id, amount: '80' }],
    }, demo));
    const s = await ok(t.call('oms', AR.statement, { id: client, dateFrom: '2026-05-01', dateTo: '2026-05-31' }, demo));
    expect(s.openingBalance).toBe('1856.17');
    expect(s.rows.map((r: any) => [r.date, r.kind, r.debit, r.credit, r.balance])).toEqual([
      ['2026-05-05', '期初应收', '80.00', null, '1936.17'],
      ['2026-05-10', '收款核销', null, '230.00', '1706.17'],
    ]);
    expect(s.closingBalance).toBe('1706.17');
    const aging = await ok(t.call('oms', AR.items, { id: client, today: '2026-06-01' }, demo));
    expect(aging.totals.total).toBe(s.closingBalance);
  });
});

describe('purchase-invoice payables', () => {
  it('a posted purchase invoice is an open payable of its supplier and can be paid; the payable stays in step', async () => {
    const inv = (await ok(t.call('oms', '020301', { page: 1, pageSize: 50, status: 'posted' }, demo))).list[0];
    expect(inv).toBeTruthy();
    const items = (await ok(t.call('oms', PAY.openItems, { partyType: 'supplier', partyId: inv.supplierId }, demo))).list;
    const item = items.find((i: any) => i.docNo === inv.docNo);
    expect(item).toMatchObject({ kind: '采购发票', openAmount: inv.totalAmount });
    const pay = await ok(t.call('oms', PAY.save, {
      direction: 'payment', supplierId: inv.supplierId, currencyId: item.currencyId, amount: '10.00', post: true, lines: [{ openItemId: item.id, amount: '10.00' }],
    }, demo));
    const detail = await ok(t.call('oms', '020302', { id: inv.id }, demo));
    expect(detail.payable.paidAmount).toBe('10.00');
    const cancel = await t.call('oms', '020305', { id: inv.id }, demo);
    expect(cancel.code).toBe('PURCHASE_INVOICE_PAID_4104');
    const aging = await ok(t.call('oms', AR.aging, { partyType: 'supplier', page: 1, pageSize: 50 }, demo));
    expect(aging.list.some((r: any) => r.id === inv.supplierId)).toBe(true);
    await ok(t.call('oms', PAY.reverse, { id: pay.id }, demo));
    expect((await ok(t.call('oms', '020302', { id: inv.id }, demo))).payable.paidAmount).toBe('0.00');
    await verifyClean();
  });
});

describe('verify, rights and companies', () => {
  it('verify catches a tampered open amount', async () => {
    const row = await t.database.db.selectFrom('openItem').select(['id', 'openAmount']).where('status', '=', 'open').orderBy('id').executeTakeFirstOrThrow();
    await t.database.db.updateTable('openItem').set({ openAmount: Number(row.openAmount) - 1 }).where('id', '=', row.id).execute();
    const r = await verifyFinance(t.database.db);
    expect(r.differences.map((d) => d.kind)).toEqual(['item', 'total']);
    const item = await t.database.db.selectFrom('openItem').select(['docNo', 'amount']).where('id', '=', row.id).executeTakeFirstOrThrow();
    const open = (Number(row.openAmount) / 100).toFixed(2);
    const tampered = ((Number(row.openAmount) - 1) / 100).toFixed(2);
    expect(r.differences[0]!.message).toMatch(new RegExp(`^款项 ${item.docNo}：原金额 ${(Number(item.amount) / 100).toFixed(2)} − 核销 [\\d.]+ = ${open}，记录的未结金额 ${tampered}（`));
    await t.database.db.updateTable('openItem').set({ openAmount: Number(row.openAmount) }).where('id', '=', row.id).execute();
    await verifyClean();
  });

  it('a clerk without finance rights is refused; another company sees nothing of these', async () => {
    const refused = await t.call('oms', PAY.list, { page: 1, pageSize: 10 }, clerk);
    expect(refused.code).toBe('COMMON_NO_RIGHT_4003');
    expect((await t.call('oms', AR.aging, { page: 1, pageSize: 10 }, clerk)).code).toBe('COMMON_NO_RIGHT_4003');
    const mine = (await ok(t.call('oms', PAY.list, { page: 1, pageSize: 10 }, demo))).list[0];
    expect((await t.call('oms', PAY.get, { id: mine.id }, demo2)).code).toBe('COMMON_NOT_FOUND_4004');
    expect((await ok(t.call('oms', AR.aging, { page: 1, pageSize: 10 }, demo2))).total).toBe(0);
    const item = await t.database.db.selectFrom('openItem').select(['id', 'partyId']).where('partyType', '=', 'client').executeTakeFirstOrThrow();
    expect((await t.call('oms', AR.items, { id: item.partyId }, demo2)).msg).toBe('客户不存在');
    const c2 = (await ok(t.call('cdm', '011703', { code: 'X2', name: '二公司客户' }, demo2))).id;
    const cross = await t.call('oms', PAY.save, { direction: 'receipt', clientId: c2, amount: '10', lines: [{ openItemId: item.id, amount: '1' }] }, demo2);
    expect(cross.code).toBe('COMMON_VALIDATION_4000');
    expect(cross.msg).toContain('应收应付款项不存在');
  });
});
