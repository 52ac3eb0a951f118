// Inbound plans (入库计划, `inbound_plan` + lines), DESIGN §4.4: which lines of a confirmed purchase order
// arrive when, optionally in a container. draft → confirmed → done; cancelled from draft, or from
// confirmed while its task has no receipts; closed (已关闭) together with its task when the warehouse
// closes a short delivery (inbound-task.ts closeTask).
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

export const PLAN_SAVE_INPUT: InputSchema = {
  type: 'object',
  required: ['orderId', 'lines'],
  properties: {
    id: { type: 'integer', minimum: 1, title: '入库计划' },
    version: { type: 'integer', minimum: 1, title: '版本' },
    orderId: { type: 'integer', minimum: 1, title: '采购订单' },
    expectedDate: { type: ['string', 'null'], maxLength: 10, title: '预计到货日期' },
    containerId: { type: ['integer', 'null'], minimum: 1, title: '集装箱' },
    remark: { type: ['string', 'null'], maxLength: 500, title: '备注' },
    lines: {
      type: 'array', minItems: 1, maxItems: 2000, title: '明细',
      items: {
        type: 'object', required: ['orderLineId'],
        properties: {
          orderLineId: { type: 'integer', minimum: 1, title: '订单明细' },
          ...packQtyProps('qty', '计划数量'),
          remark: { type: ['string', 'null'], maxLength: 200, title: '备注' },
        },
      },
    },
  },
};

export const PLAN_LIST_INPUT: InputSchema = {
  type: 'object',
  properties: {
    ...PAGING_PROPS,
    docNo: { type: ['string', 'null'], maxLength: 50, title: '单号' },
    orderId: { type: ['integer', 'null'], minimum: 1, title: '采购订单' },
    containerId: { type: ['integer', 'null'], minimum: 1, title: '集装箱' },
    warehouseId: { type: ['integer', 'null'], minimum: 1, title: '仓库' },
    status: { enum: [...Object.keys(PLAN_STATUS), null], title: '状态' },
    dateFrom: { type: ['string', 'null'], maxLength: 10, title: '预计到货开始日期' },
    dateTo: { type: ['string', 'null'], maxLength: 10, title: '预计到货结束日期' },
  },
};

export interface PlanLineInput {
  orderLineId: number;
  qty?: number | null;
  big?: number | null;
  mid?: number | null;
  small?: number | null;
  remark?: string | null;
}

export interface PlanSaveInput {
  id?: number;
  version?: number;
  orderId: number;
  expectedDate?: string | null;
  containerId?: number | null;
  remark?: string | null;
  lines: PlanLineInput[];
}

export interface PlanListInput {
  page: number;
  pageSize: number;
  docNo?: string | null;
  orderId?: number | null;
  containerId?: number | null;
  warehouseId?: number | null;
  status?: PlanStatus | null;
  dateFrom?: string | null;
  dateTo?: string | null;
}

interface CheckedLine {
  orderLineId: number;
  productId: number;
  qty: number;
  remark: string | null;
}

const like = (v: string) => `%${v.replace(/[\\%_]/g, '')}%`;

function overPlan(order: Row, ol: Row, qty: number, planned: number) {
  const ordered = Number(ol.qty);
  const left = Math.max(0, ordered - planned);
  return bizError('INBOUND_PLAN_OVER_4111', { docNo: String(order.docNo), line: Number(ol.lineNo), code: String(ol.code), ordered, planned, qty, left },
    { orderLineId: Number(ol.id), lineNo: Number(ol.lineNo), ordered, planned, qty, left });
}

