// Receivables and payables as an accountant reads them: open items per party with aging buckets (not
// due, 1–30, 31–60, 61–90, over 90 days overdue, from an injectable "today"), one party's items, and a
// party statement (opening balance, items, allocations, closing balance). Everything in the company
// currency: an item's open amount there is amount_base − allocated_base (ledger.ts), so every total is the
// sum of its rows to the cent and a statement's closing balance is the party's aging total.
import { sql } from 'kysely';
import type { CallContext } from '../../catalog/context.ts';
import { xlsxDownload } from '../../files/xlsx.ts';
import type { FileResponse } from '../../http/file-response.ts';
import { validationError } from '../../http/errors.ts';
import { moneyText, parseDay, text, today, type Row } from '../procurement/common.ts';
import { advanceAt, advanceByParty } from './advances.ts';
import { ITEM_STATUS, itemKind, type PartyType } from './ledger.ts';
import { TypedTenant } from '../../db/typed.ts';

export const BUCKETS = [
  { key: 'notDue', title: '未到期' }, { key: 'd1to30', title: '逾期1-30天' }, { key: 'd31to60', title: '逾期31-60天' },
  { key: 'd61to90', title: '逾期61-90天' }, { key: 'over90', title: '逾期90天以上' },
] as const;
type BucketKey = (typeof BUCKETS)[number]['key'];

const PARTY_PROPS = {
  partyType: { type: 'string', enum: ['client', 'supplier'], default: 'client', title: '往来类型' },
  today: { type: ['string', 'null'], maxLength: 10, title: '账龄基准日' },
};
export const AGING_INPUT = {
  type: 'object',
  properties: {
    ...PARTY_PROPS,
    page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1, title: '页码' },
    pageSize: { type: 'integer', minimum: 1, maximum: 500, default: 50, title: '每页条数' },
    keyword: { type: ['string', 'null'], maxLength: 100, title: '往来单位编码或名称' },
    overdueOnly: { type: ['boolean', 'null'], title: '只看逾期' },
  },
};
export const PARTY_ITEMS_INPUT = {
  type: 'object', required: ['id'],
  properties: { ...PARTY_PROPS, id: { type: 'integer', minimum: 1, maximum: 2_147_483_647, title: '往来单位' }, all: { type: ['boolean', 'null'], title: '含已结清' } },
};
export const STATEMENT_INPUT = {
  type: 'object', required: ['id'],
  properties: {
    partyType: PARTY_PROPS.partyType, id: { type: 'integer', minimum: 1, maximum: 2_147_483_647, title: '往来单位' },
    dateFrom: { type: ['string', 'null'], maxLength: 10, title: '开始日期' }, dateTo: { type: ['string', 'null'], maxLength: 10, title: '结束日期' },
    currencyId: { type: ['integer', 'null'], minimum: 1, maximum: 2_147_483_647, title: '币种' },
  },
};
/** A statement's input: in company currency (every item converted), or in one currency (only its items, in that currency). */
export interface StatementInput { partyType: PartyType; id: number; dateFrom?: string | null; dateTo?: string | null; currencyId?: number | null }

export interface AgingInput { partyType: PartyType; today?: string | null; page: number; pageSize: number; keyword?: string | null; overdueOnly?: boolean | null }

const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const daysBetween = (a: string, b: string) => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);

/** The aging reference day: as given (reports as of a day; tests), else the company's today. */
export function agingDay(ctx: CallContext, given?: string | null): string {
  return parseDay(given ?? undefined, 'today', '账龄基准日') ?? today(ctx);
}

export function bucketOf(dueDate: string, day: string): BucketKey {
  const late = daysBetween(dueDate, day);
  if (late <= 0) return 'notDue';
  if (late <= 30) return 'd1to30';
  if (late <= 60) return 'd31to60';
  if (late <= 90) return 'd61to90';
  return 'over90';
}

const openBase = sql<number>`${sql.ref('openItem.amountBase')} - ${sql.ref('openItem.allocatedBase')}`;

