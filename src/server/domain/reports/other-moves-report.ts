// 其他出入库报表 (/reportForms/other): the stock moves that are neither a purchase receipt nor a sales
// delivery, by move type — 期初入库 (opening stock), 盘点盈亏 (stocktake variances), 库存调整 (adjustments),
// 销售退货入库 (receipts of sales returns), 采购退货出库 (goods returned to suppliers) and 库内移库 (putaway
// and picking: from one location to another in the same warehouse, in and out alike). A cancelled
// document's reversing moves count under its own type (they net it out). Each move counts on the company
// day it was recorded; quantities in small units, in and out apart, valued at the product's reference price
// (参考价, cents per small unit) as 库存报表 and 日结报表 value stock, summed exactly by the database.
// The moves are read over the date range by the ledger's created_at index (never the whole ledger): with no
// range this month so far, at most 366 days. Grouped by move type, day, week, month, product, category or
// warehouse — the groupings of its screen schema (schemas/screens/reportForms/other.json).
import { sql } from 'kysely';
import { companyDateRange, formatDate } from '../../../core/format.ts';
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import { tz } from '../procurement/common.ts';
import { big, DATE_RANGE_INPUT, Groups, mustExist, PAGING, reportPage, reportXlsx, type Measure, type ReportPaging, type Row } from './common.ts';
import { labelGroups, PERIODS, periodKey } from './dimensions.ts';
import { productsTyped } from './purchase-report.ts';
import { daysOrThisMonth } from './report-days.ts';
import { groupByInput, screenGroupings } from './screen-groupings.ts';
import { categoryAndBelow } from './stock-report.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Q = any;

const SCREEN = 'reportForms/other';

/** The move types of this report, in their order; what a move is follows from its document. */
export const OTHER_MOVE_TYPES = {
  init: '期初入库',
  count: '盘点盈亏',
  adjust: '库存调整',
  salesReturn: '销售退货入库',
  purchaseReturn: '采购退货出库',
  transfer: '库内移库',
} as const;
export type OtherMoveType = keyof typeof OTHER_MOVE_TYPES;

export const OTHER_MOVES_MEASURES: Measure[] = [
  { field: 'inQty', title: '入库数量', kind: 'qty' },
  { field: 'inValue', title: '入库金额（参考价）', kind: 'money' },
  { field: 'outQty', title: '出库数量', kind: 'qty' },
  { field: 'outValue', title: '出库金额（参考价）', kind: 'money' },
  { field: 'netQty', title: '净入库数量', kind: 'qty' },
  { field: 'netValue', title: '净入库金额', kind: 'money' },
];

export const OTHER_MOVES_INPUT: InputSchema = {
  type: 'object',
  properties: {
    ...PAGING,
    groupBy: groupByInput(SCREEN),
    dateRange: DATE_RANGE_INPUT,
    moveType: { enum: [...Object.keys(OTHER_MOVE_TYPES), null], title: '出入库类型' },
    warehouseId: { type: ['integer', 'null'], minimum: 1, title: '仓库' },
    categoryId: { type: ['integer', 'null'], minimum: 1, title: '商品类别' },
    product: { type: ['string', 'null'], maxLength: 50, title: '商品' },
  },
};

export interface OtherMovesInput extends ReportPaging {
  groupBy: string;
  dateRange?: unknown;
  moveType?: OtherMoveType | null;
  warehouseId?: number | null;
  categoryId?: number | null;
  product?: string | null;
}

/** A move's type from its document; null for purchase receipts, deliveries and moves of no quantity. */
const moveType = sql<string | null>`case
  when ${sql.ref('stockMove.docType')} = 'stockInit' then 'init'
  when ${sql.ref('stockMove.docType')} = 'stockTake' then 'count'
  when ${sql.ref('stockMove.docType')} = 'stockAdjust' then 'adjust'
  when ${sql.ref('stockMove.docType')} = 'receivingNote' and ${sql.ref('receivingNote.returnId')} is not null then 'salesReturn'
  when ${sql.ref('stockMove.docType')} = 'returnPlan' then 'purchaseReturn'
  when ${sql.ref('stockMove.docType')} in ('putaway', 'pickingOrder') then 'transfer'
end`;

const GROUP_REF: Record<string, string> = { product: 'stockMove.productId', category: 'product.categoryId', warehouse: 'stockMove.warehouseId' };

