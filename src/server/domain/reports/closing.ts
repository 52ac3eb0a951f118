// 日结 (daily closing): the closing balances of a day — on hand per product × warehouse, each client's
// open receivables and (migration 031) each supplier's open payables — kept as snapshots (migration 028) so
// that reports over stock and money read one snapshot plus the movements since, never the whole ledger;
// and the day's own moves summed per product × warehouse × move type (stock_move_day, migration 034:
// move-types.ts) for reports over many days' moves.
// Days are closed by hand (oms 023105) or by the server itself past the company's midnight (auto-closing.ts).
//
// A day's balances are taken as recorded by the end of that company day: stock moves by the instant they
// were posted; receivable and payable items by the instant they were entered (less their amount from the instant they
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
import { TypedTenant } from '../../db/typed.ts';
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

function inWindow<QB extends { where: (...a: Q[]) => QB }>(q: QB, column: string, w: Window): QB {
  if (w.after) q = q.where(column, '>', w.after);
  return q.where(column, '<=', w.upTo);
}

const stockKey = (productId: unknown, warehouseId: unknown) => `${Number(productId)}:${Number(warehouseId)}`;

/** Stock moved in a window, per product × warehouse (optionally one warehouse). */
async function stockMoved(untypedTenant: Tenant, w: Window, warehouseId?: number | null): Promise<Map<string, bigint>> {
  const tenant = TypedTenant.of(untypedTenant);
  let q = inWindow(tenant.select('stockMove'), 'stockMove.createdAt', w);
  if (warehouseId) q = q.where('stockMove.warehouseId', '=', warehouseId);
  const rows = await q.select((eb) => ['productId', 'warehouseId', eb.fn.sum('qty').as('q')]).groupBy(['productId', 'warehouseId']).execute();
  return new Map(rows.map((r) => [stockKey(r.productId, r.warehouseId), big(r.q)]));
}

/** The two sides of the money kept per party: receivables of clients, payables of suppliers. */
export type Side = 'receivable' | 'payable';
const PARTY = { receivable: 'client', payable: 'supplier' } as const;
const SNAPSHOT = { receivable: { table: 'receivableSnapshot', party: 'clientId' }, payable: { table: 'payableSnapshot', party: 'supplierId' } } as const;

/** One side's open items recorded in a window, per party: items entered, less items cancelled and allocations. */
export async function partyMoved(untypedTenant: Tenant, side: Side, w: Window): Promise<Map<string, bigint>> {
  const tenant = TypedTenant.of(untypedTenant);
  const base = <QB extends { where: (...a: Q[]) => QB }>(q: QB) => q.where('openItem.side', '=', side).where('openItem.partyType', '=', PARTY[side]);
  const entered = await inWindow(base(tenant.select('openItem')), 'openItem.createdAt', w)
    .select((eb) => ['openItem.partyId as k', eb.fn.sum('openItem.amountBase').as('v')]).groupBy('openItem.partyId').execute();
  const cancelled = await inWindow(base(tenant.select('openItem')).where('openItem.status', '=', 'cancelled'), 'openItem.updatedAt', w)
    .select((eb) => ['openItem.partyId as k', eb.fn.sum('openItem.amountBase').as('v')]).groupBy('openItem.partyId').execute();
  const allocated = await inWindow(base(tenant.select('financeAllocation')
    .innerJoin('openItem', (j) => j.onRef('openItem.id', '=', 'financeAllocation.itemId').onRef('openItem.companyId', '=', 'financeAllocation.companyId'))), 'financeAllocation.createdAt', w)
    .select((eb) => ['openItem.partyId as k', eb.fn.sum('financeAllocation.itemBase').as('v')]).groupBy('openItem.partyId').execute();
  const out = new Map<string, bigint>();
  const add = (rows: Row[], sign: bigint) => { for (const r of rows) out.set(String(Number(r.k)), (out.get(String(Number(r.k))) ?? 0n) + sign * big(r.v)); };
  add(entered, 1n);
  add(cancelled, -1n);
  add(allocated, -1n);
  return out;
}

/** Receivables recorded in a window, per client. */
export const receivableMoved = (tenant: Tenant, w: Window) => partyMoved(tenant, 'receivable', w);

function merge(into: Map<string, bigint>, more: Map<string, bigint>): Map<string, bigint> {
  for (const [k, v] of more) into.set(k, (into.get(k) ?? 0n) + v);
  return into;
}