/**
 * sum(open base) per bucket, as SQL columns: the total and what falls due before each edge (today, 30,
 * 60, 90 days ago) — one comparison per edge and row — from which the buckets are differences (bucketed).
 */
function bucketSums(day: string) {
  const due = sql.ref('openItem.dueDate');
  const before = (edge: string) => sql<number>`coalesce(sum(case when ${due} < ${edge} then ${openBase} else 0 end), 0)`;
  return {
    all: sql<number>`coalesce(sum(${openBase}), 0)`,
    lt0: before(day), lt30: before(addDays(day, -30)), lt60: before(addDays(day, -60)), lt90: before(addDays(day, -90)),
  };
}

/** The buckets of a row of bucketSums. */
function bucketed(r: Row): Record<BucketKey, number> {
  const [all, lt0, lt30, lt60, lt90] = [r.all, r.lt0, r.lt30, r.lt60, r.lt90].map((v) => Number(v ?? 0)) as [number, number, number, number, number];
  return { notDue: all - lt0, d1to30: lt0 - lt30, d31to60: lt30 - lt60, d61to90: lt60 - lt90, over90: lt90 };
}

const partyTable = (t: PartyType) => (t === 'client' ? 'client' : 'supplier');

function figures(r: Row) {
  const out: Record<string, string> = {};
  let total = 0;
  for (const b of BUCKETS) { out[b.key] = moneyText(r[b.key]); total += Number(r[b.key] ?? 0); }
  const overdue = total - Number(r.notDue ?? 0);
  return { ...out, total: moneyText(total), overdue: moneyText(overdue), totalCents: total, overdueCents: overdue };
}

/**
 * Aging per party: one row per party with open items, the buckets, the total; totals over every party.
 * One grouped pass over the open items (a covering index, migration 023) gives every party's figures;
 * the totals are their sum and the page a slice of them by party code, so the totals are the rows' sum
 * by construction.
 */
