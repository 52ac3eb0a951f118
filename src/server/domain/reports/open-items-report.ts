// 应收报表 (/reportForms/receivable) and 应付报表 (/reportForms/dealWith): the finance ledger's open items
// (domain/finance/ledger.ts) of one side — receivables of clients (sales invoices, opening balances, bounced
// cheques' fees) or payables of suppliers (purchase invoices, opening balances) — not cancelled, by their
// document date: 发生额 (amount_base), 已收 / 已付 (allocated_base: what receipts or payments allocated to them
// so far, net of reversals, at the item's rate) and 未结 (the difference, what the aging shows open), all in
// the company currency in cents, so every grouping adds up to the same cents. Grouped by month, week, or
// the party — the groupings of each screen's schema.
// The payables report also shows 期末未付 (balance): the open payables at the end of each period (by month or
// week; a period still running, at the end of today) or, by supplier, each supplier's at the end of the range
// — read from the daily closing's payable snapshot plus what was recorded since (closing.ts), never the whole
// ledger; suppliers with a balance but no item in the range are listed too. Its grand total is the value at
// the end of the range, not a sum. It is empty with a source or 只看未结清 filter (a balance has neither).
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import { tz } from '../procurement/common.ts';
import { TypedTenant } from '../../db/typed.ts';
import { balancesAt, companyToday, openAtEndOf, openItemsKind, type Side as ClosingSide } from './closing.ts';
import { big, dayRange, Groups, measureValue, mustExist, reportPage, reportXlsx, type Measure, type ReportPaging, type Row } from './common.ts';
import { labelGroups, PERIODS, periodKey } from './dimensions.ts';
import { screenGroupings, reportInput } from './screen-groupings.ts';

interface Side {
  /** 期末未付 from the daily closing's snapshots (payables) */
  balance?: boolean;
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
    screen: 'reportForms/dealWith', title: '应付报表', side: 'payable', party: 'supplier', partyTitle: '供应商', balance: true,
    measures: [
      { field: 'amount', title: '应付金额', kind: 'money' },
      { field: 'settled', title: '已付金额', kind: 'money' },
      { field: 'open', title: '未付金额', kind: 'money' },
      { field: 'balance', title: '期末未付', kind: 'money' },
    ],
  },
} satisfies Record<string, Side>;

function input(s: Side): InputSchema {
  return reportInput(s.screen, {
    [`${s.party}Id`]: { type: ['integer', 'null'], minimum: 1, title: s.partyTitle },
    sourceType: { enum: ['salesInvoice', 'purchaseInvoice', 'openingBalance', 'chequeBounce', null], title: '来源' },
    onlyOpen: { type: ['boolean', 'null'], title: '只看未结清' },
  });
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
  let q = TypedTenant.of(tenant).select('openItem').where('openItem.side', '=', s.side).where('openItem.partyType', '=', s.party)
    .where('openItem.status', '!=', 'cancelled');
  if (range.from) q = q.where('openItem.docDate', '>=', range.from);
  if (range.to) q = q.where('openItem.docDate', '<=', range.to);
  if (partyId) q = q.where('openItem.partyId', '=', partyId);
  if (input.sourceType) q = q.where('openItem.sourceType', '=', input.sourceType);
  if (input.onlyOpen) q = q.where('openItem.status', '=', 'open');
  const period = PERIODS.has(input.groupBy);
  const ref = period ? 'openItem.docDate' : 'openItem.partyId';
  const rows = await q.select((eb) => [`${ref} as k`, eb.fn.sum('openItem.amountBase').as('amount'), eb.fn.sum('openItem.allocatedBase').as('settled')])
    .groupBy(ref).execute();
  const groups = new Groups(s.measures);
  for (const r of rows) {
    const key = period ? periodKey(input.groupBy, String(r.k)) : String(Number(r.k));
    const amount = big(r.amount);
    const settled = big(r.settled);
    groups.add(key, {}, { amount, settled, open: amount - settled });
  }
  const extra: Row = {};
  const blank = Boolean(s.balance && (input.sourceType || input.onlyOpen));
  if (s.balance && !blank) extra.balance = measureValue('money', await periodEndBalances(ctx, s.side, input.groupBy, groups, range.to, partyId));
  if (blank) extra.balance = null;
  const list = groups.list();
  await labelGroups(tenant, period ? input.groupBy : s.party, list);
  return { list, extra, blank };
}

/** The last day of a period key (month "YYYY-MM", week: its Monday). */
function periodEnd(by: string, key: string): string {
  if (by === 'week') return new Date(Date.parse(`${key}T00:00:00Z`) + 6 * 86_400_000).toISOString().slice(0, 10);
  const [y, m] = key.split('-').map(Number);
  return new Date(Date.UTC(y!, m!, 0)).toISOString().slice(0, 10);
}

/** 期末未付 into the groups (see the top): the balance at the range's end, which is also its grand total. */
async function periodEndBalances(ctx: CallContext, side: ClosingSide, by: string, groups: Groups, to: string | undefined, partyId: number | null | undefined): Promise<bigint> {
  const tzHours = tz(ctx);
  const today = companyToday(tzHours);
  const end = to && to < today ? to : today;
  if (!PERIODS.has(by)) {
    let sum = 0n;
    for (const [k, v] of await openAtEndOf(ctx.tenant, side, end, tzHours)) {
      if (v === 0n || (partyId && k !== String(partyId))) continue;
      groups.add(k, {}, { balance: v });
      sum += v;
    }
    return sum;
  }
  // each period's end (a later one capped at the range's end), ascending; the range's end last
  const ends = new Map<string, string[]>();
  for (const key of groups.map.keys()) {
    const d = periodEnd(by, key) < end ? periodEnd(by, key) : end;
    ends.set(d, [...(ends.get(d) ?? []), key]);
  }
  if (!ends.has(end)) ends.set(end, []);
  const checkpoints = [...ends.keys()].sort();
  const values = await balancesAt(ctx.tenant, openItemsKind(ctx.tenant, side, tzHours, partyId), checkpoints, tzHours);
  checkpoints.forEach((d, i) => { for (const key of ends.get(d)!) groups.add(key, {}, { balance: values[i]! }); });
  return values[values.length - 1]!;
}

function nulled<T extends { list: Row[] }>(page: T, blank: boolean): T {
  if (blank) for (const row of page.list) row.balance = null;
  return page;
}

const page = (s: Side) => async (ctx: CallContext, input: OpenItemsReportInput) => {
  const { list, extra, blank } = await openItemGroups(ctx, s, input);
  return nulled(reportPage(list, screenGroupings(s.screen)[input.groupBy]!, s.measures, input, extra), blank);
};
const xlsx = (s: Side) => async (ctx: CallContext, input: OpenItemsReportInput) => {
  const { list, extra } = await openItemGroups(ctx, s, input);
  return reportXlsx(s.title, screenGroupings(s.screen)[input.groupBy]!, s.measures, list, input, tz(ctx), extra);
};

export const receivableReport = page(SIDES.receivable);
export const exportReceivableReport = xlsx(SIDES.receivable);
export const payableReport = page(SIDES.payable);
export const exportPayableReport = xlsx(SIDES.payable);
