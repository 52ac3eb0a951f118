// 数据大屏 in Chromium at 1920×1080 from the demo company (issue 16): the administrator types /d, lands on
// /dataReport, full screen and dark, with the demo's figures (today's confirmed order of 600.00); a sales
// order confirmed through the API between refreshes shows after the page's clock moves 30 s (one new
// request, none before); a refresh that fails keeps the figures and marks 数据更新失败 hh:mm (no toast); /dA opens the
// whole-company wall. The page's clock is Playwright's (page.clock): no real waiting for the 30 s.
// Screenshots: test-output/e2e/dashboard/NN-*.png (read by eye: dark, readable, nothing overlapping).
import type { Page, Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiOk } from './support/antd';
import { ADMIN, hasChromium, login, pathOf, screenshot, toastTexts, waitForTitle } from './support/browser';
import { setupE2e } from './support/setup';

const SHOT_DIR = 'dashboard';
const SALES = '/oms/api/023201';

/** "1,234.50" as a tile shows money below a million. */
const shown = (s: string) => Number(s).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

describe.skipIf(!hasChromium)('数据大屏 (e2e)', () => {
  const e2e = setupE2e({ walk: { shots: SHOT_DIR, pages: () => [['', page]] } });
  let page: Page;
  const calls: Request[] = [];
  let before = '';

  beforeAll(async () => {
    ({ page } = await e2e.newPage());
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await login(page, ADMIN);
    page.on('request', (r) => {
      // the screen's own calls (XHR); the test's reads go through fetch
      if (new URL(r.url()).pathname === SALES && r.resourceType() === 'xhr') calls.push(r);
    });
  });

  it('/d opens the sales wall full screen with the demo figures', async () => {
    // the page's clock stands still from here: only runFor moves it
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 60_000);
    // typed into the address bar, as someone setting up the wall screen does
    await page.goto('/d');
    await waitForTitle(page, '数据大屏');
    expect(pathOf(page)).toBe('/dataReport');
    const tile = page.getByTestId('kpi-salesToday');
    await expect.poll(() => tile.textContent()).toMatch(/\d/);
    const api = await apiOk(page, 'oms', '023201', {});
    before = api.salesToday;
    expect(calls.length).toBe(1);
    expect(Number(before)).toBeGreaterThanOrEqual(600);
    expect(await tile.textContent()).toBe(`¥${shown(before)}`);
    // no shell: no menu, no breadcrumb; the company name and a clock in the header
    expect(await page.locator('.ant-layout-sider, .ant-breadcrumb').count()).toBe(0);
    await expect.poll(() => page.locator('.dash-company').textContent()).toBe('演示贸易有限公司');
    expect(await page.locator('.dash-clock-time').textContent()).toMatch(/^\d\d:\d\d:\d\d$/);
    // dark, and big enough to read from 3 m
    const look = await tile.evaluate((el) => ({ size: parseFloat(getComputedStyle(el).fontSize), bg: getComputedStyle(document.querySelector('.dash-root')!).backgroundColor }));
    expect(look.size).toBeGreaterThanOrEqual(48);
    // top lists show the demo order's products and client
    await expect.poll(() => page.locator('[data-panel="topProducts"] tbody tr').count()).toBeGreaterThan(0);
    await expect.poll(() => page.locator('[data-panel="topClients"] tbody tr').count()).toBeGreaterThan(0);
    // nothing spills out of its panel
    const overflow = await page.evaluate(() => [...document.querySelectorAll('.dash-panel')].filter((p) => {
      const r = p.getBoundingClientRect();
      return r.right > window.innerWidth + 1 || r.bottom > window.innerHeight + 1;
    }).length);
    expect(overflow).toBe(0);
    // and no figure is cut: every value fits its tile
    const cut = await page.evaluate(() => [...document.querySelectorAll('.dash-kpi-value')].filter((v) => v.scrollWidth > v.clientWidth).length);
    expect(cut).toBe(0);
    // a top list's names are whole where the panel has room (上海优品百货有限公司, not 上海优品百…): no cell is cut
    // (a clamped name hides a whole line; a line box rounds by a pixel or two)
    const names = await page.locator('[data-panel="topClients"] tbody tr, [data-panel="topProducts"] tbody tr').evaluateAll((rows) => rows.flatMap((r) =>
      [...r.querySelectorAll('td')].filter((td) => td.scrollWidth > td.clientWidth + 1 || [...td.querySelectorAll("div")].some((d) => d.scrollHeight > d.clientHeight + 4)).map((td) => td.textContent)));
    expect(names).toEqual([]);
    expect(await page.locator('[data-panel="topClients"] tbody tr').first().textContent()).toContain('上海优品百货有限公司');
    await page.mouse.move(0, 0);
    await screenshot(page, `${SHOT_DIR}/01-sales-wall`);
  });

  it('a sales order confirmed between refreshes shows after 30 s on the page clock — one new request, not before', async () => {
    const orders = await apiOk(page, 'oms', '020901', { page: 1, pageSize: 20 });
    const demoOrder = await apiOk(page, 'oms', '020902', { id: orders.list.find((o: { status: string }) => o.status === 'confirmed').id });
    const line = demoOrder.lines[0];
    const so = await apiOk(page, 'oms', '020903', { clientId: demoOrder.clientId, warehouseId: demoOrder.warehouseId, lines: [{ productId: line.productId, qty: 2, price: line.price }] });
    await apiOk(page, 'oms', '020905', { id: so.id, version: so.version });
    const after = (await apiOk(page, 'oms', '023201', {})).salesToday;
    expect(Number(after)).toBeCloseTo(Number(before) + 2 * Number(line.price), 2);
    const tile = page.getByTestId('kpi-salesToday');
    const seen = calls.length;
    await page.clock.runFor(29_000);
    expect(calls.length).toBe(seen);
    expect(await tile.textContent()).toBe(`¥${shown(before)}`);
    await page.clock.runFor(1_000);
    await expect.poll(() => tile.textContent()).toBe(`¥${shown(after)}`);
    expect(calls.length).toBe(seen + 1);
    before = after;
  });

  it('a failed refresh keeps the figures and marks 数据更新失败 hh:mm', async () => {
    await page.route(`**${SALES}`, (r) => r.abort());
    await page.clock.runFor(30_000);
    const status = page.getByTestId('dash-status');
    await expect.poll(() => status.textContent()).toMatch(/^数据更新失败 \d\d:\d\d$/);
    expect(await page.getByTestId('kpi-salesToday').textContent()).toBe(`¥${shown(before)}`);
    // only the mark: no toast, no modal over an unattended wall
    expect(await toastTexts(page)).toEqual([]);
    expect(await page.locator('.ant-modal:visible').count()).toBe(0);
    await page.mouse.move(0, 0);
    await screenshot(page, `${SHOT_DIR}/02-refresh-failed`);
    // the server back: the next refresh clears the mark
    await page.unroute(`**${SALES}`);
    await page.clock.runFor(30_000);
    await expect.poll(() => status.textContent()).toMatch(/^更新于 \d\d:\d\d:\d\d$/);
  });

  it('/dA opens the whole-company wall', async () => {
    await page.goto('/dA');
    await waitForTitle(page, '数据大屏（全部）');
    expect(pathOf(page)).toBe('/dataReport/all');
    const api = await apiOk(page, 'oms', '023202', {});
    await expect.poll(() => page.getByTestId('kpi-stockValue').textContent()).toMatch(/\d/);
    expect(Number(api.stockValue)).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('kpi-receivable').textContent()).toMatch(/\d/);
    expect(await page.locator('[data-panel="overdueReceivable"] .dash-kpi-compare').textContent()).toBe(`${api.overdueItems} 笔 · ${api.overdueClients} 个客户`);
    // this month's figures beside today's
    expect(await page.locator('[data-panel="ordersToday"] .dash-panel-aside').textContent()).toBe(`本月 ${api.ordersMonth} 单`);
    expect(await page.locator('[data-panel="receiptsToday"] .dash-panel-aside').textContent()).toBe(`本月 ¥${shown(api.receiptsMonth)}`);
    await page.mouse.move(0, 0);
    await screenshot(page, `${SHOT_DIR}/03-company-wall`);
  });
});