export async function agingByParty(ctx: CallContext, input: AgingInput) {
  // (the party table, client or supplier, and its columns are chosen at run time: the untyped view)
  const tenant = ctx.tenant;
  const day = agingDay(ctx, input.today);
  const pt = partyTable(input.partyType);
  const b = bucketSums(day);
  let grouped = tenant.select('openItem')
    .select(['openItem.partyId', b.all.as('all'), b.lt0.as('lt0'), b.lt30.as('lt30'), b.lt60.as('lt60'), b.lt90.as('lt90'),
      sql<number>`count(*)`.as('items'), sql<string>`min(${sql.ref('openItem.dueDate')})`.as('oldestDue')])
    .where('openItem.partyType', '=', input.partyType).where('openItem.status', '=', 'open');
  if (input.overdueOnly) grouped = grouped.where('openItem.dueDate', '<', day);
  // the parties' names joined to their figures in the same statement (company checked on both sides);
  // CROSS JOIN + WHERE: SQLite then goes from the groups to each party by its key, not the other way
  let q = tenant.db.selectFrom(grouped.groupBy('openItem.partyId').as('g'))
    .crossJoin(`${pt} as party`).whereRef('party.id', '=', 'g.partyId').where('party.companyId', '=', tenant.companyId)
    .selectAll('g').select(['party.code', 'party.name', ...(pt === 'client' ? ['party.creditLimit', 'party.chequeBounces'] : [])]);
  const k = input.keyword?.trim();
  const keywordOp = ctx.database.dialect === 'postgres' ? 'ilike' : 'like';
  if (k) q = q.where((eb: any) => eb.or([eb('party.code', keywordOp, keywordPattern(k)), eb('party.name', keywordOp, keywordPattern(k))]));
  const figured: Row[] = await q.execute();
  const figuresOf = new Map<number, Row>(figured.map((r) => [Number(r.partyId), { ...r, ...bucketed(r) }]));
  // advances set against the open items (预收/预付); a party with an advance and nothing open has a credit balance
  const advances = await advanceByParty(ctx, input.partyType);
  const onlyAdvance = input.overdueOnly ? [] : [...advances.keys()].filter((id) => !figuresOf.has(id));
  if (onlyAdvance.length) {
    let pq = tenant.select(pt).select(['id as partyId', 'code', 'name', ...(pt === 'client' ? ['creditLimit', 'chequeBounces'] : [])]).where('id', 'in', onlyAdvance);
    if (k) pq = pq.where((eb: any) => eb.or([eb('code', keywordOp, keywordPattern(k)), eb('name', keywordOp, keywordPattern(k))]));
    const found: Row[] = await pq.execute();
    for (const r of found) figuresOf.set(Number(r.partyId), { ...r, items: 0, oldestDue: null, ...Object.fromEntries(BUCKETS.map((b) => [b.key, 0])) });
  }
  for (const [id, f] of figuresOf) f.advance = advances.get(id) ?? 0;
  let parties: Row[] = [...figuresOf.values()].map((r) => ({ ...r, id: r.partyId }));
  parties = parties.sort((x, y) => (String(x.code) < String(y.code) ? -1 : String(x.code) > String(y.code) ? 1 : 0));
  const sums: Row = Object.fromEntries([...BUCKETS.map((x) => [x.key, 0]), ['items', 0], ['advance', 0]]);
  for (const p of parties) {
    const f = figuresOf.get(Number(p.id))!;
    for (const x of BUCKETS) sums[x.key] = Number(sums[x.key]) + Number(f[x.key] ?? 0);
    sums.items = Number(sums.items) + Number(f.items ?? 0);
    sums.advance = Number(sums.advance) + Number(f.advance);
  }
  const offset = (input.page - 1) * input.pageSize;
  const t = figures(sums);
  return {
    today: day,
    buckets: BUCKETS,
    list: parties.slice(offset, offset + input.pageSize).map((p) => {
      const r = figuresOf.get(Number(p.id))!;
      return {
        id: Number(p.id), partyId: Number(p.id), partyType: input.partyType, code: String(p.code), name: String(p.name), items: Number(r.items), oldestDue: text(r.oldestDue),
        ...(pt === 'client' ? { creditLimit: moneyText(p.creditLimit), chequeBounces: Number(p.chequeBounces ?? 0) } : {}),
        ...omitCents(figures(r)), ...netOf(figures(r), r),
      };
    }),
    total: parties.length, page: input.page, pageSize: input.pageSize,
    totals: { ...omitCents(t), items: Number(sums.items), ...netOf(t, sums) },
  };
}

