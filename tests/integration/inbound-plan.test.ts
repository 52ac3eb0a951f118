// Inbound planning on a real database (SQLite, or PostgreSQL when DATABASE_URL is set): a confirmed
// purchase order → an inbound plan (optionally in a container) → confirming creates the inbound task →
// receiving notes made against the task move it on; planned quantities never pass the order (also for
// plans racing each other); cancel rules; container states, types and numbers; rights; companies apart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let demo: string;
let demo2: string;
let clerk: string;
let wh1: number;
let supplierId: number;

const PO = { get: '020202', save: '020203', confirm: '020205', cancel: '020206', close: '020207' };
const RN = { get: '021402', save: '021403', post: '021404', cancel: '021405' };
const PL = { list: '021201', get: '021202', save: '021203', confirm: '021204', cancel: '021205', plannable: '021206' };
const TK = { list: '021301', get: '021302', cancel: '021303' };
const CT = { list: '021601', get: '021602', save: '021603', arrive: '021604', unload: '021605', wdList: '021606', wdGet: '021607', types: '021608', options: '021609' };
const REL = '025001';


let seq = 0;
async function product(token = demo): Promise<{ id: number; code: string }> {
  const code = `INB${String(++seq).padStart(4, '0')}`;
  const p = await ok(t.call('cdm', '010203', { code, name: `入库计划测试商品${seq}`, unitBig: '箱', unitMid: '盒', unitSmall: '个', midQty: 6, bigQty: 24 }, token));
  return { id: p.id, code };
}

async function confirmedPo(lines: Array<Record<string, unknown>>) {
  const po = await ok(t.call('oms', PO.save, { supplierId, warehouseId: wh1, expectedDate: '2026-12-01', lines: lines.map((l) => ({ price: 1, ...l })) }, demo));
  await ok(t.call('oms', PO.confirm, { id: po.id, version: po.version }, demo));
  return ok(t.call('oms', PO.get, { id: po.id }, demo));
}

let boxSeq = 0;
const boxNo = () => `TEST${String(++boxSeq).padStart(7, '0')}`;
const container = (extra: Record<string, unknown> = {}, token = demo) => t.call('oms', CT.save, { containerNo: boxNo(), containerType: '40HQ', ...extra }, token);
const savePlan = (body: Record<string, unknown>, token = demo) => t.call('oms', PL.save, body, token);
const left = async (orderId: number) => (await ok(t.call('oms', PL.plannable, { orderId }, demo))).lines.map((l: any) => l.leftQty);

beforeAll(async () => {
  t = await startTestServer({ LOGIN_MAX_FAILURES: '1000', LOGIN_MAX_FAILURES_PER_IP: '100000' });
  demo = await t.login('demo', 'admin', 'demo123');
  demo2 = await t.login('demo2', 'admin', 'demo123');
  clerk = await t.login('demo', 'clerk', 'demo123');
  wh1 = (await ok(t.call('cdm', '011001', { page: 1, pageSize: 10 }, demo))).list[0].id;
  supplierId = (await ok(t.call('cdm', '011601', { page: 1, pageSize: 10 }, demo))).list[0].id;
});

afterAll(async () => {
  await t?.close();
});

