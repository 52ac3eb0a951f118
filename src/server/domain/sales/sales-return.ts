// Sales returns (销售退货单, issue 13): goods a client sends back from a shipped sales order. The document is
// the engine's (documents/types/sales-return.ts); here is what it holds of the order and how the
// warehouse's receiving path takes it.
//  - What returns hold of a shipped order line is kept on the line (sales_order_line.returned_qty, every
//    return not cancelled): saving takes it by one conditional UPDATE per line (returned + q <= shipped),
//    so of two returns racing for the same shipped units exactly one passes and the other is refused
//    naming the line (SALES_RETURN_OVER_4156). Editing a draft gives its old quantities back first;
//    cancelling gives them back. The order row is claimed first (serialises with a delivery note's
//    reversal, which refuses while returns exist).
//  - Confirming a return creates its inbound task (入库任务, inbound_task.return_id, its lines'
//    return_line_id): the warehouse finds it in the same task list as purchases (source 销售退货 XT…) and
//    receives it through a receiving note of that task (receiving_note.task_id and return_id, its lines'
//    return_line_id) — the same note, posting and putaway as a purchase receipt. Posting raises the
//    return lines' received quantity (guarded: never above the returned quantity), the task lines' (the
//    task's status follows: open → receiving → done), the return lines' value at the delivery price (the
//    order line's net price × received, half-up to the cent), the return's totals and status (confirmed
//    → receiving 部分收货 → received); the goods enter stock by the ledger (kind 'receive', as any
//    receipt). Reversing the note gives all of it back.
//  - Cancelling a confirmed return that received nothing cancels its task. A partly received return can
//    be closed short (关闭, with a reason): the unreceived rest goes back to the order lines and its task
//    is closed; lock order return → task, as a receipt takes them.
//  - What was received and its value stay on the return for the credit note (red invoice) to be made from.
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { splitUnits } from '../../../core/stock-units.ts';
import type { CallContext } from '../../catalog/context.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import type { DB } from '../../db/connection.ts';
import { bizError, validationError } from '../../http/errors.ts';
import { postMoves } from '../stock/ledger.ts';
import { insertTask, TASK_STATUS, TASK_TITLE } from '../procurement/inbound-plan.ts';
import { applyNoteToTask } from '../procurement/inbound-task.ts';
import { checkReceiptLines } from '../procurement/receipt-lines.ts';
import { text, type Row } from '../procurement/common.ts';
import type { PostedLines } from '../procurement/receiving.ts';
import { netPrice } from './pricing.ts';
import { TypedTenant } from '../../db/typed.ts';

export const SR_TITLE = '销售退货单';
export const SR_PREFIX = 'XT';
export const SR_STATUS = { draft: '草稿', confirmed: '待收货', receiving: '部分收货', received: '已收货', closed: '已关闭', cancelled: '已作废' } as const;
/** Sales order statuses goods can be returned from (something has shipped). */
export const RETURNABLE_ORDER = ['partlyShipped', 'shipped', 'closed'];
/** Returns the warehouse receives against. */
export const RECEIVABLE_RETURN = ['confirmed', 'receiving'];
const ORDER_STATUS: Record<string, string> = { draft: '草稿', confirmed: '已确认', partlyShipped: '部分发货', shipped: '已发货', closed: '已关闭', cancelled: '已作废' };

function statusRefusal(doc: string, labels: Record<string, string>, row: Row, action: string) {
  const status = String(row.status);
  return bizError('DOCUMENT_STATUS_4131', { doc, docNo: String(row.docNo), status: labels[status] ?? status, action }, { id: Number(row.id), status });
}

export function overReturn(order: Row, ol: Row, qty: number) {
  const shipped = Number(ol.shippedQty);
  const returned = Number(ol.returnedQty);
  const left = Math.max(0, shipped - returned);
  return bizError('SALES_RETURN_OVER_4156', { docNo: String(order.docNo), line: Number(ol.lineNo), code: String(ol.code), shipped, returned, qty, left },
    { orderLineId: Number(ol.id), lineNo: Number(ol.lineNo), shipped, returned, qty, left });
}

