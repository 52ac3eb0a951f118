// Finance core (issue 15): the open-items ledger of both sides and the allocation ledger.
// - open_item: one row per invoice-like item — receivable (per client) or payable (per supplier) — fed by
//   posted purchase invoices, opening balances (期初应收/期初应付) and bounced-cheque charges. It keeps the
//   original amount in its currency, the rate of its date and the amount in the company currency; the
//   open amount is changed only by conditional UPDATEs in the transaction that writes an allocation, so
//   allocated ≤ amount always holds (never more than the item's open amount).
// - finance_allocation: the allocation ledger (ERPNext's Payment Ledger): append-only rows linking a
//   receipt/payment (pay_document) to an item; a reversal appends negative rows, items are never
//   rewritten. The exchange difference of settling a foreign item at another rate is booked on the row.
// supplier_payable (007) stays: its paid_amount is kept in step with the allocations to the invoice's item.
// Money in cents, rates × 10^6.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';
import { index, withId, withTenantStamps } from './columns.ts';

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await withTenantStamps(withId(db.schema.createTable('open_item'), dialect))
    .addColumn('side', 'text', (c) => c.notNull()) // receivable | payable
    .addColumn('party_type', 'text', (c) => c.notNull()) // client | supplier
    .addColumn('party_id', 'integer', (c) => c.notNull())
    .addColumn('source_type', 'text', (c) => c.notNull()) // purchaseInvoice | openingBalance | chequeBounce
    .addColumn('source_id', 'integer', (c) => c.notNull())
    .addColumn('doc_no', 'text', (c) => c.notNull())
    .addColumn('reference', 'text')
    .addColumn('doc_date', 'text', (c) => c.notNull())
    .addColumn('due_date', 'text', (c) => c.notNull())
    .addColumn('currency_id', 'integer', (c) => c.notNull().references('currency.id'))
    .addColumn('exchange_rate', 'bigint', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull()) // cents, item currency, > 0
    .addColumn('amount_base', 'bigint', (c) => c.notNull()) // cents, company currency at exchange_rate
    .addColumn('allocated', 'bigint', (c) => c.notNull().defaultTo(0)) // cents, item currency, net of reversals
    .addColumn('open_amount', 'bigint', (c) => c.notNull()) // = amount − allocated
    // Σ item_base of its allocations: open in company currency = amount_base − allocated_base, exactly what
    // a statement (items at their base amount, allocations at the item's rate) leaves open
    .addColumn('allocated_base', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open')) // open | settled | cancelled
    .execute();
  await index(db, 'open_item', ['company_id', 'source_type', 'source_id', 'doc_no'], true);
  await index(db, 'open_item', ['company_id', 'party_type', 'party_id', 'status', 'due_date']);
  await index(db, 'open_item', ['company_id', 'side', 'status', 'due_date']);
  // the aging's one grouped pass reads only this index (a covering index: no table rows visited)
  await index(db, 'open_item', ['company_id', 'party_type', 'status', 'party_id', 'due_date', 'amount_base', 'allocated_base']);

  await withId(db.schema.createTable('finance_allocation'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id'))
    .addColumn('payment_id', 'integer', (c) => c.notNull()) // pay_document.id
    .addColumn('item_id', 'integer', (c) => c.notNull().references('open_item.id'))
    .addColumn('alloc_date', 'text', (c) => c.notNull()) // the payment's date (statements)
    .addColumn('amount', 'bigint', (c) => c.notNull()) // cents, item currency (negative: reversal)
    .addColumn('paid_amount', 'bigint', (c) => c.notNull()) // cents, payment currency
    .addColumn('item_rate', 'bigint', (c) => c.notNull())
    .addColumn('pay_rate', 'bigint', (c) => c.notNull())
    .addColumn('item_base', 'bigint', (c) => c.notNull()) // amount at the item's rate
    .addColumn('paid_base', 'bigint', (c) => c.notNull()) // paid_amount at the payment's rate
    .addColumn('exchange_diff', 'bigint', (c) => c.notNull()) // paid_base − item_base, company currency
    .addColumn('kind', 'text', (c) => c.notNull()) // allocate | reverse
    .addColumn('reverses_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer')
    .execute();
  await index(db, 'finance_allocation', ['company_id', 'item_id']);
  await index(db, 'finance_allocation', ['company_id', 'payment_id']);

  // Clients get payment terms (days after the invoice's date an item falls due), and the count of their
  // bounced cheques (the flag the receivables screens show).
  await db.schema.alterTable('client').addColumn('payment_days', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('client').addColumn('cheque_bounces', 'integer', (c) => c.notNull().defaultTo(0)).execute();

  // Payables of invoices posted before this migration become open items.
  await sql`insert into open_item (company_id, version, created_at, updated_at, created_by, updated_by, side, party_type, party_id, source_type, source_id,
      doc_no, reference, doc_date, due_date, currency_id, exchange_rate, amount, amount_base, allocated, allocated_base, open_amount, status)
    select p.company_id, 1, p.created_at, p.updated_at, p.created_by, p.updated_by, 'payable', 'supplier', p.supplier_id, 'purchaseInvoice', p.invoice_id,
      i.doc_no, i.invoice_no, i.invoice_date, p.due_date, p.currency_id, p.exchange_rate, p.amount, (p.amount * p.exchange_rate + 500000) / 1000000, p.paid_amount, (p.paid_amount * p.exchange_rate + 500000) / 1000000,
      p.amount - p.paid_amount, case when p.amount = p.paid_amount then 'settled' else 'open' end
    from supplier_payable p join purchase_invoice i on i.id = p.invoice_id where p.status = 'open'`.execute(db);
}
