// The outbound floor in Chromium from the demo company a new user gets (issue 14): the sales clerk (sales /
// demo123) confirms the demo's draft outbound plan, which gives the warehouse its outbound task; the
// warehouse keeper (store / demo123, role 仓管员) finds it on 出库任务, starts a picking order from it
// (lines in walking order with suggested locations), records the picks with the keyboard — the cups,
// still at the receiving place (their putaway is a draft), recorded as a short pick of 0 — and finishes picking; then makes the delivery note (送货单) of what was picked and ships it:
// the sales order is partly shipped and 商品库存 shows what left. Screenshots:
// test-output/e2e/outbound-flow/NN-*.png.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiOk, btn, choose, confirmPopup, item, openList, row, rowByTitle } from './support/antd';
import { expectToast, hasChromium, login, screenshot, waitForScreen, type Account } from './support/browser';
import { setupE2e } from './support/setup';
import { doc, docNo, expectState, headerValue, lines, lineRows, openedAfterSave } from './support/document';

const SHOT_DIR = 'outbound-flow';
const SALES: Account = { companyCode: 'demo', userName: 'sales', password: 'demo123' };
const STORE: Account = { companyCode: 'demo', userName: 'store', password: 'demo123' };

async function shot(page: Page, name: string): Promise<void> {
  await page.mouse.move(600, 890);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, `${SHOT_DIR}/${name}`);
}

