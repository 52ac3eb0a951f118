// Receiving notes (收货单, `receiving_note` + lines) against a confirmed purchase order, DESIGN §4.4: the
// document (list, get, save, post, cancel) is on the document engine (documents/types/receiving-note.ts);
// here is what posting and cancelling do to the order, the stock and the inbound task.
// draft → posted → cancelled (a draft can be cancelled too). Posting, in one transaction:
//  1. the note's status (the engine's conditional UPDATE draft → posted);
//  2. the order row, claimed by a conditional UPDATE that requires it to be confirmed or partly received
//     (on PostgreSQL this row lock serialises receipts of one order, so the status recomputed in step 5
//     sees every committed receipt);
//  3. received quantities on the order lines, each one conditional UPDATE that only passes while
//     received × den <= ordered × num (receMultiple = num/den, exact integers) — over it, the whole note
//     is refused with PURCHASE_OVER_RECEIPT_4094 naming the line;
//  4. stock: counted − damaged into the order's warehouse at the line's location (or none), through
//     postMoves (kind 'receive');
//  5. the order's received total and status (confirmed / partlyReceived / received), computed by the
//     database from its lines.
// Cancelling a posted note undoes all of it (reversing moves, guarded by the ledger: stock already moved
// on makes it fail) and is refused while a posted putaway of the note exists.
import { sql } from 'kysely';
import type { CallContext } from '../../catalog/context.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import type { DB } from '../../db/connection.ts';
import { bizError } from '../../http/errors.ts';
import { postMoves, type StockMove } from '../stock/ledger.ts';
import { addGuarded, isSqlite, runSql } from '../../db/raw-sql.ts';
import { PO_STATUS, receMultipleOf, type Multiple, statusError, type Row } from './common.ts';
import { PO_TITLE } from './purchase-order.ts';
import { refuseIfInvoiced } from './invoice.ts';
import { refuseIfReturned } from './purchase-return.ts';
import { applyNoteToTask } from './inbound-task.ts';
import { TypedTenant, typed } from '../../db/typed.ts';

export const RN_TITLE = '收货单';
export const RN_PREFIX = 'SH';

/** Orders that take receipts. */
export const RECEIVABLE = ['confirmed', 'partlyReceived'];

export function overReceipt(order: Row, ol: Row, qty: number, m: Multiple) {
  const ordered = Number(ol.qty);
  const received = Number(ol.receivedQty);
  const left = Math.max(0, Math.floor((ordered * m.num) / m.den) - received);
  return bizError('PURCHASE_OVER_RECEIPT_4094', { docNo: String(order.docNo), line: Number(ol.lineNo), code: String(ol.code), ordered, received, qty, multiple: m.text, left },
    { orderLineId: Number(ol.id), lineNo: Number(ol.lineNo), ordered, received, qty, left, receMultiple: m.text });
}

/** Claims the order row (the lock that serialises its receipts) while it is in one of `statuses`. */
async function claimOrder(untypedTenant: Tenant, orderId: number, statuses: string[], action: string): Promise<Row> {
  const tenant = TypedTenant.of(untypedTenant);
  const now = new Date().toISOString();
  const row = await tenant.update('purchaseOrder').set({ updatedAt: now }).where('id', '=', orderId).where('status', 'in', statuses)
    .returning(['id', 'docNo', 'status']).executeTakeFirst();
  if (row) return row;
  const doc = await tenant.select('purchaseOrder').select(['id', 'docNo', 'status']).where('id', '=', orderId).executeTakeFirst();
  if (!doc) throw bizError('COMMON_NOT_FOUND_4004', { entity: PO_TITLE });
  throw statusError(PO_TITLE, PO_STATUS, doc, action);
}

/** The order's received total and status, from its lines (closed and cancelled orders keep their status). */
async function recomputeOrder(untypedDb: DB, companyId: number, orderId: number): Promise<void> {
  const db = typed(untypedDb);
  await runSql(db, `
    update purchase_order set
      received_qty = (select coalesce(sum(l.received_qty), 0) from purchase_order_line l where l.company_id = purchase_order.company_id and l.order_id = purchase_order.id),
      status = case
        when status in ('closed', 'cancelled', 'draft') then status
        when not exists (select 1 from purchase_order_line l where l.company_id = purchase_order.company_id and l.order_id = purchase_order.id and l.received_qty > 0) then 'confirmed'
        when exists (select 1 from purchase_order_line l where l.company_id = purchase_order.company_id and l.order_id = purchase_order.id and l.received_qty < l.qty) then 'partlyReceived'
        else 'received' end
    where company_id = ? and id = ?`, [companyId, orderId]);
}

