// 竞品 (competing): competitor products with our product, their latest observed price and the gap to our
// sale price — compared only in one currency, never converted.
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import type { CallContext } from '../../catalog/context.ts';
import { TypedTenant } from '../../db/typed.ts';
import { countOf, page, productKeyword, text, type Paging } from './product-query.ts';

export interface CompetingInput extends Paging {
  keyword?: string | null;
  competitorId?: number | null;
  productId?: number | null;
}

interface BaseCurrency { id: number; currencyName: string }
interface OurPrice { price: Decimal; currencyId: number | null; currencyName: string | null; source: string }

/** Our sale price per product: the caller's default sale price list, else the product's reference price. */
async function ourPrices(ctx: CallContext, tenant: TypedTenant, productIds: number[], base: BaseCurrency | undefined): Promise<Map<number, OurPrice>> {
  const out = new Map<number, OurPrice>();
  if (!productIds.length) return out;
  const account = await tenant.select('account').select('salePriceId').where('id', '=', ctx.caller!.accountId).executeTakeFirst();
  const title = account?.salePriceId
    ? await tenant.select('priceTitle')
      .leftJoin('currency', (j) => j.onRef('currency.id', '=', 'priceTitle.currencyId').onRef('currency.companyId', '=', 'priceTitle.companyId'))
      .select(['priceTitle.id', 'priceTitle.name', 'priceTitle.currencyId', 'currency.currencyName'])
      .where('priceTitle.id', '=', account.salePriceId).where('priceTitle.kind', '=', 'sale').executeTakeFirst()
    : undefined;
  if (title) {
    const rows = await tenant.select('productPrice').select(['productId', 'price'])
      .where('priceTitleId', '=', title.id).where('productId', 'in', productIds).execute();
    const currencyId = title.currencyId === null || title.currencyId === undefined ? (base ? Number(base.id) : null) : Number(title.currencyId);
    const currencyName = text(title.currencyName) ?? text(base?.currencyName);
    for (const r of rows) out.set(Number(r.productId), { price: new Decimal(String(r.price)).div(100), currencyId, currencyName, source: String(title.name) });
  }
  const missing = productIds.filter((id) => !out.has(id));
  if (missing.length) {
    const rows = await tenant.select('product').select(['id', 'price']).where('id', 'in', missing).execute();
    for (const r of rows) {
      out.set(Number(r.id), { price: new Decimal(String(r.price ?? 0)).div(100), currencyId: base ? Number(base.id) : null, currencyName: text(base?.currencyName), source: '参考价' });
    }
  }
  return out;
}

export async function competingList(ctx: CallContext, input: CompetingInput) {
  const tenant = TypedTenant.of(ctx.tenant);
  const keyword = productKeyword(ctx.database.dialect, input.keyword, ['competitorProduct.name', 'competitorProduct.code', 'competitor.name']);
  const base = () => {
    let q = tenant.select('competitorProduct')
      .innerJoin('competitor', (j) => j.onRef('competitor.id', '=', 'competitorProduct.competitorId').onRef('competitor.companyId', '=', 'competitorProduct.companyId'))
      .innerJoin('product', (j) => j.onRef('product.id', '=', 'competitorProduct.productId').onRef('product.companyId', '=', 'competitorProduct.companyId'));
    if (input.competitorId) q = q.where('competitorProduct.competitorId', '=', input.competitorId);
    if (input.productId) q = q.where('competitorProduct.productId', '=', input.productId);
    if (keyword) q = q.where(keyword);
    return q;
  };
  // The latest observation of each row: the first in (observed_on desc, id desc), found by index.
  const latest = sql`(select p2.id from competitor_price p2 where p2.company_id = competitor_product.company_id
    and p2.competitor_product_id = competitor_product.id order by p2.observed_on desc, p2.id desc limit 1)`;
  const { list, total } = await page(input, (limit, offset) => base()
    .leftJoin('competitorPrice as lp', (j) => j.on(sql<boolean>`${sql.ref('lp.id')} = ${latest}`))
    .leftJoin('currency as lc', (j) => j.onRef('lc.id', '=', 'lp.currencyId').onRef('lc.companyId', '=', 'competitorProduct.companyId'))
    .select([
      'competitorProduct.id', 'competitorProduct.version', 'competitorProduct.competitorId', 'competitor.name as competitorName',
      'competitorProduct.code', 'competitorProduct.name', 'competitorProduct.specification', 'competitorProduct.remark',
      'competitorProduct.productId', 'product.code as productCode', 'product.name as productName', 'product.specification as productSpecification',
      'product.imageId', 'competitorProduct.updatedAt',
      'lp.price as latestPrice', 'lp.currencyId as latestCurrencyId', 'lc.currencyName as latestCurrencyName', 'lp.observedOn as latestObservedOn', 'lp.source as latestSource',
    ])
    .orderBy('product.code').orderBy('competitor.name').orderBy('competitorProduct.id')
    .limit(limit).offset(offset).execute(), () => countOf(base()));
  const baseCurrency = await tenant.select('currency').select(['id', 'currencyName']).where('isBase', '=', 1).executeTakeFirst();
  const ours = await ourPrices(ctx, tenant, [...new Set(list.map((r) => Number(r.productId)))], baseCurrency);
  return {
    total, page: input.page, pageSize: input.pageSize,
    list: list.map((r) => {
      const theirs = r.latestPrice === null || r.latestPrice === undefined ? null : new Decimal(String(r.latestPrice)).div(10_000);
      const theirCurrency = r.latestCurrencyId === null || r.latestCurrencyId === undefined ? (baseCurrency ? Number(baseCurrency.id) : null) : Number(r.latestCurrencyId);
      const our = ours.get(Number(r.productId));
      // A gap only means something in one currency; no conversion is guessed here.
      const gap = theirs !== null && our !== undefined && our.currencyId === theirCurrency ? our.price.minus(theirs) : null;
      return {
        id: Number(r.id), version: Number(r.version),
        competitorId: Number(r.competitorId), competitorName: r.competitorName,
        code: r.code ?? null, name: r.name, specification: r.specification ?? null, remark: r.remark ?? null,
        productId: Number(r.productId), productCode: r.productCode, productName: r.productName, productSpecification: r.productSpecification ?? null,
        imageId: r.imageId ?? null, updatedAt: r.updatedAt,
        latestPrice: theirs === null ? null : theirs.toFixed(4),
        latestCurrencyId: r.latestCurrencyId === null || r.latestCurrencyId === undefined ? null : Number(r.latestCurrencyId),
        latestCurrencyName: theirs === null ? null : text(r.latestCurrencyName) ?? text(baseCurrency?.currencyName),
        latestObservedOn: r.latestObservedOn ?? null, latestSource: r.latestSource ?? null,
        ourPrice: our ? our.price.toFixed(2) : null, ourPriceSource: our?.source ?? null, ourCurrencyName: our?.currencyName ?? null,
        priceGap: gap === null ? null : gap.toFixed(4),
        priceGapRate: gap === null || theirs!.isZero() ? null : gap.div(theirs!).times(100).toDecimalPlaces(2).toNumber(),
      };
    }),
  };
}
