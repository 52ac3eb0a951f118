// Procure to stock (DESIGN §4.4): purchase orders and their lines, receiving notes against a confirmed
// order (stock comes in through postMoves, kind 'receive'), and putaways that move received goods from the
// receiving place to storage locations. Quantities are small units (integers); money is integer minor
// units: amounts in cents (× 100), unit prices × 10^4, exchange rates × 10^6 (as table exchange_rate).
import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';
import { index, withId, withTenantStamps } from './columns.ts';

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  // Purchase orders: draft → confirmed → partlyReceived → received → closed; cancelled from draft or
  // confirmed (nothing received).
  await withTenantStamps(withId(db.schema.createTable('purchase_order'), dialect))
    .addColumn('doc_no', 'text', (c) => c.notNull())
    .addColumn('supplier_id', 'integer', (c) => c.notNull().references('supplier.id'))
    .addColumn('currency_id', 'integer', (c) => c.notNull().references('currency.id'))
    .addColumn('exchange_rate', 'bigint', (c) => c.notNull()) // × 10^6, the rate of order_date
    .addColumn('rate_date', 'text')
    .addColumn('order_date', 'text', (c) => c.notNull())
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('expected_date', 'text')
    .addColumn('company_rise_id', 'integer', (c) => c.references('company_rise.id'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('draft'))
    .addColumn('remark', 'text')
    .addColumn('line_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_qty', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('total_amount', 'bigint', (c) => c.notNull().defaultTo(0)) // cents, document currency
    .addColumn('received_qty', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('copied_from_id', 'integer')
    .addColumn('confirmed_at', 'text')
    .addColumn('confirmed_by', 'integer')
    .addColumn('cancelled_at', 'text')
    .addColumn('cancelled_by', 'integer')
    .addColumn('closed_at', 'text')
    .addColumn('closed_by', 'integer')
    .execute();
  await index(db, 'purchase_order', ['company_id', 'doc_no'], true);
  await index(db, 'purchase_order', ['company_id', 'status', 'id']);
  await index(db, 'purchase_order', ['company_id', 'supplier_id']);
  await index(db, 'purchase_order', ['company_id', 'warehouse_id']);
  await index(db, 'purchase_order', ['company_id', 'created_at']);

  await withId(db.schema.createTable('purchase_order_line'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id'))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('purchase_order.id'))
    .addColumn('line_no', 'integer', (c) => c.notNull())
    .addColumn('product_id', 'integer', (c) => c.notNull().references('product.id'))
    .addColumn('qty', 'bigint', (c) => c.notNull()) // small units, > 0
    .addColumn('price', 'bigint', (c) => c.notNull()) // per small unit, × 10^4
    .addColumn('amount', 'bigint', (c) => c.notNull()) // cents = round_half_up(qty × price, 2)
    .addColumn('received_qty', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('remark', 'text')
    .execute();
  await index(db, 'purchase_order_line', ['company_id', 'order_id', 'line_no'], true);
  await index(db, 'purchase_order_line', ['company_id', 'product_id']);

  // Receiving notes: draft → posted → cancelled (a posted note is reversed by cancelling it).
  await withTenantStamps(withId(db.schema.createTable('receiving_note'), dialect))
    .addColumn('doc_no', 'text', (c) => c.notNull())
    .addColumn('order_id', 'integer', (c) => c.notNull().references('purchase_order.id'))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('draft'))
    .addColumn('remark', 'text')
    .addColumn('line_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_qty', 'bigint', (c) => c.notNull().defaultTo(0)) // accepted = counted − damaged
    .addColumn('posted_at', 'text')
    .addColumn('posted_by', 'integer')
    .addColumn('cancelled_at', 'text')
    .addColumn('cancelled_by', 'integer')
    .execute();
  await index(db, 'receiving_note', ['company_id', 'doc_no'], true);
  await index(db, 'receiving_note', ['company_id', 'order_id']);
  await index(db, 'receiving_note', ['company_id', 'status', 'id']);
  await index(db, 'receiving_note', ['company_id', 'created_at']);

  await withId(db.schema.createTable('receiving_note_line'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id'))
    .addColumn('note_id', 'integer', (c) => c.notNull().references('receiving_note.id'))
    .addColumn('line_no', 'integer', (c) => c.notNull())
    .addColumn('order_line_id', 'integer', (c) => c.notNull().references('purchase_order_line.id'))
    .addColumn('product_id', 'integer', (c) => c.notNull().references('product.id'))
    .addColumn('location_id', 'integer', (c) => c.references('location.id'))
    .addColumn('counted_qty', 'bigint', (c) => c.notNull())
    .addColumn('damaged_qty', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('qty', 'bigint', (c) => c.notNull()) // accepted into stock
    .addColumn('putaway_qty', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('remark', 'text')
    .execute();
  await index(db, 'receiving_note_line', ['company_id', 'note_id', 'line_no'], true);
  await index(db, 'receiving_note_line', ['company_id', 'product_id']);
  await index(db, 'receiving_note_line', ['company_id', 'order_line_id']);

  // Putaways: draft → posted → cancelled; each line moves qty from the receiving place to a location.
  await withTenantStamps(withId(db.schema.createTable('putaway'), dialect))
    .addColumn('doc_no', 'text', (c) => c.notNull())
    .addColumn('receiving_note_id', 'integer', (c) => c.notNull().references('receiving_note.id'))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('draft'))
    .addColumn('remark', 'text')
    .addColumn('line_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_qty', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('posted_at', 'text')
    .addColumn('posted_by', 'integer')
    .addColumn('cancelled_at', 'text')
    .addColumn('cancelled_by', 'integer')
    .execute();
  await index(db, 'putaway', ['company_id', 'doc_no'], true);
  await index(db, 'putaway', ['company_id', 'receiving_note_id']);
  await index(db, 'putaway', ['company_id', 'status', 'id']);

  await withId(db.schema.createTable('putaway_line'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id'))
    .addColumn('putaway_id', 'integer', (c) => c.notNull().references('putaway.id'))
    .addColumn('line_no', 'integer', (c) => c.notNull())
    .addColumn('receiving_line_id', 'integer', (c) => c.notNull().references('receiving_note_line.id'))
    .addColumn('product_id', 'integer', (c) => c.notNull().references('product.id'))
    .addColumn('from_location_id', 'integer', (c) => c.references('location.id'))
    .addColumn('to_location_id', 'integer', (c) => c.notNull().references('location.id'))
    .addColumn('qty', 'bigint', (c) => c.notNull())
    .addColumn('remark', 'text')
    .execute();
  await index(db, 'putaway_line', ['company_id', 'putaway_id', 'line_no'], true);
  await index(db, 'putaway_line', ['company_id', 'product_id']);
  await index(db, 'putaway_line', ['company_id', 'to_location_id']);
}
