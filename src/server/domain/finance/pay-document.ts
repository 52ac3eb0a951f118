// 收付款单 (pay_document): a receipt from a client or a payment to a supplier, in a currency at the rate of
// its date, allocated to open items of that party. The money that settles items is the amount moved plus
// the bank fee and the discount (deductions the party's side takes: a fee its bank withheld, a discount
// granted) = settleAmount; what is not allocated stays on the document as an advance (预收/预付), to be
// allocated later (allocateMore). A cheque receipt: a post-dated cheque (due after the receipt's date)
// settles nothing until it is cleared (cheques.ts). Reversal (冲销) reopens everything it settled.
import Decimal from 'decimal.js';
import type { CallContext } from '../../catalog/context.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import type { SaveRun, TransitionRun } from '../../documents/definition.ts';
import { bizError, validationError, type FieldError } from '../../http/errors.ts';
import { moneyText, rateOn, text, today, type Row } from '../procurement/common.ts';
import { TypedTenant } from '../../db/typed.ts';
import { allocate, convert, reverseAllocations, itemKind, SIDE_OF, toBase, type PartyType, type PaymentRef } from './ledger.ts';

export const PAY_TITLE = '收付款单';
export const DIRECTION = { receipt: '收款', payment: '付款' } as const;
export const CHEQUE_STATUS = { received: '已收票', deposited: '已存入', cleared: '已兑现', bounced: '已退票' } as const;
const MAX_MONEY = 100_000_000_000_000; // cents: 10^12 yuan

export const partyOf = (doc: Row): { partyType: PartyType; partyId: number } =>
  doc.direction === 'receipt' ? { partyType: 'client', partyId: Number(doc.clientId) } : { partyType: 'supplier', partyId: Number(doc.supplierId) };

export async function baseCurrencyId(tenant: Tenant): Promise<number> {
  const c = await TypedTenant.of(tenant).select('currency').select('id').where('isBase', '=', 1).executeTakeFirst();
  if (!c) throw validationError([{ field: 'currencyId', message: '公司未设置本位币' }]);
  return Number(c.id);
}

/** A cheque due after the receipt's date: off settlement until cleared. */
export const postDated = (doc: Row) => doc.method === 'cheque' && doc.chequeDate != null && String(doc.chequeDate) > String(doc.payDate);

