// Proforma invoices (形式发票, issue 15): a printable offer made from a sales order before delivery, by
// quantity (order lines at the order's net price) or by amount (an amount per line, e.g. a deposit share).
// Never on the ledger: no receivable, no invoice stock, nothing claimed on the order — so proformas may
// exceed the order; `get` and the list then carry a warning (形式发票合计超过订单金额). draft → issued (出具) or
// cancelled; an issued proforma offers 转开正式发票: the normal invoice of the client, matched to what has
// been delivered by then.
import Decimal from 'decimal.js';
import type { CallContext } from '../../catalog/context.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import type { SaveRun } from '../../documents/definition.ts';
import { validationError, type FieldError } from '../../http/errors.ts';
import { moneyText, text, today, type Row } from '../procurement/common.ts';
import { taxOf } from './invoice.ts';
import { salesOrderOptions } from './order-options.ts';
import { TypedTenant } from '../../db/typed.ts';

export const PF_TITLE = '形式发票';
export const PF_PREFIX = 'PF';
const OPEN_ORDER = ['draft', 'confirmed', 'partlyShipped', 'shipped'];

const netPriceOf = (price: unknown, discount: unknown) =>
  new Decimal(String(price ?? 0)).times(new Decimal(10_000).minus(String(discount ?? 0))).div(10_000).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();

async function orderOf(untypedTenant: Tenant, id: number) {
  const tenant = TypedTenant.of(untypedTenant);
  return await tenant.select('salesOrder').select(['id', 'docNo', 'status', 'clientId', 'currencyId', 'companyRiseId', 'totalAmount']).where('id', '=', id).executeTakeFirst();
}

async function orderLines(untypedTenant: Tenant, orderId: number) {
  const tenant = TypedTenant.of(untypedTenant);
  return await tenant.select('salesOrderLine').select(['id', 'lineNo', 'productId', 'qty', 'price', 'discount', 'amount']).where('orderId', '=', orderId).orderBy('lineNo').execute();
}

/** A proforma made from an order without lines: all of the order's lines, by quantity. */
export async function prepareProforma(ctx: CallContext, input: Row): Promise<void> {
  if (input.id !== undefined || (input.lines !== undefined && input.lines !== null) || !Number.isSafeInteger(input.orderId) || Number(input.orderId) <= 0) return;
  input.lines = (await orderLines(ctx.tenant, Number(input.orderId))).map((l) => ({ orderLineId: Number(l.id), qty: Number(l.qty) }));
}

/** The engine's validate hook: the order, each line one of its lines, the amounts (by quantity or typed), the totals. */
export async function checkProforma(run: SaveRun): Promise<void> {
  const { ctx, header, lines: parsed } = run;
  const tenant = ctx.tenant;
  const order = await orderOf(tenant, Number(header.orderId));
  if (!order) throw validationError([{ field: 'orderId', message: '销售订单不存在' }]);
  if (!OPEN_ORDER.includes(String(order.status))) throw validationError([{ field: 'orderId', message: `销售订单 ${String(order.docNo)} 已关闭或作废，不能开形式发票` }]);
  const byAmount = header.mode === 'amount';
  const taxRate = Number(header.taxRate ?? 0);
  if (taxRate < 0 || taxRate > 10_000) throw validationError([{ field: 'taxRate', message: '税率必须在 0 到 100 之间' }]);
  const all = new Map((await orderLines(tenant, Number(order.id))).map((l) => [Number(l.id), l]));
  for (let i = parsed.length - 1; i >= 0; i--) {
    const l = parsed[i]!;
    if ((byAmount ? l.amount : l.qty) == null || Number(byAmount ? l.amount : l.qty) === 0) parsed.splice(i, 1);
  }
  if (!parsed.length) throw validationError([{ field: 'lines', message: byAmount ? '请至少为一行填写金额' : '请至少为一行填写数量' }]);
  const errors: FieldError[] = [];
  parsed.forEach((l, i) => {
    const err = (f: string, message: string) => errors.push({ field: `lines.${i}.${f}`, message: `第 ${i + 1} 行：${message}` });
    const ol = all.get(Number(l.orderLineId));
    if (!ol) { err('orderLineId', `不是销售订单 ${String(order.docNo)} 的明细`); return; }
    const price = netPriceOf(ol.price, ol.discount);
    let amount: number;
    if (byAmount) {
      amount = Number(l.amount);
      if (!(amount > 0)) { err('amount', '金额必须大于 0'); return; }
      l.qty = 0;
    } else {
      if (!(Number(l.qty) > 0)) { err('qty', '数量必须大于 0'); return; }
      amount = new Decimal(price).div(10_000).times(Number(l.qty)).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).times(100).toNumber();
    }
    Object.assign(l, { productId: Number(ol.productId), price, amount, taxAmount: taxOf(amount, taxRate) });
  });
  if (errors.length) throw validationError(errors.slice(0, 200));
  Object.assign(header, {
    clientId: Number(order.clientId), currencyId: Number(order.currencyId), companyRiseId: header.companyRiseId ?? order.companyRiseId ?? null, issueDate: header.issueDate ?? today(ctx), taxRate,
    lineCount: parsed.length, totalQty: parsed.reduce((s, l) => s + Number(l.qty), 0), totalAmount: parsed.reduce((s, l) => s + Number(l.amount), 0),
    taxAmount: parsed.reduce((s, l) => s + Number(l.taxAmount), 0), orderAmount: Number(order.totalAmount ?? 0),
  });
  for (const f of ['clientId', 'currencyId']) run.verified.add(f);
}

