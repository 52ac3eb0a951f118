// 欠货单处理 (issue 17, cdm 019801–019802), on SQLite and PostgreSQL: a short pick and a partial delivery
// leave a partly shipped order; it is listed with what is owed and what it still reserves; closing it
// in bulk needs a reason, is refused whole while any chosen order cannot close, and releases the
// reservation through the ledger (stock summary and the verification agree); rights and companies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyStock } from '../../src/server/domain/stock/verify.ts';
import { ok, startTestServer, type TestServer } from './helpers.ts';
import { tradeFlow } from './trade-flow.ts';

const BO = { list: '019801', close: '019802' };
const SO = { save: '020903', get: '020902', confirm: '020905' };
const DP = { save: '020703', confirm: '020705' };
const PK = { save: '024003' };
const DN = { save: '024103' };
const OT_CLOSE = '021313';
const OT_GET = '021306';

let t: TestServer;
let admin: string;
let wh: number;
let loc: number;
let listId: number;
let seq = 0;

async function product() {
  const code = `BO${String(++seq).padStart(4, '0')}`;
  const id = (await ok(t.call('cdm', '010203', { code, name: `欠货商品${code}`, unitSmall: '个' }, admin))).id as number;
  await ok(t.call('cdm', '014031', { productId: id, priceTitleId: listId, price: '2' }, admin));
  await ok(t.call('oms', '022603', { warehouseId: wh, lines: [{ productId: id, qty: 10, locationId: loc }], post: true }, admin));
  return { id, code };
}

/** A confirmed order of `qty`, picked short by `short` and the rest delivered; with `closeTask` the task is closed (nothing left planned). */
async function backOrder(qty: number, short: number, closeTask = true) {
  const p = await product();
  const code = `BC${String(++seq).padStart(4, '0')}`;
  const clientId = (await ok(t.call('cdm', '011703', { code, name: `欠货客户${code}`, priceTitleId: listId, creditLimit: '0', backOrderPolicy: 'keep' }, admin))).id as number;
  const so = await ok(t.call('oms', SO.save, { clientId, warehouseId: wh, lines: [{ productId: p.id, qty }] }, admin));
  await ok(t.call('oms', SO.confirm, { id: so.id, version: so.version }, admin));
  const order = await ok(t.call('oms', SO.get, { id: so.id }, admin));
  const plan = await ok(t.call('oms', DP.save, { orderId: so.id, lines: order.lines.map((l: any) => ({ orderLineId: l.id, qty: l.qty })) }, admin));
  const confirmed = await ok(t.call('oms', DP.confirm, { id: plan.id, version: plan.version }, admin));
  const pk = await ok(t.call('oms', PK.save, { taskIds: [confirmed.taskId] }, admin));
  const picking = await ok(t.call('oms', '024002', { id: pk.id }, admin));
  await ok(t.call('oms', PK.save, { id: pk.id, version: picking.version, lines: picking.lines.map((l: any) => ({ taskLineId: l.taskLineId, qty: l.qty, suggestedLocationId: l.suggestedLocationId, pickedQty: l.qty - short })), post: true }, admin));
  await ok(t.call('oms', DN.save, { taskId: confirmed.taskId, deliveryDate: '2026-11-26', post: true }, admin));
  if (closeTask) {
    const task = await ok(t.call('oms', OT_GET, { id: confirmed.taskId }, admin));
    await ok(t.call('oms', OT_CLOSE, { id: confirmed.taskId, version: task.version }, admin));
  }
  return { orderId: so.id as number, docNo: so.docNo as string, productId: p.id, code: p.code, planDocNo: plan.docNo as string };
}

async function committed(productId: number) {
  const r = await t.database.db.selectFrom('stockSummary').select(['onHand', 'committed']).where('productId', '=', productId).where('warehouseId', '=', wh).executeTakeFirst();
  return { onHand: Number(r?.onHand ?? 0), committed: Number(r?.committed ?? 0) };
}

