// Cartons and loading lists over HTTP (issue 14), on SQLite and PostgreSQL: order → plan → task → picking
// (one short pick) → cartons (never more than picked) → loading list on a container (capacity warnings,
// seal number) → delivery note made from the loaded list and posted. Stock on hand, committed and the
// ledger verification agree at every step (packing and loading move no stock; only the note's posting
// does); each order line shows its quantity at every stage. Two packers racing for the last picked units:
// exactly one wins.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyStock } from '../../src/server/domain/stock/verify.ts';
import { ok, startTestServer, type TestServer } from './helpers.ts';

const SO = { save: '020903', get: '020902', confirm: '020905' };
const DP = { save: '020703', confirm: '020705' };
const PK = { save: '024003', get: '024002' };
const DN = { save: '024103', get: '024102', sign: '024106', cancel: '024107' };
const CT = { list: '021901', get: '021902', save: '021903', seal: '021905', cancel: '021906', packable: '021909', loadable: '021910' };
const TH = { list: '021921', get: '021922', save: '021923', collect: '021924' };
const LL = { list: '021911', get: '021912', save: '021913', load: '021915', cancel: '021916' };

let t: TestServer;
let admin: string;
let wh: number;
let listId: number;
const loc: Record<string, number> = {};
let seq = 0;

async function product() {
  const code = `ZX${String(++seq).padStart(4, '0')}`;
  const id = (await ok(t.call('cdm', '010203', { code, name: `装箱商品${code}`, unitSmall: '个' }, admin))).id as number;
  await ok(t.call('cdm', '014031', { productId: id, priceTitleId: listId, price: '2' }, admin));
  return { id, code };
}

async function orderToTask(lines: Array<{ productId: number; qty: number }>) {
  const clientId = (await ok(t.call('cdm', '011703', { code: `ZC${++seq}`, name: `装箱客户${seq}`, priceTitleId: listId, creditLimit: '0', backOrderPolicy: 'keep' }, admin))).id;
  const so = await ok(t.call('oms', SO.save, { clientId, warehouseId: wh, lines }, admin));
  await ok(t.call('oms', SO.confirm, { id: so.id, version: so.version }, admin));
  const order = await ok(t.call('oms', SO.get, { id: so.id }, admin));
  const plan = await ok(t.call('oms', DP.save, { orderId: so.id, lines: order.lines.map((l: any) => ({ orderLineId: l.id, qty: l.qty })) }, admin));
  const confirmed = await ok(t.call('oms', DP.confirm, { id: plan.id, version: plan.version }, admin));
  return { orderId: so.id as number, taskId: confirmed.taskId as number, taskDocNo: confirmed.taskDocNo as string };
}

/** on hand and committed as the totals, /commodity/inventory and the ledger verification see them */
async function agree(productId: number, onHand: number, committed: number) {
  const r = await t.database.db.selectFrom('stockSummary').select(['onHand', 'committed']).where('productId', '=', productId).where('warehouseId', '=', wh).executeTakeFirst();
  expect({ onHand: Number(r?.onHand ?? 0), committed: Number(r?.committed ?? 0) }).toEqual({ onHand, committed });
  const inv = await ok(t.call('cdm', '011301', { page: 1, pageSize: 5, productId, warehouseId: wh }, admin));
  expect(inv.list[0]).toMatchObject({ onHand, reserved: committed, available: onHand - committed });
  expect((await verifyStock(t.database.db)).differences.map((d) => d.message)).toEqual([]);
}

/** each order line: [ordered, reserved, picked, packed, loaded, delivered, signed] */
async function stages(orderId: number) {
  const o = await ok(t.call('oms', SO.get, { id: orderId }, admin));
  return o.lines.map((l: any) => [l.qty, l.reservedQty, l.pickedQty, l.packedQty, l.loadedQty, l.shippedQty, l.signedQty]);
}

