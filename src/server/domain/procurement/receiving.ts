// Receiving notes (收货单, `receiving_note` + lines) against a confirmed purchase order, DESIGN §4.4.
// draft → posted → cancelled (a draft can be cancelled too). Posting, in one transaction:
//  1. the note's status (conditional UPDATE draft → posted);
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
import crypto from 'node:crypto';
import { sql } from 'kysely';
import { companyDateRange } from '../../../core/format.ts';
import { splitUnits } from '../../../core/stock-units.ts';
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import type { DB } from '../../db/connection.ts';
import { bizError, validationError, type FieldError } from '../../http/errors.ts';
import { nextDocumentNo } from '../sequence.ts';
import { MAX_MOVE_QTY, postMoves, type StockMove } from '../stock/ledger.ts';
import { addGuarded, insertMany, isSqlite, runSql } from '../../db/raw-sql.ts';
import {
  QTY, packQtyProps, DOC_STATUS, parseDay, PO_STATUS, receMultipleOf, refusal, type Multiple, statusError, text, tz, newestFirstPage, namedRows, type DocStatus, type Row, PAGING_PROPS,
} from './common.ts';
import { lineQty, PO_TITLE } from './purchase-order.ts';
import { refuseIfInvoiced } from './invoice.ts';
import { refuseIfReturned } from './purchase-return.ts';
import { applyNoteToTask, checkNoteTask } from './inbound-task.ts';

export const RN_TITLE = '收货单';
export const RN_PREFIX = 'SH';

export const RN_SAVE_INPUT: InputSchema = {
  type: 'object',
  required: ['orderId', 'lines'],
  properties: {
    id: { type: 'integer', minimum: 1, title: '收货单' },
    version: { type: 'integer', minimum: 1, title: '版本' },
    orderId: { type: 'integer', minimum: 1, title: '采购订单' },
    taskId: { type: ['integer', 'null'], minimum: 1, title: '入库任务' },
    remark: { type: ['string', 'null'], maxLength: 500, title: '备注' },
    post: { type: 'boolean', default: false, title: '保存后立即过账' },
    lines: {
      type: 'array', minItems: 1, maxItems: 2000, title: '明细',
      items: {
        type: 'object', required: ['orderLineId'],
        properties: {
          orderLineId: { type: 'integer', minimum: 1, title: '订单明细' },
          ...packQtyProps('countedQty', '实收数量', '实收'),
          damagedQty: { ...QTY, title: '破损数量' },
          locationId: { type: ['integer', 'null'], minimum: 1, title: '收货库位' },
          remark: { type: ['string', 'null'], maxLength: 200, title: '备注' },
        },
      },
    },
  },
};

export const DOC_LIST_INPUT: InputSchema = {
  type: 'object',
  properties: {
    ...PAGING_PROPS,
    docNo: { type: ['string', 'null'], maxLength: 50, title: '单号' },
    warehouseId: { type: ['integer', 'null'], minimum: 1, title: '仓库' },
    status: { enum: ['draft', 'posted', 'cancelled', null], title: '状态' },
    dateFrom: { type: ['string', 'null'], maxLength: 10, title: '开始日期' },
    dateTo: { type: ['string', 'null'], maxLength: 10, title: '结束日期' },
  },
};

export interface DocListInput {
  page: number;
  pageSize: number;
  docNo?: string | null;
  warehouseId?: number | null;
  status?: DocStatus | null;
  dateFrom?: string | null;
  dateTo?: string | null;
}

export interface RnLineInput {
  orderLineId: number;
  countedQty?: number | null;
  big?: number | null;
  mid?: number | null;
  small?: number | null;
  damagedQty?: number | null;
  locationId?: number | null;
  remark?: string | null;
}

export interface RnSaveInput {
  id?: number;
  version?: number;
  orderId: number;
  /** the inbound task received against (inbound-task.ts) */
  taskId?: number | null;
  remark?: string | null;
  post?: boolean;
  lines: RnLineInput[];
}

interface CheckedLine {
  orderLineId: number;
  productId: number;
  locationId: number | null;
  counted: number;
  damaged: number;
  qty: number;
  remark: string | null;
}

const RECEIVABLE = ['confirmed', 'partlyReceived'];

