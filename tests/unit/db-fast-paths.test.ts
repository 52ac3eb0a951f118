// The list fast paths must answer exactly what the stock pieces answered: cached better-sqlite3
// statements with array rows (src/server/db/sqlite-statements.ts), the CamelCasePlugin result
// mapping (src/server/db/camel-case.ts), and keyword columns skipped by their pattern (query.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { CamelCasePlugin, Kysely, SqliteDialect, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { FastCamelCasePlugin } from '../../src/server/db/camel-case.ts';
import { cachedStatements } from '../../src/server/db/sqlite-statements.ts';
import { expose } from '../../src/server/resources/fields.ts';
import { whereConditions } from '../../src/server/resources/query.ts';
import { loadResources } from '../../src/server/resources/index.ts';
import type { Field, Resource } from '../../src/server/resources/types.ts';

function pair() {
  const a = new SQLite(':memory:');
  const b = new SQLite(':memory:');
  const cached = cachedStatements(a);
  const run = (q: string, p: unknown[] = []) => {
    const x = cached.prepare(q);
    const y = b.prepare(q);
    return [x.reader ? x.all(p) : x.run(p), y.reader ? y.all(...p) : y.run(...p)];
  };
  return { a, b, cached, run };
}

describe('cached better-sqlite3 statements', () => {
  it('answer like better-sqlite3: rows, runs, repeated names, no rows', () => {
    const { run } = pair();
    for (const [q, p] of [
      ['create table t (a integer, b_c text)', []],
      ['insert into t values (?, ?)', [1, 'x']],
      ['insert into t values (?, ?)', [2, null]],
      ['select * from t order by a', []],
      ['select * from t order by a', []],
      ['select 1 as a, 2 as a, 3 as b', []],
      ['select * from t where a = ?', [99]],
    ] as Array<[string, unknown[]]>) {
      const [got, want] = run(q, p);
      expect(got).toEqual(want);
    }
  });

  // The schema version is read once per turn of the event loop, and again after DDL prepared here.
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

  it('follow schema changes made through them at once', () => {
    const { run } = pair();
    run('create table t (a integer, b text)');
    run('insert into t values (1, ?)', ['x']);
    expect(run('select * from t')[0]).toEqual([{ a: 1, b: 'x' }]);
    run('alter table t rename column b to c');
    expect(run('select * from t')[0]).toEqual([{ a: 1, c: 'x' }]);
    run('alter table t add column d default 9');
    const [got, want] = run('select * from t');
    expect(got).toEqual([{ a: 1, c: 'x', d: 9 }]);
    expect(got).toEqual(want);
  });

  it('follow schema changes made elsewhere from the next turn on, here and in another connection', async () => {
    const { a, b, run } = pair();
    run('create table t (a integer, b text)');
    run('insert into t values (1, ?)', ['x']);
    expect(run('select * from t')[0]).toEqual([{ a: 1, b: 'x' }]);
    a.exec('alter table t rename column b to c');
    b.exec('alter table t rename column b to c');
    await nextTurn();
    expect(run('select * from t')[0]).toEqual([{ a: 1, c: 'x' }]);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tbo-stmt-'));
    try {
      const one = new SQLite(path.join(dir, 'x.sqlite'));
      const two = new SQLite(path.join(dir, 'x.sqlite'));
      const cached = cachedStatements(one);
      two.exec('create table u (a, b); insert into u values (1, 2)');
      expect(cached.prepare('select * from u').all([])).toEqual([{ a: 1, b: 2 }]);
      two.exec('alter table u rename column b to c');
      await nextTurn();
      expect(cached.prepare('select * from u').all([])).toEqual([{ a: 1, c: 2 }]);
      two.exec('alter table u add column d default 9');
      await nextTurn();
      expect(cached.prepare('select * from u').all([])).toEqual([{ a: 1, c: 2, d: 9 }]);
      one.close();
      two.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('give a statement being iterated its own copy', () => {
    const { cached, run } = pair();
    run('create table t (a integer)');
    run('insert into t values (1), (2)');
    const first = cached.prepare('select a from t order by a').iterate([]);
    expect(first.next().value).toEqual({ a: 1 });
    expect(cached.prepare('select a from t order by a').all([])).toEqual([{ a: 1 }, { a: 2 }]);
    expect([...cached.prepare('select a from t order by a').iterate([])]).toEqual([{ a: 1 }, { a: 2 }]);
    expect([...first]).toEqual([{ a: 2 }]);
  });
});

describe('camelCase rows named by the SQLite statements themselves', () => {
  it('come out as the stock plugin gives them, colliding names included', async () => {
    const camel = new FastCamelCasePlugin({ plainValues: true });
    const fast = new Kysely<any>({ dialect: new SqliteDialect({ database: cachedStatements(new SQLite(':memory:'), undefined, camel.columnName) }), plugins: [camel] });
    const stock = new Kysely<any>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }), plugins: [new CamelCasePlugin()] });
    for (const db of [fast, stock]) {
      await db.schema.createTable('someThing').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('fooBar', 'text').addColumn('aB', 'integer').execute();
      await db.insertInto('someThing').values([{ fooBar: 'a', aB: 1 }, { fooBar: null, aB: 2 }]).execute();
    }
    const queries = [
      (db: Kysely<any>) => db.selectFrom('someThing').selectAll().orderBy('id').execute(),
      (db: Kysely<any>) => db.selectFrom('someThing').select(['id', sql`'x'`.as('some_text'), sql`x'00ff'`.as('blob_val')]).execute(),
      // a_b and aB both become aB: the stock path, the later one wins
      (db: Kysely<any>) => db.selectFrom('someThing').select([sql`7`.as('a_b'), 'aB']).execute(),
      (db: Kysely<any>) => db.insertInto('someThing').values({ fooBar: 'c', aB: 3 }).returning(['id', 'fooBar']).execute(),
    ];
    for (const q of queries) {
      const [got, want] = [await q(fast), await q(stock)];
      expect(got).toEqual(want);
      expect(got.map((r) => Object.keys(r))).toEqual(want.map((r) => Object.keys(r)));
    }
  });

  it('rows already named but holding nested objects (other drivers) are still mapped', async () => {
    const result = { rows: [{ fooBar: { in_side: 1 }, listVal: [{ a_b: 1 }] }] };
    expect(await new FastCamelCasePlugin().transformResult({ result, queryId: { queryId: 'x' } })).toEqual(
      await new CamelCasePlugin().transformResult({ result, queryId: { queryId: 'x' } }));
  });
});

