// Sales orders over HTTP (issue 13), on SQLite and PostgreSQL: a draft priced from the client's price
// list with big/mid/small entry and discounts, price bounds (refused, or passed by the override right and
// written to the audit trail), the credit limit at confirmation, stock committed on confirm (available =
// on hand − reserved − committed; concurrent confirmations for the last units: exactly what is available
// is committed), release on cancel, reopen, copy, and stock the ledger will not let other documents take.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyStock } from '../../src/server/domain/stock/verify.ts';
import { makeXls, makeXlsx, multipart, readXlsx } from '../fixtures/spreadsheets.ts';
import { ok, startTestServer, type TestServer } from './helpers.ts';

const SO = { list: '020901', get: '020902', save: '020903', remove: '020904', confirm: '020905', cancel: '020906', close: '020907', reopen: '020908', export: '020909', relate: '020910', pick: '020911', copy: '020912' };

let t: TestServer;
let admin: string;
let clerk: string;
let wh: number;
let client: number;
let listId: number;
let seq = 0;

async function product(extra: Record<string, unknown> = {}) {
  const code = `XS${String(++seq).padStart(4, '0')}`;
  return (await ok(t.call('cdm', '010203', { code, name: `销售商品${code}`, unitSmall: '个', unitMid: '盒', unitBig: '箱', midQty: 6, bigQty: 24, ...extra }, admin))).id as number;
}

async function stock(productId: number, qty: number) {
  await ok(t.call('oms', '022603', { warehouseId: wh, lines: [{ productId, qty }], post: true }, admin));
}

async function listPrice(productId: number, price: string) {
  await ok(t.call('cdm', '014031', { productId, priceTitleId: listId, price }, admin));
}

const order = (lines: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}, token = admin) =>
  t.call('oms', SO.save, { clientId: client, warehouseId: wh, orderDate: '2026-11-26', lines, ...extra }, token);

async function summary(productId: number) {
  const r = await t.database.db.selectFrom('stockSummary').select(['onHand', 'reserved', 'committed']).where('productId', '=', productId).where('warehouseId', '=', wh).executeTakeFirst();
  return { onHand: Number(r?.onHand ?? 0), reserved: Number(r?.reserved ?? 0), committed: Number(r?.committed ?? 0) };
}

async function settings(values: Record<string, unknown>) {
  const s = await ok(t.call('cdm', '013601', {}, admin));
  await ok(t.call('cdm', '013602', { version: s.version, ...values }, admin));
}

async function verifyClean() {
  const r = await verifyStock(t.database.db);
  expect(r.differences.map((d) => d.message)).toEqual([]);
}

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login();
  wh = (await ok(t.call('cdm', '011003', { code: 'XSW', name: '销售仓' }, admin))).id;
  // the demo company's sale price list
  listId = Number((await t.database.db.selectFrom('priceTitle').select('id').where('code', '=', 'SP01').executeTakeFirstOrThrow()).id);
  client = (await ok(t.call('cdm', '011703', { code: 'KH001', name: '华南贸易', priceTitleId: listId, address: '广州市天河路 1 号', creditLimit: '0' }, admin))).id;
  // a sales clerk: may order, confirm and change orders, not pass the bounds
  const role = await ok(t.call('cdm', '013303', { name: '销售助理', rights: ['market.list', 'market.order', 'market.orderDetail', 'market.order.edit', 'market.order.confirm', 'market.order.change', 'market.order.import'] }, admin));
  await ok(t.call('cdm', '013403', { userName: 'seller', password: 'secret-111', roleIds: [role.id], warehouseId: wh }, admin));
  clerk = await t.login('demo', 'seller', 'secret-111');
});
afterAll(async () => t?.close());