async function noteLines(untypedTenant: Tenant, id: number) {
  const tenant = TypedTenant.of(untypedTenant);
  return (await tenant.select('receivingNoteLine').select(['lineNo', 'orderLineId', 'productId', 'locationId', 'qty']).where('noteId', '=', id).orderBy('lineNo').execute())
    .map((r) => ({ lineNo: Number(r.lineNo), orderLineId: Number(r.orderLineId), productId: Number(r.productId), locationId: r.locationId == null ? null : Number(r.locationId), qty: Number(r.qty) }));
}

/** The lines a posting moves, and the products already checked in this call (a save posting at once). */
export interface PostedLines {
  lines: Awaited<ReturnType<typeof noteLines>>;
  products?: ReadonlyMap<number, string>;
}

/** Posting steps 2–5 (the note's status is already changed by the caller). */
export async function applyNote(ctx: CallContext, untypedDb: DB, untypedTenant: Tenant, id: number, orderId: number, warehouseId: number, taskId: number | null, saved?: PostedLines): Promise<void> {
  const tenant = TypedTenant.of(untypedTenant);
  const db = typed(untypedDb);
  const order = await claimOrder(untypedTenant, orderId, RECEIVABLE, '收货');
  const lines = saved?.lines ?? await noteLines(untypedTenant, id);
  const m = await receMultipleOf(db, tenant.companyId);
  const per = new Map<number, number>();
  for (const l of lines) per.set(l.orderLineId, (per.get(l.orderLineId) ?? 0) + l.qty);
  // Every line's conditional update in one statement; a line missing from what it returns was refused.
  const changes = [...per.entries()].filter(([, d]) => d !== 0).sort((a, b) => a[0] - b[0]);
  if (taskId == null) await refuseIfPlanned(untypedTenant, order, changes, m);
  const passed = await addGuarded(db, {
    table: 'purchase_order_line', column: 'received_qty', companyId: tenant.companyId, changes, where: 'order_id = ?', whereParams: [orderId],
    // numeric on PostgreSQL: ordered × num may pass the bigint range for extreme quantities and multiples
    guard: isSqlite(db) ? '(received_qty + v.d) * ? <= qty * ?' : '(cast(received_qty as numeric) + v.d) * ? <= cast(qty as numeric) * ?',
    guardParams: [m.den, m.num],
  });
  for (const [orderLineId, d] of changes) {
    if (!passed.has(orderLineId)) {
      const ol = await tenant.select('purchaseOrderLine').innerJoin('product', (j) => j.onRef('product.id', '=', 'purchaseOrderLine.productId'))
        .select(['purchaseOrderLine.id', 'purchaseOrderLine.lineNo', 'purchaseOrderLine.qty', 'purchaseOrderLine.receivedQty', 'product.code'])
        .where('purchaseOrderLine.id', '=', orderLineId).executeTakeFirst();
      if (!ol) throw bizError('COMMON_NOT_FOUND_4004', { entity: '采购订单明细' });
      throw overReceipt(order, ol, d, m);
    }
  }
  const moves: StockMove[] = lines.filter((l) => l.qty > 0).map((l) => ({
    productId: l.productId, warehouseId, locationId: l.locationId, qty: l.qty, kind: 'receive', docType: 'receivingNote', docId: id, docLine: l.lineNo,
  }));
  await postMoves(db, ctx.caller!, moves, { knownProducts: saved?.products });
  await recomputeOrder(db, tenant.companyId, orderId);
  await applyNoteToTask(db, untypedTenant, id, taskId, 1);
}

/**
 * A note received on the order itself (no inbound task) may not take what the order's open inbound
 * tasks still expect: that quantity is already counted as inbound (在途) and will be received against
 * its task. Checked after the order row is claimed, which confirming a plan claims too, so the two
 * cannot pass each other.
 */
