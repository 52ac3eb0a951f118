// 开票报表 (/reportForms/makeBallot): what was delivered and what of it is invoiced, and what was invoiced.
// Two readings side by side, each by its own date:
// - delivered: lines of delivery notes that shipped (posted or signed, not cancelled), by 发货日期 — the
//   delivered quantity, the part posted sales invoices took (delivery_note_line.invoiced_qty) and the rest,
//   delivered but not yet invoiced;
// - invoiced: lines of posted sales invoices, by 开票日期 — quantity and amount in the company currency
//   (amount_base, already in cents), gross: red invoices (销售冲红) are not netted here.
// "Invoiced but not delivered" cannot occur: an invoice line is matched to a shipped delivery line and its
// quantity is held to that line's delivered less already invoiced (domain/sales/invoice.ts, a conditional
// UPDATE), so the report has no such column. Grouped by day, week, month, client or product — the groupings
// of its screen schema (schemas/screens/reportForms/makeBallot.json).
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import { tz } from '../procurement/common.ts';
import { TypedTenant } from '../../db/typed.ts';
import { big, dayRange, Groups, mustExist, reportPage, reportXlsx, type Measure, type ReportPaging, type Row } from './common.ts';
import { labelGroups, PERIODS, periodKey } from './dimensions.ts';
import { productsTyped } from './purchase-report.ts';
import { screenGroupings, reportInput } from './screen-groupings.ts';

const SCREEN = 'reportForms/makeBallot';

export const INVOICING_MEASURES: Measure[] = [
  { field: 'deliveredQty', title: '发货数量', kind: 'qty' },
  { field: 'deliveredInvoicedQty', title: '其中已开票', kind: 'qty' },
  { field: 'uninvoicedQty', title: '已发货未开票', kind: 'qty' },
  { field: 'invoicedQty', title: '开票数量', kind: 'qty' },
  { field: 'invoicedAmount', title: '开票金额（本位币）', kind: 'money' },
];

/** Delivery notes that shipped. */
const SHIPPED = ['posted', 'signed'];

export const INVOICING_REPORT_INPUT: InputSchema = reportInput(SCREEN, {
  clientId: { type: ['integer', 'null'], minimum: 1, title: '客户' },
  product: { type: ['string', 'null'], maxLength: 50, title: '商品' },
});

export interface InvoicingReportInput extends ReportPaging {
  groupBy: string;
  dateRange?: unknown;
  clientId?: number | null;
  product?: string | null;
}

function keyOf(groupBy: string, k: unknown): string {
  if (PERIODS.has(groupBy)) return periodKey(groupBy, String(k).slice(0, 10));
  return k === null || k === undefined ? '0' : String(Number(k));
}

async function invoicingGroups(ctx: CallContext, input: InvoicingReportInput) {
  const tenant: Tenant = ctx.tenant;
  const range = dayRange(input.dateRange, tz(ctx));
  await mustExist(tenant, 'client', input.clientId, 'clientId', '客户');
  const typed = input.product?.trim();
  const period = PERIODS.has(input.groupBy);

  let d = TypedTenant.of(tenant).select('deliveryNoteLine')
    .innerJoin('deliveryNote', (j) => j.onRef('deliveryNote.id', '=', 'deliveryNoteLine.noteId').onRef('deliveryNote.companyId', '=', 'deliveryNoteLine.companyId'))
    .where('deliveryNote.status', 'in', SHIPPED);
  if (range.from) d = d.where('deliveryNote.deliveryDate', '>=', range.from);
  if (range.to) d = d.where('deliveryNote.deliveryDate', '<=', range.to);
  if (input.clientId) d = d.where('deliveryNote.clientId', '=', input.clientId);
  if (typed) d = d.where('deliveryNoteLine.productId', 'in', productsTyped(tenant, typed));
  const dRef = period ? 'deliveryNote.deliveryDate' : input.groupBy === 'client' ? 'deliveryNote.clientId' : 'deliveryNoteLine.productId';
  const delivered = await d.select((eb) => [`${dRef} as k`, eb.fn.sum('deliveryNoteLine.qty').as('qty'), eb.fn.sum('deliveryNoteLine.invoicedQty').as('invoiced')])
    .groupBy(dRef).execute();

  let i = TypedTenant.of(tenant).select('salesInvoiceLine')
    .innerJoin('salesInvoice', (j) => j.onRef('salesInvoice.id', '=', 'salesInvoiceLine.invoiceId').onRef('salesInvoice.companyId', '=', 'salesInvoiceLine.companyId'))
    .where('salesInvoice.status', '=', 'posted');
  if (range.from) i = i.where('salesInvoice.invoiceDate', '>=', range.from);
  if (range.to) i = i.where('salesInvoice.invoiceDate', '<=', range.to);
  if (input.clientId) i = i.where('salesInvoice.clientId', '=', input.clientId);
  if (typed) i = i.where('salesInvoiceLine.productId', 'in', productsTyped(tenant, typed));
  const iRef = period ? 'salesInvoice.invoiceDate' : input.groupBy === 'client' ? 'salesInvoice.clientId' : 'salesInvoiceLine.productId';
  const invoiced = await i.select((eb) => [`${iRef} as k`, eb.fn.sum('salesInvoiceLine.qty').as('qty'), eb.fn.sum('salesInvoiceLine.amountBase').as('amount')])
    .groupBy(iRef).execute();

  const groups = new Groups(INVOICING_MEASURES);
  for (const r of delivered) {
    const qty = big(r.qty);
    const inv = big(r.invoiced);
    groups.add(keyOf(input.groupBy, r.k), {}, { deliveredQty: qty, deliveredInvoicedQty: inv, uninvoicedQty: qty - inv });
  }
  for (const r of invoiced) groups.add(keyOf(input.groupBy, r.k), {}, { invoicedQty: big(r.qty), invoicedAmount: big(r.amount) });
  const list = groups.list();
  await labelGroups(tenant, input.groupBy, list);
  return list;
}

export async function invoicingReport(ctx: CallContext, input: InvoicingReportInput) {
  return reportPage(await invoicingGroups(ctx, input), screenGroupings(SCREEN)[input.groupBy]!, INVOICING_MEASURES, input);
}

export async function exportInvoicingReport(ctx: CallContext, input: InvoicingReportInput) {
  return reportXlsx('开票报表', screenGroupings(SCREEN)[input.groupBy]!, INVOICING_MEASURES, await invoicingGroups(ctx, input), input, tz(ctx));
}
