// Finance in Chromium from the demo company a new user gets (issue 15): the demo accountant (finance /
// demo123, role 会计) opens a client's open receivables, records a partial receipt against one open item
// typing with the keyboard (amounts typed, Ctrl+S saves, the post is confirmed), uses the 500.00 left over
// against the next item on the document's 核销 form, and sees the item's open amount, the aging with its totals and the client's statement.
// Screenshots: test-output/e2e/finance/NN-*.png.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { btn, cells, choose, confirmPopup, item, row, rowByTitle } from './support/antd';
import { expectToast, hasChromium, screenshot, waitForScreen, type Account } from './support/browser';
import { setupE2e } from './support/setup';
import { doc, docNo, expectState, lineRows, lines, openedAfterSave } from './support/document';

const SHOT_DIR = 'finance';
const FINANCE: Account = { companyCode: 'demo', userName: 'finance', password: 'demo123' };

async function shot(page: Page, name: string): Promise<void> {
  await page.mouse.move(600, 890);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, `${SHOT_DIR}/${name}`);
}

describe.skipIf(!hasChromium)('finance: partial receipt, aging and statement (e2e)', () => {
  const e2e = setupE2e({ login: FINANCE, walk: { shots: SHOT_DIR } });
  let page: Page;

  beforeAll(() => {
    page = e2e.page;
  });


  it('the accountant records a partial receipt against the oldest open item of a client, with the keyboard', async () => {
    await page.goto('/financial/accounts_receivable');
    await waitForScreen(page, '应收账款');
    const hangzhou = row(page, '杭州百货贸易公司');
    await hangzhou.waitFor();
    await shot(page, '01-aging-before');
    await hangzhou.getByText('收款', { exact: true }).click();
    await expect.poll(() => page.url()).toContain('/financial/pay_document_detail/new?direction=receipt&clientId=');
    await doc(page).waitFor();
    // the client came with the link: its three open items are on the lines, oldest due first
    await expect.poll(() => lineRows(page).count(), { timeout: 10_000 }).toBe(3);
    expect((await lines(page)).map((l) => [l.币种, l.未结金额])).toEqual([['CNY', '7,800.00'], ['CNY', '5,600.00'], ['USD', '1,500.00']]);
    const secondNo = (await lines(page))[1]!.款项单号!;
    expect(secondNo).toMatch(/^QC\d+$/);

    // typed as a clerk does: the date, the amount, the bank account, then the part of the oldest item it settles
    const date = item(doc(page), '收付日期').locator('.ant-picker input');
    await date.click();
    await page.keyboard.type('2026-11-26');
    await page.keyboard.press('Enter');
    await item(doc(page), '金额').locator('input').focus();
    await page.keyboard.type('2500');
    await item(doc(page), '收付款账户').locator('input').focus();
    await page.keyboard.type('工商银行 1202 0000 8888');
    await lineRows(page).nth(0).getByRole('textbox', { name: '本次核销' }).focus();
    await page.keyboard.type('2000');
    await page.keyboard.press('Tab');
    await shot(page, '02-receipt-typed');
    await page.keyboard.press('Control+s');
    await expectToast(page, '保存成功');
    await openedAfterSave(page, /^\/financial\/pay_document_detail\/\d+$/);
    await waitForScreen(page, '收付款单详情');
    await expectState(page, '草稿');
    const no = await docNo(page);
    // a receipt says it is one: the heading and its tab read 收款单, and the （新建） tab gave way to it (issue 30)
    await page.locator('.renderer-document-screen .ant-card-head-title', { hasText: '收款单' }).waitFor();
    await page.locator('.page-tabs .ant-tabs-tab', { hasText: `收款单（${no}）` }).waitFor();
    expect(await page.locator('.page-tabs .ant-tabs-tab', { hasText: '新建' }).count()).toBe(0);
    // the lines left without an amount settle nothing and are not kept
    expect((await lines(page)).map((l) => [l.本次核销, l.未结金额])).toEqual([['2000.00', '7,800.00']]);
    await btn(doc(page), '过账').click();
    await confirmPopup(page, `确定过账收付款单“${no}”？过账后按明细核销应收应付款，未核销部分转为预收/预付款。`);
    await expectState(page, '已过账');
    await expect.poll(async () => (await lines(page))[0]?.未结金额).toBe('5,800.00');
    await shot(page, '03-receipt-posted');
    // the 500.00 left is an advance: used at once against the next item, its number typed
    await btn(doc(page), '核销预收/预付').click();
    const dialog = page.locator('.ant-modal:visible');
    await item(dialog, '款项单号').locator('input').focus();
    await page.keyboard.type(secondNo);
    await item(dialog, '核销金额').locator('input').focus();
    await page.keyboard.type('500');
    await shot(page, '04-advance-form');
    await btn(dialog, '核销').click();
    await expectToast(page, '已核销');
    // the allocation ledger under the lines: both settlements, in the item's currency and the company's
    const ledger = page.locator('.renderer-section').filter({ hasText: '核销流水' });
    await expect.poll(async () => (await ledger.locator('tbody tr.ant-table-row').allInnerTexts()).length).toBe(2);
    const rows = await ledger.locator('tbody tr.ant-table-row').allInnerTexts();
    expect(rows.map((r) => r.split('\t').slice(1, 3))).toEqual([['核销', expect.stringMatching(/^QC\d+$/)], ['核销', secondNo]]);
    expect(rows.map((r) => r.split('\t')[4])).toEqual(['2,000.00', '500.00']);
    await shot(page, '04b-allocations');
  });

  it('sees the aging (buckets and totals) and the client statement', async () => {
    await page.goto('/financial/accounts_receivable');
    await waitForScreen(page, '应收账款');
    const day = page.locator('.ant-picker input').first();
    await day.click();
    await page.keyboard.type('2026-11-26');
    await page.keyboard.press('Enter');
    await btn(page, '查询').click();
    const hangzhou = row(page, '杭州百货贸易公司');
    await expect.poll(async () => (await cells(hangzhou)).join('|'), { timeout: 10_000 }).toContain('5,100.00');
    const table = page.locator('.renderer-list').first();
    const r = await rowByTitle(table, hangzhou);
    // 1,500.00 USD at 7.1234 not yet due; 5,600.00 − 500.00 overdue 7 days; 7,800.00 − 2,000.00 overdue 73 days
    expect([r.未到期, r['逾期1-30天'], r['逾期61-90天'], r.未结合计]).toEqual(['10,685.10', '5,100.00', '5,800.00', '21,585.10']);
    const all = table.locator('.ant-table-summary tr', { hasText: '全部合计' });
    expect(await cells(all)).toEqual(expect.arrayContaining(['全部合计', '18,685.10', '5,100.00', '5,800.00', '29,585.10']));
    await shot(page, '05-aging-after');

    await hangzhou.getByText('明细与对账单', { exact: true }).click();
    await waitForScreen(page, '应收账款详情');
    const statement = page.locator('.renderer-list', { hasText: '对账单' }).last();
    const from = statement.locator('.ant-picker input').first();
    await from.click();
    await page.keyboard.type('2026-11-01');
    await page.keyboard.press('Enter');
    const to = statement.locator('.ant-picker input').nth(1);
    await to.click();
    await page.keyboard.type('2026-11-30');
    await page.keyboard.press('Enter');
    await btn(statement, '查询').click();
    const closing = row(statement, '期末余额');
    await expect.poll(async () => (await cells(closing)).join('|'), { timeout: 10_000 }).toContain('21,585.10');
    const shown = await Promise.all((await statement.locator('tr.ant-table-row').all()).map((x) => cells(x)));
    expect(shown.map((c) => [c[2], c[4], c[5], c[6]])).toEqual([
      ['期初余额', '-', '-', '13,400.00'],
      ['期初应收', '10,685.10', '-', '24,085.10'],
      ['收款核销', '-', '2,500.00', '21,585.10'],
      ['期末余额', '-', '-', '21,585.10'],
    ]);
    await shot(page, '06-statement');
  });

  it('the finance desk lists what is overdue, maturing and waiting, each opening its screen', async () => {
    await page.goto('/financial/workBench');
    await waitForScreen(page, '财务工作台');
    const desk = page.locator('.renderer-list').first();
    const days = desk.getByPlaceholder('默认 7 天');
    await days.focus();
    await page.keyboard.type('30');
    await page.keyboard.press('Enter');
    // the demo's post-dated cheque of 上海优品 (due 2026-12-05) and the overdue receivables of 杭州百货
    const cheque = row(desk, '支票 ZP 20261205-01');
    await cheque.waitFor();
    await expect.poll(async () => (await desk.locator('tr.ant-table-row', { hasText: '逾期应收' }).count())).toBeGreaterThan(0);
    await shot(page, '07-work-bench');
    await cheque.getByRole('link').first().click();
    await waitForScreen(page, '到期支票');
  });

  it('registers an opening receivable from the aging list', async () => {
    await page.goto('/financial/accounts_receivable');
    await waitForScreen(page, '应收账款');
    const shanghai = row(page, '上海优品百货有限公司');
    await expect.poll(async () => (await cells(shanghai)).join('|'), { timeout: 10_000 }).toContain('8,000.00');
    await btn(page, '新增期初应收').click();
    const dialog = page.locator('.ant-modal:visible');
    await choose(page, item(dialog, '客户'), '上海优品百货有限公司');
    await item(dialog, '原单号').locator('input').focus();
    await page.keyboard.type('XS-2026-1115');
    await item(dialog, '金额').locator('input').focus();
    await page.keyboard.type('1000');
    await shot(page, '08-opening-form');
    await btn(dialog, '保存').click();
    await expectToast(page, '已登记期初应收');
    await expect.poll(async () => (await rowByTitle(page.locator('.renderer-list').first(), shanghai)).未结合计, { timeout: 10_000 }).toBe('9,000.00');
  });
});
