// Issue 33 item 3: one schema path. A database made by `npm run seed` (not by a server start) has the
// whole schema — the managed document tables too — so `npm run verify` runs on it; and its tables are
// exactly those a server start makes.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/server/db/connection.ts';
import { freshPgDatabase, startTestServer } from './helpers.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** A new empty database: a DATA_DIR (SQLite) or, on the PostgreSQL pass, a fresh database. */
async function emptyDatabase(): Promise<Record<string, string>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tbo-schema-'));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  if (!process.env.DATABASE_URL) return { DATA_DIR: dataDir, DATABASE_URL: '' };
  const pg = await freshPgDatabase(process.env.DATABASE_URL);
  cleanups.push(pg.drop);
  return { DATA_DIR: dataDir, DATABASE_URL: pg.url };
}

function run(script: string, args: string[], env: Record<string, string>) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', script, ...args], { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

async function tables(env: Record<string, string>): Promise<string[]> {
  const database: Database = openDatabase({ databaseUrl: env.DATABASE_URL || undefined, dataDir: env.DATA_DIR! });
  try {
    const rows = database.dialect === 'sqlite'
      ? (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(database.db)).rows
      : (await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(database.db)).rows;
    return rows.map((r) => r.name).sort();
  } finally {
    await database.close();
  }
}

describe('one schema path', () => {
  it('npm run seed makes the whole schema: npm run verify runs on it, and its tables are a server start’s', async () => {
    const seeded = await emptyDatabase();
    const seed = run('scripts/seed.ts', ['--products', '200', '--moves', '2000'], seeded);
    expect(seed.status, seed.out).toBe(0);
    const verify = run('scripts/verify.ts', [], seeded);
    expect(verify.out).not.toMatch(/no such table|does not exist/);
    expect(verify.status, verify.out).toBe(0);
    expect(verify.out).toContain('没有差异');

    const started = await emptyDatabase();
    const server = await startTestServer({}, { dataDir: started.DATA_DIR, databaseUrl: started.DATABASE_URL || undefined });
    await server.close();
    const fromSeed = await tables(seeded);
    expect(fromSeed).toContain('pay_document');
    expect(fromSeed).toEqual(await tables(started));
  });
});
