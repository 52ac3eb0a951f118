// Sales returns (销售退货单, issue 13): goods a client sends back from a shipped sales order. The document is
// the engine's (documents/types/sales-return.ts); here is what it holds of the order and how the
// warehouse's receiving path takes it.
//  - What returns hold of a shipped order line is kept on the line (sales_order_line.returned_qty, every
//    return not cancelled): saving takes it by one conditional UPDATE per line (returned + q <= shipped),
//    so of two returns racing for the same shipped units exactly one passes and the other is refused
//    naming the line (SALES_RETURN_OVER_4156). Editing a draft gives its old quantities back first;
//    cancelling gives them back. The order row is claimed first (serialises with a delivery note's
//    reversal, which refuses while returns exist).
//  - A confirmed return is received through a receiving note whose source is the return (receiving_note.
//    return_id, its lines' return_line_id) — the same note, posting and putaway as a purchase receipt.
//    Posting raises the return lines' received quantity (guarded: never above the returned quantity),
//    their value at the delivery price (the order line's net price × received, half-up to the cent), the
//    return's totals and status (confirmed → receiving → received); the goods enter stock by the ledger
//    (kind 'receive', as any receipt). Reversing the note gives all of it back.
//  - What was received and its value stay on the return for the credit note (red invoice) to be made from.
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { splitUnits } from '../../../core/stock-units.ts';
import type { CallContext } from '../../catalog/context.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import type { DB } from '../../db/connection.ts';
import { bizError, validationError, type FieldError } from '../../http/errors.ts';
import { postMoves, MAX_MOVE_QTY } from '../stock/ledger.ts';
import { lineQty } from '../procurement/purchase-order.ts';
import { text, type Row } from '../procurement/common.ts';
import type { PostedLines } from '../procurement/receiving.ts';
import { netPrice } from './pricing.ts';

export const SR_TITLE = '销售退货单';
export const SR_PREFIX = 'XT';
export const SR_STATUS = { draft: '草稿', confirmed: '待收货', receiving: '收货中', received: '已收货', cancelled: '已作废' } as const;
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
export async function returnOrderLines(tenant: Tenant, orderId: number): Promise<Row[]> {
  const l = 'salesOrderLine';
  return (await tenant.select(l)
    .innerJoin('product', (j) => j.onRef('product.id', '=', `${l}.productId`).onRef('product.companyId', '=', `${l}.companyId`))
    .select([`${l}.id`, `${l}.lineNo`, `${l}.productId`, `${l}.qty`, `${l}.shippedQty`, `${l}.returnedQty`, `${l}.price`, `${l}.discount`,
      'product.code', 'product.name', 'product.specification', 'product.bigQty', 'product.midQty', 'product.unitBig', 'product.unitMid', 'product.unitSmall'])
    .where(`${l}.orderId`, '=', orderId).orderBy(`${l}.lineNo`).execute()) as Row[];
}

/** Claims the order row while goods can be returned from it. */
export async function claimReturnOrder(tenant: Tenant, orderId: number, action: string): Promise<Row> {
  const row = (await tenant.update('salesOrder').set({ updatedAt: new Date().toISOString() }).where('id', '=', orderId).where('status', 'in', RETURNABLE_ORDER)
    .returning(['id', 'docNo', 'status']).executeTakeFirst()) as Row | undefined;
  if (row) return row;
  const doc = (await tenant.select('salesOrder').select(['id', 'docNo', 'status']).where('id', '=', orderId).executeTakeFirst()) as Row | undefined;
  if (!doc) throw bizError('COMMON_NOT_FOUND_4004', { entity: '销售订单' });
  throw statusRefusal('销售订单', ORDER_STATUS, doc, action);
}

/** Takes the return's quantities on the order lines; over what is shipped and not yet returned, the whole return is refused. */
export async function takeReturned(tenant: Tenant, order: Row, lines: Array<{ orderLineId: number; qty: number }>): Promise<void> {
  for (const l of [...lines].sort((a, b) => a.orderLineId - b.orderLineId)) {
    // returned_qty is null on lines written before returns existed (a column the engine added)
    const ok = await tenant.update('salesOrderLine').set({ returnedQty: sql`coalesce(${sql.ref('returnedQty')}, 0) + ${l.qty}` })
      .where('id', '=', l.orderLineId).where('orderId', '=', Number(order.id))
      .where(sql<boolean>`coalesce(${sql.ref('returnedQty')}, 0) + ${l.qty} <= ${sql.ref('shippedQty')}`)
      .returning('id').executeTakeFirst();
    if (!ok) {
      const ol = (await returnOrderLines(tenant, Number(order.id))).find((r) => Number(r.id) === l.orderLineId);
      if (!ol) throw bizError('COMMON_NOT_FOUND_4004', { entity: '销售订单明细' });
      throw overReturn(order, ol, l.qty);
    }
  }
}

