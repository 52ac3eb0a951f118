// Purchase invoices on a real database (SQLite, or PostgreSQL when DATABASE_URL is set): the whole road
// (order → confirm → receive → invoice), exact amounts and tax, never more than received (also for
// invoices posted at the same moment), the payable, invoice stock growing and shrinking, the receiving
// note that cannot be cancelled once invoiced, the document chain, rights, companies kept apart and
// Chinese messages for bad input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let demo: string;
let demo2: string;
let clerk: string;
let wh1: number;
let supplierId: number;
let otherSupplierId: number;
let usdId: number;

const PO = { get: '020202', save: '020203', confirm: '020205' };
const RN = { get: '021402', save: '021403', cancel: '021405' };
const PI = { list: '020301', get: '020302', save: '020303', post: '020304', cancel: '020305', lines: '020306', export: '020307' };
const IS = { list: '011401', moves: '011402', get: '011403' };
const REL = '025001';


let seq = 0;
async function product(token = demo): Promise<{ id: number; code: string }> {
  const code = `PIV${String(++seq).padStart(4, '0')}`;
  const p = await ok(t.call('cdm', '010203', { code, name: `发票测试商品${seq}`, unitBig: '箱', unitSmall: '个', bigQty: 12 }, token));
  return { id: p.id, code };
}

/** A confirmed order, fully received by one posted note: the note with its lines. */
async function received(lines: Array<{ productId: number; qty: number; price: string | number }>, extra: Record<string, unknown> = {}) {
  const po = await ok(t.call('oms', PO.save, { supplierId, warehouseId: wh1, lines, ...extra }, demo));
  await ok(t.call('oms', PO.confirm, { id: po.id }, demo));
  const order = await ok(t.call('oms', PO.get, { id: po.id }, demo));
  const rn = await ok(t.call('oms', RN.save, { orderId: po.id, post: true, lines: order.lines.map((l: any) => ({ orderLineId: l.id, countedQty: l.qty })) }, demo));
  const note = await ok(t.call('oms', RN.get, { id: rn.id }, demo));
  return { order, note };
}

let invoiceSeq = 0;
const nextInvoiceNo = () => `INV${String(++invoiceSeq).padStart(5, '0')}`;
const saveInvoice = (lines: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}, token = demo) =>
  t.call('oms', PI.save, { supplierId, invoiceNo: nextInvoiceNo(), lines, ...extra }, token);

async function stockOf(productId: number) {
  return ok(t.call('cdm', IS.get, { id: productId }, demo));
}

beforeAll(async () => {
  t = await startTestServer({ LOGIN_MAX_FAILURES: '1000', LOGIN_MAX_FAILURES_PER_IP: '100000' });
  demo = await t.login('demo', 'admin', 'demo123');
  demo2 = await t.login('demo2', 'admin', 'demo123');
  clerk = await t.login('demo', 'clerk', 'demo123');
  wh1 = (await ok(t.call('cdm', '011001', { page: 1, pageSize: 10 }, demo))).list[0].id;
  supplierId = (await ok(t.call('cdm', '011601', { page: 1, pageSize: 10 }, demo))).list[0].id;
  otherSupplierId = (await ok(t.call('cdm', '011603', { code: 'SINV2', name: '发票测试二号供应商' }, demo))).id;
  usdId = (await ok(t.call('cdm', '012101', { page: 1, pageSize: 10 }, demo))).list.find((c: any) => c.code === 'USD').id;
});

afterAll(async () => {
  await t?.close();
});

