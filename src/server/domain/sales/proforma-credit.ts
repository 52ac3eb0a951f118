// 形式发票红冲 (issue 15): a proforma that was issued to the client is withdrawn in writing — wholly or in part,
// with a reason — by a red proforma of its own number. Like the proforma it is never on the ledger (no receivable,
// no invoice stock); what it changes is what the proforma still stands for: each proforma line keeps how much of it
// was withdrawn (`creditedAmount`, claimed by a conditional UPDATE when the red proforma is issued, given back when
// it is cancelled), never more than the line, and the order's "proformas beyond the order" warning counts what is left.
import { sql } from 'kysely';
import type { CallContext } from '../../catalog/context.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import type { SaveRun, TransitionRun } from '../../documents/definition.ts';
import { bizError, validationError, type FieldError } from '../../http/errors.ts';
import { moneyText, text, today, type Row } from '../procurement/common.ts';
import { taxOf } from './invoice.ts';
import { TypedTenant } from '../../db/typed.ts';

export const PFC_TITLE = '形式发票红冲';
export const PFC_PREFIX = 'PFH';
export const PROFORMA_CREDIT_REASONS = { wrong: '开票有误', orderChange: '订单变更', clientCancel: '客户取消', other: '其他' } as const;

async function proformaOf(untypedTenant: Tenant, id: number) {
  const tenant = TypedTenant.of(untypedTenant);
  return await tenant.select('proformaInvoice').select(['id', 'docNo', 'status', 'orderId', 'clientId', 'currencyId', 'taxRate']).where('id', '=', id).executeTakeFirst();
}

async function proformaLines(untypedTenant: Tenant, proformaId: number) {
  const tenant = TypedTenant.of(untypedTenant);
  return await tenant.select('proformaInvoiceLine')
    .innerJoin('product', (j) => j.onRef('product.id', '=', 'proformaInvoiceLine.productId').onRef('product.companyId', '=', 'proformaInvoiceLine.companyId'))
    .select(['proformaInvoiceLine.id', 'proformaInvoiceLine.lineNo', 'proformaInvoiceLine.productId', 'proformaInvoiceLine.amount', 'proformaInvoiceLine.creditedAmount', 'product.code', 'product.name'])
    .where('proformaInvoiceLine.proformaId', '=', proformaId).orderBy('proformaInvoiceLine.lineNo').execute();
}

const leftOf = (pl: Row) => Number(pl.amount) - Number(pl.creditedAmount ?? 0);

function overWithdrawn(line: number, docNo: string, pl: Row, amount: number) {
  return validationError([{
    field: `lines.${line - 1}.amount`,
    message: `第 ${line} 行：形式发票 ${docNo} 商品 ${String(pl.code)} 价税合计 ${moneyText(pl.amount)}，已红冲 ${moneyText(pl.creditedAmount ?? 0)}，本次 ${moneyText(amount)}，最多还可红冲 ${moneyText(leftOf(pl))}`,
  }]);
}

/** Without lines: all of the proforma, each line for what is left of it (开票有误 / 客户取消 withdraw the whole). */
export async function prepareProformaCredit(ctx: CallContext, input: Row): Promise<void> {
  if (input.id !== undefined || (input.lines !== undefined && input.lines !== null) || !Number.isSafeInteger(input.proformaId) || Number(input.proformaId) <= 0) return;
  input.lines = (await proformaLines(ctx.tenant, Number(input.proformaId))).filter((l) => leftOf(l) > 0)
    .map((l) => ({ proformaLineId: Number(l.id), amount: moneyText(leftOf(l)) }));
}

/** The engine's validate hook: the proforma issued, each line one of its lines within what is left, the totals. */
export async function checkProformaCredit(run: SaveRun): Promise<void> {
  const { ctx, header, lines } = run;
  const pf = await proformaOf(ctx.tenant, Number(header.proformaId));
  if (!pf) throw validationError([{ field: 'proformaId', message: '形式发票不存在' }]);
  if (pf.status !== 'confirmed') throw validationError([{ field: 'proformaId', message: `形式发票 ${String(pf.docNo)} 尚未出具或已作废，不能红冲` }]);
  const all = new Map((await proformaLines(ctx.tenant, Number(pf.id))).map((l) => [Number(l.id), l]));
  for (let i = lines.length - 1; i >= 0; i--) if (lines[i]!.amount == null || Number(lines[i]!.amount) === 0) lines.splice(i, 1);
  if (!lines.length) throw validationError([{ field: 'lines', message: '请至少为一行填写红冲金额' }]);
  const errors: FieldError[] = [];
  const seen = new Set<number>();
  lines.forEach((l, i) => {
    const err = (f: string, message: string) => errors.push({ field: `lines.${i}.${f}`, message: `第 ${i + 1} 行：${message}` });
    const pl = all.get(Number(l.proformaLineId));
    if (!pl) { err('proformaLineId', `不是形式发票 ${String(pf.docNo)} 的明细`); return; }
    if (seen.has(Number(pl.id))) { err('proformaLineId', `形式发票第 ${Number(pl.lineNo)} 行重复，请合并为一行`); return; }
    seen.add(Number(pl.id));
    const amount = Number(l.amount);
    if (!(amount > 0)) { err('amount', '红冲金额必须大于 0'); return; }
    // early, friendly check; issuing claims again with a conditional update
    if (amount > leftOf(pl)) throw overWithdrawn(i + 1, String(pf.docNo), pl, amount);
    Object.assign(l, { productId: Number(pl.productId), taxAmount: taxOf(amount, Number(pf.taxRate ?? 0)) });
  });
  if (errors.length) throw validationError(errors.slice(0, 200));
  Object.assign(header, {
    orderId: Number(pf.orderId), clientId: Number(pf.clientId), currencyId: Number(pf.currencyId), creditDate: header.creditDate ?? today(ctx),
    lineCount: lines.length, totalAmount: lines.reduce((s, l) => s + Number(l.amount), 0), taxAmount: lines.reduce((s, l) => s + Number(l.taxAmount), 0),
  });
  for (const f of ['clientId', 'currencyId']) run.verified.add(f);
}

