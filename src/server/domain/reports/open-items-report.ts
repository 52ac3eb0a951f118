// 应收报表 (/reportForms/receivable) and 应付报表 (/reportForms/dealWith): the finance ledger's open items
// (domain/finance/ledger.ts) of one side — receivables of clients (sales invoices, opening balances, bounced
// cheques' fees) or payables of suppliers (purchase invoices, opening balances) — not cancelled, by their
// document date: 发生额 (amount_base), 已收 / 已付 (allocated_base: what receipts or payments allocated to them
// so far, net of reversals, at the item's rate) and 未结 (the difference, what the aging shows open), all in
// the company currency in cents, so every grouping adds up to the same cents. Grouped by month, week, or
// the party — the groupings of each screen's schema.
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import { tz } from '../procurement/common.ts';
import { big, DATE_RANGE_INPUT, dayRange, Groups, mustExist, PAGING, reportPage, reportXlsx, type Measure, type ReportPaging, type Row } from './common.ts';
import { labelGroups, PERIODS, periodKey } from './dimensions.ts';
import { groupByInput, screenGroupings } from './screen-groupings.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Q = any;

interface Side {
  screen: string;
  title: string;
  side: 'receivable' | 'payable';
  party: 'client' | 'supplier';
  partyTitle: string;
  measures: Measure[];
}

const SIDES = {
  receivable: {
    screen: 'reportForms/receivable', title: '应收报表', side: 'receivable', party: 'client', partyTitle: '客户',
    measures: [
      { field: 'amount', title: '应收金额', kind: 'money' },
      { field: 'settled', title: '已收金额', kind: 'money' },
      { field: 'open', title: '未收金额', kind: 'money' },
    ],
  },
  payable: {
    screen: 'reportForms/dealWith', title: '应付报表', side: 'payable', party: 'supplier', partyTitle: '供应商',
    measures: [
      { field: 'amount', title: '应付金额', kind: 'money' },
      { field: 'settled', title: '已付金额', kind: 'money' },
      { field: 'open', title: '未付金额', kind: 'money' },
    ],
  },
} satisfies Record<string, Side>;

function input(s: Side): InputSchema {
  return {
    type: 'object',
    properties: {
      ...PAGING,
      groupBy: groupByInput(s.screen),
      dateRange: DATE_RANGE_INPUT,
      [`${s.party}Id`]: { type: ['integer', 'null'], minimum: 1, title: s.partyTitle },
      sourceType: { enum: ['salesInvoice', 'purchaseInvoice', 'openingBalance', 'chequeBounce', null], title: '来源' },
      onlyOpen: { type: ['boolean', 'null'], title: '只看未结清' },
    },
  };
}

export const RECEIVABLE_REPORT_INPUT = input(SIDES.receivable);
export const PAYABLE_REPORT_INPUT = input(SIDES.payable);

export interface OpenItemsReportInput extends ReportPaging {
  groupBy: string;
  dateRange?: unknown;
  clientId?: number | null;
  supplierId?: number | null;
  sourceType?: string | null;
  onlyOpen?: boolean | null;
}

async function openItemGroups(ctx: CallContext, s: Side, input: OpenItemsReportInput) {
  const tenant: Tenant = ctx.tenant;
  const range = dayRange(input.dateRange, tz(ctx));
  const partyId = s.party === 'client' ? input.clientId : input.supplierId;
  await mustExist(tenant, s.party, partyId, `${s.party}Id`, s.partyTitle);
  let q: Q = tenant.select('openItem').where('openItem.side', '=', s.side).where('openItem.partyType', '=', s.party)
    .where('openItem.status', '!=', 'cancelled');
  if (range.from) q = q.where('openItem.docDate', '>=', range.from);
  if (range.to) q = q.where('openItem.docDate', '<=', range.to);
  if (partyId) q = q.where('openItem.partyId', '=', partyId);
  if (input.sourceType) q = q.where('openItem.sourceType', '=', input.sourceType);
  if (input.onlyOpen) q = q.where('openItem.status', '=', 'open');
  const period = PERIODS.has(input.groupBy);
  const ref = period ? 'openItem.docDate' : 'openItem.partyId';
  const rows = (await q.select((eb: Q) => [`${ref} as k`, eb.fn.sum('openItem.amountBase').as('amount'), eb.fn.sum('openItem.allocatedBase').as('settled')])
    .groupBy(ref).execute()) as Row[];
  const groups = new Groups(s.measures);
  for (const r of rows) {
    const key = period ? periodKey(input.groupBy, String(r.k)) : String(Number(r.k));
    const amount = big(r.amount);
    const settled = big(r.settled);
    groups.add(key, {}, { amount, settled, open: amount - settled });
  }
  const list = groups.list();
  await labelGroups(tenant, period ? input.groupBy : s.party, list);
  return list;
}

const page = (s: Side) => async (ctx: CallContext, input: OpenItemsReportInput) =>
  reportPage(await openItemGroups(ctx, s, input), screenGroupings(s.screen)[input.groupBy]!, s.measures, input);
const xlsx = (s: Side) => async (ctx: CallContext, input: OpenItemsReportInput) =>
  reportXlsx(s.title, screenGroupings(s.screen)[input.groupBy]!, s.measures, await openItemGroups(ctx, s, input), input, tz(ctx));

export const receivableReport = page(SIDES.receivable);
export const exportReceivableReport = xlsx(SIDES.receivable);
export const payableReport = page(SIDES.payable);
export const exportPayableReport = xlsx(SIDES.payable);
