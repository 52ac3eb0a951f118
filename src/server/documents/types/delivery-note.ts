// 送货单 / 发货单 (delivery note) on the document engine (issue 14; oms 024101–024120): the goods of one
// outbound task that were picked and not yet delivered leave the warehouse. draft → posted (已发货) →
// signed (已签收: proof of delivery — signed by, date, a photo uploaded through 980107); cancelled from draft,
// or from posted (the reversal) while no later document depends on it.
// Posting, in one transaction, in the lock order order → order lines → task lines → task → plan → stock
// (picking takes task lines → stock too, so the two never wait on each other in a cycle):
// - the order row is claimed while it can ship (confirmed / partly shipped);
// - the client's back-order policy (the order keeps the client's, see sales-order.ts): `complete` refuses a
//   note that leaves any order line short; `keep` leaves the rest open; `cancel` ends the rest: when the
//   task has nothing else picked or being picked, its open quantities go back to the order (plannedQty),
//   the task is done, and when no other plan of the order is open the order's remaining reservation is
//   released and the order closed (shipped when nothing is left);
// - order lines: shippedQty up, plannedQty and reservedQty down by what ships (guarded updates);
// - task lines: deliveredQty up, never above pickedQty (the guard two clerks posting notes for the same
//   picked goods meet: one of them is refused);
// - the ledger: from the staging location, qty −q and committed −q on the product × warehouse (the goods
//   and the order's reservation leave together);
// - the order moves to partly shipped / shipped, the plan to done when its task is done.
// The reversal undoes each step (the ledger by reversing the note's moves), refused when the posting
// closed the rest of the order (policy `cancel`) — the order is closed then — and when a posted sales
// invoice is matched against the note (OUTBOUND_REVERSE_INVOICED_4179).
// Credit: with the company switch 发货时再次检查信用额度 (flags.creditCheckOnDelivery) posting checks the client's
// credit limit again (creditAtDelivery below).
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { parseFlags } from '../../../core/flags.ts';
import { holdsRight } from '../../auth/caller.ts';
import { isSqlite, runSql } from '../../db/raw-sql.ts';
import type { CallContext } from '../../catalog/context.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import { bizError, documentStatusError, validationError, type FieldError } from '../../http/errors.ts';
import { text, today, type Row } from '../../domain/procurement/common.ts';
import { bulkChange } from '../../domain/outbound/bulk.ts';
import { stagingLocation } from '../../domain/outbound/staging.ts';
import { DELIVERABLE_TASK, refreshTask } from '../../domain/outbound/task.ts';
import { listCartonsOfTask, shipCartons, unshipCartons } from '../../domain/outbound/cartons.ts';
import { MAX_MOVE_QTY } from '../../domain/stock/ledger.ts';
import { defineDocument, type TransitionRun } from '../definition.ts';
import { checkCredit } from './sales-order.ts';
import { refuseIfNoteInvoiced } from '../../domain/sales/invoice.ts';
import { TypedTenant, typed } from '../../db/typed.ts';

export const DN_TITLE = '送货单';
const ID = { type: 'integer', min: 1, max: 2_147_483_647 } as const;
const ORDER_STATUS: Record<string, string> = { draft: '草稿', confirmed: '已确认', partlyShipped: '部分发货', shipped: '已发货', closed: '已关闭', cancelled: '已作废' };

async function claimOrder(untypedTenant: Tenant, orderId: number, from: string[], action: string): Promise<Row> {
  const tenant = TypedTenant.of(untypedTenant);
  const row = await tenant.update('salesOrder').set({ updatedAt: new Date().toISOString() }).where('id', '=', orderId).where('status', 'in', from)
    .returning(['id', 'docNo', 'status', 'backOrderPolicy', 'warehouseId']).executeTakeFirst();
  if (row) return row;
  const doc = await tenant.select('salesOrder').select(['id', 'docNo', 'status']).where('id', '=', orderId).executeTakeFirst();
  if (!doc) throw bizError('COMMON_NOT_FOUND_4004', { entity: '销售订单' });
  throw documentStatusError('销售订单', ORDER_STATUS, doc, action);
}

/** Quantities of the note per order line and per task line. */
function perLine(lines: Row[]) {
  const order = new Map<number, number>();
  const task = new Map<number, number>();
  for (const l of lines) {
    order.set(Number(l.orderLineId), (order.get(Number(l.orderLineId)) ?? 0) + Number(l.qty));
    task.set(Number(l.taskLineId), (task.get(Number(l.taskLineId)) ?? 0) + Number(l.qty));
  }
  return { order: [...order.entries()].sort((a, b) => a[0] - b[0]), task: [...task.entries()].sort((a, b) => a[0] - b[0]) };
}

