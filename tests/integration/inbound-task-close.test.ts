// Closing a short-delivered inbound task (oms 021304) on a real database (SQLite, or PostgreSQL when
// DATABASE_URL is set): the reason is required; the task and its plan become 已关闭; what the task still
// expected is no longer 在途 and goes back to the order (plannable again, receivable on the order
// itself); no more receipts against the task; reversing a receipt of a closed task gives that part back
// too; state, version and draft-note refusals; the audit trail; rights and companies. Also: the audit
// trails of inbound plans and purchase invoices name the order, container and supplier, not their ids.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let demo: string;
let demo2: string;
let clerk: string;
let wh1: number;
let supplierId: number;
let supplierName: string;

const PO = { get: '020202', save: '020203', confirm: '020205', cancel: '020206' };
const RN = { save: '021403', post: '021404', cancel: '021405' };
const PL = { get: '021202', save: '021203', confirm: '021204', plannable: '021206' };
const TK = { list: '021301', get: '021302', cancel: '021303', close: '021304' };
const AUDIT = '019702';


let seq = 0;
async function product(): Promise<{ id: number; code: string }> {
  const code = `CLS${String(++seq).padStart(4, '0')}`;
  const p = await ok(t.call('cdm', '010203', { code, name: `关闭任务测试商品${seq}`, unitBig: '箱', unitMid: '盒', unitSmall: '个', midQty: 6, bigQty: 24 }, demo));
  return { id: p.id, code };
}

async function confirmedPo(lines: Array<Record<string, unknown>>) {
  const po = await ok(t.call('oms', PO.save, { supplierId, warehouseId: wh1, expectedDate: '2026-12-01', lines: lines.map((l) => ({ price: 1, ...l })) }, demo));
  await ok(t.call('oms', PO.confirm, { id: po.id, version: po.version }, demo));
  return ok(t.call('oms', PO.get, { id: po.id }, demo));
}

/** A confirmed order planned in full into one task. */
async function taskFor(lines: Array<Record<string, unknown>>) {
  const po = await confirmedPo(lines);
  const plan = await ok(t.call('oms', PL.save, { orderId: po.id, lines: po.lines.map((l: any) => ({ orderLineId: l.id, qty: l.qty })) }, demo));
  const c = await ok(t.call('oms', PL.confirm, { id: plan.id }, demo));
  return { po, plan, taskId: c.taskId as number, taskDocNo: c.taskDocNo as string };
}

/** A product with a stock row in wh1 (the inventory list shows product × warehouse rows that have stock). */
async function stocked(): Promise<{ id: number; code: string }> {
  const p = await product();
  const po = await confirmedPo([{ productId: p.id, qty: 1 }]);
  await ok(t.call('oms', RN.save, { orderId: po.id, post: true, lines: [{ orderLineId: po.lines[0].id, countedQty: 1 }] }, demo));
  return p;
}

const left = async (orderId: number) => (await ok(t.call('oms', PL.plannable, { orderId }, demo))).lines.map((l: any) => l.leftQty);
const inbound = async (productId: number) => (await ok(t.call('cdm', '011301', { page: 1, pageSize: 10, filters: { productId, warehouseId: wh1 } }, demo))).list[0]?.inbound ?? 0;
const close = (body: Record<string, unknown>, token = demo) => t.call('oms', TK.close, body, token);

beforeAll(async () => {
  t = await startTestServer({ LOGIN_MAX_FAILURES: '1000', LOGIN_MAX_FAILURES_PER_IP: '100000' });
  demo = await t.login('demo', 'admin', 'demo123');
  demo2 = await t.login('demo2', 'admin', 'demo123');
  clerk = await t.login('demo', 'clerk', 'demo123');
  wh1 = (await ok(t.call('cdm', '011001', { page: 1, pageSize: 10 }, demo))).list[0].id;
  const supplier = (await ok(t.call('cdm', '011601', { page: 1, pageSize: 10 }, demo))).list[0];
  supplierId = supplier.id;
  supplierName = supplier.name;
});

afterAll(async () => {
  await t?.close();
});

