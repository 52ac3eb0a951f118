// 价格查询 (/price, oms 022501–022502): what a clerk asks before quoting — one product's price on every
// price list, what we paid for it lately and what competitors charge. One call answers all three, so the
// screen draws from one record, with the last sale prices (confirmed sales orders, net of discount).
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import type { Dialect } from '../../db/connection.ts';
import { bizError } from '../../http/errors.ts';
import { moneyText, PO_STATUS, priceText, text, type Row } from '../procurement/common.ts';
import { TypedTenant } from '../../db/typed.ts';

/** How many purchase order lines the answer carries. */
export const LAST_PURCHASES = 10;

/** Orders that never happened (drafts, cancelled) do not show what we paid. */
const PRICED_PO_STATUSES = ['confirmed', 'partlyReceived', 'received', 'closed'];

export const PRICE_QUERY_INPUT: InputSchema = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer', minimum: 1, title: '商品' } },
};

export const PRODUCT_SEARCH_INPUT: InputSchema = {
  type: 'object',
  properties: {
    keyword: { type: ['string', 'null'], maxLength: 50, title: '关键字' },
    id: { type: ['integer', 'null'], minimum: 1, title: '商品' },
    limit: { type: 'integer', minimum: 1, maximum: 50, default: 20, title: '条数' },
  },
};

export async function priceQuery(ctx: CallContext, productId: number) {
  const tenant = TypedTenant.of(ctx.tenant);
  const product = await tenant.select('product')
    .leftJoin('category', (j) => j.onRef('category.id', '=', 'product.categoryId').onRef('category.companyId', '=', 'product.companyId'))
    .select(['product.id', 'product.code', 'product.barcode', 'product.name', 'product.specification', 'product.brand', 'product.status',
      'product.unitSmall', 'product.price', 'category.name as categoryName'])
    .where('product.id', '=', productId).executeTakeFirst();
  if (!product) throw bizError('PRODUCT_NOT_EXIST_4001');

  const [priceLists, purchases, sales, competitors] = await Promise.all([
    priceListPrices(ctx, productId), lastPurchases(ctx, productId), lastSales(ctx, productId), competitorPrices(ctx, productId),
  ]);
  return {
    id: Number(product.id), code: String(product.code), barcode: text(product.barcode), name: String(product.name),
    specification: text(product.specification), brand: text(product.brand), categoryName: text(product.categoryName),
    status: String(product.status), unitSmall: text(product.unitSmall),
    // product.price is the reference price in cents
    referencePrice: moneyText(product.price),
    priceLists, purchases, sales, competitors,
  };
}

/** Every price list of the company, with this product's price on it or none (null). */
async function priceListPrices(ctx: CallContext, productId: number) {
  const rows = await TypedTenant.of(ctx.tenant).select('priceTitle')
    .leftJoin('productPrice', (j) => j.onRef('productPrice.priceTitleId', '=', 'priceTitle.id').onRef('productPrice.companyId', '=', 'priceTitle.companyId')
      .on('productPrice.productId', '=', productId))
    .leftJoin('currency', (j) => j.onRef('currency.id', '=', 'priceTitle.currencyId').onRef('currency.companyId', '=', 'priceTitle.companyId'))
    .select(['priceTitle.id', 'priceTitle.code', 'priceTitle.name', 'priceTitle.kind', 'priceTitle.enabled', 'currency.currencyName',
      'productPrice.price', 'productPrice.updatedAt'])
    // Sale lists first: a price query is mostly asked before quoting a client.
    .orderBy('priceTitle.kind', 'desc').orderBy('priceTitle.code').execute();
  return rows.map((r) => ({
    id: Number(r.id), priceTitleCode: String(r.code), priceTitleName: String(r.name), kind: String(r.kind),
    kindText: r.kind === 'purchase' ? '采购价' : '销售价', enabled: Number(r.enabled) === 1, currencyName: text(r.currencyName),
    // product_price.price is in cents
    price: r.price === null || r.price === undefined ? null : moneyText(r.price), updatedAt: text(r.updatedAt),
  }));
}