async function orderLines(untypedTenant: Tenant, orderId: number) {
  const tenant = TypedTenant.of(untypedTenant);
  return await tenant.select('salesOrderLine').innerJoin('product', (j) => j.onRef('product.id', '=', 'salesOrderLine.productId').onRef('product.companyId', '=', 'salesOrderLine.companyId'))
    .select(['salesOrderLine.id', 'salesOrderLine.lineNo', 'salesOrderLine.productId', 'salesOrderLine.qty', 'salesOrderLine.shippedQty', 'salesOrderLine.plannedQty', 'salesOrderLine.reservedQty', 'product.code'])
    .where('salesOrderLine.orderId', '=', orderId).orderBy('salesOrderLine.id').execute();
}

/** The order's status and header totals from its lines. */
async function refreshOrder(untypedTenant: Tenant, orderId: number, closeRest = false): Promise<string> {
  const tenant = TypedTenant.of(untypedTenant);
  const ls = await orderLines(untypedTenant, orderId);
  const shipped = ls.reduce((s, l) => s + Number(l.shippedQty), 0);
  const reserved = ls.reduce((s, l) => s + Number(l.reservedQty), 0);
  const complete = ls.every((l) => Number(l.shippedQty) >= Number(l.qty));
  const status = complete ? 'shipped' : closeRest ? 'closed' : shipped > 0 ? 'partlyShipped' : 'confirmed';
  const now = new Date().toISOString();
  await tenant.update('salesOrder').set({ status, shippedQty: shipped, reservedQty: reserved, updatedAt: now, version: sql`${sql.ref('version')} + 1`, ...(status === 'closed' ? { closedAt: now } : {}) })
    .where('id', '=', orderId).execute();
  return status;
}

async function post(t: TransitionRun) {
  const { ctx, tenant: untypedTenant, doc } = t;
  const tenant = TypedTenant.of(untypedTenant);
  const lines = await t.storedLines();
  const orderId = Number(doc.orderId);
  // a racing note that shipped the task first is named as such, not as the order's new status
  const order = await claimOrder(untypedTenant, orderId, ['confirmed', 'partlyShipped'], '发货')
    .catch(async (e: unknown) => { throw (await spentTask(untypedTenant, Number(doc.taskId))) ?? e; });
  await creditAtDelivery(t, orderId);
  const { order: byOrderLine, task: byTaskLine } = perLine(lines);
  const ols = await orderLines(untypedTenant, orderId);
  const policy = String(order.backOrderPolicy ?? 'keep');
  if (policy === 'complete') {
    const mine = new Map(byOrderLine);
    for (const ol of ols) {
      const q = mine.get(Number(ol.id)) ?? 0;
      const left = Number(ol.qty) - Number(ol.shippedQty) - q;
      if (left > 0) {
        throw bizError('OUTBOUND_SHIP_COMPLETE_4167', { docNo: String(order.docNo), line: Number(ol.lineNo), code: String(ol.code), ordered: Number(ol.qty), shipped: Number(ol.shippedQty), qty: q, left },
          { orderLineId: Number(ol.id), left });
      }
    }
  }
  const shipped = await bulkChange(untypedTenant, {
    table: 'sales_order_line', values: ['q'], set: 'shipped_qty = shipped_qty + v.q, planned_qty = planned_qty - v.q, reserved_qty = reserved_qty - v.q',
    // (the lines are the note's own: its save checked they are the task's, and the task's are the order's)
    guard: 't.planned_qty >= v.q and t.reserved_qty >= v.q and t.shipped_qty + v.q <= t.qty',
  }, byOrderLine);
  if (shipped.size !== byOrderLine.length) throw new Error(`delivery note ${String(doc.id)}: an order line cannot ship its quantity`);
  // a note made from a loading list ships its cartons; one made straight from the task only what is in no carton
  const fromList = doc.loadingListId != null;
  const delivered = await bulkChange(untypedTenant, {
    table: 'outbound_task_line', values: ['q'], set: 'delivered_qty = delivered_qty + v.q', guard: fromList ? 't.delivered_qty + v.q <= t.picked_qty' : 't.delivered_qty + v.q <= t.picked_qty - coalesce(t.packed_qty, 0)',
  }, byTaskLine);
  if (delivered.size !== byTaskLine.length) {
    const [taskLineId, q] = byTaskLine.find(([id]) => !delivered.has(id))!;
    const spent = await spentTask(untypedTenant, Number(doc.taskId));
    if (spent) throw spent;
    throw await overDelivered(untypedTenant, Number(doc.taskId), taskLineId, q);
  }
  if (fromList) await shipCartons(untypedTenant, doc, lines);
  // the back-order policy `cancel`: the rest of the task ends here (when nothing else of it is picked or being picked)
  let closedRest = false;
  if (policy === 'cancel') {
    const tls = await tenant.select('outboundTaskLine').select(['id', 'orderLineId', 'qty', 'pickingQty', 'pickedQty', 'deliveredQty']).where('taskId', '=', Number(doc.taskId)).orderBy('id').execute();
    const idle = tls.every((l) => Number(l.pickingQty) === 0 && Number(l.pickedQty) === Number(l.deliveredQty));
    if (idle) {
      closedRest = true;
      const back = new Map<number, number>();
      for (const l of tls) back.set(Number(l.orderLineId), (back.get(Number(l.orderLineId)) ?? 0) + Number(l.qty) - Number(l.deliveredQty));
      for (const [orderLineId, q] of [...back.entries()].sort((a, b) => a[0] - b[0])) {
        if (q > 0) await tenant.update('salesOrderLine').set({ plannedQty: sql`${sql.ref('plannedQty')} - ${q}` }).where('id', '=', orderLineId).where('plannedQty', '>=', q).execute();
      }
    }
  }
  const task = await refreshTask(ctx, untypedTenant, Number(doc.taskId), closedRest);
  const warehouseId = Number(doc.warehouseId);
  const staging = await stagingLocation(untypedTenant, warehouseId, ctx.caller!.accountId);
  await t.postMoves(lines.map((l) => ({ productId: Number(l.productId), warehouseId, locationId: staging, qty: -Number(l.qty), committed: -Number(l.qty), kind: 'ship' as const, docLine: Number(l.lineNo) })));
  let orderStatus: string;
  if (closedRest) {
    const open = await tenant.select('deliveryPlan').select('id').where('orderId', '=', orderId).where('status', 'in', ['draft', 'confirmed']).limit(1).executeTakeFirst();
    if (!open) {
      // nothing else will ship: what the order still holds is released
      const held = (await orderLines(untypedTenant, orderId)).filter((l) => Number(l.reservedQty) > 0);
      await t.postMoves(held.map((l) => ({ productId: Number(l.productId), warehouseId: Number(order.warehouseId), committed: -Number(l.reservedQty), kind: 'release' as const, docLine: null })));
      if (held.length) await tenant.update('salesOrderLine').set({ reservedQty: 0 }).where('orderId', '=', orderId).execute();
      orderStatus = await refreshOrder(untypedTenant, orderId, true);
    } else orderStatus = await refreshOrder(untypedTenant, orderId);
    await tenant.update('deliveryNote').set({ closedRest: 1 }).where('id', '=', Number(doc.id)).execute();
    t.audit.push({ field: 'backOrder', title: '欠货处理', from: null, to: '取消欠货：出库任务余量不再发货' });
  } else orderStatus = await refreshOrder(untypedTenant, orderId);
  return { orderStatus, orderStatusText: ORDER_STATUS[orderStatus] ?? orderStatus, taskStatus: task.status, closedRest };
}