describe('sales orders', () => {
  it('saves a draft priced from the client\'s list, with big/mid/small entry and a discount, and shows what is available', async () => {
    const p = await product();
    await listPrice(p, '12.50');
    await stock(p, 100);
    const picked = await ok(t.call('oms', SO.pick, { keyword: 'XS0001', clientId: client, warehouseId: wh }, clerk));
    expect(picked.list[0]).toMatchObject({ id: p, price: '12.50', available: 100, unitBig: '箱', bigQty: 24 });

    // 1 箱 + 1 盒 + 2 个 = 24 + 6 + 2 = 32; list price, 10 % off: 32 × 11.25 = 360.00
    const saved = await ok(order([{ productId: p, big: 1, mid: 1, small: 2, discount: '10' }], {}, clerk));
    expect(saved.docNo).toMatch(/^SO\d{8}\d{4}$/);
    const doc = await ok(t.call('oms', SO.get, { id: saved.id }, clerk));
    expect(doc).toMatchObject({ status: 'draft', clientName: '华南贸易', deliveryAddress: '广州市天河路 1 号', backOrderPolicy: 'keep', totalQty: 32, totalAmount: '360.00', totalAmountBase: '360.00', editable: true });
    expect(doc.lines[0]).toMatchObject({ qty: 32, price: '12.5000', listPrice: '12.5000', discount: '10.00', amount: '360.00', available: 100, reservedQty: 0 });
    expect(doc.actions.map((a: any) => a.label)).toEqual(['确认', '作废', '删除']);

    const bad = await order([{ productId: p, qty: 0 }, { productId: 999999, qty: 1 }], {}, clerk);
    expect(bad.code).toBe('COMMON_VALIDATION_4000');
    expect(bad.msg).toContain('第 1 行');
    const noPrice = await order([{ productId: await product() , qty: 1 }], {}, clerk);
    expect(noPrice.msg).toContain('单价不能为空');
  });

  it('refuses a price outside the bounds, naming the line; the override right passes it and the audit trail says so', async () => {
    const p = await product();
    await listPrice(p, '10.00');
    await settings({ limitMultiple: '0.9', ceilingMultiple: '1.5' });
    try {
      const before = (await ok(t.call('oms', SO.list, { page: 1, pageSize: 1 }, admin))).total;
      const low = await order([{ productId: p, qty: 1, price: '10' }, { productId: p, qty: 1, price: '8.99' }], {}, clerk);
      expect(low).toMatchObject({ code: 'SALES_PRICE_LOW_4143' });
      const code = (await ok(t.call('cdm', '010202', { id: p }, admin))).code;
      expect(low.msg).toBe(`第 2 行商品 ${code} 的成交价 8.99 低于最低售价 9.00（价格表价 10.00 × 销售价下限倍数 0.9）；超限销售需要“销售订单超限放行”权限`);
      // the discount counts: 10 × (1 − 20 %) = 8 is below 9 too
      expect((await order([{ productId: p, qty: 1, discount: '20' }], {}, clerk)).code).toBe('SALES_PRICE_LOW_4143');
      expect((await order([{ productId: p, qty: 1, price: '15.01' }], {}, clerk)).code).toBe('SALES_PRICE_HIGH_4144');
      expect((await ok(t.call('oms', SO.list, { page: 1, pageSize: 1 }, admin))).total).toBe(before);
      const fine = await ok(order([{ productId: p, qty: 1, price: '9' }, { productId: p, qty: 1, price: '15' }], {}, clerk));

      // copying an old order writes its prices through the same check
      await settings({ limitMultiple: '0.95', ceilingMultiple: '1.5' });
      expect((await t.call('oms', SO.copy, { id: fine.id }, clerk)).code).toBe('SALES_PRICE_LOW_4143');

      const passed = await ok(order([{ productId: p, qty: 1, price: '5' }], {}, admin));
      const audit = await t.database.db.selectFrom('auditLog').select(['action', 'changes']).where('entity', '=', 'salesOrder').where('recordId', '=', String(passed.id)).execute();
      expect(audit.map((a) => a.action).sort()).toEqual(['create', 'override']);
      expect(JSON.stringify(audit.find((a) => a.action === 'override')!.changes)).toContain(`第 1 行 ${code} 成交价`);
    } finally {
      await settings({ limitMultiple: '0', ceilingMultiple: '0' });
    }
  });

  it('commits stock on confirm, refuses what is not available with the figures, releases on cancel; the ledger verifies', async () => {
    const p = await product();
    await listPrice(p, '3');
    await stock(p, 10);
    const a = await ok(order([{ productId: p, qty: 7 }], {}, clerk));
    const confirmed = await ok(t.call('oms', SO.confirm, { id: a.id, version: a.version }, clerk));
    expect(confirmed).toMatchObject({ status: 'confirmed', statusText: '已确认' });
    expect(await summary(p)).toEqual({ onHand: 10, reserved: 0, committed: 7 });
    const inv = await ok(t.call('cdm', '011301', { page: 1, pageSize: 5, productId: p, warehouseId: wh }, admin));
    expect(inv.list[0]).toMatchObject({ onHand: 10, reserved: 7, available: 3 });
    const got = await ok(t.call('oms', SO.get, { id: a.id }, clerk));
    expect(got).toMatchObject({ reservedQty: 7, editable: false });
    expect(got.lines[0].reservedQty).toBe(7);

    const b = await ok(order([{ productId: p, qty: 4 }], {}, clerk));
    const short = await t.call('oms', SO.confirm, { id: b.id, version: b.version }, clerk);
    expect(short.code).toBe('STOCK_RESERVE_NOT_ENOUGH_4072');
    expect(short.msg).toBe(`商品 ${got.lines[0].productCode} 在 销售仓 的可预留库存不足：现有 10，已预留 7，需要预留 4`);
    expect((await ok(t.call('oms', SO.get, { id: b.id }, clerk))).status).toBe('draft');

    // other documents cannot take committed stock either
    const adj = await t.call('oms', '022703', { warehouseId: wh, reason: 'loss', lines: [{ productId: p, qty: -4 }], post: true }, admin);
    expect(adj.code).toBe('STOCK_NOT_ENOUGH_4071');
    expect(await summary(p)).toEqual({ onHand: 10, reserved: 0, committed: 7 });

    await ok(t.call('oms', SO.cancel, { id: a.id }, clerk));
    expect(await summary(p)).toEqual({ onHand: 10, reserved: 0, committed: 0 });
    expect((await ok(t.call('oms', SO.get, { id: a.id }, clerk))).lines[0].reservedQty).toBe(0);
    await ok(t.call('oms', SO.confirm, { id: b.id }, clerk));
    expect(await summary(p)).toEqual({ onHand: 10, reserved: 0, committed: 4 });
    await verifyClean();
  });

  it('confirmations racing for the last units: exactly what is available gets committed', async () => {
    const p = await product();
    await listPrice(p, '1');
    await stock(p, 5);
    const drafts = await Promise.all(Array.from({ length: 12 }, () => ok(order([{ productId: p, qty: 1 }], {}, clerk))));
    const results = await Promise.all(drafts.map((d) => t.call('oms', SO.confirm, { id: d.id }, clerk)));
    expect(results.filter((r) => r.code === '200')).toHaveLength(5);
    expect(results.filter((r) => r.code !== '200').every((r) => r.code === 'STOCK_RESERVE_NOT_ENOUGH_4072')).toBe(true);
    expect(await summary(p)).toEqual({ onHand: 5, reserved: 0, committed: 5 });
    await verifyClean();
  });

  it('checks the credit limit at confirmation with the figures; override passes it; a reopened order is checked again', async () => {
    const p = await product();
    await listPrice(p, '100');
    await stock(p, 100);
    const c = (await ok(t.call('cdm', '011703', { code: 'KH002', name: '信用客户', priceTitleId: listId, creditLimit: '1000' }, admin))).id;
    const first = await ok(order([{ productId: p, qty: 6 }], { clientId: c }, clerk));
    await ok(t.call('oms', SO.confirm, { id: first.id }, clerk));
    const second = await ok(order([{ productId: p, qty: 5 }], { clientId: c }, clerk));
    const over = await t.call('oms', SO.confirm, { id: second.id }, clerk);
    expect(over.code).toBe('SALES_CREDIT_LIMIT_4145');
    expect(over.msg).toBe('客户“信用客户”超出信用额度：额度 1000.00，未结应收 0.00，未结订单 600.00，本单 500.00，合计 1100.00（本位币）；超额确认需要“销售订单超限放行”权限');
    expect((await summary(p)).committed).toBe(6);

    // cancelling the first frees the credit; reopening it and confirming again is checked again
    await ok(t.call('oms', SO.cancel, { id: first.id }, clerk));
    await ok(t.call('oms', SO.confirm, { id: second.id }, clerk));
    const reopened = await ok(t.call('oms', SO.reopen, { id: first.id }, clerk));
    expect(reopened.status).toBe('draft');
    expect((await t.call('oms', SO.confirm, { id: first.id }, clerk)).code).toBe('SALES_CREDIT_LIMIT_4145');
    await ok(t.call('oms', SO.confirm, { id: first.id }, admin));
    const audit = await t.database.db.selectFrom('auditLog').select(['action']).where('entity', '=', 'salesOrder').where('recordId', '=', String(first.id)).execute();
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['override', 'reopen', 'confirm', 'cancel']));
    expect(await summary(p)).toEqual({ onHand: 100, reserved: 0, committed: 11 });
  });

  it('counts the open receivables of the client (finance) in the credit check; a receipt frees the credit', async () => {
    const p = await product();
    await listPrice(p, '100');
    await stock(p, 10);
    const c = (await ok(t.call('cdm', '011703', { code: 'KH003', name: '应收客户', priceTitleId: listId, creditLimit: '1000' }, admin))).id;
    const ob = await ok(t.call('oms', '026213', { side: 'receivable', clientId: c, amount: '800', post: true }, admin));
    const so = await ok(order([{ productId: p, qty: 3 }], { clientId: c }, clerk));
    const over = await t.call('oms', SO.confirm, { id: so.id }, clerk);
    expect(over.msg).toBe('客户“应收客户”超出信用额度：额度 1000.00，未结应收 800.00，未结订单 0.00，本单 300.00，合计 1100.00（本位币）；超额确认需要“销售订单超限放行”权限');
    const item = (await ok(t.call('oms', '026010', { partyType: 'client', partyId: c }, admin))).list.find((i: any) => i.docNo === ob.docNo);
    await ok(t.call('oms', '026003', { direction: 'receipt', clientId: c, amount: '100', post: true, lines: [{ openItemId: item.id, amount: '100' }] }, admin));
    await ok(t.call('oms', SO.confirm, { id: so.id }, clerk));
  });

  it('refuses locked or stopped products, disabled clients, and a caller without the right', async () => {
    const p = await product();
    await listPrice(p, '2');
    await stock(p, 10);
    const d = await ok(order([{ productId: p, qty: 1 }], {}, clerk));
    const prod = await ok(t.call('cdm', '010202', { id: p }, admin));
    await ok(t.call('cdm', '010203', { ...prod, locked: true }, admin));
    expect((await t.call('oms', SO.confirm, { id: d.id }, clerk)).code).toBe('PRODUCT_LOCK_4006');
    expect((await order([{ productId: p, qty: 1 }], {}, clerk)).code).toBe('PRODUCT_LOCK_4006');
    expect((await summary(p)).committed).toBe(0);

    // the demo company's purchasing clerk holds no sales rights
    const purchaser = await t.login('demo', 'clerk', 'demo123');
    expect((await order([{ productId: p, qty: 1 }], {}, purchaser)).code).toBe('COMMON_NO_RIGHT_4003');
    expect((await t.call('oms', SO.confirm, { id: d.id }, purchaser)).code).toBe('COMMON_NO_RIGHT_4003');
    const off = (await ok(t.call('cdm', '011703', { code: 'KH009', name: '停用客户', enabled: false }, admin))).id;
    expect((await order([{ productId: p, qty: 1 }], { clientId: off }, clerk))).toMatchObject({ code: 'SALES_CLIENT_DISABLED_4141', msg: '客户“停用客户”已停用，不能用于销售订单' });
  });

  it('价格查询 shows the last sale prices of confirmed orders, net of discount; drafts do not count', async () => {
    const p = await product();
    await listPrice(p, '10');
    await stock(p, 10);
    await ok(order([{ productId: p, qty: 1, price: '9', discount: '5' }]));
    const sold = await ok(order([{ productId: p, qty: 2, price: '10', discount: '12.5' }]));
    await ok(t.call('oms', SO.confirm, { id: sold.id }, admin));
    const r = await ok(t.call('oms', '022501', { id: p }, admin));
    expect(r.sales).toEqual([expect.objectContaining({ docNo: sold.docNo, clientName: '华南贸易', price: '8.7500', discount: '12.50', qty: 2, statusText: '已确认', route: `/market/orderDetail/${sold.id}` })]);
  });

  it('lists with filters and exports', async () => {
    const page = await ok(t.call('oms', SO.list, { page: 1, pageSize: 50, clientId: client, status: 'confirmed' }, clerk));
    expect(page.total).toBeGreaterThan(0);
    expect(page.list.every((r: any) => r.clientName === '华南贸易' && r.status === 'confirmed')).toBe(true);
    const res = await t.raw('oms', SO.export, { clientId: client }, admin);
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-type'])).toContain('spreadsheetml');
  });
});

