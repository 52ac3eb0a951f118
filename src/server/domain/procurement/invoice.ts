// Purchase invoices (采购发票, `purchase_invoice` + lines), DESIGN §4.4: a supplier's invoice matched to
// posted receiving-note lines of that supplier. draft → posted → cancelled (a draft can be cancelled too).
// The invoice itself — statuses, save (with `post`), post, cancel, list, get, export — is served by the
// document engine (src/server/documents/types/purchase-invoice.ts); this module holds its hooks and what
// the engine does not serve (the invoiceable receiving lines, the receiving note's refusal).
// Posting, in one transaction:
//  1. the invoice's status (the engine's conditional UPDATE draft → posted);
//  2. each receiving note of its lines, claimed while posted (a conditional UPDATE on the note row: the
//     note's cancellation takes the same row, so the two serialise and the cancellation then sees the
//     invoiced quantity and is refused);
//  3. each receiving line's invoiced quantity, one conditional UPDATE that only passes while
//     invoiced + this ≤ received — over it, the whole invoice is refused (PURCHASE_INVOICE_OVER_4101);
//  4. the payable (amount = the invoice total, due = due date);
//  5. invoice stock grows by each line (amount in the company's base currency at the invoice's rate).
// Cancelling a posted invoice undoes 3–5: refused once anything of the payable is paid, or when the
// invoice stock it added has been used up.
// Money is exact: line amount = qty × price rounded half-up to the cent; tax (prices include it) =
// round_half_up(total × rate / (100% + rate)).
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { splitUnits } from '../../../core/stock-units.ts';
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import type { DB } from '../../db/connection.ts';
import type { SaveRun, TransitionRun } from '../../documents/definition.ts';
import { ApiError, bizError, validationError, type FieldError } from '../../http/errors.ts';
import { DOC_STATUS, moneyText, parseDay, PRICE_SCALE, priceText, rateOn, text, today, type DocStatus, type PackInput, type Row } from './common.ts';
import { applyInvoiceStock, movesOf } from './invoice-stock.ts';
import { addOpenItem, cancelOpenItem } from '../finance/ledger.ts';
import { lineQty } from './purchase-order.ts';
import { TypedTenant, typed } from '../../db/typed.ts';

export const PI_TITLE = '采购发票';
export const PI_PREFIX = 'FP';
export const PI_MAX_LINES = 2000;
const PAYABLE_STATUS = { open: '未结清', cancelled: '已作废' } as const;

export const PI_LINES_INPUT: InputSchema = {
  type: 'object',
  required: ['supplierId'],
  properties: {
    page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1, title: '页码' },
    pageSize: { type: 'integer', minimum: 1, maximum: 500, default: 100, title: '每页条数' },
    supplierId: { type: 'integer', minimum: 1, title: '供应商' },
    currencyId: { type: ['integer', 'null'], minimum: 1, title: '币种' },
    orderId: { type: ['integer', 'null'], minimum: 1, title: '采购订单' },
    receivingNoteId: { type: ['integer', 'null'], minimum: 1, title: '收货单' },
    keyword: { type: ['string', 'null'], maxLength: 100, title: '商品编码、名称或单号' },
  },
};


export interface PiLinesInput {
  page: number;
  pageSize: number;
  supplierId: number;
  currencyId?: number | null;
  orderId?: number | null;
  receivingNoteId?: number | null;
  keyword?: string | null;
}


/** A day plus n days, both YYYY-MM-DD. */
function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}


/** The tax inside a tax-inclusive total (cents), half-up to the cent. */
function taxOf(totalCents: number, rate: number): number {
  if (!rate) return 0;
  return new Decimal(totalCents).times(rate).div(10_000 + rate).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
}

/** An amount (cents, document currency) in the company's base currency at a rate × 10^6. */
const baseCents = (amount: number, rate: number) => new Decimal(amount).times(rate).div(1_000_000).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();

