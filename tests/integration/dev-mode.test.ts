// `npm run dev`: Vite's dev server (the client with hot reload, screens imported as they are on disk)
// in front of the API server, to which it proxies the API calls — one address to open.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/spawn-server.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
let child: ChildProcess;
let base = '';
let dataDir = '';
let log = '';

async function until(check: () => Promise<boolean>, what: string, ms = 90_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    if (child.exitCode !== null) throw new Error(`npm run dev exited: ${log}`);
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${what} not ready: ${log}`);
}

beforeAll(async () => {
  const [port, apiPort] = [await freePort(), await freePort()];
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tbo-dev-'));
  child = spawn(process.execPath, ['--import', 'tsx', 'scripts/dev.ts'], {
    cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORT: String(port), API_PORT: String(apiPort), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '' },
  });
  child.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  base = `http://127.0.0.1:${port}`;
  await until(async () => (await fetch(`${base}/auth/public/990103`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).headers.get('content-type')?.includes('json') ?? false, 'api through vite');
}, 120_000);

afterAll(async () => {
  // the dev script and the API server it started (its own process group)
  if (child?.pid && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    try { process.kill(-child.pid, 'SIGTERM'); } catch { /* gone */ }
    await exited; // the dev script is gone before its data folder is removed
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('npm run dev', () => {
  it('serves the client with hot reload and proxies the API: a clerk logs in through the one address', async () => {
    const page = await (await fetch(`${base}/login`)).text();
    expect(page).toContain('/@vite/client'); // Vite's hot-reload client, not the built bundle
    const res = await fetch(`${base}/auth/public/990103`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 0, companyCode: 'demo', userName: 'clerk', password: 'demo123' }) });
    const env = (await res.json()) as { code: string; data: { accessToken?: string } };
    expect(env.code).toBe('200');
    expect(env.data.accessToken).toBeTruthy();
    // screen files are served from disk as modules (a new or edited screen needs no rebuild)
    const screen = await fetch(`${base}/schemas/screens/baseConfig/currency.json?import`);
    expect(screen.status).toBe(200);
    expect(await screen.text()).toContain('币种');
  }, 60_000);
});
