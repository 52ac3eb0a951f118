// 客户分布, 销售分布 and 单据对比's version mode in Chromium (issue 17), from the demo company: the
// administrator sees the demo clients by province (上海市 among them) on the map of China, switches to 按城市 (bars);
// 销售分布 shows the demo's confirmed order's region; on 单据对比 they choose 销售订单, type only the demo
// order's number and see its two versions (草稿 → 已确认) from the audit trail.
// Screenshots: test-output/e2e/system-maps/NN-*.png.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiOk, btn, row, rowByTitle } from './support/antd';
import { ADMIN, hasChromium, screenshot, waitForScreen } from './support/browser';
import { setupE2e } from './support/setup';

const SHOT_DIR = 'system-maps';

async function shot(page: Page, name: string): Promise<void> {
  await page.mouse.move(600, 890);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, `${SHOT_DIR}/${name}`);
}

function grouping(page: Page, label: string) {
  return page.locator('.renderer-report-groupings').getByText(label, { exact: true });
}

describe.skipIf(!hasChromium)('system tools: 客户分布, 销售分布, 单据对比 versions (e2e)', () => {
  const e2e = setupE2e({ login: ADMIN, walk: { shots: SHOT_DIR } });
  let page: Page;

  beforeAll(() => {
    page = e2e.page;
  });

  it('客户分布 shows the demo clients by province with a chart, then by city', async () => {
    await page.goto('/system/clientMap');
    await waitForScreen(page, '客户分布');
    const table = page.locator('.renderer-list').first();
    const api = await apiOk(page, 'cdm', '019815', { page: 1, pageSize: 50, groupBy: 'province' });
    const sh = api.list.find((r: { region: string }) => r.region === '上海市');
    expect(sh.clientCount).toBeGreaterThan(0);
    await row(table, '上海市').first().waitFor();
    await expect.poll(async () => (await rowByTitle(table, row(table, '上海市').first())).客户数).toBe(String(sh.clientCount));
    // by province the chart is the map of China (its province outlines drawn), by city bars
    await page.locator('.renderer-report-chart .renderer-china-map svg path').first().waitFor({ state: 'attached' });
    expect(await page.locator('.renderer-china-map svg path').count()).toBeGreaterThanOrEqual(34);
    await shot(page, '01-client-map');
    await grouping(page, '按城市').click();
    await expect.poll(() => page.locator('.ant-table-thead th', { hasText: '城市' }).count()).toBe(1);
    await expect.poll(() => page.locator('.renderer-china-map').count()).toBe(0);
    await page.locator('.renderer-report-chart .renderer-chart svg').first().waitFor();
    const city = await rowByTitle(table, row(table, '上海市').first());
    expect([city.省份, city.城市]).toEqual(['上海市', '上海市']);
  });

  it('销售分布 places the demo confirmed order', async () => {
    await page.goto('/system/saleMap');
    await waitForScreen(page, '销售分布');
    const api = await apiOk(page, 'cdm', '019816', { page: 1, pageSize: 50, groupBy: 'province' });
    expect(api.totals.orderCount).toBeGreaterThan(0);
    const first = api.list[0];
    const table = page.locator('.renderer-list').first();
    await row(table, first.region).first().waitFor();
    await expect.poll(async () => (await rowByTitle(table, row(table, first.region).first())).订单数).toBe(String(first.orderCount));
    await page.locator('.renderer-report-chart .renderer-china-map svg path').first().waitFor({ state: 'attached' });
    await shot(page, '02-sale-map');
  });

  it('单据对比 with only 单号一 compares two versions of the order from its audit trail', async () => {
    const orders = await apiOk(page, 'oms', '020901', { page: 1, pageSize: 20 });
    const order = orders.list.find((o: { status: string }) => o.status === 'confirmed');
    expect(order).toBeTruthy();
    await page.goto('/system/diff');
    await waitForScreen(page, '单据对比');
    const bar = page.locator('.renderer-filter-bar');
    // the types are many: typed to narrow, as a clerk does
    await bar.locator('.ant-form-item', { hasText: '单据类型' }).locator('.ant-select').click();
    await page.keyboard.type('销售订单');
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: /^销售订单$/ }).click();
    await bar.locator('.ant-form-item', { hasText: '单号一' }).locator('input').click();
    await page.keyboard.type(order.docNo);
    await btn(bar, '查询').click();
    const table = page.locator('.renderer-list').first();
    const version = row(table, '版本').first();
    await version.waitFor();
    expect((await rowByTitle(table, version)).单号二).toMatch(/^第 \d+ 版 · .* 确认$/);
    const status = await rowByTitle(table, row(table, '状态').first());
    expect([status.单号一, status.单号二, status.比较]).toEqual(['草稿', '已确认', '不同']);
    await shot(page, '03-diff-versions');
  });
});
