// `npm run bench:stock [-- --products 100000 --moves 1000000 --duration 10 --connections 8 --list-connections 10 --fresh --no-pg --no-sqlite]`
// The stock ledger at scale, on SQLite and PostgreSQL:
//  1. a database seeded with 100,000 products and 1,000,000 ledger rows with consistent balances
//     (scripts/lib/seed-scale.ts + scripts/lib/seed-moves.ts, the same as `npm run seed -- --moves N`);
//  2. receiving + putaway of 50-line documents per second over HTTP: one unit of work is a 50-line
//     receiving note saved and posted at once against a confirmed purchase order (oms 021403, post=true:
//     note, lines, the order row claimed, 50 guarded received-quantity updates, 50 moves into the
//     receiving location, the order recomputed, audit), then its putaway saved and posted at once to the
//     suggested (default) locations (oms 021503 without lines, post=true: 50 guarded put-away updates,
//     100 moves) — two transactions. Each connection receives against its own confirmed order of 5 × 50
//     lines (products that have stock in WH01, their default location where that stock is), 50 lines at
//     a time (scripts/lib/chain-worker.mjs runs the chains in a child process);
//  3. for comparison, postings of 50-line stock adjustments per second (oms 022703 with post=true);
//  4. the inventory list (cdm 011301: 50 rows, filtered by warehouse + keyword + only in stock) p99, as
//     served (pages kept while their tables are unwritten) and, for reference, with the page cache off
//     and while receiving + putaway units run at the same time;
//  5. `npm run verify` over all the moves (wall time of the command, and the check itself).
// autocannon runs in a child process (scripts/lib/load-worker.mjs). SQLite always: the seeded database is
// cached under the OS temp dir (--fresh rebuilds it) and every run works on a copy of it, so each run
// starts from the same million moves. PostgreSQL in a fresh database `bench_stock` on DATABASE_URL's
// server (default postgres://postgres@127.0.0.1:5432/postgres), skipped with a note when unreachable.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Session } from 'node:inspector/promises';
import { sql } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../src/server/config.ts';
import { SERVER_CHECKPOINT_PAGES } from '../src/server/db/checkpointer.ts';
import { openDatabase } from '../src/server/db/connection.ts';
import { prepareSchema } from '../src/server/schema.ts';
import { seedIfEmpty } from '../src/server/db/seed.ts';
import { verifyStock } from '../src/server/domain/stock/verify.ts';
import { createServer, type Server } from '../src/server/server.ts';
import { seedMoves } from './lib/seed-moves.ts';
import { seedScale } from './lib/seed-scale.ts';
import { chain, load, post, type ChainSpec, type LoadSpec } from './lib/load.ts';

