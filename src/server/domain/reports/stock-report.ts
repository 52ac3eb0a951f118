// 库存报表: stock on hand now, by warehouse or by product category, from the per product × warehouse
// summary the ledger keeps (stock_summary). Quantities are small units; the value is on hand × the
// product's reference price (参考价, cents per small unit), summed exactly by the database (PostgreSQL
// as numeric, SQLite in 64-bit integers). Products without a category form the group 未分类.
import { sql } from 'kysely';
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import { validationError } from '../../http/errors.ts';
import { tz } from '../procurement/common.ts';
import { TypedTenant } from '../../db/typed.ts';
import { big, Groups, labelsById, measureValue, mustExist, reportPage, reportXlsx, type Grouping, type Measure, type ReportPaging, type Row } from './common.ts';
import { screenGroupings, reportInput } from './screen-groupings.ts';

// The groupings (warehouse, category) and their label columns are the screen schema's.
export const STOCK_GROUPINGS: Record<string, Grouping> = screenGroupings('reportForms/storage');

export const STOCK_MEASURES: Measure[] = [
  { field: 'productCount', title: '商品数', kind: 'qty' },
  { field: 'onHand', title: '现有数量', kind: 'qty' },
  { field: 'reserved', title: '预留数量', kind: 'qty' },
  { field: 'available', title: '可用数量', kind: 'qty' },
  { field: 'value', title: '库存金额（参考价）', kind: 'money' },
];

const UNCATEGORISED = '未分类';

export const STOCK_REPORT_INPUT: InputSchema = reportInput('reportForms/storage', {
  warehouseId: { type: ['integer', 'null'], minimum: 1, title: '仓库' },
  categoryId: { type: ['integer', 'null'], minimum: 1, title: '商品类别' },
  onlyInStock: { type: ['boolean', 'null'], default: true, title: '只看有库存' },
}, { dates: false });

export interface StockReportInput extends ReportPaging {
  groupBy: string;
  warehouseId?: number | null;
  categoryId?: number | null;
  onlyInStock?: boolean | null;
}

/** A category and every category below it. */
export async function categoryAndBelow(tenant: Tenant, id: number): Promise<number[]> {
  const rows = await TypedTenant.of(tenant).select('category').select(['id', 'parentId']).execute();
  if (!rows.some((r) => Number(r.id) === id)) throw validationError([{ field: 'categoryId', message: '商品类别不存在' }]);
  const children = new Map<number, number[]>();
  for (const r of rows) if (r.parentId != null) children.set(Number(r.parentId), [...(children.get(Number(r.parentId)) ?? []), Number(r.id)]);
  const out = new Set([id]);
  const stack = [id];
  while (stack.length) for (const c of children.get(stack.pop()!) ?? []) if (!out.has(c)) { out.add(c); stack.push(c); }
  return [...out];
}

async function stockGroups(ctx: CallContext, input: StockReportInput) {
  const tenant = ctx.tenant;
  await mustExist(tenant, 'warehouse', input.warehouseId, 'warehouseId', '仓库');
  const categories = input.categoryId ? await categoryAndBelow(tenant, input.categoryId) : undefined;
  const where = () => {
    let q = TypedTenant.of(tenant).select('stockSummary')
      .innerJoin('product', (j) => j.onRef('product.id', '=', 'stockSummary.productId').onRef('product.companyId', '=', 'stockSummary.companyId'));
    if (input.warehouseId) q = q.where('stockSummary.warehouseId', '=', input.warehouseId);
    if (categories) q = q.where('product.categoryId', 'in', categories);
    if (input.onlyInStock !== false) q = q.where('stockSummary.onHand', '<>', 0);
    return q;
  };
  const value = ctx.database.dialect === 'postgres'
    ? sql`sum(cast(${sql.ref('stockSummary.onHand')} as numeric) * ${sql.ref('product.price')})`
    : sql`sum(${sql.ref('stockSummary.onHand')} * ${sql.ref('product.price')})`;
  const keyRef = input.groupBy === 'warehouse' ? 'stockSummary.warehouseId' : 'product.categoryId';
  const rows = await where()
    .select((eb) => [
      `${keyRef} as k`, eb.fn.count('stockSummary.productId').distinct().as('productCount'),
      eb.fn.sum('stockSummary.onHand').as('onHand'), eb.fn.sum(eb('stockSummary.reserved', '+', eb.ref('stockSummary.committed'))).as('reserved'), value.as('value'),
    ]).groupBy(keyRef).execute();
  // Products over all groups (a product in two warehouses is one product).
  const all = await where().select((eb) => eb.fn.count('stockSummary.productId').distinct().as('n')).executeTakeFirst();

  const groups = new Groups(STOCK_MEASURES);
  for (const r of rows) {
    const onHand = big(r.onHand);
    const reserved = big(r.reserved);
    groups.add(r.k === null || r.k === undefined ? '0' : String(Number(r.k)), {}, {
      productCount: big(r.productCount), onHand, reserved, available: onHand - reserved, value: big(r.value),
    });
  }
  const list = groups.list();
  const ids = list.map((g) => Number(g.key)).filter((id) => id > 0);
  if (input.groupBy === 'warehouse') {
    const labels = await labelsById(tenant, 'warehouse', ids, ['code', 'name']);
    for (const g of list) {
      const l = labels.get(Number(g.key));
      g.labels = { warehouseId: Number(g.key), warehouseCode: l?.code ?? null, warehouseName: l?.name ?? null, label: String(l?.name ?? g.key) };
    }
  } else {
    const labels = await labelsById(tenant, 'category', ids, ['code', 'name']);
    for (const g of list) {
      const l = labels.get(Number(g.key));
      g.labels = g.key === '0'
        ? { categoryId: null, categoryCode: null, categoryName: UNCATEGORISED, label: UNCATEGORISED }
        : { categoryId: Number(g.key), categoryCode: l?.code ?? null, categoryName: l?.name ?? null, label: String(l?.name ?? g.key) };
    }
  }
  return { list, productCount: measureValue('qty', big(all?.n)) };
}

export async function stockReport(ctx: CallContext, input: StockReportInput) {
  const { list, productCount } = await stockGroups(ctx, input);
  return reportPage(list, STOCK_GROUPINGS[input.groupBy]!, STOCK_MEASURES, input, { productCount });
}

export async function exportStockReport(ctx: CallContext, input: StockReportInput) {
  const { list, productCount } = await stockGroups(ctx, input);
  return reportXlsx('库存报表', STOCK_GROUPINGS[input.groupBy]!, STOCK_MEASURES, list, input, tz(ctx), { productCount });
}
