// Inbound tasks (入库任务, `inbound_task` + lines): created by confirming an inbound plan (inbound-plan.ts),
// received through receiving notes that name the task (receiving_note.task_id). open → receiving → done;
// cancelled, together with its plan, while nothing was received against it; closed (已关闭), together
// with its plan, when the supplier delivered less than planned and no more is expected (closeTask).
// Posting a note of a task raises the task lines' received quantities (each a conditional UPDATE on the
// task line of the note's order line) after claiming the task row while it is open or receiving; the
// task's status then follows from its lines (done when every line is received in full), and the plan
// follows the task (done / back to confirmed when a receipt is reversed).
// Closing gives what the task still expected back to the order lines (purchase_order_line.planned_qty), so
// it is no longer 在途 and the order's remaining quantity can be planned again or received on the order
// itself; a closed task keeps on each order line only what it received (at most its planned quantity), so
// reversing a receipt of a closed task gives that part back too.
import { sql } from 'kysely';
import { companyDateRange } from '../../../core/format.ts';
import { splitUnits } from '../../../core/stock-units.ts';
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import type { DB } from '../../db/connection.ts';
import { bizError, validationError } from '../../http/errors.ts';
import { runSql } from '../../db/raw-sql.ts';
import {
  DOC_STATUS, parseDay, refusal, statusError, text, tz, newestFirstPage, namedRows, type Row,
  PAGING_PROPS,
} from './common.ts';
import { CONTAINER_STATUS } from './container.ts';
import { cancelTaskOfPlan, PLAN_STATUS, PLAN_TITLE, releaseLines, TASK_STATUS, TASK_TITLE, type PlanStatus, type TaskStatus } from './inbound-plan.ts';

export { TASK_STATUS, TASK_TITLE };
const RN_TITLE = '收货单';
/** Tasks that take receipts. */
const RECEIVABLE: TaskStatus[] = ['open', 'receiving'];

export const TASK_LIST_INPUT: InputSchema = {
  type: 'object',
  properties: {
    ...PAGING_PROPS,
    docNo: { type: ['string', 'null'], maxLength: 50, title: '单号' },
    orderId: { type: ['integer', 'null'], minimum: 1, title: '采购订单' },
    planId: { type: ['integer', 'null'], minimum: 1, title: '入库计划' },
    containerId: { type: ['integer', 'null'], minimum: 1, title: '集装箱' },
    warehouseId: { type: ['integer', 'null'], minimum: 1, title: '仓库' },
    status: { enum: [...Object.keys(TASK_STATUS), null], title: '状态' },
    dateFrom: { type: ['string', 'null'], maxLength: 10, title: '开始日期' },
    dateTo: { type: ['string', 'null'], maxLength: 10, title: '结束日期' },
  },
};

export interface TaskListInput {
  page: number;
  pageSize: number;
  docNo?: string | null;
  orderId?: number | null;
  planId?: number | null;
  containerId?: number | null;
  warehouseId?: number | null;
  status?: TaskStatus | null;
  dateFrom?: string | null;
  dateTo?: string | null;
}

const like = (v: string) => `%${v.replace(/[\\%_]/g, '')}%`;

/**
 * A receiving note saved against a task (before its transaction): the task must exist, belong to the
 * note's order, still take receipts, and hold every order line the note receives.
 */
export async function checkNoteTask(tenant: Tenant, taskId: number, orderId: number, orderLineIds: number[]): Promise<void> {
  const task = (await tenant.select('inboundTask')
    .innerJoin('purchaseOrder', (j) => j.onRef('purchaseOrder.id', '=', 'inboundTask.orderId').onRef('purchaseOrder.companyId', '=', 'inboundTask.companyId'))
    .select(['inboundTask.id', 'inboundTask.docNo', 'inboundTask.status', 'inboundTask.orderId', 'purchaseOrder.docNo as orderDocNo'])
    .where('inboundTask.id', '=', taskId).executeTakeFirst()) as Row | undefined;
  if (!task) throw validationError([{ field: 'taskId', message: '入库任务不存在' }]);
  if (Number(task.orderId) !== orderId) {
    const order = (await tenant.select('purchaseOrder').select('docNo').where('id', '=', orderId).executeTakeFirst()) as Row | undefined;
    throw bizError('INBOUND_TASK_ORDER_4114', { taskDocNo: String(task.docNo), taskOrderDocNo: String(task.orderDocNo), orderDocNo: String(order?.docNo ?? orderId) }, { taskId, orderId });
  }
  if (!RECEIVABLE.includes(String(task.status) as TaskStatus)) throw statusError(TASK_TITLE, TASK_STATUS, task, '收货');
  const held = new Set(((await tenant.select('inboundTaskLine').select('orderLineId').where('taskId', '=', taskId).execute()) as Row[]).map((r) => Number(r.orderLineId)));
  orderLineIds.forEach((id, i) => {
    if (!held.has(id)) throw bizError('PURCHASE_LINE_MISMATCH_4098', { doc: RN_TITLE, line: i + 1, source: TASK_TITLE, docNo: String(task.docNo) }, { line: i + 1, orderLineId: id });
  });
}

