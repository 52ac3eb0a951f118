// The lists the outbound floor's screens choose from, beyond the document engine's calls (bound in
// ops/outbound-ops.ts and ops/floor-ops.ts): the tasks a new picking order can take, the picking
// suggestion for chosen tasks, what a task can still pack (a new carton's lines) and the sealed cartons a
// loading list can take.
import { sql } from 'kysely';
import type { CallContext } from '../../catalog/context.ts';
import { TypedTenant } from '../../db/typed.ts';
import { packableLines } from '../../documents/types/carton.ts';
import { bizError } from '../../http/errors.ts';
import { text } from '../procurement/common.ts';
import { linesToPick, suggestPicks } from './picking.ts';
import { OT_STATUS, PICKABLE_TASK } from './task.ts';

/** Open tasks with something left to pick (at most 500), by warehouse and a keyword on the number or client. */
export async function pickableTasks(ctx: CallContext, input: { warehouseId?: number; keyword?: string }) {
  let q = TypedTenant.of(ctx.tenant).select('outboundTask')
    .innerJoin('warehouse', (j) => j.onRef('warehouse.id', '=', 'outboundTask.warehouseId').onRef('warehouse.companyId', '=', 'outboundTask.companyId'))
    .leftJoin('client', (j) => j.onRef('client.id', '=', 'outboundTask.clientId').onRef('client.companyId', '=', 'outboundTask.companyId'))
    .select(['outboundTask.id', 'outboundTask.docNo', 'outboundTask.status', 'outboundTask.warehouseId', 'outboundTask.shipDate', 'outboundTask.totalQty', 'outboundTask.pickedQty', 'outboundTask.pickingQty',
      'warehouse.name as warehouseName', 'client.name as clientName'])
    .where('outboundTask.status', 'in', PICKABLE_TASK)
    .where(sql<boolean>`${sql.ref('outboundTask.totalQty')} > ${sql.ref('outboundTask.pickedQty')} + ${sql.ref('outboundTask.pickingQty')}`);
  if (input.warehouseId) q = q.where('outboundTask.warehouseId', '=', input.warehouseId);
  const kw = input.keyword?.trim();
  if (kw) q = q.where((eb) => eb.or([eb('outboundTask.docNo', 'like', `%${kw}%`), eb('client.name', 'like', `%${kw}%`)]));
  const rows = await q.orderBy('outboundTask.id').limit(500).execute();
  const list = rows.map((r) => ({
    id: Number(r.id), docNo: String(r.docNo), status: String(r.status), statusText: OT_STATUS[String(r.status) as keyof typeof OT_STATUS], warehouseId: Number(r.warehouseId), warehouseName: String(r.warehouseName),
    clientName: text(r.clientName), shipDate: text(r.shipDate), openQty: Number(r.totalQty) - Number(r.pickedQty) - Number(r.pickingQty),
    label: `${String(r.docNo)} ${text(r.clientName) ?? ''}`.trim(), value: Number(r.id),
  }));
  return { list, total: list.length };
}

/** Where to take each open line of the tasks from (one task, or several of one warehouse: a wave), in walking order. */
export async function pickingSuggestion(ctx: CallContext, taskIds: number[]) {
  const { warehouseId, lines } = await linesToPick(ctx.tenant, taskIds);
  const s = await suggestPicks(ctx.tenant, warehouseId, lines);
  const list = s.map((l, i) => ({
    key: `${l.taskLineId}:${l.locationId ?? 0}`, lineNo: i + 1, taskId: l.taskId, taskDocNo: l.taskDocNo, taskLineId: l.taskLineId, productId: l.productId, productCode: l.productCode, productName: l.productName, qty: l.qty,
    suggestedLocationId: l.locationId, suggestedLcCode: l.place?.lcCode ?? null,
  }));
  const wh = await TypedTenant.of(ctx.tenant).select('warehouse').select('name').where('id', '=', warehouseId).executeTakeFirst();
  return { warehouseId, warehouseName: text(wh?.name), list, total: list.length };
}

/** What the task can still pack: picked, in staging and in no carton, per task line. */
export async function packableOfTask(ctx: CallContext, taskId: number) {
  const task = await TypedTenant.of(ctx.tenant).select('outboundTask').select(['id', 'docNo']).where('id', '=', taskId).executeTakeFirst();
  if (!task) throw bizError('COMMON_NOT_FOUND_4004', { entity: '出库任务' });
  const lines = await packableLines(ctx.tenant, taskId);
  return { taskId, taskDocNo: String(task.docNo), lines, list: lines, total: lines.length };
}

/** Sealed cartons on no loading list (at most 200), by warehouse and a keyword; or one carton by id. */
export async function loadableCartons(ctx: CallContext, input: { warehouseId?: number; keyword?: string; id?: number }) {
  let q = TypedTenant.of(ctx.tenant).select('carton')
    .leftJoin('client', (j) => j.onRef('client.id', '=', 'carton.clientId').onRef('client.companyId', '=', 'carton.companyId'))
    .leftJoin('outboundTask', (j) => j.onRef('outboundTask.id', '=', 'carton.taskId').onRef('outboundTask.companyId', '=', 'carton.companyId'))
    .select(['carton.id', 'carton.docNo', 'carton.taskId', 'carton.warehouseId', 'carton.weight', 'carton.volume', 'carton.totalQty', 'client.name as clientName', 'outboundTask.docNo as taskDocNo']);
  if (input.id) q = q.where('carton.id', '=', input.id);
  else q = q.where('carton.status', '=', 'packed').where('carton.loadingListId', 'is', null);
  if (input.warehouseId) q = q.where('carton.warehouseId', '=', input.warehouseId);
  const kw = input.keyword?.trim();
  if (kw) q = q.where((eb) => eb.or([eb('carton.docNo', 'like', `%${kw}%`), eb('outboundTask.docNo', 'like', `%${kw}%`), eb('client.name', 'like', `%${kw}%`)]));
  const rows = await q.orderBy('carton.id').limit(200).execute();
  const list = rows.map((r) => ({
    id: Number(r.id), cartonId: Number(r.id), code: String(r.docNo), docNo: String(r.docNo), name: `${text(r.taskDocNo) ?? ''} ${text(r.clientName) ?? ''}`.trim(), taskId: Number(r.taskId), taskDocNo: text(r.taskDocNo), clientName: text(r.clientName),
    weight: r.weight == null ? null : (Number(r.weight) / 1000).toFixed(3), volume: r.volume == null ? null : (Number(r.volume) / 1000).toFixed(3), totalQty: Number(r.totalQty ?? 0),
    label: `${String(r.docNo)} ${text(r.clientName) ?? ''}`.trim(), value: Number(r.id),
  }));
  return { list, total: list.length };
}
