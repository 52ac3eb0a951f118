// Purchase invoices (采购发票, `purchase_invoice` + lines), DESIGN §4.4: a supplier's invoice matched to
// posted receiving-note lines of that supplier. draft → posted → cancelled (a draft can be cancelled too).
// Posting, in one transaction:
//  1. the invoice's status (conditional UPDATE draft → posted);
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
import crypto from 'node:crypto';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { splitUnits } from '../../../core/stock-units.ts';
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import type { DB } from '../../db/connection.ts';
import { fileDate, xlsxDownload, type XlsxCell } from '../../files/xlsx.ts';
import type { FileResponse } from '../../http/file-response.ts';
import { ApiError, bizError, validationError, type FieldError } from '../../http/errors.ts';
import { decimalOf } from '../../resources/fields.ts';
import { nextDocumentNo } from '../sequence.ts';
import { insertMany } from '../../db/raw-sql.ts';
import {
  packQtyProps, DOC_STATUS, moneyText, parseDay, PRICE_SCALE, priceText, rateOn, rateText, refusal, text, today, tz, newestFirstPage, namedRows, type DocStatus, type Row, PAGING_PROPS,
} from './common.ts';
import { applyInvoiceStock, movesOf } from './invoice-stock.ts';
import { lineQty } from './purchase-order.ts';

export const PI_TITLE = '采购发票';
export const PI_PREFIX = 'FP';
const MAX_LINES = 2000;
const MAX_PRICE = new Decimal('1000000000');
const PAYABLE_STATUS = { open: '未结清', cancelled: '已作废' } as const;

export const PI_SAVE_INPUT: InputSchema = {
  type: 'object',
  required: ['supplierId', 'invoiceNo', 'lines'],
  properties: {
    id: { type: 'integer', minimum: 1, title: '采购发票' },
    version: { type: 'integer', minimum: 1, title: '版本' },
    supplierId: { type: 'integer', minimum: 1, title: '供应商' },
    currencyId: { type: ['integer', 'null'], minimum: 1, title: '币种' },
    invoiceNo: { type: 'string', maxLength: 50, title: '发票号' },
    invoiceDate: { type: ['string', 'null'], maxLength: 10, title: '发票日期' },
    dueDate: { type: ['string', 'null'], maxLength: 10, title: '付款到期日' },
    companyRiseId: { type: ['integer', 'null'], minimum: 1, title: '公司抬头' },
    taxRate: { type: ['string', 'number', 'null'], maxLength: 10, title: '税率（%）' },
    remark: { type: ['string', 'null'], maxLength: 500, title: '备注' },
    post: { type: 'boolean', default: false, title: '保存后立即过账' },
    lines: {
      type: 'array', minItems: 1, maxItems: MAX_LINES, title: '明细',
      items: {
        type: 'object', required: ['receivingLineId'],
        properties: {
          receivingLineId: { type: 'integer', minimum: 1, title: '收货明细' },
          ...packQtyProps('qty', '开票数量'),
          price: { type: ['string', 'number', 'null'], maxLength: 30, title: '单价' },
          remark: { type: ['string', 'null'], maxLength: 200, title: '备注' },
        },
      },
    },
  },
};

export const PI_LIST_INPUT: InputSchema = {
  type: 'object',
  properties: {
    ...PAGING_PROPS,
    docNo: { type: ['string', 'null'], maxLength: 50, title: '单号或发票号' },
    supplierId: { type: ['integer', 'null'], minimum: 1, title: '供应商' },
    status: { enum: [...Object.keys(DOC_STATUS), null], title: '状态' },
    dateFrom: { type: ['string', 'null'], maxLength: 10, title: '开始日期' },
    dateTo: { type: ['string', 'null'], maxLength: 10, title: '结束日期' },
    // the list screen's date-range filter: [from, to]
    invoiceDate: { type: ['array', 'null'], maxItems: 2, items: { type: ['string', 'null'], maxLength: 10 }, title: '发票日期' },
  },
};

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

export interface PiLineInput {
  receivingLineId: number;
  qty?: number | null;
  big?: number | null;
  mid?: number | null;
  small?: number | null;
  price?: string | number | null;
  remark?: string | null;
}

export interface PiSaveInput {
  id?: number;
  version?: number;
  supplierId: number;
  currencyId?: number | null;
  invoiceNo: string;
  invoiceDate?: string | null;
  dueDate?: string | null;
  companyRiseId?: number | null;
  taxRate?: string | number | null;
  remark?: string | null;
  post?: boolean;
  lines: PiLineInput[];
}

export interface PiListInput {
  page: number;
  pageSize: number;
  docNo?: string | null;
  supplierId?: number | null;
  status?: DocStatus | null;
  dateFrom?: string | null;
  dateTo?: string | null;
  invoiceDate?: Array<string | null> | null;
}

export interface PiLinesInput {
  page: number;
  pageSize: number;
  supplierId: number;
  currencyId?: number | null;
  orderId?: number | null;
  receivingNoteId?: number | null;
  keyword?: string | null;
}

export interface PiResult {
  id: number;
  docNo: string;
  status: DocStatus;
  version: number;
  totalQty: number;
  totalAmount: string;
  taxAmount: string;
}

