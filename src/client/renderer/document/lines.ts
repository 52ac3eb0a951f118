// Line arithmetic of documents, exact: computed cells (qty × price) and column totals.
import Decimal from 'decimal.js';
import { toDecimal } from '../../../core/format';
import type { LineColumn } from '../types';

export type Line = Record<string, unknown>;

/**
 * The value a line shows in a column: its own, or the exact product of two of its fields (less a
 * discount in percent when the column names one — the way the server computes a sales line's amount).
 */
export function lineValue(line: Line, c: LineColumn): unknown {
  if (!c.product) return line[c.field];
  const a = toDecimal(line[c.product[0]] as string);
  const b = toDecimal(line[c.product[1]] as string);
  if (!a || !b) return undefined;
  let v = a.times(b);
  if (c.discount) {
    const d = line[c.discount] == null || line[c.discount] === '' ? new Decimal(0) : toDecimal(line[c.discount] as string);
    if (!d) return undefined;
    v = v.times(new Decimal(100).minus(d)).div(100);
  }
  return v.toDecimalPlaces(c.decimals ?? 2, Decimal.ROUND_HALF_UP).toFixed(c.decimals ?? 2);
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