/** The order's lines with products, shipped and returned quantities and prices. */
export async function returnOrderLines(untypedTenant: Tenant, orderId: number): Promise<Row[]> {
  const tenant = TypedTenant.of(untypedTenant);
  const l = 'salesOrderLine';
  return await tenant.select(l)
    .innerJoin('product', (j) => j.onRef('product.id', '=', `${l}.productId`).onRef('product.companyId', '=', `${l}.companyId`))
    .select([`${l}.id`, `${l}.lineNo`, `${l}.productId`, `${l}.qty`, `${l}.shippedQty`, `${l}.returnedQty`, `${l}.price`, `${l}.discount`,
      'product.code', 'product.name', 'product.specification', 'product.bigQty', 'product.midQty', 'product.unitBig', 'product.unitMid', 'product.unitSmall'])
    .where(`${l}.orderId`, '=', orderId).orderBy(`${l}.lineNo`).execute();
}

/** Claims the order row while goods can be returned from it. */
export async function claimReturnOrder(untypedTenant: Tenant, orderId: number, action: string): Promise<Row> {
  const tenant = TypedTenant.of(untypedTenant);
  const row = await tenant.update('salesOrder').set({ updatedAt: new Date().toISOString() }).where('id', '=', orderId).where('status', 'in', RETURNABLE_ORDER)
    .returning(['id', 'docNo', 'status']).executeTakeFirst();
  if (row) return row;
  const doc = await tenant.select('salesOrder').select(['id', 'docNo', 'status']).where('id', '=', orderId).executeTakeFirst();
  if (!doc) throw bizError('COMMON_NOT_FOUND_4004', { entity: '销售订单' });
  throw statusRefusal('销售订单', ORDER_STATUS, doc, action);
}

/** Takes the return's quantities on the order lines; over what is shipped and not yet returned, the whole return is refused. */
export async function takeReturned(untypedTenant: Tenant, order: Row, lines: Array<{ orderLineId: number; qty: number }>): Promise<void> {
  const tenant = TypedTenant.of(untypedTenant);
  for (const l of [...lines].sort((a, b) => a.orderLineId - b.orderLineId)) {
    // returned_qty is null on lines written before returns existed (a column the engine added)
    const ok = await tenant.update('salesOrderLine').set({ returnedQty: sql`coalesce(${sql.ref('returnedQty')}, 0) + ${l.qty}` })
      .where('id', '=', l.orderLineId).where('orderId', '=', Number(order.id))
      .where(sql<boolean>`coalesce(${sql.ref('returnedQty')}, 0) + ${l.qty} <= ${sql.ref('shippedQty')}`)
      .returning('id').executeTakeFirst();
    if (!ok) {
      const ol = (await returnOrderLines(untypedTenant, Number(order.id))).find((r) => Number(r.id) === l.orderLineId);
      if (!ol) throw bizError('COMMON_NOT_FOUND_4004', { entity: '销售订单明细' });
      throw overReturn(order, ol, l.qty);
    }
  }
}

/**
 * Gives a return's quantities back to its order lines: all of them (the return is being edited or
 * cancelled) or what was not received (closed short). Returns how much was given back.
 */
export async function releaseReturned(untypedTenant: Tenant, returnId: number, part: 'all' | 'unreceived' = 'all'): Promise<number> {
  const tenant = TypedTenant.of(untypedTenant);
  const per = new Map<number, number>();
  for (const r of await tenant.select('salesReturnLine').select(['orderLineId', 'qty', 'receivedQty']).where('returnId', '=', returnId).execute()) {
    const q = part === 'all' ? Number(r.qty) : Math.max(0, Number(r.qty) - Number(r.receivedQty ?? 0));
    per.set(Number(r.orderLineId), (per.get(Number(r.orderLineId)) ?? 0) + q);
  }
  let given = 0;
  for (const [orderLineId, q] of [...per.entries()].sort((a, b) => a[0] - b[0])) {
    if (q === 0) continue;
    given += q;
    const ok = await tenant.update('salesOrderLine').set({ returnedQty: sql`${sql.ref('returnedQty')} - ${q}` })
      .where('id', '=', orderLineId).where('returnedQty', '>=', q).returning('id').executeTakeFirst();
    if (!ok) throw new Error(`sales return ${returnId}: order line ${orderLineId} has less returned than the return`);
  }
  return given;
}