describe('order → plan → task → receiving', () => {
  it('plans lines into a container, confirms into a task and follows the receipts made against the task', async () => {
    const a = await product();
    const b = await product();
    const po = await confirmedPo([{ productId: a.id, big: 2 }, { productId: b.id, qty: 30 }]);
    const [la, lb] = po.lines;
    const box = await ok(container({ containerNo: ' msku1234567 ', sealNo: 'SEAL-01', eta: '2026-12-20' }));
    expect(box).toMatchObject({ containerNo: 'MSKU1234567', status: 'planned', version: 1 });

    const plannable = await ok(t.call('oms', PL.plannable, { orderId: po.id }, demo));
    expect(plannable).toMatchObject({ orderDocNo: po.docNo, plannable: true, statusText: '已确认' });
    expect(plannable.lines.map((l: any) => [l.qty, l.plannedQty, l.leftQty])).toEqual([[48, 0, 48], [30, 0, 30]]);
    expect(plannable.lines[0].leftUnits).toMatchObject({ big: 2, text: '2箱' });

    const plan = await ok(savePlan({ orderId: po.id, containerId: box.id, lines: [{ orderLineId: la.id, big: 1 }, { orderLineId: lb.id, qty: 30 }] }));
    expect(plan).toMatchObject({ status: 'draft', totalQty: 54, version: 1 });
    expect(plan.docNo).toMatch(/^RP\d{12}$/);
    const draft = await ok(t.call('oms', PL.get, { id: plan.id }, demo));
    expect(draft).toMatchObject({
      status: 'draft', statusText: '草稿', orderDocNo: po.docNo, containerNo: 'MSKU1234567', containerType: '40HQ', expectedDate: '2026-12-20', // from the container's ETA
      taskId: null, route: `/procurement/treasuryPlanDetail/${plan.id}`,
    });
    expect(draft.lines.map((l: any) => [l.orderLineNo, l.qty, l.orderedQty, l.orderPlannedQty])).toEqual([[1, 24, 48, 24], [2, 30, 30, 30]]);
    expect(await left(po.id)).toEqual([24, 0]);

    const confirmed = await ok(t.call('oms', PL.confirm, { id: plan.id, version: plan.version }, demo));
    expect(confirmed).toMatchObject({ status: 'confirmed', version: 2 });
    expect(confirmed.taskDocNo).toMatch(/^RT\d{12}$/);
    const task = await ok(t.call('oms', TK.get, { id: confirmed.taskId }, demo));
    expect(task).toMatchObject({
      docNo: confirmed.taskDocNo, status: 'open', statusText: '待收货', planId: plan.id, planDocNo: plan.docNo, orderDocNo: po.docNo, containerNo: 'MSKU1234567',
      totalQty: 54, receivedQty: 0, openQty: 54, receivingNotes: [], route: `/entrepot/inboundTaskDetail/${confirmed.taskId}`,
    });
    expect(task.lines.map((l: any) => [l.orderLineId, l.qty, l.receivedQty])).toEqual([[la.id, 24, 0], [lb.id, 30, 0]]);
    expect((await ok(t.call('oms', PL.list, { page: 1, pageSize: 10, filters: { containerId: box.id } }, demo))).list.map((p: any) => [p.docNo, p.taskDocNo, p.taskStatusText]))
      .toEqual([[plan.docNo, confirmed.taskDocNo, '待收货']]);
    expect((await ok(t.call('oms', TK.list, { page: 1, pageSize: 10, planId: plan.id }, demo))).list.map((x: any) => x.id)).toEqual([confirmed.taskId]);

    // a first receipt against the task
    const rn1 = await ok(t.call('oms', RN.save, { orderId: po.id, taskId: confirmed.taskId, post: true, lines: [{ orderLineId: la.id, countedQty: 20 }] }, demo));
    expect((await ok(t.call('oms', RN.get, { id: rn1.id }, demo))).taskId).toBe(confirmed.taskId);
    expect(await ok(t.call('oms', TK.get, { id: confirmed.taskId }, demo))).toMatchObject({ status: 'receiving', statusText: '收货中', receivedQty: 20, openQty: 34 });
    expect((await ok(t.call('oms', PL.get, { id: plan.id }, demo))).status).toBe('confirmed');
    // the rest, in a draft posted later
    const rn2 = await ok(t.call('oms', RN.save, { orderId: po.id, taskId: confirmed.taskId, lines: [{ orderLineId: la.id, countedQty: 4 }, { orderLineId: lb.id, countedQty: 30 }] }, demo));
    await ok(t.call('oms', RN.post, { id: rn2.id }, demo));
    const done = await ok(t.call('oms', TK.get, { id: confirmed.taskId }, demo));
    expect(done).toMatchObject({ status: 'done', statusText: '已完成', receivedQty: 54, openQty: 0 });
    expect(done.receivingNotes.map((n: any) => [n.docNo, n.status])).toEqual([[rn1.docNo, 'posted'], [rn2.docNo, 'posted']]);
    const donePlan = await ok(t.call('oms', PL.get, { id: plan.id }, demo));
    expect(donePlan).toMatchObject({ status: 'done', statusText: '已完成', receivedQty: 54, taskStatus: 'done' });
    expect(donePlan.lines.map((l: any) => l.receivedQty)).toEqual([24, 30]);
    expect((await ok(t.call('oms', PO.get, { id: po.id }, demo))).status).toBe('partlyReceived');
    // a finished task takes no more receipts; the order still does without a task
    const more = await t.call('oms', RN.save, { orderId: po.id, taskId: confirmed.taskId, lines: [{ orderLineId: la.id, countedQty: 1 }] }, demo);
    expect(more).toMatchObject({ code: 'PURCHASE_DOC_STATUS_4091', msg: `入库任务 ${confirmed.taskDocNo} 当前状态为“已完成”，不能收货` });
    const rn3 = await ok(t.call('oms', RN.save, { orderId: po.id, post: true, lines: [{ orderLineId: la.id, countedQty: 24 }] }, demo));

    // the chain from any of its numbers: order → plan → task → notes of the task; the other note on the order
    for (const number of [po.docNo, plan.docNo, confirmed.taskDocNo, rn1.docNo]) {
      const rel = await ok(t.call('oms', REL, { docNo: number }, demo));
      expect(rel.chain.map((x: any) => [x.docType, x.number, x.level, x.from])).toEqual([
        ['purchaseOrder', po.docNo, 0, null],
        ['inboundPlan', plan.docNo, 1, po.docNo],
        ['inboundTask', confirmed.taskDocNo, 2, plan.docNo],
        ['receivingNote', rn1.docNo, 3, confirmed.taskDocNo],
        ['receivingNote', rn2.docNo, 3, confirmed.taskDocNo],
        ['receivingNote', rn3.docNo, 1, po.docNo],
      ]);
    }
    const rel = await ok(t.call('oms', REL, { docNo: plan.docNo }, demo));
    expect(rel.found).toEqual({ docType: 'inboundPlan', id: plan.id });
    expect(rel.chain[2]).toMatchObject({ statusText: '已完成', route: `/entrepot/inboundTaskDetail/${confirmed.taskId}` });

    // reversing a receipt of the task reopens it and its plan
    await ok(t.call('oms', RN.cancel, { id: rn2.id }, demo));
    expect(await ok(t.call('oms', TK.get, { id: confirmed.taskId }, demo))).toMatchObject({ status: 'receiving', receivedQty: 20 });
    expect((await ok(t.call('oms', PL.get, { id: plan.id }, demo))).status).toBe('confirmed');
    await ok(t.call('oms', RN.cancel, { id: rn1.id }, demo));
    expect(await ok(t.call('oms', TK.get, { id: confirmed.taskId }, demo))).toMatchObject({ status: 'open', receivedQty: 0 });
  });

  it('never plans more than the order, also for plans racing each other; edits and cancels give quantities back', async () => {
    const a = await product();
    const po = await confirmedPo([{ productId: a.id, qty: 10 }]);
    const line = po.lines[0].id;
    const over = await savePlan({ orderId: po.id, lines: [{ orderLineId: line, qty: 11 }] });
    expect(over).toMatchObject({ code: 'INBOUND_PLAN_OVER_4111', msg: `采购订单 ${po.docNo} 第 1 行商品 ${a.code} 计划数量超出：订购 10，已计划 0，本次 11，最多还可计划 10` });
    const p1 = await ok(savePlan({ orderId: po.id, lines: [{ orderLineId: line, qty: 6 }] }));
    const p2 = await savePlan({ orderId: po.id, lines: [{ orderLineId: line, qty: 5 }] });
    expect(p2.code).toBe('INBOUND_PLAN_OVER_4111');
    expect(p2.msg).toContain('已计划 6，本次 5，最多还可计划 4');
    expect(p2.data).toMatchObject({ ordered: 10, planned: 6, qty: 5, left: 4 });
    // editing a draft counts its own quantity as free
    const e1 = await ok(savePlan({ id: p1.id, version: p1.version, orderId: po.id, lines: [{ orderLineId: line, qty: 10 }] }));
    expect(e1).toMatchObject({ version: 2, totalQty: 10, docNo: p1.docNo });
    expect(await left(po.id)).toEqual([0]);
    expect((await savePlan({ id: p1.id, version: 1, orderId: po.id, lines: [{ orderLineId: line, qty: 1 }] })).code).toBe('COMMON_VERSION_CONFLICT_4009');
    await ok(savePlan({ id: p1.id, version: 2, orderId: po.id, lines: [{ orderLineId: line, qty: 4 }] }));
    expect(await left(po.id)).toEqual([6]);
    // a cancelled draft gives everything back
    await ok(t.call('oms', PL.cancel, { id: p1.id }, demo));
    expect(await left(po.id)).toEqual([10]);

    for (let round = 0; round < 3; round++) {
      const o = await confirmedPo([{ productId: a.id, qty: 10 }]);
      const results = await Promise.all([0, 1].map(() => savePlan({ orderId: o.id, lines: [{ orderLineId: o.lines[0].id, qty: 6 }] })));
      expect(results.map((r) => r.code).sort()).toEqual(['200', 'INBOUND_PLAN_OVER_4111']);
      expect(await left(o.id)).toEqual([4]);
    }
    // many at once: 3 × 3 fit into 10, the rest are refused
    const o = await confirmedPo([{ productId: a.id, qty: 10 }]);
    const many = await Promise.all(Array.from({ length: 6 }, () => savePlan({ orderId: o.id, lines: [{ orderLineId: o.lines[0].id, qty: 3 }] })));
    expect(many.filter((r) => r.code === '200')).toHaveLength(3);
    expect(many.filter((r) => r.code !== '200').every((r) => r.code === 'INBOUND_PLAN_OVER_4111')).toBe(true);
    expect(await left(o.id)).toEqual([1]);
    expect((await ok(t.call('oms', PL.list, { page: 1, pageSize: 50, orderId: o.id }, demo))).total).toBe(3);
  });

  it('refuses cancelling an order while an open plan holds its lines; receiving from a task brings only the task lines', async () => {
    const a = await product();
    const b = await product();
    const po = await confirmedPo([{ productId: a.id, qty: 10 }, { productId: b.id, qty: 5 }]);
    const plan = await ok(savePlan({ orderId: po.id, lines: [{ orderLineId: po.lines[0].id, qty: 4 }] }));
    const refused = await t.call('oms', PO.cancel, { id: po.id }, demo);
    expect(refused.code).toBe('PURCHASE_DEPENDENT_DOCS_4096');
    expect(refused.msg).toContain(plan.docNo);
    const confirmed = await ok(t.call('oms', PL.confirm, { id: plan.id, version: plan.version }, demo));
    const source = await ok(t.call('oms', '021407', { orderId: po.id, taskId: confirmed.taskId }, demo));
    expect(source.lines.map((l: any) => [l.productCode, l.openQty])).toEqual([[a.code, 4]]);
    // on the order itself: what the task still expects is received against the task
    const whole = await ok(t.call('oms', '021407', { orderId: po.id }, demo));
    expect(whole.lines.map((l: any) => [l.productCode, l.openQty])).toEqual([[a.code, 6], [b.code, 5]]);
    await ok(t.call('oms', PL.cancel, { id: plan.id }, demo));
    await ok(t.call('oms', PO.cancel, { id: po.id }, demo));
  });

  it("an order planned in full: the order's 收货 brings the earliest open task's lines and the task, not an empty note", async () => {
    const a = await product();
    const b = await product();
    const po = await confirmedPo([{ productId: a.id, qty: 10 }, { productId: b.id, qty: 5 }]);
    const offered = async () => (await ok(t.call('oms', PO.get, { id: po.id }, demo))).actions.map((x: any) => x.label);
    expect(await offered()).toEqual(expect.arrayContaining(['收货', '入库计划']));
    const p1 = await ok(savePlan({ orderId: po.id, lines: [{ orderLineId: po.lines[0].id, qty: 10 }] }));
    const p2 = await ok(savePlan({ orderId: po.id, lines: [{ orderLineId: po.lines[1].id, qty: 5 }] }));
    const t1 = (await ok(t.call('oms', PL.confirm, { id: p1.id, version: p1.version }, demo))).taskId;
    const t2 = (await ok(t.call('oms', PL.confirm, { id: p2.id, version: p2.version }, demo))).taskId;
    // nothing left to plan: the order says so (its screen no longer offers 入库计划)
    expect((await ok(t.call('oms', PO.get, { id: po.id }, demo))).unplannedQty).toBe(0);
    expect(await offered()).toContain('收货');
    expect(await offered()).not.toContain('入库计划');
    const source = await ok(t.call('oms', '021407', { orderId: po.id }, demo));
    expect(source.taskId).toBe(t1);
    expect(source.lines.map((l: any) => [l.productCode, l.openQty])).toEqual([[a.code, 10]]);
    // what the source proposes saves as it is
    await ok(t.call('oms', RN.save, { orderId: po.id, taskId: source.taskId, post: true, lines: source.lines.map((l: any) => ({ orderLineId: l.orderLineId, countedQty: l.openQty })) }, demo));
    const next = await ok(t.call('oms', '021407', { orderId: po.id }, demo));
    expect(next.taskId).toBe(t2);
    expect(next.lines.map((l: any) => [l.productCode, l.openQty])).toEqual([[b.code, 5]]);
  });

  it('shows what open inbound tasks still expect as 在途 on the inventory list', async () => {
    const a = await product();
    const po = await confirmedPo([{ productId: a.id, qty: 50 }]);
    const plan = await ok(savePlan({ orderId: po.id, lines: [{ orderLineId: po.lines[0].id, qty: 30 }] }));
    const confirmed = await ok(t.call('oms', PL.confirm, { id: plan.id, version: plan.version }, demo));
    await ok(t.call('oms', RN.save, { orderId: po.id, taskId: confirmed.taskId, post: true, lines: [{ orderLineId: po.lines[0].id, countedQty: 26 }] }, demo));
    const row = async () => (await ok(t.call('cdm', '011301', { page: 1, pageSize: 10, filters: { productId: a.id, warehouseId: wh1 } }, demo))).list[0];
    expect(await row()).toMatchObject({ onHand: 26, inbound: 4, inboundUnits: { text: '4个' } });
    // a task received in full expects nothing more
    await ok(t.call('oms', RN.save, { orderId: po.id, taskId: confirmed.taskId, post: true, lines: [{ orderLineId: po.lines[0].id, countedQty: 4 }] }, demo));
    expect(await row()).toMatchObject({ onHand: 30, inbound: 0 });
  });

  it('plans only confirmed or partly received orders, lines of that order, each once, with a quantity', async () => {
    const a = await product();
    const po = await confirmedPo([{ productId: a.id, qty: 10 }, { productId: a.id, qty: 5 }]);
    const draft = await ok(t.call('oms', PO.save, { supplierId, warehouseId: wh1, lines: [{ productId: a.id, qty: 3, price: 1 }] }, demo));
    const dl = (await ok(t.call('oms', PO.get, { id: draft.id }, demo))).lines[0].id;
    expect(await savePlan({ orderId: draft.id, lines: [{ orderLineId: dl, qty: 1 }] }))
      .toMatchObject({ code: 'PURCHASE_DOC_STATUS_4091', msg: `采购订单 ${draft.docNo} 当前状态为“草稿”，不能制定入库计划` });
    expect((await ok(t.call('oms', PL.plannable, { orderId: draft.id }, demo))).plannable).toBe(false);
    expect(await savePlan({ orderId: po.id, lines: [{ orderLineId: dl, qty: 1 }] }))
      .toMatchObject({ code: 'PURCHASE_LINE_MISMATCH_4098', msg: `入库计划第 1 行不属于采购订单 ${po.docNo}` });
    const dup = await savePlan({ orderId: po.id, lines: [{ orderLineId: po.lines[0].id, qty: 1 }, { orderLineId: po.lines[0].id, qty: 2 }] });
    expect(dup).toMatchObject({ code: 'COMMON_VALIDATION_4000', msg: '第 2 行：订单第 1 行重复，请合并为一行' });
    expect((await savePlan({ orderId: po.id, lines: [{ orderLineId: po.lines[0].id, qty: 0 }] })).msg).toBe('第 1 行：计划数量必须大于 0');
    expect((await savePlan({ orderId: po.id, lines: [{ orderLineId: po.lines[0].id }] })).msg).toBe('第 1 行：计划数量不能为空');
    expect((await savePlan({ orderId: po.id, lines: [] })).msg).toBe('请至少添加一行明细');
    expect((await savePlan({ orderId: po.id })).msg).toBe('明细不能为空');
    expect((await savePlan({ orderId: 'abc', lines: [{ orderLineId: 1, qty: 1 }] })).msg).toBe('采购订单必须是整数');
    expect((await savePlan({ orderId: 99999999, lines: [{ orderLineId: 1, qty: 1 }] })).msg).toBe('采购订单不存在');
    expect((await savePlan({ orderId: po.id, expectedDate: '2026-02-30', lines: [{ orderLineId: po.lines[0].id, qty: 1 }] })).msg).toBe('预计到货日期不是有效的日期（YYYY-MM-DD）');
    expect((await savePlan({ orderId: po.id, containerId: 99999999, lines: [{ orderLineId: po.lines[0].id, qty: 1 }] })).msg).toBe('集装箱不存在');
    // a closed order cannot be planned any more
    await ok(t.call('oms', RN.save, { orderId: po.id, post: true, lines: [{ orderLineId: po.lines[0].id, countedQty: 1 }] }, demo));
    const p = await ok(savePlan({ orderId: po.id, lines: [{ orderLineId: po.lines[0].id, qty: 2 }] }));
    await ok(t.call('oms', PO.close, { id: po.id }, demo));
    expect((await t.call('oms', PL.confirm, { id: p.id }, demo)).msg).toBe(`采购订单 ${po.docNo} 当前状态为“已关闭”，不能确认入库计划`);
    expect((await ok(t.call('oms', PL.get, { id: p.id }, demo))).status).toBe('draft');
  });
});