/** Receiving lines with their note, order, order line, currency and product, by id. */
async function receivingLinesOf(untypedTenant: Tenant, ids: number[]): Promise<Map<number, Row>> {
  const tenant = TypedTenant.of(untypedTenant);
  const out = new Map<number, Row>();
  const rl = 'receivingNoteLine';
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await tenant.select(rl)
      .innerJoin('receivingNote as note', (j) => j.onRef('note.id', '=', `${rl}.noteId`).onRef('note.companyId', '=', `${rl}.companyId`))
      .innerJoin('purchaseOrder as po', (j) => j.onRef('po.id', '=', 'note.orderId').onRef('po.companyId', '=', `${rl}.companyId`))
      .innerJoin('purchaseOrderLine as ol', (j) => j.onRef('ol.id', '=', `${rl}.orderLineId`).onRef('ol.companyId', '=', `${rl}.companyId`))
      .innerJoin('currency', (j) => j.onRef('currency.id', '=', 'po.currencyId').onRef('currency.companyId', '=', `${rl}.companyId`))
      .innerJoin('product', (j) => j.onRef('product.id', '=', `${rl}.productId`).onRef('product.companyId', '=', `${rl}.companyId`))
      .select([`${rl}.id`, `${rl}.noteId`, `${rl}.lineNo`, `${rl}.orderLineId`, `${rl}.productId`, `${rl}.qty`, `${rl}.invoicedQty`,
        'note.docNo as noteDocNo', 'note.status as noteStatus', 'po.id as orderId', 'po.docNo as orderDocNo', 'po.supplierId', 'po.currencyId',
        'currency.code as currencyCode', 'ol.price as orderPrice', 'product.code', 'product.bigQty', 'product.midQty', 'product.unitBig', 'product.unitMid'])
      .where(`${rl}.id`, 'in', ids.slice(i, i + 500)).execute();
    for (const r of rows) out.set(Number(r.id), r);
  }
  return out;
}

function overInvoiced(line: number, rl: Row, qty: number) {
  const received = Number(rl.qty);
  const invoiced = Number(rl.invoicedQty);
  const left = Math.max(0, received - invoiced);
  return bizError('PURCHASE_INVOICE_OVER_4101', { line, code: String(rl.code), docNo: String(rl.noteDocNo), received, invoiced, qty, left },
    { line, receivingLineId: Number(rl.id), received, invoiced, qty, left });
}

function notInvoiceable(line: number, supplierName: string, rl: Row) {
  const status = String(rl.noteStatus);
  return bizError('PURCHASE_INVOICE_LINE_4102', { line, supplier: supplierName, docNo: String(rl.noteDocNo), status: DOC_STATUS[status as DocStatus] ?? status },
    { line, receivingLineId: Number(rl.id), receivingNoteId: Number(rl.noteId), status });
}


// ---------------------------------------------------------------------------------------------- saving

/**
 * The engine's validate hook: the supplier, dates, tax rate, company title and currency; each line
 * matched to a posted receiving line of the supplier in the invoice's currency, once, within what is left
 * to invoice, priced from its order line unless a price is given; the totals, tax and rate on the header.
 */
