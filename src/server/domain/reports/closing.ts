// 日结 (daily closing): the closing balances of a day — on hand per product × warehouse and each client's
// open receivables — kept as snapshots (migration 028) so that reports over stock and money read one
// snapshot plus the movements since, never the whole ledger; and the day's own moves summed per product ×
// warehouse × move type (stock_move_day, migration 034: move-types.ts) for reports over many days' moves.
//
// A day's balances are taken as recorded by the end of that company day: stock moves by the instant they
// were posted; receivable items by the instant they were entered (less their amount from the instant they
// were cancelled) and allocations by the instant they were written. The ledgers are append-only in that
// sense, so a closed day never changes afterwards, whenever the closing runs, and
//   snapshot(D) = snapshot(previous closed day) + what was recorded in between
// equals a recomputation over the whole ledger up to the end of D (the integration test holds it to that).
// Only days that have ended in company time may be closed (a day still running would be closed short);
// closing a day again recomputes it and gives the same rows (idempotent), and any past day may be closed,
// in any order. Quantities are small units, money cents in the company currency, all summed as integers.
import { sql } from 'kysely';
import { companyDayRange, formatDate } from '../../../core/format.ts';
import type { CallContext } from '../../catalog/context.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import type { Dialect } from '../../db/connection.ts';
import { validationError } from '../../http/errors.ts';
import { realDate } from '../../resources/fields.ts';
import { tz } from '../procurement/common.ts';
import { big, type Row } from './common.ts';
import { summariseMoveDay } from './move-types.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Q = any;

/** The company's calendar day now (the injected clock: Date). */
export function companyToday(tzHours: number): string {
  return formatDate(new Date().toISOString(), tzHours);
}

/** "YYYY-MM-DD" of a real calendar day, or a validation error on `field`. */
export function parseDay(v: unknown, field: string, title: string): string {
  const m = typeof v === 'string' ? /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(v.trim()) : null;
  const d = m ? realDate(Number(m[1]), Number(m[2]), Number(m[3])) : undefined;
  if (!d) throw validationError([{ field, message: `${title}不是有效的日期（YYYY-MM-DD）` }]);
  return d;
}

/** The last instant of a company day (UTC ISO), compared with created_at texts. */
export const endOfDay = (day: string, tzHours: number) => companyDayRange(day, tzHours)[1];

/** The calendar day before "YYYY-MM-DD". */
export const dayBefore = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

export type Window = { after?: string; upTo: string };

function inWindow(q: Q, column: string, w: Window): Q {
  if (w.after) q = q.where(column, '>', w.after);
  return q.where(column, '<=', w.upTo);
}

const stockKey = (productId: unknown, warehouseId: unknown) => `${Number(productId)}:${Number(warehouseId)}`;

/** Stock moved in a window, per product × warehouse (optionally one warehouse). */
async function stockMoved(tenant: Tenant, w: Window, warehouseId?: number | null): Promise<Map<string, bigint>> {
  let q: Q = inWindow(tenant.select('stockMove'), 'stockMove.createdAt', w);
  if (warehouseId) q = q.where('stockMove.warehouseId', '=', warehouseId);
  const rows = (await q.select((eb: Q) => ['productId', 'warehouseId', eb.fn.sum('qty').as('q')]).groupBy(['productId', 'warehouseId']).execute()) as Row[];
  return new Map(rows.map((r) => [stockKey(r.productId, r.warehouseId), big(r.q)]));
}

/** Receivables recorded in a window, per client: items entered, less items cancelled and allocations. */
export async function receivableMoved(tenant: Tenant, w: Window): Promise<Map<string, bigint>> {
  const base = (q: Q) => q.where('openItem.side', '=', 'receivable').where('openItem.partyType', '=', 'client');
  const entered = (await inWindow(base(tenant.select('openItem')), 'openItem.createdAt', w)
    .select((eb: Q) => ['openItem.partyId as k', eb.fn.sum('openItem.amountBase').as('v')]).groupBy('openItem.partyId').execute()) as Row[];
  const cancelled = (await inWindow(base(tenant.select('openItem')).where('openItem.status', '=', 'cancelled'), 'openItem.updatedAt', w)
    .select((eb: Q) => ['openItem.partyId as k', eb.fn.sum('openItem.amountBase').as('v')]).groupBy('openItem.partyId').execute()) as Row[];
  const allocated = (await inWindow(base(tenant.select('financeAllocation')
    .innerJoin('openItem', (j: Q) => j.onRef('openItem.id', '=', 'financeAllocation.itemId').onRef('openItem.companyId', '=', 'financeAllocation.companyId'))), 'financeAllocation.createdAt', w)
    .select((eb: Q) => ['openItem.partyId as k', eb.fn.sum('financeAllocation.itemBase').as('v')]).groupBy('openItem.partyId').execute()) as Row[];
  const out = new Map<string, bigint>();
  const add = (rows: Row[], sign: bigint) => { for (const r of rows) out.set(String(Number(r.k)), (out.get(String(Number(r.k))) ?? 0n) + sign * big(r.v)); };
  add(entered, 1n);
  add(cancelled, -1n);
  add(allocated, -1n);
  return out;
}

