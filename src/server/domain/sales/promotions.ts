// Promotions (促销活动, issue 16) and how a sales order line picks one up.
// - A promotion is price off (减价: an amount per small unit in company currency, converted at the order's
//   rate), percentage off (打折) or buy N get M (买赠: per N small units bought, M more of the same product
//   free), for chosen products (活动商品) or a category with its sub-categories, for every client or one
//   client group — the clients whose client record names a given sale price list — valid from its start to
//   its end day (company days, both included) while enabled.
// - A line picks up a promotion when its price is the list price (left empty, or as the product lookup
//   filled it) or the price that promotion gives (an order saved again keeps it); a price the clerk typed
//   otherwise is the clerk's own deal and takes none. A discount % typed on the line applies on top.
// - Overlapping promotions: ONE rule — the one giving the client the lowest price per unit over the line
//   wins (a gift counts as its share of the price: N at P with M free is P × N / (N + M)); on a tie the
//   lower activity code.
// - Price bounds (limitMultiple): a promotion never takes a price below list × limitMultiple. Price off and
//   percentage are capped there (the line says 已按最低售价封顶); a buy-N-get-M whose price per unit would
//   fall below it is not applied. Saving a percentage or buy-N-get-M promotion whose own cut is already
//   below the company's limitMultiple is refused. A clerk's own discount on top is checked as any price
//   (refused below the bound unless the caller holds market.order.override).
// - The free units are a line of their own at price 0 right after the line that earned them (giftOf = that
//   line's number), reserved at confirmation like every line; a saved order's gift lines are made again
//   from the paid lines on every save (what a client sends as a gift line is dropped first).
import Decimal from 'decimal.js';
import type { Tenant } from '../../catalog/tenant.ts';
import type { FieldError } from '../../http/errors.ts';
import type { ResourceHooks } from '../../resources/hooks.ts';
import type { Row } from '../procurement/common.ts';
import { TypedTenant } from '../../db/typed.ts';

export type PromotionKind = 'amountOff' | 'percentOff' | 'buyGet';

export interface Promotion {
  id: number; code: string; name: string; kind: PromotionKind;
  offAmount: Decimal; // company currency per small unit
  percent: Decimal; buyQty: number; getQty: number;
}

export interface PickedPromotion {
  promotion: Promotion;
  /** the line's price per unit after the promotion (buy N get M: the price itself) */
  price: Decimal;
  /** free units (buy N get M) */
  giftQty: number;
  capped: boolean;
  text: string;
}

const KIND_TEXT: Record<PromotionKind, string> = { amountOff: '减价', percentOff: '打折', buyGet: '买赠' };
const fmt = (d: Decimal) => { const r = d.toDecimalPlaces(4, Decimal.ROUND_HALF_UP); return r.toFixed(Math.max(2, r.decimalPlaces())); };

/**
 * The enabled promotions valid on `date` for a client of price list `clientPriceTitleId` (its group),
 * per product: those naming the product, and those of its category or an ancestor of it.
 */
export async function promotionsFor(untypedTenant: Tenant, opts: { productIds: number[]; clientPriceTitleId: number | null; date: string }): Promise<Map<number, Promotion[]>> {
  const tenant = TypedTenant.of(untypedTenant);
  const out = new Map<number, Promotion[]>();
  if (!opts.productIds.length) return out;
  let q = tenant.select('promotion').selectAll().where('enabled', '=', 1).where('startDate', '<=', opts.date).where('endDate', '>=', opts.date);
  q = opts.clientPriceTitleId == null
    ? q.where('priceTitleId', 'is', null)
    : q.where((eb: any) => eb.or([eb('priceTitleId', 'is', null), eb('priceTitleId', '=', opts.clientPriceTitleId)]));
  const rows = await q.limit(1000).execute();
  if (!rows.length) return out;
  const promo = (r: Row): Promotion => ({
    id: Number(r.id), code: String(r.code), name: String(r.name), kind: String(r.kind) as PromotionKind,
    offAmount: new Decimal(Number(r.offAmount ?? 0)).div(10_000), percent: new Decimal(Number(r.percent ?? 0)).div(100),
    buyQty: Number(r.buyQty ?? 0), getQty: Number(r.getQty ?? 0),
  });
  const add = (productId: number, p: Promotion) => { const list = out.get(productId) ?? []; if (!list.some((x) => x.id === p.id)) list.push(p); out.set(productId, list); };
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  const productScoped = rows.filter((r) => r.scope === 'product').map((r) => Number(r.id));
  for (let i = 0; i < opts.productIds.length; i += 500) {
    const ids = opts.productIds.slice(i, i + 500);
    if (productScoped.length) {
      const named = await tenant.select('promotionProduct').select(['promotionId', 'productId']).where('promotionId', 'in', productScoped).where('productId', 'in', ids).execute();
      for (const n of named) add(Number(n.productId), promo(byId.get(Number(n.promotionId))!));
    }
  }
  const categoryScoped = rows.filter((r) => r.scope === 'category' && r.categoryId != null);
  if (categoryScoped.length) {
    // every category's parent (a company holds few): a product's category and its ancestors
    const parents = new Map((await tenant.select('category').select(['id', 'parentId']).execute()).map((c) => [Number(c.id), c.parentId == null ? null : Number(c.parentId)]));
    const chain = (id: number | null) => { const seen = new Set<number>(); while (id != null && !seen.has(id)) { seen.add(id); id = parents.get(id) ?? null; } return seen; };
    for (let i = 0; i < opts.productIds.length; i += 500) {
      const products = await tenant.select('product').select(['id', 'categoryId']).where('id', 'in', opts.productIds.slice(i, i + 500)).execute();
      for (const p of products) {
        if (p.categoryId == null) continue;
        const up = chain(Number(p.categoryId));
        for (const r of categoryScoped) if (up.has(Number(r.categoryId))) add(Number(p.id), promo(r));
      }
    }
  }
  return out;
}