/** Receiving notes (not cancelled) made against a return: they must go before the return can. */
export async function openNotesOfReturn(untypedTenant: Tenant, returnId: number): Promise<string[]> {
  const tenant = TypedTenant.of(untypedTenant);
  const rows = await tenant.select('receivingNote').select('docNo').where('returnId', '=', returnId).where('status', '!=', 'cancelled').orderBy('id').limit(3).execute();
  return rows.map((r) => String(r.docNo));
}

/** A line's value at the delivery price: net price (price × (1 − discount)) × qty, half-up to the cent, in cents. */
export function returnValue(price: number, discount: number, qty: number): number {
  return netPrice(new Decimal(price).div(10_000), new Decimal(discount).div(100)).times(qty).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).times(100).toNumber();
}

/** What a new return of the order can take, line by line (the screen loads it when the order is chosen). */
export async function returnableLines(untypedTenant: Tenant, orderId: number) {
  const tenant = TypedTenant.of(untypedTenant);
  const order = await tenant.select('salesOrder')
    .innerJoin('client', (j) => j.onRef('client.id', '=', 'salesOrder.clientId').onRef('client.companyId', '=', 'salesOrder.companyId'))
    .innerJoin('warehouse', (j) => j.onRef('warehouse.id', '=', 'salesOrder.warehouseId').onRef('warehouse.companyId', '=', 'salesOrder.companyId'))
    .select(['salesOrder.id', 'salesOrder.docNo', 'salesOrder.status', 'salesOrder.warehouseId', 'client.name as clientName', 'warehouse.name as warehouseName'])
    .where('salesOrder.id', '=', orderId).executeTakeFirst();
  if (!order) throw bizError('COMMON_NOT_FOUND_4004', { entity: '销售订单' });
  const status = String(order.status);
  return {
    orderId, orderDocNo: String(order.docNo), status, statusText: ORDER_STATUS[status] ?? status, returnable: RETURNABLE_ORDER.includes(status),
    clientName: String(order.clientName), warehouseId: Number(order.warehouseId), warehouseName: String(order.warehouseName),
    lines: (await returnOrderLines(untypedTenant, orderId)).map((r) => {
      const packs = { bigQty: Number(r.bigQty), midQty: Number(r.midQty), unitBig: text(r.unitBig), unitMid: text(r.unitMid), unitSmall: text(r.unitSmall) };
      const left = Math.max(0, Number(r.shippedQty) - Number(r.returnedQty));
      return {
        orderLineId: Number(r.id), lineNo: Number(r.lineNo), productId: Number(r.productId), productCode: String(r.code), productName: String(r.name),
        specification: text(r.specification), ...packs, qty: Number(r.qty), shippedQty: Number(r.shippedQty), returnedQty: Number(r.returnedQty), leftQty: left, leftUnits: splitUnits(left, packs),
      };
    }),
  };
}

/** What a receiving note of a return can still receive, line by line (the note's new form loads it). */
export async function receivableReturnLines(untypedTenant: Tenant, returnId: number) {
  const tenant = TypedTenant.of(untypedTenant);
  const ret = await tenant.select('salesReturn')
    .innerJoin('client', (j) => j.onRef('client.id', '=', 'salesReturn.clientId').onRef('client.companyId', '=', 'salesReturn.companyId'))
    .innerJoin('warehouse', (j) => j.onRef('warehouse.id', '=', 'salesReturn.warehouseId').onRef('warehouse.companyId', '=', 'salesReturn.companyId'))
    .select(['salesReturn.id', 'salesReturn.docNo', 'salesReturn.status', 'salesReturn.warehouseId', 'client.name as clientName', 'warehouse.name as warehouseName'])
    .where('salesReturn.id', '=', returnId).executeTakeFirst();
  if (!ret) throw bizError('COMMON_NOT_FOUND_4004', { entity: SR_TITLE });
  const l = 'salesReturnLine';
  const rows = await tenant.select(l)
    .innerJoin('product', (j) => j.onRef('product.id', '=', `${l}.productId`).onRef('product.companyId', '=', `${l}.companyId`))
    .select([`${l}.id`, `${l}.lineNo`, `${l}.productId`, `${l}.qty`, `${l}.receivedQty`, 'product.code', 'product.name', 'product.bigQty', 'product.midQty', 'product.unitBig', 'product.unitMid', 'product.unitSmall'])
    .where(`${l}.returnId`, '=', returnId).orderBy(`${l}.lineNo`).execute();
  const status = String(ret.status);
  return {
    returnId, returnDocNo: String(ret.docNo), status, statusText: (SR_STATUS as Record<string, string>)[status] ?? status, receivable: RECEIVABLE_RETURN.includes(status),
    clientName: String(ret.clientName), warehouseId: Number(ret.warehouseId), warehouseName: String(ret.warehouseName),
    lines: rows.map((r) => ({
      returnLineId: Number(r.id), lineNo: Number(r.lineNo), productId: Number(r.productId), productCode: String(r.code), productName: String(r.name),
      bigQty: Number(r.bigQty), midQty: Number(r.midQty), unitBig: text(r.unitBig), unitMid: text(r.unitMid), unitSmall: text(r.unitSmall),
      returnQty: Number(r.qty), receivedQty: Number(r.receivedQty), openQty: Math.max(0, Number(r.qty) - Number(r.receivedQty)),
    })),
  };
}

