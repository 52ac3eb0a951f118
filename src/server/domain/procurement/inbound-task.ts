// Inbound tasks (入库任务, `inbound_task` + lines), the receipts' side: the document itself (list, get,
// cancel, close) is on the document engine (documents/types/inbound-task.ts). Created by confirming an
// inbound plan (inbound-plan.ts), received through receiving notes that name the task
// (receiving_note.task_id). open → receiving → done; cancelled or closed (已关闭) with its plan.
// Posting a note of a task raises the task lines' received quantities (each a conditional UPDATE on the
// task line of the note's order line) after claiming the task row while it is open or receiving; the
// task's status then follows from its lines (done when every line is received in full), and the plan
// follows the task (done / back to confirmed when a receipt is reversed).
// Closing gives what the task still expected back to the order lines (purchase_order_line.planned_qty), so
// it is no longer 在途 and the order's remaining quantity can be planned again or received on the order
// itself; a closed task keeps on each order line only what it received (at most its planned quantity), so
// reversing a receipt of a closed task gives that part back too.
import { sql } from 'kysely';
import type { Tenant } from '../../catalog/tenant.ts';
import type { DB } from '../../db/connection.ts';
import { bizError, validationError } from '../../http/errors.ts';
import { runSql } from '../../db/raw-sql.ts';
import { TypedTenant } from '../../db/typed.ts';
import { statusError } from './common.ts';
import { TASK_STATUS, TASK_TITLE, type TaskStatus } from './inbound-plan.ts';

export { TASK_STATUS, TASK_TITLE };
const RN_TITLE = '收货单';
/** Tasks that take receipts. */
const RECEIVABLE: TaskStatus[] = ['open', 'receiving'];

/**
 * A receiving note saved against a task (before its transaction): the task must exist, belong to the
 * note's order, still take receipts, and hold every order line the note receives.
 */
export async function checkNoteTask(tenant: Tenant, taskId: number, orderId: number, orderLineIds: number[]): Promise<void> {
  const t = TypedTenant.of(tenant);
  const task = await t.select('inboundTask')
    .innerJoin('purchaseOrder', (j) => j.onRef('purchaseOrder.id', '=', 'inboundTask.orderId').onRef('purchaseOrder.companyId', '=', 'inboundTask.companyId'))
    .select(['inboundTask.id', 'inboundTask.docNo', 'inboundTask.status', 'inboundTask.orderId', 'purchaseOrder.docNo as orderDocNo'])
    .where('inboundTask.id', '=', taskId).executeTakeFirst();
  if (!task) throw validationError([{ field: 'taskId', message: '入库任务不存在' }]);
  if (Number(task.orderId) !== orderId) {
    const order = await t.select('purchaseOrder').select('docNo').where('id', '=', orderId).executeTakeFirst();
    throw bizError('INBOUND_TASK_ORDER_4114', { taskDocNo: String(task.docNo), taskOrderDocNo: String(task.orderDocNo), orderDocNo: String(order?.docNo ?? orderId) }, { taskId, orderId });
  }
  if (!RECEIVABLE.includes(String(task.status) as TaskStatus)) throw statusError(TASK_TITLE, TASK_STATUS, task, '收货');
  const held = new Set((await t.select('inboundTaskLine').select('orderLineId').where('taskId', '=', taskId).execute()).map((r) => Number(r.orderLineId)));
  orderLineIds.forEach((id, i) => {
    if (!held.has(id)) throw bizError('PURCHASE_LINE_MISMATCH_4098', { doc: RN_TITLE, line: i + 1, source: TASK_TITLE, docNo: String(task.docNo) }, { line: i + 1, orderLineId: id });
  });
}

/** What a task line is matched on: the purchase order line (a plan's task) or the sales return line (a return's task). */
export type TaskLineKey = 'orderLineId' | 'returnLineId';

/**
 * A receiving note of a task was posted (sign 1) or a posted one cancelled (sign −1), inside that
 * transaction: the task lines' received quantities (matched on `key`), then the task's and the plan's status.
 */
