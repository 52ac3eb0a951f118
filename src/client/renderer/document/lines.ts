// Line arithmetic of documents, exact: computed cells (qty × price) and column totals.
import Decimal from 'decimal.js';
import { toDecimal } from '../../../core/format';
import type { LineColumn } from '../types';

export type Line = Record<string, unknown>;

/** The value a line shows in a column: its own, or the exact product of two of its fields. */
export function lineValue(line: Line, c: LineColumn): unknown {
  if (!c.product) return line[c.field];
  const a = toDecimal(line[c.product[0]] as string);
  const b = toDecimal(line[c.product[1]] as string);
  if (!a || !b) return undefined;
  return a.times(b).toDecimalPlaces(c.decimals ?? 2, Decimal.ROUND_HALF_UP).toFixed(c.decimals ?? 2);
}

/** Lines with computed columns filled in (what is saved). */
export function withComputed(lines: readonly Line[], columns: readonly LineColumn[]): Line[] {
  const computed = columns.filter((c) => c.product);
  if (!computed.length) return [...lines];
  return lines.map((l) => {
    const out = { ...l };
    for (const c of computed) out[c.field] = lineValue(l, c);
    return out;
  });
}
