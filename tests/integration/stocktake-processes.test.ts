// Stocktaking across two real server processes on one database (SQLite file or PostgreSQL): two
// supervisors posting one take at once — exactly one posting, the differences on the ledger once; count
// entries racing the posting — each entry is either in the posting or refused, never counted after it;
// many entries of one line from both processes all add up. The ledger verifies after.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyStock } from '../../src/server/domain/stock/verify.ts';
import { ok, startTestServer, type TestServer } from './helpers.ts';
import { loginAt, post, spawnTwo, type SpawnedServer } from '../support/spawn-server.ts';

let owner: TestServer;
let token: string;
let wh: number;
let a: SpawnedServer;
let b: SpawnedServer;
let ta: string;
let tb: string;
let seq = 0;

/** A product with `qty` at a new location, and an open take of that location. */
async function takeOf(qty: number) {
  const n = ++seq;
  const p = (await ok(owner.call('cdm', '010203', { code: `SPT${n}`, name: `并发盘点${n}`, unitSmall: '个', price: '1' }, token))).id as number;
  const loc = (await ok(owner.call('cdm', '011103', { warehouseId: wh, lcCode: `P-${String(n).padStart(2, '0')}-01`, zone: `P${n}` }, token))).id as number;
  await ok(owner.call('oms', '022603', { warehouseId: wh, lines: [{ productId: p, locationId: loc, qty }], post: true }, token));
  const take = await ok(owner.call('oms', '024203', { warehouseId: wh, zone: `P${n}` }, token));
  const line = (await ok(owner.call('oms', '024206', { id: take.id, page: 1, pageSize: 5 }, token))).list[0];
  return { p, loc, take, line };
}
async function onHand(productId: number, locationId: number) {
  const r = await owner.database.db.selectFrom('stockBalance').select('onHand').where('productId', '=', productId).where('locationId', '=', locationId).executeTakeFirst();
  return Number(r?.onHand ?? 0);
}

beforeAll(async () => {
  owner = await startTestServer();
  token = await owner.login();
  wh = (await ok(owner.call('cdm', '011003', { code: 'SPW', name: '并发盘点仓' }, token))).id;
  [a, b] = await spawnTwo(owner);
  [ta, tb] = await Promise.all([loginAt(a.url), loginAt(b.url)]);
}, 120_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await owner?.close();
});

describe('stocktaking from two server processes', () => {
  it('two postings of one take at once: exactly one goes through, the difference is on the ledger once', async () => {
    const { p, loc, take, line } = await takeOf(10);
    await ok(owner.call('oms', '024207', { id: take.id, lineId: line.id, qty: 7 }, token));
    const results = await Promise.all([post(`${a.url}/oms/api/024204`, { id: take.id }, ta), post(`${b.url}/oms/api/024204`, { id: take.id }, tb)]);
    expect(results.map((r) => r.code).sort()).toEqual(['200', 'STOCK_DOC_STATUS_4078']);
    expect(await onHand(p, loc)).toBe(7);
    const moves = await owner.database.db.selectFrom('stockMove').select('qty').where('docType', '=', 'stockTake').where('docId', '=', take.id).execute();
    expect(moves.map((m) => Number(m.qty))).toEqual([-3]);
  });

  it('count entries racing the posting: each is in the posting or refused, never counted after it', async () => {
    const { p, loc, take, line } = await takeOf(50);
    await ok(owner.call('oms', '024207', { id: take.id, lineId: line.id, qty: 40 }, token));
    const entries = Array.from({ length: 12 }, (_, i) => post(`${i % 2 ? a.url : b.url}/oms/api/024207`, { id: take.id, lineId: line.id, qty: 1 }, i % 2 ? ta : tb));
    const posting = post(`${a.url}/oms/api/024204`, { id: take.id }, ta);
    const [postAnswer, ...answers] = await Promise.all([posting, ...entries]);
    expect(postAnswer.code).toBe('200');
    const counted = answers.filter((r) => r.code === '200').length;
    expect(answers.every((r) => r.code === '200' || r.code === 'STOCK_DOC_STATUS_4078')).toBe(true);
    // what the line holds is what was posted: 40 + the entries that got in before the posting
    const stored = await owner.database.db.selectFrom('stockTakeLine').select(['countedQty', 'diffQty']).where('id', '=', line.id).executeTakeFirstOrThrow();
    expect(Number(stored.countedQty)).toBe(40 + counted);
    expect(Number(stored.diffQty)).toBe(40 + counted - 50);
    expect(await onHand(p, loc)).toBe(40 + counted);
    const entriesStored = await owner.database.db.selectFrom('stockTakeCount').select('qty').where('takeId', '=', take.id).execute();
    expect(entriesStored).toHaveLength(1 + counted);
  });

  it('entries of one line from both processes all add up', async () => {
    const { take, line } = await takeOf(5);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => post(`${i % 2 ? a.url : b.url}/oms/api/024207`, { id: take.id, lineId: line.id, qty: 2 }, i % 2 ? ta : tb)));
    expect(answers.map((r) => r.code)).toEqual(Array(20).fill('200'));
    const sheet = await ok(owner.call('oms', '024206', { id: take.id, page: 1, pageSize: 5 }, token));
    expect(sheet.list[0]).toMatchObject({ countedQty: 40, countCount: 20 });
    expect((await verifyStock(owner.database.db)).differences.map((d) => d.message)).toEqual([]);
  });
});
