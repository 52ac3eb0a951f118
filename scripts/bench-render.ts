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
//
// Document typing (?mode=doc vs ?mode=docbase): a purchase order's line table with N lines (our
// LineTable with its units/money/input editors, against the same table hand-written with antd). Per
// run: ms until the lines are painted, then 20 keystrokes into line 1's small-unit box and 20 into its
// price box; each keystroke is timed in the page from its keydown to the animation frame in which the
// amount total shows the new value. Prints median and p95 per keystroke, ours / baseline, and whether
// the goals hold (median < 50 ms; ≤ 1.2× the hand-written table).
//
// Options: --runs N (default 5), --rows 1000,10000, --no-plain (skip the slow plain baseline),
// --doc-lines N (default 500), --only doc|list (default both).

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
const DOC_LINES = Number(arg('doc-lines') ?? 500);
const ONLY = arg('only');
if (ONLY !== undefined && ONLY !== 'doc' && ONLY !== 'list') throw new Error('--only 只能是 doc 或 list');
const KEYSTROKES = 20;

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
    __bench: { drawn?: number; renderStart?: number; cspViolations: number; rows: number; mode: string };
  }
}

/** The list part: draw and scroll times of ListView against ProTable. Returns whether the goals hold. */
async function listBench(browser: Browser, port: number): Promise<boolean> {
  const variants = [
    { key: 'ours', label: '本渲染器 (schema → ListView)', query: 'mode=renderer' },
    { key: 'proVirtual', label: '手写 ProTable + virtual', query: 'mode=protable&virtual=1' },
    ...(PLAIN ? [{ key: 'proPlain', label: '手写 ProTable（无 virtual）', query: 'mode=protable' }] : []),
  ];
  const results: Record<number, Record<string, { drawn: number; scroll: number; domRows: number; csp: number }>> = {};
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

  console.log(`\nbench:render — 8 列（文本×2、枚举、布尔、数字、金额、日期、日期时间），每项取 ${RUNS} 次中位数（无 virtual 的 10,000 行取 2 次）`);
  console.log('时间 = 从导航开始到行绘制完成；滚动 = 滚到底部直到最后一行绘制完成\n');
  const rowsOut: string[][] = [['行数', '方案', '绘制', '滚到底', 'DOM 行数', 'CSP 违规']];
  for (const rows of SIZES) {
    for (const v of variants) {
      const r = results[rows]![v.key]!;
      rowsOut.push([rows.toLocaleString('en-US'), v.label, ms(r.drawn), ms(r.scroll), String(r.domRows), String(r.csp)]);
    }
  }
  printTable(rowsOut);

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
  return ok;
}

function printTable(rowsOut: string[][]): void {
  const width = (s: string) => [...s].reduce((w, ch) => w + (ch.charCodeAt(0) > 0x2e80 ? 2 : 1), 0);
  const widths = rowsOut[0]!.map((_, i) => Math.max(...rowsOut.map((r) => width(r[i]!))));
  for (const r of rowsOut) console.log(r.map((c, i) => c + ' '.repeat(Math.max(0, widths[i]! - width(c)))).join('  '));
}

// ——— document typing ———

/**
 * Arms the timing of one keystroke into INPUT (line 1's box): focuses it, selects its text when the
 * next character should replace it (at MAXLEN characters, or a price with a decimal point), waits two
 * frames so the page is idle, and notes the text of the watched cell — the first of TARGETS present:
 * the amount total, else (a table drawn without its totals row) line 1's amount. The keydown (capture,
 * on window) starts the clock; polling animation frames, the first frame whose DOM shows another text
 * there stops it. Returns the box's text before the keystroke and which cell was watched.
 */
