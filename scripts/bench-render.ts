// `npm run bench:render`: how fast a list drawn by our renderer appears, next to a hand-written
// ProTable with the same 8 columns and the same rows, in the same run, in headless Chromium.
//
//   1. builds the benchmark page (scripts/bench-render/, its own Vite entry; data generated in the page)
//   2. serves it from a small static server on a free port
//   3. for 1,000 and 10,000 rows, opens the page in a fresh browser context per run and reads
//      `window.__bench.drawn` (ms from navigation to rows painted), then scrolls the table to the
//      bottom and times until the last row is painted
//   4. prints medians, the ratio ours / ProTable, and whether the goals hold (≤ 1.2× the hand-written
//      table; 10,000 rows drawn in under 1 s)
//
// Baselines: "ProTable+virtual" is the hand-written table as a careful developer writes it for big
// pages (antd virtual rows, like ours); "ProTable plain" is the common way (all rows in the DOM).
// Options: --runs N (default 5), --rows 1000,10000, --no-plain (skip the slow plain baseline).

import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { build } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const outDir = path.join(root, 'dist/bench-render');

const argv = process.argv.slice(2);
const arg = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const RUNS = Number(arg('runs') ?? 5);
const SIZES = (arg('rows') ?? '1000,10000').split(',').map(Number);
const PLAIN = !argv.includes('--no-plain');

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.json': 'application/json' };

