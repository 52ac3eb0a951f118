// Adding a screen is a schema-only task: a new list screen (over the existing staff resource, at a new
// route /system/staffDirectory) is written into a temporary copy of the project — the same sources, a
// copied schemas/ with one more file, node_modules linked — and the app built and served from that
// copy shows it in the menu, draws it, filters it on the server and exports what is filtered. The
// copy's src/ is checked to be byte-identical to the repository's: no code changed.
//
// Why a copy rather than pointing Vite at another screens folder: the client bundles the screen files
// (import.meta.glob over /schemas/screens) and the server reads them too (the rights catalog, so the
// administrator holds the new screen's right). A copy runs both exactly as shipped, and the normal
// build stays untouched.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN, hasChromium, login, screenshot, waitForScreen } from './support/browser';
import { setupE2e } from './support/setup';
import { ROOT } from './support/client';
import { SOURCES } from '../../scripts/lib/build-release';

/** The new screen: nothing but data. */
export const STAFF_DIRECTORY = {
  $schema: '../../meta/screen.schema.json',
  route: '/system/staffDirectory',
  title: '员工通讯录',
  permission: 'system.staffDirectory',
  menu: { group: 'system', order: 990 },
  hidden: false,
  children: false,
  kind: 'list',
  name: 'system.staffDirectory',
  description: '员工的联系方式（只读），由 e2e 测试 new-screen 写入项目副本',
  api: { list: 'cdm:013201', export: 'cdm:013205' },
  keyword: { placeholder: '编号 / 姓名 / 电话' },
  defaultSort: { field: 'code', order: 'ascend' },
  columns: [
    { field: 'code', title: '编号', width: 120, sortable: true },
    { field: 'name', title: '姓名', width: 140, sortable: true, search: true },
    { field: 'departmentName', title: '部门', width: 160 },
    { field: 'phone', title: '电话', width: 160 },
    { field: 'email', title: '邮箱', width: 200 },
    { field: 'enabled', title: '状态', type: 'boolean', trueText: '在职', falseText: '离职', width: 90, search: true },
  ],
  toolbar: [{ action: 'export', title: '导出', permission: 'baseConfig.staffList.export' }],
};

// ---------------------------------------------------------------------------------- the project copy

// what a release is built from (build plugins under scripts/ included) and the TypeScript settings
const COPIED = [...new Set([...SOURCES, 'tsconfig.json'])];

function hashTree(dir: string): string {
  const h = crypto.createHash('sha256');
  const walk = (d: string) => {
    for (const name of fs.readdirSync(d).sort()) {
      const p = path.join(d, name);
      if (fs.statSync(p).isDirectory()) walk(p);
      else h.update(path.relative(dir, p)).update('\0').update(fs.readFileSync(p));
    }
  };
  walk(dir);
  return h.digest('hex');
}

/** The copy, and the hash of the repository's src/ when it was copied (others may edit it meanwhile). */
function copyProject(): { dir: string; srcHash: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tbo-new-screen-'));
  const srcHash = hashTree(path.join(ROOT, 'src'));
  for (const name of COPIED) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.cpSync(path.join(ROOT, name), path.join(dir, name), { recursive: true });
  }
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return { dir, srcHash };
}