const { values: args } = parseArgs({
  options: {
    products: { type: 'string', default: '100000' },
    moves: { type: 'string', default: '1000000' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '8' },
    'list-connections': { type: 'string', default: '10' },
    lines: { type: 'string', default: '50' },
    fresh: { type: 'boolean', default: false },
    'no-pg': { type: 'boolean', default: false },
    'no-sqlite': { type: 'boolean', default: false },
    // Experiment (default: the server's own setting, SERVER_CHECKPOINT_PAGES beside the background checkpointer): SQLite WAL pages between the server connection's own checkpoints.
    'wal-autocheckpoint': { type: 'string' },
    // For finding where a unit's time goes: a CPU profile of the server process (this one) during the measured receiving + putaway run.
    profile: { type: 'string' },
    // Only the receiving + putaway units (no adjustments, list or verify): quick turns while working on the posting path.
    'units-only': { type: 'boolean', default: false },
    // What the production request log costs on the posting path: the receiving + putaway units measured again on a
    // second server over the same data with LOG_LEVEL=info writing one JSON line a request to a file (as under systemd).
    'request-log': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
  strict: true,
});
if (args.help) {
  console.log('用法：npm run bench:stock -- [--products 100000] [--moves 1000000] [--duration 10] [--warmup 2] [--connections 8] [--list-connections 10] [--lines 50] [--fresh] [--no-pg] [--no-sqlite] [--wal-autocheckpoint 10000] [--profile units.cpuprofile] [--units-only] [--request-log]');
  process.exit(0);
}

const PRODUCTS = Number(args.products);
const MOVES = Number(args.moves);
const DURATION = Number(args.duration);
const WARMUP = Number(args.warmup);
const CONNECTIONS = Number(args.connections);
const LIST_CONNECTIONS = Number(args['list-connections']);
const LINES = Number(args.lines);
const KEYWORDS = ['螺丝', '不锈钢', 'LED', '胶带', '套装'];
const GOALS = { docsPerSec: 200, listP99: 30, verifySec: 10 };




interface Target { label: string; dataDir: string; databaseUrl?: string }

async function seed(where: { dataDir: string; databaseUrl?: string }, label: string): Promise<void> {
  const database = openDatabase(where);
  try {
    await prepareSchema(database.db, database.dialect);
    await seedIfEmpty(database.db, database.dialect);
    console.log(`${label}：写入 ${PRODUCTS} 个商品…`);
    const r = await seedScale(database.db, { company: 'demo', products: PRODUCTS, dialect: database.dialect });
    console.log(`${label}：商品完成，用时 ${(r.ms / 1000).toFixed(1)} 秒；写入 ${MOVES} 条库存流水…`);
    const m = await seedMoves(database.db, { company: 'demo', moves: MOVES, dialect: database.dialect });
    console.log(`${label}：库存流水完成（库位 ${m.locations}，库存键 ${m.keys}），用时 ${(m.ms / 1000).toFixed(1)} 秒`);
  } finally {
    await database.close();
  }
}

/** A copy of the cached seeded database to work on (the cache itself stays as seeded). */
function workingCopy(cacheDir: string): string {
  const dataDir = path.join(path.dirname(cacheDir), 'sqlite-run');
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  for (const f of ['app.sqlite', 'app.sqlite-wal']) {
    if (fs.existsSync(path.join(cacheDir, f))) fs.copyFileSync(path.join(cacheDir, f), path.join(dataDir, f), fs.constants.COPYFILE_FICLONE);
  }
  return dataDir;
}

async function prepareSqlite(): Promise<Target> {
  const cacheDir = path.join(os.tmpdir(), 'tbo-bench-stock', 'sqlite');
  const file = path.join(cacheDir, 'app.sqlite');
  if (args.fresh) fs.rmSync(cacheDir, { recursive: true, force: true });
  if (fs.existsSync(file)) {
    const database = openDatabase({ dataDir: cacheDir });
    let reuse = false;
    try {
      const applied = await prepareSchema(database.db, database.dialect);
      if (applied.length) await sql`analyze`.execute(database.db);
      const p = await database.db.selectFrom('product').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
      const m = await database.db.selectFrom('stockMove').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst().catch(() => undefined);
      reuse = Number(p?.n ?? 0) >= PRODUCTS && Number(m?.n ?? 0) >= MOVES;
      if (reuse) console.log(`SQLite：沿用 ${file}（${p?.n} 个商品，${m?.n} 条库存流水；--fresh 重新生成），在其副本上测试`);
    } finally {
      await database.close();
    }
    if (reuse) return { label: 'SQLite', dataDir: workingCopy(cacheDir) };
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
  await seed({ dataDir: cacheDir }, 'SQLite');
  return { label: 'SQLite', dataDir: workingCopy(cacheDir) };
}

async function preparePostgres(): Promise<Target | undefined> {
  const admin = new URL(process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres');
  admin.pathname = '/postgres';
  const name = 'bench_stock';
  const c = new pg.Client({ connectionString: admin.toString() });
  try {
    await c.connect();
  } catch (e) {
    console.log(`PostgreSQL：无法连接 ${admin.host}（${(e as Error).message}），跳过。`);
    return undefined;
  }
  await c.query(`drop database if exists ${name} with (force)`);
  await c.query(`create database ${name}`);
  await c.end();
  const url = new URL(admin.toString());
  url.pathname = `/${name}`;
  const dataDir = path.join(os.tmpdir(), 'tbo-bench-stock', 'pg-data');
  fs.rmSync(dataDir, { recursive: true, force: true });
  await seed({ dataDir, databaseUrl: url.toString() }, 'PostgreSQL');
  return { label: 'PostgreSQL', dataDir, databaseUrl: url.toString() };
}

/** Deterministic 50-line adjustment bodies over keys of WH01 with plenty of stock: +1 and −1 lines. */
async function postingBodies(server: Server, count: number): Promise<{ bodies: string[]; warehouseId: number }> {
  const db = server.database.db;
  const company = await db.selectFrom('company').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow();
  const wh = await db.selectFrom('warehouse').select('id').where('companyId', '=', company.id).where('code', '=', 'WH01').executeTakeFirstOrThrow();
  const keys = await db.selectFrom('stockBalance').select(['productId', 'locationId'])
    .where('companyId', '=', company.id).where('warehouseId', '=', wh.id).where('onHand', '>=', 200).where('reserved', '=', 0)
    .orderBy('productId').limit(50_000).execute();
  if (keys.length < LINES * 4) throw new Error(`WH01 中库存充足的商品太少（${keys.length}）`);
  let x = 12345;
  const rnd = () => ((x = (x * 1103515245 + 12345) % 2147483648) / 2147483648);
  const bodies: string[] = [];
  for (let d = 0; d < count; d++) {
    const used = new Set<string>();
    const lines: Array<{ productId: number; locationId: number | null; qty: number }> = [];
    while (lines.length < LINES) {
      const k = keys[Math.floor(rnd() * keys.length)]!;
      const id = `${k.productId}:${k.locationId}`;
      if (used.has(id)) continue;
      used.add(id);
      lines.push({ productId: Number(k.productId), locationId: Number(k.locationId) || null, qty: lines.length % 2 ? -1 : 1 });
    }
    bodies.push(JSON.stringify({ warehouseId: Number(wh.id), reason: 'correction', remark: '基准测试', lines, post: true }));
  }
  return { bodies, warehouseId: Number(wh.id) };
}

/** Lines of each connection's order: five receiving notes' worth, received in turn. */
const ORDER_LINES = LINES * 5;
const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

/**
 * Receiving + putaway units: per connection, a confirmed order of 5 × 50 lines over products with stock in
 * WH01 (each product's default location set to where its stock is, so the putaway goes there), and
 * receiving-note bodies of 50 of those lines at a time into a receiving location.
 */
async function receivingUnits(server: Server, address: string, headers: Record<string, string>): Promise<ChainSpec> {
  const db = server.database.db;
  const company = await db.selectFrom('company').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow();
  const wh = await db.selectFrom('warehouse').select('id').where('companyId', '=', company.id).where('code', '=', 'WH01').executeTakeFirstOrThrow();
  const warehouseId = Number(wh.id);
  const call = async (code: string, body: unknown) => {
    const r = await post(`${address}/${code.startsWith('01') ? 'cdm' : 'oms'}/api/${code}`, body, headers);
    if (r.code !== '200') throw new Error(`${code} ${JSON.stringify(body).slice(0, 200)} → ${r.code} ${r.msg}`);
    return r.data;
  };
  const existing = await db.selectFrom('location').select('id').where('companyId', '=', company.id).where('warehouseId', '=', warehouseId).where('lcCode', '=', 'BENCH-RECV').executeTakeFirst();
  const receivingLoc = existing ? Number(existing.id) : Number((await call('011103', { warehouseId, lcCode: 'BENCH-RECV', type: 'receiving' })).id);
  const needed = CONNECTIONS * ORDER_LINES;
  // Products that may be bought, with one stocked location each (the lowest), in id order.
  const stocked = await db.selectFrom('stockBalance').innerJoin('location', 'location.id', 'stockBalance.locationId')
    .innerJoin('product', 'product.id', 'stockBalance.productId')
    .select(['stockBalance.productId', (eb) => eb.fn.min('stockBalance.locationId').as('locationId')])
    .where('stockBalance.companyId', '=', company.id).where('stockBalance.warehouseId', '=', warehouseId).where('location.status', '=', 'enabled')
    .where('product.locked', '=', 0).where('product.status', '<>', 'stopped')
    .groupBy('stockBalance.productId').orderBy('stockBalance.productId').limit(needed).execute();
  if (stocked.length < needed) throw new Error(`WH01 中有库存的商品太少（${stocked.length}，需要 ${needed}）`);
  // Default locations (the putaway's suggestion), once: a second server over the same data finds them made.
  const hasDefault = new Set((await db.selectFrom('defaultLocation').select('productId').where('companyId', '=', company.id).where('warehouseId', '=', warehouseId).execute()).map((r) => Number(r.productId)));
  const toDefault = stocked.filter((r) => !hasDefault.has(Number(r.productId)));
  for (let i = 0; i < toDefault.length; i += 50) {
    await Promise.all(toDefault.slice(i, i + 50).map((r) => call('011203', { productId: Number(r.productId), warehouseId, locationId: Number(r.locationId) })));
  }
  const supplier = (await call('011601', { page: 1, pageSize: 1 })).list[0];
  const firstBodies: string[][] = [];
  for (let c = 0; c < CONNECTIONS; c++) {
    const products = stocked.slice(c * ORDER_LINES, (c + 1) * ORDER_LINES);
    const po = await call('020203', { supplierId: supplier.id, warehouseId, expectedDate: '2026-12-01', remark: '基准测试', lines: products.map((r) => ({ productId: Number(r.productId), qty: 1_000_000, price: '1' })) });
    await call('020205', { id: po.id, version: po.version });
    const orderLines = ((await call('020202', { id: po.id })).lines as Array<{ id: number }>).map((l) => l.id);
    const bodies: string[] = [];
    for (let n = 0; n < 15; n++) {
      const window = orderLines.slice((n % 5) * LINES, (n % 5 + 1) * LINES);
      bodies.push(JSON.stringify({ orderId: po.id, remark: '基准测试', post: true, lines: window.map((orderLineId, j) => ({ orderLineId, countedQty: 1 + ((n + j) % 3), locationId: receivingLoc })) }));
    }
    firstBodies.push(bodies);
  }
  return {
    base: address, headers, first: '/oms/api/021403', firstBodies,
    then: [{ path: '/oms/api/021503', template: JSON.stringify({ receivingNoteId: '$prevId', post: true }) }],
    connections: CONNECTIONS, duration: DURATION,
  };
}

function runVerifyCommand(t: Target): Promise<{ code: number | null; ms: number; out: string }> {
  const root = path.resolve(import.meta.dirname, '..');
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/verify.ts'], {
      cwd: root, env: { ...process.env, DATA_DIR: t.dataDir, DATABASE_URL: t.databaseUrl ?? '' }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code) => resolve({ code, ms: Date.now() - started, out }));
  });
}

