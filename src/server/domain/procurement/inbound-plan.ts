// Inbound plans (入库计划, `inbound_plan` + lines), DESIGN §4.4: which lines of a confirmed purchase order
// arrive when, optionally in a container. draft → confirmed → done; cancelled from draft, or from
// confirmed while its task has no receipts; closed (已关闭) together with its task when the warehouse
// closes a short delivery (the inbound task's close, documents/types/inbound-task.ts).
//  - What a plan holds of an order line is kept on the line (purchase_order_line.planned_qty, all plans
//    not cancelled). Saving takes it by one conditional UPDATE per line (planned_qty + q <= qty): of two
//    plans racing for the last units, one passes and the other is refused naming the line
//    (INBOUND_PLAN_OVER_4111). Editing a draft gives its old quantities back first, in the same transaction.
//  - Confirming creates the plan's inbound task (same lines) in the same transaction; the task is
//    what the warehouse receives against (inbound-task.ts). Cancelling a confirmed plan cancels its task.
//  - A closed plan holds of each order line only what its task received (closing gave the rest back),
//    so the order's remaining quantity can be planned again.
//  - The order row is claimed (conditional UPDATE on its status) by saving and confirming, so a plan is
//    never written against an order that was closed or cancelled meanwhile.
import crypto from 'node:crypto';
import { sql } from 'kysely';
import { splitUnits } from '../../../core/stock-units.ts';
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import type { DB } from '../../db/connection.ts';
import { bizError, validationError, type FieldError } from '../../http/errors.ts';
import { nextDocumentNo } from '../sequence.ts';
import { MAX_MOVE_QTY } from '../stock/ledger.ts';
import { insertMany } from '../../db/raw-sql.ts';
import {
  packQtyProps, parseDay, PO_STATUS, refusal, statusError, text, tz, newestFirstPage, namedRows, type Row, PAGING_PROPS,
} from './common.ts';
import { CONTAINER_STATUS, claimLoadableContainer, loadableContainer } from './container.ts';
import { lineQty, PO_TITLE } from './purchase-order.ts';
import { TypedTenant } from '../../db/typed.ts';

export const PLAN_TITLE = '入库计划';
export const PLAN_PREFIX = 'RP';
export const PLAN_STATUS = { draft: '草稿', confirmed: '已确认', done: '已完成', closed: '已关闭', cancelled: '已作废' } as const;
export type PlanStatus = keyof typeof PLAN_STATUS;
export const TASK_TITLE = '入库任务';
export const TASK_PREFIX = 'RT';
export const TASK_STATUS = { open: '待收货', receiving: '收货中', done: '已完成', closed: '已关闭', cancelled: '已作废' } as const;
export type TaskStatus = keyof typeof TASK_STATUS;
/** Orders whose lines can be planned. */
export const PLANNABLE = ['confirmed', 'partlyReceived'];

export function overPlan(order: Row, ol: Row, qty: number, planned: number) {
  const ordered = Number(ol.qty);
  const left = Math.max(0, ordered - planned);
  return bizError('INBOUND_PLAN_OVER_4111', { docNo: String(order.docNo), line: Number(ol.lineNo), code: String(ol.code), ordered, planned, qty, left },
    { orderLineId: Number(ol.id), lineNo: Number(ol.lineNo), ordered, planned, qty, left });
}

/** The order's lines with their products and planned/received quantities. */
export async function orderLines(tenant: Tenant, orderId: number): Promise<Row[]> {
  const t = TypedTenant.of(tenant);
  const l = 'purchaseOrderLine';
  return await t.select(l)
    .innerJoin('product', (j) => j.onRef('product.id', '=', `${l}.productId`).onRef('product.companyId', '=', `${l}.companyId`))
    .select([`${l}.id`, `${l}.lineNo`, `${l}.productId`, `${l}.qty`, `${l}.plannedQty`, `${l}.receivedQty`,
      'product.code', 'product.name', 'product.specification', 'product.bigQty', 'product.midQty', 'product.unitBig', 'product.unitMid', 'product.unitSmall'])
    .where(`${l}.orderId`, '=', orderId).orderBy(`${l}.lineNo`).execute();
}

