// Cartons and loading lists in Chromium from the demo company (issue 14). The demo's draft outbound plan is
// confirmed and its task picked over the API (the outbound-flow walk does those screens); then the
// warehouse keeper (store / demo123) packs the picked plates into two cartons on 纸箱 — the task chosen by
// typing its number, the quantity, gross weight and volume typed, Ctrl+S, 封箱 — puts both cartons on a new
// 装车单 (container 20GP, seal number; the cartons scanned into the lookup cells by number + Enter), loads
// it, sees the capacity figures, and makes the delivery note from the loaded list: the goods leave when it
// is posted; then types a new opening-stock document, records the carrier collecting the shipped note (提货任务)
// and calls a tray of the vertical lift from its queue. Screenshots: test-output/e2e/floor-cartons/NN-*.png.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiOk, btn, confirmPopup, item, openList, row, rowByTitle } from './support/antd';
import { expectToast, hasChromium, login, screenshot, waitForScreen, type Account } from './support/browser';
import { setupE2e } from './support/setup';
import { doc, docNo, expectState, headerValue, lineRows, lines, openedAfterSave, pickProduct } from './support/document';

const SHOT_DIR = 'floor-cartons';
const ADMIN: Account = { companyCode: 'demo', userName: 'admin', password: 'demo123' };
const STORE: Account = { companyCode: 'demo', userName: 'store', password: 'demo123' };

async function shot(page: Page, name: string): Promise<void> {
  await page.mouse.move(600, 890);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, `${SHOT_DIR}/${name}`);
}

/** Types into a select of the document header and takes the option with Enter (as a scanner would). */
async function typeSelect(page: Page, label: string, text: string): Promise<void> {
  await item(doc(page), label).locator('.ant-select').click();
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}

