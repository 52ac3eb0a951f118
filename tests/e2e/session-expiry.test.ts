// Token lifetimes (spec §4, §8): an expired access token is refreshed once, transparently, however many
// requests are in flight; an expired refresh token sends the user to /login.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN, hasChromium, login, pathOf, screenshot, waitForScreen } from './support/browser';
import { setupE2e } from './support/setup';

// Long enough that a page reloaded on a busy machine (CI runs every suite at once on 2 CPUs) settles
// within one access token's life: with 3 s, the refreshed token sometimes expired again before the reload
// was done, and a second, legitimate refresh was counted.
const ACCESS_TTL = 8;
const REFRESH_TTL = 20;
const sleep = (s: number) => new Promise((r) => setTimeout(r, s * 1000));

function countRefreshes(page: Page): () => number {
  let n = 0;
  page.on('request', (req) => {
    if (req.url().endsWith('/auth/public/990103') && (req.postDataJSON() as { type?: number } | null)?.type === 1) n += 1;
  });
  return () => n;
}

describe.skipIf(!hasChromium)('session expiry (e2e)', () => {
  const e2e = setupE2e({ server: { accessTokenTtl: ACCESS_TTL, refreshTokenTtl: REFRESH_TTL } });

  it('refreshes an expired access token once for several requests in flight', async () => {
    const { context, page } = await e2e.newPage();
    await login(page, ADMIN);
    const refreshes = countRefreshes(page);
    const tokenBefore = await page.evaluate(() => localStorage.getItem('tbo.accessToken'));
    await sleep(ACCESS_TTL + 1.5);

    await page.waitForFunction(() => !!window.__tbo);
    const codes = await page.evaluate(async () => {
      const call = window.__tbo!.callApi;
      const results = await Promise.all([
        call('auth', '990104', {}),
        call('oms', '023401', { listName: 'e2e-a' }),
        call('oms', '023401', { listName: 'e2e-b' }),
        call('oms', '023802', {}),
        call('cdm', '013801'),
      ]);
      return results.map((r) => r.code);
    });
    expect(codes[0]).toBe('200');
    for (const code of codes) expect(['5012', '5011', 'CLIENT_NETWORK']).not.toContain(code);
    expect(refreshes()).toBe(1);
    expect(await page.evaluate(() => localStorage.getItem('tbo.accessToken'))).not.toBe(tokenBefore);
    expect(pathOf(page)).toBe('/navigation');
    await context.close();
  });

  it('refreshes on a reload after the access token expired, and the user stays', async () => {
    const { context, page } = await e2e.newPage();
    await login(page, ADMIN);
    const refreshes = countRefreshes(page);
    await page.goto('/procurement/list');
    await waitForScreen(page, '采购订单');
    await sleep(ACCESS_TTL + 1.5);
    await page.reload();
    await waitForScreen(page, '采购订单');
    await page.waitForLoadState('networkidle');
    expect(refreshes()).toBe(1);
    expect(pathOf(page)).toBe('/procurement/list');
    await context.close();
  });

  it('sends the user to /login when the refresh token has expired too', async () => {
    const { context, page } = await e2e.newPage();
    await login(page, ADMIN);
    await page.goto('/procurement/list');
    await waitForScreen(page, '采购订单');
    await sleep(REFRESH_TTL + 1.5);
    await page.reload();
    await page.waitForURL('**/login', { timeout: 15_000 });
    expect(await page.evaluate(() => localStorage.getItem('tbo.accessToken'))).toBeNull();
    await screenshot(page, 'session-ended-login');
    await context.close();
  });
});