interface Figures {
  engine: string;
  /** receiving + putaway units (a 50-line note and its putaway) per second */
  unitsPerSec: number;
  unitP50: number;
  unitP99: number;
  unitBad: number;
  unitBadSample: string | null;
  /** CPU time of the server process (this one) per unit / document / list request, ms */
  unitCpuMs: number;
  postCpuMs: number;
  listCpuMs: number;
  /** 50-line adjustments per second */
  docsPerSec: number;
  postP50: number;
  postP99: number;
  postBad: number;
  postBadSample: string | null;
  listRps: number;
  listP50: number;
  listP99: number;
  listBad: number;
  listBadSample: string | null;
  /** the same list calls with the list page cache off (every page read from the database) */
  uncachedRps: number;
  uncachedP50: number;
  uncachedP99: number;
  uncachedCpuMs: number;
  uncachedBad: number;
  /** the list (as served) while receiving + putaway units run at the same time, and those units */
  mixedListRps: number;
  mixedListP99: number;
  mixedUnitsPerSec: number;
  mixedBad: number;
  verifyMs: number;
  verifyCommandMs: number;
  verifyExit: number | null;
  verifyDifferences: number;
  moves: number;
  /** with --request-log: the same units on a server writing the request log, measured right after */
  loggedUnitsPerSec?: number;
  loggedUnitP99?: number;
  logLines?: number;
}