/** The engine's validate hook: party by direction, currency and rate, amounts, each allocation line within the item's open amount. */
export async function checkPayDocument(run: SaveRun): Promise<void> {
  const { ctx, header, lines } = run;
  const tenant = ctx.tenant;
  const direction = String(header.direction);
  const partyField = direction === 'receipt' ? 'clientId' : 'supplierId';
  const otherField = direction === 'receipt' ? 'supplierId' : 'clientId';
  if (header[partyField] == null) throw validationError([{ field: partyField, message: direction === 'receipt' ? '收款单的客户不能为空' : '付款单的供应商不能为空' }]);
  header[otherField] = null;
  const partyType: PartyType = direction === 'receipt' ? 'client' : 'supplier';
  const partyId = Number(header[partyField]);
  header.payDate ??= today(ctx);
  header.currencyId ??= await baseCurrencyId(tenant);
  const { rate, rateDate } = await rateOn(tenant, Number(header.currencyId), String(header.payDate));
  const amount = Number(header.amount ?? 0);
  const bankFee = Number(header.bankFee ?? 0);
  const discount = Number(header.discount ?? 0);
  const errors: FieldError[] = [];
  if (amount < 0) errors.push({ field: 'amount', message: '金额不能为负数' });
  if (bankFee < 0) errors.push({ field: 'bankFee', message: '手续费不能为负数' });
  if (discount < 0) errors.push({ field: 'discount', message: '折扣不能为负数' });
  const settle = amount + bankFee + discount;
  if (!errors.length && settle <= 0) errors.push({ field: 'amount', message: '金额不能为 0' });
  if (settle > MAX_MONEY) errors.push({ field: 'amount', message: '金额超出范围' });
  if (header.method === 'cheque') {
    if (!header.chequeNo) errors.push({ field: 'chequeNo', message: '支票号不能为空' });
    header.chequeDate ??= header.payDate;
  } else {
    header.chequeNo = null;
    header.chequeDate = null;
  }
  if (errors.length) throw validationError(errors);

  // lines brought in with every open item of the party: those left without an amount settle nothing
  for (let i = lines.length - 1; i >= 0; i--) if (lines[i]!.amount == null || Number(lines[i]!.amount) === 0) lines.splice(i, 1);
  const ids = [...new Set(lines.map((l) => Number(l.openItemId)))];
  const items = new Map(ids.length ? (await TypedTenant.of(tenant).select('openItem').selectAll().where('id', 'in', ids).execute()).map((r) => [Number(r.id), r]) : []);
  const rates = new Map<number, number>([[Number(header.currencyId), rate]]);
  let paidTotal = 0;
  const seen = new Set<number>();
  for (const [i, l] of lines.entries()) {
    const err = (f: string, message: string) => errors.push({ field: `lines.${i}.${f}`, message: `第 ${i + 1} 行：${message}` });
    const item = items.get(Number(l.openItemId));
    if (!item) { err('openItemId', '应收应付款项不存在'); continue; }
    const label = `${itemKind(item)} ${String(item.docNo)}`;
    if (item.partyType !== partyType || Number(item.partyId) !== partyId || item.side !== SIDE_OF[partyType]) { err('openItemId', `${label} 不属于本单的往来单位`); continue; }
    if (item.status === 'cancelled') { err('openItemId', `${label} 已作废`); continue; }
    if (seen.has(Number(item.id))) { err('openItemId', `${label} 重复，请合并为一行`); continue; }
    seen.add(Number(item.id));
    const a = Number(l.amount ?? 0);
    if (!(a > 0)) { err('amount', '核销金额必须大于 0'); continue; }
    // early, friendly check; posting checks again with a conditional update
    if (a > Number(item.openAmount)) {
      throw bizError('FINANCE_OVER_ITEM_4171', { at: `第 ${i + 1} 行：`, item: label, open: moneyText(item.openAmount), amount: moneyText(a) }, { line: i + 1, itemId: Number(item.id), openAmount: moneyText(item.openAmount) });
    }
    const cur = Number(item.currencyId);
    if (!rates.has(cur)) rates.set(cur, (await rateOn(tenant, cur, String(header.payDate))).rate);
    l.paidAmount = convert(a, rates.get(cur)!, rate);
    paidTotal += Number(l.paidAmount);
  }
  if (errors.length) throw validationError(errors.slice(0, 200));
  if (paidTotal > settle) {
    throw bizError('FINANCE_OVER_PAYMENT_4172', { at: '', docNo: '本单', left: moneyText(settle), amount: moneyText(paidTotal) }, { unallocated: moneyText(settle), allocated: moneyText(paidTotal) });
  }
  Object.assign(header, {
    exchangeRate: rate, rateDate, amount, bankFee, discount, settleAmount: settle, allocatedAmount: 0, amountBase: toBase(amount, rate), lineCount: lines.length,
    chequeStatus: header.method === 'cheque' ? 'received' : null, settled: 0,
  });
  for (const f of ['clientId', 'supplierId', 'currencyId']) run.verified.add(f);
}

export function paymentRef(doc: Row): PaymentRef {
  return { id: Number(doc.id), docNo: String(doc.docNo), ...partyOf(doc), currencyId: Number(doc.currencyId), exchangeRate: Number(doc.exchangeRate), payDate: String(doc.payDate) };
}

export const rateOnPayDate = (tenant: Tenant, doc: Row) => async (currencyId: number) => (await rateOn(tenant, currencyId, String(doc.payDate))).rate;

/** Applies the document's allocation lines (posting, or clearing a post-dated cheque). */
export async function applyLines(tenant: Tenant, accountId: number, doc: Row, lines: Row[]): Promise<void> {
  const pay = paymentRef(doc);
  const rateOf = rateOnPayDate(tenant, doc);
  // items in id order: two documents settling the same items lock them in one order (no deadlock)
  for (const l of [...lines].sort((a, b) => Number(a.openItemId) - Number(b.openItemId))) {
    await allocate(tenant, accountId, pay, Number(l.openItemId), Number(l.amount), rateOf, Number(l.lineNo));
  }
  await tenant.update('payDocument').set({ settled: 1 }).where('id', '=', pay.id).execute();
}

/** draft → posted: the lines settle their items now, unless the cheque is post-dated. */
export async function postPayDocument(t: TransitionRun) {
  if (postDated(t.doc)) return { settled: false };
  await applyLines(t.tenant, t.ctx.caller!.accountId, t.doc, await t.storedLines());
  return { settled: true };
}

