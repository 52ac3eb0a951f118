// Running it for real, through the production entry point (the compiled server of a release, as
// `npm run serve` starts it): settings refused at start-up, two processes on one database (one of them a
// WORKERS=2 cluster), the request log and what it must never contain, the health probes, a backup taken
// and a SIGTERM sent in the middle of a stream of postings, the restore of that backup, and the request
// id that is also the error id of a 500.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, copySchemas } from '../../scripts/lib/build-release.ts';
import type { Catalog } from '../../src/core/catalog.ts';
import { bindCatalog } from '../../src/server/catalog/bind.ts';
import { loadConfig } from '../../src/server/config.ts';
import { openDatabase } from '../../src/server/db/connection.ts';
import { buildApp } from '../../src/server/http/app.ts';
import { authOps } from '../../src/server/ops/auth-ops.ts';
import { freshPgDatabase, ok, startTestServer, type TestServer } from './helpers.ts';
import { post, spawnServer, type SpawnedServer } from '../support/spawn-server.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
let release: string;
let entry: string;
let owner: TestServer;
let env: Record<string, string>;
let wh: number;

beforeAll(async () => {
  // a release of the server alone (the client is not needed here): bundle + schemas, node_modules beside
  release = fs.mkdtempSync(path.join(os.tmpdir(), 'tbo-release-'));
  entry = await buildServer(path.join(release, 'server'));
  copySchemas(release);
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(release, 'node_modules'), 'dir');
  owner = await startTestServer();
  env = { DATA_DIR: owner.config.dataDir, DATABASE_URL: owner.config.databaseUrl ?? '', CLIENT_DIR: '/nonexistent' };
  const token = await owner.login();
  wh = (await ok(owner.call('cdm', '011001', { page: 1, pageSize: 5 }, token))).list[0].id;
});

afterAll(async () => {
  await owner?.close();
  if (release) fs.rmSync(release, { recursive: true, force: true });
});

interface Exit { code: number | null; stdout: string; stderr: string }

function runNode(args: string[], extraEnv: Record<string, string>): Promise<Exit> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, LOG_LEVEL: '', ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

const script = (name: string, args: string[], extraEnv: Record<string, string>) => runNode(['--import', 'tsx', `scripts/${name}.ts`, ...args], extraEnv);

/** A GET on a new connection each time (a cluster hands out connections, not requests). */
function getFresh(url: string, token: string): Promise<string> {
  return new Promise((resolve, reject) => {
    http.get(url, { agent: false, headers: { token } }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve(body));
    }).on('error', reject);
  });
}

/** Resolves once the process has written `text` (log lines are written after the answer has gone). */
function outputShows(server: SpawnedServer, text: string, times = 1): Promise<void> {
  return new Promise<void>((resolve) => {
    const check = () => {
      if (server.output().split(text).length - 1 < times) return;
      server.child.stdout!.off('data', check);
      resolve();
    };
    server.child.stdout!.on('data', check);
    check();
  });
}

async function login(url: string, user = 'admin', password = 'demo123'): Promise<{ accessToken: string; refreshToken: string }> {
  const r = await post(`${url}/auth/public/990103`, { type: 0, companyCode: 'demo', userName: user, password });
  if (r.code !== '200') throw new Error(`login: ${r.code} ${r.msg}`);
  return r.data;
}

describe('start-up settings', () => {
  it('a wrong setting stops the process with one line naming it, exit code 1, nothing written', async () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tbo-cfg-')), 'data');
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ LOG_LEVEL: 'loud' }, /^配置错误：环境变量 LOG_LEVEL 只能是 .*当前为 “loud”$/],
      [{ DATABASE_URL: 'mysql://db/x' }, /^配置错误：环境变量 DATABASE_URL 必须以 postgres:\/\/ 开头/],
      [{ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' }, /^配置错误：DATABASE_URL 无法连接：.*ECONNREFUSED/],
      [{ DATA_DIR: '/dev/null/data' }, /^配置错误：DATA_DIR（\/dev\/null\/data）不可用：不是文件夹$/],
      [{ WORKERS: 'many' }, /^配置错误：环境变量 WORKERS 必须是/],
    ];
    const results = await Promise.all(cases.map(([e]) => runNode([entry], { PORT: '0', DATA_DIR: dir, DATABASE_URL: '', ...e })));
    results.forEach((r, i) => {
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
      expect(r.stderr.trim()).toMatch(cases[i][1]);
    });
    // the bad database address was found before a SQLite file (or anything) was made
    expect(fs.existsSync(path.join(dir, 'app.sqlite'))).toBe(false);
  });
});

