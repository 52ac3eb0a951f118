// better-sqlite3 as Kysely's SqliteDialect sees it, minus two per-query costs measured on list pages:
// - prepare: Kysely's driver compiled the SQL again on every query; statements are now kept per SQL
//   text (bounded, least recently used dropped);
// - row objects: better-sqlite3 builds each row by setting one property per column from C++, which cost
//   more than reading the data itself (~3.7 µs of ~6 µs per 30-column row); rows are now read as arrays
//   and turned into objects here, already under the camel-case plugin's names (one object per row
//   instead of two; same keys in the same order).
// Everything else is better-sqlite3's own: parameter binding, errors, transactions (begin/commit/rollback
// are statements like any other), iterate for streamed selects.
import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { usableKeys } from './camel-case.ts';
import { EVERY_TABLE, writtenTables, type TableWrites } from './table-writes.ts';

const MAX_STATEMENTS = 500;
/** Statements that change the schema (the schema version is read again after them). */
const DDL = /^\s*(create|alter|drop)\s/i;
const TRANSACTION_CONTROL = /^\s*(?:begin|commit|end|rollback|savepoint|release)\b/i;
/** Longer texts are mostly one-off multi-row inserts of an import: not worth keeping. */
export const MAX_SQL_LENGTH = 20_000;

type Raw = unknown[];
type Build = (row: Raw) => Record<string, unknown>;

interface Entry {
  stmt: SQLite.Statement;
  /** What Kysely calls: the statement itself, or (readers) the array-reading wrapper. */
  facade: SqliteStatement;
}

/**
 * Row arrays → objects, keys in column order (a repeated name keeps the last value, as better-sqlite3
 * does). Plain code, nothing compiled from text; statements with a "__proto__" column never come here
 * (see entry()).
 */
function makeBuild(names: readonly string[]): Build {
  const n = names.length;
  return (r) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) row[names[i]] = r[i];
    return row;
  };
}

/**
 * The keys rows get: the columns renamed (the camel-case plugin's names, so that it has nothing left to
 * do), unless renaming would merge two columns or make a "__proto__" — then the columns as they are,
 * and the plugin renames as it always did.
 */
function keysOf(columns: string[], rename?: (column: string) => string): string[] {
  if (!rename) return columns;
  const names = columns.map(rename);
  return usableKeys(names) ? names : columns;
}

/**
 * `writes`: told of every table a statement writes, right after it ran (or failed: a partial write in
 * an open transaction still counts) — see table-writes.ts. `rename`: the names result rows get (the
 * camel-case plugin's column names).
 */
export function cachedStatements(sqlite: SQLite.Database, writes?: TableWrites, rename?: (column: string) => string): SqliteDatabase {
  const cache = new Map<string, Entry>();
  // A statement's columns are fixed when SQLite compiles it; after a schema change (in this process or
  // another) SQLite recompiles it on its next run, possibly with other columns. The schema version tells
  // whether the row constructor has to be made again. It is read once per turn of the event loop (a
  // request's statements mostly run in one turn: ~20 reads of it per receiving + putaway were 2% of the
  // server's time) and again after this connection prepares DDL; another process's schema change is seen
  // from the next turn on (reading it before every run was never atomic with the run either).
  const schemaVersion = sqlite.prepare('pragma schema_version').pluck();
  let version = -1;
  let known = false;
  const forget = () => { known = false; };
  const currentVersion = (): number => {
    if (!known) {
      version = schemaVersion.get() as number;
      known = true;
      setImmediate(forget);
    }
    return version;
  };

  function reading(stmt: SQLite.Statement): SqliteStatement {
    let build: Build | undefined;
    let builtFor = -1;
    /** Call right after the statement ran (so columns() describes what it returned). */
    const builder = (version: number): Build => {
      if (!build || builtFor !== version) {
        build = makeBuild(keysOf(stmt.columns().map((c) => c.name), rename));
        builtFor = version;
      }
      return build;
    };
    stmt.raw(true);
    return {
      reader: true,
      all(parameters) {
        const version = currentVersion();
        const raw = stmt.all(parameters) as Raw[];
        const make = builder(version);
        const rows = new Array(raw.length);
        for (let i = 0; i < raw.length; i++) rows[i] = make(raw[i]);
        return rows;
      },
      run(parameters) {
        return stmt.run(parameters);
      },
      *iterate(parameters) {
        const version = currentVersion();
        for (const r of stmt.iterate(parameters) as IterableIterator<Raw>) yield builder(version)(r);
      },
    };
  }

  /** The facade, telling `writes` of the statement's tables each time it runs. */
  function counted(facade: SqliteStatement, tables: readonly string[]): SqliteStatement {
    const note = () => writes!.bumpAll(tables);
    return {
      reader: facade.reader,
      all(parameters) {
        try { return facade.all(parameters); } finally { note(); }
      },
      run(parameters) {
        try { return facade.run(parameters); } finally { note(); }
      },
      *iterate(parameters) {
        try { yield* facade.iterate(parameters); } finally { note(); }
      },
    };
  }

  function entry(stmt: SQLite.Statement): Entry {
    // A literal "__proto__" key would set the prototype, not a property: such statements keep objects.
    const arrays = stmt.reader && !stmt.columns().some((c) => c.name === '__proto__');
    const facade = arrays ? reading(stmt) : (stmt as unknown as SqliteStatement);
    let tables = writes ? writtenTables(stmt.source) : [];
    // SQLite knows whether a statement may write: one that may, with no table read off its text, is a
    // write of every table (BEGIN IMMEDIATE takes the write lock but writes nothing).
    if (writes && !tables.length && !stmt.readonly && !TRANSACTION_CONTROL.test(stmt.source)) tables = [EVERY_TABLE];
    return { stmt, facade: tables.length ? counted(facade, tables) : facade };
  }

  return {
    close: () => sqlite.close(),
    prepare(sql: string): SqliteStatement {
      if (DDL.test(sql)) known = false;
      const hit = cache.get(sql);
      if (hit) {
        // A statement still being iterated stays with its iterator: this call gets one of its own.
        if (hit.stmt.busy) return entry(sqlite.prepare(sql)).facade;
        // Most recently used last: the first key is the one to drop.
        cache.delete(sql);
        cache.set(sql, hit);
        return hit.facade;
      }
      const e = entry(sqlite.prepare(sql));
      if (sql.length <= MAX_SQL_LENGTH) {
        cache.set(sql, e);
        if (cache.size > MAX_STATEMENTS) cache.delete(cache.keys().next().value!);
      }
      return e.facade;
    },
  };
}
