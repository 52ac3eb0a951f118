// The stock ledger (DESIGN §4.3). Every stock change is one row of the append-only `stock_move`; the
// balance it changes (`stock_balance`, per company × product × warehouse × location) and the per product ×
// warehouse total (`stock_summary`) change in the SAME transaction, the caller's.
//
// Guarantees of postMoves (run it inside the caller's transaction, e.g. ctx.transaction):
// - Quantities are never read, computed and written back by application code. The change of every
//   balance is one conditional UPDATE evaluated by the database on the row as it is
//   (`on_hand = on_hand + v.d ... where <key> and <guard>`), so concurrent postings from any number of
//   connections or server processes cannot oversell. The moves of one call are netted per balance key
//   and applied together: `UPDATE stock_balance ... FROM (VALUES ...)` with the guard in its WHERE, and
//   RETURNING tells which keys passed.
// - Guards, in small units (integers): an outbound change (qty < 0) needs on_hand + qty >= reserved + r,
//   i.e. it cannot take stock that is reserved or not there — unless the company's `negativeStock` flag
//   is on; a reservation (r > 0) needs reserved + r <= on_hand + qty; a release never takes reserved
//   below 0. A refused key throws STOCK_NOT_ENOUGH_4071 / STOCK_RESERVE_NOT_ENOUGH_4072 /
//   STOCK_RELEASE_4073 naming the product, warehouse/location and the quantities, and the caller's
//   whole transaction (the whole document) rolls back.
// - Missing balance rows are created by an insert that cannot race (ON CONFLICT DO NOTHING) — first on
//   PostgreSQL, on SQLite only for keys the update found no row for — and the conditional update decides
//   on the row as it is.
// - Keys are handled sorted by (product, warehouse, location). On PostgreSQL the balance rows are locked
//   in that order (SELECT ... ORDER BY ... FOR UPDATE) before the update, so two transactions always
//   lock in the same order (no deadlock cycles); serialization failures and deadlocks that still happen
//   are retried by inTransaction. SQLite has one writer at a time (BEGIN ... COMMIT holds the write lock;
//   a snapshot that went stale is retried by inTransaction as SQLITE_BUSY_SNAPSHOT).
// - The per product × warehouse totals (stock_summary) change by the same net amounts in the same
//   transaction, and one ledger row per move is appended.
// - Orders commit stock per product × warehouse (`committed`, kept on stock_summary: which location the
//   goods leave from is decided later, by picking): available = on hand − reserved − committed. A move
//   that commits (committed > 0), and one that takes stock or reserves at a location while anything is
//   committed, is guarded on the totals row by the same kind of conditional update; a delivery consumes
//   its commitment in the same move that takes the goods (qty −q, committed −q). Totals rows are updated
//   in (product, warehouse) order after the balances.
// - Presale (issue 13): a commitment may exceed what is available by at most its `allowance` — the
//   expected arrivals the caller has read (and locked) for a whitelisted client's order. The warehouse's
//   gap (reserved + committed − on hand) is then positive until goods arrive; arrivals close it on their
//   own (they raise on hand: the presale commitment becomes an ordinary one, nothing to convert). While a
//   gap is open, a move that takes or reserves stock may not widen it (a delivery that consumes its own
//   commitment, qty −q with committed −q, leaves it as it is and passes; an adjustment taking goods does
//   not), and an ordinary commitment (allowance 0) gets nothing.
// - Products, warehouses and locations must belong to the caller's company (an id of another company
//   behaves as one that does not exist); a location must belong to the move's warehouse and not be
//   locked; the warehouse must be enabled; with the `locationRequired` flag every move needs a location.
import { parseFlags } from '../../../core/flags.ts';
import type { Caller } from '../../catalog/context.ts';
import type { DB } from '../../db/connection.ts';
import { bizError, validationError } from '../../http/errors.ts';
import { insertMany, isSqlite, runSql, sqlText, tuples } from '../../db/raw-sql.ts';
import { typed } from '../../db/typed.ts';

export const MOVE_KINDS = {
  init: '期初入库',
  receive: '收货',
  putaway: '上架',
  adjust: '库存调整',
  ship: '发货',
  transfer: '调拨',
  reserve: '预留',
  release: '释放预留',
  count: '盘点',
  reverse: '作废冲回',
} as const;
export type MoveKind = keyof typeof MOVE_KINDS;

