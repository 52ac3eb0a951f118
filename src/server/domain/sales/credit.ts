// Red (credit) invoices (红字发票, issue 15): a separate document linked to the posted sales invoice it
// reverses, with a reason as Chinese practice requires:
//   开票有误 (wrong)     — reverses the whole invoice: every line in full, only while nothing is credited yet;
//   销售退回 (return)    — part of the quantities (amount = qty × the invoice's price; the last of a line
//                          takes exactly what is left, so a line credited in parts ends at 0.00);
//   销售折让 (allowance) — an amount per line, no quantity.
// Never more than the original less earlier credits: per invoice line one conditional UPDATE
// (credited_qty + q ≤ qty and credited_amount + a ≤ amount) in the posting transaction
// (INVOICE_QTY_ERROR_4026). Posting reduces the original's receivable: an allocation row of kind
// `credit` against its open item (payment_id = −credit id: no receipt is involved). A credit over what is
// still open (receipts settled the invoice, fully or partly) is accepted: that much of the receipts'
// allocations is released (ledger.ts releaseToAdvance) and becomes the client's advance (预收) — a credit
// balance, usable on later invoices or refunded.
// Returned goods (开票有误 and 销售退回) give their invoice stock back. Cancelling a posted credit appends the
// reversing allocation row and undoes the rest.
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import type { CallContext } from '../../catalog/context.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import type { SaveRun, TransitionRun } from '../../documents/definition.ts';
import { bizError, validationError, type FieldError } from '../../http/errors.ts';
import { releaseOverOpen, toBase } from '../finance/ledger.ts';
import { moneyText, text, today, type Row } from '../procurement/common.ts';
import { applyInvoiceStock, movesOf } from '../procurement/invoice-stock.ts';
import { taxOf } from './invoice.ts';
import { TypedTenant } from '../../db/typed.ts';

export const SC_TITLE = '红字发票';
export const SC_PREFIX = 'HZ';
export const CREDIT_REASONS = { wrong: '开票有误', return: '销售退回', allowance: '销售折让' } as const;
export type CreditReason = keyof typeof CREDIT_REASONS;
const INVOICE_STATUS: Record<string, string> = { draft: '草稿', posted: '已过账', cancelled: '已作废' };
/** Returns with goods received (partly, fully, or closed short after a part): what they received can be credited. */
const CREDITABLE_RETURN = ['receiving', 'received', 'closed'];

async function invoiceOf(untypedTenant: Tenant, id: number): Promise<Row | undefined> {
  const tenant = TypedTenant.of(untypedTenant);
  return await tenant.select('salesInvoice').select(['id', 'docNo', 'status', 'clientId', 'currencyId', 'exchangeRate', 'totalAmount', 'creditedAmount'])
    .where('id', '=', id).executeTakeFirst();
}

async function invoiceLines(untypedTenant: Tenant, invoiceId: number): Promise<Row[]> {
  const tenant = TypedTenant.of(untypedTenant);
  return await tenant.select('salesInvoiceLine')
    .innerJoin('product', (j) => j.onRef('product.id', '=', 'salesInvoiceLine.productId').onRef('product.companyId', '=', 'salesInvoiceLine.companyId'))
    .select(['salesInvoiceLine.id', 'salesInvoiceLine.lineNo', 'salesInvoiceLine.productId', 'salesInvoiceLine.qty', 'salesInvoiceLine.price', 'salesInvoiceLine.taxRate',
      'salesInvoiceLine.amount', 'salesInvoiceLine.creditedQty', 'salesInvoiceLine.creditedAmount', 'product.code'])
    .where('salesInvoiceLine.invoiceId', '=', invoiceId).orderBy('salesInvoiceLine.lineNo').execute();
}

function overCredited(line: number, docNo: string, il: Row, qty: number | string, byAmount: boolean) {
  const invoiced = byAmount ? moneyText(il.amount) : Number(il.qty);
  const credited = byAmount ? moneyText(il.creditedAmount ?? 0) : Number(il.creditedQty ?? 0);
  const left = byAmount ? moneyText(Number(il.amount) - Number(il.creditedAmount ?? 0)) : Number(il.qty) - Number(il.creditedQty ?? 0);
  return bizError('INVOICE_QTY_ERROR_4026', { line, code: String(il.code), docNo, invoiced, credited, qty, left }, { line, invoiceLineId: Number(il.id), productCode: String(il.code), left });
}