function serve(dir: string): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    let file = path.join(dir, decodeURIComponent(url.pathname));
    if (!file.startsWith(dir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) file = path.join(dir, 'index.html');
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Scroll the table (its virtual holder, its body, or the page) to the bottom; ms until the last row is painted. */
const SCROLL_TO_BOTTOM = `(async () => {
  const candidates = [document.querySelector('.ant-table-tbody-virtual-holder'), document.querySelector('.ant-table-body')];
  const box = candidates.find((el) => el && el.scrollHeight > el.clientHeight + 1) || document.scrollingElement;
  const t0 = performance.now();
  box.scrollTop = box.scrollHeight;
  await new Promise((resolve) => {
    const check = () => {
      if (document.querySelector('.ant-table-row[data-row-key="LAST"]')) requestAnimationFrame(() => requestAnimationFrame(resolve));
      else requestAnimationFrame(check);
    };
    check();
  });
  return performance.now() - t0;
})()`;

interface Sample {
  drawn: number;
  scroll: number;
  domRows: number;
  csp: number;
}

async function measure(browser: Browser, url: string, rows: number): Promise<Sample> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction(() => window.__bench?.drawn !== undefined, null, { timeout: 180_000, polling: 50 });
    const drawn = await page.evaluate(() => window.__bench.drawn!);
    const domRows = await page.evaluate(() => document.querySelectorAll('.ant-table-tbody .ant-table-row').length);
    // A string, not a function: tsx would wrap named inner functions in a helper the page lacks.
    const scroll = (await page.evaluate(SCROLL_TO_BOTTOM.replace('LAST', String(rows)))) as number;
    const csp = await page.evaluate(() => window.__bench.cspViolations);
    if (errors.length) throw new Error(`页面错误：${errors.join('; ')}`);
    return { drawn, scroll, domRows, csp };
  } finally {
    await context.close();
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const ms = (x: number) => `${x.toFixed(0)} ms`;

declare global {
  interface Window {
    __bench: { drawn?: number; cspViolations: number; rows: number; mode: string };
  }
}

async function main() {
  console.log('构建基准页面 (scripts/bench-render) …');
  await build({ configFile: path.join(here, 'bench-render/vite.config.ts'), logLevel: 'warn' });
  const server = await serve(outDir);
  const port = (server.address() as AddressInfo).port;
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const variants = [
    { key: 'ours', label: '本渲染器 (schema → ListView)', query: 'mode=renderer' },
    { key: 'proVirtual', label: '手写 ProTable + virtual', query: 'mode=protable&virtual=1' },
    ...(PLAIN ? [{ key: 'proPlain', label: '手写 ProTable（无 virtual）', query: 'mode=protable' }] : []),
  ];
  const results: Record<number, Record<string, { drawn: number; scroll: number; domRows: number; csp: number }>> = {};
  try {
    // One warm-up so the first measured run does not pay for Chromium's own start-up.
    await measure(browser, `http://127.0.0.1:${port}/?mode=renderer&rows=100`, 100);
    for (const rows of SIZES) {
      results[rows] = {};
      const samples: Record<string, Sample[]> = Object.fromEntries(variants.map((v) => [v.key, []]));
      // Interleave the variants so drift in the machine's load hits all of them alike.
      for (let run = 0; run < RUNS; run++) {
        for (const v of variants) {
          if (v.key === 'proPlain' && rows > 1000 && run >= Math.min(RUNS, 2)) continue; // slow; 2 runs suffice
          samples[v.key]!.push(await measure(browser, `http://127.0.0.1:${port}/?${v.query}&rows=${rows}`, rows));
        }
      }
      for (const v of variants) {
        const s = samples[v.key]!;
        results[rows]![v.key] = {
          drawn: median(s.map((x) => x.drawn)),
          scroll: median(s.map((x) => x.scroll)),
          domRows: s[0]!.domRows,
          csp: Math.max(...s.map((x) => x.csp)),
        };
      }
    }
  } finally {
    await browser.close();
    server.close();
  }

  console.log(`\nbench:render — 8 列（文本×2、枚举、布尔、数字、金额、日期、日期时间），每项取 ${RUNS} 次中位数（无 virtual 的 10,000 行取 2 次）`);
  console.log('时间 = 从导航开始到行绘制完成；滚动 = 滚到底部直到最后一行绘制完成\n');
  const rowsOut: string[][] = [['行数', '方案', '绘制', '滚到底', 'DOM 行数', 'CSP 违规']];
  for (const rows of SIZES) {
    for (const v of variants) {
      const r = results[rows]![v.key]!;
      rowsOut.push([rows.toLocaleString('en-US'), v.label, ms(r.drawn), ms(r.scroll), String(r.domRows), String(r.csp)]);
    }
  }
  const widths = rowsOut[0]!.map((_, i) => Math.max(...rowsOut.map((r) => [...r[i]!].reduce((w, ch) => w + (ch.charCodeAt(0) > 0x2e80 ? 2 : 1), 0))));
  const pad = (s: string, w: number) => s + ' '.repeat(Math.max(0, w - [...s].reduce((x, ch) => x + (ch.charCodeAt(0) > 0x2e80 ? 2 : 1), 0)));
  for (const r of rowsOut) console.log(r.map((c, i) => pad(c, widths[i]!)).join('  '));

  console.log('');
  let ok = true;
  for (const rows of SIZES) {
    const ours = results[rows]!.ours!;
    const base = results[rows]!.proVirtual!;
    const ratio = ours.drawn / base.drawn;
    const within = ratio <= 1.2;
    ok &&= within;
    let line = `${rows.toLocaleString('en-US')} 行：本渲染器 / 手写 ProTable+virtual = ${ratio.toFixed(2)}×（目标 ≤ 1.20×：${within ? '达到' : '未达到'}）`;
    const plain = results[rows]!.proPlain;
    if (plain) line += `；对无 virtual 的 ProTable = ${(ours.drawn / plain.drawn).toFixed(2)}×`;
    console.log(line);
    if (rows === 10000) {
      const fast = ours.drawn < 1000;
      ok &&= fast;
      console.log(`10,000 行绘制 ${ms(ours.drawn)}（目标 < 1 s：${fast ? '达到' : '未达到'}）`);
    }
    if (ours.csp) {
      ok = false;
      console.log(`本渲染器页面出现 ${ours.csp} 次 CSP 违规（script-src 'self'）`);
    }
  }
  process.exitCode = ok ? 0 : 1;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