/**
 * The latest closed day on or before `day` (undefined when none); for payables, the latest whose closing kept
 * them (a day closed before migration 031 has no payable snapshot).
 */
export async function closedOnOrBefore(untypedTenant: Tenant, day: string, strictlyBefore = false, side: Side = 'receivable'): Promise<string | undefined> {
  let q = TypedTenant.of(untypedTenant).select('dailyClosing').select((eb) => eb.fn.max('day').as('d')).where('day', strictlyBefore ? '<' : '<=', day);
  if (side === 'payable') q = q.where('payables', '=', 1);
  const r = await q.executeTakeFirst();
  return r?.d ? String(r.d) : undefined;
}

async function stockSnapshot(untypedTenant: Tenant, day: string, warehouseId?: number | null): Promise<Map<string, bigint>> {
  let q = TypedTenant.of(untypedTenant).select('stockSnapshot').select(['productId', 'warehouseId', 'onHand']).where('day', '=', day);
  if (warehouseId) q = q.where('warehouseId', '=', warehouseId);
  const rows = await q.execute();
  return new Map(rows.map((r) => [stockKey(r.productId, r.warehouseId), big(r.onHand)]));
}

async function partySnapshot(tenant: Tenant, side: Side, day: string): Promise<Map<string, bigint>> {
  const { table, party } = SNAPSHOT[side];
  // (the snapshot table and its party column follow the side, chosen at run time: the untyped view)
  const rows: Row[] = await tenant.select(table).select([`${party} as k`, 'balance']).where('day', '=', day).execute();
  return new Map(rows.map((r) => [String(Number(r.k)), big(r.balance)]));
}

const priced = (dialect: Dialect, qty: string) => (dialect === 'postgres'
  ? sql`sum(cast(${sql.ref(qty)} as numeric) * ${sql.ref('product.price')})`
  : sql`sum(${sql.ref(qty)} * ${sql.ref('product.price')})`);
const byProduct = (table: string) => (j: Q) => j.onRef('product.id', '=', `${table}.productId`).onRef('product.companyId', '=', `${table}.companyId`);

/** The reference-price value (cents) of the stock moved in a window, per warehouse. */
async function stockValueMoved(untypedTenant: Tenant, dialect: Dialect, w: Window, warehouseId?: number | null): Promise<Row[]> {
  let q = inWindow(TypedTenant.of(untypedTenant).select('stockMove').innerJoin('product', byProduct('stockMove')), 'stockMove.createdAt', w);
  if (warehouseId) q = q.where('stockMove.warehouseId', '=', warehouseId);
  return q.select(['stockMove.warehouseId as w', priced(dialect, 'stockMove.qty').as('v')]).groupBy('stockMove.warehouseId').execute();
}

/**
 * The reference-price value (cents: on hand × 参考价) per warehouse at the end of `day`, summed by the
 * database: the latest snapshot's rows and the moves since, each times its product's price.
 */
export async function stockValueAtEndOf(tenant: Tenant, dialect: Dialect, day: string, tzHours: number, warehouseId?: number | null): Promise<Map<number, bigint>> {
  const from = await closedOnOrBefore(tenant, day);
  const out = new Map<number, bigint>();
  const add = (rows: Row[]) => { for (const r of rows) out.set(Number(r.w), (out.get(Number(r.w)) ?? 0n) + big(r.v)); };
  if (from) {
    let q = TypedTenant.of(tenant).select('stockSnapshot').innerJoin('product', byProduct('stockSnapshot')).where('stockSnapshot.day', '=', from);
    if (warehouseId) q = q.where('stockSnapshot.warehouseId', '=', warehouseId);
    add(await q.select(['stockSnapshot.warehouseId as w', priced(dialect, 'stockSnapshot.onHand').as('v')]).groupBy('stockSnapshot.warehouseId').execute());
  }
  if (from !== day) add(await stockValueMoved(tenant, dialect, { after: from ? endOfDay(from, tzHours) : undefined, upTo: endOfDay(day, tzHours) }, warehouseId));
  return out;
}

const total = (m: Map<unknown, bigint>) => [...m.values()].reduce((a, b) => a + b, 0n);
const totalOf = (rows: Row[]) => rows.reduce((a, r) => a + big(r.v), 0n);