export interface StockMove {
  productId: number;
  warehouseId: number;
  /** null/undefined: no location (companies that do not use locations) */
  locationId?: number | null;
  /** change of on-hand quantity, small units */
  qty?: number;
  /** change of the reserved quantity at the location, small units */
  reserved?: number;
  /** change of the quantity committed to orders in the warehouse (no location), small units */
  committed?: number;
  /**
   * presale: how far the warehouse's commitments (with this one) may exceed what it holds — the expected
   * arrivals of the product there, read by the caller in its transaction. Only with committed > 0.
   */
  allowance?: number;
  kind: MoveKind;
  /** the document that caused the move: type name (e.g. 'stockAdjust'), id and line number */
  docType: string;
  docId: number;
  docLine?: number | null;
}

/** Who posts: the company every id is checked against, and the account stamped on the ledger rows. */
export interface StockActor {
  companyId: number;
  accountId: number | null;
}

export interface PostOptions {
  /** Overrides the company's negativeStock flag (e.g. a reversal that must go through). */
  negativeStock?: boolean;
  /** Overrides the company's locationRequired flag. */
  locationRequired?: boolean;
  /** Time stamped on the rows (default: now). */
  at?: string;
  /**
   * Codes of products the caller has just read through the company's scope and that its document's lines
   * reference (so they exist until the commit): not read again. Others are read and checked as always.
   */
  knownProducts?: ReadonlyMap<number, string>;
}

export interface BalanceAfter {
  productId: number;
  warehouseId: number;
  locationId: number | null;
  onHand: number;
  reserved: number;
}

export interface PostResult {
  moves: number;
  /** the balances as this transaction left them, one per key touched */
  balances: BalanceAfter[];
}

/** Largest quantity one move may carry (small units). */
export const MAX_MOVE_QTY = 1_000_000_000_000;

/**
 * TEST HOOK (off by default; only the environment of the server process can switch it on, never a
 * request): the posting sleeps (moves × this many ms) after the balances changed and before the ledger
 * rows are written, so a crash test can kill the process in the middle of a document. Ignored when
 * NODE_ENV=production.
 */
const TEST_HOOK_POST_DELAY_MS = process.env.NODE_ENV === 'production' ? 0 : Math.max(0, Number(process.env.TEST_HOOK_STOCK_POST_DELAY_MS ?? 0) || 0);


interface Refs {
  products: Map<number, { code: string }>;
  warehouses: Map<number, { name: string; enabled: boolean }>;
  locations: Map<number, { warehouseId: number; lcCode: string; status: string }>;
}

interface Prepared {
  productId: number;
  warehouseId: number;
  /** 0 = no location (the balance key); the ledger stores null */
  loc: number;
  qty: number;
  reserved: number;
  committed: number;
  allowance: number;
  kind: MoveKind;
  docType: string;
  docId: number;
  docLine: number | null;
  index: number;
}

export function stockActor(caller: Caller | StockActor): StockActor {
  return 'company' in caller ? { companyId: caller.company.id, accountId: caller.accountId } : caller;
}

interface Loaded extends Refs {
  /** the company's flags column (undefined: no such company) */
  flags: unknown;
}

/**
 * The company's flags and every product, warehouse and location the moves name, in one round trip per
 * 500 ids of each kind (one for a document of up to 500 lines): a posting is a few dozen statements, and
 * on PostgreSQL each is a round trip.
 */
