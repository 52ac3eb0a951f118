// Cartons (纸箱) and loading lists (装车单) on the outbound floor, between picking and the delivery note.
//
// What ties them together (decided for issue 14):
// - Packing moves no stock. Picked goods sit in the warehouse's staging location (staging.ts); a carton
//   only says which of them travel in which numbered box. The outbound task line counts what its open
//   cartons hold (`packed_qty`: packed and not yet shipped), claimed by one conditional UPDATE per line
//   with the guard packed + q ≤ picked − delivered — so a carton never holds more than was picked and is
//   still in staging, and of two packers taking the last picked units exactly one wins.
// - A loading list puts sealed cartons (已封箱) onto a container (one of the company's container types, with
//   its seal number) or a truck; claiming a carton is one conditional UPDATE on the carton row (status
//   packed and on no list), so a carton is on one list only. Capacity by volume and weight: a warning, not
//   a refusal (the standard capacities of the usual container types, or what the clerk enters).
// - Stock still leaves only by a delivery note's posting. A delivery note is made from a loaded list, one
//   per outbound task on it (a note is per task, so per order): its lines are exactly what the list's
//   cartons of that task hold. Posting it ships those cartons (loaded → shipped, one conditional UPDATE: of
//   two notes for the same cartons one is refused), lowers packed_qty by what ships, and moves the list to
//   已发货 when all its cartons are shipped; reversing the note undoes each step. A note made straight from
//   a task (without cartons) may take only picked goods that are in no carton (picked − delivered − packed).
import { sql } from 'kysely';
import type { Tenant } from '../../catalog/tenant.ts';
import { bizError } from '../../http/errors.ts';
import { TypedTenant } from '../../db/typed.ts';
import { bulkChange } from './bulk.ts';

type Row = Record<string, unknown>;

export const CARTON_STATUS = { draft: '装箱中', packed: '已封箱', loaded: '已装车', shipped: '已发货', cancelled: '已作废' } as const;
export const LOADING_STATUS = { draft: '装车中', loaded: '已装车', shipped: '已发货', cancelled: '已作废' } as const;

/**
 * Inner capacity of the usual ISO container types (volume in m³ × 1000 = litres, payload in kg × 1000 = g):
 * the default of a loading list's capacity when its container type is one of them.
 */
export const CONTAINER_CAPACITY: Record<string, { volume: number; weight: number }> = {
  '20GP': { volume: 33_200, weight: 28_200_000 },
  '40GP': { volume: 67_700, weight: 26_700_000 },
  '40HQ': { volume: 76_300, weight: 26_500_000 },
  '45HQ': { volume: 86_000, weight: 27_700_000 },
};

/** What each task line has picked, delivered and packed (open cartons), with its product code. */
export async function taskLineFigures(tenant: Tenant, taskLineIds: number[]): Promise<Map<number, Row>> {
  const t = TypedTenant.of(tenant);
  const out = new Map<number, Row>();
  const ids = [...new Set(taskLineIds)];
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await t.select('outboundTaskLine').innerJoin('outboundTask', (j) => j.onRef('outboundTask.id', '=', 'outboundTaskLine.taskId').onRef('outboundTask.companyId', '=', 'outboundTaskLine.companyId'))
      .innerJoin('product', (j) => j.onRef('product.id', '=', 'outboundTaskLine.productId').onRef('product.companyId', '=', 'outboundTaskLine.companyId'))
      .select(['outboundTaskLine.id', 'outboundTaskLine.taskId', 'outboundTaskLine.lineNo', 'outboundTaskLine.orderLineId', 'outboundTaskLine.productId', 'outboundTaskLine.pickedQty',
        'outboundTaskLine.deliveredQty', 'outboundTaskLine.packedQty', 'outboundTask.docNo', 'product.code'])
      .where('outboundTaskLine.id', 'in', ids.slice(i, i + 500)).execute();
    for (const r of rows) out.set(Number(r.id), { ...r, packedQty: Number(r.packedQty ?? 0) });
  }
  return out;
}

/** Picked, still in staging and in no carton: what a carton (or a note straight from the task) can take. */
export const unpacked = (r: Row) => Math.max(0, Number(r.pickedQty) - Number(r.deliveredQty) - Number(r.packedQty ?? 0));

