// Sales invoices (销售发票, issue 15): a client's invoice matched to lines of its delivery notes that have
// shipped (送货单 已发货 / 已签收). draft → posted → cancelled (a draft can be cancelled too). The document
// itself is served by the engine (src/server/documents/types/sales-invoice.ts); this module holds its hooks,
// the invoiceable delivery lines and the printable invoice.
// Posting, in one transaction:
//  1. the invoice's status (the engine's conditional UPDATE draft → posted);
//  2. each delivery note of its lines, claimed while shipped (a conditional UPDATE on the note row: the
//     note's cancellation takes the same row, so the two serialise and the cancellation then sees the
//     invoiced quantity and is refused);
//  3. each delivery line's invoiced quantity, one conditional UPDATE that only passes while
//     invoiced + this ≤ delivered — over it the whole invoice is refused (INVOICE_QTY_ERROR_4020): of two
//     invoices over the same delivered quantity exactly one posts;
//  4. the receivable (an open item of the client: amount = the invoice total, due = due date);
//  5. invoice stock shrinks by each line (amount in company currency at the invoice's rate).
// Cancelling a posted invoice undoes 3–5: refused once anything is allocated against its receivable.
// Money is exact: prices include tax; line amount = qty × price rounded half-up to the cent; the tax of
// each tax rate = round_half_up(total of that rate × rate / (100% + rate)), the invoice's tax their sum.
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { rmbCapital } from '../../../core/rmb-capital.ts';
import { splitUnits } from '../../../core/stock-units.ts';
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import type { SaveRun, TransitionRun } from '../../documents/definition.ts';
import { bizError, validationError, type FieldError } from '../../http/errors.ts';
import { addOpenItem, cancelOpenItem, spreadBase } from '../finance/ledger.ts';
import { moneyText, parseDay, PRICE_SCALE, priceText, rateOn, text, today, type Row } from '../procurement/common.ts';
import { applyInvoiceStock, movesOf } from '../procurement/invoice-stock.ts';
import { deductPrepayments, undoDeductions } from './prepayment.ts';
import { TypedTenant, typed } from '../../db/typed.ts';

export const SI_TITLE = '销售发票';
export const SI_PREFIX = 'XF';
export const SI_MAX_LINES = 2000;
/** Delivery notes whose goods have left: their lines may be invoiced. */
const SHIPPED = ['posted', 'signed'];
const NOTE_STATUS: Record<string, string> = { draft: '草稿', posted: '已发货', signed: '已签收', cancelled: '已作废' };
const ITEM_STATUS: Record<string, string> = { open: '未结清', settled: '已结清', cancelled: '已作废' };

export const SI_LINES_INPUT: InputSchema = {
  type: 'object',
  required: ['clientId'],
  properties: {
    page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1, title: '页码' },
    pageSize: { type: 'integer', minimum: 1, maximum: 500, default: 100, title: '每页条数' },
    clientId: { type: 'integer', minimum: 1, title: '客户' },
    currencyId: { type: ['integer', 'null'], minimum: 1, title: '币种' },
    orderId: { type: ['integer', 'null'], minimum: 1, title: '销售订单' },
    deliveryNoteId: { type: ['integer', 'null'], minimum: 1, title: '送货单' },
    keyword: { type: ['string', 'null'], maxLength: 100, title: '商品编码、名称或单号' },
  },
};

export interface SiLinesInput {
  page: number;
  pageSize: number;
  clientId: number;
  currencyId?: number | null;
  orderId?: number | null;
  deliveryNoteId?: number | null;
  keyword?: string | null;
}

function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/** The tax inside a tax-inclusive total (cents) at a rate (percent × 100), half-up to the cent. */
export function taxOf(totalCents: number, rate: number): number {
  if (!rate) return 0;
  return new Decimal(totalCents).times(rate).div(10_000 + rate).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
}

/** Per tax rate (percent × 100): the tax-inclusive total, the tax (its lines' taxes) and the net, in cents; rates ascending. */
export function totalsPerRate(lines: Array<{ taxRate: number; amount: number }>): Array<{ taxRate: number; amount: number; tax: number; net: number }> {
  // the tax of each line, summed per rate: every total is the sum of the rows printed above it
  const per = new Map<number, { amount: number; tax: number }>();
  for (const l of lines) {
    const p = per.get(l.taxRate) ?? { amount: 0, tax: 0 };
    p.amount += l.amount;
    p.tax += taxOf(l.amount, l.taxRate);
    per.set(l.taxRate, p);
  }
  return [...per.entries()].sort((a, b) => a[0] - b[0]).map(([taxRate, p]) => ({ taxRate, amount: p.amount, tax: p.tax, net: p.amount - p.tax }));
}

/** Net unit price (× 10^4) of a sales order line, exact: its price less its discount (percent × 100). */
const exactNetOf = (price: unknown, discount: unknown) => new Decimal(String(price ?? 0)).times(new Decimal(10_000).minus(String(discount ?? 0))).div(10_000);
/** The same rounded half-up to the price scale, as a price is shown and stored. */
const netPriceOf = (price: unknown, discount: unknown) => exactNetOf(price, discount).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();

