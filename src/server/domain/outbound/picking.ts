// Picking (拣货) on the outbound floor: which open outbound tasks of a warehouse can be picked, where to
// take each product from, and the walking order of the locations.
// - Suggestions: "fewest locations" — for each product the locations of the warehouse that hold it
//   (storage and picking locations, and stock kept without a location), the fullest first, taken until
//   the quantity is covered, so a picker visits as few places as possible; ties go to the earlier place on
//   the walk. Staging (shipping), receiving and damaged locations and locked ones are never suggested.
//   What a location can give is on hand − reserved there, less what earlier lines of the same wave were
//   given. The products carry no lots or receipt dates, so FIFO has nothing to order by; when they do,
//   the order of `candidates` is the one place to change.
// - Walking order: zone, row, column, level (as the location table has them, compared as text with
//   numbers by value, so 2 comes before 10), then the code; lines without a location come last.
// Suggestions are advice: the picker records the place actually taken from, and posting is decided by
// the ledger's conditional update on that place (two pickers taking the last units: one of them wins).
import type { Tenant } from '../../catalog/tenant.ts';
import { bizError, documentStatusError } from '../../http/errors.ts';
import { TypedTenant } from '../../db/typed.ts';
import { OT_STATUS, OT_TITLE, PICKABLE_TASK } from './task.ts';

/** Location types stock is picked from. */
export const PICK_FROM_TYPES = ['storage', 'picking'];

