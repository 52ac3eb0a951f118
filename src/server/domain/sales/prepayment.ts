// Prepayment invoices (预收款发票, issue 15): money asked of a client before delivery, from a sales order — an
// amount, or a percentage of the order's total. Posting writes a receivable (an open item of source
// `prepaymentInvoice`) that the receipt desk settles like any other. What receipts settled of it is the
// client's advance for that order; posting a normal sales invoice with lines of the order deducts that
// advance (预收款抵扣), never more than paid and not yet deducted, never more than the invoice:
//   - the prepayment's `deducted_amount` grows by one conditional UPDATE (deducted + d ≤ what receipts
//     settled of its open item), so two invoices posting at once never deduct the same money twice;
//   - the final invoice's receivable is reduced through the allocation ledger: a row of kind `prepayment`
//     (payment_id = −the prepayment's id) against its open item, and a line on the prepayment recording it.
// Accounting (where the issue is silent): the prepayment invoice is a receivable until paid; once paid the
// money is 预收账款 (an advance, a liability); the deduction moves it onto the final invoice's receivable.
// The unpaid rest of a prepayment stays open (the client still owes it) until it is paid or the prepayment
// is cancelled (作废, only while nothing is paid). Cancelling the final invoice gives the deduction back
// (a reversing row, kind `prepaymentReverse`); reversing a receipt whose money was deducted is refused.
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import type { CallContext } from '../../catalog/context.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import type { SaveRun, TransitionRun } from '../../documents/definition.ts';
import { validationError } from '../../http/errors.ts';
import { addOpenItem, cancelOpenItem, ITEM_STATUS, toBase } from '../finance/ledger.ts';
import { moneyText, text, today, type Row } from '../procurement/common.ts';
import { salesOrderOptions } from './order-options.ts';
import { TypedTenant } from '../../db/typed.ts';

export const PP_TITLE = '预收款发票';
export const PP_PREFIX = 'YS';
const OPEN_ORDER = ['confirmed', 'partlyShipped', 'shipped'];

async function orderOf(untypedTenant: Tenant, id: number) {
  const tenant = TypedTenant.of(untypedTenant);
  return await tenant.select('salesOrder').select(['id', 'docNo', 'status', 'clientId', 'currencyId', 'exchangeRate', 'totalAmount']).where('id', '=', id).executeTakeFirst();
}

/** What the other prepayments of an order ask (drafts and posted ones), less this one. */
async function askedOf(untypedTenant: Tenant, orderId: number, exceptId: number | undefined): Promise<number> {
  const tenant = TypedTenant.of(untypedTenant);
  let q = tenant.select('prepaymentInvoice').select(sql<number>`coalesce(sum(${sql.ref('totalAmount')}), 0)`.as('s')).where('orderId', '=', orderId).where('status', '=', 'posted');
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  return Number((await q.executeTakeFirst())?.s ?? 0);
}

/** The engine's validate hook: a confirmed order, the amount (typed, or the percentage of the order), never more than the order less other prepayments. */
export async function checkPrepayment(run: SaveRun): Promise<void> {
  const { ctx, header, lines, id } = run;
  lines.length = 0; // the lines are the deductions, written by the final invoices
  const order = await orderOf(ctx.tenant, Number(header.orderId));
  if (!order) throw validationError([{ field: 'orderId', message: '销售订单不存在' }]);
  if (!OPEN_ORDER.includes(String(order.status))) throw validationError([{ field: 'orderId', message: `销售订单 ${String(order.docNo)} 未确认、已关闭或已作废，不能开预收款发票` }]);
  const orderTotal = Number(order.totalAmount);
  header.mode ??= 'amount';
  let amount: number;
  if (header.mode === 'percent') {
    const p = Number(header.percent ?? 0);
    if (!(p > 0) || p > 10_000) throw validationError([{ field: 'percent', message: '预收比例必须大于 0 且不超过 100%' }]);
    amount = new Decimal(orderTotal).times(p).div(10_000).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
    header.amount = amount;
  } else {
    if (header.amount == null || !(Number(header.amount) > 0)) throw validationError([{ field: 'amount', message: '预收金额必须大于 0' }]);
    amount = Number(header.amount);
    header.percent = null;
  }
  if (!(amount > 0)) throw validationError([{ field: 'amount', message: '预收金额必须大于 0' }]);
  const asked = await askedOf(ctx.tenant, Number(order.id), id);
  if (asked + amount > orderTotal) {
    throw validationError([{ field: header.mode === 'percent' ? 'percent' : 'amount', message: `销售订单 ${String(order.docNo)} 金额 ${moneyText(orderTotal)}，已开预收款发票 ${moneyText(asked)}，本次 ${moneyText(amount)} 超出` }]);
  }
  const invoiceDate = String(header.invoiceDate ?? today(ctx));
  const dueDate = header.dueDate == null ? invoiceDate : String(header.dueDate);
  if (dueDate < invoiceDate) throw validationError([{ field: 'dueDate', message: '收款到期日不能早于开票日期' }]);
  Object.assign(header, {
    clientId: Number(order.clientId), currencyId: Number(order.currencyId), exchangeRate: Number(order.exchangeRate), orderAmount: orderTotal,
    totalAmount: amount, deductedAmount: 0, invoiceDate, dueDate,
  });
  for (const f of ['clientId', 'currencyId']) run.verified.add(f);
}

