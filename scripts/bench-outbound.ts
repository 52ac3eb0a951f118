// `npm run bench:outbound [-- --orders 1000 --lines 10 --notes 600 --note-lines 20 --connections 4 --pg]`
// The outbound floor at scale (issue 14), on a fresh SQLite database (PostgreSQL too with --pg and
// DATABASE_URL or the local server), through the HTTP API of an in-process server:
//  1. a wave: 1,000 confirmed orders × 10 lines, each with its confirmed outbound plan (its task), over
//     products stocked at 60 locations in five zones; timed: the picking orders made from all 1,000 tasks
//     (oms 024003 from taskIds, 200 tasks per picking order: suggestions by location, lines sorted in
//     walking order, task lines claimed) — goal < 2 s on SQLite;
//  2. delivery notes of 20 lines (oms 024103 with post: the goods and the reservation leave staging,
//     order lines and statuses updated) from picked tasks, `connections` at once — notes per second, goal
//     ≥ 150/s on SQLite; beside it, from the same run and the same connections, receiving + putaway of
//     20-line purchase orders (oms 021403 with post, then 021503 with post) per second;
//  3. the ledger verified after (no differences).
// The set-up (orders, plans, pickings, purchase orders) goes through the same API and is not timed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { loadConfig } from '../src/server/config.ts';
import { verifyStock } from '../src/server/domain/stock/verify.ts';
import { createServer } from '../src/server/server.ts';
import { post } from './lib/load.ts';

const { values: args } = parseArgs({
  options: {
    orders: { type: 'string', default: '1000' },
    lines: { type: 'string', default: '10' },
    notes: { type: 'string', default: '600' },
    'note-lines': { type: 'string', default: '20' },
    connections: { type: 'string', default: '4' },
    pg: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
  strict: true,
});
if (args.help) {
  console.log('用法：npm run bench:outbound -- [--orders 1000] [--lines 10] [--notes 600] [--note-lines 20] [--connections 4] [--pg]');
  process.exit(0);
}
const ORDERS = Number(args.orders);
const LINES = Number(args.lines);
const NOTES = Number(args.notes);
const NOTE_LINES = Number(args['note-lines']);
const CONNECTIONS = Number(args.connections);
const GOALS = { waveMs: 2000, notesPerSec: 150 };
const PRODUCTS = 200;
const WAVE_PER_PICKING = 200;

type Call = (code: string, body: unknown) => Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });

/** Runs `work` over the items with `n` at once; returns the seconds taken. */
async function timed<T>(items: T[], n: number, work: (item: T) => Promise<unknown>): Promise<number> {
  const started = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: n }, async () => {
    while (next < items.length) await work(items[next++]!);
  }));
  return (performance.now() - started) / 1000;
}

async function inBatches<T>(items: T[], n: number, work: (item: T) => Promise<unknown>): Promise<void> {
  await timed(items, n, work);
}

interface Figures { engine: string; waveMs: number; waveLines: number; pickings: number; notesPerSec: number; receivePerSec: number; verifyDifferences: number }

