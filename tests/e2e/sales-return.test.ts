// A sales return in Chromium from the demo company (issue 13): an order of 250 DM-1002 shipped to 上海优品百货
// (made over the API as the admin: order → plan → picking → delivery note); the sales clerk (sales / demo123)
// opens the order, starts 退货 from it, types the returned quantity in 盒/个 and the reason with the keyboard,
// saves and confirms — which makes its inbound task; the store user (仓管员 store / demo123) finds it in 入库任务
// with its source 销售退货 XT…, opens it, clicks 收货 (the receiving note of the task, on 退货收货), types the
// counted 1 盒 20 个 with the keyboard, saves with Ctrl+S and posts it; the task is done, and the admin puts the
// goods away to the product's location — 商品库存 shows the goods back, and the return shows what was received
// and its value at the delivery price. Before that, 作废 on the
// confirmed return shows what it would undo (the definition's repeal preview) and is answered 取消. Once the
// delivery is invoiced (over the API), the received return offers 开红字发票: the red invoice opens on that invoice
// with 销售退回 and the received 120 filled in, and is saved and posted with the keyboard and a click. A confirmed
// order offers 开预收款发票: the amount typed, saved with Ctrl+S and posted; 预收预付款 lists it. An issued proforma offers 红冲: part of it
// withdrawn with 订单变更, saved with Ctrl+S and issued. Screenshots:
// test-output/e2e/sales-return/NN-*.png.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiOk, btn, choose, confirmPopup, item, openList, row, rowByTitle } from './support/antd';
import { ADMIN, expectToast, hasChromium, login, screenshot, waitForScreen, type Account } from './support/browser';
import { setupE2e } from './support/setup';
import { doc, docNo, expectState, headerValue, lines, lineRows, openedAfterSave } from './support/document';

const SHOT_DIR = 'sales-return';
const SALES: Account = { companyCode: 'demo', userName: 'sales', password: 'demo123' };
const STORE: Account = { companyCode: 'demo', userName: 'store', password: 'demo123' };
const NUT = 'DM-1002';

async function shot(page: Page, name: string): Promise<void> {
  await page.mouse.move(600, 890);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, `${SHOT_DIR}/${name}`);
}

/** Selects what a field holds and types over it, as a clerk does. */
async function typeInto(page: Page, field: ReturnType<Page['locator']>, text: string): Promise<void> {
  await field.click();
  await page.keyboard.press('Control+A');
  if (text) await page.keyboard.type(text);
  else await page.keyboard.press('Backspace');
}