export async function checkInvoice(run: SaveRun): Promise<void> {
  const { ctx, input, header, lines: parsed, id } = run;
  const tenant = TypedTenant.of(ctx.tenant);
  const supplierId = Number(header.supplierId);
  const supplier = await tenant.select('supplier').select(['id', 'name', 'paymentDays']).where('id', '=', supplierId).executeTakeFirst();
  if (!supplier) throw validationError([{ field: 'supplierId', message: '供应商不存在' }]);
  const invoiceNo = String(header.invoiceNo);
  const invoiceDate = header.invoiceDate == null ? today(ctx) : String(header.invoiceDate);
  const dueDate = header.dueDate == null ? addDays(invoiceDate, Math.max(0, Number(supplier.paymentDays ?? 0))) : String(header.dueDate);
  if (dueDate < invoiceDate) throw validationError([{ field: 'dueDate', message: '付款到期日不能早于发票日期' }]);
  // percent × 100 (the decimal field took its digits)
  const taxRate = Number(header.taxRate ?? 0);
  if (taxRate < 0 || taxRate > 10_000) throw validationError([{ field: 'taxRate', message: '税率必须在 0 到 100 之间' }]);
  if (header.companyRiseId != null) {
    const rise = await tenant.select('companyRise').select(['id', 'enabled']).where('id', '=', Number(header.companyRiseId)).executeTakeFirst();
    if (!rise) throw validationError([{ field: 'companyRiseId', message: '公司抬头不存在' }]);
    if (Number(rise.enabled) !== 1) throw validationError([{ field: 'companyRiseId', message: '公司抬头已停用' }]);
  }

  const raw = (input.lines ?? []) as PackInput[];
  const found = await receivingLinesOf(ctx.tenant, [...new Set(parsed.map((l) => Number(l.receivingLineId)))]);
  const missing = parsed.flatMap((l, i) => (found.has(Number(l.receivingLineId)) ? [] : [{ field: `lines.${i}.receivingLineId`, message: `第 ${i + 1} 行：收货明细不存在` }]));
  if (missing.length) throw validationError(missing.slice(0, 200));
  // The currency: as given, else the one of the first matched order (an invoice is in one currency).
  const first = found.get(Number(parsed[0]?.receivingLineId));
  const currencyId = header.currencyId != null ? Number(header.currencyId) : first ? Number(first.currencyId) : undefined;
  if (!currencyId) throw validationError([{ field: 'currencyId', message: '币种不能为空' }]);
  const currency = await tenant.select('currency').select(['id', 'code', 'enabled']).where('id', '=', currencyId).executeTakeFirst();
  if (!currency) throw validationError([{ field: 'currencyId', message: '币种不存在' }]);
  if (Number(currency.enabled) !== 1) throw validationError([{ field: 'currencyId', message: '币种已停用' }]);
  const { rate, rateDate } = await rateOn(ctx.tenant, currencyId, invoiceDate);

  const errors: FieldError[] = [];
  const seen = new Set<number>();
  parsed.forEach((l, i) => {
    const err = (f: string, message: string) => errors.push({ field: `lines.${i}.${f}`, message: `第 ${i + 1} 行：${message}` });
    const rlId = Number(l.receivingLineId);
    const rl = found.get(rlId)!;
    if (rl.noteStatus !== 'posted' || Number(rl.supplierId) !== supplierId) throw notInvoiceable(i + 1, String(supplier.name), rl);
    if (Number(rl.currencyId) !== currencyId) { err('receivingLineId', `采购订单 ${String(rl.orderDocNo)} 的币种为 ${String(rl.currencyCode)}，与发票币种 ${String(currency.code)} 不一致`); return; }
    if (seen.has(rlId)) { err('receivingLineId', `收货单 ${String(rl.noteDocNo)} 第 ${Number(rl.lineNo)} 行重复，请合并为一行`); return; }
    seen.add(rlId);
    const r = raw[i] ?? {};
    const packs = { qty: l.qty as number | null, big: r.big, mid: r.mid, small: r.small };
    const qty = lineQty(packs, rl, { line: i + 1, productId: Number(rl.productId) });
    if (qty === undefined) { err('qty', packs.qty == null && packs.big == null && packs.mid == null && packs.small == null ? '开票数量不能为空' : '开票数量超出范围'); return; }
    if (qty <= 0) { err('qty', '开票数量必须大于 0'); return; }
    // Early, friendly check; posting enforces it again with a conditional update.
    if (qty > Number(rl.qty) - Number(rl.invoicedQty)) throw overInvoiced(i + 1, rl, qty);
    // × 10^4: as given (the decimal field checked it), else the order line's
    const price = l.price == null ? Number(rl.orderPrice) : Number(l.price);
    const amount = new Decimal(price).div(10 ** PRICE_SCALE).times(qty).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).times(100);
    if (amount.greaterThan(Number.MAX_SAFE_INTEGER / 1000)) { err('qty', '金额超出范围'); return; }
    Object.assign(l, {
      receivingNoteId: Number(rl.noteId), orderLineId: Number(rl.orderLineId), orderId: Number(rl.orderId), productId: Number(rl.productId), qty, price, amount: amount.toNumber(),
    });
  });
  if (errors.length) throw validationError(errors.slice(0, 200));
  const totalQty = parsed.reduce((s, l) => s + Number(l.qty), 0);
  const totalAmount = parsed.reduce((s, l) => s + Number(l.amount), 0);
  if (!Number.isSafeInteger(totalQty) || totalAmount > Number.MAX_SAFE_INTEGER / 1000) throw validationError([{ field: 'lines', message: '合计超出范围' }]);
  const taken = await invoiceNoTaken(ctx.tenant, supplier, invoiceNo, id);
  if (taken) throw taken;
  Object.assign(header, {
    currencyId, exchangeRate: rate, rateDate, invoiceDate, dueDate, taxRate, lineCount: parsed.length, totalQty, totalAmount, taxAmount: taxOf(totalAmount, taxRate),
  });
  // read above through the company's scope, with their own refusals: the engine need not again
  for (const f of ['supplierId', 'currencyId', 'companyRiseId']) run.verified.add(f);
}

