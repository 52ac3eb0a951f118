// Start-up (migrations + demo seed) is safe for any number of server processes starting together on
// one empty database — how the product is deployed once it outgrows one machine (issue 19.13).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { freshPgDatabase, isPostgres } from './helpers.ts';
import { post, spawnServer, type SpawnedServer } from '../support/spawn-server.ts';

const started: SpawnedServer[] = [];
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  await Promise.all(started.map((s) => s.stop()));
  for (const c of cleanups) await c();
});

async function emptyDatabase(): Promise<{ env: Record<string, string>; count(sql: string): Promise<number> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tbo-startup-'));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  if (isPostgres()) {
    const fresh = await freshPgDatabase(process.env.DATABASE_URL!);
    cleanups.unshift(fresh.drop);
    return {
      env: { DATA_DIR: dataDir, DATABASE_URL: fresh.url, CLIENT_DIR: '/nonexistent' },
      async count(sql) {
        const c = new pg.Client({ connectionString: fresh.url });
        await c.connect();
        try { return Number((await c.query(sql)).rows[0].n); } finally { await c.end(); }
      },
    };
  }
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: '', CLIENT_DIR: '/nonexistent' },
    async count(sql) {
      const db = new SQLite(path.join(dataDir, 'app.sqlite'), { readonly: true });
      try { return Number((db.prepare(sql).get() as { n: number }).n); } finally { db.close(); }
    },
  };
}

it('three processes started at once on an empty database all come up and answer; the demo data is seeded once', async () => {
  const { env, count } = await emptyDatabase();
  const results = await Promise.allSettled([spawnServer(env), spawnServer(env), spawnServer(env)]);
  for (const r of results) if (r.status === 'fulfilled') started.push(r.value);
  const failures = results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason).slice(0, 2000));
  expect(failures).toEqual([]);
  for (const s of started) {
    const login = await post(`${s.url}/auth/public/990103`, { type: 0, companyCode: 'demo', userName: 'admin', password: 'demo123' });
    expect(login.code).toBe('200');
    expect((await post(`${s.url}/auth/api/990104`, {}, login.data.accessToken)).data.companyCode).toBe('demo');
  }
  expect(await count(`select count(*) as n from company where code = 'demo'`)).toBe(1);
  expect(await count(`select count(*) as n from company`)).toBe(2);
  // demo: admin, clerk (采购员), sales (销售员), store (仓管员), finance (会计); demo2: admin
  expect(await count(`select count(*) as n from account`)).toBe(6);
}, 120_000);