/** draft → posted: the receivable, after checking again (in the transaction) that the order is not over-asked. */
export async function postPrepayment(t: TransitionRun) {
  const { tenant: untypedTenant, ctx } = t;
  const tenant = TypedTenant.of(untypedTenant);
  const id = Number(t.doc.id);
  const orderId = Number(t.doc.orderId);
  const now = new Date().toISOString();
  // the order row, claimed: prepayments of one order post one after the other
  const order = await tenant.update('salesOrder').set({ updatedAt: now }).where('id', '=', orderId).where('status', 'in', OPEN_ORDER)
    .returning(['docNo', 'totalAmount']).executeTakeFirst();
  if (!order) throw validationError([{ field: 'orderId', message: '销售订单未确认、已关闭或已作废，不能过账预收款发票' }]);
  const asked = await askedOf(untypedTenant, orderId, id);
  const amount = Number(t.doc.totalAmount);
  if (asked + amount > Number(order.totalAmount)) {
    throw validationError([{ field: 'amount', message: `销售订单 ${String(order.docNo)} 金额 ${moneyText(order.totalAmount)}，已开预收款发票 ${moneyText(asked)}，本次 ${moneyText(amount)} 超出` }]);
  }
  await addOpenItem(untypedTenant, ctx.caller!.accountId, {
    side: 'receivable', partyType: 'client', partyId: Number(t.doc.clientId), sourceType: 'prepaymentInvoice', sourceId: id, docNo: String(t.doc.docNo),
    docDate: String(t.doc.invoiceDate), dueDate: String(t.doc.dueDate), currencyId: Number(t.doc.currencyId), exchangeRate: Number(t.doc.exchangeRate), amount,
  });
  return { totalAmount: moneyText(amount) };
}

/** draft / posted → cancelled: a posted one only while nothing of it is paid (cancelOpenItem refuses otherwise). */
export async function cancelPrepayment(t: TransitionRun) {
  if (t.from === 'posted') await cancelOpenItem(t.tenant, 'prepaymentInvoice', Number(t.doc.id), { doc: PP_TITLE, docNo: String(t.doc.docNo) });
  return { totalAmount: moneyText(t.doc.totalAmount) };
}