async function checkNote(ctx: CallContext, input: RnSaveInput) {
  const tenant = ctx.tenant;
  const order = (await tenant.select('purchaseOrder').select(['id', 'docNo', 'status', 'warehouseId']).where('id', '=', input.orderId).executeTakeFirst()) as Row | undefined;
  if (!order) throw validationError([{ field: 'orderId', message: '采购订单不存在' }]);
  if (!RECEIVABLE.includes(String(order.status))) throw statusError(PO_TITLE, PO_STATUS, order, '收货');
  const warehouseId = Number(order.warehouseId);
  const wh = (await tenant.select('warehouse').select(['name', 'enabled']).where('id', '=', warehouseId).executeTakeFirst()) as Row | undefined;
  if (!wh || Number(wh.enabled) !== 1) throw bizError('STOCK_WAREHOUSE_DISABLED_4077', { warehouse: String(wh?.name ?? warehouseId) });
  const l = 'purchaseOrderLine';
  const orderLines = new Map<number, Row>();
  for (const r of (await tenant.select(l)
    .innerJoin('product', (j) => j.onRef('product.id', '=', `${l}.productId`).onRef('product.companyId', '=', `${l}.companyId`))
    .select([`${l}.id`, `${l}.lineNo`, `${l}.productId`, `${l}.qty`, `${l}.receivedQty`, 'product.code', 'product.bigQty', 'product.midQty', 'product.unitBig', 'product.unitMid'])
    // only the lines the note names (an order of 2,000 lines is received a few at a time)
    .where(`${l}.orderId`, '=', input.orderId).where(`${l}.id`, 'in', [...new Set(input.lines.map((x) => x.orderLineId))]).execute()) as Row[]) orderLines.set(Number(r.id), r);
  const locIds = [...new Set(input.lines.map((x) => x.locationId).filter((x): x is number => typeof x === 'number'))];
  const locations = new Map<number, Row>();
  if (locIds.length) {
    for (const r of (await tenant.select('location').select(['id', 'warehouseId', 'lcCode', 'status']).where('id', 'in', locIds).execute()) as Row[]) locations.set(Number(r.id), r);
  }
  const multiple = await receMultipleOf(ctx.db, tenant.companyId);
  const errors: FieldError[] = [];
  const out: CheckedLine[] = [];
  const seen = new Set<string>();
  const perOrderLine = new Map<number, number>();
  input.lines.forEach((x, i) => {
    const err = (f: string, message: string) => errors.push({ field: `lines.${i}.${f}`, message: `第 ${i + 1} 行：${message}` });
    const ol = orderLines.get(x.orderLineId);
    if (!ol) throw bizError('PURCHASE_LINE_MISMATCH_4098', { doc: RN_TITLE, line: i + 1, source: PO_TITLE, docNo: String(order.docNo) }, { line: i + 1, orderLineId: x.orderLineId });
    if (x.locationId) {
      const loc = locations.get(x.locationId);
      if (!loc) { err('locationId', '库位不存在'); return; }
      if (Number(loc.warehouseId) !== warehouseId) { err('locationId', `库位 ${String(loc.lcCode)} 不属于仓库 ${String(wh.name)}`); return; }
      if (loc.status !== 'enabled') { err('locationId', `库位 ${String(loc.lcCode)} 已锁定`); return; }
    }
    const counted = lineQty({ qty: x.countedQty, big: x.big, mid: x.mid, small: x.small }, ol, { line: i + 1, productId: Number(ol.productId) });
    if (counted === undefined) { err('countedQty', '实收数量不能为空'); return; }
    if (counted <= 0 || counted > MAX_MOVE_QTY) { err('countedQty', '实收数量必须大于 0'); return; }
    const damaged = x.damagedQty ?? 0;
    if (damaged > counted) { err('damagedQty', '破损数量不能大于实收数量'); return; }
    const key = `${x.orderLineId}:${x.locationId ?? 0}`;
    if (seen.has(key)) { err('orderLineId', `订单第 ${Number(ol.lineNo)} 行在同一库位重复，请合并为一行`); return; }
    seen.add(key);
    const qty = counted - damaged;
    const sum = (perOrderLine.get(x.orderLineId) ?? 0) + qty;
    perOrderLine.set(x.orderLineId, sum);
    // Early, friendly check; the posting enforces it again with a conditional update.
    if ((Number(ol.receivedQty) + sum) * multiple.den > Number(ol.qty) * multiple.num) throw overReceipt(order, ol, sum, multiple);
    out.push({ orderLineId: x.orderLineId, productId: Number(ol.productId), locationId: x.locationId ?? null, counted, damaged, qty, remark: x.remark ?? null });
  });
  if (errors.length) throw validationError(errors.slice(0, 200));
  const products = new Map([...orderLines.values()].map((ol) => [Number(ol.productId), String(ol.code)]));
  return { order, warehouseId, lines: out, multiple, products };
}

