// 财务报表 (/reportForms/finance): the money that came in and went out — posted receipts and payments
// (收款单 / 付款单 that are neither drafts, cancelled nor reversed) by 收付日期, and posted refunds of
// advances (退款单: to a client = out, from a supplier = in) by 退款日期: count and amount in the
// company currency (amount_base) of each direction, and the net (receipts less payments), in cents. By day,
// week, month or settlement method — the groupings of its screen schema; filters dates and method.
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import { tz } from '../procurement/common.ts';
import { TypedTenant } from '../../db/typed.ts';
import { big, dayRange, Groups, reportPage, reportXlsx, type Measure, type ReportPaging } from './common.ts';
import { labelGroups, NONE, PERIODS, periodKey } from './dimensions.ts';
import { screenGroupings, reportInput } from './screen-groupings.ts';

const SCREEN = 'reportForms/finance';
const METHODS: Record<string, string> = { bank: '银行转账', cash: '现金', cheque: '支票' };

export const CASH_MEASURES: Measure[] = [
  { field: 'receiptCount', title: '收款笔数', kind: 'qty' },
  { field: 'receiptAmount', title: '收款金额', kind: 'money' },
  { field: 'paymentCount', title: '付款笔数', kind: 'qty' },
  { field: 'paymentAmount', title: '付款金额', kind: 'money' },
  // refunds of advances apart, so 收款 / 付款 are exactly the posted 收款单 / 付款单 of 026001 (issue 33 §5)
  { field: 'refundInAmount', title: '供应商退款（收）', kind: 'money' },
  { field: 'refundOutAmount', title: '退客户款（付）', kind: 'money' },
  { field: 'netAmount', title: '净收款', kind: 'money' },
];

export const CASH_REPORT_INPUT: InputSchema = reportInput(SCREEN, {
  method: { enum: [...Object.keys(METHODS), null], title: '结算方式' },
});

export interface CashReportInput extends ReportPaging {
  groupBy: string;
  dateRange?: unknown;
  method?: string | null;
}

async function cashGroups(ctx: CallContext, input: CashReportInput) {
  const tenant: Tenant = ctx.tenant;
  const range = dayRange(input.dateRange, tz(ctx));
  let q = TypedTenant.of(tenant).select('payDocument').where('payDocument.status', '=', 'posted');
  if (range.from) q = q.where('payDocument.payDate', '>=', range.from);
  if (range.to) q = q.where('payDocument.payDate', '<=', range.to);
  if (input.method) q = q.where('payDocument.method', '=', input.method);
  const period = PERIODS.has(input.groupBy);
  const ref = period ? 'payDocument.payDate' : 'payDocument.method';
  const rows = await q.select((eb) => [`${ref} as k`, 'payDocument.direction as d', eb.fn.countAll().as('n'), eb.fn.sum('payDocument.amountBase').as('amount')])
    .groupBy([ref, 'payDocument.direction']).execute();
  const groups = new Groups(CASH_MEASURES);
  for (const r of rows) {
    const key = period ? periodKey(input.groupBy, String(r.k)) : r.k === null || r.k === undefined || r.k === '' ? '' : String(r.k);
    const amount = big(r.amount);
    if (r.d === 'receipt') groups.add(key, {}, { receiptCount: big(r.n), receiptAmount: amount, netAmount: amount });
    else groups.add(key, {}, { paymentCount: big(r.n), paymentAmount: amount, netAmount: -amount });
  }
  // refunds of advances (退款单) moved money too: one to a client went out, one returned by a supplier came
  // in — counted on their refund date, in company currency at its rate, in their own columns and the net
  let rq = TypedTenant.of(tenant).select('advanceRefund').where('advanceRefund.status', '=', 'posted');
  if (range.from) rq = rq.where('advanceRefund.refundDate', '>=', range.from);
  if (range.to) rq = rq.where('advanceRefund.refundDate', '<=', range.to);
  if (input.method) rq = rq.where('advanceRefund.method', '=', input.method);
  const refundRef = period ? 'advanceRefund.refundDate' : 'advanceRefund.method';
  const refunds = await rq.select((eb) => [`${refundRef} as k`, 'advanceRefund.partyType as p', eb.fn.countAll().as('n'), eb.fn.sum('advanceRefund.amountBase').as('amount')])
    .groupBy([refundRef, 'advanceRefund.partyType']).execute();
  for (const r of refunds) {
    const key = period ? periodKey(input.groupBy, String(r.k)) : r.k === null || r.k === undefined || r.k === '' ? '' : String(r.k);
    const amount = big(r.amount);
    if (r.p === 'supplier') groups.add(key, {}, { refundInAmount: amount, netAmount: amount });
    else groups.add(key, {}, { refundOutAmount: amount, netAmount: -amount });
  }
  const list = groups.list();
  if (period) await labelGroups(tenant, input.groupBy, list);
  else for (const g of list) g.labels = { method: g.key || null, methodText: METHODS[g.key] ?? NONE, label: METHODS[g.key] ?? NONE };
  return list;
}

export async function cashReport(ctx: CallContext, input: CashReportInput) {
  return reportPage(await cashGroups(ctx, input), screenGroupings(SCREEN)[input.groupBy]!, CASH_MEASURES, input);
}

export async function exportCashReport(ctx: CallContext, input: CashReportInput) {
  return reportXlsx('财务报表', screenGroupings(SCREEN)[input.groupBy]!, CASH_MEASURES, await cashGroups(ctx, input), input, tz(ctx));
}