/**
 * A receiving note of a task was posted (sign 1) or a posted one cancelled (sign −1), inside that
 * transaction: the task lines' received quantities, then the task's and the plan's status.
 */
export async function applyNoteToTask(db: DB, tenant: Tenant, noteId: number, taskId: number | null, sign: 1 | -1): Promise<void> {
  if (taskId == null) return;
  const statuses: TaskStatus[] = sign > 0 ? RECEIVABLE : ['open', 'receiving', 'done', 'closed'];
  const claimed = (await tenant.update('inboundTask').set({ updatedAt: new Date().toISOString() }).where('id', '=', taskId).where('status', 'in', statuses)
    .returning(['id', 'docNo', 'status']).executeTakeFirst()) as Row | undefined;
  if (!claimed) {
    const task = (await tenant.select('inboundTask').select(['id', 'docNo', 'status']).where('id', '=', taskId).executeTakeFirstOrThrow()) as Row;
    throw statusError(TASK_TITLE, TASK_STATUS, task, sign > 0 ? '收货' : '冲回收货');
  }
  const per = new Map<number, number>();
  for (const r of (await tenant.select('receivingNoteLine').select(['orderLineId', 'qty']).where('noteId', '=', noteId).execute()) as Row[]) {
    per.set(Number(r.orderLineId), (per.get(Number(r.orderLineId)) ?? 0) + Number(r.qty));
  }
  for (const [orderLineId, q] of [...per.entries()].sort((a, b) => a[0] - b[0])) {
    if (q === 0) continue;
    let u = tenant.update('inboundTaskLine').set({ receivedQty: sql`${sql.ref('receivedQty')} + ${sign * q}` }).where('taskId', '=', taskId).where('orderLineId', '=', orderLineId);
    if (sign < 0) u = u.where('receivedQty', '>=', q);
    const ok = (await u.returning(['id', 'qty', 'receivedQty']).executeTakeFirst()) as Row | undefined;
    if (ok && sign < 0 && claimed.status === 'closed') {
      // What the closed task held of the order line was min(planned, received): give back the difference.
      const planned = Number(ok.qty);
      const after = Number(ok.receivedQty);
      await givePlannedBack(tenant, orderLineId, Math.min(planned, after + q) - Math.min(planned, after), taskId);
    }
    if (ok) continue;
    if (sign < 0) throw new Error(`inbound task ${taskId}: order line ${orderLineId} has less received than receiving note ${noteId}`);
    const line = (await tenant.select('receivingNoteLine').select('lineNo').where('noteId', '=', noteId).where('orderLineId', '=', orderLineId).orderBy('lineNo').executeTakeFirst()) as Row | undefined;
    throw bizError('PURCHASE_LINE_MISMATCH_4098', { doc: RN_TITLE, line: Number(line?.lineNo ?? 0), source: TASK_TITLE, docNo: String(claimed.docNo) }, { orderLineId, taskId });
  }
  await recomputeTask(db, tenant, taskId);
}

