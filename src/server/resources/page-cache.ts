// List pages (of generic resources, inventory, stock by location), kept as the JSON text sent, per
// caller and request. An entry is served only while the tables the page was read from are unwritten —
// by any statement of any server process on the database (TableWrites tokens: SQLite counters plus
// data_version; PostgreSQL write counts kept in the database, committed with each write) — and at most
// TTL_MS old (a write no server process made, e.g. by hand in psql, is seen within that time). The
// busiest screens are opened again and again with the same page, filters and sort: those answers then
// cost no query on SQLite and one small shared query on PostgreSQL. Requests for a page being read wait
// for that reading instead of starting their own (after a write, the clerks looking at the same screen
// ask for it again at once).
import type { CallContext, InputSchema, OpHandler } from '../catalog/context.ts';
import type { Database } from '../db/connection.ts';
import { sqlTableName, TableWrites } from '../db/table-writes.ts';
import { JsonText } from '../http/json-text.ts';
import type { Resource, ResourceRegistry } from './types.ts';

const TTL_MS = 60_000;
const MAX_ENTRIES = 2000;
const MAX_CHARS = 32 * 1024 * 1024;

interface Entry { token: string; text: JsonText; at: number }

const MAX_TOTALS = 5000;

class PageCache {
  readonly #entries = new Map<string, Entry>();
  readonly #totals = new Map<string, { token: string; total: number; at: number }>();
  readonly #counting = new Map<string, Promise<number>>();
  #chars = 0;
  /** pages being read: key + token → the reading */
  readonly readings = new Map<string, Promise<JsonText>>();

  /** The total of a list's criteria counted under this token, if any. */
  total(criteria: string, token: string): number | undefined {
    const t = this.#totals.get(criteria);
    return t && t.token === token && Date.now() - t.at <= TTL_MS ? t.total : undefined;
  }

  /**
   * Counts a list's criteria once per write state: requests that find no total while it is being
   * counted wait for that count (50 requests in flight after a write would otherwise count 50 times).
   */
  countOnce(criteria: string, token: string, count: () => Promise<number>): Promise<number> {
    const k = `${criteria}\u0002${token}`;
    let running = this.#counting.get(k);
    if (!running) {
      running = count().finally(() => this.#counting.delete(k));
      this.#counting.set(k, running);
    }
    return running;
  }

  rememberTotal(criteria: string, token: string, total: number): void {
    if (!TableWrites.repeatable(token)) return;
    if (this.#totals.size >= MAX_TOTALS && !this.#totals.has(criteria)) this.#totals.clear();
    this.#totals.set(criteria, { token, total, at: Date.now() });
  }

  get(key: string, token: string): JsonText | undefined {
    const e = this.#entries.get(key);
    if (!e) return undefined;
    if (e.token !== token || Date.now() - e.at > TTL_MS) {
      this.#drop(key, e);
      return undefined;
    }
    return e.text;
  }

  put(key: string, token: string, data: unknown): JsonText {
    const text = new JsonText(JSON.stringify(data));
    const old = this.#entries.get(key);
    if (old) this.#drop(key, old);
    // Oldest first out (insertion order), until there is room.
    while (this.#entries.size && (this.#entries.size >= MAX_ENTRIES || this.#chars + text.text.length > MAX_CHARS)) {
      const [k, e] = this.#entries.entries().next().value!;
      this.#drop(k, e);
    }
    if (TableWrites.repeatable(token) && text.text.length <= MAX_CHARS / 4) {
      this.#entries.set(key, { token, text, at: Date.now() });
      this.#chars += text.text.length;
    }
    return text;
  }

  #drop(key: string, e: Entry): void {
    this.#entries.delete(key);
    this.#chars -= e.text.text.length;
  }
}

const caches = new WeakMap<Database, PageCache>();

export function pageCacheOf(database: Database): PageCache {
  let c = caches.get(database);
  if (!c) caches.set(database, (c = new PageCache()));
  return c;
}

/**
 * A list page as kept, or read now by `read` (given the write state it is read under) and kept.
 * `tables`: every table `read` reads, in SQL form (sqlTableName) — a table left out would let a page
 * outlive a write to it. `scope` names the list (its code or resource); the company and the validated
 * input complete the key. With LIST_PAGE_CACHE=off every page is read.
 */
export async function keptPage(ctx: CallContext, scope: string, tables: readonly string[], input: unknown, read: (token: string) => Promise<unknown>): Promise<unknown> {
  // Taken before anything is read: a write from now on makes what is read below stale at once.
  const token = await ctx.database.writes.token(tables);
  if (!ctx.config.listPageCache) return read(token);
  const cache = pageCacheOf(ctx.database);
  const key = `${visibilityScope(ctx)}\u0001${scope}\u0001${JSON.stringify(input)}`;
  const kept = cache.get(key, token);
  if (kept) return kept;
  if (!TableWrites.repeatable(token)) return read(token);
  // Same page, same write state: one reading for all who ask meanwhile.
  const readingKey = `${key}\u0002${token}`;
  let reading = cache.readings.get(readingKey);
  if (!reading) {
    reading = read(token).then((data) => cache.put(key, token, data)).finally(() => cache.readings.delete(readingKey));
    cache.readings.set(readingKey, reading);
  }
  return reading;
}

/**
 * Who is asking, as far as what a list shows may depend on it: the company and the account. Every key
 * of something kept from a list (pages, totals) starts with it, so that no row-level rule (a clerk's own
 * warehouses, say) can ever have one user's page served to another. Coarser than today's rules need
 * (they are per company): the price is that clerks of one company do not share kept pages.
 */
export function visibilityScope(ctx: CallContext): string {
  return `${ctx.tenant.companyId}.${ctx.caller?.accountId ?? 0}`;
}

/** Hand-written lists kept by keptList: op name → the tables they declare (a test checks them). */
export const KEPT_LISTS = new Map<string, readonly string[]>();

/**
 * A hand-written list op whose pages are kept (keptPage). `tables` (camelCase or SQL form): every table
 * `read` reads, whatever the input — tests/integration/list-page-tables.test.ts runs each kept list
 * and fails on a table it reads but does not declare. `read` gets the write token it reads under.
 */
export function keptList<I>(op: string, tables: readonly string[], input: InputSchema, read: (ctx: CallContext, input: I, token: string) => Promise<unknown>): OpHandler<I> {
  const declared = tables.map(sqlTableName);
  KEPT_LISTS.set(op, declared);
  return { input, run: (ctx, i) => keptPage(ctx, op, declared, i, (token) => read(ctx, i, token)) };
}

/**
 * Every table a list page of the resource reads: its own, those of the references it labels, its
 * keyword index, and the company (whose time zone places date filters).
 */
export function pageTables(reg: ResourceRegistry, r: Resource): string[] {
  const tables = new Set([r.table, 'company']);
  for (const f of r.fields) if (f.resource) tables.add(reg.get(f.resource)!.table);
  if (r.keywordIndex) tables.add(r.keywordIndex);
  return [...tables].map(sqlTableName);
}