/** Claims the order row while it can be planned (serialises with its closing and cancelling). */
export async function claimOrder(tenant: Tenant, orderId: number, action: string): Promise<Row> {
  const t = TypedTenant.of(tenant);
  const row = await t.update('purchaseOrder').set({ updatedAt: new Date().toISOString() }).where('id', '=', orderId).where('status', 'in', PLANNABLE)
    .returning(['id', 'docNo', 'status']).executeTakeFirst();
  if (row) return row;
  const doc = await t.select('purchaseOrder').select(['id', 'docNo', 'status']).where('id', '=', orderId).executeTakeFirst();
  if (!doc) throw bizError('COMMON_NOT_FOUND_4004', { entity: PO_TITLE });
  throw statusError(PO_TITLE, PO_STATUS, doc, action);
}

/** Takes the plan's quantities on the order lines; over what is left, the whole plan is refused. */
export async function takeLines(tenant: Tenant, order: Row, lines: Array<{ orderLineId: number; qty: number }>): Promise<void> {
  const t = TypedTenant.of(tenant);
  for (const l of [...lines].sort((a, b) => a.orderLineId - b.orderLineId)) {
    const ok = await t.update('purchaseOrderLine').set({ plannedQty: sql`${sql.ref('plannedQty')} + ${l.qty}` })
      .where('id', '=', l.orderLineId).where('orderId', '=', Number(order.id))
      .where(sql<boolean>`${sql.ref('plannedQty')} + ${l.qty} <= ${sql.ref('qty')}`)
      .returning('id').executeTakeFirst();
    if (!ok) {
      const ol = await t.select('purchaseOrderLine').innerJoin('product', (j) => j.onRef('product.id', '=', 'purchaseOrderLine.productId'))
        .select(['purchaseOrderLine.id', 'purchaseOrderLine.lineNo', 'purchaseOrderLine.qty', 'purchaseOrderLine.plannedQty', 'product.code'])
        .where('purchaseOrderLine.id', '=', l.orderLineId).executeTakeFirst();
      if (!ol) throw bizError('COMMON_NOT_FOUND_4004', { entity: '采购订单明细' });
      throw overPlan(order, ol, l.qty, Number(ol.plannedQty));
    }
  }
}

/** Gives a plan's quantities back to its order lines (the plan is being edited or cancelled). */
export async function releaseLines(tenant: Tenant, planId: number): Promise<void> {
  const t = TypedTenant.of(tenant);
  const per = new Map<number, number>();
  for (const r of await t.select('inboundPlanLine').select(['orderLineId', 'qty']).where('planId', '=', planId).execute()) {
    per.set(Number(r.orderLineId), (per.get(Number(r.orderLineId)) ?? 0) + Number(r.qty));
  }
  for (const [orderLineId, q] of [...per.entries()].sort((a, b) => a[0] - b[0])) {
    const ok = await t.update('purchaseOrderLine').set({ plannedQty: sql`${sql.ref('plannedQty')} - ${q}` })
      .where('id', '=', orderLineId).where('plannedQty', '>=', q).returning('id').executeTakeFirst();
    if (!ok) throw new Error(`inbound plan ${planId}: order line ${orderLineId} has less planned than the plan`);
  }
}

/** Receiving notes (not cancelled) received against a task: they must go before the task can. */
export async function openNotesOf(tenant: Tenant, taskId: number): Promise<string[]> {
  const rows = await TypedTenant.of(tenant).select('receivingNote').select('docNo').where('taskId', '=', taskId).where('status', '!=', 'cancelled').orderBy('id').limit(3).execute();
  return rows.map((r) => String(r.docNo));
}

