// Picking products for a purchase order line (oms 020210): what a buyer types (code, barcode or part of
// the name) → products that can be ordered, with their units and pack sizes and a suggested unit price.
// The price a buyer expects is what this supplier charged last time; without such an order, the price of
// the caller's purchase price list (or the company's first enabled one); without that, the product's
// reference price.
import Decimal from 'decimal.js';
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import { PRICE_SCALE, text } from './common.ts';
import { TypedTenant } from '../../db/typed.ts';

export const PICK_INPUT: InputSchema = {
  type: 'object',
  properties: {
    keyword: { type: ['string', 'null'], maxLength: 50, title: '关键字' },
    supplierId: { type: ['integer', 'null'], minimum: 1, title: '供应商' },
    limit: { type: 'integer', minimum: 1, maximum: 50, default: 20, title: '条数' },
  },
};

export interface PickInput {
  keyword?: string | null;
  supplierId?: number | null;
  limit: number;
}

const likeText = (s: string) => `%${s.replace(/[\\%_]/g, '')}%`;

async function purchaseListId(ctx: CallContext): Promise<number | undefined> {
  const tenant = TypedTenant.of(ctx.tenant);
  const account = await tenant.select('account').select('purchasePriceId').where('id', '=', ctx.caller!.accountId).executeTakeFirst();
  if (account?.purchasePriceId) return Number(account.purchasePriceId);
  const first = await tenant.select('priceTitle').select('id').where('kind', '=', 'purchase').where('enabled', '=', 1).orderBy('code').limit(1).executeTakeFirst();
  return first ? Number(first.id) : undefined;
}

export async function pickProducts(ctx: CallContext, input: PickInput) {
  const tenant = TypedTenant.of(ctx.tenant);
  const keyword = input.keyword?.trim() ?? '';
  let q = tenant.select('product')
    .select(['id', 'code', 'barcode', 'name', 'specification', 'unitBig', 'unitMid', 'unitSmall', 'bigQty', 'midQty', 'price'])
    .where('status', '!=', 'stopped').where('locked', '=', 0);
  if (keyword) {
    // An exact code or barcode comes first (a scanner), then partial matches in code order.
    q = q.where((eb) => eb.or([eb('code', '=', keyword), eb('barcode', '=', keyword), eb('code', 'like', likeText(keyword)), eb('name', 'like', likeText(keyword))]));
  }
  const rows = await q.orderBy('code').limit(input.limit).execute();
  rows.sort((a, b) => Number(b.code === keyword || b.barcode === keyword) - Number(a.code === keyword || a.barcode === keyword));
  const ids = rows.map((r) => Number(r.id));
  const prices = new Map<number, { price: string; source: string }>();
  if (ids.length && input.supplierId) {
    const last = await tenant.select('purchaseOrderLine')
      .innerJoin('purchaseOrder', (j) => j.onRef('purchaseOrder.id', '=', 'purchaseOrderLine.orderId').onRef('purchaseOrder.companyId', '=', 'purchaseOrderLine.companyId'))
      .select(['purchaseOrderLine.productId', 'purchaseOrderLine.price', 'purchaseOrder.docNo'])
      .where('purchaseOrder.supplierId', '=', input.supplierId).where('purchaseOrder.status', '!=', 'cancelled').where('purchaseOrderLine.productId', 'in', ids)
      .orderBy('purchaseOrderLine.id', 'desc').limit(500).execute();
    for (const r of last) {
      const id = Number(r.productId);
      if (!prices.has(id)) prices.set(id, { price: new Decimal(String(r.price)).div(10 ** PRICE_SCALE).toFixed(), source: `最近采购 ${String(r.docNo)}` });
    }
  }
  const listId = ids.length && prices.size < ids.length ? await purchaseListId(ctx) : undefined;
  if (listId !== undefined) {
    const listed = await tenant.select('productPrice').select(['productId', 'price']).where('priceTitleId', '=', listId).where('productId', 'in', ids).execute();
    for (const r of listed) {
      const id = Number(r.productId);
      if (!prices.has(id)) prices.set(id, { price: new Decimal(String(r.price)).div(100).toFixed(2), source: '采购价格表' });
    }
  }
  return {
    list: rows.map((r) => {
      const id = Number(r.id);
      const suggested = prices.get(id) ?? { price: new Decimal(String(r.price ?? 0)).div(100).toFixed(2), source: '参考价' };
      return {
        id, value: id, label: `${String(r.code)} ${String(r.name)}`, code: String(r.code), barcode: text(r.barcode), name: String(r.name), specification: text(r.specification),
        unitBig: text(r.unitBig), unitMid: text(r.unitMid), unitSmall: text(r.unitSmall), bigQty: Number(r.bigQty), midQty: Number(r.midQty),
        price: suggested.price, priceSource: suggested.source,
      };
    }),
  };
}
