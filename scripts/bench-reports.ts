// npm run bench:reports [-- --moves 1000000 --order-lines 200000 --invoices 200000 --products 5000 --runs 30 --groupings default|all]
// Every report's first page with its totals, on a company at scale: a fresh database (SQLite; then
// PostgreSQL too when DATABASE_URL is set — a database bench_reports_<pid> created beside it and dropped after)
// gets `--moves` stock moves, `--order-lines` sales order lines and `--invoices` invoices (half sales, half
// purchase, each with its open item) spread over the past year (scripts/lib: seedScale, seedMoves,
// seedDocuments), then the daily closing of every seeded day (oms 023105, oldest first), then each report
// is timed over the server's request path (app.inject, kept pages off so every run computes): p50/p95/p99
// over `--runs` runs beside a plain 50-row product list (cdm 010201) of the same run. The reports are found
// by reading schemas/screens/reportForms — every screen with a list code — so a new report is measured
// without editing this file; EXTRA_CODES adds calls that are not report screens (the wall dashboard's).
// Goal: p99 < 500 ms each.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../src/server/config.ts';
import { createServer, type Server } from '../src/server/server.ts';
import { seedDocuments } from './lib/seed-documents.ts';
import { seedMoves } from './lib/seed-moves.ts';
import { seedScale } from './lib/seed-scale.ts';
import { pct } from './lib/in-process.ts';

/** Calls measured besides the report screens: `family:code` with the body a screen sends (e.g. the wall dashboard's refresh). */
const EXTRA_CODES: Array<{ label: string; api: string; body: Record<string, unknown> }> = [
  { label: '数据大屏（销售）刷新', api: 'oms:023201', body: {} },
  { label: '数据大屏（全部）刷新', api: 'oms:023202', body: {} },
];

const GOAL_MS = 500;

const { values: args } = parseArgs({
  options: {
    moves: { type: 'string', default: '1000000' },
    'order-lines': { type: 'string', default: '200000' },
    invoices: { type: 'string', default: '200000' },
    products: { type: 'string', default: '5000' },
    runs: { type: 'string', default: '30' },
    groupings: { type: 'string', default: 'default' },
  },
  strict: true,
});
const RUNS = Number(args.runs);

interface Target { label: string; api: string; body: Record<string, unknown> }

/** Each report screen with a list code: its first page as the screen opens it (or each grouping with --groupings all). */
function reportTargets(): Target[] {
  const dir = path.join(import.meta.dirname, '../schemas/screens/reportForms');
  const out: Target[] = [];
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const s = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
    const api: string | undefined = s.api?.list;
    if (!api || s.kind !== 'report') continue;
    const base = { page: 1, pageSize: s.pageSize ?? 50 };
    const groupings: string[] = (s.groupings ?? []).map((g: { value: string }) => g.value);
    const first = s.defaultGrouping ?? groupings[0];
    const chosen = !groupings.length ? [undefined] : args.groupings === 'all' ? groupings : [first];
    for (const g of chosen) {
      out.push({ label: `${s.title}${g ? ` (${g})` : ''}`, api, body: g ? { ...base, [s.groupParam ?? 'groupBy']: g } : base });
    }
  }
  return out;
}


