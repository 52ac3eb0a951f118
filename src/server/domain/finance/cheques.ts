// Cheques received (到期支票): a receipt whose method is cheque carries the cheque's number, due date and
// state: received → deposited → cleared, or bounced (from received or deposited) → deposited again.
// A cheque due on or before the receipt's date settles its lines when the receipt is posted; a post-dated
// one settles nothing until it is cleared. A bounce reopens whatever the cheque settled (the allocation
// ledger gets reversal rows), adds the bounce charge as a new receivable of the client, and counts the
// bounce on the client (client.cheque_bounces, shown on the receivables screens).
// Each change is one conditional UPDATE on (id, posted, cheque status): two clerks clearing at once —
// exactly one wins, the other is told the state.
import { sql } from 'kysely';
import type { CallContext } from '../../catalog/context.ts';
import { bizError, validationError } from '../../http/errors.ts';
import { moneyText, text, today, type Row } from '../procurement/common.ts';
import { TypedTenant } from '../../db/typed.ts';
import { addOpenItem, reverseAllocations } from './ledger.ts';
import { applyLines, CHEQUE_STATUS, PAY_TITLE } from './pay-document.ts';

type ChequeStatus = keyof typeof CHEQUE_STATUS;
const ACTIONS = {
  deposit: { from: ['received', 'bounced'], to: 'deposited', label: '存入银行' },
  clear: { from: ['received', 'deposited'], to: 'cleared', label: '兑现' },
  bounce: { from: ['received', 'deposited'], to: 'bounced', label: '退票' },
} as const;
export type ChequeAction = keyof typeof ACTIONS;

export const CHEQUE_ACTION_INPUT = {
  type: 'object', required: ['id'],
  properties: {
    id: { type: 'integer', minimum: 1, maximum: 2_147_483_647, title: '收款单' },
    charge: { type: ['string', 'number', 'null'], maxLength: 20, title: '退票手续费' },
    date: { type: ['string', 'null'], maxLength: 10, title: '日期' },
  },
};

export async function chequeAction(ctx: CallContext, action: ChequeAction, input: { id: number; charge?: string | number | null; date?: string | null }) {
  const a = ACTIONS[action];
  let charge = 0;
  if (action === 'bounce' && input.charge != null && String(input.charge).trim() !== '') {
    const m = /^\d{1,10}(\.\d{1,2})?$/.exec(String(input.charge).trim());
    if (!m) throw validationError([{ field: 'charge', message: '退票手续费必须是不超过 2 位小数的非负数' }]);
    charge = Math.round(Number(String(input.charge).trim()) * 100);
  }
  return ctx.transaction(async (db, untypedTenant) => {
    const tenant = TypedTenant.of(untypedTenant);
    const doc = await tenant.select('payDocument').selectAll().where('id', '=', input.id).where('method', '=', 'cheque').executeTakeFirst();
    if (!doc) throw bizError('COMMON_NOT_FOUND_4004', { entity: '支票收款单' });
    const status = String(doc.chequeStatus) as ChequeStatus;
    const now = new Date().toISOString();
    const moved = await tenant.update('payDocument').set({ chequeStatus: a.to, updatedAt: now, updatedBy: ctx.caller!.accountId, version: sql`${sql.ref('version')} + 1` })
      .where('id', '=', input.id).where('status', '=', 'posted').where('chequeStatus', 'in', [...a.from]).returning('id').executeTakeFirst();
    if (!moved) {
      throw bizError('FINANCE_CHEQUE_STATUS_4178', { docNo: String(doc.docNo), status: doc.status !== 'posted' ? '未过账或已冲销' : CHEQUE_STATUS[status] ?? status, action: a.label }, { id: input.id, chequeStatus: status });
    }
    const day = today(ctx);
    const extra: Row = {};
    if (action === 'clear' && Number(doc.settled) !== 1) {
      const lines = await tenant.select('payDocumentLine').selectAll().where('payId', '=', input.id).orderBy('lineNo').execute();
      await applyLines(untypedTenant, ctx.caller!.accountId, { ...doc, status: 'posted' }, lines);
      extra.settledLines = lines.length;
    }
    if (action === 'bounce') {
      const reopened = await reverseAllocations(untypedTenant, ctx.caller!.accountId, input.id, day);
      await tenant.update('payDocument').set({ settled: 0 }).where('id', '=', input.id).execute();
      await tenant.update('client').set({ chequeBounces: sql`${sql.ref('chequeBounces')} + 1`, updatedAt: now }).where('id', '=', Number(doc.clientId)).execute();
      extra.reopened = reopened.length;
      if (charge > 0) {
        const n = Number((await tenant.select('openItem').select((eb) => eb.fn.countAll().as('n')).where('sourceType', '=', 'chequeBounce').where('sourceId', '=', input.id).executeTakeFirst())?.n ?? 0);
        await addOpenItem(untypedTenant, ctx.caller!.accountId, {
          side: 'receivable', partyType: 'client', partyId: Number(doc.clientId), sourceType: 'chequeBounce', sourceId: input.id, docNo: `${String(doc.docNo)}-T${n + 1}`,
          reference: text(doc.chequeNo), docDate: day, dueDate: day, currencyId: Number(doc.currencyId), exchangeRate: Number(doc.exchangeRate), amount: charge,
        });
        extra.charge = moneyText(charge);
      }
    }
    await ctx.audit({
      action: 'state', entity: 'payDocument', recordId: input.id, recordLabel: String(doc.docNo),
      changes: [{ field: 'chequeStatus', title: '支票状态', from: CHEQUE_STATUS[status], to: CHEQUE_STATUS[a.to] }, ...(extra.charge ? [{ field: 'bounceCharge', title: '退票手续费', from: null, to: extra.charge }] : [])],
    }, db);
    return { id: input.id, docNo: String(doc.docNo), chequeStatus: a.to, chequeStatusText: CHEQUE_STATUS[a.to], ...extra };
  });
}