/** 开票有误 reverses all of the invoice: its lines come in by themselves (any lines sent are replaced). */
export async function prepareCredit(ctx: CallContext, input: Row): Promise<void> {
  if (input.reason !== 'wrong' || !Number.isSafeInteger(input.invoiceId) || Number(input.invoiceId) <= 0) return;
  const lines = await invoiceLines(ctx.tenant, Number(input.invoiceId));
  input.lines = lines.map((l) => ({ invoiceLineId: Number(l.id), qty: Number(l.qty) }));
}

/** The engine's validate hook: the original invoice posted, each line within what is left to credit, the totals. */
export async function checkCredit(run: SaveRun): Promise<void> {
  const { ctx, header, lines: parsed } = run;
  const tenant = TypedTenant.of(ctx.tenant);
  const inv = await invoiceOf(ctx.tenant, Number(header.invoiceId));
  if (!inv) throw validationError([{ field: 'invoiceId', message: '原销售发票不存在' }]);
  if (inv.status !== 'posted') throw bizError('SALES_INVOICE_CREDIT_4027', { docNo: String(inv.docNo), status: INVOICE_STATUS[String(inv.status)] ?? String(inv.status) }, { invoiceId: Number(inv.id) });
  const reason = String(header.reason) as CreditReason;
  const docNo = String(inv.docNo);
  const all = new Map((await invoiceLines(ctx.tenant, Number(inv.id))).map((l) => [Number(l.id), l]));
  if (reason === 'wrong' && Number(inv.creditedAmount ?? 0) > 0) {
    throw validationError([{ field: 'reason', message: `销售发票 ${docNo} 已部分冲红 ${moneyText(inv.creditedAmount)}，不能再按“开票有误”整张冲红，请按“销售退回”或“销售折让”冲红余下部分` }]);
  }
  const errors: FieldError[] = [];
  const seen = new Set<number>();
  parsed.forEach((l, i) => {
    const err = (f: string, message: string) => errors.push({ field: `lines.${i}.${f}`, message: `第 ${i + 1} 行：${message}` });
    const il = all.get(Number(l.invoiceLineId));
    if (!il) { err('invoiceLineId', `不是销售发票 ${docNo} 的明细`); return; }
    if (seen.has(Number(il.id))) { err('invoiceLineId', `原发票第 ${Number(il.lineNo)} 行重复，请合并为一行`); return; }
    seen.add(Number(il.id));
    const leftQty = Number(il.qty) - Number(il.creditedQty ?? 0);
    const leftAmount = Number(il.amount) - Number(il.creditedAmount ?? 0);
    let qty = 0;
    let amount: number;
    if (reason === 'allowance') {
      if (l.amount == null || Number(l.amount) <= 0) { err('amount', '折让金额必须大于 0'); return; }
      amount = Number(l.amount);
      if (amount > leftAmount) throw overCredited(i + 1, docNo, il, moneyText(amount), true);
    } else {
      qty = reason === 'wrong' ? leftQty : Number(l.qty ?? 0);
      if (!(qty > 0)) { err('qty', '冲红数量必须大于 0'); return; }
      if (qty > leftQty) throw overCredited(i + 1, docNo, il, qty, false);
      // its share of what is left of the line's amount (the last of it takes exactly the rest): what the
      // screen shows as 冲红数量 is typed (creditable lines' unitAmount), so preview and posting agree
      amount = creditShare(leftAmount, leftQty, qty);
    }
    Object.assign(l, { productId: Number(il.productId), qty, amount, price: Number(il.price), taxRate: Number(il.taxRate ?? 0), taxAmount: taxOf(amount, Number(il.taxRate ?? 0)) });
  });
  if (errors.length) throw validationError(errors.slice(0, 200));
  if (reason === 'wrong' && parsed.length !== all.size) throw validationError([{ field: 'lines', message: '“开票有误”须整张冲红：明细应为原发票的全部行' }]);
  const totalAmount = parsed.reduce((s, l) => s + Number(l.amount), 0);
  Object.assign(header, {
    clientId: Number(inv.clientId), currencyId: Number(inv.currencyId), exchangeRate: Number(inv.exchangeRate), creditDate: header.creditDate ?? today(ctx),
    lineCount: parsed.length, totalQty: parsed.reduce((s, l) => s + Number(l.qty), 0), totalAmount, taxAmount: parsed.reduce((s, l) => s + Number(l.taxAmount), 0),
  });
  if (header.returnId != null) {
    const ret = await tenant.select('salesReturn').select(['docNo', 'clientId', 'status']).where('id', '=', Number(header.returnId)).executeTakeFirst();
    if (!ret) throw validationError([{ field: 'returnId', message: '销售退货单不存在' }]);
    if (Number(ret.clientId) !== Number(inv.clientId)) throw validationError([{ field: 'returnId', message: `销售退货单 ${String(ret.docNo)} 与销售发票 ${docNo} 不是同一客户` }]);
    if (reason !== 'return') throw validationError([{ field: 'reason', message: `由销售退货单 ${String(ret.docNo)} 开具的红字发票，红冲原因应为“销售退回”` }]);
    if (!CREDITABLE_RETURN.includes(String(ret.status))) throw validationError([{ field: 'returnId', message: `销售退货单 ${String(ret.docNo)} 尚未收货，不能开红字发票` }]);
    // only what the warehouse received of it (less earlier red invoices of the return): a return closed short credits no more
    const allowed = await returnAllowance(ctx.tenant, Number(header.returnId), inv);
    parsed.forEach((l, i) => {
      const max = allowed.get(Number(l.invoiceLineId)) ?? 0;
      if (Number(l.qty) > max) {
        errors.push({ field: `lines.${i}.qty`, message: `第 ${i + 1} 行：销售退货单 ${String(ret.docNo)} 已收货待冲红的数量为 ${max}，本次 ${Number(l.qty)} 超出` });
      }
    });
    if (errors.length) throw validationError(errors.slice(0, 200));
  }
  for (const f of ['clientId', 'currencyId']) run.verified.add(f);
}