function merge(into: Map<string, bigint>, more: Map<string, bigint>): Map<string, bigint> {
  for (const [k, v] of more) into.set(k, (into.get(k) ?? 0n) + v);
  return into;
}

/** The latest closed day on or before `day` (undefined when none). */
export async function closedOnOrBefore(tenant: Tenant, day: string, strictlyBefore = false): Promise<string | undefined> {
  const r = (await tenant.select('dailyClosing').select((eb: Q) => eb.fn.max('day').as('d')).where('day', strictlyBefore ? '<' : '<=', day).executeTakeFirst()) as Row | undefined;
  return r?.d ? String(r.d) : undefined;
}

async function stockSnapshot(tenant: Tenant, day: string, warehouseId?: number | null): Promise<Map<string, bigint>> {
  let q: Q = tenant.select('stockSnapshot').select(['productId', 'warehouseId', 'onHand']).where('day', '=', day);
  if (warehouseId) q = q.where('warehouseId', '=', warehouseId);
  const rows = (await q.execute()) as Row[];
  return new Map(rows.map((r) => [stockKey(r.productId, r.warehouseId), big(r.onHand)]));
}

async function receivableSnapshot(tenant: Tenant, day: string): Promise<Map<string, bigint>> {
  const rows = (await tenant.select('receivableSnapshot').select(['clientId', 'balance']).where('day', '=', day).execute()) as Row[];
  return new Map(rows.map((r) => [String(Number(r.clientId)), big(r.balance)]));
}

/**
 * The reference-price value (cents: on hand × 参考价) per warehouse at the end of `day`, summed by the
 * database: the latest snapshot's rows and the moves since, each times its product's price.
 */
export async function stockValueAtEndOf(tenant: Tenant, dialect: Dialect, day: string, tzHours: number, warehouseId?: number | null): Promise<Map<number, bigint>> {
  const from = await closedOnOrBefore(tenant, day);
  const value = (qty: string) => (dialect === 'postgres'
    ? sql`sum(cast(${sql.ref(qty)} as numeric) * ${sql.ref('product.price')})`
    : sql`sum(${sql.ref(qty)} * ${sql.ref('product.price')})`);
  const byProduct = (table: string) => (j: Q) => j.onRef('product.id', '=', `${table}.productId`).onRef('product.companyId', '=', `${table}.companyId`);
  const out = new Map<number, bigint>();
  const add = (rows: Row[]) => { for (const r of rows) out.set(Number(r.w), (out.get(Number(r.w)) ?? 0n) + big(r.v)); };
  if (from) {
    let q: Q = tenant.select('stockSnapshot').innerJoin('product', byProduct('stockSnapshot')).where('stockSnapshot.day', '=', from);
    if (warehouseId) q = q.where('stockSnapshot.warehouseId', '=', warehouseId);
    add((await q.select(['stockSnapshot.warehouseId as w', value('stockSnapshot.onHand').as('v')]).groupBy('stockSnapshot.warehouseId').execute()) as Row[]);
  }
  if (from !== day) {
    let q: Q = inWindow(tenant.select('stockMove').innerJoin('product', byProduct('stockMove')), 'stockMove.createdAt', { after: from ? endOfDay(from, tzHours) : undefined, upTo: endOfDay(day, tzHours) });
    if (warehouseId) q = q.where('stockMove.warehouseId', '=', warehouseId);
    add((await q.select(['stockMove.warehouseId as w', value('stockMove.qty').as('v')]).groupBy('stockMove.warehouseId').execute()) as Row[]);
  }
  return out;
}