/** What `get` and the list show: the order, what receipts paid of it, what is deducted and what is left to deduct. */
export async function presentPrepayment(ctx: CallContext, docs: Row[], lines?: Row[]): Promise<void> {
  if (!docs.length) return;
  const tenant = TypedTenant.of(ctx.tenant);
  const orders = new Map((await tenant.select('salesOrder').select(['id', 'docNo']).where('id', 'in', [...new Set(docs.map((d) => Number(d.orderId)))]).execute())
    .map((r) => [Number(r.id), String(r.docNo)]));
  const items = new Map((await tenant.select('openItem').select(['id', 'sourceId', 'allocated', 'openAmount', 'status'])
    .where('sourceType', '=', 'prepaymentInvoice').where('sourceId', 'in', docs.map((d) => Number(d.id))).where('status', '!=', 'cancelled').execute())
    .map((r) => [Number(r.sourceId), r]));
  for (const d of docs) {
    const item = items.get(Number(d.id));
    const paid = item ? Number(item.allocated) : 0;
    Object.assign(d, {
      orderDocNo: text(orders.get(Number(d.orderId))), receivableId: item ? Number(item.id) : null, paidAmount: moneyText(paid), openAmount: item ? moneyText(item.openAmount) : null,
      // money fields come to present as text ("12.34")
      availableAmount: moneyText(paid - new Decimal(String(d.deductedAmount ?? 0)).times(100).toNumber()), receivableStatusText: item ? ITEM_STATUS[String(item.status) as keyof typeof ITEM_STATUS] ?? null : null,
    });
  }
  if (!lines?.length) return;
  const invs = new Map((await tenant.select('salesInvoice').select(['id', 'docNo']).where('id', 'in', [...new Set(lines.map((l) => Number(l.invoiceId)))]).execute())
    .map((r) => [Number(r.id), String(r.docNo)]));
  for (const l of lines) Object.assign(l, { invoiceDocNo: text(invs.get(Number(l.invoiceId))), route: `/market/invoiceDetail/${Number(l.invoiceId)}` });
}

/** Confirmed orders (for a new prepayment invoice): number, client, total. */
export const prepaymentOrderOptions = (ctx: CallContext, input: { keyword?: string | null }) => salesOrderOptions(ctx, input, OPEN_ORDER);

// ------------------------------------------------------------------------------ the final invoice's side

/**
 * Posting a sales invoice (inside its transaction): the paid, not yet deducted part of the posted
 * prepayments of its orders (same client and currency), oldest first, deducted up to the invoice's total.
 * Returns the amount deducted (cents).
 */
export async function deductPrepayments(untypedTenant: Tenant, accountId: number, inv: { id: number; docNo: string; clientId: number; currencyId: number; exchangeRate: number; total: number; date: string }): Promise<number> {
  const tenant = TypedTenant.of(untypedTenant);
  const orderIds = (await tenant.select('salesInvoiceLine').select('orderId').where('invoiceId', '=', inv.id).execute()).map((r) => Number(r.orderId)).filter((n) => n > 0);
  if (!orderIds.length || !(inv.total > 0)) return 0;
  const pps = await tenant.select('prepaymentInvoice').select(['id', 'docNo', 'exchangeRate', 'deductedAmount'])
    .where('orderId', 'in', [...new Set(orderIds)]).where('status', '=', 'posted').where('clientId', '=', inv.clientId).where('currencyId', '=', inv.currencyId)
    .orderBy('id').execute();
  if (!pps.length) return 0;
  const item = await tenant.select('openItem').select(['id']).where('sourceType', '=', 'salesInvoice').where('sourceId', '=', inv.id).where('status', '!=', 'cancelled')
    .executeTakeFirstOrThrow();
  const now = new Date().toISOString();
  let room = inv.total;
  let done = 0;
  for (const p of pps) {
    if (room <= 0) break;
    const ppItem = await tenant.select('openItem').select(['id', 'allocated']).where('sourceType', '=', 'prepaymentInvoice').where('sourceId', '=', Number(p.id))
      .where('status', '!=', 'cancelled').executeTakeFirst();
    if (!ppItem) continue;
    const d = Math.min(room, Number(ppItem.allocated) - Number(p.deductedAmount ?? 0));
    if (!(d > 0)) continue;
    // the claim: never more than what receipts settled of it, whoever deducts at the same time
    const claimed = await tenant.update('prepaymentInvoice').set({ deductedAmount: sql`${sql.ref('deductedAmount')} + ${d}`, updatedAt: now })
      .where('id', '=', Number(p.id)).where('status', '=', 'posted')
      .where(sql<boolean>`${sql.ref('deductedAmount')} + ${d} <= (select oi.allocated from open_item oi where oi.id = ${Number(ppItem.id)})`)
      .returning('id').executeTakeFirst();
    if (!claimed) continue; // taken by another invoice meanwhile: what is left is deducted next time
    const taken = await tenant.update('openItem').set({
      allocated: sql`${sql.ref('allocated')} + ${d}`, openAmount: sql`${sql.ref('openAmount')} - ${d}`,
      status: sql`case when ${sql.ref('openAmount')} - ${d} = 0 then 'settled' else 'open' end`,
      updatedAt: now, updatedBy: accountId, version: sql`${sql.ref('version')} + 1`,
    }).where('id', '=', Number(item.id)).where(sql<boolean>`${sql.ref('allocated')} + ${d} <= ${sql.ref('amount')}`)
      .returning(['openAmount', 'amountBase', 'allocatedBase']).executeTakeFirst();
    if (!taken) throw new Error(`sales invoice ${inv.id}: its receivable cannot take ${d}`);
    const itemBase = Number(taken.openAmount) === 0 ? Number(taken.amountBase) - Number(taken.allocatedBase) : toBase(d, inv.exchangeRate);
    await tenant.update('openItem').set({ allocatedBase: sql`${sql.ref('allocatedBase')} + ${itemBase}` }).where('id', '=', Number(item.id)).execute();
    const paidBase = toBase(d, Number(p.exchangeRate));
    const row = await tenant.insert('financeAllocation', {
      paymentId: -Number(p.id), itemId: Number(item.id), allocDate: inv.date, amount: d, paidAmount: d, itemRate: inv.exchangeRate, payRate: Number(p.exchangeRate),
      itemBase, paidBase, exchangeDiff: paidBase - itemBase, kind: 'prepayment', reversesId: null, createdAt: now, createdBy: accountId,
    }).returning('id').executeTakeFirstOrThrow();
    const last = await tenant.select('prepaymentInvoiceLine').select(sql<number>`coalesce(max(${sql.ref('lineNo')}), 0)`.as('n')).where('prepaymentId', '=', Number(p.id)).executeTakeFirst();
    await tenant.insert('prepaymentInvoiceLine', { prepaymentId: Number(p.id), lineNo: Number(last?.n ?? 0) + 1, invoiceId: inv.id, amount: d, allocationId: Number(row.id), deductDate: inv.date }).execute();
    room -= d;
    done += d;
  }
  if (done > 0) await tenant.update('salesInvoice').set({ prepaymentDeducted: done }).where('id', '=', inv.id).execute();
  return done;
}

