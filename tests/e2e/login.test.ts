// Login, wrong password, redirects, logout — against the real server and the built client.
import { describe, expect, it } from 'vitest';
import { ADMIN, fillLogin, hasChromium, login, pathOf, screenshot, waitForScreen, waitForTitle } from './support/browser';
import { setupE2e } from './support/setup';

describe.skipIf(!hasChromium)('login and logout (e2e)', () => {
  const e2e = setupE2e();

  it('logs in with company code, user name and password and lands on /navigation', async () => {
    const { context, page } = await e2e.newPage();
    await page.goto('/login');
    await page.getByRole('button', { name: '登录' }).waitFor();
    expect(await page.title()).toBe('登录');
    // the caret is in 公司代码: a new user types at once (issue 30)
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('login-companyCode');
    await screenshot(page, 'login');
    await login(page, ADMIN);
    expect(pathOf(page)).toBe('/navigation');
    expect(await page.title()).toBe('首页导航');
    await page.locator('.ant-pro-layout').waitFor();
    await screenshot(page, 'navigation-admin');
    await context.close();
  });

  it('shows 用户名或密码错误 under the form for a wrong password, not as a toast', async () => {
    const { context, page } = await e2e.newPage();
    await fillLogin(page, { ...ADMIN, password: 'wrong-password' });
    const error = page.getByTestId('login-error');
    await error.waitFor();
    expect(await error.innerText()).toContain('用户名或密码错误');
    expect(await page.locator('.ant-message-notice-content').count()).toBe(0);
    expect(pathOf(page)).toBe('/login');
    await screenshot(page, 'login-wrong-password');
    await context.close();
  });

  it('redirects / to /navigation, and unknown paths to /login', async () => {
    const { context, page } = await e2e.newPage();
    await page.goto('/');
    await page.waitForURL('**/login'); // no token: / → /navigation → /login
    await page.goto('/no/such/page');
    await page.waitForURL('**/login');
    expect(pathOf(page)).toBe('/login');

    await login(page, ADMIN);
    await page.goto('/');
    await page.waitForURL('**/navigation');
    await page.goto('/no/such/page');
    await page.waitForURL('**/navigation'); // unknown → /login → (token) /navigation
    await page.goto('/i');
    await page.waitForURL('**/ipad');
    await waitForTitle(page, '平板工作台');
    await screenshot(page, 'ipad-standalone');
    expect(await page.locator('.ant-pro-layout').count()).toBe(0);
    await page.goto('/login');
    await page.waitForURL('**/navigation');
    await context.close();
  });

  it('lets /qrCodeLoad open without a token', async () => {
    const { context, page } = await e2e.newPage();
    await page.goto('/qrCodeLoad');
    await waitForTitle(page, '扫码查看');
    expect(pathOf(page)).toBe('/qrCodeLoad');
    await context.close();
  });

  it('logs out from the user menu, and the login form remembers company and user', async () => {
    const { context, page } = await e2e.newPage();
    await login(page, ADMIN);
    await page.getByTestId('user-menu').hover();
    await page.getByText('退出登录').click();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('tbo.accessToken'))).toBeNull();
    expect(await page.locator('#login-companyCode').inputValue()).toBe('demo');
    expect(await page.locator('#login-userName').inputValue()).toBe('admin');
    expect(await page.locator('#login-password').inputValue()).toBe('');
    // company and user remembered: the caret waits in 密码
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('login-password');
    await page.goto('/procurement/list');
    await page.waitForURL('**/login');
    await screenshot(page, 'after-logout');
    await context.close();
  });

  it('opens pages as tabs and records them in /history', async () => {
    const { context, page } = await e2e.newPage();
    await login(page, ADMIN);
    await page.locator('.ant-pro-sider-menu').getByText('采购', { exact: true }).click();
    await page.locator('.ant-pro-sider-menu').getByText('采购订单', { exact: true }).click();
    await page.waitForURL('**/procurement/list');
    await waitForScreen(page, '采购订单');
    expect(await page.locator('.page-tabs .ant-tabs-tab').allInnerTexts()).toEqual(['首页导航', '采购订单']);
    await screenshot(page, 'procurement-list');

    await page.goto('/history');
    await page.getByTestId('history-page').waitFor();
    expect(await page.getByTestId('history-page').innerText()).toContain('采购订单');
    await screenshot(page, 'history');

    await page.locator('.page-tabs .ant-tabs-tab', { hasText: '采购订单' }).locator('.ant-tabs-tab-remove').click();
    expect(await page.locator('.page-tabs .ant-tabs-tab').allInnerTexts()).toEqual(['首页导航', '浏览历史']);
    await context.close();
  });

  it('lets admin (every right) open a settings route with no warning', async () => {
    const { context, page } = await e2e.newPage();
    await login(page, ADMIN);
    await page.goto('/baseConfig/currency');
    await waitForScreen(page, '币种');
    expect(pathOf(page)).toBe('/baseConfig/currency');
    expect(await page.locator('.ant-message-notice-content').count()).toBe(0);
    await screenshot(page, 'currency-admin');
    await context.close();
  });
});