function overReceipt(ret: Row, rl: Row, ask: number) {
  const qty = Number(rl.qty);
  const received = Number(rl.receivedQty);
  return bizError('SALES_RETURN_RECEIVE_OVER_4157', { docNo: String(ret.docNo), line: Number(rl.lineNo), code: String(rl.code), qty, received, ask, left: Math.max(0, qty - received) },
    { returnLineId: Number(rl.id), lineNo: Number(rl.lineNo), qty, received, ask });
}

/** The return's inbound task that takes its receipts (the one not cancelled); refused when there is none or it no longer takes receipts. */
async function returnTask(tenant: TypedTenant, ret: Row, taskId: number | null): Promise<Row> {
  let q = tenant.select('inboundTask').select(['id', 'docNo', 'status', 'returnId']).where('returnId', '=', Number(ret.id)).where('status', '!=', 'cancelled');
  if (taskId != null) q = tenant.select('inboundTask').select(['id', 'docNo', 'status', 'returnId']).where('id', '=', taskId);
  const task = await q.orderBy('id', 'desc').executeTakeFirst();
  if (!task) throw validationError([{ field: 'taskId', message: `销售退货单 ${String(ret.docNo)} 没有入库任务` }]);
  if (Number(task.returnId) !== Number(ret.id)) throw validationError([{ field: 'taskId', message: `入库任务 ${String(task.docNo)} 不是销售退货单 ${String(ret.docNo)} 的入库任务` }]);
  if (!['open', 'receiving'].includes(String(task.status))) throw statusRefusal(TASK_TITLE, TASK_STATUS, task, '收货');
  return task;
}

/**
 * A receiving note saved against a sales return (before the transaction): the return must take receipts,
 * the note is received through the return's inbound task, each line names one of the return's lines;
 * counted − damaged within what is still to receive (checked again by the posting's conditional update).
 */
export async function checkReturnNote(ctx: CallContext, header: Row, lines: Row[], raw: Row[], named: Record<string, { id: number; label: string }>): Promise<void> {
  const tenant = TypedTenant.of(ctx.tenant);
  const returnId = Number(header.returnId);
  const ret = await tenant.select('salesReturn').select(['id', 'docNo', 'status', 'warehouseId']).where('id', '=', returnId).executeTakeFirst();
  if (!ret) throw validationError([{ field: 'returnId', message: '销售退货单不存在' }]);
  if (!RECEIVABLE_RETURN.includes(String(ret.status))) throw statusRefusal(SR_TITLE, SR_STATUS, ret, '收货');
  named.salesReturn = { id: returnId, label: String(ret.docNo) };
  const task = await returnTask(tenant, ret, header.taskId == null ? null : Number(header.taskId));
  named.inboundTask = { id: Number(task.id), label: String(task.docNo) };
  const warehouseId = Number(ret.warehouseId);
  const wh = await tenant.select('warehouse').select(['name', 'enabled']).where('id', '=', warehouseId).executeTakeFirst();
  if (!wh || Number(wh.enabled) !== 1) throw bizError('STOCK_WAREHOUSE_DISABLED_4077', { warehouse: String(wh?.name ?? warehouseId) });
  const l = 'salesReturnLine';
  const rls = new Map<number, Row>();
  for (const r of await tenant.select(l)
    .innerJoin('product', (j) => j.onRef('product.id', '=', `${l}.productId`).onRef('product.companyId', '=', `${l}.companyId`))
    .select([`${l}.id`, `${l}.lineNo`, `${l}.productId`, `${l}.qty`, `${l}.receivedQty`, 'product.code', 'product.bigQty', 'product.midQty', 'product.unitBig', 'product.unitMid'])
    .where(`${l}.returnId`, '=', returnId).execute()) rls.set(Number(r.id), r);
  await checkReceiptLines(ctx.tenant, {
    lines, raw, warehouse: { id: warehouseId, name: String(wh.name) }, key: 'returnLineId', sources: rls,
    keyTitle: '退货单明细', sourceLine: (rl) => `退货单第 ${Number(rl.lineNo)} 行`,
    mismatch: (line, returnLineId) => bizError('PURCHASE_LINE_MISMATCH_4098', { doc: '收货单', line, source: SR_TITLE, docNo: String(ret.docNo) }, { line, returnLineId }),
    over: (rl, sum) => (Number(rl.receivedQty) + sum > Number(rl.qty) ? overReceipt(ret, rl, sum) : undefined),
  });
  for (const x of lines) x.orderLineId = null;
  header.orderId = null;
  header.taskId = Number(task.id);
  header.warehouseId = warehouseId;
  header.lineCount = lines.length;
  header.totalQty = lines.reduce((s, x) => s + Number(x.qty), 0);
}