/** Delivery lines with their note, order, order line, currency and product, by id. */
async function deliveryLinesOf(untypedTenant: Tenant, ids: number[]): Promise<Map<number, Row>> {
  const tenant = TypedTenant.of(untypedTenant);
  const out = new Map<number, Row>();
  const dl = 'deliveryNoteLine';
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await tenant.select(dl)
      .innerJoin('deliveryNote as note', (j) => j.onRef('note.id', '=', `${dl}.noteId`).onRef('note.companyId', '=', `${dl}.companyId`))
      .innerJoin('salesOrder as so', (j) => j.onRef('so.id', '=', 'note.orderId').onRef('so.companyId', '=', `${dl}.companyId`))
      .innerJoin('salesOrderLine as ol', (j) => j.onRef('ol.id', '=', `${dl}.orderLineId`).onRef('ol.companyId', '=', `${dl}.companyId`))
      .innerJoin('currency', (j) => j.onRef('currency.id', '=', 'so.currencyId').onRef('currency.companyId', '=', `${dl}.companyId`))
      .innerJoin('product', (j) => j.onRef('product.id', '=', `${dl}.productId`).onRef('product.companyId', '=', `${dl}.companyId`))
      .select([`${dl}.id`, `${dl}.noteId`, `${dl}.lineNo`, `${dl}.orderLineId`, `${dl}.productId`, `${dl}.qty`, `${dl}.invoicedQty`,
        'note.docNo as noteDocNo', 'note.status as noteStatus', 'note.clientId', 'so.id as orderId', 'so.docNo as orderDocNo', 'so.currencyId', 'so.companyRiseId',
        'currency.code as currencyCode', 'ol.price as orderPrice', 'ol.discount as orderDiscount', 'product.code', 'product.bigQty', 'product.midQty', 'product.unitBig', 'product.unitMid'])
      .where(`${dl}.id`, 'in', ids.slice(i, i + 500)).execute();
    for (const r of rows) out.set(Number(r.id), r);
  }
  return out;
}

function overInvoiced(line: number, dl: Row, qty: number) {
  const delivered = Number(dl.qty);
  const invoiced = Number(dl.invoicedQty ?? 0);
  const left = Math.max(0, delivered - invoiced);
  return bizError('INVOICE_QTY_ERROR_4020', { line, code: String(dl.code), docNo: String(dl.noteDocNo), delivered, invoiced, qty, left },
    { line, deliveryLineId: Number(dl.id), productCode: String(dl.code), delivered, invoiced, qty, left });
}

function notInvoiceable(line: number, clientName: string, dl: Row) {
  const status = String(dl.noteStatus);
  return bizError('INVOICE_QTY_ERROR_4025', { line, client: clientName, docNo: String(dl.noteDocNo), status: NOTE_STATUS[status] ?? status },
    { line, deliveryLineId: Number(dl.id), deliveryNoteId: Number(dl.noteId), status });
}

// ---------------------------------------------------------------------------------------------- saving

/**
 * The engine's validate hook: the client, dates, tax rates, company title and currency; each line matched
 * to a shipped delivery line of the client in the invoice's currency, once, within what is left to invoice,
 * priced from its order line (less the discount) unless a price is given; the totals, tax and rate.
 */
