// Document fields are resource fields (schemas/resources types): resolved here into the same `Field`
// the generic resource handlers use, parsed with the same parseValue, and their references checked
// against the caller's company and labelled by one join per referenced resource.
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
  /** where the value sits: header field path or line index */
  field: Field;
  resource: Resource;
  /** id → the places that hold it (error field path + message wrapper) */
  uses: Map<number, Array<{ path: string; message: (m: string) => string }>>;
}

/**
 * Checks that every referenced id exists in the caller's company (an id of another company is one that
 * does not exist) and, for resources with an enabled switch, is enabled. Reads ids in chunks of 500.
 */
export async function checkReferences(tenant: Tenant, checks: RefCheck[], errors: FieldError[]): Promise<Map<string, Map<number, string>>> {
  /** field name → id → label (for the audit trail) */
  const labels = new Map<string, Map<number, string>>();
  for (const c of checks) {
    const named = new Map<number, string>();
    labels.set(c.field.name, named);
    const ids = [...c.uses.keys()];
    const found = new Map<number, Row>();
    const en = c.resource.enabledField;
    const cols = ['id', c.resource.labelField, ...(en ? [en] : [])];
    for (let i = 0; i < ids.length; i += 500) {
      const rows = (await tenant.select(c.resource.table).select(cols).where('id', 'in', ids.slice(i, i + 500)).execute()) as Row[];
      for (const r of rows) found.set(Number(r.id), r);
    }
    for (const [id, uses] of c.uses) {
      const r = found.get(id);
      if (r) named.set(id, String(r[c.resource.labelField]));
      for (const u of uses) {
        if (!r) errors.push({ field: u.path, message: u.message(`${c.field.title}不存在`) });
        else if (en && !(Number(r[en]) === 1 || r[en] === true)) errors.push({ field: u.path, message: u.message(`${c.field.title}“${String(r[c.resource.labelField])}”已停用`) });
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
