// What every report shares: groups of exact measures (quantities in small units and money in cents as
// BigInt, so no sum ever passes through a float), their order, paging and grand totals, the date-range
// condition, and the .xlsx of a whole report with its 合计 line. A report answers the list contract
// ({list, total, page, pageSize}) plus `totals` over every group, so the generic list draws it.
import Decimal from 'decimal.js';
import { companyDateRange } from '../../../core/format.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import { validationError } from '../../http/errors.ts';
import { fileDate, xlsxDownload, type XlsxCell, type XlsxColumn } from '../../files/xlsx.ts';
import { realDate } from '../../resources/fields.ts';

export type Row = Record<string, unknown>;

export type MeasureKind = 'qty' | 'money';

export interface Measure {
  field: string;
  title: string;
  kind: MeasureKind;
}

/** A report's measures from [field, title, kind] rows (one line per measure reads as the column list it is). */
export const measures = (rows: Array<[string, string, MeasureKind]>): Measure[] => rows.map(([field, title, kind]) => ({ field, title, kind }));

/** A column of a report group's label (code, name, month...). */
export interface LabelColumn {
  field: string;
  title: string;
  width?: number;
}

export interface Grouping {
  title: string;
  columns: LabelColumn[];
  /** Sort field used when the request names none. */
  defaultSort: string;
}

/** One group's label fields and its measures. */
export interface Group {
  key: string;
  labels: Row;
  sums: Map<string, bigint>;
}

export const PAGING = {
  page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1, title: '页码' },
  pageSize: { type: 'integer', minimum: 1, maximum: 1000, default: 20, title: '每页条数' },
  sort: {
    type: ['object', 'null'], title: '排序',
    properties: { field: { type: 'string', maxLength: 64, title: '排序字段' }, order: { enum: ['ascend', 'descend', null], title: '排序方向' } },
  },
  withTotals: { type: ['boolean', 'null'], title: '全部合计' },
};

export interface ReportPaging {
  page: number;
  pageSize: number;
  sort?: { field: string; order?: 'ascend' | 'descend' | null } | null;
}

/** An integer of the database (number, bigint text or numeric text) as BigInt; null → 0. */
export function big(v: unknown): bigint {
  if (v === null || v === undefined || v === '') return 0n;
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') return BigInt(Math.trunc(v));
  return BigInt(new Decimal(String(v)).toFixed(0));
}