/** The task's received total and status from its lines; its plan follows (done while the task is). */
async function recomputeTask(db: DB, tenant: Tenant, taskId: number): Promise<void> {
  const now = new Date().toISOString();
  await runSql(db, `
    update inbound_task set
      received_qty = (select coalesce(sum(l.received_qty), 0) from inbound_task_line l where l.company_id = inbound_task.company_id and l.task_id = inbound_task.id),
      status = case
        when status in ('cancelled', 'closed') then status
        when not exists (select 1 from inbound_task_line l where l.company_id = inbound_task.company_id and l.task_id = inbound_task.id and l.received_qty < l.qty) then 'done'
        when exists (select 1 from inbound_task_line l where l.company_id = inbound_task.company_id and l.task_id = inbound_task.id and l.received_qty > 0) then 'receiving'
        else 'open' end
    where company_id = ? and id = ?`, [tenant.companyId, taskId]);
  const task = (await tenant.select('inboundTask').select(['status', 'planId', 'doneAt']).where('id', '=', taskId).executeTakeFirstOrThrow()) as Row;
  const done = task.status === 'done';
  if (done !== (task.doneAt != null)) await tenant.update('inboundTask').set({ doneAt: done ? now : null }).where('id', '=', taskId).execute();
  if (done) await tenant.update('inboundPlan').set({ status: 'done', doneAt: now, updatedAt: now }).where('id', '=', Number(task.planId)).where('status', '=', 'confirmed').execute();
  else await tenant.update('inboundPlan').set({ status: 'confirmed', doneAt: null, updatedAt: now }).where('id', '=', Number(task.planId)).where('status', '=', 'done').execute();
}

/** open → cancelled, together with its plan (confirmed → cancelled); the planned quantities are given back. */
export async function cancelTask(ctx: CallContext, input: { id: number; version?: number }) {
  const caller = ctx.caller!;
  const now = new Date().toISOString();
  return ctx.transaction(async (db, tenant) => {
    const task = (await tenant.select('inboundTask').select(['id', 'docNo', 'status', 'version', 'planId']).where('id', '=', input.id).executeTakeFirst()) as Row | undefined;
    if (!task) throw bizError('COMMON_NOT_FOUND_4004', { entity: TASK_TITLE });
    if (task.status !== 'open') throw statusError(TASK_TITLE, TASK_STATUS, task, '作废');
    if (input.version !== undefined && Number(task.version) !== input.version) throw bizError('COMMON_VERSION_CONFLICT_4009', { entity: TASK_TITLE });
    // The plan first, as cancelling the plan does: both paths lock plan, then task.
    const plan = (await tenant.update('inboundPlan').set({ status: 'cancelled', cancelledAt: now, cancelledBy: caller.accountId, updatedAt: now, updatedBy: caller.accountId, version: sql`${sql.ref('version')} + 1` })
      .where('id', '=', Number(task.planId)).where('status', '=', 'confirmed').returning(['id', 'docNo']).executeTakeFirst()) as Row | undefined;
    if (!plan) throw await refusal(tenant, 'inboundPlan', PLAN_TITLE, PLAN_STATUS, Number(task.planId), undefined, ['confirmed'], '作废');
    await cancelTaskOfPlan(ctx, db, tenant, plan, now, { title: TASK_TITLE, docNo: String(task.docNo), version: input.version });
    await releaseLines(tenant, Number(plan.id));
    await ctx.audit({ action: 'cancel', entity: 'inboundPlan', recordId: Number(plan.id), recordLabel: String(plan.docNo), changes: [{ field: 'status', title: '状态', from: PLAN_STATUS.confirmed, to: PLAN_STATUS.cancelled }] }, db);
    const after = (await tenant.select('inboundTask').select(['version', 'totalQty']).where('id', '=', input.id).executeTakeFirstOrThrow()) as Row;
    return { id: input.id, docNo: String(task.docNo), status: 'cancelled' as const, version: Number(after.version), totalQty: Number(after.totalQty), planId: Number(plan.id), planDocNo: String(plan.docNo) };
  });
}

/** Lowers an order line's planned quantity by what a closed task no longer expects. */
async function givePlannedBack(tenant: Tenant, orderLineId: number, qty: number, taskId: number): Promise<void> {
  if (qty <= 0) return;
  const ok = await tenant.update('purchaseOrderLine').set({ plannedQty: sql`${sql.ref('plannedQty')} - ${qty}` })
    .where('id', '=', orderLineId).where('plannedQty', '>=', qty).returning('id').executeTakeFirst();
  if (!ok) throw new Error(`inbound task ${taskId}: order line ${orderLineId} has less planned than the task gives back`);
}

export const TASK_CLOSE_INPUT: InputSchema = {
  type: 'object',
  required: ['id', 'reason'],
  properties: {
    id: { type: 'integer', minimum: 1, title: '入库任务' },
    version: { type: 'integer', minimum: 1, title: '版本' },
    reason: { type: 'string', maxLength: 500, title: '关闭原因' },
  },
};

