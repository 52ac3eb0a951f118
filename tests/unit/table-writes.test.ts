// The tables a statement writes, read off its SQL text (db/table-writes.ts): every write the posting
// path, Kysely and the migrations issue must name its table, or a cached list page would outlive it.
import { describe, expect, it } from 'vitest';
import { sqlTableName, TableWrites, writtenTables } from '../../src/server/db/table-writes.ts';

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
    expect(writtenTables('insert into stock_summary (a) values (?) on conflict (a) do update set a = excluded.a')).toEqual(['stock_summary', 'set']);
  });

  it('names none for reads', () => {
    expect(writtenTables('select "id", "updated_at" from "product" where "company_id" = ?')).toEqual([]);
    expect(writtenTables('pragma data_version')).toEqual([]);
    expect(writtenTables('select count(*) from (select 1 from product_keyword where gram = ?) x')).toEqual([]);
  });
});

describe('TableWrites tokens', () => {
  it('change when one of the tables is written, by this process or (external) another', () => {
    let external = 1;
    const w = new TableWrites(() => external);
    const tables = ['product', 'category'].map(sqlTableName);
    const t0 = w.token(tables);
    expect(w.token(tables)).toBe(t0);
    w.noteSql('update "stock_move" set qty = 1');
    expect(w.token(tables)).toBe(t0);
    w.noteSql('update "category" set name = ?');
    const t1 = w.token(tables);
    expect(t1).not.toBe(t0);
    external = 2;
    expect(w.token(tables)).not.toBe(t1);
  });

  it('never repeat while other processes cannot be heard', () => {
    const w = new TableWrites();
    w.trusted = false;
    const a = w.token(['product']);
    expect(w.token(['product'])).not.toBe(a);
    expect(TableWrites.repeatable(a)).toBe(false);
  });

  it('resource table names in SQL form', () => {
    expect(sqlTableName('productKeyword')).toBe('product_keyword');
    expect(sqlTableName('product')).toBe('product');
  });
});
