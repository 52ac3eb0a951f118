// What the user sees when a call fails (spec §8): the '500' modal with its copy button, and the
// network-failure toast.
import { describe, expect, it } from 'vitest';
import { ADMIN, expectToast, hasChromium, login, pathOf, screenshot } from './support/browser';
import { setupE2e } from './support/setup';

const SESSION_CALL = '**/auth/api/990104';

describe.skipIf(!hasChromium)('error display (e2e)', () => {
  const e2e = setupE2e();

  it("shows the '500' modal with the server message; 复制 copies it (复制成功)", async () => {
    const { context, page } = await e2e.newPage();
    await login(page, ADMIN);
    const message = '服务器内部错误 [错误编号 E2E-500-TEST]';
    await page.route(SESSION_CALL, (route) =>
      route.fulfill({ contentType: 'application/json', body: JSON.stringify({ code: '500', msg: message, data: null }) }),
    );
    await page.reload(); // the app reloads the session at start: that call answers '500'
    const modal = page.locator('.ant-modal', { hasText: '异常信息-请点击复制异常信息给开发人员' });
    await modal.waitFor();
    expect(await modal.innerText()).toContain(message);
    await page.locator('.ant-pro-layout').waitFor();
    await page.waitForTimeout(400); // let the modal finish its opening animation for the screenshot
    await screenshot(page, 'server-error-modal');
    await modal.getByRole('button', { name: '复制' }).click();
    await expectToast(page, '复制成功');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(message);
    await modal.getByRole('button', { name: '关闭' }).click();
    await modal.waitFor({ state: 'hidden' });
    expect(pathOf(page)).toBe('/navigation');
    await context.close();
  });

  it('shows 后台接口无响应 when the server cannot be reached', async () => {
    const { context, page } = await e2e.newPage();
    await login(page, ADMIN);
    await page.route(SESSION_CALL, (route) => route.abort('connectionrefused'));
    await page.reload();
    await expectToast(page, '后台接口无响应');
    await screenshot(page, 'network-failure-toast');
    await context.close();
  });
});
