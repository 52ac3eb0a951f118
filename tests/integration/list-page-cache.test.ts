// List pages of generic resources are kept as sent (resources/page-cache.ts) and served again only while
// nothing they were read from has been written: by this server (any statement, not only the resource's
// own handlers), by the tables they label references from, or by another server process on the same
// database (SQLite, or PostgreSQL when DATABASE_URL is set). What a user sees after any of those writes
// is the new data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { foldWriteLog } from '../../src/server/db/postgres-writes.ts';
import { isPostgres, ok, startTestServer, type TestServer } from './helpers.ts';
import { post, spawnTwo, type SpawnedServer } from '../support/spawn-server.ts';

const PRODUCT = { list: '010201', save: '010203' };
const CATEGORY = { save: '010403' };

let t: TestServer;
let token: string;
let companyId: number;

const LIST = { page: 1, pageSize: 20, keyword: '缓存测试', sort: { field: 'code', order: 'ascend' } };
const names = (data: any) => data.list.map((x: any) => x.name);

beforeAll(async () => {
  t = await startTestServer();
  token = await t.login('demo', 'admin', 'demo123');
  companyId = Number((await t.database.db.selectFrom('company').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id);
  for (let i = 1; i <= 3; i++) await ok(t.call('cdm', PRODUCT.save, { code: `PC00${i}`, name: `缓存测试商品${i}`, price: '1' }, token));
});

afterAll(async () => {
  await t?.close();
});

describe('list page cache', () => {
  it('sends a kept page in the same envelope and content type as any answer', async () => {
    const first = await t.raw('cdm', PRODUCT.list, LIST, token);
    const again = await t.raw('cdm', PRODUCT.list, LIST, token);
    for (const r of [first, again]) {
      expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(r.body.startsWith('{"code":"200","msg":"操作成功","data":{"list":[')).toBe(true);
      expect(JSON.parse(r.body)).toMatchObject({ code: '200', msg: '操作成功', data: { total: 3, page: 1, pageSize: 20 } });
    }
    expect(again.body).toBe(first.body);
  });

  it('shows a write that bypassed every handler (plain SQL on the server\'s connection)', async () => {
    expect(names(await ok(t.call('cdm', PRODUCT.list, LIST, token)))).toEqual(['缓存测试商品1', '缓存测试商品2', '缓存测试商品3']);
    await t.database.db.updateTable('product').set({ name: '缓存测试商品1改' }).where('companyId', '=', companyId).where('code', '=', 'PC001').execute();
    // (the keyword index still holds the old name's grams, which contain the keyword's)
    expect(names(await ok(t.call('cdm', PRODUCT.list, LIST, token)))).toEqual(['缓存测试商品1改', '缓存测试商品2', '缓存测试商品3']);
    await t.database.db.deleteFrom('productPrice').where('companyId', '=', companyId).execute();
    await t.database.db.deleteFrom('product').where('companyId', '=', companyId).where('code', '=', 'PC003').execute();
    const after = await ok(t.call('cdm', PRODUCT.list, LIST, token));
    expect(names(after)).toEqual(['缓存测试商品1改', '缓存测试商品2']);
    expect(after.total).toBe(2);
  });

  it('shows a renamed category in the product rows that reference it', async () => {
    const cat = await ok(t.call('cdm', CATEGORY.save, { code: 'PCC1', name: '缓存类别甲' }, token));
    const p = (await ok(t.call('cdm', PRODUCT.list, LIST, token))).list[0];
    await ok(t.call('cdm', PRODUCT.save, { id: p.id, version: p.version, categoryId: cat.id }, token));
    expect((await ok(t.call('cdm', PRODUCT.list, LIST, token))).list[0].categoryName).toBe('缓存类别甲');
    await ok(t.call('cdm', CATEGORY.save, { id: cat.id, version: cat.version, name: '缓存类别乙' }, token));
    expect((await ok(t.call('cdm', PRODUCT.list, LIST, token))).list[0].categoryName).toBe('缓存类别乙');
  });

  it('keeps pages of one company from another', async () => {
    const other = await t.login('demo2', 'admin', 'demo123');
    expect((await ok(t.call('cdm', PRODUCT.list, LIST, other))).total).toBe(0);
    expect((await ok(t.call('cdm', PRODUCT.list, LIST, token))).total).toBe(2);
  });
});

describe('inventory lists (cdm 011301, 011302)', () => {
  it('show every posting, and stock changed by plain SQL, at once', async () => {
    const wh = (await ok(t.call('cdm', '011001', { page: 1, pageSize: 10 }, token))).list[0].id;
    const p = (await ok(t.call('cdm', PRODUCT.list, LIST, token))).list[0];
    const inv = async () => (await ok(t.call('cdm', '011301', { page: 1, pageSize: 10, keyword: p.code, warehouseId: wh }, token))).list;
    const dist = async () => (await ok(t.call('cdm', '011302', { page: 1, pageSize: 10, keyword: p.code, warehouseId: wh }, token))).list;
    expect(await inv()).toEqual([]);
    await ok(t.call('oms', '022603', { warehouseId: wh, lines: [{ productId: p.id, qty: 5 }], post: true }, token));
    expect((await inv()).map((r: any) => r.onHand)).toEqual([5]);
    expect((await inv()).map((r: any) => r.onHand)).toEqual([5]);
    expect((await dist()).map((r: any) => r.onHand)).toEqual([5]);
    await ok(t.call('oms', '022603', { warehouseId: wh, lines: [{ productId: p.id, qty: 2 }], post: true }, token));
    expect((await inv()).map((r: any) => r.onHand)).toEqual([7]);
    expect((await dist()).map((r: any) => r.onHand)).toEqual([7]);
    await t.database.db.updateTable('stockSummary').set({ reserved: 3 }).where('productId', '=', p.id).execute();
    expect((await inv()).map((r: any) => [r.onHand, r.reserved, r.available])).toEqual([[7, 3, 4]]);
    await t.database.db.updateTable('warehouse').set({ name: '改名后的仓库' }).where('id', '=', wh).execute();
    expect((await inv()).map((r: any) => r.warehouseName)).toEqual(['改名后的仓库']);
    expect((await dist()).map((r: any) => r.warehouseName)).toEqual(['改名后的仓库']);
  });
});

describe.skipIf(!isPostgres())('PostgreSQL write records (table_write)', () => {
  it('every write is recorded with its transaction; folding the records into totals changes no token', async () => {
    const tables = ['product', 'category'];
    const t0 = await t.database.writes.token(tables);
    expect(await t.database.writes.token(tables)).toBe(t0);
    await t.database.db.transaction().execute(async (trx) => {
      await trx.updateTable('category').set({ name: '记录测试' }).where('id', '=', -1).execute();
    });
    const t1 = await t.database.writes.token(tables);
    expect(t1).not.toBe(t0);
    const c = new pg.Client({ connectionString: t.config.databaseUrl });
    await c.connect();
    try {
      await foldWriteLog(c);
      expect(Number((await c.query('select count(*) as n from table_write')).rows[0].n)).toBe(0);
      expect(await t.database.writes.token(tables)).toBe(t1);
      // a write that never committed is never counted
      await t.database.db.transaction().execute(async (trx) => {
        await trx.updateTable('product').set({ name: 'x' }).where('id', '=', -1).execute();
        throw new Error('rolled back');
      }).catch(() => undefined);
      expect(await t.database.writes.token(tables)).toBe(t1);
    } finally {
      await c.end();
    }
  });
});

describe('two server processes on one database', () => {
  let a: SpawnedServer;
  let b: SpawnedServer;
  beforeAll(async () => {
    [a, b] = await spawnTwo(t);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it('a page cached by one process shows what the other wrote at once', async () => {
    const login = await post(`${a.url}/auth/public/990103`, { type: 0, companyCode: 'demo', userName: 'admin', password: 'demo123' });
    const tk = login.data.accessToken as string;
    const list = async (url: string) => {
      const r = await post(`${url}/cdm/api/${PRODUCT.list}`, LIST, tk);
      expect(r.code).toBe('200');
      return r.data;
    };
    // a reads (and keeps) the page twice; b changes a product; a's next answer has the change.
    for (let round = 1; round <= 3; round++) {
      const before = await list(a.url);
      expect(await list(a.url)).toEqual(before);
      const p = before.list[0];
      const saved = await post(`${b.url}/cdm/api/${PRODUCT.save}`, { id: p.id, version: p.version, price: String(10 + round) }, tk);
      expect(saved.code).toBe('200');
      // At once, on both databases: SQLite's data_version, PostgreSQL's write counts (issue 19.12).
      const after = await list(a.url);
      expect(Number(after.list[0].price)).toBe(10 + round);
      expect(after.list[0].version).toBe(p.version + 1);
    }
  });
});
