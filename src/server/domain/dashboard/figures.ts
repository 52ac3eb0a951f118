// The dashboard's figures, each one bounded read: documents of last month and this month by their date
// (indexed), balances from the daily closing's snapshots plus the moves since (reports/closing.ts), open
// work by status (indexed). Never a scan of the whole ledger. Money is summed as integer cents in the
// company currency; the answer turns it into exact decimal text (KPI tiles) or yuan numbers (charts).
import { sql } from 'kysely';
import type { Tenant } from '../../catalog/tenant.ts';
import type { Dialect } from '../../db/connection.ts';
import { TypedTenant } from '../../db/typed.ts';
import { receivablesAtEndOf, stockValueAtEndOf } from '../reports/closing.ts';
import { big } from '../reports/common.ts';
import { lineBase, SOLD_STATUSES } from '../reports/sale-report.ts';
import { regionOfFirst } from '../system/region-map.ts';
import type { Periods } from './periods.ts';

/** Count and cents of one period. */
export interface Tally {
  count: bigint;
  cents: bigint;
}

const zero = (): Tally => ({ count: 0n, cents: 0n });
const sumValues = (m: Map<unknown, bigint>) => [...m.values()].reduce((a, b) => a + b, 0n);

/** Sold orders (past draft, not cancelled) per order date, from last month's first day to today. */
export async function salesByDay(tenant: TypedTenant, p: Periods): Promise<Map<string, Tally>> {
  const rows = await tenant.select('salesOrder')
    .select((eb) => ['salesOrder.orderDate', eb.fn.countAll<number>().as('n'), eb.fn.sum<string>('salesOrder.totalAmountBase').as('cents')])
    .where('salesOrder.orderDate', '>=', p.lastMonthStart).where('salesOrder.orderDate', '<=', p.today)
    .where('salesOrder.status', 'in', SOLD_STATUSES)
    .groupBy('salesOrder.orderDate').execute();
  return new Map(rows.map((r) => [String(r.orderDate), { count: big(r.n), cents: big(r.cents) }]));
}

/** Posted receipts (收款单) per pay date, from last month's first day to today. */
export async function receiptsByDay(tenant: TypedTenant, p: Periods): Promise<Map<string, Tally>> {
  const rows = await tenant.select('payDocument')
    .select((eb) => ['payDocument.payDate', eb.fn.countAll<number>().as('n'), eb.fn.sum<string>('payDocument.amountBase').as('cents')])
    .where('payDocument.payDate', '>=', p.lastMonthStart).where('payDocument.payDate', '<=', p.today)
    .where('payDocument.direction', '=', 'receipt').where('payDocument.status', '=', 'posted')
    .groupBy('payDocument.payDate').execute();
  return new Map(rows.map((r) => [String(r.payDate), { count: big(r.n), cents: big(r.cents) }]));
}

/** Tallies of the four compared periods out of per-day tallies. */
export function periodTallies(byDay: Map<string, Tally>, p: Periods) {
  const out = { today: zero(), yesterday: zero(), month: zero(), lastMonth: zero() };
  const add = (t: Tally, v: Tally) => { t.count += v.count; t.cents += v.cents; };
  for (const [day, v] of byDay) {
    if (day === p.today) add(out.today, v);
    if (day === p.yesterday) add(out.yesterday, v);
    if (day >= p.monthStart && day <= p.today) add(out.month, v);
    if (day >= p.lastMonthStart && day <= p.lastMonthSameDay) add(out.lastMonth, v);
  }
  return out;
}

/** Delivery notes shipped (posted or signed) and their quantity, by the instant they were posted. */
export async function shipments(tenant: TypedTenant, p: Periods) {
  const a = p.at;
  const when = (from: string, to: string, what: 'one' | 'qty') =>
    sql<string>`sum(case when ${sql.ref('deliveryNote.postedAt')} >= ${from} and ${sql.ref('deliveryNote.postedAt')} <= ${to} then ${what === 'one' ? sql`1` : sql`coalesce(${sql.ref('deliveryNote.totalQty')}, 0)`} else 0 end)`;
  const r = await tenant.select('deliveryNote')
    .select([
      when(a.todayStart, a.todayEnd, 'one').as('todayN'), when(a.todayStart, a.todayEnd, 'qty').as('todayQty'),
      when(a.yesterdayStart, a.yesterdayEnd, 'one').as('yesterdayN'),
      when(a.monthStart, a.todayEnd, 'one').as('monthN'), when(a.monthStart, a.todayEnd, 'qty').as('monthQty'),
      when(a.lastMonthStart, a.lastMonthSameDayEnd, 'one').as('lastMonthN'),
    ])
    .where('deliveryNote.postedAt', '>=', a.lastMonthStart).where('deliveryNote.postedAt', '<=', a.todayEnd)
    .where('deliveryNote.status', 'in', ['posted', 'signed'])
    .executeTakeFirst();
  return {
    today: big(r?.todayN), todayQty: big(r?.todayQty), yesterday: big(r?.yesterdayN),
    month: big(r?.monthN), monthQty: big(r?.monthQty), lastMonth: big(r?.lastMonthN),
  };
}

