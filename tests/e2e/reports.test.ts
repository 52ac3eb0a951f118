// Reports in Chromium from the demo company (issue 16): the administrator opens 日结报表 (today's row: the
// demo's confirmed order, the stock value), closes yesterday through the 日结 form typed with the keyboard and
// finds it in 日结记录 (closed by admin),
// switches the grouping to 按仓库 (主仓库 with its end-of-day stock value); then 销售报表, switched to 按客户
// (the demo order's client with its amount, 全部合计, the chart) and filtered by a typed product code; 综合汇总报表
// and 预售报表 open with a chart; 批量导出 puts three reports in one export-centre job, downloaded there.
// Screenshots: test-output/e2e/reports/NN-*.png.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiOk, btn, cells, item, row, rowByTitle } from './support/antd';
import { ADMIN, expectToast, hasChromium, screenshot, waitForScreen } from './support/browser';
import { setupE2e } from './support/setup';

const SHOT_DIR = 'reports';

async function shot(page: Page, name: string): Promise<void> {
  await page.mouse.move(600, 890);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, `${SHOT_DIR}/${name}`);
}

/** A company day (UTC+8, the demo company's) `offset` days from now. */
const companyDay = (offset = 0) => new Date(Date.now() + 8 * 3_600_000 + offset * 86_400_000).toISOString().slice(0, 10);
const money = (s: string) => Number(s).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

function grouping(page: Page, label: string) {
  return page.locator('.renderer-report-groupings').getByText(label, { exact: true });
}