async function loadRefs(db: DB, companyId: number, moves: Prepared[], known?: ReadonlyMap<number, string>): Promise<Loaded> {
  const loaded: Loaded = { products: new Map(), warehouses: new Map(), locations: new Map(), flags: undefined };
  const products: number[] = [];
  for (const id of new Set(moves.map((m) => m.productId))) {
    const code = known?.get(id);
    if (code === undefined) products.push(id);
    else loaded.products.set(id, { code });
  }
  const warehouses = [...new Set(moves.map((m) => m.warehouseId))];
  const locations = [...new Set(moves.map((m) => m.loc).filter((l) => l !== 0))];
  const marks = (n: number) => tuples('?', n);
  for (let i = 0; i === 0 || i < Math.max(products.length, warehouses.length, locations.length); i += 500) {
    const p = products.slice(i, i + 500);
    const w = warehouses.slice(i, i + 500);
    const l = locations.slice(i, i + 500);
    const text = sqlText(`refs ${i === 0} ${p.length} ${w.length} ${l.length}`, () => {
      const parts: string[] = [];
      if (i === 0) parts.push("select 'c' as t, id, flags as a, cast(null as integer) as b, cast(null as text) as c from company where id = ?");
      // Every branch names its columns: the union takes its names from whichever branch comes first,
      // and only the first chunk starts with the company row.
      if (p.length) parts.push(`select 'p' as t, id, code as a, cast(null as integer) as b, cast(null as text) as c from product where company_id = ? and id in (${marks(p.length)})`);
      if (w.length) parts.push(`select 'w' as t, id, name as a, enabled as b, cast(null as text) as c from warehouse where company_id = ? and id in (${marks(w.length)})`);
      if (l.length) parts.push(`select 'l' as t, id, lc_code as a, warehouse_id as b, status as c from location where company_id = ? and id in (${marks(l.length)})`);
      return parts.join(' union all ');
    });
    const params: unknown[] = [];
    if (i === 0) params.push(companyId);
    if (p.length) params.push(companyId, ...p);
    if (w.length) params.push(companyId, ...w);
    if (l.length) params.push(companyId, ...l);
    for (const r of await runSql(db, text, params)) {
      const id = Number(r.id);
      if (r.t === 'c') loaded.flags = r.a;
      else if (r.t === 'p') loaded.products.set(id, { code: String(r.a) });
      else if (r.t === 'w') loaded.warehouses.set(id, { name: String(r.a), enabled: Number(r.b) === 1 });
      else loaded.locations.set(id, { warehouseId: Number(r.b), lcCode: String(r.a), status: String(r.c) });
    }
  }
  return loaded;
}

function prepare(moves: StockMove[]): Prepared[] {
  const bad = (i: number, message: string) => validationError([{ field: `moves.${i}`, message: `库存变动第 ${i + 1} 条：${message}` }]);
  const id = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;
  const qty = (v: unknown) => v === undefined || v === null || (typeof v === 'number' && Number.isSafeInteger(v) && Math.abs(v) <= MAX_MOVE_QTY);
  return moves.map((m, index) => {
    if (!id(m.productId) || !id(m.warehouseId) || !(m.locationId === undefined || m.locationId === null || id(m.locationId))) throw bad(index, '商品、仓库或库位编号不正确');
    if (!qty(m.qty) || !qty(m.reserved) || !qty(m.committed)) throw bad(index, `数量必须是整数（最小单位），且绝对值不超过 ${MAX_MOVE_QTY}`);
    if (!(m.kind in MOVE_KINDS)) throw bad(index, `变动类型 ${String(m.kind)} 不正确`);
    if (!m.docType || !id(m.docId)) throw bad(index, '来源单据不正确');
    const q = m.qty ?? 0;
    const r = m.reserved ?? 0;
    const c = m.committed ?? 0;
    if (q === 0 && r === 0 && c === 0) throw bad(index, '数量不能为 0');
    // a commitment is the warehouse's, not a location's
    if (q === 0 && r === 0 && m.locationId) throw bad(index, '订单预留不指定库位');
    const a = m.allowance ?? 0;
    if (!qty(a) || a < 0 || (a > 0 && c <= 0)) throw bad(index, '预售额度必须是非负整数，且只用于订单预留');
    return {
      productId: m.productId, warehouseId: m.warehouseId, loc: m.locationId ?? 0, qty: q, reserved: r, committed: c, allowance: a,
      kind: m.kind, docType: m.docType, docId: m.docId, docLine: m.docLine ?? null, index,
    };
  });
}

function checkRefs(m: Prepared, refs: Refs, locationRequired: boolean): void {
  const product = refs.products.get(m.productId);
  if (!product) throw bizError('PRODUCT_NOT_EXIST_4001', {}, { productId: m.productId });
  const wh = refs.warehouses.get(m.warehouseId);
  if (!wh) throw bizError('COMMON_NOT_FOUND_4004', { entity: '仓库' }, { warehouseId: m.warehouseId });
  if (!wh.enabled) throw bizError('STOCK_WAREHOUSE_DISABLED_4077', { warehouse: wh.name }, { warehouseId: m.warehouseId });
  if (m.loc === 0) {
    // a commitment alone touches no location
    if (locationRequired && (m.qty !== 0 || m.reserved !== 0)) throw bizError('STOCK_LOCATION_REQUIRED_4074', { code: product.code, warehouse: wh.name }, { productId: m.productId, warehouseId: m.warehouseId });
    return;
  }
  const loc = refs.locations.get(m.loc);
  if (!loc) throw bizError('COMMON_NOT_FOUND_4004', { entity: '库位' }, { locationId: m.loc });
  if (loc.warehouseId !== m.warehouseId) throw bizError('STOCK_LOCATION_WAREHOUSE_4075', { location: loc.lcCode, warehouse: wh.name }, { locationId: m.loc, warehouseId: m.warehouseId });
  if (loc.status !== 'enabled') throw bizError('STOCK_LOCATION_LOCKED_4076', { location: loc.lcCode }, { locationId: m.loc });
}

