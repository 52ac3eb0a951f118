// The real server as a child process: a free port, a fresh DATA_DIR (fresh SQLite, migrated and seeded
// with the demo companies), the e2e client build, and optional token lifetimes.

import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, ensureClientBuilt } from './client';
import { freePort } from '../../support/spawn-server';

export interface TestServer {
  baseUrl: string;
  dataDir: string;
  output: () => string;
  stop: () => Promise<void>;
}

export interface ServerOptions {
  accessTokenTtl?: number;
  refreshTokenTtl?: number;
  /** More environment for the server process (e.g. TEST_HOOK_CLOCK_FILE, to move its clock). */
  env?: Record<string, string>;
}

async function waitUntilReady(baseUrl: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output()}`);
    try {
      const res = await fetch(`${baseUrl}/login`);
      if (res.ok && (await res.text()).includes('id="root"')) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`server not ready after 90 s:\n${output()}`);
}

export async function startServer(options: ServerOptions = {}): Promise<TestServer> {
  const clientDir = await ensureClientBuilt();
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tbo-e2e-'));
  const env: NodeJS.ProcessEnv = {
    LOG_LEVEL: 'warn',
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    CLIENT_DIR: clientDir,
    DATABASE_URL: '',
  };
  if (options.accessTokenTtl !== undefined) env.ACCESS_TOKEN_TTL = String(options.accessTokenTtl);
  if (options.refreshTokenTtl !== undefined) env.REFRESH_TOKEN_TTL = String(options.refreshTokenTtl);
  Object.assign(env, options.env ?? {});

  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitUntilReady(baseUrl, child, () => log);
  } catch (error) {
    child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    baseUrl,
    dataDir,
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