describe('cancel rules', () => {
  it('refuses cancelling a plan or task with receiving notes or receipts; cancelling either side cancels both', async () => {
    const a = await product();
    const po = await confirmedPo([{ productId: a.id, qty: 10 }]);
    const line = po.lines[0].id;
    const plan = await ok(savePlan({ orderId: po.id, lines: [{ orderLineId: line, qty: 8 }] }));
    const c = await ok(t.call('oms', PL.confirm, { id: plan.id }, demo));
    expect((await t.call('oms', PL.confirm, { id: plan.id }, demo)).msg).toBe(`入库计划 ${plan.docNo} 当前状态为“已确认”，不能确认`);
    expect((await savePlan({ id: plan.id, version: c.version, orderId: po.id, lines: [{ orderLineId: line, qty: 1 }] })).code).toBe('PURCHASE_DOC_STATUS_4091');

    // a draft note against the task blocks both cancellations
    const note = await ok(t.call('oms', RN.save, { orderId: po.id, taskId: c.taskId, lines: [{ orderLineId: line, countedQty: 3 }] }, demo));
    const r1 = await t.call('oms', PL.cancel, { id: plan.id }, demo);
    expect(r1).toMatchObject({ code: 'PURCHASE_DEPENDENT_DOCS_4096', msg: `入库计划 ${plan.docNo} 已有后续单据 ${note.docNo}，请先作废后续单据` });
    expect((await t.call('oms', TK.cancel, { id: c.taskId }, demo)).msg).toBe(`入库任务 ${c.taskDocNo} 已有后续单据 ${note.docNo}，请先作废后续单据`);
    // posted: the task has receipts
    await ok(t.call('oms', RN.post, { id: note.id }, demo));
    expect((await t.call('oms', TK.cancel, { id: c.taskId }, demo)).msg).toBe(`入库任务 ${c.taskDocNo} 当前状态为“收货中”，不能作废`);
    expect((await t.call('oms', PL.cancel, { id: plan.id }, demo)).code).toBe('PURCHASE_DEPENDENT_DOCS_4096');
    expect((await ok(t.call('oms', PL.get, { id: plan.id }, demo))).status).toBe('confirmed');
    expect(await left(po.id)).toEqual([2]);
    // reversed: the task can go, and takes its plan with it
    await ok(t.call('oms', RN.cancel, { id: note.id }, demo));
    const task = await ok(t.call('oms', TK.get, { id: c.taskId }, demo));
    expect((await t.call('oms', TK.cancel, { id: c.taskId, version: task.version + 1 }, demo)).code).toBe('COMMON_VERSION_CONFLICT_4009');
    const tc = await ok(t.call('oms', TK.cancel, { id: c.taskId, version: task.version }, demo));
    expect(tc).toMatchObject({ status: 'cancelled', planId: plan.id, planDocNo: plan.docNo });
    expect(await ok(t.call('oms', PL.get, { id: plan.id }, demo))).toMatchObject({ status: 'cancelled', taskStatus: 'cancelled' });
    expect(await left(po.id)).toEqual([10]);
    expect((await t.call('oms', PL.cancel, { id: plan.id }, demo)).msg).toBe(`入库计划 ${plan.docNo} 当前状态为“已作废”，不能作废`);
    expect((await t.call('oms', TK.cancel, { id: c.taskId }, demo)).msg).toBe(`入库任务 ${c.taskDocNo} 当前状态为“已作废”，不能作废`);
    // a cancelled task takes no receipts
    expect((await t.call('oms', RN.save, { orderId: po.id, taskId: c.taskId, lines: [{ orderLineId: line, countedQty: 1 }] }, demo)).msg)
      .toBe(`入库任务 ${c.taskDocNo} 当前状态为“已作废”，不能收货`);

    // from the plan's side: the task goes with it
    const p2 = await ok(savePlan({ orderId: po.id, lines: [{ orderLineId: line, qty: 10 }] }));
    const c2 = await ok(t.call('oms', PL.confirm, { id: p2.id }, demo));
    await ok(t.call('oms', PL.cancel, { id: p2.id, version: c2.version }, demo));
    expect((await ok(t.call('oms', TK.get, { id: c2.taskId }, demo))).status).toBe('cancelled');
    expect(await left(po.id)).toEqual([10]);
  });

  it('keeps receiving notes to their task: its order and its lines', async () => {
    const a = await product();
    const b = await product();
    const po = await confirmedPo([{ productId: a.id, qty: 10 }, { productId: b.id, qty: 10 }]);
    const other = await confirmedPo([{ productId: a.id, qty: 10 }]);
    const plan = await ok(savePlan({ orderId: po.id, lines: [{ orderLineId: po.lines[0].id, qty: 10 }] }));
    const c = await ok(t.call('oms', PL.confirm, { id: plan.id }, demo));
    expect(await t.call('oms', RN.save, { orderId: other.id, taskId: c.taskId, lines: [{ orderLineId: other.lines[0].id, countedQty: 1 }] }, demo))
      .toMatchObject({ code: 'INBOUND_TASK_ORDER_4114', msg: `入库任务 ${c.taskDocNo} 属于采购订单 ${po.docNo}，不能用于采购订单 ${other.docNo} 的收货单` });
    expect(await t.call('oms', RN.save, { orderId: po.id, taskId: c.taskId, lines: [{ orderLineId: po.lines[0].id, countedQty: 1 }, { orderLineId: po.lines[1].id, countedQty: 1 }] }, demo))
      .toMatchObject({ code: 'PURCHASE_LINE_MISMATCH_4098', msg: `收货单第 2 行不属于入库任务 ${c.taskDocNo}` });
    expect((await t.call('oms', RN.save, { orderId: po.id, taskId: 99999999, lines: [{ orderLineId: po.lines[0].id, countedQty: 1 }] }, demo)).msg).toBe('入库任务不存在');
    // over-receipt is still bounded by the order (receMultiple 1.1), and the task counts what came
    const rn = await ok(t.call('oms', RN.save, { orderId: po.id, taskId: c.taskId, post: true, lines: [{ orderLineId: po.lines[0].id, countedQty: 11 }] }, demo));
    expect(await ok(t.call('oms', TK.get, { id: c.taskId }, demo))).toMatchObject({ status: 'done', receivedQty: 11 });
    await ok(t.call('oms', RN.cancel, { id: rn.id }, demo));
    expect(await ok(t.call('oms', TK.get, { id: c.taskId }, demo))).toMatchObject({ status: 'open', receivedQty: 0 });
  });
});