/**
 * The company's switch 发货时再次检查信用额度: the client's open orders (as the confirmation counts them: open
 * receivables, open orders, this one) against its credit limit now — a limit lowered, or orders passed by override since
 * this one was confirmed, stop the goods at the door; the override right passes, written to the audit trail.
 */
async function creditAtDelivery(t: TransitionRun, orderId: number) {
  const { ctx, tenant: untypedTenant } = t;
  const tenant = TypedTenant.of(untypedTenant);
  const company = await typed(t.db).selectFrom('company').select('flags').where('id', '=', tenant.companyId).executeTakeFirst();
  if (!parseFlags(company?.flags).creditCheckOnDelivery) return;
  const order = await tenant.select('salesOrder').select(['clientId', 'docNo']).where('id', '=', orderId).executeTakeFirstOrThrow();
  if (!isSqlite(t.db)) await runSql(t.db, 'select 1 from client where company_id = ? and id = ? for update', [tenant.companyId, Number(order.clientId)]);
  const client = await tenant.select('client').select(['id', 'name', 'creditLimit']).where('id', '=', Number(order.clientId)).executeTakeFirstOrThrow();
  // the same figures as at confirmation (open receivables, open orders, this order), the override audited as 发货
  const doc = await tenant.select('salesOrder').select(['id', 'docNo', 'totalAmountBase']).where('id', '=', orderId).executeTakeFirstOrThrow();
  await checkCredit({ ctx, db: t.db, tenant: untypedTenant, doc }, client, '发货');
}