/** What --units-only leaves unmeasured (reported as zeros, goals not judged). */
const NO_FIGURES: Figures = {
  engine: '', unitsPerSec: 0, unitP50: 0, unitP99: 0, unitBad: 0, unitBadSample: null, unitCpuMs: 0, postCpuMs: 0, listCpuMs: 0,
  docsPerSec: 0, postP50: 0, postP99: 0, postBad: 0, postBadSample: null, listRps: 0, listP50: 0, listP99: 0, listBad: 0, listBadSample: null,
  uncachedRps: 0, uncachedP50: 0, uncachedP99: 0, uncachedCpuMs: 0, uncachedBad: 0, mixedListRps: 0, mixedListP99: 0, mixedUnitsPerSec: 0, mixedBad: 0,
  verifyMs: 0, verifyCommandMs: 0, verifyExit: 0, verifyDifferences: 0, moves: 0,
};

async function startProfile(): Promise<Session> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return session;
}

async function stopProfile(session: Session, file: string): Promise<void> {
  const { profile } = await session.post('Profiler.stop');
  fs.writeFileSync(file, JSON.stringify(profile));
  session.disconnect();
  console.log(`CPU 剖析已写入 ${file}（Chrome DevTools 或 speedscope 打开）`);
}

/** The receiving + putaway units again on a second server over the same data, with the request log on. */
async function loggedUnits(t: Target): Promise<Pick<Figures, 'loggedUnitsPerSec' | 'loggedUnitP99' | 'logLines'>> {
  const logFile = path.join(t.dataDir, 'server.log');
  fs.rmSync(logFile, { force: true });
  const config = loadConfig({ ...process.env, DATA_DIR: t.dataDir, DATABASE_URL: t.databaseUrl ?? '', CLIENT_DIR: path.join(t.dataDir, 'no-client'), LOG_LEVEL: 'info', LOG_FORMAT: 'json' });
  const server = await createServer(config, { seed: true, logStream: logFile });
  try {
    const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
    const login = await post(`${address}/auth/public/990103`, { type: 0, companyCode: 'demo', userName: 'admin', password: 'demo123' });
    if (login.code !== '200') throw new Error(`登录失败：${login.code} ${login.msg}`);
    const units = await receivingUnits(server, address, { 'content-type': 'application/json', token: login.data.accessToken as string });
    if (WARMUP > 0) await chain({ ...units, duration: WARMUP });
    const r = await chain(units);
    if (r.bad + r.errors > 0) throw new Error(`请求日志开时收货 + 上架失败 ${r.bad + r.errors}：${r.badSample}`);
    return { loggedUnitsPerSec: r.perSec, loggedUnitP99: r.p99, logLines: fs.readFileSync(logFile, 'utf8').split('\n').length - 1 };
  } finally {
    await server.close();
  }
}

