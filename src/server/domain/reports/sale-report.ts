// 销售报表: what was sold over a date range — lines of sales orders past draft and not cancelled, by order
// date — as quantity ordered, quantity shipped and amount in the company currency (each line's amount at
// its order's rate, half up to cents, so every grouping adds up the same cents). Grouped by day, week,
// month, client, product, category, salesman or warehouse — the groupings its screen schema offers
// (schemas/screens/reportForms/sale.json). Filters: dates, client, salesman, warehouse, category (and
// below), product (code, barcode or part of a name).
// 预售报表 is the same reading of the lines ordered against expected arrivals (presale_qty > 0): the presale
// quantity beside the line's quantity, shipped quantity and amount, by presale plan, product, client, day,
// week or month (schemas/screens/reportForms/preSale_report.json), filtered also by plan.
import { sql } from 'kysely';
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import type { Dialect } from '../../db/connection.ts';
import { tz } from '../procurement/common.ts';
import { big, dayRange, Groups, mustExist, reportPage, reportXlsx, type Measure, type ReportPaging, type Row } from './common.ts';
import { labelGroups, PERIODS, periodKey } from './dimensions.ts';
import { productsTyped } from './purchase-report.ts';
import { screenGroupings, reportInput } from './screen-groupings.ts';
import { categoryAndBelow } from './stock-report.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Q = any;

const SCREEN = 'reportForms/sale';
const PRESALE_SCREEN = 'reportForms/preSale_report';

export const SALE_MEASURES: Measure[] = [
  { field: 'qty', title: '销售数量', kind: 'qty' },
  { field: 'shippedQty', title: '已发货数量', kind: 'qty' },
  { field: 'amount', title: '销售金额', kind: 'money' },
];

export const PRESALE_MEASURES: Measure[] = [
  { field: 'presaleQty', title: '预售数量', kind: 'qty' },
  { field: 'qty', title: '订购数量', kind: 'qty' },
  { field: 'shippedQty', title: '已发货数量', kind: 'qty' },
  { field: 'amount', title: '金额', kind: 'money' },
];

/** Orders that count as sold: confirmed and on; not drafts, not cancelled. */
export const SOLD_STATUSES = ['confirmed', 'partlyShipped', 'shipped', 'closed'];

export const SALE_REPORT_INPUT: InputSchema = reportInput(SCREEN, {
  clientId: { type: ['integer', 'null'], minimum: 1, title: '客户' },
  salesmanId: { type: ['integer', 'null'], minimum: 1, title: '业务员' },
  warehouseId: { type: ['integer', 'null'], minimum: 1, title: '仓库' },
  categoryId: { type: ['integer', 'null'], minimum: 1, title: '商品类别' },
  product: { type: ['string', 'null'], maxLength: 50, title: '商品' },
});

export const PRESALE_REPORT_INPUT: InputSchema = reportInput(PRESALE_SCREEN, {
  presalePlanId: { type: ['integer', 'null'], minimum: 1, title: '预售计划' },
  clientId: { type: ['integer', 'null'], minimum: 1, title: '客户' },
  warehouseId: { type: ['integer', 'null'], minimum: 1, title: '仓库' },
  product: { type: ['string', 'null'], maxLength: 50, title: '商品' },
});

export interface SaleReportInput extends ReportPaging {
  presalePlanId?: number | null;
  groupBy: string;
  dateRange?: unknown;
  clientId?: number | null;
  salesmanId?: number | null;
  warehouseId?: number | null;
  categoryId?: number | null;
  product?: string | null;
}

const GROUP_REF: Record<string, string> = {
  client: 'salesOrder.clientId', staff: 'salesOrder.salesmanId', warehouse: 'salesOrder.warehouseId',
  product: 'salesOrderLine.productId', category: 'product.categoryId', plan: 'salesOrderLine.presalePlanId',
};

/** Base-currency cents of a line: amount (order currency cents) × rate (× 10^6), half up. */
export function lineBase(dialect: Dialect) {
  return dialect === 'postgres'
    ? sql`div(cast(${sql.ref('salesOrderLine.amount')} as numeric) * ${sql.ref('salesOrder.exchangeRate')} + 500000, 1000000)`
    : sql`(${sql.ref('salesOrderLine.amount')} * ${sql.ref('salesOrder.exchangeRate')} + 500000) / 1000000`;
}

/**
 * The sold lines a sale-style report reads, its filters applied, and the column its grouping keys on:
 * shared by 销售报表, 预售报表 and 直销报表 (direct-selling-report.ts), which add their own conditions.
 */