/** Cents as exact decimal text: 123456n → "1234.56", -5n → "-0.05". */
export function centsText(c: bigint): string {
  const neg = c < 0n;
  const digits = (neg ? -c : c).toString().padStart(3, '0');
  return `${neg ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** A measure's exact value as answered: quantities as numbers (text past 2^53), money as decimal text. */
export function measureValue(kind: MeasureKind, v: bigint): number | string {
  if (kind === 'money') return centsText(v);
  return v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= -BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
}

/** Groups by key, measures summed as they come. */
export class Groups {
  readonly map = new Map<string, Group>();
  constructor(private readonly measures: readonly Measure[]) {}

  add(key: string, labels: Row, values: Record<string, bigint>): void {
    let g = this.map.get(key);
    if (!g) {
      g = { key, labels, sums: new Map(this.measures.map((m) => [m.field, 0n])) };
      this.map.set(key, g);
    }
    for (const [f, v] of Object.entries(values)) g.sums.set(f, (g.sums.get(f) ?? 0n) + v);
  }

  list(): Group[] {
    return [...this.map.values()];
  }
}

function compare(a: unknown, b: unknown): number {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  const x = a === null || a === undefined ? '' : String(a);
  const y = b === null || b === undefined ? '' : String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Groups in the asked order (a measure or a label field), then by key for a stable order. */
export function sortGroups(groups: Group[], grouping: Grouping, measures: readonly Measure[], sort: ReportPaging['sort']): Group[] {
  const field = sort?.field || grouping.defaultSort;
  const isMeasure = measures.some((m) => m.field === field);
  if (!isMeasure && !grouping.columns.some((c) => c.field === field)) {
    throw validationError([{ field: 'sort.field', message: `不能按“${field.slice(0, 40)}”排序` }]);
  }
  const dir = sort?.field && sort.order === 'descend' ? -1 : 1;
  const valueOf = (g: Group) => (isMeasure ? g.sums.get(field) ?? 0n : g.labels[field]);
  return groups.sort((a, b) => dir * compare(valueOf(a), valueOf(b)) || compare(a.key, b.key));
}

export function rowOf(g: Group, measures: readonly Measure[]): Row {
  const row: Row = { key: g.key, ...g.labels };
  for (const m of measures) row[m.field] = measureValue(m.kind, g.sums.get(m.field) ?? 0n);
  return row;
}

export function totalsOf(groups: readonly Group[], measures: readonly Measure[]): Row {
  const out: Row = {};
  for (const m of measures) out[m.field] = measureValue(m.kind, groups.reduce((s, g) => s + (g.sums.get(m.field) ?? 0n), 0n));
  return out;
}

/** The list answer: one page of the ordered groups, their count, and totals over all of them. */
export function reportPage(groups: Group[], grouping: Grouping, measures: readonly Measure[], input: ReportPaging, extraTotals: Row = {}) {
  const sorted = sortGroups(groups, grouping, measures, input.sort);
  const offset = (input.page - 1) * input.pageSize;
  return {
    list: sorted.slice(offset, offset + input.pageSize).map((g) => rowOf(g, measures)),
    total: sorted.length,
    page: input.page,
    pageSize: input.pageSize,
    totals: { ...totalsOf(sorted, measures), ...extraTotals },
  };
}

/** The whole report as .xlsx: the group's label columns, the measures, then a 合计 line. */
export function reportXlsx(title: string, grouping: Grouping, measures: readonly Measure[], groups: Group[], input: ReportPaging, tzHours: number, extraTotals: Row = {}) {
  const sorted = sortGroups(groups, grouping, measures, input.sort);
  const columns: XlsxColumn[] = [
    ...grouping.columns.map((c) => ({ header: c.title, width: c.width })),
    ...measures.map((m) => ({ header: m.title, width: 16, numFmt: m.kind === 'money' ? '#,##0.00' : '0' })),
  ];
  const cell = (m: Measure, v: number | string): XlsxCell => (m.kind === 'money' ? Number(v) : typeof v === 'number' ? v : Number(v));
  return xlsxDownload(`${title}_${grouping.title}_${fileDate(tzHours)}.xlsx`, async (book) => {
    const sheet = book.addSheet(title, columns);
    for (const g of sorted) {
      const row = rowOf(g, measures);
      sheet.addRow([...grouping.columns.map((c) => (row[c.field] ?? null) as XlsxCell), ...measures.map((m) => cell(m, row[m.field] as number | string))]);
    }
    const totals = { ...totalsOf(sorted, measures), ...extraTotals };
    sheet.addRow([
      '合计', ...grouping.columns.slice(1).map(() => null),
      ...measures.map((m) => cell(m, totals[m.field] as number | string)),
    ]);
  });
}

/** A day of a [from, to] range filter (either side may be empty). */
function dayOf(v: unknown, field: string, title: string): string | undefined {
  if (v === null || v === undefined || v === '') return undefined;
  const m = typeof v === 'string' ? /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(v.trim()) : null;
  const d = m ? realDate(Number(m[1]), Number(m[2]), Number(m[3])) : undefined;
  if (!d) throw validationError([{ field, message: `${title}不是有效的日期（YYYY-MM-DD）` }]);
  return d;
}

export interface DayRange {
  /** Calendar days, for date columns. */
  from?: string;
  to?: string;
  /** UTC instants of the company days' bounds, for timestamp columns. */
  fromAt?: string;
  toAt?: string;
}

export const DATE_RANGE_INPUT = {
  type: ['array', 'null'], maxItems: 2, items: { type: ['string', 'null'], maxLength: 10 }, title: '日期范围',
};

/** [from, to] days (either may be empty) as day bounds and the company days' UTC bounds. */
export function dayRange(raw: unknown, tzHours: number, field = 'dateRange', title = '日期'): DayRange {
  const [a, b] = Array.isArray(raw) ? raw : [];
  const from = dayOf(a, field, `开始${title}`);
  const to = dayOf(b, field, `结束${title}`);
  if (from && to && from > to) throw validationError([{ field, message: `开始${title}不能晚于结束${title}` }]);
  return {
    from, to,
    fromAt: from ? companyDateRange(from, from, tzHours)[0] : undefined,
    toAt: to ? companyDateRange(to, to, tzHours)[1] : undefined,
  };
}

/** Ids of rows of a table within the company, or a validation error naming the filter. */
export async function mustExist(tenant: Tenant, table: string, id: number | null | undefined, field: string, title: string): Promise<void> {
  if (!id) return;
  const hit = await tenant.select(table).select('id').where('id', '=', id).executeTakeFirst();
  if (!hit) throw validationError([{ field, message: `${title}不存在` }]);
}

/** Labels of ids of a table within the company: id → the row's chosen columns. */
export async function labelsById(tenant: Tenant, table: string, ids: number[], columns: string[]): Promise<Map<number, Row>> {
  const out = new Map<number, Row>();
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    if (!chunk.length) break;
    // (the table and its columns are the caller's, named at run time: the untyped view)
    const rows: Row[] = await tenant.select(table).select(['id', ...columns] as never).where('id', 'in', chunk).execute();
    for (const r of rows) out.set(Number(r.id), r);
  }
  return out;
}