export async function checkSalesInvoice(run: SaveRun): Promise<void> {
  const { ctx, header, lines: parsed } = run;
  const tenant = TypedTenant.of(ctx.tenant);
  const clientId = Number(header.clientId);
  const client = await tenant.select('client').select(['id', 'name', 'enabled', 'paymentDays']).where('id', '=', clientId).executeTakeFirst();
  if (!client) throw validationError([{ field: 'clientId', message: '客户不存在' }]);
  const invoiceDate = header.invoiceDate == null ? today(ctx) : String(header.invoiceDate);
  const dueDate = header.dueDate == null ? addDays(invoiceDate, Math.max(0, Number(client.paymentDays ?? 0))) : String(header.dueDate);
  if (dueDate < invoiceDate) throw validationError([{ field: 'dueDate', message: '收款到期日不能早于开票日期' }]);
  const taxRate = Number(header.taxRate ?? 0);
  if (taxRate < 0 || taxRate > 10_000) throw validationError([{ field: 'taxRate', message: '税率必须在 0 到 100 之间' }]);

  const found = await deliveryLinesOf(ctx.tenant, [...new Set(parsed.map((l) => Number(l.deliveryLineId)))]);
  const missing = parsed.flatMap((l, i) => (found.has(Number(l.deliveryLineId)) ? [] : [{ field: `lines.${i}.deliveryLineId`, message: `第 ${i + 1} 行：送货明细不存在` }]));
  if (missing.length) throw validationError(missing.slice(0, 200));
  const first = found.get(Number(parsed[0]?.deliveryLineId));
  const currencyId = header.currencyId != null ? Number(header.currencyId) : first ? Number(first.currencyId) : undefined;
  if (!currencyId) throw validationError([{ field: 'currencyId', message: '币种不能为空' }]);
  const currency = await tenant.select('currency').select(['id', 'code', 'enabled']).where('id', '=', currencyId).executeTakeFirst();
  if (!currency) throw validationError([{ field: 'currencyId', message: '币种不存在' }]);
  if (Number(currency.enabled) !== 1) throw validationError([{ field: 'currencyId', message: '币种已停用' }]);
  // the letterhead: as chosen, else the first order's, else the company's default title
  let companyRiseId = header.companyRiseId != null ? Number(header.companyRiseId) : first?.companyRiseId != null ? Number(first.companyRiseId) : undefined;
  if (companyRiseId === undefined) {
    const def = await tenant.select('companyRise').select(['id']).where('isDefault', '=', 1).where('enabled', '=', 1).orderBy('id').executeTakeFirst();
    companyRiseId = def ? Number(def.id) : undefined;
  }
  if (companyRiseId !== undefined) {
    const rise = await tenant.select('companyRise').select(['id', 'enabled']).where('id', '=', companyRiseId).executeTakeFirst();
    if (!rise) throw validationError([{ field: 'companyRiseId', message: '公司抬头不存在' }]);
    if (Number(rise.enabled) !== 1 && header.companyRiseId != null) throw validationError([{ field: 'companyRiseId', message: '公司抬头已停用' }]);
  }
  const { rate, rateDate } = await rateOn(ctx.tenant, currencyId, invoiceDate);

  const errors: FieldError[] = [];
  const seen = new Set<number>();
  parsed.forEach((l, i) => {
    const err = (f: string, message: string) => errors.push({ field: `lines.${i}.${f}`, message: `第 ${i + 1} 行：${message}` });
    const dlId = Number(l.deliveryLineId);
    const dl = found.get(dlId)!;
    if (!SHIPPED.includes(String(dl.noteStatus)) || Number(dl.clientId) !== clientId) throw notInvoiceable(i + 1, String(client.name), dl);
    if (Number(dl.currencyId) !== currencyId) { err('deliveryLineId', `销售订单 ${String(dl.orderDocNo)} 的币种为 ${String(dl.currencyCode)}，与发票币种 ${String(currency.code)} 不一致`); return; }
    if (seen.has(dlId)) { err('deliveryLineId', `送货单 ${String(dl.noteDocNo)} 第 ${Number(dl.lineNo)} 行重复，请合并为一行`); return; }
    seen.add(dlId);
    const qty = l.qty == null ? undefined : Number(l.qty);
    if (qty === undefined) { err('qty', '开票数量不能为空'); return; }
    if (qty <= 0) { err('qty', '开票数量必须大于 0'); return; }
    // Early, friendly check; posting enforces it again with a conditional update.
    if (qty > Number(dl.qty) - Number(dl.invoicedQty ?? 0)) throw overInvoiced(i + 1, dl, qty);
    // the order's own price and discount, exact: the net price is never rounded before it is multiplied,
    // so an invoice of an order line's quantity is the order line's amount to the cent
    const exactNet = l.price == null ? exactNetOf(dl.orderPrice, dl.orderDiscount) : new Decimal(Number(l.price));
    const price = exactNet.toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
    const lineRate = l.taxRate == null ? taxRate : Number(l.taxRate);
    if (lineRate < 0 || lineRate > 10_000) { err('taxRate', '税率必须在 0 到 100 之间'); return; }
    const amount = exactNet.div(10 ** PRICE_SCALE).times(qty).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).times(100);
    if (amount.greaterThan(Number.MAX_SAFE_INTEGER / 1000)) { err('qty', '金额超出范围'); return; }
    Object.assign(l, {
      deliveryNoteId: Number(dl.noteId), orderLineId: Number(dl.orderLineId), orderId: Number(dl.orderId), productId: Number(dl.productId), qty, price,
      taxRate: lineRate, amount: amount.toNumber(), taxAmount: taxOf(amount.toNumber(), lineRate),
    });
  });
  if (errors.length) throw validationError(errors.slice(0, 200));
  const totalQty = parsed.reduce((s, l) => s + Number(l.qty), 0);
  const totalAmount = parsed.reduce((s, l) => s + Number(l.amount), 0);
  if (!Number.isSafeInteger(totalQty) || totalAmount > Number.MAX_SAFE_INTEGER / 1000) throw validationError([{ field: 'lines', message: '合计超出范围' }]);
  // a receivable is money asked for: an invoice of nothing is not one
  if (parsed.length && totalAmount <= 0) throw validationError([{ field: 'lines', message: '价税合计必须大于 0：请填写单价' }]);
  // company currency: the total converted, the lines' amounts spread to add up to it (ledger.ts spreadBase)
  const base = spreadBase(parsed.map((l) => Number(l.amount)), rate);
  parsed.forEach((l, i) => (l.amountBase = base.lines[i]));
  const taxAmount = totalsPerRate(parsed.map((l) => ({ taxRate: Number(l.taxRate), amount: Number(l.amount) }))).reduce((s, r) => s + r.tax, 0);
  Object.assign(header, {
    currencyId, companyRiseId: companyRiseId ?? null, exchangeRate: rate, rateDate, invoiceDate, dueDate, taxRate, lineCount: parsed.length, totalQty, totalAmount, taxAmount,
    totalAmountBase: base.total, deliveryNoteId: parsed.length ? Number(parsed[0]!.deliveryNoteId) : null,
  });
  for (const f of ['clientId', 'currencyId', 'companyRiseId']) run.verified.add(f);
}

// ---------------------------------------------------------------------------------------------- transitions

const totalsOf = (doc: Row) => ({ totalQty: Number(doc.totalQty), totalAmount: moneyText(doc.totalAmount), taxAmount: moneyText(doc.taxAmount) });

