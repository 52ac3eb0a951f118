// npm run bundle:report — builds the client, then loads pages in headless Chromium and prints the gzip
// size of the JavaScript and CSS the browser actually fetched (each response body gzipped here at level
// 9, so the figure does not depend on how a server compresses). A small static server with SPA fallback
// serves dist/client; API calls are answered by the page with a fixed session, so no database is needed.
//
//   /login                       goal ≤ 250 kB gz
//   shell + a first list screen  goal ≤ 800 kB gz
//
// Options: --no-build (measure the existing dist/client), CHROMIUM=/path/to/chromium.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from 'playwright-core';

const ROOT = path.resolve(import.meta.dirname, '..');
const DIST = path.join(ROOT, 'dist/client');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const LIMITS = { login: 250 * 1024, shell: 800 * 1024 };

interface ScreenHead {
  route: string;
  kind: string;
  permission: string;
}

function screenHeads(dir = path.join(ROOT, 'schemas/screens')): ScreenHead[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return screenHeads(p);
    return d.name.endsWith('.json') ? [JSON.parse(fs.readFileSync(p, 'utf8')) as ScreenHead] : [];
  });
}

/** The list screen the shell figure is measured with: BUNDLE_SCREEN, else the first `list` screen. */
function firstListScreen(): string {
  if (process.env.BUNDLE_SCREEN) return process.env.BUNDLE_SCREEN;
  const lists = screenHeads().filter((s) => s.kind === 'list' && !s.route.includes(':'));
  return lists.map((s) => s.route).sort()[0] ?? '/procurement/list';
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

function serveDist(): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    let file = path.join(DIST, decodeURIComponent(url.pathname));
    if (!file.startsWith(DIST) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      file = path.join(DIST, 'index.html');
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const SESSION = {
  functionRights: ['1', ...new Set(screenHeads().map((s) => s.permission))],
  companyName: '演示贸易有限公司',
  companyCode: 'demo',
  companyId: 1,
  employeeName: '测试员',
  defaultLanguage: 'zh-CN',
  timeZone: 8,
  userName: 'bundle',
  accountId: 1,
  warehouseCode: 'WH01',
  warehouseId: 1,
  purchasePriceId: null,
  salePriceId: null,
  currencyList: [],
  currencyId: 1,
  currencyCharacter: '¥',
  receMultiple: 1,
  addRooType: 0,
  limitMultiple: 1,
  ceilingMultiple: 1,
  containerType: [],
  personnel: [],
  flags: {},
};

async function answerApiCalls(page: Page): Promise<void> {
  await page.route(/\/(auth|cdm|oms|storage)\/(api|public)\//, (route) => {
    const url = route.request().url();
    const data = url.endsWith('/990104') ? SESSION : url.endsWith('/990103') ? { accessToken: 'a', refreshToken: 'r' } : { list: [], total: 0 };
    return route.fulfill({ contentType: 'application/json', body: JSON.stringify({ code: '200', msg: '', data }) });
  });
}

interface Measure {
  js: number;
  css: number;
  files: { url: string; gz: number }[];
}

async function measure(page: Page, url: string, ready: string): Promise<Measure> {
  const bodies: Promise<{ url: string; kind: 'js' | 'css'; gz: number } | null>[] = [];
  const onResponse = (res: import('playwright-core').Response) => {
    const u = new URL(res.url());
    const kind = u.pathname.endsWith('.js') ? 'js' : u.pathname.endsWith('.css') ? 'css' : null;
    if (!kind) return;
    bodies.push(res.body().then((b) => ({ url: u.pathname, kind, gz: gzipSync(b, { level: 9 }).length }), () => null));
  };
  page.on('response', onResponse);
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.waitForSelector(ready, { timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  page.off('response', onResponse);
  const files = (await Promise.all(bodies)).filter((f): f is NonNullable<typeof f> => !!f);
  return {
    js: files.filter((f) => f.kind === 'js').reduce((s, f) => s + f.gz, 0),
    css: files.filter((f) => f.kind === 'css').reduce((s, f) => s + f.gz, 0),
    files: files.map(({ url: u, gz }) => ({ url: u, gz })).sort((a, b) => b.gz - a.gz),
  };
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;

function print(name: string, m: Measure, limit: number): boolean {
  const total = m.js + m.css;
  const ok = total <= limit;
  console.log(`\n${name}: ${kb(total)} gz (JS ${kb(m.js)}, CSS ${kb(m.css)}, ${m.files.length} files) — goal ≤ ${kb(limit)} ${ok ? 'OK' : 'OVER'}`);
  for (const f of m.files.slice(0, 8)) console.log(`  ${kb(f.gz).padStart(10)}  ${f.url}`);
  return ok;
}

async function main(): Promise<void> {
  if (!process.argv.includes('--no-build')) {
    execFileSync(process.execPath, [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
      cwd: ROOT,
      stdio: 'inherit',
    });
  }
  const server = await serveDist();
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  try {
    const loginPage = await (await browser.newContext()).newPage();
    const login = await measure(loginPage, `${base}/login`, 'button[type=submit]');

    const context = await browser.newContext();
    await context.addInitScript((session) => {
      localStorage.setItem('tbo.accessToken', 'bundle-report');
      localStorage.setItem('tbo.refreshToken', 'bundle-report');
      localStorage.setItem('tbo.session', JSON.stringify(session));
    }, SESSION);
    const shellPage = await context.newPage();
    await answerApiCalls(shellPage);
    const screen = firstListScreen();
    const shell = await measure(shellPage, `${base}${screen}`, '.page-body');

    const okLogin = print('/login', login, LIMITS.login);
    const okShell = print(`shell + ${screen}`, shell, LIMITS.shell);
    if (!okLogin || !okShell) process.exitCode = 1;
  } finally {
    await browser.close();
    server.close();
  }
}

await main();
