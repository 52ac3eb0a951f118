// Purchase orders (采购订单) beyond what the document engine serves from their definition
// (src/server/documents/types/purchase-order.ts): the big/mid/small quantity rule other procurement
// documents share and purchaseOrderAgain (a copy).
import type { CallContext } from '../../catalog/context.ts';
import type { DocumentType } from '../../documents/engine.ts';
import { toSmallUnits } from '../../../core/stock-units.ts';
import { bizError, type ApiError } from '../../http/errors.ts';
import { MAX_MOVE_QTY } from '../stock/ledger.ts';
import { text, type Row } from './common.ts';

export const PO_TITLE = '采购订单';
export const PO_PREFIX = 'CG';

/** The purchase order type the engine serves. */
export function purchaseOrders(ctx: CallContext): DocumentType {
  const t = ctx.documents.get('purchaseOrder');
  if (!t) throw new Error('document type purchaseOrder is not loaded');
  return t;
}

/** A quantity entered as qty (small units) or big/mid/small with the product's pack sizes. */
export function lineQty(l: { qty?: number | null; big?: number | null; mid?: number | null; small?: number | null }, p: Row, where: Record<string, unknown>): number | undefined {
  if (l.qty != null) return l.qty;
  if (l.big == null && l.mid == null && l.small == null) return undefined;
  const bigQty = Number(p.bigQty);
  const midQty = Number(p.midQty);
  // A big or mid count for a product without that pack cannot be turned into small units.
  if (l.big && (!(bigQty > 1) || !p.unitBig)) throw bizError('PRODUCT_BIG_QTY_4002', {}, { ...where, productCode: String(p.code), big: l.big, bigQty, unitBig: text(p.unitBig) });
  if (l.mid && (!(midQty > 1) || !p.unitMid)) throw bizError('PRODUCT_MID_QTY_4003', {}, { ...where, productCode: String(p.code), mid: l.mid, midQty, unitMid: text(p.unitMid) });
  // With both packs, the mid pack must divide the big one for a mid count to mean anything.
  if (l.mid && l.big && bigQty % midQty !== 0) throw bizError('PRODUCT_MID_QTY_4003', {}, { ...where, productCode: String(p.code), mid: l.mid, midQty, bigQty });
  return toSmallUnits({ big: l.big, mid: l.mid, small: l.small }, { bigQty, midQty });
}


/** A purchase order line as `get` shows it (engine fields + the definition's product columns). */
export interface OrderLineView {
  id: number; lineNo: number; productId: number; productCode: string; productName: string; specification: string | null;
  unitBig: string | null; unitMid: string | null; unitSmall: string | null; bigQty: number; midQty: number;
  qty: number; price: string; amount: string; receivedQty: number; openQty: number; remark: string | null;
}

export interface OrderView {
  id: number; docNo: string; status: string; statusText: string; version: number;
  supplierId: number; supplierName: string; currencyId: number; warehouseId: number; warehouseName: string; companyRiseId: number | null;
  remark: string | null; exchangeRate: string; orderDate: string; expectedDate: string | null; currencyCode: string; lineCount: number; totalQty: number; totalAmount: string;
  lines: OrderLineView[];
}

/** One order with its lines (quantities in big/mid/small, received and open quantities). */
export async function getOrder(ctx: CallContext, id: number): Promise<OrderView> {
  return (await purchaseOrders(ctx).get(ctx, id)) as unknown as OrderView;
}

/** purchaseOrderAgain: a new draft with the old order's supplier, warehouse, currency, title and lines. */
export async function copyOrder(ctx: CallContext, id: number) {
  const old = await getOrder(ctx, id);
  return purchaseOrders(ctx).save(ctx, {
    supplierId: old.supplierId, currencyId: old.currencyId, warehouseId: old.warehouseId, companyRiseId: old.companyRiseId, remark: old.remark,
    lines: old.lines.map((l) => ({ productId: l.productId, qty: l.qty, price: l.price, remark: l.remark })),
  }, { copiedFromId: id });
}

/** A trade document's line as sent: a quantity in small units, or in big/mid/small packs. */
export interface PackLine { qty?: unknown; big?: unknown; mid?: unknown; small?: unknown }

/**
 * The one rule of an order line's product and quantity (purchase and sales orders): a locked product is
 * refused at once, a stopped one with the document's own code; the quantity, typed in small units or in
 * packs, must be there, above 0 and within the ledger's range. Field errors go to `err`; undefined then.
 */
export function tradeLineQty(
  l: Row, sent: PackLine, p: Row | undefined, where: { line: number; productId: number },
  stopped: (code: string) => ApiError, err: (field: string, message: string) => void,
): number | undefined {
  if (!p) { err('productId', '商品不存在'); return undefined; }
  if (Number(p.locked) === 1) throw bizError('PRODUCT_LOCK_4006', {}, { ...where, productCode: String(p.code) });
  if (p.status === 'stopped') throw stopped(String(p.code));
  const qty = lineQty({ qty: l.qty as number | null, big: sent.big as number | null, mid: sent.mid as number | null, small: sent.small as number | null }, p, where);
  if (qty === undefined) { err('qty', sent.qty == null && sent.big == null && sent.mid == null && sent.small == null ? '数量不能为空' : '数量超出范围'); return undefined; }
  if (qty <= 0) { err('qty', '数量必须大于 0'); return undefined; }
  if (qty > MAX_MOVE_QTY) { err('qty', '数量超出范围'); return undefined; }
  return qty;
}
