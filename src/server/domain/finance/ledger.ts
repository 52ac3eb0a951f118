// The finance ledgers (migration 023): open items (receivables per client, payables per supplier) and
// allocations. Every change of an item's open amount or a payment's allocated amount goes through here,
// as conditional UPDATEs inside the caller's transaction:
//   item:    allocated + x ≤ amount (and ≥ 0 for reversals), open_amount = amount − allocated;
//   payment: allocated_amount + paid ≤ settle_amount (the money plus bank fee and discount).
// Of two transactions allocating the same money, the second's UPDATE sees the first's result (row lock
// on PostgreSQL, one writer on SQLite) and fails its condition: nothing is over-allocated, and the
// refusal rolls its whole transaction back. Reversals append negative rows; items are never rewritten.
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import type { Tenant } from '../../catalog/tenant.ts';
import { bizError, validationError } from '../../http/errors.ts';
import { moneyText, type Row } from '../procurement/common.ts';
import { TypedTenant } from '../../db/typed.ts';

export type Side = 'receivable' | 'payable';
export type PartyType = 'client' | 'supplier';
export const SIDE_OF: Record<PartyType, Side> = { client: 'receivable', supplier: 'payable' };
export const SIDE_TEXT: Record<Side, string> = { receivable: '应收', payable: '应付' };
export const ITEM_STATUS = { open: '未结清', settled: '已结清', cancelled: '已作废' } as const;
export const SOURCE_TEXT: Record<string, string> = { purchaseInvoice: '采购发票', salesInvoice: '销售发票', prepaymentInvoice: '预收款发票', openingBalance: '期初余额', chequeBounce: '退票费', advanceRefund: '退款单' };
/** What an item is, as screens name it: an opening balance is 期初应收 or 期初应付 by its side. */
export const itemKind = (item: Row) =>
  item.sourceType === 'openingBalance' ? (item.side === 'payable' ? '期初应付' : '期初应收')
    // a refund of an advance (退款单): money back to a client, or a supplier's prepayment returned
    : item.sourceType === 'advanceRefund' ? (item.side === 'payable' ? '预付退回' : '预收退款')
      : SOURCE_TEXT[String(item.sourceType)] ?? String(item.sourceType);

/** An amount (cents) in the company currency at a rate × 10^6, half-up. */
export const toBase = (cents: number, rate: number) =>
  new Decimal(cents).times(rate).div(1_000_000).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();

/**
 * The one rounding rule for company-currency amounts of a document (issue 33 item 5): the document's
 * total is converted (that is what its open item, the aging and the statements carry), and its lines'
 * converted amounts are spread so that they add up to it exactly — each line converted and rounded
 * half-up, the cents left over put on the line of the largest amount.
 */
export function spreadBase(lineCents: number[], rate: number): { total: number; lines: number[] } {
  const totalCents = lineCents.reduce((s, c) => s + c, 0);
  const total = toBase(totalCents, rate);
  const lines = lineCents.map((c) => toBase(c, rate));
  const rest = total - lines.reduce((s, c) => s + c, 0);
  if (rest !== 0 && lines.length) {
    let at = 0;
    for (let i = 1; i < lineCents.length; i++) if (Math.abs(lineCents[i]!) > Math.abs(lineCents[at]!)) at = i;
    lines[at]! += rest;
  }
  return { total, lines };
}

/** cents in one currency → cents in another, through the company currency at the two rates. */
export const convert = (cents: number, fromRate: number, toRate: number) =>
  fromRate === toRate ? cents : new Decimal(cents).times(fromRate).div(toRate).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();

export interface NewItem {
  side: Side;
  partyType: PartyType;
  partyId: number;
  sourceType: string;
  sourceId: number;
  docNo: string;
  reference?: string | null;
  docDate: string;
  dueDate: string;
  currencyId: number;
  exchangeRate: number;
  amount: number;
}

