// Sales returns (销售退货, issue 13) come back through the receiving → putaway path: a receiving note now
// has a source — a purchase order (order_id, as before) or a confirmed sales return (return_id) — so its
// order_id / order_line_id become nullable and it gains return_id / return_line_id. Every reader that
// joins purchase_order on order_id (invoices, supplier returns, reports) keeps seeing purchase receipts
// only. The sales return tables themselves are the engine's (managed definition).
// The NOT NULLs are dropped by dropNotNull (columns.ts: SQLite rebuilds the table).
import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';
import { dropNotNull, index } from './columns.ts';

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await dropNotNull(db, dialect, 'receiving_note', 'order_id');
  await dropNotNull(db, dialect, 'receiving_note_line', 'order_line_id');
  await db.schema.alterTable('receiving_note').addColumn('return_id', 'integer').execute();
  await db.schema.alterTable('receiving_note_line').addColumn('return_line_id', 'integer').execute();
  await index(db, 'receiving_note', ['return_id']);
}
