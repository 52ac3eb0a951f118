// What a warehouse clerk starts a document from: the orders that can be received (with their open lines)
// and the receiving notes that still have goods to put away. Separate codes with the receiving and
// putaway rights, so a clerk who may receive need not hold the purchase order rights.
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import { bizError } from '../../http/errors.ts';
import { TASK_STATUS, TASK_TITLE } from './inbound-plan.ts';
import { getOrder, PO_TITLE } from './purchase-order.ts';
import { TypedTenant } from '../../db/typed.ts';

export const KEYWORD_INPUT: InputSchema = {
  type: 'object',
  properties: { keyword: { type: ['string', 'null'], maxLength: 50, title: '关键字' } },
};

const likeText = (s: string) => `%${s.replace(/[\\%_]/g, '')}%`;
const RECEIVABLE = ['confirmed', 'partlyReceived'];

/** Confirmed or partly received orders, newest first: {id, label} for a select. */
export async function receivableOrders(ctx: CallContext, input: { keyword?: string | null }) {
  let q = TypedTenant.of(ctx.tenant).select('purchaseOrder')
    .innerJoin('supplier', (j) => j.onRef('supplier.id', '=', 'purchaseOrder.supplierId').onRef('supplier.companyId', '=', 'purchaseOrder.companyId'))
    .select(['purchaseOrder.id', 'purchaseOrder.docNo', 'purchaseOrder.warehouseId', 'supplier.name as supplierName'])
    .where('purchaseOrder.status', 'in', RECEIVABLE);
  const keyword = input.keyword?.trim();
  if (keyword) q = q.where((eb) => eb.or([eb('purchaseOrder.docNo', 'like', likeText(keyword)), eb('supplier.name', 'like', likeText(keyword))]));
  const rows = await q.orderBy('purchaseOrder.id', 'desc').limit(200).execute();
  return rows.map((r) => ({ id: Number(r.id), label: `${String(r.docNo)} ${String(r.supplierName)}`, docNo: String(r.docNo), supplierName: String(r.supplierName), warehouseId: Number(r.warehouseId) }));
}

/**
 * An order that can be received, with its lines and what is still open on each. With an inbound task:
 * only the task's lines, open = what the task still expects (never more than the order has open).
 * Without one: what the order's open inbound tasks still expect is not open here (it is received
 * against those tasks; receiving.ts refuses it on the order itself) — and when nothing is left open
 * outside the tasks, the note is received against the earliest open task, so that every way into a
 * receiving note (the order's 收货 too, not only the task's) brings lines instead of an empty note.
 */
export async function receivingSource(ctx: CallContext, orderId: number, taskId?: number) {
  const order = await getOrder(ctx, orderId);
  if (!RECEIVABLE.includes(order.status)) throw bizError('PURCHASE_DOC_STATUS_4091', { doc: PO_TITLE, docNo: order.docNo, status: order.statusText, action: '收货' }, { id: orderId, status: order.status });
  if (taskId === undefined) {
    const outside = await openOutsideTasks(ctx, order);
    if (outside.lines.some((l) => l.openQty > 0) || outside.firstTaskId === undefined) return sourceOf(order, outside.lines, undefined);
    taskId = outside.firstTaskId;
  }
  const task = await TypedTenant.of(ctx.tenant).select('inboundTask').select(['id', 'docNo', 'orderId', 'status']).where('id', '=', taskId).executeTakeFirst();
  if (!task || Number(task.orderId) !== orderId) throw bizError('COMMON_NOT_FOUND_4004', { entity: '入库任务' });
  // a closed, finished or cancelled task takes no receipts: say so before anything is entered
  if (!['open', 'receiving'].includes(String(task.status))) {
    throw bizError('PURCHASE_DOC_STATUS_4091', { doc: TASK_TITLE, docNo: String(task.docNo), status: TASK_STATUS[String(task.status) as keyof typeof TASK_STATUS] ?? String(task.status), action: '收货' }, { taskId, status: task.status });
  }
  const taskLines = await TypedTenant.of(ctx.tenant).select('inboundTaskLine').select(['orderLineId', 'qty', 'receivedQty']).where('taskId', '=', taskId).execute();
  const open = new Map(taskLines.map((t) => [Number(t.orderLineId), Math.max(0, Number(t.qty) - Number(t.receivedQty))]));
  const lines = order.lines.filter((l) => open.has(l.id)).map((l) => ({ ...l, openQty: Math.min(l.openQty, open.get(l.id)!) }));
  return sourceOf(order, lines, taskId);
}

