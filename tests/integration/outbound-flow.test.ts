// The outbound floor over HTTP (issue 14), on SQLite and PostgreSQL: a confirmed sales order → outbound plan
// → outbound task (made by confirming the plan) → picking order (fewest-location suggestions in walking
// order, one short pick, stock moved to the staging location) → delivery note posted (goods and the
// reservation leave together, the order partly shipped), reversed, picked again and shipped in full (the
// task and plan done). At every step stock on hand, committed and available agree across the balances,
// /commodity/inventory and the ledger verification. Bad input is refused in Chinese and changes nothing;
// the clients' back-order policies; rights and company isolation of the new codes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyStock } from '../../src/server/domain/stock/verify.ts';
import { ok, startTestServer, type TestServer } from './helpers.ts';

const SO = { save: '020903', get: '020902', confirm: '020905' };
const DP = { save: '020703', confirm: '020705', get: '020702', cancel: '020706' };
const OT = { list: '021305', get: '021306', assign: '021307', cancel: '021308', relate: '021310', pickable: '021311', suggest: '021312' };
const PK = { list: '024001', get: '024002', save: '024003', post: '024004', cancel: '024005' };
const DN = { list: '024101', get: '024102', save: '024103', post: '024105', sign: '024106', cancel: '024107', deliverable: '024110' };

let t: TestServer;
let admin: string;
let wh: number;
let loc: Record<string, number> = {};
let listId: number;
let seq = 0;

async function product() {
  const code = `CK${String(++seq).padStart(4, '0')}`;
  const id = (await ok(t.call('cdm', '010203', { code, name: `出库商品${code}`, unitSmall: '个' }, admin))).id as number;
  await ok(t.call('cdm', '014031', { productId: id, priceTitleId: listId, price: '2' }, admin));
  return { id, code };
}

async function stockAt(productId: number, locationId: number, qty: number) {
  await ok(t.call('oms', '022603', { warehouseId: wh, lines: [{ productId, qty, locationId }], post: true }, admin));
}

async function client(policy: string) {
  const code = `KC${String(++seq).padStart(4, '0')}`;
  return (await ok(t.call('cdm', '011703', { code, name: `出库客户${code}`, priceTitleId: listId, creditLimit: '0', backOrderPolicy: policy }, admin))).id as number;
}

/** A confirmed order with a confirmed plan of all of it: its task. */
async function orderToTask(clientId: number, lines: Array<{ productId: number; qty: number }>) {
  const so = await ok(t.call('oms', SO.save, { clientId, warehouseId: wh, lines }, admin));
  await ok(t.call('oms', SO.confirm, { id: so.id, version: so.version }, admin));
  const order = await ok(t.call('oms', SO.get, { id: so.id }, admin));
  const plan = await ok(t.call('oms', DP.save, { orderId: so.id, lines: order.lines.map((l: any) => ({ orderLineId: l.id, qty: l.qty })) }, admin));
  const confirmed = await ok(t.call('oms', DP.confirm, { id: plan.id, version: plan.version }, admin));
  return { orderId: so.id as number, orderDocNo: so.docNo as string, planId: plan.id as number, planDocNo: plan.docNo as string, taskId: confirmed.taskId as number, taskDocNo: confirmed.taskDocNo as string, order };
}

async function balance(productId: number, locationId: number) {
  const r = await t.database.db.selectFrom('stockBalance').select(['onHand']).where('productId', '=', productId).where('warehouseId', '=', wh).where('locationId', '=', locationId).executeTakeFirst();
  return Number(r?.onHand ?? 0);
}

async function summary(productId: number) {
  const r = await t.database.db.selectFrom('stockSummary').select(['onHand', 'reserved', 'committed']).where('productId', '=', productId).where('warehouseId', '=', wh).executeTakeFirst();
  return { onHand: Number(r?.onHand ?? 0), committed: Number(r?.committed ?? 0) };
}

/** on hand, reserved (committed) and available as /commodity/inventory shows them, and the ledger verifies. */
async function agree(productId: number, onHand: number, committed: number) {
  expect(await summary(productId)).toEqual({ onHand, committed });
  const inv = await ok(t.call('cdm', '011301', { page: 1, pageSize: 5, productId, warehouseId: wh }, admin));
  expect(inv.list[0]).toMatchObject({ onHand, reserved: committed, available: onHand - committed });
  const v = await verifyStock(t.database.db);
  expect(v.differences.map((d) => d.message)).toEqual([]);
}

