// The documents a product appears in (the 单据 tab of the product page): purchase orders, inbound plans,
// receiving notes, putaways, purchase invoices, return plans, opening stock and adjustments — newest first, each with
// its quantity of this product and the route of its screen. Every kind is one indexed query on its line
// table (company_id, product_id); the merge is paged here, so each kind is asked for at most
// page × pageSize rows.
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import { DOC_STATUS, PO_STATUS, text, type Row } from '../procurement/common.ts';
import { PLAN_STATUS } from '../procurement/inbound-plan.ts';
import { RETURN_STATUS } from '../procurement/purchase-return.ts';
import { TypedTenant } from '../../db/typed.ts';

export const PRODUCT_DOCS_INPUT: InputSchema = {
  type: 'object',
  required: ['productId'],
  properties: {
    productId: { type: 'integer', minimum: 1, title: '商品' },
    page: { type: 'integer', minimum: 1, maximum: 50, default: 1, title: '页码' },
    pageSize: { type: 'integer', minimum: 1, maximum: 100, default: 20, title: '每页条数' },
  },
};

interface Kind {
  docType: string;
  title: string;
  header: string;
  line: string;
  /** line column pointing at the header */
  key: string;
  qty: string;
  statuses: Record<string, string>;
  route: (id: number, docNo: string) => string;
}

const STOCK_DOC_STATUS: Record<string, string> = { draft: '草稿', posted: '已过账', cancelled: '已作废' };

const KINDS: Kind[] = [
  { docType: 'purchaseOrder', title: '采购订单', header: 'purchaseOrder', line: 'purchaseOrderLine', key: 'orderId', qty: 'qty', statuses: PO_STATUS, route: (id) => `/procurement/purchaseOrder/${id}` },
  { docType: 'inboundPlan', title: '入库计划', header: 'inboundPlan', line: 'inboundPlanLine', key: 'planId', qty: 'qty', statuses: PLAN_STATUS, route: (id) => `/procurement/treasuryPlanDetail/${id}` },
  { docType: 'receivingNote', title: '收货单', header: 'receivingNote', line: 'receivingNoteLine', key: 'noteId', qty: 'qty', statuses: DOC_STATUS, route: (id) => `/entrepot/receivingNoteDetail/${id}` },
  { docType: 'putaway', title: '上架单', header: 'putaway', line: 'putawayLine', key: 'putawayId', qty: 'qty', statuses: DOC_STATUS, route: (id) => `/entrepot/putawayDetail/${id}` },
  { docType: 'purchaseInvoice', title: '采购发票', header: 'purchaseInvoice', line: 'purchaseInvoiceLine', key: 'invoiceId', qty: 'qty', statuses: DOC_STATUS, route: (id) => `/procurement/invoiceDetail/${id}` },
  { docType: 'returnPlan', title: '退货出库计划', header: 'returnPlan', line: 'returnPlanLine', key: 'planId', qty: 'qty', statuses: RETURN_STATUS, route: (_id, docNo) => `/procurement/outPlan/list?docNo=${encodeURIComponent(docNo)}` },
  { docType: 'stockInit', title: '期初库存', header: 'stockInit', line: 'stockInitLine', key: 'docId', qty: 'qty', statuses: STOCK_DOC_STATUS, route: (id) => `/entrepot/inventoryInitRecordDetail/${id}` },
  { docType: 'stockAdjust', title: '库存调整', header: 'stockAdjust', line: 'stockAdjustLine', key: 'docId', qty: 'qty', statuses: STOCK_DOC_STATUS, route: (_id, docNo) => `/entrepot/inventoryAdjustRecord?docNo=${encodeURIComponent(docNo)}` },
];

export async function productDocuments(ctx: CallContext, input: { productId: number; page: number; pageSize: number }) {
  // One query shape over eight document tables named by KINDS: the untyped view, rows read as records.
  const tenant = ctx.tenant;
  const take = input.page * input.pageSize;
  const perKind = await Promise.all(KINDS.map(async (k) => {
    const [rows, counted] = await Promise.all([
      tenant.select(k.line)
        .innerJoin(`${k.header} as h`, (j) => j.onRef('h.id', '=', `${k.line}.${k.key}`).onRef('h.companyId', '=', `${k.line}.companyId`))
        .select(['h.id', 'h.docNo', 'h.status', 'h.createdAt', (eb) => eb.fn.sum(`${k.line}.${k.qty}`).as('qty')])
        .where(`${k.line}.productId`, '=', input.productId)
        .groupBy(['h.id', 'h.docNo', 'h.status', 'h.createdAt'])
        .orderBy('h.createdAt', 'desc').orderBy('h.id', 'desc').limit(take).execute() as Promise<Row[]>,
      tenant.select(k.line).select((eb) => eb.fn.count(`${k.line}.${k.key}`).distinct().as('n')).where(`${k.line}.productId`, '=', input.productId).executeTakeFirst() as Promise<Row | undefined>,
    ]);
    return { k, rows, total: Number(counted?.n ?? 0) };
  }));
  const all = perKind.flatMap(({ k, rows }) => rows.map((r) => {
    const status = String(r.status);
    return {
      key: `${k.docType}:${Number(r.id)}`, docType: k.docType, docTypeText: k.title, id: Number(r.id), docNo: String(r.docNo), status, statusText: k.statuses[status] ?? status,
      qty: Number(r.qty ?? 0), createdAt: text(r.createdAt), route: k.route(Number(r.id), String(r.docNo)),
    };
  }));
  all.sort((a, b) => String(b.createdAt).localeCompare(String(a.createdAt)) || b.id - a.id);
  const start = (input.page - 1) * input.pageSize;
  return { list: all.slice(start, start + input.pageSize), total: perKind.reduce((s, x) => s + x.total, 0), page: input.page, pageSize: input.pageSize };
}

/** The product's price on every price list that has one (purchase and sale), with the list's currency. */
export async function productPrices(ctx: CallContext, productId: number) {
  const rows = await TypedTenant.of(ctx.tenant).select('productPrice')
    .innerJoin('priceTitle', (j) => j.onRef('priceTitle.id', '=', 'productPrice.priceTitleId').onRef('priceTitle.companyId', '=', 'productPrice.companyId'))
    .leftJoin('currency', (j) => j.onRef('currency.id', '=', 'priceTitle.currencyId').onRef('currency.companyId', '=', 'priceTitle.companyId'))
    .select(['productPrice.id', 'productPrice.price', 'productPrice.updatedAt', 'priceTitle.id as priceTitleId', 'priceTitle.code as priceTitleCode',
      'priceTitle.name as priceTitleName', 'priceTitle.kind', 'priceTitle.enabled', 'currency.code as currencyCode', 'currency.currencyName'])
    .where('productPrice.productId', '=', productId).orderBy('priceTitle.kind').orderBy('priceTitle.code').execute();
  const list = rows.map((r) => ({
    id: Number(r.id), priceTitleId: Number(r.priceTitleId), priceTitleCode: String(r.priceTitleCode), priceTitleName: String(r.priceTitleName),
    kind: String(r.kind), kindText: r.kind === 'purchase' ? '采购价' : '销售价', enabled: Number(r.enabled) === 1, currencyCode: text(r.currencyCode), currencyName: text(r.currencyName),
    // product_price.price is in minor units (cents)
    price: (Number(r.price) / 100).toFixed(2), updatedAt: text(r.updatedAt),
  }));
  return { list, total: list.length };
}