function perTaskLine(lines: Row[]): Array<[number, number]> {
  const m = new Map<number, number>();
  for (const l of lines) m.set(Number(l.taskLineId), (m.get(Number(l.taskLineId)) ?? 0) + Number(l.qty));
  return [...m.entries()].sort((a, b) => a[0] - b[0]);
}

/** Claims the lines' quantities as packed on their task lines; refused naming the first line over. */
export async function claimPacked(tenant: Tenant, lines: Row[]): Promise<void> {
  const rows = perTaskLine(lines);
  const done = await bulkChange(tenant, {
    table: 'outbound_task_line', values: ['q'], set: 'packed_qty = coalesce(packed_qty, 0) + v.q', guard: 'coalesce(t.packed_qty, 0) + v.q <= t.picked_qty - t.delivered_qty',
  }, rows);
  if (done.size === rows.length) return;
  const [taskLineId, ask] = rows.find(([id]) => !done.has(id))!;
  const tl = (await taskLineFigures(tenant, [taskLineId])).get(taskLineId)!;
  throw bizError('CARTON_PACK_OVER_4271', {
    docNo: String(tl.docNo), line: Number(tl.lineNo), code: String(tl.code), picked: Number(tl.pickedQty), delivered: Number(tl.deliveredQty), packed: Number(tl.packedQty), ask, left: unpacked(tl),
  }, { taskLineId, ask, left: unpacked(tl) });
}

/** Gives back what the lines held as packed (a carton edited, cancelled, or its goods shipped). */
export async function releasePacked(tenant: Tenant, lines: Row[]): Promise<void> {
  const rows = perTaskLine(lines);
  const done = await bulkChange(tenant, { table: 'outbound_task_line', values: ['q'], set: 'packed_qty = packed_qty - v.q', guard: 'coalesce(t.packed_qty, 0) >= v.q' }, rows);
  if (done.size !== rows.length) throw new Error('a task line holds fewer packed units than its cartons');
}

/** The lines of the cartons of a loading list that belong to one task (summed per task line), with the cartons. */
export async function listCartonsOfTask(tenant: Tenant, loadingListId: number, taskId: number, statuses: string[]) {
  const t = TypedTenant.of(tenant);
  const cartons = await t.select('carton').select(['id', 'docNo', 'status']).where('loadingListId', '=', loadingListId).where('taskId', '=', taskId)
    .where('status', 'in', statuses).orderBy('id').execute();
  const lines = cartons.length ? await t.select('cartonLine').select(['cartonId', 'taskLineId', 'productId', 'qty']).where('cartonId', 'in', cartons.map((c) => Number(c.id))).execute() : [];
  return { cartons, lines: perTaskLine(lines).map(([taskLineId, qty]) => ({ taskLineId, qty })) };
}

/**
 * A delivery note made from a loading list is posted: its cartons of the note's task ship (loaded →
 * shipped), what they held is no longer packed, and the list is shipped when none of its cartons is left.
 */
export async function shipCartons(tenant: Tenant, note: Row, lines: Row[]): Promise<void> {
  const t = TypedTenant.of(tenant);
  const listId = Number(note.loadingListId);
  const expected = await listCartonsOfTask(tenant, listId, Number(note.taskId), ['loaded']);
  const mine = perTaskLine(lines);
  const same = expected.lines.length === mine.length && expected.lines.every((l, i) => l.taskLineId === mine[i]![0] && l.qty === mine[i]![1]);
  const ids = expected.cartons.map((c) => Number(c.id));
  const moved = ids.length && same ? await t.update('carton').set({ status: 'shipped', deliveryNoteId: Number(note.id) }).where('id', 'in', ids).where('status', '=', 'loaded').returning('id').execute() : [];
  if (!same || moved.length !== ids.length) {
    const list = await t.select('loadingList').select('docNo').where('id', '=', listId).executeTakeFirst();
    throw bizError('LOADING_NOTE_CARTONS_4274', { docNo: String(list?.docNo ?? listId), note: String(note.docNo) }, { loadingListId: listId });
  }
  await releasePacked(tenant, lines);
  const left = await t.select('carton').select('id').where('loadingListId', '=', listId).where('status', '=', 'loaded').limit(1).executeTakeFirst();
  if (!left) await t.update('loadingList').set({ status: 'shipped', version: sql`${sql.ref('version')} + 1`, updatedAt: new Date().toISOString() }).where('id', '=', listId).where('status', '=', 'loaded').execute();
}