const totalsOf = (doc: Row) => ({ totalQty: Number(doc.totalQty), totalAmount: moneyText(doc.totalAmount) });

/**
 * A red invoice of a sales return, posting: the return's row is claimed first (two red invoices of one
 * return post one after the other, on PostgreSQL too), then no order line may stand credited — by the
 * return's posted red invoices, this one already among them — beyond what the warehouse received. Each
 * draft was checked on save against the posted ones only; two drafts could each fit and together not.
 */
async function holdToReceived(untypedTenant: Tenant, returnId: number, now: string): Promise<void> {
  const tenant = TypedTenant.of(untypedTenant);
  const ret = await tenant.update('salesReturn').set({ updatedAt: now }).where('id', '=', returnId).returning(['docNo']).executeTakeFirst();
  if (!ret) throw validationError([{ field: 'returnId', message: '销售退货单不存在' }]);
  const received = new Map<number, number>();
  for (const r of await tenant.select('salesReturnLine').select(['orderLineId', 'receivedQty']).where('returnId', '=', returnId).execute()) {
    received.set(Number(r.orderLineId), (received.get(Number(r.orderLineId)) ?? 0) + Number(r.receivedQty ?? 0));
  }
  const credited = new Map<number, { qty: number; code: string }>();
  for (const c of await tenant.select('salesCreditLine')
    .innerJoin('salesCredit', (j) => j.onRef('salesCredit.id', '=', 'salesCreditLine.creditId').onRef('salesCredit.companyId', '=', 'salesCreditLine.companyId'))
    .innerJoin('salesInvoiceLine', (j) => j.onRef('salesInvoiceLine.id', '=', 'salesCreditLine.invoiceLineId').onRef('salesInvoiceLine.companyId', '=', 'salesCreditLine.companyId'))
    .innerJoin('product', (j) => j.onRef('product.id', '=', 'salesCreditLine.productId').onRef('product.companyId', '=', 'salesCreditLine.companyId'))
    .select(['salesInvoiceLine.orderLineId', 'salesCreditLine.qty', 'product.code'])
    .where('salesCredit.returnId', '=', returnId).where('salesCredit.status', '=', 'posted').execute()) {
    const k = Number(c.orderLineId);
    credited.set(k, { qty: (credited.get(k)?.qty ?? 0) + Number(c.qty), code: String(c.code) });
  }
  const over = [...credited].filter(([k, c]) => c.qty > (received.get(k) ?? 0));
  if (over.length) {
    throw validationError(over.map(([k, c]) => ({
      field: 'lines',
      message: `商品 ${c.code}：销售退货单 ${String(ret.docNo)} 已收货 ${received.get(k) ?? 0}，已过账的红字发票连同本单共冲红 ${c.qty}，超出（另一张红字发票已先过账）`,
    })));
  }
}