export async function addOpenItem(untypedTenant: Tenant, accountId: number | null, item: NewItem): Promise<number> {
  const tenant = TypedTenant.of(untypedTenant);
  const now = new Date().toISOString();
  const row = await tenant.insert('openItem', {
    ...item, reference: item.reference ?? null, amountBase: toBase(item.amount, item.exchangeRate), allocated: 0, allocatedBase: 0, openAmount: item.amount, status: 'open',
    version: 1, createdAt: now, updatedAt: now, createdBy: accountId, updatedBy: accountId,
  }).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

/**
 * Cancels the item of a source (an invoice or an opening balance being cancelled): only while nothing is
 * allocated to it; else refused naming what is settled.
 */
export async function cancelOpenItem(untypedTenant: Tenant, sourceType: string, sourceId: number, label: { doc: string; docNo: string }): Promise<void> {
  const tenant = TypedTenant.of(untypedTenant);
  const now = new Date().toISOString();
  const done = await tenant.update('openItem').set({ status: 'cancelled', updatedAt: now, version: sql`${sql.ref('version')} + 1` })
    .where('sourceType', '=', sourceType).where('sourceId', '=', sourceId).where('status', '!=', 'cancelled').where('allocated', '=', 0)
    .returning('id').execute();
  if (done.length) return;
  const item = await tenant.select('openItem').select(['allocated', 'status']).where('sourceType', '=', sourceType).where('sourceId', '=', sourceId).executeTakeFirst();
  if (item && item.status !== 'cancelled' && Number(item.allocated) !== 0) {
    throw bizError('FINANCE_ITEM_ALLOCATED_4176', { ...label, allocated: moneyText(item.allocated) }, { allocated: moneyText(item.allocated) });
  }
}

/** The payment side of an allocation: its header row as the ledger needs it. */
export interface PaymentRef {
  id: number;
  docNo: string;
  partyType: PartyType;
  partyId: number;
  currencyId: number;
  exchangeRate: number;
  payDate: string;
}

const itemLabel = (item: Row) => `${itemKind(item)} ${String(item.docNo)}`;

/**
 * Allocates `amount` (cents, the item's currency) of a payment to an item. `rateOf` gives a currency's
 * rate on the payment's date (for an item in another currency than the payment). Returns the row written.
 */
export async function allocate(
  untypedTenant: Tenant, accountId: number, pay: PaymentRef, itemId: number, amount: number,
  rateOf: (currencyId: number) => Promise<number>, line?: number,
): Promise<Row> {
  const tenant = TypedTenant.of(untypedTenant);
  const at = line ? `第 ${line} 行：` : '';
  const item = await tenant.select('openItem').selectAll().where('id', '=', itemId).executeTakeFirst();
  if (!item) throw bizError('COMMON_NOT_FOUND_4004', { entity: `${at}应收应付款项` });
  if (item.partyType !== pay.partyType || Number(item.partyId) !== pay.partyId) {
    throw bizError('FINANCE_ITEM_PARTY_4173', { at, item: itemLabel(item), docNo: pay.docNo }, { itemId, line });
  }
  if (item.status === 'cancelled') throw bizError('FINANCE_ITEM_CLOSED_4174', { at, item: itemLabel(item) }, { itemId, line });
  if (!(amount > 0)) throw bizError('FINANCE_AMOUNT_4177', { at }, { itemId, line });
  const itemRate = Number(item.exchangeRate);
  const itemCurrency = Number(item.currencyId);
  // the item's currency on the payment's date: what the payment's money is worth against it
  const itemRateNow = itemCurrency === pay.currencyId ? pay.exchangeRate : await rateOf(itemCurrency);
  const paidAmount = itemCurrency === pay.currencyId ? amount : convert(amount, itemRateNow, pay.exchangeRate);
  const now = new Date().toISOString();
  const taken = await tenant.update('openItem').set({
    allocated: sql`${sql.ref('allocated')} + ${amount}`, openAmount: sql`${sql.ref('openAmount')} - ${amount}`,
    status: sql`case when ${sql.ref('openAmount')} - ${amount} = 0 then 'settled' else 'open' end`,
    updatedAt: now, updatedBy: accountId, version: sql`${sql.ref('version')} + 1`,
  }).where('id', '=', itemId).where('status', '!=', 'cancelled').where(sql<boolean>`${sql.ref('allocated')} + ${amount} <= ${sql.ref('amount')}`)
    .returning(['id', 'openAmount', 'amountBase', 'allocatedBase']).executeTakeFirst();
  if (!taken) {
    const now2 = await tenant.select('openItem').select(['openAmount']).where('id', '=', itemId).executeTakeFirst();
    throw bizError('FINANCE_OVER_ITEM_4171', { at, item: itemLabel(item), open: moneyText(now2?.openAmount ?? 0), amount: moneyText(amount) },
      { itemId, line, openAmount: moneyText(now2?.openAmount ?? 0) });
  }
  const paid = await tenant.update('payDocument').set({ allocatedAmount: sql`${sql.ref('allocatedAmount')} + ${paidAmount}`, updatedAt: now })
    .where('id', '=', pay.id).where('status', '=', 'posted')
    .where(sql<boolean>`${sql.ref('allocatedAmount')} + ${paidAmount} <= ${sql.ref('settleAmount')}`).returning('id').executeTakeFirst();
  if (!paid) {
    const p = await tenant.select('payDocument').select(['allocatedAmount', 'settleAmount', 'status']).where('id', '=', pay.id).executeTakeFirst();
    const left = p ? Number(p.settleAmount) - Number(p.allocatedAmount) : 0;
    throw bizError('FINANCE_OVER_PAYMENT_4172', { at, docNo: pay.docNo, left: moneyText(left), amount: moneyText(paidAmount) }, { line, unallocated: moneyText(left) });
  }
  // The row is ours until the transaction ends: its base amounts as returned are current. The allocation
  // that settles the item takes the base left, so a settled item leaves exactly 0 open in company currency.
  const itemBase = Number(taken.openAmount) === 0 ? Number(taken.amountBase) - Number(taken.allocatedBase) : toBase(amount, itemRate);
  await tenant.update('openItem').set({ allocatedBase: sql`${sql.ref('allocatedBase')} + ${itemBase}` }).where('id', '=', itemId).execute();
  if (item.sourceType === 'purchaseInvoice') await keepPayableInStep(tenant, Number(item.sourceId), amount, now);
  const paidBase = toBase(paidAmount, pay.exchangeRate);
  const row = {
    paymentId: pay.id, itemId, allocDate: pay.payDate, amount, paidAmount, itemRate, payRate: pay.exchangeRate, itemBase, paidBase,
    exchangeDiff: paidBase - itemBase, kind: 'allocate', reversesId: null, createdAt: now, createdBy: accountId,
  };
  const id = await tenant.insert('financeAllocation', row).returning('id').executeTakeFirstOrThrow();
  return { id: Number(id.id), ...row };
}

/** supplier_payable (007) mirrors the invoice item's allocated amount (its cancellation reads it). */
async function keepPayableInStep(tenant: TypedTenant, invoiceId: number, amount: number, now: string) {
  await tenant.update('supplierPayable').set({ paidAmount: sql`${sql.ref('paidAmount')} + ${amount}`, updatedAt: now }).where('invoiceId', '=', invoiceId).execute();
}

const FIGURES = ['amount', 'paidAmount', 'itemBase', 'paidBase', 'exchangeDiff'] as const;

/**
 * A payment's allocations (kind allocate) not reversed, each with what still stands of it: its figures
 * plus its release rows' (negative) figures.
 */
function netAllocations(rows: Row[]): Row[] {
  const reversed = new Set(rows.filter((r) => r.kind === 'reverse').map((r) => Number(r.reversesId)));
  const releases = rows.filter((r) => r.kind === 'release');
  return rows.filter((r) => r.kind === 'allocate' && !reversed.has(Number(r.id))).map((a) => {
    const out: Row = { ...a };
    for (const rel of releases) if (Number(rel.reversesId) === Number(a.id)) for (const f of FIGURES) out[f] = Number(out[f]) + Number(rel[f]);
    return out;
  });
}

/**
 * A credit (red or discount invoice) larger than what is still open on an item that payments settled:
 * `excess` (item currency) of those payments' allocations is given back to them, newest first — a row of
 * kind `release` per allocation (negative figures, reversesId = the allocation; a part of an allocation
 * in proportion, the last of it exactly what is left, so bases end at 0), the item's allocated amount and
 * the payment's allocated amount lowered. The payment's money given back is unallocated again: an
 * advance (预收) the client can use on later invoices (allocateMore) — the client's credit balance.
 * Inside the credit's posting, before it takes the item. Refused (clear message) if the payments hold less.
 */
export async function releaseToAdvance(untypedTenant: Tenant, accountId: number, item: Row, excess: number, date: string, by: string): Promise<number> {
  const tenant = TypedTenant.of(untypedTenant);
  const rows = await tenant.select('financeAllocation').selectAll().where('itemId', '=', Number(item.id)).where('paymentId', '>', 0).orderBy('id').execute();
  const standing = netAllocations(rows).filter((a) => Number(a.amount) > 0).sort((x, y) => Number(y.id) - Number(x.id));
  const held = standing.reduce((s, a) => s + Number(a.amount), 0);
  if (held < excess) {
    throw validationError([{ field: 'lines', message: `${by} 超出销售发票 ${String(item.docNo)} 未结金额 ${moneyText(excess - held)}，且没有可转为预收款的收款核销` }]);
  }
  const now = new Date().toISOString();
  let left = excess;
  for (const a of standing) {
    if (left === 0) break;
    const whole = Number(a.amount);
    const e = Math.min(whole, left);
    const part = (f: (typeof FIGURES)[number], exact: () => number) => (e === whole ? Number(a[f]) : exact());
    const paid = part('paidAmount', () => new Decimal(a.paidAmount as number).times(e).div(whole).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber());
    const itemBase = part('itemBase', () => toBase(e, Number(a.itemRate)));
    const paidBase = part('paidBase', () => toBase(paid, Number(a.payRate)));
    const ok = await tenant.update('openItem').set({
      allocated: sql`${sql.ref('allocated')} - ${e}`, openAmount: sql`${sql.ref('openAmount')} + ${e}`, status: 'open',
      allocatedBase: sql`${sql.ref('allocatedBase')} - ${itemBase}`, updatedAt: now, updatedBy: accountId, version: sql`${sql.ref('version')} + 1`,
    }).where('id', '=', Number(item.id)).where('allocated', '>=', e).returning('id').executeTakeFirst();
    if (!ok) throw new Error(`release: item ${String(item.id)} holds less than allocation ${String(a.id)}`);
    const back = await tenant.update('payDocument').set({ allocatedAmount: sql`${sql.ref('allocatedAmount')} - ${paid}`, updatedAt: now })
      .where('id', '=', Number(a.paymentId)).where('allocatedAmount', '>=', paid).returning('id').executeTakeFirst();
    if (!back) throw new Error(`release: payment ${String(a.paymentId)} holds less than allocation ${String(a.id)}`);
    await tenant.insert('financeAllocation', {
      paymentId: Number(a.paymentId), itemId: Number(item.id), allocDate: date, amount: -e, paidAmount: -paid, itemRate: Number(a.itemRate), payRate: Number(a.payRate),
      itemBase: -itemBase, paidBase: -paidBase, exchangeDiff: -(paidBase - itemBase), kind: 'release', reversesId: Number(a.id), createdAt: now, createdBy: accountId,
    }).execute();
    left -= e;
  }
  return excess;
}

/** Locks the item and, when `amount` is more than it still has open, releases the difference to the payments' advance. */
export async function releaseOverOpen(untypedTenant: Tenant, accountId: number, item: Row, amount: number, date: string, by: string): Promise<void> {
  const locked = await TypedTenant.of(untypedTenant).update('openItem').set({ updatedAt: new Date().toISOString() }).where('id', '=', Number(item.id)).returning(['id', 'docNo', 'openAmount']).executeTakeFirstOrThrow();
  const excess = amount - Number(locked.openAmount);
  if (excess > 0) await releaseToAdvance(untypedTenant, accountId, locked, excess, date, by);
}

/**
 * Undoes every allocation of a payment still standing (reversal, bounced cheque): a negative row per
 * allocation, the items reopened, the payment's allocated amount back to zero. Returns what was reopened.
 */
export async function reverseAllocations(untypedTenant: Tenant, accountId: number, paymentId: number, date: string): Promise<Row[]> {
  const tenant = TypedTenant.of(untypedTenant);
  const standing = await tenant.select('financeAllocation').selectAll().where('paymentId', '=', paymentId).orderBy('id').execute();
  // what still stands of each allocation: less its release rows (a credit over the item gave part of it back)
  const open = netAllocations(standing).filter((r) => Number(r.amount) !== 0);
  const now = new Date().toISOString();
  let paidBack = 0;
  for (const a of open.sort((x, y) => Number(x.itemId) - Number(y.itemId))) {
    const amount = Number(a.amount);
    const ok = await tenant.update('openItem').set({
      allocated: sql`${sql.ref('allocated')} - ${amount}`, openAmount: sql`${sql.ref('openAmount')} + ${amount}`, status: 'open',
      allocatedBase: sql`${sql.ref('allocatedBase')} - ${Number(a.itemBase)}`,
      updatedAt: now, updatedBy: accountId, version: sql`${sql.ref('version')} + 1`,
    }).where('id', '=', Number(a.itemId)).where('allocated', '>=', amount).returning(['id', 'sourceType', 'sourceId']).executeTakeFirst();
    if (!ok) throw new Error(`allocation ${String(a.id)}: item ${String(a.itemId)} holds less than it`);
    if (ok.sourceType === 'purchaseInvoice') await keepPayableInStep(tenant, Number(ok.sourceId), -amount, now);
    // a prepayment invoice's money already deducted on a sales invoice (预收款抵扣) stays paid
    if (ok.sourceType === 'prepaymentInvoice') {
      const pp = await tenant.select('prepaymentInvoice').select(['docNo', 'deductedAmount']).where('id', '=', Number(ok.sourceId)).executeTakeFirst();
      const item = await tenant.select('openItem').select('allocated').where('id', '=', Number(a.itemId)).executeTakeFirst();
      if (pp && Number(pp.deductedAmount) > Number(item?.allocated ?? 0)) {
        throw validationError([{ field: 'id', message: `预收款发票 ${String(pp.docNo)} 的预收款已在销售发票中抵扣 ${moneyText(pp.deductedAmount)}，不能冲销：请先作废抵扣它的销售发票` }]);
      }
    }
    paidBack += Number(a.paidAmount);
    await tenant.insert('financeAllocation', {
      paymentId, itemId: Number(a.itemId), allocDate: date, amount: -amount, paidAmount: -Number(a.paidAmount), itemRate: Number(a.itemRate), payRate: Number(a.payRate),
      itemBase: -Number(a.itemBase), paidBase: -Number(a.paidBase), exchangeDiff: -Number(a.exchangeDiff), kind: 'reverse', reversesId: Number(a.id), createdAt: now, createdBy: accountId,
    }).execute();
  }
  if (paidBack) {
    const ok = await tenant.update('payDocument').set({ allocatedAmount: sql`${sql.ref('allocatedAmount')} - ${paidBack}`, updatedAt: now })
      .where('id', '=', paymentId).where('allocatedAmount', '>=', paidBack).returning('id').executeTakeFirst();
    if (!ok) throw new Error(`payment ${paymentId}: allocated amount below its allocations`);
  }
  return open;
}

/**
 * The item side of reverseAllocations: undoes every allocation to an item still standing (a refund's item
 * being reversed) — a negative row per allocation, each payment's allocated amount lowered by what it
 * gave (its money is unallocated again: the advance is back), the item left with nothing allocated.
 * Conditional updates: a payment holding less than its allocation says so (never below zero).
 */
export async function reverseItemAllocations(untypedTenant: Tenant, accountId: number, itemId: number, date: string): Promise<Row[]> {
  const tenant = TypedTenant.of(untypedTenant);
  const rows = await tenant.select('financeAllocation').selectAll().where('itemId', '=', itemId).orderBy('id').execute();
  const open = netAllocations(rows).filter((r) => Number(r.amount) !== 0);
  const now = new Date().toISOString();
  // payments in id order, as allocations take them (one lock order)
  for (const a of open.sort((x, y) => Number(x.paymentId) - Number(y.paymentId))) {
    const amount = Number(a.amount);
    const ok = await tenant.update('openItem').set({
      allocated: sql`${sql.ref('allocated')} - ${amount}`, openAmount: sql`${sql.ref('openAmount')} + ${amount}`, status: 'open',
      allocatedBase: sql`${sql.ref('allocatedBase')} - ${Number(a.itemBase)}`, updatedAt: now, updatedBy: accountId, version: sql`${sql.ref('version')} + 1`,
    }).where('id', '=', itemId).where('allocated', '>=', amount).returning('id').executeTakeFirst();
    if (!ok) throw new Error(`allocation ${String(a.id)}: item ${itemId} holds less than it`);
    const paid = Number(a.paidAmount);
    const back = await tenant.update('payDocument').set({ allocatedAmount: sql`${sql.ref('allocatedAmount')} - ${paid}`, updatedAt: now })
      .where('id', '=', Number(a.paymentId)).where('allocatedAmount', '>=', paid).returning('id').executeTakeFirst();
    if (!back) throw new Error(`payment ${String(a.paymentId)}: allocated amount below allocation ${String(a.id)}`);
    await tenant.insert('financeAllocation', {
      paymentId: Number(a.paymentId), itemId, allocDate: date, amount: -amount, paidAmount: -paid, itemRate: Number(a.itemRate), payRate: Number(a.payRate),
      itemBase: -Number(a.itemBase), paidBase: -Number(a.paidBase), exchangeDiff: -Number(a.exchangeDiff), kind: 'reverse', reversesId: Number(a.id), createdAt: now, createdBy: accountId,
    }).execute();
  }
  return open;
}
