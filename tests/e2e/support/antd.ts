// Finding things on screens drawn by the schema renderer (antd + formily), and calling the API as the
// logged-in user, for tests that walk several screens.
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { waitForScreen } from './browser';

/** A regexp matching exactly `s` (surrounding blanks allowed). */
export const exact = (s: string) => new RegExp(`^\\s*${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);

/** A button by its label (antd icons add their own name in front: "plus 新增"). */
export function btn(scope: Page | Locator, label: string): Locator {
  return scope.getByRole('button', { name: new RegExp(`(^|\\s)${label}$`) });
}

/** The form item whose label reads `label`. */
export function item(scope: Page | Locator, label: string): Locator {
  const page = 'page' in scope ? scope.page() : scope;
  return scope.locator('.ant-formily-item').filter({ has: page.locator('.ant-formily-item-label label', { hasText: exact(label) }) });
}

/** Opens the select of a form item and picks the option reading `option` (after its code, if it shows one). */
export async function choose(page: Page, field: Locator, option: string): Promise<void> {
  await field.locator('.ant-select').click();
  const label = new RegExp(`^\\s*(\\S+\\s+)?${option.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: label }).first().click();
}

/** Types a day into the date picker of a form item. */
export async function pickDate(field: Locator, day: string): Promise<void> {
  const input = field.locator('.ant-picker input');
  await input.click();
  await input.fill(day);
  await input.press('Enter');
}

/** A table row holding `text`. */
export function row(scope: Page | Locator, text: string | RegExp): Locator {
  return scope.locator('tr.ant-table-row', { hasText: text });
}

/**
 * The cells of a table row as the user reads them (blanks squeezed): an editable cell gives what its
 * inputs hold ("2 / 1 / 3" for a big/mid/small editor), a select its chosen label.
 */
export async function cells(r: Locator): Promise<string[]> {
  return r.locator('> td').evaluateAll((tds) =>
    tds.map((td) => {
      const chosen = td.querySelector('.ant-select-selection-item');
      if (chosen) return (chosen.textContent ?? '').replace(/\s+/g, ' ').trim();
      const inputs = [...td.querySelectorAll('input')].filter((i) => i.type !== 'hidden' && i.type !== 'checkbox' && i.type !== 'radio' && !i.closest('.ant-select'));
      if (inputs.length) return inputs.map((i) => i.value).join(' / ');
      return (td as HTMLElement).innerText.replace(/\s+/g, ' ').trim();
    }),
  );
}

/** The header titles of the first table in scope. */
export async function headers(scope: Page | Locator): Promise<string[]> {
  return (await scope.locator('.ant-table-thead th').allInnerTexts()).map((s) => s.replace(/\s+/g, ' ').trim());
}

/** Cells of a row by column title: { 商品编码: 'A01', 现有: '57', ... }. */
export async function rowByTitle(scope: Page | Locator, r: Locator): Promise<Record<string, string>> {
  const titles = await headers(scope);
  const values = await cells(r);
  return Object.fromEntries(titles.map((t, i) => [t, values[i] ?? ''] as const).filter(([t]) => t !== ''));
}

export async function openList(page: Page, route: string, title: string): Promise<void> {
  await page.goto(route);
  await waitForScreen(page, title);
  await page.locator('.renderer-list .ant-table').first().waitFor();
  await page.waitForLoadState('networkidle');
}

/** Answers the open Popconfirm (the question must read `question`, when given) with 确定. */
export async function confirmPopup(page: Page, question?: string): Promise<void> {
  const pop = page.locator('.ant-popconfirm:visible');
  await pop.waitFor();
  if (question !== undefined) expect((await pop.locator('.ant-popconfirm-title').innerText()).trim()).toBe(question);
  await btn(pop, '确定').click();
}

export interface ApiEnvelope {
  code: string;
  msg: string;
  data: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** One endpoint call with the page's session (its access token), like the app's own requests. */
export async function callAs(page: Page, family: 'cdm' | 'oms' | 'auth' | 'storage', code: string, body: unknown): Promise<ApiEnvelope> {
  return page.evaluate(
    async ([url, payload]) => {
      const token = localStorage.getItem('tbo.accessToken') ?? '';
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', token }, body: JSON.stringify(payload) });
      return (await res.json()) as { code: string; msg: string; data: unknown };
    },
    [`/${family}/api/${code}`, body] as const,
  ) as Promise<ApiEnvelope>;
}

/** callAs that must succeed: its data. */
export async function apiOk(page: Page, family: 'cdm' | 'oms' | 'auth' | 'storage', code: string, body: unknown): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const env = await callAs(page, family, code, body);
  if (env.code !== '200') throw new Error(`${family} ${code}: ${env.code} ${env.msg} ${JSON.stringify(env.data)}`);
  return env.data;
}
