// Procure to stock on a real database (SQLite, or PostgreSQL when DATABASE_URL is set): purchase orders
// (numbers, exchange rate of the day, exact money, big/mid/small entry, the state machine and its
// conditional transitions), receiving against a confirmed order (over-receipt bounded by receMultiple,
// partial receipts, reversal), putaway to suggested locations, and the document chain (/docRelate).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyStock } from '../../src/server/domain/stock/verify.ts';
import { ok, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let demo: string;
let demo2: string;
let clerk: string;
let demoId: number;
let wh1: number;
let supplierId: number;
let usdId: number;

const PO = { list: '020201', get: '020202', save: '020203', remove: '020204', confirm: '020205', cancel: '020206', close: '020207', copy: '020208', export: '020209' };
export const RN = { list: '021401', get: '021402', save: '021403', post: '021404', cancel: '021405' };
export const PA = { list: '021501', get: '021502', save: '021503', post: '021504', cancel: '021505', suggest: '021506' };
export const REL = '025001';


let seq = 0;
async function product(extra: Record<string, unknown> = {}, token = demo): Promise<{ id: number; code: string }> {
  const code = `PRC${String(++seq).padStart(4, '0')}`;
  const p = await ok(t.call('cdm', '010203', { code, name: `采购测试商品${seq}`, unitBig: '箱', unitMid: '盒', unitSmall: '个', midQty: 6, bigQty: 24, ...extra }, token));
  return { id: p.id, code };
}

async function location(warehouseId: number, lcCode: string, extra: Record<string, unknown> = {}, token = demo): Promise<number> {
  return (await ok(t.call('cdm', '011103', { warehouseId, lcCode, ...extra }, token))).id;
}

const savePo = (lines: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}, token = demo) =>
  t.call('oms', PO.save, { supplierId, warehouseId: wh1, expectedDate: '2026-12-01', lines, ...extra }, token);

async function confirmedPo(lines: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}) {
  const po = await ok(savePo(lines, extra));
  await ok(t.call('oms', PO.confirm, { id: po.id, version: po.version }, demo));
  return ok(t.call('oms', PO.get, { id: po.id }, demo));
}

async function verifyClean() {
  const r = await verifyStock(t.database.db, { companyId: demoId });
  expect(r.differences.map((d) => d.message)).toEqual([]);
}

async function balance(productId: number, warehouseId = wh1, locationId: number | null = null) {
  const row = await t.database.db.selectFrom('stockBalance').select(['onHand', 'reserved'])
    .where('productId', '=', productId).where('warehouseId', '=', warehouseId).where('locationId', '=', locationId ?? 0).executeTakeFirst();
  return row ? Number(row.onHand) : 0;
}

beforeAll(async () => {
  t = await startTestServer({ LOGIN_MAX_FAILURES: '1000', LOGIN_MAX_FAILURES_PER_IP: '100000' });
  demo = await t.login('demo', 'admin', 'demo123');
  demo2 = await t.login('demo2', 'admin', 'demo123');
  clerk = await t.login('demo', 'clerk', 'demo123');
  const companies = await t.database.db.selectFrom('company').select(['id', 'code']).execute();
  demoId = Number(companies.find((c) => c.code === 'demo')!.id);
  wh1 = (await ok(t.call('cdm', '011001', { page: 1, pageSize: 10 }, demo))).list[0].id;
  supplierId = (await ok(t.call('cdm', '011601', { page: 1, pageSize: 10 }, demo))).list[0].id;
  const currencies = (await ok(t.call('cdm', '012101', { page: 1, pageSize: 10 }, demo))).list;
  usdId = currencies.find((c: any) => c.code === 'USD').id;
});

afterAll(async () => {
  await t?.close();
});