/** Gives a return's quantities back to its order lines (the return is being edited or cancelled). */
export async function releaseReturned(tenant: Tenant, returnId: number): Promise<void> {
  const per = new Map<number, number>();
  for (const r of (await tenant.select('salesReturnLine').select(['orderLineId', 'qty']).where('returnId', '=', returnId).execute()) as Row[]) {
    per.set(Number(r.orderLineId), (per.get(Number(r.orderLineId)) ?? 0) + Number(r.qty));
  }
  for (const [orderLineId, q] of [...per.entries()].sort((a, b) => a[0] - b[0])) {
    const ok = await tenant.update('salesOrderLine').set({ returnedQty: sql`${sql.ref('returnedQty')} - ${q}` })
      .where('id', '=', orderLineId).where('returnedQty', '>=', q).returning('id').executeTakeFirst();
    if (!ok) throw new Error(`sales return ${returnId}: order line ${orderLineId} has less returned than the return`);
  }
}

/** Receiving notes (not cancelled) made against a return: they must go before the return can. */
export async function openNotesOfReturn(tenant: Tenant, returnId: number): Promise<string[]> {
  const rows = (await tenant.select('receivingNote').select('docNo').where('returnId', '=', returnId).where('status', '!=', 'cancelled').orderBy('id').limit(3).execute()) as Row[];
  return rows.map((r) => String(r.docNo));
}

/** A line's value at the delivery price: net price (price × (1 − discount)) × qty, half-up to the cent, in cents. */
export function returnValue(price: number, discount: number, qty: number): number {
  return netPrice(new Decimal(price).div(10_000), new Decimal(discount).div(100)).times(qty).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).times(100).toNumber();
}

