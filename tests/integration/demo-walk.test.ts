// The demo company a new user meets after `npm start`: a warehouse with zones and locations, products
// with default locations, suppliers, and documents in each state — and the flows walk from it: a
// confirmed order is received and put away to the suggested locations (no 没有默认库位), stock shows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LOCATIONS, DEMO_PRODUCTS } from '../../src/server/db/seed-demo-walk.ts';
import { ok, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let admin: string;
let clerk: string;
const list = async (family: 'cdm' | 'oms', code: string, body: Record<string, unknown> = {}, token = admin) => (await ok(t.call(family, code, { page: 1, pageSize: 100, ...body }, token))).list as any[];
const statuses = (rows: any[]) => rows.map((r) => r.status).sort();

beforeAll(async () => {
  t = await startTestServer({}, undefined, { demoWalk: true });
  admin = await t.login('demo', 'admin');
  clerk = await t.login('demo', 'clerk');
});
afterAll(async () => {
  await t?.close();
});

describe('demo company: walkable data', () => {
  it('has a warehouse with zones and locations, and every product a default location', async () => {
    const locations = await list('cdm', '011101');
    expect(locations.map((l) => l.lcCode).sort()).toEqual(DEMO_LOCATIONS.map((l) => l.lcCode).sort());
    expect([...new Set(locations.map((l) => l.zone))].sort()).toEqual(['C', 'D', 'R']);
    const products = await list('cdm', '010201');
    expect(products.map((p) => p.code).sort()).toEqual(DEMO_PRODUCTS.map((p) => p.code).sort());
    const defaults = await list('cdm', '011201');
    expect(defaults).toHaveLength(DEMO_PRODUCTS.length);
    expect((await list('cdm', '011601')).map((s) => s.code).sort()).toEqual(['S001', 'S002']);
  });

  it('has documents in each state', async () => {
    expect(statuses(await list('oms', '020201'))).toEqual(['confirmed', 'confirmed', 'draft', 'partlyReceived', 'received']);
    expect(statuses(await list('oms', '021201'))).toEqual(['confirmed']);
    expect(statuses(await list('oms', '021301'))).toEqual(['open']);
    expect(statuses(await list('oms', '021401'))).toEqual(['draft', 'posted', 'posted']);
    expect(statuses(await list('oms', '021501'))).toEqual(['draft', 'posted']);
    expect(statuses(await list('oms', '020301'))).toEqual(['draft', 'posted']);
    const stock = await list('cdm', '011301');
    expect(stock.length).toBeGreaterThan(0);
  });

  it('a new user walks the flow from it: the confirmed order received and put away to the suggested locations', async () => {
    const orders = await list('oms', '020201');
    const waiting = orders.find((o) => o.status === 'confirmed' && !o.remark?.includes('入库计划'));
    expect(waiting).toBeTruthy();
    const order = await ok(t.call('oms', '020202', { id: waiting.id }, admin));
    const note = await ok(t.call('oms', '021403', { orderId: order.id, post: true, lines: order.lines.map((l: any) => ({ orderLineId: l.id, countedQty: l.qty })) }, admin));
    const putaway = await t.call('oms', '021503', { receivingNoteId: note.id, post: true }, admin);
    expect(putaway.code).toBe('200');
    const after = await ok(t.call('oms', '020202', { id: waiting.id }, admin));
    expect(after.status).toBe('received');
    // The clerk logs in and sees the suppliers and orders of the demo company.
    expect((await list('oms', '020201', {}, clerk)).length).toBe(5);
  });
});