async function overDelivered(untypedTenant: Tenant, taskId: number, taskLineId: number, q: number) {
  const tenant = TypedTenant.of(untypedTenant);
  const tl = await tenant.select('outboundTaskLine').innerJoin('outboundTask', (j) => j.onRef('outboundTask.id', '=', 'outboundTaskLine.taskId').onRef('outboundTask.companyId', '=', 'outboundTaskLine.companyId'))
    .innerJoin('product', (j) => j.onRef('product.id', '=', 'outboundTaskLine.productId').onRef('product.companyId', '=', 'outboundTaskLine.companyId'))
    .select(['outboundTaskLine.lineNo', 'outboundTaskLine.pickedQty', 'outboundTaskLine.deliveredQty', 'outboundTaskLine.packedQty', 'outboundTask.docNo', 'product.code'])
    .where('outboundTaskLine.id', '=', taskLineId).where('outboundTaskLine.taskId', '=', taskId).executeTakeFirst();
  if (!tl) return bizError('COMMON_NOT_FOUND_4004', { entity: '出库任务明细' });
  const left = Math.max(0, Number(tl.pickedQty) - Number(tl.deliveredQty) - Number(tl.packedQty ?? 0));
  if (Number(tl.packedQty ?? 0) > 0) {
    return bizError('OUTBOUND_DELIVER_PACKED_4277', { docNo: String(tl.docNo), line: Number(tl.lineNo), code: String(tl.code), packed: Number(tl.packedQty), qty: q, left }, { taskLineId, left });
  }
  return bizError('OUTBOUND_DELIVER_OVER_4165', { docNo: String(tl.docNo), line: Number(tl.lineNo), code: String(tl.code), picked: Number(tl.pickedQty), delivered: Number(tl.deliveredQty), qty: q, left },
    { taskLineId, left });
}

async function reverse(t: TransitionRun) {
  const { ctx, tenant: untypedTenant, doc } = t;
  const tenant = TypedTenant.of(untypedTenant);
  if (Number(doc.closedRest ?? 0) === 1) {
    throw bizError('OUTBOUND_REVERSE_CLOSED_4168', { docNo: String((await tenant.select('salesOrder').select('docNo').where('id', '=', Number(doc.orderId)).executeTakeFirstOrThrow()).docNo), note: String(doc.docNo) });
  }
  const orderId = Number(doc.orderId);
  // (the status update has taken the note row: an invoice posting over it now waits, then finds it cancelled)
  await refuseIfNoteInvoiced(untypedTenant, Number(doc.id), String(doc.docNo));
  await claimOrder(untypedTenant, orderId, ['partlyShipped', 'shipped'], '作废送货单');
  // goods of the order came back on sales returns (not cancelled): they go first (the return claims the order row too)
  const returns = await tenant.select('salesReturn').select('docNo').where('orderId', '=', orderId).where('status', '!=', 'cancelled').orderBy('id').limit(3).execute();
  if (returns.length) throw bizError('PURCHASE_DEPENDENT_DOCS_4096', { doc: '送货单', docNo: String(doc.docNo), next: returns.map((r) => String(r.docNo)).join('、') }, { id: Number(doc.id) });
  const lines = await t.storedLines();
  const { order: byOrderLine, task: byTaskLine } = perLine(lines);
  const unshipped = await bulkChange(untypedTenant, {
    table: 'sales_order_line', values: ['q'], set: 'shipped_qty = shipped_qty - v.q, planned_qty = planned_qty + v.q, reserved_qty = reserved_qty + v.q', guard: 't.shipped_qty >= v.q',
  }, byOrderLine);
  if (unshipped.size !== byOrderLine.length) throw new Error(`delivery note ${String(doc.id)}: an order line shipped less than the note`);
  const undelivered = await bulkChange(untypedTenant, { table: 'outbound_task_line', values: ['q'], set: 'delivered_qty = delivered_qty - v.q', guard: 't.delivered_qty >= v.q' }, byTaskLine);
  if (undelivered.size !== byTaskLine.length) throw new Error(`delivery note ${String(doc.id)}: a task line delivered less than the note`);
  if (doc.loadingListId != null) await unshipCartons(untypedTenant, doc, lines);
  await refreshTask(ctx, untypedTenant, Number(doc.taskId));
  // the goods go back to staging and the order's reservation with them
  await t.reverseMoves();
  const orderStatus = await refreshOrder(untypedTenant, orderId);
  return { orderStatus, orderStatusText: ORDER_STATUS[orderStatus] ?? orderStatus };
}

/** What the task has picked and not delivered, line by line (a new note's lines). */
/**
 * The one refusal of a delivery with nothing left to ship — whichever check meets it first (the note's
 * preparation, its save, or its posting after a racing note was posted), on either database.
 */
function nothingToDeliver(d: { taskId: number; taskDocNo: string }) {
  return bizError('OUTBOUND_DELIVER_NOTHING_4166', { docNo: d.taskDocNo }, { taskId: d.taskId });
}

/** 4166 when everything the task has picked has left already (a racing note), else nothing. */
async function spentTask(untypedTenant: Tenant, taskId: number) {
  const tenant = TypedTenant.of(untypedTenant);
  const task = await tenant.select('outboundTask').select(['docNo']).where('id', '=', taskId).executeTakeFirst();
  const lines = await tenant.select('outboundTaskLine').select(['pickedQty', 'deliveredQty']).where('taskId', '=', taskId).execute();
  if (!task || !lines.every((l) => Number(l.pickedQty) <= Number(l.deliveredQty))) return undefined;
  return nothingToDeliver({ taskId, taskDocNo: String(task.docNo) });
}

