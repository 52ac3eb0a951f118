// Document fields are resource fields (schemas/resources types): resolved here into the same `Field`
// the generic resource handlers use, parsed with the same parseValue, and their references checked
// against the caller's company and labelled by one join per referenced resource.
import { sql } from 'kysely';
import type { Tenant } from '../catalog/tenant.ts';
import type { FieldError } from '../http/errors.ts';
import { parseValue, isEmpty } from '../resources/fields.ts';
import type { Field, FieldDef, Resource, ResourceRegistry } from '../resources/types.ts';
import type { Row } from './definition.ts';

/** Largest id the databases hold (PostgreSQL `integer`): a bigger one cannot exist. */
const MAX_ID = 2_147_483_647;

export const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function labelAsOf(name: string, def: FieldDef): string | undefined {
  if (def.type !== 'reference') return undefined;
  return def.labelAs ?? (name.endsWith('Id') ? `${name.slice(0, -2)}Name` : `${name}Name`);
}

/** The base of a reference field's extra properties: productId → product (productCode, productName…). */
export const refBase = (f: Field) => (f.name.endsWith('Id') ? f.name.slice(0, -2) : f.name);

export function resolveFields(defs: Record<string, FieldDef>, registry: ResourceRegistry, where: string): Field[] {
  return Object.entries(defs).map(([name, def]) => {
    if (def.type === 'reference' && !registry.get(def.resource ?? '')) throw new Error(`${where}: 字段 ${name} 引用的资源 ${def.resource} 不存在`);
    if (def.type === 'enum' && !def.values?.length) throw new Error(`${where}: 枚举字段 ${name} 没有取值`);
    return {
      ...def, name, column: def.column ?? name, labelAs: labelAsOf(name, def),
      sortable: true, writable: !def.readonly, exported: def.export !== false, imported: def.import !== false,
    } as Field;
  });
}

/** Parses the writable fields of one record (header or line); errors are pushed with `prefix` on the field path. */
export function parseRecord(fields: Field[], raw: Row, errors: FieldError[], path = '', message = (m: string) => m): Row {
  const out: Row = {};
  for (const f of fields) {
    if (!f.writable) continue;
    const v = raw[f.name];
    if (isEmpty(v)) {
      if (f.required) errors.push({ field: `${path}${f.name}`, message: message(`${f.title}不能为空`) });
      out[f.column] = f.default ?? null;
      continue;
    }
    const p = parseValue(f, v);
    if (p.error !== undefined) errors.push({ field: `${path}${f.name}`, message: message(p.error) });
    else if ((f.type === 'reference') && Number(p.value) > MAX_ID) errors.push({ field: `${path}${f.name}`, message: message(`${f.title}不存在`) });
    else out[f.column] = p.value;
  }
  return out;
}

export interface RefCheck {
  field: Field;
  resource: Resource;
  /** id → the places that hold it (error field path + message wrapper) */
  uses: Map<number, Array<{ path: string; message: (m: string) => string }>>;
  /**
   * The hook has judged this field's rows itself (a disabled product may still be returned, say): only
   * the company is checked, never skipped — a hook that forgot to read the row cannot let another
   * company's id through (issue 33 item 2: 收付款单 did exactly that).
   */
  companyOnly?: boolean;
}

/** Referenced rows read earlier in the same call, by field name and id: not read again. */
export type ReferencedRows = Map<string, Map<number, Row>>;

/** Ids of one statement at most: far below both databases' bound on parameters. */
const IDS_PER_STATEMENT = 5000;

/**
 * Checks that every referenced id exists in the caller's company (an id of another company is one that
 * does not exist) and, for resources with an enabled switch, is enabled. One statement for all the
 * referenced tables (a union of one select per table), however many fields and lines refer to them;
 * rows in `known` are not read again, and the rows read are added to it.
 */
export async function checkReferences(tenant: Tenant, checks: RefCheck[], errors: FieldError[], known?: ReferencedRows): Promise<Map<string, Map<number, string>>> {
  /** field name → id → label (for the audit trail) */
  const labels = new Map<string, Map<number, string>>();
  const found: ReferencedRows = known ?? new Map();
  const parts: Array<{ check: RefCheck; ids: number[] }> = [];
  for (const c of checks) {
    labels.set(c.field.name, new Map());
    if (!found.has(c.field.name)) found.set(c.field.name, new Map());
    const have = found.get(c.field.name)!;
    const ids = [...c.uses.keys()].filter((id) => !have.has(id));
    for (let i = 0; i < ids.length; i += 500) parts.push({ check: c, ids: ids.slice(i, i + 500) });
  }
  for (let from = 0; from < parts.length;) {
    let n = 0;
    let to = from;
    while (to < parts.length && (to === from || n + parts[to]!.ids.length <= IDS_PER_STATEMENT)) n += parts[to++]!.ids.length;
    const selects = parts.slice(from, to).map(({ check: c, ids }) => {
      const en = c.resource.enabledField;
      return tenant.select(c.resource.table).select([
        sql<string>`${c.field.name}`.as('f'),
        sql<number>`${sql.ref(`${c.resource.table}.id`)}`.as('id'),
        sql<string>`cast(${sql.ref(`${c.resource.table}.${c.resource.labelField}`)} as text)`.as('label'),
        (en ? sql<number>`cast(${sql.ref(`${c.resource.table}.${en}`)} as integer)` : sql<number>`cast(null as integer)`).as('enabled'),
      ]).where(`${c.resource.table}.id`, 'in', ids);
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a union of selects over different tables, each typed any by Tenant
    const query = selects.slice(1).reduce((q: any, s) => q.unionAll(s), selects[0]!);
    for (const r of (await query.execute()) as Row[]) found.get(String(r.f))!.set(Number(r.id), r);
    from = to;
  }
  for (const c of checks) {
    const named = labels.get(c.field.name)!;
    const rows = found.get(c.field.name)!;
    const en = c.resource.enabledField;
    for (const [id, uses] of c.uses) {
      const r = rows.get(id);
      if (r) named.set(id, String(r.label));
      for (const u of uses) {
        if (!r) errors.push({ field: u.path, message: u.message(`${c.field.title}不存在`) });
        else if (en && !c.companyOnly && Number(r.enabled) !== 1) errors.push({ field: u.path, message: u.message(`${c.field.title}“${String(r.label)}”已停用`) });
      }
    }
  }
  return labels;
}

/**
 * Columns a labelled read adds for a reference field: label and lookup fields of the referenced row
 * (productId → productName, productCode), plus the declared `reads` under their own names.
 */
export function labelColumns(f: Field, r: Resource, alias: string, reads: string[] = []): Array<[string, string, Field | undefined]> {
  const out: Array<[string, string, Field | undefined]> = [[`${alias}.${r.labelField}`, f.labelAs!, undefined]];
  const base = refBase(f);
  for (const k of r.lookupFields) {
    if (k === r.labelField) continue;
    out.push([`${alias}.${k}`, `${base}${k[0]!.toUpperCase()}${k.slice(1)}`, undefined]);
  }
  for (const k of reads) {
    const rf = r.fieldMap.get(k);
    if (!rf) throw new Error(`资源 ${r.name} 没有字段 ${k}`);
    out.push([`${alias}.${rf.column}`, k, rf]);
  }
  return out;
}