describe('purchase invoices', () => {
  it('invoices received lines with exact amounts and tax, creates the payable and grows invoice stock', async () => {
    const a = await product();
    const b = await product();
    const { order, note } = await received([{ productId: a.id, qty: 10, price: '1.2345' }, { productId: b.id, qty: 3, price: '0.0050' }]);
    const [la, lb] = note.lines;

    // the add screen's choices: both lines, with what is left to invoice and the order price
    const choices = await ok(t.call('oms', PI.lines, { supplierId, receivingNoteId: note.id }, demo));
    expect(choices.list.map((l: any) => [l.receivingLineId, l.productCode, l.receivedQty, l.invoicedQty, l.openQty, l.price, l.openAmount, l.receivingDocNo, l.orderDocNo, l.currencyCode]))
      .toEqual([
        [la.id, a.code, 10, 0, 10, '1.2345', '12.35', note.docNo, order.docNo, 'CNY'],
        [lb.id, b.code, 3, 0, 3, '0.0050', '0.02', note.docNo, order.docNo, 'CNY'],
      ]);

    // 7 × 1.2345 = 8.6415 → 8.64 (price from the order line); 3 × 0.005 = 0.015 → 0.02 (half up)
    const inv = await ok(saveInvoice([{ receivingLineId: la.id, qty: 7 }, { receivingLineId: lb.id, qty: 3, price: '0.005' }], { invoiceDate: '2026-06-01', taxRate: '13' }));
    expect(inv.docNo).toMatch(/^FP\d{8}\d{4}$/);
    expect(inv).toMatchObject({ status: 'draft', totalQty: 10, totalAmount: '8.66', taxAmount: '1.00' }); // 8.66 × 13 / 113 = 0.9963 → 1.00
    // a draft takes nothing yet
    expect((await ok(t.call('oms', PI.lines, { supplierId, receivingNoteId: note.id }, demo))).list[0].openQty).toBe(10);
    expect((await stockOf(a.id)).qty).toBe(0);

    const posted = await ok(t.call('oms', PI.post, { id: inv.id, version: inv.version }, demo));
    expect(posted).toMatchObject({ status: 'posted', version: 2 });
    const got = await ok(t.call('oms', PI.get, { id: inv.id }, demo));
    expect(got).toMatchObject({
      docNo: inv.docNo, status: 'posted', statusText: '已过账', supplierName: '宁波华东五金制品厂', currencyCode: 'CNY', exchangeRate: '1.000000',
      invoiceDate: '2026-06-01', dueDate: '2026-07-01', taxRate: '13.00', totalAmount: '8.66', taxAmount: '1.00', netAmount: '7.66', lineCount: 2,
      payable: { amount: '8.66', paidAmount: '0.00', openAmount: '8.66', dueDate: '2026-07-01', status: 'open', statusText: '未结清' },
      route: `/procurement/invoiceDetail/${inv.id}`,
    });
    expect(got.lines.map((l: any) => [l.lineNo, l.productCode, l.qty, l.price, l.amount, l.receivedQty, l.invoicedQty, l.openQty, l.receivingDocNo, l.orderDocNo]))
      .toEqual([
        [1, a.code, 7, '1.2345', '8.64', 10, 7, 3, note.docNo, order.docNo],
        [2, b.code, 3, '0.0050', '0.02', 3, 3, 0, note.docNo, order.docNo],
      ]);
    const payables = await t.database.db.selectFrom('supplierPayable').selectAll().where('invoiceId', '=', inv.id).execute();
    expect(payables.map((p) => [Number(p.amount), Number(p.paidAmount), p.status, Number(p.supplierId)])).toEqual([[866, 0, 'open', supplierId]]);

    // invoice stock grew by the invoiced lines; the movements name the invoice
    expect(await stockOf(a.id)).toMatchObject({ productCode: a.code, qty: 7, amount: '8.64', avgPrice: '1.2343', currencyCode: 'CNY' });
    const list = await ok(t.call('cdm', IS.list, { page: 1, pageSize: 10, keyword: a.code }, demo));
    expect(list.list.map((r: any) => [r.productId, r.qty, r.amount, r.units.text])).toEqual([[a.id, 7, '8.64', '7个']]);
    const moves = await ok(t.call('cdm', IS.moves, { page: 1, pageSize: 10, filters: { productId: b.id } }, demo));
    expect(moves.list.map((m: any) => [m.kind, m.kindText, m.qty, m.amount, m.docNo, m.supplierName, m.route])).toEqual([
      ['invoice', '采购发票', 3, '0.02', inv.docNo, '宁波华东五金制品厂', `/procurement/invoiceDetail/${inv.id}`],
    ]);

    // only a's 3 are left to invoice
    const left = await ok(t.call('oms', PI.lines, { supplierId, receivingNoteId: note.id }, demo));
    expect(left.list.map((l: any) => [l.receivingLineId, l.openQty, l.openAmount])).toEqual([[la.id, 3, '3.70']]);

    // the list, with the renderer's filters (number or supplier invoice number, status, invoice date range)
    const byNo = await ok(t.call('oms', PI.list, { page: 1, pageSize: 10, filters: { docNo: got.invoiceNo, status: 'posted', invoiceDate: ['2026-06-01', '2026-06-01'] } }, demo));
    expect(byNo.total).toBe(1);
    expect(byNo.list[0]).toMatchObject({ id: inv.id, invoiceNo: got.invoiceNo, totalAmount: '8.66', paidAmount: '0.00', payableStatus: 'open', statusText: '已过账' });
    expect((await ok(t.call('oms', PI.list, { page: 1, pageSize: 10, filters: { docNo: inv.docNo, invoiceDate: ['2026-06-02', null] } }, demo))).total).toBe(0);
    const file = await t.raw('oms', PI.export, { docNo: inv.docNo }, demo);
    expect(file.statusCode).toBe(200);
    expect(String(file.headers['content-type'])).toContain('spreadsheetml');
  });

  it('takes the rate of the invoice date and keeps invoice stock in the base currency; one currency per invoice', async () => {
    const a = await product();
    const { note } = await received([{ productId: a.id, qty: 5, price: '2' }], { currencyId: usdId, orderDate: '2026-06-01' });
    const cny = await received([{ productId: a.id, qty: 1, price: '1' }]);
    const mixed = await saveInvoice([{ receivingLineId: note.lines[0].id, qty: 5 }, { receivingLineId: cny.note.lines[0].id, qty: 1 }], { invoiceDate: '2026-06-01' });
    expect(mixed.code).toBe('COMMON_VALIDATION_4000');
    expect(mixed.msg).toBe(`第 2 行：采购订单 ${cny.order.docNo} 的币种为 CNY，与发票币种 USD 不一致`);
    const inv = await ok(saveInvoice([{ receivingLineId: note.lines[0].id, qty: 5 }], { invoiceDate: '2026-06-01', post: true }));
    expect(inv).toMatchObject({ status: 'posted', totalAmount: '10.00' });
    const got = await ok(t.call('oms', PI.get, { id: inv.id }, demo));
    expect(got).toMatchObject({ currencyCode: 'USD', exchangeRate: '7.123400', totalAmountBase: '71.23', payable: { amount: '10.00' } });
    // 10.00 × 7.1234 = 71.234 → 71.23 in the base currency
    expect(await stockOf(a.id)).toMatchObject({ qty: 5, amount: '71.23' });
  });

  it('never invoices more than received, also when invoices are posted at the same moment', async () => {
    const a = await product();
    const { note } = await received([{ productId: a.id, qty: 10, price: 1 }]);
    const line = note.lines[0];
    const over = await saveInvoice([{ receivingLineId: line.id, qty: 11 }]);
    expect(over.code).toBe('PURCHASE_INVOICE_OVER_4101');
    expect(over.msg).toBe(`采购发票第 1 行商品 ${a.code} 超出可开票数量：收货单 ${note.docNo} 收货 10，已开票 0，本次 11，最多还可开 10`);
    expect(over.data).toMatchObject({ line: 1, receivingLineId: line.id, left: 10 });

    // two drafts of 6 each: exactly one posts
    const d1 = await ok(saveInvoice([{ receivingLineId: line.id, qty: 6 }]));
    const d2 = await ok(saveInvoice([{ receivingLineId: line.id, qty: 6 }]));
    const results = await Promise.all([t.call('oms', PI.post, { id: d1.id }, demo), t.call('oms', PI.post, { id: d2.id }, demo)]);
    expect(results.map((r) => r.code).sort()).toEqual(['200', 'PURCHASE_INVOICE_OVER_4101']);
    expect(results.find((r) => r.code !== '200')!.msg).toBe(`采购发票第 1 行商品 ${a.code} 超出可开票数量：收货单 ${note.docNo} 收货 10，已开票 6，本次 6，最多还可开 4`);
    const refused = results[0].code === '200' ? d2 : d1;
    expect((await ok(t.call('oms', PI.get, { id: refused.id }, demo))).status).toBe('draft');
    expect((await t.database.db.selectFrom('supplierPayable').select('id').where('invoiceId', '=', refused.id).execute()).length).toBe(0);
    expect((await stockOf(a.id)).qty).toBe(6);
    // with 4 it fits; then nothing is left and the line is no longer offered
    await ok(saveInvoice([{ receivingLineId: line.id, qty: 4 }], { id: refused.id, version: refused.version, post: true }));
    expect((await ok(t.call('oms', PI.lines, { supplierId, receivingNoteId: note.id }, demo))).total).toBe(0);
    expect((await saveInvoice([{ receivingLineId: line.id, qty: 1 }])).code).toBe('PURCHASE_INVOICE_OVER_4101');

    // five invoices of 3 on a line of 10, all at once: exactly three pass (9 ≤ 10 < 12)
    const b = await product();
    const rb = await received([{ productId: b.id, qty: 10, price: '0.5' }]);
    const drafts = [];
    for (let i = 0; i < 5; i++) drafts.push(await ok(saveInvoice([{ receivingLineId: rb.note.lines[0].id, qty: 3 }])));
    const all = await Promise.all(drafts.map((d) => t.call('oms', PI.post, { id: d.id }, demo)));
    expect(all.filter((r) => r.code === '200').length).toBe(3);
    expect(all.filter((r) => r.code === 'PURCHASE_INVOICE_OVER_4101').length).toBe(2);
    const rl = await t.database.db.selectFrom('receivingNoteLine').select(['invoicedQty']).where('id', '=', rb.note.lines[0].id).executeTakeFirstOrThrow();
    expect(Number(rl.invoicedQty)).toBe(9);
    expect(await stockOf(b.id)).toMatchObject({ qty: 9, amount: '4.50' });
    expect((await t.database.db.selectFrom('supplierPayable').select('id').where('invoiceId', 'in', drafts.map((d) => d.id)).execute()).length).toBe(3);
  });

  it('matches only posted receiving lines of the invoice supplier, once each', async () => {
    const a = await product();
    const po = await ok(t.call('oms', PO.save, { supplierId, warehouseId: wh1, lines: [{ productId: a.id, qty: 5, price: 1 }] }, demo));
    await ok(t.call('oms', PO.confirm, { id: po.id }, demo));
    const order = await ok(t.call('oms', PO.get, { id: po.id }, demo));
    const draftNote = await ok(t.call('oms', RN.save, { orderId: po.id, lines: [{ orderLineId: order.lines[0].id, countedQty: 5 }] }, demo));
    const draftLine = (await ok(t.call('oms', RN.get, { id: draftNote.id }, demo))).lines[0];
    const notPosted = await saveInvoice([{ receivingLineId: draftLine.id, qty: 1 }]);
    expect(notPosted.code).toBe('PURCHASE_INVOICE_LINE_4102');
    expect(notPosted.msg).toBe(`采购发票第 1 行不是供应商“宁波华东五金制品厂”已过账的收货明细（收货单 ${draftNote.docNo}，状态“草稿”）`);
    const { note } = await received([{ productId: a.id, qty: 5, price: 1 }]);
    const wrongSupplier = await saveInvoice([{ receivingLineId: note.lines[0].id, qty: 1 }], { supplierId: otherSupplierId });
    expect(wrongSupplier.code).toBe('PURCHASE_INVOICE_LINE_4102');
    expect(wrongSupplier.msg).toContain('发票测试二号供应商');
    const twice = await saveInvoice([{ receivingLineId: note.lines[0].id, qty: 1 }, { receivingLineId: note.lines[0].id, qty: 1 }]);
    expect(twice).toMatchObject({ code: 'COMMON_VALIDATION_4000', msg: `第 2 行：收货单 ${note.docNo} 第 1 行重复，请合并为一行` });
    // the supplier's invoice number is registered once (a cancelled invoice gives it back); other suppliers may use it
    const first = await ok(saveInvoice([{ receivingLineId: note.lines[0].id, qty: 1 }], { invoiceNo: 'DUP-1' }));
    const dup = await saveInvoice([{ receivingLineId: note.lines[0].id, qty: 1 }], { invoiceNo: 'DUP-1' });
    expect(dup).toMatchObject({ code: 'PURCHASE_INVOICE_NO_TAKEN_4103', msg: `供应商“宁波华东五金制品厂”的发票号 DUP-1 已登记在采购发票 ${first.docNo}，不能重复登记` });
    // the same number again on the draft itself is fine
    await ok(saveInvoice([{ receivingLineId: note.lines[0].id, qty: 2 }], { id: first.id, version: first.version, invoiceNo: 'DUP-1' }));
    await ok(t.call('oms', PI.cancel, { id: first.id }, demo));
    await ok(saveInvoice([{ receivingLineId: note.lines[0].id, qty: 1 }], { invoiceNo: 'DUP-1' }));
    // two new invoices with one number at the same moment: one is saved, the other gets the same refusal (never a 500)
    const race = await Promise.all([0, 1].map(() => saveInvoice([{ receivingLineId: note.lines[0].id, qty: 1 }], { invoiceNo: 'DUP-2' })));
    expect(race.map((r) => r.code).sort()).toEqual(['200', 'PURCHASE_INVOICE_NO_TAKEN_4103']);
  });

  it('cancelling reverses the invoice; an invoiced receiving note cannot be cancelled', async () => {
    const a = await product();
    const { order, note } = await received([{ productId: a.id, qty: 8, price: '2.5' }]);
    const before = await stockOf(a.id);
    expect(before.qty).toBe(0);
    const inv = await ok(saveInvoice([{ receivingLineId: note.lines[0].id, qty: 8 }], { post: true }));
    expect(await stockOf(a.id)).toMatchObject({ qty: 8, amount: '20.00' });

    // the receiving note stays while it is invoiced
    const rnCancel = await t.call('oms', RN.cancel, { id: note.id }, demo);
    expect(rnCancel.code).toBe('PURCHASE_RECEIVING_INVOICED_4106');
    expect(rnCancel.msg).toBe(`收货单 ${note.docNo} 已开具采购发票 ${inv.docNo}，请先作废采购发票再作废收货单`);
    expect((await ok(t.call('oms', RN.get, { id: note.id }, demo))).status).toBe('posted');

    // the chain: order → receiving note → invoice, from any of the numbers
    for (const number of [order.docNo, note.docNo, inv.docNo]) {
      const rel = await ok(t.call('oms', REL, { docNo: number }, demo));
      expect(rel.chain.map((x: any) => [x.docType, x.number, x.status, x.from, x.level, x.route])).toEqual([
        ['purchaseOrder', order.docNo, 'received', null, 0, `/procurement/purchaseOrder/${order.id}`],
        ['receivingNote', note.docNo, 'posted', order.docNo, 1, `/entrepot/receivingNoteDetail/${note.id}`],
        ['purchaseInvoice', inv.docNo, 'posted', note.docNo, 2, `/procurement/invoiceDetail/${inv.id}`],
      ]);
    }
    expect((await ok(t.call('oms', REL, { docNo: inv.docNo }, demo))).found).toEqual({ docType: 'purchaseInvoice', id: inv.id });

    // something paid: the invoice stands
    await t.database.db.updateTable('supplierPayable').set({ paidAmount: 100 }).where('invoiceId', '=', inv.id).execute();
    const paid = await t.call('oms', PI.cancel, { id: inv.id }, demo);
    expect(paid).toMatchObject({ code: 'PURCHASE_INVOICE_PAID_4104', msg: `采购发票 ${inv.docNo} 的应付款已付款 1.00，不能作废` });
    await t.database.db.updateTable('supplierPayable').set({ paidAmount: 0 }).where('invoiceId', '=', inv.id).execute();

    // invoice stock used elsewhere meanwhile (e.g. by sales invoices): the reversal cannot take it below zero
    await t.database.db.updateTable('invoiceStock').set({ qty: 5 }).where('productId', '=', a.id).execute();
    const short = await t.call('oms', PI.cancel, { id: inv.id }, demo);
    expect(short).toMatchObject({ code: 'PURCHASE_INVOICE_STOCK_4105', msg: `商品 ${a.code} 的发票库存不足，不能作废采购发票 ${inv.docNo}：现有 5，需冲回 8` });
    // all or nothing: the payable is still open and the line still invoiced
    expect((await ok(t.call('oms', PI.get, { id: inv.id }, demo))).payable.status).toBe('open');
    expect((await ok(t.call('oms', PI.get, { id: inv.id }, demo))).lines[0].invoicedQty).toBe(8);
    await t.database.db.updateTable('invoiceStock').set({ qty: 8 }).where('productId', '=', a.id).execute();

    const cancelled = await ok(t.call('oms', PI.cancel, { id: inv.id }, demo));
    expect(cancelled).toMatchObject({ status: 'cancelled' });
    const got = await ok(t.call('oms', PI.get, { id: inv.id }, demo));
    expect(got).toMatchObject({ status: 'cancelled', payable: { status: 'cancelled', statusText: '已作废' } });
    expect(got.lines[0]).toMatchObject({ invoicedQty: 0, openQty: 8 });
    expect(await stockOf(a.id)).toMatchObject({ qty: 0, amount: '0.00' });
    const moves = await ok(t.call('cdm', IS.moves, { page: 1, pageSize: 10, productId: a.id }, demo));
    expect(moves.list.map((m: any) => [m.kind, m.qty, m.amount, m.docNo])).toEqual([['reverse', -8, '-20.00', inv.docNo], ['invoice', 8, '20.00', inv.docNo]]);
    // only what was posted can be cancelled, once
    const again = await t.call('oms', PI.cancel, { id: inv.id }, demo);
    expect(again).toMatchObject({ code: 'PURCHASE_DOC_STATUS_4091', msg: `采购发票 ${inv.docNo} 当前状态为“已作废”，不能作废` });
    expect((await t.call('oms', PI.post, { id: inv.id }, demo)).code).toBe('PURCHASE_DOC_STATUS_4091');
    // a draft is cancelled without effects; a stale version is refused
    const draft = await ok(saveInvoice([{ receivingLineId: note.lines[0].id, qty: 2 }]));
    expect((await t.call('oms', PI.cancel, { id: draft.id, version: 99 }, demo)).code).toBe('COMMON_VERSION_CONFLICT_4009');
    await ok(t.call('oms', PI.cancel, { id: draft.id, version: draft.version }, demo));
    expect(await stockOf(a.id)).toMatchObject({ qty: 0 });
    // with the invoice reversed the receiving note can be cancelled
    await ok(t.call('oms', RN.cancel, { id: note.id }, demo));
  });

  it('posting an invoice and cancelling its receiving note at once: exactly one of them happens', async () => {
    for (let round = 0; round < 3; round++) {
      const a = await product();
      const { note } = await received([{ productId: a.id, qty: 4, price: 1 }]);
      const draft = await ok(saveInvoice([{ receivingLineId: note.lines[0].id, qty: 4 }]));
      const [posted, cancelled] = await Promise.all([t.call('oms', PI.post, { id: draft.id }, demo), t.call('oms', RN.cancel, { id: note.id }, demo)]);
      expect([posted.code, cancelled.code].filter((c) => c === '200').length).toBe(1);
      const inv = await ok(t.call('oms', PI.get, { id: draft.id }, demo));
      const rn = await ok(t.call('oms', RN.get, { id: note.id }, demo));
      if (posted.code === '200') {
        expect(cancelled.code).toBe('PURCHASE_RECEIVING_INVOICED_4106');
        expect([inv.status, rn.status, inv.lines[0].invoicedQty]).toEqual(['posted', 'posted', 4]);
      } else {
        expect(posted.code).toBe('PURCHASE_INVOICE_LINE_4102');
        expect([inv.status, rn.status, inv.lines[0].invoicedQty]).toEqual(['draft', 'cancelled', 0]);
      }
    }
  });

  it('checks rights: the purchasing clerk has none of the invoice rights', async () => {
    const a = await product();
    const { note } = await received([{ productId: a.id, qty: 2, price: 1 }]);
    const inv = await ok(saveInvoice([{ receivingLineId: note.lines[0].id, qty: 1 }]));
    const calls: Array<[string, string, unknown]> = [
      ['oms', PI.list, { page: 1, pageSize: 10 }], ['oms', PI.get, { id: inv.id }], ['oms', PI.save, { supplierId, invoiceNo: 'X', lines: [{ receivingLineId: note.lines[0].id, qty: 1 }] }],
      ['oms', PI.post, { id: inv.id }], ['oms', PI.cancel, { id: inv.id }], ['oms', PI.lines, { supplierId }], ['oms', PI.export, {}],
      ['cdm', IS.list, { page: 1, pageSize: 10 }], ['cdm', IS.moves, { productId: a.id }], ['cdm', IS.get, { id: a.id }],
    ];
    for (const [family, code, body] of calls) {
      expect((await t.call(family as 'oms', code, body, clerk)).code, code).toBe('COMMON_NO_RIGHT_4003');
    }
    expect((await ok(t.call('oms', PI.get, { id: inv.id }, demo))).status).toBe('draft');
  });

  it('keeps companies apart', async () => {
    const a = await product();
    const { note } = await received([{ productId: a.id, qty: 2, price: 1 }]);
    const inv = await ok(saveInvoice([{ receivingLineId: note.lines[0].id, qty: 1 }], { post: true }));
    for (const code of [PI.get, PI.post, PI.cancel]) expect((await t.call('oms', code, { id: inv.id }, demo2)).code, code).toBe('COMMON_NOT_FOUND_4004');
    expect((await ok(t.call('oms', PI.list, { page: 1, pageSize: 10 }, demo2))).total).toBe(0);
    expect((await ok(t.call('cdm', IS.list, { page: 1, pageSize: 10 }, demo2))).total).toBe(0);
    expect((await t.call('cdm', IS.get, { id: a.id }, demo2)).code).toBe('PRODUCT_NOT_EXIST_4001');
    expect((await t.call('oms', PI.lines, { supplierId }, demo2))).toMatchObject({ code: 'COMMON_VALIDATION_4000', msg: '供应商不存在' });
    const sup2 = await ok(t.call('cdm', '011603', { code: 'SI2', name: '二号公司供应商' }, demo2));
    const stolen = await t.call('oms', PI.save, { supplierId: sup2.id, invoiceNo: 'X1', lines: [{ receivingLineId: note.lines[0].id, qty: 1 }] }, demo2);
    expect(stolen).toMatchObject({ code: 'COMMON_VALIDATION_4000', msg: '第 1 行：收货明细不存在' });
    expect((await t.call('oms', REL, { docNo: inv.docNo }, demo2)).code).toBe('PURCHASE_DOC_NOT_FOUND_4097');
    // demo's invoice is untouched
    expect((await ok(t.call('oms', PI.get, { id: inv.id }, demo))).status).toBe('posted');
  });

  it('answers bad input with Chinese messages naming the field', async () => {
    const a = await product();
    const { note } = await received([{ productId: a.id, qty: 2, price: 1 }]);
    const line = { receivingLineId: note.lines[0].id, qty: 1 };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ supplierId, lines: [line] }, '发票号不能为空'],
      [{ supplierId, invoiceNo: '   ', lines: [line] }, '发票号不能为空'],
      [{ supplierId, invoiceNo: 'B1', lines: [] }, '请至少添加一行明细'],
      [{ supplierId, invoiceNo: 'B1', invoiceDate: '2026-02-30', lines: [line] }, '发票日期不是有效的日期（YYYY-MM-DD）'],
      [{ supplierId, invoiceNo: 'B1', invoiceDate: '2026-06-10', dueDate: '2026-06-01', lines: [line] }, '付款到期日不能早于发票日期'],
      [{ supplierId, invoiceNo: 'B1', taxRate: 'abc', lines: [line] }, '税率必须是数字'],
      [{ supplierId, invoiceNo: 'B1', taxRate: '101', lines: [line] }, '税率必须在 0 到 100 之间'],
      [{ supplierId, invoiceNo: 'B1', lines: [{ ...line, qty: 0 }] }, '第 1 行：开票数量必须大于 0'],
      [{ supplierId, invoiceNo: 'B1', lines: [{ receivingLineId: note.lines[0].id }] }, '第 1 行：开票数量不能为空'],
      [{ supplierId, invoiceNo: 'B1', lines: [{ ...line, price: '1.23456' }] }, '第 1 行：单价最多 4 位小数'],
      [{ supplierId, invoiceNo: 'B1', lines: [{ ...line, price: '-1' }] }, '第 1 行：单价不能小于 0'],
      [{ supplierId, invoiceNo: 'B1', lines: [{ receivingLineId: 99999999, qty: 1 }] }, '第 1 行：收货明细不存在'],
      [{ supplierId: 99999999, invoiceNo: 'B1', lines: [line] }, '供应商不存在'],
      [{ supplierId: 'abc', invoiceNo: 'B1', lines: [line] }, '供应商格式不正确'],
    ];
    for (const [body, msg] of cases) {
      const r = await t.call('oms', PI.save, body, demo);
      expect(r, JSON.stringify(body)).toMatchObject({ code: 'COMMON_VALIDATION_4000', msg });
    }
    // big/mid/small entry: 1 carton of 12 is more than the 2 received
    expect((await t.call('oms', PI.save, { supplierId, invoiceNo: 'B2', lines: [{ receivingLineId: note.lines[0].id, big: 1 }] }, demo)).code).toBe('PURCHASE_INVOICE_OVER_4101');
    expect((await t.call('oms', PI.list, { page: 1, pageSize: 10, filters: { status: 'paid' } }, demo))).toMatchObject({ code: 'COMMON_VALIDATION_4000', msg: '状态取值不正确' });
    expect((await t.call('oms', PI.list, { page: 1, pageSize: 10, filters: { invoiceDate: ['2026-13-01', null] } }, demo))).toMatchObject({ code: 'COMMON_VALIDATION_4000', msg: '开始日期不是有效的日期（YYYY-MM-DD）' });
    expect((await t.call('cdm', IS.moves, { page: 1, pageSize: 10 }, demo))).toMatchObject({ code: 'COMMON_VALIDATION_4000', msg: '商品不能为空' });
    expect((await t.call('oms', PI.get, { id: 99999999 }, demo))).toMatchObject({ code: 'COMMON_NOT_FOUND_4004', msg: '采购发票不存在或已被删除' });
  });
});
