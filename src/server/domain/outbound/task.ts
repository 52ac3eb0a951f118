// 出库任务 (outbound task) bookkeeping shared by the documents that work it: created by confirming an
// outbound plan (one per plan: a plan ships from one warehouse, the order's), its per-line progress kept
// on the task lines — pickingQty (held by draft picking orders), pickedQty (posted picks, in staging or
// delivered since), shortQty (asked but not found, back to open), deliveredQty (posted delivery notes) —
// and its header totals and status recomputed from the lines after every change, in the caller's
// transaction. Open to pick = qty − pickedQty − pickingQty; ready to deliver = pickedQty − deliveredQty.
import { sql } from 'kysely';
import type { CallContext } from '../../catalog/context.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import type { DB } from '../../db/connection.ts';
import { insertMany } from '../../db/raw-sql.ts';
import { bizError, validationError } from '../../http/errors.ts';
import { refusal, text } from '../procurement/common.ts';
import { nextDocumentNo } from '../sequence.ts';
import { TypedTenant } from '../../db/typed.ts';
import { bulkChange } from './bulk.ts';

type Row = Record<string, unknown>;

export const OT_TITLE = '出库任务';
export const OT_PREFIX = 'OT';
export const OT_STATUS = { open: '待拣货', picking: '拣货中', picked: '已拣货', done: '已出库', cancelled: '已作废' } as const;
/** Tasks picking orders can take lines from. */
export const PICKABLE_TASK = ['open', 'picking'];
/** Tasks delivery notes can take picked goods from. */
export const DELIVERABLE_TASK = ['picking', 'picked'];

/** Creates the outbound task of a plan being confirmed (inside the plan's transaction). */
export async function createOutboundTask(ctx: CallContext, db: DB, tenant: Tenant, plan: Row): Promise<{ id: number; docNo: string }> {
  const t = TypedTenant.of(tenant);
  const caller = ctx.caller!;
  const now = new Date().toISOString();
  const lines = await t.select('deliveryPlanLine').select(['lineNo', 'orderLineId', 'productId', 'qty', 'remark']).where('planId', '=', Number(plan.id)).orderBy('lineNo').execute();
  const totalQty = lines.reduce((s, l) => s + Number(l.qty), 0);
  const docNo = await nextDocumentNo(db, tenant.companyId, OT_PREFIX, ctx.caller?.company.timeZone ?? 8);
  const inserted = await t.insert('outboundTask', {
    docNo, planId: Number(plan.id), orderId: Number(plan.orderId), clientId: Number(plan.clientId), warehouseId: Number(plan.warehouseId), shipDate: plan.shipDate == null ? null : String(plan.shipDate),
    status: 'open', remark: plan.remark == null ? null : String(plan.remark), lineCount: lines.length, totalQty, pickingQty: 0, pickedQty: 0, shortQty: 0, deliveredQty: 0,
    version: 1, createdAt: now, createdBy: caller.accountId, updatedAt: now, updatedBy: caller.accountId,
  }).returning('id').executeTakeFirstOrThrow();
  const id = Number(inserted.id);
  await insertMany(db, 'outbound_task_line', ['company_id', 'task_id', 'line_no', 'order_line_id', 'product_id', 'qty', 'picking_qty', 'picked_qty', 'short_qty', 'delivered_qty', 'remark'],
    lines.map((l, i) => [tenant.companyId, id, i + 1, Number(l.orderLineId), Number(l.productId), Number(l.qty), 0, 0, 0, 0, l.remark ?? null]));
  await ctx.audit({ action: 'create', entity: 'outboundTask', recordId: id, recordLabel: docNo, changes: [{ field: 'planId', title: '发货计划', from: null, to: String(plan.docNo) }] }, db);
  return { id, docNo };
}

/** The status the task's quantities put it in (cancelled and closed-by-policy tasks are not recomputed). */
export function taskStatusOf(t: { totalQty: number; pickingQty: number; pickedQty: number; deliveredQty: number }): 'open' | 'picking' | 'picked' | 'done' {
  if (t.totalQty > 0 && t.deliveredQty >= t.totalQty) return 'done';
  if (t.totalQty > 0 && t.pickedQty >= t.totalQty) return 'picked';
  if (t.pickedQty > 0 || t.pickingQty > 0) return 'picking';
  return 'open';
}

const STATUS_CODES = ['open', 'picking', 'picked', 'done'] as const;

