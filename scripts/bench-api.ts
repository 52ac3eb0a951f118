// `npm run bench:api [-- --duration 10 --connections 50 --products 100000 --pg --fresh]`
// Starts the real server (createServer) on a database seeded with 100,000 products and, beside it, a bare
// Fastify server answering one route with the same 50-row JSON; loads both with autocannon (in a child
// process) and prints requests/s, p50 and p99 side by side. The list calls run twice: as served (list
// pages kept while their tables are unwritten, resources/page-cache.ts) and, for reference, with
// LIST_PAGE_CACHE=off. SQLite always; PostgreSQL with --pg or when DATABASE_URL is set (a fresh
// database `bench_api` on that server, dropped and re-created).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/connection.ts';
import { prepareSchema } from '../src/server/schema.ts';
import { seedIfEmpty } from '../src/server/db/seed.ts';
import { createServer, type Server } from '../src/server/server.ts';
import { seedScale } from './lib/seed-scale.ts';
import { load, post, type LoadSpec, type LoadResult } from './lib/load.ts';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    products: { type: 'string', default: '100000' },
    keyword: { type: 'string', default: '螺丝' },
    cases: { type: 'string', default: 'keyword,plain,vary' },
    'no-uncached': { type: 'boolean', default: false },
    'no-request-log': { type: 'boolean', default: false },
    pg: { type: 'boolean', default: false },
    'no-sqlite': { type: 'boolean', default: false },
    fresh: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
  strict: true,
});

if (args.help) {
  console.log('用法：npm run bench:api -- [--duration 10] [--warmup 3] [--connections 50] [--products 100000] [--keyword 螺丝] [--cases keyword,plain,status,vary] [--no-uncached] [--no-request-log] [--pg] [--no-sqlite] [--fresh]');
  process.exit(0);
}



const DURATION = Number(args.duration);
const WARMUP = Number(args.warmup);
const CONNECTIONS = Number(args.connections);
const PRODUCTS = Number(args.products);
const CASES = String(args.cases).split(',').map((c) => c.trim()).filter(Boolean);
const VARY_KEYWORDS = ['螺丝', '不锈钢', 'LED', '胶带', '套装'];
const GOAL_RATIO = 0.5;
const GOAL_P99_MS = 25;
const LIST_BODY = { page: 3, pageSize: 50, keyword: args.keyword, sort: { field: 'price', order: 'descend' } };



/** Rows of a list answer, whatever the list handler calls them. */
function rowsOf(data: any): unknown[] | null {
  if (Array.isArray(data)) return data;
  for (const k of ['list', 'rows', 'records', 'items', 'data']) if (Array.isArray(data?.[k])) return data[k];
  return null;
}

interface Target {
  label: string;
  dataDir: string;
  databaseUrl?: string;
  drop?: () => Promise<void>;
}

