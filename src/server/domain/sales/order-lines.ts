// 销售订单数据查询 (/orderDetail, oms 021001–021002): sales order lines across orders — what each client
// ordered, at what net price, how much is reserved, shipped and still open — filtered by client, product,
// warehouse, status and order date, newest first; the same filter exports to .xlsx.
import Decimal from 'decimal.js';
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import { fileDate, xlsxDownload, type XlsxColumn } from '../../files/xlsx.ts';
import { moneyText, parseDay, text, tz, type Row } from '../procurement/common.ts';
import { TypedTenant } from '../../db/typed.ts';

const STATUS: Record<string, string> = { draft: '草稿', confirmed: '已确认', partlyShipped: '部分发货', shipped: '已发货', closed: '已关闭', cancelled: '已作废' };

export const ORDER_LINES_INPUT: InputSchema = {
  type: 'object',
  properties: {
    page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1, title: '页码' },
    pageSize: { type: 'integer', minimum: 1, maximum: 500, default: 20, title: '每页条数' },
    docNo: { type: ['string', 'null'], maxLength: 50, title: '单号' },
    keyword: { type: ['string', 'null'], maxLength: 50, title: '商品' },
    clientId: { type: ['integer', 'null'], minimum: 1, title: '客户' },
    productId: { type: ['integer', 'null'], minimum: 1, title: '商品' },
    warehouseId: { type: ['integer', 'null'], minimum: 1, title: '仓库' },
    status: { enum: [...Object.keys(STATUS), null], title: '状态' },
    dateFrom: { type: ['string', 'null'], maxLength: 10, title: '订单日期从' },
    dateTo: { type: ['string', 'null'], maxLength: 10, title: '订单日期到' },
  },
};

export interface OrderLinesInput {
  page: number; pageSize: number; docNo?: string | null; keyword?: string | null; clientId?: number | null; productId?: number | null;
  warehouseId?: number | null; status?: string | null; dateFrom?: string | null; dateTo?: string | null;
}

const escapeLike = (s: string) => `%${s.replace(/[\\%_]/g, '')}%`;

function query(ctx: CallContext, input: OrderLinesInput) {
  const from = parseDay(input.dateFrom, 'dateFrom', '订单日期从');
  const to = parseDay(input.dateTo, 'dateTo', '订单日期到');
  const l = 'salesOrderLine';
  let q = TypedTenant.of(ctx.tenant).select(l)
    .innerJoin('salesOrder', (j) => j.onRef('salesOrder.id', '=', `${l}.orderId`).onRef('salesOrder.companyId', '=', `${l}.companyId`))
    .innerJoin('product', (j) => j.onRef('product.id', '=', `${l}.productId`).onRef('product.companyId', '=', `${l}.companyId`))
    .innerJoin('client', (j) => j.onRef('client.id', '=', 'salesOrder.clientId').onRef('client.companyId', '=', 'salesOrder.companyId'));
  if (input.docNo?.trim()) q = q.where('salesOrder.docNo', 'like', escapeLike(input.docNo.trim()));
  if (input.keyword?.trim()) {
    const k = input.keyword.trim();
    q = q.where((eb) => eb.or([eb('product.code', '=', k), eb('product.barcode', '=', k), eb('product.code', 'like', escapeLike(k)), eb('product.name', 'like', escapeLike(k))]));
  }
  if (input.clientId) q = q.where('salesOrder.clientId', '=', input.clientId);
  if (input.productId) q = q.where(`${l}.productId`, '=', input.productId);
  if (input.warehouseId) q = q.where('salesOrder.warehouseId', '=', input.warehouseId);
  if (input.status) q = q.where('salesOrder.status', '=', input.status);
  if (from) q = q.where('salesOrder.orderDate', '>=', from);
  if (to) q = q.where('salesOrder.orderDate', '<=', to);
  return q;
}

function rows(ctx: CallContext, input: OrderLinesInput, limit: number, offset: number) {
  const l = 'salesOrderLine';
  return query(ctx, input)
    .leftJoin('currency', (j) => j.onRef('currency.id', '=', 'salesOrder.currencyId').onRef('currency.companyId', '=', 'salesOrder.companyId'))
    .leftJoin('warehouse', (j) => j.onRef('warehouse.id', '=', 'salesOrder.warehouseId').onRef('warehouse.companyId', '=', 'salesOrder.companyId'))
    .select([`${l}.id`, `${l}.lineNo`, `${l}.qty`, `${l}.price`, `${l}.discount`, `${l}.amount`, `${l}.reservedQty`, `${l}.shippedQty`,
      'salesOrder.id as orderId', 'salesOrder.docNo', 'salesOrder.orderDate', 'salesOrder.status', 'salesOrder.deliveryDate',
      'client.code as clientCode', 'client.name as clientName', 'product.id as productId', 'product.code as productCode', 'product.name as productName',
      'product.specification', 'currency.currencyName', 'warehouse.name as warehouseName'])
    .orderBy('salesOrder.orderDate', 'desc').orderBy('salesOrder.id', 'desc').orderBy(`${l}.lineNo`)
    .limit(limit).offset(offset);
}