function overReceipt(order: Row, ol: Row, qty: number, m: Multiple) {
  const ordered = Number(ol.qty);
  const received = Number(ol.receivedQty);
  const left = Math.max(0, Math.floor((ordered * m.num) / m.den) - received);
  return bizError('PURCHASE_OVER_RECEIPT_4094', { docNo: String(order.docNo), line: Number(ol.lineNo), code: String(ol.code), ordered, received, qty, multiple: m.text, left },
    { orderLineId: Number(ol.id), lineNo: Number(ol.lineNo), ordered, received, qty, left, receMultiple: m.text });
}

export interface DocResult {
  id: number;
  docNo: string;
  status: DocStatus;
  version: number;
  totalQty: number;
}

/** Claims the order row (the lock that serialises its receipts) while it is in one of `statuses`. */
async function claimOrder(tenant: Tenant, orderId: number, statuses: string[], action: string): Promise<Row> {
  const now = new Date().toISOString();
  const row = (await tenant.update('purchaseOrder').set({ updatedAt: now }).where('id', '=', orderId).where('status', 'in', statuses)
    .returning(['id', 'docNo', 'status']).executeTakeFirst()) as Row | undefined;
  if (row) return row;
  const doc = (await tenant.select('purchaseOrder').select(['id', 'docNo', 'status']).where('id', '=', orderId).executeTakeFirst()) as Row | undefined;
  if (!doc) throw bizError('COMMON_NOT_FOUND_4004', { entity: PO_TITLE });
  throw statusError(PO_TITLE, PO_STATUS, doc, action);
}