describe('containers', () => {
  it('takes only the company container types, unique numbers and real dates', async () => {
    expect(await ok(t.call('oms', CT.types, {}, demo))).toEqual([{ value: '20GP', label: '20GP' }, { value: '40GP', label: '40GP' }, { value: '40HQ', label: '40HQ' }]);
    expect(await container({ containerType: '45HC' })).toMatchObject({
      code: 'INBOUND_CONTAINER_TYPE_4113', msg: '柜型“45HC”不是本公司的柜型（可选：20GP、40GP、40HQ），请在公司参数中维护柜型',
    });
    expect((await container({ containerNo: '箱号1' })).msg).toBe('集装箱号只能包含字母、数字和“-”');
    expect((await container({ eta: '2026-13-01' })).msg).toBe('预计到港日期不是有效的日期（YYYY-MM-DD）');
    expect((await t.call('oms', CT.save, { containerType: '20GP' }, demo)).msg).toBe('集装箱号不能为空');
    const box = await ok(container({ containerNo: 'CSQU3054383', containerType: '20GP' }));
    expect(await container({ containerNo: 'csqu3054383' })).toMatchObject({ code: 'INBOUND_CONTAINER_TAKEN_4112', msg: '集装箱号 CSQU3054383 已存在（状态“待到港”），请核对箱号' });
    // two clerks typing the same new number at once: one container
    for (let round = 0; round < 3; round++) {
      const no = boxNo();
      const results = await Promise.all([container({ containerNo: no }), container({ containerNo: no })]);
      expect(results.map((r) => r.code).sort()).toEqual(['200', 'INBOUND_CONTAINER_TAKEN_4112']);
    }
    // edit with the version; a type the company no longer has is refused
    const edited = await ok(t.call('oms', CT.save, { id: box.id, version: 1, containerNo: 'CSQU3054383', containerType: '40GP', sealNo: 'S-9', eta: '2026-11-30' }, demo));
    expect(edited).toMatchObject({ version: 2, status: 'planned' });
    expect((await t.call('oms', CT.save, { id: box.id, version: 1, containerNo: 'CSQU3054383', containerType: '40GP' }, demo)).code).toBe('COMMON_VERSION_CONFLICT_4009');
    const settings = await ok(t.call('cdm', '013601', {}, demo));
    await ok(t.call('cdm', '013602', { version: settings.version, containerTypes: ['20GP'] }, demo));
    try {
      expect((await container({ containerType: '40HQ' })).msg).toBe('柜型“40HQ”不是本公司的柜型（可选：20GP），请在公司参数中维护柜型');
    } finally {
      const s2 = await ok(t.call('cdm', '013601', {}, demo));
      await ok(t.call('cdm', '013602', { version: s2.version, containerTypes: ['20GP', '40GP', '40HQ'] }, demo));
    }
    const got = await ok(t.call('oms', CT.get, { id: box.id }, demo));
    expect(got).toMatchObject({ containerNo: 'CSQU3054383', containerType: '40GP', sealNo: 'S-9', eta: '2026-11-30', status: 'planned', statusText: '待到港', plans: [], withdrawings: [] });
  });

  it('arrives, unloads with a withdrawing record of the plans it carried, and refuses steps out of order', async () => {
    const a = await product();
    const b = await product();
    const po = await confirmedPo([{ productId: a.id, qty: 10 }, { productId: b.id, qty: 20 }]);
    const box = await ok(container({ eta: '2026-12-05' }));
    expect((await t.call('oms', CT.unload, { id: box.id }, demo)).msg).toBe(`集装箱 ${box.containerNo} 当前状态为“待到港”，不能卸柜`);
    const p1 = await ok(savePlan({ orderId: po.id, containerId: box.id, lines: [{ orderLineId: po.lines[0].id, qty: 6 }, { orderLineId: po.lines[1].id, qty: 20 }] }));
    await ok(t.call('oms', PL.confirm, { id: p1.id }, demo));
    const p2 = await ok(savePlan({ orderId: po.id, containerId: box.id, lines: [{ orderLineId: po.lines[0].id, qty: 3 }] }));
    const p3 = await ok(savePlan({ orderId: po.id, containerId: box.id, lines: [{ orderLineId: po.lines[0].id, qty: 1 }] }));
    await ok(t.call('oms', PL.cancel, { id: p3.id }, demo));

    const arrived = await ok(t.call('oms', CT.arrive, { id: box.id, version: box.version }, demo));
    expect(arrived).toMatchObject({ status: 'arrived', version: 2 });
    expect((await t.call('oms', CT.arrive, { id: box.id }, demo)).msg).toBe(`集装箱 ${box.containerNo} 当前状态为“已到港”，不能到港`);
    const listed = await ok(t.call('oms', CT.list, { page: 1, pageSize: 10, filters: { containerNo: box.containerNo.toLowerCase() } }, demo));
    expect(listed.list.map((c: any) => [c.containerNo, c.status, c.planCount, c.totalQty])).toEqual([[box.containerNo, 'arrived', 2, 29]]);
    expect((await ok(t.call('oms', CT.options, {}, demo))).map((o: any) => o.value)).toContain(box.id);

    const started = await ok(t.call('oms', CT.unload, { id: box.id, finish: false }, demo));
    expect(started).toMatchObject({ status: 'unloading', withdrawingId: null });
    // no new plans into a container being unloaded
    expect((await savePlan({ orderId: po.id, containerId: box.id, lines: [{ orderLineId: po.lines[0].id, qty: 1 }] })).msg)
      .toBe(`集装箱 ${box.containerNo} 当前状态为“卸柜中”，不能装入入库计划`);
    const unloaded = await ok(t.call('oms', CT.unload, { id: box.id, version: started.version, remark: '夜班卸柜' }, demo));
    expect(unloaded).toMatchObject({ status: 'unloaded', totalQty: 29 });
    expect(unloaded.withdrawingDocNo).toMatch(/^XG\d{12}$/);
    expect((await t.call('oms', CT.unload, { id: box.id }, demo)).msg).toBe(`集装箱 ${box.containerNo} 当前状态为“已卸柜”，不能卸柜`);
    expect((await t.call('oms', CT.save, { id: box.id, version: unloaded.version, containerNo: box.containerNo, containerType: '40HQ' }, demo)).msg)
      .toBe(`集装箱 ${box.containerNo} 当前状态为“已卸柜”，不能修改`);
    expect((await ok(t.call('oms', CT.options, {}, demo))).map((o: any) => o.value)).not.toContain(box.id);

    const record = await ok(t.call('oms', CT.wdGet, { id: unloaded.withdrawingId }, demo));
    expect(record).toMatchObject({ docNo: unloaded.withdrawingDocNo, containerNo: box.containerNo, lineCount: 3, totalQty: 29, remark: '夜班卸柜' });
    expect(record.lines.map((l: any) => [l.planDocNo, l.productCode, l.qty])).toEqual([[p1.docNo, a.code, 6], [p1.docNo, b.code, 20], [p2.docNo, a.code, 3]]);
    expect((await ok(t.call('oms', CT.wdList, { page: 1, pageSize: 10, filters: { containerId: box.id } }, demo))).list.map((w: any) => w.id)).toEqual([unloaded.withdrawingId]);
    const got = await ok(t.call('oms', CT.get, { id: box.id }, demo));
    expect(got).toMatchObject({ status: 'unloaded', statusText: '已卸柜', planCount: 2 });
    expect(got.plans.map((p: any) => [p.docNo, p.status])).toEqual([[p1.docNo, 'confirmed'], [p2.docNo, 'draft'], [p3.docNo, 'cancelled']]);
    expect(got.withdrawings.map((w: any) => w.docNo)).toEqual([unloaded.withdrawingDocNo]);
    expect((await ok(t.call('oms', CT.list, { page: 1, pageSize: 50, status: 'unloaded' }, demo))).list.every((c: any) => c.status === 'unloaded')).toBe(true);
  });
});

