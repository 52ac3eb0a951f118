// Columns that come from the list's answer rather than the schema: `dynamicColumns` names the answer
// field holding the items (e.g. the price lists of a products × price-lists matrix) and a column
// template whose string properties are filled from each item ("p{id}", "{name}"). Each column made
// keeps its item as `source`, so an editable cell can send it ("{column.id}"). The columns join the
// schema's own ones before column preferences apply, so users may hide, move and widen them like any.

import { conditionProblems, readPath } from '../../../core/conditions';
import { holds, type RenderEnv } from '../env';
import type { SchemaProblem, Use } from '../registry';
import { columnTypes } from '../registries';
import { fillText } from '../template';
import type { ColumnSchema, DynamicColumnsSchema, ListPart } from '../types';

type Item = Record<string, unknown>;

// Same rule as prepare.ts's columnKey (kept here: prepare imports this module).
const columnKey = (c: ColumnSchema): string => c.key ?? c.field;

function itemsOf(response: unknown, from: string): Item[] {
  const list = readPath(response, from);
  return Array.isArray(list) ? list.filter((x): x is Item => !!x && typeof x === 'object' && !Array.isArray(x)) : [];
}

/** The columns one answer makes: one per item (meeting `when`), templates filled, duplicates dropped. */
export function expandDynamicColumns(spec: DynamicColumnsSchema, response: unknown, env?: RenderEnv): ColumnSchema[] {
  const { from, after: _after, when, ...template } = spec;
  const out: ColumnSchema[] = [];
  const keys = new Set<string>();
  for (const item of itemsOf(response, from)) {
    if (when !== undefined && (!env || !holds(when, env, item))) continue;
    const column: Record<string, unknown> = {};
    // Only the column's own strings are templates: nested objects (an editable body) keep their
    // placeholders for the cell to fill.
    for (const [k, v] of Object.entries(template)) column[k] = typeof v === 'string' ? fillText(v, item) : v;
    const c = { ...(column as unknown as ColumnSchema), source: item };
    const key = columnKey(c);
    if (!c.field || keys.has(key)) continue;
    keys.add(key);
    out.push(c);
  }
  return out;
}

/** The schema's columns with the answer's columns placed after `after` (default: at the end). */
export function withDynamicColumns(columns: ColumnSchema[], part: ListPart, response: unknown, env?: RenderEnv): ColumnSchema[] {
  const spec = part.dynamicColumns;
  if (!spec || response === undefined || response === null) return columns;
  const own = new Set(columns.map(columnKey));
  // A generated column never replaces a schema column of the same key.
  const made = expandDynamicColumns(spec, response, env).filter((c) => !own.has(columnKey(c)));
  if (!made.length) return columns;
  const at = spec.after ? columns.findIndex((c) => columnKey(c) === spec.after) : -1;
  if (at < 0) return [...columns, ...made];
  return [...columns.slice(0, at + 1), ...made, ...columns.slice(at + 1)];
}

/** Registry entries the generated columns need (their type), loaded with the list's own. */
export function dynamicColumnUses(part: ListPart): Use[] {
  const spec = part.dynamicColumns;
  return spec ? [{ registry: columnTypes, type: spec.type ?? 'text', path: 'dynamicColumns.type' }] : [];
}

/** Mistakes visible in the schema: a missing source or template, a field template that names no item field. */
export function dynamicColumnProblems(part: ListPart): SchemaProblem[] {
  const spec = part.dynamicColumns;
  if (!spec) return [];
  const problems: SchemaProblem[] = [];
  if (!spec.from) problems.push({ path: 'dynamicColumns.from', message: '动态列缺少数据来源 from' });
  if (!spec.field) problems.push({ path: 'dynamicColumns.field', message: '动态列缺少字段模板 field' });
  else if (!/\{[A-Za-z_$][\w.$]*\}/.test(spec.field)) problems.push({ path: 'dynamicColumns.field', message: '动态列的字段模板需要占位符（如 "p{id}"），否则各列字段相同' });
  if (!spec.title) problems.push({ path: 'dynamicColumns.title', message: '动态列缺少标题模板 title' });
  if (spec.after && !part.columns.some((c) => columnKey(c) === spec.after)) problems.push({ path: 'dynamicColumns.after', message: `列 "${spec.after}" 不是本列表的列` });
  for (const line of [...conditionProblems(spec.when, 'dynamicColumns.when'), ...conditionProblems(spec.editable?.when, 'dynamicColumns.editable.when')]) {
    const at = line.indexOf(': ');
    problems.push({ path: line.slice(0, at), message: line.slice(at + 2) });
  }
  return problems;
}