async function guardError(untypedDb: DB, companyId: number, m: Prepared, refs: Refs, negative: boolean) {
  const db = typed(untypedDb);
  const row = await db.selectFrom('stockBalance').select(['onHand', 'reserved'])
    .where('companyId', '=', companyId).where('productId', '=', m.productId)
    .where('warehouseId', '=', m.warehouseId).where('locationId', '=', m.loc).executeTakeFirst();
  const onHand = Number(row?.onHand ?? 0);
  const reserved = Number(row?.reserved ?? 0);
  const wh = refs.warehouses.get(m.warehouseId)!;
  const loc = m.loc ? refs.locations.get(m.loc) : undefined;
  const params = {
    code: refs.products.get(m.productId)!.code,
    place: loc ? `${wh.name}/${loc.lcCode}` : wh.name,
    onHand, reserved,
  };
  const data = { productId: m.productId, warehouseId: m.warehouseId, locationId: m.loc || null, onHand, reserved, qty: m.qty, reservedQty: m.reserved, docLine: m.docLine };
  if (m.reserved < 0 && reserved + m.reserved < 0) return bizError('STOCK_RELEASE_4073', { ...params, qty: -m.reserved }, data);
  if (m.reserved > 0 && (m.qty >= 0 || negative)) return bizError('STOCK_RESERVE_NOT_ENOUGH_4072', { ...params, qty: m.reserved }, data);
  return bizError('STOCK_NOT_ENOUGH_4071', { ...params, qty: -m.qty }, data);
}

const keyOf = (m: { productId: number; warehouseId: number; loc: number }) => `${m.productId}:${m.warehouseId}:${m.loc}`;

/**
 * The net change per balance key of one call, per 500 keys: missing rows created (INSERT ... ON CONFLICT
 * DO NOTHING, in key order); on PostgreSQL the rows locked in key order (SELECT ... ORDER BY key FOR
 * UPDATE — every transaction takes its locks in the same order, so there is no deadlock cycle); then one
 * UPDATE ... FROM (VALUES ...) whose WHERE carries every guard. A key the update did not return was
 * refused by its guard. SQLite has one writer and so no lock order to keep: there the update comes first,
 * and only keys it did not return get their rows created and are updated again — a posting to balances
 * that exist (nearly every one) is one statement, not two.
 */
async function applyBatch(db: DB, companyId: number, sorted: Prepared[], refs: Refs, negative: boolean, now: string): Promise<Map<string, BalanceAfter>> {
  const pg = !isSqlite(db);
  const net = new Map<string, Prepared>();
  for (const m of sorted) {
    const k = keyOf(m);
    const n = net.get(k);
    if (n) { n.qty += m.qty; n.reserved += m.reserved; } else net.set(k, { ...m });
  }
  const keys = [...net.values()];
  const after = new Map<string, BalanceAfter>();
  const apply = async (chunk: Prepared[]) => {
    for (const r of await updateBalances(db, companyId, chunk, negative, now)) {
      const loc = Number(r.locationId);
      after.set(`${Number(r.productId)}:${Number(r.warehouseId)}:${loc}`, {
        productId: Number(r.productId), warehouseId: Number(r.warehouseId), locationId: loc || null, onHand: Number(r.onHand), reserved: Number(r.reserved),
      });
    }
  };
  for (let i = 0; i < keys.length; i += 500) {
    const chunk = keys.slice(i, i + 500);
    let tried = chunk;
    if (pg) {
      await createBalances(db, companyId, chunk, now);
      await lockBalances(db, companyId, chunk);
      await apply(chunk);
    } else {
      await apply(chunk);
      tried = chunk.filter((m) => !after.has(keyOf(m)));
      if (tried.length) {
        await createBalances(db, companyId, tried, now);
        await apply(tried);
      }
    }
    const refused = tried.find((m) => !after.has(keyOf(m)));
    if (refused) throw await guardError(db, companyId, refused, refs, negative);
  }
  return after;
}

