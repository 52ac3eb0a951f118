// Shared files in Chromium (issue 17, /a/{id}): the administrator shares a finished export from 导出中心
// by clicking 分享 (1 天, at most 3 downloads), copies the link; a fresh browser with no login — a phone's
// width — opens the link and downloads the file (the bytes are the export's); 我的分享 counts the download;
// a second link revoked there says so when opened; and once the server's clock has moved past the day, the
// first link's page says it has expired. Screenshots: test-output/e2e/file-share/NN-*.png.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOk, btn, cells, choose, confirmPopup, item, row, rowByTitle } from './support/antd';
import { ADMIN, expectToast, hasChromium, pathOf, screenshot, waitForScreen, waitForTitle } from './support/browser';
import { setupE2e } from './support/setup';

const SHOT_DIR = 'file-share';
const DAY = 24 * 3600 * 1000;
const clockDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tbo-clock-'));
const clockFile = path.join(clockDir, 'offset-ms');
const NO_MOTION = '*, *::before, *::after { transition: none !important; animation: none !important; }';

async function shot(page: Page, name: string): Promise<void> {
  await screenshot(page, `${SHOT_DIR}/${name}`);
}

/** Pages of this file draw without animations (a modal is there or not, never half-way). */
async function still(context: BrowserContext): Promise<void> {
  await context.addInitScript((css) => {
    document.addEventListener('DOMContentLoaded', () => {
      const style = document.createElement('style');
      style.textContent = css;
      document.head.appendChild(style);
    });
  }, NO_MOTION);
}