/** posted → reversed: every allocation still standing is undone (negative ledger rows), items reopen. */
export async function reversePayDocument(t: TransitionRun) {
  const reopened = await reverseAllocations(t.tenant, t.ctx.caller!.accountId, Number(t.doc.id), today(t.ctx));
  await t.tenant.update('payDocument').set({ settled: 0 }).where('id', '=', Number(t.doc.id)).execute();
  return { reopened: reopened.length };
}

/** More allocations of a posted document's unallocated money (using an advance), in one transaction. */
export async function allocateMore(ctx: CallContext, raw: { id: number; lines?: Array<{ openItemId: number; amount: string | number }>; itemDocNo?: string | null; allocAmount?: string | number | null }) {
  const input = { id: raw.id, lines: raw.lines ?? [] };
  const docNo = raw.itemDocNo?.trim();
  if (docNo || !raw.lines) {
    if (!docNo) throw validationError([{ field: 'itemDocNo', message: '款项单号不能为空' }]);
    if (raw.allocAmount == null || String(raw.allocAmount).trim() === '') throw validationError([{ field: 'allocAmount', message: '核销金额不能为空' }]);
    const doc = await TypedTenant.of(ctx.tenant).select('payDocument').select(['direction', 'clientId', 'supplierId']).where('id', '=', raw.id).executeTakeFirst();
    if (!doc) throw bizError('COMMON_NOT_FOUND_4004', { entity: PAY_TITLE });
    const { partyType, partyId } = partyOf(doc);
    const item = await TypedTenant.of(ctx.tenant).select('openItem').select('id').where('docNo', '=', docNo).where('partyType', '=', partyType).where('partyId', '=', partyId)
      .where('status', '!=', 'cancelled').executeTakeFirst();
    if (!item) throw validationError([{ field: 'itemDocNo', message: `往来单位没有单号为 ${docNo} 的未结款项` }]);
    input.lines = [{ openItemId: Number(item.id), amount: raw.allocAmount }];
  }
  if (!input.lines.length) throw validationError([{ field: 'lines', message: '核销明细不能为空' }]);
  const cents = input.lines.map((l, i) => {
    const d = new Decimal(String(l.amount ?? ''));
    if (!d.isFinite() || d.decimalPlaces() > 2) throw validationError([{ field: `lines.${i}.amount`, message: `第 ${i + 1} 行：核销金额必须是最多 2 位小数的数字` }]);
    return d.times(100).toNumber();
  });
  return ctx.transaction(async (db, tenant) => {
    const doc = await TypedTenant.of(tenant).select('payDocument').selectAll().where('id', '=', input.id).executeTakeFirst();
    if (!doc) throw bizError('COMMON_NOT_FOUND_4004', { entity: PAY_TITLE });
    if (doc.status !== 'posted') throw bizError('DOCUMENT_STATUS_4131', { doc: PAY_TITLE, docNo: String(doc.docNo), status: String(doc.status === 'draft' ? '草稿' : doc.status === 'reversed' ? '已冲销' : '已作废'), action: '核销' });
    if (doc.method === 'cheque' && Number(doc.settled) !== 1) {
      throw bizError('FINANCE_CHEQUE_PENDING_4175', { docNo: String(doc.docNo), chequeNo: String(doc.chequeNo), date: String(doc.chequeDate) }, { id: input.id });
    }
    const pay = paymentRef(doc);
    const rows: Row[] = [];
    const order = input.lines.map((l, i) => ({ l, i })).sort((x, y) => x.l.openItemId - y.l.openItemId);
    for (const { l, i } of order) rows.push(await allocate(tenant, ctx.caller!.accountId, pay, l.openItemId, cents[i]!, rateOnPayDate(tenant, doc), i + 1));
    await ctx.audit({
      action: 'update', entity: 'payDocument', recordId: input.id, recordLabel: String(doc.docNo),
      changes: rows.map((r) => ({ field: 'allocation', title: '核销', from: null, to: `款项 #${String(r.itemId)} ${moneyText(r.amount)}` })),
    }, db);
    const after = await TypedTenant.of(tenant).select('payDocument').select(['allocatedAmount', 'settleAmount']).where('id', '=', input.id).executeTakeFirstOrThrow();
    return { id: input.id, allocated: moneyText(after.allocatedAmount), unallocated: moneyText(Number(after.settleAmount) - Number(after.allocatedAmount)), allocations: rows.map(allocationView) };
  });
}

