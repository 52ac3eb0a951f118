// The bigram keyword index of a resource (`keywordIndex` in schemas/resources/*.json; the product's is
// product_keyword): one row (company_id, gram, <resource>_id) per distinct gram (keyword-grams.ts) of a
// row's searchable texts, primary key in that order, kept in the same transaction as every write of the
// rows. A keyword of two or more characters then needs only the rows holding all its grams; the lists
// still test the keyword itself on those rows (the grams only narrow), so answers stay exactly those
// of the plain LIKE scan.
//
// Writers: the generic save/remove/import handlers (syncKeywords), the 013 migration (rebuildKeywords),
// scripts/lib/seed-scale.ts (addPostings). Readers: the generic list (resources/query.ts) and the stock
// lists (domain/stock/inventory.ts), through planKeyword + candidatesCondition.
import { sql, type RawBuilder } from 'kysely';
import type { DB, Dialect } from '../db/connection.ts';
import { gramsOf } from './keyword-grams.ts';
import type { Resource } from './types.ts';

type Row = Record<string, unknown>;

export interface KeywordIndex {
  /** the index table (camelCase, like every table name in Kysely calls) */
  table: string;
  /** its column holding the indexed row's id, e.g. productId */
  idColumn: string;
  /** the indexed row's text columns (camelCase), each cut into grams on its own */
  columns: string[];
}

/** The product's index: the searchable fields of schemas/resources/product.json (a unit test keeps them equal). */
export const PRODUCT_KEYWORDS: KeywordIndex = { table: 'productKeyword', idColumn: 'productId', columns: ['code', 'barcode', 'name', 'nameEn'] };

/** A resource's keyword index: its declared table over its searchable text fields. */
export function keywordIndexOf(r: Resource): KeywordIndex | undefined {
  if (!r.keywordIndex || r.idType !== 'integer') return undefined;
  const columns = r.fields.filter((f) => f.searchable && (f.type === 'string' || f.type === 'text')).map((f) => f.column);
  return { table: r.keywordIndex, idColumn: `${r.name}Id`, columns };
}

/** The grams of a stored row (column names as Kysely returns them); none for a missing row. */
export function rowGrams(ix: KeywordIndex, row: Row | null | undefined): Set<number> {
  return row ? gramsOf(ix.columns.map((c) => row[c])) : new Set();
}

// ------------------------------------------------------------------------------------------- writing

/** gram → ids of the rows holding it */
export type Postings = Map<number, number[]>;

export function addPosting(p: Postings, gram: number, id: number): void {
  const ids = p.get(gram);
  if (ids) ids.push(id);
  else p.set(gram, [id]);
}

/** Up to this many (gram, id) pairs per statement: a JSON parameter of ~0.5 MB. */
const CHUNK = 50_000;

/**
 * Postings as JSON objects {"gram": [ids]}, grams ascending (rows then reach the primary key's B-tree in
 * its order), at most CHUNK pairs each. Written by hand: JavaScript orders integer-like keys itself.
 */
function* jsonChunks(p: Postings): Generator<string> {
  const grams = [...p.keys()].sort((a, b) => a - b);
  let parts: string[] = [];
  let size = 0;
  for (const g of grams) {
    const ids = p.get(g)!;
    for (let i = 0; i < ids.length; i += CHUNK) {
      const slice = ids.length > CHUNK ? ids.slice(i, i + CHUNK) : ids;
      parts.push(`"${g}":[${slice.join(',')}]`);
      size += slice.length;
      if (size >= CHUNK) {
        yield `{${parts.join(',')}}`;
        parts = [];
        size = 0;
      }
    }
  }
  if (parts.length) yield `{${parts.join(',')}}`;
}

/** The (gram, id) pairs of one JSON chunk as a row source: columns gram and id. */
function pairs(dialect: Dialect, json: string): RawBuilder<unknown> {
  return dialect === 'postgres'
    ? sql`(select g.key::int as gram, p.value::int as id from json_each(${json}::json) g, json_array_elements_text(g.value) p)`
    : sql`(select cast(g.key as integer) as gram, p.value as id from json_each(${json}) g, json_each(g.value) p)`;
}

