// 数据大屏 (issue 16): one answer per refresh holding every panel of a wall screen, so the screen makes a
// single call every 30 s. Two walls over the same figures:
//   sales (/dataReport, oms 023201): sales, orders and receipts of today against yesterday and of this
//     month against last month to the same day, the month's daily sales, top products and clients, sales
//     by province, the month's collection rate;
//   all (/dataReport/all, oms 023202): the sales wall plus shipments, stock value (today against the end
//     of yesterday), receivables and overdue receivables, and the warehouses' open work.
// Money: exact decimal text in the company currency for tiles and lists; yuan as numbers only inside the
// chart data (drawn, never added up). Scoped to the caller's company by the tenant.
import { centsText } from '../reports/common.ts';
import { companyToday } from '../reports/closing.ts';
import type { CallContext } from '../../catalog/context.ts';
import { TypedTenant } from '../../db/typed.ts';
import { tz } from '../procurement/common.ts';
import {
  clientsAndProvinces, overdueReceivables, periodTallies, receiptsByDay, receivableBalance, salesByDay, shipments, stockValue, topProducts,
  warehouseWorkload, type Ranked, type Tally,
} from './figures.ts';
import { daysFrom, periodsOf, type Periods } from './periods.ts';

export const TOP_N = 10;

/** Both walls take no input: the figures are always of the company's today. */
export const DASHBOARD_INPUT = { type: 'object', properties: {} };

export type Wall = 'sales' | 'all';

const yuan = (cents: bigint) => Number(cents) / 100;
const count = (n: bigint) => Number(n);

/** The month's sales per day of this month (1日…its last day), this month so far against last month. */
function trend(byDay: Map<string, Tally>, p: Periods) {
  const [y, m] = p.monthStart.split('-').map(Number) as [number, number];
  const monthDays = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const labels = Array.from({ length: monthDays }, (_, i) => `${i + 1}日`);
  const day = (prefix: string, i: number) => `${prefix}-${String(i + 1).padStart(2, '0')}`;
  const lastMonthDays = daysFrom(p.lastMonthStart, p.monthStart).length - 1;
  return {
    labels,
    series: [
      { name: '本月', values: labels.slice(0, Number(p.today.slice(8))).map((_, i) => yuan(byDay.get(day(p.monthStart.slice(0, 7), i))?.cents ?? 0n)) },
      { name: '上月', values: labels.slice(0, lastMonthDays).map((_, i) => yuan(byDay.get(day(p.lastMonthStart.slice(0, 7), i))?.cents ?? 0n)) },
    ],
  };
}

const ranked = (rows: Ranked[], qtyName: string) =>
  rows.map((r, i) => ({ rank: i + 1, id: r.id, code: r.code, name: r.name, amount: centsText(r.cents), [qtyName]: count(r.qty) }));

async function companyHeader(ctx: CallContext) {
  const tenant = TypedTenant.of(ctx.tenant);
  const base = await tenant.select('currency').select(['code', 'currencyName', 'currencyCharacter']).where('isBase', '=', 1).executeTakeFirst();
  return {
    companyName: ctx.caller!.company.name,
    currencyCode: base?.code ?? '',
    currencyCharacter: base?.currencyCharacter ?? '',
  };
}

/** Every figure of a wall, as of now. */
export async function dashboard(ctx: CallContext, wall: Wall) {
  const tzHours = tz(ctx);
  const p = periodsOf(companyToday(tzHours), tzHours);
  const tenant = TypedTenant.of(ctx.tenant);
  const dialect = ctx.database.dialect;
  // the whole-company reads start with the sales ones (PostgreSQL runs them side by side on the pool)
  const more = wall === 'all' ? Promise.all([
    shipments(tenant, p), stockValue(ctx.tenant, dialect, p.today, tzHours), stockValue(ctx.tenant, dialect, p.yesterday, tzHours),
    receivableBalance(ctx.tenant, p.today, tzHours), overdueReceivables(tenant, p.today, TOP_N), warehouseWorkload(tenant),
  ]) : null;
  // (settled with the sales reads, so a failure of either is not left unhandled while the other runs)
  const [[header, sales, receipts, products, { top: clients, provinces: regions }], rest] = await Promise.all([Promise.all([
    companyHeader(ctx), salesByDay(tenant, p), receiptsByDay(tenant, p), topProducts(tenant, dialect, p, TOP_N), clientsAndProvinces(tenant, p, TOP_N),
  ]), more]);
  const s = periodTallies(sales, p);
  const r = periodTallies(receipts, p);
  const rate = s.month.cents > 0n ? Number((r.month.cents * 10000n) / s.month.cents) / 100 : 0;
  const answer: Record<string, unknown> = {
    ...header,
    wall,
    today: p.today,
    asOf: new Date().toISOString(),
    salesToday: centsText(s.today.cents), salesYesterday: centsText(s.yesterday.cents),
    ordersToday: count(s.today.count), ordersYesterday: count(s.yesterday.count),
    salesMonth: centsText(s.month.cents), salesLastMonth: centsText(s.lastMonth.cents),
    ordersMonth: count(s.month.count), ordersLastMonth: count(s.lastMonth.count),
    receiptsToday: centsText(r.today.cents), receiptsYesterday: centsText(r.yesterday.cents),
    receiptsMonth: centsText(r.month.cents), receiptsLastMonth: centsText(r.lastMonth.cents),
    salesTrend: trend(sales, p),
    topProducts: ranked(products, 'qty'),
    topClients: ranked(clients, 'orders'),
    salesByRegion: { items: [...regions].filter(([, v]) => v !== 0n).sort((a, b) => (b[1] > a[1] ? 1 : b[1] < a[1] ? -1 : 0)).map(([name, v]) => ({ name, value: yuan(v) })) },
    collectionRate: { value: Math.min(rate, 100), max: 100, name: '本月回款率' },
  };
  if (!rest) return answer;

  const [ship, stockNow, stockYesterday, receivable, overdue, workload] = rest;
  return {
    ...answer,
    shipmentsToday: count(ship.today), shipmentsYesterday: count(ship.yesterday), shippedQtyToday: count(ship.todayQty),
    shipmentsMonth: count(ship.month), shipmentsLastMonth: count(ship.lastMonth), shippedQtyMonth: count(ship.monthQty),
    stockValue: centsText(stockNow), stockValueYesterday: centsText(stockYesterday),
    receivable: centsText(receivable),
    overdueReceivable: centsText(overdue.cents), overdueItems: count(overdue.items), overdueClients: count(overdue.clients),
    overdueTop: overdue.top.map((o, i) => ({ rank: i + 1, id: o.id, code: o.code, name: o.name, amount: centsText(o.cents), oldestDue: o.oldest })),
    workload: {
      labels: workload.map((w) => w.name),
      series: [
        { name: '待拣货出库任务', values: workload.map((w) => count(w.outboundOpen)) },
        { name: '拣货中出库任务', values: workload.map((w) => count(w.outboundPicking)) },
        { name: '未过账拣货单', values: workload.map((w) => count(w.picking)) },
        { name: '待收货入库任务', values: workload.map((w) => count(w.inbound)) },
      ],
    },
    outboundOpen: count(workload.reduce((a, w) => a + w.outboundOpen + w.outboundPicking, 0n)),
    pickingOpen: count(workload.reduce((a, w) => a + w.picking, 0n)),
    inboundOpen: count(workload.reduce((a, w) => a + w.inbound, 0n)),
  };
}