/** The engine's conflict hook: the partial unique index on (supplier, invoice number) refused a save. */
export async function invoiceNoConflict(ctx: CallContext, input: Row, header: Row): Promise<ApiError | undefined> {
  const supplier = await TypedTenant.of(ctx.tenant).select('supplier').select(['id', 'name']).where('id', '=', Number(header.supplierId)).executeTakeFirst();
  return supplier ? invoiceNoTaken(ctx.tenant, supplier, String(header.invoiceNo), input.id === undefined ? undefined : Number(input.id)) : undefined;
}

/** The supplier's invoice number is already on another invoice that is not cancelled. */
async function invoiceNoTaken(untypedTenant: Tenant, supplier: Row, invoiceNo: string, exceptId?: number): Promise<ApiError | undefined> {
  const tenant = TypedTenant.of(untypedTenant);
  let q = tenant.select('purchaseInvoice').select(['id', 'docNo']).where('supplierId', '=', Number(supplier.id)).where('invoiceNo', '=', invoiceNo).where('status', '!=', 'cancelled');
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  const other = await q.executeTakeFirst();
  if (!other) return undefined;
  return bizError('PURCHASE_INVOICE_NO_TAKEN_4103', { supplier: String(supplier.name), invoiceNo, docNo: String(other.docNo) }, { id: Number(other.id), docNo: String(other.docNo) });
}