async function benchTarget(t: Target): Promise<Figures> {
  const config = loadConfig({ ...process.env, DATA_DIR: t.dataDir, DATABASE_URL: t.databaseUrl ?? '', CLIENT_DIR: path.join(t.dataDir, 'no-client') });
  let server: Server | undefined;
  try {
    server = await createServer(config, { seed: true });
    if (args['wal-autocheckpoint'] && server.database.dialect === 'sqlite') {
      const pages = Number(args['wal-autocheckpoint']);
      if (!Number.isInteger(pages) || pages < 0) throw new Error('--wal-autocheckpoint 必须是非负整数');
      await sql.raw(`pragma wal_autocheckpoint = ${pages}`).execute(server.database.db);
      console.log(`${t.label}：实验设置 wal_autocheckpoint = ${pages}（服务器默认 ${SERVER_CHECKPOINT_PAGES}，并由后台线程每 50 ms 做检查点）`);
    }
    const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
    const login = await post(`${address}/auth/public/990103`, { type: 0, companyCode: 'demo', userName: 'admin', password: 'demo123' });
    if (login.code !== '200') throw new Error(`登录失败：${login.code} ${login.msg}`);
    const headers = { 'content-type': 'application/json', token: login.data.accessToken as string };

    // Receiving + putaway.
    const units = await receivingUnits(server, address, headers);
    const one = await chain({ ...units, connections: 1, duration: 60, maxUnits: 1 });
    if (one.units !== 1) throw new Error(`收货 + 上架检查未通过：${one.badSample}`);
    if (WARMUP > 0) await chain({ ...units, duration: WARMUP });
    // The server runs in this process: its CPU time per unit is a figure a busy machine disturbs less.
    const profiler = args.profile ? await startProfile() : undefined;
    let cpu = process.cpuUsage();
    const receiving = await chain(units);
    const unitCpuMs = cpuMs(process.cpuUsage(cpu)) / Math.max(1, receiving.units);
    if (profiler) await stopProfile(profiler, args.profile!);
    const logged = args['request-log'] ? await loggedUnits(t) : {};
    if (args['units-only']) return { ...NO_FIGURES, engine: t.label, unitsPerSec: receiving.perSec, unitP50: receiving.p50, unitP99: receiving.p99, unitBad: receiving.bad + receiving.errors, unitBadSample: receiving.badSample, unitCpuMs, ...logged };

    // Adjustments, for comparison.
    const { bodies, warehouseId } = await postingBodies(server, 2000);
    const check = await post(`${address}/oms/api/022703`, JSON.parse(bodies[0]!), headers);
    if (check.code !== '200') throw new Error(`调整单过账检查未通过：${JSON.stringify(check).slice(0, 400)}`);
    const postSpec: LoadSpec = { url: `${address}/oms/api/022703`, method: 'POST', headers, bodies: bodies.slice(1), connections: CONNECTIONS, duration: DURATION, expectPrefix: '{"code":"200"' };
    if (WARMUP > 0) await load({ ...postSpec, duration: WARMUP });
    cpu = process.cpuUsage();
    const posting = await load(postSpec);
    const okDocs = posting.requests - posting.bad - posting.non2xx;
    const postCpuMs = cpuMs(process.cpuUsage(cpu)) / Math.max(1, okDocs);

    // Inventory list: warehouse + keyword + only in stock, 50 rows, pages 1–4 of five keywords.
    const listBodies: string[] = [];
    for (const keyword of KEYWORDS) {
      for (let page = 1; page <= 4; page++) listBodies.push(JSON.stringify({ page, pageSize: 50, warehouseId, keyword, onlyInStock: true }));
    }
    for (const b of listBodies) {
      const r = await post(`${address}/cdm/api/011301`, JSON.parse(b), headers);
      if (r.code !== '200' || r.data.list.length !== 50) throw new Error(`库存列表检查未通过（期望 50 行）：${b} → ${JSON.stringify(r).slice(0, 300)}`);
    }
    const sample = await post(`${address}/cdm/api/011301`, JSON.parse(listBodies[0]!), headers);
    console.log(`${t.label}：库存列表 ${listBodies[0]} → ${sample.data.list.length} 行，合计 ${sample.data.total}`);
    const listSpec: LoadSpec = { url: `${address}/cdm/api/011301`, method: 'POST', headers, bodies: listBodies, connections: LIST_CONNECTIONS, duration: DURATION, expectPrefix: '{"code":"200"' };
    if (WARMUP > 0) await load({ ...listSpec, duration: WARMUP });
    cpu = process.cpuUsage();
    const list = await load(listSpec);
    const listCpuMs = cpuMs(process.cpuUsage(cpu)) / Math.max(1, list.requests);
    // For reference, what the pages cost when read from the database (first reading, or after a write):
    // the running server's own setting, switched off (ctx.config is this object).
    config.listPageCache = false;
    if (WARMUP > 0) await load({ ...listSpec, duration: WARMUP });
    cpu = process.cpuUsage();
    const uncached = await load(listSpec);
    const uncachedCpuMs = cpuMs(process.cpuUsage(cpu)) / Math.max(1, uncached.requests);
    config.listPageCache = true;
    // Both at once: the list as served while stock is posted (its pages rarely outlive a posting).
    const [mixedList, mixedUnits] = await Promise.all([load(listSpec), chain(units)]);

    // Verification: the check itself, then `npm run verify` as a command.
    const v = await verifyStock(server.database.db);
    const cmd = await runVerifyCommand(t);
    return {
      engine: t.label,
      unitsPerSec: receiving.perSec, unitP50: receiving.p50, unitP99: receiving.p99, unitBad: receiving.bad + receiving.errors, unitBadSample: receiving.badSample, unitCpuMs, postCpuMs, listCpuMs,
      docsPerSec: okDocs / DURATION, postP50: posting.p50, postP99: posting.p99,
      postBad: posting.bad + posting.non2xx + posting.errors + posting.timeouts, postBadSample: posting.badSample,
      listRps: list.rps, listP50: list.p50, listP99: list.p99, listBad: list.bad + list.non2xx + list.errors + list.timeouts, listBadSample: list.badSample,
      uncachedRps: uncached.rps, uncachedP50: uncached.p50, uncachedP99: uncached.p99, uncachedCpuMs, uncachedBad: uncached.bad + uncached.non2xx + uncached.errors + uncached.timeouts,
      mixedListRps: mixedList.rps, mixedListP99: mixedList.p99, mixedUnitsPerSec: mixedUnits.perSec,
      mixedBad: mixedList.bad + mixedList.non2xx + mixedList.errors + mixedList.timeouts + mixedUnits.bad + mixedUnits.errors,
      verifyMs: v.ms, verifyCommandMs: cmd.ms, verifyExit: cmd.code, verifyDifferences: v.total, moves: v.moves, ...logged,
    };
  } finally {
    await server?.close();
  }
}

