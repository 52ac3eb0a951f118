// 日结报表 (clapper): per day, warehouse or salesman over a date range (company days) —
//   orders / sales amount: sales orders past draft and not cancelled, by order date (本位币金额);
//   deliveries / delivered qty: delivery notes shipped (posted or signed), by the company day they were posted;
//   receipts / amount: posted receipts (收款), by receipt date, in the company currency;
//   stock value: on hand at the end of the day × the product's reference price (参考价);
//   receivables: clients' open receivables at the end of the day (company currency).
// The two balances are read from the daily closing's snapshots plus the movements since (closing.ts), never
// from the whole ledger. By day each row has the balances at that day's end; by warehouse the stock value at
// the end of the range (receipts and receivables have no warehouse: they stand in the row 未指定); by
// salesman the balances are not split (empty). The grand totals of a balance are its value at the end of
// the range, not a sum over days. A warehouse filter leaves out receipts and receivables; a salesman filter
// also the stock value. The range is at most 366 days (one snapshot read and one day of moves per day).
import { sql } from 'kysely';
import { companyDateRange, formatDate } from '../../../core/format.ts';
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import { validationError } from '../../http/errors.ts';
import { tz } from '../procurement/common.ts';
import { companyToday, endOfDay, receivablesAtEndOf, stockAtEndOf } from './closing.ts';
import {
  big, DATE_RANGE_INPUT, dayRange, Groups, labelsById, measureValue, mustExist, PAGING, reportPage, reportXlsx,
  type Measure, type ReportPaging, type Row,
} from './common.ts';
import { labelGroups } from './dimensions.ts';
import { SOLD_STATUSES } from './sale-report.ts';
import { groupByInput, screenGroupings } from './screen-groupings.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Q = any;

const SCREEN = 'reportForms/clapper';
const MAX_DAYS = 366;

export const CLAPPER_MEASURES: Measure[] = [
  { field: 'orderCount', title: '订单数', kind: 'qty' },
  { field: 'salesAmount', title: '销售金额', kind: 'money' },
  { field: 'deliveryCount', title: '发货单数', kind: 'qty' },
  { field: 'deliveredQty', title: '发货数量', kind: 'qty' },
  { field: 'receiptCount', title: '收款笔数', kind: 'qty' },
  { field: 'receiptAmount', title: '收款金额', kind: 'money' },
  { field: 'stockValue', title: '日终库存金额', kind: 'money' },
  { field: 'receivable', title: '日终应收余额', kind: 'money' },
];

export const CLAPPER_REPORT_INPUT: InputSchema = {
  type: 'object',
  properties: {
    ...PAGING,
    groupBy: groupByInput(SCREEN),
    dateRange: DATE_RANGE_INPUT,
    warehouseId: { type: ['integer', 'null'], minimum: 1, title: '仓库' },
    salesmanId: { type: ['integer', 'null'], minimum: 1, title: '业务员' },
  },
};

export interface ClapperReportInput extends ReportPaging {
  groupBy: string;
  dateRange?: unknown;
  warehouseId?: number | null;
  salesmanId?: number | null;
}

function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

/** Reference-price value (cents) of on-hand quantities keyed "productId:warehouseId", per warehouse. */
async function valueByWarehouse(tenant: Tenant, onHand: Map<string, bigint>): Promise<Map<number, bigint>> {
  const ids = [...new Set([...onHand.keys()].map((k) => Number(k.split(':')[0])))];
  const prices = await labelsById(tenant, 'product', ids, ['price']);
  const out = new Map<number, bigint>();
  for (const [k, q] of onHand) {
    const [p, w] = k.split(':').map(Number) as [number, number];
    out.set(w, (out.get(w) ?? 0n) + q * big(prices.get(p)?.price));
  }
  return out;
}

const sum = (m: Map<unknown, bigint>) => [...m.values()].reduce((a, b) => a + b, 0n);

