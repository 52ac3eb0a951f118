// The body of a list call, built from what the user entered (pure; unit-tested through the list):
// {page, pageSize, keyword?, filters?: {field: value | [from, to] | values[]}, sort?: {field, order},
// withTotals?}. Empty inputs are left out so the server sees only real conditions; export sends the same
// filters and sort without paging (and without asking for totals).

import type { SortOrder } from '../types';

export interface ListQuery {
  page: number;
  pageSize: number;
  keyword?: string;
  filters: Record<string, unknown>;
  sort?: { field: string; order: SortOrder };
}

export interface ListBody {
  page: number;
  pageSize: number;
  keyword?: string;
  filters?: Record<string, unknown>;
  sort?: { field: string; order: SortOrder };
  /** Ask for `totals` over every row the conditions keep (lists that show 全部合计). */
  withTotals?: boolean;
}

function isBlank(v: unknown): boolean {
  return v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
}

/** A filter value as sent, or undefined when it holds nothing. Ranges keep a missing side as null. */
export function cleanFilterValue(v: unknown): unknown {
  if (isBlank(v)) return undefined;
  if (typeof v === 'string') return v.trim();
  if (Array.isArray(v)) {
    if (v.length === 0) return undefined;
    if (v.length === 2 && (isBlank(v[0]) || isBlank(v[1]))) {
      if (isBlank(v[0]) && isBlank(v[1])) return undefined;
      // A half-open range: [from, null] or [null, to].
      return [isBlank(v[0]) ? null : v[0], isBlank(v[1]) ? null : v[1]];
    }
    const kept = v.filter((x) => !isBlank(x));
    return kept.length ? kept : undefined;
  }
  return v;
}

export function cleanFilters(values: Record<string, unknown>, fixed?: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) {
    const c = cleanFilterValue(v);
    if (c !== undefined) out[k] = c;
  }
  // Fixed filters (a related list bound to its record) win over anything typed.
  if (fixed) for (const [k, v] of Object.entries(fixed)) out[k] = v;
  return out;
}

/**
 * The list call's body. `params` are top-level values always sent (a code that takes the record it
 * lists for as {id}, e.g. a role's members), under the paging and conditions.
 */
export function listBody(q: ListQuery, fixed?: Record<string, unknown>, params?: Record<string, unknown>, withTotals = false): ListBody {
  const body: ListBody = { ...(params ?? {}), page: q.page, pageSize: q.pageSize };
  const keyword = q.keyword?.trim();
  if (keyword) body.keyword = keyword;
  const filters = cleanFilters(q.filters, fixed);
  if (Object.keys(filters).length) body.filters = filters;
  if (q.sort) body.sort = q.sort;
  if (withTotals) body.withTotals = true;
  return body;
}

/** Export: the same conditions, no paging. */
export function exportBody(q: ListQuery, fixed?: Record<string, unknown>, params?: Record<string, unknown>): Omit<ListBody, 'page' | 'pageSize' | 'withTotals'> {
  const { page: _p, pageSize: _s, ...rest } = listBody(q, fixed, params);
  return rest;
}

export interface ListResult<Row> {
  list: Row[];
  total: number;
  /** Totals over every row the conditions keep ({field: value}), when the list asked withTotals. */
  totals?: Record<string, unknown>;
}

/** Reads {list, total, totals?} (and tolerates a bare array). */
export function readListResult<Row>(data: unknown): ListResult<Row> {
  if (Array.isArray(data)) return { list: data as Row[], total: data.length };
  const d = (data ?? {}) as { list?: unknown; total?: unknown; totals?: unknown };
  const list = Array.isArray(d.list) ? (d.list as Row[]) : [];
  const total = Number(d.total);
  const result: ListResult<Row> = { list, total: Number.isFinite(total) ? total : list.length };
  if (d.totals && typeof d.totals === 'object' && !Array.isArray(d.totals)) result.totals = d.totals as Record<string, unknown>;
  return result;
}
