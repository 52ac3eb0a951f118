// Discount invoices (折扣发票, issue 15): an allowance (销售折让) granted after the fact, against one or several
// posted sales invoices of one client in one currency — one line per invoice with its amount. Never more than
// an invoice's total less what red and discount invoices already took (one conditional UPDATE per invoice on
// its credited amount, SALES_DISCOUNT_OVER_4029). Posting reduces each invoice's receivable through the
// allocation ledger (kind `discount`, payment_id = −the discount invoice's id); more than is still open (a
// receipt settled the invoice) is accepted, that much of the receipts becoming the client's advance
// (ledger.ts releaseToAdvance); cancelling appends the reversing rows (kind `discountReverse`).
import { sql } from 'kysely';
import type { CallContext } from '../../catalog/context.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import type { SaveRun, TransitionRun } from '../../documents/definition.ts';
import { bizError, validationError, type FieldError } from '../../http/errors.ts';
import { releaseOverOpen, toBase } from '../finance/ledger.ts';
import { moneyText, text, today, type Row } from '../procurement/common.ts';
import { taxOf } from './invoice.ts';
import { TypedTenant } from '../../db/typed.ts';

export const SD_TITLE = '折扣发票';
export const SD_PREFIX = 'ZK';
const INVOICE_STATUS: Record<string, string> = { draft: '草稿', posted: '已过账', cancelled: '已作废' };

async function invoicesOf(untypedTenant: Tenant, ids: number[]): Promise<Map<number, Row>> {
  const tenant = TypedTenant.of(untypedTenant);
  if (!ids.length) return new Map();
  const rows = await tenant.select('salesInvoice').select(['id', 'docNo', 'status', 'clientId', 'currencyId', 'exchangeRate', 'taxRate', 'totalAmount', 'creditedAmount'])
    .where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [Number(r.id), r]));
}

function over(line: number, inv: Row, amount: number) {
  const total = Number(inv.totalAmount);
  const credited = Number(inv.creditedAmount ?? 0);
  return bizError('SALES_DISCOUNT_OVER_4029', { line, docNo: String(inv.docNo), total: moneyText(total), credited: moneyText(credited), amount: moneyText(amount), left: moneyText(total - credited) },
    { line, invoiceId: Number(inv.id), left: moneyText(total - credited) });
}

/** The engine's validate hook: posted invoices of the client in one currency, each once, within what is left. */
export async function checkDiscount(run: SaveRun): Promise<void> {
  const { ctx, header, lines: parsed } = run;
  const tenant = TypedTenant.of(ctx.tenant);
  const clientId = Number(header.clientId);
  const client = await tenant.select('client').select(['id', 'name']).where('id', '=', clientId).executeTakeFirst();
  if (!client) throw validationError([{ field: 'clientId', message: '客户不存在' }]);
  // the invoices brought in without an amount are not part of it (the screen lists every open one)
  for (let i = parsed.length - 1; i >= 0; i--) if (parsed[i]!.amount == null || Number(parsed[i]!.amount) === 0) parsed.splice(i, 1);
  if (!parsed.length) throw validationError([{ field: 'lines', message: '请至少为一张销售发票填写折让金额' }]);
  const invs = await invoicesOf(ctx.tenant, [...new Set(parsed.map((l) => Number(l.invoiceId)))]);
  const errors: FieldError[] = [];
  const seen = new Set<number>();
  let currencyId: number | undefined;
  let rate = 0;
  parsed.forEach((l, i) => {
    const err = (f: string, message: string) => errors.push({ field: `lines.${i}.${f}`, message: `第 ${i + 1} 行：${message}` });
    const inv = invs.get(Number(l.invoiceId));
    if (!inv || Number(inv.clientId) !== clientId) { err('invoiceId', `不是客户“${String(client.name)}”的销售发票`); return; }
    if (inv.status !== 'posted') { err('invoiceId', `销售发票 ${String(inv.docNo)} 当前状态为“${INVOICE_STATUS[String(inv.status)] ?? String(inv.status)}”，只能对已过账的发票折让`); return; }
    if (seen.has(Number(inv.id))) { err('invoiceId', `销售发票 ${String(inv.docNo)} 重复，请合并为一行`); return; }
    seen.add(Number(inv.id));
    currencyId ??= Number(inv.currencyId);
    rate ||= Number(inv.exchangeRate);
    if (Number(inv.currencyId) !== currencyId) { err('invoiceId', `销售发票 ${String(inv.docNo)} 的币种与第 1 行的发票不同：一张折扣发票只含一种币种`); return; }
    const amount = Number(l.amount ?? 0);
    if (!(amount > 0)) { err('amount', '折让金额必须大于 0'); return; }
    if (amount > Number(inv.totalAmount) - Number(inv.creditedAmount ?? 0)) throw over(i + 1, inv, amount);
    const taxRate = Number(inv.taxRate ?? 0);
    Object.assign(l, { taxRate, taxAmount: taxOf(amount, taxRate) });
  });
  if (errors.length) throw validationError(errors.slice(0, 200));
  const totalAmount = parsed.reduce((s, l) => s + Number(l.amount), 0);
  Object.assign(header, {
    currencyId: currencyId ?? null, exchangeRate: rate || null, discountDate: header.discountDate ?? today(ctx), lineCount: parsed.length, totalAmount,
    taxAmount: parsed.reduce((s, l) => s + Number(l.taxAmount), 0),
  });
  for (const f of ['clientId', 'currencyId']) run.verified.add(f);
}

