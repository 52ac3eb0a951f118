// Dictionaries a screen's selects offer (enums declared in resource files, then the company's own
// dictionary items) and the product category tree.
import type { CallContext } from '../../catalog/context.ts';
import { TypedTenant } from '../../db/typed.ts';
import type { ResourceRegistry } from '../../resources/types.ts';
import { buildTree } from '../tree.ts';

export type Dictionaries = Record<string, Array<{ value: string; label: string }>>;

/** Every dictionary by code: resource enums (field.dict) first, the company's items replace one of the same code. */
export async function allDictionaries(ctx: CallContext, reg: ResourceRegistry): Promise<Dictionaries> {
  const out: Dictionaries = {};
  for (const r of reg.resources.values()) {
    for (const f of r.fields) if (f.type === 'enum' && f.dict) out[f.dict] = f.values!.map((v) => ({ value: v.value, label: v.label }));
  }
  const items = await TypedTenant.of(ctx.tenant).select('dictItem').select(['dictCode', 'value', 'label']).where('enabled', '=', 1)
    .orderBy('dictCode').orderBy('sort').orderBy('value').execute();
  const company: Dictionaries = {};
  for (const i of items) (company[String(i.dictCode)] ??= []).push({ value: String(i.value), label: String(i.label) });
  // units of measure were the dictionary `unit` until they became their own data (cdm 0106): published under the same code
  const units = await TypedTenant.of(ctx.tenant).select('measureUnit').select(['name']).where('enabled', '=', 1).orderBy('sort').orderBy('code').execute();
  if (units.length) company.unit = units.map((u) => ({ value: String(u.name), label: String(u.name) }));
  return { ...out, ...company };
}

/** The company's product categories as a tree. */
export async function categoryTree(ctx: CallContext) {
  const rows = await TypedTenant.of(ctx.tenant).select('category').select(['id', 'parentId', 'code', 'name', 'sort']).execute();
  return buildTree(rows);
}
