// Sales confirmations across two real server processes on one database (SQLite file or PostgreSQL):
// many clerks confirming orders for the last units — exactly the available quantity is committed, never
// more, and multi-line orders over the same products in opposite line orders commit without deadlocks
// (rows are locked in product order); the ledger verifies after.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyStock } from '../../src/server/domain/stock/verify.ts';
import { ok, startTestServer, type TestServer } from './helpers.ts';
import { loginAt, post, spawnTwo, type SpawnedServer } from '../support/spawn-server.ts';

let owner: TestServer;
let token: string;
let wh: number;
let client: number;
let a: SpawnedServer;
let b: SpawnedServer;
let seq = 0;

async function products(n: number, qty: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const code = `SPR${String(++seq).padStart(4, '0')}`;
    ids.push((await ok(owner.call('cdm', '010203', { code, name: `并发销售${code}`, unitSmall: '个', price: '1' }, token))).id);
  }
  await ok(owner.call('oms', '022603', { warehouseId: wh, lines: ids.map((productId) => ({ productId, qty })), post: true }, token));
  return ids;
}

async function committed(ids: number[]): Promise<number[]> {
  const rows = await owner.database.db.selectFrom('stockSummary').select(['productId', 'committed']).where('productId', 'in', ids).where('warehouseId', '=', wh).execute();
  const by = new Map(rows.map((r) => [Number(r.productId), Number(r.committed)]));
  return ids.map((id) => by.get(id) ?? 0);
}

beforeAll(async () => {
  owner = await startTestServer();
  token = await owner.login();
  wh = (await ok(owner.call('cdm', '011001', { page: 1, pageSize: 5 }, token))).list[0].id;
  client = (await ok(owner.call('cdm', '011701', { page: 1, pageSize: 5 }, token))).list[0].id;
  [a, b] = await spawnTwo(owner);
});

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await owner?.close();
});

describe('sales confirmations from two server processes', () => {
  it('30 orders of one unit against 12 available: exactly 12 are confirmed', async () => {
    const [p] = await products(1, 12);
    const drafts = [];
    for (let i = 0; i < 30; i++) drafts.push(await ok(owner.call('oms', '020903', { clientId: client, warehouseId: wh, lines: [{ productId: p, qty: 1 }] }, token)));
    const [ta, tb] = await Promise.all([loginAt(a.url), loginAt(b.url)]);
    const results = await Promise.all(drafts.map((d, i) => (i % 2 ? post(`${a.url}/oms/api/020905`, { id: d.id }, ta) : post(`${b.url}/oms/api/020905`, { id: d.id }, tb))));
    const codes = results.map((r) => r.code);
    expect(codes.filter((c) => c === '200')).toHaveLength(12);
    expect(codes.filter((c) => c !== '200').every((c) => c === 'STOCK_RESERVE_NOT_ENOUGH_4072'), codes.join(',')).toBe(true);
    expect(await committed([p])).toEqual([12]);
    expect((await verifyStock(owner.database.db)).differences.map((d) => d.message)).toEqual([]);
  });

  it('multi-line orders over shared products in opposite line orders: no deadlock, exactly what fits', async () => {
    const ps = await products(5, 10);
    const drafts = [];
    for (let i = 0; i < 16; i++) {
      const order = i % 2 ? [...ps].reverse() : ps;
      drafts.push(await ok(owner.call('oms', '020903', { clientId: client, warehouseId: wh, lines: order.map((productId) => ({ productId, qty: 1 })) }, token)));
    }
    const [ta, tb] = await Promise.all([loginAt(a.url), loginAt(b.url)]);
    const results = await Promise.all(drafts.map((d, i) => (i % 2 ? post(`${a.url}/oms/api/020905`, { id: d.id }, ta) : post(`${b.url}/oms/api/020905`, { id: d.id }, tb))));
    // 10 of each, 16 orders each taking one of all five: exactly 10 fit
    expect(results.filter((r) => r.code === '200')).toHaveLength(10);
    expect(results.filter((r) => r.code !== '200').every((r) => r.code === 'STOCK_RESERVE_NOT_ENOUGH_4072')).toBe(true);
    expect(await committed(ps)).toEqual(ps.map(() => 10));
    expect((await verifyStock(owner.database.db)).differences.map((d) => d.message)).toEqual([]);
  });
});