describe('camelCase rows', () => {
  it('map results exactly like the stock plugin, through transactions and streams', async () => {
    const fast = new Kysely<any>({ dialect: new SqliteDialect({ database: cachedStatements(new SQLite(':memory:')) }), plugins: [new FastCamelCasePlugin()] });
    const stock = new Kysely<any>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }), plugins: [new CamelCasePlugin()] });
    for (const db of [fast, stock]) {
      await db.schema.createTable('someThing').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('fooBar', 'text').execute();
      await db.transaction().execute(async (trx) => { await trx.insertInto('someThing').values({ fooBar: 'a' }).execute(); });
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('someThing').values({ fooBar: 'b' }).execute();
        throw new Error('rolled back');
      }).catch(() => undefined);
    }
    const q = (db: Kysely<any>) => db.selectFrom('someThing').select(['id', 'fooBar', sql`'{"a_b":1}'`.as('json_text'), sql`2`.as('some_num')]).execute();
    expect(await q(fast)).toEqual([{ id: 1, fooBar: 'a', jsonText: '{"a_b":1}', someNum: 2 }]);
    expect(await q(fast)).toEqual(await q(stock));
    const streamed: unknown[] = [];
    for await (const row of fast.selectFrom('someThing').select(['id', 'fooBar']).stream()) streamed.push(row);
    expect(streamed).toEqual([{ id: 1, fooBar: 'a' }]);
    // nested plain objects are mapped as the stock plugin maps them
    const plugin = new FastCamelCasePlugin();
    const result = { rows: [{ some_obj: { in_side: [{ deep_key: 1 }, 2] }, list_val: [{ a_b: 1 }, 'x'] }] };
    expect(await plugin.transformResult({ result, queryId: { queryId: 'x' } })).toEqual(
      await new CamelCasePlugin().transformResult({ result, queryId: { queryId: 'x' } }));
  });
});

describe('exposed money', () => {
  it('is the exact decimal text decimal.js gave', () => {
    const money = { type: 'money' } as Field;
    const dec4 = { type: 'decimal', scale: 4 } as Field;
    expect([0, -0, 5, -5, 1250, -1250, 100, 9007199254740991].map((v) => expose(money, v)))
      .toEqual(['0.00', '0.00', '0.05', '-0.05', '12.50', '-12.50', '1.00', '90071992547409.91']);
    expect(expose(dec4, 12345)).toBe('1.2345');
    expect(expose(dec4, '12345')).toBe('1.2345');
    expect(expose({ type: 'decimal', scale: 0 } as Field, -7)).toBe('-7');
  });
});

describe('keyword columns', () => {
  const reg = loadResources();
  const searched = (resource: string, keyword: string) => {
    const [c] = whereConditions(reg.get(resource)!, { keyword }, { dialect: 'sqlite', tzHours: 8 });
    return c.shape;
  };

  it('skip columns whose pattern or length cannot hold the keyword', () => {
    // code ^[A-Za-z0-9_.\-]+$ and barcode ^[A-Za-z0-9\-]+$ cannot contain Chinese
    expect(searched('product', '螺丝')).toBe('keyword name,nameEn');
    expect(searched('product', 'p00')).toBe('keyword code,barcode,name,nameEn');
    expect(searched('product', 'a_b')).toBe('keyword code,name,nameEn');
    expect(searched('product', 'x'.repeat(31))).toBe('keyword name,nameEn');
  });

  it('count either case of a letter, as LIKE/ILIKE ignore case', () => {
    const field = (name: string, pattern?: string) => ({ name, column: name, type: 'string', title: name, searchable: true, pattern }) as Field;
    const fields = [field('slot', '^[A-Z0-9][A-Z0-9-]*$'), field('digits', '^[0-9]{13}$'), field('note', '^(a|b)+$')];
    const r = { name: 'x', table: 'x', idType: 'integer', fields, fieldMap: new Map(fields.map((f) => [f.name, f])) } as unknown as Resource;
    const shape = (keyword: string) => whereConditions(r, { keyword }, { dialect: 'sqlite', tzHours: 8 })[0].shape;
    expect(shape('a-1')).toBe('keyword slot,note'); // note: not a pattern of character classes only, kept
    expect(shape('12')).toBe('keyword slot,digits,note');
    expect(shape('螺丝')).toBe('keyword note');
  });
});
