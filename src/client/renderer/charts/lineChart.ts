// The arithmetic of the SVG line chart (pure, unit-tested): "nice" axis ticks, scales, and which x
// labels fit. No chart library: a few hundred bytes of maths instead of hundreds of kilobytes.

export interface Point {
  x: string;
  y: number;
}

/** A step of 1, 2, 2.5 or 5 × 10^n giving about `count` intervals over `span`. */
export function niceStep(span: number, count: number): number {
  if (!(span > 0) || !Number.isFinite(span)) return 1;
  const raw = span / Math.max(1, count);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const norm = raw / mag;
  const nice = norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 2.5 ? 2.5 : norm <= 5 ? 5 : 10;
  return nice * mag;
}

/** Axis bounds and ticks covering [min, max] (a flat series gets some room around its value). */
export function niceTicks(min: number, max: number, count = 5): { lo: number; hi: number; ticks: number[] } {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return { lo: 0, hi: 1, ticks: [0, 1] };
  if (min === max) {
    const pad = Math.abs(min) * 0.01 || 1;
    min -= pad;
    max += pad;
  }
  const step = niceStep(max - min, count);
  // Rounded to the step's decimals so 0.1 + 0.2 does not print as 0.30000000000000004.
  const decimals = Math.max(0, -Math.floor(Math.log10(step)) + 2);
  const round = (v: number) => Number(v.toFixed(decimals));
  const lo = round(Math.floor(min / step) * step);
  const hi = round(Math.ceil(max / step) * step);
  const ticks: number[] = [];
  for (let i = 0; lo + i * step <= hi + step / 2; i++) ticks.push(round(lo + i * step));
  return { lo, hi, ticks };
}

/** Linear map of [d0, d1] onto [r0, r1]. */
export function scale(d0: number, d1: number, r0: number, r1: number): (v: number) => number {
  const span = d1 - d0 || 1;
  return (v) => r0 + ((v - d0) / span) * (r1 - r0);
}

/** Indices of the x labels drawn: at most `max`, evenly spread, first and last included. */
export function labelIndices(count: number, max: number): number[] {
  if (count <= 0) return [];
  if (count <= max) return Array.from({ length: count }, (_, i) => i);
  const out = new Set<number>();
  const step = (count - 1) / (max - 1);
  for (let i = 0; i < max; i++) out.add(Math.round(i * step));
  return [...out].sort((a, b) => a - b);
}

/** Points of rows: x as text, y as a number; rows without a finite y are left out. */
export function pointsOf(rows: readonly Record<string, unknown>[], x: string, y: string): Point[] {
  const out: Point[] = [];
  for (const r of rows) {
    const v = typeof r[y] === 'number' ? (r[y] as number) : Number(r[y]);
    if (r[y] === null || r[y] === undefined || r[y] === '' || !Number.isFinite(v)) continue;
    out.push({ x: String(r[x] ?? ''), y: v });
  }
  return out;
}

/** Index of the point nearest to `px` among `count` points spread over [left, right]. */
export function nearestIndex(px: number, count: number, left: number, right: number): number {
  if (count <= 1) return 0;
  const i = Math.round(((px - left) / (right - left || 1)) * (count - 1));
  return Math.max(0, Math.min(count - 1, i));
}
