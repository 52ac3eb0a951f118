// Stock at scale for one company: locations in two warehouses, N ledger rows (stock_move) and the
// balances and per-warehouse totals that agree with them (so `npm run verify` is clean afterwards).
// Each stocked product × warehouse × location starts with an opening move, then random adjustments
// that never take it below zero. Deterministic (seeded PRNG), batched multi-row inserts, SQLite or
// PostgreSQL. Additive: new moves land on top of the balances already there.
import { sql } from 'kysely';
import type { DB, Dialect } from '../../src/server/db/connection.ts';
import { lookupKeyOf } from '../../src/server/domain/stock/locations.ts';
import { batchOf, insertBatched, prng } from './bulk.ts';

export interface SeedMovesOptions {
  company: string;
  moves: number;
  dialect: Dialect;
  /** locations per warehouse (default 400) */
  locations?: number;
  /** share of products that get stock (default 0.8) */
  stocked?: number;
  seed?: number;
  log?: (line: string) => void;
}

export interface SeedMovesReport {
  companyId: number;
  warehouses: Array<{ id: number; code: string }>;
  locations: number;
  keys: number;
  moves: number;
  ms: number;
}

/** Warehouses WH01 (existing) and WH02, each with `perWarehouse` locations C-01-01-1 … (distinct lookup keys). */
async function ensureLocations(db: DB, dialect: Dialect, companyId: number, perWarehouse: number, now: string) {
  const stamp = { companyId, version: 1, createdAt: now, updatedAt: now };
  let whs = (await db.selectFrom('warehouse').select(['id', 'code']).where('companyId', '=', companyId).orderBy('code').execute()).map((w) => ({ id: Number(w.id), code: String(w.code) }));
  if (!whs.some((w) => w.code === 'WH02')) {
    await db.insertInto('warehouse').values({ ...stamp, code: 'WH02', name: '二号仓库', address: '浙江省宁波市北仑区', enabled: 1 }).execute();
    whs = (await db.selectFrom('warehouse').select(['id', 'code']).where('companyId', '=', companyId).orderBy('code').execute()).map((w) => ({ id: Number(w.id), code: String(w.code) }));
  }
  const chosen = whs.filter((w) => w.code === 'WH01' || w.code === 'WH02');
  const zones = ['C', 'D', 'E', 'F', 'G', 'H', 'J', 'K'];
  const byWarehouse = new Map<number, number[]>();
  for (const w of chosen) {
    const have = new Set((await db.selectFrom('location').select('lcCode').where('companyId', '=', companyId).where('warehouseId', '=', w.id).execute()).map((l) => String(l.lcCode)));
    const rows: Record<string, unknown>[] = [];
    for (let i = 0; i < perWarehouse; i++) {
      const zone = zones[Math.floor(i / 200) % zones.length]!;
      const row = String(Math.floor((i % 200) / 20) + 1).padStart(2, '0');
      const col = String((i % 20) + 1).padStart(2, '0');
      const level = String(Math.floor(i / 1600) + 1);
      const lcCode = `${zone}-${row}-${col}-${level}`;
      if (have.has(lcCode)) continue;
      rows.push({ ...stamp, warehouseId: w.id, lcCode, lookupKey: lookupKeyOf(lcCode), zone, locRow: row, locColumn: col, locLevel: level,
        type: i % 10 === 0 ? 'picking' : 'storage', capacity: 10_000, status: 'enabled' });
    }
    await insertBatched(db, dialect, 'location', rows);
    const ids = (await db.selectFrom('location').select('id').where('companyId', '=', companyId).where('warehouseId', '=', w.id).where('status', '=', 'enabled').orderBy('id').execute()).map((l) => Number(l.id));
    byWarehouse.set(w.id, ids);
  }
  return { warehouses: chosen, byWarehouse };
}

