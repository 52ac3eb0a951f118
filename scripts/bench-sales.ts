// `npm run bench:sales [-- --duration 10 --connections 8 --lines 20 --clients 1000 --no-pg --no-sqlite --no-baseline]`
// Sales at scale (issue 13), on SQLite and PostgreSQL, beside the same run's receiving + putaway figure:
//  0. baseline: `npm run bench:stock -- --units-only` (its seeded database: 100,000 products, 1,000,000
//     ledger rows) — its receiving + putaway units per second are printed beside ours;
//  1. on a copy of that seeded database (SQLite: the cached file; PostgreSQL: `create database … template
//     bench_stock`), 1,000 clients are added through the API;
//  2. confirmations of 20-line sales orders per second over HTTP, 8 connections: one unit is a draft saved
//     (oms 020903: prices, bounds, totals) and confirmed (oms 020905: client locked, credit checked, 20
//     lines committed through the ledger's guarded totals) — two transactions. Each connection orders
//     from its own products (stock in WH01), one unit of each line;
//  3. the sales order list (oms 020901: 50 rows, docNo + client + status) p99;
//  4. the ledger verified after (no differences).
// autocannon and the chained units run in child processes (scripts/lib/load.ts).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { loadConfig } from '../src/server/config.ts';
import { verifyStock } from '../src/server/domain/stock/verify.ts';
import { createServer, type Server } from '../src/server/server.ts';
import { chain, load, post, type ChainSpec } from './lib/load.ts';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '8' },
    'list-connections': { type: 'string', default: '10' },
    lines: { type: 'string', default: '20' },
    clients: { type: 'string', default: '1000' },
    'no-pg': { type: 'boolean', default: false },
    'no-sqlite': { type: 'boolean', default: false },
    'no-baseline': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
  strict: true,
});
if (args.help) {
  console.log('用法：npm run bench:sales -- [--duration 10] [--warmup 2] [--connections 8] [--list-connections 10] [--lines 20] [--clients 1000] [--no-pg] [--no-sqlite] [--no-baseline]');
  process.exit(0);
}
const DURATION = Number(args.duration);
const WARMUP = Number(args.warmup);
const CONNECTIONS = Number(args.connections);
const LIST_CONNECTIONS = Number(args['list-connections']);
const LINES = Number(args.lines);
const CLIENTS = Number(args.clients);
const GOALS = { ordersPerSec: 150, listP99: 30 };
const ROOT = path.resolve(import.meta.dirname, '..');
const STOCK_CACHE = path.join(os.tmpdir(), 'tbo-bench-stock', 'sqlite');

interface Target { label: string; dataDir: string; databaseUrl?: string }
interface Figures { engine: string; ordersPerSec: number; unitP50: number; unitP99: number; bad: number; badSample: string | null; listRps: number; listP99: number; listBad: number; verifyDifferences: number; baseline?: number }

/** bench:stock --units-only in a child process: its seeded databases, and its receiving + putaway figure per engine. */
function baseline(): Promise<Map<string, number>> {
  const flags = ['--units-only', ...(args['no-pg'] ? ['--no-pg'] : []), ...(args['no-sqlite'] ? ['--no-sqlite'] : [])];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench-stock.ts', ...flags], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => { out += d; process.stdout.write(d); });
    child.on('exit', () => {
      const figures = new Map<string, number>();
      let engine = '';
      for (const line of out.split('\n')) {
        const e = /^== (.+) ==$/.exec(line.trim());
        if (e) engine = e[1]!;
        const m = /收货 \+ 上架：([\d,.]+) 组\/秒/.exec(line);
        if (m && engine) figures.set(engine, Number(m[1]!.replace(/,/g, '')));
      }
      if (!figures.size) reject(new Error('bench:stock 没有给出收货 + 上架的数字'));
      else resolve(figures);
    });
  });
}

function sqliteCopy(): Target {
  if (!fs.existsSync(path.join(STOCK_CACHE, 'app.sqlite'))) throw new Error(`没有 bench:stock 的种子数据库（${STOCK_CACHE}）：先运行 npm run bench:stock，或去掉 --no-baseline`);
  const dataDir = path.join(os.tmpdir(), 'tbo-bench-sales', 'sqlite-run');
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  for (const f of ['app.sqlite', 'app.sqlite-wal']) if (fs.existsSync(path.join(STOCK_CACHE, f))) fs.copyFileSync(path.join(STOCK_CACHE, f), path.join(dataDir, f));
  return { label: 'SQLite', dataDir };
}