const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });

function report(all: Figures[]): boolean {
  let pass = true;
  console.log('');
  console.log(`收货 + 上架：每组 = ${LINES} 行收货单保存并过账（oms 021403）+ 其上架单按建议库位保存并过账（oms 021503，${LINES * 2} 条移动）；`
    + `调整：${LINES} 行库存调整单（oms 022703，保存并过账）；各 ${CONNECTIONS} 个连接，${DURATION} 秒`);
  console.log(`库存列表：cdm 011301，50 行，仓库 + 关键字 + 只看有库存，${LIST_CONNECTIONS} 个连接，${DURATION} 秒`);
  for (const f of all) {
    console.log('');
    console.log(`== ${f.engine} ==`);
    console.log(`  收货 + 上架：${fmt(f.unitsPerSec, 1)} 组/秒（${fmt(f.unitsPerSec * 2, 1)} 张单据/秒，${fmt(f.unitsPerSec * LINES * 3)} 条移动/秒），每组 p50 ${f.unitP50} ms，p99 ${f.unitP99} ms，服务进程 CPU ${fmt(f.unitCpuMs, 1)} ms/组，失败 ${f.unitBad}${f.unitBadSample ? `（例：${f.unitBadSample}）` : ''}`);
    if (f.loggedUnitsPerSec !== undefined) {
      console.log(`  收货 + 上架，请求日志开（LOG_LEVEL=info，每次请求一行 JSON 写入文件，${fmt(f.logLines ?? 0)} 行）：${fmt(f.loggedUnitsPerSec, 1)} 组/秒，p99 ${f.loggedUnitP99} ms — 关日志的 ${fmt(100 * f.loggedUnitsPerSec / Math.max(f.unitsPerSec, 1e-9))} %`);
    }
    if (args['units-only']) {
      const ok = f.unitBad === 0 && (f.engine !== 'SQLite' || f.unitsPerSec >= GOALS.docsPerSec);
      pass &&= ok;
      if (f.engine === 'SQLite') console.log(`  目标 收货 + 上架 ≥ ${GOALS.docsPerSec} 组/秒：${ok ? '达标' : '未达标'}（--units-only：其余未测）`);
      continue;
    }
    console.log(`  调整单过账：${fmt(f.docsPerSec, 1)} 单/秒（${fmt(f.docsPerSec * LINES)} 行/秒），p50 ${f.postP50} ms，p99 ${f.postP99} ms，服务进程 CPU ${fmt(f.postCpuMs, 1)} ms/单，失败 ${f.postBad}${f.postBadSample ? `（例：${f.postBadSample}）` : ''}`);
    console.log(`  库存列表：${fmt(f.listRps)} 次/秒，p50 ${f.listP50} ms，p99 ${f.listP99} ms，服务进程 CPU ${fmt(f.listCpuMs, 1)} ms/次，失败 ${f.listBad}${f.listBadSample ? `（例：${f.listBadSample}）` : ''}`);
    console.log(`  库存列表（参考：不用页缓存，每页都读数据库）：${fmt(f.uncachedRps)} 次/秒，p50 ${f.uncachedP50} ms，p99 ${f.uncachedP99} ms，服务进程 CPU ${fmt(f.uncachedCpuMs, 1)} ms/次，失败 ${f.uncachedBad}`);
    console.log(`  库存列表（参考：同时收货 + 上架）：${fmt(f.mixedListRps)} 次/秒，p99 ${f.mixedListP99} ms；收货 + 上架 ${fmt(f.mixedUnitsPerSec, 1)} 组/秒；失败 ${f.mixedBad}`);
    console.log(`  校验：${fmt(f.moves)} 条流水，校验本身 ${(f.verifyMs / 1000).toFixed(2)} 秒，npm run verify 命令 ${(f.verifyCommandMs / 1000).toFixed(2)} 秒（退出码 ${f.verifyExit}，差异 ${f.verifyDifferences}）`);
    if (f.engine === 'SQLite') {
      const checks: Array<[string, boolean]> = [
        [`收货 + 上架 ≥ ${GOALS.docsPerSec} 组/秒`, f.unitsPerSec >= GOALS.docsPerSec && f.unitBad === 0],
        [`库存列表 p99 < ${GOALS.listP99} ms`, f.listP99 < GOALS.listP99 && f.listBad === 0],
        [`npm run verify < ${GOALS.verifySec} 秒且无差异`, f.verifyCommandMs < GOALS.verifySec * 1000 && f.verifyExit === 0],
      ];
      for (const [name, ok] of checks) {
        pass &&= ok;
        console.log(`  目标 ${name}：${ok ? '达标' : '未达标'}`);
      }
      if (f.postBad || f.uncachedBad || f.mixedBad) {
        pass = false;
        console.log('  调整单有失败的请求');
      }
    } else if (f.verifyExit !== 0 || f.unitBad || f.postBad || f.listBad || f.uncachedBad || f.mixedBad) {
      pass = false;
      console.log('  有失败的请求或校验差异');
    }
  }
  return pass;
}

async function main(): Promise<void> {
  console.log(`商品 ${fmt(PRODUCTS)}，库存流水 ${fmt(MOVES)}；CPU ${os.cpus().length} 核，Node ${process.version}；开始时负载 ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  const figures: Figures[] = [];
  if (!args['no-sqlite']) figures.push(await benchTarget(await prepareSqlite()));
  if (!args['no-pg']) {
    const t = await preparePostgres();
    if (t) figures.push(await benchTarget(t));
  }
  process.exitCode = report(figures) ? 0 : 1;
}

main().catch((e) => {
  console.error(e instanceof Error ? e.stack ?? e.message : e);
  process.exit(1);
});
