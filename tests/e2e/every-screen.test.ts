// Every screen of the side menu opens cleanly for the demo administrator — the walk a first customer makes on
// day one, one menu entry after another. The routes come from the screen files exactly as the side menu
// builds them (a `menu` place, not hidden, not standalone; the administrator holds every right); a route
// with parameters is reached from its list and is not walked here. Each screen is opened by URL in one
// page at 1440×900, animations off, and once it has drawn and its calls have answered:
// - no uncaught page error and no console error;
// - every answer from /cdm/api, /oms/api, /auth/api and /storage/api carries envelope code 200 (a screen
//   that asks for something it may not have is a bug);
// - no 服务器内部错误, "undefined", "NaN" or "[object Object]" in the page's text;
// - the screen's title is shown (breadcrumb and document title);
// - what a clerk reads is whole: no filter title running under its box, no table column without a title.
// Screenshots: test-output/e2e/every-screen/<route>.png.
import fs from 'node:fs';
import path from 'node:path';
import type { Page, Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/client';
import { ADMIN, hasChromium, screenshot, waitForTitle } from './support/browser';
import { setupE2e } from './support/setup';

interface MenuScreen {
  route: string;
  title: string;
}

/** The screens the side menu lists (src/client/shell/menuData.ts isMenuItem), without :param routes. */
function menuScreens(): MenuScreen[] {
  const found: MenuScreen[] = [];
  const walk = (dir: string) => {
    for (const name of fs.readdirSync(dir)) {
      const file = path.join(dir, name);
      if (fs.statSync(file).isDirectory()) walk(file);
      else if (name.endsWith('.json')) {
        const s = JSON.parse(fs.readFileSync(file, 'utf8')) as { route: string; title: string; hidden: boolean; menu?: { group: string } };
        if (s.menu && !s.hidden && s.menu.group !== 'standalone' && !s.route.includes(':')) found.push({ route: s.route, title: s.title });
      }
    }
  };
  walk(path.join(ROOT, 'schemas/screens'));
  return found.sort((a, b) => a.route.localeCompare(b.route));
}

const SCREENS = menuScreens();
const API = /^\/(cdm|oms|auth|storage)\/api\//;
const FAULTY_TEXT = ['服务器内部错误', 'undefined', 'NaN', '[object Object]'];

/** What one screen showed that a clerk should never see. */
interface Seen {
  errors: string[];
  calls: string[];
}

let seen: Seen = { errors: [], calls: [] };

function listen(page: Page): void {
  page.on('pageerror', (e) => seen.errors.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') seen.errors.push(`console error: ${m.text()}`);
  });
  page.on('response', (r: Response) => void checkAnswer(r));
}

async function checkAnswer(r: Response): Promise<void> {
  const url = new URL(r.url());
  if (!API.test(url.pathname)) return;
  const mine = seen;
  if (!(r.headers()['content-type'] ?? '').includes('json')) {
    if (r.status() >= 400) mine.calls.push(`${url.pathname}: HTTP ${r.status()}`);
    return;
  }
  const body = (await r.json().catch(() => null)) as { code?: unknown; msg?: unknown } | null;
  if (!body || String(body.code) !== '200') mine.calls.push(`${url.pathname}: ${String(body?.code)} ${String(body?.msg)}`);
}

/**
 * The title the clerk reads: the breadcrumb's last item, or on the home page (whose breadcrumb is only 首页)
 * its open-page tab.
 */
const shownTitle = (page: Page, route: string) =>
  route === HOME ? page.locator('.page-tabs .ant-tabs-tab-active') : page.locator('.page-body .ant-breadcrumb li:last-child');
const HOME = '/navigation';

/** Drawn and settled: the calls answered (bounded — a screen that polls never idles) and no spinner left. */
async function settle(page: Page, route: string, title: string): Promise<void> {
  await waitForTitle(page, title);
  await shownTitle(page, route).filter({ hasText: title }).waitFor();
  await page.waitForLoadState('networkidle', { timeout: 8_000 }).catch(() => undefined);
  await page
    .waitForFunction(() => !document.querySelector('.ant-spin-spinning, .ant-skeleton-active, .ant-select-arrow-loading'), undefined, { timeout: 8_000 })
    .catch(() => undefined);
}

/** Filter titles that do not fit their label column, and table headers without a title. */
async function layoutFaults(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const faults: string[] = [];
    for (const label of document.querySelectorAll<HTMLElement>('.renderer-filter-bar .ant-form-item-label')) {
      if (label.scrollWidth > label.clientWidth + 1) faults.push(`filter title cut: ${label.innerText.trim()}`);
    }
    const untitled = '.ant-table-selection-column, .ant-table-row-expand-icon-cell, .ant-table-cell-scrollbar, .ant-table-drag-cell';
    for (const th of document.querySelectorAll<HTMLElement>('.ant-table-thead th')) {
      if (th.matches(untitled) || th.offsetWidth === 0) continue;
      if (!th.innerText.trim() && !th.querySelector('input, svg, img')) faults.push(`untitled column (${th.closest('.ant-card, .renderer-list')?.querySelector('.ant-card-head-title, .renderer-list-title')?.textContent ?? 'table'})`);
    }
    return faults;
  });
}

describe.skipIf(!hasChromium)('every screen of the menu opens cleanly (e2e)', () => {
  const e2e = setupE2e({
    login: ADMIN,
    ready: async ({ page }) => {
      await page.emulateMedia({ reducedMotion: 'reduce' });
      listen(page);
    },
  });

  it('the menu has its screens', () => {
    expect(SCREENS.length).toBeGreaterThan(100);
  });

  it.each(SCREENS)('$route ($title)', async ({ route, title }) => {
    const page = e2e.page;
    seen = { errors: [], calls: [] };
    await page.goto(route);
    await settle(page, route, title);
    await page.mouse.move(1430, 890);
    await screenshot(page, `every-screen${route}`);

    const text = await page.locator('body').innerText();
    expect({
      title: (await shownTitle(page, route).innerText()).trim(),
      errors: seen.errors,
      calls: seen.calls,
      text: FAULTY_TEXT.filter((t) => text.includes(t)),
      layout: await layoutFaults(page),
    }).toEqual({ title, errors: [], calls: [], text: [], layout: [] });
  });
});