async function otherMovesGroups(ctx: CallContext, input: OtherMovesInput) {
  const tenant = ctx.tenant;
  const tzHours = tz(ctx);
  const { from, to } = daysOrThisMonth(input.dateRange, tzHours);
  const [fromAt, toAt] = companyDateRange(from, to, tzHours);
  await mustExist(tenant, 'warehouse', input.warehouseId, 'warehouseId', '仓库');
  const categories = input.categoryId ? await categoryAndBelow(tenant, input.categoryId) : undefined;
  const dialect = ctx.database.dialect;
  let q: Q = tenant.select('stockMove')
    .innerJoin('product', (j: Q) => j.onRef('product.id', '=', 'stockMove.productId').onRef('product.companyId', '=', 'stockMove.companyId'))
    .leftJoin('receivingNote', (j: Q) => j.onRef('receivingNote.id', '=', 'stockMove.docId').onRef('receivingNote.companyId', '=', 'stockMove.companyId')
      .on('stockMove.docType', '=', 'receivingNote'))
    .where('stockMove.createdAt', '>=', fromAt).where('stockMove.createdAt', '<=', toAt)
    .where('stockMove.qty', '<>', 0)
    .where(sql<boolean>`${moveType} is not null`);
  if (input.moveType) q = q.where(sql<boolean>`${moveType} = ${input.moveType}`);
  if (input.warehouseId) q = q.where('stockMove.warehouseId', '=', input.warehouseId);
  if (categories) q = q.where('product.categoryId', 'in', categories);
  const typed = input.product?.trim();
  if (typed) q = q.where('stockMove.productId', 'in', productsTyped(tenant, typed));

  const by = input.groupBy;
  const period = PERIODS.has(by);
  // periods: the hour recorded (UTC), turned into the company day here; an offset of part of an hour needs the minute
  // (the length written into the SQL, not bound: PostgreSQL matches the GROUP BY to the select by its text)
  const instant = sql`substr(${sql.ref('stockMove.createdAt')}, 1, ${sql.raw(Number.isInteger(tzHours) ? '13' : '16')})`;
  const key = by === 'type' ? moveType : period ? instant : sql.ref(GROUP_REF[by]!);
  const value = (side: '>' | '<') => {
    const qty = sql`case when ${sql.ref('stockMove.qty')} ${sql.raw(side)} 0 then ${sql.ref('stockMove.qty')} else 0 end`;
    return dialect === 'postgres' ? sql`sum(cast(${qty} as numeric) * ${sql.ref('product.price')})` : sql`sum(${qty} * ${sql.ref('product.price')})`;
  };
  const rows = (await q.select([
    key.as('k'),
    sql`sum(case when ${sql.ref('stockMove.qty')} > 0 then ${sql.ref('stockMove.qty')} else 0 end)`.as('inQty'),
    sql`sum(case when ${sql.ref('stockMove.qty')} < 0 then ${sql.ref('stockMove.qty')} else 0 end)`.as('outQty'),
    value('>').as('inValue'), value('<').as('outValue'),
  ]).groupBy(key).execute()) as Row[];

  const groups = new Groups(OTHER_MOVES_MEASURES);
  for (const r of rows) {
    const k = by === 'type' ? String(r.k)
      : period ? periodKey(by, formatDate(`${String(r.k)}${Number.isInteger(tzHours) ? ':00' : ''}:00.000Z`, tzHours))
        : r.k === null || r.k === undefined ? '0' : String(Number(r.k));
    const inQty = big(r.inQty), outQty = -big(r.outQty), inValue = big(r.inValue), outValue = -big(r.outValue);
    groups.add(k, {}, { inQty, inValue, outQty, outValue, netQty: inQty - outQty, netValue: inValue - outValue });
  }
  const list = groups.list();
  if (by === 'type') {
    for (const g of list) {
      const name = OTHER_MOVE_TYPES[g.key as OtherMoveType] ?? g.key;
      g.labels = { moveType: g.key, moveTypeName: name, label: name };
    }
  } else {
    await labelGroups(tenant, by, list);
  }
  return { list, from, to };
}

export async function otherMovesReport(ctx: CallContext, input: OtherMovesInput) {
  const { list, from, to } = await otherMovesGroups(ctx, input);
  return { ...reportPage(list, screenGroupings(SCREEN)[input.groupBy]!, OTHER_MOVES_MEASURES, input), from, to };
}

export async function exportOtherMovesReport(ctx: CallContext, input: OtherMovesInput) {
  const { list } = await otherMovesGroups(ctx, input);
  return reportXlsx('其他出入库报表', screenGroupings(SCREEN)[input.groupBy]!, OTHER_MOVES_MEASURES, list, input, tz(ctx));
}
