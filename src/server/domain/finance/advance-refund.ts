// 退款单 (advanceRefund): an advance paid back. A client's advance (预收款: unallocated money of a posted
// receipt) refunded to the client (退预收款), or a supplier's prepayment (预付款) returned by the supplier
// (预付款退回). Posting books the refund as an open item of the party (client → receivable, supplier →
// payable; sourceType advanceRefund) and settles it at once with the advances named on the lines
// (allocate(): the same conditional updates as any allocation), so each advance shrinks by its line and
// the statement shows the refund. Reversal (冲销) undoes those allocations and cancels the item: the
// advances come back. The definition is documents/types/advance-refund.ts.
import type { CallContext } from '../../catalog/context.ts';
import type { SaveRun, TransitionRun } from '../../documents/definition.ts';
import { bizError, validationError, type FieldError } from '../../http/errors.ts';
import { moneyText, rateOn, text, today, type Row } from '../procurement/common.ts';
import { TypedTenant } from '../../db/typed.ts';
import { addOpenItem, allocate, cancelOpenItem, reverseItemAllocations, SIDE_OF, toBase, type PartyType } from './ledger.ts';
import { paymentRef, postDated } from './pay-document.ts';

export const REFUND_TITLE = '退款单';
export const REFUND_PREFIX = 'TK';
export const REFUND_SOURCE = 'advanceRefund';
/** What a refund is, by its party: money out to a client, or money back from a supplier. */
export const REFUND_KIND = { client: '退预收款', supplier: '预付款退回' } as const;
/** The refund's open item as screens name it (ledger itemKind). */
export const REFUND_ITEM_KIND = { receivable: '预收退款', payable: '预付退回' } as const;

const DIRECTION_OF: Record<PartyType, 'receipt' | 'payment'> = { client: 'receipt', supplier: 'payment' };
const ADVANCE_TEXT: Record<PartyType, string> = { client: '预收款', supplier: '预付款' };

/** A pay document's money still unallocated (cents). */
const unallocated = (p: Row) => Number(p.settleAmount) - Number(p.allocatedAmount);

/**
 * Why a pay document cannot give money to this refund (its party, state, currency), or undefined.
 * `label` names it in the message.
 */
function notAnAdvance(p: Row, partyType: PartyType, partyId: number, currencyId: number | null): string | undefined {
  const label = `收付款单 ${String(p.docNo)}`;
  const party = partyType === 'client' ? p.clientId : p.supplierId;
  if (p.direction !== DIRECTION_OF[partyType] || Number(party) !== partyId) return `${label} 不是本单${partyType === 'client' ? '客户的收款单' : '供应商的付款单'}`;
  if (p.status !== 'posted') return `${label} 未过账或已冲销，没有${ADVANCE_TEXT[partyType]}`;
  // a post-dated cheque not yet cleared: its money is not there yet (advances.ts withAdvance)
  if (postDated(p) && Number(p.settled) !== 1) return `${label} 的支票尚未兑现，不是${ADVANCE_TEXT[partyType]}`;
  if (currencyId != null && Number(p.currencyId) !== currencyId) return `${label} 的币种与本单不同：一张退款单只退同一币种的${ADVANCE_TEXT[partyType]}`;
  return undefined;
}

/** The engine's validate hook: party by kind, each line an advance of that party in one currency, within its unallocated money. */
export async function checkAdvanceRefund(run: SaveRun): Promise<void> {
  const { ctx, header, lines } = run;
  const partyType = String(header.partyType) as PartyType;
  const partyField = partyType === 'client' ? 'clientId' : 'supplierId';
  if (header[partyField] == null) throw validationError([{ field: partyField, message: partyType === 'client' ? '退预收款的客户不能为空' : '预付款退回的供应商不能为空' }]);
  header[partyType === 'client' ? 'supplierId' : 'clientId'] = null;
  const partyId = Number(header[partyField]);
  header.refundDate ??= today(ctx);
  if (!lines.length) throw validationError([{ field: 'lines', message: `退款明细不能为空：请选择要退的${ADVANCE_TEXT[partyType]}` }]);

  const tenant = TypedTenant.of(ctx.tenant);
  const ids = [...new Set(lines.map((l) => Number(l.payDocumentId)))];
  // company scope: the typed tenant reads only the caller's company's documents
  const docs = new Map((await tenant.select('payDocument').selectAll().where('id', 'in', ids).execute()).map((r) => [Number(r.id), r]));
  let currencyId: number | null = null;
  const errors: FieldError[] = [];
  const seen = new Set<number>();
  let total = 0;
  for (const [i, l] of lines.entries()) {
    const at = `第 ${i + 1} 行：`;
    const err = (f: string, message: string) => errors.push({ field: `lines.${i}.${f}`, message: `${at}${message}` });
    const p = docs.get(Number(l.payDocumentId));
    if (!p) { err('payDocumentId', '收付款单不存在'); continue; }
    const why = notAnAdvance(p, partyType, partyId, currencyId);
    if (why) { err('payDocumentId', why); continue; }
    currencyId ??= Number(p.currencyId);
    // money is not paid back before it came in: the statement would show the refund before the advance
    if (String(header.refundDate) < String(p.payDate)) { err('payDocumentId', `退款日期 ${String(header.refundDate)} 早于收付款单 ${String(p.docNo)} 的收付日期 ${String(p.payDate)}`); continue; }
    if (seen.has(Number(p.id))) { err('payDocumentId', `收付款单 ${String(p.docNo)} 重复，请合并为一行`); continue; }
    seen.add(Number(p.id));
    const amount = Number(l.amount ?? 0);
    if (!(amount > 0)) { err('amount', '退款金额必须大于 0'); continue; }
    // early, friendly check; posting checks again with a conditional update
    if (amount > unallocated(p)) {
      throw bizError('FINANCE_OVER_PAYMENT_4172', { at, docNo: String(p.docNo), left: moneyText(unallocated(p)), amount: moneyText(amount) }, { line: i + 1, unallocated: moneyText(unallocated(p)) });
    }
    total += amount;
  }
  if (errors.length) throw validationError(errors.slice(0, 200));
  const { rate, rateDate } = await rateOn(ctx.tenant, currencyId!, String(header.refundDate));
  Object.assign(header, { currencyId, amount: total, exchangeRate: rate, rateDate, amountBase: toBase(total, rate), lineCount: lines.length });
  for (const f of ['clientId', 'supplierId', 'currencyId']) run.verified.add(f);
}