export async function soldLines(ctx: CallContext, input: SaleReportInput, presale = false): Promise<{ q: Q; ref: string; period: boolean }> {
  const tenant: Tenant = ctx.tenant;
  const range = dayRange(input.dateRange, tz(ctx));
  await mustExist(tenant, 'client', input.clientId, 'clientId', '客户');
  await mustExist(tenant, 'staff', input.salesmanId, 'salesmanId', '业务员');
  await mustExist(tenant, 'warehouse', input.warehouseId, 'warehouseId', '仓库');
  await mustExist(tenant, 'presalePlan', input.presalePlanId, 'presalePlanId', '预售计划');
  const categories = input.categoryId ? await categoryAndBelow(tenant, input.categoryId) : undefined;
  let q: Q = tenant.select('salesOrderLine')
    .innerJoin('salesOrder', (j: Q) => j.onRef('salesOrder.id', '=', 'salesOrderLine.orderId').onRef('salesOrder.companyId', '=', 'salesOrderLine.companyId'))
    .where('salesOrder.status', 'in', SOLD_STATUSES);
  if (input.groupBy === 'category' || categories) {
    q = q.innerJoin('product', (j: Q) => j.onRef('product.id', '=', 'salesOrderLine.productId').onRef('product.companyId', '=', 'salesOrderLine.companyId'));
  }
  if (presale) q = q.where('salesOrderLine.presaleQty', '>', 0);
  if (input.presalePlanId) q = q.where('salesOrderLine.presalePlanId', '=', input.presalePlanId);
  if (range.from) q = q.where('salesOrder.orderDate', '>=', range.from);
  if (range.to) q = q.where('salesOrder.orderDate', '<=', range.to);
  if (input.clientId) q = q.where('salesOrder.clientId', '=', input.clientId);
  if (input.salesmanId) q = q.where('salesOrder.salesmanId', '=', input.salesmanId);
  if (input.warehouseId) q = q.where('salesOrder.warehouseId', '=', input.warehouseId);
  if (categories) q = q.where('product.categoryId', 'in', categories);
  const typed = input.product?.trim();
  if (typed) q = q.where('salesOrderLine.productId', 'in', productsTyped(tenant, typed));
  const period = PERIODS.has(input.groupBy);
  return { q, ref: period ? 'salesOrder.orderDate' : GROUP_REF[input.groupBy]!, period };
}

/** A group key of a sold-lines row: the period of its day, or the id of its record ("0": none). */
export function soldKey(groupBy: string, period: boolean, k: unknown): string {
  return period ? periodKey(groupBy, String(k)) : k === null || k === undefined ? '0' : String(Number(k));
}

async function saleGroups(ctx: CallContext, input: SaleReportInput, presale = false) {
  const { q, ref } = await soldLines(ctx, input, presale);
  // (sold lines are the untyped builder: their grouping column is named at run time)
  const rows: Row[] = await q.select((eb: Q) => [
    `${ref} as k`, eb.fn.sum('salesOrderLine.presaleQty').as('presaleQty'), eb.fn.sum('salesOrderLine.qty').as('qty'), eb.fn.sum('salesOrderLine.shippedQty').as('shippedQty'),
    sql`sum(${lineBase(ctx.database.dialect)})`.as('amount'),
  ]).groupBy(ref).execute();
  const groups = new Groups(presale ? PRESALE_MEASURES : SALE_MEASURES);
  for (const r of rows) {
    groups.add(soldKey(input.groupBy, PERIODS.has(input.groupBy), r.k), {}, { ...(presale ? { presaleQty: big(r.presaleQty) } : {}), qty: big(r.qty), shippedQty: big(r.shippedQty), amount: big(r.amount) });
  }
  const list = groups.list();
  await labelGroups(ctx.tenant, input.groupBy, list);
  return list;
}

export async function saleReport(ctx: CallContext, input: SaleReportInput) {
  return reportPage(await saleGroups(ctx, input), screenGroupings(SCREEN)[input.groupBy]!, SALE_MEASURES, input);
}

export async function exportSaleReport(ctx: CallContext, input: SaleReportInput) {
  return reportXlsx('销售报表', screenGroupings(SCREEN)[input.groupBy]!, SALE_MEASURES, await saleGroups(ctx, input), input, tz(ctx));
}

export async function presaleReport(ctx: CallContext, input: SaleReportInput) {
  return reportPage(await saleGroups(ctx, input, true), screenGroupings(PRESALE_SCREEN)[input.groupBy]!, PRESALE_MEASURES, input);
}

export async function exportPresaleReport(ctx: CallContext, input: SaleReportInput) {
  return reportXlsx('预售报表', screenGroupings(PRESALE_SCREEN)[input.groupBy]!, PRESALE_MEASURES, await saleGroups(ctx, input, true), input, tz(ctx));
}
