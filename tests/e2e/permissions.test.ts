// The clerk (a few procurement rights): the menu lists only what the clerk may open; a refused route
// shows 无权限访问{page}页面，请联系管理员授权 and leaves the clerk where they were.
import { describe, expect, it } from 'vitest';
import { CLERK, expectToast, hasChromium, login, pathOf, screenshot, waitForScreen } from './support/browser';
import { setupE2e } from './support/setup';

describe.skipIf(!hasChromium)('permissions (e2e, clerk)', () => {
  const e2e = setupE2e();

  it('lists only permitted routes in the menu', async () => {
    const { context, page } = await e2e.newPage();
    await login(page, CLERK);
    const menu = page.locator('.ant-pro-sider-menu');
    await menu.getByText('采购', { exact: true }).click();
    await menu.getByText('采购订单', { exact: true }).waitFor();
    const sections = await menu.locator(':scope > li.ant-menu-submenu > .ant-menu-submenu-title').allInnerTexts();
    expect(sections.map((s) => s.trim())).toEqual(['常用功能', '采购']);
    const items = (await menu.locator('li.ant-menu-item').allInnerTexts()).map((s) => s.trim()).filter(Boolean);
    expect(items).toEqual(expect.arrayContaining(['供应商', '采购订单', '新建采购订单']));
    for (const refused of ['币种', '商品列表', '销售订单', '角色权限', '入库计划']) expect(items).not.toContain(refused);
    await page.waitForTimeout(400); // submenu opening animation
    await screenshot(page, 'menu-clerk');
    await context.close();
  });

  it('warns and stays on the current page when navigating to a route the clerk lacks', async () => {
    const { context, page } = await e2e.newPage();
    await login(page, CLERK);
    // A history entry from when the clerk still had the right: the link is there, the right is not.
    await page.evaluate(() => {
      const s = JSON.parse(localStorage.getItem('tbo.session') ?? '{}') as { companyCode: string; accountId: number };
      const key = `tbo.history.${s.companyCode}.${s.accountId}`;
      localStorage.setItem(key, JSON.stringify([{ path: '/baseConfig/currency', title: '币种', at: new Date().toISOString() }]));
    });
    await page.goto('/history');
    await page.getByTestId('history-page').waitFor();
    await page.getByTestId('history-page').getByRole('link', { name: '币种' }).click();
    await expectToast(page, '无权限访问币种页面，请联系管理员授权');
    expect(pathOf(page)).toBe('/history');
    await page.getByTestId('history-page').waitFor();
    await screenshot(page, 'no-permission-warning');
    await context.close();
  });

  it('on a first load of a refused URL, warns and shows /navigation', async () => {
    const { context, page } = await e2e.newPage();
    await login(page, CLERK);
    await page.goto('/baseConfig/currency');
    await expectToast(page, '无权限访问币种页面，请联系管理员授权');
    await page.waitForURL('**/navigation');
    await page.getByTestId('navigation-page').waitFor();
    await context.close();
  });

  it('opens a permitted route', async () => {
    const { context, page } = await e2e.newPage();
    await login(page, CLERK);
    await page.goto('/procurement/supplier');
    await waitForScreen(page, '供应商');
    expect(pathOf(page)).toBe('/procurement/supplier');
    await context.close();
  });
});
