// The tables a statement writes, read off its SQL text (db/table-writes.ts): every write the posting
// path, Kysely and the migrations issue must name its table, or a cached list page would outlive it.
import { describe, expect, it } from 'vitest';
import { EVERY_TABLE, sqlTableName, TableWrites, writtenTables } from '../../src/server/db/table-writes.ts';

describe('writtenTables', () => {
  it('names the table of inserts, updates and deletes, quoted or not, behind a WITH too', () => {
    expect(writtenTables('insert into "product" ("company_id", "code") values (?, ?) returning "id"')).toEqual(['product']);
    expect(writtenTables('update "product_keyword" set "gram" = $1 where "company_id" = $2')).toEqual(['product_keyword']);
    expect(writtenTables('delete from stock_move where id = ?')).toEqual(['stock_move']);
    expect(writtenTables('INSERT OR IGNORE INTO audit_log (a) VALUES (1)')).toEqual(['audit_log']);
    expect(writtenTables('truncate table "export_job"')).toEqual(['export_job']);
    expect(writtenTables(`
      with v(p, w, l, d, r) as (values (?, ?, ?, ?, ?))
      update stock_balance set on_hand = on_hand + v.d from v where stock_balance.company_id = ?`)).toEqual(['stock_balance']);
    expect(writtenTables('insert into stock_summary (a) values (?) on conflict (a) do update set a = excluded.a')).toEqual(['stock_summary']);
    expect(writtenTables('INSERT OR REPLACE INTO audit_log (a) VALUES (1)')).toEqual(['audit_log']);
  });

  it('counts a write whose tables cannot be read off its text as a write of every table', () => {
    for (const text of [
      'replace into product (id, name) values (?, ?)',
      'REPLACE INTO "product" (id) VALUES (1)',
      'merge into product p using src s on p.id = s.id when matched then update set name = s.name',
      'insert into public.product (id) values (1)',
      'update "public"."product" set name = ?',
      'delete from main.product where id = ?',
      'insert into "odd name" (id) values (1)',
      'copy product from stdin',
      'create table x (id integer)',
      'alter table product add column y text',
      'drop table product',
      'truncate public.product',
      'upsert into product values (1)',
    ]) expect(writtenTables(text), text).toEqual([EVERY_TABLE]);
  });

  it('is not fooled by write words in literals, comments, locking clauses or functions', () => {
    expect(writtenTables("select id from product where remark = 'delete from x; drop table y'")).toEqual([]);
    expect(writtenTables('select id from product where id = ? for update')).toEqual([]);
    expect(writtenTables('select id from product where id = ? for no key update')).toEqual([]);
    expect(writtenTables("select replace(name, '-', '') from location")).toEqual([]);
    expect(writtenTables('select is_deleted, updated_at, created_by from product')).toEqual([]);
    expect(writtenTables("update product set name = 'insert into other' where id = ? -- delete from audit_log")).toEqual(['product']);
  });

  it('names none for reads', () => {
    expect(writtenTables('select "id", "updated_at" from "product" where "company_id" = ?')).toEqual([]);
    expect(writtenTables('pragma data_version')).toEqual([]);
    expect(writtenTables('select count(*) from (select 1 from product_keyword where gram = ?) x')).toEqual([]);
  });
});

describe('TableWrites tokens', () => {
  it('change when one of the tables is written, by this process or (external) another', async () => {
    let external = 1;
    const w = new TableWrites(() => external);
    const tables = ['product', 'category'].map(sqlTableName);
    const t0 = await w.token(tables);
    expect(await w.token(tables)).toBe(t0);
    w.noteSql('update "stock_move" set qty = 1');
    expect(await w.token(tables)).toBe(t0);
    w.noteSql('update "category" set name = ?');
    const t1 = await w.token(tables);
    expect(t1).not.toBe(t0);
    external = 2;
    expect(await w.token(tables)).not.toBe(t1);
  });

  it('change for every table after a write whose tables could not be told', async () => {
    const w = new TableWrites();
    const t0 = await w.token(['warehouse']);
    w.noteSql('replace into product (id) values (1)');
    expect(await w.token(['warehouse'])).not.toBe(t0);
  });

  it('come from the counts the database keeps when there are such (PostgreSQL), and never repeat when those cannot be read', async () => {
    let counts = new Map([['product', 3], ['warehouse', 1]]);
    let down = false;
    const w = new TableWrites(() => 0, async () => {
      if (down) throw new Error('connection lost');
      return counts;
    });
    const t0 = await w.token(['warehouse']);
    counts = new Map([['product', 4], ['warehouse', 1]]);
    expect(await w.token(['warehouse'])).toBe(t0);
    counts = new Map([['product', 4], ['warehouse', 1], [EVERY_TABLE, 1]]);
    expect(await w.token(['warehouse'])).not.toBe(t0);
    down = true;
    const u = await w.token(['warehouse']);
    expect(TableWrites.repeatable(u)).toBe(false);
    expect(await w.token(['warehouse'])).not.toBe(u);
  });

  it('never repeat while other processes cannot be heard', async () => {
    const w = new TableWrites();
    w.trusted = false;
    const a = await w.token(['product']);
    expect(await w.token(['product'])).not.toBe(a);
    expect(TableWrites.repeatable(a)).toBe(false);
  });

  it('resource table names in SQL form', () => {
    expect(sqlTableName('productKeyword')).toBe('product_keyword');
    expect(sqlTableName('product')).toBe('product');
  });
});