export async function deliverableLines(ctx: CallContext, taskId: number) {
  const tenant = TypedTenant.of(ctx.tenant);
  const task = await tenant.select('outboundTask').select(['id', 'docNo', 'status', 'orderId', 'warehouseId', 'clientId']).where('id', '=', taskId).executeTakeFirst();
  if (!task) throw bizError('COMMON_NOT_FOUND_4004', { entity: '出库任务' });
  const rows = await tenant.select('outboundTaskLine').innerJoin('product', (j) => j.onRef('product.id', '=', 'outboundTaskLine.productId').onRef('product.companyId', '=', 'outboundTaskLine.companyId'))
    .select(['outboundTaskLine.id', 'outboundTaskLine.lineNo', 'outboundTaskLine.orderLineId', 'outboundTaskLine.productId', 'outboundTaskLine.qty', 'outboundTaskLine.pickedQty', 'outboundTaskLine.deliveredQty',
      'outboundTaskLine.packedQty', 'product.code', 'product.name', 'product.unitSmall'])
    .where('outboundTaskLine.taskId', '=', taskId).orderBy('outboundTaskLine.lineNo').execute();
  return {
    taskId, taskDocNo: String(task.docNo), status: String(task.status), deliverable: DELIVERABLE_TASK.includes(String(task.status)),
    orderId: Number(task.orderId), warehouseId: Number(task.warehouseId), clientId: Number(task.clientId),
    lines: rows.map((r) => ({
      taskLineId: Number(r.id), lineNo: Number(r.lineNo), orderLineId: Number(r.orderLineId), productId: Number(r.productId), productCode: String(r.code), productName: String(r.name), unitSmall: text(r.unitSmall),
      // goods in cartons leave by the delivery note made from their loading list
      pickedQty: Number(r.pickedQty), deliveredQty: Number(r.deliveredQty), packedQty: Number(r.packedQty ?? 0), qty: Math.max(0, Number(r.pickedQty) - Number(r.deliveredQty) - Number(r.packedQty ?? 0)),
    })).filter((l) => l.qty > 0),
  };
}

