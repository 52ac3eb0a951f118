// Prepayment invoices (预收款发票, issue 15) over HTTP, on SQLite and PostgreSQL: asked from a confirmed sales
// order by percentage or amount, never more than the order in all; posting writes a receivable the receipt
// desk settles; what was paid is deducted (预收款抵扣) on the order's normal invoice at posting — never more
// than paid and not yet deducted, exact to the cent, through the allocation ledger (the invoice's receivable
// is its total less the deduction); two invoices posting at once never deduct the same money twice;
// cancelling the invoice gives the deduction back; a paid prepayment is not cancelled and a receipt whose
// money was deducted is not reversed; verify clean.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyFinance } from '../../src/server/domain/finance/verify.ts';
import { ok, startTestServer, type TestServer } from './helpers.ts';
import { tradeFlow } from './trade-flow.ts';

const SO = { save: '020903', get: '020902', confirm: '020905' };
const SI = { get: '022402', save: '022403', post: '022404', cancel: '022405', lines: '022406' };
const YS = { list: '022441', get: '022442', save: '022443', post: '022444', cancel: '022445', orders: '022447' };
const PAY = { save: '026003', get: '026002', reverse: '026007' };

let t: TestServer;
let admin: string;
let wh: number;
let loc: number;
let listId: number;
let seq = 0;

async function product(price: string) {
  const code = `YS${String(++seq).padStart(4, '0')}`;
  const id = (await ok(t.call('cdm', '010203', { code, name: `预收商品${code}`, unitSmall: '个' }, admin))).id as number;
  await ok(t.call('cdm', '014031', { productId: id, priceTitleId: listId, price }, admin));
  await ok(t.call('oms', '022603', { warehouseId: wh, lines: [{ productId: id, qty: 1000, locationId: loc }], post: true }, admin));
  return id;
}

async function confirmedOrder(productId: number, qty: number) {
  const clientId = (await ok(t.call('cdm', '011703', { code: `YK${String(++seq).padStart(4, '0')}`, name: `预收客户${seq}`, priceTitleId: listId, creditLimit: '0', backOrderPolicy: 'keep', paymentDays: 30 }, admin))).id as number;
  const so = await ok(t.call('oms', SO.save, { clientId, warehouseId: wh, lines: [{ productId, qty }] }, admin));
  await ok(t.call('oms', SO.confirm, { id: so.id, version: so.version }, admin));
  return { id: so.id as number, docNo: so.docNo as string, clientId };
}


const receipt = (clientId: number, itemId: number, amount: string) =>
  ok(t.call('oms', PAY.save, { direction: 'receipt', clientId, amount, payDate: '2026-11-21', method: 'bank', lines: [{ openItemId: itemId, amount }], post: true }, admin));

async function verifyClean() {
  expect((await verifyFinance(t.database.db)).differences ?? []).toEqual([]);
}

const flow = tradeFlow(() => t, () => admin);

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login();
  ({ wh, loc } = await flow.warehouse('YSW', '预收仓'));
  listId = await flow.saleList();
});
afterAll(async () => t?.close());