/** draft → posted: the original's lines and total credited, its receivable reduced, returned goods' invoice stock back. */
export async function postCredit(t: TransitionRun) {
  const { tenant: untypedTenant, db, ctx } = t;
  const tenant = TypedTenant.of(untypedTenant);
  const id = Number(t.doc.id);
  const docNo = String(t.doc.docNo);
  const invoiceId = Number(t.doc.invoiceId);
  const total = Number(t.doc.totalAmount);
  const now = new Date().toISOString();
  if (t.doc.returnId != null) await holdToReceived(untypedTenant, Number(t.doc.returnId), now);
  // the original, claimed while posted (its cancellation takes the same row)
  const claimed = await tenant.update('salesInvoice').set({ creditedAmount: sql`coalesce(${sql.ref('creditedAmount')}, 0) + ${total}`, updatedAt: now })
    .where('id', '=', invoiceId).where('status', '=', 'posted').where(sql<boolean>`coalesce(${sql.ref('creditedAmount')}, 0) + ${total} <= ${sql.ref('totalAmount')}`)
    .returning(['docNo']).executeTakeFirst();
  const inv = await invoiceOf(untypedTenant, invoiceId);
  if (!claimed && inv?.status === 'posted') {
    throw validationError([{ field: 'lines', message: `销售发票 ${String(inv.docNo)} 价税合计 ${moneyText(inv.totalAmount)}，已冲红/折让 ${moneyText(inv.creditedAmount ?? 0)}，本次红字 ${moneyText(total)} 超出` }]);
  }
  if (!claimed) throw bizError('SALES_INVOICE_CREDIT_4027', { docNo: String(inv?.docNo ?? ''), status: INVOICE_STATUS[String(inv?.status)] ?? String(inv?.status) }, { invoiceId });
  const lines = await tenant.select('salesCreditLine').select(['lineNo', 'invoiceLineId', 'productId', 'qty', 'amount']).where('creditId', '=', id).orderBy('invoiceLineId').execute();
  for (const l of lines) {
    const q = Number(l.qty);
    const a = Number(l.amount);
    const ok = await tenant.update('salesInvoiceLine').set({
      creditedQty: sql`coalesce(${sql.ref('creditedQty')}, 0) + ${q}`, creditedAmount: sql`coalesce(${sql.ref('creditedAmount')}, 0) + ${a}`,
    }).where('id', '=', Number(l.invoiceLineId)).where('invoiceId', '=', invoiceId)
      .where(sql<boolean>`coalesce(${sql.ref('creditedQty')}, 0) + ${q} <= ${sql.ref('qty')} and coalesce(${sql.ref('creditedAmount')}, 0) + ${a} <= ${sql.ref('amount')}`)
      .returning('id').executeTakeFirst();
    if (!ok) {
      const il = (await invoiceLines(untypedTenant, invoiceId)).find((x) => Number(x.id) === Number(l.invoiceLineId));
      if (!il) throw bizError('COMMON_NOT_FOUND_4004', { entity: '原发票明细' });
      const byAmount = q === 0;
      throw overCredited(Number(l.lineNo), String(inv!.docNo), il, byAmount ? moneyText(a) : q, byAmount);
    }
  }
  // the receivable: the credit settles that much of the original's open item
  const item = await tenant.select('openItem').select(['id', 'exchangeRate', 'openAmount', 'docNo']).where('sourceType', '=', 'salesInvoice').where('sourceId', '=', invoiceId)
    .where('status', '!=', 'cancelled').executeTakeFirst();
  if (!item) throw new Error(`sales credit ${id}: invoice ${invoiceId} has no receivable`);
  // more than is still open (receipts settled the invoice): that much of the receipts becomes the client's advance
  await releaseOverOpen(untypedTenant, ctx.caller!.accountId, item, total, String(t.doc.creditDate), `${SC_TITLE} ${docNo}`);
  const taken = await tenant.update('openItem').set({
    allocated: sql`${sql.ref('allocated')} + ${total}`, openAmount: sql`${sql.ref('openAmount')} - ${total}`,
    status: sql`case when ${sql.ref('openAmount')} - ${total} = 0 then 'settled' else 'open' end`,
    updatedAt: now, updatedBy: ctx.caller!.accountId, version: sql`${sql.ref('version')} + 1`,
  }).where('id', '=', Number(item.id)).where(sql<boolean>`${sql.ref('allocated')} + ${total} <= ${sql.ref('amount')}`)
    .returning(['openAmount', 'amountBase', 'allocatedBase']).executeTakeFirst();
  if (!taken) {
    throw validationError([{ field: 'lines', message: `销售发票 ${String(item.docNo)} 的应收款未结金额为 ${moneyText(item.openAmount)}，本次红字 ${moneyText(total)} 超出：已收款核销的部分请先冲销收款单` }]);
  }
  const rate = Number(item.exchangeRate);
  const itemBase = Number(taken.openAmount) === 0 ? Number(taken.amountBase) - Number(taken.allocatedBase) : toBase(total, rate);
  await tenant.update('openItem').set({ allocatedBase: sql`${sql.ref('allocatedBase')} + ${itemBase}` }).where('id', '=', Number(item.id)).execute();
  const row = await tenant.insert('financeAllocation', {
    paymentId: -id, itemId: Number(item.id), allocDate: String(t.doc.creditDate), amount: total, paidAmount: total, itemRate: rate, payRate: rate,
    itemBase, paidBase: itemBase, exchangeDiff: 0, kind: 'credit', reversesId: null, createdAt: now, createdBy: ctx.caller!.accountId,
  }).returning('id').executeTakeFirstOrThrow();
  await tenant.update('salesCredit').set({ allocationId: Number(row.id) }).where('id', '=', id).execute();
  // returned goods: their invoice stock back
  const goods = lines.filter((l) => Number(l.qty) > 0);
  await applyInvoiceStock(db, tenant.companyId, ctx.caller!.accountId, 'credit', id, docNo,
    goods.map((l) => ({ productId: Number(l.productId), qty: Number(l.qty), amount: toBase(Number(l.amount), rate), docLine: Number(l.lineNo) })), { docType: 'salesCredit', mayGoNegative: true });
  return totalsOf(t.doc);
}

