// The server reaches into three libraries below their documented surface (issue 19 item 16):
// - kysely: the SQLite driver's beginTransaction is replaced (BEGIN IMMEDIATE, connection.ts); the
//   SQLite driver is handed a database facade of our own (sqlite-statements.ts) and must use only the
//   members it has; CamelCasePlugin's protected camelCase/mapRow/opt are used (camel-case.ts); the
//   executor's adapter tells the dialect (raw-sql.ts);
// - pg: every pooled client's query method is wrapped (postgres-writes.ts), which relies on Kysely
//   calling client.query(text, values) with begin/commit/rollback as plain texts;
// - better-sqlite3: statements are read as arrays (raw, columns, reader, iterate, pluck).
// Their versions are pinned exactly in package.json; these tests fail when an upgrade changes one of
// those shapes, before the server misbehaves.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { FastCamelCasePlugin } from '../../src/server/db/camel-case.ts';
import { openDatabase, type Database } from '../../src/server/db/connection.ts';
import { isSqlite } from '../../src/server/db/raw-sql.ts';
import { cachedStatements } from '../../src/server/db/sqlite-statements.ts';

const require = createRequire(import.meta.url);
const root = path.resolve(import.meta.dirname, '../..');
const PATCHED = ['kysely', 'pg', 'better-sqlite3'];

const opened: Database[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const d of opened) await d.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'tbo-internals-'));
  dirs.push(d);
  return d;
}

describe('pinned versions', () => {
  it('package.json names an exact version of every library whose internals the server patches, the one installed', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    for (const name of PATCHED) {
      const wanted = pkg.dependencies[name] as string;
      expect(wanted, name).toMatch(/^\d+\.\d+\.\d+$/);
      const installed = JSON.parse(fs.readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')).version;
      expect(installed, name).toBe(wanted);
    }
  });
});

describe('kysely', () => {
  it('runs our beginTransaction: a transaction holds the write lock before its first write (BEGIN IMMEDIATE)', async () => {
    const dir = tempDir();
    const database = openDatabase({ dataDir: dir });
    opened.push(database);
    await sql`create table t (x integer)`.execute(database.db);
    const other = new SQLite(path.join(dir, 'app.sqlite'));
    other.pragma('busy_timeout = 0');
    try {
      await database.db.transaction().execute(async (trx) => {
        await sql`select count(*) from t`.execute(trx); // a read only
        expect(() => other.exec('begin immediate')).toThrow(/locked|busy/i);
      });
      other.exec('begin immediate');
      other.exec('rollback');
    } finally {
      other.close();
    }
  });

  it('its SQLite driver uses only the database and statement members our facade has', async () => {
    const used = { db: new Set<string>(), stmt: new Set<string>() };
    const inner = cachedStatements(new SQLite(':memory:'));
    const spy = <T extends object>(target: T, into: Set<string>): T => new Proxy(target, {
      get(o, key, receiver) {
        if (typeof key === 'string') into.add(key);
        const v = Reflect.get(o, key, receiver);
        if (typeof v !== 'function') return v;
        return (...args: unknown[]) => {
          const out = (v as (...a: unknown[]) => unknown).apply(o, args);
          return key === 'prepare' && out && typeof out === 'object' ? spy(out as object, used.stmt) : out;
        };
      },
    });
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: spy(inner, used.db) }) });
    await sql`create table t (x integer)`.execute(db);
    await db.insertInto('t').values({ x: 1 }).execute();
    await db.transaction().execute(async (trx) => { await trx.selectFrom('t').selectAll().execute(); });
    for await (const row of db.selectFrom('t').selectAll().stream()) void row;
    await db.destroy();
    expect([...used.db].sort()).toEqual(['close', 'prepare']);
    expect([...used.stmt].every((k) => ['reader', 'all', 'run', 'iterate'].includes(k)), [...used.stmt].join()).toBe(true);
  });

  it("CamelCasePlugin's protected members the fast plugin builds on are there and behave", () => {
    const plugin = new FastCamelCasePlugin() as unknown as { camelCase(s: string): string; mapRow(r: object): object; opt: object; columnName(s: string): string };
    expect(typeof plugin.camelCase).toBe('function');
    expect(plugin.columnName('created_at')).toBe('createdAt');
    expect(plugin.mapRow({ company_id: 1 })).toEqual({ companyId: 1 });
    expect(typeof plugin.opt).toBe('object');
  });

  it('the executor tells SQLite from PostgreSQL by its adapter', () => {
    const sqlite = new Kysely<any>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
    const postgres = new Kysely<any>({ dialect: new PostgresDialect({ pool: {} as never }) });
    expect(isSqlite(sqlite)).toBe(true);
    expect(isSqlite(postgres)).toBe(false);
  });

  it('hands pg each statement as client.query(text, values), transactions as plain begin/commit/rollback', async () => {
    const calls: unknown[][] = [];
    const client = {
      query: async (...args: unknown[]) => {
        calls.push(args);
        return { command: 'SELECT', rowCount: 0, rows: [] };
      },
      release() {},
    };
    const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: { connect: async () => client, end: async () => undefined } as never }) });
    await db.selectFrom('t').selectAll().where('x', '=', 1).execute();
    await db.transaction().execute(async (trx) => { await trx.insertInto('t').values({ x: 2 }).execute(); });
    await db.transaction().execute(async () => { throw new Error('stop'); }).catch(() => undefined);
    await db.destroy();
    for (const args of calls) {
      expect(args).toHaveLength(2);
      expect(typeof args[0]).toBe('string');
      expect(Array.isArray(args[1])).toBe(true);
    }
    expect(calls.map((c) => String(c[0]).split(' ')[0])).toEqual(['select', 'begin', 'insert', 'commit', 'begin', 'rollback']);
  });
});

describe('pg', () => {
  it('clients have a query method an instance property can replace, and pools announce new clients', () => {
    const pg = require('pg');
    expect(typeof pg.Client.prototype.query).toBe('function');
    const c = new pg.Client();
    c.query = () => 'wrapped';
    expect(c.query()).toBe('wrapped');
    const pool = new pg.Pool();
    expect(typeof pool.on).toBe('function');
    expect(pool.listenerCount('connect')).toBe(0);
    void pool.end();
  });
});

describe('better-sqlite3', () => {
  it('statements read rows as arrays with their column names, and pluck one value', () => {
    const db = new SQLite(':memory:');
    const s = db.prepare('select 1 as a, 2 as b');
    expect(s.reader).toBe(true);
    expect(s.columns().map((c) => c.name)).toEqual(['a', 'b']);
    s.raw(true);
    expect(s.all()).toEqual([[1, 2]]);
    expect([...s.iterate()]).toEqual([[1, 2]]);
    expect(db.prepare('pragma data_version').pluck().get()).toEqual(expect.any(Number));
    expect(db.prepare('create table t (x)').reader).toBe(false);
    expect(db.prepare('select 1').source).toBe('select 1');
    db.close();
  });
});
