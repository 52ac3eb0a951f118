// Sale prices (DESIGN §4.4): which price list an order uses, a product's list price in the order's
// currency, and the bounds a clerk's price must keep (company settings limitMultiple / ceilingMultiple).
// List prices are stored in cents of the price list's currency per small unit (product_price); a product
// without a price in the list falls back to its reference price (company currency). Order prices are per
// small unit with 4 decimals (stored × 10^4), like purchase prices.
import Decimal from 'decimal.js';
import type { CallContext } from '../../catalog/context.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import { rateOn } from '../procurement/common.ts';
import { TypedTenant, typed } from '../../db/typed.ts';

export const SALE_PRICE_SCALE = 4;

/** The order's price list: the one chosen, else the client's, else the caller's sale list, else the company's first enabled sale list. */
export async function salePriceListId(ctx: CallContext, clientPriceTitleId: unknown): Promise<number | undefined> {
  const tenant = TypedTenant.of(ctx.tenant);
  if (clientPriceTitleId != null) return Number(clientPriceTitleId);
  const account = await tenant.select('account').select('salePriceId').where('id', '=', ctx.caller!.accountId).executeTakeFirst();
  if (account?.salePriceId) return Number(account.salePriceId);
  const first = await tenant.select('priceTitle').select('id').where('kind', '=', 'sale').where('enabled', '=', 1).orderBy('code').limit(1).executeTakeFirst();
  return first ? Number(first.id) : undefined;
}

/**
 * List prices of products in the order's currency (yuan per small unit, exact), converted through the
 * company currency with the rates of the order date. A product with neither a list price nor a reference
 * price above zero has none (its line is not bounded).
 */
export async function listPrices(untypedTenant: Tenant, opts: { priceTitleId?: number; productIds: number[]; currencyId: number; date: string; orderRate?: number }): Promise<Map<number, Decimal>> {
  const tenant = TypedTenant.of(untypedTenant);
  const out = new Map<number, Decimal>();
  if (!opts.productIds.length) return out;
  const orderRate = new Decimal(opts.orderRate ?? (await rateOn(untypedTenant, opts.currencyId, opts.date)).rate);
  const toOrder = (cents: unknown, rate: Decimal) => new Decimal(String(cents)).div(100).times(rate).div(orderRate);
  const ONE = new Decimal(1_000_000);
  // the list's currency and its rate of the day: once, not per chunk of products
  let listRate = ONE;
  if (opts.priceTitleId !== undefined) {
    const list = await tenant.select('priceTitle').select(['currencyId']).where('id', '=', opts.priceTitleId).executeTakeFirst();
    if (list?.currencyId != null) listRate = new Decimal((await rateOn(untypedTenant, Number(list.currencyId), opts.date)).rate);
  }
  for (let i = 0; i < opts.productIds.length; i += 500) {
    const ids = opts.productIds.slice(i, i + 500);
    const reference = await tenant.select('product').select(['id', 'price']).where('id', 'in', ids).execute();
    for (const r of reference) if (Number(r.price) > 0) out.set(Number(r.id), toOrder(r.price, ONE));
    if (opts.priceTitleId !== undefined) {
      const listed = await tenant.select('productPrice').select(['productId', 'price']).where('priceTitleId', '=', opts.priceTitleId).where('productId', 'in', ids).execute();
      for (const r of listed) out.set(Number(r.productId), toOrder(r.price, listRate));
    }
  }
  return out;
}

/** The company's price bounds (0 = that bound is not checked). */
export async function priceBounds(ctx: CallContext): Promise<{ low: Decimal; high: Decimal }> {
  const row = await typed(ctx.db).selectFrom('company').select(['limitMultiple', 'ceilingMultiple']).where('id', '=', ctx.tenant.companyId).executeTakeFirst();
  const dec = (v: unknown) => { try { return new Decimal(String(v ?? '0')); } catch { return new Decimal(0); } };
  return { low: dec(row?.limitMultiple), high: dec(row?.ceilingMultiple) };
}

/** A line's price after its discount (percent), per small unit, in yuan. */
export function netPrice(price: Decimal, discountPercent: Decimal): Decimal {
  return price.times(new Decimal(100).minus(discountPercent)).div(100);
}

export interface BoundBreach {
  line: number;
  code: string;
  kind: 'low' | 'high';
  price: string;
  list: string;
  bound: string;
  multiple: string;
}

/** Whether a net price keeps the bounds of its list price; the breach when it does not. */
export function checkBounds(line: number, code: string, net: Decimal, list: Decimal | undefined, bounds: { low: Decimal; high: Decimal }): BoundBreach | undefined {
  if (!list || list.lte(0)) return undefined;
  // shown with 2 to 4 decimals, as a clerk types prices
  const fmt = (d: Decimal) => { const r = d.toDecimalPlaces(SALE_PRICE_SCALE, Decimal.ROUND_HALF_UP); return r.toFixed(Math.max(2, r.decimalPlaces())); };
  if (bounds.low.gt(0)) {
    const min = list.times(bounds.low);
    if (net.lt(min.toDecimalPlaces(SALE_PRICE_SCALE, Decimal.ROUND_UP))) return { line, code, kind: 'low', price: fmt(net), list: fmt(list), bound: fmt(min), multiple: bounds.low.toFixed() };
  }
  if (bounds.high.gt(0)) {
    const max = list.times(bounds.high);
    if (net.gt(max.toDecimalPlaces(SALE_PRICE_SCALE, Decimal.ROUND_DOWN))) return { line, code, kind: 'high', price: fmt(net), list: fmt(list), bound: fmt(max), multiple: bounds.high.toFixed() };
  }
  return undefined;
}
