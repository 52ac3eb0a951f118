// 订单变更: changing a line of a confirmed (or partly shipped) sales order — its quantity, price or
// discount — with a reason (issue 13). A changed price keeps the bounds as a saved one does (list price ×
// limitMultiple / ceilingMultiple, the override right passes and is audited: ERPNext's "Update Items"
// bypassed them, erpnext #48403); a quantity never goes below what has shipped plus what outbound plans
// hold; more commits stock through the ledger (a whitelisted client's shortfall against expected
// arrivals, as at confirmation), less releases exactly the difference (and gives a presale plan back its
// share); a higher order total runs the credit check again. One transaction, claimed by the order's
// version: two clerks changing one order — the second is told to reload.
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { holdsRight } from '../../auth/caller.ts';
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import { bizError, validationError } from '../../http/errors.ts';
import { checkCredit, lockedClient, OVERRIDE_RIGHT, refuseUnsellable } from '../../documents/types/sales-order.ts';
import { lineQty } from '../procurement/purchase-order.ts';
import { TypedTenant } from '../../db/typed.ts';
import { MAX_MOVE_QTY, postMoves } from '../stock/ledger.ts';
import { decidePresale, returnPresale } from './presale-lines.ts';
import { checkBounds, netPrice, priceBounds } from './pricing.ts';

const CHANGEABLE = ['confirmed', 'partlyShipped'];
const STATUS_TEXT: Record<string, string> = { draft: '草稿', confirmed: '已确认', partlyShipped: '部分发货', shipped: '已发货', closed: '已关闭', cancelled: '已作废' };

export const ORDER_CHANGE_INPUT: InputSchema = {
  type: 'object', required: ['id', 'version', 'lineNo', 'reason'],
  properties: {
    id: { type: 'integer', minimum: 1, title: '销售订单' },
    version: { type: 'integer', minimum: 1, title: '版本' },
    lineNo: { type: 'integer', minimum: 1, maximum: 100_000, title: '行号' },
    qty: { type: ['integer', 'null'], minimum: 0, maximum: MAX_MOVE_QTY, title: '数量' },
    big: { type: ['integer', 'null'], minimum: 0, maximum: MAX_MOVE_QTY, title: '大包装' },
    mid: { type: ['integer', 'null'], minimum: 0, maximum: MAX_MOVE_QTY, title: '中包装' },
    small: { type: ['integer', 'null'], minimum: 0, maximum: MAX_MOVE_QTY, title: '小单位' },
    price: { type: ['string', 'number', 'null'], maxLength: 20, title: '单价' },
    discount: { type: ['string', 'number', 'null'], maxLength: 10, title: '折扣(%)' },
    reason: { type: 'string', minLength: 1, maxLength: 200, title: '变更原因' },
  },
};

export interface OrderChangeInput {
  id: number; version: number; lineNo: number; reason: string;
  qty?: number | null; big?: number | null; mid?: number | null; small?: number | null;
  price?: string | number | null; discount?: string | number | null;
}

/** A decimal typed by a clerk: at most `scale` places, within [0, max]; undefined when left empty. */
function decimalInput(v: unknown, field: string, title: string, scale: number, max: string): Decimal | undefined {
  if (v === undefined || v === null || String(v).trim() === '') return undefined;
  const text = String(v).trim();
  if (!/^\d+(\.\d+)?$/.test(text)) throw validationError([{ field, message: `${title}必须是不小于 0 的数字` }]);
  const d = new Decimal(text);
  if (d.decimalPlaces() > scale) throw validationError([{ field, message: `${title}最多 ${scale} 位小数` }]);
  if (d.greaterThan(max)) throw validationError([{ field, message: `${title}不能大于 ${max}` }]);
  return d;
}

const money = (cents: number) => new Decimal(cents).div(100).toFixed(2);
const price4 = (v: unknown) => new Decimal(Number(v ?? 0)).div(10_000).toFixed(4);