export async function createTask(ctx: CallContext, db: DB, tenant: Tenant, plan: Row, now: string): Promise<{ id: number; docNo: string }> {
  const lines = await TypedTenant.of(tenant).select('inboundPlanLine').select(['lineNo', 'orderLineId', 'productId', 'qty', 'remark']).where('planId', '=', Number(plan.id)).orderBy('lineNo').execute();
  return insertTask(ctx, db, tenant, now, {
    source: { planId: Number(plan.id), orderId: Number(plan.orderId), containerId: plan.containerId == null ? null : Number(plan.containerId) },
    warehouseId: Number(plan.warehouseId), remark: text(plan.remark),
    lines: lines.map((l) => ({ lineNo: Number(l.lineNo), orderLineId: Number(l.orderLineId), productId: Number(l.productId), qty: Number(l.qty), remark: text(l.remark) })),
    from: { field: 'planId', title: PLAN_TITLE, docNo: String(plan.docNo) },
  });
}

/** A new task's source columns: an inbound plan of a purchase order, or a sales return. */
export type TaskSource = { planId: number; orderId: number; containerId: number | null } | { returnId: number };
export interface TaskLine { lineNo: number; orderLineId?: number; returnLineId?: number; productId: number; qty: number; remark: string | null }

/**
 * Inserts an open inbound task with its lines (inside the caller's transaction), numbered RT…, audited as
 * created from `from`: the one way a task comes to be, for a confirmed inbound plan and a confirmed sales return.
 */
export async function insertTask(ctx: CallContext, db: DB, tenant: Tenant, now: string, task: {
  source: TaskSource; warehouseId: number; remark: string | null; lines: TaskLine[]; from: { field: string; title: string; docNo: string };
}): Promise<{ id: number; docNo: string }> {
  const t = TypedTenant.of(tenant);
  const caller = ctx.caller!;
  const { lines, warehouseId } = task;
  const inserted = await t.insert('inboundTask', {
    docNo: `~${Date.now().toString(36)}${crypto.randomBytes(6).toString('hex')}`, planId: null, orderId: null, containerId: null, returnId: null, ...task.source, warehouseId,
    status: 'open', remark: task.remark, lineCount: lines.length, totalQty: lines.reduce((s, l) => s + l.qty, 0), receivedQty: 0,
    version: 1, createdAt: now, createdBy: caller.accountId, updatedAt: now, updatedBy: caller.accountId,
  }).returning('id').executeTakeFirstOrThrow();
  const id = Number(inserted.id);
  await insertMany(db, 'inbound_task_line', ['company_id', 'task_id', 'line_no', 'order_line_id', 'return_line_id', 'product_id', 'qty', 'received_qty', 'remark'],
    lines.map((l) => [tenant.companyId, id, l.lineNo, l.orderLineId ?? null, l.returnLineId ?? null, l.productId, l.qty, 0, l.remark]));
  // The inventory list is drawn from the per product × warehouse totals: a product never stocked in this
  // warehouse gets its (empty) row now, so what the task expects shows there as inbound (在途).
  await insertMany(db, 'stock_summary', ['company_id', 'product_id', 'warehouse_id', 'on_hand', 'reserved', 'updated_at'],
    [...new Set(lines.map((l) => l.productId))].map((productId) => [tenant.companyId, productId, warehouseId, 0, 0, now]),
    'on conflict (company_id, product_id, warehouse_id) do nothing');
  const docNo = await nextDocumentNo(db, tenant.companyId, TASK_PREFIX, tz(ctx));
  await t.update('inboundTask').set({ docNo }).where('id', '=', id).execute();
  await ctx.audit({ action: 'create', entity: 'inboundTask', recordId: id, recordLabel: docNo, changes: [{ field: task.from.field, title: task.from.title, from: null, to: task.from.docNo }] }, db);
  return { id, docNo };
}

/**
 * Cancels a confirmed plan's task (inside the caller's transaction): refused while receiving notes
 * (not cancelled) were made against it, or once it has receipts. `by` names the task when the call
 * came from the task's side (its number in the refusal, its version checked).
 */