async function clapperGroups(ctx: CallContext, input: ClapperReportInput) {
  const tenant = ctx.tenant;
  const tzHours = tz(ctx);
  const range = dayRange(input.dateRange, tzHours);
  const today = companyToday(tzHours);
  const from = range.from ?? range.to ?? today;
  const to = range.to ?? (range.from && range.from > today ? range.from : today);
  const days = daysBetween(from, to);
  if (days.length > MAX_DAYS) throw validationError([{ field: 'dateRange', message: `日期范围不能超过 ${MAX_DAYS} 天` }]);
  await mustExist(tenant, 'warehouse', input.warehouseId, 'warehouseId', '仓库');
  await mustExist(tenant, 'staff', input.salesmanId, 'salesmanId', '业务员');
  const [fromAt, toAt] = companyDateRange(from, to, tzHours);
  const by = input.groupBy;
  const groups = new Groups(CLAPPER_MEASURES);
  const keyOf = (v: unknown) => (v === null || v === undefined ? '0' : String(Number(v)));
  if (by === 'day') for (const d of days) groups.add(d, {}, {});

  // sales orders by order date
  let so: Q = tenant.select('salesOrder').where('salesOrder.status', 'in', SOLD_STATUSES).where('salesOrder.orderDate', '>=', from).where('salesOrder.orderDate', '<=', to);
  if (input.warehouseId) so = so.where('salesOrder.warehouseId', '=', input.warehouseId);
  if (input.salesmanId) so = so.where('salesOrder.salesmanId', '=', input.salesmanId);
  const soRef = by === 'day' ? 'salesOrder.orderDate' : by === 'warehouse' ? 'salesOrder.warehouseId' : 'salesOrder.salesmanId';
  for (const r of (await so.select((eb: Q) => [`${soRef} as k`, eb.fn.countAll().as('n'), eb.fn.sum('salesOrder.totalAmountBase').as('amount')]).groupBy(soRef).execute()) as Row[]) {
    groups.add(by === 'day' ? String(r.k) : keyOf(r.k), {}, { orderCount: big(r.n), salesAmount: big(r.amount) });
  }

  // delivery notes shipped, by the company day they were posted
  let dn: Q = tenant.select('deliveryNote').where('deliveryNote.status', 'in', ['posted', 'signed']).where('deliveryNote.postedAt', '>=', fromAt).where('deliveryNote.postedAt', '<=', toAt);
  if (by === 'staff' || input.salesmanId) {
    dn = dn.leftJoin('salesOrder', (j: Q) => j.onRef('salesOrder.id', '=', 'deliveryNote.orderId').onRef('salesOrder.companyId', '=', 'deliveryNote.companyId'));
  }
  if (input.warehouseId) dn = dn.where('deliveryNote.warehouseId', '=', input.warehouseId);
  if (input.salesmanId) dn = dn.where('salesOrder.salesmanId', '=', input.salesmanId);
  const dnRef = by === 'day' ? 'deliveryNote.postedAt' : by === 'warehouse' ? 'deliveryNote.warehouseId' : 'salesOrder.salesmanId';
  for (const r of (await dn.select((eb: Q) => [`${dnRef} as k`, eb.fn.countAll().as('n'), eb.fn.sum('deliveryNote.totalQty').as('qty')]).groupBy(dnRef).execute()) as Row[]) {
    groups.add(by === 'day' ? formatDate(String(r.k), tzHours) : keyOf(r.k), {}, { deliveryCount: big(r.n), deliveredQty: big(r.qty) });
  }

  // receipts (no warehouse, no salesman: left out by those filters, in the row 未指定 of those groupings)
  if (!input.warehouseId && !input.salesmanId) {
    const pdRef = by === 'day' ? 'payDocument.payDate' : null;
    let pd: Q = tenant.select('payDocument').where('payDocument.direction', '=', 'receipt').where('payDocument.status', '=', 'posted')
      .where('payDocument.payDate', '>=', from).where('payDocument.payDate', '<=', to);
    pd = pdRef ? pd.select((eb: Q) => [`${pdRef} as k`, eb.fn.countAll().as('n'), eb.fn.sum('payDocument.amountBase').as('amount')]).groupBy(pdRef)
      : pd.select((eb: Q) => [eb.fn.countAll().as('n'), eb.fn.sum('payDocument.amountBase').as('amount')]);
    for (const r of (await pd.execute()) as Row[]) {
      if (!pdRef && big(r.n) === 0n) continue;
      groups.add(pdRef ? String(r.k) : '0', {}, { receiptCount: big(r.n), receiptAmount: big(r.amount) });
    }
  }

  // balances at the end of days, from the snapshots plus the moves since
  const extra: Row = {};
  const withStock = !input.salesmanId && by !== 'staff';
  const withReceivable = !input.warehouseId && !input.salesmanId && by !== 'staff';
  if (!input.salesmanId) {
    const atEnd = await valueByWarehouse(tenant, await stockAtEndOf(tenant, to, tzHours, input.warehouseId));
    extra.stockValue = measureValue('money', sum(atEnd));
    if (by === 'warehouse') for (const [w, v] of atEnd) if (v !== 0n) groups.add(String(w), {}, { stockValue: v });
    if (by === 'day') {
      // the first day from the snapshots, each next day by that day's moves valued at today's reference price
      let value = sum(await valueByWarehouse(tenant, await stockAtEndOf(tenant, from, tzHours, input.warehouseId)));
      groups.add(from, {}, { stockValue: value });
      for (const d of days.slice(1)) {
        let q: Q = tenant.select('stockMove')
          .innerJoin('product', (j: Q) => j.onRef('product.id', '=', 'stockMove.productId').onRef('product.companyId', '=', 'stockMove.companyId'))
          .where('stockMove.createdAt', '>', endOfDay(days[days.indexOf(d) - 1]!, tzHours)).where('stockMove.createdAt', '<=', endOfDay(d, tzHours));
        if (input.warehouseId) q = q.where('stockMove.warehouseId', '=', input.warehouseId);
        const expr = ctx.database.dialect === 'postgres'
          ? sql`sum(cast(${sql.ref('stockMove.qty')} as numeric) * ${sql.ref('product.price')})` : sql`sum(${sql.ref('stockMove.qty')} * ${sql.ref('product.price')})`;
        const r = (await q.select(expr.as('v')).executeTakeFirst()) as Row | undefined;
        value += big(r?.v);
        groups.add(d, {}, { stockValue: value });
      }
    }
  }
  if (withReceivable) {
    const atEnd = sum(await receivablesAtEndOf(tenant, to, tzHours));
    extra.receivable = measureValue('money', atEnd);
    if (by === 'warehouse' && atEnd !== 0n) groups.add('0', {}, { receivable: atEnd });
    if (by === 'day') for (const d of days) groups.add(d, {}, { receivable: d === to ? atEnd : sum(await receivablesAtEndOf(tenant, d, tzHours)) });
  }
  const list = groups.list();
  await labelGroups(tenant, by, list);
  // what has no warehouse or salesman: receipts (and receivables, by warehouse)
  const other = by === 'warehouse' ? '（收款与应收，不分仓库）' : '（未指定业务员；收款）';
  for (const g of list) if (by !== 'day' && g.key === '0') g.labels = { ...g.labels, [`${by}Name`]: other, label: other };
  const blank = [...(withStock ? [] : ['stockValue']), ...(withReceivable ? [] : ['receivable'])];
  if (!withStock) extra.stockValue = null;
  if (!withReceivable) extra.receivable = null;
  return { list, extra, blank, from, to };
}

export async function clapperReport(ctx: CallContext, input: ClapperReportInput) {
  const { list, extra, blank, from, to } = await clapperGroups(ctx, input);
  const page = reportPage(list, screenGroupings(SCREEN)[input.groupBy]!, CLAPPER_MEASURES, input, extra);
  if (blank.length) for (const row of page.list) for (const f of blank) row[f] = null;
  return { ...page, from, to };
}

export async function exportClapperReport(ctx: CallContext, input: ClapperReportInput) {
  const { list, extra } = await clapperGroups(ctx, input);
  return reportXlsx('日结报表', screenGroupings(SCREEN)[input.groupBy]!, CLAPPER_MEASURES, list, input, tz(ctx), extra);
}