export function allocationView(r: Row) {
  return {
    id: Number(r.id), itemId: Number(r.itemId), allocDate: text(r.allocDate), kind: String(r.kind), kindText: r.kind === 'reverse' ? '冲销' : r.kind === 'release' ? '转预收' : '核销',
    amount: moneyText(r.amount), paidAmount: moneyText(r.paidAmount), itemRate: new Decimal(String(r.itemRate)).div(1e6).toFixed(6), payRate: new Decimal(String(r.payRate)).div(1e6).toFixed(6),
    itemBase: moneyText(r.itemBase), paidBase: moneyText(r.paidBase), exchangeDiff: moneyText(r.exchangeDiff),
  };
}

/** What get and the list show beyond the stored columns: unallocated money, party name, the allocation ledger with exchange differences. */
export async function presentPayDocument(ctx: CallContext, docs: Row[], lines?: Row[]): Promise<void> {
  if (!docs.length) return;
  for (const d of docs) {
    const settle = new Decimal(String(d.settleAmount ?? 0));
    d.unallocatedAmount = settle.minus(String(d.allocatedAmount ?? 0)).toFixed(2);
    d.directionText = DIRECTION[d.direction as keyof typeof DIRECTION] ?? null;
    d.chequeStatusText = d.chequeStatus ? CHEQUE_STATUS[d.chequeStatus as keyof typeof CHEQUE_STATUS] ?? null : null;
    d.partyName = d.direction === 'receipt' ? d.clientName ?? null : d.supplierName ?? null;
  }
  if (!lines) return;
  const tenant = TypedTenant.of(ctx.tenant);
  // lines brought in with every open item of the party: those left without an amount settle nothing
  for (let i = lines.length - 1; i >= 0; i--) if (lines[i]!.amount == null || Number(lines[i]!.amount) === 0) lines.splice(i, 1);
  const ids = [...new Set(lines.map((l) => Number(l.openItemId)))];
  const items = new Map(ids.length ? (await tenant.select('openItem').innerJoin('currency', (j) => j.onRef('currency.id', '=', 'openItem.currencyId'))
    .select(['openItem.id', 'openItem.docNo', 'openItem.sourceType', 'openItem.side', 'openItem.dueDate', 'openItem.amount', 'openItem.openAmount', 'currency.code as currencyCode'])
    .where('openItem.id', 'in', ids).execute()).map((r) => [Number(r.id), r]) : []);
  for (const l of lines) {
    const it = items.get(Number(l.openItemId));
    Object.assign(l, {
      itemDocNo: text(it?.docNo), itemKind: it ? itemKind(it) : null, itemCurrency: text(it?.currencyCode), itemDueDate: text(it?.dueDate),
      itemAmount: it ? moneyText(it.amount) : null, itemOpenAmount: it ? moneyText(it.openAmount) : null,
    });
  }
  const d = docs[0]!;
  const allocs = await tenant.select('financeAllocation').innerJoin('openItem', (j) => j.onRef('openItem.id', '=', 'financeAllocation.itemId'))
    .innerJoin('currency', (j) => j.onRef('currency.id', '=', 'openItem.currencyId'))
    .selectAll('financeAllocation').select(['openItem.docNo as itemDocNo', 'openItem.sourceType', 'openItem.side', 'currency.code as itemCurrency'])
    .where('financeAllocation.paymentId', '=', Number(d.id)).orderBy('financeAllocation.id').execute();
  d.allocations = allocs.map((r) => ({ ...allocationView(r), itemDocNo: String(r.itemDocNo), itemKind: itemKind(r), itemCurrency: String(r.itemCurrency) }));
  const diff = allocs.reduce((s, r) => s + Number(r.exchangeDiff), 0);
  d.exchangeDiffTotal = moneyText(diff);
  // received more company currency than booked is a gain; paid more is a loss
  const gain = d.direction === 'receipt' ? diff > 0 : diff < 0;
  d.exchangeResult = diff === 0 ? '无汇兑差额' : `${gain ? '汇兑收益' : '汇兑损失'} ${moneyText(Math.abs(diff))}`;
}
