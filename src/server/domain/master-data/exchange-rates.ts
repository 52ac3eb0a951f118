// The exchange rate of a currency on a day (the latest rate dated on or before it, 1 for the base
// currency), and a currency's rate history over a range for the dynamicExchange chart.
import Decimal from 'decimal.js';
import type { CallContext } from '../../catalog/context.ts';
import { TypedTenant } from '../../db/typed.ts';
import { bizError, validationError, type FieldError } from '../../http/errors.ts';
import { realDate } from '../../resources/fields.ts';

/** Rates are stored × 10^6. */
const rateText = (v: unknown) => new Decimal(String(v)).div(1_000_000).toFixed(6);

/** The most points a history returns (the most recent, when the range holds more). */
const MAX_POINTS = 5000;

export async function exchangeRateOn(ctx: CallContext, currencyId: number, day: string) {
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(day.trim());
  const date = m ? realDate(Number(m[1]), Number(m[2]), Number(m[3])) : undefined;
  if (!date) throw validationError([{ field: 'date', message: '日期不是有效的日期（YYYY-MM-DD）' }]);
  const tenant = TypedTenant.of(ctx.tenant);
  const currency = await tenant.select('currency').select(['id', 'code', 'currencyName', 'isBase']).where('id', '=', currencyId).executeTakeFirst();
  if (!currency) throw bizError('COMMON_NOT_FOUND_4004', { entity: '币种' });
  const base = { currencyId: Number(currency.id), currencyCode: String(currency.code), currencyName: String(currency.currencyName) };
  if (Number(currency.isBase) === 1) return { ...base, rateDate: date, rate: '1.000000', isBase: true };
  const rate = await tenant.select('exchangeRate').select(['rateDate', 'rate']).where('currencyId', '=', currencyId)
    .where('rateDate', '<=', date).orderBy('rateDate', 'desc').limit(1).executeTakeFirst();
  if (!rate) throw bizError('EXCHANGE_RATE_NOT_FOUND_4051', { currency: base.currencyName, date }, { currencyId: base.currencyId, date });
  return { ...base, rateDate: String(rate.rateDate), rate: rateText(rate.rate), isBase: false };
}

function parseDay(raw: string | null | undefined, field: string, title: string, errors: FieldError[]): string | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(String(raw).trim());
  const d = m ? realDate(Number(m[1]), Number(m[2]), Number(m[3])) : undefined;
  if (!d) errors.push({ field, message: `${title}不是有效的日期（YYYY-MM-DD）` });
  return d;
}

export interface RateHistoryInput { currencyId: number; from?: string | null; to?: string | null }

/** The rates of a currency in a range, oldest first; the line starts at `from` with the rate then in force. */
export async function rateHistory(ctx: CallContext, input: RateHistoryInput) {
  const errors: FieldError[] = [];
  const from = parseDay(input.from, 'from', '开始日期', errors);
  const to = parseDay(input.to, 'to', '结束日期', errors);
  if (!errors.length && from && to && from > to) errors.push({ field: 'to', message: '结束日期不能早于开始日期' });
  if (errors.length) throw validationError(errors);
  const tenant = TypedTenant.of(ctx.tenant);
  const currency = await tenant.select('currency').select(['id', 'isBase']).where('id', '=', input.currencyId).executeTakeFirst();
  if (!currency) throw bizError('COMMON_NOT_FOUND_4004', { entity: '币种' });
  let q = tenant.select('exchangeRate').select(['rateDate', 'rate']).where('currencyId', '=', input.currencyId);
  if (from) q = q.where('rateDate', '>=', from);
  if (to) q = q.where('rateDate', '<=', to);
  // The most recent points when the range holds more than a chart can use.
  const rows = (await q.orderBy('rateDate', 'desc').limit(MAX_POINTS).execute()).reverse();
  const points: Array<{ date: string; rate: string; value: number; carried?: boolean }> = rows.map((r) => {
    const rate = rateText(r.rate);
    return { date: String(r.rateDate), rate, value: Number(rate) };
  });
  if (from && points[0]?.date !== from && rows.length < MAX_POINTS) {
    // The rate in force on the first day, so the line starts at the start of the range.
    const before = await tenant.select('exchangeRate').select(['rateDate', 'rate']).where('currencyId', '=', input.currencyId)
      .where('rateDate', '<', from).orderBy('rateDate', 'desc').limit(1).executeTakeFirst();
    if (before) {
      const rate = rateText(before.rate);
      points.unshift({ date: from, rate, value: Number(rate), carried: true });
    }
  }
  return points;
}