export const CHEQUE_LIST_INPUT = {
  type: 'object',
  properties: {
    page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1, title: '页码' },
    pageSize: { type: 'integer', minimum: 1, maximum: 500, default: 50, title: '每页条数' },
    days: { type: ['integer', 'null'], minimum: 0, maximum: 3650, title: '未来天数' },
    chequeStatus: { type: ['string', 'null'], enum: [null, ...Object.keys(CHEQUE_STATUS)], title: '支票状态' },
    today: { type: ['string', 'null'], maxLength: 10, title: '基准日' },
  },
};

/** Cheques received, by due date; `days`: only those still open (received/deposited) maturing within the next N days (overdue ones too). */
export async function listCheques(ctx: CallContext, input: { page: number; pageSize: number; days?: number | null; chequeStatus?: string | null; today?: string | null }) {
  const day = input.today && /^\d{4}-\d{2}-\d{2}$/.test(input.today) ? input.today : today(ctx);
  let q = TypedTenant.of(ctx.tenant).select('payDocument').innerJoin('client', (j) => j.onRef('client.id', '=', 'payDocument.clientId'))
    .innerJoin('currency', (j) => j.onRef('currency.id', '=', 'payDocument.currencyId'))
    .where('payDocument.method', '=', 'cheque').where('payDocument.status', '=', 'posted');
  if (input.chequeStatus) q = q.where('payDocument.chequeStatus', '=', input.chequeStatus);
  if (input.days != null) {
    const until = new Date(Date.parse(`${day}T00:00:00Z`) + input.days * 86_400_000).toISOString().slice(0, 10);
    q = q.where('payDocument.chequeStatus', 'in', ['received', 'deposited']).where('payDocument.chequeDate', '<=', until);
  }
  const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const sum = Number((await q.select((eb) => eb.fn.sum('payDocument.amountBase').as('s')).executeTakeFirstOrThrow()).s ?? 0);
  const rows = await q.select(['payDocument.id', 'payDocument.docNo', 'payDocument.chequeNo', 'payDocument.chequeDate', 'payDocument.chequeStatus', 'payDocument.payDate', 'payDocument.amount',
    'payDocument.amountBase', 'payDocument.settled', 'client.name as clientName', 'client.chequeBounces', 'currency.code as currencyCode'])
    .orderBy('payDocument.chequeDate').orderBy('payDocument.id').limit(input.pageSize).offset((input.page - 1) * input.pageSize).execute();
  return {
    today: day, total, page: input.page, pageSize: input.pageSize,
    list: rows.map((r) => ({
      id: Number(r.id), docNo: String(r.docNo), chequeNo: text(r.chequeNo), chequeDate: text(r.chequeDate), payDate: String(r.payDate), clientName: String(r.clientName),
      chequeBounces: Number(r.chequeBounces ?? 0), currencyCode: String(r.currencyCode), amount: moneyText(r.amount), amountBase: moneyText(r.amountBase),
      chequeStatus: String(r.chequeStatus), chequeStatusText: CHEQUE_STATUS[r.chequeStatus as ChequeStatus] ?? null, settled: Number(r.settled) === 1,
      postDated: String(r.chequeDate) > String(r.payDate), daysToDue: Math.round((Date.parse(`${String(r.chequeDate)}T00:00:00Z`) - Date.parse(`${day}T00:00:00Z`)) / 86_400_000),
    })),
    totals: { amountBase: moneyText(sum) },
  };
}

export { PAY_TITLE };