describe('closing a short-delivered inbound task', () => {
  it('closes a partly received task with its plan and releases what it still expected', async () => {
    const a = await stocked();
    const b = await stocked();
    const { po, plan, taskId, taskDocNo } = await taskFor([{ productId: a.id, big: 2 }, { productId: b.id, qty: 30 }]);
    const [la, lb] = po.lines;
    const received = await ok(t.call('oms', RN.save, { orderId: po.id, taskId, post: true, lines: [{ orderLineId: la.id, countedQty: 20 }] }, demo));
    expect(await inbound(a.id)).toBe(28);
    expect(await inbound(b.id)).toBe(30);
    const before = await ok(t.call('oms', TK.get, { id: taskId }, demo));
    expect(before).toMatchObject({ status: 'receiving', openQty: 58, releasedQty: 0, closeReason: null });

    // the reason is required; the version must be current; unposted notes of the task come first
    expect(await close({ id: taskId })).toMatchObject({ code: 'COMMON_VALIDATION_4000', msg: '关闭原因不能为空' });
    expect(await close({ id: taskId, reason: '   ' })).toMatchObject({ code: 'COMMON_VALIDATION_4000', msg: '请填写关闭原因' });
    expect(await close({ id: taskId, reason: 'x'.repeat(501) })).toMatchObject({ code: 'COMMON_VALIDATION_4000', msg: '关闭原因长度不能超过 500 个字符' });
    expect(await close({ id: taskId, version: before.version + 1, reason: '供应商短交' }))
      .toMatchObject({ code: 'COMMON_VERSION_CONFLICT_4009', msg: '入库任务已被其他人修改，请刷新后重试' });
    const draft = await ok(t.call('oms', RN.save, { orderId: po.id, taskId, lines: [{ orderLineId: lb.id, countedQty: 5 }] }, demo));
    expect(await close({ id: taskId, reason: '供应商短交' }))
      .toMatchObject({ code: 'INBOUND_TASK_DRAFT_NOTES_4115', msg: `入库任务 ${taskDocNo} 还有未过账的收货单 ${draft.docNo}，请先过账或作废后再关闭` });
    await ok(t.call('oms', RN.cancel, { id: draft.id }, demo));

    const closed = await ok(close({ id: taskId, version: before.version, reason: ' 供应商短交，余量不再发货 ' }));
    expect(closed).toMatchObject({
      id: taskId, docNo: taskDocNo, status: 'closed', statusText: '已关闭', version: before.version + 1, receivedQty: 20, releasedQty: 58,
      planId: plan.id, planDocNo: plan.docNo, planStatus: 'closed',
    });
    const task = await ok(t.call('oms', TK.get, { id: taskId }, demo));
    expect(task).toMatchObject({ status: 'closed', statusText: '已关闭', totalQty: 78, receivedQty: 20, openQty: 0, releasedQty: 58, closeReason: '供应商短交，余量不再发货', closedByName: 'admin' });
    expect(task.closedAt).toBeTruthy();
    expect(task.lines.map((l: any) => [l.qty, l.receivedQty, l.openQty, l.releasedQty])).toEqual([[48, 20, 0, 28], [30, 0, 0, 30]]);
    expect(await ok(t.call('oms', PL.get, { id: plan.id }, demo))).toMatchObject({
      status: 'closed', statusText: '已关闭', taskStatus: 'closed', taskStatusText: '已关闭', receivedQty: 20, closeReason: '供应商短交，余量不再发货',
    });
    expect((await ok(t.call('oms', TK.list, { page: 1, pageSize: 5, filters: { status: 'closed', orderId: po.id } }, demo))).list.map((r: any) => r.docNo)).toEqual([taskDocNo]);

    // no longer 在途; the rest of the order can be planned again
    expect(await inbound(a.id)).toBe(0);
    expect(await inbound(b.id)).toBe(0);
    expect(await left(po.id)).toEqual([28, 30]);
    // the order itself is untouched: partly received, the purchaser decides whether to close it
    expect(await ok(t.call('oms', PO.get, { id: po.id }, demo))).toMatchObject({ status: 'partlyReceived' });

    // no more receipts against the task; on the order itself they are taken
    expect(await t.call('oms', RN.save, { orderId: po.id, taskId, lines: [{ orderLineId: lb.id, countedQty: 1 }] }, demo))
      .toMatchObject({ code: 'PURCHASE_DOC_STATUS_4091', msg: `入库任务 ${taskDocNo} 当前状态为“已关闭”，不能收货` });
    await ok(t.call('oms', RN.save, { orderId: po.id, post: true, lines: [{ orderLineId: lb.id, countedQty: 10 }] }, demo));

    // closed is final: neither closed again nor cancelled
    expect(await close({ id: taskId, reason: '再关一次' })).toMatchObject({ code: 'PURCHASE_DOC_STATUS_4091', msg: `入库任务 ${taskDocNo} 当前状态为“已关闭”，不能关闭` });
    expect((await t.call('oms', TK.cancel, { id: taskId }, demo)).msg).toBe(`入库任务 ${taskDocNo} 当前状态为“已关闭”，不能作废`);

    // reversing a receipt of the closed task gives its part back to the order as well
    await ok(t.call('oms', RN.cancel, { id: received.id }, demo));
    expect(await ok(t.call('oms', TK.get, { id: taskId }, demo))).toMatchObject({ status: 'closed', receivedQty: 0, releasedQty: 78 });
    expect(await left(po.id)).toEqual([48, 30]);
    expect(await inbound(a.id)).toBe(0);

    // the audit trail says who closed it, from which state and why
    const trail = await ok(t.call('cdm', AUDIT, { page: 1, filters: { entity: 'inboundTask', recordId: String(taskId) }, sort: { field: 'at', order: 'ascend' } }, demo));
    expect(trail.list.map((x: any) => x.action)).toEqual(['create', 'close']);
    expect(trail.list[1].changes).toEqual([
      { field: 'status', title: '状态', from: '收货中', to: '已关闭' },
      { field: 'closeReason', title: '关闭原因', from: null, to: '供应商短交，余量不再发货' },
      { field: 'releasedQty', title: '释放未收数量', from: null, to: 58 },
    ]);
    const planTrail = await ok(t.call('cdm', AUDIT, { page: 1, filters: { entity: 'inboundPlan', recordId: String(plan.id) }, sort: { field: 'at', order: 'ascend' } }, demo));
    expect(planTrail.list.map((x: any) => x.action)).toEqual(['create', 'confirm', 'close']);
    expect(planTrail.list[2].changes[0]).toEqual({ field: 'status', title: '状态', from: '已确认', to: '已关闭' });
  });

  it('closes a task with nothing received: the whole plan goes back, and a new plan can take it', async () => {
    const a = await stocked();
    const { po, plan, taskId } = await taskFor([{ productId: a.id, qty: 12 }]);
    expect(await inbound(a.id)).toBe(12);
    expect(await ok(close({ id: taskId, reason: '供应商取消发货' }))).toMatchObject({ status: 'closed', receivedQty: 0, releasedQty: 12 });
    expect(await inbound(a.id)).toBe(0);
    expect(await left(po.id)).toEqual([12]);
    expect((await ok(t.call('oms', PL.get, { id: plan.id }, demo))).status).toBe('closed');
    const again = await ok(t.call('oms', PL.save, { orderId: po.id, lines: [{ orderLineId: po.lines[0].id, qty: 12 }] }, demo));
    const c = await ok(t.call('oms', PL.confirm, { id: again.id }, demo));
    expect(await inbound(a.id)).toBe(12);
    // a closed plan does not hold the order: once the new plan is cancelled, the order can be cancelled
    await ok(t.call('oms', TK.cancel, { id: c.taskId }, demo));
    await ok(t.call('oms', PO.cancel, { id: po.id }, demo));
  });

  it('refuses closing a done or cancelled task, an unknown one, the clerk and another company', async () => {
    const a = await product();
    const done = await taskFor([{ productId: a.id, qty: 5 }]);
    await ok(t.call('oms', RN.save, { orderId: done.po.id, taskId: done.taskId, post: true, lines: [{ orderLineId: done.po.lines[0].id, countedQty: 5 }] }, demo));
    expect((await close({ id: done.taskId, reason: '短交' })).msg).toBe(`入库任务 ${done.taskDocNo} 当前状态为“已完成”，不能关闭`);
    const gone = await taskFor([{ productId: a.id, qty: 5 }]);
    await ok(t.call('oms', TK.cancel, { id: gone.taskId }, demo));
    expect((await close({ id: gone.taskId, reason: '短交' })).msg).toBe(`入库任务 ${gone.taskDocNo} 当前状态为“已作废”，不能关闭`);
    expect(await close({ id: 99999999, reason: '短交' })).toMatchObject({ code: 'COMMON_NOT_FOUND_4004', msg: '入库任务不存在或已被删除' });

    const open = await taskFor([{ productId: a.id, qty: 5 }]);
    expect(await close({ id: open.taskId, reason: '短交' }, clerk)).toMatchObject({ code: 'COMMON_NO_RIGHT_4003', msg: '无权限执行“关闭入库任务”，请联系管理员授权' });
    expect(await close({ id: open.taskId, reason: '短交' }, demo2)).toMatchObject({ code: 'COMMON_NOT_FOUND_4004' });
    expect(await ok(t.call('oms', TK.get, { id: open.taskId }, demo))).toMatchObject({ status: 'open', openQty: 5 });
  });

  it('lets one of a close and a receipt racing for the same task win, never both half', async () => {
    const a = await product();
    const { po, taskId } = await taskFor([{ productId: a.id, qty: 10 }]);
    const [c, r] = await Promise.all([
      close({ id: taskId, reason: '短交' }),
      t.call('oms', RN.save, { orderId: po.id, taskId, post: true, lines: [{ orderLineId: po.lines[0].id, countedQty: 4 }] }, demo),
    ]);
    const task = await ok(t.call('oms', TK.get, { id: taskId }, demo));
    expect(c.code).toBe('200');
    expect(task.status).toBe('closed');
    // the receipt either came first (and the close released the rest) or was refused by the closed task
    if (r.code === '200') expect([task.receivedQty, task.releasedQty, await left(po.id)]).toEqual([4, 6, [6]]);
    else {
      expect(r.msg).toContain('当前状态为“已关闭”，不能收货');
      expect([task.receivedQty, task.releasedQty, await left(po.id)]).toEqual([0, 10, [10]]);
    }
  });
});