/** Claims the return row while it takes receipts (or, reversing, while it holds them). */
async function claimReturn(tenant: TypedTenant, returnId: number, statuses: string[], action: string): Promise<Row> {
  const row = await tenant.update('salesReturn').set({ updatedAt: new Date().toISOString() }).where('id', '=', returnId).where('status', 'in', statuses)
    .returning(['id', 'docNo', 'status']).executeTakeFirst();
  if (row) return row;
  const doc = await tenant.select('salesReturn').select(['id', 'docNo', 'status']).where('id', '=', returnId).executeTakeFirst();
  if (!doc) throw bizError('COMMON_NOT_FOUND_4004', { entity: SR_TITLE });
  throw statusRefusal(SR_TITLE, SR_STATUS, doc, action);
}

/** The return's received quantities and values per line, its totals and status, from its lines. */
async function recomputeReturn(tenant: TypedTenant, returnId: number): Promise<void> {
  const lines = await tenant.select('salesReturnLine').select(['id', 'qty', 'receivedQty', 'price', 'discount', 'receivedAmount']).where('returnId', '=', returnId).execute();
  let qty = 0;
  let amount = 0;
  let all = true;
  for (const l of lines) {
    const value = returnValue(Number(l.price), Number(l.discount), Number(l.receivedQty));
    if (value !== Number(l.receivedAmount)) await tenant.update('salesReturnLine').set({ receivedAmount: value }).where('id', '=', Number(l.id)).execute();
    qty += Number(l.receivedQty);
    amount += value;
    if (Number(l.receivedQty) < Number(l.qty)) all = false;
  }
  const now = new Date().toISOString();
  const status = all ? 'received' : qty > 0 ? 'receiving' : 'confirmed';
  await tenant.update('salesReturn').set({ receivedQty: qty, receivedAmount: amount, status, receivedAt: status === 'received' ? now : null, updatedAt: now })
    .where('id', '=', returnId).where('status', 'in', ['confirmed', 'receiving', 'received']).execute();
  // closed short: its figures follow its lines, its status stays
  await tenant.update('salesReturn').set({ receivedQty: qty, receivedAmount: amount, updatedAt: now }).where('id', '=', returnId).where('status', '=', 'closed').execute();
}

async function noteReturnLines(tenant: TypedTenant, noteId: number) {
  return (await tenant.select('receivingNoteLine').select(['lineNo', 'returnLineId', 'productId', 'locationId', 'qty']).where('noteId', '=', noteId).orderBy('lineNo').execute())
    .map((r) => ({ lineNo: Number(r.lineNo), returnLineId: Number(r.returnLineId), productId: Number(r.productId), locationId: r.locationId == null ? null : Number(r.locationId), qty: Number(r.qty) }));
}

