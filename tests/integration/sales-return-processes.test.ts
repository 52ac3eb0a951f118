// Sales returns across two real server processes on one database (SQLite file or PostgreSQL): 16 returns of
// one unit each over an order line of which 10 were shipped, sent to both processes at once — exactly 10
// are saved, the others refused with the figures (SALES_RETURN_OVER_4156); the order line holds 10 returned.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startTestServer, type TestServer } from './helpers.ts';
import { loginAt, post, spawnTwo, type SpawnedServer } from '../support/spawn-server.ts';

let owner: TestServer;
let token: string;
let a: SpawnedServer;
let b: SpawnedServer;

beforeAll(async () => {
  owner = await startTestServer();
  token = await owner.login();
  [a, b] = await spawnTwo(owner);
});

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await owner?.close();
});

describe('sales returns from two server processes', () => {
  it('16 returns of one unit over 10 shipped: exactly 10 are saved', async () => {
    const call = (code: string, body: unknown) => ok(owner.call('oms', code, body, token));
    const wh = (await ok(owner.call('cdm', '011001', { page: 1, pageSize: 5 }, token))).list[0].id;
    const client = (await ok(owner.call('cdm', '011701', { page: 1, pageSize: 5 }, token))).list[0].id;
    const p = (await ok(owner.call('cdm', '010203', { code: 'SRP0001', name: '并发退货', unitSmall: '个', price: '1' }, token))).id;
    const loc = (await ok(owner.call('cdm', '011103', { warehouseId: wh, lcCode: 'SRP-01', zone: 'S', type: 'storage' }, token))).id;
    await call('022603', { warehouseId: wh, lines: [{ productId: p, qty: 10, locationId: loc }], post: true });
    const so = await call('020903', { clientId: client, warehouseId: wh, lines: [{ productId: p, qty: 10 }] });
    await call('020905', { id: so.id });
    const line = (await call('020902', { id: so.id })).lines[0];
    const plan = await call('020703', { orderId: so.id, lines: [{ orderLineId: line.id, qty: 10 }] });
    const { taskId } = await call('020705', { id: plan.id });
    await call('024003', { taskIds: [taskId], post: true });
    await call('024103', { taskId, post: true });

    const [ta, tb] = await Promise.all([loginAt(a.url), loginAt(b.url)]);
    const body = { orderId: so.id, reason: '并发退货', lines: [{ orderLineId: line.id, qty: 1 }] };
    const results = await Promise.all(Array.from({ length: 16 }, (_, i) => (i % 2 ? post(`${a.url}/oms/api/021103`, body, ta) : post(`${b.url}/oms/api/021103`, body, tb))));
    const codes = results.map((r) => r.code);
    expect(codes.filter((c) => c === '200')).toHaveLength(10);
    expect(codes.filter((c) => c !== '200').every((c) => c === 'SALES_RETURN_OVER_4156'), codes.join(',')).toBe(true);
    expect(results.find((r) => r.code !== '200')!.msg).toContain('已发货 10，已退货 10，本次 1，最多还可退 0');
    const order = await call('020902', { id: so.id });
    expect(order.lines[0]).toMatchObject({ shippedQty: 10, returnedQty: 10 });
    expect((await call('021101', { page: 1, pageSize: 50, orderId: so.id })).total).toBe(10);
  });
});