/** 出具: each proforma line takes the withdrawal, never beyond itself; the proforma must still stand issued. */
export async function issueProformaCredit(t: TransitionRun): Promise<void> {
  const { tenant: untypedTenant } = t;
  const tenant = TypedTenant.of(untypedTenant);
  const pf = await tenant.update('proformaInvoice').set({ updatedAt: new Date().toISOString() })
    .where('id', '=', Number(t.doc.proformaId)).where('status', '=', 'confirmed').returning(['id', 'docNo']).executeTakeFirst();
  if (!pf) throw validationError([{ field: 'proformaId', message: '形式发票尚未出具或已作废，不能红冲' }]);
  const lines = await tenant.select('proformaCreditLine').select(['lineNo', 'proformaLineId', 'amount']).where('creditId', '=', Number(t.doc.id)).orderBy('proformaLineId').execute();
  for (const l of lines) {
    const a = Number(l.amount);
    const ok = await tenant.update('proformaInvoiceLine').set({ creditedAmount: sql`coalesce(${sql.ref('creditedAmount')}, 0) + ${a}` })
      .where('id', '=', Number(l.proformaLineId)).where(sql<boolean>`coalesce(${sql.ref('creditedAmount')}, 0) + ${a} <= ${sql.ref('amount')}`)
      .returning('id').executeTakeFirst();
    if (!ok) {
      const pl = (await proformaLines(untypedTenant, Number(pf.id))).find((x) => Number(x.id) === Number(l.proformaLineId));
      if (!pl) throw bizError('COMMON_NOT_FOUND_4004', { entity: '形式发票明细' });
      throw overWithdrawn(Number(l.lineNo), String(pf.docNo), pl, a);
    }
  }
}

/** 作废 of an issued red proforma gives its withdrawal back to the proforma's lines. */
export async function cancelProformaCredit(t: TransitionRun): Promise<void> {
  if (t.from !== 'confirmed') return;
  const tenant = TypedTenant.of(t.tenant);
  for (const l of await tenant.select('proformaCreditLine').select(['proformaLineId', 'amount']).where('creditId', '=', Number(t.doc.id)).orderBy('proformaLineId').execute()) {
    await tenant.update('proformaInvoiceLine').set({ creditedAmount: sql`${sql.ref('creditedAmount')} - ${Number(l.amount)}` }).where('id', '=', Number(l.proformaLineId)).execute();
  }
}

/** A proforma is not cancelled under an issued red proforma: cancel the withdrawal first. */
export async function refuseCancelUnderCredit(t: TransitionRun): Promise<void> {
  const red = await TypedTenant.of(t.tenant).select('proformaCredit').select('docNo').where('proformaId', '=', Number(t.doc.id)).where('status', '=', 'confirmed').execute();
  if (red.length) throw validationError([{ field: 'id', message: `形式发票 ${String(t.doc.docNo)} 已有红冲 ${red.map((r) => String(r.docNo)).join('、')}，请先作废红冲` }]);
}

/** What `get` and the list show beyond the engine's columns: the proforma's number, and per line its amount and what is left. */
export async function presentProformaCredit(ctx: CallContext, docs: Row[], lines?: Row[]): Promise<void> {
  if (!docs.length) return;
  const pfs = new Map((await TypedTenant.of(ctx.tenant).select('proformaInvoice').select(['id', 'docNo']).where('id', 'in', [...new Set(docs.map((d) => Number(d.proformaId)))]).execute())
    .map((r) => [Number(r.id), r]));
  for (const d of docs) d.proformaDocNo = text(pfs.get(Number(d.proformaId))?.docNo);
  if (!lines?.length) return;
  const pls = new Map((await TypedTenant.of(ctx.tenant).select('proformaInvoiceLine').select(['id', 'lineNo', 'amount', 'creditedAmount'])
    .where('id', 'in', [...new Set(lines.map((l) => Number(l.proformaLineId)))]).execute()).map((r) => [Number(r.id), r]));
  for (const l of lines) {
    const pl = pls.get(Number(l.proformaLineId));
    Object.assign(l, { proformaLineNo: pl ? Number(pl.lineNo) : null, proformaAmount: pl ? moneyText(pl.amount) : null, leftAmount: pl ? moneyText(leftOf(pl)) : null });
  }
}

/** A proforma's lines for a new red proforma: what is left of each. */
export async function proformaCreditLines(ctx: CallContext, proformaId: number) {
  return {
    list: (await proformaLines(ctx.tenant, proformaId)).map((l) => ({
      id: Number(l.id), proformaLineId: Number(l.id), productId: Number(l.productId), productCode: String(l.code), productName: String(l.name),
      proformaAmount: moneyText(l.amount), leftAmount: moneyText(leftOf(l)), amount: moneyText(leftOf(l)),
    })),
  };
}
