// Returns to suppliers and cancellations (DESIGN §4.4):
//  - return outbound plans (退货出库计划, `return_plan` + lines): goods sent back to a supplier.
//    draft → confirmed (the stock is reserved at the chosen locations, the receiving lines' returned
//    quantities are taken) → shipped (the stock leaves through the ledger); cancelled from any of them
//    (a shipped plan is reversed: the goods come back to the locations they left).
//  - receiving_note_line.returned_qty: what confirmed and shipped return plans hold of a receiving line;
//    taken by one conditional UPDATE (returned_qty + q <= qty), so two plans can never return more than
//    was received on that line.
//  - repeals (采购撤销单, `repeal`): the record of one successful cancellation through the repeal screen,
//    with its reason; a refused cancellation writes nothing.
// Quantities are small units (integers); unit prices × 10^4, amounts in cents.
import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';
import { index, withId, withTenantStamps } from './columns.ts';

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await withTenantStamps(withId(db.schema.createTable('return_plan'), dialect))
    .addColumn('doc_no', 'text', (c) => c.notNull())
    .addColumn('supplier_id', 'integer', (c) => c.notNull().references('supplier.id'))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    // the order (and receiving note) the returned goods came from, when every line names one
    .addColumn('order_id', 'integer', (c) => c.references('purchase_order.id'))
    .addColumn('receiving_note_id', 'integer', (c) => c.references('receiving_note.id'))
    .addColumn('currency_id', 'integer', (c) => c.notNull().references('currency.id'))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('remark', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('draft'))
    .addColumn('line_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_qty', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('total_amount', 'bigint', (c) => c.notNull().defaultTo(0)) // cents, document currency
    .addColumn('confirmed_at', 'text')
    .addColumn('confirmed_by', 'integer')
    .addColumn('shipped_at', 'text')
    .addColumn('shipped_by', 'integer')
    .addColumn('cancelled_at', 'text')
    .addColumn('cancelled_by', 'integer')
    .execute();
  await index(db, 'return_plan', ['company_id', 'doc_no'], true);
  await index(db, 'return_plan', ['company_id', 'status', 'id']);
  await index(db, 'return_plan', ['company_id', 'supplier_id']);
  await index(db, 'return_plan', ['company_id', 'order_id']);
  await index(db, 'return_plan', ['company_id', 'receiving_note_id']);
  await index(db, 'return_plan', ['company_id', 'created_at']);

  await withId(db.schema.createTable('return_plan_line'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id'))
    .addColumn('plan_id', 'integer', (c) => c.notNull().references('return_plan.id'))
    .addColumn('line_no', 'integer', (c) => c.notNull())
    .addColumn('product_id', 'integer', (c) => c.notNull().references('product.id'))
    .addColumn('location_id', 'integer', (c) => c.references('location.id')) // null: no location
    .addColumn('qty', 'bigint', (c) => c.notNull()) // small units, > 0
    .addColumn('price', 'bigint', (c) => c.notNull()) // per small unit, × 10^4 (the order line's price)
    .addColumn('amount', 'bigint', (c) => c.notNull()) // cents = round_half_up(qty × price, 2)
    .addColumn('receiving_line_id', 'integer', (c) => c.references('receiving_note_line.id'))
    .addColumn('remark', 'text')
    .execute();
  await index(db, 'return_plan_line', ['company_id', 'plan_id', 'line_no'], true);
  await index(db, 'return_plan_line', ['company_id', 'product_id']);
  await index(db, 'return_plan_line', ['company_id', 'receiving_line_id']);

  await db.schema.alterTable('receiving_note_line').addColumn('returned_qty', 'bigint', (c) => c.notNull().defaultTo(0)).execute();

  await withTenantStamps(withId(db.schema.createTable('repeal'), dialect))
    .addColumn('doc_no', 'text', (c) => c.notNull())
    .addColumn('doc_type', 'text', (c) => c.notNull()) // purchaseOrder, inboundPlan, … (relate.ts DOC_TYPES)
    .addColumn('doc_id', 'integer', (c) => c.notNull())
    .addColumn('target_doc_no', 'text', (c) => c.notNull())
    .addColumn('from_status', 'text', (c) => c.notNull()) // the document's status before the cancellation
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('summary', 'text') // what was undone, as the preview described it
    .execute();
  await index(db, 'repeal', ['company_id', 'doc_no'], true);
  await index(db, 'repeal', ['company_id', 'doc_type', 'doc_id']);
  await index(db, 'repeal', ['company_id', 'target_doc_no']);
  await index(db, 'repeal', ['company_id', 'created_at']);
}