describe('outbound plans (发货计划) of confirmed sales orders', () => {
  const DP = { list: '020701', get: '020702', save: '020703', remove: '020704', confirm: '020705', cancel: '020706', export: '020707', relate: '020708', plannable: '020709' };

  it('plans what is left of each line, refuses more with the figures, holds the order until the plan is cancelled, and shows the chain', async () => {
    const p = await product();
    const q = await product();
    await listPrice(p, '2');
    await listPrice(q, '3');
    await stock(p, 50);
    await stock(q, 50);
    const so = await ok(order([{ productId: p, qty: 20 }, { productId: q, big: 1 }]));
    const early = await ok(t.call('oms', DP.plannable, { orderId: so.id }, admin));
    expect(early.plannable).toBe(false);
    // a draft order cannot be planned yet
    const refusedDraft = await t.call('oms', DP.save, { orderId: so.id, lines: [{ orderLineId: early.lines[0].orderLineId, qty: 1 }] }, admin);
    expect(refusedDraft).toMatchObject({ code: 'DOCUMENT_STATUS_4131', msg: `销售订单 ${so.docNo} 当前状态为“草稿”，不能制定发货计划` });
    await ok(t.call('oms', SO.confirm, { id: so.id }, admin));
    const soDoc = await ok(t.call('oms', SO.get, { id: so.id }, admin));
    // the confirmed order offers its plan while something is left to plan
    expect(soDoc.actions).toContainEqual(expect.objectContaining({ label: '发货计划', to: '/market/deliveryPlanOrder?orderId={id}' }));
    const src = await ok(t.call('oms', DP.plannable, { orderId: so.id }, admin));
    expect(src).toMatchObject({ plannable: true, clientName: '华南贸易', warehouseName: '销售仓' });
    expect(src.lines.map((l: any) => [l.qty, l.leftQty])).toEqual([[20, 20], [24, 24]]);
    const [l1, l2] = src.lines;

    const plan = await ok(t.call('oms', DP.save, { orderId: so.id, shipDate: '2026-12-01', transportMode: 'truck', carrier: '顺丰物流', lines: [{ orderLineId: l1.orderLineId, qty: 15 }, { orderLineId: l2.orderLineId, mid: 2 }] }, admin));
    expect(plan.docNo).toMatch(/^DP\d{12}$/);
    const got = await ok(t.call('oms', DP.get, { id: plan.id }, admin));
    expect(got).toMatchObject({ status: 'draft', orderDocNo: so.docNo, clientName: '华南贸易', warehouseName: '销售仓', totalQty: 27, transportMode: 'truck' });
    expect(got.lines.map((l: any) => [l.productId, l.qty, l.orderedQty])).toEqual([[p, 15, 20], [q, 12, 24]]);

    const over = await t.call('oms', DP.save, { orderId: so.id, lines: [{ orderLineId: l1.orderLineId, qty: 6 }] }, admin);
    expect(over.code).toBe('SALES_PLAN_OVER_4147');
    expect(over.msg).toContain('订购 20，已发货 0，已计划 15，本次 6，最多还可计划 5');
    const other = await ok(t.call('oms', SO.save, { clientId: client, warehouseId: wh, lines: [{ productId: p, qty: 1 }] }, admin));
    await ok(t.call('oms', SO.confirm, { id: other.id }, admin));
    const foreign = await ok(t.call('oms', DP.plannable, { orderId: other.id }, admin));
    expect((await t.call('oms', DP.save, { orderId: so.id, lines: [{ orderLineId: foreign.lines[0].orderLineId, qty: 1 }] }, admin)).code).toBe('PURCHASE_LINE_MISMATCH_4098');

    await ok(t.call('oms', DP.confirm, { id: plan.id }, admin));
    const refused = await t.call('oms', SO.cancel, { id: so.id }, admin);
    expect(refused).toMatchObject({ code: 'SALES_OPEN_PLANS_4148', msg: `销售订单 ${so.docNo} 还有未完成的发货计划 ${plan.docNo}，请先作废发货计划` });
    const chain = await ok(t.call('oms', DP.relate, { id: plan.id }, admin));
    expect(JSON.stringify(chain)).toContain(so.docNo);
    // what the screens' 关联单据 and /docRelate ask: the chain by number, from either end
    const byNumber = await ok(t.call('oms', '025001', { docNo: so.docNo }, admin));
    // confirming the plan gave the warehouse its outbound task (issue 14)
    expect(byNumber.list.map((r: any) => r.number)).toEqual([so.docNo, plan.docNo, expect.stringMatching(/^OT\d{12}$/)]);

    await ok(t.call('oms', DP.cancel, { id: plan.id }, admin));
    expect((await ok(t.call('oms', DP.plannable, { orderId: so.id }, admin))).lines.map((l: any) => l.leftQty)).toEqual([20, 24]);
    await ok(t.call('oms', SO.cancel, { id: so.id }, admin));
    expect(await summary(p)).toMatchObject({ committed: 1 });
    await verifyClean();
  });
});