export const deliveryNote = defineDocument({
  type: 'deliveryNote',
  title: DN_TITLE,
  prefix: 'DN',
  table: 'deliveryNote',
  managed: true,
  // postedAt: shipments by the instant they left (daily closing report, 数据大屏)
  indexes: [['taskId'], ['orderId'], ['postedAt']],
  statuses: { draft: { label: '草稿', color: 'default' }, posted: { label: '已发货', color: 'blue' }, signed: { label: '已签收', color: 'green' }, cancelled: { label: '已作废', color: 'red' } },
  editable: ['draft'],
  removable: ['draft'],
  rights: { read: 'entrepot.deliverGoodsList', edit: 'entrepot.deliverGoods.edit' },
  header: {
    taskId: { ...ID, type: 'integer', title: '出库任务', required: true },
    // made from a loading list: its cartons of this task ship with the note (domain/outbound/cartons.ts)
    loadingListId: { ...ID, type: 'integer', title: '装车单' },
    orderId: { ...ID, type: 'integer', title: '销售订单', readonly: true },
    clientId: { type: 'reference', resource: 'client', title: '客户', readonly: true },
    warehouseId: { type: 'reference', resource: 'warehouse', title: '仓库', readonly: true },
    deliveryDate: { type: 'date', title: '发货日期' },
    deliveryAddress: { type: 'string', title: '收货地址', maxLength: 200 },
    carrier: { type: 'string', title: '承运商', maxLength: 100 },
    vehicleNo: { type: 'string', title: '车牌/柜号', maxLength: 50 },
    remark: { type: 'string', title: '备注', maxLength: 500 },
    receiverName: { type: 'string', title: '签收人', maxLength: 50, readonly: true },
    receivedDate: { type: 'date', title: '签收日期', readonly: true },
    podMediaId: { type: 'string', title: '签收照片', maxLength: 100, readonly: true },
    closedRest: { type: 'integer', title: '取消欠货', readonly: true, default: 0 },
    lineCount: { type: 'integer', title: '明细行数', readonly: true },
    totalQty: { type: 'integer', title: '发货数量', readonly: true },
  },
  lines: {
    table: 'deliveryNoteLine',
    parent: 'noteId',
    max: 2000,
    fields: {
      taskLineId: { ...ID, type: 'integer', title: '任务明细', required: true },
      orderLineId: { ...ID, type: 'integer', title: '订单明细', readonly: true },
      productId: { type: 'reference', resource: 'product', title: '商品', readonly: true },
      qty: { type: 'integer', title: '发货数量', min: 1, max: MAX_MOVE_QTY },
      remark: { type: 'string', title: '备注', maxLength: 200 },
      // what posted sales invoices took of the line (domain/sales/invoice.ts; never above qty)
      invoicedQty: { type: 'integer', title: '已开票数量', readonly: true, default: 0 },
    },
    reads: { productId: ['specification', 'unitSmall'] },
  },
  hooks: {
    // a note made from a task without lines: everything it has picked and not delivered
    async prepare(ctx, input) {
      if (input.id === undefined && input.loadingListId != null) return fromLoadingList(ctx, input);
      if (input.id !== undefined || (input.lines !== undefined && input.lines !== null) || !Number.isSafeInteger(input.taskId) || Number(input.taskId) <= 0) return;
      const d = await deliverableLines(ctx, Number(input.taskId));
      if (!d.lines.length) throw nothingToDeliver(d);
      input.lines = d.lines.map((l) => ({ taskLineId: l.taskLineId, qty: l.qty }));
    },
    async validate({ ctx, header, lines }) {
      const tenant = TypedTenant.of(ctx.tenant);
      const taskId = Number(header.taskId);
      const fromList = header.loadingListId != null ? await listLines(ctx, Number(header.loadingListId), taskId) : undefined;
      const d = await deliverableLines(ctx, taskId);
      // a task whose picked goods have all left (a racing note got there first) says so, as prepare does
      if (d.status === 'done') throw nothingToDeliver(d);
      if (!d.deliverable) {
        throw documentStatusError('出库任务', { open: '待拣货', picking: '拣货中', picked: '已拣货', done: '已出库', cancelled: '已作废' }, { id: taskId, docNo: d.taskDocNo, status: d.status }, '发货');
      }
      const all = new Map((await tenant.select('outboundTaskLine').select(['id', 'lineNo', 'orderLineId', 'productId', 'pickedQty', 'deliveredQty', 'packedQty']).where('taskId', '=', taskId).execute()).map((r) => [Number(r.id), r]));
      if ([...all.values()].every((tl) => Number(tl.pickedQty) <= Number(tl.deliveredQty))) throw nothingToDeliver(d);
      if (fromList) {
        // a note made from a loading list carries exactly what the list's cartons of the task hold
        const mine = new Map<number, number>();
        for (const l of lines) mine.set(Number(l.taskLineId), (mine.get(Number(l.taskLineId)) ?? 0) + Number(l.qty));
        const same = mine.size === fromList.length && fromList.every((l) => mine.get(l.taskLineId) === l.qty);
        if (!same) throw validationError([{ field: 'lines', message: '由装车单生成的送货单，发货数量须与装车单中该出库任务的纸箱内容一致' }]);
      }
      const errors: FieldError[] = [];
      const sum = new Map<number, number>();
      lines.forEach((l, i) => {
        const err = (f: string, message: string) => errors.push({ field: `lines.${i}.${f}`, message: `第 ${i + 1} 行：${message}` });
        const tl = all.get(Number(l.taskLineId));
        if (!tl) { err('taskLineId', `不是出库任务 ${d.taskDocNo} 的明细`); return; }
        if (l.qty == null || Number(l.qty) <= 0) { err('qty', '发货数量必须大于 0'); return; }
        const s = (sum.get(Number(tl.id)) ?? 0) + Number(l.qty);
        sum.set(Number(tl.id), s);
        const packed = Number(tl.packedQty ?? 0);
        const left = Number(tl.pickedQty) - Number(tl.deliveredQty) - (fromList ? 0 : packed);
        if (s > left) { err('qty', fromList || !packed ? `发货数量 ${s} 超过已拣未发数量 ${left}` : `发货数量 ${s} 超过已拣未装箱数量 ${left}（已装箱 ${packed}：装箱的货物请由装车单生成送货单）`); return; }
        l.orderLineId = Number(tl.orderLineId);
        l.productId = Number(tl.productId);
      });
      if (errors.length) throw validationError(errors.slice(0, 200));
      const order = await tenant.select('salesOrder').select(['deliveryAddress']).where('id', '=', d.orderId).executeTakeFirst();
      const plan = await tenant.select('outboundTask').innerJoin('deliveryPlan', (j) => j.onRef('deliveryPlan.id', '=', 'outboundTask.planId').onRef('deliveryPlan.companyId', '=', 'outboundTask.companyId'))
        .select(['deliveryPlan.carrier', 'deliveryPlan.vehicleNo']).where('outboundTask.id', '=', taskId).executeTakeFirst();
      Object.assign(header, { orderId: d.orderId, clientId: d.clientId, warehouseId: d.warehouseId, lineCount: lines.length, totalQty: lines.reduce((s, l) => s + Number(l.qty), 0) });
      header.deliveryDate ??= today(ctx);
      header.deliveryAddress ??= order?.deliveryAddress ?? null;
      header.carrier ??= plan?.carrier ?? null;
      header.vehicleNo ??= plan?.vehicleNo ?? null;
    },
    async present(ctx, docs, lines) {
      if (!docs.length) return;
      const tenant = TypedTenant.of(ctx.tenant);
      const ids = (k: string) => [...new Set(docs.map((d) => Number(d[k])))];
      const tasks = new Map((await tenant.select('outboundTask').select(['id', 'docNo']).where('id', 'in', ids('taskId')).execute()).map((r) => [Number(r.id), String(r.docNo)]));
      const orders = new Map((await tenant.select('salesOrder').select(['id', 'docNo', 'backOrderPolicy']).where('id', 'in', ids('orderId')).execute()).map((r) => [Number(r.id), r]));
      for (const d of docs) Object.assign(d, { taskDocNo: tasks.get(Number(d.taskId)) ?? null, orderDocNo: text(orders.get(Number(d.orderId))?.docNo) });
      if (!lines?.length) return;
      const ols = new Map((await tenant.select('salesOrderLine').select(['id', 'lineNo', 'qty', 'shippedQty']).where('id', 'in', [...new Set(lines.map((l) => Number(l.orderLineId)))]).execute()).map((r) => [Number(r.id), r]));
      const tls = new Map((await tenant.select('outboundTaskLine').select(['id', 'pickedQty']).where('id', 'in', [...new Set(lines.map((l) => Number(l.taskLineId)))]).execute()).map((r) => [Number(r.id), r]));
      for (const l of lines) {
        const ol = ols.get(Number(l.orderLineId));
        l.pickedQty = Number(tls.get(Number(l.taskLineId))?.pickedQty ?? 0);
        Object.assign(l, { orderLineNo: Number(ol?.lineNo), orderedQty: Number(ol?.qty), orderShippedQty: Number(ol?.shippedQty), backOrderQty: Math.max(0, Number(ol?.qty) - Number(ol?.shippedQty)) });
      }
    },
  },
  transitions: {
    post: {
      label: '发货', from: ['draft'], to: 'posted', stamp: 'posted', overlay: true, right: 'entrepot.deliverGoods.post',
      confirm: '确定发货“{docNo}”？货物从发货暂存区出库，销售订单的预留同时扣减。',
      run: post,
    },
    sign: {
      label: '签收', from: ['posted'], to: 'signed', stamp: 'signed', right: 'entrepot.deliverGoods.post',
      input: {
        properties: {
          receiverName: { type: 'string', maxLength: 50, title: '签收人' },
          receivedDate: { type: 'string', format: 'date', title: '签收日期' },
          podMediaId: { type: 'string', maxLength: 100, title: '签收照片' },
        },
        required: ['receiverName'],
      },
      async before({ input }) {
        if (!String(input.receiverName ?? '').trim()) throw validationError([{ field: 'receiverName', message: '请填写签收人' }]);
        if (input.receivedDate != null && !/^\d{4}-\d{2}-\d{2}$/.test(String(input.receivedDate))) throw validationError([{ field: 'receivedDate', message: '签收日期格式应为 YYYY-MM-DD' }]);
      },
      async run({ tenant: untypedTenant, doc, input, audit }) {
        const tenant = TypedTenant.of(untypedTenant);
        const receiverName = String(input.receiverName).trim();
        const receivedDate = input.receivedDate == null ? String(doc.updatedAt).slice(0, 10) : String(input.receivedDate);
        await tenant.update('deliveryNote').set({ receiverName, receivedDate, podMediaId: input.podMediaId == null ? null : String(input.podMediaId) }).where('id', '=', Number(doc.id)).execute();
        audit.push({ field: 'receiverName', title: '签收人', from: null, to: receiverName }, { field: 'receivedDate', title: '签收日期', from: null, to: receivedDate });
        return { receiverName, receivedDate };
      },
    },
    cancel: {
      label: '作废', from: ['draft', 'posted'], to: 'cancelled', stamp: 'cancelled', danger: true, overlay: true, right: 'entrepot.deliverGoods.post',
      confirm: '确定作废送货单“{docNo}”？已发货的送货单将冲回：货物回到发货暂存区，销售订单的发货数量与预留恢复。',
      async run(t) {
        if (t.from === 'posted') return reverse(t);
      },
    },
  },
  saveThen: { flag: 'post', transition: 'post' },
  links: [{ field: 'taskId', type: 'outboundTask' }],
  names: { taskId: { table: 'outboundTask', column: 'docNo' } },
  audit: ['taskId', 'deliveryDate', 'deliveryAddress', 'carrier', 'vehicleNo', 'totalQty', 'remark'],
  listFilters: ['taskId', 'orderId', 'clientId', 'warehouseId', 'loadingListId'],
  dateField: 'deliveryDate',
  listReads: ['outboundTask', 'salesOrder'],
  export: {
    header: ['docNo', 'statusText', { key: 'orderDocNo', title: '销售订单', width: 18 }, { key: 'taskDocNo', title: '出库任务', width: 18 }, 'clientId', 'warehouseId', 'deliveryDate', 'deliveryAddress', 'carrier', 'receiverName', 'receivedDate'],
    lines: ['lineNo', { key: 'productCode', title: '商品编码', width: 16 }, { key: 'productName', title: '商品名称', width: 30 }, 'qty', 'remark'],
  },
  route: '/entrepot/deliverGoodsDetail/{id}',
});