async function bench(label: string, dataDir: string, databaseUrl?: string): Promise<Figures> {
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? '', CLIENT_DIR: path.join(dataDir, 'no-client') });
  const server = await createServer(config, { seed: true });
  try {
    const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
    const login = await post(`${address}/auth/public/990103`, { type: 0, companyCode: 'demo', userName: 'admin', password: 'demo123' });
    if (login.code !== '200') throw new Error(`登录失败：${login.code} ${login.msg}`);
    const headers = { token: login.data.accessToken as string };
    const call: Call = async (code, body) => {
      const r = await post(`${address}/${code.startsWith('01') ? 'cdm' : 'oms'}/api/${code}`, body, headers);
      if (r.code !== '200') throw new Error(`${code} → ${r.code} ${r.msg}`);
      return r.data;
    };

    console.log(`${label}：准备数据（商品、库位、库存、客户）…`);
    const wh = (await call('011003', { code: 'BOW', name: '出库基准仓' })).id as number;
    const locations: number[] = [];
    for (const zone of ['C', 'D', 'E', 'F', 'G']) {
      for (let row = 1; row <= 3; row++) {
        for (let col = 1; col <= 4; col++) {
          const code = `${zone}-${String(row).padStart(2, '0')}-${String(col).padStart(2, '0')}`;
          locations.push((await call('011103', { warehouseId: wh, lcCode: code, zone, row: String(row), column: String(col), level: '1', type: 'storage' })).id);
        }
      }
    }
    const products: number[] = [];
    await inBatches(Array.from({ length: PRODUCTS }, (_, i) => i), 8, async (i) => {
      products[i] = (await call('010203', { code: `BO${String(i).padStart(5, '0')}`, name: `出库基准商品${i}`, unitSmall: '个' })).id;
    });
    // every product at three locations, plenty for the wave and the notes (lines order 1–3 units)
    const perProduct = Math.ceil(((ORDERS * LINES) + NOTES * NOTE_LINES) / PRODUCTS) * 3 + 100;
    const stockLines = products.flatMap((productId, i) => [0, 1, 2].map((k) => ({ productId, locationId: locations[(i * 7 + k * 13) % locations.length], qty: Math.ceil(perProduct / 3) })));
    for (let i = 0; i < stockLines.length; i += 500) await call('022603', { warehouseId: wh, post: true, lines: stockLines.slice(i, i + 500) });
    const client = (await call('011703', { code: 'BOC1', name: '出库基准客户', creditLimit: '0' })).id as number;

    /** A confirmed order of `lines` products with its confirmed plan: the task id. */
    const task = async (n: number, lines: number): Promise<number> => {
      const so = await call('020903', { clientId: client, warehouseId: wh, lines: Array.from({ length: lines }, (_, k) => ({ productId: products[(n * lines + k) % PRODUCTS], qty: 1 + (k % 3), price: '1' })) });
      await call('020905', { id: so.id });
      const order = await call('020902', { id: so.id });
      const plan = await call('020703', { orderId: so.id, lines: order.lines.map((l: { id: number; qty: number }) => ({ orderLineId: l.id, qty: l.qty })) });
      return (await call('020705', { id: plan.id })).taskId;
    };

    console.log(`${label}：${fmt(ORDERS)} 张 ${LINES} 行销售订单及其发货计划（出库任务）…`);
    const waveTasks: number[] = [];
    await inBatches(Array.from({ length: ORDERS }, (_, i) => i), CONNECTIONS, async (i) => { waveTasks[i] = await task(i, LINES); });
    const groups: number[][] = [];
    for (let i = 0; i < waveTasks.length; i += WAVE_PER_PICKING) groups.push(waveTasks.slice(i, i + WAVE_PER_PICKING));
    let waveLines = 0;
    const waveSec = await timed(groups, 1, async (taskIds) => { waveLines += (await call('024003', { taskIds })).lineCount; });
    console.log(`${label}：波次 ${fmt(ORDERS)} 单 → ${groups.length} 张拣货单（${fmt(waveLines)} 行，按库位行走顺序）${fmt(waveSec * 1000)} ms`);

    console.log(`${label}：${fmt(NOTES)} 个 ${NOTE_LINES} 行出库任务拣货完成，${fmt(NOTES)} 张 ${NOTE_LINES} 行采购订单…`);
    const noteTasks: number[] = [];
    await inBatches(Array.from({ length: NOTES }, (_, i) => i), CONNECTIONS, async (i) => {
      noteTasks[i] = await task(ORDERS + i, NOTE_LINES);
      await call('024003', { taskIds: [noteTasks[i]], post: true });
    });
    const supplier = (await call('011603', { code: 'BOS1', name: '出库基准供应商' })).id as number;
    const orders: Array<{ id: number; lines: Array<{ orderLineId: number; countedQty: number }> }> = [];
    await inBatches(Array.from({ length: NOTES }, (_, i) => i), CONNECTIONS, async (i) => {
      const po = await call('020203', { supplierId: supplier, warehouseId: wh, lines: Array.from({ length: NOTE_LINES }, (_, k) => ({ productId: products[(i * NOTE_LINES + k) % PRODUCTS], qty: 5, price: '1' })) });
      await call('020205', { id: po.id });
      const got = await call('020202', { id: po.id });
      orders[i] = { id: po.id, lines: got.lines.map((l: { id: number }) => ({ orderLineId: l.id, countedQty: 5 })) };
    });
    // default locations so putaway has somewhere to go
    await inBatches(products, 8, (productId) => call('011203', { productId, warehouseId: wh, locationId: locations[productId % locations.length] }));

    const noteSec = await timed(noteTasks, CONNECTIONS, (taskId) => call('024103', { taskId, post: true }));
    const receiveSec = await timed(orders, CONNECTIONS, async (o) => {
      const note = await call('021403', { orderId: o.id, post: true, lines: o.lines });
      await call('021503', { receivingNoteId: note.id, post: true });
    });
    const v = await verifyStock(server.database.db);
    return { engine: label, waveMs: waveSec * 1000, waveLines, pickings: groups.length, notesPerSec: NOTES / noteSec, receivePerSec: NOTES / receiveSec, verifyDifferences: v.total };
  } finally {
    await server.close();
  }
}