describe('销售订单数据查询 (oms 021001–021002)', () => {
  it('lists the lines of every order with net prices and open quantities, filtered, and exports them', async () => {
    const p = await product();
    await listPrice(p, '4');
    await stock(p, 30);
    const a = await ok(order([{ productId: p, qty: 10, discount: '25' }]));
    await ok(t.call('oms', SO.confirm, { id: a.id }, admin));
    await ok(order([{ productId: p, qty: 3 }], { orderDate: '2026-11-20' }));
    const all = await ok(t.call('oms', '021001', { page: 1, pageSize: 20, productId: p }, admin));
    expect(all.total).toBe(2);
    expect(all.list[0]).toMatchObject({ docNo: a.docNo, qty: 10, reservedQty: 10, shippedQty: 0, openQty: 10, price: '4.0000', discount: '25.00', netPrice: '3.0000', amount: '30.00', statusText: '已确认', clientName: '华南贸易' });
    expect((await ok(t.call('oms', '021001', { page: 1, pageSize: 20, productId: p, status: 'draft' }, admin))).list.map((r: any) => r.qty)).toEqual([3]);
    expect((await ok(t.call('oms', '021001', { page: 1, pageSize: 20, productId: p, dateTo: '2026-11-21' }, admin))).total).toBe(1);
    expect((await t.call('oms', '021001', { page: 1, pageSize: 20, dateFrom: '2026-13-01' }, admin)).msg).toContain('订单日期从不是有效的日期');
    const file = await t.raw('oms', '021002', { productId: p }, admin);
    expect(file.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.rowCount).toBe(3);
    expect(sheet.getRow(2).getCell(18).value).toBe(30);
  });
});