/** The product's last purchase order lines (confirmed or later), newest order date first. */
async function lastPurchases(ctx: CallContext, productId: number) {
  const rows = await TypedTenant.of(ctx.tenant).select('purchaseOrderLine')
    .innerJoin('purchaseOrder', (j) => j.onRef('purchaseOrder.id', '=', 'purchaseOrderLine.orderId').onRef('purchaseOrder.companyId', '=', 'purchaseOrderLine.companyId'))
    .leftJoin('supplier', (j) => j.onRef('supplier.id', '=', 'purchaseOrder.supplierId').onRef('supplier.companyId', '=', 'purchaseOrder.companyId'))
    .leftJoin('currency', (j) => j.onRef('currency.id', '=', 'purchaseOrder.currencyId').onRef('currency.companyId', '=', 'purchaseOrder.companyId'))
    .select(['purchaseOrderLine.id', 'purchaseOrderLine.qty', 'purchaseOrderLine.price', 'purchaseOrder.id as orderId', 'purchaseOrder.docNo',
      'purchaseOrder.orderDate', 'purchaseOrder.status', 'supplier.code as supplierCode', 'supplier.name as supplierName', 'currency.currencyName'])
    .where('purchaseOrderLine.productId', '=', productId)
    .where('purchaseOrder.status', 'in', PRICED_PO_STATUSES)
    .orderBy('purchaseOrder.orderDate', 'desc').orderBy('purchaseOrder.id', 'desc').orderBy('purchaseOrderLine.id', 'desc')
    .limit(LAST_PURCHASES).execute();
  return rows.map((r) => ({
    id: Number(r.id), orderId: Number(r.orderId), docNo: String(r.docNo), orderDate: String(r.orderDate),
    status: String(r.status), statusText: PO_STATUS[String(r.status) as keyof typeof PO_STATUS] ?? String(r.status),
    supplierCode: text(r.supplierCode), supplierName: text(r.supplierName), currencyName: text(r.currencyName),
    qty: Number(r.qty), price: priceText(r.price), route: `/procurement/purchaseOrder/${Number(r.orderId)}`,
  }));
}

/** Sales orders that were confirmed (later states too) show what a client paid. */
const PRICED_SO_STATUSES = ['confirmed', 'partlyShipped', 'shipped', 'closed'];
const SO_STATUS: Record<string, string> = { confirmed: '已确认', partlyShipped: '部分发货', shipped: '已发货', closed: '已关闭' };

/** The product's last sales order lines (confirmed or later), newest order date first, net of discount. */
async function lastSales(ctx: CallContext, productId: number) {
  const rows = await TypedTenant.of(ctx.tenant).select('salesOrderLine')
    .innerJoin('salesOrder', (j) => j.onRef('salesOrder.id', '=', 'salesOrderLine.orderId').onRef('salesOrder.companyId', '=', 'salesOrderLine.companyId'))
    .leftJoin('client', (j) => j.onRef('client.id', '=', 'salesOrder.clientId').onRef('client.companyId', '=', 'salesOrder.companyId'))
    .leftJoin('currency', (j) => j.onRef('currency.id', '=', 'salesOrder.currencyId').onRef('currency.companyId', '=', 'salesOrder.companyId'))
    .select(['salesOrderLine.id', 'salesOrderLine.qty', 'salesOrderLine.price', 'salesOrderLine.discount', 'salesOrder.id as orderId', 'salesOrder.docNo',
      'salesOrder.orderDate', 'salesOrder.status', 'client.name as clientName', 'currency.currencyName'])
    .where('salesOrderLine.productId', '=', productId)
    .where('salesOrder.status', 'in', PRICED_SO_STATUSES)
    .orderBy('salesOrder.orderDate', 'desc').orderBy('salesOrder.id', 'desc').orderBy('salesOrderLine.id', 'desc')
    .limit(LAST_PURCHASES).execute();
  return rows.map((r) => {
    // price × 10^4, discount in percent × 10^2: the net price per small unit, 4 decimals
    const net = new Decimal(String(r.price ?? 0)).div(10_000).times(new Decimal(100).minus(new Decimal(String(r.discount ?? 0)).div(100))).div(100);
    return {
      id: Number(r.id), orderId: Number(r.orderId), docNo: String(r.docNo), orderDate: text(r.orderDate), status: String(r.status),
      statusText: SO_STATUS[String(r.status)] ?? String(r.status), clientName: text(r.clientName), currencyName: text(r.currencyName),
      qty: Number(r.qty), price: net.toDecimalPlaces(4, Decimal.ROUND_HALF_UP).toFixed(4),
      discount: new Decimal(String(r.discount ?? 0)).div(100).toFixed(2), route: `/market/orderDetail/${Number(r.orderId)}`,
    };
  });
}