/** The order's received total and status, from its lines (closed and cancelled orders keep their status). */
async function recomputeOrder(db: DB, companyId: number, orderId: number): Promise<void> {
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

async function noteLines(tenant: Tenant, id: number) {
  return ((await tenant.select('receivingNoteLine').select(['lineNo', 'orderLineId', 'productId', 'locationId', 'qty']).where('noteId', '=', id).orderBy('lineNo').execute()) as Row[])
    .map((r) => ({ lineNo: Number(r.lineNo), orderLineId: Number(r.orderLineId), productId: Number(r.productId), locationId: r.locationId == null ? null : Number(r.locationId), qty: Number(r.qty) }));
}

/**
 * Posting steps 2–5 (the note's status is already changed by the caller). `saved`: the lines this
 * transaction has just written (saves reading them back).
 */
async function applyNote(ctx: CallContext, db: DB, tenant: Tenant, id: number, orderId: number, warehouseId: number, taskId: number | null,
  saved?: { lines: Awaited<ReturnType<typeof noteLines>>; multiple: Multiple; products: ReadonlyMap<number, string> }): Promise<void> {
  const order = await claimOrder(tenant, orderId, RECEIVABLE, '收货');
  const lines = saved?.lines ?? await noteLines(tenant, id);
  // A save read the multiple a moment ago (checkNote); the guard below enforces whichever value it has.
  const m = saved?.multiple ?? await receMultipleOf(db, tenant.companyId);
  const per = new Map<number, number>();
  for (const l of lines) per.set(l.orderLineId, (per.get(l.orderLineId) ?? 0) + l.qty);
  // Every line's conditional update in one statement; a line missing from what it returns was refused.
  const changes = [...per.entries()].filter(([, d]) => d !== 0).sort((a, b) => a[0] - b[0]);
  if (taskId == null) await refuseIfPlanned(tenant, order, changes, m);
  const passed = await addGuarded(db, {
    table: 'purchase_order_line', column: 'received_qty', companyId: tenant.companyId, changes, where: 'order_id = ?', whereParams: [orderId],
    // numeric on PostgreSQL: ordered × num may pass the bigint range for extreme quantities and multiples
    guard: isSqlite(db) ? '(received_qty + v.d) * ? <= qty * ?' : '(cast(received_qty as numeric) + v.d) * ? <= cast(qty as numeric) * ?',
    guardParams: [m.den, m.num],
  });
  for (const [orderLineId, d] of changes) {
    if (!passed.has(orderLineId)) {
      const ol = (await tenant.select('purchaseOrderLine').innerJoin('product', (j) => j.onRef('product.id', '=', 'purchaseOrderLine.productId'))
        .select(['purchaseOrderLine.id', 'purchaseOrderLine.lineNo', 'purchaseOrderLine.qty', 'purchaseOrderLine.receivedQty', 'product.code'])
        .where('purchaseOrderLine.id', '=', orderLineId).executeTakeFirst()) as Row | undefined;
      if (!ol) throw bizError('COMMON_NOT_FOUND_4004', { entity: '采购订单明细' });
      throw overReceipt(order, ol, d, m);
    }
  }
  const moves: StockMove[] = lines.filter((l) => l.qty > 0).map((l) => ({
    productId: l.productId, warehouseId, locationId: l.locationId, qty: l.qty, kind: 'receive', docType: 'receivingNote', docId: id, docLine: l.lineNo,
  }));
  await postMoves(db, ctx.caller!, moves, { knownProducts: saved?.products });
  await recomputeOrder(db, tenant.companyId, orderId);
  await applyNoteToTask(db, tenant, id, taskId, 1);
}

/**
 * A note received on the order itself (no inbound task) may not take what the order's open inbound
 * tasks still expect: that quantity is already counted as inbound (在途) and will be received against
 * its task. Checked after the order row is claimed, which confirming a plan claims too, so the two
 * cannot pass each other.
 */
async function refuseIfPlanned(tenant: Tenant, order: Row, changes: Array<[number, number]>, m: Multiple): Promise<void> {
  const receiving = changes.filter(([, d]) => d > 0);
  if (!receiving.length) return;
  const open = (await tenant.select('inboundTaskLine')
    .innerJoin('inboundTask', (j) => j.onRef('inboundTask.id', '=', 'inboundTaskLine.taskId').onRef('inboundTask.companyId', '=', 'inboundTaskLine.companyId'))
    .select(['inboundTaskLine.orderLineId', 'inboundTask.docNo', 'inboundTaskLine.qty', 'inboundTaskLine.receivedQty'])
    .where('inboundTask.orderId', '=', Number(order.id)).where('inboundTask.status', 'in', ['open', 'receiving'])
    .where('inboundTaskLine.orderLineId', 'in', receiving.map(([id]) => id)).execute()) as Row[];
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
  const orderLines = (await tenant.select(l).innerJoin('product', (j) => j.onRef('product.id', '=', `${l}.productId`).onRef('product.companyId', '=', `${l}.companyId`))
    .select([`${l}.id`, `${l}.lineNo`, `${l}.qty`, `${l}.receivedQty`, 'product.code']).where(`${l}.id`, 'in', ids).orderBy(`${l}.lineNo`).execute()) as Row[];
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

/** Creates or updates a draft; with `post`, posts it in the same transaction. */
export async function saveNote(ctx: CallContext, input: RnSaveInput): Promise<DocResult> {
  const caller = ctx.caller!;
  if (input.id !== undefined && input.version === undefined) throw validationError([{ field: 'version', message: '版本不能为空，请刷新后重试' }]);
  const { order, warehouseId, lines, multiple, products } = await checkNote(ctx, input);
  if (input.taskId) await checkNoteTask(ctx.tenant, input.taskId, input.orderId, lines.map((l) => l.orderLineId));
  const totalQty = lines.reduce((s, l) => s + l.qty, 0);
  const post = input.post === true;
  const now = new Date().toISOString();
  return ctx.transaction(async (db, tenant) => {
    const header: Row = {
      orderId: input.orderId, taskId: input.taskId ?? null, warehouseId, remark: input.remark ?? null, lineCount: lines.length, totalQty,
      ...(post ? { status: 'posted', postedAt: now, postedBy: caller.accountId } : {}), updatedAt: now, updatedBy: caller.accountId,
    };
    let id: number;
    let docNo = '';
    let version = 1;
    if (input.id !== undefined) {
      const updated = (await tenant.update('receivingNote').set({ ...header, version: sql`${sql.ref('version')} + 1` })
        .where('id', '=', input.id).where('status', '=', 'draft').where('version', '=', input.version!).returning(['id', 'docNo', 'version']).executeTakeFirst()) as Row | undefined;
      if (!updated) throw await refusal(tenant, 'receivingNote', RN_TITLE, DOC_STATUS, input.id, input.version, ['draft'], '修改');
      id = Number(updated.id);
      docNo = String(updated.docNo);
      version = Number(updated.version);
      await tenant.delete('receivingNoteLine').where('noteId', '=', id).execute();
    } else {
      const inserted = (await tenant.insert('receivingNote', {
        ...header, docNo: `~${Date.now().toString(36)}${crypto.randomBytes(6).toString('hex')}`, status: header.status ?? 'draft', version: 1, createdAt: now, createdBy: caller.accountId,
      }).returning('id').executeTakeFirstOrThrow()) as Row;
      id = Number(inserted.id);
    }
    await insertMany(db, 'receiving_note_line', ['company_id', 'note_id', 'line_no', 'order_line_id', 'product_id', 'location_id', 'counted_qty', 'damaged_qty', 'qty', 'putaway_qty', 'remark'],
      lines.map((l, i) => [tenant.companyId, id, i + 1, l.orderLineId, l.productId, l.locationId, l.counted, l.damaged, l.qty, 0, l.remark]));
    if (post) {
      const saved = lines.map((l, i) => ({ lineNo: i + 1, orderLineId: l.orderLineId, productId: l.productId, locationId: l.locationId, qty: l.qty }));
      await applyNote(ctx, db, tenant, id, input.orderId, warehouseId, input.taskId ?? null, { lines: saved, multiple, products });
    }
    if (!docNo) {
      docNo = await nextDocumentNo(db, tenant.companyId, RN_PREFIX, tz(ctx));
      await tenant.update('receivingNote').set({ docNo }).where('id', '=', id).execute();
    }
    await ctx.audit([
      { action: input.id !== undefined ? 'update' : 'create', entity: 'receivingNote', recordId: id, recordLabel: docNo,
        changes: [{ field: 'orderId', title: '采购订单', from: null, to: String(order.docNo) }, { field: 'totalQty', title: '收货数量', from: null, to: totalQty }] },
      ...(post ? [{ action: 'post' as const, entity: 'receivingNote', recordId: id, recordLabel: docNo, changes: [{ field: 'status', title: '状态', from: DOC_STATUS.draft, to: DOC_STATUS.posted }] }] : []),
    ], db);
    return { id, docNo, status: post ? 'posted' : 'draft', version, totalQty };
  });
}

export async function postNote(ctx: CallContext, input: { id: number; version?: number }): Promise<DocResult> {
  const caller = ctx.caller!;
  const now = new Date().toISOString();
  return ctx.transaction(async (db, tenant) => {
    let q = tenant.update('receivingNote').set({ status: 'posted', postedAt: now, postedBy: caller.accountId, updatedAt: now, updatedBy: caller.accountId, version: sql`${sql.ref('version')} + 1` })
      .where('id', '=', input.id).where('status', '=', 'draft');
    if (input.version !== undefined) q = q.where('version', '=', input.version);
    const doc = (await q.returning(['id', 'docNo', 'version', 'orderId', 'warehouseId', 'totalQty', 'taskId']).executeTakeFirst()) as Row | undefined;
    if (!doc) throw await refusal(tenant, 'receivingNote', RN_TITLE, DOC_STATUS, input.id, input.version, ['draft'], '过账');
    await applyNote(ctx, db, tenant, input.id, Number(doc.orderId), Number(doc.warehouseId), doc.taskId == null ? null : Number(doc.taskId));
    await ctx.audit({ action: 'post', entity: 'receivingNote', recordId: input.id, recordLabel: String(doc.docNo), changes: [{ field: 'status', title: '状态', from: DOC_STATUS.draft, to: DOC_STATUS.posted }] }, db);
    return { id: input.id, docNo: String(doc.docNo), status: 'posted', version: Number(doc.version), totalQty: Number(doc.totalQty) };
  });
}

export async function cancelNote(ctx: CallContext, input: { id: number; version?: number }): Promise<DocResult> {
  const caller = ctx.caller!;
  const now = new Date().toISOString();
  return ctx.transaction(async (db, tenant) => {
    const change = (from: DocStatus) => {
      let q = tenant.update('receivingNote').set({ status: 'cancelled', cancelledAt: now, cancelledBy: caller.accountId, updatedAt: now, updatedBy: caller.accountId, version: sql`${sql.ref('version')} + 1` })
        .where('id', '=', input.id).where('status', '=', from);
      if (input.version !== undefined) q = q.where('version', '=', input.version);
      return q.returning(['id', 'docNo', 'version', 'orderId', 'warehouseId', 'totalQty', 'taskId']).executeTakeFirst() as Promise<Row | undefined>;
    };
    let from: DocStatus = 'draft';
    let doc = await change('draft');
    if (!doc) { from = 'posted'; doc = await change('posted'); }
    if (!doc) throw await refusal(tenant, 'receivingNote', RN_TITLE, DOC_STATUS, input.id, input.version, ['draft', 'posted'], '作废');
    if (from === 'posted') {
      const next = (await tenant.select('putaway').select('docNo').where('receivingNoteId', '=', input.id).where('status', '=', 'posted').limit(3).execute()) as Row[];
      if (next.length) throw bizError('PURCHASE_DEPENDENT_DOCS_4096', { doc: RN_TITLE, docNo: String(doc.docNo), next: next.map((r) => String(r.docNo)).join('、') }, { id: input.id });
      // Invoiced lines keep the note (the invoice's posting claims this row too, so the two serialise).
      await refuseIfInvoiced(tenant, input.id, String(doc.docNo));
      await refuseIfReturned(tenant, input.id, String(doc.docNo));
      const orderId = Number(doc.orderId);
      await claimOrder(tenant, orderId, ['confirmed', 'partlyReceived', 'received', 'closed'], '冲回收货');
      const lines = await noteLines(tenant, input.id);
      const per = new Map<number, number>();
      for (const l of lines) per.set(l.orderLineId, (per.get(l.orderLineId) ?? 0) + l.qty);
      for (const [orderLineId, d] of [...per.entries()].sort((a, b) => a[0] - b[0])) {
        if (d === 0) continue;
        const ok = await tenant.update('purchaseOrderLine').set({ receivedQty: sql`${sql.ref('receivedQty')} - ${d}` })
          .where('id', '=', orderLineId).where('orderId', '=', orderId).where('receivedQty', '>=', d).returning('id').executeTakeFirst();
        if (!ok) throw new Error(`receiving note ${input.id}: order line ${orderLineId} has less received than the note`);
      }
      await postMoves(db, caller, lines.filter((l) => l.qty > 0).map((l) => ({
        productId: l.productId, warehouseId: Number(doc!.warehouseId), locationId: l.locationId, qty: -l.qty, kind: 'reverse', docType: 'receivingNote', docId: input.id, docLine: l.lineNo,
      })));
      await recomputeOrder(db, tenant.companyId, orderId);
      await applyNoteToTask(db, tenant, input.id, doc.taskId == null ? null : Number(doc.taskId), -1);
    }
    await ctx.audit({ action: 'cancel', entity: 'receivingNote', recordId: input.id, recordLabel: String(doc.docNo), changes: [{ field: 'status', title: '状态', from: DOC_STATUS[from], to: DOC_STATUS.cancelled }] }, db);
    return { id: input.id, docNo: String(doc.docNo), status: 'cancelled', version: Number(doc.version), totalQty: Number(doc.totalQty) };
  });
}

function noteView(r: Row) {
  const status = String(r.status) as DocStatus;
  return {
    id: Number(r.id), docNo: String(r.docNo), docType: 'receivingNote', status, statusText: DOC_STATUS[status] ?? status,
    orderId: Number(r.orderId), orderDocNo: text(r.orderDocNo), supplierName: text(r.supplierName), taskId: r.taskId == null ? null : Number(r.taskId),
    warehouseId: Number(r.warehouseId), warehouseName: text(r.warehouseName), remark: text(r.remark), lineCount: Number(r.lineCount), totalQty: Number(r.totalQty),
    version: Number(r.version), createdAt: text(r.createdAt), createdByName: text(r.createdByName), postedAt: text(r.postedAt), cancelledAt: text(r.cancelledAt),
    route: `/entrepot/receivingNoteDetail/${Number(r.id)}`,
  };
}

function withNames(tenant: Tenant) {
  const h = 'receivingNote';
  return tenant.select(h)
    .innerJoin('purchaseOrder', (j) => j.onRef('purchaseOrder.id', '=', `${h}.orderId`).onRef('purchaseOrder.companyId', '=', `${h}.companyId`))
    .innerJoin('supplier', (j) => j.onRef('supplier.id', '=', 'purchaseOrder.supplierId').onRef('supplier.companyId', '=', `${h}.companyId`))
    .innerJoin('warehouse', (j) => j.onRef('warehouse.id', '=', `${h}.warehouseId`).onRef('warehouse.companyId', '=', `${h}.companyId`))
    .leftJoin('account as creator', (j) => j.onRef('creator.id', '=', `${h}.createdBy`).onRef('creator.companyId', '=', `${h}.companyId`))
    .selectAll(h)
    .select(['purchaseOrder.docNo as orderDocNo', 'supplier.name as supplierName', 'warehouse.name as warehouseName', 'creator.userName as createdByName']);
}

export async function getNote(ctx: CallContext, id: number) {
  const tenant = ctx.tenant;
  const doc = (await withNames(tenant).where('receivingNote.id', '=', id).executeTakeFirst()) as Row | undefined;
  if (!doc) throw bizError('COMMON_NOT_FOUND_4004', { entity: RN_TITLE });
  const l = 'receivingNoteLine';
  const lines = (await tenant.select(l)
    .innerJoin('purchaseOrderLine as ol', (j) => j.onRef('ol.id', '=', `${l}.orderLineId`).onRef('ol.companyId', '=', `${l}.companyId`))
    .innerJoin('product', (j) => j.onRef('product.id', '=', `${l}.productId`).onRef('product.companyId', '=', `${l}.companyId`))
    .leftJoin('location', (j) => j.onRef('location.id', '=', `${l}.locationId`).onRef('location.companyId', '=', `${l}.companyId`))
    .select([`${l}.id`, `${l}.lineNo`, `${l}.orderLineId`, `${l}.productId`, `${l}.locationId`, `${l}.countedQty`, `${l}.damagedQty`, `${l}.qty`, `${l}.putawayQty`, `${l}.remark`,
      'ol.lineNo as orderLineNo', 'ol.qty as orderedQty', 'ol.receivedQty as orderReceivedQty', 'location.lcCode',
      'product.code as productCode', 'product.name as productName', 'product.bigQty', 'product.midQty', 'product.unitBig', 'product.unitMid', 'product.unitSmall'])
    .where(`${l}.noteId`, '=', id).orderBy(`${l}.lineNo`).execute()) as Row[];
  return {
    ...noteView(doc),
    lines: lines.map((r) => {
      const packs = { bigQty: Number(r.bigQty), midQty: Number(r.midQty), unitBig: text(r.unitBig), unitMid: text(r.unitMid), unitSmall: text(r.unitSmall) };
      const counted = Number(r.countedQty);
      const ordered = Number(r.orderedQty);
      return {
        id: Number(r.id), lineNo: Number(r.lineNo), orderLineId: Number(r.orderLineId), orderLineNo: Number(r.orderLineNo), productId: Number(r.productId),
        productCode: String(r.productCode), productName: String(r.productName), unitSmall: text(r.unitSmall), locationId: r.locationId == null ? null : Number(r.locationId), lcCode: text(r.lcCode),
        orderedQty: ordered, orderReceivedQty: Number(r.orderReceivedQty), countedQty: counted, damagedQty: Number(r.damagedQty), qty: Number(r.qty),
        units: splitUnits(Number(r.qty), packs), putawayQty: Number(r.putawayQty), remark: text(r.remark),
      };
    }),
  };
}

/** Newest first, with filters; shared by receiving notes and putaways. */
export async function listDocs(ctx: CallContext, table: 'receivingNote' | 'putaway', input: DocListInput, view: (r: Row) => unknown, names: (t: Tenant) => ReturnType<Tenant['select']>) {
  const from = parseDay(input.dateFrom, 'dateFrom', '开始日期');
  const to = parseDay(input.dateTo, 'dateTo', '结束日期');
  let q = ctx.tenant.select(table);
  const docNo = input.docNo?.trim();
  if (docNo) q = q.where(`${table}.docNo`, 'like', `%${docNo.replace(/[\\%_]/g, '')}%`);
  if (input.warehouseId) q = q.where(`${table}.warehouseId`, '=', input.warehouseId);
  if (input.status) q = q.where(`${table}.status`, '=', input.status);
  if (from) q = q.where(`${table}.createdAt`, '>=', companyDateRange(from, from, tz(ctx))[0]);
  if (to) q = q.where(`${table}.createdAt`, '<=', companyDateRange(to, to, tz(ctx))[1]);
  return newestFirstPage(q, `${table}.id`, namedRows(names(ctx.tenant), `${table}.id`), view, input);
}

export const listNotes = (ctx: CallContext, input: DocListInput) => listDocs(ctx, 'receivingNote', input, noteView, withNames as never);
