// The daily closing's payables and 自动日结 (issue 16) on a real database (SQLite, or PostgreSQL when
// DATABASE_URL is set), over company days driven by an injected clock (2027-03-10.., UTC+8):
// - each closed day keeps every supplier's open payables (payable_snapshot), equal to a recomputation over
//   every open item and allocation up to the end of that day;
// - 应付报表 (oms 023125) shows 期末未付 from snapshot + the movements since, equal to that recomputation,
//   per supplier and at the end of the range; empty under a source filter;
// - two server processes on one database: past the company's midnight both run a pass at once and exactly
//   one closes the day (one closing, one audit entry 系统（自动日结）);
// - after downtime a pass closes every missing day in order, leaving a day closed by hand as it was;
//   日结记录 (023161) shows 自动 or the user; the timer runs the pass by itself (fake timers, no sleeps).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { companyDayRange } from '../../src/core/format.ts';
import { startAutoClosing } from '../../src/server/domain/reports/auto-closing.ts';
import { ok, startTestServer, type TestServer } from './helpers.ts';

const PAY = { save: '026003', openItems: '026010' };
const OB = { save: '026213' };
const R = { close: '023105', closings: '023161', payable: '023125' };

const D1 = '2027-03-10';
const D2 = '2027-03-11';
const D3 = '2027-03-12';
const D4 = '2027-03-13';
const D5 = '2027-03-14';
const D6 = '2027-03-15';

let a: TestServer;
let b: TestServer;
let demo: string;
let companyId: number;
let s1: number;
let s2: number;
let client: number;

/** The clock at an instant (UTC); a fresh token valid at it. */
async function at(iso: string) {
  vi.setSystemTime(new Date(iso));
  demo = await a.login('demo', 'admin', 'demo123');
}

const endOf = (day: string) => companyDayRange(day, 8)[1];

/** Each supplier's open payables (cents text) at the end of a day, from every item and allocation. */
async function ledgerPayables(day: string): Promise<Record<string, string>> {
  const end = endOf(day);
  const items = await a.database.db.selectFrom('openItem').select(['id', 'partyId', 'amountBase', 'status', 'createdAt', 'updatedAt'])
    .where('companyId', '=', companyId).where('side', '=', 'payable').where('partyType', '=', 'supplier').execute();
  const allocs = await a.database.db.selectFrom('financeAllocation').select(['itemId', 'itemBase', 'createdAt']).where('companyId', '=', companyId).execute();
  const party = new Map(items.map((i) => [Number(i.id), String(Number(i.partyId))]));
  const out: Record<string, bigint> = {};
  for (const i of items) {
    if (String(i.createdAt) > end || (i.status === 'cancelled' && String(i.updatedAt) <= end)) continue;
    out[String(Number(i.partyId))] = (out[String(Number(i.partyId))] ?? 0n) + BigInt(String(i.amountBase));
  }
  for (const x of allocs) {
    const k = party.get(Number(x.itemId));
    if (k && String(x.createdAt) <= end) out[k] = (out[k] ?? 0n) - BigInt(String(x.itemBase));
  }
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== 0n).map(([k, v]) => [k, v.toString()]));
}

async function payableSnapshot(day: string): Promise<Record<string, string>> {
  const rows = await a.database.db.selectFrom('payableSnapshot').select(['supplierId', 'balance']).where('companyId', '=', companyId).where('day', '=', day).execute();
  return Object.fromEntries(rows.map((r) => [String(Number(r.supplierId)), String(r.balance)]));
}

const yuan = (cents: string | bigint) => (Number(cents) / 100).toFixed(2);

async function openingPayable(supplierId: number, amount: string, docDate: string) {
  const doc = await ok(a.call('oms', OB.save, { side: 'payable', supplierId, amount, docDate, post: true }, demo));
  const items = await ok(a.call('oms', PAY.openItems, { partyType: 'supplier', partyId: supplierId }, demo));
  return items.list.find((i: any) => i.docNo === doc.docNo);
}

async function closings() {
  return (await ok(a.call('oms', R.closings, { page: 1, pageSize: 50 }, demo))).list as Array<Record<string, any>>;
}

async function autoAudits(day: string) {
  return a.database.db.selectFrom('auditLog').select(['userName', 'accountId', 'action']).where('companyId', '=', companyId)
    .where('entity', '=', 'dailyClosing').where('recordLabel', '=', `自动日结 ${day}`).execute();
}