/**
 * Recomputes the tasks' totals and statuses from their lines (after picks or deliveries changed them), in
 * a few statements for any number of tasks (a wave), and moves their plans to done (已出库) when a task is
 * done, back to confirmed when a reversal reopens it. `closed`: the rest of the tasks was cancelled (the
 * client's back-order policy): done with what they shipped. Cancelled tasks are left alone.
 */
export async function refreshTasks(ctx: CallContext, tenant: Tenant, taskIds: number[], closed = false): Promise<Map<number, { status: string; planId: number }>> {
  const t = TypedTenant.of(tenant);
  const out = new Map<number, { status: string; planId: number }>();
  const ids = [...new Set(taskIds)].sort((a, b) => a - b);
  const now = new Date().toISOString();
  const by = ctx.caller?.accountId ?? null;
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const sums = await t.select('outboundTaskLine').select((eb) => [
      'taskId', eb.fn.sum('qty').as('totalQty'), eb.fn.sum('pickingQty').as('pickingQty'), eb.fn.sum('pickedQty').as('pickedQty'),
      eb.fn.sum('shortQty').as('shortQty'), eb.fn.sum('deliveredQty').as('deliveredQty'),
    ]).where('taskId', 'in', chunk).groupBy('taskId').execute();
    const rows: Array<[number, ...number[]]> = sums.map((r) => {
      const q = { totalQty: Number(r.totalQty ?? 0), pickingQty: Number(r.pickingQty ?? 0), pickedQty: Number(r.pickedQty ?? 0), deliveredQty: Number(r.deliveredQty ?? 0) };
      const status = closed ? 'done' : taskStatusOf(q);
      return [Number(r.taskId), q.totalQty, q.pickingQty, q.pickedQty, Number(r.shortQty ?? 0), q.deliveredQty, STATUS_CODES.indexOf(status)];
    });
    const changed = await bulkChange(tenant, {
      table: 'outbound_task', values: ['total', 'picking', 'picked', 'short', 'delivered', 's'],
      set: `total_qty = v.total, picking_qty = v.picking, picked_qty = v.picked, short_qty = v.short, delivered_qty = v.delivered, version = version + 1,
        status = case v.s when 0 then 'open' when 1 then 'picking' when 2 then 'picked' else 'done' end`,
      guard: "t.status <> 'cancelled'",
    }, rows);
    const list = [...changed];
    if (!list.length) continue;
    await t.update('outboundTask').set({ updatedAt: now, updatedBy: by }).where('id', 'in', list).execute();
    const tasks = await t.select('outboundTask').select(['id', 'planId', 'status', 'doneAt']).where('id', 'in', list).execute();
    const done = tasks.filter((task) => task.status === 'done');
    const open = tasks.filter((task) => task.status !== 'done');
    for (const task of tasks) out.set(Number(task.id), { status: String(task.status), planId: Number(task.planId) });
    if (done.length) {
      await t.update('outboundTask').set({ doneAt: now }).where('id', 'in', done.map((task) => Number(task.id))).where('doneAt', 'is', null).execute();
      await t.update('deliveryPlan').set({ status: 'done', doneAt: now, updatedAt: now, updatedBy: by, version: sql`${sql.ref('version')} + 1` })
        .where('id', 'in', done.map((task) => Number(task.planId))).where('status', '=', 'confirmed').execute();
    }
    const reopened = open.filter((task) => task.doneAt != null);
    if (reopened.length) {
      await t.update('outboundTask').set({ doneAt: null }).where('id', 'in', reopened.map((task) => Number(task.id))).execute();
      await t.update('deliveryPlan').set({ status: 'confirmed', doneAt: null, updatedAt: now, updatedBy: by, version: sql`${sql.ref('version')} + 1` })
        .where('id', 'in', reopened.map((task) => Number(task.planId))).where('status', '=', 'done').execute();
    }
  }
  return out;
}

/** One task (see refreshTasks). */
export async function refreshTask(ctx: CallContext, tenant: Tenant, taskId: number, closed = false): Promise<{ status: string; planId: number }> {
  const r = (await refreshTasks(ctx, tenant, [taskId], closed)).get(taskId);
  if (!r) throw new Error(`outbound task ${taskId}: cancelled or missing`);
  return r;
}