export async function seedMoves(db: DB, opts: SeedMovesOptions): Promise<SeedMovesReport> {
  const started = Date.now();
  const log = opts.log ?? (() => undefined);
  const rnd = prng(opts.seed ?? 20261122);
  const company = await db.selectFrom('company').select('id').where('code', '=', opts.company).executeTakeFirst();
  if (!company) throw new Error(`公司代码 “${opts.company}” 不存在`);
  const companyId = Number(company.id);
  const now = new Date().toISOString();
  const account = await db.selectFrom('account').select('id').where('companyId', '=', companyId).orderBy('id').limit(1).executeTakeFirst();
  const accountId = account ? Number(account.id) : null;
  const { warehouses, byWarehouse } = await ensureLocations(db, opts.dialect, companyId, opts.locations ?? 400, now);
  const products = (await db.selectFrom('product').select('id').where('companyId', '=', companyId).orderBy('id').execute()).map((p) => Number(p.id));
  if (!products.length) throw new Error('公司没有商品：先用 --products 生成商品');

  // Keys: ~80% of products stocked, each in 1–2 (warehouse, location) places; WH01 gets most.
  interface Key { productId: number; warehouseId: number; locationId: number; onHand: number; seeded: boolean }
  const keys: Key[] = [];
  const existing = new Map<string, number>();
  for (const b of await db.selectFrom('stockBalance').select(['productId', 'warehouseId', 'locationId', 'onHand']).where('companyId', '=', companyId).execute()) {
    existing.set(`${b.productId}:${b.warehouseId}:${b.locationId}`, Number(b.onHand));
  }
  const share = opts.stocked ?? 0.8;
  const wantKeys = Math.max(1, Math.min(Math.round(opts.moves / 6), Math.round(products.length * share * 1.3)));
  const stockedProducts = products.filter(() => rnd() < share);
  const seen = new Set<string>();
  for (let i = 0; keys.length < wantKeys && i < wantKeys * 3; i++) {
    const productId = stockedProducts[i % stockedProducts.length]!;
    const w = rnd() < 0.8 || warehouses.length < 2 ? warehouses[0]! : warehouses[1]!;
    const locs = byWarehouse.get(w.id)!;
    const locationId = locs[Math.floor(rnd() * locs.length)]!;
    const k = `${productId}:${w.id}:${locationId}`;
    if (seen.has(k)) continue;
    seen.add(k);
    const have = existing.get(k);
    keys.push({ productId, warehouseId: w.id, locationId, onHand: have ?? 0, seeded: have !== undefined });
  }

  // Moves over the past year, oldest first: an opening move per new key, then adjustments.
  const total = opts.moves;
  const span = 365 * 24 * 3600 * 1000;
  const t0 = Date.now() - span;
  const delta = new Map<Key, number>();
  let written = 0;
  let docId = 1;
  let pendingOpen = keys.filter((k) => !k.seeded);
  const CHUNK = 100_000;
  while (written < total) {
    const n = Math.min(CHUNK, total - written);
    const rows: Record<string, unknown>[] = [];
    for (let i = 0; i < n; i++, written++) {
      const at = new Date(t0 + Math.floor((written / total) * span)).toISOString();
      let key: Key;
      let qty: number;
      let kind: string;
      if (pendingOpen.length && (rnd() < 0.5 || written >= total - pendingOpen.length)) {
        key = pendingOpen.pop()!;
        qty = 200 + Math.floor(rnd() * 5000);
        kind = 'init';
      } else {
        key = keys[Math.floor(rnd() * keys.length)]!;
        const out = rnd() < 0.55 && key.onHand > 0;
        qty = out ? -Math.min(key.onHand, 1 + Math.floor(rnd() * 40)) : 1 + Math.floor(rnd() * 60);
        kind = out ? 'ship' : 'receive';
      }
      key.onHand += qty;
      delta.set(key, (delta.get(key) ?? 0) + qty);
      if (i % 50 === 0) docId++;
      rows.push({ companyId, productId: key.productId, warehouseId: key.warehouseId, locationId: key.locationId, qty, reservedQty: 0, kind,
        docType: 'seed', docId, docLine: (i % 50) + 1, accountId, createdAt: at });
    }
    await db.transaction().execute((trx) => insertBatched(trx, opts.dialect, 'stockMove', rows));
    log(`  库存流水 ${written}/${total}（${((Date.now() - started) / 1000).toFixed(1)} 秒）`);
  }
  pendingOpen = [];

  // Balances and per-warehouse totals: add the generated deltas (upserts, so existing rows add up).
  const balanceRows = [...delta.entries()].map(([k, d]) => ({ companyId, productId: k.productId, warehouseId: k.warehouseId, locationId: k.locationId, onHand: d, reserved: 0, version: 1, updatedAt: now }));
  const totals = new Map<string, { productId: number; warehouseId: number; onHand: number }>();
  for (const [k, d] of delta) {
    const id = `${k.productId}:${k.warehouseId}`;
    const t = totals.get(id) ?? { productId: k.productId, warehouseId: k.warehouseId, onHand: 0 };
    t.onHand += d;
    totals.set(id, t);
  }
  const summaryRows = [...totals.values()].map((t) => ({ companyId, productId: t.productId, warehouseId: t.warehouseId, onHand: t.onHand, reserved: 0, updatedAt: now }));
  await db.transaction().execute(async (trx) => {
    const size = batchOf(opts.dialect, 8);
    for (let i = 0; i < balanceRows.length; i += size) {
      await trx.insertInto('stockBalance').values(balanceRows.slice(i, i + size))
        .onConflict((oc) => oc.columns(['companyId', 'productId', 'warehouseId', 'locationId']).doUpdateSet({
          onHand: sql`${sql.ref('stockBalance.onHand')} + ${sql.ref('excluded.onHand')}`,
          version: sql`${sql.ref('stockBalance.version')} + 1`,
        })).execute();
    }
    const size2 = batchOf(opts.dialect, 6);
    for (let i = 0; i < summaryRows.length; i += size2) {
      await trx.insertInto('stockSummary').values(summaryRows.slice(i, i + size2))
        .onConflict((oc) => oc.columns(['companyId', 'productId', 'warehouseId']).doUpdateSet({
          onHand: sql`${sql.ref('stockSummary.onHand')} + ${sql.ref('excluded.onHand')}`,
        })).execute();
    }
  });
  log(`  库存余额 ${balanceRows.length} 条，仓库汇总 ${summaryRows.length} 条`);
  if (opts.dialect === 'postgres') {
    for (const t of ['location', 'stock_move', 'stock_balance', 'stock_summary']) await sql`vacuum analyze ${sql.table(t)}`.execute(db);
  } else {
    await sql`analyze`.execute(db);
  }
  return {
    companyId, warehouses, locations: [...byWarehouse.values()].reduce((s, l) => s + l.length, 0),
    keys: keys.length, moves: written, ms: Date.now() - started,
  };
}