type Order = Awaited<ReturnType<typeof getOrder>>;

/** The order's lines with what its open inbound tasks still expect taken off, and its earliest open task with something left. */
async function openOutsideTasks(ctx: CallContext, order: Order): Promise<{ lines: Order['lines']; firstTaskId: number | undefined }> {
  const inTasks = await TypedTenant.of(ctx.tenant).select('inboundTaskLine')
    .innerJoin('inboundTask', (j) => j.onRef('inboundTask.id', '=', 'inboundTaskLine.taskId').onRef('inboundTask.companyId', '=', 'inboundTaskLine.companyId'))
    .select(['inboundTask.id as taskId', 'inboundTaskLine.orderLineId', 'inboundTaskLine.qty', 'inboundTaskLine.receivedQty'])
    .where('inboundTask.orderId', '=', order.id).where('inboundTask.status', 'in', ['open', 'receiving']).orderBy('inboundTask.id').execute();
  const expected = new Map<number, number>();
  let firstTaskId: number | undefined;
  for (const t of inTasks) {
    const left = Math.max(0, Number(t.qty) - Number(t.receivedQty));
    expected.set(Number(t.orderLineId), (expected.get(Number(t.orderLineId)) ?? 0) + left);
    if (left > 0 && firstTaskId === undefined) firstTaskId = Number(t.taskId);
  }
  const lines = expected.size ? order.lines.map((l) => ({ ...l, openQty: Math.max(0, l.openQty - (expected.get(l.id) ?? 0)) })) : order.lines;
  return { lines, firstTaskId };
}

function sourceOf(order: Order, lines: Order['lines'], taskId: number | undefined) {
  return {
    orderId: order.id, orderDocNo: order.docNo, supplierName: order.supplierName, warehouseId: order.warehouseId, warehouseName: order.warehouseName, taskId: taskId ?? null,
    lines: lines.map((l) => ({
      orderLineId: l.id, orderLineNo: l.lineNo, productId: l.productId, productCode: l.productCode, productName: l.productName, specification: l.specification,
      unitBig: l.unitBig, unitMid: l.unitMid, unitSmall: l.unitSmall, bigQty: l.bigQty, midQty: l.midQty,
      orderedQty: l.qty, receivedQty: l.receivedQty, openQty: l.openQty,
    })),
  };
}

/** Posted receiving notes with something left to put away: {id, label, warehouseId}. */
export async function notesToPutAway(ctx: CallContext, input: { keyword?: string | null }) {
  let q = TypedTenant.of(ctx.tenant).select('receivingNote')
    .innerJoin('purchaseOrder', (j) => j.onRef('purchaseOrder.id', '=', 'receivingNote.orderId').onRef('purchaseOrder.companyId', '=', 'receivingNote.companyId'))
    .innerJoin('supplier', (j) => j.onRef('supplier.id', '=', 'purchaseOrder.supplierId').onRef('supplier.companyId', '=', 'receivingNote.companyId'))
    .select(['receivingNote.id', 'receivingNote.docNo', 'receivingNote.warehouseId', 'supplier.name as supplierName'])
    .where('receivingNote.status', '=', 'posted')
    .where((eb) => eb.exists(eb.selectFrom('receivingNoteLine').select('receivingNoteLine.id').where('receivingNoteLine.companyId', '=', ctx.tenant.companyId)
      .whereRef('receivingNoteLine.noteId', '=', 'receivingNote.id').whereRef('receivingNoteLine.putawayQty', '<', 'receivingNoteLine.qty')));
  const keyword = input.keyword?.trim();
  if (keyword) q = q.where((eb) => eb.or([eb('receivingNote.docNo', 'like', likeText(keyword)), eb('supplier.name', 'like', likeText(keyword))]));
  const rows = await q.orderBy('receivingNote.id', 'desc').limit(200).execute();
  return rows.map((r) => ({ id: Number(r.id), label: `${String(r.docNo)} ${String(r.supplierName)}`, docNo: String(r.docNo), warehouseId: Number(r.warehouseId) }));
}
