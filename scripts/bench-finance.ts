// `npm run bench:finance [-- --items 200000 --allocations 300000 --clients 2000 --settled 0.85 --runs 60 --pg]`
// Finance at scale (issue 15), on SQLite (and PostgreSQL with --pg and DATABASE_URL or a local server):
//  1. a fresh demo database gets `--clients` clients, `--items` receivables (opening balances, due dates
//     over the last 200 days and the next 30, CNY and one in ten USD) and `--allocations` allocations from
//     receipts (up to 15 each): the oldest `--settled` share of the items paid in full (as in a ledger in
//     use), some of the rest in part — written in bulk with the open amounts they leave. `--settled 0`
//     leaves every item open (the worst case for the aging, which reads open items);
//  2. measured over HTTP (the server's own request path, one call at a time, after 5 warm-up calls):
//     the receivables aging over all clients (oms 026201, first page of 50 with the totals over all),
//     one client's statement for a year (oms 026203), and beside them a plain 50-row list from the same
//     run (the receipt list, oms 026001);
//  3. the finance check (npm run verify's) over everything, with its time: no differences expected.
// Goal: p99 < 300 ms for the aging and the statement.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../src/server/config.ts';
import { insertMany } from '../src/server/db/raw-sql.ts';
import { verifyFinance } from '../src/server/domain/finance/verify.ts';
import { createServer, type Server } from '../src/server/server.ts';
import { pct } from './lib/in-process.ts';