/** Posting steps 2–5 (the invoice's status is already changed by the caller). */
async function applyInvoice(ctx: CallContext, untypedDb: DB, untypedTenant: Tenant, id: number): Promise<void> {
  const tenant = TypedTenant.of(untypedTenant);
  const db = typed(untypedDb);
  const head = await tenant.select('purchaseInvoice').innerJoin('supplier', (j) => j.onRef('supplier.id', '=', 'purchaseInvoice.supplierId'))
    .select(['purchaseInvoice.docNo', 'purchaseInvoice.supplierId', 'purchaseInvoice.currencyId', 'purchaseInvoice.exchangeRate', 'purchaseInvoice.totalAmount',
      'purchaseInvoice.dueDate', 'purchaseInvoice.invoiceNo', 'purchaseInvoice.invoiceDate', 'supplier.name as supplierName'])
    .where('purchaseInvoice.id', '=', id).executeTakeFirstOrThrow();
  const lines = (await tenant.select('purchaseInvoiceLine').select(['lineNo', 'receivingLineId', 'receivingNoteId', 'productId', 'qty', 'amount'])
    .where('invoiceId', '=', id).orderBy('lineNo').execute())
    .map((r) => ({ lineNo: Number(r.lineNo), receivingLineId: Number(r.receivingLineId), receivingNoteId: Number(r.receivingNoteId), productId: Number(r.productId), qty: Number(r.qty), amount: Number(r.amount) }));
  const now = new Date().toISOString();
  const lineOf = (pick: (l: (typeof lines)[number]) => boolean) => lines.find(pick)!.lineNo;
  for (const noteId of [...new Set(lines.map((l) => l.receivingNoteId))].sort((a, b) => a - b)) {
    const claimed = await tenant.update('receivingNote').set({ updatedAt: now }).where('id', '=', noteId).where('status', '=', 'posted').returning('id').executeTakeFirst();
    if (!claimed) {
      const line = lineOf((l) => l.receivingNoteId === noteId);
      const rl = (await receivingLinesOf(untypedTenant, [lines.find((l) => l.lineNo === line)!.receivingLineId])).values().next().value;
      if (!rl) throw bizError('COMMON_NOT_FOUND_4004', { entity: '收货单' });
      throw notInvoiceable(line, String(head.supplierName), rl);
    }
  }
  const per = new Map<number, number>();
  for (const l of lines) per.set(l.receivingLineId, (per.get(l.receivingLineId) ?? 0) + l.qty);
  for (const [lineId, d] of [...per.entries()].sort((a, b) => a[0] - b[0])) {
    const ok = await tenant.update('receivingNoteLine').set({ invoicedQty: sql`${sql.ref('invoicedQty')} + ${d}` })
      .where('id', '=', lineId).where(sql<boolean>`${sql.ref('invoicedQty')} + ${d} <= ${sql.ref('qty')}`).returning('id').executeTakeFirst();
    if (!ok) {
      const rl = (await receivingLinesOf(untypedTenant, [lineId])).get(lineId);
      if (!rl) throw bizError('COMMON_NOT_FOUND_4004', { entity: '收货明细' });
      throw overInvoiced(lineOf((l) => l.receivingLineId === lineId), rl, d);
    }
  }
  const rate = Number(head.exchangeRate);
  await tenant.insert('supplierPayable', {
    supplierId: Number(head.supplierId), invoiceId: id, currencyId: Number(head.currencyId), exchangeRate: rate, amount: Number(head.totalAmount), paidAmount: 0,
    dueDate: String(head.dueDate), status: 'open', version: 1, createdAt: now, createdBy: ctx.caller!.accountId, updatedAt: now, updatedBy: ctx.caller!.accountId,
  }).execute();
  // the open-items ledger (finance): the invoice's payable, paid through receipts/payments
  await addOpenItem(untypedTenant, ctx.caller!.accountId, {
    side: 'payable', partyType: 'supplier', partyId: Number(head.supplierId), sourceType: 'purchaseInvoice', sourceId: id, docNo: String(head.docNo),
    reference: String(head.invoiceNo), docDate: String(head.invoiceDate), dueDate: String(head.dueDate), currencyId: Number(head.currencyId), exchangeRate: rate, amount: Number(head.totalAmount),
  });
  await applyInvoiceStock(db, tenant.companyId, ctx.caller!.accountId, 'invoice', id, String(head.docNo),
    lines.map((l) => ({ productId: l.productId, qty: l.qty, amount: baseCents(l.amount, rate), docLine: l.lineNo })));
}


// ---------------------------------------------------------------------------------------------- transitions

const totalsOf = (doc: Row) => ({ totalQty: Number(doc.totalQty), totalAmount: moneyText(doc.totalAmount), taxAmount: moneyText(doc.taxAmount) });

/** draft → posted (the engine's post hook): steps 2–5 above. */
export async function postInvoice(t: TransitionRun) {
  await applyInvoice(t.ctx, t.db, t.tenant, Number(t.doc.id));
  return totalsOf(t.doc);
}