/** The order's lines with their products and planned/received quantities. */
async function orderLines(tenant: Tenant, orderId: number): Promise<Row[]> {
  const l = 'purchaseOrderLine';
  return (await tenant.select(l)
    .innerJoin('product', (j) => j.onRef('product.id', '=', `${l}.productId`).onRef('product.companyId', '=', `${l}.companyId`))
    .select([`${l}.id`, `${l}.lineNo`, `${l}.productId`, `${l}.qty`, `${l}.plannedQty`, `${l}.receivedQty`,
      'product.code', 'product.name', 'product.specification', 'product.bigQty', 'product.midQty', 'product.unitBig', 'product.unitMid', 'product.unitSmall'])
    .where(`${l}.orderId`, '=', orderId).orderBy(`${l}.lineNo`).execute()) as Row[];
}

async function checkPlan(ctx: CallContext, input: PlanSaveInput) {
  const tenant = ctx.tenant;
  const order = (await tenant.select('purchaseOrder').select(['id', 'docNo', 'status', 'warehouseId', 'expectedDate']).where('id', '=', input.orderId).executeTakeFirst()) as Row | undefined;
  if (!order) throw validationError([{ field: 'orderId', message: '采购订单不存在' }]);
  if (!PLANNABLE.includes(String(order.status))) throw statusError(PO_TITLE, PO_STATUS, order, '制定入库计划');
  const container = input.containerId ? await loadableContainer(tenant, input.containerId, '装入入库计划') : undefined;
  const expectedDate = parseDay(input.expectedDate, 'expectedDate', '预计到货日期') ?? text(container?.eta) ?? text(order.expectedDate);
  const lines = new Map((await orderLines(tenant, input.orderId)).map((r) => [Number(r.id), r]));
  // A draft being edited gives back what it holds now.
  const own = new Map<number, number>();
  if (input.id !== undefined) {
    for (const r of (await tenant.select('inboundPlanLine').select(['orderLineId', 'qty']).where('planId', '=', input.id).execute()) as Row[]) {
      own.set(Number(r.orderLineId), (own.get(Number(r.orderLineId)) ?? 0) + Number(r.qty));
    }
  }
  const errors: FieldError[] = [];
  const out: CheckedLine[] = [];
  const seen = new Set<number>();
  input.lines.forEach((x, i) => {
    const err = (f: string, message: string) => errors.push({ field: `lines.${i}.${f}`, message: `第 ${i + 1} 行：${message}` });
    const ol = lines.get(x.orderLineId);
    if (!ol) throw bizError('PURCHASE_LINE_MISMATCH_4098', { doc: PLAN_TITLE, line: i + 1, source: PO_TITLE, docNo: String(order.docNo) }, { line: i + 1, orderLineId: x.orderLineId });
    if (seen.has(x.orderLineId)) { err('orderLineId', `订单第 ${Number(ol.lineNo)} 行重复，请合并为一行`); return; }
    seen.add(x.orderLineId);
    const qty = lineQty(x, ol, { line: i + 1, productId: Number(ol.productId) });
    if (qty === undefined) { err('qty', x.qty == null && x.big == null && x.mid == null && x.small == null ? '计划数量不能为空' : '计划数量超出范围'); return; }
    if (qty <= 0) { err('qty', '计划数量必须大于 0'); return; }
    if (qty > MAX_MOVE_QTY) { err('qty', '计划数量超出范围'); return; }
    // Early, friendly check; the transaction enforces it again with a conditional update.
    const planned = Number(ol.plannedQty) - (own.get(x.orderLineId) ?? 0);
    if (planned + qty > Number(ol.qty)) throw overPlan(order, ol, qty, planned);
    out.push({ orderLineId: x.orderLineId, productId: Number(ol.productId), qty, remark: x.remark ?? null });
  });
  if (errors.length) throw validationError(errors.slice(0, 200));
  return { order, expectedDate, containerNo: container ? String(container.containerNo) : null, lines: out };
}