export interface TaskCloseInput {
  id: number;
  version?: number;
  reason: string;
}

/**
 * open / receiving → closed, with its plan (confirmed → closed): the supplier delivered less than planned
 * (or nothing) and no more is expected. What the task still expected is given back to the order lines;
 * refused while receiving notes of the task are unposted (they could not be posted afterwards).
 */
export async function closeTask(ctx: CallContext, input: TaskCloseInput) {
  const caller = ctx.caller!;
  const reason = input.reason.trim();
  if (!reason) throw validationError([{ field: 'reason', message: '请填写关闭原因' }]);
  const now = new Date().toISOString();
  return ctx.transaction(async (db, tenant) => {
    const task = (await tenant.select('inboundTask').select(['id', 'docNo', 'status', 'version', 'planId', 'orderId']).where('id', '=', input.id).executeTakeFirst()) as Row | undefined;
    if (!task) throw bizError('COMMON_NOT_FOUND_4004', { entity: TASK_TITLE });
    if (!RECEIVABLE.includes(String(task.status) as TaskStatus)) throw statusError(TASK_TITLE, TASK_STATUS, task, '关闭');
    if (input.version !== undefined && Number(task.version) !== input.version) throw bizError('COMMON_VERSION_CONFLICT_4009', { entity: TASK_TITLE });
    // The locks in the order a receipt takes them (order row, task, plan), so the two serialise: a receipt
    // posted first is in the lines read below, one posted after finds the task closed.
    await tenant.update('purchaseOrder').set({ updatedAt: now }).where('id', '=', Number(task.orderId)).execute();
    const drafts = (await tenant.select('receivingNote').select('docNo').where('taskId', '=', input.id).where('status', '=', 'draft').orderBy('id').limit(3).execute()) as Row[];
    if (drafts.length) {
      throw bizError('INBOUND_TASK_DRAFT_NOTES_4115', { docNo: String(task.docNo), notes: drafts.map((d) => String(d.docNo)).join('、') }, { id: input.id, notes: drafts.map((d) => String(d.docNo)) });
    }
    let q = tenant.update('inboundTask').set({
      status: 'closed', closedAt: now, closedBy: caller.accountId, closeReason: reason, updatedAt: now, updatedBy: caller.accountId, version: sql`${sql.ref('version')} + 1`,
    }).where('id', '=', input.id).where('status', 'in', RECEIVABLE);
    if (input.version !== undefined) q = q.where('version', '=', input.version);
    const closed = (await q.returning(['id', 'docNo', 'status', 'version', 'receivedQty']).executeTakeFirst()) as Row | undefined;
    if (!closed) throw await refusal(tenant, 'inboundTask', TASK_TITLE, TASK_STATUS, input.id, input.version, RECEIVABLE, '关闭');
    // as the status stood when the row was taken (a receipt may have come in since the first read)
    const from: TaskStatus = Number(closed.receivedQty) > 0 ? 'receiving' : 'open';
    const lines = (await tenant.select('inboundTaskLine').select(['orderLineId', 'qty', 'receivedQty']).where('taskId', '=', input.id).orderBy('orderLineId').execute()) as Row[];
    let releasedQty = 0;
    for (const l of lines) {
      const left = Math.max(0, Number(l.qty) - Number(l.receivedQty));
      await givePlannedBack(tenant, Number(l.orderLineId), left, input.id);
      releasedQty += left;
    }
    const plan = (await tenant.update('inboundPlan').set({ status: 'closed', closedAt: now, updatedAt: now, updatedBy: caller.accountId, version: sql`${sql.ref('version')} + 1` })
      .where('id', '=', Number(task.planId)).where('status', '=', 'confirmed').returning(['id', 'docNo']).executeTakeFirst()) as Row | undefined;
    if (!plan) throw await refusal(tenant, 'inboundPlan', PLAN_TITLE, PLAN_STATUS, Number(task.planId), undefined, ['confirmed'], '关闭');
    const why = { field: 'closeReason', title: '关闭原因', from: null, to: reason };
    await ctx.audit({
      action: 'close', entity: 'inboundTask', recordId: input.id, recordLabel: String(task.docNo),
      changes: [{ field: 'status', title: '状态', from: TASK_STATUS[from], to: TASK_STATUS.closed }, why, { field: 'releasedQty', title: '释放未收数量', from: null, to: releasedQty }],
    }, db);
    await ctx.audit({
      action: 'close', entity: 'inboundPlan', recordId: Number(plan.id), recordLabel: String(plan.docNo),
      changes: [{ field: 'status', title: '状态', from: PLAN_STATUS.confirmed, to: PLAN_STATUS.closed }, why, { field: 'taskId', title: TASK_TITLE, from: null, to: String(task.docNo) }],
    }, db);
    return {
      id: input.id, docNo: String(task.docNo), status: 'closed' as const, statusText: TASK_STATUS.closed, version: Number(closed.version), receivedQty: Number(closed.receivedQty),
      releasedQty, planId: Number(plan.id), planDocNo: String(plan.docNo), planStatus: 'closed' as PlanStatus,
    };
  });
}

