// Sales orders beyond what the document engine serves from their definition
// (src/server/documents/types/sales-order.ts): picking products for a line (code, barcode or name → the
// list price in the order's currency and what the warehouse can still promise) and copying an old order
// into a new draft (its prices go through the same save, so the price bounds hold for copies too).
import Decimal from 'decimal.js';
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import type { DocumentType } from '../../documents/engine.ts';
import { rateOn, text, today, type Row } from '../procurement/common.ts';
import { listPrices, priceBounds, salePriceListId } from './pricing.ts';
import { pickPromotion, promotionsFor, type PickedPromotion } from './promotions.ts';
import { TypedTenant, typed } from '../../db/typed.ts';

/** The sales order type the engine serves. */
export function salesOrders(ctx: CallContext): DocumentType {
  const t = ctx.documents.get('salesOrder');
  if (!t) throw new Error('document type salesOrder is not loaded');
  return t;
}

export const SALE_PICK_INPUT: InputSchema = {
  type: 'object',
  properties: {
    keyword: { type: ['string', 'null'], maxLength: 50, title: '关键字' },
    clientId: { type: ['integer', 'null'], minimum: 1, title: '客户' },
    priceTitleId: { type: ['integer', 'null'], minimum: 1, title: '价格表' },
    currencyId: { type: ['integer', 'null'], minimum: 1, title: '币种' },
    warehouseId: { type: ['integer', 'null'], minimum: 1, title: '仓库' },
    orderDate: { type: ['string', 'null'], maxLength: 10, pattern: '^(\\d{4}-\\d{2}-\\d{2})?$', title: '订单日期' },
    limit: { type: 'integer', minimum: 1, maximum: 50, default: 20, title: '条数' },
  },
};

export interface SalePickInput {
  keyword?: string | null;
  clientId?: number | null;
  priceTitleId?: number | null;
  currencyId?: number | null;
  warehouseId?: number | null;
  orderDate?: string | null;
  limit: number;
}

/** A price as a clerk types it: 2 decimals, up to 4 when it has them. */
const shown = (d: Decimal | undefined) => {
  if (d === undefined) return null;
  const r = d.toDecimalPlaces(4, Decimal.ROUND_HALF_UP);
  return r.toFixed(Math.max(2, r.decimalPlaces()));
};

const likeText = (s: string) => `%${s.replace(/[\\%_]/g, '')}%`;

/** Products that can be sold (on sale, not locked) matching what the clerk typed or scanned. */
export async function pickSaleProducts(ctx: CallContext, input: SalePickInput) {
  const tenant = TypedTenant.of(ctx.tenant);
  const keyword = input.keyword?.trim() ?? '';
  let q = tenant.select('product')
    .select(['id', 'code', 'barcode', 'name', 'specification', 'unitBig', 'unitMid', 'unitSmall', 'bigQty', 'midQty'])
    .where('status', '!=', 'stopped').where('locked', '=', 0);
  if (keyword) q = q.where((eb) => eb.or([eb('code', '=', keyword), eb('barcode', '=', keyword), eb('code', 'like', likeText(keyword)), eb('name', 'like', likeText(keyword))]));
  const rows = await q.orderBy('code').limit(input.limit).execute();
  // an exact code or barcode first (a scanner)
  rows.sort((a, b) => Number(b.code === keyword || b.barcode === keyword) - Number(a.code === keyword || a.barcode === keyword));
  const ids = rows.map((r) => Number(r.id));
  const client = input.clientId ? (await tenant.select('client').select(['currencyId', 'priceTitleId']).where('id', '=', input.clientId).executeTakeFirst()) : undefined;
  let currencyId = input.currencyId ?? (client?.currencyId == null ? undefined : Number(client.currencyId));
  if (currencyId == null) {
    const company = await typed(ctx.db).selectFrom('company').select('currencyId').where('id', '=', tenant.companyId).executeTakeFirst();
    currencyId = company?.currencyId == null ? undefined : Number(company.currencyId);
  }
  const date = input.orderDate || today(ctx);
  let prices = new Map<number, Decimal>();
  const promoted = new Map<number, PickedPromotion>();
  if (ids.length && currencyId != null) {
    const priceTitleId = await salePriceListId(ctx, input.priceTitleId ?? client?.priceTitleId);
    // a currency without a rate for the day has no price to suggest (the save names the missing rate)
    const rate = await rateOn(ctx.tenant, currencyId, date).then((r) => r.rate, () => undefined);
    if (rate !== undefined) prices = await listPrices(ctx.tenant, { priceTitleId, productIds: ids, currencyId, date, orderRate: rate });
    // the price a promotion gives one unit (a buy-N-get-M shows when the saved line's quantity earns it)
    if (rate !== undefined && prices.size) {
      const promos = await promotionsFor(ctx.tenant, { productIds: ids, clientPriceTitleId: client?.priceTitleId == null ? null : Number(client.priceTitleId), date });
      const { low } = await priceBounds(ctx);
      for (const [id, list] of prices) {
        const picked = pickPromotion(promos.get(id), { price: list.toDecimalPlaces(4, Decimal.ROUND_HALF_UP), qty: 1, orderRate: new Decimal(rate), floor: low.gt(0) ? list.times(low) : undefined });
        if (picked) promoted.set(id, picked);
      }
    }
  }
  const available = new Map<number, number>();
  if (ids.length && input.warehouseId) {
    const stock = await tenant.select('stockSummary').select(['productId', 'onHand', 'reserved', 'committed']).where('warehouseId', '=', input.warehouseId).where('productId', 'in', ids).execute();
    for (const r of stock) available.set(Number(r.productId), Number(r.onHand) - Number(r.reserved) - Number(r.committed));
  }
  return {
    list: rows.map((r) => {
      const id = Number(r.id);
      const price = prices.get(id);
      return {
        id, value: id, label: `${String(r.code)} ${String(r.name)}`, code: String(r.code), barcode: text(r.barcode), name: String(r.name), specification: text(r.specification),
        unitBig: text(r.unitBig), unitMid: text(r.unitMid), unitSmall: text(r.unitSmall), bigQty: Number(r.bigQty), midQty: Number(r.midQty),
        price: shown(promoted.get(id)?.price ?? price), listPrice: shown(price), promotionText: promoted.get(id)?.text ?? null,
        available: input.warehouseId ? available.get(id) ?? 0 : null,
      };
    }),
  };
}

/** A new draft with the old order's client, warehouse, terms and lines (prices checked again on save). */
export async function copySalesOrder(ctx: CallContext, id: number) {
  const old = await salesOrders(ctx).get(ctx, id);
  const keep = ['clientId', 'salesmanId', 'warehouseId', 'currencyId', 'priceTitleId', 'companyRiseId', 'deliveryAddress', 'paymentTerms', 'backOrderPolicy', 'remark'];
  return salesOrders(ctx).save(ctx, {
    ...Object.fromEntries(keep.map((k) => [k, old[k] ?? null])),
    // gift lines are made again by the save from the promotions valid on the new order's date
    lines: old.lines.filter((l) => l.giftOf == null).map((l) => ({ productId: l.productId, qty: l.qty, price: l.promotionId != null ? null : l.price, discount: l.discount, remark: l.remark ?? null })),
  });
}