const flow = tradeFlow(() => t, () => admin);

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login();
  ({ wh, loc } = await flow.warehouse('BOW', '欠货仓'));
  listId = await flow.saleList();
});
afterAll(async () => t?.close());

describe('欠货单处理', () => {
  it('lists partly shipped orders with what is owed; closes them in bulk with a reason, releasing the reservation through the ledger', async () => {
    const a = await backOrder(5, 2);
    const b = await backOrder(4, 1);
    const open = await backOrder(6, 1, false);
    const list = await ok(t.call('cdm', BO.list, { pageSize: 50 }, admin));
    const row = (docNo: string) => list.list.find((r: any) => r.docNo === docNo);
    expect(row(a.docNo)).toMatchObject({ totalQty: 5, shippedQty: 3, openQty: 2, reservedQty: 2, openLines: 1, closable: true, owed: `${a.code} 欠货商品${a.code} 欠 2` });
    expect(row(b.docNo)).toMatchObject({ openQty: 1, reservedQty: 1, closable: true });
    expect(row(open.docNo)).toMatchObject({ openQty: 1, closable: false, openPlans: open.planDocNo });
    expect(await committed(a.productId)).toEqual({ onHand: 7, committed: 2 });

    // a reason is needed; nothing changes without one
    const noReason = await t.call('cdm', BO.close, { ids: [a.orderId], reason: ' ' }, admin);
    expect(noReason.code).toBe('COMMON_VALIDATION_4000');
    expect(noReason.msg).toContain('请填写关闭原因');
    // one order of the batch has an open plan: the whole batch is refused, every order unchanged
    const mixed = await t.call('cdm', BO.close, { ids: [a.orderId, open.orderId], reason: '客户不再要余货' }, admin);
    expect(mixed.code).toBe('SALES_OPEN_PLANS_4148');
    expect(mixed.msg).toContain(open.docNo);
    expect((await ok(t.call('oms', SO.get, { id: a.orderId }, admin))).status).toBe('partlyShipped');
    expect(await committed(a.productId)).toEqual({ onHand: 7, committed: 2 });

    const done = await ok(t.call('cdm', BO.close, { ids: [b.orderId, a.orderId], reason: '客户不再要余货' }, admin));
    expect(done).toMatchObject({ closed: 2, releasedQty: 3 });
    expect(done.docNos.sort()).toEqual([a.docNo, b.docNo].sort());
    const closed = await ok(t.call('oms', SO.get, { id: a.orderId }, admin));
    expect(closed).toMatchObject({ status: 'closed', reservedQty: 0, shippedQty: 3 });
    expect(await committed(a.productId)).toEqual({ onHand: 7, committed: 0 });
    expect(await committed(b.productId)).toEqual({ onHand: 7, committed: 0 });
    expect((await verifyStock(t.database.db)).differences).toEqual([]);
    // the reason is in the order's audit trail
    const audit = await t.database.db.selectFrom('auditLog').select(['changes']).where('entity', '=', 'salesOrder').where('recordId', '=', String(a.orderId)).execute();
    expect(audit.map((r) => String(r.changes)).join()).toContain('客户不再要余货');
    // gone from the list; closing again is refused with the order's state
    const after = await ok(t.call('cdm', BO.list, { pageSize: 50 }, admin));
    expect(after.list.map((r: any) => r.docNo)).not.toContain(a.docNo);
    const again = await t.call('cdm', BO.close, { ids: [a.orderId], reason: '再关一次' }, admin);
    expect(again.code).toBe('SYSTEM_BACK_ORDER_NOT_OPEN_4501');
    expect(again.msg).toContain('已关闭');
  });

  it('refuses callers without the right and other companies', async () => {
    const clerk = await t.login('demo', 'clerk');
    expect((await t.call('cdm', BO.list, {}, clerk)).code).toBe('COMMON_NO_RIGHT_4003');
    expect((await t.call('cdm', BO.close, { ids: [1], reason: '不许' }, clerk)).code).toBe('COMMON_NO_RIGHT_4003');
    const c = await backOrder(3, 1);
    const admin2 = await t.login('demo2');
    expect((await ok(t.call('cdm', BO.list, {}, admin2))).list).toEqual([]);
    const foreign = await t.call('cdm', BO.close, { ids: [c.orderId], reason: '别家的单' }, admin2);
    expect(foreign.code).toBe('COMMON_NOT_FOUND_4004');
    expect((await ok(t.call('oms', SO.get, { id: c.orderId }, admin))).status).toBe('partlyShipped');
  });
});