export interface Ranked {
  id: number;
  code: string;
  name: string;
  cents: bigint;
  qty: bigint;
}

/** Names of rows of a table by id (the few a top-N list shows, or the clients of a month). */
async function namesOf(tenant: TypedTenant, table: 'product' | 'client', ids: number[]) {
  const out = new Map<number, { code: string; name: string; address: string | null }>();
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    if (table === 'product') {
      for (const r of await tenant.select('product').select(['id', 'code', 'name']).where('id', 'in', chunk).execute()) out.set(Number(r.id), { code: r.code, name: r.name, address: null });
    } else {
      for (const r of await tenant.select('client').select(['id', 'code', 'name', 'address']).where('id', 'in', chunk).execute()) out.set(Number(r.id), { code: r.code, name: r.name, address: r.address });
    }
  }
  return out;
}

/** Best first by amount; ties by code. */
const byAmountThenCode = (a: Ranked, b: Ranked) => (b.cents > a.cents ? 1 : b.cents < a.cents ? -1 : a.code.localeCompare(b.code));

/**
 * This month's best-selling products by amount (company currency). Summed per product id from the
 * order and line indexes alone (sales-order.ts declares them); the names of the few shown read after.
 * The SQL order keeps `n + 20` candidates so that ties at the edge are settled by code.
 */
export async function topProducts(tenant: TypedTenant, dialect: Dialect, p: Periods, n: number): Promise<Ranked[]> {
  const amount = sql<string>`sum(${lineBase(dialect)})`;
  const rows = await tenant.select('salesOrder')
    .innerJoin('salesOrderLine', (j) => j.onRef('salesOrderLine.orderId', '=', 'salesOrder.id').onRef('salesOrderLine.companyId', '=', 'salesOrder.companyId'))
    .select(['salesOrderLine.productId', amount.as('cents'), sql<string>`sum(${sql.ref('salesOrderLine.qty')})`.as('qty')])
    .where('salesOrder.orderDate', '>=', p.monthStart).where('salesOrder.orderDate', '<=', p.today)
    .where('salesOrder.status', 'in', SOLD_STATUSES)
    .groupBy('salesOrderLine.productId')
    .orderBy(amount, 'desc').orderBy('salesOrderLine.productId').limit(n + 20).execute();
  const names = await namesOf(tenant, 'product', rows.map((r) => Number(r.productId)));
  return rows.flatMap((r) => {
    const p = names.get(Number(r.productId));
    return p ? [{ id: Number(r.productId), code: p.code, name: p.name, cents: big(r.cents), qty: big(r.qty) }] : [];
  }).sort(byAmountThenCode).slice(0, n);
}

/**
 * This month's sold orders per client: the best clients by amount (ties by code; qty is their order
 * count) and sales by province — the order's delivery address, else its client's address or name (system/region-map's
 * division table). One read of the order index grouped by client and delivery address; the clients'
 * addresses after, per distinct address, not per order.
 */
export async function clientsAndProvinces(tenant: TypedTenant, p: Periods, n: number): Promise<{ top: Ranked[]; provinces: Map<string, bigint> }> {
  const rows = await tenant.select('salesOrder')
    .select((eb) => ['salesOrder.clientId', 'salesOrder.deliveryAddress', eb.fn.sum<string>('salesOrder.totalAmountBase').as('cents'), eb.fn.countAll<number>().as('orders')])
    .where('salesOrder.orderDate', '>=', p.monthStart).where('salesOrder.orderDate', '<=', p.today)
    .where('salesOrder.status', 'in', SOLD_STATUSES)
    .groupBy(['salesOrder.clientId', 'salesOrder.deliveryAddress']).execute();
  const perClient = new Map<number, { cents: bigint; orders: bigint }>();
  for (const r of rows) {
    const c = perClient.get(Number(r.clientId)) ?? { cents: 0n, orders: 0n };
    c.cents += big(r.cents);
    c.orders += big(r.orders);
    perClient.set(Number(r.clientId), c);
  }
  const clients = await namesOf(tenant, 'client', [...perClient.keys()]);
  const provinces = new Map<string, bigint>();
  for (const r of rows) {
    const client = clients.get(Number(r.clientId));
    const region = regionOfFirst(r.deliveryAddress, client?.address, client?.name);
    provinces.set(region.province, (provinces.get(region.province) ?? 0n) + big(r.cents));
  }
  const top = [...perClient].flatMap(([id, v]) => {
    const c = clients.get(id);
    return c ? [{ id, code: c.code, name: c.name, cents: v.cents, qty: v.orders }] : [];
  }).sort(byAmountThenCode).slice(0, n);
  return { top, provinces };
}