/** Claims the order row while it can be planned (serialises with its closing and cancelling). */
async function claimOrder(tenant: Tenant, orderId: number, action: string): Promise<Row> {
  const row = (await tenant.update('purchaseOrder').set({ updatedAt: new Date().toISOString() }).where('id', '=', orderId).where('status', 'in', PLANNABLE)
    .returning(['id', 'docNo', 'status']).executeTakeFirst()) as Row | undefined;
  if (row) return row;
  const doc = (await tenant.select('purchaseOrder').select(['id', 'docNo', 'status']).where('id', '=', orderId).executeTakeFirst()) as Row | undefined;
  if (!doc) throw bizError('COMMON_NOT_FOUND_4004', { entity: PO_TITLE });
  throw statusError(PO_TITLE, PO_STATUS, doc, action);
}

/** Takes the plan's quantities on the order lines; over what is left, the whole plan is refused. */
async function takeLines(tenant: Tenant, order: Row, lines: CheckedLine[]): Promise<void> {
  for (const l of [...lines].sort((a, b) => a.orderLineId - b.orderLineId)) {
    const ok = await tenant.update('purchaseOrderLine').set({ plannedQty: sql`${sql.ref('plannedQty')} + ${l.qty}` })
      .where('id', '=', l.orderLineId).where('orderId', '=', Number(order.id))
      .where(sql<boolean>`${sql.ref('plannedQty')} + ${l.qty} <= ${sql.ref('qty')}`)
      .returning('id').executeTakeFirst();
    if (!ok) {
      const ol = (await tenant.select('purchaseOrderLine').innerJoin('product', (j) => j.onRef('product.id', '=', 'purchaseOrderLine.productId'))
        .select(['purchaseOrderLine.id', 'purchaseOrderLine.lineNo', 'purchaseOrderLine.qty', 'purchaseOrderLine.plannedQty', 'product.code'])
        .where('purchaseOrderLine.id', '=', l.orderLineId).executeTakeFirst()) as Row | undefined;
      if (!ol) throw bizError('COMMON_NOT_FOUND_4004', { entity: '采购订单明细' });
      throw overPlan(order, ol, l.qty, Number(ol.plannedQty));
    }
  }
}

/** Gives a plan's quantities back to its order lines (the plan is being edited or cancelled). */
export async function releaseLines(tenant: Tenant, planId: number): Promise<void> {
  const per = new Map<number, number>();
  for (const r of (await tenant.select('inboundPlanLine').select(['orderLineId', 'qty']).where('planId', '=', planId).execute()) as Row[]) {
    per.set(Number(r.orderLineId), (per.get(Number(r.orderLineId)) ?? 0) + Number(r.qty));
  }
  for (const [orderLineId, q] of [...per.entries()].sort((a, b) => a[0] - b[0])) {
    const ok = await tenant.update('purchaseOrderLine').set({ plannedQty: sql`${sql.ref('plannedQty')} - ${q}` })
      .where('id', '=', orderLineId).where('plannedQty', '>=', q).returning('id').executeTakeFirst();
    if (!ok) throw new Error(`inbound plan ${planId}: order line ${orderLineId} has less planned than the plan`);
  }
}

/** Receiving notes (not cancelled) received against a task: they must go before the task can. */
export async function openNotesOf(tenant: Tenant, taskId: number): Promise<string[]> {
  const rows = (await tenant.select('receivingNote').select('docNo').where('taskId', '=', taskId).where('status', '!=', 'cancelled').orderBy('id').limit(3).execute()) as Row[];
  return rows.map((r) => String(r.docNo));
}

export interface PlanResult {
  id: number;
  docNo: string;
  status: PlanStatus;
  version: number;
  totalQty: number;
  taskId?: number | null;
  taskDocNo?: string | null;
}