async function postgresTarget(): Promise<{ dataDir: string; databaseUrl: string } | undefined> {
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
    await c.query('drop database if exists bench_outbound with (force)');
    await c.query('create database bench_outbound');
  } finally {
    await c.end();
  }
  const url = new URL(admin.toString());
  url.pathname = '/bench_outbound';
  const dataDir = path.join(os.tmpdir(), 'tbo-bench-outbound', 'pg-data');
  fs.rmSync(dataDir, { recursive: true, force: true });
  return { dataDir, databaseUrl: url.toString() };
}

async function main(): Promise<void> {
  console.log(`CPU ${os.cpus().length} 核，Node ${process.version}；开始时负载 ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  const dir = path.join(os.tmpdir(), 'tbo-bench-outbound', 'sqlite');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const figures = [await bench('SQLite', dir)];
  if (args.pg) {
    const t = await postgresTarget();
    if (t) figures.push(await bench('PostgreSQL', t.dataDir, t.databaseUrl));
  }
  let pass = true;
  for (const f of figures) {
    console.log('');
    console.log(`== ${f.engine} ==`);
    console.log(`  波次拣货：${fmt(ORDERS)} 单 × ${LINES} 行 → ${f.pickings} 张拣货单（${fmt(f.waveLines)} 行）：${fmt(f.waveMs)} ms`);
    console.log(`  送货单发货（${NOTE_LINES} 行，${CONNECTIONS} 个连接）：${fmt(f.notesPerSec, 1)} 张/秒`);
    console.log(`  基线（同一次运行，${NOTE_LINES} 行收货 + 上架，${CONNECTIONS} 个连接）：${fmt(f.receivePerSec, 1)} 组/秒`);
    console.log(`  校验：差异 ${f.verifyDifferences}`);
    if (f.engine === 'SQLite') {
      const checks: Array<[string, boolean]> = [
        [`波次拣货 < ${GOALS.waveMs} ms`, f.waveMs < GOALS.waveMs],
        [`送货单发货 ≥ ${GOALS.notesPerSec} 张/秒`, f.notesPerSec >= GOALS.notesPerSec],
        ['校验无差异', f.verifyDifferences === 0],
      ];
      for (const [name, ok] of checks) {
        pass &&= ok;
        console.log(`  目标 ${name}：${ok ? '达标' : '未达标'}`);
      }
    } else if (f.verifyDifferences) pass = false;
  }
  process.exitCode = pass ? 0 : 1;
}

main().catch((e) => {
  console.error(e instanceof Error ? e.stack ?? e.message : e);
  process.exit(1);
});
