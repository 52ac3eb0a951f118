// The payable side under its own screen and rights (应付账龄, oms 026301–026305) and statements per currency
// (a party's statement in one currency lists only that currency's items and payments, in that currency;
// without a currency it is in company currency as before). On a real database (SQLite, or PostgreSQL
// when DATABASE_URL is set), every figure computed here from the amounts the test entered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startTestServer, type TestServer } from './helpers.ts';
import { xlsxRows } from './trade-flow.ts';

let t: TestServer;
let demo: string;
let demo2: string;
let finance: string;
let sales: string;
let usd: number;
let cny: number;
let supplier: number;
let client: number;

const AP = { aging: '026301', items: '026302', statement: '026303', exportAging: '026304', exportStatement: '026305' };
const AR = { aging: '026201', statement: '026203' };
const PAY_SAVE = '026003';
const OPEN_ITEMS = '026010';
const OB_SAVE = '026213';

async function opening(body: Record<string, unknown>) {
  return ok(t.call('oms', OB_SAVE, { post: true, ...body }, demo));
}

async function openItems(partyType: 'client' | 'supplier', partyId: number) {
  return (await ok(t.call('oms', OPEN_ITEMS, { partyType, partyId }, demo))).list as any[];
}

beforeAll(async () => {
  t = await startTestServer({ LOGIN_MAX_FAILURES: '1000', LOGIN_MAX_FAILURES_PER_IP: '100000' });
  demo = await t.login('demo', 'admin', 'demo123');
  demo2 = await t.login('demo2', 'admin', 'demo123');
  finance = await t.login('demo', 'finance', 'demo123');
  sales = await t.login('demo', 'sales', 'demo123');
  const currencies = (await ok(t.call('cdm', '012101', { page: 1, pageSize: 10 }, demo))).list;
  usd = currencies.find((c: any) => c.code === 'USD').id;
  cny = currencies.find((c: any) => c.code === 'CNY').id;
  // USD 7.1234 since 2026-01-01 (seed); 7.2000 from 2026-03-01
  await ok(t.call('cdm', '012503', { currencyId: usd, rateDate: '2026-03-01', rate: '7.2' }, demo));
  supplier = (await ok(t.call('cdm', '011603', { code: 'PS01', name: '应付测试供应商' }, demo))).id;
  client = (await ok(t.call('cdm', '011703', { code: 'PC01', name: '分币种对账客户' }, demo))).id;
  // supplier: CNY 1,000.00 due 2026-02-10 (old), CNY 500.00 due 2026-05-20, USD 100.00 dated 2026-02-01 due 2026-04-15
  await opening({ side: 'payable', supplierId: supplier, amount: '1000.00', docDate: '2026-01-10', dueDate: '2026-02-10', reference: 'AP-CNY-1' });
  await opening({ side: 'payable', supplierId: supplier, amount: '500.00', docDate: '2026-05-01', dueDate: '2026-05-20', reference: 'AP-CNY-2' });
  await opening({ side: 'payable', supplierId: supplier, amount: '100.00', currencyId: usd, docDate: '2026-02-01', dueDate: '2026-04-15', reference: 'AP-USD-1' });
  // client: CNY 800.00 and USD 50.00, both 2026-02-01
  await opening({ side: 'receivable', clientId: client, amount: '800.00', docDate: '2026-02-01', dueDate: '2026-03-01', reference: 'AR-CNY' });
  await opening({ side: 'receivable', clientId: client, amount: '50.00', currencyId: usd, docDate: '2026-02-01', dueDate: '2026-03-01', reference: 'AR-USD' });
});

afterAll(async () => {
  await t?.close();
});

