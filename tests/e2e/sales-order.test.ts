// Sales in Chromium from the demo company a new user gets (issue 13): the demo sales clerk (sales /
// demo123, role 销售员) enters a client order of three lines in big/mid/small packs with a discount,
// priced from the client's list, saves and confirms it, and makes its outbound plan (发货计划);
// 商品库存 shows the stock reserved and what is still available; a second clerk's confirmation for more than the last units gets the clear refusal
// and the order stays a draft; the clerk changes a line of the confirmed order (变更) and cancels the plan through 销售撤销单. Screenshots: test-output/e2e/sales-order/NN-*.png.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { btn, cells, choose, confirmPopup, item, openList, row, rowByTitle } from './support/antd';
import { ADMIN, expectToast, hasChromium, login, screenshot, waitForScreen, type Account } from './support/browser';
import { setupE2e } from './support/setup';
import { doc, docNo, expectState, lines, lineRows, lineTotals, openedAfterSave, pickProduct } from './support/document';

const SHOT_DIR = 'sales-order';
const SALES: Account = { companyCode: 'demo', userName: 'sales', password: 'demo123' };
// the demo walk's products and stock (seed-demo-walk.ts, seed-demo-sales.ts): 主仓库 holds 1000 bolts
// (500 committed to a confirmed demo order), 1500 nuts and 24 cups (12 committed)
const BOLT = 'DM-1001 不锈钢六角螺栓 M8×30';
const NUT = 'DM-1002 不锈钢六角螺母 M8';
const CUP = 'DM-2001 真空保温杯 400ml';

async function shot(page: Page, name: string): Promise<void> {
  await page.mouse.move(600, 890);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, `${SHOT_DIR}/${name}`);
}

