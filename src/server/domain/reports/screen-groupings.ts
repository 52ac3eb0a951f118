// A report's grouping options are written once, in its screen schema (schemas/screens/reportForms/<name>.json:
// `groupings[]` with value, label and label columns). The server reads them from there: the values it
// accepts as groupBy, the title of each grouping (export file names), its label columns (export headers and
// the fields a sort may name) — so adding, removing or renaming a grouping is an edit of the schema alone.
// What the server knows is how to compute each dimension (a client, a month...), not which a report offers.
import fs from 'node:fs';
import path from 'node:path';
import { SCHEMAS_DIR } from '../../catalog/load-catalog.ts';
import { DATE_RANGE_INPUT, PAGING, type Grouping } from './common.ts';
import type { InputSchema } from '../../catalog/context.ts';

interface ScreenGrouping {
  value: string;
  label: string;
  defaultSort?: { field: string } | string;
  columns?: Array<{ field: string; title: string; width?: number }>;
}

const cache = new Map<string, Record<string, Grouping>>();

/** The groupings of schemas/screens/<screen>.json, by value, in the schema's order. */
export function screenGroupings(screen: string): Record<string, Grouping> {
  const hit = cache.get(screen);
  if (hit) return hit;
  const file = path.join(SCHEMAS_DIR, 'screens', `${screen}.json`);
  const body = JSON.parse(fs.readFileSync(file, 'utf8')) as { groupings?: ScreenGrouping[] };
  const out: Record<string, Grouping> = {};
  for (const g of body.groupings ?? []) {
    const columns = (g.columns ?? []).map((c) => ({ field: c.field, title: c.title, width: c.width ? Math.max(8, Math.round(c.width / 8)) : undefined }));
    const sort = typeof g.defaultSort === 'string' ? g.defaultSort : g.defaultSort?.field;
    out[g.value] = { title: g.label, columns, defaultSort: sort ?? columns[0]?.field ?? 'key' };
  }
  if (!Object.keys(out).length) throw new Error(`${file}: 报表没有汇总方式（groupings）`);
  cache.set(screen, out);
  return out;
}

/** The groupBy input property of a report whose groupings its screen holds. */
export function groupByInput(screen: string): Record<string, unknown> {
  const values = Object.keys(screenGroupings(screen));
  return { enum: values, default: values[0], title: '汇总方式' };
}

/**
 * A grouped report's input: paging and sort, the groupings its screen offers, the date range (unless the
 * report is of a moment, as stock is) and the report's own filters.
 */
export function reportInput(screen: string, filters: Record<string, unknown>, opts: { dates?: boolean } = {}): InputSchema {
  return {
    type: 'object',
    properties: { ...PAGING, groupBy: groupByInput(screen), ...(opts.dates === false ? {} : { dateRange: DATE_RANGE_INPUT }), ...filters },
  };
}