/** draft / posted → cancelled (the engine's cancel hook): a posted invoice's payable, invoiced quantities and invoice stock go back. */
export async function cancelInvoice(t: TransitionRun) {
  if (t.from !== 'posted') return totalsOf(t.doc);
  const { tenant, db } = t;
  const caller = t.ctx.caller!;
  const id = Number(t.doc.id);
  const docNo = String(t.doc.docNo);
  const now = String(t.doc.updatedAt);
  // The payable goes first: once anything is paid the invoice stands.
  const payable = await tenant.update('supplierPayable').set({ status: 'cancelled', cancelledAt: now, cancelledBy: caller.accountId, updatedAt: now, updatedBy: caller.accountId, version: sql`${sql.ref('version')} + 1` })
    .where('invoiceId', '=', id).where('status', '=', 'open').where('paidAmount', '=', 0).returning('id').executeTakeFirst();
  if (!payable) {
    const p = await tenant.select('supplierPayable').select(['paidAmount', 'status']).where('invoiceId', '=', id).executeTakeFirst();
    if (p && Number(p.paidAmount) !== 0) throw bizError('PURCHASE_INVOICE_PAID_4104', { docNo, paid: moneyText(p.paidAmount) }, { id, paidAmount: moneyText(p.paidAmount) });
    throw new Error(`purchase invoice ${id}: no open payable to cancel (${String(p?.status)})`);
  }
  await cancelOpenItem(tenant, 'purchaseInvoice', id, { doc: PI_TITLE, docNo });
  const per = new Map<number, number>();
  for (const r of await tenant.select('purchaseInvoiceLine').select(['receivingLineId', 'qty']).where('invoiceId', '=', id).execute()) {
    per.set(Number(r.receivingLineId), (per.get(Number(r.receivingLineId)) ?? 0) + Number(r.qty));
  }
  for (const [lineId, d] of [...per.entries()].sort((a, b) => a[0] - b[0])) {
    const ok = await tenant.update('receivingNoteLine').set({ invoicedQty: sql`${sql.ref('invoicedQty')} - ${d}` })
      .where('id', '=', lineId).where('invoicedQty', '>=', d).returning('id').executeTakeFirst();
    if (!ok) throw new Error(`purchase invoice ${id}: receiving line ${lineId} has less invoiced than the invoice`);
  }
  const moves = await movesOf(db, tenant.companyId, id);
  await applyInvoiceStock(db, tenant.companyId, caller.accountId, 'reverse', id, docNo, moves.map((m) => ({ ...m, qty: -m.qty, amount: -m.amount })));
  return totalsOf(t.doc);
}

// ---------------------------------------------------------------------------------------------- reads

/** What `get` and the list show beyond the engine's columns: amounts, the payable, the matched receiving lines. */
export async function presentInvoice(ctx: CallContext, docs: Row[], lines?: Row[]): Promise<void> {
  if (!docs.length) return;
  const tenant = TypedTenant.of(ctx.tenant);
  const payables = new Map((await tenant.select('supplierPayable').select(['id', 'invoiceId', 'amount', 'paidAmount', 'dueDate', 'status'])
    .where('invoiceId', 'in', docs.map((d) => Number(d.id))).execute()).map((p) => [Number(p.invoiceId), p]));
  for (const d of docs) {
    const total = new Decimal(String(d.totalAmount ?? 0));
    const p = payables.get(Number(d.id));
    const status = p ? String(p.status) : null;
    const statusText = status ? (PAYABLE_STATUS[status as keyof typeof PAYABLE_STATUS] ?? status) : null;
    Object.assign(d, {
      netAmount: total.minus(String(d.taxAmount ?? 0)).toFixed(2),
      // in the company's base currency at the invoice's rate
      totalAmountBase: total.times(String(d.exchangeRate ?? 0)).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2),
      payableStatus: status, payableStatusText: statusText, paidAmount: p ? moneyText(p.paidAmount) : null,
    });
    if (lines) {
      d.payable = p ? {
        id: Number(p.id), amount: moneyText(p.amount), paidAmount: moneyText(p.paidAmount), openAmount: moneyText(Number(p.amount) - Number(p.paidAmount)),
        dueDate: String(p.dueDate), status, statusText,
      } : null;
    }
  }
  if (!lines?.length) return;
  const rl = 'receivingNoteLine';
  const matched = new Map((await tenant.select(rl)
    .innerJoin('receivingNote as note', (j) => j.onRef('note.id', '=', `${rl}.noteId`).onRef('note.companyId', '=', `${rl}.companyId`))
    .innerJoin('purchaseOrder as po', (j) => j.onRef('po.id', '=', 'note.orderId').onRef('po.companyId', '=', `${rl}.companyId`))
    .innerJoin('purchaseOrderLine as ol', (j) => j.onRef('ol.id', '=', `${rl}.orderLineId`).onRef('ol.companyId', '=', `${rl}.companyId`))
    .select([`${rl}.id`, `${rl}.lineNo`, `${rl}.qty`, `${rl}.invoicedQty`, 'note.docNo as receivingDocNo', 'po.docNo as orderDocNo', 'ol.lineNo as orderLineNo', 'ol.price as orderPrice'])
    .where(`${rl}.id`, 'in', [...new Set(lines.map((l) => Number(l.receivingLineId)))]).execute()).map((r) => [Number(r.id), r]));
  for (const l of lines) {
    const r = matched.get(Number(l.receivingLineId));
    const received = Number(r?.qty ?? 0);
    const invoiced = Number(r?.invoicedQty ?? 0);
    Object.assign(l, {
      receivingDocNo: text(r?.receivingDocNo), receivingLineNo: r ? Number(r.lineNo) : null, orderDocNo: text(r?.orderDocNo), orderLineNo: r ? Number(r.orderLineNo) : null,
      orderPrice: r ? priceText(r.orderPrice) : null, receivedQty: received, invoicedQty: invoiced, openQty: Math.max(0, received - invoiced),
      units: splitUnits(Number(l.qty), { bigQty: Number(l.bigQty), midQty: Number(l.midQty), unitBig: l.unitBig as string | null, unitMid: l.unitMid as string | null, unitSmall: l.unitSmall as string | null }),
    });
  }
}

