// 其他出入库报表 (/reportForms/other): the stock moves that are neither a purchase receipt nor a sales
// delivery, by move type (move-types.ts) — 期初入库 (opening stock), 盘点盈亏 (stocktake variances), 库存调整
// (adjustments), 销售退货入库 (receipts of sales returns), 采购退货出库 (goods returned to suppliers) and 库内移库
// (putaway and picking: from one location to another in the same warehouse, in and out alike). A cancelled
// document's reversing moves count under its own type (they net it out). Each move counts on the company
// day it was recorded; quantities in small units, in and out apart, valued at the product's reference price
// (参考价, cents per small unit) as 库存报表 and 日结报表 value stock, summed exactly by the database.
// Never the whole ledger: a closed day is read from the closing's per-day sums (stock_move_day), the days not
// closed from their moves by the ledger's created_at index; with no range this month so far, at most 366 days.
// Grouped by move type, day, week, month, product, category or warehouse — the groupings of its screen
// schema (schemas/screens/reportForms/other.json).
import { sql } from 'kysely';
import { formatDate } from '../../../core/format.ts';
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import { tz } from '../procurement/common.ts';
import { TypedTenant } from '../../db/typed.ts';
import { dayBefore, endOfDay } from './closing.ts';
import { big, Groups, mustExist, reportPage, reportXlsx, type Measure, type ReportPaging, type Row } from './common.ts';
import { labelGroups, PERIODS, periodKey } from './dimensions.ts';
import { productsTyped } from './purchase-report.ts';
import { daysOrThisMonth } from './report-days.ts';
import { screenGroupings, reportInput } from './screen-groupings.ts';
import { categoryAndBelow } from './stock-report.ts';
import { MOVE_TYPE, movesWithType, OTHER_MOVE_TYPES, type OtherMoveType } from './move-types.ts';

export { OTHER_MOVE_TYPES };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Q = any;

const SCREEN = 'reportForms/other';

export const OTHER_MOVES_MEASURES: Measure[] = [
  { field: 'inQty', title: '入库数量', kind: 'qty' },
  { field: 'inValue', title: '入库金额（参考价）', kind: 'money' },
  { field: 'outQty', title: '出库数量', kind: 'qty' },
  { field: 'outValue', title: '出库金额（参考价）', kind: 'money' },
  { field: 'netQty', title: '净入库数量', kind: 'qty' },
  { field: 'netValue', title: '净入库金额', kind: 'money' },
];

export const OTHER_MOVES_INPUT: InputSchema = reportInput(SCREEN, {
  moveType: { enum: [...Object.keys(OTHER_MOVE_TYPES), null], title: '出入库类型' },
  warehouseId: { type: ['integer', 'null'], minimum: 1, title: '仓库' },
  categoryId: { type: ['integer', 'null'], minimum: 1, title: '商品类别' },
  product: { type: ['string', 'null'], maxLength: 50, title: '商品' },
});

export interface OtherMovesInput extends ReportPaging {
  groupBy: string;
  dateRange?: unknown;
  moveType?: OtherMoveType | null;
  warehouseId?: number | null;
  categoryId?: number | null;
  product?: string | null;
}

const GROUP_REF: Record<string, string> = { product: 'stockMove.productId', category: 'product.categoryId', warehouse: 'stockMove.warehouseId' };

/** Runs of consecutive days of [from, to] not in `closed`: [first, last]. */
function openRuns(from: string, to: string, closed: Set<string>): Array<[string, string]> {
  const runs: Array<[string, string]> = [];
  for (let d = from; d <= to; d = new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)) {
    if (closed.has(d)) continue;
    const last = runs[runs.length - 1];
    if (last && last[1] === dayBefore(d)) last[1] = d;
    else runs.push([d, d]);
  }
  return runs;
}