/** A balance at the end of each checkpoint day (ascending), all together. */
export interface BalanceKind {
  /** the closing that answers it (stock and receivables: any closing; payables: one that kept them) */
  side: Side;
  atEnd(day: string): Promise<bigint>;
  moved(w: Window): Promise<bigint>;
}

/** Stock at reference prices (cents), optionally of one warehouse. */
export const stockValueKind = (tenant: Tenant, dialect: Dialect, tzHours: number, warehouseId?: number | null): BalanceKind => ({
  side: 'receivable',
  atEnd: async (day) => total(await stockValueAtEndOf(tenant, dialect, day, tzHours, warehouseId)),
  moved: async (w) => totalOf(await stockValueMoved(tenant, dialect, w, warehouseId)),
});

/** Open items of one side (cents, company currency), optionally of one party. */
export const openItemsKind = (tenant: Tenant, side: Side, tzHours: number, partyId?: number | null): BalanceKind => {
  const pick = (m: Map<string, bigint>) => (partyId ? m.get(String(partyId)) ?? 0n : total(m));
  return { side, atEnd: async (day) => pick(await openAtEndOf(tenant, side, day, tzHours)), moved: async (w) => pick(await partyMoved(tenant, side, w)) };
};

/**
 * The balance at the end of each checkpoint (ascending company days): the first from the snapshots; each next
 * from the latest snapshot when a day was closed since the previous checkpoint, else the previous value plus
 * what moved in between — so a long range reads one snapshot and a window of moves per period.
 */
export async function balancesAt(tenant: Tenant, kind: BalanceKind, checkpoints: string[], tzHours: number): Promise<bigint[]> {
  const out: bigint[] = [];
  for (const [i, day] of checkpoints.entries()) {
    const prev = checkpoints[i - 1];
    const snapshotSince = prev !== undefined && ((await closedOnOrBefore(tenant, day, false, kind.side)) ?? '') > prev;
    out.push(prev === undefined || snapshotSince ? await kind.atEnd(day) : out[i - 1]! + await kind.moved({ after: endOfDay(prev, tzHours), upTo: endOfDay(day, tzHours) }));
  }
  return out;
}

/** Each party's open items of one side (partyId → cents, company currency) at the end of `day`, the same way. */
export async function openAtEndOf(tenant: Tenant, side: Side, day: string, tzHours: number): Promise<Map<string, bigint>> {
  const from = await closedOnOrBefore(tenant, day, false, side);
  const start = from ? await partySnapshot(tenant, side, from) : new Map<string, bigint>();
  if (from === day) return start;
  return merge(start, await partyMoved(tenant, side, { after: from ? endOfDay(from, tzHours) : undefined, upTo: endOfDay(day, tzHours) }));
}

/** Each client's open receivables at the end of `day`. */
export const receivablesAtEndOf = (tenant: Tenant, day: string, tzHours: number) => openAtEndOf(tenant, 'receivable', day, tzHours);

export interface ClosingInput {
  day: string;
}

export const CLOSING_INPUT = {
  type: 'object',
  required: ['day'],
  properties: { day: { type: 'string', maxLength: 10, title: '日结日期' } },
};

const CHUNK = 200;

/** Who closes: a user (by hand, closing again recomputes) or the server by itself (only a day nobody closed). */
export type ClosedBy = { accountId: number | null; auto: false } | { accountId: null; auto: true };

export interface ClosingResult {
  id: number;
  day: string;
  prevDay: string | null;
  stockRows: number;
  receivableRows: number;
  payableRows: number;
  closedAt: string;
  auto: boolean;
}

/**
 * Closes `day` inside the transaction `trx` (tenant: its company scope): its snapshots rebuilt from the
 * previous closed day's and what was recorded since. By hand the closing row is taken whatever it held (a
 * second closing of the same day waits for the first: PostgreSQL's row lock, SQLite's writer lock); by the
 * server only when no row is there yet — a conditional insert on the unique (company, day), so of two
 * processes closing at once exactly one does, and a day closed by hand is left alone (null).
 */