async function prepareSqlite(): Promise<Target> {
  const dataDir = path.join(os.tmpdir(), 'tbo-bench-api', 'sqlite');
  const file = path.join(dataDir, 'app.sqlite');
  if (args.fresh) fs.rmSync(dataDir, { recursive: true, force: true });
  if (fs.existsSync(file)) {
    const database = openDatabase({ dataDir });
    try {
      const applied = await prepareSchema(database.db, database.dialect);
      // New migrations may add indexes with no statistics: the planner would guess (badly) without them.
      if (applied.length) await sql`analyze`.execute(database.db);
      const r = await database.db.selectFrom('product').innerJoin('company', 'company.id', 'product.companyId')
        .where('company.code', '=', 'demo').select(database.db.fn.countAll().as('n')).executeTakeFirst();
      if (Number(r?.n ?? 0) >= PRODUCTS) {
        console.log(`SQLite：沿用 ${file}（${r?.n} 个商品；--fresh 重新生成）`);
        return { label: 'SQLite', dataDir };
      }
    } finally {
      await database.close();
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  await seed({ dataDir }, 'SQLite');
  return { label: 'SQLite', dataDir };
}

async function preparePostgres(): Promise<Target> {
  const admin = new URL(process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres');
  // BENCH_API_DB: another name, for two checkouts measured side by side on one server.
  const name = /^[a-z_][a-z0-9_]*$/.test(process.env.BENCH_API_DB ?? '') ? process.env.BENCH_API_DB! : 'bench_api';
  const c = new pg.Client({ connectionString: admin.toString() });
  await c.connect();
  await c.query(`drop database if exists ${name} with (force)`);
  await c.query(`create database ${name}`);
  await c.end();
  const url = new URL(admin.toString());
  url.pathname = `/${name}`;
  const dataDir = path.join(os.tmpdir(), 'tbo-bench-api', `pg-data-${name}`);
  fs.rmSync(dataDir, { recursive: true, force: true });
  await seed({ dataDir, databaseUrl: url.toString() }, 'PostgreSQL');
  return { label: 'PostgreSQL', dataDir, databaseUrl: url.toString() };
}

async function seed(where: { dataDir: string; databaseUrl?: string }, label: string): Promise<void> {
  const database = openDatabase(where);
  try {
    await prepareSchema(database.db, database.dialect);
    await seedIfEmpty(database.db, database.dialect);
    console.log(`${label}：写入 ${PRODUCTS} 个商品…`);
    const r = await seedScale(database.db, { company: 'demo', products: PRODUCTS, dialect: database.dialect });
    console.log(`${label}：完成，用时 ${(r.ms / 1000).toFixed(1)} 秒`);
  } finally {
    await database.close();
  }
}

async function startBare(payload: unknown): Promise<{ app: FastifyInstance; url: string }> {
  const app = Fastify({ logger: false });
  app.post('/bare', async () => payload);
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url: `${address}/bare` };
}

interface Row {
  engine: string;
  target: string;
  r: LoadResult;
  /** measured with the list page cache off: shown beside, not held to the goal */
  reference?: boolean;
}

const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });

async function startServer(t: Target, pageCache: boolean, requestLog = false): Promise<{ server: Server; address: string; token: string }> {
  const config = loadConfig({
    ...process.env, DATA_DIR: t.dataDir, DATABASE_URL: t.databaseUrl ?? '', CLIENT_DIR: path.join(t.dataDir, 'no-client'), LIST_PAGE_CACHE: pageCache ? 'on' : 'off',
    // with --request-log rows: the production log (one JSON line a request) into a file, as under systemd
    LOG_LEVEL: requestLog ? 'info' : '', LOG_FORMAT: 'json',
  });
  const logStream = requestLog ? path.join(t.dataDir, 'server.log') : undefined;
  if (requestLog) fs.rmSync(logStream!, { force: true });
  const server = await createServer(config, { seed: true, logStream });
  const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
  const login = await post(`${address}/auth/public/990103`, { type: 0, companyCode: 'demo', userName: 'admin', password: 'demo123' });
  if (login.code !== '200') throw new Error(`登录失败：${login.code} ${login.msg}`);
  return { server, address, token: login.data.accessToken as string };
}