describe('prepayment invoices', () => {
  it('asked by percentage, paid in part, deducted on the final invoice up to what was paid; cancelling gives it back; paid money stays', async () => {
    const p = await product('33.33');
    const order = await confirmedOrder(p, 3); // 99.99
    const got = await ok(t.call('oms', SO.get, { id: order.id }, admin));
    expect(got.actions.map((a: any) => a.label)).toContain('开预收款发票');
    expect((await ok(t.call('oms', YS.orders, { keyword: order.docNo }, admin))).map((o: any) => o.id)).toEqual([order.id]);

    // 30 % of 99.99 = 30.00 (29.997 half-up), posted at once: a receivable
    const ys = await ok(t.call('oms', YS.save, { orderId: order.id, mode: 'percent', percent: '30', post: true }, admin));
    let doc = await ok(t.call('oms', YS.get, { id: ys.id }, admin));
    expect(doc).toMatchObject({ status: 'posted', orderDocNo: order.docNo, clientId: order.clientId, orderAmount: '99.99', totalAmount: '30.00', paidAmount: '0.00', deductedAmount: '0.00', availableAmount: '0.00', openAmount: '30.00' });
    expect(doc.docNo).toMatch(/^YS/);
    // never more than the order in all
    const over = await t.call('oms', YS.save, { orderId: order.id, mode: 'amount', amount: '70.00' }, admin);
    expect(over.msg).toContain(`销售订单 ${order.docNo} 金额 99.99，已开预收款发票 30.00，本次 70.00 超出`);
    expect((await t.call('oms', YS.save, { orderId: order.id, mode: 'percent', percent: '0' }, admin)).msg).toContain('预收比例必须大于 0 且不超过 100%');
    expect((await t.call('oms', YS.save, { orderId: order.id, mode: 'amount' }, admin)).msg).toContain('预收金额必须大于 0');

    // the receipt desk settles 12.34 of it
    const pay1 = await receipt(order.clientId, doc.receivableId, '12.34');
    doc = await ok(t.call('oms', YS.get, { id: ys.id }, admin));
    expect(doc).toMatchObject({ paidAmount: '12.34', availableAmount: '12.34', openAmount: '17.66' });
    // paid: no longer cancellable
    expect((await t.call('oms', YS.cancel, { id: ys.id }, admin)).code).toBe('FINANCE_ITEM_ALLOCATED_4176');

    // delivered and invoiced: the final invoice deducts what was paid
    await flow.ship(order.id, '2026-11-20');
    const open = (await ok(t.call('oms', SI.lines, { clientId: order.clientId, page: 1, pageSize: 100 }, admin))).list as any[];
    const inv = await ok(t.call('oms', SI.save, { clientId: order.clientId, post: true, lines: open.map((l: any) => ({ deliveryLineId: l.deliveryLineId, qty: l.openQty })) }, admin));
    let invDoc = await ok(t.call('oms', SI.get, { id: inv.id }, admin));
    expect(invDoc).toMatchObject({ totalAmount: '99.99', prepaymentDeducted: '12.34', openAmount: '87.65' });
    expect(invDoc.receivable).toMatchObject({ amount: '99.99', openAmount: '87.65' });
    doc = await ok(t.call('oms', YS.get, { id: ys.id }, admin));
    expect(doc).toMatchObject({ paidAmount: '12.34', deductedAmount: '12.34', availableAmount: '0.00' });
    expect(doc.lines.map((l: any) => [l.invoiceDocNo, l.amount])).toEqual([[inv.docNo, '12.34']]);
    // the accountant's list of prepayment invoices (on 预收预付款 /financial/advances): paid, deducted, open per row
    const listed = (await ok(t.call('oms', YS.list, { page: 1, pageSize: 50, clientId: order.clientId }, admin))).list as any[];
    expect(listed.map((r) => [r.docNo, r.orderDocNo, r.clientName, r.totalAmount, r.paidAmount, r.deductedAmount, r.availableAmount, r.openAmount, r.receivableStatusText]))
      .toEqual([[doc.docNo, order.docNo, doc.clientName, '30.00', '12.34', '12.34', '0.00', '17.66', '未结清']]);
    await verifyClean();

    // the receipt whose money was deducted cannot be reversed
    const payDoc = await ok(t.call('oms', PAY.get, { id: pay1.id }, admin));
    const rev = await t.call('oms', PAY.reverse, { id: pay1.id, version: payDoc.version }, admin);
    expect(rev.msg).toContain(`预收款发票 ${doc.docNo} 的预收款已在销售发票中抵扣 12.34，不能冲销`);

    // the rest paid, then the invoice cancelled: the deduction comes back; a new invoice takes all 30.00
    await receipt(order.clientId, doc.receivableId, '17.66');
    invDoc = await ok(t.call('oms', SI.get, { id: inv.id }, admin));
    await ok(t.call('oms', SI.cancel, { id: inv.id, version: invDoc.version }, admin));
    doc = await ok(t.call('oms', YS.get, { id: ys.id }, admin));
    expect(doc).toMatchObject({ paidAmount: '30.00', deductedAmount: '0.00', availableAmount: '30.00', lines: [] });
    const again = (await ok(t.call('oms', SI.lines, { clientId: order.clientId, page: 1, pageSize: 100 }, admin))).list as any[];
    const inv2 = await ok(t.call('oms', SI.save, { clientId: order.clientId, post: true, lines: again.map((l: any) => ({ deliveryLineId: l.deliveryLineId, qty: l.openQty })) }, admin));
    expect(await ok(t.call('oms', SI.get, { id: inv2.id }, admin))).toMatchObject({ prepaymentDeducted: '30.00', openAmount: '69.99' });
    expect(await ok(t.call('oms', YS.get, { id: ys.id }, admin))).toMatchObject({ deductedAmount: '30.00', availableAmount: '0.00' });
    await verifyClean();
  });

  it('two invoices of one order posting at once never deduct more than was paid; an invoice smaller than the advance takes only its total', async () => {
    const p = await product('10.00');
    const order = await confirmedOrder(p, 10); // 100.00
    const ys = await ok(t.call('oms', YS.save, { orderId: order.id, mode: 'amount', amount: '80.00', post: true }, admin));
    const doc = await ok(t.call('oms', YS.get, { id: ys.id }, admin));
    await receipt(order.clientId, doc.receivableId, '80.00');
    await flow.ship(order.id, '2026-11-20');
    const [line] = (await ok(t.call('oms', SI.lines, { clientId: order.clientId, page: 1, pageSize: 100 }, admin))).list as any[];
    // two drafts of 5 each (50.00), posted at the same time
    const a = await ok(t.call('oms', SI.save, { clientId: order.clientId, lines: [{ deliveryLineId: line.deliveryLineId, qty: 5 }] }, admin));
    const b = await ok(t.call('oms', SI.save, { clientId: order.clientId, lines: [{ deliveryLineId: line.deliveryLineId, qty: 5 }] }, admin));
    const posted = await Promise.all([a, b].map((d) => t.call('oms', SI.post, { id: d.id, version: d.version }, admin)));
    expect(posted.map((r) => r.code)).toEqual(['200', '200']);
    const docs = await Promise.all([a, b].map((d) => ok(t.call('oms', SI.get, { id: d.id }, admin))));
    // one takes its whole 50.00, the other what is left: 30.00 — 80.00 in all, never more
    expect(docs.map((d) => d.prepaymentDeducted).sort()).toEqual(['30.00', '50.00']);
    expect(docs.map((d) => d.openAmount).sort()).toEqual(['0.00', '20.00']);
    const after = await ok(t.call('oms', YS.get, { id: ys.id }, admin));
    expect(after).toMatchObject({ deductedAmount: '80.00', availableAmount: '0.00' });
    expect(after.lines.length).toBe(2);
    // the statement: 80.00 asked and received, 100.00 invoiced, 80.00 deducted — 20.00 owed
    const statement = await ok(t.call('oms', '026203', { id: order.clientId, partyType: 'client', dateFrom: '2026-01-01', dateTo: '2026-12-31' }, admin));
    expect(statement.list.filter((r: any) => r.kind === '预收款抵扣').map((r: any) => [r.docNo, r.credit])).toEqual([[ys.docNo, '80.00']]);
    expect(statement.list.at(-1).balance).toBe('20.00');
    await verifyClean();
  });

  it('refuses callers without the rights', async () => {
    const purchaser = await t.login('demo', 'clerk', 'demo123');
    expect((await t.call('oms', YS.save, { orderId: 1, mode: 'amount', amount: '1' }, purchaser)).code).toBe('COMMON_NO_RIGHT_4003');
    expect((await t.call('oms', YS.list, { page: 1, pageSize: 10 }, purchaser)).code).toBe('COMMON_NO_RIGHT_4003');
  });
});