export async function closeDayIn(tenant: Tenant, day: string, tzHours: number, by: ClosedBy): Promise<ClosingResult | null> {
  const t = TypedTenant.of(tenant);
  const now = new Date().toISOString();
  const stamp = { closedAt: now, closedBy: by.accountId, auto: by.auto ? 1 : 0 };
  let closingId: number;
  if (by.auto) {
    const row = await t.insert('dailyClosing', { day, prevDay: null, stockRows: 0, receivableRows: 0, payableRows: 0, version: 1, ...stamp })
      .onConflict((oc) => oc.columns(['companyId', 'day']).doNothing()).returning('id').executeTakeFirst();
    if (!row) return null;
    closingId = Number(row.id);
  } else {
    const existing = await t.select('dailyClosing').select(['id', 'version']).where('day', '=', day).executeTakeFirst();
    if (existing) {
      closingId = Number(existing.id);
      await t.update('dailyClosing').set({ ...stamp, version: sql`${sql.ref('version')} + 1` }).where('id', '=', closingId).execute();
    } else {
      const row = await t.insert('dailyClosing', { day, prevDay: null, stockRows: 0, receivableRows: 0, payableRows: 0, version: 1, ...stamp })
        .onConflict((oc) => oc.columns(['companyId', 'day']).doUpdateSet({ closedAt: now }))
        .returning('id').executeTakeFirstOrThrow();
      closingId = Number(row.id);
    }
  }
  const upTo = endOfDay(day, tzHours);
  const since = (prev: string | undefined): Window => ({ after: prev ? endOfDay(prev, tzHours) : undefined, upTo });
  const prev = await closedOnOrBefore(tenant, day, true);
  const stock = merge(prev ? await stockSnapshot(tenant, prev) : new Map(), await stockMoved(tenant, since(prev)));
  const parties = async (side: Side) => {
    const from = await closedOnOrBefore(tenant, day, true, side);
    return merge(from ? await partySnapshot(tenant, side, from) : new Map(), await partyMoved(tenant, side, since(from)));
  };
  const open = { receivable: await parties('receivable'), payable: await parties('payable') };

  await t.delete('stockSnapshot').where('day', '=', day).execute();
  // (on hand and balances are written as bigint texts, which the generated number columns do not admit: the untyped view)
  const stockRows = [...stock].filter(([, v]) => v !== 0n).map(([k, v]) => {
    const [productId, warehouseId] = k.split(':').map(Number);
    return { day, productId, warehouseId, onHand: v.toString() };
  });
  for (let i = 0; i < stockRows.length; i += CHUNK) await tenant.insert('stockSnapshot', stockRows.slice(i, i + CHUNK)).execute();
  const rows = { receivable: 0, payable: 0 };
  for (const side of ['receivable', 'payable'] as const) {
    const { table, party } = SNAPSHOT[side];
    // (the snapshot table follows the side, chosen at run time: the untyped view)
    await tenant.delete(table).where('day', '=', day).execute();
    const list = [...open[side]].filter(([, v]) => v !== 0n).map(([k, v]) => ({ day, [party]: Number(k), balance: v.toString() }));
    for (let i = 0; i < list.length; i += CHUNK) await tenant.insert(table, list.slice(i, i + CHUNK)).execute();
    rows[side] = list.length;
  }
  // the day's own moves per product × warehouse × type (stock_move_day), for reports over many days' moves
  await summariseMoveDay(tenant, day, endOfDay(dayBefore(day), tzHours), endOfDay(day, tzHours));
  await t.update('dailyClosing').set({ prevDay: prev ?? null, stockRows: stockRows.length, receivableRows: rows.receivable, payableRows: rows.payable, payables: 1, movesSummarised: 1 })
    .where('id', '=', closingId).execute();
  return { id: closingId, day, prevDay: prev ?? null, stockRows: stockRows.length, receivableRows: rows.receivable, payableRows: rows.payable, closedAt: now, auto: by.auto };
}

/** The closing by hand (oms 023105): any day that has ended, again if it was closed. */
export async function closeDay(ctx: CallContext, input: ClosingInput): Promise<ClosingResult> {
  const tzHours = tz(ctx);
  const day = parseDay(input.day, 'day', '日结日期');
  const today = companyToday(tzHours);
  if (day >= today) throw validationError([{ field: 'day', message: `只能日结已经结束的日期（今天是 ${today}）` }]);
  return ctx.transaction(async (trx, tenant) => {
    const done = (await closeDayIn(tenant, day, tzHours, { accountId: ctx.caller?.accountId ?? null, auto: false }))!;
    await ctx.audit({ action: 'close', entity: 'dailyClosing', recordId: done.id, recordLabel: `日结 ${day}` }, trx);
    return done;
  });
}
