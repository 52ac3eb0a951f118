// 采购报表: what was ordered, received and invoiced over a date range, by supplier, product or month,
// in the company's base currency. Filters: dates, supplier, warehouse, one product (productId) or the
// products a typed code, barcode or part of a name finds (product: what a user types in the filter).
//   ordered  — lines of purchase orders past draft and not cancelled, by order date;
//   received — lines of posted receiving notes, by posting day (company time), valued at the order
//              line's price (qty × price, half up to cents, per line);
//   invoiced — lines of posted purchase invoices, by invoice date (amounts as invoiced, tax included).
// Each line's amount is converted at its document's rate (half up to cents, as invoice stock converts
// it), so every grouping adds up the same cents and the grand totals agree whichever way the report is
// grouped. The database does the integer arithmetic (PostgreSQL in numeric; SQLite in 64-bit integers,
// exact for line amounts below about 10^12 yuan).
import { sql, type RawBuilder } from 'kysely';
import { formatDate } from '../../../core/format.ts';
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import type { Dialect } from '../../db/connection.ts';
import { tz } from '../procurement/common.ts';
import { big, dayRange, Groups, labelsById, mustExist, reportPage, reportXlsx, type DayRange, type Grouping, type Measure, type ReportPaging, type Row } from './common.ts';
import { screenGroupings, reportInput } from './screen-groupings.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Q = any;

// The groupings (supplier, product, month) and their label columns are the screen schema's.
export const PURCHASE_GROUPINGS: Record<string, Grouping> = screenGroupings('reportForms/purchase_new');

export const PURCHASE_MEASURES: Measure[] = [
  { field: 'orderedQty', title: '订购数量', kind: 'qty' },
  { field: 'orderedAmount', title: '订购金额', kind: 'money' },
  { field: 'receivedQty', title: '收货数量', kind: 'qty' },
  { field: 'receivedAmount', title: '收货金额', kind: 'money' },
  { field: 'invoicedQty', title: '开票数量', kind: 'qty' },
  { field: 'invoicedAmount', title: '开票金额', kind: 'money' },
];

/** Orders that count as ordered: confirmed and on (received, closed); not drafts, not cancelled. */
const ORDERED_STATUSES = ['confirmed', 'partlyReceived', 'received', 'closed'];

export const PURCHASE_REPORT_INPUT: InputSchema = reportInput('reportForms/purchase_new', {
  supplierId: { type: ['integer', 'null'], minimum: 1, title: '供应商' },
  warehouseId: { type: ['integer', 'null'], minimum: 1, title: '仓库' },
  productId: { type: ['integer', 'null'], minimum: 1, title: '商品' },
  product: { type: ['string', 'null'], maxLength: 50, title: '商品' },
});

export interface PurchaseReportInput extends ReportPaging {
  groupBy: string;
  dateRange?: unknown;
  supplierId?: number | null;
  warehouseId?: number | null;
  productId?: number | null;
  product?: string | null;
}

/** One group's sums (or one day's, for months) as the database answers them. */
interface Sum {
  k?: unknown;
  day?: unknown;
  qty: unknown;
  amount: unknown;
}

/** Base-currency cents of a document-currency cents expression at the rate (× 10^6), half up. */
function toBase(dialect: Dialect, cents: RawBuilder<unknown>, rateRef: string): RawBuilder<unknown> {
  return dialect === 'postgres'
    ? sql`div(cast(${cents} as numeric) * ${sql.ref(rateRef)} + 500000, 1000000)`
    : sql`(${cents} * ${sql.ref(rateRef)} + 500000) / 1000000`;
}

/**
 * The products a typed condition finds — the code or barcode as typed, or part of the code or name — as
 * a subquery, so each measure's lines are narrowed inside the database and the totals stay exact.
 * Wildcards typed are taken as nothing (a lone "%" finds only a product coded "%").
 */
export function productsTyped(tenant: Tenant, typed: string): Q {
  // parts match whatever the case, on both databases (PostgreSQL's like is case-sensitive, SQLite's not)
  const part = typed.replace(/[\\%_]/g, '').toLowerCase();
  return tenant.select('product').select('product.id').where((eb: Q) => eb.or([
    eb('product.code', '=', typed), eb('product.barcode', '=', typed),
    ...(part ? [eb(eb.fn('lower', ['product.code']), 'like', `%${part}%`), eb(eb.fn('lower', ['product.name']), 'like', `%${part}%`)] : []),
  ]));
}

/** Lines of one product, or of the products the typed condition finds. */
function forProducts(q: Q, tenant: Tenant, input: PurchaseReportInput, productRef: string): Q {
  if (input.productId) q = q.where(productRef, '=', input.productId);
  const typed = input.product?.trim();
  if (typed) q = q.where(productRef, 'in', productsTyped(tenant, typed));
  return q;
}

