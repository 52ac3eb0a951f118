// npm run bench:closing [-- --moves 1000000 --products 2000 --days 60 --runs 20 --pg]
// The daily closing's snapshots against reading the whole ledger: a fresh database with `--moves` stock moves
// (written straight into stock_move, spread evenly over the last `--days` days, `--products` products in two
// warehouses). Timed over the server's request path (app.inject): 日结报表 for today by warehouse before any
// closing (it reads every move up to today), the closing of each past day, the same report after (yesterday's
// snapshot + today's moves), 日结报表 by day over 30 days, 综合汇总报表 by month over the whole range and
// 其他出入库报表 (the moves are adjustments) by day over 30 days before and after the closing and by product
// for today — beside
// a plain 50-row product list of the same run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../src/server/config.ts';
import { insertMany } from '../src/server/db/raw-sql.ts';
import { createServer, type Server } from '../src/server/server.ts';
import { call, companyDay, pct } from './lib/in-process.ts';

const { values: args } = parseArgs({
  options: {
    moves: { type: 'string', default: '1000000' },
    products: { type: 'string', default: '2000' },
    days: { type: 'string', default: '60' },
    runs: { type: 'string', default: '20' },
    pg: { type: 'boolean', default: false },
  },
  strict: true,
});
const MOVES = Number(args.moves);
const PRODUCTS = Number(args.products);
const DAYS = Number(args.days);
const RUNS = Number(args.runs);



async function timed(server: Server, token: string, family: string, code: string, body: unknown, runs = RUNS): Promise<string> {
  for (let i = 0; i < 2; i++) await call(server, token, family, code, body);
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) xs.push((await call(server, token, family, code, body)).ms);
  xs.sort((a, b) => a - b);
  return `p50 ${pct(xs, 50).toFixed(1)} ms，p99 ${pct(xs, 99).toFixed(1)} ms（${runs} 次）`;
}

