// 我的待办 on /navigation (issue 30), from the demo company in each person's own login: the store clerk
// sees the floor's queues and not the money's, the accountant the money's and not the floor's; each count
// is the list's own total, and a click opens that list already filtered (the URL carries the filter).
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiOk } from './support/antd';
import { hasChromium, login, pathOf, screenshot, waitForScreen, type Account } from './support/browser';
import { setupE2e } from './support/setup';

const STORE: Account = { companyCode: 'demo', userName: 'store', password: 'demo123' };
const FINANCE: Account = { companyCode: 'demo', userName: 'finance', password: 'demo123' };

const queueTitles = (page: Page) => page.locator('[data-testid="work-queues"] .work-queue a').allInnerTexts();
const countOf = async (page: Page, title: string) => {
  const badge = page.locator(`.work-queue[data-queue="${title}"] .ant-badge-count`);
  await badge.waitFor();
  return Number((await badge.getAttribute('title')) ?? (await badge.innerText()));
};

describe.skipIf(!hasChromium)('我的待办 (e2e)', () => {
  const e2e = setupE2e({});

  it('the store clerk sees 待拣货, 待发货, 待收货 with the lists\' totals; 待收货 opens the open inbound tasks', async () => {
    const { context, page } = await e2e.newPage();
    await login(page, STORE);
    await page.locator('[data-testid="work-queues"]').waitFor();
    expect(await queueTitles(page)).toEqual(['待拣货', '待发货', '待收货']);
    const open = await apiOk(page, 'oms', '021301', { page: 1, pageSize: 1, status: 'open' });
    expect(await countOf(page, '待收货')).toBe(open.total);
    expect(open.total).toBeGreaterThan(0);
    await screenshot(page, 'work-queues/01-store');
    await page.locator('.work-queue[data-queue="待收货"] a').click();
    await waitForScreen(page, '入库任务');
    expect(pathOf(page)).toBe('/entrepot/inboundTaskList');
    expect(new URL(page.url()).searchParams.get('status')).toBe('open');
    const rows = page.locator('.renderer-screen tr.ant-table-row');
    await expect.poll(() => rows.count()).toBe(open.total);
    for (const text of await rows.allInnerTexts()) expect(text).toContain('待收货');
    await context.close();
  });

  it('the accountant sees the money\'s queues, not the floor\'s', async () => {
    const { context, page } = await e2e.newPage();
    await login(page, FINANCE);
    await page.locator('[data-testid="work-queues"]').waitFor();
    const titles = await queueTitles(page);
    expect(titles).toEqual(expect.arrayContaining(['待过账发票', '待过账收付款', '逾期客户']));
    expect(titles).not.toContain('待拣货');
    const overdue = await apiOk(page, 'oms', '026201', { page: 1, pageSize: 1, partyType: 'client', overdueOnly: true });
    expect(await countOf(page, '逾期客户')).toBe(overdue.total);
    await screenshot(page, 'work-queues/02-finance');
    await context.close();
  });
});
