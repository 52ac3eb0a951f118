// `npm run bench:import [-- --rows 10000 --no-pg --no-sqlite]`
// Product import at scale, over HTTP, on a fresh SQLite database and (when reachable) a fresh PostgreSQL
// database:
//  1. an .xlsx of N product rows with the headers of the product import template (cdm 010245), every
//     column filled, categories and the default supplier named by their Chinese name / code;
//  2. baseline in the same run: reading the same file alone (the server's own spreadsheet reader);
//  3. the import (cdm 010206, multipart) of a file whose row N-2 is bad (rejected: nothing written), of
//     all N rows as new products, of the same file again (every row matched by code, nothing changed) and
//     of a file changing every row's name and price (N updates, each audited), each timed from the upload
//     to the answer.
// PostgreSQL: a fresh database `bench_import` on DATABASE_URL's server (default
// postgres://postgres@127.0.0.1:5432/postgres), skipped with a note when unreachable.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { loadConfig } from '../src/server/config.ts';
import { readSpreadsheet } from '../src/server/files/xlsx.ts';
import { createServer, type Server } from '../src/server/server.ts';

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '10000' },
    'no-pg': { type: 'boolean', default: false },
    'no-sqlite': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
  strict: true,
});
if (args.help) {
  console.log('用法：npm run bench:import -- [--rows 10000] [--no-pg] [--no-sqlite]');
  process.exit(0);
}
const ROWS = Number(args.rows);
if (!Number.isInteger(ROWS) || ROWS < 1 || ROWS > 50_000) throw new Error('--rows 应为 1 到 50000 的整数');
const CATEGORIES = ['五金工具', '紧固件', '电工照明', '包装材料', '家居日用'];

interface Target { label: string; dataDir: string; databaseUrl?: string; drop?: () => Promise<void> }

interface Api {
  address: string;
  token: string;
}

async function post(api: Api, code: string, body: unknown): Promise<any> {
  const res = await fetch(`${api.address}/cdm/api/${code}`, { method: 'POST', headers: { 'content-type': 'application/json', token: api.token }, body: JSON.stringify(body) });
  return res.json();
}

async function upload(api: Api, code: string, fileName: string, file: Buffer): Promise<{ ms: number; answer: any }> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file)]), fileName);
  const started = performance.now();
  const res = await fetch(`${api.address}/cdm/api/${code}`, { method: 'POST', headers: { token: api.token }, body: form });
  const answer = await res.json();
  return { ms: performance.now() - started, answer };
}

/** The header row of the product import template, as the server writes it. */
async function templateHeaders(api: Api): Promise<string[]> {
  const res = await fetch(`${api.address}/cdm/api/010245`, { method: 'POST', headers: { 'content-type': 'application/json', token: api.token }, body: '{}' });
  if (String(res.headers.get('content-type')).includes('json')) throw new Error(`模板下载失败：${await res.text()}`);
  const sheet = await readSpreadsheet(Buffer.from(await res.arrayBuffer()), 'xlsx');
  return sheet.rows[0]!.cells.map((c) => String(c ?? ''));
}

/** One product row's cell for a template header (the template's Chinese titles). */
function cellFor(header: string, i: number, changed = false): string | number | null {
  const n = String(i + 1).padStart(6, '0');
  switch (header) {
    case '商品编码': return `B${n}`;
    case '条码': return `69${String(10_000_000_000 + i)}`;
    case '商品名称': return `批量导入商品 ${n} 不锈钢螺丝${changed ? '（新款）' : ''}`;
    case '英文名称': return `Bulk item ${n}`;
    case '商品类别': return CATEGORIES[i % CATEGORIES.length]!;
    case '品牌': return ['华东', '申工', '永固'][i % 3]!;
    case '规格': return `M${(i % 12) + 3}×${(i % 50) + 10}`;
    case '海关编码': return '7318159001';
    case '产地': return '浙江宁波';
    case '状态': return i % 10 === 0 ? '停售' : '在售';
    case '锁定': return '未锁定';
    case '默认供应商': return 'S001';
    case '大单位': return '箱';
    case '中单位': return '盒';
    case '小单位': return '个';
    case '中包装数量': return 10;
    case '大包装数量': return 100;
    case '箱重（克）': return 5000 + (i % 1000);
    case '箱体积（立方厘米）': return 24000;
    case '参考价': return Number(((i % 997) + (changed ? 0.75 : 0.25)).toFixed(2));
    case '备注': return i % 7 === 0 ? `第 ${i + 1} 行备注` : null;
    default: return null;
  }
}