/** Stock value (on hand × 参考价, cents) at the end of `day`: the latest snapshot plus the moves since. */
export async function stockValue(tenant: Tenant, dialect: Dialect, day: string, tzHours: number): Promise<bigint> {
  return sumValues(await stockValueAtEndOf(tenant, dialect, day, tzHours));
}

/** Clients' open receivables (cents) at the end of `day`, the same way. */
export async function receivableBalance(tenant: Tenant, day: string, tzHours: number): Promise<bigint> {
  return sumValues(await receivablesAtEndOf(tenant, day, tzHours));
}

/**
 * Open client receivables due before today: total, items, clients, and the clients owing most — one
 * range read of migration 033's index grouped by client, the few names after.
 */
export async function overdueReceivables(tenant: TypedTenant, today: string, n: number) {
  const rows = await tenant.select('openItem')
    .select((eb) => ['openItem.partyId', sql<string>`sum(${sql.ref('openItem.amountBase')} - ${sql.ref('openItem.allocatedBase')})`.as('cents'),
      eb.fn.countAll<number>().as('n'), eb.fn.min<string>('openItem.dueDate').as('oldest')])
    .where('openItem.side', '=', 'receivable').where('openItem.partyType', '=', 'client')
    .where('openItem.status', '=', 'open').where('openItem.dueDate', '<', today)
    .groupBy('openItem.partyId').execute();
  const owing = rows.map((r) => ({ id: Number(r.partyId), cents: big(r.cents), items: big(r.n), oldest: String(r.oldest) }))
    .sort((a, b) => (b.cents > a.cents ? 1 : b.cents < a.cents ? -1 : a.id - b.id));
  // candidates past n so that ties at the edge are settled by code
  const names = await namesOf(tenant, 'client', owing.slice(0, n + 20).map((o) => o.id));
  const top = owing.slice(0, n + 20).flatMap((o) => {
    const c = names.get(o.id);
    return c ? [{ ...o, code: c.code, name: c.name }] : [];
  }).sort((a, b) => (b.cents > a.cents ? 1 : b.cents < a.cents ? -1 : a.code.localeCompare(b.code))).slice(0, n);
  return {
    cents: owing.reduce((a, o) => a + o.cents, 0n), items: owing.reduce((a, o) => a + o.items, 0n), clients: BigInt(owing.length),
    top: top.map((o) => ({ id: o.id, code: o.code, name: o.name, cents: o.cents, oldest: o.oldest })),
  };
}

export interface WarehouseLoad {
  warehouseId: number;
  name: string;
  outboundOpen: bigint;
  outboundPicking: bigint;
  picking: bigint;
  inbound: bigint;
}

/**
 * Open work per warehouse: outbound tasks waiting to be picked (待拣货) and being picked or picked but not
 * shipped (拣货中/已拣货), picking orders not yet posted, inbound tasks waiting or being received.
 */
export async function warehouseWorkload(tenant: TypedTenant): Promise<WarehouseLoad[]> {
  const loads = new Map<number, WarehouseLoad>();
  const at = (id: unknown) => {
    const k = Number(id ?? 0);
    let l = loads.get(k);
    if (!l) loads.set(k, (l = { warehouseId: k, name: '', outboundOpen: 0n, outboundPicking: 0n, picking: 0n, inbound: 0n }));
    return l;
  };
  const out = await tenant.select('outboundTask').select((eb) => ['outboundTask.warehouseId', 'outboundTask.status', eb.fn.countAll<number>().as('n')])
    .where('outboundTask.status', 'in', ['open', 'picking', 'picked']).groupBy(['outboundTask.warehouseId', 'outboundTask.status']).execute();
  for (const r of out) {
    const l = at(r.warehouseId);
    if (r.status === 'open') l.outboundOpen += big(r.n);
    else l.outboundPicking += big(r.n);
  }
  const picks = await tenant.select('pickingOrder').select((eb) => ['pickingOrder.warehouseId', eb.fn.countAll<number>().as('n')])
    .where('pickingOrder.status', '=', 'draft').groupBy('pickingOrder.warehouseId').execute();
  for (const r of picks) at(r.warehouseId).picking += big(r.n);
  const inbound = await tenant.select('inboundTask').select((eb) => ['inboundTask.warehouseId', eb.fn.countAll<number>().as('n')])
    .where('inboundTask.status', 'in', ['open', 'receiving']).groupBy('inboundTask.warehouseId').execute();
  for (const r of inbound) at(r.warehouseId).inbound += big(r.n);
  const ids = [...loads.keys()].filter((k) => k > 0);
  const names = ids.length ? await tenant.select('warehouse').select(['id', 'name']).where('id', 'in', ids).execute() : [];
  for (const w of names) loads.get(Number(w.id))!.name = String(w.name);
  for (const l of loads.values()) if (!l.name) l.name = '（未指定仓库）';
  return [...loads.values()].sort((a, b) => a.name.localeCompare(b.name, 'zh'));
}