async function pickAll(taskId: number, picked?: Record<number, number>) {
  const pk = await ok(t.call('oms', PK.save, { taskIds: [taskId] }, admin));
  const g = await ok(t.call('oms', PK.get, { id: pk.id }, admin));
  return ok(t.call('oms', PK.save, {
    id: pk.id, version: g.version, post: true,
    lines: g.lines.map((l: any) => ({ taskLineId: l.taskLineId, qty: l.qty, suggestedLocationId: l.suggestedLocationId, ...(picked?.[l.productId] !== undefined ? { pickedQty: picked[l.productId] } : {}) })),
  }, admin));
}

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login();
  wh = (await ok(t.call('cdm', '011003', { code: 'ZXW', name: '装箱仓' }, admin))).id;
  for (const code of ['A-01', 'A-02']) loc[code] = (await ok(t.call('cdm', '011103', { warehouseId: wh, lcCode: code, zone: 'A', row: code.slice(2), type: 'storage' }, admin))).id;
  listId = Number((await t.database.db.selectFrom('priceTitle').select('id').where('code', '=', 'SP01').executeTakeFirstOrThrow()).id);
});
afterAll(async () => t?.close());

describe('picking → cartons → loading list → delivery note', () => {
  it('packs, loads and ships with a short pick; stock and reservation agree at every step and move only when the note posts', async () => {
    const p1 = await product();
    const p2 = await product();
    await ok(t.call('oms', '022603', { warehouseId: wh, lines: [{ productId: p1.id, qty: 10, locationId: loc['A-01'] }, { productId: p2.id, qty: 5, locationId: loc['A-02'] }], post: true }, admin));
    const f = await orderToTask([{ productId: p1.id, qty: 8 }, { productId: p2.id, qty: 5 }]);
    await agree(p1.id, 10, 8);
    // picking: p2 is short by 2
    await pickAll(f.taskId, { [p2.id]: 3 });
    await agree(p1.id, 10, 8);
    await agree(p2.id, 5, 5);
    expect(await stages(f.orderId)).toEqual([[8, 8, 8, 0, 0, 0, 0], [5, 5, 3, 0, 0, 0, 0]]);

    // carton 1: five of p1 (typed lines), kg and m³ as exact decimals
    const task = await ok(t.call('oms', '021306', { id: f.taskId }, admin));
    const tl = (pid: number) => task.lines.find((l: any) => l.productId === pid).id;
    const c1 = await ok(t.call('oms', CT.save, { taskId: f.taskId, weight: '12.5', volume: '0.036', lines: [{ taskLineId: tl(p1.id), qty: 5 }] }, admin));
    let carton1 = await ok(t.call('oms', CT.get, { id: c1.id }, admin));
    expect(carton1).toMatchObject({ status: 'draft', statusText: '装箱中', weight: '12.500', volume: '0.036', taskDocNo: f.taskDocNo, boxText: '第 1 / 1 箱', totalQty: 5 });
    // the carton label: Code 128 of its number, a QR code that opens /qrCodeLoad (without a login: number and client only)
    const label = (await ok(t.call('oms', '024211', { kind: 'document', docType: 'carton', ids: [c1.id] }, admin))).labels[0];
    expect(label).toMatchObject({ title: '纸箱', code: c1.docNo, barcode: c1.docNo, lines: expect.arrayContaining(['箱号：第 1 / 1 箱', '数量：5', '毛重：12.500 kg']) });
    expect(label.qr).toMatch(/^C\d+-\d+\./);
    expect(await ok(t.call('auth', '990120', { id: label.qr }, null, { public: true }))).toEqual({ token: label.qr, kind: 'carton', kindText: '纸箱', code: c1.docNo, name: expect.stringMatching(/^纸箱 装箱客户/) });
    const inside = await ok(t.call('oms', '024212', { t: label.qr, page: 1, pageSize: 50 }, admin));
    expect(inside).toMatchObject({ kind: 'carton', route: `/entrepot/cardboardDetail/${c1.id}` });
    expect(inside.list.map((r: any) => [r.productCode, r.onHand])).toEqual([[p1.code, 5]]);
    expect((await t.call('oms', '024212', { t: label.qr, page: 1, pageSize: 50 }, await t.login('demo2'))).code).toBe('LABEL_TOKEN_INVALID_4254');
    // packing more than picked: refused in Chinese, nothing changed
    const over = await t.call('oms', CT.save, { taskId: f.taskId, lines: [{ taskLineId: tl(p1.id), qty: 4 }] }, admin);
    expect(over.code).toBe('CARTON_PACK_OVER_4271');
    expect(over.msg).toBe(`出库任务 ${f.taskDocNo} 第 1 行商品 ${p1.code} 装箱数量超出已拣未装箱数量：已拣 8，已发 0，已装箱 5，本次 4，最多还可装 3`);
    const overEdit = await t.call('oms', CT.save, { id: c1.id, version: carton1.version, taskId: f.taskId, lines: [{ taskLineId: tl(p2.id), qty: 4 }] }, admin);
    expect(overEdit.code).toBe('CARTON_PACK_OVER_4271');
    expect((await ok(t.call('oms', CT.get, { id: c1.id }, admin)))).toMatchObject({ version: carton1.version, totalQty: 5 });
    const bad = await t.call('oms', CT.save, { taskId: f.taskId, weight: '-1', lines: [{ taskLineId: tl(p1.id), qty: 1 }] }, admin);
    expect(bad.code).toBe('COMMON_VALIDATION_4000');
    // what is left to pack: 3 of p1, 3 of p2 (the short units are not there)
    const left = await ok(t.call('oms', CT.packable, { taskId: f.taskId }, admin));
    expect(left.lines.map((l: any) => [l.productCode, l.qty])).toEqual([[p1.code, 3], [p2.code, 3]]);
    // carton 2: made from the task without lines (everything left), sealed in the same call
    const c2 = await ok(t.call('oms', CT.save, { taskId: f.taskId, weight: '8', volume: '0.03', seal: true }, admin));
    expect(c2).toMatchObject({ status: 'packed' });
    expect((await t.call('oms', CT.save, { taskId: f.taskId }, admin)).code).toBe('CARTON_NOTHING_4276');
    carton1 = await ok(t.call('oms', CT.seal, { id: c1.id }, admin));
    expect(carton1.status).toBe('packed');
    await agree(p1.id, 10, 8);
    expect(await stages(f.orderId)).toEqual([[8, 8, 8, 8, 0, 0, 0], [5, 5, 3, 3, 0, 0, 0]]);
    // goods in cartons do not leave by a note straight from the task
    expect((await t.call('oms', DN.save, { taskId: f.taskId }, admin)).code).toBe('OUTBOUND_DELIVER_NOTHING_4166');
    const direct = await t.call('oms', DN.save, { taskId: f.taskId, lines: [{ taskLineId: tl(p1.id), qty: 1 }] }, admin);
    expect(direct.msg).toContain('超过已拣未装箱数量 0（已装箱 8：装箱的货物请由装车单生成送货单）');

    // the loading list: a 20GP container of the company's types, small capacity given to see the warning
    const wrongType = await t.call('oms', LL.save, { warehouseId: wh, mode: 'container', containerType: '99XX', lines: [{ cartonId: c1.id }] }, admin);
    expect(wrongType.msg).toContain('柜型“99XX”不是本公司的柜型');
    const ll = await ok(t.call('oms', LL.save, { warehouseId: wh, mode: 'container', containerType: '20GP', containerNo: 'MSCU1234567', capacityVolume: '0.05', lines: [{ cartonId: c1.id }, { cartonId: c2.id }] }, admin));
    let list = await ok(t.call('oms', LL.get, { id: ll.id }, admin));
    expect(list).toMatchObject({ status: 'draft', cartonCount: 2, totalQty: 11, totalWeight: '20.500', totalVolume: '0.066', capacityVolume: '0.050', capacityWeight: '28200.000' });
    expect(list.warnings).toEqual(['体积 0.066 m³ 超出容积 0.05 m³']);
    // a carton is on one list only
    const twice = await t.call('oms', LL.save, { warehouseId: wh, mode: 'truck', vehicleNo: '浙A12345', lines: [{ cartonId: c1.id }] }, admin);
    expect(twice.msg).toContain('已在其他装车单上');
    // a carton on a list cannot be cancelled
    expect((await t.call('oms', CT.cancel, { id: c1.id }, admin)).code).toBe('CARTON_ON_LIST_4272');
    // a container is loaded only with its seal number
    const noSeal = await t.call('oms', LL.load, { id: ll.id }, admin);
    expect(noSeal.msg).toContain('集装箱装车完成前请填写封条号');
    await ok(t.call('oms', LL.save, { id: ll.id, version: list.version, warehouseId: wh, mode: 'container', containerType: '20GP', containerNo: 'MSCU1234567', sealNo: 'SL889900', capacityVolume: '0.05', lines: [{ cartonId: c1.id }, { cartonId: c2.id }], load: true }, admin));
    list = await ok(t.call('oms', LL.get, { id: ll.id }, admin));
    expect(list).toMatchObject({ status: 'loaded', statusText: '已装车', sealNo: 'SL889900' });
    expect(list.lines.map((l: any) => l.cartonStatusText)).toEqual(['已装车', '已装车']);
    expect(list.tasks).toEqual([expect.objectContaining({ taskDocNo: f.taskDocNo, cartonCount: 2, totalQty: 11, action: '生成送货单', listId: ll.id, route: `/entrepot/deliverGoods/add?loadingListId=${ll.id}&taskId=${f.taskId}` })]);
    await agree(p1.id, 10, 8);
    expect(await stages(f.orderId)).toEqual([[8, 8, 8, 8, 8, 0, 0], [5, 5, 3, 3, 3, 0, 0]]);

    // the delivery note from the loaded list (its only task): the cartons' contents; the goods leave when it posts
    const dn = await ok(t.call('oms', DN.save, { loadingListId: ll.id }, admin));
    const note = await ok(t.call('oms', DN.get, { id: dn.id }, admin));
    expect(note).toMatchObject({ status: 'draft', taskId: f.taskId, vehicleNo: 'MSCU1234567' });
    expect(note.lines.map((l: any) => [l.productCode, l.qty])).toEqual([[p1.code, 8], [p2.code, 3]]);
    await agree(p1.id, 10, 8);
    // its lines are the cartons': an edited quantity is refused
    const edited = await t.call('oms', DN.save, { id: dn.id, version: note.version, taskId: f.taskId, loadingListId: ll.id, lines: [{ taskLineId: tl(p1.id), qty: 7 }, { taskLineId: tl(p2.id), qty: 3 }] }, admin);
    expect(edited.msg).toContain('发货数量须与装车单中该出库任务的纸箱内容一致');
    const posted = await ok(t.call('oms', '024105', { id: dn.id }, admin));
    expect(posted).toMatchObject({ status: 'posted', orderStatus: 'partlyShipped' });
    await agree(p1.id, 2, 0);
    await agree(p2.id, 2, 2);
    expect((await ok(t.call('oms', CT.get, { id: c1.id }, admin)))).toMatchObject({ status: 'shipped', deliveryNoteDocNo: note.docNo, loadingListDocNo: ll.docNo });
    expect((await ok(t.call('oms', LL.get, { id: ll.id }, admin))).status).toBe('shipped');
    expect(await stages(f.orderId)).toEqual([[8, 0, 8, 8, 8, 8, 0], [5, 2, 3, 3, 3, 3, 0]]);
    // a second note for the same cartons is refused; the list cannot be cancelled under its note
    expect((await t.call('oms', DN.save, { loadingListId: ll.id }, admin)).msg).toContain('装车单没有待发货的纸箱');
    expect((await t.call('oms', DN.save, { loadingListId: ll.id, taskId: f.taskId }, admin)).msg).toBe(`装车单 ${ll.docNo} 当前状态为“已发货”，不能生成送货单`);
    expect((await t.call('oms', LL.cancel, { id: ll.id }, admin)).code).toBe('DOCUMENT_STATUS_4131');

    // the note reversed: cartons loaded again, list loaded, goods and reservation back; posted again
    await ok(t.call('oms', DN.cancel, { id: dn.id }, admin));
    await agree(p1.id, 10, 8);
    expect((await ok(t.call('oms', LL.get, { id: ll.id }, admin))).status).toBe('loaded');
    const dn2 = await ok(t.call('oms', DN.save, { loadingListId: ll.id, taskId: f.taskId, post: true }, admin));
    await agree(p1.id, 2, 0);
    await ok(t.call('oms', DN.sign, { id: dn2.id, receiverName: '王五' }, admin));
    expect(await stages(f.orderId)).toEqual([[8, 0, 8, 8, 8, 8, 8], [5, 2, 3, 3, 3, 3, 3]]);
  });

  it('two packers racing for the last picked units: exactly one carton is saved (five rounds)', async () => {
    for (let round = 0; round < 5; round++) {
      const p = await product();
      await ok(t.call('oms', '022603', { warehouseId: wh, lines: [{ productId: p.id, qty: 4, locationId: loc['A-01'] }], post: true }, admin));
      const f = await orderToTask([{ productId: p.id, qty: 4 }]);
      await pickAll(f.taskId);
      const task = await ok(t.call('oms', '021306', { id: f.taskId }, admin));
      const lines = [{ taskLineId: task.lines[0].id, qty: 3 }];
      const [a, b] = await Promise.all([t.call('oms', CT.save, { taskId: f.taskId, lines }, admin), t.call('oms', CT.save, { taskId: f.taskId, lines }, admin)]);
      expect([a.code, b.code].sort()).toEqual(['200', 'CARTON_PACK_OVER_4271']);
      const cartons = await ok(t.call('oms', CT.list, { page: 1, pageSize: 10, taskId: f.taskId }, admin));
      expect(cartons.list.map((c: any) => c.totalQty)).toEqual([3]);
      expect((await ok(t.call('oms', CT.packable, { taskId: f.taskId }, admin))).lines.map((l: any) => l.qty)).toEqual([1]);
      await agree(p.id, 4, 4);
    }
  });

  it('a carton cancelled gives its units back; a cancelled list frees its cartons', async () => {
    const p = await product();
    await ok(t.call('oms', '022603', { warehouseId: wh, lines: [{ productId: p.id, qty: 3, locationId: loc['A-02'] }], post: true }, admin));
    const f = await orderToTask([{ productId: p.id, qty: 3 }]);
    await pickAll(f.taskId);
    const c = await ok(t.call('oms', CT.save, { taskId: f.taskId, seal: true }, admin));
    const ll = await ok(t.call('oms', LL.save, { warehouseId: wh, mode: 'truck', vehicleNo: '浙B00001', lines: [{ cartonId: c.id }], load: true }, admin));
    expect(ll.status).toBe('loaded');
    await ok(t.call('oms', LL.cancel, { id: ll.id }, admin));
    expect((await ok(t.call('oms', CT.get, { id: c.id }, admin)))).toMatchObject({ status: 'packed', loadingListId: null });
    await ok(t.call('oms', CT.cancel, { id: c.id }, admin));
    expect((await ok(t.call('oms', CT.packable, { taskId: f.taskId }, admin))).lines.map((l: any) => l.qty)).toEqual([3]);
    // not packed any more: a note straight from the task takes them
    await ok(t.call('oms', DN.save, { taskId: f.taskId, post: true }, admin));
    await agree(p.id, 0, 0);
  });

  it('a pick-up task: the client carrier collects the goods of a delivery note, only once the note has posted', async () => {
    const p = await product();
    await ok(t.call('oms', '022603', { warehouseId: wh, lines: [{ productId: p.id, qty: 2, locationId: loc['A-02'] }], post: true }, admin));
    const f = await orderToTask([{ productId: p.id, qty: 2 }]);
    await pickAll(f.taskId);
    const dn = await ok(t.call('oms', DN.save, { taskId: f.taskId }, admin));
    expect((await t.call('oms', TH.save, { carrier: '顺丰' }, admin)).msg).toContain('请选择送货单或装车单（二选一）');
    const th = await ok(t.call('oms', TH.save, { deliveryNoteId: dn.id, carrier: '客户自提车队', plannedDate: '2026-11-28' }, admin));
    let task = await ok(t.call('oms', TH.get, { id: th.id }, admin));
    expect(task).toMatchObject({ status: 'open', statusText: '待提货', noteNos: dn.docNo, totalQty: 2, carrier: '客户自提车队' });
    // the goods are still on the books: no hand-over before the note posts
    const early = await t.call('oms', TH.collect, { id: th.id, collectorName: '赵师傅' }, admin);
    expect(early.msg).toContain(`送货单 ${dn.docNo}（草稿） 还未发货`);
    expect((await t.call('oms', TH.collect, { id: th.id, collectorName: '  ' }, admin)).msg).toContain('请填写提货人');
    await ok(t.call('oms', '024105', { id: dn.id }, admin));
    await agree(p.id, 0, 0);
    const done = await ok(t.call('oms', TH.collect, { id: th.id, collectorName: '赵师傅', collectorId: '13800000000', vehicleNo: '沪C12345' }, admin));
    expect(done).toMatchObject({ status: 'collected', collectorName: '赵师傅', vehicleNo: '沪C12345' });
    task = await ok(t.call('oms', TH.get, { id: th.id }, admin));
    expect(task).toMatchObject({ status: 'collected', statusText: '已提货', collectorName: '赵师傅', collectorId: '13800000000' });
    expect(task.collectedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect((await t.call('oms', TH.collect, { id: th.id, collectorName: '赵师傅' }, admin)).code).toBe('DOCUMENT_STATUS_4131');
    const list = await ok(t.call('oms', TH.list, { page: 1, pageSize: 10, docNo: dn.docNo }, admin));
    expect(list.list.map((r: any) => r.docNo)).toEqual([th.docNo]);
  });

  it('the new codes check rights and company', async () => {
    const other = await t.login('demo2');
    const mine = await ok(t.call('oms', CT.list, { page: 1, pageSize: 50 }, admin));
    expect(mine.total).toBeGreaterThan(0);
    expect((await ok(t.call('oms', CT.list, { page: 1, pageSize: 50 }, other))).total).toBe(0);
    expect((await t.call('oms', CT.get, { id: mine.list[0].id }, other)).code).toBe('COMMON_NOT_FOUND_4004');
    // the store role packs and loads; without the rights the calls are refused
    const store = await t.login('demo', 'store');
    expect((await ok(t.call('oms', CT.list, { page: 1, pageSize: 5 }, store))).total).toBeGreaterThan(0);
    expect((await ok(t.call('oms', LL.list, { page: 1, pageSize: 5 }, store))).total).toBeGreaterThan(0);
    const sales = await t.login('demo', 'sales');
    expect((await t.call('oms', CT.save, { taskId: 1 }, sales)).code).toBe('COMMON_NO_RIGHT_4003');
    expect((await t.call('oms', LL.list, { page: 1, pageSize: 5 }, sales)).code).toBe('COMMON_NO_RIGHT_4003');
    // the opening-stock product lookup: an exact code first, no prices
    const p = await product();
    const found = await ok(t.call('oms', '022001', { keyword: p.code }, admin));
    expect(found.list[0]).toMatchObject({ id: p.id, code: p.code, unitSmall: '个' });
    expect(found.list[0].price).toBeUndefined();
  });
});