async function benchTarget(t: Target): Promise<Row[]> {
  let server: Server | undefined;
  let bare: { app: FastifyInstance; url: string } | undefined;
  try {
    const started = await startServer(t, true);
    server = started.server;
    const { address, token } = started;
    const listUrl = `${address}/cdm/api/010201`;
    const check = await post(listUrl, LIST_BODY, { token });
    const rows = rowsOf(check.data);
    if (check.code !== '200' || !rows || rows.length !== 50) {
      throw new Error(`商品列表检查未通过（期望 code 200 且 50 行）：${JSON.stringify(check).slice(0, 400)}`);
    }
    const size = Buffer.byteLength(JSON.stringify(check));
    console.log(`${t.label}：商品列表 ${JSON.stringify(LIST_BODY)} → ${rows.length} 行，合计 ${check.data?.total ?? '?'}，响应 ${fmt(size)} 字节`);
    bare = await startBare(check);

    const common = { connections: CONNECTIONS, method: 'POST' as const, expectPrefix: '{"code":"200"', duration: DURATION };
    const headers = { 'content-type': 'application/json', token };
    const bareSpec: LoadSpec = { ...common, url: bare.url, headers: { 'content-type': 'application/json' }, body: JSON.stringify(LIST_BODY) };
    // keyword: the one call the goal is about; plain: no keyword, same sort; status: an indexed filter
    // (status = onSale), same sort; vary: 200 different pages and keywords in turn (each read once, then
    // served by the list page cache until its tables are written). Each case runs again on a server with
    // the page cache off: what a page costs the first time or after a write.
    const casesAt = (listUrl: string, token: string): Record<string, { title: string; spec: LoadSpec }> => {
    const headers = { 'content-type': 'application/json', token };
    return {
      keyword: { title: `010201 商品列表（关键字“${args.keyword}”）`, spec: { ...common, url: listUrl, headers, body: JSON.stringify(LIST_BODY) } },
      plain: { title: '010201 商品列表（无关键字）', spec: { ...common, url: listUrl, headers, body: JSON.stringify({ ...LIST_BODY, keyword: undefined }) } },
      status: {
        title: '010201 商品列表（状态筛选）',
        spec: { ...common, url: listUrl, headers, body: JSON.stringify({ ...LIST_BODY, keyword: undefined, filters: { status: 'onSale' } }) },
      },
      vary: {
        title: '010201 商品列表（每次不同页/关键字）',
        spec: { ...common, url: listUrl, headers, bodies: VARY_KEYWORDS.flatMap((k) => Array.from({ length: 40 }, (_, i) => JSON.stringify({ ...LIST_BODY, keyword: k, page: i + 1 }))) },
      },
    };
    };
    const pick = (cases: Record<string, { title: string; spec: LoadSpec }>) => CASES.map((c) => {
      if (!cases[c]) throw new Error(`未知的 --cases 项：${c}（可选 ${Object.keys(cases).join(', ')}）`);
      return cases[c];
    });
    const chosen = pick(casesAt(listUrl, token));
    // When autocannon stops, an overloaded server still has queued requests (their sockets closed):
    // one more call waits behind them, so the next run (or closing the database) starts on a quiet server.
    const drain = async () => { await post(listUrl, LIST_BODY, { token }); };
    const run = async (spec: LoadSpec) => { const r = await load(spec); await drain(); return r; };
    if (WARMUP > 0) {
      await run({ ...bareSpec, duration: WARMUP });
      for (const c of chosen) await run({ ...c.spec, duration: WARMUP });
    }
    const out: Row[] = [{ engine: t.label, target: 'bare Fastify（同样 50 行 JSON）', r: await run(bareSpec) }];
    for (const c of chosen) out.push({ engine: t.label, target: c.title, r: await run(c.spec) });
    await server.close();
    server = undefined;
    if (!args['no-request-log']) {
      // The same calls with the request log on (LOG_LEVEL=info, one JSON line a request to a file):
      // what logging costs, measured in the same run.
      const logged = await startServer(t, true, true);
      server = logged.server;
      const loggedUrl = `${logged.address}/cdm/api/010201`;
      const again = async (spec: LoadSpec) => { const r = await load(spec); await post(loggedUrl, LIST_BODY, { token: logged.token }); return r; };
      const cases = pick(casesAt(loggedUrl, logged.token));
      if (WARMUP > 0) for (const c of cases) await again({ ...c.spec, duration: WARMUP });
      for (const c of cases) out.push({ engine: t.label, target: `${c.title}，请求日志开`, r: await again(c.spec) });
      const lines = fs.readFileSync(path.join(t.dataDir, 'server.log'), 'utf8').split('\n').length - 1;
      console.log(`${t.label}：请求日志 ${fmt(lines)} 行（${path.join(t.dataDir, 'server.log')}）`);
      await server.close();
      server = undefined;
    }
    if (!args['no-uncached']) {
      // The same calls with the list page cache off (LIST_PAGE_CACHE=off): what a page costs when it
      // is read for the first time, or after its tables were written.
      const plain = await startServer(t, false);
      server = plain.server;
      const uncachedUrl = `${plain.address}/cdm/api/010201`;
      const again = async (spec: LoadSpec) => { const r = await load(spec); await post(uncachedUrl, LIST_BODY, { token: plain.token }); return r; };
      const uncached = pick(casesAt(uncachedUrl, plain.token));
      if (WARMUP > 0) for (const c of uncached) await again({ ...c.spec, duration: WARMUP });
      for (const c of uncached) out.push({ engine: t.label, target: `${c.title}，不用页缓存`, r: await again(c.spec), reference: true });
    }
    return out;
  } finally {
    await bare?.app.close();
    await server?.close();
    await t.drop?.();
  }
}