function taskView(r: Row) {
  const status = String(r.status) as TaskStatus;
  const containerStatus = r.containerStatus == null ? null : String(r.containerStatus);
  return {
    id: Number(r.id), docNo: String(r.docNo), docType: 'inboundTask', status, statusText: TASK_STATUS[status] ?? status,
    planId: Number(r.planId), planDocNo: text(r.planDocNo), expectedDate: text(r.expectedDate),
    orderId: Number(r.orderId), orderDocNo: text(r.orderDocNo), supplierName: text(r.supplierName),
    warehouseId: Number(r.warehouseId), warehouseName: text(r.warehouseName),
    containerId: r.containerId == null ? null : Number(r.containerId), containerNo: text(r.containerNo), containerType: text(r.containerType),
    containerStatus, containerStatusText: containerStatus ? (CONTAINER_STATUS as Record<string, string>)[containerStatus] ?? containerStatus : null,
    remark: text(r.remark), lineCount: Number(r.lineCount), totalQty: Number(r.totalQty), receivedQty: Number(r.receivedQty),
    // a closed task expects nothing more: what it did not receive was given back to the order
    openQty: status === 'closed' ? 0 : Math.max(0, Number(r.totalQty) - Number(r.receivedQty)),
    version: Number(r.version), createdAt: text(r.createdAt), createdByName: text(r.createdByName), doneAt: text(r.doneAt), cancelledAt: text(r.cancelledAt),
    closedAt: text(r.closedAt), closedByName: text(r.closedByName), closeReason: text(r.closeReason),
    route: `/entrepot/inboundTaskDetail/${Number(r.id)}`,
  };
}

function withNames(tenant: Tenant) {
  const h = 'inboundTask';
  return tenant.select(h)
    .innerJoin('inboundPlan as plan', (j) => j.onRef('plan.id', '=', `${h}.planId`).onRef('plan.companyId', '=', `${h}.companyId`))
    .innerJoin('purchaseOrder', (j) => j.onRef('purchaseOrder.id', '=', `${h}.orderId`).onRef('purchaseOrder.companyId', '=', `${h}.companyId`))
    .innerJoin('supplier', (j) => j.onRef('supplier.id', '=', 'purchaseOrder.supplierId').onRef('supplier.companyId', '=', `${h}.companyId`))
    .innerJoin('warehouse', (j) => j.onRef('warehouse.id', '=', `${h}.warehouseId`).onRef('warehouse.companyId', '=', `${h}.companyId`))
    .leftJoin('container', (j) => j.onRef('container.id', '=', `${h}.containerId`).onRef('container.companyId', '=', `${h}.companyId`))
    .leftJoin('account as creator', (j) => j.onRef('creator.id', '=', `${h}.createdBy`).onRef('creator.companyId', '=', `${h}.companyId`))
    .leftJoin('account as closer', (j) => j.onRef('closer.id', '=', `${h}.closedBy`).onRef('closer.companyId', '=', `${h}.companyId`))
    .selectAll(h)
    .select(['closer.userName as closedByName', 'plan.docNo as planDocNo', 'plan.expectedDate', 'purchaseOrder.docNo as orderDocNo', 'supplier.name as supplierName', 'warehouse.name as warehouseName',
      'container.containerNo', 'container.containerType', 'container.status as containerStatus', 'creator.userName as createdByName']);
}

