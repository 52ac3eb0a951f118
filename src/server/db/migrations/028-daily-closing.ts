// Daily closing (日结, issue 16): closing balances per day, kept by the closing and read by reports so they
// never scan the whole ledger.
// - daily_closing: one row per company and closed day (who, when, how many snapshot rows).
// - stock_snapshot: on hand per product × warehouse at the end of the day (small units), rows ≠ 0 only.
// - receivable_snapshot: each client's open receivables at the end of the day (cents, company currency),
//   rows ≠ 0 only.
// A day's snapshot = the previous closed day's snapshot + what was recorded in between (moves, items,
// cancellations and allocations by the instant they were written), so it always equals a recomputation over
// the whole ledger up to the end of that day; the created_at indexes make "what was recorded that day" a
// range read.
import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';
import { index, withId } from './columns.ts';

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await withId(db.schema.createTable('daily_closing'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('prev_day', 'text')
    .addColumn('stock_rows', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('receivable_rows', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('closed_at', 'text', (c) => c.notNull())
    .addColumn('closed_by', 'integer')
    .execute();
  await index(db, 'daily_closing', ['company_id', 'day'], true);

  await db.schema.createTable('stock_snapshot')
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('product_id', 'integer', (c) => c.notNull())
    .addColumn('warehouse_id', 'integer', (c) => c.notNull())
    .addColumn('on_hand', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('stock_snapshot_pk', ['company_id', 'day', 'product_id', 'warehouse_id'])
    .execute();
  await index(db, 'stock_snapshot', ['company_id', 'day', 'warehouse_id']);

  await db.schema.createTable('receivable_snapshot')
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('client_id', 'integer', (c) => c.notNull())
    .addColumn('balance', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('receivable_snapshot_pk', ['company_id', 'day', 'client_id'])
    .execute();

  await index(db, 'stock_move', ['company_id', 'created_at']);
  await index(db, 'open_item', ['company_id', 'created_at']);
  await index(db, 'finance_allocation', ['company_id', 'created_at']);
}
