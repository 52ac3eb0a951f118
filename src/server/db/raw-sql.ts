// Statements of the hottest paths as plain SQL text with bound parameters (`?` on SQLite, `$n` on
// PostgreSQL): the posting path's multi-row statements (a 50-line document binds ~1,500 values), and the
// few statements every write runs (its audit row, a document number). Building them through the query
// builder and the camel-case plugin costs more CPU than SQLite takes to run them. Table and column names
// are constants of this module's callers (never input); every value is a bound parameter.
//
// The texts are built once per shape (table, columns, row count, dialect) and reused: a fresh 5 KB text
// per call cost more than running it — the statement cache hashes and compares the whole text to find
// its prepared statement (a reused string keeps its hash), and Array.prototype.flat over 100 rows took
// ~70 µs (a 100-row stock_move insert: 80 µs of JavaScript before, 2.5 µs after).
import { CompiledQuery, SqliteAdapter } from 'kysely';
import type { DB } from './connection.ts';
import { MAX_SQL_LENGTH } from './sqlite-statements.ts';

type Row = Record<string, unknown>;

export function isSqlite(db: DB): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

const MAX_TEXTS = 2000;
const texts = new Map<string, string>();
const pgTexts = new Map<string, string>();

function remember(map: Map<string, string>, key: string, text: string): string {
  // Longer texts (chunks of an import) are not kept: the statement cache does not keep them either.
  if (text.length > MAX_SQL_LENGTH) return text;
  // Shapes are few; a flood of one-off shapes (documents of every size) only empties the memo.
  if (map.size >= MAX_TEXTS) map.clear();
  map.set(key, text);
  return text;
}

/** The SQL text of one shape (`key` names everything the text depends on), built on first use. */
export function sqlText(key: string, build: () => string): string {
  return texts.get(key) ?? remember(texts, key, build());
}

/** `n` copies of `tuple`, comma-separated: the VALUES list of n rows. */
export function tuples(tuple: string, n: number): string {
  return new Array<string>(n).fill(tuple).join(', ');
}

/** Rows of equal width as one parameter list, row after row. */
export function flatRows(rows: readonly (readonly unknown[])[]): unknown[] {
  if (!rows.length) return [];
  const width = rows[0]!.length;
  const out = new Array<unknown>(rows.length * width);
  let k = 0;
  for (const row of rows) for (let j = 0; j < width; j++) out[k++] = row[j];
  return out;
}

/** Runs SQL text whose parameters are written as `?` (rewritten to $1… for PostgreSQL). */
export async function runSql(db: DB, text: string, params: unknown[]): Promise<Row[]> {
  let sqlText = text;
  if (!isSqlite(db)) {
    sqlText = pgTexts.get(text) ?? remember(pgTexts, text, numbered(text));
  }
  const result = await db.executeQuery(CompiledQuery.raw(sqlText, params));
  return result.rows as Row[];
}

function numbered(text: string): string {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}

/**
 * INSERT of many rows given as value arrays, in chunks that stay under the engines' parameter limits
 * (SQLite 32,766; PostgreSQL 65,535). `tail` is appended to each statement (ON CONFLICT ..., RETURNING ...).
 */
export async function insertMany(db: DB, table: string, columns: readonly string[], rows: unknown[][], tail = ''): Promise<Row[]> {
  const out: Row[] = [];
  if (!rows.length) return out;
  const per = Math.max(1, Math.floor((isSqlite(db) ? 30_000 : 60_000) / columns.length));
  for (let i = 0; i < rows.length; i += per) {
    const chunk = rows.length <= per ? rows : rows.slice(i, i + per);
    const text = sqlText(`insert ${table} (${columns}) ${chunk.length} ${tail}`,
      () => `insert into ${table} (${columns.join(',')}) values ${tuples(`(${columns.map(() => '?').join(',')})`, chunk.length)} ${tail}`);
    for (const r of await runSql(db, text, flatRows(chunk))) out.push(r);
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
  const sqlite = isSqlite(db);
  const { table, column } = spec;
  const passed = new Set<number>();
  for (let i = 0; i < spec.changes.length; i += 500) {
    const chunk = spec.changes.slice(i, i + 500);
    const text = sqlText(`guarded ${sqlite} ${table} ${column} ${chunk.length} ${spec.where} ${spec.guard}`, () => `with v(k, d) as (values ${tuples(sqlite ? '(?, ?)' : '(cast(? as bigint), cast(? as bigint))', chunk.length)})
      update ${table} set ${column} = ${column} + v.d from v
      where ${table}.company_id = ? and ${table}.id = v.k${spec.where ? ` and (${spec.where})` : ''}${spec.guard ? ` and (${spec.guard})` : ''}
      returning id`);
    const params = flatRows(chunk);
    params.push(spec.companyId, ...(spec.whereParams ?? []), ...(spec.guardParams ?? []));
    for (const r of await runSql(db, text, params)) passed.add(Number(r.id));
  }
  return passed;
}