describe.skipIf(!hasChromium)('sales return: from a delivered order back into stock (e2e)', () => {
  const e2e = setupE2e({ login: SALES, walk: { shots: SHOT_DIR, pages: () => [['sales', page], ['warehouse', wh], ['store', store]] } });
  let page: Page;
  let wh: Page;
  let store: Page;
  let orderId = 0;
  let orderNo = '';
  let returnNo = '';
  let onHandBefore = 0;

  const onHand = async (p: Page) => {
    const inv = await apiOk(p, 'cdm', '011301', { page: 1, pageSize: 20, keyword: NUT });
    return inv.list.filter((r: any) => r.productCode === NUT).reduce((s: number, r: any) => s + Number(r.onHand), 0);
  };

  beforeAll(async () => {
    page = e2e.page;
    const other = await e2e.newPage();
    wh = other.page;
    await login(wh, ADMIN);
    store = (await e2e.newPage()).page;
    await login(store, STORE);
    // the delivered order the clerk returns goods from: confirmed, planned, picked and shipped by the floor
    const products = await apiOk(wh, 'cdm', '010201', { page: 1, pageSize: 20, keyword: NUT });
    const productId = products.list.find((p: any) => p.code === NUT).id;
    const clients = await apiOk(wh, 'cdm', '011701', { page: 1, pageSize: 20 });
    const clientId = clients.list.find((c: any) => c.code === 'C002').id;
    const warehouses = await apiOk(wh, 'cdm', '011006', {});
    const warehouseId = (warehouses.list ?? warehouses)[0].value ?? (warehouses.list ?? warehouses)[0].id;
    const so = await apiOk(wh, 'oms', '020903', { clientId, warehouseId, lines: [{ productId, qty: 250 }] });
    await apiOk(wh, 'oms', '020905', { id: so.id });
    const order = await apiOk(wh, 'oms', '020902', { id: so.id });
    const plan = await apiOk(wh, 'oms', '020703', { orderId: so.id, lines: order.lines.map((l: any) => ({ orderLineId: l.id, qty: l.qty })) });
    const confirmed = await apiOk(wh, 'oms', '020705', { id: plan.id });
    await apiOk(wh, 'oms', '024003', { taskIds: [confirmed.taskId], post: true });
    await apiOk(wh, 'oms', '024103', { taskId: confirmed.taskId, post: true });
    orderId = so.id;
    orderNo = so.docNo;
    onHandBefore = await onHand(wh);
  });

  it('the sales clerk opens the delivered order and makes its return with the keyboard: 1 盒 20 个, with the reason', async () => {
    await page.goto(`/market/orderDetail/${orderId}`);
    await waitForScreen(page, '销售订单详情');
    await expectState(page, '已发货');
    await btn(doc(page), '退货').click();
    await page.waitForURL(/\/market\/salesReturnDetail\/new\?orderId=\d+$/);
    await expect.poll(() => lineRows(page).count()).toBe(1);
    await expect.poll(() => headerValue(page, '客户')).toBe('上海优品百货有限公司');
    // (read once the brought-in line is drawn: on a loaded machine the row can come before its cells)
    await expect.poll(async () => (await lines(page)).map((l) => [l.商品编码, l.已发货, l.可退])).toEqual([[NUT, '250', '250']]);
    const row = lineRows(page).first();
    await typeInto(page, row.getByRole('textbox', { name: '数量（大包装）' }), '');
    await typeInto(page, row.getByRole('textbox', { name: '数量（中包装）' }), '1');
    await typeInto(page, row.getByRole('textbox', { name: '数量（最小单位）' }), '20');
    await typeInto(page, item(doc(page), '退货原因').locator('input'), '包装破损，客户退回');
    await shot(page, '01-return-new');
    await page.keyboard.press('Control+s');
    await expectToast(page, '保存成功');
    await openedAfterSave(page, /^\/market\/salesReturnDetail\/\d+$/);
    await expectState(page, '草稿');
    returnNo = await docNo(page);
    expect(returnNo).toMatch(/^XT\d{12}$/);
    await btn(doc(page), '确认').click();
    await confirmPopup(page, `确定确认销售退货单“${returnNo}”？确认后生成入库任务，仓库按入库任务收货。`);
    await expectState(page, '待收货');
    await expect.poll(async () => (await lines(page)).map((l) => [l.商品编码, l.退货数量])).toEqual([[NUT, '120']]);
    await shot(page, '02-return-confirmed');
    // 作废 tells what it would undo before it is confirmed; the clerk thinks better of it
    await btn(doc(page), '作废').click();
    const pop = page.locator('.ant-popconfirm:visible');
    await pop.waitFor();
    expect((await pop.locator('.ant-popconfirm-title').innerText()).trim())
      .toBe(`确定作废销售退货单“${returnNo}”？销售退货单 ${returnNo} 已确认、尚未收货：作废退货单，退还销售订单 ${orderNo} 的退货数量 120 个（1 行）`);
    await btn(pop, '取消').click();
    await expectState(page, '待收货');
    // the order line shows what is returned
    await page.goto(`/market/orderDetail/${orderId}`);
    await waitForScreen(page, '销售订单详情');
    await expect.poll(async () => (await lines(page)).map((l) => [l.已发货, l.已退货])).toEqual([['250', '120']]);
  });

  it('the store user receives the return from 入库任务: the task of 销售退货, 收货, counted with the keyboard, posted; the goods are put away: stock is back', async () => {
    const found = await apiOk(wh, 'oms', '021101', { page: 1, pageSize: 5, docNo: returnNo });
    // 入库任务: the return's task among the purchase ones, with its source and client
    await openList(store, '/entrepot/inboundTaskList', '入库任务');
    const taskRow = row(store, `销售退货 ${returnNo}`);
    await taskRow.waitFor();
    const cols = await rowByTitle(store, taskRow);
    expect([cols['来源'], cols['供应商/客户'], cols['状态'], cols['未收数量']]).toEqual([`销售退货 ${returnNo}`, '上海优品百货有限公司', '待收货', '120']);
    const taskNo = cols['单号']!;
    expect(taskNo).toMatch(/^RT\d+$/);
    await shot(store, '03-inbound-tasks');
    await taskRow.getByRole('link', { name: taskNo }).click();
    await store.waitForURL(/\/entrepot\/inboundTaskDetail\/\d+$/);
    await expectState(store, '待收货');
    await expect.poll(() => headerValue(store, '来源')).toBe(`销售退货 ${returnNo}`);
    expect(await headerValue(store, '客户')).toBe('上海优品百货有限公司');
    // a return's task is closed on its return, not here
    expect(await btn(doc(store), '关闭').count()).toBe(0);
    await btn(doc(store), '收货').click();
    await store.waitForURL(/\/entrepot\/returnReceiving\/new\?returnId=\d+&taskId=\d+$/);
    await expect.poll(() => lineRows(store).count()).toBe(1);
    await expect.poll(async () => (await lines(store)).map((l) => [l.商品编码, l.退货, l.未收])).toEqual([[NUT, '120', '120']]);
    await expect.poll(() => headerValue(store, '客户')).toBe('上海优品百货有限公司');
    // counted as the clerk sees it: 1 盒 20 个
    const counted = lineRows(store).first();
    await typeInto(store, counted.getByRole('textbox', { name: '实收（大包装）' }), '');
    await typeInto(store, counted.getByRole('textbox', { name: '实收（中包装）' }), '1');
    await typeInto(store, counted.getByRole('textbox', { name: '实收（最小单位）' }), '20');
    expect(await headerValue(store, '销售退货单号')).toBe(returnNo);
    await shot(store, '04-receiving-new');
    await store.keyboard.press('Control+s');
    await expectToast(store, '保存成功');
    await openedAfterSave(store, /^\/entrepot\/returnReceiving\/\d+$/);
    const noteNo = await docNo(store);
    await btn(doc(store), '过账').click();
    await confirmPopup(store, `确定过账收货单“${noteNo}”？过账后货物计入库存。`);
    await expectState(store, '已过账');
    expect(await onHand(wh)).toBe(onHandBefore + 120);
    // the task is done
    await openList(store, '/entrepot/inboundTaskList', '入库任务');
    const done = await rowByTitle(store, row(store, `销售退货 ${returnNo}`));
    expect([done['状态'], done['已收数量'], done['未收数量']]).toEqual(['已完成', '120', '0']);
    await shot(store, '05-inbound-task-done');

    // the admin puts the goods away from the note
    const note = (await apiOk(wh, 'oms', '021401', { page: 1, pageSize: 5, docNo: noteNo })).list[0];
    await wh.goto(`/entrepot/returnReceiving/${note.id}`);
    await expectState(wh, '已过账');
    await btn(doc(wh), '上架').click();
    await wh.waitForURL(/\/entrepot\/putawayDetail\/new\?receivingNoteId=\d+$/);
    await waitForScreen(wh, '上架单详情');
    await expect.poll(() => lineRows(wh).count()).toBe(1);
    await expect.poll(async () => (await lines(wh)).map((l) => [l.商品编码, l.待上架, l.上架库位])).toEqual([[NUT, '120', 'C-01-02']]);
    await btn(doc(wh), '保存').click();
    await expectToast(wh, '保存成功');
    await openedAfterSave(wh, /^\/entrepot\/putawayDetail\/\d+$/);
    const putawayNo = await docNo(wh);
    await btn(doc(wh), '过账').click();
    await confirmPopup(wh, `确定过账上架单“${putawayNo}”？过账后库存移到上架库位。`);
    await expectState(wh, '已过账');

    // the return: received in full, its value at the delivery price (0.25 × 120)
    await wh.goto(`/market/salesReturnDetail/${found.list[0].id}`);
    await expectState(wh, '已收货');
    await expect.poll(() => headerValue(wh, '已收货')).toBe('120');
    expect(await headerValue(wh, '已收货金额')).toBe('30.00');
    await shot(wh, '06-return-received');
    // still 120 more than before the return, now on the product's shelf
    expect(await onHand(wh)).toBe(onHandBefore + 120);
  });

  it('once the delivery is invoiced, the received return opens its red invoice: the invoice, 销售退回 and the received quantity filled in', async () => {
    const found = await apiOk(wh, 'oms', '021101', { page: 1, pageSize: 5, docNo: returnNo });
    const returnId = found.list[0].id;
    await wh.goto(`/market/salesReturnDetail/${returnId}`);
    await expectState(wh, '已收货');
    // not invoiced yet: nothing to credit
    expect(await btn(doc(wh), '开红字发票').count()).toBe(0);
    const order = await apiOk(wh, 'oms', '020902', { id: orderId });
    const open = (await apiOk(wh, 'oms', '022406', { clientId: order.clientId, page: 1, pageSize: 100 })).list.filter((l: any) => l.orderDocNo === orderNo || l.orderId === orderId);
    expect(open.length).toBe(1);
    const inv = await apiOk(wh, 'oms', '022403', { clientId: order.clientId, post: true, lines: open.map((l: any) => ({ deliveryLineId: l.deliveryLineId, qty: l.openQty })) });
    await wh.reload();
    await expectState(wh, '已收货');
    await btn(doc(wh), '开红字发票').click();
    await wh.waitForURL(new RegExp(`/market/invoiceDetailBack\\?invoiceId=${inv.id}&reason=return&returnId=${returnId}&returnDocNo=${returnNo}$`));
    await waitForScreen(wh, '开具红字发票');
    await expect.poll(() => lineRows(wh).count()).toBe(1);
    await expect.poll(() => headerValue(wh, '红冲原因')).toBe('销售退回');
    expect(await headerValue(wh, '原销售发票')).toContain(inv.docNo);
    expect(await headerValue(wh, '销售退货单')).toBe(returnNo);
    await expect.poll(async () => (await lines(wh)).map((l) => [l.商品编码, l.原开票数量, l.冲红数量])).toEqual([[NUT, '250', '120']]);
    await shot(wh, '07-red-invoice-new');
    await wh.keyboard.press('Control+s');
    await expectToast(wh, '保存成功');
    await openedAfterSave(wh, /^\/market\/invoiceDetailBack\/\d+$/);
    const redNo = await docNo(wh);
    await btn(doc(wh), '过账').click();
    await confirmPopup(wh, `确定过账红字发票“${redNo}”？过账后冲减原发票的应收款。`);
    await expectState(wh, '已过账');
    // 0.25 × 120, the return named on it
    await expect.poll(() => headerValue(wh, '冲红金额')).toBe('30.00');
    expect(await headerValue(wh, '销售退货单')).toBe(returnNo);
    await shot(wh, '08-red-invoice-posted');
    // all of it credited: the return no longer offers it
    await wh.goto(`/market/salesReturnDetail/${returnId}`);
    await expectState(wh, '已收货');
    expect(await btn(doc(wh), '开红字发票').count()).toBe(0);
  });

  it('a confirmed order offers 开预收款发票: the clerk types the amount asked, saves and posts it (a receivable)', async () => {
    const products = await apiOk(wh, 'cdm', '010201', { page: 1, pageSize: 20, keyword: NUT });
    const productId = products.list.find((p: any) => p.code === NUT).id;
    const clients = await apiOk(wh, 'cdm', '011701', { page: 1, pageSize: 20 });
    const clientId = clients.list.find((c: any) => c.code === 'C002').id;
    const warehouses = await apiOk(wh, 'cdm', '011006', {});
    const warehouseId = (warehouses.list ?? warehouses)[0].value ?? (warehouses.list ?? warehouses)[0].id;
    const so = await apiOk(wh, 'oms', '020903', { clientId, warehouseId, lines: [{ productId, qty: 100 }] });
    await apiOk(wh, 'oms', '020905', { id: so.id });
    await wh.goto(`/market/orderDetail/${so.id}`);
    await waitForScreen(wh, '销售订单详情');
    await expectState(wh, '已确认');
    await btn(doc(wh), '开预收款发票').click();
    await wh.waitForURL(new RegExp(`/market/invoicePrepaymentAdd\\?orderId=${so.id}$`));
    await expect.poll(() => headerValue(wh, '销售订单')).toContain(so.docNo);
    await typeInto(wh, item(doc(wh), '预收金额').locator('input'), '10');
    await typeInto(wh, item(doc(wh), '备注').locator('input'), '预收定金');
    await wh.keyboard.press('Control+s');
    await expectToast(wh, '保存成功');
    await openedAfterSave(wh, /^\/market\/invoicePrepayment\/\d+$/);
    const ysNo = await docNo(wh);
    expect(ysNo).toMatch(/^YS\d+$/);
    await btn(doc(wh), '过账').click();
    await confirmPopup(wh, `确定过账预收款发票“${ysNo}”？过账后记客户应收款。`);
    await expectState(wh, '已过账');
    await expect.poll(() => headerValue(wh, '价税合计')).toBe('10.00');
    expect(await headerValue(wh, '已收款')).toBe('0.00');
    await shot(wh, '09-prepayment-posted');
    // the accountant finds it on 预收预付款: asked 10.00, nothing paid or deducted yet, 10.00 open
    await wh.goto('/financial/advances');
    await waitForScreen(wh, '预收预付款');
    const ysRow = row(wh, ysNo);
    await ysRow.waitFor();
    const ys = await rowByTitle(wh.locator('.renderer-section', { has: ysRow }).first(), ysRow);
    expect([ys['预收金额'], ys['已收款'], ys['已抵扣'], ys['可抵扣'], ys['未收']]).toEqual(['10.00', '0.00', '0.00', '0.00', '10.00']);
    await shot(wh, '09b-advances-prepayments');
  });

  it('an issued proforma offers 红冲: the clerk withdraws part of it with a reason, saves and issues the withdrawal', async () => {
    const products = await apiOk(wh, 'cdm', '010201', { page: 1, pageSize: 20, keyword: NUT });
    const productId = products.list.find((p: any) => p.code === NUT).id;
    const clients = await apiOk(wh, 'cdm', '011701', { page: 1, pageSize: 20 });
    const clientId = clients.list.find((c: any) => c.code === 'C002').id;
    const warehouses = await apiOk(wh, 'cdm', '011006', {});
    const warehouseId = (warehouses.list ?? warehouses)[0].value ?? (warehouses.list ?? warehouses)[0].id;
    const so = await apiOk(wh, 'oms', '020903', { clientId, warehouseId, lines: [{ productId, qty: 100 }] });
    const pf = await apiOk(wh, 'oms', '022433', { orderId: so.id, mode: 'amount', confirm: true, lines: [{ orderLineId: (await apiOk(wh, 'oms', '020902', { id: so.id })).lines[0].id, amount: '50' }] });
    await wh.goto(`/market/invoiceDetailModality/${pf.id}`);
    await waitForScreen(wh, '形式发票详情');
    await expectState(wh, '已出具');
    await btn(doc(wh), '红冲').click();
    await wh.waitForURL(new RegExp(`/market/invoiceModalityBack\\?proformaId=${pf.id}$`));
    await expect.poll(() => headerValue(wh, '原形式发票')).toContain(pf.docNo);
    await expect.poll(async () => (await lines(wh)).map((l) => [l['可红冲'], l['红冲金额']])).toEqual([['50.00', '50.00']]);
    await choose(wh, item(doc(wh), '红冲原因'), '订单变更');
    // part of it: 20.00 of the line's 50.00
    await typeInto(wh, lineRows(wh).first().locator('td').filter({ has: wh.locator('input') }).first().locator('input'), '20');
    await wh.keyboard.press('Control+s');
    await expectToast(wh, '保存成功');
    await openedAfterSave(wh, /^\/market\/invoiceModalityBack\/\d+$/);
    const no = await docNo(wh);
    expect(no).toMatch(/^PFH\d+$/);
    await btn(doc(wh), '出具').click();
    await confirmPopup(wh, '确定出具形式发票红冲“' + no + '”？出具后原形式发票按红冲金额减少（不记应收）。');
    await expectState(wh, '已出具');
    await expect.poll(() => headerValue(wh, '红冲金额')).toBe('20.00');
    expect((await lines(wh)).map((l) => l['可红冲'])).toEqual(['30.00']);
    await shot(wh, '10-proforma-withdrawn');
  });
});