interface CheckedLine {
  receivingLineId: number;
  receivingNoteId: number;
  orderLineId: number;
  orderId: number;
  productId: number;
  qty: number;
  price: number;
  amount: number;
  remark: string | null;
}

/** A day plus n days, both YYYY-MM-DD. */
function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/** Tax rate as entered in percent ('13', '6.5') → percent × 100; blank → 0. */
function parseTaxRate(v: string | number | null | undefined): number {
  if (v === null || v === undefined || String(v).trim() === '') return 0;
  const d = decimalOf(v);
  const bad = (message: string) => validationError([{ field: 'taxRate', message }]);
  if (!d) throw bad('税率必须是数字');
  if (d.isNegative() || d.greaterThan(100)) throw bad('税率必须在 0 到 100 之间');
  if (d.decimalPlaces() > 2) throw bad('税率最多 2 位小数');
  return d.times(100).toNumber();
}

/** The tax inside a tax-inclusive total (cents), half-up to the cent. */
function taxOf(totalCents: number, rate: number): number {
  if (!rate) return 0;
  return new Decimal(totalCents).times(rate).div(10_000 + rate).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
}

/** An amount (cents, document currency) in the company's base currency at a rate × 10^6. */
const baseCents = (amount: number, rate: number) => new Decimal(amount).times(rate).div(1_000_000).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();

