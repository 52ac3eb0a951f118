// One race, one refusal (issue 33 §6): two clerks shipping or picking the same outbound task at once.
// Whichever check meets the loser — the note's preparation, its save, or its posting after the winner
// committed — it hears the same code naming what happened, on SQLite and on PostgreSQL: a delivery with
// nothing left to ship is OUTBOUND_DELIVER_NOTHING_4166 (never the purchasing code PURCHASE_DOC_STATUS_4091,
// a validation error or the order's new status), and a picking order of a task with nothing left to pick is
// OUTBOUND_PICK_NOTHING_4163 (never OUTBOUND_WAVE_WAREHOUSE_4164, whose words blame the warehouse).
// Each timing is reproduced in order (a draft made before the winner posted, lines sent explicitly), then
// the plain concurrent race is run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startTestServer, type TestServer } from './helpers.ts';

const SO = { save: '020903', get: '020902', confirm: '020905' };
const DP = { save: '020703', confirm: '020705' };
const PK = { save: '024003', post: '024004', get: '024002' };
const DN = { save: '024103', post: '024105', get: '024102' };

let t: TestServer;
let admin: string;
let wh: number;
let place: number;
let listId: number;
let seq = 0;

async function pickedTask(qty = 3, pick = true) {
  const code = `RC${String(++seq).padStart(4, '0')}`;
  const productId = (await ok(t.call('cdm', '010203', { code, name: `竞争商品${code}`, unitSmall: '个' }, admin))).id as number;
  await ok(t.call('cdm', '014031', { productId, priceTitleId: listId, price: '2' }, admin));
  await ok(t.call('oms', '022603', { warehouseId: wh, lines: [{ productId, qty, locationId: place }], post: true }, admin));
  const clientId = (await ok(t.call('cdm', '011703', { code: `RK${seq}`, name: `竞争客户${seq}`, priceTitleId: listId, creditLimit: '0' }, admin))).id as number;
  const so = await ok(t.call('oms', SO.save, { clientId, warehouseId: wh, lines: [{ productId, qty }] }, admin));
  await ok(t.call('oms', SO.confirm, { id: so.id, version: so.version }, admin));
  const order = await ok(t.call('oms', SO.get, { id: so.id }, admin));
  const plan = await ok(t.call('oms', DP.save, { orderId: so.id, lines: order.lines.map((l: any) => ({ orderLineId: l.id, qty: l.qty })) }, admin));
  const confirmed = await ok(t.call('oms', DP.confirm, { id: plan.id, version: plan.version }, admin));
  const taskId = confirmed.taskId as number;
  if (pick) await ok(t.call('oms', PK.save, { taskIds: [taskId], post: true }, admin));
  return { taskId, taskDocNo: confirmed.taskDocNo as string, orderId: so.id as number };
}

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login();
  wh = (await ok(t.call('cdm', '011003', { code: 'RCW', name: '竞争仓' }, admin))).id;
  place = (await ok(t.call('cdm', '011103', { warehouseId: wh, lcCode: 'A-01-01-1', zone: 'A', row: '01', column: '01', level: '1', type: 'storage' }, admin))).id;
  listId = Number((await t.database.db.selectFrom('priceTitle').select('id').where('code', '=', 'SP01').executeTakeFirstOrThrow()).id);
});
afterAll(async () => t?.close());

describe('a racing delivery', () => {
  const nothing = (docNo: string) => ({ code: 'OUTBOUND_DELIVER_NOTHING_4166', msg: `出库任务 ${docNo} 没有已拣货未发货的商品` });

  it('a draft note made before the winner shipped is refused at posting in the same words', async () => {
    const f = await pickedTask();
    const a = await ok(t.call('oms', DN.save, { taskId: f.taskId }, admin));
    const b = await ok(t.call('oms', DN.save, { taskId: f.taskId }, admin));
    await ok(t.call('oms', DN.post, { id: a.id, version: a.version }, admin));
    const refused = await t.call('oms', DN.post, { id: b.id, version: b.version }, admin);
    expect(refused).toMatchObject(nothing(f.taskDocNo));
    expect((await ok(t.call('oms', DN.get, { id: b.id }, admin))).status).toBe('draft');
  });

  it('a note sent with its lines after the task left in full is refused in the same words, not as the task status', async () => {
    const f = await pickedTask();
    const shipped = await ok(t.call('oms', DN.save, { taskId: f.taskId, post: true }, admin));
    const note = await ok(t.call('oms', DN.get, { id: shipped.id }, admin));
    const again = await t.call('oms', DN.save, { taskId: f.taskId, lines: note.lines.map((l: any) => ({ taskLineId: l.taskLineId, qty: l.qty })), post: true }, admin);
    expect(again).toMatchObject(nothing(f.taskDocNo));
    expect(await t.call('oms', DN.save, { taskId: f.taskId }, admin)).toMatchObject(nothing(f.taskDocNo));
  });

  it('two notes at once: one ships, the other hears 4166', async () => {
    const f = await pickedTask();
    const results = await Promise.all([1, 2, 3].map(() => t.call('oms', DN.save, { taskId: f.taskId, post: true }, admin)));
    const codes = results.map((r) => String(r.code)).sort();
    expect(codes).toEqual(['200', 'OUTBOUND_DELIVER_NOTHING_4166', 'OUTBOUND_DELIVER_NOTHING_4166']);
    const order = await ok(t.call('oms', SO.get, { id: f.orderId }, admin));
    expect(order.lines[0].shippedQty).toBe(3);
  });
});

describe('a racing picking order', () => {
  const nothing = (docNo: string) => ({ code: 'OUTBOUND_PICK_NOTHING_4163', msg: `所选出库任务 ${docNo} 没有待拣货的商品` });

  it('a task picked in full is refused as having nothing to pick, not as another warehouse', async () => {
    const f = await pickedTask();
    expect(await t.call('oms', PK.save, { taskIds: [f.taskId] }, admin)).toMatchObject(nothing(f.taskDocNo));
  });

  it('lines sent explicitly while a racing order holds them all are refused in the same words', async () => {
    const f = await pickedTask(3, false);
    const holder = await ok(t.call('oms', PK.save, { taskIds: [f.taskId] }, admin));
    const held = await ok(t.call('oms', PK.get, { id: holder.id }, admin));
    const second = await t.call('oms', PK.save, { lines: held.lines.map((l: any) => ({ taskLineId: l.taskLineId, qty: l.qty, locationId: place })) }, admin);
    expect(second).toMatchObject(nothing(f.taskDocNo));
    expect(await t.call('oms', PK.save, { taskIds: [f.taskId] }, admin)).toMatchObject(nothing(f.taskDocNo));
  });

  it('two picking orders at once: one is made, the other hears 4163', async () => {
    const f = await pickedTask(3, false);
    const results = await Promise.all([1, 2, 3].map(() => t.call('oms', PK.save, { taskIds: [f.taskId], post: true }, admin)));
    expect(results.map((r) => String(r.code)).sort()).toEqual(['200', 'OUTBOUND_PICK_NOTHING_4163', 'OUTBOUND_PICK_NOTHING_4163']);
  });

  it('another company\'s task is not found', async () => {
    const f = await pickedTask(1, false);
    const other = await t.login('demo2');
    expect((await t.call('oms', PK.save, { taskIds: [f.taskId] }, other)).code).toBe('COMMON_NOT_FOUND_4004');
  });
});
