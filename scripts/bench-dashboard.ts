// npm run bench:dashboard [-- --moves 1000000 --lines 200000 --invoices 200000 --days 60 --runs 30 --pg]
// 数据大屏's full refresh (one call of oms 023201 / 023202, as the screen makes every 30 s) on a fresh
// database holding `--moves` stock moves, `--lines` sales order lines (4 a order) and `--invoices` client
// receivables (open items, as posted invoices leave them), spread over the last `--days` days, written
// straight into their tables; the days before today closed (日结) so the balances read yesterday's snapshot
// plus today's moves. Timed over the server's request path (app.inject).
// The figures themselves are domain/dashboard/dashboard.ts `dashboard(ctx, 'sales' | 'all')`.
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
    lines: { type: 'string', default: '200000' },
    invoices: { type: 'string', default: '200000' },
    products: { type: 'string', default: '2000' },
    clients: { type: 'string', default: '2000' },
    days: { type: 'string', default: '60' },
    runs: { type: 'string', default: '30' },
    pg: { type: 'boolean', default: false },
    // keep the filled databases (SQLite in this folder, PostgreSQL as database dash_bench_keep) and reuse
    // them on the next run (for profiling)
    keep: { type: 'string' },
  },
  strict: true,
});
const MOVES = Number(args.moves);
const LINES = Number(args.lines);
const INVOICES = Number(args.invoices);
const PRODUCTS = Number(args.products);
const CLIENTS = Number(args.clients);
const DAYS = Number(args.days);
const RUNS = Number(args.runs);
const CHUNK = 5000;

const PROVINCES = ['广东省广州市', '浙江省杭州市', '上海市浦东新区', '北京市朝阳区', '江苏省南京市', '四川省成都市', '山东省青岛市', '湖北省武汉市'];


async function timed(server: Server, token: string, code: string): Promise<string> {
  for (let i = 0; i < 2; i++) await call(server, token, 'oms', code, {});
  const xs: number[] = [];
  for (let i = 0; i < RUNS; i++) xs.push((await call(server, token, 'oms', code, {})).ms);
  xs.sort((a, b) => a - b);
  return `p50 ${pct(xs, 50).toFixed(1)} ms，p99 ${pct(xs, 99).toFixed(1)} ms（${RUNS} 次）`;
}

/** Rows written in chunks as they are made. */
function writer(db: Server['database']['db'], table: string, columns: string[]) {
  const rows: unknown[][] = [];
  return {
    async add(row: unknown[]) {
      rows.push(row);
      if (rows.length >= CHUNK) await this.flush();
    },
    async flush() {
      if (rows.length) await insertMany(db, table, columns, rows.splice(0));
    },
  };
}