/** Creates or updates a draft plan. */
export async function savePlan(ctx: CallContext, input: PlanSaveInput): Promise<PlanResult> {
  const caller = ctx.caller!;
  if (input.id !== undefined && input.version === undefined) throw validationError([{ field: 'version', message: '版本不能为空，请刷新后重试' }]);
  const { order, expectedDate, containerNo, lines } = await checkPlan(ctx, input);
  const totalQty = lines.reduce((s, l) => s + l.qty, 0);
  const now = new Date().toISOString();
  return ctx.transaction(async (db, tenant) => {
    const header: Row = {
      orderId: input.orderId, warehouseId: Number(order.warehouseId), expectedDate, containerId: input.containerId ?? null, remark: input.remark ?? null,
      lineCount: lines.length, totalQty, updatedAt: now, updatedBy: caller.accountId,
    };
    let id: number;
    let docNo = '';
    let version = 1;
    if (input.id !== undefined) {
      const updated = (await tenant.update('inboundPlan').set({ ...header, version: sql`${sql.ref('version')} + 1` })
        .where('id', '=', input.id).where('status', '=', 'draft').where('version', '=', input.version!).returning(['id', 'docNo', 'version', 'orderId']).executeTakeFirst()) as Row | undefined;
      if (!updated) throw await refusal(tenant, 'inboundPlan', PLAN_TITLE, PLAN_STATUS, input.id, input.version, ['draft'], '修改');
      id = Number(updated.id);
      docNo = String(updated.docNo);
      version = Number(updated.version);
      await releaseLines(tenant, id);
      await tenant.delete('inboundPlanLine').where('planId', '=', id).execute();
    } else {
      const inserted = (await tenant.insert('inboundPlan', {
        ...header, docNo: `~${Date.now().toString(36)}${crypto.randomBytes(6).toString('hex')}`, status: 'draft', version: 1, createdAt: now, createdBy: caller.accountId,
      }).returning('id').executeTakeFirstOrThrow()) as Row;
      id = Number(inserted.id);
    }
    await claimOrder(tenant, input.orderId, '制定入库计划');
    if (input.containerId) await claimLoadableContainer(tenant, input.containerId, '装入入库计划');
    await takeLines(tenant, order, lines);
    await insertMany(db, 'inbound_plan_line', ['company_id', 'plan_id', 'line_no', 'order_line_id', 'product_id', 'qty', 'remark'],
      lines.map((l, i) => [tenant.companyId, id, i + 1, l.orderLineId, l.productId, l.qty, l.remark]));
    if (!docNo) {
      docNo = await nextDocumentNo(db, tenant.companyId, PLAN_PREFIX, tz(ctx));
      await tenant.update('inboundPlan').set({ docNo }).where('id', '=', id).execute();
    }
    await ctx.audit({
      action: input.id !== undefined ? 'update' : 'create', entity: 'inboundPlan', recordId: id, recordLabel: docNo,
      changes: [
        { field: 'orderId', title: '采购订单', from: null, to: String(order.docNo) },
        { field: 'containerId', title: '集装箱', from: null, to: containerNo },
        { field: 'expectedDate', title: '预计到货日期', from: null, to: expectedDate },
        { field: 'totalQty', title: '计划数量', from: null, to: totalQty },
      ],
    }, db);
    return { id, docNo, status: 'draft', version, totalQty };
  });
}

/** draft → confirmed, creating the inbound task with the plan's lines. */
export async function confirmPlan(ctx: CallContext, input: { id: number; version?: number }): Promise<PlanResult> {
  const caller = ctx.caller!;
  const now = new Date().toISOString();
  return ctx.transaction(async (db, tenant) => {
    let q = tenant.update('inboundPlan').set({ status: 'confirmed', confirmedAt: now, confirmedBy: caller.accountId, updatedAt: now, updatedBy: caller.accountId, version: sql`${sql.ref('version')} + 1` })
      .where('id', '=', input.id).where('status', '=', 'draft');
    if (input.version !== undefined) q = q.where('version', '=', input.version);
    const plan = (await q.returning(['id', 'docNo', 'version', 'orderId', 'warehouseId', 'containerId', 'lineCount', 'totalQty', 'remark']).executeTakeFirst()) as Row | undefined;
    if (!plan) throw await refusal(tenant, 'inboundPlan', PLAN_TITLE, PLAN_STATUS, input.id, input.version, ['draft'], '确认');
    await claimOrder(tenant, Number(plan.orderId), '确认入库计划');
    const task = await createTask(ctx, db, tenant, plan, now);
    await ctx.audit({ action: 'confirm', entity: 'inboundPlan', recordId: input.id, recordLabel: String(plan.docNo), changes: [{ field: 'status', title: '状态', from: PLAN_STATUS.draft, to: PLAN_STATUS.confirmed }] }, db);
    return { id: input.id, docNo: String(plan.docNo), status: 'confirmed', version: Number(plan.version), totalQty: Number(plan.totalQty), taskId: task.id, taskDocNo: task.docNo };
  });
}

