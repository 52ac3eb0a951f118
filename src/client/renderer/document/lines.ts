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
  const own = line[c.field];
  if (!c.product && !(c.follows && (own === undefined || own === null || own === ''))) return own;
  const [fa, fb] = (c.product ?? c.follows)!;
  const a = toDecimal(line[fa] as string);
  const b = toDecimal(line[fb] as string);
  if (!a || !b) return undefined;
  let v = a.times(b);
  if (c.discount) {
    const d = line[c.discount] == null || line[c.discount] === '' ? new Decimal(0) : toDecimal(line[c.discount] as string);
    if (!d) return undefined;
    v = v.times(new Decimal(100).minus(d)).div(100);
  }
  return v.toDecimalPlaces(c.decimals ?? 2, Decimal.ROUND_HALF_UP).toFixed(c.decimals ?? 2);
}

/** The editable cells that make a brought-in line a line: quantities and amounts (a remark alone does not). */
const COUNTING_EDITORS = new Set(['number', 'money', 'units']);

/**
 * A line brought in from another document by an `optional` source (`__fromSource`) whose quantities and
 * amounts are all left empty is not part of this one: the clerk kept only the lines they filled. (A typed
 * 0 is a value — a short pick — and stays.)
 */
export function leftEmpty(line: Line, columns: readonly LineColumn[]): boolean {
  if (!line.__fromSource) return false;
  const counting = columns.filter((c) => c.editor && COUNTING_EDITORS.has(c.editor));
  return counting.length > 0 && counting.every((c) => {
    const v = line[c.field];
    return v === undefined || v === null || v === '' || (typeof v === 'object' && Object.values(v as object).every((x) => x === undefined || x === null || x === ''));
  });
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