function view(r: Row) {
  const qty = Number(r.qty);
  const net = new Decimal(String(r.price ?? 0)).div(10_000).times(new Decimal(100).minus(new Decimal(String(r.discount ?? 0)).div(100))).div(100);
  return {
    id: Number(r.id), orderId: Number(r.orderId), docNo: String(r.docNo), lineNo: Number(r.lineNo), orderDate: text(r.orderDate), deliveryDate: text(r.deliveryDate),
    status: String(r.status), statusText: STATUS[String(r.status)] ?? String(r.status), clientCode: text(r.clientCode), clientName: text(r.clientName),
    productId: Number(r.productId), productCode: String(r.productCode), productName: String(r.productName), specification: text(r.specification),
    warehouseName: text(r.warehouseName), currencyName: text(r.currencyName),
    qty, reservedQty: Number(r.reservedQty ?? 0), shippedQty: Number(r.shippedQty ?? 0), openQty: Math.max(0, qty - Number(r.shippedQty ?? 0)),
    price: new Decimal(String(r.price ?? 0)).div(10_000).toFixed(4), discount: new Decimal(String(r.discount ?? 0)).div(100).toFixed(2),
    netPrice: net.toDecimalPlaces(4, Decimal.ROUND_HALF_UP).toFixed(4), amount: moneyText(r.amount), route: `/market/orderDetail/${Number(r.orderId)}`,
  };
}

export async function listOrderLines(ctx: CallContext, input: OrderLinesInput) {
  const counted = await query(ctx, input).select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
  const list = (await rows(ctx, input, input.pageSize, (input.page - 1) * input.pageSize).execute()).map(view);
  return { list, total: Number(counted?.n ?? 0), page: input.page, pageSize: input.pageSize };
}

const COLUMNS: Array<XlsxColumn & { key: keyof ReturnType<typeof view> }> = [
  { key: 'docNo', header: '销售单号', width: 18 }, { key: 'orderDate', header: '订单日期', width: 12 }, { key: 'statusText', header: '状态', width: 10 },
  { key: 'clientName', header: '客户', width: 24 }, { key: 'warehouseName', header: '发货仓库', width: 12 }, { key: 'lineNo', header: '行号', width: 6 },
  { key: 'productCode', header: '商品编码', width: 16 }, { key: 'productName', header: '商品名称', width: 30 }, { key: 'specification', header: '规格', width: 16 },
  { key: 'qty', header: '数量', width: 10 }, { key: 'reservedQty', header: '已预留', width: 10 }, { key: 'shippedQty', header: '已发货', width: 10 }, { key: 'openQty', header: '未发货', width: 10 },
  { key: 'currencyName', header: '币种', width: 8 }, { key: 'price', header: '单价', width: 12, numFmt: '0.0000' }, { key: 'discount', header: '折扣(%)', width: 10, numFmt: '0.00' },
  { key: 'netPrice', header: '折后单价', width: 12, numFmt: '0.0000' }, { key: 'amount', header: '金额', width: 14, numFmt: '#,##0.00' },
];
const NUMERIC = new Set(['price', 'discount', 'netPrice', 'amount']);

/** The filtered lines as .xlsx (newest first, at most 50,000 rows). */
export async function exportOrderLines(ctx: CallContext, input: OrderLinesInput) {
  return xlsxDownload(`销售订单明细_${fileDate(tz(ctx))}.xlsx`, async (book) => {
    const sheet = book.addSheet('销售订单明细', COLUMNS);
    for (let offset = 0; offset < 50_000; offset += 1000) {
      const got = (await rows(ctx, input, 1000, offset).execute()).map(view);
      for (const r of got) sheet.addRow(COLUMNS.map((c) => (NUMERIC.has(c.key) ? Number(r[c.key]) : (r[c.key] as string | number | null))));
      await book.drain();
      if (got.length < 1000) break;
    }
  });
}
