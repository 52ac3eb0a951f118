// Receiving on the order itself while an inbound plan's task still expects goods (SQLite, or PostgreSQL
// when DATABASE_URL is set): what the open task expects is already counted as inbound, so a note without
// the task may only take what is left beside it (within the over-receipt multiple, 1.1 for demo); the
// task's own receipts are unaffected, and once the task is done the order takes direct receipts again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let demo: string;
let wh1: number;
let supplierId: number;

const PO = { get: '020202', save: '020203', confirm: '020205', close: '020207' };
const RN = { save: '021403', post: '021404' };
const PL = { save: '021203', confirm: '021204' };
const TK = { get: '021302', close: '021304' };
const INVENTORY = '011301';
const SOURCE = '021407';


beforeAll(async () => {
  t = await startTestServer({ LOGIN_MAX_FAILURES: '1000', LOGIN_MAX_FAILURES_PER_IP: '100000' });
  demo = await t.login('demo', 'admin', 'demo123');
  wh1 = (await ok(t.call('cdm', '011001', { page: 1, pageSize: 10 }, demo))).list[0].id;
  supplierId = (await ok(t.call('cdm', '011601', { page: 1, pageSize: 10 }, demo))).list[0].id;
});

afterAll(async () => {
  await t?.close();
});

describe('receiving on an order that has an open inbound task', () => {
  it('refuses what the task still expects, names the task and what may be received, and changes nothing', async () => {
    const p = await ok(t.call('cdm', '010203', { code: 'RPL0001', name: '计划收货测试商品', unitSmall: '个', midQty: 1, bigQty: 1 }, demo));
    const po0 = await ok(t.call('oms', PO.save, { supplierId, warehouseId: wh1, expectedDate: '2026-12-01', lines: [{ productId: p.id, qty: 100, price: 1 }] }, demo));
    await ok(t.call('oms', PO.confirm, { id: po0.id, version: po0.version }, demo));
    const po = await ok(t.call('oms', PO.get, { id: po0.id }, demo));
    const line = po.lines[0];
    const plan = await ok(t.call('oms', PL.save, { orderId: po.id, lines: [{ orderLineId: line.id, qty: 60 }] }, demo));
    const { taskId } = await ok(t.call('oms', PL.confirm, { id: plan.id, version: plan.version }, demo));
    const task = await ok(t.call('oms', TK.get, { id: taskId }, demo));
    // The new receiving note on the order offers only what the task does not expect; on the task, the task's part.
    expect((await ok(t.call('oms', SOURCE, { orderId: po.id }, demo))).lines[0]).toMatchObject({ orderedQty: 100, openQty: 40 });
    expect((await ok(t.call('oms', SOURCE, { orderId: po.id, taskId }, demo))).lines[0]).toMatchObject({ openQty: 60 });

    // 0 received + 60 expected by the task + 51 > 110 (100 × 1.1)
    const refused = await t.call('oms', RN.save, { orderId: po.id, post: true, lines: [{ orderLineId: line.id, countedQty: 51 }] }, demo);
    expect(refused.code).toBe('INBOUND_PLANNED_RECEIPT_4119');
    expect(refused.msg).toBe(`采购订单 ${po.docNo} 第 1 行商品 RPL0001 有 60 在入库任务 ${task.docNo} 中待收货，请在入库任务中收货；不按入库任务本次 51，最多还可收 50`);
    expect(refused.data).toMatchObject({ planned: 60, qty: 51, left: 50 });
    expect((await ok(t.call('oms', PO.get, { id: po.id }, demo))).lines[0].receivedQty).toBe(0);

    // A draft saved on the order is refused when it is posted, too.
    const draft = await ok(t.call('oms', RN.save, { orderId: po.id, lines: [{ orderLineId: line.id, countedQty: 51 }] }, demo));
    const late = await t.call('oms', RN.post, { id: draft.id, version: draft.version }, demo);
    expect(late.code).toBe('INBOUND_PLANNED_RECEIPT_4119');

    // What is left beside the task may be received on the order.
    await ok(t.call('oms', RN.save, { orderId: po.id, post: true, lines: [{ orderLineId: line.id, countedQty: 30 }] }, demo));
    const stock = await ok(t.call('cdm', INVENTORY, { page: 1, pageSize: 10, productId: p.id, warehouseId: wh1 }, demo));
    expect(stock.list[0]).toMatchObject({ onHand: 30, inbound: 60 });
    const rest = await t.call('oms', RN.save, { orderId: po.id, post: true, lines: [{ orderLineId: line.id, countedQty: 21 }] }, demo);
    expect(rest.data).toMatchObject({ planned: 60, qty: 21, left: 20 });

    // The task's own receipts go on; when it is done, the order takes direct receipts again.
    await ok(t.call('oms', RN.save, { orderId: po.id, taskId, post: true, lines: [{ orderLineId: line.id, countedQty: 60 }] }, demo));
    expect(await ok(t.call('oms', TK.get, { id: taskId }, demo))).toMatchObject({ status: 'done' });
    await ok(t.call('oms', RN.save, { orderId: po.id, post: true, lines: [{ orderLineId: line.id, countedQty: 20 }] }, demo));
    const after = await ok(t.call('cdm', INVENTORY, { page: 1, pageSize: 10, productId: p.id, warehouseId: wh1 }, demo));
    expect(after.list[0]).toMatchObject({ onHand: 110, inbound: 0 });
  });

  it('an order with an open task cannot be closed until the task is; a closed task offers nothing to receive', async () => {
    const p = await ok(t.call('cdm', '010203', { code: 'RPL0002', name: '关闭订单测试商品', unitSmall: '个', midQty: 1, bigQty: 1 }, demo));
    const po0 = await ok(t.call('oms', PO.save, { supplierId, warehouseId: wh1, expectedDate: '2026-12-01', lines: [{ productId: p.id, qty: 10, price: 1 }] }, demo));
    await ok(t.call('oms', PO.confirm, { id: po0.id, version: po0.version }, demo));
    const line = (await ok(t.call('oms', PO.get, { id: po0.id }, demo))).lines[0];
    await ok(t.call('oms', RN.save, { orderId: po0.id, post: true, lines: [{ orderLineId: line.id, countedQty: 5 }] }, demo));
    const plan = await ok(t.call('oms', PL.save, { orderId: po0.id, lines: [{ orderLineId: line.id, qty: 5 }] }, demo));
    const { taskId } = await ok(t.call('oms', PL.confirm, { id: plan.id, version: plan.version }, demo));
    const task = await ok(t.call('oms', TK.get, { id: taskId }, demo));

    const refused = await t.call('oms', PO.close, { id: po0.id }, demo);
    expect(refused.code).toBe('PURCHASE_OPEN_TASKS_4099');
    expect(refused.msg).toBe(`采购订单 ${po0.docNo} 还有未完成的入库任务 ${task.docNo}，请先在入库任务中收货完成或关闭任务，再关闭订单`);
    expect((await ok(t.call('oms', PO.get, { id: po0.id }, demo))).status).toBe('partlyReceived');

    await ok(t.call('oms', TK.close, { id: taskId, reason: '供应商缺货' }, demo));
    const source = await t.call('oms', SOURCE, { orderId: po0.id, taskId }, demo);
    expect(source.code).toBe('PURCHASE_DOC_STATUS_4091');
    expect(source.msg).toBe(`入库任务 ${task.docNo} 当前状态为“已关闭”，不能收货`);
    expect(await ok(t.call('oms', PO.close, { id: po0.id }, demo))).toMatchObject({ status: 'closed' });
  });

  it('a product never stocked in the warehouse shows what an open task expects as inbound', async () => {
    const p = await ok(t.call('cdm', '010203', { code: 'RPL0003', name: '首次采购商品', unitSmall: '个', midQty: 1, bigQty: 1 }, demo));
    const po0 = await ok(t.call('oms', PO.save, { supplierId, warehouseId: wh1, expectedDate: '2026-12-01', lines: [{ productId: p.id, qty: 12, price: 1 }] }, demo));
    await ok(t.call('oms', PO.confirm, { id: po0.id, version: po0.version }, demo));
    const line = (await ok(t.call('oms', PO.get, { id: po0.id }, demo))).lines[0];
    expect((await ok(t.call('cdm', INVENTORY, { page: 1, pageSize: 10, productId: p.id }, demo))).list).toEqual([]);
    const plan = await ok(t.call('oms', PL.save, { orderId: po0.id, lines: [{ orderLineId: line.id, qty: 12 }] }, demo));
    await ok(t.call('oms', PL.confirm, { id: plan.id, version: plan.version }, demo));
    const stock = await ok(t.call('cdm', INVENTORY, { page: 1, pageSize: 10, productId: p.id }, demo));
    expect(stock.list).toHaveLength(1);
    expect(stock.list[0]).toMatchObject({ productCode: 'RPL0003', warehouseId: wh1, onHand: 0, available: 0, inbound: 12 });
  });
});