/** Balance rows of the keys that have none, at zero (a row that exists is left as it is). */
async function createBalances(db: DB, companyId: number, keys: Prepared[], now: string): Promise<void> {
  await insertMany(db, 'stock_balance', ['company_id', 'product_id', 'warehouse_id', 'location_id', 'on_hand', 'reserved', 'version', 'updated_at'],
    keys.map((m) => [companyId, m.productId, m.warehouseId, m.loc, 0, 0, 0, now]), 'on conflict (company_id, product_id, warehouse_id, location_id) do nothing');
}

/** PostgreSQL: the keys' balance rows locked in key order (the caller sorted them). */
async function lockBalances(db: DB, companyId: number, keys: Prepared[]): Promise<void> {
  const text = sqlText(`lock balances ${keys.length}`, () => `select 1 from stock_balance where company_id = ? and (product_id, warehouse_id, location_id) in (values ${tuples('(cast(? as integer), cast(? as integer), cast(? as integer))', keys.length)})
    order by product_id, warehouse_id, location_id for update`);
  const params: unknown[] = [companyId];
  for (const m of keys) params.push(m.productId, m.warehouseId, m.loc);
  await runSql(db, text, params);
}

/** The guarded update of the keys' balances; returns the rows it changed (a key missing was refused or has no row). */
async function updateBalances(db: DB, companyId: number, keys: Prepared[], negative: boolean, now: string) {
  const pg = !isSqlite(db);
  // PostgreSQL types the VALUES list from its first row: cast the parameters.
  const tuple = pg ? '(cast(? as integer), cast(? as integer), cast(? as integer), cast(? as bigint), cast(? as bigint))' : '(?, ?, ?, ?, ?)';
  const text = sqlText(`apply balances ${pg} ${keys.length}`, () => `
    with v(p, w, l, d, r) as (values ${tuples(tuple, keys.length)})
    update stock_balance
    set on_hand = on_hand + v.d, reserved = reserved + v.r, version = version + 1, updated_at = ?
    from v
    where stock_balance.company_id = ? and stock_balance.product_id = v.p
      and stock_balance.warehouse_id = v.w and stock_balance.location_id = v.l
      and (v.r = 0 or stock_balance.reserved + v.r >= 0)
      and (v.r <= 0 or stock_balance.reserved + v.r <= stock_balance.on_hand + v.d)
      and (v.d >= 0 or ? = 1 or stock_balance.on_hand + v.d >= stock_balance.reserved + v.r)
    returning product_id, warehouse_id, location_id, on_hand, reserved`);
  const params: unknown[] = [];
  for (const m of keys) params.push(m.productId, m.warehouseId, m.loc, m.qty, m.reserved);
  params.push(now, companyId, negative ? 1 : 0);
  return runSql(db, text, params);
}

interface Total {
  productId: number;
  warehouseId: number;
  onHand: number;
  reserved: number;
  committed: number;
  /** the largest presale allowance among the key's moves */
  allowance: number;
}

/**
 * The per product × warehouse totals change by the net amounts of the call, in key order. Changes that
 * cannot take what is committed to orders (receipts, putaways, releases at locations) are one multi-row
 * upsert, as they always were; those that commit, or take or reserve stock, are a guarded UPDATE ...
 * FROM (VALUES ...) like the balances' (rows created first where missing), and a key it does not return
 * was refused: committing more than is available, releasing more than is committed, or taking stock that
 * is committed to orders.
 */
