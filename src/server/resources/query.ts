// List queries of a resource: columns and reference labels, keyword, filters and sort — every name from
// the resource's declared fields (a whitelist), every value a bound parameter.
import { sql, type SelectQueryBuilder } from 'kysely';
import { companyDateRange } from '../../core/format.ts';
import type { Tenant } from '../catalog/tenant.ts';
import type { Dialect } from '../db/connection.ts';
import { validationError, type FieldError } from '../http/errors.ts';
import { expose, isEmpty, parseValue } from './fields.ts';
import type { Field, Resource, ResourceRegistry } from './types.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Q = SelectQueryBuilder<any, any, any>;
export type Row = Record<string, unknown>;

export interface ListInput {
  page: number;
  pageSize: number;
  keyword?: string | null;
  filters?: Record<string, unknown> | null;
  sort?: { field: string; order?: 'ascend' | 'descend' } | null;
}

export const LIST_INPUT = {
  type: 'object',
  properties: {
    page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1, title: '页码' },
    pageSize: { type: 'integer', minimum: 1, maximum: 1000, default: 20, title: '每页条数' },
    keyword: { type: ['string', 'null'], maxLength: 100, title: '关键字' },
    filters: { type: ['object', 'null'], title: '筛选条件' },
    sort: {
      type: ['object', 'null'], title: '排序',
      properties: { field: { type: 'string', maxLength: 64, title: '排序字段' }, order: { enum: ['ascend', 'descend', null], title: '排序方向' } },
    },
  },
};

export interface QueryEnv {
  dialect: Dialect;
  /** company time zone in hours: date-only bounds of datetime filters are company days */
  tzHours: number;
}

const RANGE_TYPES = new Set(['integer', 'money', 'decimal', 'date', 'datetime']);
const SYSTEM_SORT = new Set(['id', 'createdAt', 'updatedAt']);

export const refAlias = (f: Field) => `rf_${f.name}`;

function col(r: Resource, column: string) {
  return `${r.table}.${column}`;
}

/** id and stamps, every field except passwords, and the label of every reference (left joins). */
export function selectColumns(reg: ResourceRegistry, r: Resource, q: Q): Q {
  const cols: string[] = [col(r, 'id')];
  if (r.stamps) for (const c of ['version', 'createdAt', 'updatedAt', 'createdBy', 'updatedBy']) cols.push(col(r, c));
  for (const f of r.fields) {
    if (f.type === 'password') continue;
    cols.push(f.column === f.name ? col(r, f.column) : `${col(r, f.column)} as ${f.name}`);
  }
  q = q.select(cols as never);
  for (const f of r.fields) {
    if (f.type !== 'reference') continue;
    const target = reg.get(f.resource!)!;
    const alias = refAlias(f);
    const labelColumn = target.labelField === 'id' ? 'id' : target.fieldMap.get(target.labelField)!.column;
    q = q.leftJoin(`${target.table} as ${alias}`, (j) => j.onRef(`${alias}.id`, '=', col(r, f.column)).onRef(`${alias}.companyId`, '=', col(r, 'companyId')))
      .select(`${alias}.${labelColumn} as ${f.labelAs}` as never);
  }
  return q;
}

function likePattern(text: string, mode: 'contains' | 'prefix'): string {
  const escaped = text.replace(/[\\%_]/g, (c) => `\\${c}`);
  return mode === 'prefix' ? `${escaped}%` : `%${escaped}%`;
}

function like(env: QueryEnv, ref: string, pattern: string) {
  return env.dialect === 'postgres'
    ? sql<boolean>`${sql.ref(ref)} ilike ${pattern} escape '\\'`
    : sql<boolean>`${sql.ref(ref)} like ${pattern} escape '\\'`;
}

function filterField(r: Resource, name: string): Field | 'id' | undefined {
  if (name === 'id') return 'id';
  const f = r.fieldMap.get(name);
  return f && f.filterable && f.type !== 'password' && f.type !== 'list' && f.type !== 'json' ? f : undefined;
}

