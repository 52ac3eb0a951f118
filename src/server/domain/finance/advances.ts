// Advances (预收/预付款): posted receipts and payments with money not yet allocated to items, and the
// open items a party's money can still go to (the allocation pickers).
import { sql } from 'kysely';
import type { CallContext } from '../../catalog/context.ts';
import { moneyText, text, today } from '../procurement/common.ts';
import { TypedTenant } from '../../db/typed.ts';
import { itemKind, toBase, type PartyType } from './ledger.ts';
import { DIRECTION } from './pay-document.ts';

export const ADVANCES_INPUT = {
  type: 'object',
  properties: {
    page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1, title: '页码' },
    pageSize: { type: 'integer', minimum: 1, maximum: 500, default: 50, title: '每页条数' },
    direction: { type: ['string', 'null'], enum: [null, 'receipt', 'payment'], title: '收付方向' },
    // a refund's screen names the party and the advance as its header holds them (text from the URL or empty)
    partyType: { type: ['string', 'null'], enum: [null, '', 'client', 'supplier'], title: '往来类型' },
    clientId: { type: ['integer', 'string', 'null'], maxLength: 12, title: '客户' },
    supplierId: { type: ['integer', 'string', 'null'], maxLength: 12, title: '供应商' },
    id: { type: ['integer', 'string', 'null'], maxLength: 12, title: '收付款单' },
    keyword: { type: ['string', 'null'], maxLength: 50, title: '单号' },
  },
};

type AdvancesInput = {
  page: number; pageSize: number; direction?: string | null; partyType?: string | null;
  clientId?: number | string | null; supplierId?: number | string | null; id?: number | string | null; keyword?: string | null;
};

/** A positive id given as a number or its text; undefined when empty or not one. */
const idOf = (v: unknown): number | undefined => {
  const n = Number(v);
  return v != null && v !== '' && Number.isSafeInteger(n) && n > 0 ? n : undefined;
};

/**
 * One party's advance at the end of `day`, as advanceByParty counts it today: the money of its posted
 * receipts (payments) dated on or before `day` less what was allocated from them on or before `day`
 * (allocation rows are signed: a reversal gives back), each document at its own rate, half-up per
 * document; with `currencyId`, only that currency's documents, in that currency. (A document reversed
 * since is not counted: its reversal took the money back out.)
 */
export async function advanceAt(ctx: CallContext, partyType: PartyType, partyId: number, day: string, currencyId: number | null): Promise<number> {
  const tenant = TypedTenant.of(ctx.tenant);
  const col = partyType === 'client' ? 'payDocument.clientId' : 'payDocument.supplierId';
  let q = tenant.select('payDocument').select(['payDocument.id', 'payDocument.settleAmount', 'payDocument.exchangeRate'])
    .where('payDocument.status', '=', 'posted').where('payDocument.direction', '=', partyType === 'client' ? 'receipt' : 'payment')
    .where(col, '=', partyId).where('payDocument.payDate', '<=', day)
    .where((eb) => eb.or([eb('payDocument.method', 'is', null), eb('payDocument.method', '!=', 'cheque'), eb('payDocument.settled', '=', 1)]));
  if (currencyId != null) q = q.where('payDocument.currencyId', '=', currencyId);
  const docs = await q.execute();
  if (!docs.length) return 0;
  const used = new Map<number, number>();
  const ids = docs.map((d) => Number(d.id));
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await tenant.select('financeAllocation').select(['paymentId', sql<number>`sum(${sql.ref('paidAmount')})`.as('s')])
      .where('paymentId', 'in', ids.slice(i, i + 500)).where('allocDate', '<=', day).groupBy('paymentId').execute();
    for (const r of rows) used.set(Number(r.paymentId), Number(r.s));
  }
  let total = 0;
  for (const d of docs) {
    const left = Number(d.settleAmount) - (used.get(Number(d.id)) ?? 0);
    if (left > 0) total += currencyId != null ? left : toBase(left, Number(d.exchangeRate));
  }
  return total;
}

/** Posted documents with unallocated money (a pending cheque's money is not available yet): the advances. */
function withAdvance<Q extends { where: (...a: any[]) => Q }>(q: Q): Q {
  return q.where('payDocument.status', '=', 'posted')
    .where(sql<boolean>`${sql.ref('payDocument.settleAmount')} > ${sql.ref('payDocument.allocatedAmount')}`)
    .where((eb: any) => eb.or([eb('payDocument.method', 'is', null), eb('payDocument.method', '!=', 'cheque'), eb('payDocument.settled', '=', 1)]));
}