/** Grouped by supplier or product id, or by the document's day (months are made from days). */
function grouped(q: Q, groupBy: string, supplierRef: string, productRef: string, dayRef: string): Q {
  const ref = groupBy === 'supplier' ? supplierRef : groupBy === 'product' ? productRef : dayRef;
  return q.select(`${ref} as ${groupBy === 'month' ? 'day' : 'k'}`).groupBy(ref);
}

function ordered(tenant: Tenant, dialect: Dialect, input: PurchaseReportInput, range: DayRange): Promise<Sum[]> {
  let q: Q = tenant.select('purchaseOrderLine')
    .innerJoin('purchaseOrder', (j: Q) => j.onRef('purchaseOrder.id', '=', 'purchaseOrderLine.orderId').onRef('purchaseOrder.companyId', '=', 'purchaseOrderLine.companyId'))
    .where('purchaseOrder.status', 'in', ORDERED_STATUSES);
  if (range.from) q = q.where('purchaseOrder.orderDate', '>=', range.from);
  if (range.to) q = q.where('purchaseOrder.orderDate', '<=', range.to);
  if (input.supplierId) q = q.where('purchaseOrder.supplierId', '=', input.supplierId);
  if (input.warehouseId) q = q.where('purchaseOrder.warehouseId', '=', input.warehouseId);
  q = forProducts(q, tenant, input, 'purchaseOrderLine.productId');
  q = grouped(q, input.groupBy, 'purchaseOrder.supplierId', 'purchaseOrderLine.productId', 'purchaseOrder.orderDate');
  const cents = sql`${sql.ref('purchaseOrderLine.amount')}`;
  return q.select((eb: Q) => [
    eb.fn.sum('purchaseOrderLine.qty').as('qty'), sql`sum(${toBase(dialect, cents, 'purchaseOrder.exchangeRate')})`.as('amount'),
  ]).execute();
}

function received(tenant: Tenant, dialect: Dialect, input: PurchaseReportInput, range: DayRange): Promise<Sum[]> {
  let q: Q = tenant.select('receivingNoteLine')
    .innerJoin('receivingNote', (j: Q) => j.onRef('receivingNote.id', '=', 'receivingNoteLine.noteId').onRef('receivingNote.companyId', '=', 'receivingNoteLine.companyId'))
    .innerJoin('purchaseOrder', (j: Q) => j.onRef('purchaseOrder.id', '=', 'receivingNote.orderId').onRef('purchaseOrder.companyId', '=', 'receivingNote.companyId'))
    .innerJoin('purchaseOrderLine', (j: Q) => j.onRef('purchaseOrderLine.id', '=', 'receivingNoteLine.orderLineId').onRef('purchaseOrderLine.companyId', '=', 'receivingNoteLine.companyId'))
    .where('receivingNote.status', '=', 'posted');
  if (range.fromAt) q = q.where('receivingNote.postedAt', '>=', range.fromAt);
  if (range.toAt) q = q.where('receivingNote.postedAt', '<=', range.toAt);
  if (input.supplierId) q = q.where('purchaseOrder.supplierId', '=', input.supplierId);
  if (input.warehouseId) q = q.where('receivingNote.warehouseId', '=', input.warehouseId);
  q = forProducts(q, tenant, input, 'receivingNoteLine.productId');
  q = grouped(q, input.groupBy, 'purchaseOrder.supplierId', 'receivingNoteLine.productId', 'receivingNote.postedAt');
  // Cents of each line = qty × price (price × 10^4), half up. Literals stay in the SQL text: a bound
  // number is a float on SQLite and would turn the integer division into a real one.
  const cents = sql`((${sql.ref('receivingNoteLine.qty')} * ${sql.ref('purchaseOrderLine.price')} + 50) / 100)`;
  return q.select((eb: Q) => [
    eb.fn.sum('receivingNoteLine.qty').as('qty'), sql`sum(${toBase(dialect, cents, 'purchaseOrder.exchangeRate')})`.as('amount'),
  ]).execute();
}