/**
 * Adds postings of one company. `fresh`: the rows are new (no pair can exist yet), so a plain insert;
 * otherwise pairs already there are skipped.
 */
export async function addPostings(db: DB, dialect: Dialect, ix: KeywordIndex, companyId: number, p: Postings, fresh = false): Promise<void> {
  for (const json of jsonChunks(p)) {
    // SQLite needs the WHERE to tell the upsert's ON CONFLICT from a join's ON.
    await sql`insert into ${sql.table(ix.table)} (${sql.ref('companyId')}, ${sql.ref('gram')}, ${sql.ref(ix.idColumn)})
      select ${companyId}, x.gram, x.id from ${pairs(dialect, json)} x where true
      ${fresh ? sql`` : sql`on conflict do nothing`}`.execute(db);
  }
}

/** Removes postings of one company, each found through the primary key. */
export async function removePostings(db: DB, dialect: Dialect, ix: KeywordIndex, companyId: number, p: Postings): Promise<void> {
  for (const json of jsonChunks(p)) {
    await (dialect === 'postgres'
      ? sql`delete from ${sql.table(ix.table)} k using ${pairs(dialect, json)} x
          where k.${sql.ref('companyId')} = ${companyId} and k.${sql.ref('gram')} = x.gram and k.${sql.ref(ix.idColumn)} = x.id`
      : sql`delete from ${sql.table(ix.table)} where ${sql.ref('companyId')} = ${companyId}
          and (${sql.ref('gram')}, ${sql.ref(ix.idColumn)}) in (select gram, id from ${pairs(dialect, json)})`).execute(db);
  }
}

export interface RowChange {
  id: number;
  /** the stored row before the write; null or absent for a new row */
  before?: Row | null;
  /** the stored row after the write; null or absent for a removed row */
  after?: Row | null;
}

/**
 * Brings the index in line with written rows of one company, in the writer's transaction: grams the
 * old texts had and the new ones lack go, grams the new ones add come. Rows whose texts did not change
 * cost nothing.
 */
export async function syncKeywords(db: DB, dialect: Dialect, ix: KeywordIndex, companyId: number, changes: readonly RowChange[]): Promise<void> {
  const gone: Postings = new Map();
  const added: Postings = new Map();
  let fresh = true;
  for (const c of changes) {
    const unchanged = c.before && c.after && ix.columns.every((col) => c.before![col] === c.after![col]);
    if (unchanged) continue;
    const before = rowGrams(ix, c.before);
    const after = rowGrams(ix, c.after);
    for (const g of before) if (!after.has(g)) addPosting(gone, g, c.id);
    for (const g of after) if (!before.has(g)) addPosting(added, g, c.id);
    if (c.before) fresh = false;
  }
  if (gone.size) await removePostings(db, dialect, ix, companyId, gone);
  if (added.size) await addPostings(db, dialect, ix, companyId, added, fresh);
}

/**
 * Indexes every row of `source` (all companies) into an empty index table, `batch` rows at a time read
 * in id order. For migrations and repairs.
 */
export async function rebuildKeywords(db: DB, dialect: Dialect, ix: KeywordIndex, source: string, batch = 100_000): Promise<number> {
  let last = 0;
  let pairsWritten = 0;
  for (;;) {
    const rows = (await db.selectFrom(source).select(['id', 'companyId', ...ix.columns] as never[])
      .where('id', '>', last).orderBy('id').limit(batch).execute()) as Row[];
    if (!rows.length) break;
    last = Number(rows[rows.length - 1].id);
    const byCompany = new Map<number, Postings>();
    for (const row of rows) {
      const companyId = Number(row.companyId);
      let p = byCompany.get(companyId);
      if (!p) byCompany.set(companyId, (p = new Map()));
      for (const g of rowGrams(ix, row)) addPosting(p, g, Number(row.id));
    }
    for (const [companyId, p] of byCompany) {
      await addPostings(db, dialect, ix, companyId, p, true);
      for (const ids of p.values()) pairsWritten += ids.length;
    }
    if (rows.length < batch) break;
  }
  return pairsWritten;
}

// ------------------------------------------------------------------------------------------- reading

