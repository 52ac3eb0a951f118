// Sales orders over HTTP (issue 13), on SQLite and PostgreSQL: a draft priced from the client's price
// list with big/mid/small entry and discounts, price bounds (refused, or passed by the override right and
// written to the audit trail), the credit limit at confirmation, stock committed on confirm (available =
// on hand − reserved − committed; concurrent confirmations for the last units: exactly what is available
// is committed), release on cancel, reopen, copy, and stock the ledger will not let other documents take.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyStock } from '../../src/server/domain/stock/verify.ts';
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
  // a sales clerk: may order and confirm, not pass the bounds
  const role = await ok(t.call('cdm', '013303', { name: '销售助理', rights: ['market.list', 'market.order', 'market.orderDetail', 'market.order.edit', 'market.order.confirm'] }, admin));
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
    expect(byNumber.list.map((r: any) => r.number)).toEqual([so.docNo, plan.docNo]);

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