async function run(label: string, dataDir: string, databaseUrl?: string): Promise<void> {
  console.log(`== ${label} ==`);
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? '', CLIENT_DIR: path.join(dataDir, 'no-client'), LOGIN_MAX_FAILURES: '1000', LIST_PAGE_CACHE: 'off' });
  const server = await createServer(config, { seed: true });
  try {
    const login = await server.app.inject({ method: 'POST', url: '/auth/public/990103', payload: { type: 0, companyCode: 'demo', userName: 'admin', password: 'demo123' } });
    const token = String((login.json() as { data: { accessToken: string } }).data.accessToken);
    const db = server.database.db;
    const companyId = Number((await db.selectFrom('company').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id);
    const started = Date.now();
    const warehouses = [
      (await call(server, token, 'cdm', '011003', { code: 'BCW1', name: '基准一仓' })).data.id as number,
      (await call(server, token, 'cdm', '011003', { code: 'BCW2', name: '基准二仓' })).data.id as number,
    ];
    const products: number[] = [];
    for (let i = 0; i < PRODUCTS; i++) {
      products.push((await call(server, token, 'cdm', '010203', { code: `BC${String(i).padStart(6, '0')}`, name: `基准商品${i}`, unitSmall: '个', price: String(1 + (i % 50)) })).data.id);
    }
    // moves spread evenly over the days, the last day's up to now
    const now = Date.now();
    const span = DAYS * 86_400_000;
    const rows: unknown[][] = [];
    for (let i = 0; i < MOVES; i++) {
      const at = new Date(now - span + Math.floor(((i + 1) / MOVES) * span) - 1000).toISOString();
      rows.push([companyId, products[i % products.length], warehouses[i % 2], null, i % 3 === 2 ? -1 : 2, 0, 'adjust', 'stockAdjust', i, null, null, at]);
      if (rows.length === 50_000 || i === MOVES - 1) {
        await insertMany(db, 'stock_move', ['company_id', 'product_id', 'warehouse_id', 'location_id', 'qty', 'reserved_qty', 'kind', 'doc_type', 'doc_id', 'doc_line', 'account_id', 'created_at'], rows);
        rows.length = 0;
      }
    }
    if (server.database.dialect === 'postgres') await sql`analyze`.execute(db);
    console.log(`  数据：${MOVES.toLocaleString('en-US')} 条库存流水，${PRODUCTS} 个商品 × 2 仓，${DAYS} 天（${((Date.now() - started) / 1000).toFixed(1)} 秒）`);
    const today = companyDay(0);
    const byWarehouse = { page: 1, pageSize: 50, groupBy: 'warehouse', filters: { dateRange: [today, today] } };
    console.log(`  商品列表 50 行（对照）cdm 010201：${await timed(server, token, 'cdm', '010201', { page: 1, pageSize: 50 })}`);
    console.log(`  日结报表 按仓库 今天，未日结（读全部流水）：${await timed(server, token, 'oms', '023103', byWarehouse, Math.min(RUNS, 5))}`);
    const otherByDay = { page: 1, pageSize: 50, groupBy: 'day', filters: { dateRange: [companyDay(-29), today] } };
    console.log(`  其他出入库报表 按日 30 天，未日结（读 30 天流水）：${await timed(server, token, 'oms', '023133', otherByDay, Math.min(RUNS, 5))}`);
    const t0 = Date.now();
    const closeMs: number[] = [];
    for (let d = -DAYS; d <= -1; d++) closeMs.push((await call(server, token, 'oms', '023105', { day: companyDay(d) })).ms);
    closeMs.sort((a, b) => a - b);
    console.log(`  日结 ${DAYS} 天：共 ${((Date.now() - t0) / 1000).toFixed(1)} 秒，每天 p50 ${pct(closeMs, 50).toFixed(0)} ms，最长 ${closeMs[closeMs.length - 1]!.toFixed(0)} ms`);
    console.log(`  日结报表 按仓库 今天，已日结到昨天（快照 + 今天流水）：${await timed(server, token, 'oms', '023103', byWarehouse)}`);
    console.log(`  日结报表 按日 30 天：${await timed(server, token, 'oms', '023103', { page: 1, pageSize: 50, groupBy: 'day', filters: { dateRange: [companyDay(-29), today] } })}`);
    console.log(`  综合汇总报表 按月 ${DAYS} 天：${await timed(server, token, 'oms', '023108', { page: 1, pageSize: 50, groupBy: 'month', filters: { dateRange: [companyDay(-DAYS + 1), today] } })}`);
    // 其他出入库报表: closed days from the closing's per-day sums, today from its moves (the bench's moves are adjustments)
    console.log(`  其他出入库报表 按日 30 天，已日结到昨天（每日汇总 + 今天流水）：${await timed(server, token, 'oms', '023133', otherByDay)}`);
    console.log(`  其他出入库报表 按商品 今天：${await timed(server, token, 'oms', '023133', { page: 1, pageSize: 50, groupBy: 'product', filters: { dateRange: [today, today] } })}`);
    console.log(`  日结（重做昨天）：${await timed(server, token, 'oms', '023105', { day: companyDay(-1) }, 5)}`);
  } finally {
    await server.close();
  }
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-closing-'));
  try {
    await run('SQLite', dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  if (!args.pg) return;
  const admin = new URL(process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres');
  admin.pathname = '/postgres';
  const c = new pg.Client({ connectionString: admin.toString() });
  await c.connect();
  await c.query('drop database if exists bench_closing with (force)');
  await c.query('create database bench_closing');
  await c.end();
  const url = new URL(admin.toString());
  url.pathname = '/bench_closing';
  const pgDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-closing-pg-'));
  try {
    await run('PostgreSQL', pgDir, url.toString());
  } finally {
    fs.rmSync(pgDir, { recursive: true, force: true });
  }
}

main().then(() => undefined, (e) => { console.error(e); process.exitCode = 2; });