/**
 * How a list finds the rows of a keyword:
 * - drive: from the index — the rows holding the keyword's rarest grams, each then read and tested;
 *   cheap when they are few, whatever the order asked for.
 * - probe (SQLite): walk the rows in the order asked for, as without a keyword, but test a row only if
 *   the rarest gram's rows (read once) hold it; cheap when the keyword is common enough that the page
 *   fills soon.
 * - scan: no index; walk and test every row (a keyword whose grams are in most rows).
 */
export type Strategy = 'drive' | 'probe' | 'scan';

export interface KeywordPlan {
  strategy: Strategy;
  /** the grams the candidates must hold, rarest first (at most MAX_GRAMS) */
  grams: number[];
}

/** More grams narrow little once the rarest few are met (the keyword test decides) and cost planning time on PostgreSQL. */
const MAX_GRAMS = 3;
/** The rarest grams are chosen among a long keyword's first ones only (each is counted once a minute). */
const MAX_COUNTED = 12;
/** Gram frequencies are counted up to this; a keyword whose every gram reaches it is scanned. */
const GRAM_CAP = 20_000;
/** Candidates are counted up to this when the plan hangs on how few they are. */
const CANDIDATE_CAP = 3000;
const STATS_TTL_MS = 60_000;
const MAX_STATS = 20_000;

// Cost per row of each step, in µs, measured on 100,000 products (SQLite 3.53 / PostgreSQL 15, in
// process): reading one posting, probing the primary key, reading and testing a candidate row (then
// sorting it, or counting it), walking the requested order testing each row (probe: only an in-memory
// id test), counting by a full scan.
const COSTS = {
  sqlite: { posting: 0.1, probe: 0.25, candidate: 1.2, countCandidate: 0.8, walkProbe: 0.12, walkTest: 0.8, scanCount: 0.3 },
  postgres: { posting: 0.1, probe: 0.5, candidate: 2.0, countCandidate: 1.5, walkProbe: Infinity, walkTest: 0.8, scanCount: 0.25 },
};

// Statistics only steer the plan — every strategy answers the same rows — so a few stale ones are
// harmless: kept a minute per process and database. Requests arriving while one is read wait for it.
const statsByDb = new WeakMap<object, Map<string, { value: Promise<number>; at: number }>>();

function cachedStat(db: DB, key: string, read: () => Promise<number>): Promise<number> {
  let stats = statsByDb.get(db);
  if (!stats) statsByDb.set(db, (stats = new Map()));
  const hit = stats.get(key);
  if (hit && Date.now() - hit.at < STATS_TTL_MS) return hit.value;
  if (stats.size >= MAX_STATS) stats.clear();
  const value = read();
  const entry = { value, at: Date.now() };
  stats.set(key, entry);
  value.catch(() => { if (stats.get(key) === entry) stats.delete(key); });
  return value;
}

/** count(*) of a select's rows. */
async function countOf(db: DB, select: RawBuilder<unknown>): Promise<number> {
  const row = (await sql<{ n: number | string }>`select count(*) as n from (${select}) x`.execute(db)).rows[0];
  return Number(row?.n ?? 0);
}

/** The rows of a company holding all of `grams` (rarest first), as a subquery of ids. */
function candidates(dialect: Dialect, ix: KeywordIndex, companyId: number, grams: number[]): RawBuilder<unknown> {
  const t = sql.table(ix.table);
  const id = sql.ref(ix.idColumn);
  const company = sql.ref('companyId');
  const gram = sql.ref('gram');
  // SQLite's CROSS JOIN keeps the order written: the rarest gram's rows first, the others probed.
  const join = dialect === 'sqlite' ? sql`cross join` : sql`join`;
  const joins = grams.slice(1).map((g, i) => {
    const k = sql.raw(`k${i + 1}`);
    return sql` ${join} ${t} ${k} on ${k}.${company} = k0.${company} and ${k}.${id} = k0.${id} and ${k}.${gram} = ${g}`;
  });
  return sql`select k0.${id} from ${t} k0${sql.join(joins, sql``)} where k0.${company} = ${companyId} and k0.${gram} = ${grams[0]}`;
}