async function storedLines(untypedTenant: Tenant, id: number) {
  const tenant = TypedTenant.of(untypedTenant);
  return (await tenant.select('salesInvoiceLine').select(['lineNo', 'deliveryLineId', 'deliveryNoteId', 'productId', 'qty', 'amount', 'amountBase'])
    .where('invoiceId', '=', id).orderBy('lineNo').execute())
    .map((r) => ({ lineNo: Number(r.lineNo), deliveryLineId: Number(r.deliveryLineId), deliveryNoteId: Number(r.deliveryNoteId), productId: Number(r.productId), qty: Number(r.qty), amount: Number(r.amount), amountBase: Number(r.amountBase) }));
}

/** draft → posted (the engine's post hook): steps 2–5 above. */
export async function postSalesInvoice(t: TransitionRun) {
  const { ctx, db } = t;
  const tenant = TypedTenant.of(t.tenant);
  const id = Number(t.doc.id);
  const head = await tenant.select('salesInvoice').innerJoin('client', (j) => j.onRef('client.id', '=', 'salesInvoice.clientId').onRef('client.companyId', '=', 'salesInvoice.companyId'))
    .select(['salesInvoice.docNo', 'salesInvoice.clientId', 'salesInvoice.currencyId', 'salesInvoice.exchangeRate', 'salesInvoice.totalAmount', 'salesInvoice.dueDate',
      'salesInvoice.invoiceNo', 'salesInvoice.invoiceDate', 'client.name as clientName'])
    .where('salesInvoice.id', '=', id).executeTakeFirstOrThrow();
  const lines = await storedLines(t.tenant, id);
  const lineOf = (pick: (l: (typeof lines)[number]) => boolean) => lines.find(pick)!.lineNo;
  const now = new Date().toISOString();
  for (const noteId of [...new Set(lines.map((l) => l.deliveryNoteId))].sort((a, b) => a - b)) {
    const claimed = await tenant.update('deliveryNote').set({ updatedAt: now }).where('id', '=', noteId).where('status', 'in', SHIPPED).where('clientId', '=', Number(head.clientId))
      .returning('id').executeTakeFirst();
    if (!claimed) {
      const line = lineOf((l) => l.deliveryNoteId === noteId);
      const dl = (await deliveryLinesOf(t.tenant, [lines.find((l) => l.lineNo === line)!.deliveryLineId])).values().next().value;
      if (!dl) throw bizError('COMMON_NOT_FOUND_4004', { entity: '送货单' });
      throw notInvoiceable(line, String(head.clientName), dl);
    }
  }
  const per = new Map<number, number>();
  for (const l of lines) per.set(l.deliveryLineId, (per.get(l.deliveryLineId) ?? 0) + l.qty);
  for (const [lineId, d] of [...per.entries()].sort((a, b) => a[0] - b[0])) {
    const ok = await tenant.update('deliveryNoteLine').set({ invoicedQty: sql`coalesce(${sql.ref('invoicedQty')}, 0) + ${d}` })
      .where('id', '=', lineId).where(sql<boolean>`coalesce(${sql.ref('invoicedQty')}, 0) + ${d} <= ${sql.ref('qty')}`).returning('id').executeTakeFirst();
    if (!ok) {
      const dl = (await deliveryLinesOf(t.tenant, [lineId])).get(lineId);
      if (!dl) throw bizError('COMMON_NOT_FOUND_4004', { entity: '送货明细' });
      throw overInvoiced(lineOf((l) => l.deliveryLineId === lineId), dl, d);
    }
  }
  const rate = Number(head.exchangeRate);
  // the open-items ledger (finance): the invoice's receivable, settled through receipts
  await addOpenItem(t.tenant, ctx.caller!.accountId, {
    side: 'receivable', partyType: 'client', partyId: Number(head.clientId), sourceType: 'salesInvoice', sourceId: id, docNo: String(head.docNo),
    reference: text(head.invoiceNo), docDate: String(head.invoiceDate), dueDate: String(head.dueDate), currencyId: Number(head.currencyId), exchangeRate: rate, amount: Number(head.totalAmount),
  });
  // 预收款抵扣: what the client paid ahead on prepayment invoices of these orders reduces this receivable
  await deductPrepayments(t.tenant, ctx.caller!.accountId, {
    id, docNo: String(head.docNo), clientId: Number(head.clientId), currencyId: Number(head.currencyId), exchangeRate: rate, total: Number(head.totalAmount), date: String(head.invoiceDate),
  });
  // invoice stock: what the purchase invoices grew, the sale takes (it may go below zero: sold before the supplier's invoice came)
  await applyInvoiceStock(db, tenant.companyId, ctx.caller!.accountId, 'sale', id, String(head.docNo),
    lines.map((l) => ({ productId: l.productId, qty: -l.qty, amount: -l.amountBase, docLine: l.lineNo })), { docType: 'salesInvoice', mayGoNegative: true });
  return totalsOf(t.doc);
}