/** posted → cancelled: the reversing allocation row, the original's credited figures and the invoice stock back. */
export async function cancelCredit(t: TransitionRun) {
  if (t.from !== 'posted') return totalsOf(t.doc);
  const { tenant: untypedTenant, db, ctx } = t;
  const tenant = TypedTenant.of(untypedTenant);
  const id = Number(t.doc.id);
  const invoiceId = Number(t.doc.invoiceId);
  const total = Number(t.doc.totalAmount);
  const now = new Date().toISOString();
  const alloc = await tenant.select('financeAllocation').selectAll().where('id', '=', Number(t.doc.allocationId)).executeTakeFirst();
  if (!alloc) throw new Error(`sales credit ${id}: its allocation is missing`);
  const ok = await tenant.update('openItem').set({
    allocated: sql`${sql.ref('allocated')} - ${total}`, openAmount: sql`${sql.ref('openAmount')} + ${total}`, status: 'open',
    allocatedBase: sql`${sql.ref('allocatedBase')} - ${Number(alloc.itemBase)}`, updatedAt: now, updatedBy: ctx.caller!.accountId, version: sql`${sql.ref('version')} + 1`,
  }).where('id', '=', Number(alloc.itemId)).where('allocated', '>=', total).returning('id').executeTakeFirst();
  if (!ok) throw new Error(`sales credit ${id}: item ${String(alloc.itemId)} holds less than it`);
  await tenant.insert('financeAllocation', {
    paymentId: -id, itemId: Number(alloc.itemId), allocDate: today(ctx), amount: -total, paidAmount: -total, itemRate: Number(alloc.itemRate), payRate: Number(alloc.payRate),
    itemBase: -Number(alloc.itemBase), paidBase: -Number(alloc.paidBase), exchangeDiff: 0, kind: 'creditReverse', reversesId: Number(alloc.id), createdAt: now, createdBy: ctx.caller!.accountId,
  }).execute();
  for (const l of await tenant.select('salesCreditLine').select(['invoiceLineId', 'qty', 'amount']).where('creditId', '=', id).orderBy('invoiceLineId').execute()) {
    await tenant.update('salesInvoiceLine').set({ creditedQty: sql`${sql.ref('creditedQty')} - ${Number(l.qty)}`, creditedAmount: sql`${sql.ref('creditedAmount')} - ${Number(l.amount)}` })
      .where('id', '=', Number(l.invoiceLineId)).execute();
  }
  await tenant.update('salesInvoice').set({ creditedAmount: sql`${sql.ref('creditedAmount')} - ${total}`, updatedAt: now }).where('id', '=', invoiceId).execute();
  const moves = await movesOf(db, tenant.companyId, id, 'salesCredit', 'credit');
  await applyInvoiceStock(db, tenant.companyId, ctx.caller!.accountId, 'creditReverse', id, String(t.doc.docNo), moves.map((m) => ({ ...m, qty: -m.qty, amount: -m.amount })), { docType: 'salesCredit', mayGoNegative: true });
  return totalsOf(t.doc);
}