/** The advance and the net balance (open − advance; below zero: a credit balance, the party's money held). */
const netOf = (f: ReturnType<typeof figures>, r: Row) => ({ advance: moneyText(r.advance ?? 0), balance: moneyText(f.totalCents - Number(r.advance ?? 0)) });
const keywordPattern = (k: string) => `%${k.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const omitCents = (f: ReturnType<typeof figures>) => { const { totalCents: _a, overdueCents: _b, ...rest } = f; return rest; };

async function partyRow(ctx: CallContext, partyType: PartyType, id: number): Promise<Row> {
  const pt = partyTable(partyType);
  // (the party table, client or supplier, is chosen at run time: the untyped view)
  const p: Row | undefined = await ctx.tenant.select(pt).selectAll().where('id', '=', id).executeTakeFirst();
  if (!p) throw validationError([{ field: 'id', message: partyType === 'client' ? '客户不存在' : '供应商不存在' }]);
  return p;
}

/** One party's items (open ones; `all`: settled and cancelled too) with bucket, days overdue and the payments that settled them. */
export async function partyItems(ctx: CallContext, input: { partyType: PartyType; id: number; today?: string | null; all?: boolean | null }) {
  const tenant = TypedTenant.of(ctx.tenant);
  const day = agingDay(ctx, input.today);
  const party = await partyRow(ctx, input.partyType, input.id);
  let q = tenant.select('openItem').innerJoin('currency', (j) => j.onRef('currency.id', '=', 'openItem.currencyId'))
    .selectAll('openItem').select('currency.code as currencyCode')
    .where('openItem.partyType', '=', input.partyType).where('openItem.partyId', '=', input.id);
  q = input.all ? q.where('openItem.status', '!=', 'cancelled') : q.where('openItem.status', '=', 'open');
  const items = await q.orderBy('openItem.dueDate').orderBy('openItem.id').limit(5000).execute();
  const sums: Record<string, number> = Object.fromEntries(BUCKETS.map((b) => [b.key, 0]));
  const list = items.map((r) => {
    const open = Number(r.amountBase) - Number(r.allocatedBase);
    const bucket = r.status === 'open' ? bucketOf(String(r.dueDate), day) : null;
    if (bucket) sums[bucket]! += open;
    return {
      id: Number(r.id), kind: itemKind(r), sourceType: String(r.sourceType), sourceId: Number(r.sourceId),
      docNo: String(r.docNo), reference: text(r.reference), docDate: String(r.docDate), dueDate: String(r.dueDate),
      currencyCode: String(r.currencyCode), exchangeRate: (Number(r.exchangeRate) / 1e6).toFixed(6), amount: moneyText(r.amount), allocated: moneyText(r.allocated), openAmount: moneyText(r.openAmount),
      amountBase: moneyText(r.amountBase), openBase: moneyText(open), status: String(r.status), statusText: ITEM_STATUS[r.status as keyof typeof ITEM_STATUS] ?? String(r.status),
      bucket, bucketText: bucket ? BUCKETS.find((b) => b.key === bucket)!.title : null, daysOverdue: Math.max(0, daysBetween(String(r.dueDate), day)),
    };
  });
  const f = figures(sums);
  return {
    today: day, party: { id: Number(party.id), code: String(party.code), name: String(party.name), partyType: input.partyType, creditLimit: party.creditLimit != null ? moneyText(party.creditLimit) : null, chequeBounces: Number(party.chequeBounces ?? 0) },
    id: Number(party.id), name: String(party.name), buckets: BUCKETS, list, total: list.length, totals: omitCents(f),
  };
}

/**
 * A party's statement for a period, in company currency: the balance before it (items dated before,
 * less allocations dated before), then each item (debit) and each payment's allocations (credit, and
 * their reversals as negative credits) in date order, then the closing balance (money not yet allocated
 * is an advance: /financial/advances lists it).
 */
export async function statement(ctx: CallContext, input: StatementInput) {
  const tenant = TypedTenant.of(ctx.tenant);
  const party = await partyRow(ctx, input.partyType, input.id);
  // the currencies the party has items in (each its own statement); with currencyId, only that one's items in
  // that currency (allocations by their amount in the item's currency): never two currencies added together
  const currencies = (await tenant.select('openItem').innerJoin('currency', (j) => j.onRef('currency.id', '=', 'openItem.currencyId'))
    .select(['currency.id', 'currency.code', 'currency.currencyName as name']).distinct()
    .where('openItem.partyType', '=', input.partyType).where('openItem.partyId', '=', input.id).where('openItem.status', '!=', 'cancelled')
    .orderBy('currency.code').execute()).map((c) => ({ id: Number(c.id), code: String(c.code), name: String(c.name) }));
  const cur = input.currencyId ?? null;
  let currency: { id: number; code: string; name: string } | null = null;
  if (cur != null) {
    const c = await tenant.select('currency').select(['id', 'code', 'currencyName as name']).where('id', '=', cur).executeTakeFirst();
    if (!c) throw validationError([{ field: 'currencyId', message: '币种不存在' }]);
    currency = { id: Number(c.id), code: String(c.code), name: String(c.name) };
  }
  const itemAmount = cur == null ? 'openItem.amountBase' : 'openItem.amount';
  const allocAmount = cur == null ? 'financeAllocation.itemBase' : 'financeAllocation.amount';
  const to = parseDay(input.dateTo ?? undefined, 'dateTo', '结束日期') ?? today(ctx);
  const from = parseDay(input.dateFrom ?? undefined, 'dateFrom', '开始日期') ?? `${to.slice(0, 7)}-01`;
  if (from > to) throw validationError([{ field: 'dateFrom', message: '开始日期不能晚于结束日期' }]);
  const items = () => {
    const q = tenant.select('openItem').where('openItem.partyType', '=', input.partyType).where('openItem.partyId', '=', input.id).where('openItem.status', '!=', 'cancelled');
    return cur == null ? q : q.where('openItem.currencyId', '=', cur);
  };
  // from the party's items to their allocations (by item): the planner is told where to start
  let partyItemIds = tenant.select('openItem').select('openItem.id').where('openItem.partyType', '=', input.partyType).where('openItem.partyId', '=', input.id);
  if (cur != null) partyItemIds = partyItemIds.where('openItem.currencyId', '=', cur);
  const allocs = () => tenant.select('financeAllocation')
    .innerJoin('openItem', (j) => j.onRef('openItem.id', '=', 'financeAllocation.itemId').onRef('openItem.companyId', '=', 'financeAllocation.companyId'))
    .where('financeAllocation.itemId', 'in', partyItemIds);
  const before = await items().select(sql<number>`coalesce(sum(${sql.ref(itemAmount)}), 0)`.as('s')).where('openItem.docDate', '<', from).executeTakeFirstOrThrow();
  const paidBefore = await allocs().select(sql<number>`coalesce(sum(${sql.ref(allocAmount)}), 0)`.as('s')).where('financeAllocation.allocDate', '<', from).executeTakeFirstOrThrow();
  const opening = Number(before.s) - Number(paidBefore.s);
  const its = await items().innerJoin('currency', (j) => j.onRef('currency.id', '=', 'openItem.currencyId'))
    .select(['openItem.id', 'openItem.docNo', 'openItem.reference', 'openItem.sourceType', 'openItem.side', 'openItem.docDate', 'openItem.dueDate', 'openItem.amount', 'openItem.amountBase', 'currency.code as currencyCode'])
    .where('openItem.docDate', '>=', from).where('openItem.docDate', '<=', to).orderBy('openItem.docDate').orderBy('openItem.id').execute();
  // one row per allocation (a party's are few), grouped here per payment, date and kind: a GROUP BY in
  // SQL leads SQLite to walk every allocation of the company in payment order instead
  // a red invoice's credit is an allocation without a receipt (payment_id = −the red invoice's id)
  const allocRows = await allocs().leftJoin('payDocument', (j) => j.onRef('payDocument.id', '=', 'financeAllocation.paymentId').onRef('payDocument.companyId', '=', 'financeAllocation.companyId'))
    .leftJoin('salesCredit', (j) => j.on(sql<boolean>`${sql.ref('salesCredit.id')} = -${sql.ref('financeAllocation.paymentId')} and ${sql.ref('financeAllocation.kind')} in ('credit', 'creditReverse')`).onRef('salesCredit.companyId', '=', 'financeAllocation.companyId'))
    .leftJoin('salesDiscount', (j) => j.on(sql<boolean>`${sql.ref('salesDiscount.id')} = -${sql.ref('financeAllocation.paymentId')} and ${sql.ref('financeAllocation.kind')} in ('discount', 'discountReverse')`).onRef('salesDiscount.companyId', '=', 'financeAllocation.companyId'))
    .leftJoin('prepaymentInvoice', (j) => j.on(sql<boolean>`${sql.ref('prepaymentInvoice.id')} = -${sql.ref('financeAllocation.paymentId')} and ${sql.ref('financeAllocation.kind')} in ('prepayment', 'prepaymentReverse')`).onRef('prepaymentInvoice.companyId', '=', 'financeAllocation.companyId'))
    .select(['financeAllocation.paymentId', 'financeAllocation.allocDate', 'financeAllocation.kind', 'financeAllocation.itemBase', 'financeAllocation.amount as itemAmount',
      sql<string>`coalesce(${sql.ref('payDocument.docNo')}, ${sql.ref('salesCredit.docNo')}, ${sql.ref('salesDiscount.docNo')}, ${sql.ref('prepaymentInvoice.docNo')})`.as('docNo'), 'openItem.docNo as itemDocNo'])
    .where('financeAllocation.allocDate', '>=', from).where('financeAllocation.allocDate', '<=', to).execute();
  const grouped = new Map<string, Row>();
  for (const r of allocRows) {
    if (cur != null) r.itemBase = r.itemAmount;
    const key = `${String(r.paymentId)}|${String(r.allocDate)}|${String(r.kind)}`;
    const g = grouped.get(key);
    if (!g) grouped.set(key, { paymentId: r.paymentId, allocDate: r.allocDate, kind: r.kind, docNo: r.docNo, base: Number(r.itemBase), firstItem: String(r.itemDocNo), n: 1 });
    else {
      g.base = Number(g.base) + Number(r.itemBase);
      g.n = Number(g.n) + 1;
      if (String(r.itemDocNo) < String(g.firstItem)) g.firstItem = String(r.itemDocNo);
    }
  }
  const pays = [...grouped.values()];
  const events = [
    ...its.map((r) => ({ date: String(r.docDate), order: 0, id: Number(r.id), docNo: String(r.docNo), kind: itemKind(r),
      summary: `${r.reference ? `原单号 ${String(r.reference)}，` : ''}${String(r.currencyCode)} ${moneyText(r.amount)}，到期 ${String(r.dueDate)}`, debit: Number(cur == null ? r.amountBase : r.amount), credit: 0 })),
    ...pays.map((r) => ({ date: String(r.allocDate), order: 1, id: Number(r.paymentId), docNo: String(r.docNo),
      kind: r.kind === 'credit' ? '红字发票' : r.kind === 'creditReverse' ? '红字发票作废' : r.kind === 'discount' ? '折扣发票' : r.kind === 'discountReverse' ? '折扣发票作废' : r.kind === 'prepayment' ? '预收款抵扣' : r.kind === 'prepaymentReverse' ? '预收款抵扣冲回' : r.kind === 'reverse' ? (input.partyType === 'client' ? '收款冲销' : '付款冲销') : r.kind === 'release' ? (input.partyType === 'client' ? '收款转预收' : '付款转预付') : (input.partyType === 'client' ? '收款核销' : '付款核销'),
      summary: `核销 ${Number(r.n)} 笔（${String(r.firstItem)}${Number(r.n) > 1 ? ' 等' : ''}）`, debit: 0, credit: Number(r.base) })),
  ].sort((a, b) => (a.date === b.date ? a.order - b.order || a.id - b.id : a.date < b.date ? -1 : 1));
  let balance = opening;
  let debit = 0; let credit = 0;
  const rows = events.map((e) => {
    balance += e.debit - e.credit; debit += e.debit; credit += e.credit;
    return { date: e.date, docNo: e.docNo, kind: e.kind, summary: e.summary, debit: e.debit ? moneyText(e.debit) : null, credit: e.credit ? moneyText(e.credit) : null, balance: moneyText(balance) };
  });
  // the balance is what the open items still owe; the party's unspent advance is set against it below, so
  // the statement closes at the same 净余额 as 应收应付账龄汇总 (026201 余额) on the same day (issue 33 §5)
  const advance = await advanceAt(ctx, input.partyType, input.id, to, cur);
  const net = balance - advance;
  const advanceKind = input.partyType === 'client' ? '预收款余额（未核销）' : '预付款余额（未核销）';
  // the list a screen draws: the opening balance, the period's rows, the closing balance, the advance, the net
  const list = [
    { key: 'opening', date: from, docNo: null, kind: '期初余额', summary: null, debit: null, credit: null, balance: moneyText(opening) },
    ...rows.map((r, i) => ({ key: String(i + 1), ...r })),
    { key: 'closing', date: to, docNo: null, kind: '期末余额', summary: '未结清单据的余额', debit: null, credit: null, balance: moneyText(balance) },
    // (only when there is one: without an advance the closing balance is the net)
    ...(advance ? [
      { key: 'advance', date: to, docNo: null, kind: advanceKind, summary: `${input.partyType === 'client' ? '已收' : '已付'}未核销的款项，抵减余额`, debit: null, credit: null, balance: moneyText(-advance) },
      { key: 'net', date: to, docNo: null, kind: '净余额', summary: `期末余额 − ${advanceKind.slice(0, 5)}（与账龄汇总的“余额”一致）`, debit: null, credit: null, balance: moneyText(net) },
    ] : []),
  ];
  return {
    party: { id: Number(party.id), code: String(party.code), name: String(party.name), partyType: input.partyType },
    currency, currencies, currencyText: currency ? `${currency.code}（原币）` : '本位币',
    dateFrom: from, dateTo: to, openingBalance: moneyText(opening), rows, totalDebit: moneyText(debit), totalCredit: moneyText(credit), closingBalance: moneyText(balance),
    advanceBalance: moneyText(advance), netBalance: moneyText(net),
    list, total: list.length, page: 1, pageSize: list.length,
  };
}

const money = (v: string | null) => (v == null ? null : Number(v));

/** The statement as .xlsx (the same rows, debit/credit/balance as numbers). */
export async function exportStatement(ctx: CallContext, input: StatementInput): Promise<FileResponse> {
  const s = await statement(ctx, input);
  const client = input.partyType === 'client';
  return xlsxDownload(`对账单_${s.party.code}_${s.currency ? `${s.currency.code}_` : ''}${s.dateFrom}_${s.dateTo}.xlsx`, async (book) => {
    const sheet = book.addSheet('对账单', [
      { header: '日期', width: 12 }, { header: '单号', width: 20 }, { header: '类型', width: 12 }, { header: '摘要', width: 44 },
      ...(client
        ? [{ header: '借方（应收增加）', width: 16, numFmt: '#,##0.00' }, { header: '贷方（收款核销）', width: 16, numFmt: '#,##0.00' }]
        : [{ header: '贷方（应付增加）', width: 16, numFmt: '#,##0.00' }, { header: '借方（付款核销）', width: 16, numFmt: '#,##0.00' }]), { header: '余额', width: 16, numFmt: '#,##0.00' },
    ]);
    sheet.addRow([`${s.party.name}（${s.party.code}）`, null, null, `${s.dateFrom} 至 ${s.dateTo}，${s.currencyText}`, null, null, null]);
    for (const r of s.list) sheet.addRow([r.date, r.docNo, r.kind, r.summary, money(r.debit), money(r.credit), money(r.balance)]);
    sheet.addRow([null, null, '合计', null, money(s.totalDebit), money(s.totalCredit), null]);
  });
}

/** The aging of every party (not only one page) as .xlsx. */
export async function exportAging(ctx: CallContext, input: AgingInput): Promise<FileResponse> {
  const first = await agingByParty(ctx, { ...input, page: 1, pageSize: 500 });
  return xlsxDownload(`账龄分析_${first.today}.xlsx`, async (book) => {
    const money = { width: 16, numFmt: '#,##0.00' };
    const sheet = book.addSheet('账龄分析', [
      { header: '编码', width: 12 }, { header: '名称', width: 30 }, { header: '笔数', width: 8 },
      ...BUCKETS.map((b) => ({ header: b.title, ...money })), { header: '未结合计', ...money },
      // money paid ahead and not yet set against items, and what remains (below zero: the party's money held)
      { header: input.partyType === 'client' ? '预收款' : '预付款', ...money }, { header: '净额', ...money },
    ]);
    let page = first;
    for (let p = 1; ; p++) {
      if (p > 1) page = await agingByParty(ctx, { ...input, page: p, pageSize: 500 });
      for (const r of page.list) sheet.addRow([r.code, r.name, r.items, ...BUCKETS.map((b) => Number((r as Record<string, unknown>)[b.key])), Number(r.total), Number(r.advance), Number(r.balance)]);
      await book.drain();
      if (p * 500 >= page.total) break;
    }
    const t = first.totals as Record<string, unknown>;
    sheet.addRow(['合计', null, Number(t.items), ...BUCKETS.map((b) => Number(t[b.key])), Number(t.total), Number(t.advance), Number(t.balance)]);
  });
}
