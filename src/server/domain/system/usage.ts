// 接口分析 (cdm 019502): the caller's company's API usage from the per-minute aggregate, grouped by
// endpoint, account, hour or day: calls, answers other than success by code, average and p50/p95/p99
// latency. Percentiles come from the summed histogram buckets: the upper bound of the bucket the
// percentile falls in, never above the slowest call seen.
import { sql } from 'kysely';
import type { Catalog } from '../../../core/catalog.ts';
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import { validationError } from '../../http/errors.ts';
import { PAGING, type ReportPaging } from '../reports/common.ts';
import { LATENCY_BUCKETS_MS, monitorOf } from './monitor.ts';
import { TypedTenant, typed } from '../../db/typed.ts';

type Row = Record<string, unknown>;

export const USAGE_GROUPINGS = { endpoint: '接口', account: '账号', hour: '小时', day: '日' } as const;
type Grouping = keyof typeof USAGE_GROUPINGS;

export const USAGE_INPUT: InputSchema = {
  type: 'object',
  properties: {
    ...PAGING,
    groupBy: { enum: Object.keys(USAGE_GROUPINGS), default: 'endpoint', title: '汇总方式' },
    dateRange: { type: ['array', 'null'], items: { type: ['string', 'null'], maxLength: 10 }, maxItems: 2, title: '日期' },
    endpoint: { type: ['string', 'null'], maxLength: 20, title: '接口编码' },
    accountId: { type: ['integer', 'null'], minimum: 1, title: '账号' },
  },
};

export interface UsageInput extends ReportPaging {
  groupBy: Grouping;
  dateRange?: (string | null)[] | null;
  endpoint?: string | null;
  accountId?: number | null;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function percentile(buckets: number[], calls: number, maxMs: number, q: number): number {
  if (!calls) return 0;
  const want = Math.ceil(calls * q);
  let seen = 0;
  for (let i = 0; i < buckets.length; i++) {
    seen += buckets[i];
    if (seen >= want) return Math.min(LATENCY_BUCKETS_MS[i], maxMs);
  }
  return maxMs;
}

function endpointNames(catalog: Catalog): Map<string, string> {
  const out = new Map<string, string>();
  for (const [family, entries] of Object.entries(catalog.families)) for (const e of entries) out.set(`${family}:${e.code}`, e.name);
  return out;
}

export async function usageReport(ctx: CallContext, catalog: Catalog, input: UsageInput) {
  const [from, to] = input.dateRange ?? [];
  if ((from && !DATE.test(from)) || (to && !DATE.test(to))) throw validationError([{ field: 'dateRange', message: '日期格式应为 YYYY-MM-DD' }]);
  if (from && to && from > to) throw validationError([{ field: 'dateRange', message: '开始日期不能晚于结束日期' }]);
  // what this process counted so far is in the table before it is read
  await monitorOf(ctx.database)?.flushUsage();
  const keyExpr = {
    endpoint: sql<string>`endpoint`,
    account: sql<string>`cast(account_id as text)`,
    hour: sql<string>`substr(minute, 1, 13)`,
    day: sql<string>`substr(minute, 1, 10)`,
  }[input.groupBy];
  let q = typed(ctx.db).selectFrom('apiUsageMinute').where('companyId', '=', ctx.caller!.company.id);
  if (from) q = q.where('minute', '>=', from);
  if (to) q = q.where('minute', '<', `${to} 99`);
  if (input.endpoint) q = q.where('endpoint', 'like', `%${input.endpoint.replace(/[%_]/g, '')}`);
  if (input.accountId) q = q.where('accountId', '=', input.accountId);
  const rows = await q.select([
    keyExpr.as('key'), 'code',
    sql<number>`sum(calls)`.as('calls'), sql<number>`sum(total_ms)`.as('totalMs'), sql<number>`max(max_ms)`.as('maxMs'),
    ...LATENCY_BUCKETS_MS.map((_, i) => sql<number>`sum(${sql.ref(`b${i}`)})`.as(`b${i}`)),
  ]).groupBy([keyExpr, 'code']).execute();

  interface Group { key: string; calls: number; totalMs: number; maxMs: number; buckets: number[]; codes: Map<string, number> }
  const groups = new Map<string, Group>();
  for (const r of rows) {
    const key = String(r.key);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { key, calls: 0, totalMs: 0, maxMs: 0, buckets: LATENCY_BUCKETS_MS.map(() => 0), codes: new Map() }));
    const calls = Number(r.calls);
    g.calls += calls;
    g.totalMs += Number(r.totalMs);
    g.maxMs = Math.max(g.maxMs, Number(r.maxMs));
    LATENCY_BUCKETS_MS.forEach((_, i) => { g.buckets[i] += Number(r[`b${i}`]); });
    if (String(r.code) !== '200') g.codes.set(String(r.code), (g.codes.get(String(r.code)) ?? 0) + calls);
  }
  const names = endpointNames(catalog);
  const accountIds = input.groupBy === 'account' ? [...groups.keys()].map(Number).filter((n) => n > 0) : [];
  const accounts = new Map<number, string>();
  if (accountIds.length) {
    for (const a of await TypedTenant.of(ctx.tenant).select('account').select(['id', 'userName']).where('id', 'in', accountIds).execute()) {
      accounts.set(Number(a.id), String(a.userName));
    }
  }
  const list = [...groups.values()].map((g) => {
    const failed = [...g.codes.values()].reduce((a, b) => a + b, 0);
    const label = input.groupBy === 'endpoint' ? names.get(g.key) ?? '（已不在目录中）'
      : input.groupBy === 'account' ? (Number(g.key) ? accounts.get(Number(g.key)) ?? `#${g.key}` : '（未登录）')
        : input.groupBy === 'hour' ? `${g.key}:00` : g.key;
    return {
      key: g.key, label, calls: g.calls, failed,
      failedRate: g.calls ? Math.round(failed / g.calls * 10000) / 100 : 0,
      codes: [...g.codes.entries()].sort((a, b) => b[1] - a[1]).map(([c, n]) => `${c}×${n}`).join('，'),
      avgMs: g.calls ? Math.round(g.totalMs / g.calls) : 0,
      p50: percentile(g.buckets, g.calls, g.maxMs, 0.5),
      p95: percentile(g.buckets, g.calls, g.maxMs, 0.95),
      p99: percentile(g.buckets, g.calls, g.maxMs, 0.99),
      maxMs: g.maxMs,
    };
  });
  const sortField = input.sort?.field && input.sort.order ? input.sort.field : input.groupBy === 'hour' || input.groupBy === 'day' ? 'key' : 'calls';
  const dir = input.sort?.order === 'ascend' || (!input.sort?.order && (input.groupBy === 'hour' || input.groupBy === 'day')) ? 1 : -1;
  const field = (r: Row) => r[sortField] as string | number;
  list.sort((a, b) => {
    const x = field(a), y = field(b);
    return (x < y ? -1 : x > y ? 1 : 0) * dir || (a.key < b.key ? -1 : 1);
  });
  const totalCalls = list.reduce((s, r) => s + r.calls, 0);
  const totalFailed = list.reduce((s, r) => s + r.failed, 0);
  return {
    list: list.slice((input.page - 1) * input.pageSize, input.page * input.pageSize),
    total: list.length, page: input.page, pageSize: input.pageSize,
    totals: { calls: totalCalls, failed: totalFailed },
    retentionDays: ctx.config.apiUsageRetentionDays,
  };
}
