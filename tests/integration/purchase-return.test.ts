// Returns to suppliers and repeals on a real database (SQLite, or PostgreSQL when DATABASE_URL is set):
// return outbound plans (from a receiving note, lines bounded by what was received and is still in
// stock, confirm reserves, ship takes the stock out through the ledger, cancel undoes each step,
// concurrent confirmations and shipments never overdraw), and repeals of every procurement document by
// number (the document's own cancellation, the reason recorded, refusals naming the later documents).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyStock } from '../../src/server/domain/stock/verify.ts';
import { ok, advanceClock, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let demo: string;
let demo2: string;
let clerk: string;
let demoId: number;
let wh1: number;
let supplierId: number;
let recv: number;
let s1: number;
let s2: number;

const PO = { save: '020203', get: '020202', confirm: '020205' };
const RN = { save: '021403', get: '021402', cancel: '021405' };
const PA = { save: '021503', get: '021502' };
const PI = { save: '020303', post: '020304', get: '020302' };
const PL = { save: '021203', confirm: '021204', get: '021202' };
const TK = { get: '021302' };
const REL = '025001';
const RP = {
  list: '021701', get: '021702', save: '021703', confirm: '021704', ship: '021705', cancel: '021706', returnable: '021707', notes: '021708',
  lines: '021709', saveLine: '021710', removeLine: '021711', print: '021712',
};
const RX = { list: '021801', get: '021802', preview: '021803', create: '021804' };


let seq = 0;
async function product(token = demo): Promise<{ id: number; code: string }> {
  const code = `RET${String(++seq).padStart(4, '0')}`;
  const p = await ok(t.call('cdm', '010203', { code, name: `退货测试商品${seq}`, unitBig: '箱', unitSmall: '个', bigQty: 12, midQty: 1 }, token));
  return { id: p.id, code };
}

async function location(warehouseId: number, lcCode: string, extra: Record<string, unknown> = {}): Promise<number> {
  return (await ok(t.call('cdm', '011103', { warehouseId, lcCode, ...extra }, demo))).id;
}

async function confirmedPo(lines: Array<Record<string, unknown>>) {
  const po = await ok(t.call('oms', PO.save, { supplierId, warehouseId: wh1, lines }, demo));
  await ok(t.call('oms', PO.confirm, { id: po.id, version: po.version }, demo));
  return ok(t.call('oms', PO.get, { id: po.id }, demo));
}

/** An order of the lines, received in full at `at` and posted: {order, note}. */
async function received(lines: Array<{ productId: number; qty: number; price: string | number }>, at: number | null = recv) {
  const order = await confirmedPo(lines);
  const rn = await ok(t.call('oms', RN.save, { orderId: order.id, post: true, lines: order.lines.map((l: any) => ({ orderLineId: l.id, countedQty: l.qty, locationId: at })) }, demo));
  return { order, note: await ok(t.call('oms', RN.get, { id: rn.id }, demo)) };
}

async function stock(productId: number, locationId: number | null = recv) {
  const row = await t.database.db.selectFrom('stockBalance').select(['onHand', 'reserved'])
    .where('productId', '=', productId).where('warehouseId', '=', wh1).where('locationId', '=', locationId ?? 0).executeTakeFirst();
  return { onHand: Number(row?.onHand ?? 0), reserved: Number(row?.reserved ?? 0) };
}

async function returned(receivingLineId: number) {
  const row = await t.database.db.selectFrom('receivingNoteLine').select('returnedQty').where('id', '=', receivingLineId).executeTakeFirstOrThrow();
  return Number(row.returnedQty);
}

async function verifyClean() {
  const r = await verifyStock(t.database.db, { companyId: demoId });
  expect(r.differences.map((d) => d.message)).toEqual([]);
}

const savePlan = (body: Record<string, unknown>, token = demo) => t.call('oms', RP.save, { reason: '质量问题', ...body }, token);
const repealCount = async () => Number((await t.database.db.selectFrom('repeal').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);

beforeAll(async () => {
  t = await startTestServer({ LOGIN_MAX_FAILURES: '1000', LOGIN_MAX_FAILURES_PER_IP: '100000' });
  demo = await t.login('demo', 'admin', 'demo123');
  demo2 = await t.login('demo2', 'admin', 'demo123');
  clerk = await t.login('demo', 'clerk', 'demo123');
  const companies = await t.database.db.selectFrom('company').select(['id', 'code']).execute();
  demoId = Number(companies.find((c) => c.code === 'demo')!.id);
  wh1 = (await ok(t.call('cdm', '011001', { page: 1, pageSize: 10 }, demo))).list[0].id;
  supplierId = (await ok(t.call('cdm', '011601', { page: 1, pageSize: 10 }, demo))).list[0].id;
  recv = await location(wh1, 'TR-01', { type: 'receiving' });
  s1 = await location(wh1, 'TS-01-01');
  s2 = await location(wh1, 'TS-01-02');
});

afterAll(async () => {
  await t?.close();
});

describe('return outbound plans', () => {
  it('creates a plan from a receiving note, confirms (reserving), ships through the ledger and shows in the chain', async () => {
    const a = await product();
    const b = await product();
    const { order, note } = await received([{ productId: a.id, qty: 100, price: '2.5' }, { productId: b.id, qty: 50, price: '1.2345' }]);
    const [la, lb] = note.lines;
    // b is put away to s1: its return leaves from there
    await ok(t.call('oms', PA.save, { receivingNoteId: note.id, post: true, lines: [{ receivingLineId: lb.id, toLocationId: s1 }] }, demo));

    const choices = await ok(t.call('oms', RP.notes, {}, demo));
    expect(choices.find((c: any) => c.id === note.id)).toMatchObject({ docNo: note.docNo, supplierId, warehouseId: wh1 });
    const plan = await ok(savePlan({ receivingNoteId: note.id, remark: '整单退' }));
    expect(plan.docNo).toMatch(/^TH\d{12}$/);
    // 100 × 2.5 = 250.00; 50 × 1.2345 = 61.725 → 61.73 (half up)
    expect(plan).toMatchObject({ status: 'draft', version: 1, totalQty: 150, totalAmount: '311.73' });
    const got = await ok(t.call('oms', RP.get, { id: plan.id }, demo));
    expect(got).toMatchObject({
      docNo: plan.docNo, status: 'draft', statusText: '草稿', supplierId, warehouseId: wh1, orderId: order.id, orderDocNo: order.docNo,
      receivingNoteId: note.id, receivingDocNo: note.docNo, currencyCode: 'CNY', reason: '质量问题', remark: '整单退', lineCount: 2,
      route: `/procurement/outPlan/list?docNo=${plan.docNo}`,
    });
    expect(got.lines.map((l: any) => [l.productCode, l.lcCode, l.qty, l.price, l.amount, l.receivingDocNo])).toEqual([
      [a.code, 'TR-01', 100, '2.5000', '250.00', note.docNo],
      [b.code, 'TS-01-01', 50, '1.2345', '61.73', note.docNo],
    ]);

    // the lines modal: change a's quantity; more than was received is refused naming the line
    const lines = await ok(t.call('oms', RP.lines, { filters: { planId: plan.id } }, demo));
    expect(lines.total).toBe(2);
    expect(lines.list[0]).toMatchObject({ planStatus: 'draft', planEditable: true, version: 1, qty: 100 });
    const over = await t.call('oms', RP.saveLine, { id: lines.list[0].id, version: 1, qty: 101 }, demo);
    expect(over).toMatchObject({ code: 'RETURN_OVER_4121', msg: `收货单 ${note.docNo} 第 1 行商品 ${a.code} 退货数量超出：收货 100，已退 0，本次 101，最多还可退 100` });
    const changed = await ok(t.call('oms', RP.saveLine, { id: lines.list[0].id, version: 1, big: 3, small: 4 }, demo)); // 3 × 12 + 4 = 40
    expect(changed).toMatchObject({ qty: 40, amount: '100.00', version: 2 });
    expect((await t.call('oms', RP.saveLine, { id: lines.list[0].id, version: 1, qty: 5 }, demo)).code).toBe('COMMON_VERSION_CONFLICT_4009');
    expect((await ok(t.call('oms', RP.get, { id: plan.id }, demo)))).toMatchObject({ totalQty: 90, totalAmount: '161.73', version: 2 });

    // what is returnable: drafts hold nothing yet; stock per location
    const before = await ok(t.call('oms', RP.returnable, { supplierId, receivingNoteId: note.id }, demo));
    expect(before.list.map((r: any) => [r.productCode, r.returnableQty, r.availableQty, r.stockText])).toEqual([
      [a.code, 100, 100, 'TR-01：100'], [b.code, 50, 50, 'TS-01-01：50'],
    ]);

    const confirmed = await ok(t.call('oms', RP.confirm, { id: plan.id, version: 2 }, demo));
    expect(confirmed).toMatchObject({ status: 'confirmed', version: 3 });
    expect([await returned(la.id), await returned(lb.id)]).toEqual([40, 50]);
    expect(await stock(a.id)).toEqual({ onHand: 100, reserved: 40 });
    expect(await stock(b.id, s1)).toEqual({ onHand: 50, reserved: 50 });
    const after = await ok(t.call('oms', RP.returnable, { supplierId, receivingNoteId: note.id }, demo));
    expect(after.list.map((r: any) => [r.productCode, r.returnableQty, r.availableQty])).toEqual([[a.code, 60, 60]]);
    // a confirmed plan is not edited any more
    expect((await ok(t.call('oms', RP.lines, { planId: plan.id }, demo))).list[0].planEditable).toBe(false);
    expect((await ok(t.call('oms', RP.list, { filters: { docNo: plan.docNo } }, demo))).list[0]).toMatchObject({ editable: false, actions: [expect.objectContaining({ name: 'ship' }), expect.objectContaining({ name: 'cancel' })] });
    expect((await t.call('oms', RP.saveLine, { id: lines.list[0].id, version: 3, qty: 5 }, demo)).code).toBe('PURCHASE_DOC_STATUS_4091');
    expect((await t.call('oms', RP.confirm, { id: plan.id }, demo)).msg).toBe(`退货出库计划 ${plan.docNo} 当前状态为“已确认”，不能确认`);

    const shipped = await ok(t.call('oms', RP.ship, { id: plan.id, version: 3 }, demo));
    expect(shipped).toMatchObject({ status: 'shipped', version: 4 });
    expect(await stock(a.id)).toEqual({ onHand: 60, reserved: 0 });
    expect(await stock(b.id, s1)).toEqual({ onHand: 0, reserved: 0 });
    const moves = await t.database.db.selectFrom('stockMove').select(['kind', 'qty', 'reservedQty', 'docLine']).where('docType', '=', 'returnPlan').where('docId', '=', plan.id).orderBy('id').execute();
    expect(moves.map((m) => [m.kind, Number(m.qty), Number(m.reservedQty), Number(m.docLine)])).toEqual([
      ['reserve', 0, 40, 1], ['reserve', 0, 50, 2], ['ship', -40, -40, 1], ['ship', -50, -50, 2],
    ]);
    await verifyClean();
    expect((await ok(t.call('oms', RP.list, { filters: { docNo: plan.docNo, status: 'shipped' } }, demo))).list.map((p: any) => [p.docNo, p.statusText, p.totalQty]))
      .toEqual([[plan.docNo, '已出库', 90]]);

    // the document chain: the plan hangs under the note it returns from, from any number of the chain
    for (const number of [order.docNo, plan.docNo]) {
      const rel = await ok(t.call('oms', REL, { docNo: number }, demo));
      expect(rel.chain.find((x: any) => x.docType === 'returnPlan')).toMatchObject({
        number: plan.docNo, status: 'shipped', statusText: '已出库', from: note.docNo, level: 2, route: `/procurement/outPlan/list?docNo=${plan.docNo}`,
      });
    }
    // the printable view and the audit trail
    const sheet = await ok(t.call('oms', RP.print, { docNo: plan.docNo }, demo));
    expect(sheet).toMatchObject({ subject: `退货出库计划 ${plan.docNo}（已出库）`, format: 'html' });
    expect(sheet.body).toContain(a.code);
    expect(sheet.body).toContain('161.73');
    const audit = await ok(t.call('cdm', '019702', { page: 1, filters: { entity: got.auditEntity, recordId: got.auditKey }, sort: { field: 'at', order: 'ascend' } }, demo));
    expect(audit.list.map((x: any) => x.action)).toEqual(['create', 'update', 'confirm', 'ship']);
  });

  it('never returns more than was received: explicit lines, and two plans confirming the last units at once', async () => {
    const a = await product();
    const { note } = await received([{ productId: a.id, qty: 10, price: 1 }]);
    const rl = note.lines[0];
    const tooMany = await savePlan({ supplierId, warehouseId: wh1, lines: [{ receivingLineId: rl.id, qty: 6 }, { receivingLineId: rl.id, qty: 5, locationId: recv }] });
    expect(tooMany).toMatchObject({ code: 'RETURN_OVER_4121', data: { line: 2, received: 10, returned: 0, qty: 11, left: 10 } });
    const p1 = await ok(savePlan({ supplierId, warehouseId: wh1, lines: [{ receivingLineId: rl.id, qty: 7 }] }));
    const p2 = await ok(savePlan({ supplierId, warehouseId: wh1, lines: [{ receivingLineId: rl.id, qty: 7 }] }));
    const both = await Promise.all([t.call('oms', RP.confirm, { id: p1.id }, demo), t.call('oms', RP.confirm, { id: p2.id }, demo)]);
    expect(both.map((r) => r.code).sort()).toEqual(['200', 'RETURN_OVER_4121']);
    const refused = both.find((r) => r.code !== '200')!;
    expect(refused.msg).toBe(`收货单 ${note.docNo} 第 1 行商品 ${a.code} 退货数量超出：收货 10，已退 7，本次 7，最多还可退 3`);
    expect(await returned(rl.id)).toBe(7);
    expect(await stock(a.id)).toEqual({ onHand: 10, reserved: 7 });
    // the refused plan is still a draft; after the other is cancelled it goes through
    const loser = both[0].code === '200' ? p2 : p1;
    const winner = both[0].code === '200' ? p1 : p2;
    expect((await ok(t.call('oms', RP.get, { id: loser.id }, demo))).status).toBe('draft');
    await ok(t.call('oms', RP.cancel, { id: winner.id }, demo));
    expect(await stock(a.id)).toEqual({ onHand: 10, reserved: 0 });
    await ok(t.call('oms', RP.confirm, { id: loser.id }, demo));
    expect(await returned(rl.id)).toBe(7);
    await verifyClean();
  });

  it('cannot overdraw the stock: concurrent confirmations and shipments of the last units', async () => {
    const c = await product();
    const { note: n1 } = await received([{ productId: c.id, qty: 10, price: 1 }]);
    const { note: n2 } = await received([{ productId: c.id, qty: 10, price: 1 }]);
    // 20 at TR-01; a plan holding 10 leaves 10 that two plans (10 and 5) want at once
    const first = await ok(savePlan({ supplierId, warehouseId: wh1, lines: [{ receivingLineId: n1.lines[0].id, qty: 10, locationId: recv }] }));
    await ok(t.call('oms', RP.confirm, { id: first.id }, demo));
    const big = await ok(savePlan({ supplierId, warehouseId: wh1, lines: [{ receivingLineId: n2.lines[0].id, qty: 10, locationId: recv }] }));
    // a line without a receiving line (goods that came in before the system) carries its own price
    const free = await ok(savePlan({ supplierId, warehouseId: wh1, lines: [{ productId: c.id, qty: 5, price: '3.3333', locationId: recv }] }));
    expect(free).toMatchObject({ totalQty: 5, totalAmount: '16.67' });
    expect((await ok(t.call('oms', RP.get, { id: free.id }, demo)))).toMatchObject({ orderId: null, receivingNoteId: null });
    const race = await Promise.all([t.call('oms', RP.confirm, { id: big.id }, demo), t.call('oms', RP.confirm, { id: free.id }, demo)]);
    expect(race.map((r) => r.code).sort()).toEqual(['200', 'STOCK_RESERVE_NOT_ENOUGH_4072']);
    expect(race.find((r) => r.code !== '200')!.msg).toContain(`商品 ${c.code} 在 主仓库/TR-01 的可预留库存不足`);
    const reserved = (await stock(c.id)).reserved;
    expect([15, 20]).toContain(reserved);
    // two clerks shipping the same plan: one shipment
    const ships = await Promise.all([t.call('oms', RP.ship, { id: first.id }, demo), t.call('oms', RP.ship, { id: first.id }, demo)]);
    expect(ships.map((r) => r.code).sort()).toEqual(['200', 'PURCHASE_DOC_STATUS_4091']);
    expect(await stock(c.id)).toEqual({ onHand: 10, reserved: reserved - 10 });
    // a line without a location takes the stock where it is, and no more than is there
    const short = await savePlan({ supplierId, warehouseId: wh1, lines: [{ productId: c.id, qty: 11 }] });
    expect(short).toMatchObject({ code: 'RETURN_STOCK_SHORT_4124' });
    expect(short.msg).toBe(`商品 ${c.code} 在仓库 主仓库 的可用库存为 ${20 - reserved}，不足退货数量 11，请减少数量或指定库位`);
    await verifyClean();
  });

  it('cancels: a draft simply, a confirmed plan releases, a shipped plan comes back; quantities are given back', async () => {
    const a = await product();
    const { note } = await received([{ productId: a.id, qty: 20, price: 2 }]);
    const rl = note.lines[0];
    const draft = await ok(savePlan({ receivingNoteId: note.id }));
    expect((await ok(t.call('oms', RP.cancel, { id: draft.id, version: draft.version }, demo))).status).toBe('cancelled');
    expect((await t.call('oms', RP.cancel, { id: draft.id }, demo)).msg).toBe(`退货出库计划 ${draft.docNo} 当前状态为“已作废”，不能作废`);

    const p = await ok(savePlan({ receivingNoteId: note.id, lines: [{ receivingLineId: rl.id, qty: 8 }] }));
    await ok(t.call('oms', RP.confirm, { id: p.id }, demo));
    expect([await returned(rl.id), (await stock(a.id)).reserved]).toEqual([8, 8]);
    await ok(t.call('oms', RP.cancel, { id: p.id }, demo));
    expect([await returned(rl.id), (await stock(a.id)).reserved, (await stock(a.id)).onHand]).toEqual([0, 0, 20]);

    const q = await ok(savePlan({ receivingNoteId: note.id, lines: [{ receivingLineId: rl.id, qty: 12 }] }));
    await ok(t.call('oms', RP.confirm, { id: q.id }, demo));
    await ok(t.call('oms', RP.ship, { id: q.id }, demo));
    expect([await returned(rl.id), (await stock(a.id)).onHand]).toEqual([12, 8]);
    // the shipment was recorded in error: cancelling brings the goods back where they left
    await ok(t.call('oms', RP.cancel, { id: q.id }, demo));
    expect([await returned(rl.id), (await stock(a.id)).onHand, (await stock(a.id)).reserved]).toEqual([0, 20, 0]);
    const kinds = await t.database.db.selectFrom('stockMove').select(['kind', 'qty']).where('docType', '=', 'returnPlan').where('docId', '=', q.id).orderBy('id').execute();
    expect(kinds.map((k) => [k.kind, Number(k.qty)])).toEqual([['reserve', 0], ['ship', -12], ['reverse', 12]]);
    // the last line stays: a plan returning nothing is cancelled instead
    const one = await ok(savePlan({ receivingNoteId: note.id, lines: [{ receivingLineId: rl.id, qty: 1 }] }));
    const only = (await ok(t.call('oms', RP.lines, { planId: one.id }, demo))).list[0];
    expect((await t.call('oms', RP.removeLine, { id: only.id, version: 1 }, demo)).msg).toBe(`退货出库计划 ${one.docNo} 至少要保留一行明细；整单不退请作废`);
    await verifyClean();
  });

  it('answers bad input in Chinese, keeps companies apart and checks rights', async () => {
    const a = await product();
    const { note } = await received([{ productId: a.id, qty: 5, price: 1 }]);
    const rl = note.lines[0];
    expect((await t.call('oms', RP.save, { receivingNoteId: note.id }, demo)).msg).toBe('退货原因不能为空');
    expect((await savePlan({ receivingNoteId: note.id, reason: '   ' })).msg).toBe('退货原因不能为空');
    expect((await savePlan({ reason: 'x' })).msg).toBe('供应商不能为空（或选择收货单）；仓库不能为空（或选择收货单）；明细不能为空（或选择收货单）');
    expect((await savePlan({ receivingNoteId: note.id, lines: [{ receivingLineId: rl.id, qty: 0 }] })).msg).toBe('第 1 行：退货数量必须大于 0');
    expect((await savePlan({ supplierId, warehouseId: wh1, lines: [{ qty: 1 }] })).msg).toBe('第 1 行：商品不能为空（或选择收货明细）');
    expect((await savePlan({ supplierId, warehouseId: wh1, lines: [{ productId: a.id, qty: 1, price: '-1' }] })).msg).toBe('第 1 行：单价不能小于 0');
    const wh2 = (await ok(t.call('cdm', '011003', { code: 'WHR2', name: '退货二号仓' }, demo))).id;
    const far = await location(wh2, 'TX-01');
    expect((await savePlan({ receivingNoteId: note.id, lines: [{ receivingLineId: rl.id, qty: 1, locationId: far }] })).msg).toBe('第 1 行：库位 TX-01 不属于仓库 主仓库');
    const other = await ok(t.call('cdm', '011603', { code: 'SRET2', name: '退货测试二号供应商' }, demo));
    const wrong = await savePlan({ supplierId: other.id, warehouseId: wh1, lines: [{ receivingLineId: rl.id, qty: 1 }] });
    expect(wrong.msg).toBe(`退货明细第 1 行不是供应商“退货测试二号供应商”在仓库 主仓库 已过账的收货明细（收货单 ${note.docNo}，状态“已过账”）`);
    expect((await t.call('oms', RP.confirm, { id: 'x' }, demo)).msg).toBe('单据格式不正确');

    const plan = await ok(savePlan({ receivingNoteId: note.id }));
    // another company sees nothing of it
    expect((await t.call('oms', RP.get, { id: plan.id }, demo2)).code).toBe('COMMON_NOT_FOUND_4004');
    expect((await t.call('oms', RP.confirm, { id: plan.id }, demo2)).code).toBe('COMMON_NOT_FOUND_4004');
    expect((await ok(t.call('oms', RP.list, { docNo: plan.docNo }, demo2))).total).toBe(0);
    expect((await t.call('oms', RP.save, { receivingNoteId: note.id, reason: 'x' }, demo2)).msg).toBe('收货单不存在');
    expect((await t.call('oms', RX.create, { docNo: plan.docNo, reason: '跨公司' }, demo2)).code).toBe('REPEAL_DOC_NOT_FOUND_4127');
    expect((await ok(t.call('oms', RX.preview, { docNo: plan.docNo }, demo2))).found).toBe(false);
    // the clerk (采购员) holds none of these rights
    for (const code of [...Object.values(RP), ...Object.values(RX)]) {
      expect((await t.call('oms', code, { id: plan.id, docNo: plan.docNo, reason: 'x', supplierId, planId: plan.id }, clerk)).code, code).toBe('COMMON_NO_RIGHT_4003');
    }
    expect((await ok(t.call('oms', RP.get, { id: plan.id }, demo))).status).toBe('draft');
  });
});

describe('repeals', () => {
  const repeal = (docNo: string, reason = '录入错误', token = demo) => t.call('oms', RX.create, { docNo, reason }, token);

  it('repeals every kind of document through its own cancellation and records the reason', async () => {
    const a = await product();
    // purchase order (draft)
    const draftPo = await ok(t.call('oms', PO.save, { supplierId, warehouseId: wh1, lines: [{ productId: a.id, qty: 3, price: 1 }] }, demo));
    const preview = await ok(t.call('oms', RX.preview, { docNo: draftPo.docNo }, demo));
    expect(preview).toMatchObject({ found: true, docType: 'purchaseOrder', docTypeText: '采购订单', status: 'draft', cancellable: true, blockers: [], format: 'text' });
    expect(preview.effect).toBe(`采购订单 ${draftPo.docNo} 为草稿：作废后不能再确认（1 行，共 3 个）`);
    const r1 = await ok(repeal(` ${draftPo.docNo} `, '  供应商取消  '));
    expect(r1.docNo).toMatch(/^CX\d{12}$/);
    expect(r1).toMatchObject({ docType: 'purchaseOrder', targetDocNo: draftPo.docNo, fromStatus: 'draft', fromStatusText: '草稿', status: 'cancelled' });
    expect((await ok(t.call('oms', PO.get, { id: draftPo.id }, demo))).status).toBe('cancelled');
    const rec = await ok(t.call('oms', RX.get, { id: r1.id }, demo));
    expect(rec).toMatchObject({
      docNo: r1.docNo, reason: '供应商取消', targetDocNo: draftPo.docNo, targetStatus: 'cancelled', targetStatusText: '已作废', createdByName: 'admin',
      summary: preview.effect, route: `/procurement/repealDetail/${r1.id}`, targetRoute: `/procurement/purchaseOrder/${draftPo.id}`,
    });

    // inbound plan (confirmed, with its task) and inbound task (with its plan)
    const po = await confirmedPo([{ productId: a.id, qty: 30, price: 1 }]);
    const plan = await ok(t.call('oms', PL.save, { orderId: po.id, lines: [{ orderLineId: po.lines[0].id, qty: 10 }] }, demo));
    const cp = await ok(t.call('oms', PL.confirm, { id: plan.id }, demo));
    expect((await ok(t.call('oms', RX.preview, { docNo: plan.docNo }, demo))).effect).toBe(`入库计划 ${plan.docNo} 已确认：作废计划及入库任务 ${cp.taskDocNo}，释放 1 行共 10 个的计划数量`);
    await ok(repeal(plan.docNo));
    expect((await ok(t.call('oms', TK.get, { id: cp.taskId }, demo))).status).toBe('cancelled');
    const plan2 = await ok(t.call('oms', PL.save, { orderId: po.id, lines: [{ orderLineId: po.lines[0].id, qty: 10 }] }, demo));
    const cp2 = await ok(t.call('oms', PL.confirm, { id: plan2.id }, demo));
    await ok(repeal(cp2.taskDocNo));
    expect((await ok(t.call('oms', PL.get, { id: plan2.id }, demo))).status).toBe('cancelled');

    // receiving note (posted): the stock and the order's received quantity go back
    const rn = await ok(t.call('oms', RN.save, { orderId: po.id, post: true, lines: [{ orderLineId: po.lines[0].id, countedQty: 12, locationId: recv }] }, demo));
    const rnPreview = await ok(t.call('oms', RX.preview, { docNo: rn.docNo }, demo));
    expect(rnPreview.body).toBe(`撤销后：收货单 ${rn.docNo} 已过账：将冲回 1 行 共 12 个入库，并扣回采购订单 ${po.docNo} 的已收数量`);
    await ok(repeal(rn.docNo));
    expect((await ok(t.call('oms', PO.get, { id: po.id }, demo))).receivedQty).toBe(0);
    expect((await stock(a.id)).onHand).toBe(0);

    // putaway (posted): the goods move back to the receiving place
    const rn2 = await ok(t.call('oms', RN.save, { orderId: po.id, post: true, lines: [{ orderLineId: po.lines[0].id, countedQty: 12, locationId: recv }] }, demo));
    const rnLines = (await ok(t.call('oms', RN.get, { id: rn2.id }, demo))).lines;
    const pa = await ok(t.call('oms', PA.save, { receivingNoteId: rn2.id, post: true, lines: [{ receivingLineId: rnLines[0].id, toLocationId: s2 }] }, demo));
    expect(await stock(a.id, s2)).toEqual({ onHand: 12, reserved: 0 });
    await ok(repeal(pa.docNo));
    expect([(await stock(a.id, s2)).onHand, (await stock(a.id)).onHand]).toEqual([0, 12]);

    // purchase invoice (posted): the payable is cancelled
    const inv = await ok(t.call('oms', PI.save, { supplierId, invoiceNo: `RX${Date.now()}`, lines: [{ receivingLineId: rnLines[0].id, qty: 12 }] }, demo));
    await ok(t.call('oms', PI.post, { id: inv.id }, demo));
    expect((await ok(t.call('oms', RX.preview, { docNo: inv.docNo }, demo))).effect).toBe(`采购发票 ${inv.docNo} 已过账：作废应付款 12.00，冲回开票数量 12 个与发票库存`);
    await ok(repeal(inv.docNo));
    expect((await ok(t.call('oms', PI.get, { id: inv.id }, demo))).status).toBe('cancelled');

    // return plan (shipped): reversed
    const ret = await ok(savePlan({ receivingNoteId: rn2.id, lines: [{ receivingLineId: rnLines[0].id, qty: 5 }] }));
    await ok(t.call('oms', RP.confirm, { id: ret.id }, demo));
    await ok(t.call('oms', RP.ship, { id: ret.id }, demo));
    expect((await stock(a.id)).onHand).toBe(7);
    await ok(repeal(ret.docNo, '退错了'));
    expect((await stock(a.id)).onHand).toBe(12);

    const list = await ok(t.call('oms', RX.list, { page: 1, pageSize: 20 }, demo));
    expect(list.list.slice(0, 7).map((r: any) => [r.docType, r.fromStatus]).reverse()).toEqual([
      ['purchaseOrder', 'draft'], ['inboundPlan', 'confirmed'], ['inboundTask', 'open'], ['receivingNote', 'posted'], ['putaway', 'posted'],
      ['purchaseInvoice', 'posted'], ['returnPlan', 'shipped'],
    ]);
    expect((await ok(t.call('oms', RX.list, { filters: { docNo: ret.docNo } }, demo))).list.map((r: any) => [r.targetDocNo, r.reason])).toEqual([[ret.docNo, '退错了']]);
    expect((await ok(t.call('oms', RX.list, { filters: { docType: 'putaway' } }, demo))).list.map((r: any) => r.targetDocNo)).toEqual([pa.docNo]);
    const audit = await ok(t.call('cdm', '019702', { page: 1, filters: { entity: 'repeal', recordId: String(r1.id) } }, demo));
    expect(audit.list[0].changes).toEqual(expect.arrayContaining([{ field: 'reason', title: '撤销原因', from: null, to: '供应商取消' }]));
    await verifyClean();
  });

  it('refuses with the later documents named and writes nothing', async () => {
    const a = await product();
    const { order, note } = await received([{ productId: a.id, qty: 10, price: 1 }]);
    const count = await repealCount();
    // an order with receipts: its own refusal
    expect((await repeal(order.docNo)).msg).toBe(`采购订单 ${order.docNo} 当前状态为“已收货”，不能作废`);
    expect((await ok(t.call('oms', RX.preview, { docNo: order.docNo }, demo)))).toMatchObject({ cancellable: false, effect: `采购订单 ${order.docNo} 当前状态为“已收货”，不能作废` });
    // a receiving note with a confirmed return plan and a posted putaway
    const ret = await ok(savePlan({ receivingNoteId: note.id, lines: [{ receivingLineId: note.lines[0].id, qty: 2 }] }));
    await ok(t.call('oms', RP.confirm, { id: ret.id }, demo));
    const pa = await ok(t.call('oms', PA.save, { receivingNoteId: note.id, post: true, lines: [{ receivingLineId: note.lines[0].id, toLocationId: s2, qty: 3 }] }, demo));
    const pv = await ok(t.call('oms', RX.preview, { docNo: note.docNo }, demo));
    expect(pv).toMatchObject({ cancellable: false, blockers: [{ docType: 'putaway', docNo: pa.docNo }, { docType: 'returnPlan', docNo: ret.docNo }] });
    expect(pv.body).toContain(`不能撤销：已有后续单据 上架单 ${pa.docNo}、退货出库计划 ${ret.docNo}，请先撤销后续单据`);
    const refused = await repeal(note.docNo);
    expect(refused).toMatchObject({ code: 'PURCHASE_DEPENDENT_DOCS_4096', msg: `收货单 ${note.docNo} 已有后续单据 ${ret.docNo}，请先作废后续单据` });
    await ok(repeal(ret.docNo));
    expect((await repeal(note.docNo)).msg).toBe(`收货单 ${note.docNo} 已有后续单据 ${pa.docNo}，请先作废后续单据`);
    expect((await ok(t.call('oms', RN.get, { id: note.id }, demo))).status).toBe('posted');
    expect(await repealCount()).toBe(count + 1);
    // in order: the putaway, then the note
    await ok(repeal(pa.docNo));
    await ok(repeal(note.docNo));
    expect((await stock(a.id)).onHand).toBe(0);
    // a second repeal of the same document: its status refusal
    expect((await repeal(note.docNo)).msg).toBe(`收货单 ${note.docNo} 当前状态为“已作废”，不能作废`);
    expect(await repealCount()).toBe(count + 3);
    // input
    expect((await repeal('CG000000')).msg).toBe('没有找到单号为 CG000000 的可撤销单据（采购订单、入库计划、入库任务、收货单、上架单、采购发票、退货出库计划）');
    expect((await ok(t.call('oms', RX.preview, { docNo: 'CG000000' }, demo)))).toMatchObject({ found: false, subject: '未找到单据' });
    expect((await repeal(order.docNo, '   ')).msg).toBe('撤销原因不能为空');
    expect((await t.call('oms', RX.create, { docNo: order.docNo }, demo)).msg).toBe('撤销原因不能为空');
    expect((await repeal(order.docNo, 'x'.repeat(501))).msg).toBe('撤销原因长度不能超过 500 个字符');
    expect(await repealCount()).toBe(count + 3);
    await verifyClean();
  });

  it('asks for the document\'s own cancel right too', async () => {
    const rights = ['procurement.repeal', 'procurement.repeal.edit', 'procurement.repealDetail'];
    const role = await ok(t.call('cdm', '013303', { name: '撤销员', rights }, demo));
    const acc = await ok(t.call('cdm', '013403', { userName: 'repealer', password: 'secret-111', roleIds: [role.id] }, demo));
    const token = await t.login('demo', 'repealer', 'secret-111');
    const a = await product();
    const po = await ok(t.call('oms', PO.save, { supplierId, warehouseId: wh1, lines: [{ productId: a.id, qty: 1, price: 1 }] }, demo));
    expect((await repeal(po.docNo, '无权', token))).toMatchObject({ code: 'COMMON_NO_RIGHT_4003', msg: '无权限执行“作废采购订单”，请联系管理员授权' });
    expect((await ok(t.call('oms', PO.get, { id: po.id }, demo))).status).toBe('draft');
    await ok(t.call('cdm', '013303', { id: role.id, version: role.version, name: '撤销员', rights: [...rights, 'procurement.purchaseOrder.cancel'] }, demo));
    advanceClock(1100); // the caller cache holds for at most a second
    await ok(repeal(po.docNo, '有权', token));
    expect((await ok(t.call('oms', PO.get, { id: po.id }, demo))).status).toBe('cancelled');
    expect(acc.id).toBeGreaterThan(0);
  });
});