export async function changeOrderLine(ctx: CallContext, input: OrderChangeInput) {
  const caller = ctx.caller!;
  const reason = input.reason.trim();
  if (!reason) throw validationError([{ field: 'reason', message: '变更原因不能为空' }]);
  const newPrice = decimalInput(input.price, 'price', '单价', 4, '1000000000');
  const newDiscount = decimalInput(input.discount, 'discount', '折扣', 2, '100');
  // read before the transaction: on SQLite the transaction holds the one connection
  const bounds = await priceBounds(ctx);
  const now = new Date().toISOString();
  return ctx.transaction(async (db, untypedTenant) => {
    const tenant = TypedTenant.of(untypedTenant);
    // the order claimed by its version while it can be changed
    const doc = await tenant.update('salesOrder').set({ version: sql`${sql.ref('version')} + 1`, updatedAt: now, updatedBy: caller.accountId })
      .where('id', '=', input.id).where('version', '=', input.version).where('status', 'in', CHANGEABLE)
      .returningAll().executeTakeFirst();
    if (!doc) {
      const cur = await tenant.select('salesOrder').select(['id', 'docNo', 'status', 'version']).where('id', '=', input.id).executeTakeFirst();
      if (!cur) throw bizError('COMMON_NOT_FOUND_4004', { entity: '销售订单' });
      if (!CHANGEABLE.includes(String(cur.status))) {
        throw bizError('DOCUMENT_STATUS_4131', { doc: '销售订单', docNo: String(cur.docNo), status: STATUS_TEXT[String(cur.status)] ?? String(cur.status), action: '变更' }, { id: input.id, status: String(cur.status) });
      }
      throw bizError('COMMON_VERSION_CONFLICT_4009', { entity: `销售订单 ${String(cur.docNo)} ` }, { id: input.id, version: Number(cur.version) });
    }
    const line = await tenant.select('salesOrderLine')
      .innerJoin('product', (j) => j.onRef('product.id', '=', 'salesOrderLine.productId').onRef('product.companyId', '=', 'salesOrderLine.companyId'))
      .selectAll('salesOrderLine').select(['product.code', 'product.bigQty', 'product.midQty', 'product.unitBig', 'product.unitMid'])
      .where('salesOrderLine.orderId', '=', input.id).where('salesOrderLine.lineNo', '=', input.lineNo).executeTakeFirst();
    if (!line) throw validationError([{ field: 'lineNo', message: `销售订单 ${String(doc.docNo)} 没有第 ${input.lineNo} 行` }]);
    // a promotion's gift line follows the line that earned it (promotions.ts): not changed on its own
    if (line.giftOf != null) throw validationError([{ field: 'lineNo', message: `第 ${input.lineNo} 行是促销赠品（第 ${Number(line.giftOf)} 行的赠品），不能单独变更` }]);
    const where = { line: input.lineNo, productId: Number(line.productId) };
    const oldQty = Number(line.qty);
    const qty = lineQty({ qty: input.qty, big: input.big, mid: input.mid, small: input.small }, line, where) ?? oldQty;
    if (qty > MAX_MOVE_QTY) throw validationError([{ field: 'qty', message: '数量超出范围' }]);
    const shipped = Number(line.shippedQty);
    const planned = Number(line.plannedQty ?? 0);
    if (qty < shipped + planned) {
      throw bizError('SALES_CHANGE_QTY_4151', { docNo: String(doc.docNo), line: input.lineNo, code: String(line.code), qty, shipped, planned }, { ...where, qty, shipped, planned });
    }
    const oldPrice = new Decimal(Number(line.price)).div(10_000);
    const oldDiscount = new Decimal(Number(line.discount ?? 0)).div(100);
    const price = newPrice ?? oldPrice;
    const discount = newDiscount ?? oldDiscount;
    if (qty === oldQty && price.equals(oldPrice) && discount.equals(oldDiscount)) throw validationError([{ field: 'qty', message: '数量、单价和折扣都没有变化' }]);

    // a price written here keeps the bounds like a saved one
    const net = netPrice(price, discount.div(100));
    if (!price.equals(oldPrice) || !discount.equals(oldDiscount)) {
      const list = line.listPrice == null ? undefined : new Decimal(Number(line.listPrice)).div(10_000);
      const breach = checkBounds(input.lineNo, String(line.code), net, list, bounds);
      if (breach) {
        if (!holdsRight(caller, OVERRIDE_RIGHT)) {
          throw bizError(breach.kind === 'low' ? 'SALES_PRICE_LOW_4143' : 'SALES_PRICE_HIGH_4144',
            { line: breach.line, code: breach.code, price: breach.price, bound: breach.bound, list: breach.list, multiple: breach.multiple }, { ...where, field: 'price', breaches: [breach] });
        }
        await ctx.audit({
          action: 'override', entity: 'salesOrder', recordId: input.id, recordLabel: String(doc.docNo),
          changes: [{ field: `lines.${input.lineNo - 1}.price`, title: `第 ${input.lineNo} 行 ${breach.code} 成交价`, from: `${breach.kind === 'low' ? '最低售价' : '最高售价'} ${breach.bound}`, to: breach.price }],
        }, db);
      }
    }
    const amount = net.times(qty).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).times(100).toNumber();
    if (amount > Number.MAX_SAFE_INTEGER / 1000) throw validationError([{ field: 'qty', message: '金额超出范围' }]);

    // the reservation follows the quantity
    const delta = qty - oldQty;
    const warehouseId = Number(doc.warehouseId);
    let presaleQty = Number(line.presaleQty ?? 0);
    let presalePlanId = line.presalePlanId == null ? null : Number(line.presalePlanId);
    if (delta > 0) {
      await refuseUnsellable(untypedTenant, input.id);
      const presale = await decidePresale(db, untypedTenant, { clientId: Number(doc.clientId), warehouseId, orderDate: String(doc.orderDate) },
        [{ id: Number(line.id), productId: Number(line.productId), qty: delta }]);
      const part = presale.lines.get(Number(line.id));
      if (part) { presaleQty += part.presaleQty; presalePlanId = part.planId; }
      await postMoves(db, caller, [{ productId: Number(line.productId), warehouseId, committed: delta, kind: 'reserve', docType: 'salesOrder', docId: input.id, docLine: input.lineNo,
        ...(presale.allowance.has(Number(line.productId)) ? { allowance: presale.allowance.get(Number(line.productId)) } : {}) }]);
    } else if (delta < 0) {
      const back = Math.min(presaleQty, -delta);
      if (back > 0) await returnPresale(untypedTenant, [{ productId: line.productId, presalePlanId, presaleQty: back, reservedQty: back }]);
      presaleQty -= back;
      await postMoves(db, caller, [{ productId: Number(line.productId), warehouseId, committed: delta, kind: 'release', docType: 'salesOrder', docId: input.id, docLine: input.lineNo }]);
    }
    await tenant.update('salesOrderLine').set({
      qty, price: price.times(10_000).toNumber(), discount: discount.times(100).toNumber(), amount,
      reservedQty: Number(line.reservedQty) + delta, presaleQty, presalePlanId,
    }).where('id', '=', Number(line.id)).execute();

    // the header's totals, and the credit check when the order grew
    const sums = await tenant.select('salesOrderLine').select((eb) => [eb.fn.sum('qty').as('qty'), eb.fn.sum('amount').as('amount'), eb.fn.sum('reservedQty').as('reserved'),
      eb.fn.sum('shippedQty').as('shipped')]).where('orderId', '=', input.id).executeTakeFirstOrThrow();
    const totalAmount = Number(sums.amount ?? 0);
    const totalAmountBase = new Decimal(totalAmount).times(Number(doc.exchangeRate ?? 1_000_000)).div(1_000_000).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
    const totalQty = Number(sums.qty ?? 0);
    const allShipped = totalQty > 0 && Number(sums.shipped ?? 0) >= totalQty;
    const status = doc.status === 'partlyShipped' && allShipped ? 'shipped' : String(doc.status);
    const updated = await tenant.update('salesOrder').set({ totalQty, totalAmount, totalAmountBase, reservedQty: Number(sums.reserved ?? 0), status })
      .where('id', '=', input.id).returningAll().executeTakeFirstOrThrow();
    if (totalAmountBase > Number(doc.totalAmountBase ?? 0)) {
      const run = { ctx, db, tenant: untypedTenant, doc: updated };
      await checkCredit(run, await lockedClient(run));
    }

    const changes = [];
    if (qty !== oldQty) changes.push({ field: `lines.${input.lineNo - 1}.qty`, title: `第 ${input.lineNo} 行 ${String(line.code)} 数量`, from: String(oldQty), to: String(qty) });
    if (!price.equals(oldPrice)) changes.push({ field: `lines.${input.lineNo - 1}.price`, title: `第 ${input.lineNo} 行 ${String(line.code)} 单价`, from: price4(line.price), to: price.toFixed(4) });
    if (!discount.equals(oldDiscount)) changes.push({ field: `lines.${input.lineNo - 1}.discount`, title: `第 ${input.lineNo} 行 ${String(line.code)} 折扣(%)`, from: oldDiscount.toFixed(2), to: discount.toFixed(2) });
    changes.push({ field: 'totalAmount', title: '金额合计', from: money(Number(doc.totalAmount)), to: money(totalAmount) });
    changes.push({ field: 'reason', title: '变更原因', from: null, to: reason });
    await ctx.audit({ action: 'change', entity: 'salesOrder', recordId: input.id, recordLabel: String(doc.docNo), changes }, db);
    return { id: input.id, docNo: String(doc.docNo), version: Number(updated.version), status, lineNo: input.lineNo, qty, amount: money(amount), totalQty, totalAmount: money(totalAmount) };
  });
}
