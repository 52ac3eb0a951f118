// Finance verification (`npm run verify`): recomputes every open item from the allocation ledger, in SQL:
// - per item: amount − Σ allocations (item currency) = allocated and amount − allocated = open_amount;
//   Σ allocations' item_base = allocated_base; status agrees (settled ⇔ nothing open);
// - per payment document: Σ allocations' paid_amount = allocated_amount ≤ settle_amount;
// - per purchase invoice: supplier_payable.paid_amount = its item's allocated amount;
// - the receivable and payable totals per company equal the sum of their open items (re-added from the
//   ledger, not from the stored open amounts).
import { sql } from 'kysely';
import type { DB } from '../../db/connection.ts';

type Row = Record<string, unknown>;

export interface FinanceDifference {
  kind: 'item' | 'payment' | 'payable' | 'total';
  companyId: number;
  id: number | null;
  label: string;
  message: string;
}

export interface FinanceVerifyResult { items: number; allocations: number; total: number; differences: FinanceDifference[] }

const cents = (v: unknown) => (Number(v) / 100).toFixed(2);

export async function verifyFinance(db: DB, opts: { companyId?: number; limit?: number } = {}): Promise<FinanceVerifyResult> {
  const limit = opts.limit ?? 1000;
  const company = opts.companyId;
  const where = (col: string) => (company === undefined ? sql`` : sql` and ${sql.ref(col)} = ${company}`);
  const out: FinanceDifference[] = [];
  const items = (await sql<Row>`
    select i.company_id as company, i.id, i.doc_no as label, i.amount, i.allocated, i.open_amount as stored, i.allocated_base as base, i.status,
      coalesce(a.s, 0) as ledger, coalesce(a.b, 0) as ledgerbase
    from open_item i left join (select item_id, sum(amount) as s, sum(item_base) as b from finance_allocation group by item_id) a on a.item_id = i.id
    where (i.allocated <> coalesce(a.s, 0) or i.open_amount <> i.amount - coalesce(a.s, 0) or i.allocated_base <> coalesce(a.b, 0)
      or (i.status = 'settled' and i.open_amount <> 0) or (i.status = 'open' and i.open_amount = 0) or i.open_amount < 0 or i.open_amount > i.amount)${where('i.company_id')}
    order by i.id limit ${limit}`.execute(db)).rows;
  for (const r of items) {
    out.push({
      kind: 'item', companyId: Number(r.company), id: Number(r.id), label: String(r.label),
      message: `款项 ${String(r.label)}：原金额 ${cents(r.amount)} − 核销 ${cents(r.ledger)} = ${cents(Number(r.amount) - Number(r.ledger))}，记录的未结金额 ${cents(r.stored)}（已核销 ${cents(r.allocated)}，本位币已核销 ${cents(r.base)}/流水 ${cents(r.ledgerbase)}，状态 ${String(r.status)}）`,
    });
  }
  const pays = (await sql<Row>`
    select p.company_id as company, p.id, p.doc_no as label, p.allocated_amount as allocated, p.settle_amount as settle, coalesce(a.s, 0) as ledger
    from pay_document p left join (select payment_id, sum(paid_amount) as s from finance_allocation group by payment_id) a on a.payment_id = p.id
    where (p.allocated_amount <> coalesce(a.s, 0) or p.allocated_amount > p.settle_amount or p.allocated_amount < 0)${where('p.company_id')}
    order by p.id limit ${limit}`.execute(db)).rows;
  for (const r of pays) {
    out.push({ kind: 'payment', companyId: Number(r.company), id: Number(r.id), label: String(r.label),
      message: `收付款单 ${String(r.label)}：核销流水合计 ${cents(r.ledger)}，记录的已核销 ${cents(r.allocated)}，可核销 ${cents(r.settle)}` });
  }
  const payables = (await sql<Row>`
    select p.company_id as company, p.invoice_id as invoice, p.paid_amount as paid, i.allocated, i.doc_no as label from supplier_payable p
    join open_item i on i.company_id = p.company_id and i.source_type = 'purchaseInvoice' and i.source_id = p.invoice_id
    where p.paid_amount <> i.allocated${where('p.company_id')} limit ${limit}`.execute(db)).rows;
  for (const r of payables) {
    out.push({ kind: 'payable', companyId: Number(r.company), id: Number(r.invoice), label: String(r.label),
      message: `采购发票 ${String(r.label)}：应付款已付 ${cents(r.paid)}，与核销合计 ${cents(r.allocated)} 不符` });
  }
  // totals: the stored open amounts per side against the ledger's
  const totals = (await sql<Row>`
    select i.company_id as company, i.side, sum(i.open_amount) as stored, sum(i.amount - coalesce(a.s, 0)) as ledger
    from open_item i left join (select item_id, sum(amount) as s from finance_allocation group by item_id) a on a.item_id = i.id
    where i.status <> 'cancelled'${where('i.company_id')} group by i.company_id, i.side`.execute(db)).rows;
  for (const r of totals) {
    if (Number(r.stored) === Number(r.ledger)) continue;
    out.push({ kind: 'total', companyId: Number(r.company), id: null, label: String(r.side),
      message: `${r.side === 'receivable' ? '应收' : '应付'}未结合计（各币种原币金额相加）${cents(r.stored)}，按核销流水应为 ${cents(r.ledger)}` });
  }
  const count = (await sql<Row>`select (select count(*) from open_item where 1 = 1${where('company_id')}) as items, (select count(*) from finance_allocation where 1 = 1${where('company_id')}) as allocations`.execute(db)).rows[0]!;
  return { items: Number(count.items), allocations: Number(count.allocations), total: out.length, differences: out.slice(0, limit) };
}