function buildClient(project: string): string {
  const out = path.join(project, 'dist/client');
  execFileSync(process.execPath, [path.join(project, 'node_modules/vite/bin/vite.js'), 'build', '--mode', 'e2e', '--outDir', out, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: project,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  return out;
}

// ---------------------------------------------------------------------------------- a server run from the copy

interface CopyServer {
  baseUrl: string;
  output(): string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function startCopyServer(project: string, clientDir: string): Promise<CopyServer> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tbo-new-screen-data-'));
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, CLIENT_DIR: clientDir, DATABASE_URL: '' };
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(project, 'src/server/main.ts')], { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${log}`);
    try {
      const res = await fetch(`${baseUrl}/login`);
      if (res.ok && (await res.text()).includes('id="root"')) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server not ready after 90 s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return {
    baseUrl,
    output: () => log,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function rowTexts(page: Page): Promise<string[]> {
  return (await page.locator('.renderer-list .ant-table-tbody tr.ant-table-row').allInnerTexts()).map((s) => s.replace(/\s+/g, ' ').trim());
}

// ---------------------------------------------------------------------------------- the test

describe.skipIf(!hasChromium)('a new screen from a schema alone (e2e)', () => {
  let project: string;
  let srcHash: string;
  const e2e = setupE2e({
    start: () => {
      ({ dir: project, srcHash } = copyProject());
      fs.writeFileSync(path.join(project, 'schemas/screens/system/staffDirectory.json'), JSON.stringify(STAFF_DIRECTORY, null, 2) + '\n');
      return startCopyServer(project, buildClient(project));
    },
    after: () => {
      if (project) fs.rmSync(project, { recursive: true, force: true });
    },
    timeout: 300_000,
  });

  it('the copy differs from the repository by the one schema file, which passes the schema check', async () => {
    expect(hashTree(path.join(project, 'src'))).toBe(srcHash);
    const added = fs.readdirSync(path.join(project, 'schemas/screens/system')).filter((f) => !fs.existsSync(path.join(ROOT, 'schemas/screens/system', f)));
    expect(added).toEqual(['staffDirectory.json']);
    const { checkSchemas, formatProblem } = await import('../../src/server/catalog/schema-check');
    expect(checkSchemas(path.join(project, 'schemas')).map(formatProblem)).toEqual([]);
  });

  it('is in the menu, draws its columns, filters on the server and exports what is filtered', async () => {
    const { context, page } = await e2e.newPage();
    page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
    await login(page, ADMIN);
    const menu = page.locator('.ant-pro-sider-menu');
    await menu.getByText('系统工具', { exact: true }).click();
    // The submenu slides open; a click while its items still move can land on the wrong one.
    const item = menu.getByText('员工通讯录', { exact: true });
    await item.waitFor({ state: 'visible' });
    await page.waitForTimeout(400);
    await item.click();
    await page.waitForURL((u) => u.pathname === '/system/staffDirectory');
    await waitForScreen(page, '员工通讯录');
    expect(new URL(page.url()).pathname).toBe('/system/staffDirectory');
    await page.locator('.renderer-list .ant-table-tbody tr.ant-table-row').first().waitFor();
    const heads = (await page.locator('.renderer-list .ant-table-thead th').allInnerTexts()).map((s) => s.trim()).filter(Boolean);
    expect(heads).toEqual(['编号', '姓名', '部门', '电话', '邮箱', '状态']);
    expect(await rowTexts(page)).toEqual([expect.stringMatching(/^E001 系统管理员 总经办/), expect.stringMatching(/^E002 采购员小王 采购部/), expect.stringMatching(/^E003 销售员小李 销售部/),
      expect.stringMatching(/^E004 仓管员小张 仓储部/), expect.stringMatching(/^E005 会计小张 /)]);
    expect(await page.locator('.schema-problem').count()).toBe(0);
    await screenshot(page, 'new-screen-list');

    // filter: sent to the server, which answers the one match
    const listCall = page.waitForRequest((r) => r.url().endsWith('/cdm/api/013201') && r.postData()?.includes('小王') === true);
    await page.locator('.renderer-filter-bar .ant-form-item', { hasText: '姓名' }).locator('input').fill('小王');
    await page.getByRole('button', { name: '查询', exact: true }).click();
    const sent = (await listCall).postDataJSON() as { filters: Record<string, unknown> };
    expect(sent.filters).toEqual({ name: '小王' });
    await expect.poll(() => rowTexts(page)).toEqual([expect.stringMatching(/^E002 采购员小王 采购部/)]);
    await screenshot(page, 'new-screen-filtered');

    // export: the filtered rows, as a file
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /导出$/ }).click()]);
    const file = path.join(project, 'export.xlsx');
    await download.saveAs(file);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(file);
    const sheet = book.worksheets[0]!;
    const lines: string[] = [];
    sheet.eachRow((r) => lines.push((r.values as unknown[]).slice(1).map((v) => (v && typeof v === 'object' && 'richText' in v ? (v as { richText: { text: string }[] }).richText.map((t) => t.text).join('') : String(v ?? ''))).join('|')));
    expect(lines).toHaveLength(2); // header + the one filtered row
    expect(lines[1]).toContain('采购员小王');
    await context.close();
  });
});