async function applyTotals(db: DB, companyId: number, sorted: Prepared[], refs: Refs, negative: boolean, now: string): Promise<void> {
  const totals = new Map<string, Total>();
  for (const m of sorted) {
    const k = `${m.productId}:${m.warehouseId}`;
    const t = totals.get(k) ?? { productId: m.productId, warehouseId: m.warehouseId, onHand: 0, reserved: 0, committed: 0, allowance: 0 };
    t.onHand += m.qty;
    t.reserved += m.reserved;
    t.committed += m.committed;
    t.allowance = Math.max(t.allowance, m.allowance);
    totals.set(k, t);
  }
  const changed = [...totals.values()].filter((t) => t.onHand !== 0 || t.reserved !== 0 || t.committed !== 0);
  const guarded = changed.filter((t) => t.committed !== 0 || t.reserved > 0 || t.onHand < 0);
  const free = changed.filter((t) => !guarded.includes(t));
  if (free.length) {
    await insertMany(db, 'stock_summary', ['company_id', 'product_id', 'warehouse_id', 'on_hand', 'reserved', 'updated_at'],
      free.map((t) => [companyId, t.productId, t.warehouseId, t.onHand, t.reserved, now]),
      'on conflict (company_id, product_id, warehouse_id) do update set on_hand = stock_summary.on_hand + excluded.on_hand, '
      + 'reserved = stock_summary.reserved + excluded.reserved, updated_at = excluded.updated_at');
  }
  const pg = !isSqlite(db);
  for (let i = 0; i < guarded.length; i += 500) {
    const chunk = guarded.slice(i, i + 500);
    const done = new Set<string>();
    const apply = async (keys: Total[]) => {
      for (const r of await updateTotals(db, companyId, keys, negative, now)) done.add(`${Number(r.productId)}:${Number(r.warehouseId)}`);
    };
    let tried = chunk;
    if (pg) {
      await createTotals(db, companyId, chunk, now);
      await lockTotals(db, companyId, chunk);
      await apply(chunk);
    } else {
      await apply(chunk);
      tried = chunk.filter((t) => !done.has(`${t.productId}:${t.warehouseId}`));
      if (tried.length) {
        await createTotals(db, companyId, tried, now);
        await apply(tried);
      }
    }
    const refused = tried.find((t) => !done.has(`${t.productId}:${t.warehouseId}`));
    if (refused) throw await totalsError(db, companyId, refused, refs);
  }
}

async function createTotals(db: DB, companyId: number, keys: Total[], now: string): Promise<void> {
  await insertMany(db, 'stock_summary', ['company_id', 'product_id', 'warehouse_id', 'on_hand', 'reserved', 'committed', 'updated_at'],
    keys.map((t) => [companyId, t.productId, t.warehouseId, 0, 0, 0, now]), 'on conflict (company_id, product_id, warehouse_id) do nothing');
}

/** PostgreSQL: the totals rows locked in (product, warehouse) order, as the balances are. */
async function lockTotals(db: DB, companyId: number, keys: Total[]): Promise<void> {
  const text = sqlText(`lock totals ${keys.length}`, () => `select 1 from stock_summary where company_id = ? and (product_id, warehouse_id) in (values ${tuples('(cast(? as integer), cast(? as integer))', keys.length)})
    order by product_id, warehouse_id for update`);
  const params: unknown[] = [companyId];
  for (const t of keys) params.push(t.productId, t.warehouseId);
  await runSql(db, text, params);
}

/**
 * The guarded update of the totals. Availability (on hand − reserved − committed after the change ≥ 0) is
 * checked when the call commits stock, and when it takes or reserves stock while something is committed
 * (without commitments the balances' own guards decide, as before). Negative stock allowed by the
 * company lets goods go out, never commits what is not there. A commitment may leave a gap up to its
 * presale allowance `a`; a take or reservation may keep the gap already open, never widen it.
 */
async function updateTotals(db: DB, companyId: number, keys: Total[], negative: boolean, now: string) {
  const pg = !isSqlite(db);
  const tuple = pg ? '(cast(? as integer), cast(? as integer), cast(? as bigint), cast(? as bigint), cast(? as bigint), cast(? as bigint))' : '(?, ?, ?, ?, ?, ?)';
  const greatest = pg ? 'greatest' : 'max';
  const text = sqlText(`apply totals ${pg} ${keys.length}`, () => `
    with v(p, w, d, r, c, a) as (values ${tuples(tuple, keys.length)})
    update stock_summary
    set on_hand = on_hand + v.d, reserved = reserved + v.r, committed = committed + v.c, updated_at = ?
    from v
    where stock_summary.company_id = ? and stock_summary.product_id = v.p and stock_summary.warehouse_id = v.w
      and stock_summary.committed + v.c >= 0
      and (not (v.c > 0 or ((v.r > 0 or (v.d < 0 and ? = 0)) and stock_summary.committed + v.c > 0))
        or stock_summary.on_hand + v.d
          + (case when v.c > 0 then v.a else ${greatest}(0, stock_summary.reserved + stock_summary.committed - stock_summary.on_hand) end)
          >= stock_summary.reserved + v.r + stock_summary.committed + v.c)
    returning product_id, warehouse_id`);
  const params: unknown[] = [];
  for (const t of keys) params.push(t.productId, t.warehouseId, t.onHand, t.reserved, t.committed, t.allowance);
  params.push(now, companyId, negative ? 1 : 0);
  return runSql(db, text, params);
}

