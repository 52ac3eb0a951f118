// The exchange rate of a currency on a day: the latest rate dated on or before it (1 for the base currency).
import Decimal from 'decimal.js';
import type { CallContext } from '../../catalog/context.ts';
import { TypedTenant } from '../../db/typed.ts';
import { bizError, validationError } from '../../http/errors.ts';
import { realDate } from '../../resources/fields.ts';

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
  return { ...base, rateDate: String(rate.rateDate), rate: new Decimal(String(rate.rate)).div(1_000_000).toFixed(6), isBase: false };
}
