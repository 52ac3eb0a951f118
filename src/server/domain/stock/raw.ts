// Multi-row statements of the posting path as plain SQL text with bound parameters (`?` on SQLite,
// `$n` on PostgreSQL): a 50-line document binds ~1,500 values, and building them through the query
// builder and the camel-case plugin costs more CPU than SQLite takes to run them. Table and column names
// are constants of this module's callers (never input); every value is a bound parameter.
import { CompiledQuery, SqliteAdapter } from 'kysely';
import type { DB } from '../../db/connection.ts';

type Row = Record<string, unknown>;

export function isSqlite(db: DB): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

/** Runs SQL text whose parameters are written as `?` (rewritten to $1… for PostgreSQL). */
export async function runSql(db: DB, text: string, params: unknown[]): Promise<Row[]> {
  let sqlText = text;
  if (!isSqlite(db)) {
    let n = 0;
    sqlText = text.replace(/\?/g, () => `$${++n}`);
  }
  const result = await db.executeQuery(CompiledQuery.raw(sqlText, params));
  return result.rows as Row[];
}

/**
 * INSERT of many rows given as value arrays, in chunks that stay under the engines' parameter limits
 * (SQLite 32,766; PostgreSQL 65,535). `tail` is appended to each statement (ON CONFLICT ..., RETURNING ...).
 */
export async function insertMany(db: DB, table: string, columns: readonly string[], rows: unknown[][], tail = ''): Promise<Row[]> {
  const out: Row[] = [];
  if (!rows.length) return out;
  const per = Math.max(1, Math.floor((isSqlite(db) ? 30_000 : 60_000) / columns.length));
  const tuple = `(${columns.map(() => '?').join(',')})`;
  for (let i = 0; i < rows.length; i += per) {
    const chunk = rows.slice(i, i + per);
    const text = `insert into ${table} (${columns.join(',')}) values ${chunk.map(() => tuple).join(',')} ${tail}`;
    out.push(...(await runSql(db, text, chunk.flat())));
  }
  return out;
}

export interface GuardedAdd {
  /** table and column: constants of the caller */
  table: string;
  column: string;
  companyId: number;
  /** (row id, amount to add) */
  changes: Array<[number, number]>;
  /** more conditions every row must meet (SQL over the table's columns, `?` parameters) */
  where?: string;
  whereParams?: unknown[];
  /** the condition each change must pass on the row as it is (SQL over the table's columns and v.d) */
  guard?: string;
  guardParams?: unknown[];
}

/**
 * Conditional increments of many rows in one statement: `column = column + v.d` per (id, d) of
 * `changes`, on rows of the company that meet `where`, only where `guard` holds on the row as the database
 * has it (`UPDATE ... FROM (VALUES ...) ... RETURNING id`). The ids returned passed; one missing was
 * refused by the guard (or does not exist) and its change was not made. One statement per 500 changes,
 * instead of one per row: a 50-line document binds 100 values rather than building 50 queries.
 */
export async function addGuarded(db: DB, spec: GuardedAdd): Promise<Set<number>> {
  const tuple = isSqlite(db) ? '(?, ?)' : '(cast(? as bigint), cast(? as bigint))';
  const { table, column } = spec;
  const passed = new Set<number>();
  for (let i = 0; i < spec.changes.length; i += 500) {
    const chunk = spec.changes.slice(i, i + 500);
    const rows = await runSql(db, `with v(k, d) as (values ${chunk.map(() => tuple).join(', ')})
      update ${table} set ${column} = ${column} + v.d from v
      where ${table}.company_id = ? and ${table}.id = v.k${spec.where ? ` and (${spec.where})` : ''}${spec.guard ? ` and (${spec.guard})` : ''}
      returning id`, [...chunk.flat(), spec.companyId, ...(spec.whereParams ?? []), ...(spec.guardParams ?? [])]);
    for (const r of rows) passed.add(Number(r.id));
  }
  return passed;
}