/** One task with its lines (planned, received, open) and the receiving notes made against it. */
export async function getTask(ctx: CallContext, id: number) {
  const tenant = ctx.tenant;
  const doc = (await withNames(tenant).where('inboundTask.id', '=', id).executeTakeFirst()) as Row | undefined;
  if (!doc) throw bizError('COMMON_NOT_FOUND_4004', { entity: TASK_TITLE });
  const l = 'inboundTaskLine';
  const lines = (await tenant.select(l)
    .innerJoin('purchaseOrderLine as ol', (j) => j.onRef('ol.id', '=', `${l}.orderLineId`).onRef('ol.companyId', '=', `${l}.companyId`))
    .innerJoin('product', (j) => j.onRef('product.id', '=', `${l}.productId`).onRef('product.companyId', '=', `${l}.companyId`))
    .select([`${l}.id`, `${l}.lineNo`, `${l}.orderLineId`, `${l}.productId`, `${l}.qty`, `${l}.receivedQty`, `${l}.remark`,
      'ol.lineNo as orderLineNo', 'ol.qty as orderedQty', 'ol.receivedQty as orderReceivedQty',
      'product.code as productCode', 'product.name as productName', 'product.specification', 'product.bigQty', 'product.midQty', 'product.unitBig', 'product.unitMid', 'product.unitSmall'])
    .where(`${l}.taskId`, '=', id).orderBy(`${l}.lineNo`).execute()) as Row[];
  const notes = (await tenant.select('receivingNote').select(['id', 'docNo', 'status', 'totalQty', 'postedAt', 'createdAt']).where('taskId', '=', id).orderBy('id').execute()) as Row[];
  // closed: what was not received is no longer open but given back to the order (released)
  const closed = doc.status === 'closed';
  const shortOf = (r: Row) => Math.max(0, Number(r.qty) - Number(r.receivedQty));
  return {
    ...taskView(doc),
    releasedQty: closed ? lines.reduce((s, r) => s + shortOf(r), 0) : 0,
    lines: lines.map((r) => {
      const packs = { bigQty: Number(r.bigQty), midQty: Number(r.midQty), unitBig: text(r.unitBig), unitMid: text(r.unitMid), unitSmall: text(r.unitSmall) };
      const qty = Number(r.qty);
      const received = Number(r.receivedQty);
      const open = closed ? 0 : shortOf(r);
      return {
        id: Number(r.id), lineNo: Number(r.lineNo), orderLineId: Number(r.orderLineId), orderLineNo: Number(r.orderLineNo), productId: Number(r.productId),
        productCode: String(r.productCode), productName: String(r.productName), specification: text(r.specification), unitSmall: text(r.unitSmall),
        qty, units: splitUnits(qty, packs), receivedQty: received, openQty: open, openUnits: splitUnits(open, packs), releasedQty: closed ? shortOf(r) : 0,
        orderedQty: Number(r.orderedQty), orderReceivedQty: Number(r.orderReceivedQty), remark: text(r.remark),
      };
    }),
    receivingNotes: notes.map((n) => {
      const status = String(n.status);
      return {
        id: Number(n.id), docNo: String(n.docNo), status, statusText: (DOC_STATUS as Record<string, string>)[status] ?? status, totalQty: Number(n.totalQty),
        createdAt: text(n.createdAt), postedAt: text(n.postedAt), route: `/entrepot/receivingNoteDetail/${Number(n.id)}`,
      };
    }),
  };
}

export async function listTasks(ctx: CallContext, input: TaskListInput) {
  const from = parseDay(input.dateFrom, 'dateFrom', '开始日期');
  const to = parseDay(input.dateTo, 'dateTo', '结束日期');
  let q = ctx.tenant.select('inboundTask');
  const docNo = input.docNo?.trim();
  if (docNo) q = q.where('inboundTask.docNo', 'like', like(docNo));
  if (input.orderId) q = q.where('inboundTask.orderId', '=', input.orderId);
  if (input.planId) q = q.where('inboundTask.planId', '=', input.planId);
  if (input.containerId) q = q.where('inboundTask.containerId', '=', input.containerId);
  if (input.warehouseId) q = q.where('inboundTask.warehouseId', '=', input.warehouseId);
  if (input.status) q = q.where('inboundTask.status', '=', input.status);
  if (from) q = q.where('inboundTask.createdAt', '>=', companyDateRange(from, from, tz(ctx))[0]);
  if (to) q = q.where('inboundTask.createdAt', '<=', companyDateRange(to, to, tz(ctx))[1]);
  return newestFirstPage(q, 'inboundTask.id', namedRows(withNames(ctx.tenant), 'inboundTask.id'), taskView, input);
}
