// 日结报表 (clapper) and 综合汇总报表 (summaryAll): the company's days over a date range (company days) —
//   orders / sales amount: sales orders past draft and not cancelled, by order date (本位币金额);
//   purchase amount (summaryAll): purchase order lines past draft and not cancelled, by order date, each
//     line at its order's rate (as 采购报表 counts them);
//   deliveries / delivered qty: delivery notes shipped (posted or signed), by the company day they were posted;
//   receipts and payments: posted 收款 / 付款 documents, by their date, in the company currency;
//   stock value: on hand at the end of the day × the product's reference price (参考价);
//   receivables: clients' open receivables at the end of the day (company currency).
// The two balances are read from the daily closing's snapshots plus the movements since (closing.ts), never
// from the whole ledger: each period's end from the latest snapshot on or before it, or — when no day was
// closed since the previous period's end — from that end plus the movements in between. By day, week or month each row has the balances at the end of its period (or of the
// range, if sooner); by warehouse the stock value at the end of the range (receipts and receivables have no
// warehouse: they stand in their own row); by salesman the balances are not split (empty). The grand totals
// of a balance are its value at the end of the range, not a sum over periods. A warehouse filter leaves out
// receipts, payments and receivables; a salesman filter also purchases and the stock value. The range is at
// most 366 days. Which groupings a screen offers is its schema's.
import { sql } from 'kysely';
import { companyDateRange, formatDate } from '../../../core/format.ts';
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import { validationError } from '../../http/errors.ts';
import { tz } from '../procurement/common.ts';
import { TypedTenant } from '../../db/typed.ts';
import { balancesAt, companyToday, openItemsKind, stockValueAtEndOf, stockValueKind, type BalanceKind } from './closing.ts';
import { big, dayRange, Groups, measures, measureValue, mustExist, reportPage, reportXlsx, type Measure, type ReportPaging, type Row } from './common.ts';
import { labelGroups, PERIODS, periodKey } from './dimensions.ts';
import { SOLD_STATUSES } from './sale-report.ts';
import { screenGroupings, reportInput } from './screen-groupings.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Q = any;

const MAX_DAYS = 366;

interface Variant {
  screen: string;
  title: string;
  measures: Measure[];
}

const variant = (screen: string, title: string, rows: Parameters<typeof measures>[0]): Variant => ({ screen, title, measures: measures(rows) });

const CLAPPER = variant('reportForms/clapper', '日结报表', [
  ['orderCount', '订单数', 'qty'], ['salesAmount', '销售金额', 'money'], ['deliveryCount', '发货单数', 'qty'], ['deliveredQty', '发货数量', 'qty'],
  ['receiptCount', '收款笔数', 'qty'], ['receiptAmount', '收款金额', 'money'], ['stockValue', '日终库存金额', 'money'], ['receivable', '日终应收余额', 'money'],
]);

const SUMMARY = variant('reportForms/summaryAll', '综合汇总报表', [
  ['purchaseAmount', '采购金额', 'money'], ['orderCount', '销售订单数', 'qty'], ['salesAmount', '销售金额', 'money'], ['deliveredQty', '发货数量', 'qty'],
  ['receiptAmount', '收款金额', 'money'], ['paymentAmount', '付款金额', 'money'], ['stockValue', '期末库存金额', 'money'], ['receivable', '期末应收余额', 'money'],
]);

const inputOf = (v: Variant): InputSchema => (reportInput(v.screen, {
  warehouseId: { type: ['integer', 'null'], minimum: 1, title: '仓库' },
  salesmanId: { type: ['integer', 'null'], minimum: 1, title: '业务员' },
}));

export const CLAPPER_REPORT_INPUT = inputOf(CLAPPER);
export const SUMMARY_REPORT_INPUT = inputOf(SUMMARY);

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

const sum = (m: Map<unknown, bigint>) => [...m.values()].reduce((a, b) => a + b, 0n);

