// Starts the real server as a separate OS process (as `npm start` would, minus the client build).
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export interface SpawnedServer {
  url: string;
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

/** `entry`: a compiled server (a release's server/main.js) instead of the sources through tsx. */
export async function spawnServer(env: Record<string, string>, opts: { entry?: string } = {}): Promise<SpawnedServer> {
  const port = await freePort();
  const root = path.resolve(import.meta.dirname, '../..');
  const child = spawn(process.execPath, opts.entry ? [opts.entry] : ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: root,
    // request lines off unless a test asks for them (LOG_LEVEL in env): quiet and fast
    env: { LOG_LEVEL: 'warn', ...process.env, HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${out}`);
    try {
      const r = await fetch(`${url}/api/openapi.json`);
      if (r.ok) break;
    } catch { /* not up yet */ }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start within 60 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    child,
    output: () => out,
    stop: () => new Promise<void>((resolve) => {
      // a process killed by a signal has no exit code, only a signal code: it is gone all the same
      // (waiting for an 'exit' that already fired hung the kill -9 tests whenever the machine was busy)
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    }),
  };
}

export async function post(url: string, body: unknown, token?: string): Promise<{ code: string; msg: string; data: any }> {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { token } : {}) }, body: JSON.stringify(body) });
  return r.json() as Promise<{ code: string; msg: string; data: any }>;
}

/** What a server started in the test needs to give other processes the same database. */
export function sameDatabaseEnv(owner: { config: { dataDir: string; databaseUrl?: string | null } }): Record<string, string> {
  return { DATA_DIR: owner.config.dataDir, DATABASE_URL: owner.config.databaseUrl ?? '', CLIENT_DIR: '/nonexistent' };
}

/** Two more server processes on the test server's database. */
export function spawnTwo(owner: { config: { dataDir: string; databaseUrl?: string | null } }): Promise<[SpawnedServer, SpawnedServer]> {
  const env = sameDatabaseEnv(owner);
  return Promise.all([spawnServer(env), spawnServer(env)]);
}

/** The demo admin's token on a spawned server. */
export async function loginAt(url: string, userName = 'admin'): Promise<string> {
  const r = await post(`${url}/auth/public/990103`, { type: 0, companyCode: 'demo', userName, password: 'demo123' });
  if (r.code !== '200') throw new Error(`login: ${r.code} ${r.msg}`);
  return r.data.accessToken;
}