async function createTask(ctx: CallContext, db: DB, tenant: Tenant, plan: Row, now: string): Promise<{ id: number; docNo: string }> {
  const caller = ctx.caller!;
  const inserted = (await tenant.insert('inboundTask', {
    docNo: `~${Date.now().toString(36)}${crypto.randomBytes(6).toString('hex')}`, planId: Number(plan.id), orderId: Number(plan.orderId), warehouseId: Number(plan.warehouseId),
    containerId: plan.containerId ?? null, status: 'open', remark: plan.remark ?? null, lineCount: Number(plan.lineCount), totalQty: Number(plan.totalQty), receivedQty: 0,
    version: 1, createdAt: now, createdBy: caller.accountId, updatedAt: now, updatedBy: caller.accountId,
  }).returning('id').executeTakeFirstOrThrow()) as Row;
  const id = Number(inserted.id);
  const lines = (await tenant.select('inboundPlanLine').select(['lineNo', 'orderLineId', 'productId', 'qty', 'remark']).where('planId', '=', Number(plan.id)).orderBy('lineNo').execute()) as Row[];
  await insertMany(db, 'inbound_task_line', ['company_id', 'task_id', 'line_no', 'order_line_id', 'product_id', 'qty', 'received_qty', 'remark'],
    lines.map((l) => [tenant.companyId, id, Number(l.lineNo), Number(l.orderLineId), Number(l.productId), Number(l.qty), 0, text(l.remark)]));
  // The inventory list is drawn from the per product × warehouse totals: a product never stocked in this
  // warehouse gets its (empty) row now, so what the task expects shows there as inbound (在途).
  await insertMany(db, 'stock_summary', ['company_id', 'product_id', 'warehouse_id', 'on_hand', 'reserved', 'updated_at'],
    [...new Set(lines.map((l) => Number(l.productId)))].map((productId) => [tenant.companyId, productId, Number(plan.warehouseId), 0, 0, now]),
    'on conflict (company_id, product_id, warehouse_id) do nothing');
  const docNo = await nextDocumentNo(db, tenant.companyId, TASK_PREFIX, tz(ctx));
  await tenant.update('inboundTask').set({ docNo }).where('id', '=', id).execute();
  await ctx.audit({ action: 'create', entity: 'inboundTask', recordId: id, recordLabel: docNo, changes: [{ field: 'planId', title: PLAN_TITLE, from: null, to: String(plan.docNo) }] }, db);
  return { id, docNo };
}

/**
 * Cancels a confirmed plan's task (inside the caller's transaction): refused while receiving notes
 * (not cancelled) were made against it, or once it has receipts. `by` names the task when the call
 * came from the task's side (its number in the refusal, its version checked).
 */