/** Each competitor product linked to ours with its latest observed price (none yet: nulls). */
async function competitorPrices(ctx: CallContext, productId: number) {
  // The latest observation: the first in (observed_on desc, id desc), found by index.
  const latest = sql`(select p2.id from competitor_price p2 where p2.company_id = competitor_product.company_id
    and p2.competitor_product_id = competitor_product.id order by p2.observed_on desc, p2.id desc limit 1)`;
  const rows = await TypedTenant.of(ctx.tenant).select('competitorProduct')
    .innerJoin('competitor', (j) => j.onRef('competitor.id', '=', 'competitorProduct.competitorId').onRef('competitor.companyId', '=', 'competitorProduct.companyId'))
    .leftJoin('competitorPrice as lp', (j) => j.on(sql<boolean>`${sql.ref('lp.id')} = ${latest}`))
    .leftJoin('currency as lc', (j) => j.onRef('lc.id', '=', 'lp.currencyId').onRef('lc.companyId', '=', 'competitorProduct.companyId'))
    .select(['competitorProduct.id', 'competitor.name as competitorName', 'competitorProduct.code', 'competitorProduct.name', 'competitorProduct.specification',
      'lp.price', 'lp.observedOn', 'lp.source', 'lc.currencyName'])
    .where('competitorProduct.productId', '=', productId)
    .orderBy('competitor.name').orderBy('competitorProduct.id').execute();
  const out = rows.map((r) => ({
    id: Number(r.id), competitorName: String(r.competitorName), code: text(r.code), name: String(r.name), specification: text(r.specification),
    // competitor_price.price is × 10^4
    price: r.price === null || r.price === undefined ? null : priceText(r.price), observedOn: text(r.observedOn), source: text(r.source), currencyName: text(r.currencyName),
  }));
  // The freshest observations first; items never observed last.
  return out.sort((a, b) => (b.observedOn ?? '').localeCompare(a.observedOn ?? ''));
}

function like(dialect: Dialect, ref: string, pattern: string) {
  return dialect === 'postgres' ? sql<boolean>`${sql.ref(ref)} ilike ${pattern} escape '\\'` : sql<boolean>`${sql.ref(ref)} like ${pattern} escape '\\'`;
}

const contains = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Products a clerk may mean by what was typed or scanned: the exact code or barcode first, then codes and
 * names containing it (every product, stopped or locked too — a price may be asked about any). `id` answers
 * that one product (the picker showing the product already chosen).
 */
export async function searchProducts(ctx: CallContext, input: { keyword?: string | null; id?: number | null; limit: number }) {
  const base = () => TypedTenant.of(ctx.tenant).select('product').select(['id', 'code', 'barcode', 'name', 'specification']);
  const keyword = input.keyword?.trim() ?? '';
  let rows: Row[];
  if (input.id) rows = await base().where('id', '=', input.id).execute();
  else if (!keyword) rows = await base().orderBy('code').limit(input.limit).execute();
  else {
    // The exact code or barcode is asked on its own, so a scanned code is never crowded out by partial matches.
    const exact = await base().where((eb) => eb.or([eb('code', '=', keyword), eb('barcode', '=', keyword)])).orderBy('code').limit(input.limit).execute();
    const pattern = contains(keyword);
    const dialect = ctx.database.dialect;
    const partial = await base().where((eb) => eb.or([like(dialect, 'product.code', pattern), like(dialect, 'product.name', pattern)]))
      .orderBy('code').limit(input.limit).execute();
    const seen = new Set(exact.map((r) => Number(r.id)));
    rows = [...exact, ...partial.filter((r) => !seen.has(Number(r.id)))].slice(0, input.limit);
  }
  return rows.map((r) => ({
    id: Number(r.id), code: String(r.code), barcode: text(r.barcode),
    label: r.specification ? `${String(r.name)}（${String(r.specification)}）` : String(r.name),
  }));
}
