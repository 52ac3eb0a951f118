// Purchase invoices (采购发票, DESIGN §4.4): a supplier's invoice matched to posted receiving-note lines
// (never more than received: receiving_note_line.invoiced_qty is raised by a conditional UPDATE), the
// payable it creates, and invoice stock (发票库存): per product the quantity and amount backed by
// purchase invoices, changed in the posting transaction, with a movement row per change.
// Money as in 006: amounts in cents, unit prices × 10^4, exchange rates × 10^6, tax rates × 100 (13% → 1300).
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';
import { index, withId, withTenantStamps } from './columns.ts';

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  // Invoices: draft → posted → cancelled (a draft can be cancelled too; a posted one is reversed).
  await withTenantStamps(withId(db.schema.createTable('purchase_invoice'), dialect))
    .addColumn('doc_no', 'text', (c) => c.notNull())
    .addColumn('supplier_id', 'integer', (c) => c.notNull().references('supplier.id'))
    .addColumn('currency_id', 'integer', (c) => c.notNull().references('currency.id'))
    .addColumn('exchange_rate', 'bigint', (c) => c.notNull()) // × 10^6, the rate of invoice_date
    .addColumn('rate_date', 'text')
    .addColumn('invoice_no', 'text', (c) => c.notNull()) // the supplier's invoice number
    .addColumn('invoice_date', 'text', (c) => c.notNull())
    .addColumn('due_date', 'text', (c) => c.notNull())
    .addColumn('company_rise_id', 'integer', (c) => c.references('company_rise.id'))
    .addColumn('tax_rate', 'integer', (c) => c.notNull().defaultTo(0)) // percent × 100
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('draft'))
    .addColumn('remark', 'text')
    .addColumn('line_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_qty', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('total_amount', 'bigint', (c) => c.notNull().defaultTo(0)) // cents, invoice currency, tax included
    .addColumn('tax_amount', 'bigint', (c) => c.notNull().defaultTo(0)) // cents, the part of total_amount that is tax
    .addColumn('posted_at', 'text')
    .addColumn('posted_by', 'integer')
    .addColumn('cancelled_at', 'text')
    .addColumn('cancelled_by', 'integer')
    .execute();
  await index(db, 'purchase_invoice', ['company_id', 'doc_no'], true);
  await index(db, 'purchase_invoice', ['company_id', 'status', 'id']);
  await index(db, 'purchase_invoice', ['company_id', 'supplier_id']);
  await index(db, 'purchase_invoice', ['company_id', 'invoice_date']);
  // One supplier invoice number is registered once; a cancelled invoice gives its number back.
  await sql`create unique index purchase_invoice_company_id_supplier_id_invoice_no_uq on purchase_invoice (company_id, supplier_id, invoice_no) where status <> 'cancelled'`.execute(db);

  await withId(db.schema.createTable('purchase_invoice_line'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id'))
    .addColumn('invoice_id', 'integer', (c) => c.notNull().references('purchase_invoice.id'))
    .addColumn('line_no', 'integer', (c) => c.notNull())
    .addColumn('receiving_line_id', 'integer', (c) => c.notNull().references('receiving_note_line.id'))
    .addColumn('receiving_note_id', 'integer', (c) => c.notNull().references('receiving_note.id'))
    .addColumn('order_line_id', 'integer', (c) => c.notNull().references('purchase_order_line.id'))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('purchase_order.id'))
    .addColumn('product_id', 'integer', (c) => c.notNull().references('product.id'))
    .addColumn('qty', 'bigint', (c) => c.notNull()) // small units, > 0
    .addColumn('price', 'bigint', (c) => c.notNull()) // per small unit, × 10^4
    .addColumn('amount', 'bigint', (c) => c.notNull()) // cents = round_half_up(qty × price, 2)
    .addColumn('remark', 'text')
    .execute();
  await index(db, 'purchase_invoice_line', ['company_id', 'invoice_id', 'line_no'], true);
  await index(db, 'purchase_invoice_line', ['company_id', 'receiving_line_id']);
  await index(db, 'purchase_invoice_line', ['company_id', 'order_id']);
  await index(db, 'purchase_invoice_line', ['company_id', 'product_id']);

  // What of a receiving line has been invoiced by posted invoices (0 ≤ invoiced_qty ≤ qty).
  await db.schema.alterTable('receiving_note_line').addColumn('invoiced_qty', 'bigint', (c) => c.notNull().defaultTo(0)).execute();

  // Payables: one per posted invoice; open → cancelled when the invoice is reversed before any payment.
  await withTenantStamps(withId(db.schema.createTable('supplier_payable'), dialect))
    .addColumn('supplier_id', 'integer', (c) => c.notNull().references('supplier.id'))
    .addColumn('invoice_id', 'integer', (c) => c.notNull().references('purchase_invoice.id'))
    .addColumn('currency_id', 'integer', (c) => c.notNull().references('currency.id'))
    .addColumn('exchange_rate', 'bigint', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull()) // cents, invoice currency
    .addColumn('paid_amount', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('due_date', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
    .addColumn('cancelled_at', 'text')
    .addColumn('cancelled_by', 'integer')
    .execute();
  await index(db, 'supplier_payable', ['company_id', 'invoice_id'], true);
  await index(db, 'supplier_payable', ['company_id', 'supplier_id', 'status']);
  await index(db, 'supplier_payable', ['company_id', 'due_date']);

  // Invoice stock per product: quantity (small units) and amount (cents, company base currency).
  await withId(db.schema.createTable('invoice_stock'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id'))
    .addColumn('product_id', 'integer', (c) => c.notNull().references('product.id'))
    .addColumn('qty', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('amount', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await index(db, 'invoice_stock', ['company_id', 'product_id'], true);

  // Its history: append-only, one row per invoice line posted (+) or reversed (−).
  await withId(db.schema.createTable('invoice_stock_move'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id'))
    .addColumn('product_id', 'integer', (c) => c.notNull().references('product.id'))
    .addColumn('qty', 'bigint', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull()) // invoice | reverse
    .addColumn('doc_type', 'text', (c) => c.notNull())
    .addColumn('doc_id', 'integer', (c) => c.notNull())
    .addColumn('doc_line', 'integer')
    .addColumn('account_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await index(db, 'invoice_stock_move', ['company_id', 'product_id', 'id']);
  await index(db, 'invoice_stock_move', ['company_id', 'doc_type', 'doc_id']);
}
