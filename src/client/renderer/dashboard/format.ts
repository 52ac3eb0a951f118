// How a wall screen writes its figures, read from 3 m away: money with thousands separators, amounts of a
// million and more in 万 (two decimals) so a tile never overflows; the change against the compared figure
// in percent with an arrow (上升 red, 下降 green, as Chinese screens colour them). The exact value the
// server sent stays in the tile's tooltip.
import Decimal from 'decimal.js';
import { formatNumber, toDecimal } from '../../../core/format';
import type { DashboardFormat } from './types';

const WAN_FROM = new Decimal(1_000_000);

export interface Shown {
  text: string;
  /** small unit after the number (万, 个, %) */
  suffix: string;
}

export function showValue(v: unknown, format: DashboardFormat = 'text'): Shown {
  if (v === null || v === undefined || v === '') return { text: '—', suffix: '' };
  if (format === 'text') return { text: String(v), suffix: '' };
  const d = toDecimal(v as string | number);
  if (!d) return { text: String(v), suffix: '' };
  if (format === 'percent') return { text: formatNumber(d, 1), suffix: '%' };
  if (format === 'count') return { text: formatNumber(d, 0), suffix: '' };
  if (d.abs().gte(WAN_FROM)) return { text: formatNumber(d.div(10_000), 2), suffix: '万' };
  return { text: formatNumber(d, 2), suffix: '' };
}

export interface Change {
  direction: 'up' | 'down' | 'flat' | 'new';
  /** "12.5%" (absolute), '' when there is nothing to compare with */
  text: string;
}

/** The change of `now` against `before` in percent of `before`. */
export function changeOf(now: unknown, before: unknown): Change {
  const a = toDecimal(now as string | number);
  const b = toDecimal(before as string | number);
  if (!a || !b) return { direction: 'flat', text: '' };
  if (b.isZero()) return a.isZero() ? { direction: 'flat', text: '0.0%' } : { direction: 'new', text: '' };
  const pct = a.minus(b).div(b.abs()).times(100);
  const text = `${formatNumber(pct.abs(), 1)}%`;
  if (text === '0.0%') return { direction: 'flat', text };
  return { direction: pct.isPositive() ? 'up' : 'down', text };
}

const FIGURE = /\{([A-Za-z][A-Za-z0-9]*)(?:\|(money|count|percent))?\}/g;

/** "本月 {ordersMonth|count} 单" filled from the answer, each figure written as a tile writes it. */
export function fillFigures(template: string, data: Record<string, unknown>, currency = ''): string {
  return template.replace(FIGURE, (_, field: string, format?: DashboardFormat) => {
    const s = showValue(data[field], format ?? 'text');
    return `${format === 'money' && currency && s.text !== '—' ? currency : ''}${s.text}${s.suffix}`;
  });
}