async function figures(ctx: CallContext, v: Variant, input: ClapperReportInput) {
  const tenant = ctx.tenant;
  const t = TypedTenant.of(tenant);
  const tzHours = tz(ctx);
  const range = dayRange(input.dateRange, tzHours);
  const today = companyToday(tzHours);
  // no dates: the period that holds today, from its start — a row labelled 2026-11 is the whole month so
  // far, not its last day
  const periodStart = input.groupBy === 'month' ? `${periodKey('month', today)}-01` : PERIODS.has(input.groupBy) ? periodKey(input.groupBy, today) : today;
  const from = range.from ?? range.to ?? periodStart;
  const to = range.to ?? (range.from && range.from > today ? range.from : today);
  const days = daysBetween(from, to);
  if (days.length > MAX_DAYS) throw validationError([{ field: 'dateRange', message: `日期范围不能超过 ${MAX_DAYS} 天` }]);
  await mustExist(tenant, 'warehouse', input.warehouseId, 'warehouseId', '仓库');
  await mustExist(tenant, 'staff', input.salesmanId, 'salesmanId', '业务员');
  const [fromAt, toAt] = companyDateRange(from, to, tzHours);
  const by = input.groupBy;
  const period = PERIODS.has(by);
  const has = new Set(v.measures.map((m) => m.field));
  const groups = new Groups(v.measures);
  const keyOf = (k: unknown) => (k === null || k === undefined ? '0' : String(Number(k)));
  const dayKey = (day: string) => periodKey(by, day);
  if (period) for (const d of days) groups.add(dayKey(d), {}, {});

  // sales orders by order date
  let so = t.select('salesOrder').where('salesOrder.status', 'in', SOLD_STATUSES).where('salesOrder.orderDate', '>=', from).where('salesOrder.orderDate', '<=', to);
  if (input.warehouseId) so = so.where('salesOrder.warehouseId', '=', input.warehouseId);
  if (input.salesmanId) so = so.where('salesOrder.salesmanId', '=', input.salesmanId);
  const soRef = period ? 'salesOrder.orderDate' : by === 'warehouse' ? 'salesOrder.warehouseId' : 'salesOrder.salesmanId';
  for (const r of await so.select((eb) => [`${soRef} as k`, eb.fn.countAll().as('n'), eb.fn.sum('salesOrder.totalAmountBase').as('amount')]).groupBy(soRef).execute()) {
    groups.add(period ? dayKey(String(r.k)) : keyOf(r.k), {}, { orderCount: big(r.n), salesAmount: big(r.amount) });
  }

  // purchase order lines by order date, each at its order's rate (no salesman: left out by that filter)
  if (has.has('purchaseAmount') && !input.salesmanId && by !== 'staff') {
    let po = t.select('purchaseOrderLine')
      .innerJoin('purchaseOrder', (j) => j.onRef('purchaseOrder.id', '=', 'purchaseOrderLine.orderId').onRef('purchaseOrder.companyId', '=', 'purchaseOrderLine.companyId'))
      .where('purchaseOrder.status', 'in', ['confirmed', 'partlyReceived', 'received', 'closed'])
      .where('purchaseOrder.orderDate', '>=', from).where('purchaseOrder.orderDate', '<=', to);
    if (input.warehouseId) po = po.where('purchaseOrder.warehouseId', '=', input.warehouseId);
    const poRef = period ? 'purchaseOrder.orderDate' : 'purchaseOrder.warehouseId';
    const base = ctx.database.dialect === 'postgres'
      ? sql`div(cast(${sql.ref('purchaseOrderLine.amount')} as numeric) * ${sql.ref('purchaseOrder.exchangeRate')} + 500000, 1000000)`
      : sql`(${sql.ref('purchaseOrderLine.amount')} * ${sql.ref('purchaseOrder.exchangeRate')} + 500000) / 1000000`;
    for (const r of await po.select([`${poRef} as k`, sql`sum(${base})`.as('amount')]).groupBy(poRef).execute()) {
      groups.add(period ? dayKey(String(r.k)) : keyOf(r.k), {}, { purchaseAmount: big(r.amount) });
    }
  }

  // delivery notes shipped, by the company day they were posted
  // (the join to the order is there only by salesman, a shape decided at run time: the untyped builder)
  let dn: Q = tenant.select('deliveryNote').where('deliveryNote.status', 'in', ['posted', 'signed']).where('deliveryNote.postedAt', '>=', fromAt).where('deliveryNote.postedAt', '<=', toAt);
  if (by === 'staff' || input.salesmanId) {
    dn = dn.leftJoin('salesOrder', (j: Q) => j.onRef('salesOrder.id', '=', 'deliveryNote.orderId').onRef('salesOrder.companyId', '=', 'deliveryNote.companyId'));
  }
  if (input.warehouseId) dn = dn.where('deliveryNote.warehouseId', '=', input.warehouseId);
  if (input.salesmanId) dn = dn.where('salesOrder.salesmanId', '=', input.salesmanId);
  const dnRef = period ? 'deliveryNote.postedAt' : by === 'warehouse' ? 'deliveryNote.warehouseId' : 'salesOrder.salesmanId';
  const shipped: Row[] = await dn.select((eb: Q) => [`${dnRef} as k`, eb.fn.countAll().as('n'), eb.fn.sum('deliveryNote.totalQty').as('qty')]).groupBy(dnRef).execute();
  for (const r of shipped) {
    groups.add(period ? dayKey(formatDate(String(r.k), tzHours)) : keyOf(r.k), {}, { deliveryCount: big(r.n), deliveredQty: big(r.qty) });
  }

  // receipts and payments (no warehouse, no salesman: left out by those filters, in the row of their own)
  if (!input.warehouseId && !input.salesmanId) {
    for (const [direction, count, amount] of [['receipt', 'receiptCount', 'receiptAmount'], ['payment', 'paymentCount', 'paymentAmount']] as const) {
      if (!has.has(amount)) continue;
      const pd = t.select('payDocument').where('payDocument.direction', '=', direction).where('payDocument.status', '=', 'posted')
        .where('payDocument.payDate', '>=', from).where('payDocument.payDate', '<=', to);
      // (by period the rows carry their day, else one row without it: both shapes declared Row)
      const rows: Row[] = period ? await pd.select((eb) => ['payDocument.payDate as k', eb.fn.countAll().as('n'), eb.fn.sum('payDocument.amountBase').as('amount')]).groupBy('payDocument.payDate').execute()
        : await pd.select((eb) => [eb.fn.countAll().as('n'), eb.fn.sum('payDocument.amountBase').as('amount')]).execute();
      for (const r of rows) {
        if (!period && big(r.n) === 0n) continue;
        groups.add(period ? dayKey(String(r.k)) : '0', {}, { [count]: big(r.n), [amount]: big(r.amount) });
      }
    }
  }

  // balances at the end of each period (or of the range): the first from the snapshots, each next by the moves since
  const extra: Row = {};
  const withStock = !input.salesmanId && by !== 'staff';
  const withReceivable = !input.warehouseId && !input.salesmanId && by !== 'staff';
  const checkpoints = period ? days.filter((d, i) => i === days.length - 1 || dayKey(days[i + 1]!) !== dayKey(d)) : [to];
  /** each checkpoint's balance in its period's row; the last is the range's, its grand total */
  const balances = async (field: string, kind: BalanceKind) => {
    const values = await balancesAt(tenant, kind, checkpoints, tzHours);
    if (period) checkpoints.forEach((d, i) => groups.add(dayKey(d), {}, { [field]: values[i]! }));
    extra[field] = measureValue('money', values[values.length - 1]!);
    return values[values.length - 1]!;
  };
  if (withStock) {
    if (by === 'warehouse') {
      const atEnd = await stockValueAtEndOf(tenant, ctx.database.dialect, to, tzHours, input.warehouseId);
      for (const [w, val] of atEnd) if (val !== 0n) groups.add(String(w), {}, { stockValue: val });
      extra.stockValue = measureValue('money', sum(atEnd));
    } else {
      await balances('stockValue', stockValueKind(tenant, ctx.database.dialect, tzHours, input.warehouseId));
    }
  }
  if (withReceivable) {
    const value = await balances('receivable', openItemsKind(tenant, 'receivable', tzHours));
    if (by === 'warehouse' && value !== 0n) groups.add('0', {}, { receivable: value });
  }
  const list = groups.list();
  await labelGroups(tenant, by, list);
  // what has no warehouse or salesman: receipts and payments (and receivables, by warehouse)
  const other = by === 'warehouse' ? '（收付款与应收，不分仓库）' : '（未指定业务员；收付款）';
  for (const g of list) if (!period && g.key === '0') g.labels = { ...g.labels, [`${by}Name`]: other, label: other };
  const blank = [...(withStock ? [] : ['stockValue']), ...(withReceivable ? [] : ['receivable'])];
  for (const f of blank) extra[f] = null;
  return { list, extra, blank, from, to };
}

async function report(ctx: CallContext, v: Variant, input: ClapperReportInput) {
  const { list, extra, blank, from, to } = await figures(ctx, v, input);
  const page = reportPage(list, screenGroupings(v.screen)[input.groupBy]!, v.measures, input, extra);
  if (blank.length) for (const row of page.list) for (const f of blank) row[f] = null;
  return { ...page, from, to };
}

async function exportReport(ctx: CallContext, v: Variant, input: ClapperReportInput) {
  const { list, extra } = await figures(ctx, v, input);
  return reportXlsx(v.title, screenGroupings(v.screen)[input.groupBy]!, v.measures, list, input, tz(ctx), extra);
}

export const clapperReport = (ctx: CallContext, input: ClapperReportInput) => report(ctx, CLAPPER, input);
export const exportClapperReport = (ctx: CallContext, input: ClapperReportInput) => exportReport(ctx, CLAPPER, input);
export const summaryReport = (ctx: CallContext, input: ClapperReportInput) => report(ctx, SUMMARY, input);
export const exportSummaryReport = (ctx: CallContext, input: ClapperReportInput) => exportReport(ctx, SUMMARY, input);
