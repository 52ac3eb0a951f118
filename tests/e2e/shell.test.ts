// The layout's own features: pinned shortcuts on /navigation, the tab bar, 切换仓库 and 修改密码.
import { describe, expect, it } from 'vitest';
import { ADMIN, expectToast, hasChromium, login, pathOf, screenshot, waitForScreen } from './support/browser';
import { setupE2e } from './support/setup';

describe.skipIf(!hasChromium)('shell (e2e)', () => {
  const e2e = setupE2e();

  it('pins and unpins shortcut tiles, kept per account across reloads', async () => {
    const { context, page } = await e2e.newPage();
    await login(page, ADMIN);
    const tiles = page.locator('.shortcut-tile .ant-card-head-title');
    expect(await tiles.allInnerTexts()).toContain('采购订单');

    await page.locator('.shortcut-tile', { hasText: '采购订单' }).locator('[title="取消固定"]').click();
    expect(await tiles.allInnerTexts()).not.toContain('采购订单');

    await page.getByRole('button', { name: '设置常用功能' }).click();
    const dialog = page.locator('.ant-modal', { hasText: '点击功能名称固定或取消固定到首页' });
    await dialog.getByText('币种', { exact: true }).click();
    await screenshot(page, 'navigation-pin-dialog');
    await dialog.locator('.ant-modal-close').click();
    await dialog.waitFor({ state: 'hidden' });

    await page.reload();
    await page.getByTestId('navigation-page').waitFor();
    const after = await tiles.allInnerTexts();
    expect(after).toContain('币种');
    expect(after).not.toContain('采购订单');

    await page.locator('.shortcut-tile', { hasText: '币种' }).click();
    await page.waitForURL('**/baseConfig/currency');
    await waitForScreen(page, '币种');
    await context.close();
  });

  it('closes other tabs and refreshes the current one', async () => {
    const { context, page } = await e2e.newPage();
    await login(page, ADMIN);
    for (const [path, title] of [
      ['/procurement/supplier', '供应商'],
      ['/market/client', '客户'],
      ['/procurement/purchaseOrder/12', '采购订单详情（12）'],
    ]) {
      await page.goto(path);
      await waitForScreen(page, title.replace(/（.*）/, ''));
    }
    const tabs = page.locator('.page-tabs .ant-tabs-tab');
    expect(await tabs.allInnerTexts()).toEqual(['首页导航', '供应商', '客户', '采购订单详情（12）']);
    await screenshot(page, 'tabs');

    await page.getByRole('button', { name: '页签操作' }).hover();
    await page.getByRole('menuitem', { name: '关闭其他' }).click();
    expect(await tabs.allInnerTexts()).toEqual(['首页导航', '采购订单详情（12）']);

    await page.getByRole('button', { name: '页签操作' }).hover();
    await page.getByRole('menuitem', { name: '刷新' }).click();
    await waitForScreen(page, '采购订单详情');
    expect(pathOf(page)).toBe('/procurement/purchaseOrder/12');

    await tabs.filter({ hasText: '首页导航' }).click();
    await page.waitForURL('**/navigation');
    await context.close();
  });

  it('切换仓库 lists the company warehouses', async () => {
    const { context, page } = await e2e.newPage();

    await login(page, ADMIN);
    await page.getByTestId('user-menu').hover();
    await page.getByRole('menuitem', { name: '切换仓库' }).click();
    const dialog = page.locator('.ant-modal', { hasText: '切换仓库' });
    await dialog.waitFor();
    await dialog.locator('.ant-select').click();
    await page.locator('.ant-select-item-option').first().waitFor();
    expect(await page.locator('.ant-select-item-option').allInnerTexts()).toContain('主仓库');
    await screenshot(page, 'switch-warehouse');
    await dialog.getByRole('button', { name: '取消' }).click();
    await context.close();
  });

  it('修改密码 ends the session; the new password logs in', async () => {
    const account = { companyCode: 'demo2', userName: 'admin', password: 'demo123' };
    const { context, page } = await e2e.newPage();
    await login(page, account);
    await page.getByTestId('user-menu').hover();
    await page.getByRole('menuitem', { name: '修改密码' }).click();
    const dialog = page.locator('.ant-modal', { hasText: '确认新密码' });
    await dialog.getByLabel('原密码').fill('demo123');
    await dialog.getByLabel('新密码', { exact: true }).fill('changed-456');
    await dialog.getByLabel('确认新密码').fill('changed-456');
    await screenshot(page, 'change-password');
    await dialog.getByRole('button', { name: '确定' }).click();
    await page.waitForURL('**/login');
    await expectToast(page, '密码已修改，请使用新密码重新登录');
    await login(page, { ...account, password: 'changed-456' });
    expect(pathOf(page)).toBe('/navigation');
    await context.close();
  });
});
