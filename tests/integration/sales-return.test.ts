// Sales returns (销售退货单, issue 13) over HTTP, on SQLite and PostgreSQL: from a shipped order, never more than
// shipped less already returned (two returns racing for the same shipped units: exactly one passes); a
// confirmed return becomes an inbound task, received on the ordinary receiving note (of the task, its source the return) and put away — goods
// back in stock by the ledger, verify clean; the order line shows what is returned; the return records what
// was received and its value at the delivery price; /docRelate shows the chain (order → return → task → note → putaway); cancelling (and the sales
// repeal desk) while nothing is received; a delivery note cannot be reversed under a return.
// 出库任务打印 (021314) prints a task as a picker's sheet.
// And the engine's per-record "offered only when" hook (offerWhen): a sales order with an open outbound plan
// is not offered 作废, an outbound task is not offered 作废 once picking started (the calls still refuse).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyStock } from '../../src/server/domain/stock/verify.ts';
import { ok, startTestServer, type TestServer } from './helpers.ts';

const SO = { save: '020903', get: '020902', confirm: '020905', cancel: '020906' };
const DP = { save: '020703', confirm: '020705', cancel: '020706' };
const OT = { get: '021306', cancel: '021308' };
const PK = { save: '024003' };
const DN = { save: '024103', cancel: '024107' };
const SR = { list: '021101', get: '021102', save: '021103', confirm: '021105', cancel: '021106', relate: '021108', returnable: '021109', receivable: '021110' };
const RN = { get: '021402', save: '021403', cancel: '021405' };
const PA = { save: '021503' };
const REPEAL = { find: '022903', save: '022904' };

let t: TestServer;
let admin: string;
let wh: number;
let shelf: number;
let dock: number;
let listId: number;
let seq = 0;

async function product() {
  const code = `TH${String(++seq).padStart(4, '0')}`;
  const id = (await ok(t.call('cdm', '010203', { code, name: `退货商品${code}`, unitSmall: '个' }, admin))).id as number;
  await ok(t.call('cdm', '014031', { productId: id, priceTitleId: listId, price: '2' }, admin));
  return { id, code };
}

async function onHand(productId: number) {
  const r = await t.database.db.selectFrom('stockSummary').select(['onHand']).where('productId', '=', productId).where('warehouseId', '=', wh).executeTakeFirst();
  return Number(r?.onHand ?? 0);
}

async function verifyClean() {
  const v = await verifyStock(t.database.db);
  expect(v.differences.map((d) => d.message)).toEqual([]);
}

/** A confirmed order, planned, picked and shipped in full: the order's lines as `get` shows them. */
async function shippedOrder(lines: Array<{ productId: number; qty: number; discount?: string }>) {
  const clientId = (await ok(t.call('cdm', '011703', { code: `TK${String(++seq).padStart(4, '0')}`, name: `退货客户${seq}`, priceTitleId: listId, creditLimit: '0', backOrderPolicy: 'keep' }, admin))).id;
  const so = await ok(t.call('oms', SO.save, { clientId, warehouseId: wh, lines }, admin));
  await ok(t.call('oms', SO.confirm, { id: so.id, version: so.version }, admin));
  let order = await ok(t.call('oms', SO.get, { id: so.id }, admin));
  const plan = await ok(t.call('oms', DP.save, { orderId: so.id, lines: order.lines.map((l: any) => ({ orderLineId: l.id, qty: l.qty })) }, admin));
  const confirmed = await ok(t.call('oms', DP.confirm, { id: plan.id, version: plan.version }, admin));
  await ok(t.call('oms', PK.save, { taskIds: [confirmed.taskId], post: true }, admin));
  const dn = await ok(t.call('oms', DN.save, { taskId: confirmed.taskId, post: true }, admin));
  order = await ok(t.call('oms', SO.get, { id: so.id }, admin));
  expect(order.status).toBe('shipped');
  return { id: so.id as number, docNo: so.docNo as string, lines: order.lines as any[], noteId: dn.id as number, planDocNo: plan.docNo as string };
}

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login();
  wh = (await ok(t.call('cdm', '011003', { code: 'THW', name: '退货仓' }, admin))).id;
  shelf = (await ok(t.call('cdm', '011103', { warehouseId: wh, lcCode: 'A-01-01-1', zone: 'A', row: '01', column: '01', level: '1', type: 'storage' }, admin))).id;
  dock = (await ok(t.call('cdm', '011103', { warehouseId: wh, lcCode: 'R-01', zone: 'R', type: 'receiving' }, admin))).id;
  listId = Number((await t.database.db.selectFrom('priceTitle').select('id').where('code', '=', 'SP01').executeTakeFirstOrThrow()).id);
});
afterAll(async () => t?.close());