describe.skipIf(!hasChromium)('outbound floor: task → picking → delivery note (e2e)', () => {
  const e2e = setupE2e({ login: SALES, walk: { shots: SHOT_DIR, pages: () => [['sales', page], ['store', store]] } });
  let page: Page;
  let store: Page;
  let planNo = '';
  let orderId = 0;

  beforeAll(() => {
    page = e2e.page;
  });


  it('the sales clerk confirms the demo\'s draft outbound plan: the warehouse gets its outbound task', async () => {
    const plans = await apiOk(page, 'oms', '020701', { page: 1, pageSize: 20, status: 'draft' });
    const plan = plans.list.find((p: any) => String(p.remark).startsWith('演示：草稿'));
    expect(plan).toBeTruthy();
    orderId = plan.orderId;
    await page.goto(`/market/deliveryPlanOrderDetail/${plan.id}`);
    await waitForScreen(page, '发货计划详情');
    await expectState(page, '草稿');
    planNo = await docNo(page);
    await btn(doc(page), '确认').click();
    await confirmPopup(page, `确定确认发货计划“${planNo}”？确认后仓库按计划出库。`);
    await expectState(page, '待出库');
    await shot(page, '01-plan-confirmed');
  });

  it('the warehouse keeper finds the task on 出库任务 and starts picking from it', async () => {
    const other = await e2e.newPage();
    store = other.page;
    await login(store, STORE);
    await openList(store, '/entrepot/outboundTask', '出库任务');
    const r = row(store.locator('.renderer-list'), planNo);
    await r.waitFor();
    const task = await rowByTitle(store.locator('.renderer-list'), r);
    expect([task.状态, task.客户, task.计划数量, task.待拣]).toEqual(['待拣货', '上海优品百货有限公司', '512', '512']);
    await shot(store, '02-outbound-tasks');
    await btn(r, '拣货').click();
    await store.waitForURL(/\/entrepot\/pickingOrderDetailNew\/new\?taskIds=\d+$/);
    await waitForScreen(store, '拣货作业');
    await expect.poll(() => lineRows(store).count()).toBeGreaterThan(1);
    const got = await lines(store);
    // the lines walk the warehouse: each has a suggested place, and places never come back
    const places = got.map((l) => l.库位);
    expect(places.every((p) => p !== '')).toBe(true);
    expect(got.map((l) => l.商品编码).sort()).toEqual(expect.arrayContaining(['DM-1001', 'DM-2001']));
    expect(got.reduce((s, l) => s + Number(l.应拣.replace(/,/g, '')), 0)).toBe(512);
    await shot(store, '03-picking-new');
  });

  it('records the picks with the keyboard — the cups not found on the shelves (short) — saves and finishes picking', async () => {
    const rows = await lines(store);
    const cupAt = rows.findIndex((l) => l.商品编码 === 'DM-2001');
    // the cups were received but not put away yet (the demo's putaway is a draft): no place to take them from
    expect(rows[cupAt]!.建议库位).toBe('-');
    // the caret into the first 实拣数量 cell, then typed line by line (Enter moves on to the next cell)
    for (let i = 0; i < rows.length; i++) {
      const cell = lineRows(store).nth(i).getByRole('textbox', { name: '实拣数量' });
      await cell.click();
      await store.keyboard.type(String(i === cupAt ? 0 : Number(rows[i]!.应拣.replace(/,/g, ''))));
      await store.keyboard.press('Tab');
    }
    await store.keyboard.press('Control+s');
    await expectToast(store, '保存成功');
    await openedAfterSave(store, /^\/entrepot\/pickingOrderDetailNew\/\d+$/);
    await expectState(store, '待拣货');
    const pickNo = await docNo(store);
    expect(pickNo).toMatch(/^PK\d{12}$/);
    await shot(store, '04-picking-recorded');
    await btn(doc(store), '拣货完成').click();
    await confirmPopup(store);
    await expectState(store, '已拣货');
    const done = await lines(store);
    expect(done.map((l) => [l.商品编码, l.实拣数量, l.短拣])).toEqual([['DM-1001', '500', '0'], ['DM-2001', '0', '12']]);
    await shot(store, '05-picking-posted');
  });

  it('makes the delivery note of what was picked and ships it: the order is partly shipped', async () => {
    await openList(store, '/entrepot/outboundTask', '出库任务');
    const r = row(store.locator('.renderer-list'), planNo);
    await r.waitFor();
    expect((await rowByTitle(store.locator('.renderer-list'), r)).状态).toBe('拣货中');
    await btn(r, '发货').click();
    await store.waitForURL(/\/entrepot\/deliverGoods\/add\?taskId=\d+$/);
    await waitForScreen(store, '新建送货单');
    await expect.poll(() => lineRows(store).count()).toBe(1);
    expect((await lines(store)).map((l) => [l.商品编码, l.发货数量])).toEqual([['DM-1001', '500']]);
    await shot(store, '06-delivery-new');
    await btn(doc(store), '保存').click();
    await expectToast(store, '保存成功');
    await openedAfterSave(store, /^\/entrepot\/deliverGoodsDetail\/\d+$/);
    await expectState(store, '草稿');
    const noteNo = await docNo(store);
    await btn(doc(store), '发货').click();
    await confirmPopup(store, `确定发货“${noteNo}”？货物从发货暂存区出库，销售订单的预留同时扣减。`);
    await expectState(store, '已发货');
    expect((await lines(store)).map((l) => [l.商品编码, l.发货数量, l.订单欠货])).toEqual([['DM-1001', '500', '0']]);
    await shot(store, '07-delivery-posted');
    const order = await apiOk(page, 'oms', '020902', { id: orderId });
    expect([order.status, order.shippedQty, order.reservedQty]).toEqual(['partlyShipped', 500, 12]);
    expect(order.lines.map((l: any) => [l.productCode, l.shippedQty, l.openQty])).toEqual([['DM-1001', 500, 0], ['DM-2001', 0, 12]]);
  });
  it('the task shows its progress line by line and is assigned to a worker; the lists show the picking order and the note', async () => {
    await btn(doc(store), '出库任务').click();
    await store.waitForURL(/\/entrepot\/outboundTaskDetail\/\d+$/);
    await waitForScreen(store, '出库任务详情');
    await expectState(store, '拣货中');
    expect((await lines(store)).map((l) => [l.商品编码, l.计划数量, l.已拣, l.短拣, l.待拣, l.已发, l.订单欠货])).toEqual([
      ['DM-1001', '500', '500', '0', '0', '500', '0'],
      ['DM-2001', '12', '0', '12', '12', '0', '12'],
    ]);
    await btn(doc(store), '分派').click();
    const modal = store.locator('.ant-modal').filter({ hasText: '分派出库任务' });
    await modal.waitFor();
    await choose(store, item(modal, '作业人员'), '仓管员小张');
    await btn(modal, '分派').click();
    await expectToast(store, '已分派出库任务');
    await expect.poll(async () => headerValue(store, '作业人员')).toBe('仓管员小张');
    await shot(store, '08-task-detail');
    await openList(store, '/entrepot/pickingList', '拣货单');
    const pk = await rowByTitle(store.locator('.renderer-list'), store.locator('.renderer-list tr.ant-table-row').first());
    expect([pk.状态, pk.应拣, pk.实拣, pk.短拣]).toEqual(['已拣货', '512', '500', '12']);
    await shot(store, '09-picking-list');
    await openList(store, '/entrepot/deliverGoodsList', '送货单');
    const dn = await rowByTitle(store.locator('.renderer-list'), store.locator('.renderer-list tr.ant-table-row').first());
    expect([dn.状态, dn.客户, dn.发货数量]).toEqual(['已发货', '上海优品百货有限公司', '500']);
    await shot(store, '10-delivery-list');
  });
});