export async function cancelTaskOfPlan(ctx: CallContext, db: DB, tenant: Tenant, plan: Row, now: string, by?: { title: string; docNo: string; version?: number }): Promise<void> {
  const task = (await tenant.select('inboundTask').select(['id', 'docNo', 'status']).where('planId', '=', Number(plan.id)).executeTakeFirst()) as Row | undefined;
  if (!task) return;
  const notes = await openNotesOf(tenant, Number(task.id));
  if (notes.length) {
    throw bizError('PURCHASE_DEPENDENT_DOCS_4096', { doc: by?.title ?? PLAN_TITLE, docNo: by?.docNo ?? String(plan.docNo), next: notes.join('、') }, { id: Number(plan.id), taskId: Number(task.id) });
  }
  let q = tenant.update('inboundTask').set({ status: 'cancelled', cancelledAt: now, cancelledBy: ctx.caller!.accountId, updatedAt: now, updatedBy: ctx.caller!.accountId, version: sql`${sql.ref('version')} + 1` })
    .where('id', '=', Number(task.id)).where('status', '=', 'open').where('receivedQty', '=', 0);
  if (by?.version !== undefined) q = q.where('version', '=', by.version);
  if (!(await q.returning('id').executeTakeFirst())) {
    if (task.status === 'open' && by?.version !== undefined) throw bizError('COMMON_VERSION_CONFLICT_4009', { entity: TASK_TITLE });
    throw statusError(TASK_TITLE, TASK_STATUS, task, '作废');
  }
  await ctx.audit({ action: 'cancel', entity: 'inboundTask', recordId: Number(task.id), recordLabel: String(task.docNo), changes: [{ field: 'status', title: '状态', from: TASK_STATUS.open, to: TASK_STATUS.cancelled }] }, db);
}

/** draft → cancelled, or confirmed → cancelled with its task; the planned quantities are given back. */
export async function cancelPlan(ctx: CallContext, input: { id: number; version?: number }): Promise<PlanResult> {
  const caller = ctx.caller!;
  const now = new Date().toISOString();
  return ctx.transaction(async (db, tenant) => {
    let from: PlanStatus | undefined;
    let plan: Row | undefined;
    for (const f of ['draft', 'confirmed'] as const) {
      let q = tenant.update('inboundPlan').set({ status: 'cancelled', cancelledAt: now, cancelledBy: caller.accountId, updatedAt: now, updatedBy: caller.accountId, version: sql`${sql.ref('version')} + 1` })
        .where('id', '=', input.id).where('status', '=', f);
      if (input.version !== undefined) q = q.where('version', '=', input.version);
      plan = (await q.returning(['id', 'docNo', 'version', 'totalQty']).executeTakeFirst()) as Row | undefined;
      if (plan) { from = f; break; }
    }
    if (!plan || !from) throw await refusal(tenant, 'inboundPlan', PLAN_TITLE, PLAN_STATUS, input.id, input.version, ['draft', 'confirmed'], '作废');
    if (from === 'confirmed') await cancelTaskOfPlan(ctx, db, tenant, plan, now);
    await releaseLines(tenant, input.id);
    await ctx.audit({ action: 'cancel', entity: 'inboundPlan', recordId: input.id, recordLabel: String(plan.docNo), changes: [{ field: 'status', title: '状态', from: PLAN_STATUS[from], to: PLAN_STATUS.cancelled }] }, db);
    return { id: input.id, docNo: String(plan.docNo), status: 'cancelled', version: Number(plan.version), totalQty: Number(plan.totalQty) };
  });
}