export interface PlanInput {
  db: DB;
  dialect: Dialect;
  ix: KeywordIndex;
  /** the indexed table (to count its rows) */
  source: string;
  companyId: number;
  grams: number[];
  /** rows the page query reads (offset + limit), or 'count' */
  rows: number | 'count';
  /** PostgreSQL and SQLite plan the drive well; probe only where the caller can use it */
  probe?: boolean;
  /** the keyword test's cost per row relative to the table's (2: PostgreSQL's lower() of every column) */
  testWeight?: number;
}

/** The cheapest strategy for a keyword's grams by the cost table above and (cached) frequencies. */
export async function planKeyword(input: PlanInput): Promise<KeywordPlan> {
  const { db, dialect, ix, companyId } = input;
  const scope = `${companyId}\u0001${ix.table}`;
  const counted = await Promise.all(input.grams.slice(0, MAX_COUNTED).map(async (g) => ({
    g,
    n: await cachedStat(db, `${scope}\u0001g${g}`, () => countOf(db, sql`select 1 from ${sql.table(ix.table)} where ${sql.ref('companyId')} = ${companyId} and ${sql.ref('gram')} = ${g} limit ${GRAM_CAP}`)),
  })));
  counted.sort((a, b) => a.n - b.n);
  const grams = counted.slice(0, MAX_GRAMS).map((x) => x.g);
  const nMin = counted[0]?.n ?? 0;
  if (!grams.length || nMin >= GRAM_CAP) return { strategy: 'scan', grams };
  const total = await cachedStat(db, `${scope}\u0001n`, () => countOf(db, sql`select 1 from ${sql.table(input.source)} where ${sql.ref('companyId')} = ${companyId}`));
  const c = COSTS[dialect];
  const walkTest = c.walkTest * (input.testWeight ?? 1);
  const intersect = c.posting * nMin + c.probe * nMin * (grams.length - 1);
  const cost = (matches: number): Record<Strategy, number> => {
    const m = Math.max(matches, 1);
    if (input.rows === 'count') return { drive: intersect + c.countCandidate * matches, probe: Infinity, scan: c.scanCount * (input.testWeight ?? 1) * total };
    const walked = Math.min(total, (input.rows * total) / m);
    return {
      drive: intersect + c.candidate * matches,
      probe: input.probe ? c.posting * nMin + c.walkProbe * walked + walkTest * walked * (nMin / Math.max(total, 1)) : Infinity,
      scan: walkTest * walked,
    };
  };
  const cheapest = (costs: Record<Strategy, number>): Strategy =>
    (Object.keys(costs) as Strategy[]).reduce((best, s) => (costs[s] < costs[best] ? s : best), 'drive');
  // One gram: its rows are the candidates. More: at most the rarest gram's rows; when that bound loses
  // to walking, count how many hold every gram — a few make driving the cheapest after all.
  let strategy = cheapest(cost(nMin));
  if (strategy !== 'drive' && grams.length > 1) {
    const key = `${scope}\u0001i${grams.join(',')}`;
    const matches = await cachedStat(db, key, () => countOf(db, sql`${candidates(dialect, ix, companyId, grams)} limit ${CANDIDATE_CAP}`));
    if (matches < CANDIDATE_CAP) strategy = cheapest(cost(matches));
  }
  return { strategy, grams };
}

/**
 * The plan as a condition on the indexed table's id (`idRef`, e.g. product.id), or null for a scan.
 * `params`: its values in the order the SQL binds them.
 */
export function candidatesCondition(dialect: Dialect, ix: KeywordIndex, companyId: number, plan: KeywordPlan, idRef: string): { sql: RawBuilder<boolean>; params: unknown[] } | null {
  if (plan.strategy === 'scan') return null;
  const [first, ...rest] = plan.grams;
  if (plan.strategy === 'probe') {
    // The unary + keeps SQLite from driving by id: it walks the requested order and looks each id up in
    // the gram's rows, read once into a temporary index.
    return {
      sql: sql<boolean>`+${sql.ref(idRef)} in (select ${sql.ref(ix.idColumn)} from ${sql.table(ix.table)} where ${sql.ref('companyId')} = ${companyId} and ${sql.ref('gram')} = ${first})`,
      params: [companyId, first],
    };
  }
  return { sql: sql<boolean>`${sql.ref(idRef)} in (${candidates(dialect, ix, companyId, plan.grams)})`, params: [...rest, companyId, first] };
}