describe('payables aging (应付账龄)', () => {
  it('buckets each supplier\'s open payables from an injected day; totals are the rows; the accountant may read it, a sales clerk may not', async () => {
    // USD 100.00 at 7.1234 = 712.34 in company currency
    const aging = await ok(t.call('oms', AP.aging, { today: '2026-05-25', page: 1, pageSize: 50 }, finance));
    const row = aging.list.find((r: any) => r.id === supplier);
    expect(row).toMatchObject({ code: 'PS01', name: '应付测试供应商', partyType: 'supplier', items: 3, oldestDue: '2026-02-10' });
    // due 2026-05-20 → 5 days late; 2026-04-15 → 40 days; 2026-02-10 → 104 days
    expect([row.notDue, row.d1to30, row.d31to60, row.d61to90, row.over90, row.total, row.overdue]).toEqual(['0.00', '500.00', '712.34', '0.00', '1000.00', '2212.34', '2212.34']);
    expect(row.creditLimit).toBeUndefined();
    const sum = (f: string) => (aging.list as any[]).reduce((s, r) => s + Math.round(Number(r[f]) * 100), 0);
    expect(Math.round(Number(aging.totals.total) * 100)).toBe(sum('total'));
    // asking the payable code for clients still answers suppliers: the code is the side
    const asClients = await ok(t.call('oms', AP.aging, { partyType: 'client', today: '2026-05-25', page: 1, pageSize: 50 }, finance));
    expect(asClients.list.map((r: any) => r.id)).toEqual(aging.list.map((r: any) => r.id));
    expect(asClients.list.some((r: any) => r.id === client && r.name === '分币种对账客户')).toBe(false);
    const refused = await t.call('oms', AP.aging, { page: 1, pageSize: 50 }, sales);
    expect(refused.code).not.toBe('200');
    expect(refused.data).toBeFalsy();
  });

  it('one supplier\'s items with bucket and days overdue; a payment reduces them; the other company sees no such supplier', async () => {
    const items = await openItems('supplier', supplier);
    const usdItem = items.find((i: any) => i.currencyId === usd);
    // pay USD 40.00 of the USD item at 2026-05-01 (7.2000)
    await ok(t.call('oms', PAY_SAVE, { direction: 'payment', supplierId: supplier, payDate: '2026-05-01', currencyId: usd, amount: '40.00', post: true, lines: [{ openItemId: usdItem.id, amount: '40.00' }] }, demo));
    const detail = await ok(t.call('oms', AP.items, { id: supplier, today: '2026-05-25' }, finance));
    expect(detail.party).toMatchObject({ code: 'PS01', partyType: 'supplier' });
    const u = detail.list.find((i: any) => i.currencyCode === 'USD');
    expect(u).toMatchObject({ amount: '100.00', openAmount: '60.00', bucketText: '逾期31-60天', daysOverdue: 40 });
    // 60.00 at the item's rate 7.1234 = 427.40 (open base = 712.34 − 284.94)
    expect(u.openBase).toBe('427.40');
    expect(detail.totals.total).toBe('1927.40');
    const other = await t.call('oms', AP.items, { id: supplier }, demo2);
    expect(other.code).not.toBe('200');
    expect(other.msg).toContain('供应商不存在');
  });

  it('exports the payables aging as a workbook', async () => {
    const res = await t.raw('oms', AP.exportAging, { today: '2026-05-25' }, finance);
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-type'])).toContain('spreadsheetml');
  });

  it('money paid ahead to a supplier shows as 预付款 beside its open payables, with the net; on screen and in the export', async () => {
    // 300.00 paid on 2026-05-02 and set against nothing: a prepayment
    await ok(t.call('oms', PAY_SAVE, { direction: 'payment', supplierId: supplier, payDate: '2026-05-02', amount: '300.00', post: true }, demo));
    const aging = await ok(t.call('oms', AP.aging, { today: '2026-05-25', page: 1, pageSize: 50 }, finance));
    const row = aging.list.find((r: any) => r.id === supplier);
    // open 1,927.40 (the test above) − 300.00 paid ahead
    expect([row.total, row.advance, row.balance]).toEqual(['1927.40', '300.00', '1627.40']);
    const sum = (f: string) => (aging.list as any[]).reduce((s, r) => s + Math.round(Number(r[f]) * 100), 0);
    expect([Math.round(Number(aging.totals.advance) * 100), Math.round(Number(aging.totals.balance) * 100)]).toEqual([sum('advance'), sum('balance')]);
    const sheet = await xlsxRows((await t.raw('oms', AP.exportAging, { today: '2026-05-25' }, finance)).rawPayload);
    expect(sheet[0]!.slice(-3)).toEqual(['未结合计', '预付款', '净额']);
    expect(sheet.find((r) => r[0] === 'PS01')!.slice(-3)).toEqual([1927.4, 300, 1627.4]);
    expect(sheet.at(-1)![0]).toBe('合计');
  });
});