function planView(r: Row) {
  const status = String(r.status) as PlanStatus;
  const taskStatus = r.taskStatus == null ? null : (String(r.taskStatus) as TaskStatus);
  const containerStatus = r.containerStatus == null ? null : String(r.containerStatus);
  return {
    id: Number(r.id), docNo: String(r.docNo), docType: 'inboundPlan', status, statusText: PLAN_STATUS[status] ?? status,
    orderId: Number(r.orderId), orderDocNo: text(r.orderDocNo), supplierId: r.supplierId == null ? null : Number(r.supplierId), supplierName: text(r.supplierName),
    warehouseId: Number(r.warehouseId), warehouseName: text(r.warehouseName), expectedDate: text(r.expectedDate),
    containerId: r.containerId == null ? null : Number(r.containerId), containerNo: text(r.containerNo), containerType: text(r.containerType),
    containerStatus, containerStatusText: containerStatus ? (CONTAINER_STATUS as Record<string, string>)[containerStatus] ?? containerStatus : null,
    taskId: r.taskId == null ? null : Number(r.taskId), taskDocNo: text(r.taskDocNo), taskStatus, taskStatusText: taskStatus ? TASK_STATUS[taskStatus] ?? taskStatus : null,
    remark: text(r.remark), lineCount: Number(r.lineCount), totalQty: Number(r.totalQty), receivedQty: Number(r.taskReceivedQty ?? 0),
    version: Number(r.version), createdAt: text(r.createdAt), createdByName: text(r.createdByName), confirmedAt: text(r.confirmedAt), cancelledAt: text(r.cancelledAt), doneAt: text(r.doneAt),
    closedAt: text(r.closedAt), closeReason: status === 'closed' ? text(r.taskCloseReason) : null,
    route: `/procurement/treasuryPlanDetail/${Number(r.id)}`, taskRoute: r.taskId == null ? null : `/entrepot/inboundTaskDetail/${Number(r.taskId)}`,
  };
}

function withNames(tenant: Tenant) {
  const h = 'inboundPlan';
  return tenant.select(h)
    .innerJoin('purchaseOrder', (j) => j.onRef('purchaseOrder.id', '=', `${h}.orderId`).onRef('purchaseOrder.companyId', '=', `${h}.companyId`))
    .innerJoin('supplier', (j) => j.onRef('supplier.id', '=', 'purchaseOrder.supplierId').onRef('supplier.companyId', '=', `${h}.companyId`))
    .innerJoin('warehouse', (j) => j.onRef('warehouse.id', '=', `${h}.warehouseId`).onRef('warehouse.companyId', '=', `${h}.companyId`))
    .leftJoin('container', (j) => j.onRef('container.id', '=', `${h}.containerId`).onRef('container.companyId', '=', `${h}.companyId`))
    .leftJoin('inboundTask as task', (j) => j.onRef('task.planId', '=', `${h}.id`).onRef('task.companyId', '=', `${h}.companyId`))
    .leftJoin('account as creator', (j) => j.onRef('creator.id', '=', `${h}.createdBy`).onRef('creator.companyId', '=', `${h}.companyId`))
    .selectAll(h)
    .select(['purchaseOrder.docNo as orderDocNo', 'purchaseOrder.supplierId', 'supplier.name as supplierName', 'warehouse.name as warehouseName',
      'container.containerNo', 'container.containerType', 'container.status as containerStatus',
      'task.id as taskId', 'task.docNo as taskDocNo', 'task.status as taskStatus', 'task.receivedQty as taskReceivedQty', 'task.closeReason as taskCloseReason',
      'creator.userName as createdByName']);
}

