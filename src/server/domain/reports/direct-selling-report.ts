// 直销报表 (/reportForms/direct_selling): the sales of 销售报表 — lines of sales orders past draft and not
// cancelled, by order date, at each order's rate in the company currency — split by the client's 销售渠道:
// 直销 (sold to the end user) and 经销 (sold to a dealer), with the quantity and amount of each and the
// amount in all. The channel is the client's as it is now (client.channel, migration 034). Grouped by day,
// week, month, client, product, category, salesman or warehouse — the groupings of its screen schema
// (schemas/screens/reportForms/direct_selling.json); filtered like 销售报表, and by channel.
import { sql } from 'kysely';
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import { tz } from '../procurement/common.ts';
import { big, Groups, reportPage, reportXlsx, type Measure, type Row } from './common.ts';
import { labelGroups } from './dimensions.ts';
import { lineBase, SALE_REPORT_INPUT, soldKey, soldLines, type SaleReportInput } from './sale-report.ts';
import { groupByInput, screenGroupings } from './screen-groupings.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Q = any;

const SCREEN = 'reportForms/direct_selling';

export const CHANNELS = { direct: '直销', dealer: '经销' } as const;
type Channel = keyof typeof CHANNELS;

export const DIRECT_SELLING_MEASURES: Measure[] = [
  { field: 'directQty', title: '直销数量', kind: 'qty' },
  { field: 'directAmount', title: '直销金额', kind: 'money' },
  { field: 'dealerQty', title: '经销数量', kind: 'qty' },
  { field: 'dealerAmount', title: '经销金额', kind: 'money' },
  { field: 'amount', title: '销售金额合计', kind: 'money' },
];

export const DIRECT_SELLING_INPUT: InputSchema = {
  type: 'object',
  properties: {
    ...(SALE_REPORT_INPUT.properties as Record<string, unknown>),
    groupBy: groupByInput(SCREEN),
    channel: { enum: [...Object.keys(CHANNELS), null], title: '销售渠道' },
  },
};

export interface DirectSellingInput extends SaleReportInput {
  channel?: Channel | null;
}

async function directSellingGroups(ctx: CallContext, input: DirectSellingInput) {
  const { q: lines, ref, period } = await soldLines(ctx, input);
  // (sold lines are the untyped builder: their grouping column is named at run time)
  let q: Q = lines.innerJoin('client', (j: Q) => j.onRef('client.id', '=', 'salesOrder.clientId').onRef('client.companyId', '=', 'salesOrder.companyId'));
  if (input.channel) q = q.where('client.channel', '=', input.channel);
  const rows: Row[] = await q.select((eb: Q) => [
    `${ref} as k`, 'client.channel as channel', eb.fn.sum('salesOrderLine.qty').as('qty'), sql`sum(${lineBase(ctx.database.dialect)})`.as('amount'),
  ]).groupBy([ref, 'client.channel']).execute();
  const groups = new Groups(DIRECT_SELLING_MEASURES);
  for (const r of rows) {
    const side = r.channel === 'dealer' ? 'dealer' : 'direct';
    const amount = big(r.amount);
    groups.add(soldKey(input.groupBy, period, r.k), {}, { [`${side}Qty`]: big(r.qty), [`${side}Amount`]: amount, amount });
  }
  const list = groups.list();
  await labelGroups(ctx.tenant, input.groupBy, list);
  return list;
}

export async function directSellingReport(ctx: CallContext, input: DirectSellingInput) {
  return reportPage(await directSellingGroups(ctx, input), screenGroupings(SCREEN)[input.groupBy]!, DIRECT_SELLING_MEASURES, input);
}

export async function exportDirectSellingReport(ctx: CallContext, input: DirectSellingInput) {
  return reportXlsx('直销报表', screenGroupings(SCREEN)[input.groupBy]!, DIRECT_SELLING_MEASURES, await directSellingGroups(ctx, input), input, tz(ctx));
}
