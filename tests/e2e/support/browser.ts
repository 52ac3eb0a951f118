// Debian's Chromium driven by playwright-core, plus the steps most tests share.

import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { browserClockScript } from '../../support/clock-shift';
import { ROOT } from './client';

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
export const hasChromium = fs.existsSync(CHROMIUM);
// A machine without Chromium skips the browser tests; CI must not pass that way (.ci/run installs it).
if (process.env.CI && !hasChromium) throw new Error(`CI: Chromium not found at ${CHROMIUM} — the end-to-end tests cannot run`);
export const SHOTS = path.join(ROOT, 'test-output/e2e');

/** Chromium whose every context runs on the test run's clock (tests/support/clock-shift.ts). */
export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    await context.addInitScript({ content: browserClockScript() });
    return context;
  };
  return browser;
}

export async function newPage(browser: Browser, baseUrl: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseUrl, locale: 'zh-CN', viewport: { width: 1440, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
  const page = await context.newPage();
  return { context, page };
}

/** test-output/e2e/<name>.png; a name with a slash ("procure-to-stock/01-product") goes to a subfolder. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const file = path.join(SHOTS, `${name}.png`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

export interface Account {
  companyCode: string;
  userName: string;
  password: string;
}

export const ADMIN: Account = { companyCode: 'demo', userName: 'admin', password: 'demo123' };
export const CLERK: Account = { companyCode: 'demo', userName: 'clerk', password: 'demo123' };

export async function fillLogin(page: Page, account: Account): Promise<void> {
  await page.goto('/login');
  await page.locator('#login-companyCode').fill(account.companyCode);
  await page.locator('#login-userName').fill(account.userName);
  await page.locator('#login-password').fill(account.password);
  await page.getByRole('button', { name: '登录' }).click();
}

export async function login(page: Page, account: Account): Promise<void> {
  await fillLogin(page, account);
  await page.waitForURL('**/navigation');
  await page.getByTestId('navigation-page').waitFor();
}

/** The text of antd toasts currently shown. */
export async function toastTexts(page: Page): Promise<string[]> {
  return page.locator('.ant-message-notice-content').allInnerTexts();
}

export async function expectToast(page: Page, text: string): Promise<void> {
  await page.locator('.ant-message-notice-content', { hasText: text }).first().waitFor({ timeout: 10_000 });
  expect((await toastTexts(page)).some((t) => t.includes(text))).toBe(true);
}

export function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}

/** A screen inside the layout has drawn its frame: the breadcrumb ends with its title. */
export async function waitForScreen(page: Page, title: string): Promise<void> {
  await page.locator('.page-body .ant-breadcrumb li:last-child', { hasText: title }).waitFor();
  await page.waitForFunction((t) => document.title === t, title);
}

/** Any screen, standalone ones included: the document title is the route's. */
export async function waitForTitle(page: Page, title: string): Promise<void> {
  await page.waitForFunction((t) => document.title === t, title);
}
