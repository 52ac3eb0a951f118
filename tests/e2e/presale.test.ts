// Presale screens in Chromium from the demo company (issues 13/16): the admin types a presale plan on
// 预售计划, opens its products from the row, adds one with the keyboard (price, quantity, sort), and sees
// 已预售 / 剩余 / 在途 on 预售商品; 预售排序 takes a new order by typing into the cell and Enter.
// Screenshots: test-output/e2e/presale/NN-*.png.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { btn, choose, item, openList, row, rowByTitle } from './support/antd';
import { ADMIN, expectToast, hasChromium, screenshot } from './support/browser';
import { setupE2e } from './support/setup';

const SHOT_DIR = 'presale';

describe.skipIf(!hasChromium)('presale plans and their products (e2e)', () => {
  const e2e = setupE2e({ login: ADMIN, walk: { shots: SHOT_DIR } });
  let page: Page;
  beforeAll(() => {
    page = e2e.page;
  });
  const modal = () => page.locator('.ant-modal-content:visible');

  it('types a presale plan and opens its products from the row', async () => {
    await openList(page, '/commodity/presell', '预售计划');
    await btn(page, '新增').click();
    await item(modal(), '计划编号').locator('input').pressSequentially('YS2026');
    await item(modal(), '计划名称').locator('input').pressSequentially('春节预售');
    await choose(page, item(modal(), '状态'), '进行中');
    await btn(modal(), '保存').click();
    await expectToast(page, '保存成功');
    await row(page, 'YS2026').waitFor();
    await screenshot(page, `${SHOT_DIR}/01-plans`);
    await row(page, 'YS2026').getByText('预售商品', { exact: true }).click();
    await expect.poll(() => page.url()).toContain('/commodity/presellMore?planId=');
  });

  it('adds a product with its presale price and quantity; the list shows presold, left and in transit', async () => {
    await btn(page, '添加预售商品').click();
    await choose(page, item(modal(), '预售计划'), '春节预售');
    await choose(page, item(modal(), '商品'), '真空保温杯 400ml');
    await item(modal(), '预售价').locator('input').pressSequentially('23.5');
    await item(modal(), '预售数量').locator('input').pressSequentially('100');
    await item(modal(), '排序').locator('input').pressSequentially('2');
    await btn(modal(), '保存').click();
    await expectToast(page, '保存成功');
    const cup = row(page, 'DM-2001');
    await cup.waitFor();
    const shown = await rowByTitle(page.locator('.renderer-list'), cup);
    expect([shown.预售计划, shown.预售价, shown.预售数量, shown.已预售, shown.剩余, shown.排序]).toEqual(['春节预售', '23.50', '100', '0', '100', '2']);
    await screenshot(page, `${SHOT_DIR}/02-products`);
  });

  it('预售排序: a new order typed into the cell and Enter is saved', async () => {
    await openList(page, '/commodity/presellSortList', '预售排序');
    const cup = row(page, 'DM-2001');
    await cup.waitFor();
    await cup.locator('td').first().click();
    const input = cup.locator('input');
    await input.press('Control+a');
    await input.pressSequentially('7');
    await input.press('Enter');
    await expect.poll(async () => (await rowByTitle(page.locator('.renderer-list'), cup)).排序).toBe('7');
    await screenshot(page, `${SHOT_DIR}/03-sorted`);
    await page.reload();
    await cup.waitFor();
    expect((await rowByTitle(page.locator('.renderer-list'), cup)).排序).toBe('7');
  });
});
