// Which tables have been written, as counters kept by the database layer itself — every INSERT, UPDATE
// and DELETE that reaches SQLite or PostgreSQL through this server's connections is seen here, whatever
// code issued it — so a cache of something read from some tables (the list page cache) can tell whether
// it still holds: its token (`token(tables)`) is unchanged exactly when none of those tables was written
// since.
// - Own writes: a statement's written tables are read off its SQL text (`insert into x`, `update x`,
//   `delete from x`, `truncate x`, also behind a WITH) and counted when it runs; on PostgreSQL again
//   once its transaction committed, since a pooled reader may read the old rows until then.
// - Other processes: on SQLite `pragma data_version`, which changes whenever another connection commits
//   to the file; on PostgreSQL a NOTIFY sent after each commit to every server process listening
//   (postgres-writes.ts). Until the listener is connected, or after it lost its connection, tokens
//   never repeat, so nothing cached is trusted.
// A false alarm (a table named where none was written, e.g. by `on conflict do update`) only costs a
// cache miss; a write must never go unseen.

const MAX_SQL_TEXTS = 2000;

/** snake_case, lowercase: how table names appear in SQL (resources name them in camelCase). */
export function sqlTableName(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`).replace(/^"|"$/g, '').toLowerCase();
}

const WRITE = /\b(?:insert\s+(?:or\s+\w+\s+)?into|update|delete\s+from|truncate(?:\s+table)?)\s+"?([A-Za-z_][A-Za-z0-9_]*)"?/gi;
const MAY_WRITE = /\b(?:insert|update|delete|truncate)\b/i;
const parsed = new Map<string, readonly string[]>();

/** The tables a statement writes (none for a read); remembered per SQL text. */
export function writtenTables(sqlText: string): readonly string[] {
  const known = parsed.get(sqlText);
  if (known) return known;
  let tables: string[] = [];
  if (MAY_WRITE.test(sqlText)) {
    for (const m of sqlText.matchAll(WRITE)) tables.push(m[1].toLowerCase());
    tables = [...new Set(tables)];
  }
  // Long one-off texts (multi-row inserts) are parsed again next time rather than kept.
  if (sqlText.length <= 20_000) {
    if (parsed.size >= MAX_SQL_TEXTS) parsed.clear();
    parsed.set(sqlText, tables);
  }
  return tables;
}

const UNTRUSTED = 'untrusted:';

export class TableWrites {
  /** false for a token that can never come again (nothing read under it is worth keeping) */
  static repeatable(token: string): boolean {
    return !token.startsWith(UNTRUSTED);
  }

  readonly #counts = new Map<string, number>();
  /** changes when other processes write (SQLite data_version; PostgreSQL: connection epochs) */
  #external: () => number | string;
  #unique = 0;
  /** false while other processes' writes cannot be seen: tokens then never repeat */
  trusted = true;

  constructor(external: () => number | string = () => 0) {
    this.#external = external;
  }

  bump(table: string): void {
    this.#counts.set(table, (this.#counts.get(table) ?? 0) + 1);
  }

  bumpAll(tables: Iterable<string>): void {
    for (const t of tables) this.bump(t);
  }

  /** Counts the tables a statement writes; returns them. */
  noteSql(sqlText: string): readonly string[] {
    const tables = writtenTables(sqlText);
    for (const t of tables) this.bump(t);
    return tables;
  }

  /**
   * The tables' write state (names in SQL form, see sqlTableName): equal tokens mean none of them was
   * written in between. Read it BEFORE reading the data it stands for.
   */
  token(tables: readonly string[]): string {
    if (!this.trusted) return `${UNTRUSTED}${++this.#unique}`;
    // Counters only grow: an unchanged sum means every counter is unchanged.
    let sum = 0;
    for (const t of tables) sum += this.#counts.get(t) ?? 0;
    return `${this.#external()}:${sum}`;
  }
}
