// The generic master-data handlers: list, get, save, remove, export, template, import, options.
// Every query goes through the caller's company scope (ctx.tenant / the transaction's tenant), so an id
// of another company behaves exactly like an id that does not exist.
import { fitsDbInt } from '../db/int-bounds.ts';
import { sql } from 'kysely';
import { passwordProblem } from '../auth/password-policy.ts';
import type { CallContext, OpHandler } from '../catalog/context.ts';
import type { Tenant } from '../catalog/tenant.ts';
import type { DB } from '../db/connection.ts';
import { hashPassword } from '../auth/password.ts';
import { ApiError, bizError, validationError, type FieldError } from '../http/errors.ts';
import { cellTextAt, fileDate, headerIndex, headerProblems, importFailed, MAX_IMPORT_ROWS, normHeader, readUploadedSpreadsheet, textAt, xlsxDownload, type CellValue, type SheetRow, type XlsxColumn } from '../files/xlsx.ts';
import { display, expose, isEmpty, parseValue, sameStored, toCell } from './fields.ts';
import { HOOKS, type SaveEvent } from './hooks.ts';
import { applySort, applyWhere, exposeRows, labelsOf, LIST_INPUT, listQuery, selectColumns, type ListInput, type QueryEnv, type Row } from './query.ts';
import type { Field, Resource, ResourceRegistry } from './types.ts';
import { summableFields, totalsOf } from './totals.ts';
import { keywordIndexOf, syncKeywords, type RowChange } from './keyword-index.ts';
import { keptPage, pageCacheOf, pageTables, visibilityScope } from './page-cache.ts';

const MAX_EXPORT_ROWS = 1_000_000;
const EXPORT_PAGE = 2000;
const MASK = '******';

type Id = number | string;

export function queryEnv(ctx: CallContext): QueryEnv {
  return { dialect: ctx.database.dialect, tzHours: ctx.caller?.company.timeZone ?? 8 };
}

export const notFound = (r: Resource) => bizError('COMMON_NOT_FOUND_4004', { entity: r.title });

function parseId(r: Resource, raw: unknown, field = 'id'): Id {
  if (r.idType === 'string') {
    if (typeof raw === 'string' && raw.trim() && raw.length <= 100) return raw.trim();
  } else {
    const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
    if (n > 0 && fitsDbInt(n)) return n;
  }
  throw validationError([{ field, message: raw === undefined || raw === null || raw === '' ? `请选择${r.title}` : `${r.title}编号格式不正确` }]);
}

function decorate(reg: ResourceRegistry, r: Resource, rows: Row[]): Row[] {
  HOOKS[r.name]?.decorate?.(rows, reg);
  return rows;
}

/** One exposed row by id within the tenant, or undefined. */
export async function fetchRow(reg: ResourceRegistry, r: Resource, tenant: Tenant, id: Id): Promise<Row | undefined> {
  const raw = await selectColumns(reg, r, tenant.select(r.table)).where(`${r.table}.id`, '=', id).executeTakeFirst();
  if (!raw) return undefined;
  return decorate(reg, r, await exposeRows(reg, r, tenant, [raw as Row]))[0];
}

function labelOf(r: Resource, stored: Row): string {
  if (r.labelField === 'id') return String(stored.id);
  const f = r.fieldMap.get(r.labelField)!;
  const v = stored[f.column];
  return v === null || v === undefined ? String(stored.id) : String(display(f, expose(f, v)));
}

/** Stored default of a field ({value: null} when it has none). */
function storedDefault(f: Field): unknown {
  if (f.default === undefined) return null;
  if (f.default === '' && (f.type === 'string' || f.type === 'text')) return '';
  const p = parseValue(f, f.default);
  return p.error === undefined ? p.value : null;
}

