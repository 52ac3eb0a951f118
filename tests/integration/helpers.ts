// Starts a real server on a fresh database for a test file: a temp SQLite DATA_DIR, or — when
// DATABASE_URL is set — a fresh PostgreSQL database created on that server and dropped afterwards.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { vi } from 'vitest';
import type { Family } from '../../src/core/catalog.ts';
import { loadConfig, type ServerConfig } from '../../src/server/config.ts';
import { createServer, type CreateServerOptions, type Server } from '../../src/server/server.ts';

export interface TestServer extends Server {
  config: ServerConfig;
  /** Logs in and returns the access token (throws with the server message on failure). */
  login(company?: string, user?: string, password?: string): Promise<string>;
  loginPair(company?: string, user?: string, password?: string): Promise<{ accessToken: string; refreshToken: string }>;
  /** Calls an endpoint the way the client does and returns the parsed envelope. */
  call(family: Family, code: string, body?: unknown, token?: string | null, opts?: CallOptions): Promise<{ code: string; msg: string; data: any }>;
  /** Like call, but returns the raw response (for file downloads). */
  raw(family: Family, code: string, body?: unknown, token?: string | null, opts?: CallOptions): Promise<RawResponse>;
}

export interface CallOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  query?: Record<string, string>;
  /** Public calls go to /<family>/public (login, label peeks, shared files). */
  public?: boolean;
  ip?: string;
  payload?: string | Buffer;
}

export interface RawResponse {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
  rawPayload: Buffer;
}

export const isPostgres = () => !!process.env.DATABASE_URL;

/**
 * Moves this test process's clock forward by `ms` at once (Date only; timers stay real and the clock
 * keeps running from there): what a server in this process measures in time — its caller cache, token
 * lifetimes, login delays — sees the time pass without the test sleeping. Servers in other processes
 * (spawnServer) keep their own clocks.
 */
export function advanceClock(ms: number): void {
  const now = Date.now();
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  vi.setSystemTime(now + ms);
}

/** The data of a call that must succeed; otherwise throws with its code, message and data. */
export async function ok(call: Promise<{ code: string; msg: string; data: any }>): Promise<any> {
  const r = await call;
  if (r.code !== '200') throw new Error(`${r.code} ${r.msg} ${JSON.stringify(r.data)}`);
  return r.data;
}

export async function freshPgDatabase(adminUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `t_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      // The server's pool has ended, but its backends may still be exiting: forcing them off mid-exit
      // surfaces as a stray 57P01 error in the test process. Wait (briefly) for them to go first.
      for (let i = 0; i < 50; i++) {
        const r = await c.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
        if (r.rows[0].n === 0) break;
        await new Promise((res) => setTimeout(res, 20));
      }
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export async function startTestServer(env: Record<string, string> = {}, existing?: { dataDir?: string; databaseUrl?: string }, options: CreateServerOptions = {}): Promise<TestServer> {
  const dataDir = existing?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'tbo-test-'));
  let databaseUrl = existing?.databaseUrl;
  let drop: (() => Promise<void>) | undefined;
  if (!databaseUrl && process.env.DATABASE_URL) {
    const fresh = await freshPgDatabase(process.env.DATABASE_URL);
    databaseUrl = fresh.url;
    drop = fresh.drop;
  }
  // no 自动日结 timer unless a test asks for it (AUTO_CLOSE_MINUTES): tests close days themselves, on their own clock
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? '', CLIENT_DIR: path.join(dataDir, 'no-client'), AUTO_CLOSE_MINUTES: '0', ...env });
  const server = await createServer(config, options);
  const inject = async (family: Family, code: string, body: unknown, token: string | null | undefined, opts: CallOptions = {}) => {
    const prefix = `/${family}/${opts.public ? 'public' : 'api'}`;
    const qs = opts.query ? '?' + new URLSearchParams(opts.query).toString() : '';
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (token) headers.token = token;
    let payload: string | Buffer | undefined = opts.payload;
    if (payload === undefined && body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await server.app.inject({ method: opts.method ?? 'POST', url: `${prefix}/${code}${qs}`, headers, payload, remoteAddress: opts.ip ?? '127.0.0.1' });
    return { statusCode: res.statusCode, headers: res.headers as Record<string, unknown>, body: res.body, rawPayload: res.rawPayload };
  };
  const t: TestServer = {
    ...server,
    config,
    async loginPair(company = 'demo', user = 'admin', password = 'demo123') {
      const r = await t.call('auth', '990103', { type: 0, companyCode: company, userName: user, password }, null, { public: true });
      if (r.code !== '200') throw new Error(`login ${company}/${user} failed: ${r.code} ${r.msg}`);
      return r.data;
    },
    async login(company, user, password) {
      return (await t.loginPair(company, user, password)).accessToken;
    },
    async call(family, code, body, token, opts) {
      const res = await inject(family, code, body, token, opts);
      try {
        return JSON.parse(res.body);
      } catch {
        throw new Error(`not JSON (${res.statusCode} ${res.headers['content-type']}): ${res.body.slice(0, 200)}`);
      }
    },
    raw: inject,
    async close() {
      await server.close();
      if (drop) await drop();
      if (!existing?.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return t;
}