/** One call: wall time, and this process's CPU time (on SQLite the whole query; on PostgreSQL the Node side only). */
async function call(server: Server, token: string, api: string, body: unknown): Promise<{ ms: number; cpuMs: number; data: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const [family, code] = api.split(':');
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const res = await server.app.inject({ method: 'POST', url: `/${family}/api/${code}`, headers: { token, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  const env = res.json() as { code: string; msg: string; data: unknown };
  if (env.code !== '200') throw new Error(`${api} → ${env.code} ${env.msg}`);
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000, data: env.data };
}

interface Figure { label: string; api: string; p50: number; p95: number; p99: number; cpu50: number; rows: number }

async function timed(server: Server, token: string, t: Target): Promise<Figure> {
  let rows = 0;
  for (let i = 0; i < 2; i++) rows = ((await call(server, token, t.api, t.body)).data?.list ?? []).length;
  const xs: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await call(server, token, t.api, t.body);
    xs.push(r.ms);
    cpu.push(r.cpuMs);
  }
  xs.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  return { label: t.label, api: t.api, p50: pct(xs, 50), p95: pct(xs, 95), p99: pct(xs, 99), cpu50: pct(cpu, 50), rows };
}

function table(figures: Figure[]): string {
  // the machine's load shows in the wall times; the CPU column is what one call costs this process
  const lines = [`load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}, ${os.cpus().length} CPU`, '',
    '| 报表 | 代码 | 行 | p50 ms | p95 ms | p99 ms | CPU p50 ms | p99 < 500 ms |', '|---|---|---:|---:|---:|---:|---:|---|'];
  for (const f of figures) lines.push(`| ${f.label} | ${f.api} | ${f.rows} | ${f.p50.toFixed(1)} | ${f.p95.toFixed(1)} | ${f.p99.toFixed(1)} | ${f.cpu50.toFixed(1)} | ${f.p99 < GOAL_MS ? '是' : '**否**'} |`);
  return lines.join('\n');
}

async function run(label: string, dataDir: string, databaseUrl?: string): Promise<void> {
  console.log(`== ${label} ==`);
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? '', CLIENT_DIR: path.join(dataDir, 'no-client'), LOGIN_MAX_FAILURES: '1000', LIST_PAGE_CACHE: 'off', AUTO_CLOSE_MINUTES: '0' });
  const server = await createServer(config, { seed: true, logStream: path.join(dataDir, 'server.log') });
  try {
    const db = server.database.db;
    const dialect = server.database.dialect;
    const log = (line: string) => console.log(line);
    const started = Date.now();
    await seedScale(db, { company: 'demo', products: Number(args.products), dialect, suppliers: 200, clients: 500, log });
    await seedMoves(db, { company: 'demo', moves: Number(args.moves), dialect, log });
    const docs = await seedDocuments(db, { company: 'demo', orderLines: Number(args['order-lines']), invoices: Number(args.invoices), dialect, log });
    // statistics (and on PostgreSQL the visibility map, for index-only scans), as autovacuum leaves them
    await (dialect === 'postgres' ? sql`vacuum analyze` : sql`analyze`).execute(db);
    console.log(`  数据：${Number(args.moves).toLocaleString('en-US')} 条库存流水，${docs.orderLines.toLocaleString('en-US')} 行销售订单（${docs.orders} 单），${docs.invoices.toLocaleString('en-US')} 张发票（${((Date.now() - started) / 1000).toFixed(0)} 秒）`);

    const login = await server.app.inject({ method: 'POST', url: '/auth/public/990103', payload: { type: 0, companyCode: 'demo', userName: 'admin', password: 'demo123' } });
    const token = String((login.json() as { data: { accessToken: string } }).data.accessToken);
    // the daily closing of every seeded day, oldest first (each from the previous day's snapshot)
    const tzMs = 8 * 3_600_000;
    const day = (offset: number) => new Date(Date.now() + tzMs + offset * 86_400_000).toISOString().slice(0, 10);
    const t0 = Date.now();
    const closeMs: number[] = [];
    for (let d = -366; d <= -1; d++) closeMs.push((await call(server, token, 'oms:023105', { day: day(d) })).ms);
    closeMs.sort((a, b) => a - b);
    console.log(`  日结 366 天：共 ${((Date.now() - t0) / 1000).toFixed(0)} 秒，每天 p50 ${pct(closeMs, 50).toFixed(0)} ms，最长 ${closeMs[closeMs.length - 1]!.toFixed(0)} ms`);
    if (dialect === 'postgres') await sql`analyze`.execute(db);

    const figures: Figure[] = [await timed(server, token, { label: '商品列表（对照）', api: 'cdm:010201', body: { page: 1, pageSize: 50 } })];
    for (const t of [...reportTargets(), ...EXTRA_CODES]) {
      figures.push(await timed(server, token, t));
      console.log(`  ${t.label} ${t.api}: p99 ${figures[figures.length - 1]!.p99.toFixed(1)} ms`);
    }
    console.log(`\n${label}，每项 ${RUNS} 次（第一页 + 全部合计）：\n${table(figures)}\n`);
  } finally {
    await server.close();
  }
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-reports-'));
  try {
    await run('SQLite', dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  if (!process.env.DATABASE_URL) return;
  const admin = new URL(process.env.DATABASE_URL);
  admin.pathname = '/postgres';
  const c = new pg.Client({ connectionString: admin.toString() });
  await c.connect();
  const name = `bench_reports_${process.pid}`;
  await c.query(`create database ${name}`);
  const url = new URL(admin.toString());
  url.pathname = `/${name}`;
  const pgDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-reports-pg-'));
  try {
    await run('PostgreSQL', pgDir, url.toString());
  } finally {
    fs.rmSync(pgDir, { recursive: true, force: true });
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  }
}

main().then(() => undefined, (e) => { console.error(e); process.exitCode = 2; });