/** Posting a receiving note of a return (its status already changed): the return's lines, the stock. */
export async function applyReturnNote(ctx: CallContext, db: DB, untypedTenant: Tenant, doc: Row, saved?: PostedLines): Promise<void> {
  const tenant = TypedTenant.of(untypedTenant);
  const returnId = Number(doc.returnId);
  const id = Number(doc.id);
  const ret = await claimReturn(tenant, returnId, RECEIVABLE_RETURN, '收货');
  const lines = await noteReturnLines(tenant, id);
  const per = new Map<number, number>();
  for (const l of lines) per.set(l.returnLineId, (per.get(l.returnLineId) ?? 0) + l.qty);
  for (const [returnLineId, q] of [...per.entries()].sort((a, b) => a[0] - b[0])) {
    if (q === 0) continue;
    const ok = await tenant.update('salesReturnLine').set({ receivedQty: sql`${sql.ref('receivedQty')} + ${q}` })
      .where('id', '=', returnLineId).where('returnId', '=', returnId).where(sql<boolean>`${sql.ref('receivedQty')} + ${q} <= ${sql.ref('qty')}`)
      .returning('id').executeTakeFirst();
    if (!ok) {
      const rl = await tenant.select('salesReturnLine').innerJoin('product', (j) => j.onRef('product.id', '=', 'salesReturnLine.productId'))
        .select(['salesReturnLine.id', 'salesReturnLine.lineNo', 'salesReturnLine.qty', 'salesReturnLine.receivedQty', 'product.code'])
        .where('salesReturnLine.id', '=', returnLineId).executeTakeFirst();
      if (!rl) throw bizError('COMMON_NOT_FOUND_4004', { entity: '销售退货单明细' });
      throw overReceipt(ret, rl, q);
    }
  }
  await applyNoteToTask(db, untypedTenant, id, doc.taskId == null ? null : Number(doc.taskId), 1, 'returnLineId');
  await postMoves(db, ctx.caller!, lines.filter((l) => l.qty > 0).map((l) => ({
    productId: l.productId, warehouseId: Number(doc.warehouseId), locationId: l.locationId, qty: l.qty, kind: 'receive' as const, docType: 'receivingNote', docId: id, docLine: l.lineNo,
  })), { knownProducts: saved?.products });
  await recomputeReturn(tenant, returnId);
}

/** A posted receiving note of a return cancelled (status already changed; putaways checked by the caller). */
export async function reverseReturnNote(ctx: CallContext, db: DB, untypedTenant: Tenant, doc: Row): Promise<void> {
  const tenant = TypedTenant.of(untypedTenant);
  const returnId = Number(doc.returnId);
  const id = Number(doc.id);
  await claimReturn(tenant, returnId, ['confirmed', 'receiving', 'received'], '冲回收货');
  const lines = await noteReturnLines(tenant, id);
  const per = new Map<number, number>();
  for (const l of lines) per.set(l.returnLineId, (per.get(l.returnLineId) ?? 0) + l.qty);
  for (const [returnLineId, q] of [...per.entries()].sort((a, b) => a[0] - b[0])) {
    if (q === 0) continue;
    const ok = await tenant.update('salesReturnLine').set({ receivedQty: sql`${sql.ref('receivedQty')} - ${q}` })
      .where('id', '=', returnLineId).where('receivedQty', '>=', q).returning('id').executeTakeFirst();
    if (!ok) throw new Error(`receiving note ${id}: return line ${returnLineId} has less received than the note`);
  }
  await applyNoteToTask(db, untypedTenant, id, doc.taskId == null ? null : Number(doc.taskId), -1, 'returnLineId');
  await postMoves(db, ctx.caller!, lines.filter((l) => l.qty > 0).map((l) => ({
    productId: l.productId, warehouseId: Number(doc.warehouseId), locationId: l.locationId, qty: -l.qty, kind: 'reverse' as const, docType: 'receivingNote', docId: id, docLine: l.lineNo,
  })));
  await recomputeReturn(tenant, returnId);
}