/**
 * Each party's advance (预收 from clients, 预付 to suppliers) in company currency: the unallocated money of
 * its posted receipts (payments), each at its own rate, half-up per document — what accounts_receivable
 * sets against the open items (a credit balance when it is more).
 */
export async function advanceByParty(ctx: CallContext, partyType: PartyType): Promise<Map<number, number>> {
  const col = partyType === 'client' ? 'payDocument.clientId' : 'payDocument.supplierId';
  const rows = await withAdvance(TypedTenant.of(ctx.tenant).select('payDocument').select([`${col} as partyId`, 'payDocument.settleAmount', 'payDocument.allocatedAmount', 'payDocument.exchangeRate'])
    .where('payDocument.direction', '=', partyType === 'client' ? 'receipt' : 'payment')).execute();
  const out = new Map<number, number>();
  for (const r of rows) out.set(Number(r.partyId), (out.get(Number(r.partyId)) ?? 0) + toBase(Number(r.settleAmount) - Number(r.allocatedAmount), Number(r.exchangeRate)));
  return out;
}

/** Posted documents with unallocated money (a pending cheque's money is not available yet). */
export async function listAdvances(ctx: CallContext, input: AdvancesInput) {
  let q = withAdvance(TypedTenant.of(ctx.tenant).select('payDocument')
    .leftJoin('client', (j) => j.onRef('client.id', '=', 'payDocument.clientId'))
    .leftJoin('supplier', (j) => j.onRef('supplier.id', '=', 'payDocument.supplierId'))
    .innerJoin('currency', (j) => j.onRef('currency.id', '=', 'payDocument.currencyId')));
  const direction = input.direction || (input.partyType === 'client' ? 'receipt' : input.partyType === 'supplier' ? 'payment' : undefined);
  if (direction) q = q.where('payDocument.direction', '=', direction);
  const clientId = idOf(input.clientId);
  const supplierId = idOf(input.supplierId);
  const id = idOf(input.id);
  // a party named by the refund's kind: the other party's field is ignored
  if (clientId && input.partyType !== 'supplier') q = q.where('payDocument.clientId', '=', clientId);
  if (supplierId && input.partyType !== 'client') q = q.where('payDocument.supplierId', '=', supplierId);
  if (id) q = q.where('payDocument.id', '=', id);
  if (input.keyword?.trim()) q = q.where('payDocument.docNo', 'like', `%${input.keyword.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await q.select(['payDocument.id', 'payDocument.docNo', 'payDocument.direction', 'payDocument.payDate', 'payDocument.settleAmount', 'payDocument.allocatedAmount',
    'payDocument.clientId', 'payDocument.supplierId', 'payDocument.exchangeRate', 'client.name as clientName', 'supplier.name as supplierName', 'currency.code as currencyCode'])
    .orderBy('payDocument.payDate').orderBy('payDocument.id').limit(input.pageSize).offset((input.page - 1) * input.pageSize).execute();
  return {
    total, page: input.page, pageSize: input.pageSize,
    list: rows.map((r) => ({
      id: Number(r.id), docNo: String(r.docNo), direction: String(r.direction), directionText: DIRECTION[r.direction as keyof typeof DIRECTION],
      kindText: r.direction === 'receipt' ? '预收款' : '预付款', partyType: r.direction === 'receipt' ? 'client' : 'supplier', payDate: String(r.payDate), partyName: text(r.clientName ?? r.supplierName),
      clientId: r.clientId == null ? null : Number(r.clientId), supplierId: r.supplierId == null ? null : Number(r.supplierId), currencyCode: String(r.currencyCode),
      settleAmount: moneyText(r.settleAmount), allocatedAmount: moneyText(r.allocatedAmount), unallocatedAmount: moneyText(Number(r.settleAmount) - Number(r.allocatedAmount)),
      label: `${String(r.docNo)} · ${String(r.currencyCode)} ${moneyText(Number(r.settleAmount) - Number(r.allocatedAmount))} · ${String(r.payDate)}`,
    })),
  };
}

const OPTIONAL_ID = { type: ['integer', 'string', 'null'], maxLength: 12 } as const;
export const OPEN_ITEMS_INPUT = {
  type: 'object',
  properties: {
    partyType: { type: ['string', 'null'], enum: [null, 'client', 'supplier'], title: '往来类型' },
    partyId: { ...OPTIONAL_ID, title: '往来单位' },
    // a receipt/payment screen names its party by direction (lookups send the header's values as they are)
    direction: { type: ['string', 'null'], maxLength: 20, title: '收付方向' },
    clientId: { ...OPTIONAL_ID, title: '客户' },
    supplierId: { ...OPTIONAL_ID, title: '供应商' },
    keyword: { type: ['string', 'null'], maxLength: 50, title: '单号' },
  },
};

type OpenItemsInput = { partyType?: PartyType | null; partyId?: number | string | null; direction?: string | null; clientId?: number | string | null; supplierId?: number | string | null; keyword?: string | null };

/** A party's open items, oldest due first (what a receipt or payment can settle); none while no party is chosen. */
export async function openItemsOf(ctx: CallContext, raw: OpenItemsInput) {
  const byDirection = raw.partyType ? undefined : raw.direction === 'payment' ? { partyType: 'supplier' as const, partyId: raw.supplierId } : { partyType: 'client' as const, partyId: raw.clientId };
  const partyType = raw.partyType ?? byDirection!.partyType;
  const partyId = Number(raw.partyType ? raw.partyId : byDirection!.partyId);
  if (!Number.isSafeInteger(partyId) || partyId < 1) return { list: [] };
  const input = { partyType, partyId, keyword: raw.keyword };
  let q = TypedTenant.of(ctx.tenant).select('openItem').innerJoin('currency', (j) => j.onRef('currency.id', '=', 'openItem.currencyId'))
    .selectAll('openItem').select('currency.code as currencyCode')
    .where('openItem.partyType', '=', input.partyType).where('openItem.partyId', '=', input.partyId).where('openItem.status', '=', 'open');
  if (input.keyword?.trim()) q = q.where('openItem.docNo', 'like', `%${input.keyword.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  const rows = await q.orderBy('openItem.dueDate').orderBy('openItem.id').limit(500).execute();
  return {
    list: rows.map((r) => ({
      id: Number(r.id), openItemId: Number(r.id), docNo: String(r.docNo), kind: itemKind(r), reference: text(r.reference),
      docDate: String(r.docDate), dueDate: String(r.dueDate), currencyId: Number(r.currencyId), currencyCode: String(r.currencyCode),
      amount: moneyText(r.amount), openAmount: moneyText(r.openAmount), label: `${String(r.docNo)} · ${String(r.currencyCode)} ${moneyText(r.openAmount)} · 到期 ${String(r.dueDate)}`,
    })),
  };
}

export const PROCEEDS_INPUT = {
  type: 'object',
  properties: {
    page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1, title: '页码' },
    pageSize: { type: 'integer', minimum: 1, maximum: 500, default: 50, title: '每页条数' },
    date: { type: ['string', 'null'], maxLength: 10, title: '日期' },
  },
};

/**
 * 今日收款: the posted receipts of a day (default today) by account and currency — the money received
 * (amount), in company currency at each receipt's rate; totals over every row (company currency; the
 * amounts in their own currencies are not added across currencies).
 */
export async function proceedsOfDay(ctx: CallContext, input: { page: number; pageSize: number; date?: string | null }) {
  const day = input.date && /^\d{4}-\d{2}-\d{2}$/.test(input.date) ? input.date : today(ctx);
  const rows = await TypedTenant.of(ctx.tenant).select('payDocument').innerJoin('currency', (j) => j.onRef('currency.id', '=', 'payDocument.currencyId'))
    .select(['payDocument.account', 'payDocument.method', 'currency.code as currencyCode', sql<number>`count(*)`.as('receipts'),
      sql<number>`sum(${sql.ref('payDocument.amount')})`.as('amount'), sql<number>`sum(${sql.ref('payDocument.amountBase')})`.as('amountBase')])
    .where('payDocument.direction', '=', 'receipt').where('payDocument.status', '=', 'posted').where('payDocument.payDate', '=', day)
    .groupBy(['payDocument.account', 'payDocument.method', 'currency.code']).orderBy('currency.code').orderBy('payDocument.account').execute();
  const list = rows.map((r, i) => ({
    key: String(i + 1), account: text(r.account) ?? '（未填账户）', method: text(r.method), currencyCode: String(r.currencyCode), receipts: Number(r.receipts),
    amount: moneyText(r.amount), amountBase: moneyText(r.amountBase),
  }));
  const offset = (input.page - 1) * input.pageSize;
  return {
    date: day, list: list.slice(offset, offset + input.pageSize), total: list.length, page: input.page, pageSize: input.pageSize,
    totals: { receipts: rows.reduce((s, r) => s + Number(r.receipts), 0), amountBase: moneyText(rows.reduce((s, r) => s + Number(r.amountBase), 0)) },
  };
}