describe('rights and companies', () => {
  it('refuses the clerk, who has no inbound rights', async () => {
    const a = await product();
    const po = await confirmedPo([{ productId: a.id, qty: 4 }]);
    const plan = await ok(savePlan({ orderId: po.id, lines: [{ orderLineId: po.lines[0].id, qty: 4 }] }));
    const box = await ok(container());
    const calls: Array<[string, unknown]> = [
      [PL.list, { page: 1, pageSize: 10 }], [PL.get, { id: plan.id }], [PL.save, { orderId: po.id, lines: [{ orderLineId: po.lines[0].id, qty: 1 }] }],
      [PL.confirm, { id: plan.id }], [PL.cancel, { id: plan.id }], [PL.plannable, { orderId: po.id }],
      [TK.list, { page: 1, pageSize: 10 }], [TK.cancel, { id: 1 }],
      [CT.list, { page: 1, pageSize: 10 }], [CT.save, { containerNo: boxNo(), containerType: '20GP' }], [CT.arrive, { id: box.id }], [CT.unload, { id: box.id }],
      [CT.wdList, { page: 1, pageSize: 10 }], [CT.options, {}],
    ];
    for (const [code, body] of calls) expect((await t.call('oms', code, body, clerk)).code, code).toBe('COMMON_NO_RIGHT_4003');
    expect((await ok(t.call('oms', PL.get, { id: plan.id }, demo))).status).toBe('draft');
    expect((await ok(t.call('oms', CT.get, { id: box.id }, demo))).status).toBe('planned');
  });

  it('keeps companies apart', async () => {
    const a = await product();
    const po = await confirmedPo([{ productId: a.id, qty: 4 }]);
    const box = await ok(container());
    const plan = await ok(savePlan({ orderId: po.id, containerId: box.id, lines: [{ orderLineId: po.lines[0].id, qty: 4 }] }));
    const c = await ok(t.call('oms', PL.confirm, { id: plan.id }, demo));
    for (const code of [PL.get, PL.confirm, PL.cancel]) expect((await t.call('oms', code, { id: plan.id }, demo2)).code, code).toBe('COMMON_NOT_FOUND_4004');
    for (const code of [TK.get, TK.cancel]) expect((await t.call('oms', code, { id: c.taskId }, demo2)).code, code).toBe('COMMON_NOT_FOUND_4004');
    for (const code of [CT.get, CT.arrive, CT.unload]) expect((await t.call('oms', code, { id: box.id }, demo2)).code, code).toBe('COMMON_NOT_FOUND_4004');
    expect((await t.call('oms', PL.plannable, { orderId: po.id }, demo2)).code).toBe('COMMON_NOT_FOUND_4004');
    expect((await t.call('oms', PL.save, { orderId: po.id, lines: [{ orderLineId: po.lines[0].id, qty: 1 }] }, demo2)).msg).toBe('采购订单不存在');
    for (const code of [PL.list, TK.list, CT.list, CT.wdList]) expect((await ok(t.call('oms', code, { page: 1, pageSize: 10 }, demo2))).total, code).toBe(0);
    expect(await ok(t.call('oms', CT.options, {}, demo2))).toEqual([]);
    expect((await t.call('oms', REL, { docNo: plan.docNo }, demo2)).code).toBe('PURCHASE_DOC_NOT_FOUND_4097');
    // numbers are per company: demo2 may use the same container number, and not demo's container
    const box2 = await ok(container({ containerNo: box.containerNo }, demo2));
    expect(box2.id).not.toBe(box.id);
    expect((await t.call('oms', CT.save, { id: box.id, version: 1, containerNo: box.containerNo, containerType: '20GP' }, demo2)).code).toBe('COMMON_NOT_FOUND_4004');
    // demo's task cannot be used by demo2's receiving
    const sup2 = await ok(t.call('cdm', '011603', { code: 'SINB2', name: '二号入库供应商' }, demo2));
    const p2 = await product(demo2);
    const wh2 = (await ok(t.call('cdm', '011001', { page: 1, pageSize: 10 }, demo2))).list[0].id;
    const po2 = await ok(t.call('oms', PO.save, { supplierId: sup2.id, warehouseId: wh2, lines: [{ productId: p2.id, qty: 5, price: 1 }] }, demo2));
    await ok(t.call('oms', PO.confirm, { id: po2.id }, demo2));
    const l2 = (await ok(t.call('oms', PO.get, { id: po2.id }, demo2))).lines[0].id;
    expect((await t.call('oms', RN.save, { orderId: po2.id, taskId: c.taskId, lines: [{ orderLineId: l2, countedQty: 1 }] }, demo2)).msg).toBe('入库任务不存在');
    expect((await savePlan({ orderId: po2.id, containerId: box.id, lines: [{ orderLineId: l2, qty: 1 }] }, demo2)).msg).toBe('集装箱不存在');
    const plan2 = await ok(savePlan({ orderId: po2.id, containerId: box2.id, lines: [{ orderLineId: l2, qty: 5 }] }, demo2));
    expect(plan2.docNo).toMatch(/0001$/);
  });
});