describe('audit trails of plans and invoices', () => {
  const trail = async (entity: string, id: number) =>
    (await ok(t.call('cdm', AUDIT, { page: 1, filters: { entity, recordId: String(id) }, sort: { field: 'at', order: 'ascend' } }, demo))).list;

  it('name the order and the container of a plan, and the supplier of an invoice', async () => {
    const a = await product();
    const po = await confirmedPo([{ productId: a.id, qty: 10 }]);
    const box = await ok(t.call('oms', '021603', { containerNo: 'AUDU1234567', containerType: '40HQ', eta: '2026-12-20' }, demo));
    const plan = await ok(t.call('oms', PL.save, { orderId: po.id, containerId: box.id, lines: [{ orderLineId: po.lines[0].id, qty: 10 }] }, demo));
    expect((await trail('inboundPlan', plan.id))[0].changes).toEqual([
      { field: 'orderId', title: '采购订单', from: null, to: po.docNo },
      { field: 'containerId', title: '集装箱', from: null, to: 'AUDU1234567' },
      { field: 'expectedDate', title: '预计到货日期', from: null, to: '2026-12-20' },
      { field: 'totalQty', title: '计划数量', from: null, to: 10 },
    ]);
    const noBox = await ok(t.call('oms', PL.save, { id: plan.id, version: plan.version, orderId: po.id, lines: [{ orderLineId: po.lines[0].id, qty: 4 }] }, demo));
    // an edit records what changed, from what it was
    expect((await trail('inboundPlan', noBox.id))[1].changes).toEqual([
      { field: 'containerId', title: '集装箱', from: 'AUDU1234567', to: null },
      // without the container the plan expects the goods when the order does
      { field: 'expectedDate', title: '预计到货日期', from: '2026-12-20', to: po.expectedDate },
      { field: 'totalQty', title: '计划数量', from: 10, to: 4 },
    ]);

    const rn = await ok(t.call('oms', RN.save, { orderId: po.id, post: true, lines: [{ orderLineId: po.lines[0].id, countedQty: 6 }] }, demo));
    const note = await ok(t.call('oms', '021402', { id: rn.id }, demo));
    const inv = await ok(t.call('oms', '020303', { supplierId, invoiceNo: 'AUD-0001', lines: [{ receivingLineId: note.lines[0].id, qty: 6 }] }, demo));
    expect((await trail('purchaseInvoice', inv.id))[0].changes).toEqual([
      { field: 'supplierId', title: '供应商', from: null, to: supplierName },
      { field: 'invoiceNo', title: '发票号', from: null, to: 'AUD-0001' },
      { field: 'totalQty', title: '数量合计', from: null, to: 6 },
      { field: 'totalAmount', title: '金额合计', from: null, to: '6.00' },
    ]);
  });
});