const totalsOf = (doc: Row) => ({ totalAmount: moneyText(doc.totalAmount), lineCount: Number(doc.lineCount) });

/** draft → posted: each invoice's credited amount, its receivable reduced by the line's amount. */
export async function postDiscount(t: TransitionRun) {
  const { tenant: untypedTenant, ctx } = t;
  const tenant = TypedTenant.of(untypedTenant);
  const id = Number(t.doc.id);
  const now = new Date().toISOString();
  const lines = await tenant.select('salesDiscountLine').select(['id', 'lineNo', 'invoiceId', 'amount']).where('discountId', '=', id).orderBy('invoiceId').execute();
  for (const l of lines) {
    const a = Number(l.amount);
    const invoiceId = Number(l.invoiceId);
    const claimed = await tenant.update('salesInvoice').set({ creditedAmount: sql`coalesce(${sql.ref('creditedAmount')}, 0) + ${a}`, updatedAt: now })
      .where('id', '=', invoiceId).where('status', '=', 'posted').where(sql<boolean>`coalesce(${sql.ref('creditedAmount')}, 0) + ${a} <= ${sql.ref('totalAmount')}`)
      .returning('id').executeTakeFirst();
    if (!claimed) {
      const inv = (await invoicesOf(untypedTenant, [invoiceId])).get(invoiceId);
      if (!inv) throw bizError('COMMON_NOT_FOUND_4004', { entity: '销售发票' });
      if (inv.status !== 'posted') throw bizError('SALES_INVOICE_CREDIT_4027', { docNo: String(inv.docNo), status: INVOICE_STATUS[String(inv.status)] ?? String(inv.status) }, { invoiceId });
      throw over(Number(l.lineNo), inv, a);
    }
    const item = await tenant.select('openItem').select(['id', 'exchangeRate', 'openAmount', 'docNo']).where('sourceType', '=', 'salesInvoice').where('sourceId', '=', invoiceId)
      .where('status', '!=', 'cancelled').executeTakeFirst();
    if (!item) throw new Error(`sales discount ${id}: invoice ${invoiceId} has no receivable`);
    // more than is still open (receipts settled the invoice): that much of the receipts becomes the client's advance
    await releaseOverOpen(untypedTenant, ctx.caller!.accountId, item, a, String(t.doc.discountDate), `第 ${Number(l.lineNo)} 行：${SD_TITLE} ${String(t.doc.docNo)}`);
    const taken = await tenant.update('openItem').set({
      allocated: sql`${sql.ref('allocated')} + ${a}`, openAmount: sql`${sql.ref('openAmount')} - ${a}`,
      status: sql`case when ${sql.ref('openAmount')} - ${a} = 0 then 'settled' else 'open' end`,
      updatedAt: now, updatedBy: ctx.caller!.accountId, version: sql`${sql.ref('version')} + 1`,
    }).where('id', '=', Number(item.id)).where(sql<boolean>`${sql.ref('allocated')} + ${a} <= ${sql.ref('amount')}`)
      .returning(['openAmount', 'amountBase', 'allocatedBase']).executeTakeFirst();
    if (!taken) {
      throw validationError([{ field: `lines.${Number(l.lineNo) - 1}.amount`, message: `第 ${Number(l.lineNo)} 行：销售发票 ${String(item.docNo)} 的应收款未结金额为 ${moneyText(item.openAmount)}，本次折让 ${moneyText(a)} 超出：已收款核销的部分请先冲销收款单` }]);
    }
    const rate = Number(item.exchangeRate);
    const itemBase = Number(taken.openAmount) === 0 ? Number(taken.amountBase) - Number(taken.allocatedBase) : toBase(a, rate);
    await tenant.update('openItem').set({ allocatedBase: sql`${sql.ref('allocatedBase')} + ${itemBase}` }).where('id', '=', Number(item.id)).execute();
    const row = await tenant.insert('financeAllocation', {
      paymentId: -id, itemId: Number(item.id), allocDate: String(t.doc.discountDate), amount: a, paidAmount: a, itemRate: rate, payRate: rate,
      itemBase, paidBase: itemBase, exchangeDiff: 0, kind: 'discount', reversesId: null, createdAt: now, createdBy: ctx.caller!.accountId,
    }).returning('id').executeTakeFirstOrThrow();
    await tenant.update('salesDiscountLine').set({ allocationId: Number(row.id) }).where('id', '=', Number(l.id)).execute();
  }
  return totalsOf(t.doc);
}