export async function cancelTaskOfPlan(ctx: CallContext, db: DB, tenant: Tenant, plan: Row, now: string, by?: { title: string; docNo: string; version?: number }): Promise<void> {
  const t = TypedTenant.of(tenant);
  const task = await t.select('inboundTask').select(['id', 'docNo', 'status']).where('planId', '=', Number(plan.id)).executeTakeFirst();
  if (!task) return;
  const notes = await openNotesOf(tenant, Number(task.id));
  if (notes.length) {
    throw bizError('PURCHASE_DEPENDENT_DOCS_4096', { doc: by?.title ?? PLAN_TITLE, docNo: by?.docNo ?? String(plan.docNo), next: notes.join('、') }, { id: Number(plan.id), taskId: Number(task.id) });
  }
  let q = t.update('inboundTask').set({ status: 'cancelled', cancelledAt: now, cancelledBy: ctx.caller!.accountId, updatedAt: now, updatedBy: ctx.caller!.accountId, version: sql`${sql.ref('version')} + 1` })
    .where('id', '=', Number(task.id)).where('status', '=', 'open').where('receivedQty', '=', 0);
  if (by?.version !== undefined) q = q.where('version', '=', by.version);
  if (!(await q.returning('id').executeTakeFirst())) {
    if (task.status === 'open' && by?.version !== undefined) throw bizError('COMMON_VERSION_CONFLICT_4009', { entity: TASK_TITLE });
    throw statusError(TASK_TITLE, TASK_STATUS, task, '作废');
  }
  await ctx.audit({ action: 'cancel', entity: 'inboundTask', recordId: Number(task.id), recordLabel: String(task.docNo), changes: [{ field: 'status', title: '状态', from: TASK_STATUS.open, to: TASK_STATUS.cancelled }] }, db);
}

/** What is left to plan of an order, per line (ordered − planned on plans not cancelled). */
export async function plannableLines(ctx: CallContext, orderId: number) {
  const t = TypedTenant.of(ctx.tenant);
  const order = await t.select('purchaseOrder')
    .innerJoin('supplier', (j) => j.onRef('supplier.id', '=', 'purchaseOrder.supplierId').onRef('supplier.companyId', '=', 'purchaseOrder.companyId'))
    .innerJoin('warehouse', (j) => j.onRef('warehouse.id', '=', 'purchaseOrder.warehouseId').onRef('warehouse.companyId', '=', 'purchaseOrder.companyId'))
    .select(['purchaseOrder.id', 'purchaseOrder.docNo', 'purchaseOrder.status', 'purchaseOrder.warehouseId', 'purchaseOrder.expectedDate', 'supplier.name as supplierName', 'warehouse.name as warehouseName'])
    .where('purchaseOrder.id', '=', orderId).executeTakeFirst();
  if (!order) throw bizError('COMMON_NOT_FOUND_4004', { entity: PO_TITLE });
  const status = String(order.status);
  const rows = await orderLines(ctx.tenant, orderId);
  return {
    orderId, orderDocNo: String(order.docNo), status, statusText: (PO_STATUS as Record<string, string>)[status] ?? status, plannable: PLANNABLE.includes(status),
    supplierName: String(order.supplierName), warehouseId: Number(order.warehouseId), warehouseName: String(order.warehouseName), expectedDate: text(order.expectedDate),
    lines: rows.map((r) => {
      const packs = { bigQty: Number(r.bigQty), midQty: Number(r.midQty), unitBig: text(r.unitBig), unitMid: text(r.unitMid), unitSmall: text(r.unitSmall) };
      const qty = Number(r.qty);
      const planned = Number(r.plannedQty);
      const left = Math.max(0, qty - planned);
      return {
        orderLineId: Number(r.id), lineNo: Number(r.lineNo), productId: Number(r.productId), productCode: String(r.code), productName: String(r.name),
        specification: text(r.specification), unitSmall: text(r.unitSmall), bigQty: packs.bigQty, midQty: packs.midQty, unitBig: packs.unitBig, unitMid: packs.unitMid,
        qty, plannedQty: planned, receivedQty: Number(r.receivedQty), leftQty: left, leftUnits: splitUnits(left, packs),
      };
    }),
  };
}