/** What `get` and the list show beyond the engine's columns: the original invoice and its lines' figures. */
export async function presentCredit(ctx: CallContext, docs: Row[], lines?: Row[]): Promise<void> {
  if (!docs.length) return;
  const tenant = TypedTenant.of(ctx.tenant);
  const invs = new Map((await tenant.select('salesInvoice').select(['id', 'docNo', 'totalAmount', 'creditedAmount', 'invoiceNo'])
    .where('id', 'in', [...new Set(docs.map((d) => Number(d.invoiceId)))]).execute()).map((r) => [Number(r.id), r]));
  const retIds = [...new Set(docs.filter((d) => d.returnId != null).map((d) => Number(d.returnId)))];
  const rets = new Map(retIds.length ? (await tenant.select('salesReturn').select(['id', 'docNo']).where('id', 'in', retIds).execute()).map((r) => [Number(r.id), String(r.docNo)]) : []);
  for (const d of docs) {
    const inv = invs.get(Number(d.invoiceId));
    d.returnDocNo = d.returnId != null ? (rets.get(Number(d.returnId)) ?? null) : null;
    Object.assign(d, {
      invoiceDocNo: text(inv?.docNo), invoiceTaxNo: text(inv?.invoiceNo), reasonText: CREDIT_REASONS[String(d.reason) as CreditReason] ?? null,
      invoiceTotal: inv ? moneyText(inv.totalAmount) : null, invoiceCredited: inv ? moneyText(inv.creditedAmount ?? 0) : null,
    });
  }
  if (!lines?.length) return;
  const ils = new Map((await tenant.select('salesInvoiceLine').select(['id', 'lineNo', 'qty', 'amount', 'creditedQty', 'creditedAmount'])
    .where('id', 'in', [...new Set(lines.map((l) => Number(l.invoiceLineId)))]).execute()).map((r) => [Number(r.id), r]));
  for (const l of lines) {
    const il = ils.get(Number(l.invoiceLineId));
    Object.assign(l, {
      invoiceLineNo: il ? Number(il.lineNo) : null, invoicedQty: il ? Number(il.qty) : null, invoicedAmount: il ? moneyText(il.amount) : null,
      creditedQty: il ? Number(il.creditedQty ?? 0) : null, creditedAmount: il ? moneyText(il.creditedAmount ?? 0) : null,
      leftQty: il ? Number(il.qty) - Number(il.creditedQty ?? 0) : null, leftAmount: il ? moneyText(Number(il.amount) - Number(il.creditedAmount ?? 0)) : null,
    });
  }
}