describe('sales returns', () => {
  it('returns from a shipped order: over-return refused, a race has one winner, receiving and putaway bring the goods back, the chain and the credit base', async () => {
    const p1 = await product();
    const p2 = await product();
    await ok(t.call('oms', '022603', { warehouseId: wh, lines: [{ productId: p1.id, qty: 20, locationId: shelf }, { productId: p2.id, qty: 8, locationId: shelf }], post: true }, admin));
    const order = await shippedOrder([{ productId: p1.id, qty: 10, discount: '10' }, { productId: p2.id, qty: 4 }]);
    expect(await onHand(p1.id)).toBe(10);
    const [l1, l2] = order.lines;

    // the order offers 退货; what can be returned, line by line
    const got = await ok(t.call('oms', SO.get, { id: order.id }, admin));
    expect(got.actions.map((a: any) => a.label)).toContain('退货');
    const returnable = await ok(t.call('oms', SR.returnable, { orderId: order.id }, admin));
    expect(returnable.lines.map((l: any) => [l.productCode, l.shippedQty, l.returnedQty, l.leftQty])).toEqual([[p1.code, 10, 0, 10], [p2.code, 4, 0, 4]]);

    // more than shipped: refused with the figures, nothing written
    const over = await t.call('oms', SR.save, { orderId: order.id, reason: '质量问题', lines: [{ orderLineId: l1.id, qty: 11 }] }, admin);
    expect(over.code).toBe('SALES_RETURN_OVER_4156');
    expect(over.msg).toBe(`销售订单 ${order.docNo} 第 1 行商品 ${p1.code} 退货数量超出：已发货 10，已退货 0，本次 11，最多还可退 10`);
    expect((await ok(t.call('oms', SR.list, { page: 1, pageSize: 10, orderId: order.id }, admin))).total).toBe(0);
    // an order not shipped cannot be returned from
    const draft = await ok(t.call('oms', SO.save, { clientId: got.clientId, warehouseId: wh, lines: [{ productId: p1.id, qty: 1 }] }, admin));
    const early = await t.call('oms', SR.save, { orderId: draft.id, lines: [{ orderLineId: 1, qty: 1 }] }, admin);
    expect(early.msg).toBe(`销售订单 ${draft.docNo} 当前状态为“草稿”，不能退货（尚未发货）`);

    // two returns of 6 over the same 10 shipped units at once: exactly one passes
    const race = await Promise.all([1, 2].map(() => t.call('oms', SR.save, { orderId: order.id, reason: '客户退货', lines: [{ orderLineId: l1.id, qty: 6 }] }, admin)));
    expect(race.map((r) => r.code).sort()).toEqual(['200', 'SALES_RETURN_OVER_4156']);
    const lost = race.find((r) => r.code !== '200')!;
    expect(lost.msg).toContain('已发货 10，已退货 6，本次 6，最多还可退 4');
    const won = race.find((r) => r.code === '200')!.data;
    let ret = await ok(t.call('oms', SR.get, { id: won.id }, admin));
    expect(ret).toMatchObject({ status: 'draft', orderDocNo: order.docNo, totalQty: 6, warehouseName: '退货仓' });
    expect(ret.returnDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(ret.lines[0]).toMatchObject({ shippedQty: 10, orderReturnedQty: 6, leftQty: 10 });
    // the order line shows what is returned
    let o = await ok(t.call('oms', SO.get, { id: order.id }, admin));
    expect(o.lines.map((l: any) => [l.shippedQty, l.returnedQty])).toEqual([[10, 6], [4, 0]]);

    // the delivery note cannot be reversed under the return
    const rev = await t.call('oms', DN.cancel, { id: order.noteId }, admin);
    expect(rev.code).toBe('PURCHASE_DEPENDENT_DOCS_4096');
    expect(rev.msg).toContain(ret.docNo);

    // confirmed: the warehouse receives it
    await ok(t.call('oms', SR.confirm, { id: ret.id, version: ret.version }, admin));
    ret = await ok(t.call('oms', SR.get, { id: ret.id }, admin));
    expect(ret).toMatchObject({ status: 'confirmed', statusText: '待收货', openQty: 6, taskStatusText: '待收货' });
    expect(ret.taskDocNo).toMatch(/^RT/);
    expect(ret.actions.map((a: any) => a.label)).toEqual(expect.arrayContaining(['入库任务', '收货', '作废']));
    // what 作废 would undo, told in its confirmation (the definition's repeal preview)
    expect(ret.cancelEffect).toBe(`销售退货单 ${ret.docNo} 已确认、尚未收货：作废退货单，退还销售订单 ${order.docNo} 的退货数量 6 个（1 行）`);
    expect(ret.actions.find((a: any) => a.name === 'cancel').confirm).toBe('确定作废销售退货单“{docNo}”？{cancelEffect}');
    const src = await ok(t.call('oms', SR.receivable, { returnId: ret.id }, admin));
    expect(src.lines.map((l: any) => [l.productCode, l.returnQty, l.openQty])).toEqual([[p1.code, 6, 6]]);
    const rl = src.lines[0].returnLineId;
    // more than returned: refused
    const tooMany = await t.call('oms', RN.save, { returnId: ret.id, lines: [{ returnLineId: rl, countedQty: 7, locationId: dock }], post: true }, admin);
    expect(tooMany.code).toBe('SALES_RETURN_RECEIVE_OVER_4157');
    expect(tooMany.msg).toBe(`销售退货单 ${ret.docNo} 第 1 行商品 ${p1.code} 收货数量超出：退货 6，已收 0，本次 7，最多还可收 6`);
    // no source, or a line without its return line: refused in Chinese
    expect((await t.call('oms', RN.save, { lines: [{ orderLineId: 1, countedQty: 1 }] }, admin)).msg).toContain('采购订单不能为空');
    expect((await t.call('oms', RN.save, { returnId: ret.id, lines: [{ countedQty: 1 }] }, admin)).msg).toContain('第 1 行：退货单明细不能为空');
    // both sources at once: refused
    expect((await t.call('oms', RN.save, { returnId: ret.id, orderId: 1, lines: [{ returnLineId: rl, countedQty: 1 }] }, admin)).msg).toContain('收货单只能来自一个来源');
    // 5 counted, 1 damaged: 4 into stock
    // received through the return's inbound task (the note names the task; the return comes with it)
    const rn = await ok(t.call('oms', RN.save, { taskId: ret.taskId, lines: [{ returnLineId: rl, countedQty: 5, damagedQty: 1, locationId: dock }], post: true }, admin));
    expect(rn).toMatchObject({ status: 'posted', returnId: ret.id, taskId: ret.taskId });
    expect(await onHand(p1.id)).toBe(14);
    await verifyClean();
    ret = await ok(t.call('oms', SR.get, { id: ret.id }, admin));
    // value at the delivery price: 2.00 less 10 % = 1.80 × 4
    expect(ret).toMatchObject({ status: 'receiving', receivedQty: 4, receivedAmount: '7.20', openQty: 2 });
    expect(ret.lines[0]).toMatchObject({ qty: 6, receivedQty: 4, receivedAmount: '7.20' });
    expect(ret.receivingNotes.map((n: any) => n.docNo)).toEqual([rn.docNo]);
    // received: no longer cancellable (not offered, and refused)
    expect(ret.actions.map((a: any) => a.label)).not.toContain('作废');
    expect((await t.call('oms', SR.cancel, { id: ret.id }, admin)).msg).toBe(`销售退货单 ${ret.docNo} 当前状态为“部分收货”，不能作废`);
    const note = await ok(t.call('oms', RN.get, { id: rn.id }, admin));
    expect(note).toMatchObject({ returnDocNo: ret.docNo, sourceText: `销售退货 ${ret.docNo}`, totalQty: 4 });
    // it opens on 退货收货 (client and return), from its own answer and from the receiving-note list, not on the purchase layout
    expect(note.route).toBe(`/entrepot/returnReceiving/${rn.id}`);
    const noteRows = (await ok(t.call('oms', '021401', { page: 1, pageSize: 50 }, admin))).list;
    expect(noteRows.find((r: any) => r.id === rn.id).route).toBe(`/entrepot/returnReceiving/${rn.id}`);
    expect(noteRows.filter((r: any) => r.id !== rn.id).every((r: any) => r.route === `/entrepot/receivingNoteDetail/${r.id}`)).toBe(true);

    // put away from the receiving place to the shelf: the ordinary putaway
    const pa = await ok(t.call('oms', PA.save, { receivingNoteId: rn.id, lines: [{ receivingLineId: note.lines[0].id, toLocationId: shelf, qty: 4 }], post: true }, admin));
    expect(pa.status).toBe('posted');
    const atShelf = await t.database.db.selectFrom('stockBalance').select('onHand').where('productId', '=', p1.id).where('locationId', '=', shelf).executeTakeFirstOrThrow();
    expect(Number(atShelf.onHand)).toBe(14);
    await verifyClean();
    // a put-away note is not reversed
    expect((await t.call('oms', RN.cancel, { id: rn.id }, admin)).code).toBe('PURCHASE_DEPENDENT_DOCS_4096');

    // the rest: received in full
    await ok(t.call('oms', RN.save, { returnId: ret.id, lines: [{ returnLineId: rl, countedQty: 2 }], post: true }, admin));
    ret = await ok(t.call('oms', SR.get, { id: ret.id }, admin));
    expect(ret).toMatchObject({ status: 'received', statusText: '已收货', receivedQty: 6, receivedAmount: '10.80', openQty: 0 });
    expect(ret.actions.map((a: any) => a.label)).not.toContain('收货');
    expect(await onHand(p1.id)).toBe(16);
    expect((await t.call('oms', RN.save, { returnId: ret.id, lines: [{ returnLineId: rl, countedQty: 1 }] }, admin)).msg).toBe(`销售退货单 ${ret.docNo} 当前状态为“已收货”，不能收货`);
    await verifyClean();

    // /docRelate from the order: plan … and the return → its notes → putaway; from the note: up to the order
    const names = async (docNo: string) => (await ok(t.call('oms', '025001', { docNo }, admin))).chain.map((c: any) => `${c.docTypeText} ${c.number} ← ${c.from ?? ''}`);
    expect(await names(order.docNo)).toEqual(expect.arrayContaining([
      `发货计划 ${order.planDocNo} ← ${order.docNo}`, `销售退货单 ${ret.docNo} ← ${order.docNo}`, `入库任务 ${ret.taskDocNo} ← ${ret.docNo}`, `收货单 ${rn.docNo} ← ${ret.taskDocNo}`, `上架单 ${pa.docNo} ← ${rn.docNo}`,
    ]));
    expect(await names(rn.docNo)).toEqual([
      `销售订单 ${order.docNo} ← `, `销售退货单 ${ret.docNo} ← ${order.docNo}`, `入库任务 ${ret.taskDocNo} ← ${ret.docNo}`, `收货单 ${rn.docNo} ← ${ret.taskDocNo}`, `上架单 ${pa.docNo} ← ${rn.docNo}`,
    ]);

    // a second return of the rest of line 2, cancelled on the sales repeal desk while nothing is received
    const second = await ok(t.call('oms', SR.save, { orderId: order.id, lines: [{ orderLineId: l2.id, qty: 4 }] }, admin));
    await ok(t.call('oms', SR.confirm, { id: second.id }, admin));
    o = await ok(t.call('oms', SO.get, { id: order.id }, admin));
    expect(o.lines.map((l: any) => l.returnedQty)).toEqual([6, 4]);
    const preview = await ok(t.call('oms', REPEAL.find, { docNo: second.docNo }, admin));
    expect(preview).toMatchObject({ docType: 'salesReturn', docTypeText: '销售退货单', cancellable: true });
    expect(preview.effect).toBe(`销售退货单 ${second.docNo} 已确认、尚未收货：作废退货单，退还销售订单 ${order.docNo} 的退货数量 4 个（1 行）`);
    await ok(t.call('oms', REPEAL.save, { docNo: second.docNo, reason: '客户取消退货' }, admin));
    const gone = await ok(t.call('oms', SR.get, { id: second.id }, admin));
    expect(gone.status).toBe('cancelled');
    // its inbound task went with it
    expect((await ok(t.call('oms', '021302', { id: gone.taskId }, admin))).status).toBe('cancelled');
    o = await ok(t.call('oms', SO.get, { id: order.id }, admin));
    expect(o.lines.map((l: any) => l.returnedQty)).toEqual([6, 0]);
    // the received one is not cancellable on the desk either
    expect((await ok(t.call('oms', REPEAL.find, { docNo: ret.docNo }, admin))).cancellable).toBe(false);
  });

  it('a received return offers 开红字发票 only when its lines were invoiced: the invoice, 销售退回 and the received quantities come in; the red invoice keeps its own limits', async () => {
    const SI = { save: '022403', lines: '022406' };
    const HZ = { save: '022414', get: '022413', post: '022415', creditable: '022419' };
    const p1 = await product();
    const p2 = await product();
    await ok(t.call('oms', '022603', { warehouseId: wh, lines: [{ productId: p1.id, qty: 10, locationId: shelf }, { productId: p2.id, qty: 4, locationId: shelf }], post: true }, admin));
    const order = await shippedOrder([{ productId: p1.id, qty: 10, discount: '10' }, { productId: p2.id, qty: 4 }]);
    const clientId = (await ok(t.call('oms', SO.get, { id: order.id }, admin))).clientId as number;
    const [l1, l2] = order.lines;
    let ret = await ok(t.call('oms', SR.save, { orderId: order.id, reason: '质量问题', lines: [{ orderLineId: l1.id, qty: 6 }, { orderLineId: l2.id, qty: 2 }] }, admin));
    await ok(t.call('oms', SR.confirm, { id: ret.id, version: ret.version }, admin));
    const src = await ok(t.call('oms', SR.receivable, { returnId: ret.id }, admin));
    const [r1, r2] = src.lines.map((l: any) => l.returnLineId);
    await ok(t.call('oms', RN.save, { returnId: ret.id, lines: [{ returnLineId: r1, countedQty: 4, locationId: dock }], post: true }, admin));
    const labels = async () => (await ok(t.call('oms', SR.get, { id: ret.id }, admin))).actions.map((a: any) => a.label);
    // received but never invoiced: nothing to credit, not offered
    ret = await ok(t.call('oms', SR.get, { id: ret.id }, admin));
    expect(ret).toMatchObject({ status: 'receiving', receivedQty: 4, creditInvoiceId: null });
    expect(await labels()).not.toContain('开红字发票');

    // the delivery invoiced: offered, opening the new red invoice on that invoice
    const open = (await ok(t.call('oms', SI.lines, { clientId, page: 1, pageSize: 100 }, admin))).list as any[];
    const inv = await ok(t.call('oms', SI.save, { clientId, post: true, lines: open.map((l: any) => ({ deliveryLineId: l.deliveryLineId, qty: l.openQty })) }, admin));
    ret = await ok(t.call('oms', SR.get, { id: ret.id }, admin));
    expect(ret.creditInvoiceId).toBe(inv.id);
    const offer = ret.actions.find((a: any) => a.label === '开红字发票');
    expect(offer.to).toBe('/market/invoiceDetailBack?invoiceId={creditInvoiceId}&reason=return&returnId={id}&returnDocNo={docNo}');
    // the screen's line source from the return: only the returned line, at what was received
    const lines = await ok(t.call('oms', HZ.creditable, { invoiceId: inv.id, returnId: ret.id }, admin));
    expect(lines.list.map((l: any) => [l.productCode, l.invoicedQty, l.leftQty, l.qty])).toEqual([[p1.code, 10, 10, 4]]);
    // a return is credited as 销售退回 only
    const asAllowance = await t.call('oms', HZ.save, { invoiceId: inv.id, reason: 'allowance', returnId: ret.id, lines: [{ invoiceLineId: lines.list[0].invoiceLineId, amount: '1.00' }] }, admin);
    expect(asAllowance.msg).toContain(`由销售退货单 ${ret.docNo} 开具的红字发票，红冲原因应为“销售退回”`);
    // the red invoice's own limit still applies (never more than invoiced less credited)
    const over = await t.call('oms', HZ.save, { invoiceId: inv.id, reason: 'return', returnId: ret.id, lines: [{ invoiceLineId: lines.list[0].invoiceLineId, qty: 11 }] }, admin);
    expect(over.code).toBe('INVOICE_QTY_ERROR_4026');
    const hz = await ok(t.call('oms', HZ.save, { invoiceId: inv.id, reason: 'return', returnId: ret.id, post: true, lines: lines.list.map((l: any) => ({ invoiceLineId: l.invoiceLineId, qty: l.qty })) }, admin));
    const red = await ok(t.call('oms', HZ.get, { id: hz.id }, admin));
    // 2.00 less 10 % = 1.80 × 4
    expect(red).toMatchObject({ status: 'posted', reasonText: '销售退回', returnDocNo: ret.docNo, totalQty: 4, totalAmount: '7.20' });
    // all that was received is credited: no longer offered
    expect((await ok(t.call('oms', SR.get, { id: ret.id }, admin))).creditInvoiceId).toBeNull();
    expect(await labels()).not.toContain('开红字发票');
    expect((await ok(t.call('oms', HZ.creditable, { invoiceId: inv.id, returnId: ret.id }, admin))).list).toEqual([]);

    // the rest received: offered again for what is new only
    await ok(t.call('oms', RN.save, { returnId: ret.id, lines: [{ returnLineId: r1, countedQty: 2 }, { returnLineId: r2, countedQty: 2 }], post: true }, admin));
    expect(await labels()).toContain('开红字发票');
    const rest = await ok(t.call('oms', HZ.creditable, { invoiceId: inv.id, returnId: ret.id }, admin));
    expect(rest.list.map((l: any) => [l.productCode, l.leftQty, l.qty])).toEqual([[p1.code, 6, 2], [p2.code, 4, 2]]);
    // two drafts each within the 2 received (saved one after the other, neither posted): the first posts,
    // the second is refused at posting and stays a draft — the return is never credited beyond what came back
    const p1Line = rest.list.find((l: any) => l.productCode === p1.code).invoiceLineId;
    const draftA = await ok(t.call('oms', HZ.save, { invoiceId: inv.id, reason: 'return', returnId: ret.id, lines: [{ invoiceLineId: p1Line, qty: 2 }] }, admin));
    const draftB = await ok(t.call('oms', HZ.save, { invoiceId: inv.id, reason: 'return', returnId: ret.id, lines: [{ invoiceLineId: p1Line, qty: 2 }] }, admin));
    await ok(t.call('oms', HZ.post, { id: draftA.id, version: draftA.version }, admin));
    const second = await t.call('oms', HZ.post, { id: draftB.id, version: draftB.version }, admin);
    expect([second.code, second.msg]).toEqual(['COMMON_VALIDATION_4000', `商品 ${p1.code}：销售退货单 ${ret.docNo} 已收货 6，已过账的红字发票连同本单共冲红 8，超出（另一张红字发票已先过账）`]);
    expect((await ok(t.call('oms', HZ.get, { id: draftB.id }, admin))).status).toBe('draft');
    expect((await ok(t.call('oms', HZ.get, { id: draftA.id }, admin))).status).toBe('posted');
    await verifyClean();
  });

  it('the purchasing clerk holds no return rights; the sales clerk does', async () => {
    const purchaser = await t.login('demo', 'clerk', 'demo123');
    expect((await t.call('oms', SR.list, { page: 1, pageSize: 10 }, purchaser)).code).toBe('COMMON_NO_RIGHT_4003');
    expect((await t.call('oms', SR.save, { orderId: 1, lines: [{ orderLineId: 1, qty: 1 }] }, purchaser)).code).toBe('COMMON_NO_RIGHT_4003');
    const sales = await t.login('demo', 'sales', 'demo123');
    expect((await t.call('oms', SR.list, { page: 1, pageSize: 10 }, sales)).code).toBe('200');
  });
});

describe('a sales return on the inbound task flow', () => {
  it('confirmed: an inbound task (source 销售退货); the store user receives part of it from 入库任务; closed short, the rest cancelled on the task; a red invoice covers only what was received', async () => {
    const TASK = { list: '021301', get: '021302', cancel: '021303', close: '021304' };
    const SI = { save: '022403', lines: '022406' };
    const HZ = { save: '022414' };
    const SR_CLOSE = '021111';
    const store = await t.login('demo', 'store', 'demo123');
    const p1 = await product();
    const p2 = await product();
    await ok(t.call('oms', '022603', { warehouseId: wh, lines: [{ productId: p1.id, qty: 10, locationId: shelf }, { productId: p2.id, qty: 4, locationId: shelf }], post: true }, admin));
    const order = await shippedOrder([{ productId: p1.id, qty: 10 }, { productId: p2.id, qty: 4 }]);
    const [l1, l2] = order.lines;
    let ret = await ok(t.call('oms', SR.save, { orderId: order.id, reason: '包装破损', lines: [{ orderLineId: l1.id, qty: 6 }, { orderLineId: l2.id, qty: 2 }] }, admin));
    await ok(t.call('oms', SR.confirm, { id: ret.id, version: ret.version }, admin));
    ret = await ok(t.call('oms', SR.get, { id: ret.id }, admin));

    // the warehouse finds it among the inbound tasks, with its source and client
    const rows = (await ok(t.call('oms', TASK.list, { page: 1, pageSize: 50, returnId: ret.id }, store))).list as any[];
    expect(rows.map((r) => [r.docNo, r.sourceText, r.partyName, r.statusText, r.totalQty, r.openQty])).toEqual([[ret.taskDocNo, `销售退货 ${ret.docNo}`, ret.clientName, '待收货', 8, 8]]);
    let task = await ok(t.call('oms', TASK.get, { id: ret.taskId }, store));
    expect(task.lines.map((l: any) => [l.productCode, l.qty, l.receivedQty, l.orderLineNo])).toEqual([[p1.code, 6, 0, 1], [p2.code, 2, 0, 2]]);
    expect(task.actions.find((a: any) => a.label === '收货').to).toBe('/entrepot/returnReceiving/new?returnId={returnId}&taskId={id}');
    // its chain (单据关联): the sales order, the return, the task
    const chain = (await ok(t.call('oms', '025001', { docNo: ret.taskDocNo }, store))).chain.map((c: any) => `${c.docTypeText} ${c.number}`);
    expect(chain).toEqual(expect.arrayContaining([`销售订单 ${order.docNo}`, `销售退货单 ${ret.docNo}`, `入库任务 ${ret.taskDocNo}`]));
    // a return's task is closed or cancelled on its return, not here
    expect((await t.call('oms', TASK.close, { id: ret.taskId, reason: '不收了' }, admin)).msg).toBe(`入库任务 ${ret.taskDocNo} 来自销售退货单，请在销售退货单上关闭（未收部分随之取消）`);
    expect((await t.call('oms', TASK.cancel, { id: ret.taskId }, admin)).msg).toBe(`入库任务 ${ret.taskDocNo} 来自销售退货单，请在销售退货单上作废（未收部分随之取消）`);

    // the store user receives 4 of line 1 through the task
    const src = await ok(t.call('oms', SR.receivable, { returnId: ret.id }, store));
    const [r1, r2] = src.lines.map((l: any) => l.returnLineId);
    const rn = await ok(t.call('oms', RN.save, { taskId: ret.taskId, lines: [{ returnLineId: r1, countedQty: 4, locationId: dock }], post: true }, store));
    expect(rn).toMatchObject({ status: 'posted', returnId: ret.id, taskId: ret.taskId, totalQty: 4 });
    task = await ok(t.call('oms', TASK.get, { id: ret.taskId }, store));
    expect(task).toMatchObject({ status: 'receiving', receivedQty: 4, openQty: 4 });
    expect(task.lines.map((l: any) => l.receivedQty)).toEqual([4, 0]);
    ret = await ok(t.call('oms', SR.get, { id: ret.id }, admin));
    expect(ret).toMatchObject({ status: 'receiving', statusText: '部分收货', receivedQty: 4, openQty: 4, taskStatusText: '收货中' });
    expect(ret.actions.map((a: any) => a.label)).toContain('关闭');
    await verifyClean();

    // a task line that is not the return's: refused in Chinese
    expect((await t.call('oms', RN.save, { taskId: ret.taskId, lines: [{ returnLineId: 999999, countedQty: 1 }] }, store)).code).toBe('PURCHASE_LINE_MISMATCH_4098');

    // closing short: the store user may not; a reason is required; a draft note must go first
    expect((await t.call('oms', SR_CLOSE, { id: ret.id, reason: '不再退回' }, store)).code).toBe('COMMON_NO_RIGHT_4003');
    expect((await t.call('oms', SR_CLOSE, { id: ret.id, reason: '  ' }, admin)).msg).toContain('请填写关闭原因');
    const draft = await ok(t.call('oms', RN.save, { taskId: ret.taskId, lines: [{ returnLineId: r2, countedQty: 1 }] }, store));
    const busy = await t.call('oms', SR_CLOSE, { id: ret.id, reason: '不再退回' }, admin);
    expect(busy.code).toBe('INBOUND_TASK_DRAFT_NOTES_4115');
    expect(busy.msg).toContain(draft.docNo);
    await ok(t.call('oms', RN.cancel, { id: draft.id }, admin));
    expect((await ok(t.call('oms', SR.get, { id: ret.id }, admin))).status).toBe('receiving');
    const closed = await ok(t.call('oms', SR_CLOSE, { id: ret.id, reason: '客户其余货物不再退回' }, admin));
    expect(closed).toMatchObject({ status: 'closed', releasedQty: 4, taskDocNo: ret.taskDocNo });
    ret = await ok(t.call('oms', SR.get, { id: ret.id }, admin));
    expect(ret).toMatchObject({ status: 'closed', statusText: '已关闭', closeReason: '客户其余货物不再退回', receivedQty: 4, openQty: 0, taskStatusText: '已关闭' });
    task = await ok(t.call('oms', TASK.get, { id: ret.taskId }, store));
    expect(task).toMatchObject({ status: 'closed', closeReason: '客户其余货物不再退回', openQty: 0 });
    // the unreceived rest is back on the order: it can be returned again
    const o = await ok(t.call('oms', SO.get, { id: order.id }, admin));
    expect(o.lines.map((l: any) => l.returnedQty)).toEqual([4, 0]);
    // nothing more is received on it
    expect((await t.call('oms', RN.save, { taskId: ret.taskId, lines: [{ returnLineId: r1, countedQty: 1 }] }, store)).msg).toBe(`销售退货单 ${ret.docNo} 当前状态为“已关闭”，不能收货`);
    // audited: the return's close and its task's
    const audit = await t.database.db.selectFrom('auditLog').select(['entity', 'action', 'recordLabel', 'changes']).where('action', '=', 'close')
      .where('recordLabel', 'in', [ret.docNo, ret.taskDocNo]).orderBy('id').execute();
    expect(audit.map((a) => [a.entity, a.recordLabel])).toEqual(expect.arrayContaining([['salesReturn', ret.docNo], ['inboundTask', ret.taskDocNo]]));
    expect(audit.find((a) => a.entity === 'salesReturn')!.changes).toContain('客户其余货物不再退回');
    await verifyClean();

    // the red invoice from the closed return: only the 4 received, at the invoice's price (2.00 × 4)
    const clientId = (await ok(t.call('oms', SO.get, { id: order.id }, admin))).clientId as number;
    const open = (await ok(t.call('oms', SI.lines, { clientId, page: 1, pageSize: 100 }, admin))).list as any[];
    const inv = await ok(t.call('oms', SI.save, { clientId, post: true, lines: open.map((l: any) => ({ deliveryLineId: l.deliveryLineId, qty: l.openQty })) }, admin));
    ret = await ok(t.call('oms', SR.get, { id: ret.id }, admin));
    expect(ret.creditInvoiceId).toBe(inv.id);
    const invLine = (await ok(t.call('oms', '022419', { invoiceId: inv.id, returnId: ret.id }, admin))).list[0];
    expect([invLine.productCode, invLine.qty]).toEqual([p1.code, 4]);
    const tooMuch = await t.call('oms', HZ.save, { invoiceId: inv.id, reason: 'return', returnId: ret.id, lines: [{ invoiceLineId: invLine.invoiceLineId, qty: 6 }] }, admin);
    expect(tooMuch.msg).toContain(`第 1 行：销售退货单 ${ret.docNo} 已收货待冲红的数量为 4，本次 6 超出`);
    const hz = await ok(t.call('oms', HZ.save, { invoiceId: inv.id, reason: 'return', returnId: ret.id, post: true, lines: [{ invoiceLineId: invLine.invoiceLineId, qty: 4 }] }, admin));
    expect(hz).toMatchObject({ status: 'posted', totalQty: 4, totalAmount: '8.00' });
  });
});

describe('offered only when (engine offerWhen)', () => {
  it('a sales order with an open outbound plan is not offered 作废; an outbound task is not offered 作废 once picking started', async () => {
    const p = await product();
    await ok(t.call('oms', '022603', { warehouseId: wh, lines: [{ productId: p.id, qty: 5, locationId: shelf }], post: true }, admin));
    const clientId = (await ok(t.call('cdm', '011703', { code: `TK${String(++seq).padStart(4, '0')}`, name: `钩子客户${seq}`, priceTitleId: listId, creditLimit: '0', backOrderPolicy: 'keep' }, admin))).id;
    const so = await ok(t.call('oms', SO.save, { clientId, warehouseId: wh, lines: [{ productId: p.id, qty: 3 }] }, admin));
    await ok(t.call('oms', SO.confirm, { id: so.id }, admin));
    let order = await ok(t.call('oms', SO.get, { id: so.id }, admin));
    expect(order.actions.map((a: any) => a.label)).toContain('作废');
    const plan = await ok(t.call('oms', DP.save, { orderId: so.id, lines: [{ orderLineId: order.lines[0].id, qty: 3 }] }, admin));
    order = await ok(t.call('oms', SO.get, { id: so.id }, admin));
    expect(order.actions.map((a: any) => a.label)).not.toContain('作废');
    // the list rows say the same
    const rows = await ok(t.call('oms', '020901', { page: 1, pageSize: 50, docNo: so.docNo }, admin));
    expect(rows.list[0].actions.map((a: any) => a.label)).not.toContain('作废');
    // called anyway: the transition's own refusal
    expect((await t.call('oms', SO.cancel, { id: so.id }, admin)).code).toBe('SALES_OPEN_PLANS_4148');

    const confirmed = await ok(t.call('oms', DP.confirm, { id: plan.id }, admin));
    let task = await ok(t.call('oms', OT.get, { id: confirmed.taskId }, admin));
    expect(task.actions.map((a: any) => a.label)).toContain('作废');
    // 出库任务打印 (021314): the picker's sheet of the task
    const sheet = await ok(t.call('oms', '021314', { docNo: task.docNo }, admin));
    expect(sheet).toMatchObject({ subject: `出库任务 ${task.docNo}（待拣货）`, format: 'html' });
    expect(sheet.body).toContain(p.code);
    expect(sheet.body).toContain('合计（1 行）');
    expect((await t.call('oms', '021314', { docNo: 'OT-NONE' }, admin)).code).toBe('COMMON_NOT_FOUND_4004');
    await ok(t.call('oms', PK.save, { taskIds: [confirmed.taskId] }, admin));
    task = await ok(t.call('oms', OT.get, { id: confirmed.taskId }, admin));
    expect(task).toMatchObject({ status: 'picking' });
    expect(task.actions.map((a: any) => a.label)).not.toContain('作废');
    expect((await t.call('oms', OT.cancel, { id: confirmed.taskId }, admin)).code).toBe('OUTBOUND_TASK_BUSY_4161');
    // the plan cancelled (after the picking order): the order offers 作废 again
    const pk = await t.database.db.selectFrom('pickingOrder').select(['id']).orderBy('id', 'desc').executeTakeFirstOrThrow();
    await ok(t.call('oms', '024005', { id: Number(pk.id) }, admin));
    await ok(t.call('oms', DP.cancel, { id: plan.id }, admin));
    order = await ok(t.call('oms', SO.get, { id: so.id }, admin));
    expect(order.actions.map((a: any) => a.label)).toContain('作废');
  });
});