describe.skipIf(!hasChromium)('shared files: /a/{id} (e2e)', () => {
  const e2e = setupE2e({
    server: { env: { TEST_HOOK_CLOCK_FILE: clockFile } },
    before: () => fs.writeFileSync(clockFile, '0'),
    after: () => fs.rmSync(clockDir, { recursive: true, force: true }),
    login: ADMIN,
    walk: { shots: SHOT_DIR, pages: () => [['', e2e.page], ['guest', guest]] },
  });
  let page: Page;
  let guest: Page | undefined;
  let guestContext: BrowserContext | undefined;
  let link = '';
  let exportBytes: Buffer;

  beforeAll(async () => {
    page = e2e.page;
    await still(e2e.context);
  });
  afterAll(async () => guestContext?.close());

  it('shares a finished export from 导出中心 by clicking, and copies the link', async () => {
    // The export itself: the department list, run in the background as the export centre does.
    const job = await apiOk(page, 'cdm', '019901', { api: 'cdm:012905', body: {} });
    await page.goto('/reportForms/download');
    await waitForScreen(page, '导出中心');
    const jobRow = row(page, '导出部门');
    await expect.poll(async () => {
      await btn(page, '刷新').first().click().catch(() => undefined);
      return (await cells(jobRow.first())).join('|');
    }, { timeout: 20_000, interval: 500 }).toContain('已完成');
    exportBytes = Buffer.from(await page.evaluate(async (id) => {
      const res = await fetch('/cdm/api/019903', { method: 'POST', headers: { 'content-type': 'application/json', token: localStorage.getItem('tbo.accessToken') ?? '' }, body: JSON.stringify({ id }) });
      return Array.from(new Uint8Array(await res.arrayBuffer()));
    }, job.id));
    expect(exportBytes.subarray(0, 2).toString()).toBe('PK');

    await btn(jobRow.first(), '分享').click();
    const form = page.locator('.ant-modal', { hasText: '分享文件' });
    await form.waitFor();
    expect(await item(form, '文件').locator('input').inputValue()).toMatch(/^部门.*\.xlsx$/);
    await choose(page, item(form, '有效期'), '1 天');
    await item(form, '最多下载次数').locator('input').click();
    await page.keyboard.type('3');
    await shot(page, '01-share-form');
    await btn(form, '生成链接').click();

    const made = page.locator('.ant-modal', { hasText: '分享链接' });
    await made.waitFor();
    link = await made.getByLabel('分享链接').inputValue();
    expect(link).toMatch(new RegExp(`^${e2e.server.baseUrl}/a/[A-Za-z0-9]{22}$`));
    expect(await made.innerText()).toContain('最多下载 3 次');
    await btn(made, '复制链接').click();
    await expectToast(page, '复制成功');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await shot(page, '02-share-link');
    await btn(made, '关闭').click();
  });

  it('opens the link in a fresh browser with no login, on a phone, and downloads the file', async () => {
    ({ context: guestContext, page: guest } = await e2e.newPage());
    await still(guestContext);
    await guest.setViewportSize({ width: 390, height: 844 });
    await guest.goto(link);
    await waitForTitle(guest, '文件下载');
    const card = guest.locator('.download-page-card');
    await btn(card, '下载').waitFor();
    expect(pathOf(guest)).toBe(new URL(link).pathname); // no login redirect
    expect(await guest.evaluate(() => localStorage.getItem('tbo.accessToken'))).toBeNull();
    const text = await card.innerText();
    expect(text).toMatch(/部门.*\.xlsx/);
    expect(text).toContain('剩余下载次数');
    expect(text).toContain('3 次');
    expect(text).toMatch(/有效期至\s*\d{4}-\d{2}-\d{2} \d{2}:\d{2}（UTC[+-]\d+）/);
    expect(text).not.toContain('演示贸易');
    await shot(guest, '03-guest-page');

    const [download] = await Promise.all([guest.waitForEvent('download'), btn(card, '下载').click()]);
    expect(download.suggestedFilename()).toMatch(/^部门.*\.xlsx$/);
    const saved = fs.readFileSync((await download.path())!);
    expect(saved.equals(exportBytes)).toBe(true);
    await card.getByText('文件已开始下载').waitFor();
    expect(await card.innerText()).toContain('2 次');
    await shot(guest, '04-guest-downloaded');
  });

  it('counts the download in 我的分享; a second link revoked there says so', async () => {
    await page.goto('/reportForms/download');
    await waitForScreen(page, '导出中心');
    await btn(page, '我的分享').click();
    await waitForScreen(page, '我的分享');
    await page.locator('.renderer-list .ant-table-row').first().waitFor();
    const shared = await rowByTitle(page, page.locator('.renderer-list .ant-table-row').first());
    expect(shared).toMatchObject({ 状态: '有效', '已下载 / 上限': '1 / 3', 来源: '导出文件' });

    // A second link of the same file, then revoked by clicking.
    const second = await apiOk(page, 'storage', '980201', { kind: 'export', exportJobId: (await apiOk(page, 'cdm', '019902', { page: 1, pageSize: 5 })).list[0].id, days: 7 });
    await btn(page, '刷新').first().click();
    const secondRow = page.locator('.renderer-list .ant-table-row').first();
    await expect.poll(async () => (await rowByTitle(page, secondRow))['已下载 / 上限']).toBe('0 / 不限');
    await btn(secondRow, '撤销').click();
    await confirmPopup(page);
    await expectToast(page, '已撤销');
    await expect.poll(async () => (await rowByTitle(page, secondRow)).状态).toBe('已撤销');
    await shot(page, '05-my-shares');

    await guest!.goto(`${e2e.server.baseUrl}${second.path}`);
    await guest!.locator('.download-page-card .ant-result-title', { hasText: '链接已被分享人撤销，请联系分享人' }).waitFor();
    expect(await btn(guest!, '下载').count()).toBe(0);
    await shot(guest!, '06-guest-revoked');
  });

  it('after the server clock passes the day, the page says the link has expired', async () => {
    fs.writeFileSync(clockFile, String(DAY + 60_000));
    await guest!.goto(link);
    await waitForTitle(guest!, '文件下载');
    await guest!.locator('.download-page-card .ant-result-title', { hasText: '链接已过期，请联系分享人重新分享' }).waitFor();
    expect(await btn(guest!, '下载').count()).toBe(0);
    await shot(guest!, '07-guest-expired');
    await btn(page, '刷新').first().click();
    const firstRow = page.locator('.renderer-list .ant-table-row').nth(1);
    await expect.poll(async () => (await rowByTitle(page, firstRow)).状态).toBe('已过期');
    await shot(page, '08-my-shares-expired');

    // 全部分享: every link of the company, with who shared it (the administrator holds that right).
    await btn(page, '全部分享').click();
    await waitForScreen(page, '全部分享');
    await page.locator('.renderer-list .ant-table-row').first().waitFor();
    const all = await rowByTitle(page, page.locator('.renderer-list .ant-table-row').first());
    expect(all).toMatchObject({ 分享人: 'admin', 状态: '已撤销' });
    await shot(page, '09-all-shares');
  });
});