/** Keyword and filters. Throws a validation error naming any field that may not be filtered on. */
export function applyWhere(r: Resource, q: Q, input: Pick<ListInput, 'keyword' | 'filters'>, env: QueryEnv): Q {
  const errors: FieldError[] = [];
  const keyword = typeof input.keyword === 'string' ? input.keyword.trim() : '';
  if (keyword) {
    const searchable = r.fields.filter((f) => f.searchable && (f.type === 'string' || f.type === 'text'));
    const pattern = likePattern(keyword, 'contains');
    q = q.where((eb) => eb.or([
      ...searchable.map((f) => like(env, col(r, f.column), pattern)),
      ...(r.idType === 'string' ? [eb(col(r, 'id'), '=', keyword.toUpperCase())] : []),
    ]) as never);
  }
  const filters = input.filters && typeof input.filters === 'object' ? input.filters : {};
  for (const [name, raw] of Object.entries(filters)) {
    if (isEmpty(raw) || (Array.isArray(raw) && raw.every(isEmpty))) continue;
    const f = filterField(r, name);
    if (!f) {
      errors.push({ field: `filters.${name}`, message: `不能按“${r.fieldMap.get(name)?.title ?? name.slice(0, 40)}”筛选` });
      continue;
    }
    const title = f === 'id' ? '编号' : f.title;
    const bad = () => errors.push({ field: `filters.${name}`, message: `${title}筛选条件格式不正确` });
    const parse = (v: unknown): unknown => {
      if (f === 'id') {
        if (r.idType === 'string') return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
        const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : NaN;
        return Number.isSafeInteger(n) ? n : undefined;
      }
      // Filters compare stored values: "12.50" → 1250, true → 1, '5' → 5.
      const p = parseValue(f, v, 'json');
      return p.error !== undefined ? undefined : p.value;
    };
    const ref = col(r, f === 'id' ? 'id' : f.column);
    const isRange = f !== 'id' && RANGE_TYPES.has(f.type) && (
      (Array.isArray(raw) && raw.length === 2) || (!!raw && typeof raw === 'object' && !Array.isArray(raw)));
    if (isRange) {
      let [from, to] = Array.isArray(raw) ? raw : [(raw as { from?: unknown }).from, (raw as { to?: unknown }).to];
      if (f.type === 'datetime') {
        // Date-only bounds mean whole company days.
        const day = (v: unknown) => typeof v === 'string' && /^\d{4}-\d{1,2}-\d{1,2}$/.test(v.trim());
        if (day(from)) from = companyDateRange(from as string, from as string, env.tzHours)[0];
        if (day(to)) to = companyDateRange(to as string, to as string, env.tzHours)[1];
      }
      if (!isEmpty(from)) {
        const v = parse(from);
        if (v === undefined || v === null) bad(); else q = q.where(ref, '>=', v);
      }
      if (!isEmpty(to)) {
        const v = parse(to);
        if (v === undefined || v === null) bad(); else q = q.where(ref, '<=', v);
      }
      continue;
    }
    if (Array.isArray(raw)) {
      if (raw.length > 1000) { bad(); continue; }
      const values = raw.filter((v) => !isEmpty(v)).map(parse);
      if (values.some((v) => v === undefined || v === null)) { bad(); continue; }
      q = q.where(ref, 'in', values);
      continue;
    }
    if (typeof raw === 'object') { bad(); continue; }
    if (f !== 'id' && f.type === 'string' && f.filterMode && f.filterMode !== 'exact') {
      const text = String(raw).trim();
      if (text.length > 200) { bad(); continue; }
      q = q.where(like(env, ref, likePattern(text, f.filterMode)) as never);
      continue;
    }
    const v = parse(raw);
    if (v === undefined || v === null) { bad(); continue; }
    q = q.where(ref, '=', v);
  }
  if (errors.length) throw validationError(errors);
  return q;
}

/** ORDER BY a declared sortable field (or id/createdAt/updatedAt), then id for a stable page order. */
export function applySort(r: Resource, q: Q, sort: ListInput['sort']): Q {
  let field = r.defaultSort.field;
  let order = r.defaultSort.order;
  if (sort && sort.field) {
    const f = r.fieldMap.get(sort.field);
    const ok = (f && f.sortable) || (SYSTEM_SORT.has(sort.field) && (sort.field === 'id' || r.stamps));
    if (!ok) throw validationError([{ field: 'sort.field', message: `不能按“${f?.title ?? sort.field.slice(0, 40)}”排序` }]);
    field = sort.field;
    order = sort.order === 'descend' ? 'descend' : 'ascend';
  }
  const dir = order === 'descend' ? 'desc' : 'asc';
  const column = r.fieldMap.get(field)?.column ?? field;
  q = q.orderBy(col(r, column), dir);
  if (field !== 'id') q = q.orderBy(col(r, 'id'), dir);
  return q;
}

/** Raw rows → exposed rows: typed values, list labels (one query per list field), no passwords. */
export async function exposeRows(reg: ResourceRegistry, r: Resource, tenant: Tenant, rows: Row[]): Promise<Row[]> {
  const out = rows.map((raw) => {
    const row: Row = { id: r.idType === 'integer' ? Number(raw.id) : raw.id };
    if (r.stamps) {
      row.version = Number(raw.version);
      row.createdAt = raw.createdAt;
      row.updatedAt = raw.updatedAt;
      row.createdBy = raw.createdBy == null ? null : Number(raw.createdBy);
      row.updatedBy = raw.updatedBy == null ? null : Number(raw.updatedBy);
    }
    for (const f of r.fields) {
      if (f.type === 'password') continue;
      row[f.name] = expose(f, raw[f.name]);
      if (f.type === 'reference') row[f.labelAs!] = raw[f.labelAs!] ?? null;
    }
    return row;
  });
  for (const f of r.fields) {
    if (f.type !== 'list' || !f.resource) continue;
    const ids = [...new Set(out.flatMap((row) => row[f.name] as unknown[]))];
    const labels = await labelsOf(reg, reg.get(f.resource)!, tenant, ids);
    for (const row of out) row[f.labelAs!] = (row[f.name] as unknown[]).map((id) => labels.get(String(id))).filter((x) => x !== undefined);
  }
  return out;
}

/** id → label for ids of a resource within the company. */
export async function labelsOf(reg: ResourceRegistry, target: Resource, tenant: Tenant, ids: unknown[]): Promise<Map<string, string>> {
  const map = new Map<string, string>();
  void reg;
  const labelColumn = target.labelField === 'id' ? 'id' : target.fieldMap.get(target.labelField)!.column;
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    if (!chunk.length) break;
    const rows = await tenant.select(target.table).select(['id', `${labelColumn} as label`] as never).where('id', 'in', chunk).execute();
    for (const x of rows as Row[]) map.set(String(x.id), String(x.label ?? ''));
  }
  return map;
}