async function buildXlsx(headers: string[], rows: number, badRow?: number, changed = false): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('商品');
  ws.addRow(headers);
  for (let i = 0; i < rows; i++) {
    const cells = headers.map((h) => cellFor(h.replace(/^\*/, ''), i, changed));
    if (i === badRow) cells[headers.indexOf('中包装数量')] = '十个';
    ws.addRow(cells.map((c) => (c === null ? undefined : c)));
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function freshPostgres(): Promise<Target | undefined> {
  const admin = new URL(process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres');
  admin.pathname = '/postgres';
  const name = 'bench_import';
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
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tbo-bench-import-pg-'));
  return {
    label: 'PostgreSQL', dataDir, databaseUrl: url.toString(),
    drop: async () => {
      const d = new pg.Client({ connectionString: admin.toString() });
      await d.connect();
      await d.query(`drop database if exists ${name} with (force)`);
      await d.end();
    },
  };
}

interface Figures {
  engine: string;
  parseMs: number;
  createMs: number;
  created: number;
  unchangedMs: number;
  unchanged: number;
  rejectMs: number;
  updateMs: number;
  updated: number;
  rejectRow: number | null;
  count: number;
}

async function benchTarget(t: Target, files: { good: Buffer; bad: Buffer; changed: Buffer; badRow: number }, headersOut: { headers?: string[] }): Promise<Figures> {
  const config = loadConfig({ ...process.env, DATA_DIR: t.dataDir, DATABASE_URL: t.databaseUrl ?? '', CLIENT_DIR: path.join(t.dataDir, 'no-client') });
  let server: Server | undefined;
  try {
    server = await createServer(config, { seed: true });
    const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
    const login = await (await fetch(`${address}/auth/public/990103`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 0, companyCode: 'demo', userName: 'admin', password: 'demo123' }),
    })).json() as any;
    if (login.code !== '200') throw new Error(`登录失败：${login.code} ${login.msg}`);
    const api: Api = { address, token: login.data.accessToken };
    for (const [i, name] of CATEGORIES.entries()) {
      const r = await post(api, '010403', { code: `C${i + 1}`, name, sort: i });
      if (r.code !== '200') throw new Error(`新增类别失败：${JSON.stringify(r)}`);
    }
    const headers = await templateHeaders(api);
    if (headersOut.headers && headersOut.headers.join() !== headers.join()) throw new Error('两个数据库的导入模板列不同');
    headersOut.headers = headers;
    if (!files.good.length) {
      const t0 = performance.now();
      files.good = await buildXlsx(headers, ROWS);
      files.bad = await buildXlsx(headers, ROWS, files.badRow);
      files.changed = await buildXlsx(headers, ROWS, undefined, true);
      console.log(`生成 ${ROWS} 行 .xlsx（${headers.length} 列：${headers.join('、')}）：${(files.good.length / 1024).toFixed(0)} KB，用时 ${((performance.now() - t0) / 1000).toFixed(2)} 秒`);
    }
    // Baseline: the same file read alone, in this process (best of two: the first warms the reader).
    let parseMs = Infinity;
    for (let k = 0; k < 2; k++) {
      const p0 = performance.now();
      const sheet = await readSpreadsheet(files.good, 'xlsx');
      parseMs = Math.min(parseMs, performance.now() - p0);
      if (sheet.rows.length !== ROWS + 1) throw new Error(`读取行数不对：${sheet.rows.length}`);
    }

    const rejected = await upload(api, '010206', '商品导入_有错误.xlsx', files.bad);
    if (rejected.answer.code !== 'COMMON_IMPORT_4012') throw new Error(`有错误的文件应被拒绝：${JSON.stringify(rejected.answer).slice(0, 400)}`);
    const created = await upload(api, '010206', '商品导入.xlsx', files.good);
    if (created.answer.code !== '200') throw new Error(`导入失败：${JSON.stringify(created.answer).slice(0, 600)}`);
    const again = await upload(api, '010206', '商品导入.xlsx', files.good);
    if (again.answer.code !== '200') throw new Error(`再次导入失败：${JSON.stringify(again.answer).slice(0, 600)}`);
    const changed = await upload(api, '010206', '商品导入_改名改价.xlsx', files.changed);
    if (changed.answer.code !== '200') throw new Error(`改名改价导入失败：${JSON.stringify(changed.answer).slice(0, 600)}`);
    const list = await post(api, '010201', { page: 1, pageSize: 1, filters: { code: 'B' } });
    return {
      engine: t.label, parseMs,
      createMs: created.ms, created: created.answer.data.created,
      unchangedMs: again.ms, unchanged: again.answer.data.unchanged,
      updateMs: changed.ms, updated: changed.answer.data.updated,
      rejectMs: rejected.ms, rejectRow: rejected.answer.data?.errors?.[0]?.row ?? null,
      count: list.data.total,
    };
  } finally {
    await server?.close();
    await t.drop?.();
    fs.rmSync(t.dataDir, { recursive: true, force: true });
  }
}