/** draft / posted → cancelled (the engine's cancel hook): a posted invoice's receivable, invoiced quantities and invoice stock go back. */
export async function cancelSalesInvoice(t: TransitionRun) {
  if (t.from !== 'posted') return totalsOf(t.doc);
  const { db } = t;
  const tenant = TypedTenant.of(t.tenant);
  const caller = t.ctx.caller!;
  const id = Number(t.doc.id);
  const docNo = String(t.doc.docNo);
  // Red invoices go first (their credit is an allocation too), then the receivable: once anything is allocated the invoice stands.
  if (Number(t.doc.creditedAmount ?? 0) > 0) {
    const credits = [
      ...(await tenant.select('salesCredit').select('docNo').where('invoiceId', '=', id).where('status', '=', 'posted').orderBy('id').limit(3).execute()),
      ...(await tenant.select('salesDiscountLine').innerJoin('salesDiscount', (j) => j.onRef('salesDiscount.id', '=', 'salesDiscountLine.discountId').onRef('salesDiscount.companyId', '=', 'salesDiscountLine.companyId'))
        .select('salesDiscount.docNo').where('salesDiscountLine.invoiceId', '=', id).where('salesDiscount.status', '=', 'posted').orderBy('salesDiscount.id').limit(3).execute()),
    ];
    throw bizError('SALES_INVOICE_CREDITED_4028', { docNo, credits: credits.map((c) => String(c.docNo)).join('、') }, { id, credits: credits.map((c) => String(c.docNo)) });
  }
  // its prepayment deductions are given back first (they are allocations too)
  await undoDeductions(t.tenant, caller.accountId, id, today(t.ctx));
  await cancelOpenItem(t.tenant, 'salesInvoice', id, { doc: SI_TITLE, docNo });
  const per = new Map<number, number>();
  for (const r of await tenant.select('salesInvoiceLine').select(['deliveryLineId', 'qty']).where('invoiceId', '=', id).execute()) {
    per.set(Number(r.deliveryLineId), (per.get(Number(r.deliveryLineId)) ?? 0) + Number(r.qty));
  }
  for (const [lineId, d] of [...per.entries()].sort((a, b) => a[0] - b[0])) {
    const ok = await tenant.update('deliveryNoteLine').set({ invoicedQty: sql`${sql.ref('invoicedQty')} - ${d}` })
      .where('id', '=', lineId).where('invoicedQty', '>=', d).returning('id').executeTakeFirst();
    if (!ok) throw new Error(`sales invoice ${id}: delivery line ${lineId} has less invoiced than the invoice`);
  }
  const moves = await movesOf(db, tenant.companyId, id, 'salesInvoice', 'sale');
  await applyInvoiceStock(db, tenant.companyId, caller.accountId, 'saleReverse', id, docNo, moves.map((m) => ({ ...m, qty: -m.qty, amount: -m.amount })), { docType: 'salesInvoice' });
  return totalsOf(t.doc);
}

// ---------------------------------------------------------------------------------------------- reads

/** What `get` and the list show beyond the engine's columns: amounts, the receivable, the matched delivery lines. */
export async function presentSalesInvoice(ctx: CallContext, docs: Row[], lines?: Row[]): Promise<void> {
  if (!docs.length) return;
  const tenant = TypedTenant.of(ctx.tenant);
  const items = new Map((await tenant.select('openItem').select(['id', 'sourceId', 'amount', 'allocated', 'openAmount', 'dueDate', 'status'])
    .where('sourceType', '=', 'salesInvoice').where('sourceId', 'in', docs.map((d) => Number(d.id))).execute()).map((p) => [Number(p.sourceId), p]));
  for (const d of docs) {
    const total = new Decimal(String(d.totalAmount ?? 0));
    const p = items.get(Number(d.id));
    const status = p ? String(p.status) : null;
    Object.assign(d, {
      netAmount: total.minus(String(d.taxAmount ?? 0)).toFixed(2),
      receivableStatus: status, receivableStatusText: status ? ITEM_STATUS[status] ?? status : null,
      receivedAmount: p ? moneyText(p.allocated) : null, openAmount: p ? moneyText(p.openAmount) : null,
    });
    if (lines) d.receivable = p ? { id: Number(p.id), amount: moneyText(p.amount), allocated: moneyText(p.allocated), openAmount: moneyText(p.openAmount), dueDate: String(p.dueDate), status, statusText: ITEM_STATUS[status!] ?? status } : null;
  }
  if (!lines?.length) return;
  const dl = 'deliveryNoteLine';
  const matched = new Map((await tenant.select(dl)
    .innerJoin('deliveryNote as note', (j) => j.onRef('note.id', '=', `${dl}.noteId`).onRef('note.companyId', '=', `${dl}.companyId`))
    .innerJoin('salesOrder as so', (j) => j.onRef('so.id', '=', 'note.orderId').onRef('so.companyId', '=', `${dl}.companyId`))
    .select([`${dl}.id`, `${dl}.lineNo`, `${dl}.qty`, `${dl}.invoicedQty`, 'note.docNo as deliveryDocNo', 'so.docNo as orderDocNo'])
    .where(`${dl}.id`, 'in', [...new Set(lines.map((l) => Number(l.deliveryLineId)))]).execute()).map((r) => [Number(r.id), r]));
  for (const l of lines) {
    const r = matched.get(Number(l.deliveryLineId));
    const delivered = Number(r?.qty ?? 0);
    const invoiced = Number(r?.invoicedQty ?? 0);
    Object.assign(l, {
      deliveryDocNo: text(r?.deliveryDocNo), deliveryLineNo: r ? Number(r.lineNo) : null, orderDocNo: text(r?.orderDocNo),
      deliveredQty: delivered, invoicedQty: invoiced, openQty: Math.max(0, delivered - invoiced),
      units: splitUnits(Number(l.qty), { bigQty: Number(l.bigQty ?? 1), midQty: Number(l.midQty ?? 1), unitBig: text(l.unitBig), unitMid: text(l.unitMid), unitSmall: text(l.unitSmall) }),
    });
  }
}