async function postgresCopy(): Promise<Target | undefined> {
  const admin = new URL(process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres');
  admin.pathname = '/postgres';
  const c = new pg.Client({ connectionString: admin.toString() });
  try {
    await c.connect();
  } catch (e) {
    console.log(`PostgreSQL：无法连接（${(e as Error).message}），跳过。`);
    return undefined;
  }
  try {
    const has = await c.query(`select 1 from pg_database where datname = 'bench_stock'`);
    if (!has.rowCount) { console.log('PostgreSQL：没有 bench_stock 数据库（先运行 npm run bench:stock），跳过。'); return undefined; }
    await c.query('drop database if exists bench_sales with (force)');
    await c.query('create database bench_sales template bench_stock');
  } finally {
    await c.end();
  }
  const url = new URL(admin.toString());
  url.pathname = '/bench_sales';
  const dataDir = path.join(os.tmpdir(), 'tbo-bench-sales', 'pg-data');
  fs.rmSync(dataDir, { recursive: true, force: true });
  return { label: 'PostgreSQL', dataDir, databaseUrl: url.toString() };
}

async function units(server: Server, address: string, headers: Record<string, string>): Promise<{ spec: ChainSpec; clients: number[] }> {
  const db = server.database.db;
  const company = await db.selectFrom('company').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow();
  const wh = await db.selectFrom('warehouse').select('id').where('companyId', '=', company.id).where('code', '=', 'WH01').executeTakeFirstOrThrow();
  const call = async (code: string, body: unknown) => {
    const r = await post(`${address}/${code.startsWith('01') ? 'cdm' : 'oms'}/api/${code}`, body, headers);
    if (r.code !== '200') throw new Error(`${code} → ${r.code} ${r.msg}`);
    return r.data;
  };
  const clients: number[] = [];
  for (let i = 0; i < CLIENTS; i += 20) {
    const batch = await Promise.all(Array.from({ length: Math.min(20, CLIENTS - i) }, (_, j) => call('011703', { code: `BS${String(i + j).padStart(5, '0')}`, name: `基准客户${i + j}`, creditLimit: '0' })));
    clients.push(...batch.map((c) => Number(c.id)));
  }
  // products with plenty available in WH01, each connection its own
  const needed = CONNECTIONS * LINES * 10;
  const stocked = await db.selectFrom('stockSummary').innerJoin('product', 'product.id', 'stockSummary.productId')
    .select(['stockSummary.productId']).where('stockSummary.companyId', '=', company.id).where('stockSummary.warehouseId', '=', wh.id)
    .where((eb) => eb(eb('stockSummary.onHand', '-', eb(eb.ref('stockSummary.reserved'), '+', eb.ref('stockSummary.committed'))), '>=', 500))
    .where('product.locked', '=', 0).where('product.status', '<>', 'stopped').orderBy('stockSummary.productId').limit(needed).execute();
  if (stocked.length < needed) throw new Error(`WH01 中可用库存充足的商品太少（${stocked.length}，需要 ${needed}）`);
  const firstBodies: string[][] = [];
  for (let c = 0; c < CONNECTIONS; c++) {
    const mine = stocked.slice(c * LINES * 10, (c + 1) * LINES * 10).map((r) => Number(r.productId));
    const bodies: string[] = [];
    for (let n = 0; n < 10; n++) {
      const clientId = clients[(c * 10 + n) % clients.length]!;
      bodies.push(JSON.stringify({ clientId, warehouseId: Number(wh.id), remark: '基准测试', lines: mine.slice(n * LINES, (n + 1) * LINES).map((productId) => ({ productId, qty: 1, price: '1.00' })) }));
    }
    firstBodies.push(bodies);
  }
  return { spec: { base: address, headers, first: '/oms/api/020903', firstBodies, then: [{ path: '/oms/api/020905', template: JSON.stringify({ id: '$prevId' }) }], connections: CONNECTIONS, duration: DURATION }, clients };
}

async function benchTarget(t: Target): Promise<Figures> {
  const config = loadConfig({ ...process.env, DATA_DIR: t.dataDir, DATABASE_URL: t.databaseUrl ?? '', CLIENT_DIR: path.join(t.dataDir, 'no-client') });
  const server = await createServer(config, { seed: true });
  try {
    const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
    const login = await post(`${address}/auth/public/990103`, { type: 0, companyCode: 'demo', userName: 'admin', password: 'demo123' });
    if (login.code !== '200') throw new Error(`登录失败：${login.code} ${login.msg}`);
    const headers = { 'content-type': 'application/json', token: login.data.accessToken as string };
    console.log(`${t.label}：写入 ${CLIENTS} 个客户…`);
    const { spec, clients } = await units(server, address, headers);
    const one = await chain({ ...spec, connections: 1, duration: 60, maxUnits: 1 });
    if (one.units !== 1) throw new Error(`销售订单确认检查未通过：${one.badSample}`);
    if (WARMUP > 0) await chain({ ...spec, duration: WARMUP });
    const confirmed = await chain(spec);

    // the list: 50 rows of confirmed orders with SO in their number, for the busiest clients and for all
    const bodies = [JSON.stringify({ page: 1, pageSize: 50, docNo: 'SO', status: 'confirmed' }), JSON.stringify({ page: 2, pageSize: 50, docNo: 'SO', status: 'confirmed' })];
    for (const clientId of clients.slice(0, CONNECTIONS * 10)) bodies.push(JSON.stringify({ page: 1, pageSize: 50, docNo: 'SO', clientId, status: 'confirmed' }));
    const listSpec = { url: `${address}/oms/api/020901`, method: 'POST' as const, headers, bodies, connections: LIST_CONNECTIONS, duration: DURATION, expectPrefix: '{"code":"200"' };
    if (WARMUP > 0) await load({ ...listSpec, duration: WARMUP });
    const list = await load(listSpec);
    const v = await verifyStock(server.database.db);
    return {
      engine: t.label, ordersPerSec: confirmed.perSec, unitP50: confirmed.p50, unitP99: confirmed.p99, bad: confirmed.bad + confirmed.errors, badSample: confirmed.badSample,
      listRps: list.rps, listP99: list.p99, listBad: list.bad + list.non2xx + list.errors + list.timeouts, verifyDifferences: v.total,
    };
  } finally {
    await server.close();
  }
}

const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });

async function main(): Promise<void> {
  console.log(`CPU ${os.cpus().length} 核，Node ${process.version}；开始时负载 ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  const base = args['no-baseline'] ? new Map<string, number>() : await baseline();
  const figures: Figures[] = [];
  if (!args['no-sqlite']) figures.push({ ...(await benchTarget(sqliteCopy())), baseline: base.get('SQLite') });
  if (!args['no-pg']) {
    const t = await postgresCopy();
    if (t) figures.push({ ...(await benchTarget(t)), baseline: base.get('PostgreSQL') });
  }
  let pass = true;
  console.log('');
  console.log(`销售订单：每组 = ${LINES} 行销售订单保存（oms 020903）+ 确认（oms 020905：锁定客户、检查信用、${LINES} 行经账本预留），${CONNECTIONS} 个连接，${DURATION} 秒；客户 ${fmt(CLIENTS)} 个`);
  console.log(`销售订单列表：oms 020901，50 行，单号 + 客户 + 状态，${LIST_CONNECTIONS} 个连接，${DURATION} 秒`);
  for (const f of figures) {
    console.log('');
    console.log(`== ${f.engine} ==`);
    console.log(`  销售订单保存 + 确认：${fmt(f.ordersPerSec, 1)} 单/秒（${fmt(f.ordersPerSec * LINES)} 行预留/秒），每单 p50 ${f.unitP50} ms，p99 ${f.unitP99} ms，失败 ${f.bad}${f.badSample ? `（例：${f.badSample}）` : ''}`);
    if (f.baseline !== undefined) console.log(`  基线（同一次运行，bench:stock 收货 + 上架）：${fmt(f.baseline, 1)} 组/秒`);
    console.log(`  销售订单列表：${fmt(f.listRps)} 次/秒，p99 ${f.listP99} ms，失败 ${f.listBad}`);
    console.log(`  校验：差异 ${f.verifyDifferences}`);
    if (f.engine === 'SQLite') {
      const checks: Array<[string, boolean]> = [
        [`销售订单确认 ≥ ${GOALS.ordersPerSec} 单/秒`, f.ordersPerSec >= GOALS.ordersPerSec && f.bad === 0],
        [`销售订单列表 p99 < ${GOALS.listP99} ms`, f.listP99 < GOALS.listP99 && f.listBad === 0],
        ['校验无差异', f.verifyDifferences === 0],
      ];
      for (const [name, ok] of checks) {
        pass &&= ok;
        console.log(`  目标 ${name}：${ok ? '达标' : '未达标'}`);
      }
    } else if (f.bad || f.listBad || f.verifyDifferences) {
      pass = false;
      console.log('  有失败的请求或校验差异');
    }
  }
  process.exitCode = pass ? 0 : 1;
}

main().catch((e) => {
  console.error(e instanceof Error ? e.stack ?? e.message : e);
  process.exit(1);
});
