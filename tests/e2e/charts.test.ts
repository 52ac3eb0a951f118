// Charts drawn by ECharts in Chromium, from the demo company (issue 16's chart library): 销售报表 by month
// is a line (its legend, a point's tooltip with the amount), by client bars (the demo order's client at
// 600.00), by category a pie; 客户分布 draws the map of China by province — the shipped outlines, the
// provinces with clients coloured, a province's tooltip with its count — and fetches nothing from
// another host. Chart code is fetched only by screens that draw charts, the map's only by the map.
// Screenshots: test-output/e2e/charts/NN-*.png.
import type { Locator, Page, Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiOk, row, rowByTitle } from './support/antd';
import { ADMIN, hasChromium, screenshot, waitForScreen } from './support/browser';
import { setupE2e } from './support/setup';

const SHOT_DIR = 'charts';

async function shot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, `${SHOT_DIR}/${name}`);
}

function grouping(page: Page, label: string) {
  return page.locator('.renderer-report-groupings').getByText(label, { exact: true });
}

/** The report's drawn chart (ECharts' SVG inside our chart part). */
const reportChart = (page: Page) => page.locator('.renderer-report-chart .renderer-chart').first();

/** The words drawn in a chart's SVG (legend, axis labels). */
async function chartWords(chart: Locator): Promise<string[]> {
  return (await chart.locator('svg text').allTextContents()).map((t) => t.trim()).filter(Boolean);
}

/** Shapes drawn (ECharts draws lines, bars, slices and provinces as paths). */
const shapes = (chart: Locator) => chart.locator('svg path').count();

/**
 * Moves the mouse across the chart's plot, a step each try, until its tooltip says `text`: where a bar
 * or point lies depends on the data, so the pointer looks for it as a clerk's would.
 */
async function tooltipSaying(page: Page, chart: Locator, text: string, y = 0.5): Promise<string> {
  const box = (await chart.boundingBox())!;
  let step = 0;
  let seen = '';
  await expect
    .poll(
      async () => {
        const x = box.x + box.width * (0.12 + ((step++ * 0.04) % 0.84));
        await page.mouse.move(x, box.y + box.height * y);
        const tip = chart.locator('.renderer-chart-tooltip');
        seen = (await tip.count()) && (await tip.isVisible()) ? await tip.innerText() : '';
        return seen.includes(text);
      },
      { timeout: 15_000, interval: 50 },
    )
    .toBe(true);
  return seen;
}

describe.skipIf(!hasChromium)('charts drawn by ECharts (e2e)', () => {
  const e2e = setupE2e({ login: ADMIN, walk: { shots: SHOT_DIR } });
  let page: Page;
  const scripts: string[] = [];
  const foreign: string[] = [];

  beforeAll(() => {
    page = e2e.page;
    const origin = new URL(e2e.server.baseUrl).origin;
    page.on('request', (r: Request) => {
      const url = new URL(r.url());
      if (url.protocol.startsWith('http') && url.origin !== origin) foreign.push(r.url());
      if (r.resourceType() === 'script') scripts.push(url.pathname);
    });
  });

  it('a screen without a chart fetches no chart code', async () => {
    await page.goto('/baseConfig/department');
    await waitForScreen(page, '部门');
    await row(page, '采购部').waitFor();
    expect(scripts.filter((s) => /\/(parts|chinaMap)-[\w-]+\.js$/.test(s))).toEqual([]);
  });

  it('销售报表 by month: a line with its legend and the month’s amount in the tooltip', async () => {
    await page.goto('/reportForms/sale');
    await waitForScreen(page, '销售报表');
    const month = await apiOk(page, 'oms', '023101', { page: 1, pageSize: 50, groupBy: 'month' });
    const first = month.list[0];
    expect(first).toBeTruthy();
    const chart = reportChart(page);
    await chart.locator('svg path').first().waitFor({ state: 'attached' });
    expect(await chartWords(chart)).toContain('销售金额');
    expect(await shapes(chart)).toBeGreaterThan(0);
    const tip = await tooltipSaying(page, chart, first.label);
    expect(tip).toContain('销售金额');
    expect(tip).toContain(Number(first.amount).toLocaleString('en-US', { minimumFractionDigits: 2 }));
    await shot(page, '01-sale-by-month-line');
  });

  it('by client: bars, the demo order’s client at 600.00', async () => {
    await grouping(page, '按客户').click();
    const table = page.locator('.renderer-list').first();
    const client = row(table, '上海优品百货有限公司');
    await client.waitFor();
    expect((await rowByTitle(table, client)).销售金额).toBe('600.00');
    const chart = reportChart(page);
    await expect.poll(async () => (await chartWords(chart)).some((w) => w.startsWith('上海优品'))).toBe(true);
    const tip = await tooltipSaying(page, chart, '上海优品百货有限公司', 0.8);
    expect(tip).toMatch(/销售金额\s*600\.00/);
    await shot(page, '02-sale-by-client-bars');
  });

  it('by category: a pie with the categories in its legend', async () => {
    await grouping(page, '按类别').click();
    const api = await apiOk(page, 'oms', '023101', { page: 1, pageSize: 50, groupBy: 'category' });
    const names: string[] = api.list.map((r: { label: string }) => r.label);
    expect(names.length).toBeGreaterThan(0);
    const chart = reportChart(page);
    await expect.poll(async () => {
      const words = await chartWords(chart);
      return names.filter((n) => words.some((w) => w.startsWith(n.slice(0, 4))));
    }).toEqual(names);
    await page.mouse.move(10, 10);
    await shot(page, '03-sale-by-category-pie');
  });

  it('客户分布: the map of China by province, the provinces with clients coloured, a tooltip with the count', async () => {
    const before = scripts.length;
    await page.goto('/system/clientMap');
    await waitForScreen(page, '客户分布');
    const api = await apiOk(page, 'cdm', '019815', { page: 1, pageSize: 50, groupBy: 'province' });
    const sh = api.list.find((r: { region: string }) => r.region === '上海市');
    expect(sh.clientCount).toBeGreaterThan(0);
    const map = page.locator('.renderer-china-map .renderer-chart');
    await map.locator('svg path').first().waitFor({ state: 'attached' });
    // every one of the 34 provinces has its outline (more paths: islands, the colour scale)
    expect(await shapes(map)).toBeGreaterThanOrEqual(34);
    expect(await chartWords(map)).toEqual(expect.arrayContaining(['高', '低']));
    // the province with the most clients is drawn in the darkest colour of the scale
    const darkest = map.locator('svg path[fill="rgb(9,88,217)"], svg path[fill="#0958d9"]');
    await expect.poll(() => darkest.count()).toBeGreaterThan(0);
    const box = (await darkest.first().boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const tip = map.locator('.renderer-chart-tooltip');
    await expect.poll(async () => ((await tip.count()) ? await tip.innerText() : '')).toContain('客户数');
    const top = [...api.list].filter((r: { region: string }) => r.region !== '未识别').sort((a, b) => b.clientCount - a.clientCount)[0];
    expect(await tip.innerText()).toContain(String(top.clientCount));
    await shot(page, '04-client-map');
    // the map's code came with this screen, and nothing came from another host
    expect(scripts.slice(before).some((s) => /\/chinaMap-[\w-]+\.js$/.test(s))).toBe(true);
    expect(foreign).toEqual([]);
  });
});