/** Receiving lines with their note, order, order line, currency and product, by id. */
async function receivingLinesOf(tenant: Tenant, ids: number[]): Promise<Map<number, Row>> {
  const out = new Map<number, Row>();
  const rl = 'receivingNoteLine';
  for (let i = 0; i < ids.length; i += 500) {
    const rows = (await tenant.select(rl)
      .innerJoin('receivingNote as note', (j) => j.onRef('note.id', '=', `${rl}.noteId`).onRef('note.companyId', '=', `${rl}.companyId`))
      .innerJoin('purchaseOrder as po', (j) => j.onRef('po.id', '=', 'note.orderId').onRef('po.companyId', '=', `${rl}.companyId`))
      .innerJoin('purchaseOrderLine as ol', (j) => j.onRef('ol.id', '=', `${rl}.orderLineId`).onRef('ol.companyId', '=', `${rl}.companyId`))
      .innerJoin('currency', (j) => j.onRef('currency.id', '=', 'po.currencyId').onRef('currency.companyId', '=', `${rl}.companyId`))
      .innerJoin('product', (j) => j.onRef('product.id', '=', `${rl}.productId`).onRef('product.companyId', '=', `${rl}.companyId`))
      .select([`${rl}.id`, `${rl}.noteId`, `${rl}.lineNo`, `${rl}.orderLineId`, `${rl}.productId`, `${rl}.qty`, `${rl}.invoicedQty`,
        'note.docNo as noteDocNo', 'note.status as noteStatus', 'po.id as orderId', 'po.docNo as orderDocNo', 'po.supplierId', 'po.currencyId',
        'currency.code as currencyCode', 'ol.price as orderPrice', 'product.code', 'product.bigQty', 'product.midQty', 'product.unitBig', 'product.unitMid'])
      .where(`${rl}.id`, 'in', ids.slice(i, i + 500)).execute()) as Row[];
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

async function checkInvoice(ctx: CallContext, input: PiSaveInput) {
  const tenant = ctx.tenant;
  const supplier = (await tenant.select('supplier').select(['id', 'name', 'paymentDays']).where('id', '=', input.supplierId).executeTakeFirst()) as Row | undefined;
  if (!supplier) throw validationError([{ field: 'supplierId', message: '供应商不存在' }]);
  const invoiceNo = input.invoiceNo.trim();
  if (!invoiceNo) throw validationError([{ field: 'invoiceNo', message: '发票号不能为空' }]);
  const invoiceDate = parseDay(input.invoiceDate, 'invoiceDate', '发票日期') ?? today(ctx);
  const dueDate = parseDay(input.dueDate, 'dueDate', '付款到期日') ?? addDays(invoiceDate, Math.max(0, Number(supplier.paymentDays ?? 0)));
  if (dueDate < invoiceDate) throw validationError([{ field: 'dueDate', message: '付款到期日不能早于发票日期' }]);
  const taxRate = parseTaxRate(input.taxRate);
  if (input.companyRiseId) {
    const rise = (await tenant.select('companyRise').select(['id', 'enabled']).where('id', '=', input.companyRiseId).executeTakeFirst()) as Row | undefined;
    if (!rise) throw validationError([{ field: 'companyRiseId', message: '公司抬头不存在' }]);
    if (Number(rise.enabled) !== 1) throw validationError([{ field: 'companyRiseId', message: '公司抬头已停用' }]);
  }

  const found = await receivingLinesOf(tenant, [...new Set(input.lines.map((l) => l.receivingLineId))]);
  const missing = input.lines.flatMap((l, i) => (found.has(l.receivingLineId) ? [] : [{ field: `lines.${i}.receivingLineId`, message: `第 ${i + 1} 行：收货明细不存在` }]));
  if (missing.length) throw validationError(missing.slice(0, 200));
  // The currency: as given, else the one of the first matched order (an invoice is in one currency).
  const first = input.lines.map((l) => found.get(l.receivingLineId)).find((r) => r);
  const currencyId = input.currencyId ?? (first ? Number(first.currencyId) : undefined);
  if (!currencyId) throw validationError([{ field: 'currencyId', message: '币种不能为空' }]);
  const currency = (await tenant.select('currency').select(['id', 'code', 'enabled']).where('id', '=', currencyId).executeTakeFirst()) as Row | undefined;
  if (!currency) throw validationError([{ field: 'currencyId', message: '币种不存在' }]);
  if (Number(currency.enabled) !== 1) throw validationError([{ field: 'currencyId', message: '币种已停用' }]);
  const { rate, rateDate } = await rateOn(tenant, currencyId, invoiceDate);

  const errors: FieldError[] = [];
  const lines: CheckedLine[] = [];
  const seen = new Set<number>();
  input.lines.forEach((l, i) => {
    const err = (f: string, message: string) => errors.push({ field: `lines.${i}.${f}`, message: `第 ${i + 1} 行：${message}` });
    const rl = found.get(l.receivingLineId);
    if (!rl) { err('receivingLineId', '收货明细不存在'); return; }
    if (rl.noteStatus !== 'posted' || Number(rl.supplierId) !== input.supplierId) throw notInvoiceable(i + 1, String(supplier.name), rl);
    if (Number(rl.currencyId) !== currencyId) { err('receivingLineId', `采购订单 ${String(rl.orderDocNo)} 的币种为 ${String(rl.currencyCode)}，与发票币种 ${String(currency.code)} 不一致`); return; }
    if (seen.has(l.receivingLineId)) { err('receivingLineId', `收货单 ${String(rl.noteDocNo)} 第 ${Number(rl.lineNo)} 行重复，请合并为一行`); return; }
    seen.add(l.receivingLineId);
    const qty = lineQty(l, rl, { line: i + 1, productId: Number(rl.productId) });
    if (qty === undefined) { err('qty', l.qty == null && l.big == null && l.mid == null && l.small == null ? '开票数量不能为空' : '开票数量超出范围'); return; }
    if (qty <= 0) { err('qty', '开票数量必须大于 0'); return; }
    // Early, friendly check; posting enforces it again with a conditional update.
    if (qty > Number(rl.qty) - Number(rl.invoicedQty)) throw overInvoiced(i + 1, rl, qty);
    let price: Decimal | undefined;
    if (l.price === null || l.price === undefined || String(l.price).trim() === '') price = new Decimal(String(rl.orderPrice)).div(10 ** PRICE_SCALE);
    else {
      price = decimalOf(l.price);
      if (!price) { err('price', '单价必须是数字'); return; }
      if (price.isNegative()) { err('price', '单价不能小于 0'); return; }
      if (price.greaterThan(MAX_PRICE)) { err('price', `单价不能大于 ${MAX_PRICE.toFixed()}`); return; }
      if (price.decimalPlaces() > PRICE_SCALE) { err('price', `单价最多 ${PRICE_SCALE} 位小数`); return; }
    }
    const amount = price.times(qty).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).times(100);
    if (amount.greaterThan(Number.MAX_SAFE_INTEGER / 1000)) { err('qty', '金额超出范围'); return; }
    lines.push({
      receivingLineId: l.receivingLineId, receivingNoteId: Number(rl.noteId), orderLineId: Number(rl.orderLineId), orderId: Number(rl.orderId),
      productId: Number(rl.productId), qty, price: price.times(10 ** PRICE_SCALE).toNumber(), amount: amount.toNumber(), remark: l.remark ?? null,
    });
  });
  if (errors.length) throw validationError(errors.slice(0, 200));
  const totalQty = lines.reduce((s, l) => s + l.qty, 0);
  const totalAmount = lines.reduce((s, l) => s + l.amount, 0);
  if (!Number.isSafeInteger(totalQty) || totalAmount > Number.MAX_SAFE_INTEGER / 1000) throw validationError([{ field: 'lines', message: '合计超出范围' }]);
  return {
    supplier,
    header: {
      supplierId: input.supplierId, currencyId, exchangeRate: rate, rateDate, invoiceNo, invoiceDate, dueDate, companyRiseId: input.companyRiseId ?? null,
      taxRate, remark: input.remark ?? null, lineCount: lines.length, totalQty, totalAmount, taxAmount: taxOf(totalAmount, taxRate),
    },
    lines,
  };
}

function isUniqueViolation(e: unknown): boolean {
  const code = (e as { code?: string }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** The supplier's invoice number is already on another invoice that is not cancelled. */
async function invoiceNoTaken(tenant: Tenant, supplier: Row, invoiceNo: string, exceptId?: number): Promise<ApiError | undefined> {
  let q = tenant.select('purchaseInvoice').select(['id', 'docNo']).where('supplierId', '=', Number(supplier.id)).where('invoiceNo', '=', invoiceNo).where('status', '!=', 'cancelled');
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  const other = (await q.executeTakeFirst()) as Row | undefined;
  if (!other) return undefined;
  return bizError('PURCHASE_INVOICE_NO_TAKEN_4103', { supplier: String(supplier.name), invoiceNo, docNo: String(other.docNo) }, { id: Number(other.id), docNo: String(other.docNo) });
}

/** Posting steps 2–5 (the invoice's status is already changed by the caller). */
async function applyInvoice(ctx: CallContext, db: DB, tenant: Tenant, id: number): Promise<void> {
  const head = (await tenant.select('purchaseInvoice').innerJoin('supplier', (j) => j.onRef('supplier.id', '=', 'purchaseInvoice.supplierId'))
    .select(['purchaseInvoice.docNo', 'purchaseInvoice.supplierId', 'purchaseInvoice.currencyId', 'purchaseInvoice.exchangeRate', 'purchaseInvoice.totalAmount',
      'purchaseInvoice.dueDate', 'supplier.name as supplierName'])
    .where('purchaseInvoice.id', '=', id).executeTakeFirstOrThrow()) as Row;
  const lines = ((await tenant.select('purchaseInvoiceLine').select(['lineNo', 'receivingLineId', 'receivingNoteId', 'productId', 'qty', 'amount'])
    .where('invoiceId', '=', id).orderBy('lineNo').execute()) as Row[])
    .map((r) => ({ lineNo: Number(r.lineNo), receivingLineId: Number(r.receivingLineId), receivingNoteId: Number(r.receivingNoteId), productId: Number(r.productId), qty: Number(r.qty), amount: Number(r.amount) }));
  const now = new Date().toISOString();
  const lineOf = (pick: (l: (typeof lines)[number]) => boolean) => lines.find(pick)!.lineNo;
  for (const noteId of [...new Set(lines.map((l) => l.receivingNoteId))].sort((a, b) => a - b)) {
    const claimed = await tenant.update('receivingNote').set({ updatedAt: now }).where('id', '=', noteId).where('status', '=', 'posted').returning('id').executeTakeFirst();
    if (!claimed) {
      const line = lineOf((l) => l.receivingNoteId === noteId);
      const rl = (await receivingLinesOf(tenant, [lines.find((l) => l.lineNo === line)!.receivingLineId])).values().next().value;
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
      const rl = (await receivingLinesOf(tenant, [lineId])).get(lineId);
      if (!rl) throw bizError('COMMON_NOT_FOUND_4004', { entity: '收货明细' });
      throw overInvoiced(lineOf((l) => l.receivingLineId === lineId), rl, d);
    }
  }
  const rate = Number(head.exchangeRate);
  await tenant.insert('supplierPayable', {
    supplierId: Number(head.supplierId), invoiceId: id, currencyId: Number(head.currencyId), exchangeRate: rate, amount: Number(head.totalAmount), paidAmount: 0,
    dueDate: String(head.dueDate), status: 'open', version: 1, createdAt: now, createdBy: ctx.caller!.accountId, updatedAt: now, updatedBy: ctx.caller!.accountId,
  }).execute();
  await applyInvoiceStock(db, tenant.companyId, ctx.caller!.accountId, 'invoice', id, String(head.docNo),
    lines.map((l) => ({ productId: l.productId, qty: l.qty, amount: baseCents(l.amount, rate), docLine: l.lineNo })));
}

/** Creates or updates a draft (lines are replaced); with `post`, posts it in the same transaction. */
export async function saveInvoice(ctx: CallContext, input: PiSaveInput): Promise<PiResult> {
  const caller = ctx.caller!;
  if (input.id !== undefined && input.version === undefined) throw validationError([{ field: 'version', message: '版本不能为空，请刷新后重试' }]);
  const { supplier, header, lines } = await checkInvoice(ctx, input);
  const taken = await invoiceNoTaken(ctx.tenant, supplier, header.invoiceNo, input.id);
  if (taken) throw taken;
  const post = input.post === true;
  const now = new Date().toISOString();
  try {
    return await ctx.transaction(async (db, tenant) => {
      const values: Row = { ...header, ...(post ? { status: 'posted', postedAt: now, postedBy: caller.accountId } : {}), updatedAt: now, updatedBy: caller.accountId };
      let id: number;
      let docNo = '';
      let version = 1;
      if (input.id !== undefined) {
        const updated = (await tenant.update('purchaseInvoice').set({ ...values, version: sql`${sql.ref('version')} + 1` })
          .where('id', '=', input.id).where('status', '=', 'draft').where('version', '=', input.version!).returning(['id', 'docNo', 'version']).executeTakeFirst()) as Row | undefined;
        if (!updated) throw await refusal(tenant, 'purchaseInvoice', PI_TITLE, DOC_STATUS, input.id, input.version, ['draft'], '修改');
        id = Number(updated.id);
        docNo = String(updated.docNo);
        version = Number(updated.version);
        await tenant.delete('purchaseInvoiceLine').where('invoiceId', '=', id).execute();
      } else {
        const inserted = (await tenant.insert('purchaseInvoice', {
          ...values, docNo: `~${Date.now().toString(36)}${crypto.randomBytes(6).toString('hex')}`, status: values.status ?? 'draft', version: 1, createdAt: now, createdBy: caller.accountId,
        }).returning('id').executeTakeFirstOrThrow()) as Row;
        id = Number(inserted.id);
      }
      if (!docNo) {
        docNo = await nextDocumentNo(db, tenant.companyId, PI_PREFIX, tz(ctx));
        await tenant.update('purchaseInvoice').set({ docNo }).where('id', '=', id).execute();
      }
      await insertMany(db, 'purchase_invoice_line',
        ['company_id', 'invoice_id', 'line_no', 'receiving_line_id', 'receiving_note_id', 'order_line_id', 'order_id', 'product_id', 'qty', 'price', 'amount', 'remark'],
        lines.map((l, i) => [tenant.companyId, id, i + 1, l.receivingLineId, l.receivingNoteId, l.orderLineId, l.orderId, l.productId, l.qty, l.price, l.amount, l.remark]));
      if (post) await applyInvoice(ctx, db, tenant, id);
      await ctx.audit({
        action: input.id !== undefined ? 'update' : 'create', entity: 'purchaseInvoice', recordId: id, recordLabel: docNo,
        changes: [
          { field: 'supplierId', title: '供应商', from: null, to: String(supplier.name) },
          { field: 'invoiceNo', title: '发票号', from: null, to: header.invoiceNo },
          { field: 'totalQty', title: '数量合计', from: null, to: header.totalQty },
          { field: 'totalAmount', title: '金额合计', from: null, to: moneyText(header.totalAmount) },
        ],
      }, db);
      if (post) await ctx.audit({ action: 'post', entity: 'purchaseInvoice', recordId: id, recordLabel: docNo, changes: [{ field: 'status', title: '状态', from: DOC_STATUS.draft, to: DOC_STATUS.posted }] }, db);
      return { id, docNo, status: post ? 'posted' : 'draft', version, totalQty: header.totalQty, totalAmount: moneyText(header.totalAmount), taxAmount: moneyText(header.taxAmount) };
    });
  } catch (e) {
    // Two invoices with one supplier number passed the check at once; the partial unique index stopped one.
    if (isUniqueViolation(e)) throw (await invoiceNoTaken(ctx.tenant, supplier, header.invoiceNo, input.id)) ?? e;
    throw e;
  }
}

function resultOf(doc: Row, status: DocStatus, id: number): PiResult {
  return { id, docNo: String(doc.docNo), status, version: Number(doc.version), totalQty: Number(doc.totalQty), totalAmount: moneyText(doc.totalAmount), taxAmount: moneyText(doc.taxAmount) };
}

export async function postInvoice(ctx: CallContext, input: { id: number; version?: number }): Promise<PiResult> {
  const caller = ctx.caller!;
  const now = new Date().toISOString();
  return ctx.transaction(async (db, tenant) => {
    let q = tenant.update('purchaseInvoice').set({ status: 'posted', postedAt: now, postedBy: caller.accountId, updatedAt: now, updatedBy: caller.accountId, version: sql`${sql.ref('version')} + 1` })
      .where('id', '=', input.id).where('status', '=', 'draft');
    if (input.version !== undefined) q = q.where('version', '=', input.version);
    const doc = (await q.returning(['id', 'docNo', 'version', 'totalQty', 'totalAmount', 'taxAmount']).executeTakeFirst()) as Row | undefined;
    if (!doc) throw await refusal(tenant, 'purchaseInvoice', PI_TITLE, DOC_STATUS, input.id, input.version, ['draft'], '过账');
    await applyInvoice(ctx, db, tenant, input.id);
    await ctx.audit({ action: 'post', entity: 'purchaseInvoice', recordId: input.id, recordLabel: String(doc.docNo), changes: [{ field: 'status', title: '状态', from: DOC_STATUS.draft, to: DOC_STATUS.posted }] }, db);
    return resultOf(doc, 'posted', input.id);
  });
}

export async function cancelInvoice(ctx: CallContext, input: { id: number; version?: number }): Promise<PiResult> {
  const caller = ctx.caller!;
  const now = new Date().toISOString();
  return ctx.transaction(async (db, tenant) => {
    const change = (from: DocStatus) => {
      let q = tenant.update('purchaseInvoice').set({ status: 'cancelled', cancelledAt: now, cancelledBy: caller.accountId, updatedAt: now, updatedBy: caller.accountId, version: sql`${sql.ref('version')} + 1` })
        .where('id', '=', input.id).where('status', '=', from);
      if (input.version !== undefined) q = q.where('version', '=', input.version);
      return q.returning(['id', 'docNo', 'version', 'totalQty', 'totalAmount', 'taxAmount']).executeTakeFirst() as Promise<Row | undefined>;
    };
    let from: DocStatus = 'draft';
    let doc = await change('draft');
    if (!doc) { from = 'posted'; doc = await change('posted'); }
    if (!doc) throw await refusal(tenant, 'purchaseInvoice', PI_TITLE, DOC_STATUS, input.id, input.version, ['draft', 'posted'], '作废');
    const docNo = String(doc.docNo);
    if (from === 'posted') {
      // The payable goes first: once anything is paid the invoice stands.
      const payable = await tenant.update('supplierPayable').set({ status: 'cancelled', cancelledAt: now, cancelledBy: caller.accountId, updatedAt: now, updatedBy: caller.accountId, version: sql`${sql.ref('version')} + 1` })
        .where('invoiceId', '=', input.id).where('status', '=', 'open').where('paidAmount', '=', 0).returning('id').executeTakeFirst();
      if (!payable) {
        const p = (await tenant.select('supplierPayable').select(['paidAmount', 'status']).where('invoiceId', '=', input.id).executeTakeFirst()) as Row | undefined;
        if (p && Number(p.paidAmount) !== 0) throw bizError('PURCHASE_INVOICE_PAID_4104', { docNo, paid: moneyText(p.paidAmount) }, { id: input.id, paidAmount: moneyText(p.paidAmount) });
        throw new Error(`purchase invoice ${input.id}: no open payable to cancel (${String(p?.status)})`);
      }
      const per = new Map<number, number>();
      for (const r of (await tenant.select('purchaseInvoiceLine').select(['receivingLineId', 'qty']).where('invoiceId', '=', input.id).execute()) as Row[]) {
        per.set(Number(r.receivingLineId), (per.get(Number(r.receivingLineId)) ?? 0) + Number(r.qty));
      }
      for (const [lineId, d] of [...per.entries()].sort((a, b) => a[0] - b[0])) {
        const ok = await tenant.update('receivingNoteLine').set({ invoicedQty: sql`${sql.ref('invoicedQty')} - ${d}` })
          .where('id', '=', lineId).where('invoicedQty', '>=', d).returning('id').executeTakeFirst();
        if (!ok) throw new Error(`purchase invoice ${input.id}: receiving line ${lineId} has less invoiced than the invoice`);
      }
      const moves = await movesOf(db, tenant.companyId, input.id);
      await applyInvoiceStock(db, tenant.companyId, caller.accountId, 'reverse', input.id, docNo, moves.map((m) => ({ ...m, qty: -m.qty, amount: -m.amount })));
    }
    await ctx.audit({ action: 'cancel', entity: 'purchaseInvoice', recordId: input.id, recordLabel: docNo, changes: [{ field: 'status', title: '状态', from: DOC_STATUS[from], to: DOC_STATUS.cancelled }] }, db);
    return resultOf(doc, 'cancelled', input.id);
  });
}

// ---------------------------------------------------------------------------------------------- reads

function headerView(r: Row) {
  const status = String(r.status) as DocStatus;
  const payableStatus = r.payableStatus == null ? null : String(r.payableStatus);
  const total = Number(r.totalAmount);
  const tax = Number(r.taxAmount);
  return {
    id: Number(r.id), docNo: String(r.docNo), docType: 'purchaseInvoice', status, statusText: DOC_STATUS[status] ?? status,
    invoiceNo: String(r.invoiceNo), invoiceDate: String(r.invoiceDate), dueDate: String(r.dueDate),
    supplierId: Number(r.supplierId), supplierCode: text(r.supplierCode), supplierName: text(r.supplierName),
    currencyId: Number(r.currencyId), currencyCode: text(r.currencyCode), currencyName: text(r.currencyName),
    exchangeRate: rateText(r.exchangeRate), rateDate: text(r.rateDate),
    companyRiseId: r.companyRiseId == null ? null : Number(r.companyRiseId), companyRiseName: text(r.companyRiseName),
    taxRate: new Decimal(String(r.taxRate ?? 0)).div(100).toFixed(2), remark: text(r.remark),
    lineCount: Number(r.lineCount), totalQty: Number(r.totalQty), totalAmount: moneyText(total), taxAmount: moneyText(tax), netAmount: moneyText(total - tax),
    totalAmountBase: moneyText(baseCents(total, Number(r.exchangeRate))),
    payableStatus, payableStatusText: payableStatus ? (PAYABLE_STATUS[payableStatus as keyof typeof PAYABLE_STATUS] ?? payableStatus) : null,
    paidAmount: r.paidAmount == null ? null : moneyText(r.paidAmount),
    version: Number(r.version), createdAt: text(r.createdAt), createdByName: text(r.createdByName), postedAt: text(r.postedAt), postedByName: text(r.postedByName),
    cancelledAt: text(r.cancelledAt), route: `/procurement/invoiceDetail/${Number(r.id)}`,
  };
}

function withNames(tenant: Tenant) {
  const h = 'purchaseInvoice';
  return tenant.select(h)
    .innerJoin('supplier', (j) => j.onRef('supplier.id', '=', `${h}.supplierId`).onRef('supplier.companyId', '=', `${h}.companyId`))
    .innerJoin('currency', (j) => j.onRef('currency.id', '=', `${h}.currencyId`).onRef('currency.companyId', '=', `${h}.companyId`))
    .leftJoin('companyRise', (j) => j.onRef('companyRise.id', '=', `${h}.companyRiseId`).onRef('companyRise.companyId', '=', `${h}.companyId`))
    .leftJoin('supplierPayable as payable', (j) => j.onRef('payable.invoiceId', '=', `${h}.id`).onRef('payable.companyId', '=', `${h}.companyId`))
    .leftJoin('account as creator', (j) => j.onRef('creator.id', '=', `${h}.createdBy`).onRef('creator.companyId', '=', `${h}.companyId`))
    .leftJoin('account as poster', (j) => j.onRef('poster.id', '=', `${h}.postedBy`).onRef('poster.companyId', '=', `${h}.companyId`))
    .selectAll(h)
    .select(['supplier.code as supplierCode', 'supplier.name as supplierName', 'currency.code as currencyCode', 'currency.currencyName',
      'companyRise.name as companyRiseName', 'payable.status as payableStatus', 'payable.paidAmount', 'creator.userName as createdByName', 'poster.userName as postedByName']);
}

/** One invoice with its lines (received, invoiced and still invoiceable quantities of each receiving line) and its payable. */
export async function getInvoice(ctx: CallContext, id: number) {
  const tenant = ctx.tenant;
  const doc = (await withNames(tenant).where('purchaseInvoice.id', '=', id).executeTakeFirst()) as Row | undefined;
  if (!doc) throw bizError('COMMON_NOT_FOUND_4004', { entity: PI_TITLE });
  const l = 'purchaseInvoiceLine';
  const lines = (await tenant.select(l)
    .innerJoin('receivingNoteLine as rl', (j) => j.onRef('rl.id', '=', `${l}.receivingLineId`).onRef('rl.companyId', '=', `${l}.companyId`))
    .innerJoin('receivingNote as note', (j) => j.onRef('note.id', '=', `${l}.receivingNoteId`).onRef('note.companyId', '=', `${l}.companyId`))
    .innerJoin('purchaseOrder as po', (j) => j.onRef('po.id', '=', `${l}.orderId`).onRef('po.companyId', '=', `${l}.companyId`))
    .innerJoin('purchaseOrderLine as ol', (j) => j.onRef('ol.id', '=', `${l}.orderLineId`).onRef('ol.companyId', '=', `${l}.companyId`))
    .innerJoin('product', (j) => j.onRef('product.id', '=', `${l}.productId`).onRef('product.companyId', '=', `${l}.companyId`))
    .select([`${l}.id`, `${l}.lineNo`, `${l}.receivingLineId`, `${l}.receivingNoteId`, `${l}.orderLineId`, `${l}.orderId`, `${l}.productId`, `${l}.qty`, `${l}.price`,
      `${l}.amount`, `${l}.remark`, 'rl.lineNo as receivingLineNo', 'rl.qty as receivedQty', 'rl.invoicedQty', 'note.docNo as receivingDocNo', 'po.docNo as orderDocNo',
      'ol.lineNo as orderLineNo', 'ol.price as orderPrice', 'product.code as productCode', 'product.name as productName', 'product.specification',
      'product.bigQty', 'product.midQty', 'product.unitBig', 'product.unitMid', 'product.unitSmall'])
    .where(`${l}.invoiceId`, '=', id).orderBy(`${l}.lineNo`).execute()) as Row[];
  const payable = (await tenant.select('supplierPayable').select(['id', 'amount', 'paidAmount', 'dueDate', 'status']).where('invoiceId', '=', id).executeTakeFirst()) as Row | undefined;
  return {
    ...headerView(doc),
    payable: payable ? {
      id: Number(payable.id), amount: moneyText(payable.amount), paidAmount: moneyText(payable.paidAmount), openAmount: moneyText(Number(payable.amount) - Number(payable.paidAmount)),
      dueDate: String(payable.dueDate), status: String(payable.status), statusText: PAYABLE_STATUS[String(payable.status) as keyof typeof PAYABLE_STATUS] ?? String(payable.status),
    } : null,
    lines: lines.map((r) => {
      const packs = { bigQty: Number(r.bigQty), midQty: Number(r.midQty), unitBig: text(r.unitBig), unitMid: text(r.unitMid), unitSmall: text(r.unitSmall) };
      const received = Number(r.receivedQty);
      const invoiced = Number(r.invoicedQty);
      return {
        id: Number(r.id), lineNo: Number(r.lineNo), receivingLineId: Number(r.receivingLineId), receivingNoteId: Number(r.receivingNoteId), receivingDocNo: String(r.receivingDocNo),
        receivingLineNo: Number(r.receivingLineNo), orderId: Number(r.orderId), orderDocNo: String(r.orderDocNo), orderLineId: Number(r.orderLineId), orderLineNo: Number(r.orderLineNo),
        productId: Number(r.productId), productCode: String(r.productCode), productName: String(r.productName), specification: text(r.specification), unitSmall: text(r.unitSmall),
        qty: Number(r.qty), units: splitUnits(Number(r.qty), packs), price: priceText(r.price), amount: moneyText(r.amount), orderPrice: priceText(r.orderPrice),
        receivedQty: received, invoicedQty: invoiced, openQty: Math.max(0, received - invoiced), remark: text(r.remark),
      };
    }),
  };
}

function listQuery(ctx: CallContext, input: Omit<PiListInput, 'page' | 'pageSize'>) {
  const from = parseDay(input.dateFrom ?? input.invoiceDate?.[0], 'dateFrom', '开始日期');
  const to = parseDay(input.dateTo ?? input.invoiceDate?.[1], 'dateTo', '结束日期');
  const h = 'purchaseInvoice';
  let q = ctx.tenant.select(h);
  const docNo = input.docNo?.trim().replace(/[\\%_]/g, '');
  if (docNo) q = q.where((eb) => eb.or([eb(`${h}.docNo`, 'like', `%${docNo}%`), eb(`${h}.invoiceNo`, 'like', `%${docNo}%`)]));
  if (input.supplierId) q = q.where(`${h}.supplierId`, '=', input.supplierId);
  if (input.status) q = q.where(`${h}.status`, '=', input.status);
  if (from) q = q.where(`${h}.invoiceDate`, '>=', from);
  if (to) q = q.where(`${h}.invoiceDate`, '<=', to);
  return q;
}

/** Newest first, with filters (number or supplier invoice number, supplier, status, invoice dates). */
export async function listInvoices(ctx: CallContext, input: PiListInput) {
  const where = listQuery(ctx, input);
  return newestFirstPage(where, 'purchaseInvoice.id', namedRows(withNames(ctx.tenant), 'purchaseInvoice.id'), headerView, input);
}

/** Posted receiving lines of a supplier with something left to invoice (the add screen's choices), oldest note first. */
export async function invoiceableLines(ctx: CallContext, input: PiLinesInput) {
  const tenant = ctx.tenant;
  const supplier = (await tenant.select('supplier').select(['id']).where('id', '=', input.supplierId).executeTakeFirst()) as Row | undefined;
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
  const counted = (await q.select((eb) => eb.fn.countAll().as('total')).executeTakeFirst()) as Row | undefined;
  const total = Number(counted?.total ?? 0);
  const offset = (input.page - 1) * input.pageSize;
  const rows = total > offset
    ? ((await q
      .innerJoin('purchaseOrderLine as ol', (j) => j.onRef('ol.id', '=', `${rl}.orderLineId`).onRef('ol.companyId', '=', `${rl}.companyId`))
      .innerJoin('currency', (j) => j.onRef('currency.id', '=', 'po.currencyId').onRef('currency.companyId', '=', `${rl}.companyId`))
      .select([`${rl}.id`, `${rl}.noteId`, `${rl}.lineNo`, `${rl}.orderLineId`, `${rl}.productId`, `${rl}.qty`, `${rl}.invoicedQty`,
        'note.docNo as receivingDocNo', 'note.postedAt', 'po.id as orderId', 'po.docNo as orderDocNo', 'po.currencyId', 'currency.code as currencyCode',
        'ol.lineNo as orderLineNo', 'ol.price', 'product.code as productCode', 'product.name as productName', 'product.specification',
        'product.bigQty', 'product.midQty', 'product.unitBig', 'product.unitMid', 'product.unitSmall'])
      .orderBy('note.id').orderBy(`${rl}.lineNo`).limit(input.pageSize).offset(offset).execute()) as Row[])
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
export async function exportInvoices(ctx: CallContext, input: Omit<PiListInput, 'page' | 'pageSize'>): Promise<FileResponse> {
  const ids = ((await listQuery(ctx, input).select('purchaseInvoice.id').orderBy('purchaseInvoice.id', 'desc').limit(20_000).execute()) as Row[]).map((r) => Number(r.id));
  return xlsxDownload(`采购发票_${fileDate(tz(ctx))}.xlsx`, async (book) => {
    const sheet = book.addSheet('采购发票', [
      { header: '单号', width: 18 }, { header: '状态', width: 10 }, { header: '发票号', width: 18 }, { header: '发票日期', width: 12 }, { header: '到期日', width: 12 },
      { header: '供应商', width: 24 }, { header: '币种', width: 8 }, { header: '汇率', width: 10 }, { header: '行号', width: 6 }, { header: '收货单', width: 18 },
      { header: '采购订单', width: 18 }, { header: '商品编码', width: 16 }, { header: '商品名称', width: 30 }, { header: '数量', width: 10 },
      { header: '单价', width: 12, numFmt: '0.0000' }, { header: '金额', width: 14, numFmt: '#,##0.00' }, { header: '备注', width: 30 },
    ]);
    for (const id of ids) {
      const inv = await getInvoice(ctx, id);
      for (const l of inv.lines) {
        sheet.addRow([inv.docNo, inv.statusText, inv.invoiceNo, inv.invoiceDate, inv.dueDate, inv.supplierName, inv.currencyName, Number(inv.exchangeRate), l.lineNo,
          l.receivingDocNo, l.orderDocNo, l.productCode, l.productName, l.qty, Number(l.price), Number(l.amount), inv.remark] as XlsxCell[]);
      }
      await book.drain();
    }
  });
}

/**
 * Called by the cancellation of a posted receiving note (receiving.ts), after it has claimed the note row:
 * a note any of whose lines is invoiced stays, naming the invoices.
 */
export async function refuseIfInvoiced(tenant: Tenant, noteId: number, noteDocNo: string): Promise<void> {
  const invoiced = await tenant.select('receivingNoteLine').select('id').where('noteId', '=', noteId).where('invoicedQty', '>', 0).limit(1).executeTakeFirst();
  if (!invoiced) return;
  const rows = (await tenant.select('purchaseInvoiceLine')
    .innerJoin('purchaseInvoice', (j) => j.onRef('purchaseInvoice.id', '=', 'purchaseInvoiceLine.invoiceId').onRef('purchaseInvoice.companyId', '=', 'purchaseInvoiceLine.companyId'))
    .select('purchaseInvoice.docNo').distinct().where('purchaseInvoiceLine.receivingNoteId', '=', noteId).where('purchaseInvoice.status', '=', 'posted')
    .orderBy('purchaseInvoice.docNo').limit(3).execute()) as Row[];
  const invoices = rows.map((r) => String(r.docNo));
  throw bizError('PURCHASE_RECEIVING_INVOICED_4106', { docNo: noteDocNo, invoices: invoices.join('、') }, { id: noteId, invoices });
}