/** The list screen's invoice-date range filter, sent as one array [from, to] (either may be empty). */
export const INVOICE_DATE_FILTER = {
  input: { invoiceDate: { type: ['array', 'null'], maxItems: 2, items: { type: ['string', 'null'], maxLength: 10 }, title: '发票日期' } },
  apply(q: any, input: Row) {
    const range = (input.invoiceDate ?? []) as Array<string | null>;
    const from = parseDay(range[0], 'dateFrom', '开始日期');
    const to = parseDay(range[1], 'dateTo', '结束日期');
    if (from) q = q.where('purchaseInvoice.invoiceDate', '>=', from);
    if (to) q = q.where('purchaseInvoice.invoiceDate', '<=', to);
    return q;
  },
};

/** Posted receiving lines of a supplier with something left to invoice (the add screen's choices), oldest note first. */
export async function invoiceableLines(ctx: CallContext, input: PiLinesInput) {
  const tenant = TypedTenant.of(ctx.tenant);
  const supplier = await tenant.select('supplier').select(['id']).where('id', '=', input.supplierId).executeTakeFirst();
  if (!supplier) throw validationError([{ field: 'supplierId', message: '供应商不存在' }]);
  const rl = 'receivingNoteLine';
  let q = tenant.select(rl)
    .innerJoin('receivingNote as note', (j) => j.onRef('note.id', '=', `${rl}.noteId`).onRef('note.companyId', '=', `${rl}.companyId`))
    .innerJoin('purchaseOrder as po', (j) => j.onRef('po.id', '=', 'note.orderId').onRef('po.companyId', '=', `${rl}.companyId`))
    .innerJoin('product', (j) => j.onRef('product.id', '=', `${rl}.productId`).onRef('product.companyId', '=', `${rl}.companyId`))
    .where('note.status', '=', 'posted').where('po.supplierId', '=', input.supplierId)
    .where(sql<boolean>`${sql.ref(`${rl}.qty`)} > ${sql.ref(`${rl}.invoicedQty`)}`);
  if (input.currencyId) q = q.where('po.currencyId', '=', input.currencyId);
  if (input.orderId) q = q.where('po.id', '=', input.orderId);
  if (input.receivingNoteId) q = q.where('note.id', '=', input.receivingNoteId);
  const k = input.keyword?.trim();
  if (k) {
    const pattern = `%${k.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const op = ctx.database.dialect === 'postgres' ? 'ilike' : 'like';
    q = q.where((eb) => eb.or([eb('product.code', op, pattern), eb('product.name', op, pattern), eb('note.docNo', '=', k), eb('po.docNo', '=', k)]));
  }
  const counted = await q.select((eb) => eb.fn.countAll().as('total')).executeTakeFirst();
  const total = Number(counted?.total ?? 0);
  const offset = (input.page - 1) * input.pageSize;
  const rows = total > offset
    ? (await q
      .innerJoin('purchaseOrderLine as ol', (j) => j.onRef('ol.id', '=', `${rl}.orderLineId`).onRef('ol.companyId', '=', `${rl}.companyId`))
      .innerJoin('currency', (j) => j.onRef('currency.id', '=', 'po.currencyId').onRef('currency.companyId', '=', `${rl}.companyId`))
      .select([`${rl}.id`, `${rl}.noteId`, `${rl}.lineNo`, `${rl}.orderLineId`, `${rl}.productId`, `${rl}.qty`, `${rl}.invoicedQty`,
        'note.docNo as receivingDocNo', 'note.postedAt', 'po.id as orderId', 'po.docNo as orderDocNo', 'po.currencyId', 'currency.code as currencyCode',
        'ol.lineNo as orderLineNo', 'ol.price', 'product.code as productCode', 'product.name as productName', 'product.specification',
        'product.bigQty', 'product.midQty', 'product.unitBig', 'product.unitMid', 'product.unitSmall'])
      .orderBy('note.id').orderBy(`${rl}.lineNo`).limit(input.pageSize).offset(offset).execute())
    : [];
  return {
    list: rows.map((r) => {
      const packs = { bigQty: Number(r.bigQty), midQty: Number(r.midQty), unitBig: text(r.unitBig), unitMid: text(r.unitMid), unitSmall: text(r.unitSmall) };
      const received = Number(r.qty);
      const invoiced = Number(r.invoicedQty);
      const open = received - invoiced;
      const price = new Decimal(String(r.price)).div(10 ** PRICE_SCALE);
      return {
        id: Number(r.id), receivingLineId: Number(r.id), receivingNoteId: Number(r.noteId), receivingDocNo: String(r.receivingDocNo), receivingLineNo: Number(r.lineNo),
        postedAt: text(r.postedAt), orderId: Number(r.orderId), orderDocNo: String(r.orderDocNo), orderLineId: Number(r.orderLineId), orderLineNo: Number(r.orderLineNo),
        currencyId: Number(r.currencyId), currencyCode: String(r.currencyCode), productId: Number(r.productId), productCode: String(r.productCode),
        productName: String(r.productName), specification: text(r.specification), unitSmall: text(r.unitSmall),
        receivedQty: received, invoicedQty: invoiced, openQty: open, openUnits: splitUnits(open, packs),
        price: priceText(r.price), openAmount: price.times(open).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2),
      };
    }),
    total, page: input.page, pageSize: input.pageSize,
  };
}

/** The filtered invoices with their lines as .xlsx. */


/**
 * Called by the cancellation of a posted receiving note (receiving.ts), after it has claimed the note row:
 * a note any of whose lines is invoiced stays, naming the invoices.
 */
export async function refuseIfInvoiced(untypedTenant: Tenant, noteId: number, noteDocNo: string): Promise<void> {
  const tenant = TypedTenant.of(untypedTenant);
  const invoiced = await tenant.select('receivingNoteLine').select('id').where('noteId', '=', noteId).where('invoicedQty', '>', 0).limit(1).executeTakeFirst();
  if (!invoiced) return;
  const rows = await tenant.select('purchaseInvoiceLine')
    .innerJoin('purchaseInvoice', (j) => j.onRef('purchaseInvoice.id', '=', 'purchaseInvoiceLine.invoiceId').onRef('purchaseInvoice.companyId', '=', 'purchaseInvoiceLine.companyId'))
    .select('purchaseInvoice.docNo').distinct().where('purchaseInvoiceLine.receivingNoteId', '=', noteId).where('purchaseInvoice.status', '=', 'posted')
    .orderBy('purchaseInvoice.docNo').limit(3).execute();
  const invoices = rows.map((r) => String(r.docNo));
  throw bizError('PURCHASE_RECEIVING_INVOICED_4106', { docNo: noteDocNo, invoices: invoices.join('、') }, { id: noteId, invoices });
}