/** One plan with its lines: ordered, planned on all plans, received on the order and on this plan's task. */
export async function getPlan(ctx: CallContext, id: number) {
  const tenant = ctx.tenant;
  const doc = (await withNames(tenant).where('inboundPlan.id', '=', id).executeTakeFirst()) as Row | undefined;
  if (!doc) throw bizError('COMMON_NOT_FOUND_4004', { entity: PLAN_TITLE });
  const l = 'inboundPlanLine';
  const lines = (await tenant.select(l)
    .innerJoin('purchaseOrderLine as ol', (j) => j.onRef('ol.id', '=', `${l}.orderLineId`).onRef('ol.companyId', '=', `${l}.companyId`))
    .innerJoin('product', (j) => j.onRef('product.id', '=', `${l}.productId`).onRef('product.companyId', '=', `${l}.companyId`))
    .select([`${l}.id`, `${l}.lineNo`, `${l}.orderLineId`, `${l}.productId`, `${l}.qty`, `${l}.remark`,
      'ol.lineNo as orderLineNo', 'ol.qty as orderedQty', 'ol.plannedQty as orderPlannedQty', 'ol.receivedQty as orderReceivedQty',
      'product.code as productCode', 'product.name as productName', 'product.specification', 'product.bigQty', 'product.midQty', 'product.unitBig', 'product.unitMid', 'product.unitSmall'])
    .where(`${l}.planId`, '=', id).orderBy(`${l}.lineNo`).execute()) as Row[];
  const received = new Map<number, number>();
  if (doc.taskId != null) {
    for (const r of (await tenant.select('inboundTaskLine').select(['orderLineId', 'receivedQty']).where('taskId', '=', Number(doc.taskId)).execute()) as Row[]) {
      received.set(Number(r.orderLineId), Number(r.receivedQty));
    }
  }
  return {
    ...planView(doc),
    lines: lines.map((r) => {
      const packs = { bigQty: Number(r.bigQty), midQty: Number(r.midQty), unitBig: text(r.unitBig), unitMid: text(r.unitMid), unitSmall: text(r.unitSmall) };
      const qty = Number(r.qty);
      return {
        id: Number(r.id), lineNo: Number(r.lineNo), orderLineId: Number(r.orderLineId), orderLineNo: Number(r.orderLineNo), productId: Number(r.productId),
        productCode: String(r.productCode), productName: String(r.productName), specification: text(r.specification), unitSmall: text(r.unitSmall),
        qty, units: splitUnits(qty, packs), orderedQty: Number(r.orderedQty), orderPlannedQty: Number(r.orderPlannedQty), orderReceivedQty: Number(r.orderReceivedQty),
        receivedQty: received.get(Number(r.orderLineId)) ?? 0, remark: text(r.remark),
      };
    }),
  };
}

export async function listPlans(ctx: CallContext, input: PlanListInput) {
  const from = parseDay(input.dateFrom, 'dateFrom', '预计到货开始日期');
  const to = parseDay(input.dateTo, 'dateTo', '预计到货结束日期');
  let q = ctx.tenant.select('inboundPlan');
  const docNo = input.docNo?.trim();
  if (docNo) q = q.where('inboundPlan.docNo', 'like', like(docNo));
  if (input.orderId) q = q.where('inboundPlan.orderId', '=', input.orderId);
  if (input.containerId) q = q.where('inboundPlan.containerId', '=', input.containerId);
  if (input.warehouseId) q = q.where('inboundPlan.warehouseId', '=', input.warehouseId);
  if (input.status) q = q.where('inboundPlan.status', '=', input.status);
  if (from) q = q.where('inboundPlan.expectedDate', '>=', from);
  if (to) q = q.where('inboundPlan.expectedDate', '<=', to);
  return newestFirstPage(q, 'inboundPlan.id', namedRows(withNames(ctx.tenant), 'inboundPlan.id'), planView, input);
}

/** What is left to plan of an order, per line (ordered − planned on plans not cancelled). */
export async function plannableLines(ctx: CallContext, orderId: number) {
  const tenant = ctx.tenant;
  const order = (await tenant.select('purchaseOrder')
    .innerJoin('supplier', (j) => j.onRef('supplier.id', '=', 'purchaseOrder.supplierId').onRef('supplier.companyId', '=', 'purchaseOrder.companyId'))
    .innerJoin('warehouse', (j) => j.onRef('warehouse.id', '=', 'purchaseOrder.warehouseId').onRef('warehouse.companyId', '=', 'purchaseOrder.companyId'))
    .select(['purchaseOrder.id', 'purchaseOrder.docNo', 'purchaseOrder.status', 'purchaseOrder.warehouseId', 'purchaseOrder.expectedDate', 'supplier.name as supplierName', 'warehouse.name as warehouseName'])
    .where('purchaseOrder.id', '=', orderId).executeTakeFirst()) as Row | undefined;
  if (!order) throw bizError('COMMON_NOT_FOUND_4004', { entity: PO_TITLE });
  const status = String(order.status);
  const rows = await orderLines(tenant, orderId);
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