async function refuseIfPlanned(untypedTenant: Tenant, order: Row, changes: Array<[number, number]>, m: Multiple): Promise<void> {
  const tenant = TypedTenant.of(untypedTenant);
  const receiving = changes.filter(([, d]) => d > 0);
  if (!receiving.length) return;
  const open = await tenant.select('inboundTaskLine')
    .innerJoin('inboundTask', (j) => j.onRef('inboundTask.id', '=', 'inboundTaskLine.taskId').onRef('inboundTask.companyId', '=', 'inboundTaskLine.companyId'))
    .select(['inboundTaskLine.orderLineId', 'inboundTask.docNo', 'inboundTaskLine.qty', 'inboundTaskLine.receivedQty'])
    .where('inboundTask.orderId', '=', Number(order.id)).where('inboundTask.status', 'in', ['open', 'receiving'])
    .where('inboundTaskLine.orderLineId', 'in', receiving.map(([id]) => id)).execute();
  const planned = new Map<number, { qty: number; tasks: string[] }>();
  for (const r of open) {
    const left = Number(r.qty) - Number(r.receivedQty);
    if (left <= 0) continue;
    const p = planned.get(Number(r.orderLineId)) ?? { qty: 0, tasks: [] };
    p.qty += left;
    p.tasks.push(String(r.docNo));
    planned.set(Number(r.orderLineId), p);
  }
  if (!planned.size) return;
  const ids = [...planned.keys()];
  const l = 'purchaseOrderLine';
  const orderLines = await tenant.select(l).innerJoin('product', (j) => j.onRef('product.id', '=', `${l}.productId`).onRef('product.companyId', '=', `${l}.companyId`))
    .select([`${l}.id`, `${l}.lineNo`, `${l}.qty`, `${l}.receivedQty`, 'product.code']).where(`${l}.id`, 'in', ids).orderBy(`${l}.lineNo`).execute();
  for (const ol of orderLines) {
    const p = planned.get(Number(ol.id))!;
    const d = receiving.find(([id]) => id === Number(ol.id))![1];
    const received = Number(ol.receivedQty);
    if ((received + d + p.qty) * m.den <= Number(ol.qty) * m.num) continue;
    const left = Math.max(0, Math.floor((Number(ol.qty) * m.num) / m.den) - received - p.qty);
    throw bizError('INBOUND_PLANNED_RECEIPT_4119', { docNo: String(order.docNo), line: Number(ol.lineNo), code: String(ol.code), planned: p.qty, tasks: p.tasks.join('、'), qty: d, left },
      { orderLineId: Number(ol.id), lineNo: Number(ol.lineNo), planned: p.qty, qty: d, left });
  }
}

/**
 * A posted note cancelled (its status already changed by the caller): refused while later documents
 * use it; otherwise the order lines' received quantities, the stock and the task are given back
 * (`otherSource`: what a note of a sales return gives back instead, after the same putaway check).
 */
export async function reverseNote(ctx: CallContext, untypedDb: DB, untypedTenant: Tenant, doc: Row, otherSource?: (ctx: CallContext, untypedDb: DB, untypedTenant: Tenant, doc: Row) => Promise<void>): Promise<void> {
  const tenant = TypedTenant.of(untypedTenant);
  const db = typed(untypedDb);
  const caller = ctx.caller!;
  const id = Number(doc.id);
  const next = await tenant.select('putaway').select('docNo').where('receivingNoteId', '=', id).where('status', '=', 'posted').limit(3).execute();
  if (next.length) throw bizError('PURCHASE_DEPENDENT_DOCS_4096', { doc: RN_TITLE, docNo: String(doc.docNo), next: next.map((r) => String(r.docNo)).join('、') }, { id: id });
  // a note of another source (a sales return) undoes its own side; invoices and supplier returns never use it
  if (otherSource) return otherSource(ctx, db, untypedTenant, doc);
  // Invoiced lines keep the note (the invoice's posting claims this row too, so the two serialise).
  await refuseIfInvoiced(untypedTenant, id, String(doc.docNo));
  await refuseIfReturned(untypedTenant, id, String(doc.docNo));
  const orderId = Number(doc.orderId);
  await claimOrder(untypedTenant, orderId, ['confirmed', 'partlyReceived', 'received', 'closed'], '冲回收货');
  const lines = await noteLines(untypedTenant, id);
  const per = new Map<number, number>();
  for (const l of lines) per.set(l.orderLineId, (per.get(l.orderLineId) ?? 0) + l.qty);
  for (const [orderLineId, d] of [...per.entries()].sort((a, b) => a[0] - b[0])) {
    if (d === 0) continue;
    const ok = await tenant.update('purchaseOrderLine').set({ receivedQty: sql`${sql.ref('receivedQty')} - ${d}` })
      .where('id', '=', orderLineId).where('orderId', '=', orderId).where('receivedQty', '>=', d).returning('id').executeTakeFirst();
    if (!ok) throw new Error(`receiving note ${id}: order line ${orderLineId} has less received than the note`);
  }
  await postMoves(db, caller, lines.filter((l) => l.qty > 0).map((l) => ({
    productId: l.productId, warehouseId: Number(doc.warehouseId), locationId: l.locationId, qty: -l.qty, kind: 'reverse', docType: 'receivingNote', docId: id, docLine: l.lineNo,
  })));
  await recomputeOrder(db, tenant.companyId, orderId);
  await applyNoteToTask(db, untypedTenant, id, doc.taskId == null ? null : Number(doc.taskId), -1);
}
