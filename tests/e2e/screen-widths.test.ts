// What a clerk sees on a smaller screen: at 1024×768 the side menu folds to its icons and 商品库存 shows
// 现有 / 可用 / 在途 without scrolling sideways; at 1440 wide the purchase order's line table shows
// 已收 / 未收. Screenshots: test-output/e2e/screen-widths/*.png.
import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openList, row } from './support/antd';
import { ADMIN, hasChromium, login, screenshot, waitForScreen } from './support/browser';
import { setupE2e } from './support/setup';

/**
 * The header cell titled `title` lies wholly inside the visible part of its table, left of any column
 * fixed on the right (which would cover it): no sideways scrolling needed to read it.
 */
async function inView(table: Locator, title: string): Promise<boolean> {
  const th = table.locator('.ant-table-thead th', { hasText: new RegExp(`^\\s*${title}\\s*$`) }).first();
  const [cell, body] = await Promise.all([th.boundingBox(), table.locator('.ant-table-content, .ant-table-body, .ant-table-header').first().boundingBox()]);
  if (!cell || !body) return false;
  const fixedRight = await table.locator('.ant-table-thead th.ant-table-cell-fix-right').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().left));
  const right = Math.min(body.x + body.width, ...fixedRight);
  return cell.x >= body.x - 1 && cell.x + cell.width <= right + 1;
}

async function pageAt(browser: Browser, baseUrl: string, width: number, height: number): Promise<Page> {
  const context = await browser.newContext({ baseURL: baseUrl, locale: 'zh-CN', viewport: { width, height }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  await login(page, ADMIN);
  return page;
}

describe.skipIf(!hasChromium)('screen widths (e2e)', () => {
  const e2e = setupE2e();

  it('1024×768: the menu folds; 商品库存 shows 现有, 可用 and 在途 without scrolling sideways', async () => {
    const page = await pageAt(e2e.browser, e2e.server.baseUrl, 1024, 768);
    await openList(page, '/commodity/inventory', '商品库存');
    const sider = await page.locator('.ant-layout-sider').first().boundingBox();
    expect(sider!.width).toBeLessThanOrEqual(80);
    const table = page.locator('.renderer-list .ant-table').first();
    await row(table, 'DM-1001').first().waitFor();
    for (const title of ['商品编码', '商品名称', '现有', '可用', '在途']) expect(await inView(table, title), title).toBe(true);
    await screenshot(page, 'screen-widths/inventory-1024');
    await page.context().close();
  });

  it('1440 wide: the purchase order line table shows 已收 and 未收', async () => {
    const page = await pageAt(e2e.browser, e2e.server.baseUrl, 1440, 900);
    await openList(page, '/procurement/list', '采购订单');
    await row(page.locator('.renderer-list'), /部分收货/).first().locator('a').first().click();
    await waitForScreen(page, '采购订单详情');
    const table = page.locator('.renderer-line-table .ant-table').first();
    await table.locator('tr.ant-table-row').first().waitFor();
    for (const title of ['商品', '数量', '已收', '未收']) expect(await inView(table, title), title).toBe(true);
    await screenshot(page, 'screen-widths/purchase-order-1440');
    await page.context().close();
  });
});
