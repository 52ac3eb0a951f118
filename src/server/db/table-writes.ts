// Which tables have been written, so that a cache of something read from some tables (the list page
// cache) can tell whether it still holds: its token (`token(tables)`) is unchanged exactly when none of
// those tables was written since. Every INSERT, UPDATE and DELETE that reaches the database through this
// server's connections is seen, whatever code issued it:
// - A statement's written tables are read off its SQL text (`insert into x`, `update x`, `delete from x`,
//   `truncate x`, also behind a WITH). A statement that may write but whose tables cannot be read off its
//   text with certainty (REPLACE INTO, MERGE, COPY, DDL, a schema-qualified or oddly quoted name, any
//   form not parsed) counts as a write of EVERY table (EVERY_TABLE): a false alarm costs a cache miss, a
//   write gone unseen would serve stale pages.
// - SQLite: counters kept here, bumped when a statement runs, plus `pragma data_version`, which changes
//   whenever another connection (another process) commits to the file — read on the same connection
//   right before the page, so another process's answered write is always seen.
// - PostgreSQL (postgres-writes.ts): every committing transaction records its tables in the database
//   itself, in the same transaction; a token is read from there (one small query, shared by the requests
//   that arrive while none is under way), so a write answered by any process is seen by every other.

const MAX_SQL_TEXTS = 2000;

/** Stands for "every table": a write whose tables could not be read off its statement. */
export const EVERY_TABLE = '*';

/** snake_case, lowercase: how table names appear in SQL (resources name them in camelCase). */
export function sqlTableName(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`).replace(/^"|"$/g, '').toLowerCase();
}

/** Words that start (or may start) a write. */
const MAY_WRITE = /\b(?:insert|update|delete|truncate|replace|merge|upsert|copy|create|alter|drop)\b/i;
const KEYWORDS = /\b(insert|update|delete|truncate|replace|merge|upsert|copy|create|alter|drop)\b/gi;
/** A plain table name, quoted or not, that is not followed by a dot (a schema-qualified name). */
const IDENT = String.raw`(?:"([A-Za-z_][A-Za-z0-9_]*)"|([A-Za-z_][A-Za-z0-9_]*)(?![A-Za-z0-9_"]))(?!\s*\.)`;
const INSERT_TARGET = new RegExp(String.raw`^\s+(?:or\s+[a-z]+\s+)?into\s+${IDENT}`, 'i');
const UPDATE_TARGET = new RegExp(String.raw`^\s+(?:only\s+)?${IDENT}`, 'i');
const DELETE_TARGET = new RegExp(String.raw`^\s+from\s+(?:only\s+)?${IDENT}`, 'i');
/** TRUNCATE of one table; several in one statement are not parsed (every table). */
const TRUNCATE_TARGET = new RegExp(String.raw`^\s+(?:table\s+)?(?:only\s+)?${IDENT}(?!\s*,)`, 'i');
/** `for update`, `for no key update`, `on conflict ... do update`: locking and upsert clauses, not writes of their own. */
const UPDATE_CLAUSE = /\b(?:for|key|do)\s*$/i;
/** String literals and comments: keywords inside them mean nothing. */
const LITERALS = /'(?:[^']|'')*'|--[^\n]*|\/\*[\s\S]*?\*\//g;

const parsed = new Map<string, readonly string[]>();

function parse(sqlText: string): string[] {
  const text = sqlText.replace(LITERALS, ' ');
  const tables = new Set<string>();
  for (const m of text.matchAll(KEYWORDS)) {
    const word = m[1]!.toLowerCase();
    const rest = text.slice(m.index! + m[0].length);
    let target: RegExpExecArray | null = null;
    switch (word) {
      case 'insert':
        target = INSERT_TARGET.exec(rest);
        break;
      case 'update':
        if (UPDATE_CLAUSE.test(text.slice(0, m.index))) continue;
        target = UPDATE_TARGET.exec(rest);
        break;
      case 'delete':
        target = DELETE_TARGET.exec(rest);
        break;
      case 'truncate':
        target = TRUNCATE_TARGET.exec(rest);
        break;
      case 'replace':
        // replace(text, from, to) is a function, INSERT OR REPLACE INTO x an insert (read above);
        // REPLACE INTO is a write this does not parse.
        if (/^\s*\(/.test(rest) || /\bor\s*$/i.test(text.slice(0, m.index))) continue;
        break;
    }
    if (!target) return [EVERY_TABLE];
    tables.add((target[1] ?? target[2])!.toLowerCase());
  }
  return [...tables];
}

/** The tables a statement writes (none for a read; [EVERY_TABLE] when they cannot be told); remembered per SQL text. */
export function writtenTables(sqlText: string): readonly string[] {
  const known = parsed.get(sqlText);
  if (known) return known;
  const tables = MAY_WRITE.test(sqlText) ? parse(sqlText) : [];
  // Long one-off texts (multi-row inserts) are parsed again next time rather than kept.
  if (sqlText.length <= 20_000) {
    if (parsed.size >= MAX_SQL_TEXTS) parsed.clear();
    parsed.set(sqlText, tables);
  }
  return tables;
}

const UNTRUSTED = 'untrusted:';

/** Write counts per table as the database holds them (PostgreSQL: postgres-writes.ts). */
export type SharedCounts = () => Promise<ReadonlyMap<string, number>>;

export class TableWrites {
  /** false for a token that can never come again (nothing read under it is worth keeping) */
  static repeatable(token: string): boolean {
    return !token.startsWith(UNTRUSTED);
  }

  readonly #counts = new Map<string, number>();
  /** changes when other processes write (SQLite data_version) */
  readonly #external: () => number | string;
  readonly #shared: SharedCounts | undefined;
  #unique = 0;
  /** false while writes cannot all be seen: tokens then never repeat */
  trusted = true;

  /**
   * `external`: a value that changes when another process writes (SQLite). `shared`: the counts kept in
   * the database by every process (PostgreSQL) — then tokens come from there alone.
   */
  constructor(external: () => number | string = () => 0, shared?: SharedCounts) {
    this.#external = external;
    this.#shared = shared;
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
   * written in between. Take it BEFORE reading the data it stands for.
   */
  async token(tables: readonly string[]): Promise<string> {
    if (!this.trusted) return this.#untrusted();
    if (this.#shared) {
      let counts: ReadonlyMap<string, number>;
      try {
        counts = await this.#shared();
      } catch {
        return this.#untrusted(); // the counts cannot be read: trust nothing kept
      }
      return `db:${sumOf(counts, tables)}`;
    }
    return `${this.#external()}:${sumOf(this.#counts, tables)}`;
  }

  #untrusted(): string {
    return `${UNTRUSTED}${++this.#unique}`;
  }
}

/** Counters only grow: an unchanged sum means every counter is unchanged. */
function sumOf(counts: ReadonlyMap<string, number>, tables: readonly string[]): number {
  let sum = counts.get(EVERY_TABLE) ?? 0;
  for (const t of tables) sum += counts.get(t) ?? 0;
  return sum;
}