export interface Place {
  id: number | null;
  lcCode: string | null;
  zone: string | null;
  locRow: string | null;
  locColumn: string | null;
  locLevel: string | null;
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Compares two places in walking order (no location last). */
export function walkCompare(a: Place | undefined, b: Place | undefined): number {
  if (!a?.id || !b?.id) return (a?.id ? 0 : 1) - (b?.id ? 0 : 1);
  for (const k of ['zone', 'locRow', 'locColumn', 'locLevel', 'lcCode'] as const) {
    const c = collator.compare(a[k] ?? '', b[k] ?? '');
    if (c) return c;
  }
  return a.id - b.id;
}

export async function placesOf(tenant: Tenant, ids: number[]): Promise<Map<number, Place & { warehouseId: number; type: string; status: string }>> {
  const t = TypedTenant.of(tenant);
  const out = new Map<number, Place & { warehouseId: number; type: string; status: string }>();
  const uniq = [...new Set(ids)];
  for (let i = 0; i < uniq.length; i += 500) {
    const rows = await t.select('location').select(['id', 'lcCode', 'zone', 'locRow', 'locColumn', 'locLevel', 'warehouseId', 'type', 'status'])
      .where('id', 'in', uniq.slice(i, i + 500)).execute();
    for (const r of rows) {
      out.set(Number(r.id), {
        id: Number(r.id), lcCode: String(r.lcCode), zone: r.zone ?? null, locRow: r.locRow ?? null, locColumn: r.locColumn ?? null,
        locLevel: r.locLevel ?? null, warehouseId: Number(r.warehouseId), type: String(r.type), status: String(r.status),
      });
    }
  }
  return out;
}

export interface TaskLineToPick {
  taskId: number;
  taskDocNo: string;
  taskLineId: number;
  lineNo: number;
  orderLineId: number;
  productId: number;
  productCode: string;
  productName: string;
  open: number;
}

/** The open quantities of the tasks (all of one warehouse, pickable), refused otherwise. */
export async function linesToPick(tenant: Tenant, taskIds: number[]): Promise<{ warehouseId: number; lines: TaskLineToPick[] }> {
  const t = TypedTenant.of(tenant);
  const ids = [...new Set(taskIds)].sort((a, b) => a - b);
  const tasks = await t.select('outboundTask').select(['id', 'docNo', 'status', 'warehouseId']).where('id', 'in', ids).orderBy('id').execute();
  // another company's task is one this caller cannot see: not found, as 021306 says
  if (tasks.length < ids.length) throw bizError('COMMON_NOT_FOUND_4004', { entity: '出库任务' }, { tasks: ids.filter((id) => !tasks.some((task) => Number(task.id) === id)) });
  const warehouseId = Number(tasks[0]?.warehouseId ?? 0);
  const elsewhere = tasks.filter((task) => Number(task.warehouseId) !== warehouseId).map((task) => String(task.docNo));
  if (elsewhere.length) {
    const wh = await t.select('warehouse').select('name').where('id', '=', warehouseId).executeTakeFirst();
    throw bizError('OUTBOUND_WAVE_WAREHOUSE_4164', { tasks: elsewhere.join('、'), warehouse: String(wh?.name ?? '') }, { tasks: elsewhere });
  }
  // a task picked in full (by a racing picking order, or long ago) has nothing to pick: the same refusal
  // as a task whose open lines are all held by other picking orders, whatever the timing
  const spent = tasks.filter((task) => task.status === 'picked' || task.status === 'done');
  if (spent.length) throw bizError('OUTBOUND_PICK_NOTHING_4163', { tasks: spent.map((task) => String(task.docNo)).join('、') }, { tasks: spent.map((task) => Number(task.id)) });
  const closed = tasks.find((task) => !PICKABLE_TASK.includes(String(task.status)));
  if (closed) throw documentStatusError(OT_TITLE, OT_STATUS, closed, '拣货');
  const docNo = new Map(tasks.map((task) => [Number(task.id), String(task.docNo)]));
  const rows = await t.select('outboundTaskLine').innerJoin('product', (j) => j.onRef('product.id', '=', 'outboundTaskLine.productId').onRef('product.companyId', '=', 'outboundTaskLine.companyId'))
    .select(['outboundTaskLine.id', 'outboundTaskLine.taskId', 'outboundTaskLine.lineNo', 'outboundTaskLine.orderLineId', 'outboundTaskLine.productId', 'outboundTaskLine.qty',
      'outboundTaskLine.pickingQty', 'outboundTaskLine.pickedQty', 'product.code', 'product.name'])
    .where('outboundTaskLine.taskId', 'in', ids).orderBy('outboundTaskLine.taskId').orderBy('outboundTaskLine.lineNo').execute();
  const lines = rows.map((r) => ({
    taskId: Number(r.taskId), taskDocNo: docNo.get(Number(r.taskId))!, taskLineId: Number(r.id), lineNo: Number(r.lineNo), orderLineId: Number(r.orderLineId),
    productId: Number(r.productId), productCode: String(r.code), productName: String(r.name), open: Math.max(0, Number(r.qty) - Number(r.pickedQty) - Number(r.pickingQty)),
  })).filter((l) => l.open > 0);
  if (!lines.length) throw bizError('OUTBOUND_PICK_NOTHING_4163', { tasks: tasks.map((task) => String(task.docNo)).join('、') }, { tasks: ids });
  return { warehouseId, lines };
}

export interface Suggested extends TaskLineToPick {
  qty: number;
  locationId: number | null;
  place?: Place;
}

/**
 * Splits each open task line over the places to take it from (fewest locations, see above) and sorts the
 * result in walking order. A quantity no place can give is one more line without a location: the picker
 * chooses where, or records it short.
 */
export async function suggestPicks(tenant: Tenant, warehouseId: number, lines: TaskLineToPick[]): Promise<Suggested[]> {
  const t = TypedTenant.of(tenant);
  const products = [...new Set(lines.map((l) => l.productId))];
  const stock = new Map<number, Array<{ loc: number; free: number }>>();
  for (let i = 0; i < products.length; i += 500) {
    const rows = await t.select('stockBalance').select(['productId', 'locationId', 'onHand', 'reserved'])
      .where('warehouseId', '=', warehouseId).where('productId', 'in', products.slice(i, i + 500)).where('onHand', '>', 0).execute();
    for (const r of rows) {
      const free = Number(r.onHand) - Number(r.reserved);
      if (free <= 0) continue;
      const list = stock.get(Number(r.productId)) ?? [];
      list.push({ loc: Number(r.locationId), free });
      stock.set(Number(r.productId), list);
    }
  }
  const places = await placesOf(tenant, [...stock.values()].flatMap((l) => l.map((x) => x.loc)).filter((id) => id !== 0));
  const usable = (loc: number) => {
    if (loc === 0) return true;
    const p = places.get(loc);
    return !!p && p.status === 'enabled' && PICK_FROM_TYPES.includes(p.type);
  };
  // candidates per product: fullest first, then walking order
  for (const [pid, list] of stock) {
    const kept = list.filter((x) => usable(x.loc));
    kept.sort((a, b) => b.free - a.free || walkCompare(a.loc ? places.get(a.loc) : undefined, b.loc ? places.get(b.loc) : undefined));
    stock.set(pid, kept);
  }
  const out: Suggested[] = [];
  for (const l of lines) {
    let need = l.open;
    for (const c of stock.get(l.productId) ?? []) {
      if (need <= 0) break;
      if (c.free <= 0) continue;
      const take = Math.min(need, c.free);
      c.free -= take;
      need -= take;
      out.push({ ...l, qty: take, locationId: c.loc || null, place: c.loc ? places.get(c.loc) : undefined });
    }
    if (need > 0) out.push({ ...l, qty: need, locationId: null });
  }
  return sortByWalk(out);
}

/** In walking order of each line's place (stable for lines at one place: task, then task line). */
export function sortByWalk<T extends { place?: Place; taskId: number; lineNo: number }>(lines: T[]): T[] {
  return lines.sort((a, b) => walkCompare(a.place, b.place) || a.taskId - b.taskId || a.lineNo - b.lineNo);
}