/** The list screen's invoice-date range filter, sent as one array [from, to] (either may be empty). */
export const SI_DATE_FILTER = {
  input: { invoiceDate: { type: ['array', 'null'], maxItems: 2, items: { type: ['string', 'null'], maxLength: 10 }, title: '开票日期' } },
  apply(q: any, input: Row) {
    const range = (input.invoiceDate ?? []) as Array<string | null>;
    const from = parseDay(range[0], 'dateFrom', '开始日期');
    const to = parseDay(range[1], 'dateTo', '结束日期');
    if (from) q = q.where('salesInvoice.invoiceDate', '>=', from);
    if (to) q = q.where('salesInvoice.invoiceDate', '<=', to);
    return q;
  },
};

/** Shipped delivery lines of a client with something left to invoice (the new invoice's choices), oldest note first. */
export async function invoiceableDeliveryLines(ctx: CallContext, input: SiLinesInput) {
  const tenant = TypedTenant.of(ctx.tenant);
  const client = await tenant.select('client').select(['id']).where('id', '=', input.clientId).executeTakeFirst();
  if (!client) throw validationError([{ field: 'clientId', message: '客户不存在' }]);
  const dl = 'deliveryNoteLine';
  let q = tenant.select(dl)
    .innerJoin('deliveryNote as note', (j) => j.onRef('note.id', '=', `${dl}.noteId`).onRef('note.companyId', '=', `${dl}.companyId`))
    .innerJoin('salesOrder as so', (j) => j.onRef('so.id', '=', 'note.orderId').onRef('so.companyId', '=', `${dl}.companyId`))
    .innerJoin('product', (j) => j.onRef('product.id', '=', `${dl}.productId`).onRef('product.companyId', '=', `${dl}.companyId`))
    .where('note.status', 'in', SHIPPED).where('note.clientId', '=', input.clientId)
    .where(sql<boolean>`${sql.ref(`${dl}.qty`)} > coalesce(${sql.ref(`${dl}.invoicedQty`)}, 0)`);
  if (input.currencyId) q = q.where('so.currencyId', '=', input.currencyId);
  if (input.orderId) q = q.where('so.id', '=', input.orderId);
  if (input.deliveryNoteId) q = q.where('note.id', '=', input.deliveryNoteId);
  const k = input.keyword?.trim();
  if (k) {
    const pattern = `%${k.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const op = ctx.database.dialect === 'postgres' ? 'ilike' : 'like';
    q = q.where((eb) => eb.or([eb('product.code', op, pattern), eb('product.name', op, pattern), eb('note.docNo', '=', k), eb('so.docNo', '=', k)]));
  }
  const counted = await q.select((eb) => eb.fn.countAll().as('total')).executeTakeFirst();
  const total = Number(counted?.total ?? 0);
  const offset = (input.page - 1) * input.pageSize;
  const rows = total > offset
    ? (await q
      .innerJoin('salesOrderLine as ol', (j) => j.onRef('ol.id', '=', `${dl}.orderLineId`).onRef('ol.companyId', '=', `${dl}.companyId`))
      .innerJoin('currency', (j) => j.onRef('currency.id', '=', 'so.currencyId').onRef('currency.companyId', '=', `${dl}.companyId`))
      .select([`${dl}.id`, `${dl}.noteId`, `${dl}.lineNo`, `${dl}.orderLineId`, `${dl}.productId`, `${dl}.qty`, `${dl}.invoicedQty`,
        'note.docNo as deliveryDocNo', 'note.deliveryDate', 'so.id as orderId', 'so.docNo as orderDocNo', 'so.currencyId', 'currency.code as currencyCode',
        'ol.lineNo as orderLineNo', 'ol.price', 'ol.discount', 'product.code as productCode', 'product.name as productName', 'product.specification',
        'product.bigQty', 'product.midQty', 'product.unitBig', 'product.unitMid', 'product.unitSmall'])
      .orderBy('note.id').orderBy(`${dl}.lineNo`).limit(input.pageSize).offset(offset).execute())
    : [];
  return {
    list: rows.map((r) => {
      const packs = { bigQty: Number(r.bigQty), midQty: Number(r.midQty), unitBig: text(r.unitBig), unitMid: text(r.unitMid), unitSmall: text(r.unitSmall) };
      const delivered = Number(r.qty);
      const invoiced = Number(r.invoicedQty ?? 0);
      const open = delivered - invoiced;
      const net = netPriceOf(r.price, r.discount);
      return {
        id: Number(r.id), deliveryLineId: Number(r.id), deliveryNoteId: Number(r.noteId), deliveryDocNo: String(r.deliveryDocNo), deliveryLineNo: Number(r.lineNo),
        deliveryDate: text(r.deliveryDate), orderId: Number(r.orderId), orderDocNo: String(r.orderDocNo), orderLineId: Number(r.orderLineId), orderLineNo: Number(r.orderLineNo),
        currencyId: Number(r.currencyId), currencyCode: String(r.currencyCode), productId: Number(r.productId), productCode: String(r.productCode),
        productName: String(r.productName), specification: text(r.specification), unitSmall: text(r.unitSmall),
        deliveredQty: delivered, invoicedQty: invoiced, openQty: open, openUnits: splitUnits(open, packs),
        price: priceText(net), openAmount: new Decimal(net).div(10 ** PRICE_SCALE).times(open).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2),
      };
    }),
    total, page: input.page, pageSize: input.pageSize,
  };
}

/**
 * Called by the cancellation of a posted delivery note, after it has claimed the note row: a note any of
 * whose lines is invoiced stays, naming the invoices.
 */
export async function refuseIfNoteInvoiced(untypedTenant: Tenant, noteId: number, noteDocNo: string): Promise<void> {
  const tenant = TypedTenant.of(untypedTenant);
  const invoiced = await tenant.select('deliveryNoteLine').select('id').where('noteId', '=', noteId).where('invoicedQty', '>', 0).limit(1).executeTakeFirst();
  if (!invoiced) return;
  const rows = await tenant.select('salesInvoiceLine')
    .innerJoin('salesInvoice', (j) => j.onRef('salesInvoice.id', '=', 'salesInvoiceLine.invoiceId').onRef('salesInvoice.companyId', '=', 'salesInvoiceLine.companyId'))
    .select('salesInvoice.docNo').distinct().where('salesInvoiceLine.deliveryNoteId', '=', noteId).where('salesInvoice.status', '=', 'posted')
    .orderBy('salesInvoice.docNo').limit(3).execute();
  const invoices = rows.map((r) => String(r.docNo));
  throw bizError('OUTBOUND_REVERSE_INVOICED_4179', { docNo: noteDocNo, invoices: invoices.join('、') }, { id: noteId, invoices });
}

/**
 * What the client's open orders still add to its exposure once invoices post receivables (the sales credit
 * check): per open order, its amount less what of it posted invoices already carry (those are in the
 * receivables), never below zero. Company currency, cents.
 */
export async function openOrderExposure(untypedTenant: Tenant, clientId: number, statuses: string[], exceptOrderId: number): Promise<number> {
  const tenant = TypedTenant.of(untypedTenant);
  const orders = await tenant.select('salesOrder').select(['id', 'totalAmountBase'])
    .where('clientId', '=', clientId).where('status', 'in', statuses).where('id', '!=', exceptOrderId).execute();
  if (!orders.length) return 0;
  const invoiced = new Map<number, number>();
  const ids = orders.map((o) => Number(o.id));
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await tenant.select('salesInvoiceLine')
      .innerJoin('salesInvoice', (j) => j.onRef('salesInvoice.id', '=', 'salesInvoiceLine.invoiceId').onRef('salesInvoice.companyId', '=', 'salesInvoiceLine.companyId'))
      .select(['salesInvoiceLine.orderId', (eb) => eb.fn.sum('salesInvoiceLine.amountBase').as('base')])
      .where('salesInvoice.status', '=', 'posted').where('salesInvoiceLine.orderId', 'in', ids.slice(i, i + 500)).groupBy('salesInvoiceLine.orderId').execute();
    for (const r of rows) invoiced.set(Number(r.orderId), Number(r.base ?? 0));
  }
  return orders.reduce((s, o) => s + Math.max(0, Number(o.totalAmountBase ?? 0) - (invoiced.get(Number(o.id)) ?? 0)), 0);
}

// ---------------------------------------------------------------------------------------------- the printed invoice

/** Everything the printable invoice (invoiceLook) shows: letterhead, client, lines, totals per tax rate, 大写. */
export async function invoicePrintData(ctx: CallContext, id: number) {
  const tenant = TypedTenant.of(ctx.tenant);
  const doc = await tenant.select('salesInvoice')
    .innerJoin('client', (j) => j.onRef('client.id', '=', 'salesInvoice.clientId').onRef('client.companyId', '=', 'salesInvoice.companyId'))
    .innerJoin('currency', (j) => j.onRef('currency.id', '=', 'salesInvoice.currencyId').onRef('currency.companyId', '=', 'salesInvoice.companyId'))
    .select(['salesInvoice.id', 'salesInvoice.docNo', 'salesInvoice.status', 'salesInvoice.invoiceNo', 'salesInvoice.invoiceDate', 'salesInvoice.dueDate', 'salesInvoice.companyRiseId',
      'salesInvoice.totalQty', 'salesInvoice.totalAmount', 'salesInvoice.taxAmount', 'salesInvoice.exchangeRate', 'salesInvoice.remark',
      'client.code as clientCode', 'client.name as clientName', 'client.address as clientAddress', 'client.phone as clientPhone', 'client.taxNo as clientTaxNo',
      'currency.code as currencyCode', 'currency.currencyName'])
    .where('salesInvoice.id', '=', id).executeTakeFirst();
  if (!doc) throw bizError('COMMON_NOT_FOUND_4004', { entity: SI_TITLE });
  const rise = doc.companyRiseId == null ? undefined : await tenant.select('companyRise')
    .select(['name', 'nameEn', 'taxNo', 'address', 'phone', 'bankName', 'bankAccount']).where('id', '=', Number(doc.companyRiseId)).executeTakeFirst();
  const company = await typed(ctx.db).selectFrom('company').select(['name']).where('id', '=', tenant.companyId).executeTakeFirst();
  const lines = await tenant.select('salesInvoiceLine')
    .innerJoin('product', (j) => j.onRef('product.id', '=', 'salesInvoiceLine.productId').onRef('product.companyId', '=', 'salesInvoiceLine.companyId'))
    .select(['salesInvoiceLine.lineNo', 'salesInvoiceLine.qty', 'salesInvoiceLine.price', 'salesInvoiceLine.taxRate', 'salesInvoiceLine.amount', 'salesInvoiceLine.taxAmount',
      'product.code', 'product.name', 'product.specification', 'product.unitSmall'])
    .where('salesInvoiceLine.invoiceId', '=', id).orderBy('salesInvoiceLine.lineNo').execute();
  const perRate = totalsPerRate(lines.map((l) => ({ taxRate: Number(l.taxRate ?? 0), amount: Number(l.amount) })));
  const rateText = (r: number) => `${new Decimal(r).div(100).toString()}%`;
  const total = Number(doc.totalAmount);
  const sellerName = text(rise?.name) ?? text(company?.name) ?? '';
  const statusText: Record<string, string> = { draft: '草稿', posted: '已过账', cancelled: '已作废' };
  return {
    id, title: `${sellerName} 销售发票`, docNo: String(doc.docNo), status: String(doc.status), statusText: statusText[String(doc.status)] ?? String(doc.status), invoiceNo: text(doc.invoiceNo), invoiceDate: text(doc.invoiceDate), dueDate: text(doc.dueDate), remark: text(doc.remark),
    seller: {
      name: sellerName, nameEn: text(rise?.nameEn), taxNo: text(rise?.taxNo), address: text(rise?.address), phone: text(rise?.phone),
      bank: [text(rise?.bankName), text(rise?.bankAccount)].filter(Boolean).join(' ') || null,
    },
    buyer: { code: String(doc.clientCode), name: String(doc.clientName), taxNo: text(doc.clientTaxNo), address: text(doc.clientAddress), phone: text(doc.clientPhone) },
    currencyCode: String(doc.currencyCode), currencyName: text(doc.currencyName),
    lines: lines.map((l) => ({
      lineNo: Number(l.lineNo), productCode: String(l.code), productName: String(l.name), specification: text(l.specification), unit: text(l.unitSmall),
      qty: Number(l.qty), price: priceText(l.price), taxRate: rateText(Number(l.taxRate ?? 0)), amount: moneyText(l.amount),
      taxAmount: moneyText(taxOf(Number(l.amount), Number(l.taxRate ?? 0))), netAmount: moneyText(Number(l.amount) - taxOf(Number(l.amount), Number(l.taxRate ?? 0))),
    })),
    perRate: perRate.map((r) => ({ taxRate: rateText(r.taxRate), amount: moneyText(r.amount), tax: moneyText(r.tax), net: moneyText(r.net) })),
    totalQty: Number(doc.totalQty), totalAmount: moneyText(total), taxAmount: moneyText(doc.taxAmount), netAmount: moneyText(total - Number(doc.taxAmount)),
    totalCapital: rmbCapital(total),
  };
}

/** Posted sales invoices as select options (the red invoice's 原销售发票), newest first, by number or client. */
export async function postedInvoiceOptions(ctx: CallContext, input: { keyword?: string | null }) {
  let q = TypedTenant.of(ctx.tenant).select('salesInvoice')
    .innerJoin('client', (j) => j.onRef('client.id', '=', 'salesInvoice.clientId').onRef('client.companyId', '=', 'salesInvoice.companyId'))
    .select(['salesInvoice.id', 'salesInvoice.docNo', 'salesInvoice.totalAmount', 'salesInvoice.creditedAmount', 'client.name as clientName'])
    .where('salesInvoice.status', '=', 'posted');
  const k = input.keyword?.trim();
  if (k) {
    const pattern = `%${k.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const op = ctx.database.dialect === 'postgres' ? 'ilike' : 'like';
    q = q.where((eb) => eb.or([eb('salesInvoice.docNo', op, pattern), eb('client.name', op, pattern)]));
  }
  const rows = await q.orderBy('salesInvoice.id', 'desc').limit(500).execute();
  return rows.map((r) => ({ id: Number(r.id), label: `${String(r.docNo)} ${String(r.clientName)} ${moneyText(r.totalAmount)}`, code: String(r.docNo) }));
}

/** The chain below an invoice: the receipts allocated to its receivable (red invoices link by their header). */
export async function invoiceChainDown(ctx: CallContext, doc: Row): Promise<Array<{ type: string; ids: number[] }>> {
  const rows = await TypedTenant.of(ctx.tenant).select('financeAllocation')
    .innerJoin('openItem', (j) => j.onRef('openItem.id', '=', 'financeAllocation.itemId').onRef('openItem.companyId', '=', 'financeAllocation.companyId'))
    .select('financeAllocation.paymentId').distinct()
    .where('openItem.sourceType', '=', 'salesInvoice').where('openItem.sourceId', '=', Number(doc.id)).where('financeAllocation.kind', '=', 'allocate')
    .execute();
  return [{ type: 'payDocument', ids: rows.map((r) => Number(r.paymentId)).filter((n) => n > 0) }];
}