describe('承诺交期 (019812)', () => {
  it('shows open lines against their promise: reserved stock is on time, a passed promise is overdue, no promise is 未承诺', async () => {
    const p = await product();
    const clientId = (await ok(t.call('cdm', '011703', { code: 'PR01', name: '交期客户', priceTitleId: listId, creditLimit: '0' }, admin))).id;
    const order = async (deliveryDate: string | null, qty: number) => {
      const so = await ok(t.call('oms', SO.save, { clientId, warehouseId: wh, deliveryDate, lines: [{ productId: p.id, qty }] }, admin));
      await ok(t.call('oms', SO.confirm, { id: so.id, version: so.version }, admin));
      return so.docNo as string;
    };
    const future = await order('2099-01-01', 3);
    const past = await order('2000-01-01', 2);
    const none = await order(null, 1);
    const list = await ok(t.call('cdm', '019812', { keyword: '交期客户', pageSize: 50 }, admin));
    const by = Object.fromEntries(list.list.map((r: any) => [r.docNo, r]));
    expect(by[future]).toMatchObject({ status: 'onTime', statusText: '按时', openQty: 3, cover: '已预留 3', shortQty: 0, daysLate: null });
    expect(by[past]).toMatchObject({ status: 'overdue', statusText: '已逾期', promised: '2000-01-01' });
    expect(by[past].daysLate).toBeGreaterThan(9000);
    expect(by[none]).toMatchObject({ status: 'unpromised' });
    // served in promise order
    expect(list.list.map((r: any) => r.docNo)).toEqual([past, future, none]);
    const late = await ok(t.call('cdm', '019812', { keyword: '交期客户', filters: { onlyLate: true } }, admin));
    expect(late.list.map((r: any) => r.docNo)).toEqual([past]);
    const clerk = await t.login('demo', 'clerk');
    expect((await t.call('cdm', '019812', {}, clerk)).code).toBe('COMMON_NO_RIGHT_4003');
    expect((await ok(t.call('cdm', '019812', {}, await t.login('demo2')))).total).toBe(0);
  });
});

