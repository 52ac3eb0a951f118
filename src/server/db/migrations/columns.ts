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