/** Confirming a return (inside its transaction): its inbound task, one line per return line, for the warehouse to receive from. */
export async function createReturnTask(ctx: CallContext, db: DB, untypedTenant: Tenant, doc: Row): Promise<{ id: number; docNo: string }> {
  const tenant = TypedTenant.of(untypedTenant);
  const lines = await tenant.select('salesReturnLine').select(['id', 'lineNo', 'productId', 'qty', 'remark']).where('returnId', '=', Number(doc.id)).orderBy('lineNo').execute();
  return insertTask(ctx, db, untypedTenant, new Date().toISOString(), {
    source: { returnId: Number(doc.id) }, warehouseId: Number(doc.warehouseId), remark: text(doc.reason),
    lines: lines.map((l) => ({ lineNo: Number(l.lineNo), returnLineId: Number(l.id), productId: Number(l.productId), qty: Number(l.qty), remark: text(l.remark) })),
    from: { field: 'returnId', title: SR_TITLE, docNo: String(doc.docNo) },
  });
}

/** Cancelling a confirmed return that received nothing: its task is cancelled with it. */
export async function cancelReturnTask(ctx: CallContext, db: DB, untypedTenant: Tenant, doc: Row): Promise<void> {
  const tenant = TypedTenant.of(untypedTenant);
  const now = new Date().toISOString();
  const tasks = await tenant.update('inboundTask').set({ status: 'cancelled', cancelledAt: now, cancelledBy: ctx.caller!.accountId, updatedAt: now, updatedBy: ctx.caller!.accountId, version: sql`${sql.ref('version')} + 1` })
    .where('returnId', '=', Number(doc.id)).where('status', '=', 'open').where('receivedQty', '=', 0).returning(['id', 'docNo']).execute();
  for (const t of tasks) {
    await ctx.audit({ action: 'cancel', entity: 'inboundTask', recordId: Number(t.id), recordLabel: String(t.docNo), changes: [{ field: 'status', title: '状态', from: TASK_STATUS.open, to: TASK_STATUS.cancelled }, { field: 'returnId', title: SR_TITLE, from: null, to: String(doc.docNo) }] }, db);
  }
}

/** Before closing a return short: no receiving note of it may still be a draft (it would receive after the close). */
export async function refuseDraftNotesOfReturn(untypedTenant: Tenant, doc: Row): Promise<void> {
  const tenant = TypedTenant.of(untypedTenant);
  const drafts = await tenant.select('receivingNote').select('docNo').where('returnId', '=', Number(doc.id)).where('status', '=', 'draft').orderBy('id').limit(3).execute();
  if (drafts.length) {
    throw bizError('INBOUND_TASK_DRAFT_NOTES_4115', { docNo: `${SR_TITLE} ${String(doc.docNo)}`, notes: drafts.map((d) => String(d.docNo)).join('、') }, { id: Number(doc.id), notes: drafts.map((d) => String(d.docNo)) });
  }
}

/**
 * Closing a partly received return short (关闭, inside its transaction, the return row already locked by
 * its status change): the unreceived rest is given back to the order lines (they can be returned again)
 * and cancelled on the task, which is closed with the same reason. What was received stays — it is what
 * a red invoice can credit. Returns what was given back.
 */
export async function closeReturnShort(ctx: CallContext, db: DB, untypedTenant: Tenant, doc: Row, reason: string): Promise<{ releasedQty: number; taskDocNo: string | null }> {
  const tenant = TypedTenant.of(untypedTenant);
  const now = new Date().toISOString();
  await tenant.update('salesReturn').set({ closeReason: reason }).where('id', '=', Number(doc.id)).execute();
  const releasedQty = await releaseReturned(untypedTenant, Number(doc.id), 'unreceived');
  const task = await tenant.update('inboundTask').set({ status: 'closed', closedAt: now, closedBy: ctx.caller!.accountId, closeReason: reason, updatedAt: now, updatedBy: ctx.caller!.accountId, version: sql`${sql.ref('version')} + 1` })
    .where('returnId', '=', Number(doc.id)).where('status', 'in', ['open', 'receiving']).returning(['id', 'docNo', 'status']).executeTakeFirst();
  if (task) {
    await ctx.audit({
      action: 'close', entity: 'inboundTask', recordId: Number(task.id), recordLabel: String(task.docNo),
      changes: [{ field: 'status', title: '状态', from: TASK_STATUS.receiving, to: TASK_STATUS.closed }, { field: 'closeReason', title: '关闭原因', from: null, to: reason }, { field: 'returnId', title: SR_TITLE, from: null, to: String(doc.docNo) }],
    }, db);
  }
  return { releasedQty, taskDocNo: task ? String(task.docNo) : null };
}
