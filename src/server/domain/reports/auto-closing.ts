// 自动日结 (issue 16): the server closes each company's previous day by itself once the company's midnight
// has passed (its time zone), if nobody closed it by hand. A timer in every server process (AUTO_CLOSE_MINUTES,
// default 1; 0 = off) runs a pass at start-up and then every interval; each pass, per company, closes every day
// from its first closed day up to yesterday that has no closing, oldest first — so a server that was down
// catches up every missing day in order (a company that never closed a day starts at the day it was created;
// days before a company's first closing are not back-filled). Each day is its own
// transaction and a conditional insert (closing.ts closeDayIn, auto): with two processes on one PostgreSQL
// exactly one closes a day, the other finds it closed; a day closed by hand meanwhile is left as it is.
// Every closing is logged (the server log, and the audit log as 系统 without an account) and shows in 日结报表's
// 日结记录 as 自动. Time is read from Date (the clock tests inject); tests call runOnce() or advance the timer.
import { formatDate } from '../../../core/format.ts';
import { Tenant } from '../../catalog/tenant.ts';
import type { Database } from '../../db/connection.ts';
import { typed, type TypedDB } from '../../db/typed.ts';
import { inTransaction } from '../../http/transaction.ts';
import { writeAudit } from '../../http/logs.ts';
import { closeDayIn, companyToday, type ClosingResult } from './closing.ts';

export const AUTO_CLOSING_AUTHOR = '系统（自动日结）';
const ENDPOINT = 'autoClosing';

export interface AutoClosed extends ClosingResult {
  companyId: number;
  companyCode: string;
}

/** The calendar day after `day` ("YYYY-MM-DD"). */
export const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** Every day from `first` up to (not including) `today`. */
export function daysFrom(first: string, today: string): string[] {
  const out: string[] = [];
  for (let d = first; d < today; d = nextDay(d)) out.push(d);
  return out;
}

/**
 * The days a company should have closed and has not, oldest first: from its first closed day (or, never
 * closed, the day it was created) to yesterday, every day with no closing — after downtime the days missed,
 * and a gap left when someone closed a later day by hand.
 */
async function missingDays(db: TypedDB, companyId: number, createdDay: string, today: string): Promise<string[]> {
  const span = await db.selectFrom('dailyClosing').select((eb) => [eb.fn.min('day').as('first'), eb.fn.countAll().as('n')])
    .where('companyId', '=', companyId).where('day', '<', today).executeTakeFirst();
  const first = span?.first ? String(span.first) : createdDay;
  const all = daysFrom(first, today);
  if (Number(span?.n ?? 0) === all.length) return []; // the usual pass: nothing missing, one small query
  const closed = new Set((await db.selectFrom('dailyClosing').select('day').where('companyId', '=', companyId).where('day', '>=', first).where('day', '<', today).execute()).map((r) => r.day));
  return all.filter((d) => !closed.has(d));
}

/** One pass over every enabled company: each missing day closed, oldest first; what this process closed. */
export async function closeMissingDays(
  database: Database,
  log: (msg: string) => void = () => undefined,
  onError: (e: unknown, company: string) => void = (e) => { throw e; },
  // asked before each day: a stopping server ends a long catch-up after the day under way, not after all of them
  halted: () => boolean = () => false,
): Promise<AutoClosed[]> {
  const db = typed(database.db);
  const closed: AutoClosed[] = [];
  const companies = await db.selectFrom('company').select(['id', 'code', 'timeZone', 'createdAt']).where('enabled', '=', 1).orderBy('id').execute();
  for (const c of companies) {
    if (halted()) break;
    // one company's failure (logged) does not keep the others' days open; its days are tried again next pass
    try {
      const tzHours = Number(c.timeZone);
      for (const day of await missingDays(db, c.id, formatDate(c.createdAt, tzHours), companyToday(tzHours))) {
        if (halted()) break;
        const done = await inTransaction(database.db, async (trx) => {
          const r = await closeDayIn(new Tenant(trx, c.id), day, tzHours, { accountId: null, auto: true });
          if (r) await writeAudit(trx, { companyId: c.id, accountId: null, userName: AUTO_CLOSING_AUTHOR }, null, ENDPOINT, { action: 'close', entity: 'dailyClosing', recordId: r.id, recordLabel: `自动日结 ${day}` });
          return r;
        });
        if (!done) continue; // another process (or a user) closed it first
        closed.push({ ...done, companyId: c.id, companyCode: c.code });
        log(`自动日结 ${c.code} ${day}：库存 ${done.stockRows} 行，应收 ${done.receivableRows} 户，应付 ${done.payableRows} 户`);
      }
    } catch (e) {
      onError(e, c.code);
    }
  }
  return closed;
}

export interface AutoClosing {
  /** One pass now (after the one under way, if any): what this process closed. */
  runOnce(): Promise<AutoClosed[]>;
  /** Stops the timer; a pass under way ends after the day it is closing (the rest wait for the next start). */
  stop(): Promise<void>;
}

/** The timer: a pass at start-up and every `intervalMs` (0: no timer; runOnce still works). Passes never overlap. */
export function startAutoClosing(database: Database, intervalMs: number, log: (msg: string) => void, onError: (e: unknown, company?: string) => void): AutoClosing {
  let chain: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const runOnce = () => {
    const pass = chain.then(() => closeMissingDays(database, log, onError, () => stopped));
    chain = pass.catch(() => undefined);
    return pass;
  };
  const tick = () => { if (!stopped) runOnce().catch(onError); };
  let timer: ReturnType<typeof setInterval> | undefined;
  if (intervalMs > 0) {
    tick();
    timer = setInterval(tick, intervalMs);
    timer.unref?.();
  }
  return {
    runOnce,
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await chain;
    },
  };
}
