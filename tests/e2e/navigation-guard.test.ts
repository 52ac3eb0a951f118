// The navigation guard, as a clerk meets it: refused routes one after another, allowed pages between
// them, Back and Forward. Every refusal shows 无权限访问{page}页面，请联系管理员授权 and leaves the
// clerk on the page they were on, drawn (never a blank page); a refused first load lands on /navigation.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CLERK, expectToast, hasChromium, login, pathOf, screenshot, waitForScreen } from './support/browser';
import { setupE2e } from './support/setup';

const REFUSED = [
  { path: '/baseConfig/role', title: '角色权限' },
  { path: '/entrepot/receivingNoteList', title: '收货单' },
  { path: '/commodity/list', title: '商品列表' },
];
const ALLOWED = { path: '/procurement/supplier', title: '供应商' };

/** History entries (the 历史记录 page) that link to the refused routes and one allowed route. */
async function seedHistory(page: Page): Promise<void> {
  await page.evaluate((entries) => {
    const s = JSON.parse(localStorage.getItem('tbo.session') ?? '{}') as { companyCode: string; accountId: number };
    const at = new Date().toISOString();
    localStorage.setItem(`tbo.history.${s.companyCode}.${s.accountId}`, JSON.stringify(entries.map((e) => ({ ...e, at }))));
  }, [...REFUSED, ALLOWED]);
}

const historyPage = (page: Page) => page.getByTestId('history-page');

async function refusedFromHistory(page: Page, target: { path: string; title: string }): Promise<void> {
  // The same warning shown a moment ago must have gone, so that the one we wait for is new.
  const warning = `无权限访问${target.title}页面，请联系管理员授权`;
  await page.locator('.ant-message-notice-content', { hasText: warning }).first().waitFor({ state: 'detached', timeout: 8000 });
  await historyPage(page).getByRole('link', { name: target.title, exact: true }).click();
  await expectToast(page, warning);
  expect(pathOf(page)).toBe('/history');
  await historyPage(page).waitFor();
  // The page stays drawn: its links are still there to click.
  expect(await historyPage(page).getByRole('link').count()).toBeGreaterThan(1);
}

describe.skipIf(!hasChromium)('navigation guard (e2e, clerk)', () => {
  const e2e = setupE2e();

  it('several refusals in a row, allowed pages between them, Back and Forward: always a warning, never a blank page', async () => {
    const { context, page } = await e2e.newPage();
    await login(page, CLERK);
    await seedHistory(page);
    await page.goto('/history');
    await historyPage(page).waitFor();

    await refusedFromHistory(page, REFUSED[0]!);
    await refusedFromHistory(page, REFUSED[1]!);
    await refusedFromHistory(page, REFUSED[0]!);

    await historyPage(page).getByRole('link', { name: ALLOWED.title, exact: true }).click();
    await waitForScreen(page, ALLOWED.title);
    expect(pathOf(page)).toBe(ALLOWED.path);

    await page.goBack();
    await historyPage(page).waitFor();
    await refusedFromHistory(page, REFUSED[2]!);
    await refusedFromHistory(page, REFUSED[1]!);

    await page.goForward();
    await waitForScreen(page, ALLOWED.title);
    expect(pathOf(page)).toBe(ALLOWED.path);
    await page.goBack();
    await historyPage(page).waitFor();
    await refusedFromHistory(page, REFUSED[2]!);
    await screenshot(page, 'navigation-guard/after-refusals');

    // Back from the history page goes to where the clerk was before it, drawn.
    await page.goBack();
    await page.getByTestId('navigation-page').waitFor();
    expect(pathOf(page)).toBe('/navigation');
    await context.close();
  });

  it('history entries made outside the router (pushState, then the browser moves to them): the same warnings, the page stays drawn', async () => {
    // Such entries carry no router state (every one has the key "default"); the guard used to tell
    // locations apart by that key: the second refusal drew a blank page without a warning, and after
    // an allowed page the next refused screen was drawn and only the server refused its list.
    const { context, page } = await e2e.newPage();
    await login(page, CLERK);
    const go = (path: string) =>
      page.evaluate((p) => {
        history.pushState(null, '', p);
        dispatchEvent(new PopStateEvent('popstate', { state: null }));
      }, path);
    const refusedAt = async (target: { path: string; title: string }, stay: string, drawn: () => Promise<void>) => {
      await go(target.path);
      await expectToast(page, `无权限访问${target.title}页面，请联系管理员授权`);
      await page.waitForURL(`**${stay}`);
      await drawn();
    };
    const onNavigation = () => page.getByTestId('navigation-page').waitFor();
    await refusedAt(REFUSED[0]!, '/navigation', onNavigation);
    await refusedAt(REFUSED[1]!, '/navigation', onNavigation);
    await go(ALLOWED.path);
    await waitForScreen(page, ALLOWED.title);
    const failed: string[] = [];
    page.on('response', (r) => void r.json().then((b: { code?: string; msg?: string }) => b?.code && b.code !== '200' && failed.push(`${b.code} ${b.msg}`)).catch(() => undefined));
    await refusedAt(REFUSED[2]!, ALLOWED.path, () => waitForScreen(page, ALLOWED.title));
    await page.locator('.page-body .ant-table').first().waitFor();
    expect(failed).toEqual([]); // the refused screen never asked the server for its list
    await screenshot(page, 'navigation-guard/outside-router');
    await context.close();
  });

  it('a refused first load, and refusals after it: /navigation with the warning each time', async () => {
    const { context, page } = await e2e.newPage();
    await login(page, CLERK);
    for (const target of REFUSED) {
      await page.goto(target.path);
      await expectToast(page, `无权限访问${target.title}页面，请联系管理员授权`);
      await page.waitForURL('**/navigation');
      await page.getByTestId('navigation-page').waitFor();
    }
    await context.close();
  });
});