const ARM_KEYSTROKE = `(async () => {
  const input = document.querySelector(INPUT);
  if (!input) throw new Error('找不到输入框 ' + INPUT);
  if (document.activeElement !== input) input.focus();
  const replace = input.value.length >= MAXLEN || input.value.includes('.');
  if (replace) input.select(); else input.setSelectionRange(input.value.length, input.value.length);
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const [target, watched] = TARGETS.find(([sel]) => document.querySelector(sel)) || [];
  if (!target) throw new Error('找不到合计或第 1 行金额');
  const before = document.querySelector(target).textContent;
  const state = { t0: 0 };
  const onKey = () => { state.t0 = performance.now(); window.removeEventListener('keydown', onKey, true); };
  window.addEventListener('keydown', onKey, true);
  // Also when the DOM first shows it (React's commit, not rounded to frames): the script's own share.
  let dom = 0;
  const observer = new MutationObserver(() => {
    const el = document.querySelector(target);
    if (!dom && state.t0 && el && el.textContent !== before) dom = performance.now() - state.t0;
  });
  observer.observe(document.querySelector('.ant-table-wrapper'), { subtree: true, childList: true, characterData: true });
  window.__keystroke = new Promise((resolve, reject) => {
    const timeout = setTimeout(() => { observer.disconnect(); reject(new Error('合计未变化：' + before)); }, 10000);
    const check = () => {
      const el = document.querySelector(target);
      if (state.t0 && el && el.textContent !== before) {
        clearTimeout(timeout);
        observer.disconnect();
        const paint = performance.now() - state.t0;
        resolve({ paint, dom: dom || paint });
      } else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
  return { value: input.value, replace, watched };
})()`;

interface DocSample {
  /** ms from navigation to the lines painted */
  drawn: number;
  /** ms from React's first render (types loaded) to the lines painted */
  render: number;
  domRows: number;
  small: number[];
  price: number[];
  /** ms from keydown to the DOM showing the new value (both boxes) */
  dom: number[];
  /** The totals row was drawn and every keystroke was timed to it (else to line 1's amount). */
  totals: boolean;
}

const lineInput = (label: string) => `.ant-table-row[data-row-key="1"] input[aria-label="${label}"]`;
/** Watched cells, first present wins: the amount total; line 1's amount (5th cell: 行, 商品, 数量, 单价, 金额). */
const TARGETS = [
  ['.renderer-total[data-field="amount"]', 'total'],
  ['.ant-table-row[data-row-key="1"] > .ant-table-cell:nth-child(5)', 'line'],
];

/** KEYSTROKES characters typed one at a time into one box of line 1; ms per keystroke, and whether every one was read off the totals row. */
async function typeInto(page: import('playwright-core').Page, input: string, maxLen: number, targets: string[][]): Promise<{ times: number[]; dom: number[]; totals: boolean }> {
  const arm = ARM_KEYSTROKE.replaceAll('INPUT', JSON.stringify(input)).replaceAll('TARGETS', JSON.stringify(targets)).replaceAll('MAXLEN', String(maxLen));
  const out: number[] = [];
  const dom: number[] = [];
  let totals = true;
  let digit = 0;
  for (let k = 0; k < KEYSTROKES; k++) {
    const { value, replace, watched } = (await page.evaluate(arm)) as { value: string; replace: boolean; watched: string };
    totals &&= watched === 'total';
    // Digits 1–9 in turn, so each keystroke changes the quantity or price (and so the amount total).
    do digit = (digit % 9) + 1;
    while (replace && Number(value) === digit);
    await page.keyboard.press(String(digit));
    const t = (await page.evaluate('window.__keystroke')) as { paint: number; dom: number };
    out.push(t.paint);
    dom.push(t.dom);
  }
  return { times: out, dom, totals };
}

async function measureDoc(browser: Browser, url: string, targets = TARGETS): Promise<DocSample> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction(() => window.__bench?.drawn !== undefined, null, { timeout: 180_000, polling: 50 });
    const { drawn, renderStart } = await page.evaluate(() => window.__bench);
    const domRows = await page.evaluate(() => document.querySelectorAll('.ant-table-tbody .ant-table-row').length);
    const small = await typeInto(page, lineInput('数量（最小单位）'), 4, targets);
    const price = await typeInto(page, lineInput('单价'), 5, targets);
    if (errors.length) throw new Error(`页面错误：${errors.join('; ')}`);
    return { drawn: drawn!, render: drawn! - (renderStart ?? 0), domRows, small: small.times, price: price.times, dom: [...small.dom, ...price.dom], totals: small.totals && price.totals };
  } finally {
    await context.close();
  }
}

/** Nearest-rank percentile. */
const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
};
const ms1 = (x: number) => `${x.toFixed(1)} ms`;

