// Two pickers on two server processes (one database: SQLite file or PostgreSQL) posting picking orders
// that both take the last units of one location: exactly one succeeds, the other is refused naming the
// location and changes nothing; re-recorded at another location it goes through. The ledger verifies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyStock } from '../../src/server/domain/stock/verify.ts';
import { ok, startTestServer, type TestServer } from './helpers.ts';
import { loginAt, post, spawnTwo, type SpawnedServer } from '../support/spawn-server.ts';

let owner: TestServer;
let token: string;
let wh: number;
let client: number;
let locs: number[] = [];
let a: SpawnedServer;
let b: SpawnedServer;

/** A confirmed order of `qty` with its confirmed plan: the task id. */
async function task(productId: number, qty: number): Promise<number> {
  const so = await ok(owner.call('oms', '020903', { clientId: client, warehouseId: wh, lines: [{ productId, qty, price: '1' }] }, token));
  await ok(owner.call('oms', '020905', { id: so.id }, token));
  const order = await ok(owner.call('oms', '020902', { id: so.id }, token));
  const plan = await ok(owner.call('oms', '020703', { orderId: so.id, lines: [{ orderLineId: order.lines[0].id, qty }] }, token));
  return (await ok(owner.call('oms', '020705', { id: plan.id }, token))).taskId;
}

beforeAll(async () => {
  owner = await startTestServer();
  token = await owner.login();
  wh = (await ok(owner.call('cdm', '011003', { code: 'RCW', name: '拣货竞争仓' }, token))).id;
  for (const code of ['A-01', 'A-02']) locs.push((await ok(owner.call('cdm', '011103', { warehouseId: wh, lcCode: code, zone: 'A', row: code.slice(2), type: 'storage' }, token))).id);
  client = (await ok(owner.call('cdm', '011703', { code: 'RC01', name: '竞争客户', creditLimit: '0' }, token))).id;
  [a, b] = await spawnTwo(owner);
});

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await owner?.close();
});

describe('two pickers, one location', () => {
  it('the last units of a location go to exactly one picking order (six rounds)', async () => {
    const [ta, tb] = await Promise.all([loginAt(a.url), loginAt(b.url)]);
    for (let round = 0; round < 6; round++) {
      const p = (await ok(owner.call('cdm', '010203', { code: `RCP${round}`, name: `竞争商品${round}`, unitSmall: '个' }, token))).id;
      // 5 at each location; two orders of 5: both pickings are told A-01 (the first on the walk of two equal places)
      await ok(owner.call('oms', '022603', { warehouseId: wh, lines: [{ productId: p, qty: 5, locationId: locs[0] }, { productId: p, qty: 5, locationId: locs[1] }], post: true }, token));
      const picks = [];
      for (const q of [5, 5]) {
        const pk = await ok(owner.call('oms', '024003', { taskIds: [await task(p, q)] }, token));
        const got = await ok(owner.call('oms', '024002', { id: pk.id }, token));
        expect(got.lines.map((l: any) => l.suggestedLcCode)).toEqual(['A-01']);
        picks.push(got);
      }
      const [r1, r2] = await Promise.all([post(`${a.url}/oms/api/024004`, { id: picks[0].id }, ta), post(`${b.url}/oms/api/024004`, { id: picks[1].id }, tb)]);
      const codes = [r1.code, r2.code].sort();
      expect(codes).toEqual(['200', 'STOCK_NOT_ENOUGH_4071']);
      const lost = r1.code === '200' ? 1 : 0;
      expect((lost ? r2 : r1).msg).toContain('拣货竞争仓/A-01');
      const loser = await ok(owner.call('oms', '024002', { id: picks[lost].id }, token));
      expect(loser.status).toBe('draft');
      // the loser takes them from A-02
      await ok(owner.call('oms', '024003', { id: loser.id, version: loser.version, lines: loser.lines.map((l: any) => ({ taskLineId: l.taskLineId, qty: l.qty, suggestedLocationId: l.suggestedLocationId, locationId: locs[1] })), post: true }, token));
      const bal = await owner.database.db.selectFrom('stockBalance').select(['locationId', 'onHand']).where('productId', '=', p).where('warehouseId', '=', wh).orderBy('locationId').execute();
      expect(bal.map((r) => Number(r.onHand))).toEqual([0, 0, 10]);
    }
    expect((await verifyStock(owner.database.db)).differences.map((d) => d.message)).toEqual([]);
  });
});
