// 大屏链接 in Chromium: the administrator makes a link for the office television on 大屏链接 by typing its
// name, copies it; the television (a browser with no login, 1920×1080) opens it and shows 数据大屏 with the
// company's figures; opened in another tab of the administrator's own browser it leaves the
// administrator logged in; stopped, the television says the link no longer works the next time it loads.
// Screenshots: test-output/e2e/wall-link/NN-*.png.
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { btn, confirmPopup, item, row } from './support/antd';
import { ADMIN, expectToast, hasChromium, pathOf, screenshot, waitForScreen } from './support/browser';
import { setupE2e } from './support/setup';

const SHOT_DIR = 'wall-link';

describe.skipIf(!hasChromium)('大屏链接: a wall with nobody logging in (e2e)', () => {
  const e2e = setupE2e({
    login: ADMIN,
    walk: { shots: SHOT_DIR, pages: () => [['', e2e.page], ['tv', tv]] },
  });
  let page: Page;
  let tv: Page | undefined;
  let tvContext: BrowserContext | undefined;
  let link = '';

  beforeAll(() => {
    page = e2e.page;
  });
  afterAll(async () => tvContext?.close());

  it('makes a link for the television by typing its name, and copies it', async () => {
    await page.goto('/dataReport/links');
    await waitForScreen(page, '大屏链接');
    await btn(page, '新建大屏链接').click();
    const form = page.locator('.ant-modal', { hasText: '新建大屏链接' });
    await form.waitFor();
    await item(form, '名称').locator('input').click();
    await page.keyboard.type('前台电视');
    await screenshot(page, `${SHOT_DIR}/01-new-link`);
    await page.keyboard.press('Enter');
    const made = row(page, '前台电视');
    await made.waitFor();
    expect(await made.innerText()).toContain('使用中');
    await btn(made, '复制链接').click();
    await expectToast(page, '复制成功');
    link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toMatch(new RegExp(`^${e2e.server.baseUrl}/wall/[A-Za-z0-9]{22}$`));
    await screenshot(page, `${SHOT_DIR}/02-links`);
  });

  it('the television opens the link and shows 数据大屏 with no login', async () => {
    ({ context: tvContext, page: tv } = await e2e.newPage());
    await tv.setViewportSize({ width: 1920, height: 1080 });
    await tv.goto(link);
    await tv.waitForURL((u) => u.pathname === '/dataReport');
    const wall = tv.getByTestId('dashboard');
    await wall.waitFor();
    await expect.poll(async () => tv!.getByTestId('dash-status').innerText(), { timeout: 15_000 }).toMatch(/更新于/);
    expect(await wall.innerText()).toContain('今日销售额');
    expect(await tv.locator('.dash-company').innerText()).not.toBe('');
    // the session is the tab's: nothing in the browser's shared storage
    expect(await tv.evaluate(() => localStorage.getItem('tbo.accessToken'))).toBeNull();
    await screenshot(tv, `${SHOT_DIR}/03-tv-wall`);
  });

  it('opened in another tab of the administrator\'s browser, it leaves the administrator logged in', async () => {
    const tab = await e2e.context.newPage();
    await tab.goto(link);
    await tab.waitForURL((u) => u.pathname === '/dataReport');
    await tab.getByTestId('dashboard').waitFor();
    await tab.close();
    await page.goto('/dataReport/links');
    await waitForScreen(page, '大屏链接');
    expect(pathOf(page)).toBe('/dataReport/links');
    await row(page, '前台电视').waitFor();
  });

  it('stopped, the television says the link no longer works', async () => {
    const made = row(page, '前台电视');
    await btn(made, '停用').click();
    await confirmPopup(page);
    await expectToast(page, '已停用');
    await expect.poll(async () => made.innerText()).toContain('已停用');
    // the wall's next load (its refresh finds the session ended the same way)
    await tv!.reload();
    const message = tv!.getByTestId('wall-entry').getByRole('alert');
    await message.waitFor({ timeout: 15_000 });
    expect(await message.innerText()).toContain('大屏链接已失效');
    expect(pathOf(tv!)).toMatch(/^\/wall\//);
    await screenshot(tv!, `${SHOT_DIR}/04-tv-stopped`);
  });
});
