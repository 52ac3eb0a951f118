// The daily closing (migration 028) also keeps payables, and closes days by itself (issue 16):
// - payable_snapshot: each supplier's open payables at the end of the day (cents, company currency), rows ≠ 0
//   only, like receivable_snapshot.
// - daily_closing.payable_rows: how many; daily_closing.payables: 1 when the closing kept payables — a day
//   closed before this migration has none, so payables read from the latest closing that kept them.
// - daily_closing.auto: 1 when the server closed the day by itself (past the company's midnight, nobody had);
//   closed_by is then empty.
import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.createTable('payable_snapshot')
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('supplier_id', 'integer', (c) => c.notNull())
    .addColumn('balance', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('payable_snapshot_pk', ['company_id', 'day', 'supplier_id'])
    .execute();
  await db.schema.alterTable('daily_closing').addColumn('payable_rows', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('daily_closing').addColumn('payables', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('daily_closing').addColumn('auto', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}