function isUniqueViolation(e: unknown): boolean {
  const code = (e as { code?: string }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

function isForeignKeyViolation(e: unknown): boolean {
  const code = (e as { code?: string }).code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/** Field-name values → column values. */
function toColumns(r: Resource, values: Row): Row {
  const out: Row = {};
  for (const [name, v] of Object.entries(values)) out[r.fieldMap.get(name)!.column] = v;
  return out;
}

/** Stored row (column names) → stored values by field name. */
function byField(r: Resource, stored: Row | null | undefined): Row {
  const out: Row = {};
  if (!stored) return out;
  for (const f of r.fields) if (f.column in stored) out[f.name] = stored[f.column];
  return out;
}

// ------------------------------------------------------------------------------------- validation parts

interface Parsed {
  values: Row;
  errors: FieldError[];
}

/**
 * Input object → stored values. create: every writable field (defaults filled, required checked);
 * update: only the fields present in the input. Reference existence and uniqueness are checked later.
 */
function parseInputValues(r: Resource, body: Row, mode: 'create' | 'update'): Parsed {
  const values: Row = {};
  const errors: FieldError[] = [];
  for (const f of r.fields) {
    if (!f.writable) continue;
    const present = Object.prototype.hasOwnProperty.call(body, f.name);
    if (f.type === 'password') {
      if (!present || isEmpty(body[f.name])) {
        if (mode === 'create' && f.required) errors.push({ field: f.name, message: `${f.title}不能为空` });
        continue;
      }
      const p = parseValue(f, body[f.name]);
      if (p.error !== undefined) errors.push({ field: f.name, message: p.error });
      else values[f.name] = p.value;
      continue;
    }
    if (!present && mode === 'update') continue;
    const p = present ? parseValue(f, body[f.name]) : { value: null };
    if (p.error !== undefined) {
      errors.push({ field: f.name, message: p.error });
      continue;
    }
    let v = p.value;
    if (v === null) v = storedDefault(f);
    if ((v === null || (f.type === 'list' && v === '[]')) && f.required) {
      errors.push({ field: f.name, message: `${f.title}不能为空` });
      continue;
    }
    values[f.name] = v;
  }
  return { values, errors };
}

/** Every referenced id exists in the caller's company. */
async function checkReferences(reg: ResourceRegistry, r: Resource, tenant: Tenant, values: Row): Promise<FieldError[]> {
  const errors: FieldError[] = [];
  for (const f of r.fields) {
    if (!f.resource || !(f.name in values) || values[f.name] === null) continue;
    const target = reg.get(f.resource)!;
    const ids = f.type === 'list' ? (JSON.parse(String(values[f.name])) as Id[]) : [values[f.name] as Id];
    if (!ids.length) continue;
    const found = new Set<string>();
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await tenant.select(target.table).select('id').where('id', 'in', ids.slice(i, i + 500)).execute();
      for (const x of rows) found.add(String(x.id));
    }
    const missing = ids.filter((id) => !found.has(String(id)));
    if (missing.length) errors.push({ field: f.name, message: f.type === 'list' ? `${f.title}中有${target.title}不存在（${missing.slice(0, 5).join('、')}）` : `${f.title}不存在` });
  }
  return errors;
}

/** A row may not become its own ancestor. */
async function checkTree(r: Resource, tenant: Tenant, id: Id | null, values: Row): Promise<FieldError[]> {
  if (!r.tree || id === null) return [];
  const pf = r.fieldMap.get(r.tree.parentField)!;
  if (!(pf.name in values) || values[pf.name] === null) return [];
  let cur: unknown = values[pf.name];
  for (let depth = 0; cur !== null && cur !== undefined && depth < 1000; depth++) {
    if (String(cur) === String(id)) return [{ field: pf.name, message: `${pf.title}不能是自身或其下级` }];
    const row = await tenant.select(r.table).select(pf.column).where('id', '=', cur as Id).executeTakeFirst();
    cur = row ? (row as Row)[pf.column] : null;
  }
  return [];
}

async function keyText(reg: ResourceRegistry, r: Resource, tenant: Tenant, key: string[], merged: Row): Promise<string> {
  const parts: string[] = [];
  for (const name of key) {
    const f = r.fieldMap.get(name)!;
    const v = merged[name];
    if (f.type === 'reference' && v !== null && v !== undefined) {
      const labels = await labelsOf(reg, reg.get(f.resource!)!, tenant, [v]);
      parts.push(labels.get(String(v)) ?? String(v));
    } else parts.push(String(display(f, expose(f, v)) ?? ''));
  }
  return parts.join(' ');
}

function uniqueError(r: Resource, key: string[], value: string): ApiError {
  const field = key.map((k) => r.fieldMap.get(k)!.title).join('+');
  return bizError('COMMON_UNIQUE_4011', { field, value }, { field: key.join('+'), fields: key });
}

function raceUniqueError(r: Resource, values: Row): ApiError {
  const key = r.uniqueKeys.find((k) => k.some((f) => f in values)) ?? r.uniqueKeys[0] ?? [r.labelField];
  const value = key.map((k) => { const f = r.fieldMap.get(k); return f ? String(display(f, expose(f, values[k])) ?? '') : ''; }).join(' ');
  return uniqueError(r, key, value);
}

/** Unique keys that this write touches must not be held by another row of the company. */
async function checkUnique(reg: ResourceRegistry, r: Resource, tenant: Tenant, id: Id | null, values: Row, merged: Row): Promise<void> {
  for (const key of r.uniqueKeys) {
    if (id !== null && !key.some((k) => k in values)) continue;
    if (key.some((k) => merged[k] === null || merged[k] === undefined)) continue;
    let q = tenant.select(r.table).select('id');
    for (const k of key) q = q.where(r.fieldMap.get(k)!.column, '=', merged[k]);
    if (id !== null) q = q.where('id', '!=', id);
    if (await q.limit(1).executeTakeFirst()) throw uniqueError(r, key, await keyText(reg, r, tenant, key, merged));
  }
}

/** Field-by-field changes for the audit log; references by label, passwords masked. */
async function diff(reg: ResourceRegistry, r: Resource, tenant: Tenant, before: Row | null, after: Row, written: Row) {
  const changes: Array<{ field: string; title: string; from: unknown; to: unknown }> = [];
  for (const f of r.fields) {
    if (f.type === 'password') {
      if (f.name in written) changes.push({ field: f.name, title: f.title, from: before ? MASK : null, to: MASK });
      continue;
    }
    const from = before ? before[f.column] : null;
    const to = after[f.column];
    if (sameStored(f, from, to)) continue;
    if (!before && (to === null || to === undefined)) continue;
    const show = async (v: unknown) => {
      const e = expose(f, v);
      if (f.resource && e !== null && e !== undefined) {
        const ids = Array.isArray(e) ? e : [e];
        const labels = await labelsOf(reg, reg.get(f.resource)!, tenant, ids);
        const shown = ids.map((x) => labels.get(String(x)) ?? String(x));
        return Array.isArray(e) ? shown : shown[0];
      }
      return display(f, e);
    };
    changes.push({ field: f.name, title: f.title, from: await show(from), to: await show(to) });
  }
  return changes;
}

// ------------------------------------------------------------------------------------------ handlers

function listHandler(reg: ResourceRegistry, r: Resource): OpHandler<ListInput> {
  const tables = pageTables(reg, r);
  return {
    input: LIST_INPUT,
    run: (ctx, input) => keptPage(ctx, `resource:${r.name}`, tables, input, (token) => readPage(ctx, input, token)),
  };

  /** One page as read from the database (the total too, unless counted under the same token). */
  async function readPage(ctx: Parameters<OpHandler<ListInput>['run']>[0], input: ListInput, token: string) {
    const query = listQuery(reg, r, ctx.tenant, input, queryEnv(ctx));
    const offset = (input.page - 1) * input.pageSize;
    const cache = pageCacheOf(ctx.database);
    // Every page of the same criteria has the same total: counted once per token.
    const criteria = `${visibilityScope(ctx)}\u0001${r.name}\u0001${JSON.stringify([input.keyword ?? null, input.filters ?? null])}`;
    let total = cache.total(criteria, token);
    const raw = total === undefined || total > offset ? await query.page(input.pageSize, offset) : [];
    // A short page tells the exact total without counting.
    if (raw.length > 0 && raw.length < input.pageSize) total = offset + raw.length;
    else if (total === undefined || (raw.length === 0 && offset > 0 && total > offset)) total = await cache.countOnce(criteria, token, query.count);
    cache.rememberTotal(criteria, token, total);
    const list = decorate(reg, r, await exposeRows(reg, r, ctx.tenant, raw));
    if (!input.withTotals) return { list, total, page: input.page, pageSize: input.pageSize };
    // Asked for by lists that show 全部合计: the same conditions, summed by the database.
    const fields = summableFields(r);
    const totals = totalsOf(fields, await query.sums(fields));
    return { list, total, page: input.page, pageSize: input.pageSize, totals };
  }
}

function getHandler(reg: ResourceRegistry, r: Resource): OpHandler<{ id: unknown }> {
  return {
    input: { type: 'object', properties: { id: { type: ['integer', 'string'], title: '编号' } } },
    async run(ctx, input) {
      const row = await fetchRow(reg, r, ctx.tenant, parseId(r, input.id));
      if (!row) throw notFound(r);
      return row;
    },
  };
}

function saveHandler(reg: ResourceRegistry, r: Resource): OpHandler<Row> {
  const hooks = HOOKS[r.name] ?? {};
  const keywords = keywordIndexOf(r);
  return {
    input: { type: 'object' },
    async run(ctx, body) {
      const isUpdate = !isEmpty(body.id);
      const id = isUpdate ? parseId(r, body.id) : null;
      const parsed = parseInputValues(r, body, isUpdate ? 'update' : 'create');
      let version = 0;
      if (isUpdate) {
        version = typeof body.version === 'number' ? body.version : typeof body.version === 'string' && /^\d+$/.test(body.version) ? Number(body.version) : NaN;
        if (!fitsDbInt(version) || version < 1) parsed.errors.unshift({ field: 'version', message: '版本不能为空，请刷新后重试' });
      }
      if (parsed.errors.length) throw validationError(parsed.errors);
      const values = parsed.values;
      for (const f of r.fields) {
        if (f.type !== 'password' || typeof values[f.name] !== 'string') continue;
        // The field rules applied the password policy; here the user name it may not contain is known.
        const weak = passwordProblem(values[f.name] as string, { title: f.title, userName: typeof body.userName === 'string' ? body.userName.trim() : undefined });
        if (weak) throw validationError([{ field: f.name, message: weak }]);
        values[f.name] = await hashPassword(values[f.name] as string);
      }
      const accountId = ctx.caller!.accountId;
      try {
        return await ctx.transaction(async (db, tenant) => {
          let before: Row | null = null;
          if (id !== null) {
            before = ((await tenant.select(r.table).selectAll().where('id', '=', id).executeTakeFirst()) as Row | undefined) ?? null;
            if (!before) throw notFound(r);
            if (Number(before.version) !== version) throw bizError('COMMON_VERSION_CONFLICT_4009', { entity: r.title });
          }
          const merged: Row = { ...byField(r, before), ...values };
          if (hooks.derive) {
            const derived = hooks.derive({ merged });
            Object.assign(values, derived);
            Object.assign(merged, derived);
          }
          const event: SaveEvent = { ctx, db, tenant, resource: r, id, before, merged, values };
          const errors = [
            ...(await checkReferences(reg, r, tenant, values)),
            ...(await checkTree(r, tenant, id, values)),
          ];
          if (!errors.length && hooks.validate) errors.push(...(await hooks.validate(event)));
          if (errors.length) throw validationError(errors);
          await checkUnique(reg, r, tenant, id, values, merged);
          const now = new Date().toISOString();
          const columns = { ...toColumns(r, values), ...(hooks.extraColumns?.(event) ?? {}) };
          let rowId: Id;
          if (id === null) {
            const inserted = await tenant.insert(r.table, { ...columns, version: 1, createdAt: now, updatedAt: now, createdBy: accountId, updatedBy: accountId })
              .returning('id').executeTakeFirstOrThrow();
            rowId = Number((inserted as Row).id);
          } else {
            const res = await tenant.update(r.table)
              .set({ ...columns, version: sql`${sql.ref('version')} + 1`, updatedAt: now, updatedBy: accountId })
              .where('id', '=', id).where('version', '=', version).executeTakeFirst();
            if (Number(res.numUpdatedRows) !== 1) throw bizError('COMMON_VERSION_CONFLICT_4009', { entity: r.title });
            rowId = id;
          }
          if (hooks.afterSave) await hooks.afterSave({ ...event, id: rowId });
          if (hooks.afterWrite) await hooks.afterWrite({ ctx, db, tenant, op: 'save' });
          const after = (await tenant.select(r.table).selectAll().where('id', '=', rowId).executeTakeFirstOrThrow()) as Row;
          if (keywords) await syncKeywords(db, ctx.database.dialect, keywords, tenant.companyId, [{ id: Number(rowId), before, after }]);
          await ctx.audit({
            action: id === null ? 'create' : 'update', entity: r.name, recordId: rowId, recordLabel: labelOf(r, after),
            changes: await diff(reg, r, tenant, before, after, values),
          }, db);
          return (await fetchRow(reg, r, tenant, rowId))!;
        });
      } catch (e) {
        // Two writers passed the check at once; the database's unique index stopped the second.
        if (isUniqueViolation(e)) throw raceUniqueError(r, values);
        throw e;
      }
    },
  };
}

function removeHandler(reg: ResourceRegistry, r: Resource): OpHandler<{ id?: unknown; ids?: unknown }> {
  const hooks = HOOKS[r.name] ?? {};
  const keywords = keywordIndexOf(r);
  return {
    input: { type: 'object', properties: { ids: { type: 'array', maxItems: 1000, title: '编号列表' } } },
    async run(ctx, input) {
      const rawIds = Array.isArray(input.ids) ? input.ids : isEmpty(input.id) ? [] : [input.id];
      if (!rawIds.length) throw validationError([{ field: 'ids', message: `请选择要删除的${r.title}` }]);
      const ids = [...new Map(rawIds.map((x) => { const id = parseId(r, x); return [String(id), id] as const; })).values()];
      try {
        return await ctx.transaction(async (db, tenant) => {
          const rows = (await tenant.select(r.table).selectAll().where('id', 'in', ids).execute()) as Row[];
          if (rows.length !== ids.length) throw notFound(r);
          if (hooks.authorizeRemove) await hooks.authorizeRemove(ctx, tenant, rows);
          const byId = new Map(rows.map((x) => [String(x.id), x]));
          for (const ref of r.referrers) {
            let holder: { refId: string } | undefined;
            if (ref.list) {
              // JSON id lists: a text match narrows, the parsed list decides.
              for (const id of ids) {
                const candidates = await db.selectFrom(ref.table).select(['id', `${ref.column} as ids`] as never)
                  .where(ref.companyColumn, '=', tenant.companyId).where(ref.column, 'like', `%${id}%`).execute() as Row[];
                const hit = candidates.find((c) => (JSON.parse(String(c.ids ?? '[]')) as unknown[]).some((x) => String(x) === String(id))
                  && !(ref.table === r.table && byId.has(String(c.id))));
                if (hit) { holder = { refId: String(id) }; break; }
              }
            } else {
              let q = db.selectFrom(ref.table).select(`${ref.table}.${ref.column} as refId` as never)
                .where(`${ref.table}.${ref.companyColumn}`, '=', tenant.companyId).where(`${ref.table}.${ref.column}`, 'in', ids);
              if (ref.table === r.table) q = q.where(`${ref.table}.id`, 'not in', ids);
              const hit = (await q.limit(1).executeTakeFirst()) as Row | undefined;
              if (hit) holder = { refId: String(hit.refId) };
            }
            if (holder) {
              throw bizError('COMMON_REFERENCED_4010', { entity: r.title, label: labelOf(r, byId.get(holder.refId)!), refEntity: ref.title }, { id: holder.refId, refEntity: ref.title });
            }
          }
          if (hooks.beforeRemove) await hooks.beforeRemove(ctx, db, tenant, rows);
          for (let i = 0; i < ids.length; i += 500) await tenant.delete(r.table).where('id', 'in', ids.slice(i, i + 500)).execute();
          if (hooks.afterWrite) await hooks.afterWrite({ ctx, db, tenant, op: 'remove' });
          if (keywords) await syncKeywords(db, ctx.database.dialect, keywords, tenant.companyId, rows.map((row) => ({ id: Number(row.id), before: row })));
          for (const row of rows) {
            const changes = r.fields.filter((f) => f.type !== 'password' && row[f.column] !== null && row[f.column] !== undefined)
              .map((f) => ({ field: f.name, title: f.title, from: display(f, expose(f, row[f.column])), to: null }));
            await ctx.audit({ action: 'remove', entity: r.name, recordId: row.id as Id, recordLabel: labelOf(r, row), changes }, db);
          }
          return { removed: rows.length };
        });
      } catch (e) {
        if (isForeignKeyViolation(e)) throw bizError('COMMON_REFERENCED_4010', { entity: r.title, label: '', refEntity: '其他数据' });
        throw e;
      }
    },
  };
}

const EXPORT_INPUT = {
  type: 'object',
  properties: {
    keyword: LIST_INPUT.properties.keyword,
    filters: LIST_INPUT.properties.filters,
    sort: LIST_INPUT.properties.sort,
    ids: { type: ['array', 'null'], maxItems: 10000, title: '所选记录' },
  },
};

function exportColumns(r: Resource): Field[] {
  return r.fields.filter((f) => f.exported);
}

/** Field types read and written as text in spreadsheets (codes, barcodes, HS codes, names, references). */
const TEXT_TYPES = new Set<Field['type']>(['string', 'text', 'reference', 'list']);

export function columnOf(f: Field): XlsxColumn {
  return {
    header: f.title,
    width: f.width,
    // Text columns are text in the file, so that a code typed into the template keeps its leading zeros.
    numFmt: f.type === 'money' ? '#,##0.00' : f.type === 'decimal' ? (f.scale ? `0.${'0'.repeat(f.scale)}` : '0') : TEXT_TYPES.has(f.type) ? '@' : undefined,
  };
}

function exportHandler(reg: ResourceRegistry, r: Resource): OpHandler<Omit<ListInput, 'page' | 'pageSize'> & { ids?: unknown[] | null }> {
  return {
    input: EXPORT_INPUT,
    async run(ctx, input) {
      const env = queryEnv(ctx);
      let where = applyWhere(r, ctx.tenant.select(r.table), input, env);
      if (Array.isArray(input.ids) && input.ids.length) where = where.where(`${r.table}.id`, 'in', input.ids.map((x) => parseId(r, x, 'ids')));
      const query = applySort(r, selectColumns(reg, r, where), input.sort);
      const cols = exportColumns(r);
      const tenant = ctx.tenant;
      return xlsxDownload(`${r.title}_${fileDate(env.tzHours)}.xlsx`, async (book) => {
        const sheet = book.addSheet(r.title, cols.map(columnOf));
        for (let offset = 0; offset < MAX_EXPORT_ROWS; offset += EXPORT_PAGE) {
          const raw = (await query.limit(EXPORT_PAGE).offset(offset).execute()) as Row[];
          const rows = decorate(reg, r, await exposeRows(reg, r, tenant, raw));
          for (const row of rows) sheet.addRow(cols.map((f) => toCell(f, row, env.tzHours) as CellValue));
          if (raw.length < EXPORT_PAGE) break;
          await book.drain();
        }
      });
    },
  };
}

function importColumns(r: Resource): Field[] {
  return r.fields.filter((f) => f.imported);
}

function formatNote(reg: ResourceRegistry, f: Field): string {
  const parts: string[] = [];
  switch (f.type) {
    case 'string': parts.push(f.format === 'cidr' ? 'IP 地址或网段，如 192.168.1.10 或 192.168.1.0/24' : f.format === 'email' ? '邮箱地址' : '文本'); break;
    case 'text': parts.push('文本'); break;
    case 'integer': parts.push('整数'); break;
    case 'boolean': parts.push(`填写“${f.trueLabel ?? '是'}”或“${f.falseLabel ?? '否'}”`); break;
    case 'enum': parts.push(`可选：${f.values!.map((v) => v.label).join('、')}`); break;
    case 'date': parts.push('日期，格式 YYYY-MM-DD'); break;
    case 'datetime': parts.push('时间，格式 YYYY-MM-DD HH:mm:ss'); break;
    case 'money': parts.push('金额，最多 2 位小数'); break;
    case 'decimal': parts.push(`数字，最多 ${f.scale} 位小数`); break;
    case 'reference': {
      const t = reg.get(f.resource!)!;
      parts.push(`填写${t.title}的${t.lookupFields.map((n) => t.fieldMap.get(n)!.title).join('或')}`);
      break;
    }
    case 'list': {
      const t = f.resource ? reg.get(f.resource) : undefined;
      parts.push(t ? `多个${t.title}用逗号分隔` : '多个值用逗号分隔');
      break;
    }
    default: break;
  }
  if (f.maxLength && (f.type === 'string' || f.type === 'text')) parts.push(`最多 ${f.maxLength} 个字符`);
  if (f.min !== undefined) parts.push(`最小 ${f.min}`);
  if (f.max !== undefined) parts.push(`最大 ${f.max}`);
  if (f.unique) parts.push('公司内不能重复');
  if (f.default !== undefined && f.default !== '' && !(Array.isArray(f.default) && !f.default.length)) {
    const d = storedDefault(f);
    parts.push(`不填默认为“${display(f, expose(f, d))}”`);
  }
  return parts.join('；');
}

function templateHandler(reg: ResourceRegistry, r: Resource): OpHandler {
  return {
    input: { type: 'object' },
    async run() {
      const cols = importColumns(r);
      const key = r.importKey?.map((k) => r.fieldMap.get(k)!.title).join('+');
      return xlsxDownload(`${r.title}导入模板.xlsx`, async (book) => {
        book.addSheet(r.title, cols.map((f) => ({ ...columnOf(f), highlight: f.required && f.default === undefined })));
        const notes = book.addSheet('填写说明', [{ header: '列名', width: 20 }, { header: '必填', width: 8 }, { header: '说明', width: 70 }]);
        for (const f of cols) notes.addRow([f.title, f.required && f.default === undefined ? '是' : '否', formatNote(reg, f)]);
        notes.addRow([]);
        notes.addRow(['说明', '', '第一行为列名（红色为必填），请从第二行起填写数据；列的顺序可以调整，不认识的列会被忽略。']);
        if (key) notes.addRow(['更新规则', '', `按“${key}”匹配：已存在的${r.title}会被更新（只更新文件中有的列），其余新增。`]);
        notes.addRow(['出错处理', '', '任何一行有错误时不会写入任何数据，错误报告会列出行号和原因。']);
      });
    },
  };
}

interface ImportRow {
  row: number;
  values: Row;
  /** fields whose column is in the file (update only these) */
  present: Set<string>;
  existing?: Row;
}

/** Resolves reference cells (labels or codes) to ids, one query per field and chunk. */
async function resolveLookups(reg: ResourceRegistry, target: Resource, tenant: Tenant, texts: string[]): Promise<Map<string, Id[]>> {
  const found = new Map<string, Id[]>();
  for (const name of target.lookupFields) {
    const lf = target.fieldMap.get(name)!;
    const pending = texts.filter((t) => !found.has(t));
    for (let i = 0; i < pending.length; i += 500) {
      const chunk = pending.slice(i, i + 500);
      if (!chunk.length) break;
      const rows = (await tenant.select(target.table).select(['id', `${lf.column} as k`] as never).where(lf.column, 'in', chunk).execute()) as Row[];
      for (const x of rows) {
        const k = String(x.k);
        found.set(k, [...(found.get(k) ?? []), x.id as Id]);
      }
    }
  }
  void reg;
  return found;
}


function importHandler(reg: ResourceRegistry, r: Resource): OpHandler {
  const hooks = HOOKS[r.name] ?? {};
  const keywords = keywordIndexOf(r);
  return {
    async run(ctx) {
      const upload = await readUploadedSpreadsheet(ctx);
      const rows = upload.sheet.rows.filter((x) => x.cells.some((c) => c !== null && !(typeof c === 'string' && !c.trim())));
      const errors: Array<{ row: number; field: string; title?: string; message: string }> = [];
      const fail = () => importFailed(errors);
      if (!rows.length) throw bizError('COMMON_IMPORT_EMPTY_4014');
      for (const p of headerProblems(upload.sheet, rows[0], importColumns(r).map((f) => f.title))) errors.push({ ...p, field: '' });
      if (errors.length) throw fail();
      const header = headerIndex(rows[0].cells);
      const cols = importColumns(r).filter((f) => header.has(normHeader(f.title)));
      const data = rows.slice(1);
      if (!cols.length) {
        errors.push({ row: rows[0].row, field: '', message: `第 ${rows[0].row} 行没有可识别的列名，请使用${r.title}导入模板` });
        throw fail();
      }
      const key = r.importKey ?? [];
      for (const f of importColumns(r)) {
        const needed = (f.required && f.default === undefined) || key.includes(f.name);
        if (needed && !cols.includes(f)) errors.push({ row: rows[0].row, field: f.name, title: f.title, message: `缺少必填列“${f.title}”` });
      }
      if (errors.length) throw fail();
      if (!data.length) {
        errors.push({ row: rows[0].row + 1, field: '', message: '文件中没有数据行' });
        throw fail();
      }
      if (data.length > MAX_IMPORT_ROWS) throw bizError('COMMON_IMPORT_ROWS_4017', { max: MAX_IMPORT_ROWS, count: data.length });

      const pushError = (row: number, f: Field | undefined, message: string) => errors.push({ row, field: f?.name ?? '', title: f?.title, message: `第 ${row} 行：${message}` });
      const refCols = cols.filter((f) => f.resource);
      const plainCols = cols.filter((f) => !f.resource);
      const parsed: ImportRow[] = data.map((line) => {
        const values: Row = {};
        for (const f of plainCols) {
          const at = header.get(normHeader(f.title))!;
          // Text fields take the cell as shown: a code 0010001 stays 0010001 whatever the cell's type.
          const p = parseValue(f, TEXT_TYPES.has(f.type) ? textAt(line, at) : line.cells[at] ?? null, 'import');
          if (p.error !== undefined) pushError(line.row, f, p.error);
          else values[f.name] = p.value;
        }
        return { row: line.row, values, present: new Set(cols.map((f) => f.name)) };
      });

      const summary = await ctx.transaction(async (db, tenant): Promise<{ created: number; updated: number; unchanged: number }> => {
        // References: labels or codes → ids within the company.
        for (const f of refCols) {
          const idx = header.get(normHeader(f.title))!;
          const target = reg.get(f.resource!)!;
          const textsOf = (line: SheetRow) => f.type === 'list'
            ? cellTextAt(line, idx).split(/[,，;；、\n]/).map((s) => s.trim()).filter(Boolean)
            : [cellTextAt(line, idx)].filter(Boolean);
          const all = [...new Set(data.flatMap((line) => textsOf(line)))];
          const found = await resolveLookups(reg, target, tenant, all);
          data.forEach((line, i) => {
            const ids: Id[] = [];
            for (const t of textsOf(line)) {
              const hit = found.get(t);
              if (!hit) pushError(line.row, f, `${f.title}“${t}”不存在`);
              else if (hit.length > 1) pushError(line.row, f, `${f.title}“${t}”对应多条${target.title}，请填写编码`);
              else ids.push(hit[0]!);
            }
            parsed[i].values[f.name] = f.type === 'list' ? JSON.stringify([...new Set(ids)]) : ids[0] ?? null;
          });
        }
        // Existing rows by the import key decide create or update.
        if (key.length) {
          const first = r.fieldMap.get(key[0])!;
          const keyOf = (v: Row) => key.map((k) => String(v[k] ?? '')).join('\u0001');
          const wanted = [...new Set(parsed.map((p) => p.values[key[0]]).filter((v) => v !== null && v !== undefined))];
          const existing = new Map<string, Row>();
          for (let i = 0; i < wanted.length; i += 500) {
            const found = (await tenant.select(r.table).selectAll().where(first.column, 'in', wanted.slice(i, i + 500) as never[]).execute()) as Row[];
            for (const x of found) existing.set(keyOf(byField(r, x)), x);
          }
          for (const p of parsed) {
            if (key.every((k) => p.values[k] !== null && p.values[k] !== undefined)) p.existing = existing.get(keyOf(p.values));
          }
        }
        // Defaults and required fields; in-file duplicates of every unique key.
        const seen = r.uniqueKeys.map(() => new Map<string, number>());
        for (const p of parsed) {
          for (const f of importColumns(r)) {
            const has = f.name in p.values;
            if (!p.existing && !has) p.values[f.name] = storedDefault(f);
            if (has && p.values[f.name] === null && f.default !== undefined) p.values[f.name] = storedDefault(f);
            if ((p.values[f.name] === null || (f.type === 'list' && p.values[f.name] === '[]')) && f.required && (has || !p.existing)) {
              if (!errors.some((e) => e.row === p.row && e.field === f.name)) pushError(p.row, f, `${f.title}不能为空`);
            }
          }
          if (hooks.derive) {
            const derived = hooks.derive({ merged: { ...byField(r, p.existing), ...p.values } });
            Object.assign(p.values, derived);
            for (const k of Object.keys(derived)) p.present.add(k);
          }
          r.uniqueKeys.forEach((uk, i) => {
            const merged = { ...byField(r, p.existing), ...p.values };
            if (uk.some((k) => merged[k] === null || merged[k] === undefined)) return;
            const k = uk.map((x) => String(merged[x])).join('\u0001');
            const other = seen[i].get(k);
            if (other !== undefined) pushError(p.row, r.fieldMap.get(uk[0]), `${uk.map((x) => r.fieldMap.get(x)!.title).join('+')}与第 ${other} 行重复`);
            else seen[i].set(k, p.row);
          });
        }
        // Other unique keys must not be held by a different row of the company.
        for (const uk of r.uniqueKeys) {
          if (uk.join() === key.join()) continue;
          const first = r.fieldMap.get(uk[0])!;
          const mergedRows = parsed.map((p) => ({ p, merged: { ...byField(r, p.existing), ...p.values } }));
          const wanted = [...new Set(mergedRows.map((m) => m.merged[uk[0]]).filter((v) => v !== null && v !== undefined))];
          const holders = new Map<string, Id>();
          for (let i = 0; i < wanted.length; i += 500) {
            const found = (await tenant.select(r.table).selectAll().where(first.column, 'in', wanted.slice(i, i + 500) as never[]).execute()) as Row[];
            for (const x of found) holders.set(uk.map((k) => String(byField(r, x)[k])).join('\u0001'), x.id as Id);
          }
          for (const { p, merged } of mergedRows) {
            if (uk.some((k) => merged[k] === null || merged[k] === undefined)) continue;
            const holder = holders.get(uk.map((k) => String(merged[k])).join('\u0001'));
            if (holder !== undefined && String(holder) !== String(p.existing?.id)) {
              pushError(p.row, first, `${uk.map((x) => r.fieldMap.get(x)!.title).join('+')}“${uk.map((k) => String(display(r.fieldMap.get(k)!, expose(r.fieldMap.get(k)!, merged[k])))).join(' ')}”已存在`);
            }
          }
        }
        if (errors.length) throw fail();
        // Resource rules (pack sizes, date order, tree) row by row.
        for (const p of parsed) {
          const id = (p.existing?.id as Id | undefined) ?? null;
          const values = p.existing ? Object.fromEntries(Object.entries(p.values).filter(([k]) => p.present.has(k))) : p.values;
          const merged = { ...byField(r, p.existing), ...values };
          const rowErrors = [
            ...(id !== null ? await checkTree(r, tenant, id, values) : []),
            ...(hooks.validate ? await hooks.validate({ ctx, db, tenant, resource: r, id, before: p.existing ?? null, merged, values }) : []),
          ];
          for (const e of rowErrors) pushError(p.row, r.fieldMap.get(e.field), e.message);
        }
        if (errors.length) throw fail();

        // Write: new rows in multi-row inserts, changed rows one update each.
        const now = new Date().toISOString();
        const accountId = ctx.caller!.accountId;
        const creates = parsed.filter((p) => !p.existing);
        const insertRows = creates.map((p) => ({ ...toColumns(r, p.values), version: 1, createdAt: now, updatedAt: now, createdBy: accountId, updatedBy: accountId }));
        const width = Math.max(1, Object.keys(insertRows[0] ?? { a: 1 }).length);
        const chunk = Math.max(1, Math.floor(8000 / width));
        // The keyword index learns the new rows' ids (and texts) from the inserts themselves.
        const indexed: RowChange[] = [];
        for (let i = 0; i < insertRows.length; i += chunk) {
          const insert = tenant.insert(r.table, insertRows.slice(i, i + chunk));
          if (!keywords) await insert.execute();
          else for (const row of (await insert.returning(['id', ...keywords.columns] as never[]).execute()) as Row[]) indexed.push({ id: Number(row.id), after: row });
        }
        let updated = 0;
        let unchanged = 0;
        for (const p of parsed) {
          if (!p.existing) continue;
          const values = Object.fromEntries(Object.entries(p.values).filter(([k]) => p.present.has(k) && !sameStored(r.fieldMap.get(k)!, p.existing![r.fieldMap.get(k)!.column], p.values[k])));
          if (!Object.keys(values).length) { unchanged++; continue; }
          await tenant.update(r.table).set({ ...toColumns(r, values), version: sql`${sql.ref('version')} + 1`, updatedAt: now, updatedBy: accountId })
            .where('id', '=', p.existing.id as Id).execute();
          const after = { ...p.existing, ...toColumns(r, values) };
          await ctx.audit({ action: 'update', entity: r.name, recordId: p.existing.id as Id, recordLabel: labelOf(r, after), changes: await diff(reg, r, tenant, p.existing, after, values) }, db);
          if (keywords) indexed.push({ id: Number(p.existing.id), before: p.existing, after });
          updated++;
        }
        if (keywords) await syncKeywords(db, ctx.database.dialect, keywords, tenant.companyId, indexed);
        if (hooks.afterWrite) await hooks.afterWrite({ ctx, db, tenant, op: 'import' });
        const result = { created: creates.length, updated, unchanged };
        await ctx.audit({
          action: 'import', entity: r.name, recordLabel: upload.fileName.slice(0, 200),
          changes: [
            { field: 'created', title: '新增', from: null, to: result.created },
            { field: 'updated', title: '更新', from: null, to: result.updated },
            { field: 'unchanged', title: '未变化', from: null, to: result.unchanged },
          ],
        }, db);
        return result;
      }).catch((e) => {
        if (isUniqueViolation(e)) throw raceUniqueError(r, {});
        throw e;
      });
      return summary;
    },
  };
}

/** Fields an option carries besides its label when its resource has them. */
const OPTION_CODE_FIELDS = ['code', 'barcode'] as const;

function optionsHandler(r: Resource): OpHandler<{ keyword?: string | null }> {
  return {
    input: { type: 'object', properties: { keyword: { type: ['string', 'null'], maxLength: 100, title: '关键字' } } },
    async run(ctx, input) {
      const labelColumn = r.labelField === 'id' ? 'id' : r.fieldMap.get(r.labelField)!.column;
      // The codes a clerk types or scans travel with each option, so a select finds a supplier by its
      // code as well as by its name (and a product by its barcode).
      const codes = OPTION_CODE_FIELDS.filter((n) => n !== r.labelField && r.fieldMap.get(n)?.type === 'string');
      let q = ctx.tenant.select(r.table).select([`${r.table}.id`, `${r.table}.${labelColumn} as label`, ...codes.map((n) => `${r.table}.${r.fieldMap.get(n)!.column} as ${n}`)] as never);
      if (r.enabledField) q = q.where(`${r.table}.${r.fieldMap.get(r.enabledField)!.column}`, '=', 1);
      const keyword = typeof input.keyword === 'string' ? input.keyword.trim() : '';
      if (keyword) {
        const searchable = [...new Set([...r.lookupFields, ...codes])].map((n) => r.fieldMap.get(n)!).filter((f) => f.type === 'string' || f.type === 'text');
        q = applyWhere({ ...r, fields: searchable.map((f) => ({ ...f, searchable: true })) }, q, { keyword }, queryEnv(ctx));
      }
      q = applySort(r, q, null);
      const rows = (await q.limit(5000).execute()) as Row[];
      return rows.map((x) => {
        const option: Row = { id: r.idType === 'integer' ? Number(x.id) : x.id, label: x.label ?? '' };
        for (const n of codes) if (x[n] !== null && x[n] !== undefined && x[n] !== '') option[n] = x[n];
        return option;
      });
    },
  };
}

export type ResourceOp = 'list' | 'get' | 'save' | 'remove' | 'export' | 'template' | 'import' | 'options';

/** The generic handler of a resource's op; undefined for an unknown op or a write op of a readonly resource. */
export function makeHandler(reg: ResourceRegistry, r: Resource, op: string): OpHandler | undefined {
  switch (op) {
    case 'list': return listHandler(reg, r);
    case 'get': return getHandler(reg, r);
    case 'export': return exportHandler(reg, r);
    case 'options': return optionsHandler(r);
    default: break;
  }
  if (r.readonly) return undefined;
  switch (op) {
    case 'save': return saveHandler(reg, r);
    case 'remove': return removeHandler(reg, r);
    case 'template': return templateHandler(reg, r);
    case 'import': return importHandler(reg, r);
    default: return undefined;
  }
}

export { importColumns, exportColumns };
export type { DB };