/** What a new return of the order can take, line by line (the screen loads it when the order is chosen). */
export async function returnableLines(tenant: Tenant, orderId: number) {
  const order = (await tenant.select('salesOrder')
    .innerJoin('client', (j) => j.onRef('client.id', '=', 'salesOrder.clientId').onRef('client.companyId', '=', 'salesOrder.companyId'))
    .innerJoin('warehouse', (j) => j.onRef('warehouse.id', '=', 'salesOrder.warehouseId').onRef('warehouse.companyId', '=', 'salesOrder.companyId'))
    .select(['salesOrder.id', 'salesOrder.docNo', 'salesOrder.status', 'salesOrder.warehouseId', 'client.name as clientName', 'warehouse.name as warehouseName'])
    .where('salesOrder.id', '=', orderId).executeTakeFirst()) as Row | undefined;
  if (!order) throw bizError('COMMON_NOT_FOUND_4004', { entity: '销售订单' });
  const status = String(order.status);
  return {
    orderId, orderDocNo: String(order.docNo), status, statusText: ORDER_STATUS[status] ?? status, returnable: RETURNABLE_ORDER.includes(status),
    clientName: String(order.clientName), warehouseId: Number(order.warehouseId), warehouseName: String(order.warehouseName),
    lines: (await returnOrderLines(tenant, orderId)).map((r) => {
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
export async function receivableReturnLines(tenant: Tenant, returnId: number) {
  const ret = (await tenant.select('salesReturn')
    .innerJoin('client', (j) => j.onRef('client.id', '=', 'salesReturn.clientId').onRef('client.companyId', '=', 'salesReturn.companyId'))
    .innerJoin('warehouse', (j) => j.onRef('warehouse.id', '=', 'salesReturn.warehouseId').onRef('warehouse.companyId', '=', 'salesReturn.companyId'))
    .select(['salesReturn.id', 'salesReturn.docNo', 'salesReturn.status', 'salesReturn.warehouseId', 'client.name as clientName', 'warehouse.name as warehouseName'])
    .where('salesReturn.id', '=', returnId).executeTakeFirst()) as Row | undefined;
  if (!ret) throw bizError('COMMON_NOT_FOUND_4004', { entity: SR_TITLE });
  const l = 'salesReturnLine';
  const rows = (await tenant.select(l)
    .innerJoin('product', (j) => j.onRef('product.id', '=', `${l}.productId`).onRef('product.companyId', '=', `${l}.companyId`))
    .select([`${l}.id`, `${l}.lineNo`, `${l}.productId`, `${l}.qty`, `${l}.receivedQty`, 'product.code', 'product.name', 'product.bigQty', 'product.midQty', 'product.unitBig', 'product.unitMid', 'product.unitSmall'])
    .where(`${l}.returnId`, '=', returnId).orderBy(`${l}.lineNo`).execute()) as Row[];
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

/**
 * A receiving note saved against a sales return (before the transaction): the return must take receipts,
 * each line names one of its lines; counted − damaged within what is still to receive (checked again
 * by the posting's conditional update). Completes the lines as checkNote does for a purchase order.
 */
export async function checkReturnNote(ctx: CallContext, header: Row, lines: Row[], raw: Row[], named: Record<string, { id: number; label: string }>): Promise<void> {
  const tenant = ctx.tenant;
  const returnId = Number(header.returnId);
  const ret = (await tenant.select('salesReturn').select(['id', 'docNo', 'status', 'warehouseId']).where('id', '=', returnId).executeTakeFirst()) as Row | undefined;
  if (!ret) throw validationError([{ field: 'returnId', message: '销售退货单不存在' }]);
  if (!RECEIVABLE_RETURN.includes(String(ret.status))) throw statusRefusal(SR_TITLE, SR_STATUS, ret, '收货');
  named.salesReturn = { id: returnId, label: String(ret.docNo) };
  const warehouseId = Number(ret.warehouseId);
  const wh = (await tenant.select('warehouse').select(['name', 'enabled']).where('id', '=', warehouseId).executeTakeFirst()) as Row | undefined;
  if (!wh || Number(wh.enabled) !== 1) throw bizError('STOCK_WAREHOUSE_DISABLED_4077', { warehouse: String(wh?.name ?? warehouseId) });
  const l = 'salesReturnLine';
  const rls = new Map<number, Row>();
  for (const r of (await tenant.select(l)
    .innerJoin('product', (j) => j.onRef('product.id', '=', `${l}.productId`).onRef('product.companyId', '=', `${l}.companyId`))
    .select([`${l}.id`, `${l}.lineNo`, `${l}.productId`, `${l}.qty`, `${l}.receivedQty`, 'product.code', 'product.bigQty', 'product.midQty', 'product.unitBig', 'product.unitMid'])
    .where(`${l}.returnId`, '=', returnId).execute()) as Row[]) rls.set(Number(r.id), r);
  const locIds = [...new Set(lines.flatMap((x) => (x.locationId == null ? [] : [Number(x.locationId)])))];
  const locations = new Map<number, Row>();
  if (locIds.length) for (const r of (await tenant.select('location').select(['id', 'warehouseId', 'lcCode', 'status']).where('id', 'in', locIds).execute()) as Row[]) locations.set(Number(r.id), r);
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  const per = new Map<number, number>();
  lines.forEach((x, i) => {
    const err = (f: string, message: string) => errors.push({ field: `lines.${i}.${f}`, message: `第 ${i + 1} 行：${message}` });
    if (x.returnLineId == null) { err('returnLineId', '退货单明细不能为空'); return; }
    const returnLineId = Number(x.returnLineId);
    const rl = rls.get(returnLineId);
    if (!rl) throw bizError('PURCHASE_LINE_MISMATCH_4098', { doc: '收货单', line: i + 1, source: SR_TITLE, docNo: String(ret.docNo) }, { line: i + 1, returnLineId });
    const locationId = x.locationId == null ? null : Number(x.locationId);
    if (locationId) {
      const loc = locations.get(locationId);
      if (!loc) { err('locationId', '库位不存在'); return; }
      if (Number(loc.warehouseId) !== warehouseId) { err('locationId', `库位 ${String(loc.lcCode)} 不属于仓库 ${String(wh.name)}`); return; }
      if (loc.status !== 'enabled') { err('locationId', `库位 ${String(loc.lcCode)} 已锁定`); return; }
    }
    const r = raw[i] ?? {};
    const counted = lineQty({ qty: x.countedQty as number | null, big: r.big as number | null, mid: r.mid as number | null, small: r.small as number | null }, rl, { line: i + 1, productId: Number(rl.productId) });
    if (counted === undefined) { err('countedQty', '实收数量不能为空'); return; }
    if (counted <= 0 || counted > MAX_MOVE_QTY) { err('countedQty', '实收数量必须大于 0'); return; }
    const damaged = x.damagedQty == null ? 0 : Number(x.damagedQty);
    if (damaged > counted) { err('damagedQty', '破损数量不能大于实收数量'); return; }
    const key = `${returnLineId}:${locationId ?? 0}`;
    if (seen.has(key)) { err('returnLineId', `退货单第 ${Number(rl.lineNo)} 行在同一库位重复，请合并为一行`); return; }
    seen.add(key);
    const qty = counted - damaged;
    const sum = (per.get(returnLineId) ?? 0) + qty;
    per.set(returnLineId, sum);
    if (Number(rl.receivedQty) + sum > Number(rl.qty)) throw overReceipt(ret, rl, sum);
    Object.assign(x, { orderLineId: null, productId: Number(rl.productId), countedQty: counted, damagedQty: damaged, qty, putawayQty: 0, productCode: String(rl.code) });
  });
  if (errors.length) throw validationError(errors.slice(0, 200));
  header.orderId = null;
  header.taskId = null;
  header.warehouseId = warehouseId;
  header.lineCount = lines.length;
  header.totalQty = lines.reduce((s, x) => s + Number(x.qty), 0);
}

/** Claims the return row while it takes receipts (or, reversing, while it holds them). */
async function claimReturn(tenant: Tenant, returnId: number, statuses: string[], action: string): Promise<Row> {
  const row = (await tenant.update('salesReturn').set({ updatedAt: new Date().toISOString() }).where('id', '=', returnId).where('status', 'in', statuses)
    .returning(['id', 'docNo', 'status']).executeTakeFirst()) as Row | undefined;
  if (row) return row;
  const doc = (await tenant.select('salesReturn').select(['id', 'docNo', 'status']).where('id', '=', returnId).executeTakeFirst()) as Row | undefined;
  if (!doc) throw bizError('COMMON_NOT_FOUND_4004', { entity: SR_TITLE });
  throw statusRefusal(SR_TITLE, SR_STATUS, doc, action);
}

/** The return's received quantities and values per line, its totals and status, from its lines. */
async function recomputeReturn(tenant: Tenant, returnId: number): Promise<void> {
  const lines = (await tenant.select('salesReturnLine').select(['id', 'qty', 'receivedQty', 'price', 'discount', 'receivedAmount']).where('returnId', '=', returnId).execute()) as Row[];
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
}

async function noteReturnLines(tenant: Tenant, noteId: number) {
  return ((await tenant.select('receivingNoteLine').select(['lineNo', 'returnLineId', 'productId', 'locationId', 'qty']).where('noteId', '=', noteId).orderBy('lineNo').execute()) as Row[])
    .map((r) => ({ lineNo: Number(r.lineNo), returnLineId: Number(r.returnLineId), productId: Number(r.productId), locationId: r.locationId == null ? null : Number(r.locationId), qty: Number(r.qty) }));
}

/** Posting a receiving note of a return (its status already changed): the return's lines, the stock. */
export async function applyReturnNote(ctx: CallContext, db: DB, tenant: Tenant, doc: Row, saved?: PostedLines): Promise<void> {
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
      const rl = (await tenant.select('salesReturnLine').innerJoin('product', (j) => j.onRef('product.id', '=', 'salesReturnLine.productId'))
        .select(['salesReturnLine.id', 'salesReturnLine.lineNo', 'salesReturnLine.qty', 'salesReturnLine.receivedQty', 'product.code'])
        .where('salesReturnLine.id', '=', returnLineId).executeTakeFirst()) as Row | undefined;
      if (!rl) throw bizError('COMMON_NOT_FOUND_4004', { entity: '销售退货单明细' });
      throw overReceipt(ret, rl, q);
    }
  }
  await postMoves(db, ctx.caller!, lines.filter((l) => l.qty > 0).map((l) => ({
    productId: l.productId, warehouseId: Number(doc.warehouseId), locationId: l.locationId, qty: l.qty, kind: 'receive' as const, docType: 'receivingNote', docId: id, docLine: l.lineNo,
  })), { knownProducts: saved?.products });
  await recomputeReturn(tenant, returnId);
}

/** A posted receiving note of a return cancelled (status already changed; putaways checked by the caller). */
export async function reverseReturnNote(ctx: CallContext, db: DB, tenant: Tenant, doc: Row): Promise<void> {
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
  await postMoves(db, ctx.caller!, lines.filter((l) => l.qty > 0).map((l) => ({
    productId: l.productId, warehouseId: Number(doc.warehouseId), locationId: l.locationId, qty: -l.qty, kind: 'reverse' as const, docType: 'receivingNote', docId: id, docLine: l.lineNo,
  })));
  await recomputeReturn(tenant, returnId);
}