/** Cancelling a sales invoice (inside its transaction, before its receivable is cancelled): its deductions given back. */
export async function undoDeductions(untypedTenant: Tenant, accountId: number, invoiceId: number, date: string): Promise<void> {
  const tenant = TypedTenant.of(untypedTenant);
  const rows = await tenant.select('prepaymentInvoiceLine').select(['id', 'prepaymentId', 'amount', 'allocationId']).where('invoiceId', '=', invoiceId).orderBy('id').execute();
  const now = new Date().toISOString();
  for (const r of rows) {
    const a = await tenant.select('financeAllocation').selectAll().where('id', '=', Number(r.allocationId)).executeTakeFirstOrThrow();
    const amount = Number(a.amount);
    const ok = await tenant.update('openItem').set({
      allocated: sql`${sql.ref('allocated')} - ${amount}`, openAmount: sql`${sql.ref('openAmount')} + ${amount}`, status: 'open',
      allocatedBase: sql`${sql.ref('allocatedBase')} - ${Number(a.itemBase)}`, updatedAt: now, updatedBy: accountId, version: sql`${sql.ref('version')} + 1`,
    }).where('id', '=', Number(a.itemId)).where('allocated', '>=', amount).returning('id').executeTakeFirst();
    if (!ok) throw new Error(`sales invoice ${invoiceId}: item ${String(a.itemId)} holds less than its deduction`);
    await tenant.insert('financeAllocation', {
      paymentId: Number(a.paymentId), itemId: Number(a.itemId), allocDate: date, amount: -amount, paidAmount: -amount, itemRate: Number(a.itemRate), payRate: Number(a.payRate),
      itemBase: -Number(a.itemBase), paidBase: -Number(a.paidBase), exchangeDiff: -Number(a.exchangeDiff), kind: 'prepaymentReverse', reversesId: Number(a.id), createdAt: now, createdBy: accountId,
    }).execute();
    await tenant.update('prepaymentInvoice').set({ deductedAmount: sql`${sql.ref('deductedAmount')} - ${amount}`, updatedAt: now }).where('id', '=', Number(r.prepaymentId)).execute();
    await tenant.delete('prepaymentInvoiceLine').where('id', '=', Number(r.id)).execute();
  }
  if (rows.length) await tenant.update('salesInvoice').set({ prepaymentDeducted: 0 }).where('id', '=', invoiceId).execute();
}