async function otherMovesGroups(ctx: CallContext, input: OtherMovesInput) {
  const tenant = ctx.tenant;
  const tzHours = tz(ctx);
  const { from, to } = daysOrThisMonth(input.dateRange, tzHours);
  await mustExist(tenant, 'warehouse', input.warehouseId, 'warehouseId', '仓库');
  const categories = input.categoryId ? await categoryAndBelow(tenant, input.categoryId) : undefined;
  const typed = input.product?.trim();
  const types = input.moveType ? [input.moveType] : Object.keys(OTHER_MOVE_TYPES);
  const by = input.groupBy;
  const period = PERIODS.has(by);
  const byProduct = (table: string) => (j: Q) => j.onRef('product.id', '=', `${table}.productId`).onRef('product.companyId', '=', `${table}.companyId`);
  const filtered = (q: Q, table: string): Q => {
    if (input.warehouseId) q = q.where(`${table}.warehouseId`, '=', input.warehouseId);
    if (categories) q = q.where('product.categoryId', 'in', categories);
    if (typed) q = q.where(`${table}.productId`, 'in', productsTyped(tenant, typed));
    return q;
  };
  const valued = (qty: unknown) => (ctx.database.dialect === 'postgres'
    ? sql`sum(cast(${qty} as numeric) * ${sql.ref('product.price')})` : sql`sum(${qty} * ${sql.ref('product.price')})`);
  const groups = new Groups(OTHER_MOVES_MEASURES);
  const add = (k: string, r: Row) => {
    const inQty = big(r.inQty), outQty = big(r.outQty), inValue = big(r.inValue), outValue = big(r.outValue);
    groups.add(k, {}, { inQty, inValue, outQty, outValue, netQty: inQty - outQty, netValue: inValue - outValue });
  };
  const recordKey = (k: unknown) => (k === null || k === undefined ? '0' : String(Number(k)));

  // closed days: the closing's sums per day, product, warehouse and type
  const closed = new Set((await TypedTenant.of(tenant).select('dailyClosing').select('day').where('day', '>=', from).where('day', '<=', to)
    .where('movesSummarised', '=', 1).execute()).map((r) => String(r.day)));
  if (closed.size) {
    const dayKey = by === 'type' ? sql.ref('stockMoveDay.moveType') : period ? sql.ref('stockMoveDay.day') : sql.ref(GROUP_REF[by]!.replace('stockMove.', 'stockMoveDay.'));
    // (filtered names its table's columns at run time, the grouping column too: the untyped view)
    const q: Q = filtered(tenant.select('stockMoveDay').innerJoin('product', byProduct('stockMoveDay'))
      .where('stockMoveDay.day', 'in', [...closed]).where('stockMoveDay.moveType', 'in', types), 'stockMoveDay');
    const rows: Row[] = await q.select([
      dayKey.as('k'), sql`sum(${sql.ref('stockMoveDay.inQty')})`.as('inQty'), sql`sum(${sql.ref('stockMoveDay.outQty')})`.as('outQty'),
      valued(sql.ref('stockMoveDay.inQty')).as('inValue'), valued(sql.ref('stockMoveDay.outQty')).as('outValue'),
    ]).groupBy(dayKey).execute();
    for (const r of rows) add(by === 'type' ? String(r.k) : period ? periodKey(by, String(r.k)) : recordKey(r.k), r);
  }

  // the other days: their moves, by the ledger's created_at index
  // (periods: the hour recorded, UTC, turned into the company day here; an offset of part of an hour needs the
  // minute; the length is written into the SQL, not bound: PostgreSQL matches the GROUP BY to the select by its text)
  const instant = sql`substr(${sql.ref('stockMove.createdAt')}, 1, ${sql.raw(Number.isInteger(tzHours) ? '13' : '16')})`;
  const key = by === 'type' ? MOVE_TYPE : period ? instant : sql.ref(GROUP_REF[by]!);
  const side = (op: '>' | '<') => sql`case when ${sql.ref('stockMove.qty')} ${sql.raw(op)} 0 then ${op === '<' ? sql`-${sql.ref('stockMove.qty')}` : sql.ref('stockMove.qty')} else 0 end`;
  for (const [first, last] of openRuns(from, to, closed)) {
    // (as above: the untyped view)
    const q: Q = filtered(movesWithType(tenant, endOfDay(dayBefore(first), tzHours), endOfDay(last, tzHours)).innerJoin('product', byProduct('stockMove'))
      .where(sql<boolean>`${MOVE_TYPE} in (${sql.join(types)})`), 'stockMove');
    const rows: Row[] = await q.select([
      key.as('k'), sql`sum(${side('>')})`.as('inQty'), sql`sum(${side('<')})`.as('outQty'), valued(side('>')).as('inValue'), valued(side('<')).as('outValue'),
    ]).groupBy(key).execute();
    for (const r of rows) {
      add(by === 'type' ? String(r.k)
        : period ? periodKey(by, formatDate(`${String(r.k)}${Number.isInteger(tzHours) ? ':00' : ''}:00.000Z`, tzHours)) : recordKey(r.k), r);
    }
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