/**
 * The promotion a line gets: the lowest price per unit for the client over the line (ties: lower code),
 * within the floor (list × limitMultiple). `orderRate` converts a price off from company currency.
 */
export function pickPromotion(candidates: Promotion[] | undefined, opts: { price: Decimal; qty: number; orderRate: Decimal; floor?: Decimal }): PickedPromotion | undefined {
  let best: (PickedPromotion & { unit: Decimal }) | undefined;
  const floor = opts.floor?.toDecimalPlaces(4, Decimal.ROUND_UP);
  for (const p of candidates ?? []) {
    let price = opts.price;
    let giftQty = 0;
    let capped = false;
    let unit: Decimal;
    if (p.kind === 'buyGet') {
      if (p.buyQty <= 0 || p.getQty <= 0 || opts.qty < p.buyQty) continue;
      giftQty = Math.floor(opts.qty / p.buyQty) * p.getQty;
      unit = opts.price.times(opts.qty).div(opts.qty + giftQty);
      if (floor && unit.lt(floor)) continue;
    } else {
      const cut = p.kind === 'amountOff'
        ? opts.price.minus(p.offAmount.times(1_000_000).div(opts.orderRate))
        : opts.price.times(new Decimal(100).minus(p.percent)).div(100);
      price = Decimal.max(0, cut).toDecimalPlaces(4, Decimal.ROUND_HALF_UP);
      if (floor && price.lt(floor)) { price = floor; capped = true; }
      if (price.gte(opts.price)) continue;
      unit = price;
    }
    const better = !best || unit.lt(best.unit) || (unit.eq(best.unit) && p.code < best.promotion.code);
    if (better) {
      const what = p.kind === 'amountOff' ? `每单位减 ${fmt(p.offAmount)}` : p.kind === 'percentOff' ? `减 ${p.percent.toFixed()}%` : `买 ${p.buyQty} 送 ${p.getQty}，赠 ${giftQty}`;
      const text = `${p.name}（${p.code}，${KIND_TEXT[p.kind]}：${what}${capped ? `，已按最低售价 ${fmt(floor!)} 封顶` : ''}）`;
      best = { promotion: p, price, giftQty, capped, text, unit };
    }
  }
  if (!best) return undefined;
  const { unit: _u, ...picked } = best;
  return picked;
}

/** The company's price floor multiple (0: none). */
async function limitMultiple(untypedTenant: Tenant): Promise<Decimal> {
  const tenant = TypedTenant.of(untypedTenant);
  const row = await tenant.db.selectFrom('company').select('limitMultiple').where('id', '=', tenant.companyId).executeTakeFirst();
  try { return new Decimal(String(row?.limitMultiple ?? '0')); } catch { return new Decimal(0); }
}

/** What a promotion's save must hold beyond the field rules (merged: stored values, scaled). */
export const PROMOTION_HOOKS: Record<string, ResourceHooks> = {
  promotion: {
    async validate({ tenant, merged }) {
      const errors: FieldError[] = [];
      const kind = String(merged.kind) as PromotionKind;
      const low = await limitMultiple(tenant);
      if (kind === 'amountOff' && !(Number(merged.offAmount ?? 0) > 0)) errors.push({ field: 'offAmount', message: '减价促销的每单位减价必须大于 0' });
      if (kind === 'percentOff') {
        const pct = new Decimal(Number(merged.percent ?? 0)).div(100);
        if (!(pct.gt(0) && pct.lt(100))) errors.push({ field: 'percent', message: '打折促销的折扣必须大于 0 且小于 100' });
        else if (low.gt(0) && new Decimal(100).minus(pct).div(100).lt(low)) errors.push({ field: 'percent', message: `折扣 ${pct.toFixed()}% 后低于最低售价（价格表价 × ${low.toFixed()}），最多减 ${new Decimal(1).minus(low).times(100).toFixed()}%` });
      }
      if (kind === 'buyGet') {
        const n = Number(merged.buyQty ?? 0);
        const m = Number(merged.getQty ?? 0);
        if (!(n > 0)) errors.push({ field: 'buyQty', message: '买赠促销的“买”数量必须大于 0' });
        if (!(m > 0)) errors.push({ field: 'getQty', message: '买赠促销的“送”数量必须大于 0' });
        if (n > 0 && m > 0 && low.gt(0) && new Decimal(n).div(n + m).lt(low)) errors.push({ field: 'getQty', message: `买 ${n} 送 ${m} 的平均售价低于最低售价（价格表价 × ${low.toFixed()}）` });
      }
      if (merged.scope === 'category' && merged.categoryId == null) errors.push({ field: 'categoryId', message: '适用商品为商品分类时必须选择分类' });
      if (merged.startDate != null && merged.endDate != null && String(merged.endDate) < String(merged.startDate)) errors.push({ field: 'endDate', message: '结束日期不能早于开始日期' });
      if (merged.priceTitleId != null) {
        const list = await TypedTenant.of(tenant).select('priceTitle').select('kind').where('id', '=', Number(merged.priceTitleId)).executeTakeFirst();
        if (list && list.kind !== 'sale') errors.push({ field: 'priceTitleId', message: '客户组必须是销售价格表' });
      }
      return errors;
    },
  },
};