/**
 * What a sales return still asks to be credited, per order line: received by the warehouse less what
 * posted red invoices made from this return (returnId) already credited. Only for a return with
 * something received (部分收货 / 已收货 / 已关闭).
 */
async function returnLeft(untypedTenant: Tenant, returnId: number): Promise<{ ret: Row; left: Map<number, number> } | undefined> {
  const tenant = TypedTenant.of(untypedTenant);
  const ret = await tenant.select('salesReturn').select(['id', 'docNo', 'status', 'clientId', 'receivedQty']).where('id', '=', returnId).executeTakeFirst();
  if (!ret || !CREDITABLE_RETURN.includes(String(ret.status)) || !(Number(ret.receivedQty) > 0)) return ret ? { ret, left: new Map() } : undefined;
  const left = new Map<number, number>();
  for (const r of await tenant.select('salesReturnLine').select(['orderLineId', 'receivedQty']).where('returnId', '=', returnId).execute()) {
    if (Number(r.receivedQty) > 0) left.set(Number(r.orderLineId), (left.get(Number(r.orderLineId)) ?? 0) + Number(r.receivedQty));
  }
  const credited = await tenant.select('salesCreditLine')
    .innerJoin('salesCredit', (j) => j.onRef('salesCredit.id', '=', 'salesCreditLine.creditId').onRef('salesCredit.companyId', '=', 'salesCreditLine.companyId'))
    .innerJoin('salesInvoiceLine', (j) => j.onRef('salesInvoiceLine.id', '=', 'salesCreditLine.invoiceLineId').onRef('salesInvoiceLine.companyId', '=', 'salesCreditLine.companyId'))
    .select(['salesInvoiceLine.orderLineId', 'salesCreditLine.qty'])
    .where('salesCredit.returnId', '=', returnId).where('salesCredit.status', '=', 'posted').execute();
  for (const c of credited) {
    const k = Number(c.orderLineId);
    if (left.has(k)) left.set(k, Math.max(0, left.get(k)! - Number(c.qty)));
  }
  for (const [k, v] of left) if (v <= 0) left.delete(k);
  return { ret, left };
}

/** Invoice lines of posted invoices of the return's order lines, with what is left to credit. */
async function invoicedReturnLines(untypedTenant: Tenant, clientId: number, orderLineIds: number[]): Promise<Row[]> {
  const tenant = TypedTenant.of(untypedTenant);
  if (!orderLineIds.length) return [];
  return await tenant.select('salesInvoiceLine')
    .innerJoin('salesInvoice', (j) => j.onRef('salesInvoice.id', '=', 'salesInvoiceLine.invoiceId').onRef('salesInvoice.companyId', '=', 'salesInvoiceLine.companyId'))
    .select(['salesInvoiceLine.id', 'salesInvoiceLine.invoiceId', 'salesInvoiceLine.orderLineId', 'salesInvoiceLine.qty', 'salesInvoiceLine.creditedQty'])
    .where('salesInvoice.status', '=', 'posted').where('salesInvoice.clientId', '=', clientId)
    .where('salesInvoiceLine.orderLineId', 'in', orderLineIds).orderBy('salesInvoiceLine.invoiceId').orderBy('salesInvoiceLine.lineNo').execute();
}

/** Spread what the return asks over one invoice's lines (in line order): invoice line id → quantity. */
function spread(left: Map<number, number>, lines: Row[]): Map<number, number> {
  const rest = new Map(left);
  const out = new Map<number, number>();
  for (const l of lines) {
    const want = rest.get(Number(l.orderLineId)) ?? 0;
    const q = Math.min(want, Number(l.qty) - Number(l.creditedQty ?? 0));
    if (q > 0) {
      out.set(Number(l.id), q);
      rest.set(Number(l.orderLineId), want - q);
    }
  }
  return out;
}

/**
 * The posted invoice a received return is credited on (开红字发票 from the return): of the invoices that
 * invoiced the returned order lines with something left to credit, the one that can take the most of
 * what was received (the earliest on a tie); null when the returned lines were not invoiced.
 */