/** The reversal of shipCartons (a posted note made from a loading list is cancelled). */
export async function unshipCartons(tenant: Tenant, note: Row, lines: Row[]): Promise<void> {
  const t = TypedTenant.of(tenant);
  const listId = Number(note.loadingListId);
  await t.update('carton').set({ status: 'loaded', deliveryNoteId: null }).where('deliveryNoteId', '=', Number(note.id)).where('status', '=', 'shipped').execute();
  const rows = perTaskLine(lines);
  await bulkChange(tenant, { table: 'outbound_task_line', values: ['q'], set: 'packed_qty = coalesce(packed_qty, 0) + v.q', guard: 'true' }, rows);
  await t.update('loadingList').set({ status: 'loaded', version: sql`${sql.ref('version')} + 1`, updatedAt: new Date().toISOString() }).where('id', '=', listId).where('status', '=', 'shipped').execute();
}

/**
 * Each sales order line's quantity at every stage of the floor: reserved (the order's own), picked (task
 * lines), packed (in cartons not cancelled), loaded (cartons loaded or shipped), delivered (the order's
 * shipped quantity) and signed for (lines of signed delivery notes).
 */
export async function orderLineStages(tenant: Tenant, orderLineIds: number[]): Promise<Map<number, { pickedQty: number; packedQty: number; loadedQty: number; signedQty: number }>> {
  const t = TypedTenant.of(tenant);
  const out = new Map<number, { pickedQty: number; packedQty: number; loadedQty: number; signedQty: number }>();
  const ids = [...new Set(orderLineIds)];
  for (const id of ids) out.set(id, { pickedQty: 0, packedQty: 0, loadedQty: 0, signedQty: 0 });
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const picked = await t.select('outboundTaskLine').innerJoin('outboundTask', (j) => j.onRef('outboundTask.id', '=', 'outboundTaskLine.taskId').onRef('outboundTask.companyId', '=', 'outboundTaskLine.companyId'))
      .select((eb) => ['outboundTaskLine.orderLineId', eb.fn.sum('outboundTaskLine.pickedQty').as('q')]).where('outboundTaskLine.orderLineId', 'in', chunk)
      .where('outboundTask.status', '<>', 'cancelled').groupBy('outboundTaskLine.orderLineId').execute();
    for (const r of picked) out.get(Number(r.orderLineId))!.pickedQty = Number(r.q ?? 0);
    const packed = await t.select('cartonLine').innerJoin('carton', (j) => j.onRef('carton.id', '=', 'cartonLine.cartonId').onRef('carton.companyId', '=', 'cartonLine.companyId'))
      .select(['cartonLine.orderLineId', 'carton.status', 'cartonLine.qty']).where('cartonLine.orderLineId', 'in', chunk).where('carton.status', '<>', 'cancelled').execute();
    for (const r of packed) {
      const o = out.get(Number(r.orderLineId))!;
      o.packedQty += Number(r.qty);
      if (r.status === 'loaded' || r.status === 'shipped') o.loadedQty += Number(r.qty);
    }
    const signed = await t.select('deliveryNoteLine').innerJoin('deliveryNote', (j) => j.onRef('deliveryNote.id', '=', 'deliveryNoteLine.noteId').onRef('deliveryNote.companyId', '=', 'deliveryNoteLine.companyId'))
      .select((eb) => ['deliveryNoteLine.orderLineId', eb.fn.sum('deliveryNoteLine.qty').as('q')]).where('deliveryNoteLine.orderLineId', 'in', chunk)
      .where('deliveryNote.status', '=', 'signed').groupBy('deliveryNoteLine.orderLineId').execute();
    for (const r of signed) out.get(Number(r.orderLineId))!.signedQty = Number(r.q ?? 0);
  }
  return out;
}
