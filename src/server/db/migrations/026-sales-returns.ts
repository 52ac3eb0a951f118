// Sales returns (销售退货, issue 13) come back through the receiving → putaway path: a receiving note now
// has a source — a purchase order (order_id, as before) or a confirmed sales return (return_id) — so its
// order_id / order_line_id become nullable and it gains return_id / return_line_id. Every reader that
// joins purchase_order on order_id (invoices, supplier returns, reports) keeps seeing purchase receipts
// only. The sales return tables themselves are the engine's (managed definition).
// PostgreSQL drops the NOT NULL; SQLite cannot, so the two tables are rebuilt in the migration's
// transaction: rows kept in a temporary table, the table dropped and created again under its own name
// with the new definition, rows put back — with foreign keys deferred, the rows referencing the table
// (putaway, invoice and return lines) are orphaned by the drop and found again by the insert, so the
// commit's check passes; no rename (which would rewrite the references of other tables).
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';
import { index } from './columns.ts';

async function dropNotNull(db: Kysely<any>, dialect: Dialect, table: string, column: string): Promise<void> {
  if (dialect === 'postgres') {
    await sql.raw(`alter table ${table} alter column ${column} drop not null`).execute(db);
    return;
  }
  const row = (await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = ${table}`.execute(db)).rows[0];
  if (!row) throw new Error(`migration 026: no table ${table}`);
  const from = `"${column}" integer not null`;
  if (!row.sql.includes(from)) throw new Error(`migration 026: ${table}.${column} is not declared as ${from}`);
  const indexes = (await sql<{ sql: string }>`select sql from sqlite_master where type = 'index' and tbl_name = ${table} and sql is not null`.execute(db)).rows;
  const triggers = (await sql<{ sql: string }>`select sql from sqlite_master where type = 'trigger' and tbl_name = ${table}`.execute(db)).rows;
  await sql`pragma defer_foreign_keys = on`.execute(db);
  await sql.raw(`create temp table "${table}__keep" as select * from "${table}"`).execute(db);
  await sql.raw(`drop table "${table}"`).execute(db);
  await sql.raw(row.sql.replace(from, `"${column}" integer`)).execute(db);
  await sql.raw(`insert into "${table}" select * from "${table}__keep"`).execute(db);
  await sql.raw(`drop table "${table}__keep"`).execute(db);
  for (const i of [...indexes, ...triggers]) await sql.raw(i.sql).execute(db);
}

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await dropNotNull(db, dialect, 'receiving_note', 'order_id');
  await dropNotNull(db, dialect, 'receiving_note_line', 'order_line_id');
  await db.schema.alterTable('receiving_note').addColumn('return_id', 'integer').execute();
  await db.schema.alterTable('receiving_note_line').addColumn('return_line_id', 'integer').execute();
  await index(db, 'receiving_note', ['return_id']);
}