function printTable(rows: Row[]): boolean {
  const header = ['数据库', '目标', 'req/s', 'p50 ms', 'p99 ms', 'max ms', '请求数', '超时/连接错误', '非 200 应答'];
  const lines = rows.map(({ engine, target, r }) => [engine, target, fmt(r.rps), fmt(r.p50), fmt(r.p99), fmt(r.max), fmt(r.requests), String(r.errors + r.timeouts), String(r.non2xx + r.bad)]);
  const width = (s: string) => [...s].reduce((w, ch) => w + (/[\u3000-\u9fff\uff00-\uffef]/.test(ch) ? 2 : 1), 0);
  const cols = header.map((h, i) => Math.max(width(h), ...lines.map((l) => width(l[i]))));
  const pad = (s: string, i: number) => (i >= 2 ? ' '.repeat(cols[i] - width(s)) + s : s + ' '.repeat(cols[i] - width(s)));
  console.log('');
  console.log(header.map(pad).join('  '));
  console.log(cols.map((c) => '-'.repeat(c)).join('  '));
  for (const l of lines) console.log(l.map(pad).join('  '));
  for (const { engine, target, r } of rows) if (r.badSample) console.log(`${engine} ${target} 的非 200 应答示例：${r.badSample}`);
  console.log('');
  let pass = true;
  let bare: Row | undefined;
  for (const row of rows) {
    if (row.target.startsWith('bare')) { bare = row; continue; }
    if (!bare) continue;
    const list = row.r;
    const ratio = list.rps / bare.r.rps;
    const ok = ratio >= GOAL_RATIO && list.p99 < GOAL_P99_MS && list.bad + list.errors + list.timeouts + list.non2xx === 0;
    if (!row.reference) pass &&= ok;
    else if (list.bad + list.errors + list.timeouts + list.non2xx) pass = false;
    console.log(`${row.engine} ${row.target}：/ bare = ${(ratio * 100).toFixed(0)}%（目标 ≥ ${GOAL_RATIO * 100}%），p99 ${list.p99} ms（目标 < ${GOAL_P99_MS} ms）→ ${ok ? '达标' : '未达标'}${row.reference ? '（参考：未缓存时的代价）' : ''}`);
  }
  return pass;
}

async function main(): Promise<void> {
  const loadStart = os.loadavg()[0];
  console.log(`${CONNECTIONS} 个连接，每项 ${DURATION} 秒（预热 ${WARMUP} 秒）；autocannon 在独立子进程中运行；CPU ${os.cpus().length} 核，Node ${process.version}`);
  const rows: Row[] = [];
  if (!args['no-sqlite']) rows.push(...(await benchTarget(await prepareSqlite())));
  if (args.pg || process.env.DATABASE_URL) rows.push(...(await benchTarget(await preparePostgres())));
  const pass = printTable(rows);
  // Other work on the machine skews every figure: say how busy it was.
  console.log(`机器负载（1 分钟平均）：开始 ${loadStart.toFixed(2)}，结束 ${os.loadavg()[0].toFixed(2)}（${os.cpus().length} 核；远高于 1 时数字偏低）`);
  process.exitCode = pass ? 0 : 1;
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