/** posted → cancelled: the reversing allocation rows and the invoices' credited amounts back. */
export async function cancelDiscount(t: TransitionRun) {
  if (t.from !== 'posted') return totalsOf(t.doc);
  const { tenant: untypedTenant, ctx } = t;
  const tenant = TypedTenant.of(untypedTenant);
  const id = Number(t.doc.id);
  const now = new Date().toISOString();
  const lines = await tenant.select('salesDiscountLine').select(['invoiceId', 'amount', 'allocationId']).where('discountId', '=', id).orderBy('invoiceId').execute();
  for (const l of lines) {
    const a = Number(l.amount);
    const alloc = await tenant.select('financeAllocation').selectAll().where('id', '=', Number(l.allocationId)).executeTakeFirst();
    if (!alloc) throw new Error(`sales discount ${id}: an allocation is missing`);
    const ok = await tenant.update('openItem').set({
      allocated: sql`${sql.ref('allocated')} - ${a}`, openAmount: sql`${sql.ref('openAmount')} + ${a}`, status: 'open',
      allocatedBase: sql`${sql.ref('allocatedBase')} - ${Number(alloc.itemBase)}`, updatedAt: now, updatedBy: ctx.caller!.accountId, version: sql`${sql.ref('version')} + 1`,
    }).where('id', '=', Number(alloc.itemId)).where('allocated', '>=', a).returning('id').executeTakeFirst();
    if (!ok) throw new Error(`sales discount ${id}: item ${String(alloc.itemId)} holds less than it`);
    await tenant.insert('financeAllocation', {
      paymentId: -id, itemId: Number(alloc.itemId), allocDate: today(ctx), amount: -a, paidAmount: -a, itemRate: Number(alloc.itemRate), payRate: Number(alloc.payRate),
      itemBase: -Number(alloc.itemBase), paidBase: -Number(alloc.paidBase), exchangeDiff: 0, kind: 'discountReverse', reversesId: Number(alloc.id), createdAt: now, createdBy: ctx.caller!.accountId,
    }).execute();
    await tenant.update('salesInvoice').set({ creditedAmount: sql`${sql.ref('creditedAmount')} - ${a}`, updatedAt: now }).where('id', '=', Number(l.invoiceId)).execute();
  }
  return totalsOf(t.doc);
}

/** What `get` shows beyond the engine's columns: each line's invoice, its total, credited and open. */
export async function presentDiscount(ctx: CallContext, docs: Row[], lines?: Row[]): Promise<void> {
  if (!lines?.length) return;
  const invs = await invoicesOf(ctx.tenant, [...new Set(lines.map((l) => Number(l.invoiceId)))]);
  const items = new Map((await TypedTenant.of(ctx.tenant).select('openItem').select(['sourceId', 'openAmount']).where('sourceType', '=', 'salesInvoice')
    .where('sourceId', 'in', [...invs.keys()].length ? [...invs.keys()] : [0]).execute()).map((r) => [Number(r.sourceId), r]));
  for (const l of lines) {
    const inv = invs.get(Number(l.invoiceId));
    Object.assign(l, {
      invoiceDocNo: text(inv?.docNo), invoiceTotal: inv ? moneyText(inv.totalAmount) : null, invoiceCredited: inv ? moneyText(inv.creditedAmount ?? 0) : null,
      invoiceOpen: items.has(Number(l.invoiceId)) ? moneyText(items.get(Number(l.invoiceId))!.openAmount) : null,
    });
  }
}

/** A client's posted invoices with something left to allow (the new discount invoice's choices). */
export async function discountableInvoices(ctx: CallContext, clientId: number) {
  const rows = await TypedTenant.of(ctx.tenant).select('salesInvoice')
    .leftJoin('openItem', (j) => j.onRef('openItem.sourceId', '=', 'salesInvoice.id').onRef('openItem.companyId', '=', 'salesInvoice.companyId').on('openItem.sourceType', '=', 'salesInvoice'))
    .select(['salesInvoice.id', 'salesInvoice.docNo', 'salesInvoice.invoiceDate', 'salesInvoice.totalAmount', 'salesInvoice.creditedAmount', 'openItem.openAmount'])
    .where('salesInvoice.clientId', '=', clientId).where('salesInvoice.status', '=', 'posted')
    .where(sql<boolean>`coalesce(${sql.ref('openItem.openAmount')}, 0) > 0`)
    .orderBy('salesInvoice.invoiceDate').orderBy('salesInvoice.id').limit(500).execute();
  return {
    list: rows.map((r) => ({
      id: Number(r.id), invoiceId: Number(r.id), invoiceDocNo: String(r.docNo), invoiceDate: text(r.invoiceDate), invoiceTotal: moneyText(r.totalAmount),
      invoiceCredited: moneyText(r.creditedAmount ?? 0), invoiceOpen: moneyText(r.openAmount ?? 0),
    })),
  };
}