export async function returnCreditInvoice(tenant: Tenant, returnId: number): Promise<number | null> {
  const got = await returnLeft(tenant, returnId);
  if (!got || !got.left.size) return null;
  const rows = await invoicedReturnLines(tenant, Number(got.ret.clientId), [...got.left.keys()]);
  const byInvoice = new Map<number, Row[]>();
  for (const r of rows) byInvoice.set(Number(r.invoiceId), [...(byInvoice.get(Number(r.invoiceId)) ?? []), r]);
  let best: number | null = null;
  let most = 0;
  for (const [invoiceId, lines] of byInvoice) {
    const q = [...spread(got.left, lines).values()].reduce((s, v) => s + v, 0);
    if (q > most) { most = q; best = invoiceId; }
  }
  return best;
}

/** What a red invoice of `inv` made from a return may credit, per invoice line: the return's received and not yet credited, spread over the invoice's lines. */
async function returnAllowance(tenant: Tenant, returnId: number, inv: Row): Promise<Map<number, number>> {
  const got = await returnLeft(tenant, returnId);
  if (!got) throw bizError('COMMON_NOT_FOUND_4004', { entity: '销售退货单' });
  if (Number(got.ret.clientId) !== Number(inv.clientId)) throw validationError([{ field: 'returnId', message: `销售退货单 ${String(got.ret.docNo)} 与销售发票 ${String(inv.docNo)} 不是同一客户` }]);
  return spread(got.left, (await invoicedReturnLines(tenant, Number(inv.clientId), [...got.left.keys()])).filter((l) => Number(l.invoiceId) === Number(inv.id)));
}

/** One unit's worth of what is left of a line, as exact text (12 places), for the screen's preview. */
const unitOfLeft = (leftCents: number, leftQty: number) => (leftQty > 0 ? new Decimal(leftCents).div(100).div(leftQty).toDecimalPlaces(12, Decimal.ROUND_HALF_UP).toFixed(12) : null);

/** Cents of `qty` of a line with `leftQty` units and `leftCents` left: its share, half up; all of it when qty is all. */
export function creditShare(leftCents: number, leftQty: number, qty: number): number {
  if (qty >= leftQty) return leftCents;
  return new Decimal(leftCents).times(qty).div(leftQty).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
}

/** The lines of a posted invoice with what is left to credit (the new red invoice's choices). */
export async function creditableLines(ctx: CallContext, invoiceId: number, returnId?: number | null) {
  const inv = await invoiceOf(ctx.tenant, invoiceId);
  if (!inv) throw bizError('COMMON_NOT_FOUND_4004', { entity: '销售发票' });
  // from a sales return: only the returned lines, at what the warehouse received (less earlier red invoices of it)
  const fromReturn = returnId == null ? undefined : await returnAllowance(ctx.tenant, returnId, inv);
  const rows = await invoiceLines(ctx.tenant, invoiceId);
  const products = new Map((await TypedTenant.of(ctx.tenant).select('product').select(['id', 'name']).where('id', 'in', rows.length ? rows.map((r) => Number(r.productId)) : [0]).execute()).map((p) => [Number(p.id), String(p.name)]));
  return {
    invoiceId, docNo: String(inv.docNo), status: String(inv.status), clientId: Number(inv.clientId),
    list: rows.map((r) => ({
      id: Number(r.id), invoiceLineId: Number(r.id), lineNo: Number(r.lineNo), productId: Number(r.productId), productCode: String(r.code), productName: products.get(Number(r.productId)) ?? null,
      invoicedQty: Number(r.qty), invoicedAmount: moneyText(r.amount), leftQty: Number(r.qty) - Number(r.creditedQty ?? 0), leftAmount: moneyText(Number(r.amount) - Number(r.creditedAmount ?? 0)),
      qty: fromReturn ? (fromReturn.get(Number(r.id)) ?? 0) : Number(r.qty) - Number(r.creditedQty ?? 0),
      // what one unit of what is left is worth (12 places): 冲红金额 follows 冲红数量 on the screen as creditShare will
      unitAmount: unitOfLeft(Number(r.amount) - Number(r.creditedAmount ?? 0), Number(r.qty) - Number(r.creditedQty ?? 0)),
    })).filter((l) => (fromReturn ? l.qty > 0 : l.leftQty > 0 || Number(l.leftAmount) > 0)),
  };
}