/** The document part: first draw and keystroke → totals of LineTable against the hand-written table. */
async function docBench(browser: Browser, port: number): Promise<boolean> {
  const variants = [
    { key: 'ours', label: '本渲染器 LineTable' },
    { key: 'base', label: `手写 antd Table${DOC_LINES > 100 ? ' (virtual)' : ''}` },
  ];
  await measureDoc(browser, `http://127.0.0.1:${port}/?mode=doc&rows=50`); // warm-up
  const samples: Record<string, DocSample[]> = { ours: [], base: [] };
  for (let run = 0; run < RUNS; run++) {
    // Ours first: when it draws no totals row, the baseline is timed to line 1's amount too (like for like).
    const ours = await measureDoc(browser, `http://127.0.0.1:${port}/?mode=doc&rows=${DOC_LINES}`);
    samples.ours!.push(ours);
    samples.base!.push(await measureDoc(browser, `http://127.0.0.1:${port}/?mode=docbase&rows=${DOC_LINES}`, ours.totals ? TARGETS : TARGETS.slice(1)));
  }
  const summary = Object.fromEntries(
    variants.map((v) => {
      const s = samples[v.key]!;
      const small = s.flatMap((x) => x.small);
      const price = s.flatMap((x) => x.price);
      return [
        v.key,
        {
          drawn: median(s.map((x) => x.drawn)),
          render: median(s.map((x) => x.render)),
          domRows: s[0]!.domRows,
          totals: s.every((x) => x.totals),
          dom: median(s.flatMap((x) => x.dom)),
          small: { median: median(small), p95: percentile(small, 95) },
          price: { median: median(price), p95: percentile(price, 95) },
        },
      ];
    }),
  );

  console.log(`\nbench:render 单据录入 — ${DOC_LINES.toLocaleString('en-US')} 行明细（商品、数量 箱/盒/个 24/6、单价 4 位小数、金额 = 数量×单价、备注；合计 数量、金额），${RUNS} 次`);
  console.log(`首次绘制 = 从导航开始（或从 React 开始渲染）到明细行绘制完成；按键 = 在第 1 行输入框逐个键入 ${KEYSTROKES} 个字符，每次从 keydown 到合计金额显示新值的那一帧（各 ${RUNS}×${KEYSTROKES} 次的中位数 / p95）；`);
  console.log('DOM 更新 = 从 keydown 到 DOM 显示新值（React 提交，不按帧取整；两个输入框合计）\n');
  const out: string[][] = [['方案', '首次绘制', '渲染起', 'DOM 行数', '计时到', '最小单位 中位', 'p95', '单价 中位', 'p95', 'DOM 更新 中位']];
  for (const v of variants) {
    const r = summary[v.key]!;
    out.push([v.label, ms(r.drawn), ms(r.render), String(r.domRows), r.totals ? '合计' : '第 1 行金额', ms1(r.small.median), ms1(r.small.p95), ms1(r.price.median), ms1(r.price.p95), ms1(r.dom)]);
  }
  printTable(out);
  console.log('');
  const ours = summary.ours!;
  const base = summary.base!;
  let ok = true;
  if (!ours.totals) {
    ok = false;
    console.log(`本渲染器的明细表没有绘制合计行（${DOC_LINES} 行${DOC_LINES > 100 ? '，virtual' : ''}；目标未达到）：两方的按键都只计到第 1 行金额显示新值`);
  }
  for (const [name, key] of [['最小单位', 'small'], ['单价', 'price']] as const) {
    const ratio = ours[key].median / base[key].median;
    const fast = ours[key].median < 50;
    const within = ratio <= 1.2;
    ok &&= fast && within;
    console.log(
      `${name}按键 → ${ours.totals ? '合计' : '第 1 行金额'}更新：本渲染器 ${ms1(ours[key].median)}（目标 < 50 ms：${fast ? '达到' : '未达到'}），` +
        `对手写表 = ${ratio.toFixed(2)}×（p95 ${(ours[key].p95 / base[key].p95).toFixed(2)}×；目标 ≤ 1.20×：${within ? '达到' : '未达到'}）`,
    );
  }
  console.log(`DOM 更新：本渲染器 / 手写表 = ${(ours.dom / base.dom).toFixed(2)}×`);
  console.log(`首次绘制：本渲染器 / 手写表 = ${(ours.drawn / base.drawn).toFixed(2)}×（从导航起），${(ours.render / base.render).toFixed(2)}×（从渲染起）`);
  return ok;
}

async function main() {
  console.log('构建基准页面 (scripts/bench-render) …');
  await build({ configFile: path.join(here, 'bench-render/vite.config.ts'), logLevel: 'warn' });
  const server = await serve(outDir);
  const port = (server.address() as AddressInfo).port;
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  let ok = true;
  try {
    if (ONLY !== 'doc') ok = (await listBench(browser, port)) && ok;
    if (ONLY !== 'list') ok = (await docBench(browser, port)) && ok;
  } finally {
    await browser.close();
    server.close();
  }
  process.exitCode = ok ? 0 : 1;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