async function staging() {
  const r = await t.database.db.selectFrom('location').select(['id', 'lcCode', 'type']).where('warehouseId', '=', wh).where('type', '=', 'shipping').executeTakeFirst();
  return Number(r?.id ?? 0);
}

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login();
  wh = (await ok(t.call('cdm', '011003', { code: 'CKW', name: '出库仓' }, admin))).id;
  // walking order: zone A before B, then row, column (2 before 10), level
  for (const [code, zone, row, column, level] of [['B-01-01-1', 'B', '01', '01', '1'], ['A-01-10-1', 'A', '01', '10', '1'], ['A-01-02-1', 'A', '01', '02', '1'], ['C-01-01-1', 'C', '01', '01', '1']]) {
    loc[code!] = (await ok(t.call('cdm', '011103', { warehouseId: wh, lcCode: code, zone, row, column, level, type: 'storage' }, admin))).id;
  }
  listId = Number((await t.database.db.selectFrom('priceTitle').select('id').where('code', '=', 'SP01').executeTakeFirstOrThrow()).id);
});
afterAll(async () => t?.close());

describe('order → plan → task → picking → delivery note', () => {
  it('walks the whole flow with a short pick, a reversal and the rest shipped; stock, reservation and the ledger agree at each step', async () => {
    const p1 = await product();
    const p2 = await product();
    await stockAt(p1.id, loc['A-01-10-1']!, 6);
    await stockAt(p1.id, loc['B-01-01-1']!, 10);
    await stockAt(p2.id, loc['A-01-02-1']!, 5);
    const c = await client('keep');
    const f = await orderToTask(c, [{ productId: p1.id, qty: 12 }, { productId: p2.id, qty: 5 }]);
    await agree(p1.id, 16, 12);

    // the task: made by confirming the plan, one line per plan line
    const task = await ok(t.call('oms', OT.get, { id: f.taskId }, admin));
    expect(task).toMatchObject({ status: 'open', statusText: '待拣货', planDocNo: f.planDocNo, orderDocNo: f.orderDocNo, totalQty: 17, openQty: 17, warehouseName: '出库仓' });
    expect(task.lines.map((l: any) => [l.productCode, l.qty, l.openQty])).toEqual([[p1.code, 12, 12], [p2.code, 5, 5]]);
    expect(task.actions.map((a: any) => a.label)).toContain('作废');
    expect(task.followUps ?? task.links ?? []).toBeDefined();
    const plan = await ok(t.call('oms', DP.get, { id: f.planId }, admin));
    expect(plan.status).toBe('confirmed');

    // assign to a worker
    const staff = await ok(t.call('cdm', '013203', { code: 'CK01', name: '拣货员小王' }, admin));
    const assigned = await ok(t.call('oms', OT.assign, { id: f.taskId, version: task.version, assigneeId: staff.id }, admin));
    expect(assigned).toMatchObject({ assigneeName: '拣货员小王' });
    expect((await t.call('oms', OT.assign, { id: f.taskId, version: task.version, assigneeId: staff.id }, admin)).code).toBe('COMMON_VERSION_CONFLICT_4009');

    // suggestions: fewest locations (the fullest first), lines in walking order
    const sug = await ok(t.call('oms', OT.suggest, { taskIds: [f.taskId] }, admin));
    expect(sug.list.map((l: any) => [l.suggestedLcCode, l.productCode, l.qty])).toEqual([['A-01-02-1', p2.code, 5], ['A-01-10-1', p1.code, 2], ['B-01-01-1', p1.code, 10]]);

    // the picking order from the task
    const pk = await ok(t.call('oms', PK.save, { taskIds: [f.taskId], pickerId: staff.id }, admin));
    let picking = await ok(t.call('oms', PK.get, { id: pk.id }, admin));
    expect(picking).toMatchObject({ status: 'draft', statusText: '待拣货', warehouseName: '出库仓', taskNos: f.taskDocNo, totalQty: 17, pickerName: '拣货员小王' });
    expect(picking.lines.map((l: any) => [l.suggestedLcCode, l.productCode, l.qty])).toEqual([['A-01-02-1', p2.code, 5], ['A-01-10-1', p1.code, 2], ['B-01-01-1', p1.code, 10]]);
    expect((await ok(t.call('oms', OT.get, { id: f.taskId }, admin)))).toMatchObject({ status: 'picking', pickingQty: 17, openQty: 0 });
    // nothing is left to pick: a second picking order is refused
    expect((await t.call('oms', PK.save, { taskIds: [f.taskId] }, admin)).code).toBe('OUTBOUND_PICK_NOTHING_4163');

    // bad input: refused in Chinese, nothing changed
    const stage0 = await staging();
    const lineInput = (over: Record<number, Record<string, unknown>>) => picking.lines.map((l: any, i: number) => ({ taskLineId: l.taskLineId, qty: l.qty, suggestedLocationId: l.suggestedLocationId, ...over[i] }));
    const tooMany = await t.call('oms', PK.save, { id: pk.id, version: picking.version, lines: lineInput({ 0: { pickedQty: 6 } }) }, admin);
    expect(tooMany.code).toBe('COMMON_VALIDATION_4000');
    expect(tooMany.msg).toContain('第 1 行：实拣数量 6 超过应拣数量 5');
    const c2 = await ok(t.call('cdm', '011103', { warehouseId: wh, lcCode: 'R-01', zone: 'R', type: 'receiving' }, admin));
    const wrongPlace = await t.call('oms', PK.save, { id: pk.id, version: picking.version, lines: lineInput({ 1: { locationId: c2.id } }) }, admin);
    expect(wrongPlace.msg).toContain('第 2 行：库位 R-01 不是存储或拣货库位');
    const over = await t.call('oms', PK.save, { id: pk.id, version: picking.version, lines: [...lineInput({}), { taskLineId: picking.lines[0].taskLineId, qty: 1 }] }, admin);
    expect(over.code).toBe('OUTBOUND_PICK_OVER_4162');
    expect(over.msg).toContain(`第 2 行商品 ${p2.code} 拣货数量超出：计划 5，已拣 0，拣货中 0，本次 6，最多还可拣 5`);
    expect((await ok(t.call('oms', PK.get, { id: pk.id }, admin))).version).toBe(picking.version);
    expect(stage0).toBe(0);

    // the picker records: A-01-10-1 had only 1 of 2 (short 1); the rest as asked — and posts
    const posted = await ok(t.call('oms', PK.save, { id: pk.id, version: picking.version, lines: lineInput({ 1: { pickedQty: 1 } }), post: true }, admin));
    expect(posted).toMatchObject({ status: 'posted', pickedQty: 16, shortQty: 1 });
    const stage = await staging();
    expect(stage).toBeGreaterThan(0);
    expect([await balance(p1.id, loc['A-01-10-1']!), await balance(p1.id, loc['B-01-01-1']!), await balance(p1.id, stage), await balance(p2.id, stage)]).toEqual([5, 0, 11, 5]);
    // picking moves stock inside the warehouse: on hand and committed stay
    await agree(p1.id, 16, 12);
    await agree(p2.id, 5, 5);
    picking = await ok(t.call('oms', PK.get, { id: pk.id }, admin));
    expect(picking.lines.map((l: any) => [l.placeCode, l.pickedQty, l.shortQty])).toEqual([['A-01-02-1', 5, 0], ['A-01-10-1', 1, 1], ['B-01-01-1', 10, 0]]);
    const afterPick = await ok(t.call('oms', OT.get, { id: f.taskId }, admin));
    expect(afterPick).toMatchObject({ status: 'picking', pickedQty: 16, shortQty: 1, openQty: 1, toDeliverQty: 16 });
    expect(afterPick.lines[0]).toMatchObject({ pickedQty: 11, shortQty: 1, openQty: 1, toDeliverQty: 11 });

    // the delivery note: everything picked and not delivered
    const dn = await ok(t.call('oms', DN.save, { taskId: f.taskId, deliveryDate: '2026-11-26', post: true }, admin));
    expect(dn).toMatchObject({ status: 'posted', statusText: '已发货', orderStatus: 'partlyShipped' });
    await agree(p1.id, 5, 1);
    await agree(p2.id, 0, 0);
    expect(await balance(p1.id, stage)).toBe(0);
    let order = await ok(t.call('oms', SO.get, { id: f.orderId }, admin));
    expect(order).toMatchObject({ status: 'partlyShipped', shippedQty: 16, reservedQty: 1 });
    expect(order.lines.map((l: any) => [l.shippedQty, l.openQty, l.reservedQty])).toEqual([[11, 1, 1], [5, 0, 0]]);
    const note = await ok(t.call('oms', DN.get, { id: dn.id }, admin));
    expect(note.lines.map((l: any) => [l.productCode, l.qty, l.backOrderQty])).toEqual([[p1.code, 11, 1], [p2.code, 5, 0]]);
    // nothing more is picked: a second note is refused
    expect((await t.call('oms', DN.save, { taskId: f.taskId }, admin)).code).toBe('OUTBOUND_DELIVER_NOTHING_4166');

    // 销售撤销单 tells what cancelling the note would undo (the desk calls the same cancellation)
    const preview = await ok(t.call('oms', '022903', { docNo: note.docNo }, admin));
    expect(preview).toMatchObject({ docType: 'deliveryNote', docTypeText: '送货单', statusText: '已发货', cancellable: true, route: `/entrepot/deliverGoodsDetail/${dn.id}` });
    expect(preview.effect).toContain('冲回出库 16 个');
    // the reversal: goods back to staging, the order's reservation and status back
    const rev = await ok(t.call('oms', DN.cancel, { id: dn.id }, admin));
    expect(rev).toMatchObject({ status: 'cancelled', orderStatus: 'confirmed' });
    await agree(p1.id, 16, 12);
    expect(await balance(p1.id, stage)).toBe(11);
    order = await ok(t.call('oms', SO.get, { id: f.orderId }, admin));
    expect(order).toMatchObject({ status: 'confirmed', shippedQty: 0, reservedQty: 17 });
    expect((await t.call('oms', DN.cancel, { id: dn.id }, admin)).code).toBe('DOCUMENT_STATUS_4131');
    expect((await t.call('oms', '022904', { docNo: note.docNo, reason: '重复作废' }, admin)).msg).toBe(`送货单 ${note.docNo} 当前状态为“已作废”，不能作废`);

    // ship again, then pick the short unit and ship it: the order shipped, the task and plan done
    await ok(t.call('oms', DN.save, { taskId: f.taskId, post: true }, admin));
    const pk2 = await ok(t.call('oms', PK.save, { taskIds: [f.taskId], post: true }, admin));
    expect(pk2).toMatchObject({ status: 'posted', pickedQty: 1 });
    const dn2 = await ok(t.call('oms', DN.save, { taskId: f.taskId, post: true }, admin));
    expect(dn2.orderStatus).toBe('shipped');
    await agree(p1.id, 4, 0);
    expect((await ok(t.call('oms', OT.get, { id: f.taskId }, admin)))).toMatchObject({ status: 'done', deliveredQty: 17 });
    expect((await ok(t.call('oms', DP.get, { id: f.planId }, admin))).status).toBe('done');
    expect((await ok(t.call('oms', SO.get, { id: f.orderId }, admin)))).toMatchObject({ status: 'shipped', shippedQty: 17, reservedQty: 0 });

    // proof of delivery
    const signed = await ok(t.call('oms', DN.sign, { id: dn2.id, receiverName: '张三', receivedDate: '2026-11-27' }, admin));
    expect(signed).toMatchObject({ status: 'signed', receiverName: '张三' });
    expect((await t.call('oms', DN.cancel, { id: dn2.id }, admin)).code).toBe('DOCUMENT_STATUS_4131');

    // the chain from the order: plan → task → picking orders / delivery notes
    const chain = await ok(t.call('oms', '025001', { docNo: f.orderDocNo }, admin));
    const types = chain.chain.map((x: any) => x.docType);
    expect(types.slice(0, 3)).toEqual(['salesOrder', 'deliveryPlan', 'outboundTask']);
    expect(types.filter((x: string) => x === 'pickingOrder')).toHaveLength(2);
    expect(types.filter((x: string) => x === 'deliveryNote')).toHaveLength(3);
    const fromNote = await ok(t.call('oms', '025001', { docNo: dn2.docNo }, admin));
    expect(fromNote.chain.map((x: any) => x.docType).slice(0, 4)).toEqual(['salesOrder', 'deliveryPlan', 'outboundTask', 'deliveryNote']);
  });

  it('cancels a task only while nothing is picked: its plan goes back to draft', async () => {
    const p = await product();
    await stockAt(p.id, loc['C-01-01-1']!, 3);
    const f = await orderToTask(await client('keep'), [{ productId: p.id, qty: 2 }]);
    const pk = await ok(t.call('oms', PK.save, { taskIds: [f.taskId] }, admin));
    const busy = await t.call('oms', OT.cancel, { id: f.taskId }, admin);
    expect(busy.code).toBe('OUTBOUND_TASK_BUSY_4161');
    expect(busy.msg).toContain(pk.docNo);
    // the plan cannot be cancelled under it either
    expect((await t.call('oms', DP.cancel, { id: f.planId }, admin)).code).toBe('OUTBOUND_TASK_BUSY_4161');
    await ok(t.call('oms', PK.cancel, { id: pk.id }, admin));
    const done = await ok(t.call('oms', OT.cancel, { id: f.taskId }, admin));
    expect(done).toMatchObject({ status: 'cancelled', planStatus: 'draft' });
    expect((await ok(t.call('oms', DP.get, { id: f.planId }, admin))).status).toBe('draft');
    await agree(p.id, 3, 2);
  });

  it('cancels a posted picking order while its goods are still in staging: back to their places, the task open again', async () => {
    const p = await product();
    await stockAt(p.id, loc['C-01-01-1']!, 6);
    const f = await orderToTask(await client('keep'), [{ productId: p.id, qty: 4 }]);
    const pk = await ok(t.call('oms', PK.save, { taskIds: [f.taskId], post: true }, admin));
    const stage = await staging();
    expect([await balance(p.id, loc['C-01-01-1']!), await balance(p.id, stage)]).toEqual([2, 4]);
    const undone = await ok(t.call('oms', PK.cancel, { id: pk.id }, admin));
    expect(undone.status).toBe('cancelled');
    expect([await balance(p.id, loc['C-01-01-1']!), await balance(p.id, stage)]).toEqual([6, 0]);
    expect(await ok(t.call('oms', OT.get, { id: f.taskId }, admin))).toMatchObject({ status: 'open', pickedQty: 0, openQty: 4 });
    await agree(p.id, 6, 4);
    // picked again and shipped: the picking can no longer be undone
    const pk2 = await ok(t.call('oms', PK.save, { taskIds: [f.taskId], post: true }, admin));
    const dn = await ok(t.call('oms', DN.save, { taskId: f.taskId, post: true }, admin));
    const refused = await t.call('oms', PK.cancel, { id: pk2.id }, admin);
    expect(refused.code).toBe('OUTBOUND_PICK_DELIVERED_4169');
    expect(refused.msg).toBe(`拣货单 ${pk2.docNo} 拣出的货物已有发货（送货单 ${dn.docNo}），请先作废送货单再作废拣货单`);
    await agree(p.id, 2, 0);
  });

  it('closes a task whose rest will not come: the rest goes back to the order, which can then be closed and its reservation released', async () => {
    const p = await product();
    await stockAt(p.id, loc['C-01-01-1']!, 3);
    const f = await orderToTask(await client('keep'), [{ productId: p.id, qty: 3 }]);
    const pk = await ok(t.call('oms', PK.save, { taskIds: [f.taskId] }, admin));
    const g = await ok(t.call('oms', PK.get, { id: pk.id }, admin));
    await ok(t.call('oms', PK.save, { id: pk.id, version: g.version, lines: g.lines.map((l: any) => ({ taskLineId: l.taskLineId, qty: l.qty, suggestedLocationId: l.suggestedLocationId, pickedQty: 2 })), post: true }, admin));
    // picked but not shipped: the task cannot be closed yet
    const early = await t.call('oms', '021313', { id: f.taskId }, admin);
    expect(early.code).toBe('OUTBOUND_TASK_OPEN_4170');
    expect(early.msg).toContain('还有已拣未发的货物 2');
    await ok(t.call('oms', DN.save, { taskId: f.taskId, post: true }, admin));
    expect((await t.call('oms', '020907', { id: f.orderId }, admin)).code).toBe('SALES_OPEN_PLANS_4148');
    const closed = await ok(t.call('oms', '021313', { id: f.taskId }, admin));
    expect(closed).toMatchObject({ status: 'done', releasedQty: 1 });
    expect((await ok(t.call('oms', DP.get, { id: f.planId }, admin))).status).toBe('done');
    await agree(p.id, 1, 1);
    expect((await ok(t.call('oms', '020907', { id: f.orderId }, admin))).status).toBe('closed');
    await agree(p.id, 1, 0);
  });

  it('applies the client\'s back-order policy: ship only complete refuses a short delivery; cancel the rest closes the order', async () => {
    const p = await product();
    await stockAt(p.id, loc['C-01-01-1']!, 4);
    // complete: 5 ordered, 4 on hand — committed only if available; order 4, pick 3
    const fc = await orderToTask(await client('complete'), [{ productId: p.id, qty: 4 }]);
    const pk = await ok(t.call('oms', PK.save, { taskIds: [fc.taskId] }, admin));
    const g = await ok(t.call('oms', PK.get, { id: pk.id }, admin));
    await ok(t.call('oms', PK.save, { id: pk.id, version: g.version, lines: g.lines.map((l: any) => ({ taskLineId: l.taskLineId, qty: l.qty, suggestedLocationId: l.suggestedLocationId, pickedQty: l.qty - 1 })), post: true }, admin));
    const refused = await t.call('oms', DN.save, { taskId: fc.taskId, post: true }, admin);
    expect(refused.code).toBe('OUTBOUND_SHIP_COMPLETE_4167');
    expect(refused.msg).toContain('尚欠 1');
    expect((await ok(t.call('oms', DN.list, { page: 1, pageSize: 5, taskId: fc.taskId }, admin))).total).toBe(0);
    await agree(p.id, 4, 4);
    // the missing unit picked: now it ships whole
    await ok(t.call('oms', PK.save, { taskIds: [fc.taskId], post: true }, admin));
    expect((await ok(t.call('oms', DN.save, { taskId: fc.taskId, post: true }, admin))).orderStatus).toBe('shipped');
    await agree(p.id, 0, 0);

    // cancel the rest: 3 ordered, 2 picked (short 1), delivered → the order is closed, its reservation released
    await stockAt(p.id, loc['C-01-01-1']!, 3);
    const fx = await orderToTask(await client('cancel'), [{ productId: p.id, qty: 3 }]);
    const pk2 = await ok(t.call('oms', PK.save, { taskIds: [fx.taskId] }, admin));
    const g2 = await ok(t.call('oms', PK.get, { id: pk2.id }, admin));
    await ok(t.call('oms', PK.save, { id: pk2.id, version: g2.version, lines: g2.lines.map((l: any) => ({ taskLineId: l.taskLineId, qty: l.qty, suggestedLocationId: l.suggestedLocationId, pickedQty: 2 })), post: true }, admin));
    const dn = await ok(t.call('oms', DN.save, { taskId: fx.taskId, post: true }, admin));
    expect(dn).toMatchObject({ orderStatus: 'closed', closedRest: true });
    await agree(p.id, 1, 0);
    expect((await ok(t.call('oms', OT.get, { id: fx.taskId }, admin))).status).toBe('done');
    expect((await ok(t.call('oms', DP.get, { id: fx.planId }, admin))).status).toBe('done');
    const rev = await t.call('oms', DN.cancel, { id: dn.id }, admin);
    expect(rev.code).toBe('OUTBOUND_REVERSE_CLOSED_4168');
    await agree(p.id, 1, 0);
  });

  it('checks credit again at delivery when the company says so: a lowered limit stops the goods; the override right passes them', async () => {
    const p = await product();
    await stockAt(p.id, loc['C-01-01-1']!, 10);
    const c = await client('keep');
    const f = await orderToTask(c, [{ productId: p.id, qty: 10 }]);
    await ok(t.call('oms', PK.save, { taskIds: [f.taskId], post: true }, admin));
    const s = await ok(t.call('cdm', '013601', {}, admin));
    await ok(t.call('cdm', '013602', { version: s.version, flags: { ...s.flags, creditCheckOnDelivery: true } }, admin));
    try {
      // the order (10 × 2.00 = 20.00) was confirmed without a limit; now the client may owe 15.00
      const cl = await ok(t.call('cdm', '011702', { id: c }, admin));
      await ok(t.call('cdm', '011703', { id: c, version: cl.version, creditLimit: '15' }, admin));
      const store = await t.login('demo', 'store', 'demo123');
      const refused = await t.call('oms', DN.save, { taskId: f.taskId, post: true }, store);
      expect(refused.code).toBe('SALES_CREDIT_LIMIT_4145');
      expect(refused.msg).toContain('额度 15.00，未结应收 0.00，未结订单 0.00，本单 20.00，合计 20.00');
      expect((await ok(t.call('oms', DN.list, { page: 1, pageSize: 5, taskId: f.taskId }, admin))).total).toBe(0);
      await agree(p.id, 10, 10);
      // the override right passes it, and the audit trail says so
      const passed = await ok(t.call('oms', DN.save, { taskId: f.taskId, post: true }, admin));
      expect(passed.orderStatus).toBe('shipped');
      const audit = await t.database.db.selectFrom('auditLog').select(['action', 'changes']).where('entity', '=', 'salesOrder').where('recordId', '=', String(f.orderId)).execute();
      expect(JSON.stringify(audit.filter((a) => a.action === 'override').map((a) => a.changes))).toContain('信用额度（发货）');
      await agree(p.id, 0, 0);
    } finally {
      const now = await ok(t.call('cdm', '013601', {}, admin));
      await ok(t.call('cdm', '013602', { version: now.version, flags: { ...now.flags, creditCheckOnDelivery: false } }, admin));
    }
  });

  it('keeps the new codes to their rights and to the caller\'s company', async () => {
    const p = await product();
    await stockAt(p.id, loc['C-01-01-1']!, 1);
    const f = await orderToTask(await client('keep'), [{ productId: p.id, qty: 1 }]);
    const other = await t.login('demo2');
    expect((await t.call('oms', OT.get, { id: f.taskId }, other)).code).toBe('COMMON_NOT_FOUND_4004');
    expect((await t.call('oms', PK.save, { taskIds: [f.taskId] }, other)).code).toBe('COMMON_NOT_FOUND_4004');
    expect((await t.call('oms', DN.save, { taskId: f.taskId }, other)).code).not.toBe('200');
    expect((await ok(t.call('oms', OT.list, { page: 1, pageSize: 50 }, other))).total).toBe(0);
    // a reader of tasks may not pick or ship
    const role = await ok(t.call('cdm', '013303', { name: '出库查看', rights: ['entrepot.outboundTask', 'entrepot.outboundTaskDetail'] }, admin));
    await ok(t.call('cdm', '013403', { userName: 'ckview', password: 'secret-111', roleIds: [role.id], warehouseId: wh }, admin));
    const viewer = await t.login('demo', 'ckview', 'secret-111');
    expect((await ok(t.call('oms', OT.get, { id: f.taskId }, viewer))).docNo).toBe(f.taskDocNo);
    const denied = await t.call('oms', PK.save, { taskIds: [f.taskId] }, viewer);
    expect(denied.code).not.toBe('200');
    expect(denied.msg).toMatch(/权限/);
    expect((await t.call('oms', OT.cancel, { id: f.taskId }, viewer)).code).toBe(denied.code);
    expect((await ok(t.call('oms', OT.get, { id: f.taskId }, admin))).status).toBe('open');
    // a clerk who may make picking orders but not finish them cannot finish one by saving with post
    const maker = await ok(t.call('cdm', '013303', { name: '拣货制单', rights: ['entrepot.pickingList', 'entrepot.pickingOrderDetail', 'entrepot.pickingOrder.edit'] }, admin));
    await ok(t.call('cdm', '013403', { userName: 'ckmaker', password: 'secret-111', roleIds: [maker.id], warehouseId: wh }, admin));
    const clerk = await t.login('demo', 'ckmaker', 'secret-111');
    const posting = await t.call('oms', PK.save, { taskIds: [f.taskId], post: true }, clerk);
    expect(posting).toMatchObject({ code: 'COMMON_NO_RIGHT_4003', msg: '无权限执行“拣货完成拣货单”，请联系管理员授权' });
    expect((await ok(t.call('oms', OT.get, { id: f.taskId }, admin))).status).toBe('open');
    const draft = await ok(t.call('oms', PK.save, { taskIds: [f.taskId] }, clerk));
    expect(draft.status).toBe('draft');
  });
});