/**
 * draft → posted: the refund becomes the party's item, settled at once by the advances of the lines.
 * Each allocation is a conditional update of the pay document: a refund racing another over the same
 * advance is refused here (FINANCE_OVER_PAYMENT_4172) and its whole transaction rolled back.
 */
export async function postAdvanceRefund(t: TransitionRun) {
  const doc = t.doc;
  const partyType = String(doc.partyType) as PartyType;
  const partyId = Number(partyType === 'client' ? doc.clientId : doc.supplierId);
  const accountId = t.ctx.caller!.accountId;
  const refundDate = String(doc.refundDate);
  const itemId = await addOpenItem(t.tenant, accountId, {
    side: SIDE_OF[partyType], partyType, partyId, sourceType: REFUND_SOURCE, sourceId: Number(doc.id), docNo: String(doc.docNo),
    docDate: refundDate, dueDate: refundDate, currencyId: Number(doc.currencyId), exchangeRate: Number(doc.exchangeRate), amount: Number(doc.amount),
  });
  const tenant = TypedTenant.of(t.tenant);
  const lines = await t.storedLines();
  // pay documents in id order: two refunds over the same advances lock them in one order (no deadlock)
  for (const l of [...lines].sort((a, b) => Number(a.payDocumentId) - Number(b.payDocumentId))) {
    const p = await tenant.select('payDocument').selectAll().where('id', '=', Number(l.payDocumentId)).executeTakeFirst();
    const at = `第 ${Number(l.lineNo)} 行：`;
    if (!p) throw validationError([{ field: 'lines', message: `${at}收付款单不存在` }]);
    // the document may have changed since the draft was saved (reversed, another currency cannot happen)
    const why = notAnAdvance(p, partyType, partyId, Number(doc.currencyId));
    if (why) throw validationError([{ field: 'lines', message: `${at}${why}` }]);
    // allocated on the refund's date (the statement shows it then); same currency, so no conversion
    await allocate(t.tenant, accountId, { ...paymentRef(p), payDate: refundDate }, itemId, Number(l.amount), async () => Number(p.exchangeRate), Number(l.lineNo));
  }
  return { itemId };
}

/** posted → reversed: the item's allocations undone (the advances back on their documents), the item cancelled. */
export async function reverseAdvanceRefund(t: TransitionRun) {
  const item = await TypedTenant.of(t.tenant).select('openItem').select('id').where('sourceType', '=', REFUND_SOURCE).where('sourceId', '=', Number(t.doc.id)).executeTakeFirst();
  if (!item) return { restored: 0 };
  const undone = await reverseItemAllocations(t.tenant, t.ctx.caller!.accountId, Number(item.id), today(t.ctx));
  await cancelOpenItem(t.tenant, REFUND_SOURCE, Number(t.doc.id), { doc: REFUND_TITLE, docNo: String(t.doc.docNo) });
  return { restored: undone.length };
}

/** What get and the list show beyond the stored columns: the kind, the party's name, each line's advance now. */
export async function presentAdvanceRefund(ctx: CallContext, docs: Row[], lines?: Row[]): Promise<void> {
  for (const d of docs) {
    d.partyTypeText = REFUND_KIND[d.partyType as PartyType] ?? null;
    d.partyName = d.partyType === 'client' ? d.clientName ?? null : d.supplierName ?? null;
  }
  if (!lines?.length) return;
  const ids = [...new Set(lines.map((l) => Number(l.payDocumentId)))];
  const pays = new Map((await TypedTenant.of(ctx.tenant).select('payDocument').select(['id', 'docNo', 'payDate', 'settleAmount', 'allocatedAmount']).where('id', 'in', ids).execute())
    .map((r) => [Number(r.id), r]));
  for (const l of lines) {
    const p = pays.get(Number(l.payDocumentId));
    Object.assign(l, {
      payDocNo: text(p?.docNo), payDate: text(p?.payDate), settleAmount: p ? moneyText(p.settleAmount) : null, unallocatedAmount: p ? moneyText(unallocated(p)) : null,
    });
  }
}

/** The pay documents a refund draws its money from: the document chain lists them under the refund. */
export async function refundedAdvances(ctx: CallContext, doc: Row): Promise<Array<{ type: string; ids: number[] }>> {
  const rows = await TypedTenant.of(ctx.tenant).select('advanceRefundLine').select('payDocumentId').where('refundId', '=', Number(doc.id)).orderBy('lineNo').execute();
  return [{ type: 'payDocument', ids: rows.map((r) => Number(r.payDocumentId)) }];
}