describe('statements per currency', () => {
  it('a supplier\'s statement in USD lists only the USD item and payment, in dollars; in company currency everything converted', async () => {
    const inUsd = await ok(t.call('oms', AP.statement, { id: supplier, dateFrom: '2026-01-01', dateTo: '2026-05-31', currencyId: usd }, finance));
    expect(inUsd.currency).toMatchObject({ code: 'USD' });
    expect(inUsd.currencies.map((c: any) => c.code)).toEqual(['CNY', 'USD']);
    expect(inUsd.openingBalance).toBe('0.00');
    expect(inUsd.rows.map((r: any) => [r.date, r.kind, r.debit, r.credit, r.balance])).toEqual([
      ['2026-02-01', '期初应付', '100.00', null, '100.00'],
      ['2026-05-01', '付款核销', null, '40.00', '60.00'],
    ]);
    expect(inUsd.closingBalance).toBe('60.00');
    const inCny = await ok(t.call('oms', AP.statement, { id: supplier, dateFrom: '2026-01-01', dateTo: '2026-05-31', currencyId: cny }, finance));
    expect(inCny.rows.map((r: any) => r.debit)).toEqual(['1000.00', '500.00']);
    expect(inCny.closingBalance).toBe('1500.00');
    // company currency: 1,000 + 712.34 + 500 − 284.94 (40.00 at the item's rate) = 1,927.40 = the aging total
    const base = await ok(t.call('oms', AP.statement, { id: supplier, dateFrom: '2026-01-01', dateTo: '2026-05-31' }, finance));
    expect(base.currency).toBeNull();
    expect(base.closingBalance).toBe('1927.40');
    expect(base.list.find((r: any) => r.key === 'closing')).toMatchObject({ kind: '期末余额', balance: '1927.40' });
    // the 300.00 paid ahead (the test above) is set against it: the statement closes at the aging's 余额 (issue 33 §5)
    expect(base.list.slice(-2).map((r: any) => [r.kind, r.balance])).toEqual([['预付款余额（未核销）', '-300.00'], ['净余额', '1627.40']]);
    expect([base.advanceBalance, base.netBalance]).toEqual(['300.00', '1627.40']);
    const aging = await ok(t.call('oms', AP.aging, { today: '2026-05-31', page: 1, pageSize: 50 }, finance));
    expect(aging.list.find((r: any) => r.id === supplier).balance).toBe(base.netBalance);
    // as of a day before the payment, no advance yet: the statement closes at its 期末余额
    const before = await ok(t.call('oms', AP.statement, { id: supplier, dateFrom: '2026-01-01', dateTo: '2026-05-01' }, finance));
    expect(before.advanceBalance).toBe('0.00');
    expect(before.list.at(-1).kind).toBe('期末余额');
  });

  it('a client\'s statement in each currency it has items in, the opening balance of a later period in that currency too', async () => {
    const usdBefore = await openItems('client', client);
    const usdItem = usdBefore.find((i: any) => i.currencyId === usd);
    await ok(t.call('oms', PAY_SAVE, { direction: 'receipt', clientId: client, payDate: '2026-03-05', currencyId: usd, amount: '20.00', post: true, lines: [{ openItemId: usdItem.id, amount: '20.00' }] }, demo));
    const march = { id: client, dateFrom: '2026-03-01', dateTo: '2026-03-31' };
    const inUsd = await ok(t.call('oms', AR.statement, { ...march, currencyId: usd }, demo));
    expect([inUsd.openingBalance, inUsd.totalDebit, inUsd.totalCredit, inUsd.closingBalance]).toEqual(['50.00', '0.00', '20.00', '30.00']);
    expect(inUsd.rows.map((r: any) => r.kind)).toEqual(['收款核销']);
    const inCny = await ok(t.call('oms', AR.statement, { ...march, currencyId: cny }, demo));
    expect([inCny.openingBalance, inCny.closingBalance, inCny.rows.length]).toEqual(['800.00', '800.00', 0]);
    // company currency: 800 + 50 × 7.1234 (356.17) − 20 × 7.1234 (142.47) = 1,013.70
    const base = await ok(t.call('oms', AR.statement, march, demo));
    expect([base.openingBalance, base.closingBalance]).toEqual(['1156.17', '1013.70']);
    // a currency it has no items in: an empty statement in that currency, not the others' figures
    const eur = (await ok(t.call('cdm', '012101', { page: 1, pageSize: 10 }, demo))).list.find((c: any) => c.code === 'EUR');
    const none = await ok(t.call('oms', AR.statement, { ...march, currencyId: eur.id }, demo));
    expect([none.openingBalance, none.closingBalance, none.rows.length]).toEqual(['0.00', '0.00', 0]);
    // the client statement code cannot read another company's currency
    const bad = await t.call('oms', AR.statement, { ...march, currencyId: 999999 }, demo);
    expect(bad.code).not.toBe('200');
    expect(bad.msg).toContain('币种不存在');
  });

  it('exports a statement in one currency', async () => {
    const res = await t.raw('oms', AP.exportStatement, { id: supplier, dateFrom: '2026-01-01', dateTo: '2026-05-31', currencyId: usd }, finance);
    expect(res.statusCode).toBe(200);
    expect(decodeURIComponent(String(res.headers['content-disposition']))).toContain('USD');
  });
});
