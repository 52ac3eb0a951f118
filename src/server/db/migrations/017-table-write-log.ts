// Kept list pages on PostgreSQL (postgres-writes.ts): every transaction that writes records the tables
// it wrote in `table_write`, in the same transaction — so the record is visible exactly when the write
// is — and a process about to serve a kept page reads the counts per table (one small query). Inserting
// rows, rather than bumping one counter row per table, keeps concurrent writers from queueing on a row
// lock. The rows are folded into `table_write_total` every few seconds (a count moves from one table to
// the other in one transaction, so the sums any reader sees only grow). Unused on SQLite.
import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  let log = db.schema.createTable('table_write');
  log = dialect === 'postgres'
    ? log.addColumn('id', 'bigserial', (c) => c.primaryKey())
    : log.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  await log.addColumn('tbl', 'text', (c) => c.notNull()).execute();
  await db.schema.createTable('table_write_total')
    .addColumn('tbl', 'text', (c) => c.primaryKey())
    .addColumn('n', 'bigint', (c) => c.notNull())
    .execute();
}