const { values: args } = parseArgs({
  options: {
    items: { type: 'string', default: '200000' },
    allocations: { type: 'string', default: '300000' },
    clients: { type: 'string', default: '2000' },
    runs: { type: 'string', default: '60' },
    settled: { type: 'string', default: '0.85' },
    pg: { type: 'boolean', default: false },
    'no-sqlite': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
  strict: true,
});
if (args.help) {
  console.log('用法：npm run bench:finance -- [--items 200000] [--allocations 300000] [--clients 2000] [--settled 0.85] [--runs 60] [--pg] [--no-sqlite]');
  process.exit(0);
}
const ITEMS = Number(args.items);
const ALLOCS = Number(args.allocations);
const CLIENTS = Number(args.clients);
const RUNS = Number(args.runs);
const GOAL_P99 = 300;

const day = (offset: number) => new Date(Date.parse('2026-11-26T00:00:00Z') + offset * 86_400_000).toISOString().slice(0, 10);
/** A small deterministic generator: the same data every run. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

async function seed(server: Server): Promise<{ clientId: number }> {
  const db = server.database.db;
  const company = await db.selectFrom('company').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow();
  const companyId = Number(company.id);
  const cur = await db.selectFrom('currency').select(['id', 'code']).where('companyId', '=', companyId).execute();
  const cny = Number(cur.find((c) => c.code === 'CNY')!.id);
  const usd = Number(cur.find((c) => c.code === 'USD')!.id);
  const now = new Date().toISOString();
  const started = Date.now();
  const clientRows = Array.from({ length: CLIENTS }, (_, i) => [companyId, 1, now, now, `BF${String(i).padStart(5, '0')}`, `基准客户${i}`, 0, 1]);
  const clientIds = (await insertMany(db, 'client', ['company_id', 'version', 'created_at', 'updated_at', 'code', 'name', 'credit_limit', 'enabled'], clientRows, 'returning id')).map((r) => Number(r.id));
  const rand = rng(15);
  // items: amount, allocations later reduce them
  const items = Array.from({ length: ITEMS }, (_, i) => {
    const usdItem = i % 10 === 0;
    const amount = 10_000 + Math.floor(rand() * 5_000_000);
    const rate = usdItem ? 7_123_400 : 1_000_000;
    const docOffset = -Math.floor(rand() * 230);
    return { i, clientId: clientIds[i % clientIds.length]!, currencyId: usdItem ? usd : cny, rate, amount, allocated: 0, allocatedBase: 0, docDate: day(docOffset), dueDate: day(docOffset + 30) };
  });
  // receipts and their allocations: `--settled` of the items (the older ones, as in a live ledger) are
  // paid in full by one or two allocations, the rest are open, some of them partly paid, until
  // `--allocations` allocations are made; a receipt holds up to 15 allocations of one client
  const payRows: unknown[][] = [];
  const allocs: Array<{ pay: number; item: (typeof items)[number]; amount: number; base: number; date: string }> = [];
  const settledShare = Number(args.settled);
  const byAge = [...items].filter((it) => it.currencyId === cny).sort((a, b) => (a.dueDate < b.dueDate ? -1 : 1));
  const settle = new Set(byAge.slice(0, Math.floor(items.length * settledShare)));
  const plan: Array<{ item: (typeof items)[number]; amount: number }> = [];
  for (const it of byAge) {
    if (plan.length >= ALLOCS) break;
    if (settle.has(it)) {
      if (rand() < 0.6 && plan.length + 2 <= ALLOCS) {
        const first = Math.max(1, Math.floor(it.amount * (0.3 + rand() * 0.4)));
        plan.push({ item: it, amount: first }, { item: it, amount: it.amount - first });
      } else plan.push({ item: it, amount: it.amount });
    }
  }
  for (const it of byAge) {
    if (plan.length >= ALLOCS) break;
    // open items: one to three part payments of a tenth each
    if (!settle.has(it)) for (let k = 1 + Math.floor(rand() * 3); k > 0 && plan.length < ALLOCS; k--) plan.push({ item: it, amount: Math.max(1, Math.floor(it.amount / 10)) });
  }
  const perClient = new Map<number, typeof plan>();
  for (const a of plan) (perClient.get(a.item.clientId) ?? perClient.set(a.item.clientId, []).get(a.item.clientId)!).push(a);
  for (const [clientId, list] of perClient) {
    for (let i = 0; i < list.length; i += 15) {
      const p = payRows.length;
      const chunk = list.slice(i, i + 15);
      // paid on or after the latest document date of what it settles
      const date = chunk.reduce((d, a) => (a.item.docDate > d ? a.item.docDate : d), '0000-00-00');
      let total = 0;
      for (const a of chunk) {
        a.item.allocated += a.amount;
        a.item.allocatedBase += a.amount;
        allocs.push({ pay: p, item: a.item, amount: a.amount, base: a.amount, date });
        total += a.amount;
      }
      payRows.push([companyId, 1, now, now, `SKB${String(p).padStart(7, '0')}`, 'posted', 'receipt', clientId, date, cny, total, 0, 0, total, total, 1_000_000, total, 0, 1, now]);
    }
  }
  const payIds = (await insertMany(db, 'pay_document', ['company_id', 'version', 'created_at', 'updated_at', 'doc_no', 'status', 'direction', 'client_id', 'pay_date', 'currency_id', 'amount',
    'bank_fee', 'discount', 'settle_amount', 'allocated_amount', 'exchange_rate', 'amount_base', 'line_count', 'settled', 'posted_at'], payRows, 'returning id')).map((r) => Number(r.id));
  const itemRows = items.map((it) => {
    const base = Math.round((it.amount * it.rate) / 1_000_000);
    const open = it.amount - it.allocated;
    return [companyId, 1, now, now, 'receivable', 'client', it.clientId, 'openingBalance', 10_000_000 + it.i, `QCB${String(it.i).padStart(7, '0')}`, it.docDate, it.dueDate,
      it.currencyId, it.rate, it.amount, base, it.allocated, it.allocatedBase, open, open === 0 ? 'settled' : 'open'];
  });
  const itemIds = (await insertMany(db, 'open_item', ['company_id', 'version', 'created_at', 'updated_at', 'side', 'party_type', 'party_id', 'source_type', 'source_id', 'doc_no', 'doc_date', 'due_date',
    'currency_id', 'exchange_rate', 'amount', 'amount_base', 'allocated', 'allocated_base', 'open_amount', 'status'], itemRows, 'returning id')).map((r) => Number(r.id));
  await insertMany(db, 'finance_allocation', ['company_id', 'payment_id', 'item_id', 'alloc_date', 'amount', 'paid_amount', 'item_rate', 'pay_rate', 'item_base', 'paid_base', 'exchange_diff', 'kind', 'created_at'],
    allocs.map((a) => [companyId, payIds[a.pay]!, itemIds[a.item.i]!, a.date, a.amount, a.amount, 1_000_000, 1_000_000, a.base, a.base, 0, 'allocate', now]));
  console.log(`  种子数据：客户 ${CLIENTS.toLocaleString('en-US')}，款项 ${ITEMS.toLocaleString('en-US')}，收款单 ${payRows.length.toLocaleString('en-US')}，核销 ${allocs.length.toLocaleString('en-US')}（${((Date.now() - started) / 1000).toFixed(1)} 秒）`);
  // PostgreSQL plans from statistics: a bulk load is followed by ANALYZE, as autovacuum would soon do
  if (server.database.dialect === 'postgres') await sql`analyze`.execute(db);
  return { clientId: clientIds[0]! };
}

async function timed(server: Server, token: string, code: string, body: unknown): Promise<number[]> {
  const call = async () => {
    const t0 = performance.now();
    const res = await server.app.inject({ method: 'POST', url: `/oms/api/${code}`, headers: { token, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
    const ms = performance.now() - t0;
    const env = res.json() as { code: string; msg: string };
    if (env.code !== '200') throw new Error(`${code} → ${env.code} ${env.msg}`);
    return ms;
  };
  for (let i = 0; i < 5; i++) await call();
  const out: number[] = [];
  for (let i = 0; i < RUNS; i++) out.push(await call());
  return out.sort((a, b) => a - b);
}


async function run(label: string, dataDir: string, databaseUrl?: string): Promise<boolean> {
  console.log(`== ${label} ==`);
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? '', CLIENT_DIR: path.join(dataDir, 'no-client'), LOGIN_MAX_FAILURES: '1000' });
  const server = await createServer(config, { seed: true });
  try {
    const { clientId } = await seed(server);
    const login = await server.app.inject({ method: 'POST', url: '/auth/public/990103', payload: { type: 0, companyCode: 'demo', userName: 'admin', password: 'demo123' } });
    const token = String((login.json() as { data: { accessToken: string } }).data.accessToken);
    const aging = await timed(server, token, '026201', { page: 1, pageSize: 50, today: '2026-11-26', withTotals: true });
    const statement = await timed(server, token, '026203', { id: clientId, dateFrom: '2026-01-01', dateTo: '2026-11-30' });
    const list = await timed(server, token, '026001', { page: 1, pageSize: 50 });
    let ok = true;
    for (const [name, xs] of [['账龄（全部客户）026201', aging], ['单个客户对账单 026203', statement], ['收付款单列表 50 行 026001', list]] as const) {
      const goal = name.startsWith('收付款单') ? '' : pct(xs, 99) < GOAL_P99 ? '  ✓' : `  ✗ 目标 p99 < ${GOAL_P99} ms`;
      if (goal.includes('✗')) ok = false;
      console.log(`  ${name}：p50 ${pct(xs, 50).toFixed(1)} ms，p99 ${pct(xs, 99).toFixed(1)} ms（${RUNS} 次）${goal}`);
    }
    const t0 = Date.now();
    const v = await verifyFinance(server.database.db);
    console.log(`  财务校验：${v.items.toLocaleString('en-US')} 笔款项、${v.allocations.toLocaleString('en-US')} 条核销，${v.total} 个差异（${((Date.now() - t0) / 1000).toFixed(1)} 秒）`);
    return ok && v.total === 0;
  } finally {
    await server.close();
  }
}

async function main(): Promise<number> {
  const dir = path.join(os.tmpdir(), 'tbo-bench-finance', 'sqlite');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  let ok = args['no-sqlite'] ? true : await run('SQLite', dir);
  if (args.pg) {
    const admin = new URL(process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres');
    admin.pathname = '/postgres';
    const c = new pg.Client({ connectionString: admin.toString() });
    await c.connect();
    await c.query('drop database if exists bench_finance with (force)');
    await c.query('create database bench_finance');
    await c.end();
    const url = new URL(admin.toString());
    url.pathname = '/bench_finance';
    const pgDir = path.join(os.tmpdir(), 'tbo-bench-finance', 'pg-data');
    fs.rmSync(pgDir, { recursive: true, force: true });
    fs.mkdirSync(pgDir, { recursive: true });
    ok = (await run('PostgreSQL', pgDir, url.toString())) && ok;
  }
  return ok ? 0 : 1;
}

main().then((code) => { process.exitCode = code; }, (e) => { console.error(e); process.exitCode = 2; });