async function run(label: string, dataDir: string, databaseUrl?: string, reusePg = false): Promise<void> {
  console.log(`== ${label} ==`);
  const reuse = databaseUrl ? reusePg : fs.existsSync(path.join(dataDir, 'app.sqlite'));
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? '', CLIENT_DIR: path.join(dataDir, 'no-client'), LOGIN_MAX_FAILURES: '1000', LIST_PAGE_CACHE: 'off' });
  const server = await createServer(config, { seed: true });
  try {
    const login = await server.app.inject({ method: 'POST', url: '/auth/public/990103', payload: { type: 0, companyCode: 'demo', userName: 'admin', password: 'demo123' } });
    const token = String((login.json() as { data: { accessToken: string } }).data.accessToken);
    const db = server.database.db;
    const companyId = Number((await db.selectFrom('company').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id);
    if (reuse) {
      console.log(`  数据：沿用 ${dataDir}`);
      console.log(`  数据大屏 销售 oms 023201：${await timed(server, token, '023201')}`);
      console.log(`  数据大屏 全部 oms 023202：${await timed(server, token, '023202')}`);
      return;
    }
    const currencyId = Number((await db.selectFrom('currency').select('id').where('companyId', '=', companyId).where('isBase', '=', 1).executeTakeFirstOrThrow()).id);
    const started = Date.now();
    const now = Date.now();
    const span = DAYS * 86_400_000;
    const at = (i: number, n: number) => new Date(now - span + Math.floor(((i + 1) / n) * span) - 1000);
    const dayOf = (d: Date) => new Date(d.getTime() + 8 * 3_600_000).toISOString().slice(0, 10);
    const stamp = (d: Date) => d.toISOString();

    const warehouses = [
      (await call(server, token, 'cdm', '011003', { code: 'BDW1', name: '基准一仓' })).data.id as number,
      (await call(server, token, 'cdm', '011003', { code: 'BDW2', name: '基准二仓' })).data.id as number,
    ];
    const products = await insertMany(db, 'product', ['company_id', 'created_at', 'updated_at', 'code', 'name', 'unit_small', 'price'],
      Array.from({ length: PRODUCTS }, (_, i) => [companyId, stamp(new Date()), stamp(new Date()), `BD${String(i).padStart(6, '0')}`, `基准商品${i}`, '个', 100 + (i % 50) * 100]), 'returning id');
    const productIds = products.map((r) => Number(r.id));
    const clients = await insertMany(db, 'client', ['company_id', 'created_at', 'updated_at', 'code', 'name', 'address', 'enabled'],
      Array.from({ length: CLIENTS }, (_, i) => [companyId, stamp(new Date()), stamp(new Date()), `BDC${String(i).padStart(6, '0')}`, `基准客户${i}`, `${PROVINCES[i % PROVINCES.length]}某路 ${i} 号`, 1]), 'returning id');
    const clientIds = clients.map((r) => Number(r.id));

    const moves = writer(db, 'stock_move', ['company_id', 'product_id', 'warehouse_id', 'location_id', 'qty', 'reserved_qty', 'kind', 'doc_type', 'doc_id', 'doc_line', 'account_id', 'created_at']);
    for (let i = 0; i < MOVES; i++) await moves.add([companyId, productIds[i % productIds.length], warehouses[i % 2], null, i % 3 === 2 ? -1 : 2, 0, 'adjust', 'bench', i, null, null, stamp(at(i, MOVES))]);
    await moves.flush();

    // orders of 4 lines each; every 10th a draft, every 20th cancelled
    const orders = Math.ceil(LINES / 4);
    const orderCols = ['company_id', 'created_at', 'updated_at', 'doc_no', 'status', 'client_id', 'warehouse_id', 'currency_id', 'order_date', 'exchange_rate', 'line_count', 'total_qty', 'total_amount', 'total_amount_base'];
    const lineCols = ['company_id', 'order_id', 'line_no', 'product_id', 'qty', 'price', 'amount'];
    for (let o = 0; o < orders; o += CHUNK) {
      const batch = Array.from({ length: Math.min(CHUNK, orders - o) }, (_, k) => o + k);
      const head = await insertMany(db, 'sales_order', orderCols, batch.map((i) => {
        const d = at(i, orders);
        return [companyId, stamp(d), stamp(d), `BSO${i}`, i % 10 === 0 ? 'draft' : i % 20 === 5 ? 'cancelled' : 'confirmed', clientIds[i % clientIds.length], warehouses[i % 2], currencyId, dayOf(d), 1_000_000, 4, 40, 4000, 4000];
      }), 'returning id');
      const lines: unknown[][] = [];
      head.forEach((h, k) => {
        for (let l = 1; l <= 4; l++) lines.push([companyId, Number(h.id), l, productIds[(batch[k]! * 4 + l) % productIds.length], 10, 100, 1000]);
      });
      for (let i = 0; i < lines.length; i += CHUNK) await insertMany(db, 'sales_order_line', lineCols, lines.slice(i, i + CHUNK));
    }

    // client receivables as posted invoices leave them: due 30 days after, a third settled
    const items = writer(db, 'open_item', ['company_id', 'created_at', 'updated_at', 'side', 'party_type', 'party_id', 'source_type', 'source_id', 'doc_no', 'doc_date', 'due_date', 'currency_id', 'exchange_rate', 'amount', 'amount_base', 'allocated', 'open_amount', 'allocated_base', 'status']);
    for (let i = 0; i < INVOICES; i++) {
      const d = at(i, INVOICES);
      const due = new Date(d.getTime() + 30 * 86_400_000);
      const settled = i % 3 === 0;
      await items.add([companyId, stamp(d), stamp(d), 'receivable', 'client', clientIds[i % clientIds.length], 'salesInvoice', i + 1, `BSI${i}`, dayOf(d), dayOf(due), currencyId, 1_000_000, 5000, 5000, settled ? 5000 : 0, settled ? 0 : 5000, settled ? 5000 : 0, settled ? 'settled' : 'open']);
    }
    await items.flush();

    // receipts and shipments: one each per 20 orders
    const pays = writer(db, 'pay_document', ['company_id', 'created_at', 'updated_at', 'doc_no', 'status', 'direction', 'client_id', 'pay_date', 'currency_id', 'amount', 'amount_base', 'method']);
    const notes = writer(db, 'delivery_note', ['company_id', 'created_at', 'updated_at', 'doc_no', 'status', 'posted_at', 'client_id', 'warehouse_id', 'total_qty']);
    for (let i = 0; i < orders / 20; i++) {
      const d = at(i, orders / 20);
      await pays.add([companyId, stamp(d), stamp(d), `BPD${i}`, 'posted', 'receipt', clientIds[i % clientIds.length], dayOf(d), currencyId, 20000, 20000, 'bank']);
      await notes.add([companyId, stamp(d), stamp(d), `BDN${i}`, 'posted', stamp(d), clientIds[i % clientIds.length], warehouses[i % 2], 40]);
    }
    await pays.flush();
    await notes.flush();
    if (server.database.dialect === 'postgres') await sql`analyze`.execute(db);
    console.log(`  数据：${MOVES.toLocaleString('en-US')} 条库存流水，${(orders * 4).toLocaleString('en-US')} 条销售订单明细（${orders.toLocaleString('en-US')} 单），${INVOICES.toLocaleString('en-US')} 条应收，${DAYS} 天（${((Date.now() - started) / 1000).toFixed(1)} 秒）`);
    const t0 = Date.now();
    for (let d = -DAYS; d <= -1; d++) await call(server, token, 'oms', '023105', { day: companyDay(d) });
    console.log(`  日结 ${DAYS} 天（至昨天）：${((Date.now() - t0) / 1000).toFixed(1)} 秒`);
    console.log(`  数据大屏 销售 oms 023201：${await timed(server, token, '023201')}`);
    console.log(`  数据大屏 全部 oms 023202：${await timed(server, token, '023202')}`);
  } finally {
    await server.close();
  }
}

async function main(): Promise<void> {
  const dir = args.keep ?? fs.mkdtempSync(path.join(os.tmpdir(), 'bench-dashboard-'));
  try {
    await run('SQLite', dir);
  } finally {
    if (!args.keep) fs.rmSync(dir, { recursive: true, force: true });
  }
  if (!args.pg) return;
  const admin = new URL(process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres');
  admin.pathname = '/postgres';
  const name = args.keep ? 'dash_bench_keep' : `dash_bench_${process.pid}`;
  const c = new pg.Client({ connectionString: admin.toString() });
  await c.connect();
  const exists = (await c.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
  if (!exists) await c.query(`create database ${name}`);
  await c.end();
  const url = new URL(admin.toString());
  url.pathname = `/${name}`;
  const pgDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-dashboard-pg-'));
  try {
    await run('PostgreSQL', pgDir, url.toString(), exists);
  } finally {
    fs.rmSync(pgDir, { recursive: true, force: true });
    if (!args.keep) {
      const d = new pg.Client({ connectionString: admin.toString() });
      await d.connect();
      await d.query(`drop database if exists ${name} with (force)`);
      await d.end();
    }
  }
}

main().then(() => undefined, (e) => { console.error(e); process.exitCode = 2; });
