// Time and number display shared by client and server (spec §9, DESIGN §5).
// Times are stored and sent as UTC; they are shown shifted by the company's time zone (hours, may be
// fractional such as 5.5). Numbers show 2 decimals by default with thousands separators, computed with
// decimal.js so that money never passes through a binary float when it arrives as a string.

import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import Decimal from 'decimal.js';

dayjs.extend(utc);

export const DEFAULT_TIME_PATTERN = 'YYYY-MM-DD HH:mm:ss';
export const DEFAULT_DATE_PATTERN = 'YYYY-MM-DD';
export const DEFAULT_DECIMALS = 2;

export type TimeInput = string | number | Date | null | undefined;

function minutes(tzHours: number | string | null | undefined): number {
  const h = Number(tzHours ?? 0);
  return Number.isFinite(h) ? Math.round(h * 60) : 0;
}

/**
 * A UTC instant shown in company time. Strings without an offset ("2024-05-01 10:00:00") are read as
 * UTC; numbers are epoch milliseconds. Empty or invalid input gives ''.
 */
export function formatTime(
  isoUtc: TimeInput,
  tzHours: number | string | null | undefined,
  pattern: string = DEFAULT_TIME_PATTERN,
): string {
  if (isoUtc === null || isoUtc === undefined || isoUtc === '') return '';
  const d = dayjs.utc(isoUtc);
  if (!d.isValid()) return '';
  return d.add(minutes(tzHours), 'minute').format(pattern);
}

/** Same as formatTime with the date-only pattern. */
export function formatDate(isoUtc: TimeInput, tzHours: number | string | null | undefined): string {
  return formatTime(isoUtc, tzHours, DEFAULT_DATE_PATTERN);
}

/** A calendar day as "YYYY-MM-DD": strings are taken as given; Date/dayjs by their local calendar date. */
function calendarDay(date: string | Date | dayjs.Dayjs): string {
  if (typeof date === 'string') {
    const m = /^(\d{4})-(\d{1,2})-(\d{1,2})/.exec(date.trim());
    if (!m) throw new RangeError(`不是有效的日期：${date}`);
    return `${m[1]}-${m[2]!.padStart(2, '0')}-${m[3]!.padStart(2, '0')}`;
  }
  return dayjs(date).format(DEFAULT_DATE_PATTERN);
}

/**
 * The bounds of one company-local calendar day as UTC ISO strings, for date filters:
 * [start 00:00:00.000, end 23:59:59.999] in company time. Example: '2024-05-01' at UTC+8 →
 * ['2024-04-30T16:00:00.000Z', '2024-05-01T15:59:59.999Z'].
 */
export function companyDayRange(
  date: string | Date | dayjs.Dayjs,
  tzHours: number | string | null | undefined,
): [string, string] {
  return companyDateRange(date, date, tzHours);
}

/** From the start of company day `from` to the end of company day `to`, as UTC ISO strings. */
export function companyDateRange(
  from: string | Date | dayjs.Dayjs,
  to: string | Date | dayjs.Dayjs,
  tzHours: number | string | null | undefined,
): [string, string] {
  const shift = minutes(tzHours);
  const start = dayjs.utc(`${calendarDay(from)}T00:00:00.000Z`).subtract(shift, 'minute');
  const end = dayjs.utc(`${calendarDay(to)}T00:00:00.000Z`).add(1, 'day').subtract(shift, 'minute').subtract(1, 'ms');
  return [start.toISOString(), end.toISOString()];
}

export type NumberInput = string | number | Decimal | null | undefined;

/** An exact decimal from a string, number or Decimal; undefined for empty or non-numeric input. */
export function toDecimal(v: NumberInput): Decimal | undefined {
  if (v === null || v === undefined) return undefined;
  if (Decimal.isDecimal(v)) return v as Decimal;
  const s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : String(v).trim().replace(/,/g, '');
  if (s === '') return undefined;
  try {
    const d = new Decimal(s);
    return d.isFinite() ? d : undefined;
  } catch {
    return undefined;
  }
}

function group(intPart: string): string {
  return intPart.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * A number with `decimals` decimals (half away from zero) and thousands separators:
 * formatNumber('1234567.005') → '1,234,567.01'; formatNumber(-0.001) → '0.00'. Empty or non-numeric
 * input gives ''.
 */
export function formatNumber(v: NumberInput, decimals: number = DEFAULT_DECIMALS): string {
  const d = toDecimal(v);
  if (!d) return '';
  let fixed = d.toFixed(decimals, Decimal.ROUND_HALF_UP);
  if (/^-0(\.0*)?$/.test(fixed)) fixed = fixed.slice(1);
  const negative = fixed.startsWith('-');
  const body = negative ? fixed.slice(1) : fixed;
  const [intPart, frac] = body.split('.');
  return `${negative ? '-' : ''}${group(intPart!)}${frac !== undefined ? `.${frac}` : ''}`;
}

/** Money: formatNumber with an optional currency character in front ('¥1,234.50'). */
export function formatMoney(v: NumberInput, currencyCharacter = '', decimals: number = DEFAULT_DECIMALS): string {
  const s = formatNumber(v, decimals);
  if (s === '' || !currencyCharacter) return s;
  return s.startsWith('-') ? `-${currencyCharacter}${s.slice(1)}` : `${currencyCharacter}${s}`;
}

/** Exact sum of decimal values as a string with `decimals` places (empty entries count as 0). */
export function sumExact(values: readonly NumberInput[], decimals: number = DEFAULT_DECIMALS): string {
  let total = new Decimal(0);
  for (const v of values) {
    const d = toDecimal(v);
    if (d) total = total.plus(d);
  }
  return total.toFixed(decimals, Decimal.ROUND_HALF_UP);
}
