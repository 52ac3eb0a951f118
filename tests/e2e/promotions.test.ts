// Promotions in Chromium from the demo company (issue 16): the admin types a buy-N-get-M promotion on
// 促销活动 (买赠: every 100 bolts 10 more free, from today for a month), adds the bolts to it on 活动商品
// by scanning their code, reads it on 促销活动详情; then a sales order for 100 bolts typed as a clerk
// does picks it up: saved, the order carries the 10 free bolts as a line at price 0 naming the
// promotion, and confirming reserves them with the rest. Screenshots: test-output/e2e/promotions/NN-*.png.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { btn, choose, confirmPopup, item, openList, pickDate, row, rowByTitle } from './support/antd';
import { ADMIN, expectToast, hasChromium, screenshot, waitForScreen } from './support/browser';
import { setupE2e } from './support/setup';
import { doc, docNo, expectState, lineRows, lines, openedAfterSave, pickProduct } from './support/document';

const SHOT_DIR = 'promotions';
const BOLT = 'DM-1001 不锈钢六角螺栓 M8×30';
// the company's day (UTC+8), the promotion's first, and a month on
const day = (offsetDays: number) => new Date(Date.now() + 8 * 3_600_000 + offsetDays * 86_400_000).toISOString().slice(0, 10);

async function shot(page: Page, name: string): Promise<void> {
  await page.mouse.move(600, 890);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, `${SHOT_DIR}/${name}`);
}

describe.skipIf(!hasChromium)('a promotion picked up by a sales order (e2e)', () => {
  const e2e = setupE2e({ login: ADMIN, walk: { shots: SHOT_DIR } });
  let page: Page;
  const modal = () => page.locator('.ant-modal-content:visible');
  beforeAll(() => {
    page = e2e.page;
  });

  it('types a buy-100-get-10 promotion on 促销活动', async () => {
    await openList(page, '/commodity/activity', '促销活动');
    await btn(page, '新增促销').click();
    await item(modal(), '活动编号').locator('input').pressSequentially('CX2026');
    await item(modal(), '活动名称').locator('input').pressSequentially('螺栓买百送十');
    await choose(page, item(modal(), '促销方式'), '买赠');
    await item(modal(), '每买(最小单位)').locator('input').pressSequentially('100');
    await item(modal(), '送(最小单位)').locator('input').pressSequentially('10');
    await pickDate(item(modal(), '开始日期'), day(0));
    await pickDate(item(modal(), '结束日期'), day(30));
    await btn(modal(), '保存').click();
    await expectToast(page, '保存成功');
    const r = row(page, 'CX2026');
    await r.waitFor();
    const shown = await rowByTitle(page.locator('.renderer-list'), r);
    expect([shown.活动名称, shown.促销方式, shown.买, shown.送, shown.适用商品, shown.状态]).toEqual(['螺栓买百送十', '买赠', '100', '10', '指定商品', '启用']);
    await shot(page, '01-activity');
  });

  it('adds the bolts to it on 活动商品 by their code, and reads it on the detail page', async () => {
    await row(page, 'CX2026').getByText('活动商品', { exact: true }).click();
    await expect.poll(() => page.url()).toContain('/commodity/productAcList?promotionId=');
    await waitForScreen(page, '活动商品');
    await btn(page, '添加活动商品').click();
    await choose(page, item(modal(), '促销活动'), '螺栓买百送十');
    await item(modal(), '商品').locator('.ant-select').click();
    await page.keyboard.type('DM-1001');
    await page.keyboard.press('Enter');
    await btn(modal(), '保存').click();
    await expectToast(page, '保存成功');
    const r = row(page, '不锈钢六角螺栓');
    await r.waitFor();
    expect((await rowByTitle(page.locator('.renderer-list'), r)).促销活动).toBe('螺栓买百送十');
    await shot(page, '02-products');

    await openList(page, '/commodity/activity', '促销活动');
    await row(page, 'CX2026').getByText('详情', { exact: true }).click();
    await waitForScreen(page, '促销活动详情');
    await expect.poll(() => page.locator('.ant-descriptions').first().innerText()).toContain('螺栓买百送十');
    await row(page, '不锈钢六角螺栓').waitFor();
    await shot(page, '03-detail');
  });

  it('an order for 100 bolts carries the 10 free as a line at price 0 naming the promotion; confirming reserves them too', async () => {
    await page.goto('/market/order');
    await waitForScreen(page, '新建销售订单');
    await choose(page, item(doc(page), '客户'), '杭州百货贸易公司');
    await choose(page, item(doc(page), '发货仓库'), '主仓库');
    await btn(doc(page), '添加行').click();
    await expect.poll(() => lineRows(page).count()).toBe(1);
    const line = lineRows(page).nth(0);
    await pickProduct(page, line, 'DM-1001', BOLT);
    // 2 盒 of 50 = 100 at the list price 0.60
    await line.getByRole('textbox', { name: '数量（中包装）' }).fill('2');
    await btn(doc(page), '保存').click();
    await expectToast(page, '保存成功');
    await openedAfterSave(page, /^\/market\/orderDetail\/\d+$/);
    await waitForScreen(page, '销售订单详情');
    await expectState(page, '草稿');
    await expect.poll(() => lineRows(page).count()).toBe(2);
    const saved = await lines(page);
    // a draft's quantities in the big / mid / small boxes: 2 盒, and the gift's 10 个
    expect(saved.map((l) => [l.商品, l.数量, l.单价, l.金额])).toEqual([[BOLT, ' / 2 / ', '0.6000', '60.00'], [BOLT, ' /  / 10', '0.0000', '0.00']]);
    expect(saved[0]!.促销).toContain('螺栓买百送十');
    expect(saved[1]!.促销).toMatch(/^赠品：螺栓买百送十/);
    await shot(page, '04-order-with-gift');

    const no = await docNo(page);
    await btn(doc(page), '确认').click();
    await confirmPopup(page, `确定确认销售订单“${no}”？确认后预留库存，不能再修改。`);
    await expectState(page, '已确认');
    expect((await lines(page)).map((l) => [l.数量, l.已预留])).toEqual([['100', '100'], ['10', '10']]);
    await shot(page, '05-order-confirmed');
  });
});