const sec = (ms: number) => `${(ms / 1000).toFixed(2)} 秒`;

async function main() {
  const targets: Array<() => Promise<Target | undefined>> = [];
  if (!args['no-sqlite']) targets.push(async () => ({ label: 'SQLite', dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'tbo-bench-import-')) }));
  if (!args['no-pg']) targets.push(freshPostgres);
  const files = { good: Buffer.alloc(0), bad: Buffer.alloc(0), changed: Buffer.alloc(0), badRow: ROWS - 3 };
  const headers: { headers?: string[] } = {};
  const all: Figures[] = [];
  for (const make of targets) {
    const t = await make();
    if (!t) continue;
    console.log(`${t.label}：新数据库，导入 ${ROWS} 行…`);
    all.push(await benchTarget(t, files, headers));
  }
  console.log('');
  console.log(`商品导入（cdm 010206，HTTP multipart），${ROWS} 行 × ${headers.headers?.length ?? 0} 列 .xlsx（${(files.good.length / 1024).toFixed(0)} KB）；基准：同一文件只读取解析（服务器的读取函数，同一进程）`);
  for (const f of all) {
    console.log('');
    console.log(`== ${f.engine} ==`);
    console.log(`  基准 仅解析文件：${sec(f.parseMs)}`);
    console.log(`  导入 全部新增：${sec(f.createMs)}（新增 ${f.created}，${Math.round(f.created / (f.createMs / 1000)).toLocaleString('en-US')} 行/秒，为解析的 ${(f.createMs / f.parseMs).toFixed(2)} 倍）；导入后商品 ${f.count} 个`);
    console.log(`  再次导入 同一文件（按编码匹配，全部未变化）：${sec(f.unchangedMs)}（未变化 ${f.unchanged}，为解析的 ${(f.unchangedMs / f.parseMs).toFixed(2)} 倍）`);
    console.log(`  再次导入 改名改价（全部更新，每行一条操作日志）：${sec(f.updateMs)}（更新 ${f.updated}，为解析的 ${(f.updateMs / f.parseMs).toFixed(2)} 倍）`);
    console.log(`  有错误的文件（第 ${files.badRow + 2} 行中包装数量填“十个”）：${sec(f.rejectMs)}，报告第 ${f.rejectRow} 行，未写入任何数据`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