/** Draft picking orders holding lines of the task (they go before the task can be cancelled). */
export async function openPickingsOf(tenant: Tenant, taskId: number): Promise<string[]> {
  const rows = await TypedTenant.of(tenant).select('pickingOrderLine').innerJoin('pickingOrder', (j) => j.onRef('pickingOrder.id', '=', 'pickingOrderLine.pickingId').onRef('pickingOrder.companyId', '=', 'pickingOrderLine.companyId'))
    .select('pickingOrder.docNo').distinct().where('pickingOrderLine.taskId', '=', taskId).where('pickingOrder.status', '=', 'draft').orderBy('pickingOrder.docNo').limit(3).execute();
  return rows.map((r) => String(r.docNo));
}

/**
 * Cancels the outbound task of a confirmed plan being cancelled (in the plan's transaction, plan row
 * already locked): refused once anything was picked or a draft picking order holds it.
 */
export async function cancelTaskOfPlan(ctx: CallContext, db: DB, tenant: Tenant, plan: Row): Promise<void> {
  const t = TypedTenant.of(tenant);
  const task = await t.select('outboundTask').select(['id', 'docNo', 'status', 'pickedQty']).where('planId', '=', Number(plan.id)).where('status', '!=', 'cancelled').executeTakeFirst();
  if (!task) return;
  const pickings = await openPickingsOf(tenant, Number(task.id));
  const now = new Date().toISOString();
  const done = pickings.length ? undefined : await t.update('outboundTask').set({ status: 'cancelled', cancelledAt: now, cancelledBy: ctx.caller!.accountId, updatedAt: now, updatedBy: ctx.caller!.accountId, version: sql`${sql.ref('version')} + 1` })
    .where('id', '=', Number(task.id)).where('status', '=', 'open').where('pickedQty', '=', 0).where('pickingQty', '=', 0).returning('id').executeTakeFirst();
  if (!done) throw bizError('OUTBOUND_TASK_BUSY_4161', { docNo: String(task.docNo), picked: Number(task.pickedQty), pickings: pickings.join('、') || '无' }, { id: Number(task.id), pickings });
  await ctx.audit({ action: 'cancel', entity: 'outboundTask', recordId: Number(task.id), recordLabel: String(task.docNo), changes: [{ field: 'status', title: '状态', from: OT_STATUS.open, to: OT_STATUS.cancelled }, { field: 'planId', title: '发货计划', from: null, to: String(plan.docNo) }] }, db);
}

/** Tasks a warehouse worker can be assigned to (not yet shipped in full, not cancelled). */
const ASSIGNABLE = ['open', 'picking', 'picked'];

/** Assigns the task to a warehouse worker (or takes the assignment back with null), audited with the names. */
export async function assignTask(ctx: CallContext, input: { id: number; version?: number; assigneeId?: number | null }) {
  return ctx.transaction(async (db, tenant) => {
    const t = TypedTenant.of(tenant);
    const assigneeId = input.assigneeId ?? null;
    let name: string | null = null;
    if (assigneeId !== null) {
      const staff = await t.select('staff').select(['id', 'name', 'enabled']).where('id', '=', assigneeId).executeTakeFirst();
      if (!staff) throw validationError([{ field: 'assigneeId', message: '作业人员不存在' }]);
      if (Number(staff.enabled) !== 1) throw validationError([{ field: 'assigneeId', message: `员工“${String(staff.name)}”已停用` }]);
      name = String(staff.name);
    }
    const before = await t.select('outboundTask').select(['assigneeId']).where('id', '=', input.id).executeTakeFirst();
    const now = new Date().toISOString();
    let q = t.update('outboundTask').set({ assigneeId, updatedAt: now, updatedBy: ctx.caller!.accountId, version: sql`${sql.ref('version')} + 1` })
      .where('id', '=', input.id).where('status', 'in', ASSIGNABLE);
    if (input.version !== undefined) q = q.where('version', '=', input.version);
    const row = await q.returning(['id', 'docNo', 'version']).executeTakeFirst();
    if (!row) throw await refusal(tenant, 'outboundTask', OT_TITLE, OT_STATUS, input.id, input.version, ASSIGNABLE, '分派');
    let was: string | null = null;
    if (before?.assigneeId != null) was = text((await t.select('staff').select('name').where('id', '=', Number(before.assigneeId)).executeTakeFirst())?.name);
    await ctx.audit({ action: 'assign', entity: 'outboundTask', recordId: input.id, recordLabel: String(row.docNo), changes: [{ field: 'assigneeId', title: '作业人员', from: was, to: name }] }, db);
    return { id: input.id, docNo: String(row.docNo), version: Number(row.version), assigneeId, assigneeName: name };
  });
}