describe.skipIf(!hasChromium)('cartons and loading list (e2e)', () => {
  const e2e = setupE2e({ login: ADMIN, walk: { shots: SHOT_DIR, pages: () => [['admin', admin], ['store', store]] } });
  let admin: Page;
  let store: Page;
  let taskNo = '';
  let orderId = 0;
  const cartons: string[] = [];

  beforeAll(() => {
    admin = e2e.page;
  });

  it('the demo plan is confirmed and picked (over the API): its plates wait in staging', async () => {
    const plans = await apiOk(admin, 'oms', '020701', { page: 1, pageSize: 20, status: 'draft' });
    const plan = plans.list.find((p: any) => String(p.remark).startsWith('演示：草稿'));
    orderId = plan.orderId;
    const confirmed = await apiOk(admin, 'oms', '020705', { id: plan.id });
    taskNo = confirmed.taskDocNo;
    const pk = await apiOk(admin, 'oms', '024003', { taskIds: [confirmed.taskId] });
    const g = await apiOk(admin, 'oms', '024002', { id: pk.id });
    // what has no place to be taken from (the cups are still at receiving) is a short pick of 0
    await apiOk(admin, 'oms', '024003', {
      id: pk.id, version: g.version, post: true,
      lines: g.lines.map((l: any) => ({ taskLineId: l.taskLineId, qty: l.qty, suggestedLocationId: l.suggestedLocationId, ...(l.suggestedLocationId ? {} : { pickedQty: 0 }) })),
    });
    const task = await apiOk(admin, 'oms', '021306', { id: confirmed.taskId });
    expect(task.lines.map((l: any) => [l.productCode, l.pickedQty])).toEqual([['DM-1001', 500], ['DM-2001', 0]]);
  });

  it('the warehouse keeper packs 300 plates into a first carton with the keyboard and seals it', async () => {
    const other = await e2e.newPage();
    store = other.page;
    await login(store, STORE);
    await openList(store, '/entrepot/cardboardList', '纸箱');
    await btn(store, '新建纸箱').click();
    await store.waitForURL(/\/entrepot\/cardboardDetail\/new$/);
    await waitForScreen(store, '纸箱详情');
    await typeSelect(store, '出库任务', taskNo);
    await expect.poll(() => lineRows(store).count()).toBe(1);
    expect((await lines(store)).map((l) => [l.商品编码, l.已拣, l.未装箱, l.装箱数量])).toEqual([['DM-1001', '500', '500', '500']]);
    const qty = lineRows(store).first().getByRole('textbox', { name: '装箱数量' });
    await qty.click();
    await store.keyboard.press('Control+a');
    await store.keyboard.type('300');
    await item(doc(store), '毛重(kg)').locator('input').click();
    await store.keyboard.type('18.5');
    await store.keyboard.press('Tab');
    await store.keyboard.type('0.045');
    await store.keyboard.press('Control+s');
    await expectToast(store, '保存成功');
    await openedAfterSave(store, /^\/entrepot\/cardboardDetail\/\d+$/);
    await expectState(store, '装箱中');
    expect(await headerValue(store, '箱序')).toBe('第 1 / 1 箱');
    expect(await headerValue(store, '毛重(kg)')).toBe('18.500');
    cartons.push(await docNo(store));
    await btn(doc(store), '封箱').click();
    await confirmPopup(store, `确定封箱“${cartons[0]}”？封箱后可装车，不能再修改箱内商品。`);
    await expectState(store, '已封箱');
    await shot(store, '01-carton-sealed');
  });

  it('packs the other 200 into a second carton; more than picked is refused', async () => {
    await store.goto('/entrepot/cardboardDetail/new');
    await waitForScreen(store, '纸箱详情');
    await typeSelect(store, '出库任务', taskNo);
    await expect.poll(async () => (await lines(store)).map((l) => l.装箱数量)).toEqual(['200']);
    const qty = lineRows(store).first().getByRole('textbox', { name: '装箱数量' });
    await qty.click();
    await store.keyboard.press('Control+a');
    await store.keyboard.type('201');
    await store.keyboard.press('Control+s');
    await expectToast(store, '装箱数量超出已拣未装箱数量：已拣 500，已发 0，已装箱 300，本次 201，最多还可装 200');
    await qty.click();
    await store.keyboard.press('Control+a');
    await store.keyboard.type('200');
    await item(doc(store), '毛重(kg)').locator('input').click();
    await store.keyboard.type('12.25');
    await store.keyboard.press('Tab');
    await store.keyboard.type('0.03');
    await store.keyboard.press('Control+s');
    await expectToast(store, '保存成功');
    await openedAfterSave(store, /^\/entrepot\/cardboardDetail\/\d+$/);
    cartons.push(await docNo(store));
    await btn(doc(store), '封箱').click();
    await confirmPopup(store);
    await expectState(store, '已封箱');
    await openList(store, '/entrepot/cardboardList', '纸箱');
    const r = await rowByTitle(store.locator('.renderer-list'), row(store.locator('.renderer-list'), cartons[1]!));
    expect([r.箱序, r.状态, r.出库任务, r.数量, r['毛重(kg)']]).toEqual(['第 2 / 2 箱', '已封箱', taskNo, '200', '12.25']);
    await shot(store, '02-carton-list');
  });

  it('loads both cartons onto a 20GP container with its seal number', async () => {
    await btn(store, '装车单').click();
    await store.waitForURL(/\/entrepot\/loadingList\/all$/);
    await waitForScreen(store, '装车单');
    await btn(store, '新建装车单').click();
    await store.waitForURL(/\/entrepot\/loadingListNew\/new$/);
    await waitForScreen(store, '新建装车单');
    await typeSelect(store, '仓库', '主仓库');
    await typeSelect(store, '装运方式', '集装箱');
    await typeSelect(store, '柜型', '20GP');
    await item(doc(store), '柜号').locator('input').click();
    await store.keyboard.type('MSCU7654321');
    await store.keyboard.press('Tab');
    await store.keyboard.type('SL0042');
    // the cartons scanned into the lookup cells: a line, the carton number, Enter
    for (const [i, no] of cartons.entries()) {
      await btn(doc(store), '添加行').click();
      await lineRows(store).nth(i).getByRole('combobox', { name: '纸箱' }).click();
      await store.keyboard.type(no);
      await store.keyboard.press('Enter');
      await expect.poll(async () => (await lines(store))[i]?.出库任务).toBe(taskNo);
    }
    await store.keyboard.press('Control+s');
    await expectToast(store, '保存成功');
    await openedAfterSave(store, /^\/entrepot\/loadingDetail\/\d+$/);
    await expectState(store, '装车中');
    expect([await headerValue(store, '箱数'), await headerValue(store, '总重(kg)'), await headerValue(store, '总体积(m³)'), await headerValue(store, '容积(m³)')]).toEqual(['2', '30.750', '0.075', '33.200']);
    await btn(doc(store), '装车完成').click();
    await confirmPopup(store);
    await expectState(store, '已装车');
    expect((await lines(store)).map((l) => l.纸箱状态)).toEqual(['已装车', '已装车']);
    await shot(store, '03-loading-loaded');
  });

  it('makes the delivery note from the loaded list and ships it: the order line shows every stage', async () => {
    await store.getByRole('link', { name: '生成送货单' }).click();
    await store.waitForURL(/\/entrepot\/deliverGoods\/add\?loadingListId=\d+&taskId=\d+$/);
    await waitForScreen(store, '新建送货单');
    await expect.poll(async () => (await lines(store)).map((l) => [l.商品编码, l.发货数量])).toEqual([['DM-1001', '500']]);
    await shot(store, '04-delivery-from-list');
    await store.keyboard.press('Control+s');
    await expectToast(store, '保存成功');
    await openedAfterSave(store, /^\/entrepot\/deliverGoodsDetail\/\d+$/);
    await btn(doc(store), '发货').click();
    await confirmPopup(store);
    await expectState(store, '已发货');
    const order = await apiOk(admin, 'oms', '020902', { id: orderId });
    const plates = order.lines.find((l: any) => l.productCode === 'DM-1001');
    expect([plates.pickedQty, plates.packedQty, plates.loadedQty, plates.shippedQty]).toEqual([500, 500, 500, 500]);
    await openList(store, '/entrepot/cardboardList', '纸箱');
    const r = await rowByTitle(store.locator('.renderer-list'), row(store.locator('.renderer-list'), cartons[0]!));
    expect(r.状态).toBe('已发货');
    await store.goto(`/entrepot/loadingList/all`);
    await waitForScreen(store, '装车单');
    await expect.poll(async () => (await rowByTitle(store.locator('.renderer-list'), store.locator('.renderer-list tr.ant-table-row').first())).状态).toBe('已发货');
    await shot(store, '05-loading-list');
  });

  it('opening stock: a new document typed line by line on 新增期初库存 (scan a product, a place, the packs), saved as a draft', async () => {
    const listOf = (r: any) => (Array.isArray(r) ? r : r.list);
    const wh = listOf(await apiOk(admin, 'cdm', '011006', {})).find((w: any) => w.label === '主仓库');
    const place = String(listOf(await apiOk(admin, 'cdm', '011108', { warehouseId: wh.value ?? wh.id })).find((p: any) => String(p.label).startsWith('C'))?.label);
    await admin.goto('/entrepot/inventoryInitRecordAdd');
    await waitForScreen(admin, '新增期初库存');
    await typeSelect(admin, '仓库', '主仓库');
    await btn(doc(admin), '添加行').click();
    const line = lineRows(admin).first();
    await pickProduct(admin, line, 'DM-1001', 'DM-1001 不锈钢六角螺栓 M8×30');
    await line.getByRole('combobox', { name: '库位' }).click();
    await admin.keyboard.type(place);
    await admin.keyboard.press('Enter');
    await line.getByRole('textbox', { name: '期初数量（最小单位）' }).click();
    await admin.keyboard.type('24');
    await admin.keyboard.press('Control+s');
    await expectToast(admin, '保存成功');
    await openedAfterSave(admin, /^\/entrepot\/inventoryInitRecordDetail\/\d+$/);
    await expectState(admin, '草稿');
    await shot(admin, '06-opening-stock-saved');
  });

  it('the client carrier collects the shipped note on 提货任务; the vertical lift calls a tray on 智能升降柜任务', async () => {
    // the pick-up task of the note shipped above, made in the modal and collected with the keyboard
    await openList(store, '/entrepot/liftingTasks', '提货任务');
    await btn(store, '新建提货任务').click();
    const form = store.locator('.ant-modal-content:visible');
    await form.waitFor();
    await item(form, '送货单').locator('.ant-select').click();
    const noteNo = (await apiOk(admin, 'oms', '024101', { page: 1, pageSize: 5, status: 'posted' })).list[0].docNo;
    await store.keyboard.type(noteNo);
    await store.keyboard.press('Enter');
    await item(form, '承运商').locator('input').click();
    await store.keyboard.type('客户自提');
    await store.keyboard.press('Enter');
    await expectToast(store, '已新建提货任务');
    const r = row(store.locator('.renderer-list'), noteNo);
    await r.waitFor();
    await btn(r, '提货').click();
    const collect = store.locator('.ant-modal-content:visible');
    await item(collect, '提货人').locator('input').click();
    await store.keyboard.type('赵师傅');
    await store.keyboard.press('Tab');
    await store.keyboard.type('13800000000');
    await store.keyboard.press('Tab');
    await store.keyboard.type('沪C12345');
    await store.keyboard.press('Enter');
    await expectToast(store, '已提货');
    await expect.poll(async () => (await rowByTitle(store.locator('.renderer-list'), row(store.locator('.renderer-list'), noteNo))).状态).toBe('已提货');
    const done = await rowByTitle(store.locator('.renderer-list'), row(store.locator('.renderer-list'), noteNo));
    expect([done.提货人, done.车牌号, done.承运商]).toEqual(['赵师傅', '沪C12345', '客户自提']);
    await shot(store, '07-lifting-collected');
    // the lift's queue: a tray called from the list
    const whs = await apiOk(admin, 'cdm', '011006', {});
    const main = (Array.isArray(whs) ? whs : whs.list).find((w: any) => w.label === '主仓库');
    const plate = (await apiOk(admin, 'oms', '022003', { keyword: 'DM-1001' })).list[0];
    await apiOk(admin, 'oms', '022023', { warehouseId: main.value ?? main.id, elevatorCode: 'VL-1', trayNo: 'T07', mode: 'pick', productId: plate.id, qty: 2 });
    await openList(store, '/entrepot/intelligentElevator', '智能升降柜任务');
    const tray = row(store.locator('.renderer-list'), 'T07');
    await btn(tray, '呼叫').click();
    await expect.poll(async () => (await rowByTitle(store.locator('.renderer-list'), row(store.locator('.renderer-list'), 'T07'))).状态).toBe('已呼叫');
    await btn(row(store.locator('.renderer-list'), 'T07'), '已到位').click();
    await expect.poll(async () => (await rowByTitle(store.locator('.renderer-list'), row(store.locator('.renderer-list'), 'T07'))).状态).toBe('已到位');
    await shot(store, '08-elevator-queue');
  });
});