describe.skipIf(!hasChromium)('reports: daily closing and sales (e2e)', () => {
  const e2e = setupE2e({ login: ADMIN, walk: { shots: SHOT_DIR } });
  let page: Page;

  beforeAll(() => {
    page = e2e.page;
  });

  it('日结报表 opens on today with the demo order, the stock value and a chart', async () => {
    await page.goto('/reportForms/clapper');
    await waitForScreen(page, '日结报表');
    const today = companyDay();
    const r = row(page, today);
    await r.waitFor();
    const table = page.locator('.renderer-list').first();
    const api = await apiOk(page, 'oms', '023103', { page: 1, pageSize: 50, groupBy: 'day' });
    const seen = await rowByTitle(table, r);
    // the demo's confirmed order: 500 × 0.60 + 12 × 25.00
    expect([seen.订单数, seen.销售金额]).toEqual(['1', '600.00']);
    expect(seen.日终库存金额).toBe(money(api.list[0].stockValue));
    expect(Number(api.list[0].stockValue)).toBeGreaterThan(0);
    await page.locator('.renderer-report-chart .renderer-chart svg').first().waitFor();
    await shot(page, '01-clapper-today');
  });

  it('closes yesterday with the 日结 form, typed with the keyboard', async () => {
    const yesterday = companyDay(-1);
    await btn(page, '日结').first().click();
    const dialog = page.locator('.ant-modal:visible');
    await item(dialog, '日结日期').locator('.ant-picker input').click();
    await page.keyboard.type(yesterday);
    await page.keyboard.press('Enter');
    expect(await btn(dialog, '保存并新增').count()).toBe(0);
    await shot(page, '02-close-form');
    await btn(dialog, '日结').click();
    await expectToast(page, `已日结 ${yesterday}`);
    // a day not over yet is refused with a message the clerk can read
    await btn(page, '日结').first().click();
    const again = page.locator('.ant-modal:visible');
    await item(again, '日结日期').locator('.ant-picker input').click();
    await page.keyboard.type(companyDay());
    await page.keyboard.press('Enter');
    await btn(again, '日结').click();
    await expect.poll(async () => (await page.locator('.ant-modal:visible, .ant-message').allInnerTexts()).join(' '), { timeout: 10_000 }).toContain('只能日结已经结束的日期');
    // leaving the form asks first (what was typed would be lost)
    await btn(again, '取消').click();
    await btn(page.locator('.ant-modal-confirm:visible'), '离开').click();
    await expect.poll(() => page.locator('.ant-modal:visible').count()).toBe(0);
  });

  it('日结记录 lists yesterday, closed by admin (the server closes a day by itself as 自动)', async () => {
    const yesterday = companyDay(-1);
    await btn(page, '日结记录').click();
    const dialog = page.locator('.ant-modal:visible');
    const closed = row(dialog, yesterday);
    await closed.waitFor();
    const seen = await rowByTitle(dialog.locator('.renderer-list').first(), closed);
    expect(seen.日结人).toBe('admin');
    expect(seen.日结次数).toBe('1');
    await shot(page, '02b-closings');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('.ant-modal:visible').count()).toBe(0);
  });

  it('switches to 按仓库: 主仓库 with its end-of-day stock value', async () => {
    await grouping(page, '按仓库').click();
    const main = row(page, '主仓库');
    await main.waitFor();
    const api = await apiOk(page, 'oms', '023103', { page: 1, pageSize: 50, groupBy: 'warehouse' });
    const expected = api.list.find((x: any) => x.warehouseName === '主仓库');
    const seen = await rowByTitle(page.locator('.renderer-list').first(), main);
    expect(seen.日终库存金额).toBe(money(expected.stockValue));
    expect(seen.订单数).toBe('1');
    // one 合计 row (no page sums of balances): the flows summed, the balances at the end of the range
    const total = page.locator('.renderer-list').first().locator('.ant-table-summary tr');
    expect(await total.count()).toBe(1);
    expect(await cells(total)).toEqual(expect.arrayContaining(['合计', '600.00', money(api.totals.stockValue), money(api.totals.receivable)]));
    await shot(page, '03-clapper-by-warehouse');
  });

  it('销售报表 by client: the demo order\'s client, 全部合计 and a chart; a typed product narrows it', async () => {
    await page.goto('/reportForms/sale');
    await waitForScreen(page, '销售报表');
    await grouping(page, '按客户').click();
    const client = row(page, '上海优品百货有限公司');
    await client.waitFor();
    const table = page.locator('.renderer-list').first();
    expect((await rowByTitle(table, client)).销售金额).toBe('600.00');
    const all = table.locator('.ant-table-summary tr', { hasText: '全部合计' });
    expect(await cells(all)).toEqual(expect.arrayContaining(['600.00']));
    await page.locator('.renderer-report-chart .renderer-chart svg').first().waitFor();
    await shot(page, '04-sale-by-client');

    await page.getByPlaceholder('商品编码 / 条码 / 名称').focus();
    await page.keyboard.type('DM-2001');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await rowByTitle(table, row(page, '上海优品百货有限公司'))).销售金额, { timeout: 10_000 }).toBe('300.00');
    await shot(page, '05-sale-filtered');
  });

  it('综合汇总报表 and 预售报表 open with a chart and their 合计', async () => {
    await page.goto('/reportForms/summaryAll');
    await waitForScreen(page, '综合汇总报表');
    const month = companyDay().slice(0, 7);
    const r = row(page, month);
    await r.waitFor();
    const seen = await rowByTitle(page.locator('.renderer-list').first(), r);
    expect(seen.销售金额).toBe('600.00');
    await page.locator('.renderer-report-chart .renderer-chart svg').first().waitFor();
    await shot(page, '06-summary');
    await page.goto('/reportForms/preSale_report');
    await waitForScreen(page, '预售报表');
    await page.locator('.renderer-list .ant-table').first().waitFor();
    await page.locator('.renderer-report-chart').first().waitFor();
    expect(await page.locator('.renderer-report-groupings').innerText()).toContain('按预售计划');
  });

  it('批量导出: three reports in one background job, finished in 导出中心', async () => {
    await page.goto('/reportForms/exportAll');
    await waitForScreen(page, '批量导出');
    await btn(page, '后台导出').click();
    const result = page.locator('.renderer-form-result');
    await result.waitFor();
    expect(await result.innerText()).toContain('已加入导出中心');
    await shot(page, '07-export-all');
    await page.goto('/reportForms/download');
    await waitForScreen(page, '导出中心');
    const job = row(page, '导出多个报表');
    await expect.poll(async () => {
      await btn(page, '刷新').first().click().catch(() => undefined);
      return (await cells(job.first())).join('|');
    }, { timeout: 20_000, interval: 500 }).toContain('已完成');
    await shot(page, '08-export-centre');
  });
});
