// Rows a code answered → the data a chart part draws, shared by the report kind's chart and the
// detail/list `chart` section: category parts (line, bar, stackedBar) get one series per measure over
// the rows' x labels; pie and chinaMap get the first measure by name (a gauge needs a maximum no row
// carries: the dashboard gives it GaugeData itself).
// Measures come as numbers or exact decimal text; the chart only draws them.
import { isItemsData, isSeriesData, type ChartData } from './types';

type Row = Record<string, unknown>;

export interface Measure {
  field: string;
  name: string;
}

/** A measure as a number to draw; missing or non-numeric → NaN (a gap in a line, no bar). */
export function measureOf(v: unknown): number {
  if (v === null || v === undefined || v === '') return NaN;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : NaN;
}

/** Parts drawn over named values instead of categories. */
const ITEM_PARTS = new Set(['pie', 'chinaMap']);

export function chartDataOf(type: string, rows: readonly Row[], x: string, measures: readonly Measure[]): ChartData {
  // rows without any value drawn (a rate not set that day) are left out rather than drawn as zero
  const kept = rows.filter((r) => measures.some((m) => Number.isFinite(measureOf(r[m.field]))));
  const label = (r: Row) => String(r[x] ?? '');
  const first = measures[0];
  if (ITEM_PARTS.has(type) && first) {
    return { name: first.name, items: kept.map((r) => ({ name: label(r), value: measureOf(r[first.field]) || 0 })) };
  }
  return { labels: kept.map(label), series: measures.map((m) => ({ name: m.name, values: kept.map((r) => measureOf(r[m.field])) })) };
}

/** Nothing to draw: no category and no named value (a gauge always has its value). */
export function isEmptyChart(d: ChartData): boolean {
  if (isSeriesData(d)) return d.labels.length === 0;
  if (isItemsData(d)) return d.items.length === 0;
  return false;
}
