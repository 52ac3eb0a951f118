// Column helpers that mean the same on SQLite and PostgreSQL.
import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

export type TableBuilder = CreateTableBuilder<string, string>;

/** Auto-increment integer primary key. */
export function withId(t: TableBuilder, dialect: Dialect): TableBuilder {
  return dialect === 'postgres'
    ? t.addColumn('id', 'serial', (c) => c.primaryKey())
    : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/** company_id, version, created/updated stamps: every tenant-owned master-data row has them. */
export function withTenantStamps(t: TableBuilder): TableBuilder {
  return t
    .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id'))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer')
    .addColumn('updated_by', 'integer');
}

export async function index(db: Kysely<any>, table: string, columns: string[], unique = false): Promise<void> {
  const name = `${table}_${columns.join('_')}_${unique ? 'uq' : 'ix'}`;
  let b = db.schema.createIndex(name).on(table).columns(columns);
  if (unique) b = b.unique();
  await b.execute();
}

export const emptyJson = sql`'{}'`;

/**
 * Drops a NOT NULL of an integer column. PostgreSQL drops it; SQLite cannot, so the table is rebuilt in
 * the migration's transaction: rows kept in a temporary table, the table dropped and created again under
 * its own name with the new definition, rows put back — with foreign keys deferred, the rows referencing
 * the table are orphaned by the drop and found again by the insert, so the commit's check passes; no
 * rename (which would rewrite the references of other tables). Indexes and triggers are created again.
 */
export async function dropNotNull(db: Kysely<any>, dialect: Dialect, table: string, column: string): Promise<void> {
  if (dialect === 'postgres') {
    await sql.raw(`alter table ${table} alter column ${column} drop not null`).execute(db);
    return;
  }
  const row = (await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = ${table}`.execute(db)).rows[0];
  if (!row) throw new Error(`dropNotNull: no table ${table}`);
  const from = `"${column}" integer not null`;
  if (!row.sql.includes(from)) throw new Error(`dropNotNull: ${table}.${column} is not declared as ${from}`);
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

