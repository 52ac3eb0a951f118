// Payables aging and a statement in one currency in Chromium, from the demo company (issue 15's rest): the
// demo accountant (finance / demo123) opens 应付账龄 from the menu's route, finds the supplier of the demo's
// posted purchase invoice (S001) with its open payable and the totals over all suppliers, opens its
// detail and statement; then a client with receivables in CNY and USD (C001) shows its statement in US
// dollars only when 币种 美元 is chosen. Screenshots: test-output/e2e/payables/NN-*.png.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { btn, cells, row, rowByTitle } from './support/antd';
import { hasChromium, screenshot, waitForScreen, type Account } from './support/browser';
import { setupE2e } from './support/setup';

const SHOT_DIR = 'payables';
const FINANCE: Account = { companyCode: 'demo', userName: 'finance', password: 'demo123' };

async function shot(page: Page, name: string): Promise<void> {
  await page.mouse.move(600, 890);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, `${SHOT_DIR}/${name}`);
}

describe.skipIf(!hasChromium)('payables aging and a statement per currency (e2e)', () => {
  const e2e = setupE2e({ login: FINANCE, walk: { shots: SHOT_DIR } });
  let page: Page;
  beforeAll(() => {
    page = e2e.page;
  });

  it('应付账龄 lists the supplier of the posted purchase invoice with its open payable, and the totals', async () => {
    await page.goto('/financial/accounts_payable');
    await waitForScreen(page, '应付账龄');
    const s001 = row(page, 'S001');
    await s001.waitFor();
    const r = await rowByTitle(page.locator('.renderer-list'), s001);
    expect(Number(r.笔数)).toBe(1);
    expect(Number(r.未结合计!.replace(/,/g, ''))).toBeGreaterThan(0);
    // nothing paid ahead to S001 in the demo: the net is the open payable
    expect([r.预付款, r['净额（负数为借方余额）']]).toEqual(['0.00', r.未结合计]);
    await expect.poll(() => page.locator('.renderer-list').innerText()).toContain('全部合计');
    await shot(page, '01-payables-aging');
    await s001.getByText('明细与对账单', { exact: true }).click();
    await expect.poll(() => page.url()).toMatch(/\/financial\/accounts_payable_detail\/\d+$/);
    await waitForScreen(page, '应付账龄详情');
    // The open items list comes first; the statement below it lists the same invoice once it loads.
    await row(page.locator('.renderer-list').first(), 'FP-DEMO-0001').waitFor();
    await expect.poll(() => row(page, 'FP-DEMO-0001').count()).toBe(2);
    await shot(page, '02-payable-detail');
  });

  it('a client\'s statement in US dollars holds only its dollar item, in dollars', async () => {
    await page.goto('/financial/accounts_receivable');
    await waitForScreen(page, '应收账款');
    await row(page, '杭州百货贸易公司').getByText('明细与对账单', { exact: true }).click();
    await waitForScreen(page, '应收账款详情');
    const statement = page.locator('.renderer-list', { hasText: '对账单' }).last();
    const from = statement.locator('.ant-picker input').first();
    await from.click();
    await page.keyboard.type('2026-08-01');
    await page.keyboard.press('Enter');
    await statement.locator('.ant-select').first().click();
    await page.keyboard.type('美元');
    await page.keyboard.press('Enter');
    await btn(statement, '查询').click();
    const closing = row(statement, '期末余额');
    await expect.poll(async () => (await cells(closing)).join('|'), { timeout: 10_000 }).toContain('1,500.00');
    const shown = await Promise.all((await statement.locator('tr.ant-table-row').all()).map((x) => cells(x)));
    // only the dollar item, in dollars (in company currency it is 10,685.10 beside 12,800.00 and 5,600.00 in CNY)
    expect(shown.map((c) => [c[2], c[4], c[5], c[6]])).toEqual([
      ['期初余额', '-', '-', '0.00'],
      ['期初应收', '1,500.00', '-', '1,500.00'],
      ['期末余额', '-', '-', '1,500.00'],
    ]);
    await shot(page, '03-statement-usd');
  });
});