/** The lines a note made from a loading list must carry: the list's (loaded) cartons of the task; refused when the list is not loaded. */
async function listLines(ctx: CallContext, loadingListId: number, taskId: number) {
  const tenant = TypedTenant.of(ctx.tenant);
  const list = await tenant.select('loadingList').select(['id', 'docNo', 'status']).where('id', '=', loadingListId).executeTakeFirst();
  if (!list) throw validationError([{ field: 'loadingListId', message: '装车单不存在' }]);
  if (list.status !== 'loaded') throw documentStatusError('装车单', { draft: '装车中', loaded: '已装车', shipped: '已发货', cancelled: '已作废' }, list, '生成送货单');
  const { lines } = await listCartonsOfTask(ctx.tenant, loadingListId, taskId, ['loaded']);
  if (!lines.length) throw validationError([{ field: 'taskId', message: `装车单 ${String(list.docNo)} 没有该出库任务待发货的纸箱` }]);
  return lines;
}

/** A new note from a loading list: its task (the only one on the list, or the one named) and the cartons' contents. */
async function fromLoadingList(ctx: CallContext, input: Row) {
  const tenant = TypedTenant.of(ctx.tenant);
  const listId = Number(input.loadingListId);
  if (!Number.isSafeInteger(listId) || listId <= 0) return;
  if (input.taskId == null) {
    const tasks = await tenant.select('carton').select('taskId').distinct().where('loadingListId', '=', listId).where('status', '=', 'loaded').execute();
    if (tasks.length !== 1) throw validationError([{ field: 'taskId', message: tasks.length ? '装车单上有多个出库任务的纸箱，请选择出库任务（每个出库任务一张送货单）' : '装车单没有待发货的纸箱' }]);
    input.taskId = Number(tasks[0]!.taskId);
  }
  if (!Number.isSafeInteger(input.taskId) || Number(input.taskId) <= 0) return;
  if (input.lines == null) input.lines = (await listLines(ctx, listId, Number(input.taskId))).map((l) => ({ taskLineId: l.taskLineId, qty: l.qty }));
  const list = await tenant.select('loadingList').select(['vehicleNo', 'containerNo', 'carrier']).where('id', '=', listId).executeTakeFirst();
  input.vehicleNo ??= list?.containerNo ?? list?.vehicleNo ?? undefined;
  input.carrier ??= list?.carrier ?? undefined;
}