describe('单据对比 (019813, 019814)', () => {
  it('compares two sales orders field by field and line by line; a number that does not exist is named', async () => {
    const p1 = await product();
    const p2 = await product();
    const clientId = (await ok(t.call('cdm', '011703', { code: 'DF01', name: '对比客户', priceTitleId: listId, creditLimit: '0' }, admin))).id;
    const a = await ok(t.call('oms', SO.save, { clientId, warehouseId: wh, remark: '甲', lines: [{ productId: p1.id, qty: 2 }] }, admin));
    const b = await ok(t.call('oms', SO.save, { clientId, warehouseId: wh, remark: '乙', lines: [{ productId: p1.id, qty: 5 }, { productId: p2.id, qty: 1 }] }, admin));
    const types = await ok(t.call('cdm', '019813', {}, admin));
    expect(types).toEqual(expect.arrayContaining([{ value: 'salesOrder', label: '销售订单' }]));
    const d = await ok(t.call('cdm', '019814', { filters: { type: 'salesOrder', left: a.docNo, right: b.docNo, onlyDifferent: true } }, admin));
    const rows = d.list.map((r: any) => [r.place, r.field, r.left, r.right, r.diff]);
    expect(rows).toEqual(expect.arrayContaining([
      ['表头', '备注', '甲', '乙', '不同'],
      ['第 1 行', '数量', '2', '5', '不同'],
      ['第 2 行', '商品', '（无此行）', `${p2.code} 欠货商品${p2.code}`, '新增'],
    ]));
    expect(rows.some((r: any[]) => r[1] === '客户')).toBe(false);
    const all = await ok(t.call('cdm', '019814', { filters: { type: 'salesOrder', left: a.docNo, right: b.docNo } }, admin));
    expect(all.list.find((r: any) => r.field === '客户')).toMatchObject({ left: 'DF01 对比客户', same: true });
    const bad = await t.call('cdm', '019814', { filters: { type: 'salesOrder', left: a.docNo, right: 'SO-NONE' } }, admin);
    expect(bad.code).toBe('COMMON_VALIDATION_4000');
    expect(bad.msg).toContain('销售订单 SO-NONE 不存在');
    // another company's number does not exist there
    expect((await t.call('cdm', '019814', { filters: { type: 'salesOrder', left: a.docNo, right: b.docNo } }, await t.login('demo2'))).code).toBe('COMMON_VALIDATION_4000');
    expect((await t.call('cdm', '019814', {}, await t.login('demo', 'clerk'))).code).toBe('COMMON_NO_RIGHT_4003');
  });
  it('compares two versions of one order from its audit trail; a version that does not exist is named', async () => {
    const p1 = await product();
    const p2 = await product();
    const clientId = (await ok(t.call('cdm', '011703', { code: 'DV01', name: '版本客户', priceTitleId: listId, creditLimit: '0' }, admin))).id;
    const v1 = await ok(t.call('oms', SO.save, { clientId, warehouseId: wh, remark: '初版', lines: [{ productId: p1.id, qty: 2 }] }, admin));
    const v2 = await ok(t.call('oms', SO.save, { id: v1.id, version: v1.version, clientId, warehouseId: wh, remark: '改过', lines: [{ productId: p1.id, qty: 2 }, { productId: p2.id, qty: 1 }] }, admin));
    await ok(t.call('oms', SO.confirm, { id: v2.id, version: v2.version }, admin));
    const rows = (d: any) => Object.fromEntries(d.list.map((r: any) => [r.field, [r.left, r.right, r.diff]]));
    // only the first number: the previous version against the current one (the confirmation)
    const last = await ok(t.call('cdm', '019814', { filters: { type: 'salesOrder', left: v1.docNo } }, admin));
    expect(last).toMatchObject({ versions: 3, leftVersion: 2, rightVersion: 3, leftDocNo: v1.docNo, rightDocNo: v1.docNo });
    expect(last.list[0]).toMatchObject({ place: '版本', left: expect.stringMatching(/^第 2 版 · .* admin 修改$/), right: expect.stringMatching(/^第 3 版 · .* admin 确认$/) });
    expect(rows(last)['状态']).toEqual(['草稿', '已确认', '不同']);
    expect(rows(last)['备注']).toEqual(['改过', '改过', '']);
    // what the system keeps (已预留) is not history: not shown as if it were
    expect(rows(last)['已预留']).toBeUndefined();
    // the first version against the second, only what differs
    const first = await ok(t.call('cdm', '019814', { filters: { type: 'salesOrder', left: v1.docNo, right: v1.docNo, leftVersion: 1, rightVersion: 2, onlyDifferent: true } }, admin));
    expect(rows(first)['备注']).toEqual(['初版', '改过', '不同']);
    expect(rows(first)['明细行数']).toEqual(['1', '2', '不同']);
    expect(rows(first)['状态']).toBeUndefined();
    expect(first.different).toBe(first.list.length - 1);
    const bad = await t.call('cdm', '019814', { filters: { type: 'salesOrder', left: v1.docNo, rightVersion: 9 } }, admin);
    expect(bad.code).toBe('COMMON_VALIDATION_4000');
    expect(bad.msg).toContain('没有第 9 版（共 3 版）');
    expect((await t.call('cdm', '019814', { filters: { type: 'salesOrder', left: v1.docNo } }, await t.login('demo2'))).code).toBe('COMMON_VALIDATION_4000');
  });
});
