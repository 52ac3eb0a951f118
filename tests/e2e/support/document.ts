// Reading and driving a `document` screen as a clerk does: its frame (number, state tag), its line table
// by column title, a product put on a line as a scanner does, and the navigation a save makes.
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { btn, item, rowByTitle } from './antd';
import { pathOf } from './browser';

/** The document screen's frame: its title, number and state tag. */
export const doc = (page: Page) => page.locator('.renderer-document-screen');
export const stateTag = (page: Page) => doc(page).locator('.ant-card-head-title .ant-tag');
export const docNo = async (page: Page) => (await doc(page).locator('.renderer-document-no').innerText()).trim();
export const lineRows = (page: Page) => doc(page).locator('.renderer-line-table tr.ant-table-row');
export const lineTotals = (page: Page) => doc(page).locator('.renderer-line-table .ant-table-summary tr').first();

export async function expectState(page: Page, label: string): Promise<void> {
  await expect.poll(async () => (await stateTag(page).innerText()).trim(), { timeout: 10_000 }).toBe(label);
}

/** A header field's shown value (inputs of a disabled or read-only document header). */
export async function headerValue(page: Page, label: string): Promise<string> {
  const field = item(doc(page), label);
  const chosen = field.locator('.ant-select-selection-item');
  if (await chosen.count()) return (await chosen.first().innerText()).trim();
  const input = field.locator('input, textarea');
  if (await input.count()) return (await input.first().inputValue()).trim();
  return (await field.locator('.ant-formily-item-control').innerText()).trim();
}

/** Lines of the document's line table by column title. */
export async function lines(page: Page): Promise<Record<string, string>[]> {
  const table = doc(page).locator('.renderer-line-table');
  const out: Record<string, string>[] = [];
  for (const r of await lineRows(page).all()) out.push(await rowByTitle(table, r));
  return out;
}

/** Puts a product on a line as a scanner does: its code typed into the 商品 lookup cell, then Enter. */
export async function pickProduct(page: Page, line: Locator, code: string, label: string): Promise<void> {
  await line.getByRole('combobox', { name: '商品' }).click();
  await page.keyboard.type(code);
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await line.locator('.ant-select-selection-item').innerText()).trim()).toBe(label);
}

/**
 * Saving a new document opens it at its own URL (afterSave). Where the unsaved-changes question gets in
 * the way (the header form is not told it was saved), it is answered 离开 and `onGuard` told where.
 */
export async function openedAfterSave(page: Page, url: RegExp, onGuard?: (path: string) => void): Promise<void> {
  const question = page.locator('.ant-modal-confirm', { hasText: '有未保存的修改' });
  await expect.poll(async () => url.test(pathOf(page)) || (await question.isVisible()), { timeout: 15_000 }).toBe(true);
  if (!url.test(pathOf(page))) {
    onGuard?.(pathOf(page));
    await btn(question, '离开').click();
    await page.waitForURL((u) => url.test(u.pathname));
  }
}