function invoiced(tenant: Tenant, dialect: Dialect, input: PurchaseReportInput, range: DayRange): Promise<Sum[]> {
  let q: Q = tenant.select('purchaseInvoiceLine')
    .innerJoin('purchaseInvoice', (j: Q) => j.onRef('purchaseInvoice.id', '=', 'purchaseInvoiceLine.invoiceId').onRef('purchaseInvoice.companyId', '=', 'purchaseInvoiceLine.companyId'))
    .where('purchaseInvoice.status', '=', 'posted');
  if (input.warehouseId) {
    q = q.innerJoin('receivingNote', (j: Q) => j.onRef('receivingNote.id', '=', 'purchaseInvoiceLine.receivingNoteId').onRef('receivingNote.companyId', '=', 'purchaseInvoiceLine.companyId'))
      .where('receivingNote.warehouseId', '=', input.warehouseId);
  }
  if (range.from) q = q.where('purchaseInvoice.invoiceDate', '>=', range.from);
  if (range.to) q = q.where('purchaseInvoice.invoiceDate', '<=', range.to);
  if (input.supplierId) q = q.where('purchaseInvoice.supplierId', '=', input.supplierId);
  q = forProducts(q, tenant, input, 'purchaseInvoiceLine.productId');
  q = grouped(q, input.groupBy, 'purchaseInvoice.supplierId', 'purchaseInvoiceLine.productId', 'purchaseInvoice.invoiceDate');
  const cents = sql`${sql.ref('purchaseInvoiceLine.amount')}`;
  return q.select((eb: Q) => [
    eb.fn.sum('purchaseInvoiceLine.qty').as('qty'), sql`sum(${toBase(dialect, cents, 'purchaseInvoice.exchangeRate')})`.as('amount'),
  ]).execute();
}

async function checkFilters(tenant: Tenant, input: PurchaseReportInput): Promise<void> {
  await mustExist(tenant, 'supplier', input.supplierId, 'supplierId', '供应商');
  await mustExist(tenant, 'warehouse', input.warehouseId, 'warehouseId', '仓库');
  await mustExist(tenant, 'product', input.productId, 'productId', '商品');
}

/** Every group of the report, with its labels. */
async function purchaseGroups(ctx: CallContext, input: PurchaseReportInput) {
  const tenant = ctx.tenant;
  const tzHours = tz(ctx);
  const range = dayRange(input.dateRange, tzHours);
  await checkFilters(tenant, input);
  const dialect = ctx.database.dialect;
  const [o, r, i] = await Promise.all([ordered(tenant, dialect, input, range), received(tenant, dialect, input, range), invoiced(tenant, dialect, input, range)]);
  const groups = new Groups(PURCHASE_MEASURES);
  // month: the document's day — a posting instant is first seen as the company's calendar day
  const keyOf = (s: Sum, instant: boolean) =>
    input.groupBy === 'month' ? (instant ? formatDate(String(s.day), tzHours) : String(s.day)).slice(0, 7) : String(Number(s.k));
  const add = (rows: Sum[], qtyField: string, amountField: string, instant: boolean) => {
    for (const s of rows) groups.add(keyOf(s, instant), {}, { [qtyField]: big(s.qty), [amountField]: big(s.amount) });
  };
  add(o, 'orderedQty', 'orderedAmount', false);
  add(r, 'receivedQty', 'receivedAmount', true);
  add(i, 'invoicedQty', 'invoicedAmount', false);
  const list = groups.list();
  const ids = list.map((g) => Number(g.key));
  if (input.groupBy === 'supplier') {
    const labels = await labelsById(tenant, 'supplier', ids, ['code', 'name']);
    for (const g of list) {
      const l = labels.get(Number(g.key));
      g.labels = { supplierId: Number(g.key), supplierCode: l?.code ?? null, supplierName: l?.name ?? null, label: String(l?.name ?? g.key) };
    }
  } else if (input.groupBy === 'product') {
    const labels = await labelsById(tenant, 'product', ids, ['code', 'name', 'specification', 'unitSmall']);
    for (const g of list) {
      const l = labels.get(Number(g.key));
      g.labels = {
        productId: Number(g.key), productCode: l?.code ?? null, productName: l?.name ?? null, specification: l?.specification ?? null,
        unitSmall: l?.unitSmall ?? null, label: l ? `${String(l.code)} ${String(l.name)}` : g.key,
      };
    }
  } else {
    for (const g of list) g.labels = { month: g.key, label: g.key };
  }
  return list;
}

export async function purchaseReport(ctx: CallContext, input: PurchaseReportInput) {
  const groups = await purchaseGroups(ctx, input);
  return reportPage(groups, PURCHASE_GROUPINGS[input.groupBy]!, PURCHASE_MEASURES, input);
}

export async function exportPurchaseReport(ctx: CallContext, input: PurchaseReportInput) {
  const groups = await purchaseGroups(ctx, input);
  return reportXlsx('采购报表', PURCHASE_GROUPINGS[input.groupBy]!, PURCHASE_MEASURES, groups, input, tz(ctx));
}

export type { Row };
