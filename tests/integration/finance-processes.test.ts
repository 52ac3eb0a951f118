// Allocations of one receipt from two server processes on one database (SQLite file or PostgreSQL): many
// clerks allocating the same receipt's money and the same items at once — the receipt is never
// allocated beyond its money, no item beyond its amount, and the finance check verifies after.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyFinance } from '../../src/server/domain/finance/verify.ts';
import { ok, startTestServer, type TestServer } from './helpers.ts';
import { loginAt, post, spawnTwo, type SpawnedServer } from '../support/spawn-server.ts';

let owner: TestServer;
let token: string;
let client: number;
let a: SpawnedServer;
let b: SpawnedServer;

beforeAll(async () => {
  owner = await startTestServer();
  token = await owner.login();
  client = (await ok(owner.call('cdm', '011701', { page: 1, pageSize: 5 }, token))).list[0].id;
  [a, b] = await spawnTwo(owner);
});

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await owner?.close();
});

describe('allocations of one receipt from two server processes', () => {
  it('24 allocations of 100.00 racing for a receipt of 1,000.00: exactly 10 pass, the rest are refused', async () => {
    const items = [];
    for (let i = 0; i < 24; i++) {
      const doc = await ok(owner.call('oms', '026213', { side: 'receivable', clientId: client, amount: '300.00', post: true }, token));
      items.push((await owner.database.db.selectFrom('openItem').select('id').where('sourceType', '=', 'openingBalance').where('sourceId', '=', doc.id).executeTakeFirstOrThrow()).id);
    }
    const receipt = await ok(owner.call('oms', '026003', { direction: 'receipt', clientId: client, amount: '1000.00', post: true }, token));
    const [ta, tb] = await Promise.all([loginAt(a.url), loginAt(b.url)]);
    const results = await Promise.all(items.map((id, i) => post(`${(i % 2 ? a : b).url}/oms/api/026009`, { id: receipt.id, lines: [{ openItemId: id, amount: '100.00' }] }, i % 2 ? ta : tb)));
    const codes = results.map((r) => r.code);
    expect(codes.filter((c) => c === '200')).toHaveLength(10);
    expect(codes.filter((c) => c !== '200').every((c) => c === 'FINANCE_OVER_PAYMENT_4172'), codes.join(',')).toBe(true);
    const doc = await ok(owner.call('oms', '026002', { id: receipt.id }, token));
    expect(doc.allocatedAmount).toBe('1000.00');
    expect(doc.allocations).toHaveLength(10);
    expect((await verifyFinance(owner.database.db)).differences.map((d) => d.message)).toEqual([]);
  });

  it('two receipts racing for one item: never more than its open amount', async () => {
    const ob = await ok(owner.call('oms', '026213', { side: 'receivable', clientId: client, amount: '500.00', post: true }, token));
    const item = (await owner.database.db.selectFrom('openItem').select('id').where('sourceType', '=', 'openingBalance').where('sourceId', '=', ob.id).executeTakeFirstOrThrow()).id;
    const receipts = [];
    for (let i = 0; i < 12; i++) receipts.push(await ok(owner.call('oms', '026003', { direction: 'receipt', clientId: client, amount: '100.00', post: true }, token)));
    const [ta, tb] = await Promise.all([loginAt(a.url), loginAt(b.url)]);
    const results = await Promise.all(receipts.map((r, i) => post(`${(i % 2 ? a : b).url}/oms/api/026009`, { id: r.id, lines: [{ openItemId: item, amount: '100.00' }] }, i % 2 ? ta : tb)));
    expect(results.filter((r) => r.code === '200')).toHaveLength(5);
    expect(results.filter((r) => r.code !== '200').every((r) => r.code === 'FINANCE_OVER_ITEM_4171')).toBe(true);
    const row = await owner.database.db.selectFrom('openItem').select(['openAmount', 'status']).where('id', '=', item).executeTakeFirstOrThrow();
    expect([Number(row.openAmount), row.status]).toEqual([0, 'settled']);
    expect((await verifyFinance(owner.database.db)).differences.map((d) => d.message)).toEqual([]);
  });
});