describe('two processes on one database, through the production entry point', () => {
  let a: SpawnedServer;
  let b: SpawnedServer;
  beforeAll(async () => {
    [a, b] = await Promise.all([spawnServer({ ...env, WORKERS: '2', LOG_LEVEL: 'info' }, { entry }), spawnServer(env, { entry })]);
    // the primary says it has started once both workers listen
    await outputShows(a, '贸易后台已启动');
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it('a write on one is read on the other; the cluster spreads connections over its two workers', async () => {
    const [ta, tb] = await Promise.all([login(a.url), login(b.url)]);
    const code = `OPS${crypto.randomBytes(3).toString('hex').toUpperCase()}`;
    expect((await post(`${b.url}/cdm/api/010203`, { code, name: `运维${code}`, unitSmall: '个', price: '2.5' }, tb.accessToken)).code).toBe('200');
    const found = await post(`${a.url}/cdm/api/010201`, { page: 1, pageSize: 5, keyword: code }, ta.accessToken);
    expect(found.data.list.map((p: { code: string }) => p.code)).toEqual([code]);
    for (let i = 0; i < 12; i++) await getFresh(`${a.url}/api/codes`, ta.accessToken);
    await outputShows(a, '"path":"/api/codes"', 12);
    const pids = new Set(a.output().split('\n').filter((l) => l.includes('"path":"/api/codes"')).map((l) => JSON.parse(l).pid));
    expect(pids.size).toBe(2);
  });

  it('a second start on a port in use stops with one line', async () => {
    const r = await runNode([entry], { ...env, HOST: '127.0.0.1', PORT: new URL(b.url).port });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(`配置错误：PORT ${new URL(b.url).port} 已被占用（HOST 127.0.0.1）`);
  });

  it('health probes answer without a token and say nothing else', async () => {
    for (const p of ['/healthz', '/readyz']) {
      const r = await fetch(`${a.url}${p}`);
      expect(r.status).toBe(200);
      expect(await r.text()).toBe('{"status":"ok"}');
    }
  });

  it('logs one line per request with who and what, and never a password, token or uploaded content', async () => {
    const pair = await login(a.url, 'clerk');
    const refreshed = await post(`${a.url}/auth/public/990103`, { type: 1, refreshToken: pair.refreshToken });
    expect(refreshed.code).toBe('200');
    const marker = `FILECONTENT${crypto.randomBytes(6).toString('hex')}`;
    const boundary = 'opsBoundary';
    const upload = await fetch(`${a.url}/storage/api/980107`, {
      method: 'POST',
      headers: { token: refreshed.data.accessToken, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n${marker}\r\n--${boundary}--\r\n`,
    });
    expect(upload.status).toBe(200);
    const newPassword = `Ops-${crypto.randomBytes(4).toString('hex')}-Pw9`;
    const changed = await post(`${a.url}/auth/api/990107`, { oldPassword: 'demo123', newPassword }, refreshed.data.accessToken);
    expect(changed.code).toBe('200');

    await outputShows(a, '"endpoint":"990107"');
    const out = a.output();
    for (const secret of ['demo123', newPassword, pair.accessToken, pair.refreshToken, refreshed.data.accessToken, refreshed.data.refreshToken, marker]) {
      expect(out.includes(secret), `log contains ${secret.slice(0, 12)}…`).toBe(false);
    }
    const lines = out.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
    const change = lines.find((l) => l.endpoint === '990107');
    expect(change).toMatchObject({ method: 'POST', path: '/auth/api/990107', status: 200, envelope: '200', msg: 'request' });
    expect(change.companyId).toBeGreaterThan(0);
    expect(change.accountId).toBeGreaterThan(0);
    expect(change.reqId).toMatch(/^[0-9A-F]{12}$/);
    expect(typeof change.ms).toBe('number');
  });
});

describe('postings under way: a backup, then SIGTERM', () => {
  it('every request completes or is refused, the stop exits 0, and the live and restored data verify clean', async () => {
    const server = await spawnServer({ ...env, SHUTDOWN_TIMEOUT: '5' }, { entry });
    const { accessToken } = await login(server.url);
    const newProduct = async () => (await post(`${server.url}/cdm/api/010203`, { code: `OPST${crypto.randomBytes(3).toString('hex')}`, name: '运维过账', unitSmall: '个', price: '1' }, accessToken)).data.id;
    const products = [await newProduct(), await newProduct()];
    const remark = `ops-${crypto.randomBytes(4).toString('hex')}`;
    const outcomes: string[] = [];
    let okCount = 0;
    let stopped = false;
    const waiters: Array<[number, () => void]> = [];
    const postOnce = async (): Promise<void> => {
      try {
        const r = await post(`${server.url}/oms/api/022603`, { warehouseId: wh, remark, lines: [{ productId: products[0], qty: 2 }, { productId: products[1], qty: 3 }], post: true }, accessToken);
        outcomes.push(r.code);
        if (r.code === '200') okCount++;
        else if (r.code !== 'COMMON_STOPPING_4030') failStream(new Error(`${r.code} ${r.msg}`));
        for (const [n, resolve] of waiters) if (okCount >= n) resolve();
      } catch (e) {
        const cause = (e as { cause?: { code?: string } }).cause?.code;
        outcomes.push(cause === 'ECONNREFUSED' ? 'refused' : `cut:${cause}`);
        if (cause === 'ECONNREFUSED') stopped = true;
      }
    };
    // an unexpected answer fails the test at once instead of leaving it waiting for successes
    let failStream: (e: Error) => void = () => {};
    const failed = new Promise<never>((_, reject) => (failStream = (e) => { stopped = true; reject(e); }));
    failed.catch(() => {});
    const successes = (n: number) => Promise.race([failed, new Promise<void>((resolve) => (okCount >= n ? resolve() : waiters.push([n, resolve])))]);
    const streams = Array.from({ length: 4 }, async () => {
      while (!stopped) await postOnce();
    });

    await successes(8);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tbo-backup-test-'));
    const file = path.join(dir, 'backup.tar');
    const backup = await script('backup', [file], env);
    expect(backup.code, backup.stderr).toBe(0);
    const atBackup = okCount;
    await successes(atBackup + 8);
    const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));
    server.child.kill('SIGTERM');
    expect(await exited, server.output()).toBe(0);
    await Promise.all(streams);

    // answers: done, or refused with the stopping envelope or at the closed port; never another error
    expect(outcomes.filter((o) => !['200', 'COMMON_STOPPING_4030', 'refused'].includes(o) && !o.startsWith('cut:'))).toEqual([]);
    // every document of the stream is whole: posted with its two lines and their two moves, and each
    // acknowledged one is there (a connection cut at the stop leaves none or a whole one, never half)
    const whole = async (db: ReturnType<typeof openDatabase>['db']) => {
      const docs = await db.selectFrom('stockInit').select(['id', 'status', 'lineCount']).where('remark', '=', remark).execute();
      for (const d of docs) {
        expect(d.status).toBe('posted');
        expect(Number(d.lineCount)).toBe(2);
        const moves = await db.selectFrom('stockMove').select('id').where('docType', '=', 'stockInit').where('docId', '=', d.id).execute();
        expect(moves).toHaveLength(2);
      }
      return docs.length;
    };
    const live = await whole(owner.database.db);
    expect(live).toBeGreaterThanOrEqual(okCount);
    expect(live).toBeLessThanOrEqual(okCount + outcomes.filter((o) => o.startsWith('cut:')).length);
    const verifyLive = await script('verify', [], env);
    expect(verifyLive.code, verifyLive.stdout).toBe(0);

    // the backup restored into an empty data folder (and empty database): whole, and verifies clean
    const target: Record<string, string> = { DATA_DIR: path.join(dir, 'restored'), DATABASE_URL: '' };
    let drop: (() => Promise<void>) | undefined;
    if (owner.config.databaseUrl) {
      const fresh = await freshPgDatabase(process.env.DATABASE_URL!);
      target.DATABASE_URL = fresh.url;
      drop = fresh.drop;
    }
    try {
      const restore = await script('restore', [file], target);
      expect(restore.code, restore.stderr).toBe(0);
      const again = await script('restore', [file], target);
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/^恢复失败：.*(不是空的|已有 app\.sqlite)/);
      const verifyRestored = await script('verify', [], target);
      expect(verifyRestored.code, verifyRestored.stdout).toBe(0);
      expect(verifyRestored.stdout).toContain('没有差异');
      const restored = openDatabase({ dataDir: target.DATA_DIR, databaseUrl: target.DATABASE_URL || undefined });
      try {
        const n = await whole(restored.db);
        expect(n).toBeGreaterThanOrEqual(8);
        expect(n).toBeLessThanOrEqual(live);
      } finally {
        await restored.close();
      }
    } finally {
      await drop?.();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a stop drains (issue 33 item 6)', () => {
  /** One keep-alive connection, as a balancer or a browser holds one. */
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  afterAll(() => agent.destroy());
  function request(url: string, method: 'GET' | 'POST', body?: unknown, token?: string): Promise<{ status: number; body: string; socketReused: boolean }> {
    return new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = http.request(url, { method, agent, headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...(token ? { token } : {}) } }, (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, body: text, socketReused: (req as unknown as { reusedSocket: boolean }).reusedSocket }));
      });
      req.on('error', reject);
      req.end(payload);
    });
  }

  it('readiness fails first, then every new request — on an open connection too — gets 503 COMMON_STOPPING_4030 and writes nothing; the process exits 0', async () => {
    const server = await spawnServer({ ...env, SHUTDOWN_DRAIN_MS: '1500' });
    const { accessToken } = await login(server.url);
    expect((await request(`${server.url}/readyz`, 'GET')).status).toBe(200);
    const remark = `drain-${crypto.randomBytes(4).toString('hex')}`;
    const write = () => request(`${server.url}/cdm/api/010203`, 'POST', { code: `DR${crypto.randomBytes(3).toString('hex')}`, name: remark, unitSmall: '个' }, accessToken);
    expect((await write()).status).toBe(200);
    const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));
    server.child.kill('SIGTERM');
    // the signal is handled within milliseconds: from the first 503 of readiness on, nothing is accepted
    let ready = 200;
    for (let i = 0; i < 200 && ready === 200; i++) ready = (await request(`${server.url}/readyz`, 'GET')).status;
    expect(ready).toBe(503);
    const refused = await write();
    expect(refused.status).toBe(503);
    expect(JSON.parse(refused.body).code).toBe('COMMON_STOPPING_4030');
    // a new connection during the drain is answered the same way, not reset or refused
    const fresh = await post(`${server.url}/cdm/api/010203`, { code: 'DRX1', name: remark, unitSmall: '个' }, accessToken);
    expect(fresh.code).toBe('COMMON_STOPPING_4030');
    expect(await exited, server.output()).toBe(0);
    const written = await owner.database.db.selectFrom('product').select('id').where('name', '=', remark).execute();
    expect(written).toHaveLength(1);
  });
});

describe('request id', () => {
  it('the id in a 500 answer is the request id of its log line and the id in the admin error log', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tbo-reqid-'));
    const catalog: Catalog = { families: { storage: [], oms: [], auth: [
      { code: '990103', name: '登录/刷新令牌', method: 'POST', body: 'json', response: 'json', permission: 'public', handler: 'op:auth.token' },
    ], cdm: [
      { code: '011111', name: '故障接口', method: 'POST', body: 'json', response: 'json', permission: '1', handler: 'op:test.broken' },
    ] } };
    const ops = { 'auth.token': authOps(() => [])['auth.token'], 'test.broken': { run: async () => { throw new Error('boom'); } } };
    let log = '';
    const logStream = new Writable({ write(chunk, _enc, done) { log += chunk; done(); } });
    const app = await buildApp({ config: { ...loadConfig({ DATA_DIR: dir }), logLevel: 'info' }, database: owner.database, catalog, bound: bindCatalog(catalog, ops, () => undefined), logStream });
    try {
      const login = JSON.parse((await app.inject({ method: 'POST', url: '/auth/public/990103', payload: { type: 0, companyCode: 'demo', userName: 'admin', password: 'demo123' } })).body);
      const body = JSON.parse((await app.inject({ method: 'POST', url: '/cdm/api/011111', headers: { token: login.data.accessToken }, payload: {} })).body);
      const id = /错误编号 ([0-9A-F]{12})/.exec(body.msg)![1];
      const lines = log.split('\n').filter(Boolean).map((l) => JSON.parse(l));
      expect(lines.find((l) => l.msg === 'request' && l.endpoint === '011111')).toMatchObject({ reqId: id, envelope: '500' });
      expect(lines.find((l) => l.msg === 'unexpected error')).toMatchObject({ reqId: id, errorId: id });
      expect((await owner.database.db.selectFrom('errorLog').select('message').where('id', '=', id).executeTakeFirstOrThrow()).message).toBe('boom');
    } finally {
      await app.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