describe('销售撤销单 (oms 022901–022904)', () => {
  const RX = { list: '022901', get: '022902', preview: '022903', create: '022904' };
  const DP = { save: '020703', confirm: '020705', plannable: '020709' };
  const repealCount = async () => Number((await t.database.db.selectFrom('repeal').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);

  it('cancels an outbound plan and then its order through their own cancellations, releasing the reservation; refuses with the blocking plan named and writes nothing', async () => {
    // a sales desk clerk: repeals, and the cancelling rights of orders and plans
    const deskRole = await ok(t.call('cdm', '013303', { name: '销售内勤', rights: ['market.repeal', 'market.repealDetail', 'market.repeal.edit', 'market.order.confirm', 'market.deliveryPlan.confirm'] }, admin));
    await ok(t.call('cdm', '013403', { userName: 'salesdesk', password: 'secret-111', roleIds: [deskRole.id] }, admin));
    const clerk = await t.login('demo', 'salesdesk', 'secret-111');
    const p = await product();
    await listPrice(p, '5');
    await stock(p, 40);
    const so = await ok(order([{ productId: p, qty: 30 }]));
    await ok(t.call('oms', SO.confirm, { id: so.id }, admin));
    expect(await summary(p)).toMatchObject({ onHand: 40, committed: 30 });
    const src = await ok(t.call('oms', DP.plannable, { orderId: so.id }, admin));
    const plan = await ok(t.call('oms', DP.save, { orderId: so.id, lines: [{ orderLineId: src.lines[0].orderLineId, qty: 10 }] }, admin));
    await ok(t.call('oms', DP.confirm, { id: plan.id }, admin));

    // the preview names the plan that stands in the order's way; the repeal is refused and writes nothing
    const preview = await ok(t.call('oms', RX.preview, { docNo: so.docNo }, clerk));
    expect(preview).toMatchObject({ found: true, docType: 'salesOrder', docTypeText: '销售订单', statusText: '已确认', cancellable: false, route: `/market/orderDetail/${so.id}` });
    expect(preview.blockers).toEqual([{ docType: 'deliveryPlan', docTypeText: '发货计划', docNo: plan.docNo }]);
    expect(preview.effect).toBe(`销售订单 ${so.docNo} 已确认、尚未发货：作废订单（1 行，共 30 个），释放已预留库存 30 个`);
    const count = await repealCount();
    const refused = await t.call('oms', RX.create, { docNo: so.docNo, reason: '客户取消' }, clerk);
    expect(refused).toMatchObject({ code: 'SALES_OPEN_PLANS_4148', msg: `销售订单 ${so.docNo} 还有未完成的发货计划 ${plan.docNo}，请先作废发货计划` });
    expect(await repealCount()).toBe(count);
    expect(await summary(p)).toMatchObject({ committed: 30 });

    // the plan first (its planned quantity goes back to the order), then the order (its reservation is released)
    const r1 = await ok(t.call('oms', RX.create, { docNo: ` ${plan.docNo} `, reason: '  改期发货  ' }, clerk));
    expect(r1).toMatchObject({ docType: 'deliveryPlan', targetDocNo: plan.docNo, fromStatusText: '待出库', status: 'cancelled', route: `/market/repealDetail/${r1.id}` });
    expect(r1.docNo).toMatch(/^XC\d{12}$/);
    const r2 = await ok(t.call('oms', RX.create, { docNo: so.docNo, reason: '客户取消' }, clerk));
    expect(await summary(p)).toMatchObject({ onHand: 40, committed: 0 });
    const got = await ok(t.call('oms', RX.get, { id: r2.id }, clerk));
    expect(got).toMatchObject({ docTypeText: '销售订单', targetDocNo: so.docNo, fromStatusText: '已确认', targetStatusText: '已作废', reason: '客户取消', targetRoute: `/market/orderDetail/${so.id}` });
    const listed = await ok(t.call('oms', RX.list, { page: 1, pageSize: 20, docNo: so.docNo }, clerk));
    expect(listed.list.map((r: any) => r.targetDocNo)).toEqual([so.docNo]);
    // a second repeal: the status refusal; a procurement number is not a sales document; no reason: refused
    expect((await t.call('oms', RX.create, { docNo: so.docNo, reason: 'x' }, clerk)).msg).toBe(`销售订单 ${so.docNo} 当前状态为“已作废”，不能作废`);
    expect((await t.call('oms', RX.create, { docNo: 'CG000000', reason: 'x' }, clerk)).msg).toBe('没有找到单号为 CG000000 的可撤销单据（销售订单、发货计划、出库任务、拣货单、送货单、销售退货单）');
    expect((await t.call('oms', RX.create, { docNo: so.docNo, reason: '  ' }, clerk)).msg).toBe('撤销原因不能为空');
    // the procurement desk does not list sales repeals, nor the sales desk procurement ones
    const procurement = await ok(t.call('oms', '021801', { page: 1, pageSize: 50 }, admin));
    expect(procurement.list.map((r: any) => r.docNo)).not.toContain(r1.docNo);
    expect((await t.call('oms', '021802', { id: r1.id }, admin)).code).toBe('COMMON_NOT_FOUND_4004');
    await verifyClean();
  });

  it('needs the document\'s own right to cancel it', async () => {
    const p = await product();
    await listPrice(p, '5');
    const so = await ok(order([{ productId: p, qty: 1 }]));
    const role = await ok(t.call('cdm', '013303', { name: '撤销员', rights: ['market.repeal', 'market.repeal.edit'] }, admin));
    await ok(t.call('cdm', '013403', { userName: 'repealer', password: 'secret-111', roleIds: [role.id] }, admin));
    const token = await t.login('demo', 'repealer', 'secret-111');
    const refused = await t.call('oms', RX.create, { docNo: so.docNo, reason: '录错' }, token);
    expect(refused.code).toBe('COMMON_NO_RIGHT_4003');
    expect((await ok(t.call('oms', SO.get, { id: so.id }, admin))).status).toBe('draft');
  });
});

describe('presale lines (预售): whitelisted clients order against expected arrivals', () => {
  const PO = { save: '020203', confirm: '020205', get: '020202' };
  const PL = { save: '021203', confirm: '021204' };
  const RN = { save: '021403' };

  async function setPresale(on: boolean) {
    const s = await ok(t.call('cdm', '013601', {}, admin));
    await ok(t.call('cdm', '013602', { version: s.version, flags: { ...s.flags, presale: on } }, admin));
  }

  /** A confirmed purchase order into the sales warehouse, planned and confirmed: an open inbound task expecting `qty`. */
  async function expected(productId: number, qty: number) {
    const supplierId = (await ok(t.call('cdm', '011601', { page: 1, pageSize: 10 }, admin))).list[0].id;
    const po = await ok(t.call('oms', PO.save, { supplierId, warehouseId: wh, expectedDate: '2026-12-20', lines: [{ productId, qty, price: 1 }] }, admin));
    await ok(t.call('oms', PO.confirm, { id: po.id, version: po.version }, admin));
    const got = await ok(t.call('oms', PO.get, { id: po.id }, admin));
    const plan = await ok(t.call('oms', PL.save, { orderId: po.id, lines: [{ orderLineId: got.lines[0].id, qty }] }, admin));
    const confirmed = await ok(t.call('oms', PL.confirm, { id: plan.id, version: plan.version }, admin));
    return { poId: po.id as number, orderLineId: got.lines[0].id as number, taskId: confirmed.taskId as number };
  }

  it('commits beyond stock up to the expected arrivals for a whitelisted client only; arrivals cover it; cancel gives the plan back; verify is clean', async () => {
    await setPresale(true);
    const p = await product();
    const code = `XS${String(seq).padStart(4, '0')}`;
    await listPrice(p, '8');
    await stock(p, 10);
    const arrival = await expected(p, 50);
    const vip = (await ok(t.call('cdm', '011703', { code: 'YS001', name: '预售大客户', priceTitleId: listId }, admin))).id;
    const plan = (await ok(t.call('cdm', '014803', { code: 'YS-P1', name: '冬季预售', status: 'active' }, admin))).id;
    const companyId = Number((await t.database.db.selectFrom('company').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id);
    const now = new Date().toISOString();
    await t.database.db.insertInto('presaleItem').values({ companyId, version: 1, createdAt: now, updatedAt: now, planId: plan, productId: p, qty: 45, price: 800 }).execute();
    await ok(t.call('cdm', '014823', { planId: plan, clientId: vip }, admin));

    // not on the whitelist: the ordinary refusal
    const plain = await ok(order([{ productId: p, qty: 30 }]));
    expect((await t.call('oms', SO.confirm, { id: plain.id }, admin)).code).toBe('STOCK_RESERVE_NOT_ENOUGH_4072');

    // whitelisted: 10 from stock, 25 against the arrival
    const a = await ok(order([{ productId: p, qty: 5 }, { productId: p, qty: 30 }], { clientId: vip }));
    await ok(t.call('oms', SO.confirm, { id: a.id }, admin));
    expect(await summary(p)).toMatchObject({ onHand: 10, committed: 35 });
    const got = await ok(t.call('oms', SO.get, { id: a.id }, admin));
    expect(got.lines.map((l: any) => [l.qty, l.reservedQty, l.presaleQty, l.presalePlanId])).toEqual([[5, 5, 0, null], [30, 30, 25, plan]]);
    await verifyClean();

    // more than the arrival leaves: refused with the figures; the plan's quantity holds too
    const b = await ok(order([{ productId: p, qty: 26 }], { clientId: vip }));
    const over = await t.call('oms', SO.confirm, { id: b.id }, admin);
    expect(over).toMatchObject({ code: 'SALES_PRESALE_OVER_4149' });
    expect(over.msg).toBe(`商品 ${code} 预售超出预计到货：本单需要 26，可用 0，预计到货 50，已预售 25，还可预售 25`);
    const c = await ok(order([{ productId: p, qty: 21 }], { clientId: vip }));
    const planOver = await t.call('oms', SO.confirm, { id: c.id }, admin);
    expect(planOver).toMatchObject({ code: 'SALES_PRESALE_PLAN_4150', msg: `商品 ${code} 超出预售计划“冬季预售”的预售数量：计划 45，已预售 25，本单 21` });
    expect(await summary(p)).toMatchObject({ committed: 35 });

    // an ordinary order gets nothing while the presale is uncovered; an adjustment cannot take the goods
    expect((await t.call('oms', SO.confirm, { id: plain.id }, admin)).code).toBe('STOCK_RESERVE_NOT_ENOUGH_4072');
    const take = await t.call('oms', '022703', { warehouseId: wh, reason: 'loss', post: true, lines: [{ productId: p, qty: -1 }] }, admin);
    expect(take).toMatchObject({ code: 'STOCK_NOT_ENOUGH_4071' });
    expect(take.msg).toContain('现有 10');

    // the goods arrive: on hand covers the commitment, nothing converted
    await ok(t.call('oms', RN.save, { orderId: arrival.poId, taskId: arrival.taskId, post: true, lines: [{ orderLineId: arrival.orderLineId, countedQty: 50 }] }, admin));
    expect(await summary(p)).toMatchObject({ onHand: 60, committed: 35 });
    await verifyClean();

    // cancelling gives the plan its quantity back: the 21 now fit the plan (and the stock)
    await ok(t.call('oms', SO.cancel, { id: a.id }, admin));
    expect(Number((await t.database.db.selectFrom('presaleItem').select('soldQty').where('planId', '=', plan).executeTakeFirstOrThrow()).soldQty)).toBe(0);
    await ok(t.call('oms', SO.confirm, { id: c.id }, admin));
    expect(await summary(p)).toMatchObject({ onHand: 60, committed: 21 });
    await verifyClean();
    await setPresale(false);
  });

  it('presale confirmations racing for the last expected units: exactly what arrives is committed', async () => {
    await setPresale(true);
    const p = await product();
    await listPrice(p, '8');
    await expected(p, 10);
    const vip = (await ok(t.call('cdm', '011703', { code: 'YS002', name: '预售客户二', priceTitleId: listId }, admin))).id;
    const plan = (await ok(t.call('cdm', '014803', { code: 'YS-P2', name: '抢购预售', status: 'active' }, admin))).id;
    const companyId = Number((await t.database.db.selectFrom('company').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id);
    const now = new Date().toISOString();
    await t.database.db.insertInto('presaleItem').values({ companyId, version: 1, createdAt: now, updatedAt: now, planId: plan, productId: p, qty: 0, price: 800 }).execute();
    await ok(t.call('cdm', '014823', { planId: plan, clientId: vip }, admin));
    const orders = [];
    for (let i = 0; i < 6; i++) orders.push(await ok(order([{ productId: p, qty: 3 }], { clientId: vip })));
    const results = await Promise.all(orders.map((o) => t.call('oms', SO.confirm, { id: o.id }, admin)));
    expect(results.filter((r) => r.code === '200')).toHaveLength(3);
    expect(results.filter((r) => r.code !== '200').map((r) => r.code)).toEqual(['SALES_PRESALE_OVER_4149', 'SALES_PRESALE_OVER_4149', 'SALES_PRESALE_OVER_4149']);
    expect(await summary(p)).toMatchObject({ onHand: 0, committed: 9 });
    await verifyClean();
    await setPresale(false);
  });
});

describe('订单变更 (oms 020913): a confirmed order\'s line changed with a reason', () => {
  const CHANGE = '020913';
  const DP = { save: '020703', plannable: '020709' };

  it('raises and lowers a quantity through the ledger, keeps the price bounds, refuses below what is planned, rechecks credit, and audits', async () => {
    const p = await product();
    const code = `XS${String(seq).padStart(4, '0')}`;
    await listPrice(p, '10');
    await stock(p, 100);
    const so = await ok(order([{ productId: p, qty: 20 }, { productId: p, qty: 5 }]));
    await ok(t.call('oms', SO.confirm, { id: so.id }, clerk));
    let doc = await ok(t.call('oms', SO.get, { id: so.id }, clerk));
    expect(await summary(p)).toMatchObject({ committed: 25 });

    // more: committed through the ledger; the totals follow
    const up = await ok(t.call('oms', CHANGE, { id: so.id, version: doc.version, lineNo: 1, qty: 30, reason: '客户追加' }, clerk));
    expect(up).toMatchObject({ qty: 30, amount: '300.00', totalQty: 35, totalAmount: '350.00' });
    expect(await summary(p)).toMatchObject({ committed: 35 });
    doc = await ok(t.call('oms', SO.get, { id: so.id }, clerk));
    expect(doc).toMatchObject({ totalQty: 35, totalAmount: '350.00', reservedQty: 35 });
    expect(doc.lines.map((l: any) => [l.qty, l.reservedQty, l.amount])).toEqual([[30, 30, '300.00'], [5, 5, '50.00']]);

    // a stale version is refused; more than is available is refused by the ledger, nothing changed
    expect((await t.call('oms', CHANGE, { id: so.id, version: doc.version - 1, lineNo: 1, qty: 31, reason: 'x' }, clerk)).code).toBe('COMMON_VERSION_CONFLICT_4009');
    expect((await t.call('oms', CHANGE, { id: so.id, version: doc.version, lineNo: 2, qty: 71, reason: 'x' }, clerk)).code).toBe('STOCK_RESERVE_NOT_ENOUGH_4072');
    expect(await summary(p)).toMatchObject({ committed: 35 });

    // a price below the bound: refused for the clerk (the same rule as saving), passed and audited for the admin
    await settings({ limitMultiple: '0.8', ceilingMultiple: '1.5' });
    const low = await t.call('oms', CHANGE, { id: so.id, version: doc.version, lineNo: 2, price: '7.00', reason: '让价' }, clerk);
    expect(low).toMatchObject({ code: 'SALES_PRICE_LOW_4143' });
    expect(low.msg).toContain('第 2 行');
    await ok(t.call('oms', CHANGE, { id: so.id, version: doc.version, lineNo: 2, price: '7.00', reason: '老客户让价' }, admin));
    doc = await ok(t.call('oms', SO.get, { id: so.id }, clerk));
    expect(doc.lines[1]).toMatchObject({ price: '7.0000', amount: '35.00' });
    expect((await t.call('oms', CHANGE, { id: so.id, version: doc.version, lineNo: 2, price: 'abc', reason: 'x' }, clerk)).msg).toContain('单价必须是不小于 0 的数字');
    await settings({ limitMultiple: '0', ceilingMultiple: '0' });

    // less: released exactly; never below what an outbound plan holds
    const src = await ok(t.call('oms', DP.plannable, { orderId: so.id }, admin));
    await ok(t.call('oms', DP.save, { orderId: so.id, lines: [{ orderLineId: src.lines[0].orderLineId, qty: 12 }] }, admin));
    doc = await ok(t.call('oms', SO.get, { id: so.id }, clerk));
    const below = await t.call('oms', CHANGE, { id: so.id, version: doc.version, lineNo: 1, qty: 11, reason: '客户减量' }, clerk);
    expect(below).toMatchObject({ code: 'SALES_CHANGE_QTY_4151', msg: `销售订单 ${so.docNo} 第 1 行商品 ${code} 的数量不能改为 11：已发货 0，发货计划已占用 12` });
    await ok(t.call('oms', CHANGE, { id: so.id, version: doc.version, lineNo: 1, qty: 12, reason: '客户减量' }, clerk));
    expect(await summary(p)).toMatchObject({ committed: 17 });

    // the audit trail says what changed and why
    const audit = await ok(t.call('cdm', '019702', { page: 1, filters: { entity: 'salesOrder', recordId: String(so.id) } }, admin));
    const change = audit.list.find((e: any) => e.action === 'change' && JSON.stringify(e.changes).includes('客户减量'));
    expect(JSON.stringify(change.changes)).toContain('"from":"30","to":"12"');
    expect(audit.list.some((e: any) => e.action === 'override')).toBe(true);
    // 操作日志's 对象 column reads the document's title, not its type
    expect(new Set(audit.list.map((e: any) => e.entityTitle))).toEqual(new Set(['销售订单']));
    await verifyClean();
  });

  it('rechecks the credit limit when the order grows; refuses drafts and cancelled orders', async () => {
    const p = await product();
    await listPrice(p, '10');
    await stock(p, 100);
    const tight = (await ok(t.call('cdm', '011703', { code: 'KH-CR', name: '额度客户', priceTitleId: listId, creditLimit: '150' }, admin))).id;
    const so = await ok(order([{ productId: p, qty: 10 }], { clientId: tight }));
    const draft = await t.call('oms', CHANGE, { id: so.id, version: so.version, lineNo: 1, qty: 11, reason: 'x' }, clerk);
    expect(draft).toMatchObject({ code: 'DOCUMENT_STATUS_4131', msg: `销售订单 ${so.docNo} 当前状态为“草稿”，不能变更` });
    await ok(t.call('oms', SO.confirm, { id: so.id }, clerk));
    const doc = await ok(t.call('oms', SO.get, { id: so.id }, clerk));
    const over = await t.call('oms', CHANGE, { id: so.id, version: doc.version, lineNo: 1, qty: 16, reason: '追加' }, clerk);
    expect(over).toMatchObject({ code: 'SALES_CREDIT_LIMIT_4145' });
    expect(over.msg).toContain('本单 160.00');
    expect(await summary(p)).toMatchObject({ committed: 10 });
    await ok(t.call('oms', CHANGE, { id: so.id, version: doc.version, lineNo: 1, qty: 15, reason: '追加' }, clerk));
    expect(await summary(p)).toMatchObject({ committed: 15 });
  });
});

describe('导入销售订单 (oms 020914, template 020915)', () => {
  const upload = async (rows: Array<Array<string | number | null>>, token = admin, xls = false) => {
    const up = xls ? multipart('订单.xls', makeXls(rows)) : multipart('订单.xlsx', await makeXlsx(rows));
    return t.call('oms', '020914', undefined, token, { payload: up.payload, headers: up.headers });
  };
  const HEAD = ['客户编码', '仓库编码', '订单日期', '订单分组', '商品编码', '数量', '单价', '折扣(%)', '备注'];

  it('makes one draft order per client, warehouse, date and group through the engine, priced from the list; refuses a file row by row, writing nothing', async () => {
    const p = await product();
    const pCode = `XS${String(seq).padStart(4, '0')}`;
    const q = await product();
    const qCode = `XS${String(seq).padStart(4, '0')}`;
    await listPrice(p, '10');
    await listPrice(q, '4');
    const count = async () => Number((await t.database.db.selectFrom('salesOrder').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);

    // the template has the columns and two sample rows
    const tpl = await t.raw('oms', '020915', {}, admin);
    const sheets = await readXlsx(tpl.rawPayload);
    expect(sheets[0].rows[0].map((c) => c.text)).toEqual(['客户编码', '仓库编码', '订单日期', '订单分组', '交货日期', '商品编码', '数量', '单价', '折扣(%)', '备注']);

    const before = await count();
    const done = await ok(upload([HEAD,
      ['KH001', 'XSW', '2026-12-01', '', pCode, 24, null, null, '首批'],
      ['KH001', 'XSW', '2026-12-01', '', qCode, 10, '4.20', 5, null],
      ['KH001', 'XSW', '2026-12-01', 'B', pCode, 6, null, null, null],
    ]));
    expect(done).toMatchObject({ created: 2, count: 3 });
    expect(await count()).toBe(before + 2);
    const first = await ok(t.call('oms', SO.list, { page: 1, pageSize: 5, filters: { docNo: done.orders[0] } }, admin));
    const doc = await ok(t.call('oms', SO.get, { id: first.list[0].id }, admin));
    expect(doc).toMatchObject({ status: 'draft', clientName: '华南贸易', orderDate: '2026-12-01', totalQty: 34 });
    // 24 × 10.00 + 10 × 4.20 × 0.95 = 240.00 + 39.90
    expect(doc.lines.map((l: any) => [l.qty, l.price, l.amount])).toEqual([[24, '10.0000', '240.00'], [10, '4.2000', '39.90']]);

    // a price outside the bounds is refused on its own row, like on the screen; nothing written
    await settings({ limitMultiple: '0.8', ceilingMultiple: '1.5' });
    const low = await upload([HEAD,
      ['KH001', 'XSW', '2026-12-02', '', pCode, 1, null, null, null],
      ['KH001', 'XSW', '2026-12-02', '', qCode, 1, '1.00', null, null],
    ], clerk);
    await settings({ limitMultiple: '0', ceilingMultiple: '0' });
    expect(low.code).toBe('COMMON_IMPORT_4012');
    expect(low.data.errors).toEqual([expect.objectContaining({ row: 3, message: expect.stringContaining(`第 3 行商品 ${qCode} 的成交价 1.00 低于最低售价 3.20`) })]);
    // unknown codes, an empty quantity and a bad date: every row told; .xls too
    const bad = await upload([HEAD,
      ['NOPE', 'XSW', '2026-12-01', '', pCode, 1, null, null, null],
      ['KH001', 'XSW', '12/32/2026', '', 'NOPE', null, null, null, null],
    ], admin, true);
    expect(bad.code).toBe('COMMON_IMPORT_4012');
    expect(bad.data.errors.map((e: any) => [e.row, e.message])).toEqual([
      [2, '第 2 行：客户编码“NOPE”不存在'],
      [3, '第 3 行：商品编码“NOPE”不存在'],
      [3, '第 3 行：订单日期：日期格式应为 YYYY-MM-DD'],
      [3, '第 3 行：数量不能为空'],
    ]);
    expect(await count()).toBe(before + 2);
  });
});