beforeAll(async () => {
  // the companies are created on day 1 (10:00 company time): that is where a never-closed company starts
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  vi.setSystemTime(new Date(`${D1}T02:00:00.000Z`));
  a = await startTestServer({ LOGIN_MAX_FAILURES: '1000', LOGIN_MAX_FAILURES_PER_IP: '100000' });
  // a second server process on the same database (the same SQLite file, or the same PostgreSQL database)
  b = await startTestServer({}, { dataDir: a.config.dataDir, databaseUrl: a.config.databaseUrl ?? undefined });
  await at(`${D1}T02:00:00.000Z`);
  companyId = Number((await a.database.db.selectFrom('company').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id);
  s1 = (await ok(a.call('cdm', '011603', { code: 'APS1', name: '应付供应商一' }, demo))).id;
  s2 = (await ok(a.call('cdm', '011603', { code: 'APS2', name: '应付供应商二' }, demo))).id;
  client = (await ok(a.call('cdm', '011703', { code: 'APC1', name: '应收客户一' }, demo))).id;
}, 120_000);

afterAll(async () => {
  vi.useRealTimers();
  await b?.close();
  await a?.close();
});

describe('payables in the daily closing and 自动日结', () => {
  it('a pass before any day has ended closes nothing', async () => {
    await openingPayable(s1, '1000.00', D1);
    await openingPayable(s2, '300.00', D1);
    await ok(a.call('oms', OB.save, { side: 'receivable', clientId: client, amount: '200.00', docDate: D1, post: true }, demo));
    expect(await a.autoClosing.runOnce()).toEqual([]);
    expect(await closings()).toEqual([]);
  });

  it('past midnight two servers run a pass at once: exactly one closes the day, by itself; payables = the recomputation', async () => {
    await at(`${D2}T02:00:00.000Z`);
    // PostgreSQL: truly at once. SQLite: one after the other — two connections of one Node process would wait
    // on each other's file lock inside a synchronous busy wait (separate processes, as deployed, do not)
    const [x, y] = a.database.dialect === 'postgres'
      ? await Promise.all([a.autoClosing.runOnce(), b.autoClosing.runOnce()])
      : [await a.autoClosing.runOnce(), await b.autoClosing.runOnce()];
    const closed = [...x, ...y].filter((c) => c.companyCode === 'demo');
    expect(closed.map((c) => c.day)).toEqual([D1]);
    expect(closed[0]).toMatchObject({ auto: true, payableRows: 2, receivableRows: 1 });
    expect(await autoAudits(D1)).toEqual([{ userName: '系统（自动日结）', accountId: null, action: 'close' }]);
    expect(await payableSnapshot(D1)).toEqual(await ledgerPayables(D1));
    expect(await payableSnapshot(D1)).toEqual({ [s1]: '100000', [s2]: '30000' });
    const list = await closings();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ day: D1, mode: 'auto', closedByName: '自动', payableRows: 2, times: 1 });
  });

  it('after downtime a pass closes every missing day in order; a day closed by hand stays the user’s', async () => {
    // day 2: a payment of 400.00 against S1's item, and a new payable of S2
    const item = (await ok(a.call('oms', PAY.openItems, { partyType: 'supplier', partyId: s1 }, demo))).list[0];
    await ok(a.call('oms', PAY.save, { direction: 'payment', supplierId: s1, payDate: D2, amount: '400.00', method: 'bank', post: true, lines: [{ openItemId: item.id, amount: '400.00' }] }, demo));
    await openingPayable(s2, '50.00', D2);
    // day 4: more of S1; then the servers are down until day 5, when admin closes day 3 by hand first
    await at(`${D4}T03:00:00.000Z`);
    await openingPayable(s1, '25.50', D4);
    await at(`${D5}T01:00:00.000Z`);
    await ok(a.call('oms', R.close, { day: D3 }, demo));
    const closed = (await b.autoClosing.runOnce()).filter((c) => c.companyCode === 'demo');
    expect(closed.map((c) => [c.day, c.prevDay])).toEqual([[D2, D1], [D4, D3]]);
    for (const d of [D1, D2, D3, D4]) expect(await payableSnapshot(d)).toEqual(await ledgerPayables(d));
    expect(await payableSnapshot(D4)).toEqual({ [s1]: '62550', [s2]: '35000' });
    const list = await closings();
    expect(list.map((c) => [c.day, c.mode, c.closedByName])).toEqual([[D4, 'auto', '自动'], [D3, 'manual', 'admin'], [D2, 'auto', '自动'], [D1, 'auto', '自动']]);
    expect(await autoAudits(D3)).toEqual([]);
    // nothing left to close: the next pass, on either server, does nothing
    expect((await a.autoClosing.runOnce()).filter((c) => c.companyCode === 'demo')).toEqual([]);
  });

  it('应付报表 shows 期末未付 from snapshot + movements: per supplier at the range’s end, by month at today', async () => {
    // today (day 5): one more payable after the last closing — read from the movements since
    await openingPayable(s2, '10.00', D5);
    const bySupplier = await ok(a.call('oms', R.payable, { page: 1, pageSize: 50, groupBy: 'supplier', filters: { dateRange: [D1, D4] } }, demo));
    const atD4 = await ledgerPayables(D4);
    const rows = Object.fromEntries(bySupplier.list.map((r: any) => [String(r.key), r.balance]));
    expect(rows).toEqual({ [s1]: yuan(atD4[s1]!), [s2]: yuan(atD4[s2]!) });
    expect(bySupplier.totals.balance).toBe(yuan(BigInt(atD4[s1]!) + BigInt(atD4[s2]!)));
    const byMonth = await ok(a.call('oms', R.payable, { page: 1, pageSize: 50, groupBy: 'month' }, demo));
    const now = await ledgerPayables(D5);
    const total = yuan(Object.values(now).reduce((s, v) => s + BigInt(v), 0n));
    expect(byMonth.list.map((r: any) => [r.month, r.balance])).toEqual([['2027-03', total]]);
    expect(byMonth.totals.balance).toBe(total);
    expect(byMonth.totals.open).toBe(total); // every item open or part-paid: the same cents by both roads
    // one supplier; and no balance under a source filter (a balance has no source)
    const one = await ok(a.call('oms', R.payable, { page: 1, pageSize: 50, groupBy: 'supplier', filters: { supplierId: s1 } }, demo));
    expect(one.list.map((r: any) => [r.key, r.balance])).toEqual([[String(s1), yuan(now[s1]!)]]);
    const bySource = await ok(a.call('oms', R.payable, { page: 1, pageSize: 50, groupBy: 'supplier', filters: { sourceType: 'openingBalance' } }, demo));
    expect(bySource.list.every((r: any) => r.balance === null)).toBe(true);
    expect(bySource.totals.balance).toBeNull();
  });

  it('the timer runs the pass by itself once the company’s midnight has passed', async () => {
    vi.useRealTimers();
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'], shouldAdvanceTime: true });
    vi.setSystemTime(new Date(`${D5}T12:00:00.000Z`)); // day 5, 20:00 company time
    const c = await startTestServer({ AUTO_CLOSE_MINUTES: '1' }, { dataDir: a.config.dataDir, databaseUrl: a.config.databaseUrl ?? undefined });
    try {
      expect(await c.autoClosing.runOnce()).toEqual([]); // the start-up pass found nothing to close
      vi.setSystemTime(new Date(`${D5}T16:00:30.000Z`)); // day 6, 00:00:30 company time
      await vi.advanceTimersByTimeAsync(60_000);
      demo = await a.login('demo', 'admin', 'demo123');
      // runOnce waits for the timer's pass under way; it then finds the day closed: the timer closed it
      expect(await c.autoClosing.runOnce()).toEqual([]);
      const list = await closings();
      expect(list[0]).toMatchObject({ day: D5, mode: 'auto', closedByName: '自动' });
      expect(await payableSnapshot(D5)).toEqual(await ledgerPayables(D5));
      expect(list.some((x) => x.day === D6)).toBe(false);
    } finally {
      await c.close();
      vi.useRealTimers();
      vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    }
  });

  it('a server stopping during a long catch-up ends it after the day under way; the next start closes the rest', async () => {
    vi.setSystemTime(new Date('2027-03-19T01:00:00.000Z')); // four days missing: 03-15 … 03-18
    const first = startAutoClosing(a.database, 0, (msg) => { if (msg.includes(' demo ')) void first.stop(); }, (e) => { throw e; });
    const closed = (await first.runOnce()).filter((c) => c.companyCode === 'demo');
    await first.stop();
    expect(closed.map((c) => c.day)).toEqual([D6]);
    const next = startAutoClosing(a.database, 0, () => undefined, (e) => { throw e; });
    expect((await next.runOnce()).filter((c) => c.companyCode === 'demo').map((c) => c.day)).toEqual(['2027-03-16', '2027-03-17', '2027-03-18']);
    await next.stop();
  });
});
