// Everything a list needs before its table first draws, fetched in parallel: the column types, filter
// widgets and actions its schema names (lazily loaded registry entries), the options of enum columns,
// and the user's column preferences (023401). Also the schema checks that turn mistakes into an error
// box with their paths instead of a broken screen.

import { conditionProblems } from '../../../core/conditions';
import type { ActionDef } from '../actions/types';
import { formOf } from '../actions/types';
import type { ColumnTypeDef } from '../columns/types';
import { loadColumnPrefs } from '../data/columnConfigStore';
import { sectionUses } from '../detail/prepare';
import type { ColumnPrefs } from '../data/columnConfig';
import { hasOptions, loadOptions } from '../data/options';
import { formUses } from '../form/useFormReady';
import { dynamicColumnProblems, dynamicColumnUses } from './dynamicColumns';
import { resolveAll, type SchemaProblem, type Use } from '../registry';
import { actions, columnTypes, widgets } from '../registries';
import type { ActionSchema, ColumnSchema, FilterSchema, ListPart, OptionItem } from '../types';

/** Default filter widget of a column type that says `"search": true` without naming one. */
const SEARCH_WIDGET: Record<string, string> = {
  text: 'input',
  link: 'input',
  number: 'numberRange',
  money: 'numberRange',
  date: 'dateRange',
  datetime: 'dateRange',
  enum: 'select',
  boolean: 'boolean',
};

/** A filter with where it came from in the schema. */
export interface PlacedFilter {
  filter: FilterSchema;
  path: string;
}

/** The search form: the list's filters, then columns marked `search` (one definition, two uses). */
export function filtersOf(part: ListPart): PlacedFilter[] {
  const out: PlacedFilter[] = (part.filters ?? []).map((filter, i) => ({ filter, path: `filters[${i}]` }));
  const named = new Set(out.map((f) => f.filter.field));
  part.columns.forEach((c, i) => {
    if (!c.search || named.has(c.field)) return;
    const extra = typeof c.search === 'object' ? c.search : {};
    const widget = extra.widget ?? SEARCH_WIDGET[c.type ?? 'text'] ?? 'input';
    const filter: FilterSchema = { field: c.field, title: c.title, widget, ...extra };
    if (!filter.options && !filter.dict && (c.options || c.dict)) {
      if (c.options) filter.options = c.options;
      if (c.dict) filter.dict = c.dict;
    }
    if (c.type === 'boolean') {
      filter.trueText ??= c.trueText;
      filter.falseText ??= c.falseText;
    }
    out.push({ filter, path: `columns[${i}].search` });
  });
  return out;
}

export function columnKey(c: ColumnSchema): string {
  return c.key ?? c.field;
}

function actionChecks(list: readonly ActionSchema[] | undefined, base: string, part: ListPart): { uses: Use[]; problems: SchemaProblem[] } {
  const uses: Use[] = [];
  const problems: SchemaProblem[] = [];
  (list ?? []).forEach((a, i) => {
    const path = `${base}[${i}]`;
    uses.push({ registry: actions, type: a.action, path: `${path}.action` });
    problems.push(...conditionProblems(a.when, `${path}.when`).map((m) => splitProblem(m)));
    const form = a.action === 'form' ? formOf(a, part.forms) : undefined;
    if (form) uses.push(...formUses(form, typeof a.form === 'string' ? `forms.${a.form}` : `${path}.form`));
  });
  return { uses, problems };
}

function splitProblem(line: string): SchemaProblem {
  const at = line.indexOf(': ');
  return { path: line.slice(0, at), message: line.slice(at + 2) };
}

/** Problems visible from the schema alone (no registry needed). */
export function staticProblems(part: ListPart): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  if (!part.api?.list) problems.push({ path: 'api.list', message: '缺少列表接口' });
  const keys = new Set<string>();
  part.columns.forEach((c, i) => {
    const key = columnKey(c);
    if (keys.has(key)) problems.push({ path: `columns[${i}].field`, message: `列 "${key}" 重复（需要不同的 key）` });
    keys.add(key);
    if (c.type === 'link' && !c.link) problems.push({ path: `columns[${i}].link`, message: 'link 列缺少路由 link' });
    if (c.type === 'enum' && !hasOptions(c)) problems.push({ path: `columns[${i}].options`, message: 'enum 列需要 options 或 dict' });
    problems.push(...conditionProblems(c.when, `columns[${i}].when`).map(splitProblem));
  });
  const fields = new Set(part.columns.map((c) => c.field));
  (part.totals?.fields ?? []).forEach((f, i) => {
    if (!fields.has(f)) problems.push({ path: `totals.fields[${i}]`, message: `合计字段 "${f}" 不是本列表的列` });
  });
  return problems;
}

export interface Prepared {
  problems: SchemaProblem[];
  prefs: ColumnPrefs;
  /** Options of enum columns by field, as String(value) → option. */
  options: Map<string, Map<string, OptionItem>>;
}

export async function prepareList(part: ListPart, listName: string): Promise<Prepared> {
  const uses: Use[] = part.columns.map((c, i) => ({ registry: columnTypes, type: c.type ?? 'text', path: `columns[${i}].type` }));
  uses.push(...dynamicColumnUses(part));
  for (const { filter, path } of filtersOf(part)) uses.push({ registry: widgets, type: filter.widget ?? 'input', path: `${path}.widget` });
  const toolbar = actionChecks(part.toolbar, 'toolbar', part);
  const rows = actionChecks(part.rowActions, 'rowActions', part);
  uses.push(...toolbar.uses, ...rows.uses);
  const sectionProblems: SchemaProblem[] = [];
  if (part.sections?.length) sectionUses(part.sections, 'sections', uses, sectionProblems);

  const enumColumns = part.columns.filter((c) => c.type === 'enum' && hasOptions(c));
  const [resolved, prefs, optionLists] = await Promise.all([
    resolveAll(uses),
    loadColumnPrefs(listName),
    Promise.all(enumColumns.map((c) => loadOptions(c))),
  ]);
  const options = new Map<string, Map<string, OptionItem>>();
  enumColumns.forEach((c, i) => options.set(c.field, new Map(optionLists[i]!.map((o) => [String(o.value), o]))));

  const problems = [...staticProblems(part), ...dynamicColumnProblems(part), ...toolbar.problems, ...rows.problems, ...sectionProblems, ...resolved];
  const scope = { api: part.api, forms: part.forms };
  const checkActions = (list: readonly ActionSchema[] | undefined, base: string) =>
    (list ?? []).forEach((a, i) => {
      const def = actions.peek(a.action) as ActionDef | undefined;
      if (def?.check) problems.push(...def.check(a, scope, `${base}[${i}]`));
    });
  checkActions(part.toolbar, 'toolbar');
  checkActions(part.rowActions, 'rowActions');
  // Numeric totals only: a total of a text column is a schema mistake.
  (part.totals?.fields ?? []).forEach((f, i) => {
    const col = part.columns.find((c) => c.field === f);
    const def = col ? (columnTypes.peek(col.type ?? 'text') as ColumnTypeDef | undefined) : undefined;
    if (def && !def.numeric) problems.push({ path: `totals.fields[${i}]`, message: `列 "${f}" 的类型 ${col!.type ?? 'text'} 不能合计` });
  });
  return { problems, prefs, options };
}
