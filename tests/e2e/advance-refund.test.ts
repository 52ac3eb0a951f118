// 退款单 in Chromium (demo company, accountant finance / demo123): a client's deposit (a receipt allocated
// to nothing: 预收款) is partly paid back. From 预收预付款 the row's 退款 opens a new refund with the client,
// the receipt and its whole unallocated balance on the line; the accountant types the amount refunded
// and the bank account with the keyboard, saves with Ctrl+S, posts, and sees the advance's 未核销余额
// reduced on 预收预付款. Screenshots: test-output/e2e/advance-refund/NN-*.png.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiOk, btn, confirmPopup, item, row, rowByTitle } from './support/antd';
import { expectToast, hasChromium, screenshot, waitForScreen, type Account } from './support/browser';
import { setupE2e } from './support/setup';
import { doc, docNo, expectState, headerValue, lineRows, lines, openedAfterSave } from './support/document';

const SHOT_DIR = 'advance-refund';
const FINANCE: Account = { companyCode: 'demo', userName: 'finance', password: 'demo123' };
const CLIENT = '杭州百货贸易公司';

async function shot(page: Page, name: string): Promise<void> {
  await page.mouse.move(600, 890);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, `${SHOT_DIR}/${name}`);
}

// the advances list (the page also lists prepayment invoices in a table of its own)
const advancesTable = (page: Page) => page.locator('.ant-table', { has: page.locator('th', { hasText: '未核销余额' }) });

describe.skipIf(!hasChromium)('advance refund: 预收预付款 → 退款 → posted, the advance reduced (e2e)', () => {
  const e2e = setupE2e({ login: FINANCE, walk: { shots: SHOT_DIR } });
  let page: Page;
  let receiptNo: string;

  beforeAll(() => {
    page = e2e.page;
  });

  it('a deposit of the client is on 预收预付款 with its 退款 action', async () => {
    // the deposit: a bank receipt of 1,000.00 settling nothing (the client's order was cancelled since)
    // the client as the accountant finds it: on 应收账款 (its opening receivables)
    const aging = await apiOk(page, 'oms', '026201', { page: 1, pageSize: 50 });
    const clientId = aging.list.find((c: { name: string }) => c.name === CLIENT).id;
    const receipt = await apiOk(page, 'oms', '026003', { direction: 'receipt', clientId, amount: '1000.00', method: 'bank', remark: '订金', post: true, lines: [] });
    receiptNo = receipt.docNo;
    await page.goto('/financial/advances');
    await waitForScreen(page, '预收预付款');
    const r = row(advancesTable(page), receiptNo);
    await r.waitFor();
    expect(await rowByTitle(advancesTable(page), r)).toMatchObject({ 类型: '预收款', 往来单位: CLIENT, 未核销余额: '1,000.00' });
    await shot(page, '01-advances-before');
  });

  it('退款 opens a new refund prefilled; the amount typed, saved with Ctrl+S and posted', async () => {
    await row(advancesTable(page), receiptNo).getByText('退款', { exact: true }).click();
    await expect.poll(() => page.url()).toContain('/financial/advance_refund/new?partyType=client&clientId=');
    await doc(page).waitFor();
    await expect.poll(() => lineRows(page).count(), { timeout: 10_000 }).toBe(1);
    expect(await headerValue(page, '客户')).toBe(CLIENT);
    expect((await lines(page)).map((l) => [l.收付款单, l.未核销余额])).toEqual([[receiptNo, '1,000.00']]);
    // the line offers the whole balance: the accountant types what is paid back
    const amount = lineRows(page).nth(0).getByRole('textbox', { name: '退款金额' });
    await expect.poll(() => amount.inputValue()).toBe('1000.00');
    await amount.focus();
    await page.keyboard.press('Control+a');
    await page.keyboard.type('300');
    await page.keyboard.press('Tab');
    await item(doc(page), '收付款账户').locator('input').focus();
    await page.keyboard.type('工商银行 1202 0000 8888');
    await shot(page, '02-refund-typed');
    await page.keyboard.press('Control+s');
    await expectToast(page, '保存成功');
    await openedAfterSave(page, /^\/financial\/advance_refund\/\d+$/);
    await waitForScreen(page, '退款单详情');
    await expectState(page, '草稿');
    expect(await headerValue(page, '退款金额')).toBe('300.00');
    const no = await docNo(page);
    expect(no).toMatch(/^TK/);
    await btn(doc(page), '过账').click();
    await confirmPopup(page, `确定过账退款单“${no}”？过账后按明细冲减预收/预付款。`);
    await expectState(page, '已过账');
    // the line shows the receipt's balance now
    await expect.poll(async () => (await lines(page))[0]?.未核销余额).toBe('700.00');
    await shot(page, '03-refund-posted');
  });

  it('预收预付款 shows the advance reduced by the refund', async () => {
    await page.goto('/financial/advances');
    await waitForScreen(page, '预收预付款');
    const r = row(advancesTable(page), receiptNo);
    await r.waitFor();
    await expect.poll(async () => (await rowByTitle(advancesTable(page), r)).未核销余额).toBe('700.00');
    expect(await rowByTitle(advancesTable(page), r)).toMatchObject({ 已核销: '300.00' });
    await shot(page, '04-advances-after');
  });
});