describe.skipIf(!hasChromium)('sales order with reservation (e2e)', () => {
  const e2e = setupE2e({ login: SALES, walk: { shots: SHOT_DIR } });
  let page: Page;
  let orderNo = '';
  let orderUrl = '';
  let planNo = '';

  beforeAll(() => {
    page = e2e.page;
  });


  it('the sales clerk enters a three-line order in big/mid/small packs at the client\'s list prices, saves and confirms it', async () => {
    await page.goto('/market/order');
    await waitForScreen(page, '新建销售订单');
    await choose(page, item(doc(page), '客户'), '杭州百货贸易公司');
    await choose(page, item(doc(page), '发货仓库'), '主仓库');
    for (let i = 0; i < 3; i++) await btn(doc(page), '添加行').click();
    await expect.poll(() => lineRows(page).count()).toBe(3);
    const [la, lb, lc] = [lineRows(page).nth(0), lineRows(page).nth(1), lineRows(page).nth(2)];

    // bolts: 2 盒 10 个 = 110 at the list price 0.60
    await pickProduct(page, la, 'DM-1001', BOLT);
    expect(await la.getByRole('textbox', { name: '单价' }).inputValue()).toBe('0.60');
    await la.getByRole('textbox', { name: '数量（中包装）' }).fill('2');
    await la.getByRole('textbox', { name: '数量（最小单位）' }).fill('10');
    // nuts: 3 盒 = 300 at 0.25 less 10 %
    await pickProduct(page, lb, 'DM-1002', NUT);
    await lb.getByRole('textbox', { name: '数量（中包装）' }).fill('3');
    await lb.getByRole('textbox', { name: '折扣(%)' }).fill('10');
    // cups: 1 盒 4 个 = 10 at 25.00; only 12 are still available
    await pickProduct(page, lc, 'DM-2001', CUP);
    await lc.getByRole('textbox', { name: '数量（中包装）' }).fill('1');
    await lc.getByRole('textbox', { name: '数量（最小单位）' }).fill('4');

    const typed = await lines(page);
    expect(typed.map((l) => [l.可用库存, l.金额])).toEqual([['500', '66.00'], ['1,500', '67.50'], ['12', '250.00']]);
    expect(await cells(lineTotals(page))).toEqual(expect.arrayContaining(['合计', '420', '383.50']));
    await shot(page, '01-order-new');

    await btn(doc(page), '保存').click();
    await expectToast(page, '保存成功');
    await openedAfterSave(page, /^\/market\/orderDetail\/\d+$/);
    await waitForScreen(page, '销售订单详情');
    await expectState(page, '草稿');
    orderNo = await docNo(page);
    orderUrl = new URL(page.url()).pathname;
    expect(orderNo).toMatch(/^SO\d{12}$/);

    await btn(doc(page), '确认').click();
    await confirmPopup(page, `确定确认销售订单“${orderNo}”？确认后预留库存，不能再修改。`);
    await expectToast(page, '成功');
    await expectState(page, '已确认');
    expect(await btn(doc(page), '保存').count()).toBe(0);
    // nothing on the way failed (the related-documents panel asks by number)
    expect((await page.locator('.ant-message-notice-error').allInnerTexts())).toEqual([]);
    expect((await lines(page)).map((l) => [l.商品, l.数量, l.已预留, l.单价, l.金额])).toEqual([
      [BOLT, '110', '110', '0.6000', '66.00'],
      [NUT, '300', '300', '0.2500', '67.50'],
      [CUP, '10', '10', '25.0000', '250.00'],
    ]);
    await shot(page, '02-order-confirmed');
  });

  it('the clerk makes the outbound plan (发货计划) of the whole order from it and confirms it', async () => {
    await btn(doc(page), '发货计划').click();
    await page.waitForURL(/\/market\/deliveryPlanOrder\?orderId=\d+$/);
    await waitForScreen(page, '新建发货计划');
    await expect.poll(() => lineRows(page).count()).toBe(3);
    expect((await lines(page)).map((l) => [l.商品编码, l.订购, l.可计划])).toEqual([['DM-1001', '110', '110'], ['DM-1002', '300', '300'], ['DM-2001', '10', '10']]);
    await choose(page, item(doc(page), '运输方式'), '汽车');
    await item(doc(page), '承运商').locator('input').fill('顺丰物流');
    await shot(page, '03-delivery-plan-new');
    await btn(doc(page), '保存').click();
    await expectToast(page, '保存成功');
    await openedAfterSave(page, /^\/market\/deliveryPlanOrderDetail\/\d+$/);
    await expectState(page, '草稿');
    planNo = await docNo(page);
    expect(planNo).toMatch(/^DP\d{12}$/);
    await btn(doc(page), '确认').click();
    await confirmPopup(page, `确定确认发货计划“${planNo}”？确认后仓库按计划出库。`);
    await expectState(page, '待出库');
    expect((await lines(page)).map((l) => l.计划数量)).toEqual(['110', '300', '10']);
    await shot(page, '04-delivery-plan-confirmed');
  });

  it('商品库存 shows the stock reserved by the orders and what is left available', async () => {
    await openList(page, '/commodity/inventory', '商品库存');
    await page.locator('.renderer-list input[placeholder^="商品编码"]').fill('DM-2001');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.renderer-list tr.ant-table-row').count()).toBe(1);
    const cup = await rowByTitle(page.locator('.renderer-list'), row(page, 'DM-2001'));
    expect([cup.现有, cup.预留, cup.可用]).toEqual(['24', '22', '2']);
    await shot(page, '05-inventory-reserved');
  });

  it('a second clerk confirming more than the last units gets the clear refusal; the order stays a draft', async () => {
    const other = await e2e.newPage();
    try {
      await login(other.page, ADMIN);
      const p2 = other.page;
      await p2.goto('/market/order');
      await waitForScreen(p2, '新建销售订单');
      await choose(p2, item(doc(p2), '客户'), '上海优品百货有限公司');
      await choose(p2, item(doc(p2), '发货仓库'), '主仓库');
      await btn(doc(p2), '添加行').click();
      const line = lineRows(p2).first();
      await pickProduct(p2, line, 'DM-2001', CUP);
      await line.getByRole('textbox', { name: '数量（最小单位）' }).fill('5');
      await btn(doc(p2), '保存').click();
      await expectToast(p2, '保存成功');
      await openedAfterSave(p2, /^\/market\/orderDetail\/\d+$/);
      const second = await docNo(p2);
      await btn(doc(p2), '确认').click();
      await confirmPopup(p2, `确定确认销售订单“${second}”？确认后预留库存，不能再修改。`);
      await expectToast(p2, '商品 DM-2001 在 主仓库 的可预留库存不足：现有 24，已预留 22，需要预留 5');
      await expectState(p2, '草稿');
      await shot(p2, '06-second-clerk-refused');
    } finally {
      await other.context.close();
    }
  });

  it('the clerk changes a line of the confirmed order (变更) with a reason: the reservation follows the new quantity', async () => {
    await page.goto(orderUrl);
    await waitForScreen(page, '销售订单详情');
    await expectState(page, '已确认');
    await btn(doc(page), '变更').click();
    const modal = page.locator('.ant-modal').filter({ hasText: '销售订单变更' });
    await item(modal, '行号').locator('input').pressSequentially('1');
    await item(modal, '新数量').locator('input').pressSequentially('120');
    await item(modal, '变更原因').locator('textarea').pressSequentially('客户追加 10 个');
    await shot(page, '07-order-change');
    await btn(modal, '变更').click();
    // bolts 110 → 120 at 0.60: the line 72.00, the order 383.50 + 6.00
    await expectToast(page, '已变更第 1 行：数量 120，金额 72.00；订单金额合计 389.50');
    await expect.poll(async () => (await lines(page)).map((l) => [l.数量, l.已预留, l.金额])[0]).toEqual(['120', '120', '72.00']);
    await shot(page, '08-order-changed');
  });

  it('the clerk cancels the outbound plan through 销售撤销单, seeing first what it undoes', async () => {
    await openList(page, '/market/repeal', '销售撤销单');
    await btn(page, '撤销单据').click();
    const modal = page.locator('.ant-modal').filter({ hasText: '撤销销售单据' });
    await item(modal, '单号').locator('input').pressSequentially(planNo);
    // the preview (a sandboxed frame) tells what the repeal will undo
    await expect.poll(() => modal.frameLocator('iframe').locator('body').innerText().catch(() => ''))
      .toContain(`发货计划 ${planNo} 已确认（待出库）：作废计划，退还销售订单 ${orderNo} 的计划数量 420 个（3 行）`);
    await item(modal, '撤销原因').locator('textarea').pressSequentially('客户改期');
    await shot(page, '09-repeal-preview');
    await btn(modal, '撤销').click();
    await expectToast(page, `已撤销 ${planNo}，撤销单号 XC`);
    await expect.poll(() => page.locator('.renderer-list tr.ant-table-row').first().innerText()).toContain(planNo);
    await shot(page, '10-repeal-done');
  });
});