/** Each client's open receivables (clientId → cents, company currency) at the end of `day`, the same way. */
export async function receivablesAtEndOf(tenant: Tenant, day: string, tzHours: number): Promise<Map<string, bigint>> {
  const from = await closedOnOrBefore(tenant, day);
  const start = from ? await receivableSnapshot(tenant, from) : new Map<string, bigint>();
  if (from === day) return start;
  return merge(start, await receivableMoved(tenant, { after: from ? endOfDay(from, tzHours) : undefined, upTo: endOfDay(day, tzHours) }));
}

export interface ClosingInput {
  day: string;
}

export const CLOSING_INPUT = {
  type: 'object',
  required: ['day'],
  properties: { day: { type: 'string', maxLength: 10, title: '日结日期' } },
};

const CHUNK = 200;

/** Closes a day (again): its snapshots rebuilt from the previous closed day's and what was recorded since. */
export async function closeDay(ctx: CallContext, input: ClosingInput) {
  const tzHours = tz(ctx);
  const day = parseDay(input.day, 'day', '日结日期');
  const today = companyToday(tzHours);
  if (day >= today) throw validationError([{ field: 'day', message: `只能日结已经结束的日期（今天是 ${today}）` }]);
  const accountId = ctx.caller?.accountId ?? null;
  const now = new Date().toISOString();
  return ctx.transaction(async (trx, tenant) => {
    // the closing row first: a second closing of the same day waits here (PostgreSQL) or behind the writer lock (SQLite)
    const existing = (await tenant.select('dailyClosing').select(['id', 'version']).where('day', '=', day).executeTakeFirst()) as Row | undefined;
    let closingId: number;
    if (existing) {
      closingId = Number(existing.id);
      await tenant.update('dailyClosing').set({ closedAt: now, closedBy: accountId, version: sql`${sql.ref('version')} + 1` }).where('id', '=', closingId).execute();
    } else {
      const row = await tenant.insert('dailyClosing', { day, prevDay: null, stockRows: 0, receivableRows: 0, version: 1, closedAt: now, closedBy: accountId })
        .onConflict((oc: Q) => oc.columns(['companyId', 'day']).doUpdateSet({ closedAt: now }))
        .returning('id').executeTakeFirstOrThrow();
      closingId = Number(row.id);
    }
    const prev = await closedOnOrBefore(tenant, day, true);
    const w: Window = { after: prev ? endOfDay(prev, tzHours) : undefined, upTo: endOfDay(day, tzHours) };
    const stock = merge(prev ? await stockSnapshot(tenant, prev) : new Map(), await stockMoved(tenant, w));
    const recv = merge(prev ? await receivableSnapshot(tenant, prev) : new Map(), await receivableMoved(tenant, w));

    await tenant.delete('stockSnapshot').where('day', '=', day).execute();
    await tenant.delete('receivableSnapshot').where('day', '=', day).execute();
    const stockRows = [...stock].filter(([, v]) => v !== 0n).map(([k, v]) => {
      const [productId, warehouseId] = k.split(':').map(Number);
      return { day, productId, warehouseId, onHand: v.toString() };
    });
    const recvRows = [...recv].filter(([, v]) => v !== 0n).map(([k, v]) => ({ day, clientId: Number(k), balance: v.toString() }));
    for (let i = 0; i < stockRows.length; i += CHUNK) await tenant.insert('stockSnapshot', stockRows.slice(i, i + CHUNK)).execute();
    for (let i = 0; i < recvRows.length; i += CHUNK) await tenant.insert('receivableSnapshot', recvRows.slice(i, i + CHUNK)).execute();
    // the day's own moves per product × warehouse × type (stock_move_day), for reports over many days' moves
    await summariseMoveDay(tenant, day, endOfDay(dayBefore(day), tzHours), endOfDay(day, tzHours));
    await tenant.update('dailyClosing').set({ prevDay: prev ?? null, stockRows: stockRows.length, receivableRows: recvRows.length, movesSummarised: 1 }).where('id', '=', closingId).execute();
    await ctx.audit({ action: 'close', entity: 'dailyClosing', recordId: closingId, recordLabel: `日结 ${day}` }, trx);
    return { id: closingId, day, prevDay: prev ?? null, stockRows: stockRows.length, receivableRows: recvRows.length, closedAt: now };
  });
}