describe('purchase orders', () => {
  it('saves a draft with a per-company number, the rate of the order date, exact amounts and big/mid/small entry', async () => {
    const a = await product();
    const b = await product();
    const po = await ok(savePo([
      { productId: a.id, big: 2, mid: 1, small: 3, price: '1.2345' }, // 2×24 + 6 + 3 = 57; 57 × 1.2345 = 70.3665 → 70.37
      { productId: b.id, qty: 10, price: '0.005' }, // 0.05
      { productId: b.id, qty: 3, price: '0.0050' }, // 0.015 → 0.02 (half up)
    ], { currencyId: usdId, orderDate: '2026-06-01' }));
    expect(po.docNo).toMatch(/^CG\d{8}\d{4}$/);
    expect(po.status).toBe('draft');
    expect(po.totalQty).toBe(70);
    expect(po.totalAmount).toBe('70.44');
    const got = await ok(t.call('oms', PO.get, { id: po.id }, demo));
    expect(got).toMatchObject({ status: 'draft', statusText: '草稿', currencyCode: 'USD', exchangeRate: '7.123400', rateDate: '2026-01-01', orderDate: '2026-06-01', lineCount: 3 });
    expect(got.lines.map((l: any) => [l.qty, l.price, l.amount])).toEqual([[57, '1.2345', '70.37'], [10, '0.0050', '0.05'], [3, '0.0050', '0.02']]);
    expect(got.lines[0].units).toMatchObject({ big: 2, mid: 1, small: 3 });
    // The next order takes the next number of the same day.
    const po2 = await ok(savePo([{ productId: a.id, qty: 1, price: 1 }]));
    expect(po2.docNo).not.toBe(po.docNo);
    // Update with the version; a stale version is refused.
    const upd = await ok(savePo([{ productId: a.id, qty: 2, price: '3.10' }], { id: po2.id, version: po2.version }));
    expect(upd).toMatchObject({ docNo: po2.docNo, version: 2, totalAmount: '6.20' });
    expect((await savePo([{ productId: a.id, qty: 2, price: 1 }], { id: po2.id, version: 1 })).code).toBe('COMMON_VERSION_CONFLICT_4009');
    // Base currency: rate 1. No rate before the order date: the master-data code.
    expect((await ok(t.call('oms', PO.get, { id: po2.id }, demo))).exchangeRate).toBe('1.000000');
    expect((await savePo([{ productId: a.id, qty: 1, price: 1 }], { currencyId: usdId, orderDate: '2025-01-01' })).code).toBe('EXCHANGE_RATE_NOT_FOUND_4051');
    const list = await ok(t.call('oms', PO.list, { page: 1, pageSize: 10, docNo: po.docNo }, demo));
    expect(list.total).toBe(1);
    expect(list.list[0]).toMatchObject({ id: po.id, supplierName: '宁波华东五金制品厂', totalAmount: '70.44' });
  });

  it('refuses quantities that do not fit the product units, locked and stopped products, disabled suppliers', async () => {
    const noBig = await product({ unitBig: null, unitMid: null, bigQty: 1, midQty: 1 });
    const noMid = await product({ unitMid: null, midQty: 1 });
    const r1 = await savePo([{ productId: noBig.id, big: 1, price: 1 }]);
    expect(r1.code).toBe('PRODUCT_BIG_QTY_4002');
    expect(r1.data).toMatchObject({ line: 1, productId: noBig.id });
    expect((await savePo([{ productId: noMid.id, mid: 2, price: 1 }])).code).toBe('PRODUCT_MID_QTY_4003');
    expect((await ok(savePo([{ productId: noMid.id, big: 1, small: 2, price: 1 }]))).totalQty).toBe(26);
    expect((await savePo([{ productId: noBig.id, qty: 0, price: 1 }])).code).toBe('COMMON_VALIDATION_4000');
    expect((await savePo([{ productId: noBig.id, qty: 1, price: '1.23456' }])).code).toBe('COMMON_VALIDATION_4000');
    expect((await savePo([{ productId: noBig.id, qty: 1, price: '-1' }])).code).toBe('COMMON_VALIDATION_4000');
    const locked = await product({ locked: true });
    const rl = await savePo([{ productId: noBig.id, qty: 1, price: 1 }, { productId: locked.id, qty: 1, price: 1 }]);
    expect(rl.code).toBe('PRODUCT_LOCK_4006');
    expect(rl.data).toMatchObject({ line: 2, productCode: locked.code });
    const stopped = await product({ status: 'stopped' });
    expect((await savePo([{ productId: stopped.id, qty: 1, price: 1 }])).code).toBe('PURCHASE_PRODUCT_STOPPED_4093');
    // checked again when the draft is confirmed
    const later = await product();
    const draft = await ok(savePo([{ productId: noBig.id, qty: 1, price: 1 }, { productId: later.id, qty: 1, price: 1 }]));
    const lp = await ok(t.call('cdm', '010202', { id: later.id }, demo));
    await ok(t.call('cdm', '010203', { ...lp, locked: true }, demo));
    const rc = await t.call('oms', PO.confirm, { id: draft.id }, demo);
    expect(rc.code).toBe('PRODUCT_LOCK_4006');
    expect(rc.data).toMatchObject({ line: 2, productCode: later.code });
    expect((await ok(t.call('oms', PO.get, { id: draft.id }, demo))).status).toBe('draft');
    const sup = await ok(t.call('cdm', '011603', { code: 'SOFF', name: '停用供应商', enabled: false }, demo));
    expect((await savePo([{ productId: noBig.id, qty: 1, price: 1 }], { supplierId: sup.id })).code).toBe('PURCHASE_SUPPLIER_DISABLED_4092');
  });

  it('walks the state machine and refuses every transition from the wrong state', async () => {
    const a = await product();
    const po = await ok(savePo([{ productId: a.id, qty: 5, price: 2 }]));
    // draft: cannot close; can confirm
    const close = await t.call('oms', PO.close, { id: po.id }, demo);
    expect(close.code).toBe('PURCHASE_DOC_STATUS_4091');
    expect(close.msg).toBe(`采购订单 ${po.docNo} 当前状态为“草稿”，不能关闭`);
    const c = await ok(t.call('oms', PO.confirm, { id: po.id, version: po.version }, demo));
    expect(c).toMatchObject({ status: 'confirmed', version: 2 });
    // confirmed: no edit, no remove, no second confirm, no close
    expect((await savePo([{ productId: a.id, qty: 1, price: 1 }], { id: po.id, version: 2 })).code).toBe('PURCHASE_DOC_STATUS_4091');
    expect((await t.call('oms', PO.remove, { id: po.id }, demo)).code).toBe('PURCHASE_DOC_STATUS_4091');
    expect((await t.call('oms', PO.confirm, { id: po.id }, demo)).msg).toContain('已确认');
    expect((await t.call('oms', PO.close, { id: po.id }, demo)).code).toBe('PURCHASE_DOC_STATUS_4091');
    // cancel a confirmed order with nothing received
    expect((await ok(t.call('oms', PO.cancel, { id: po.id }, demo))).status).toBe('cancelled');
    expect((await t.call('oms', PO.cancel, { id: po.id }, demo)).msg).toContain('已作废');
    expect((await t.call('oms', PO.confirm, { id: po.id }, demo)).code).toBe('PURCHASE_DOC_STATUS_4091');
    // a draft can be removed; then it is gone
    const d = await ok(savePo([{ productId: a.id, qty: 5, price: 2 }]));
    await ok(t.call('oms', PO.remove, { id: d.id, version: d.version }, demo));
    expect((await t.call('oms', PO.get, { id: d.id }, demo)).code).toBe('COMMON_NOT_FOUND_4004');
    // copy (purchaseOrderAgain) of the cancelled order: a new draft with the same lines
    const copy = await ok(t.call('oms', PO.copy, { id: po.id }, demo));
    expect(copy.status).toBe('draft');
    expect(copy.docNo).not.toBe(po.docNo);
    const got = await ok(t.call('oms', PO.get, { id: copy.id }, demo));
    expect(got).toMatchObject({ copiedFromId: po.id, totalQty: 5, totalAmount: '10.00' });
    // the audit trail has the transitions
    const audit = await t.database.db.selectFrom('auditLog').select(['action']).where('entity', '=', 'purchaseOrder').where('recordId', '=', String(po.id)).execute();
    expect(audit.map((r) => r.action).sort()).toEqual(['cancel', 'confirm', 'create']);
  });

  it('lets exactly one of two clerks confirm the same order at once', async () => {
    const a = await product();
    for (let round = 0; round < 3; round++) {
      const po = await ok(savePo([{ productId: a.id, qty: 5, price: 2 }]));
      const results = await Promise.all([
        t.call('oms', PO.confirm, { id: po.id }, clerk),
        t.call('oms', PO.confirm, { id: po.id }, demo),
        t.call('oms', PO.confirm, { id: po.id, version: po.version }, clerk),
      ]);
      expect(results.filter((r) => r.code === '200')).toHaveLength(1);
      for (const r of results.filter((x) => x.code !== '200')) {
        expect(r.code).toBe('PURCHASE_DOC_STATUS_4091');
        expect(r.msg).toContain('已确认');
      }
    }
  });

  it('checks rights: the clerk can edit and confirm but not cancel, close or export', async () => {
    const a = await product();
    const po = await ok(savePo([{ productId: a.id, qty: 1, price: 1 }], {}, clerk));
    expect((await t.call('oms', PO.cancel, { id: po.id }, clerk)).code).toBe('COMMON_NO_RIGHT_4003');
    expect((await t.call('oms', PO.close, { id: po.id }, clerk)).code).toBe('COMMON_NO_RIGHT_4003');
    expect((await t.call('oms', PO.export, {}, clerk)).code).toBe('COMMON_NO_RIGHT_4003');
    const file = await t.raw('oms', PO.export, { docNo: po.docNo }, demo);
    expect(file.statusCode).toBe(200);
    expect(String(file.headers['content-type'])).toContain('spreadsheetml');
    expect(file.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });

  it('keeps companies apart', async () => {
    const a = await product();
    const po = await ok(savePo([{ productId: a.id, qty: 1, price: 1 }]));
    for (const code of [PO.get, PO.confirm, PO.cancel, PO.copy]) {
      expect((await t.call('oms', code, { id: po.id }, demo2)).code, code).toBe('COMMON_NOT_FOUND_4004');
    }
    expect((await ok(t.call('oms', PO.list, { page: 1, pageSize: 50 }, demo2))).total).toBe(0);
    // demo2 cannot use demo's supplier or product
    const wh2 = (await ok(t.call('cdm', '011001', { page: 1, pageSize: 10 }, demo2))).list[0].id;
    expect((await t.call('oms', PO.save, { supplierId, warehouseId: wh2, lines: [{ productId: a.id, qty: 1, price: 1 }] }, demo2)).code).toBe('COMMON_VALIDATION_4000');
    // numbers are per company: demo2's first order of the day ends in 0001
    const sup2 = await ok(t.call('cdm', '011603', { code: 'S2', name: '二号供应商' }, demo2));
    const p2 = await product({}, demo2);
    const po2 = await ok(t.call('oms', PO.save, { supplierId: sup2.id, warehouseId: wh2, lines: [{ productId: p2.id, qty: 1, price: 1 }] }, demo2));
    expect(po2.docNo).toMatch(/0001$/);
  });
});

describe('procure to stock: receiving, putaway, document chain', () => {
  let recv: number;
  let s1: number;
  let s2: number;
  let s3: number;
  beforeAll(async () => {
    recv = await location(wh1, 'R-01', { type: 'receiving' });
    s1 = await location(wh1, 'P-01-01');
    s2 = await location(wh1, 'P-01-02');
    s3 = await location(wh1, 'P-02-01');
  });

  it('walks the whole road: order of 3 lines, confirm, receive one line short, put away to suggested locations, chain', async () => {
    const a = await product();
    const b = await product();
    const c = await product();
    await ok(t.call('cdm', '011203', { productId: a.id, warehouseId: wh1, locationId: s1 }, demo));
    await ok(t.call('cdm', '011203', { productId: b.id, warehouseId: wh1, locationId: s2 }, demo));
    const po = await confirmedPo([
      { productId: a.id, big: 2, price: '10.50' }, // 48
      { productId: b.id, qty: 30, price: '2' },
      { productId: c.id, qty: 10, price: '1' },
    ]);
    expect(po.status).toBe('confirmed');
    const [la, lb, lc] = po.lines;
    // receive: a in full, b short (20 of 30), c 12 counted with 2 damaged
    const rn = await ok(t.call('oms', RN.save, {
      orderId: po.id, post: true,
      lines: [
        { orderLineId: la.id, big: 2, locationId: recv },
        { orderLineId: lb.id, countedQty: 20, locationId: recv },
        { orderLineId: lc.id, countedQty: 12, damagedQty: 2, locationId: recv },
      ],
    }, demo));
    expect(rn).toMatchObject({ status: 'posted', totalQty: 78 });
    expect(rn.docNo).toMatch(/^SH\d{12}$/);
    const after = await ok(t.call('oms', PO.get, { id: po.id }, demo));
    expect(after.status).toBe('partlyReceived');
    expect(after.receivedQty).toBe(78);
    expect(after.lines.map((l: any) => [l.receivedQty, l.openQty])).toEqual([[48, 0], [20, 10], [10, 0]]);
    expect([await balance(a.id, wh1, recv), await balance(b.id, wh1, recv), await balance(c.id, wh1, recv)]).toEqual([48, 20, 10]);
    const note = await ok(t.call('oms', RN.get, { id: rn.id }, demo));
    expect(note.lines[2]).toMatchObject({ countedQty: 12, damagedQty: 2, qty: 10, lcCode: 'R-01', orderedQty: 10 });
    expect(note).toMatchObject({ orderDocNo: po.docNo, route: `/entrepot/receivingNoteDetail/${rn.id}` });

    // putaway: suggestions from default locations; c has none, so it must be chosen
    const sug = await ok(t.call('oms', PA.suggest, { receivingNoteId: rn.id }, demo));
    expect(sug.lines.map((l: any) => [l.openQty, l.suggestedLocationId])).toEqual([[48, s1], [20, s2], [10, null]]);
    const missing = await t.call('oms', PA.save, { receivingNoteId: rn.id, post: true }, demo);
    expect(missing.code).toBe('COMMON_VALIDATION_4000');
    expect(missing.msg).toContain(c.code);
    const pa = await ok(t.call('oms', PA.save, {
      receivingNoteId: rn.id, post: true,
      lines: [{ receivingLineId: sug.lines[0].receivingLineId }, { receivingLineId: sug.lines[1].receivingLineId }, { receivingLineId: sug.lines[2].receivingLineId, toLocationId: s3 }],
    }, demo));
    expect(pa).toMatchObject({ status: 'posted', totalQty: 78 });
    expect([await balance(a.id, wh1, recv), await balance(b.id, wh1, recv), await balance(c.id, wh1, recv)]).toEqual([0, 0, 0]);
    expect([await balance(a.id, wh1, s1), await balance(b.id, wh1, s2), await balance(c.id, wh1, s3)]).toEqual([48, 20, 10]);
    // nothing left to put away
    expect((await t.call('oms', PA.save, { receivingNoteId: rn.id }, demo)).code).toBe('COMMON_VALIDATION_4000');
    expect((await t.call('oms', PA.save, { receivingNoteId: rn.id, lines: [{ receivingLineId: sug.lines[0].receivingLineId, toLocationId: s2, qty: 1 }] }, demo)).code).toBe('PURCHASE_PUTAWAY_OVER_4095');

    // inventory and distribution show the stock at the locations
    const inv = await ok(t.call('cdm', '011301', { page: 1, pageSize: 10, productId: a.id }, demo));
    expect(inv.list[0]).toMatchObject({ onHand: 48, available: 48 });
    const dist = await ok(t.call('cdm', '011302', { page: 1, pageSize: 10, productId: b.id }, demo));
    expect(dist.list.map((r: any) => [r.lcCode, r.onHand])).toEqual([['P-01-02', 20]]);
    await verifyClean();
    // the movements tab names the documents
    const moves = await ok(t.call('cdm', '011303', { page: 1, pageSize: 10, productId: c.id }, demo));
    expect(moves.list.map((m: any) => [m.kind, m.docTitle, m.docNo, m.qty])).toEqual([
      ['putaway', '上架单', pa.docNo, 10], ['putaway', '上架单', pa.docNo, -10], ['receive', '收货单', rn.docNo, 10],
    ]);

    // the chain from any of its numbers
    for (const number of [po.docNo, rn.docNo, pa.docNo]) {
      const rel = await ok(t.call('oms', REL, { docNo: number }, demo));
      expect(rel.chain.map((x: any) => [x.docType, x.number, x.status, x.route])).toEqual([
        ['purchaseOrder', po.docNo, 'partlyReceived', `/procurement/purchaseOrder/${po.id}`],
        ['receivingNote', rn.docNo, 'posted', `/entrepot/receivingNoteDetail/${rn.id}`],
        ['putaway', pa.docNo, 'posted', `/entrepot/putawayDetail/${pa.id}`],
      ]);
    }
    expect((await t.call('oms', REL, { docNo: 'CG000' }, demo)).code).toBe('PURCHASE_DOC_NOT_FOUND_4097');
    expect((await t.call('oms', REL, { docNo: po.docNo }, demo2)).code).toBe('PURCHASE_DOC_NOT_FOUND_4097');

    // the rest of b arrives: the order is received, then closed
    const rn2 = await ok(t.call('oms', RN.save, { orderId: po.id, post: true, lines: [{ orderLineId: lb.id, countedQty: 10 }] }, demo));
    expect((await ok(t.call('oms', PO.get, { id: po.id }, demo))).status).toBe('received');
    expect(await balance(b.id)).toBe(10);
    expect((await t.call('oms', RN.save, { orderId: po.id, lines: [{ orderLineId: lb.id, countedQty: 1 }] }, demo)).code).toBe('PURCHASE_DOC_STATUS_4091');
    await ok(t.call('oms', PO.close, { id: po.id }, demo));
    expect((await ok(t.call('oms', PO.get, { id: po.id }, demo))).status).toBe('closed');
    const rel = await ok(t.call('oms', REL, { docNo: rn2.docNo }, demo));
    expect(rel.chain.map((x: any) => x.number)).toEqual([po.docNo, rn.docNo, pa.docNo, rn2.docNo]);
    await verifyClean();
  });

  it('bounds receipts by receMultiple, also for concurrent notes, and names the line', async () => {
    const a = await product();
    const po = await confirmedPo([{ productId: a.id, qty: 5, price: 1 }, { productId: a.id, qty: 10, price: 1 }]);
    const line2 = po.lines[1];
    const over = await t.call('oms', RN.save, { orderId: po.id, lines: [{ orderLineId: line2.id, countedQty: 12 }] }, demo);
    expect(over.code).toBe('PURCHASE_OVER_RECEIPT_4094');
    expect(over.msg).toBe(`采购订单 ${po.docNo} 第 2 行商品 ${a.code} 超收：订购 10，已收 0，本次 12，按超收倍数 1.1 最多还可收 11`);
    // damaged goods are not received into stock: 12 counted, 1 damaged = 11 fits
    const d1 = await ok(t.call('oms', RN.save, { orderId: po.id, lines: [{ orderLineId: line2.id, countedQty: 6 }] }, demo));
    const d2 = await ok(t.call('oms', RN.save, { orderId: po.id, lines: [{ orderLineId: line2.id, countedQty: 6 }] }, demo));
    const results = await Promise.all([t.call('oms', RN.post, { id: d1.id }, demo), t.call('oms', RN.post, { id: d2.id }, demo)]);
    expect(results.map((r) => r.code).sort()).toEqual(['200', 'PURCHASE_OVER_RECEIPT_4094']);
    const got = await ok(t.call('oms', PO.get, { id: po.id }, demo));
    expect(got.lines[1].receivedQty).toBe(6);
    expect(got.status).toBe('partlyReceived');
    expect(await balance(a.id)).toBe(6);
    // the refused note is still a draft; with 5 it fits (6 + 5 = 11)
    const refused = results[0].code === '200' ? d2 : d1;
    await ok(t.call('oms', RN.save, { id: refused.id, version: 1, orderId: po.id, post: true, lines: [{ orderLineId: line2.id, countedQty: 6, damagedQty: 1 }] }, demo));
    expect((await ok(t.call('oms', PO.get, { id: po.id }, demo))).lines[1].receivedQty).toBe(11);
    // a stricter multiple applies at once
    const settings = await ok(t.call('cdm', '013601', {}, demo));
    await ok(t.call('cdm', '013602', { version: settings.version, receMultiple: '1' }, demo));
    expect((await t.call('oms', RN.save, { orderId: po.id, lines: [{ orderLineId: po.lines[0].id, countedQty: 6 }] }, demo)).code).toBe('PURCHASE_OVER_RECEIPT_4094');
    await ok(t.call('oms', RN.save, { orderId: po.id, post: true, lines: [{ orderLineId: po.lines[0].id, countedQty: 5 }] }, demo));
    expect((await ok(t.call('oms', PO.get, { id: po.id }, demo))).status).toBe('received');
    const s2 = await ok(t.call('cdm', '013601', {}, demo));
    await ok(t.call('cdm', '013602', { version: s2.version, receMultiple: '1.1' }, demo));
    await verifyClean();
  });

  it('receives different lines of one order at once and ends with the right order status', async () => {
    const a = await product();
    const b = await product();
    for (let round = 0; round < 3; round++) {
      const po = await confirmedPo([{ productId: a.id, qty: 3, price: 1 }, { productId: b.id, qty: 4, price: 1 }]);
      const n1 = await ok(t.call('oms', RN.save, { orderId: po.id, lines: [{ orderLineId: po.lines[0].id, countedQty: 3 }] }, demo));
      const n2 = await ok(t.call('oms', RN.save, { orderId: po.id, lines: [{ orderLineId: po.lines[1].id, countedQty: 4 }] }, demo));
      const results = await Promise.all([t.call('oms', RN.post, { id: n1.id }, demo), t.call('oms', RN.post, { id: n2.id }, demo)]);
      expect(results.map((r) => r.code)).toEqual(['200', '200']);
      expect(await ok(t.call('oms', PO.get, { id: po.id }, demo))).toMatchObject({ status: 'received', receivedQty: 7 });
    }
    await verifyClean();
  });

  it('many concurrent receipts on one line: exactly as many pass as receMultiple allows', async () => {
    const a = await product();
    const po = await confirmedPo([{ productId: a.id, qty: 10, price: 1 }]);
    const notes = [];
    for (let i = 0; i < 10; i++) notes.push(await ok(t.call('oms', RN.save, { orderId: po.id, lines: [{ orderLineId: po.lines[0].id, countedQty: 3 }] }, demo)));
    const results = await Promise.all(notes.map((n) => t.call('oms', RN.post, { id: n.id }, demo)));
    // 3 × 3 = 9 ≤ 11 (10 × 1.1); a fourth would make 12. The order stays partly received, so every
    // refusal is the over-receipt one.
    expect(results.filter((r) => r.code === '200')).toHaveLength(3);
    expect(results.filter((r) => r.code !== '200').every((r) => r.code === 'PURCHASE_OVER_RECEIPT_4094')).toBe(true);
    expect(await ok(t.call('oms', PO.get, { id: po.id }, demo))).toMatchObject({ status: 'partlyReceived', receivedQty: 9 });
    expect(await balance(a.id)).toBe(9);
    await verifyClean();
  });

  it('refuses receiving on orders in the wrong state and lines of another order; cancelling an order with notes', async () => {
    const a = await product();
    const draft = await ok(savePo([{ productId: a.id, qty: 5, price: 1 }]));
    const dl = (await ok(t.call('oms', PO.get, { id: draft.id }, demo))).lines[0];
    const r = await t.call('oms', RN.save, { orderId: draft.id, lines: [{ orderLineId: dl.id, countedQty: 1 }] }, demo);
    expect(r.code).toBe('PURCHASE_DOC_STATUS_4091');
    expect(r.msg).toContain('草稿');
    const po = await confirmedPo([{ productId: a.id, qty: 5, price: 1 }]);
    expect((await t.call('oms', RN.save, { orderId: po.id, lines: [{ orderLineId: dl.id, countedQty: 1 }] }, demo)).code).toBe('PURCHASE_LINE_MISMATCH_4098');
    const note = await ok(t.call('oms', RN.save, { orderId: po.id, lines: [{ orderLineId: po.lines[0].id, countedQty: 2 }] }, demo));
    // an open receiving note blocks cancelling the order
    const cancel = await t.call('oms', PO.cancel, { id: po.id }, demo);
    expect(cancel.code).toBe('PURCHASE_DEPENDENT_DOCS_4096');
    expect(cancel.msg).toContain(note.docNo);
    await ok(t.call('oms', RN.cancel, { id: note.id }, demo));
    await ok(t.call('oms', PO.cancel, { id: po.id }, demo));
    // a note of a cancelled order cannot be posted
    const po2 = await confirmedPo([{ productId: a.id, qty: 5, price: 1 }]);
    const n2 = await ok(t.call('oms', RN.save, { orderId: po2.id, post: true, lines: [{ orderLineId: po2.lines[0].id, countedQty: 2 }] }, demo));
    expect((await t.call('oms', PO.cancel, { id: po2.id }, demo)).code).toBe('PURCHASE_DOC_STATUS_4091');
    const n3 = await ok(t.call('oms', RN.save, { orderId: po2.id, lines: [{ orderLineId: po2.lines[0].id, countedQty: 2 }] }, demo));
    await ok(t.call('oms', PO.close, { id: po2.id }, demo));
    const refused = await t.call('oms', RN.post, { id: n3.id }, demo);
    expect(refused.code).toBe('PURCHASE_DOC_STATUS_4091');
    expect(refused.msg).toBe(`采购订单 ${po2.docNo} 当前状态为“已关闭”，不能收货`);
    expect((await t.call('oms', RN.post, { id: n2.id }, demo)).msg).toContain('已过账');
    // cancelling a posted note of a closed order reverses it; the order stays closed
    await ok(t.call('oms', RN.cancel, { id: n2.id }, demo));
    expect((await ok(t.call('oms', PO.get, { id: po2.id }, demo)))).toMatchObject({ status: 'closed', receivedQty: 0 });
    await verifyClean();
  });

  it('reverses: a putaway moves back, then the receiving note takes the stock out and the order goes back to confirmed', async () => {
    const a = await product();
    const po = await confirmedPo([{ productId: a.id, qty: 8, price: 1 }]);
    const rn = await ok(t.call('oms', RN.save, { orderId: po.id, post: true, lines: [{ orderLineId: po.lines[0].id, countedQty: 8 }] }, demo));
    const sug = await ok(t.call('oms', PA.suggest, { receivingNoteId: rn.id }, demo));
    const pa = await ok(t.call('oms', PA.save, { receivingNoteId: rn.id, post: true, lines: [{ receivingLineId: sug.lines[0].receivingLineId, toLocationId: s1, qty: 5 }] }, demo));
    expect([await balance(a.id), await balance(a.id, wh1, s1)]).toEqual([3, 5]);
    const blocked = await t.call('oms', RN.cancel, { id: rn.id }, demo);
    expect(blocked.code).toBe('PURCHASE_DEPENDENT_DOCS_4096');
    expect(blocked.msg).toContain(pa.docNo);
    // the putaway's goods are partly gone: its cancellation is refused by the ledger
    await ok(t.call('oms', '022703', { warehouseId: wh1, reason: 'loss', post: true, lines: [{ productId: a.id, locationId: s1, qty: -2 }] }, demo));
    expect((await t.call('oms', PA.cancel, { id: pa.id }, demo)).code).toBe('STOCK_NOT_ENOUGH_4071');
    await ok(t.call('oms', '022703', { warehouseId: wh1, reason: 'gain', post: true, lines: [{ productId: a.id, locationId: s1, qty: 2 }] }, demo));
    expect((await ok(t.call('oms', PA.cancel, { id: pa.id }, demo))).status).toBe('cancelled');
    expect([await balance(a.id), await balance(a.id, wh1, s1)]).toEqual([8, 0]);
    expect((await t.call('oms', PA.cancel, { id: pa.id }, demo)).code).toBe('PURCHASE_DOC_STATUS_4091');
    // receiving stock used elsewhere: refused by the ledger guard
    await ok(t.call('oms', '022703', { warehouseId: wh1, reason: 'loss', post: true, lines: [{ productId: a.id, qty: -1 }] }, demo));
    expect((await t.call('oms', RN.cancel, { id: rn.id }, demo)).code).toBe('STOCK_NOT_ENOUGH_4071');
    await ok(t.call('oms', '022703', { warehouseId: wh1, reason: 'gain', post: true, lines: [{ productId: a.id, qty: 1 }] }, demo));
    expect((await ok(t.call('oms', RN.cancel, { id: rn.id }, demo))).status).toBe('cancelled');
    expect(await balance(a.id)).toBe(0);
    const got = await ok(t.call('oms', PO.get, { id: po.id }, demo));
    expect(got).toMatchObject({ status: 'confirmed', receivedQty: 0 });
    expect(got.lines[0].receivedQty).toBe(0);
    // now the order can be cancelled
    await ok(t.call('oms', PO.cancel, { id: po.id }, demo));
    // posting a putaway of a cancelled note is refused
    expect((await t.call('oms', PA.save, { receivingNoteId: rn.id }, demo)).code).toBe('PURCHASE_DOC_STATUS_4091');
    await verifyClean();
  });

  it('keeps receiving notes and putaways of other companies out of reach', async () => {
    const a = await product();
    const po = await confirmedPo([{ productId: a.id, qty: 4, price: 1 }]);
    const rn = await ok(t.call('oms', RN.save, { orderId: po.id, lines: [{ orderLineId: po.lines[0].id, countedQty: 4 }] }, demo));
    for (const code of [RN.get, RN.post, RN.cancel]) expect((await t.call('oms', code, { id: rn.id }, demo2)).code, code).toBe('COMMON_NOT_FOUND_4004');
    expect((await t.call('oms', RN.save, { orderId: po.id, lines: [{ orderLineId: po.lines[0].id, countedQty: 1 }] }, demo2)).code).toBe('COMMON_VALIDATION_4000');
    expect((await t.call('oms', PA.suggest, { receivingNoteId: rn.id }, demo2)).code).toBe('COMMON_NOT_FOUND_4004');
    expect((await ok(t.call('oms', RN.list, { page: 1, pageSize: 10 }, demo2))).total).toBe(0);
    const list = await ok(t.call('oms', RN.list, { page: 1, pageSize: 10, docNo: rn.docNo }, demo));
    expect(list.list.map((x: any) => x.id)).toEqual([rn.id]);
    // master data used by the documents cannot be removed
    const sup = await ok(t.call('cdm', '011603', { code: 'SREF', name: '被引用供应商' }, demo));
    await ok(savePo([{ productId: a.id, qty: 1, price: 1 }], { supplierId: sup.id }));
    const refused = await t.call('cdm', '011604', { id: sup.id }, demo);
    expect(refused.code).toBe('COMMON_REFERENCED_4010');
    expect(refused.msg).toContain('采购订单');
    expect((await t.call('cdm', '010204', { id: a.id }, demo)).code).toBe('COMMON_REFERENCED_4010');
    // the clerk has no receiving rights
    expect((await t.call('oms', RN.post, { id: rn.id }, clerk)).code).toBe('COMMON_NO_RIGHT_4003');
  });
});