async function totalsError(untypedDb: DB, companyId: number, t: Total, refs: Refs) {
  const db = typed(untypedDb);
  const row = await db.selectFrom('stockSummary').select(['onHand', 'reserved', 'committed'])
    .where('companyId', '=', companyId).where('productId', '=', t.productId).where('warehouseId', '=', t.warehouseId).executeTakeFirst();
  const onHand = Number(row?.onHand ?? 0);
  const held = Number(row?.reserved ?? 0) + Number(row?.committed ?? 0);
  const params = { code: refs.products.get(t.productId)!.code, place: refs.warehouses.get(t.warehouseId)!.name, onHand, reserved: held };
  const data = { productId: t.productId, warehouseId: t.warehouseId, onHand, reserved: held, committed: Number(row?.committed ?? 0), qty: t.onHand, committedQty: t.committed };
  if (t.committed < 0 && Number(row?.committed ?? 0) + t.committed < 0) return bizError('STOCK_RELEASE_4073', { ...params, reserved: Number(row?.committed ?? 0), qty: -t.committed }, data);
  if (t.committed > 0 || t.reserved > 0) return bizError('STOCK_RESERVE_NOT_ENOUGH_4072', { ...params, qty: t.committed + t.reserved }, data);
  return bizError('STOCK_NOT_ENOUGH_4071', { ...params, qty: -t.onHand }, data);
}

/**
 * Applies stock moves inside the caller's transaction `db` (see the guarantees at the top of this
 * file). Throws a business error — and so rolls the caller's transaction back — when any move is refused.
 */
export async function postMoves(db: DB, caller: Caller | StockActor, moves: StockMove[], options: PostOptions = {}): Promise<PostResult> {
  const actor = stockActor(caller);
  if (!moves.length) return { moves: 0, balances: [] };
  const prepared = prepare(moves);
  const refs = await loadRefs(db, actor.companyId, prepared, options.knownProducts);
  if (refs.flags === undefined) throw bizError('COMMON_NOT_FOUND_4004', { entity: '公司' });
  const flags = parseFlags(refs.flags);
  const negative = options.negativeStock ?? flags.negativeStock;
  const locationRequired = options.locationRequired ?? flags.locationRequired;
  for (const m of prepared) checkRefs(m, refs, locationRequired);

  const now = options.at ?? new Date().toISOString();
  // One order for everyone: product, warehouse, location (then the document's own order).
  const sorted = [...prepared].sort((a, b) => a.productId - b.productId || a.warehouseId - b.warehouseId || a.loc - b.loc || a.index - b.index);
  if (TEST_HOOK_POST_DELAY_MS > 0) console.log(`[test-hook] slow posting: ${sorted.length} moves, ${TEST_HOOK_POST_DELAY_MS} ms each`);
  // commitments alone change no balance row
  const after = await applyBatch(db, actor.companyId, sorted.filter((m) => m.qty !== 0 || m.reserved !== 0), refs, negative, now);
  // (test hook: the pause comes after the balances changed and before the ledger rows exist)
  if (TEST_HOOK_POST_DELAY_MS > 0) {
    // told when the pause starts, so a crash test kills inside it however late it reads this process's output
    console.log(`[test-hook] balances changed (${sorted.length} moves), pausing ${TEST_HOOK_POST_DELAY_MS * sorted.length} ms`);
    await new Promise((res) => setTimeout(res, TEST_HOOK_POST_DELAY_MS * sorted.length));
  }

  await applyTotals(db, actor.companyId, sorted, refs, negative, now);

  // The ledger rows, in the document's order.
  await insertMany(db, 'stock_move', ['company_id', 'product_id', 'warehouse_id', 'location_id', 'qty', 'reserved_qty', 'committed_qty', 'kind', 'doc_type', 'doc_id', 'doc_line', 'account_id', 'created_at'],
    prepared.map((m) => [actor.companyId, m.productId, m.warehouseId, m.loc || null, m.qty, m.reserved, m.committed, m.kind, m.docType, m.docId, m.docLine, actor.accountId, now]));
  return { moves: prepared.length, balances: [...after.values()] };
}