/** What a note made from a loaded list carries for one task, with the product columns (the new note's lines on the screen). */
export async function loadingListLines(ctx: CallContext, loadingListId: number, taskId: number) {
  const tenant = TypedTenant.of(ctx.tenant);
  const lines = await listLines(ctx, loadingListId, taskId);
  const d = await deliverableLines(ctx, taskId);
  const rows = new Map((await tenant.select('outboundTaskLine').innerJoin('product', (j) => j.onRef('product.id', '=', 'outboundTaskLine.productId').onRef('product.companyId', '=', 'outboundTaskLine.companyId'))
    .select(['outboundTaskLine.id', 'outboundTaskLine.lineNo', 'outboundTaskLine.orderLineId', 'outboundTaskLine.productId', 'outboundTaskLine.pickedQty', 'outboundTaskLine.deliveredQty', 'product.code', 'product.name', 'product.unitSmall'])
    .where('outboundTaskLine.id', 'in', lines.map((l) => l.taskLineId)).execute()).map((r) => [Number(r.id), r]));
  return {
    ...d, loadingListId,
    lines: lines.map((l) => {
      const r = rows.get(l.taskLineId)!;
      return { taskLineId: l.taskLineId, lineNo: Number(r.lineNo), orderLineId: Number(r.orderLineId), productId: Number(r.productId), productCode: String(r.code), productName: String(r.name), unitSmall: text(r.unitSmall), pickedQty: Number(r.pickedQty), deliveredQty: Number(r.deliveredQty), qty: l.qty };
    }).sort((a, b) => a.lineNo - b.lineNo),
  };
}