/** The warning: the order's proformas (not cancelled) together beyond the order's amount; per line beyond its quantity. */
export async function presentProforma(ctx: CallContext, docs: Row[], lines?: Row[]): Promise<void> {
  if (!docs.length) return;
  const tenant = TypedTenant.of(ctx.tenant);
  const orderIds = [...new Set(docs.map((d) => Number(d.orderId)))];
  const orders = new Map((await tenant.select('salesOrder').select(['id', 'docNo', 'totalAmount']).where('id', 'in', orderIds).execute()).map((o) => [Number(o.id), o]));
  const sums = new Map((await tenant.select('proformaInvoice').select(['orderId', (eb) => eb.fn.sum('totalAmount').as('s')])
    .where('orderId', 'in', orderIds).where('status', '!=', 'cancelled').groupBy('orderId').execute()).map((r) => [Number(r.orderId), Number(r.s ?? 0)]));
  // issued red proformas (形式发票红冲) withdraw part of them: the warning counts what is left
  const withdrawn = new Map((await tenant.select('proformaCredit').select(['orderId', (eb) => eb.fn.sum('totalAmount').as('s')])
    .where('orderId', 'in', orderIds).where('status', '=', 'confirmed').groupBy('orderId').execute()).map((r) => [Number(r.orderId), Number(r.s ?? 0)]));
  for (const d of docs) {
    const o = orders.get(Number(d.orderId));
    const all = (sums.get(Number(d.orderId)) ?? 0) - (withdrawn.get(Number(d.orderId)) ?? 0);
    const orderAmount = Number(o?.totalAmount ?? 0);
    Object.assign(d, {
      orderDocNo: text(o?.docNo), proformaTotal: moneyText(all),
      warning: o && all > orderAmount ? `销售订单 ${String(o.docNo)} 的形式发票合计 ${moneyText(all)} 已超过订单金额 ${moneyText(orderAmount)}` : null,
    });
  }
  if (!lines?.length) return;
  const ols = new Map((await tenant.select('salesOrderLine').select(['id', 'lineNo', 'qty', 'amount']).where('id', 'in', [...new Set(lines.map((l) => Number(l.orderLineId)))]).execute()).map((r) => [Number(r.id), r]));
  for (const l of lines) {
    const ol = ols.get(Number(l.orderLineId));
    Object.assign(l, { orderLineNo: ol ? Number(ol.lineNo) : null, orderQty: ol ? Number(ol.qty) : null, orderAmount: ol ? moneyText(ol.amount) : null });
  }
}

/** Orders a proforma may be made from (the new proforma's select), newest first. */
export const proformaOrderOptions = (ctx: CallContext, input: { keyword?: string | null }) => salesOrderOptions(ctx, input, OPEN_ORDER);

/** An order's lines for a new proforma (net price, amount). */
export async function proformaOrderLines(ctx: CallContext, orderId: number) {
  const tenant = TypedTenant.of(ctx.tenant);
  const rows = await tenant.select('salesOrderLine')
    .innerJoin('product', (j) => j.onRef('product.id', '=', 'salesOrderLine.productId').onRef('product.companyId', '=', 'salesOrderLine.companyId'))
    .select(['salesOrderLine.id', 'salesOrderLine.lineNo', 'salesOrderLine.productId', 'salesOrderLine.qty', 'salesOrderLine.price', 'salesOrderLine.discount', 'salesOrderLine.amount',
      'product.code', 'product.name'])
    .where('salesOrderLine.orderId', '=', orderId).orderBy('salesOrderLine.lineNo').execute();
  return {
    list: rows.map((r) => ({
      id: Number(r.id), orderLineId: Number(r.id), lineNo: Number(r.lineNo), productId: Number(r.productId), productCode: String(r.code), productName: String(r.name),
      orderQty: Number(r.qty), qty: Number(r.qty), price: new Decimal(netPriceOf(r.price, r.discount)).div(10_000).toFixed(4), orderAmount: moneyText(r.amount),
    })),
  };
}