export async function applyNoteToTask(db: DB, tenant: Tenant, noteId: number, taskId: number | null, sign: 1 | -1, key: TaskLineKey = 'orderLineId'): Promise<void> {
  if (taskId == null) return;
  const t = TypedTenant.of(tenant);
  const statuses: TaskStatus[] = sign > 0 ? RECEIVABLE : ['open', 'receiving', 'done', 'closed'];
  const claimed = await t.update('inboundTask').set({ updatedAt: new Date().toISOString() }).where('id', '=', taskId).where('status', 'in', statuses)
    .returning(['id', 'docNo', 'status']).executeTakeFirst();
  if (!claimed) {
    const task = await t.select('inboundTask').select(['id', 'docNo', 'status']).where('id', '=', taskId).executeTakeFirstOrThrow();
    throw statusError(TASK_TITLE, TASK_STATUS, task, sign > 0 ? '收货' : '冲回收货');
  }
  const per = new Map<number, number>();
  for (const r of await t.select('receivingNoteLine').select([key, 'qty']).where('noteId', '=', noteId).execute()) {
    per.set(Number(r[key]), (per.get(Number(r[key])) ?? 0) + Number(r.qty));
  }
  for (const [orderLineId, q] of [...per.entries()].sort((a, b) => a[0] - b[0])) {
    if (q === 0) continue;
    let u = t.update('inboundTaskLine').set({ receivedQty: sql`${sql.ref('receivedQty')} + ${sign * q}` }).where('taskId', '=', taskId).where(key, '=', orderLineId);
    if (sign < 0) u = u.where('receivedQty', '>=', q);
    const ok = await u.returning(['id', 'qty', 'receivedQty']).executeTakeFirst();
    // a purchase task's order lines hold what it plans (a return's task holds nothing of an order)
    if (ok && sign < 0 && claimed.status === 'closed' && key === 'orderLineId') {
      // What the closed task held of the order line was min(planned, received): give back the difference.
      const planned = Number(ok.qty);
      const after = Number(ok.receivedQty);
      await givePlannedBack(tenant, orderLineId, Math.min(planned, after + q) - Math.min(planned, after), taskId);
    }
    if (ok) continue;
    if (sign < 0) throw new Error(`inbound task ${taskId}: order line ${orderLineId} has less received than receiving note ${noteId}`);
    const line = await t.select('receivingNoteLine').select('lineNo').where('noteId', '=', noteId).where(key, '=', orderLineId).orderBy('lineNo').executeTakeFirst();
    throw bizError('PURCHASE_LINE_MISMATCH_4098', { doc: RN_TITLE, line: Number(line?.lineNo ?? 0), source: TASK_TITLE, docNo: String(claimed.docNo) }, { orderLineId, taskId });
  }
  await recomputeTask(db, tenant, taskId);
}

/** The task's received total and status from its lines; its plan follows (done while the task is). */
async function recomputeTask(db: DB, tenant: Tenant, taskId: number): Promise<void> {
  const t = TypedTenant.of(tenant);
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
  const task = await t.select('inboundTask').select(['status', 'planId', 'doneAt']).where('id', '=', taskId).executeTakeFirstOrThrow();
  const done = task.status === 'done';
  if (done !== (task.doneAt != null)) await t.update('inboundTask').set({ doneAt: done ? now : null }).where('id', '=', taskId).execute();
  if (task.planId == null) return;
  if (done) await t.update('inboundPlan').set({ status: 'done', doneAt: now, updatedAt: now }).where('id', '=', Number(task.planId)).where('status', '=', 'confirmed').execute();
  else await t.update('inboundPlan').set({ status: 'confirmed', doneAt: null, updatedAt: now }).where('id', '=', Number(task.planId)).where('status', '=', 'done').execute();
}

/** Lowers an order line's planned quantity by what a closed task no longer expects. */
export async function givePlannedBack(tenant: Tenant, orderLineId: number, qty: number, taskId: number): Promise<void> {
  const t = TypedTenant.of(tenant);
  if (qty <= 0) return;
  const ok = await t.update('purchaseOrderLine').set({ plannedQty: sql`${sql.ref('plannedQty')} - ${qty}` })
    .where('id', '=', orderLineId).where('plannedQty', '>=', qty).returning('id').executeTakeFirst();
  if (!ok) throw new Error(`inbound task ${taskId}: order line ${orderLineId} has less planned than the task gives back`);
}

