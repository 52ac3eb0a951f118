// Sales invoices in Chromium from the demo company (issue 15). Set-up through the API as the demo admin: a
// confirmed order of client C001 (杭州百货贸易公司) for 12 coffee mugs and 10 lids, picked and shipped (its
// delivery note posted). Then the demo sales clerk (sales / demo123, role 销售员) opens 开具销售发票, picks the
// client with the keyboard — the note's shipped lines come in — types the tax rate and a partial quantity
// on the first line, saves with Ctrl+S; the demo accountant (finance / demo123, role 会计) posts it, opens the
// printable invoice (invoiceLook: letterhead, totals per tax rate, the amount in capitals) and finds the
// receivable on 应收账款. Screenshots: test-output/e2e/sales-invoice/NN-*.png.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiOk, btn, confirmPopup, item, openList, row, rowByTitle } from './support/antd';
import { ADMIN, expectToast, hasChromium, login, screenshot, waitForScreen, type Account } from './support/browser';
import { setupE2e } from './support/setup';
import { doc, docNo, expectState, lineRows, lines, openedAfterSave } from './support/document';

const SHOT_DIR = 'sales-invoice';
const SALES: Account = { companyCode: 'demo', userName: 'sales', password: 'demo123' };
const FINANCE: Account = { companyCode: 'demo', userName: 'finance', password: 'demo123' };

async function shot(page: Page, name: string): Promise<void> {
  await page.mouse.move(600, 890);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, `${SHOT_DIR}/${name}`);
}

describe.skipIf(!hasChromium)('sales invoice: invoice a delivered note, post, print, receivable (e2e)', () => {
  let noteNo = '';
  const e2e = setupE2e({
    page: true,
    walk: { shots: SHOT_DIR, pages: () => [['finance', finance]] },
    // the admin ships an order of C001 (opening stock of the mugs and lids first)
    ready: async ({ page }) => {
      await login(page, ADMIN);
      const products = (await apiOk(page, 'cdm', '010201', { page: 1, pageSize: 50 })).list as Array<{ id: number; code: string }>;
      const id = (code: string) => products.find((p) => p.code === code)!.id;
      const wh = ((await apiOk(page, 'cdm', '011001', { page: 1, pageSize: 10 })).list as Array<{ id: number; code: string }>).find((w) => w.code === 'WH01')!.id;
      const locs = (await apiOk(page, 'cdm', '011101', { page: 1, pageSize: 50, warehouseId: wh })).list as Array<{ id: number; lcCode: string }>;
      const at = locs.find((l) => l.lcCode === 'D-01-02')!.id;
      await apiOk(page, 'oms', '022603', { warehouseId: wh, post: true, lines: [{ productId: id('DM-2002'), qty: 12, locationId: at }, { productId: id('DM-2003'), qty: 10, locationId: at }] });
      const clients = (await apiOk(page, 'cdm', '011701', { page: 1, pageSize: 10 })).list as Array<{ id: number; code: string }>;
      const c001 = clients.find((c) => c.code === 'C001')!.id;
      const so = await apiOk(page, 'oms', '020903', { clientId: c001, warehouseId: wh, lines: [{ productId: id('DM-2002'), qty: 12, price: '11.30' }, { productId: id('DM-2003'), qty: 10, price: '1.00' }] });
      await apiOk(page, 'oms', '020905', { id: so.id, version: so.version });
      const order = await apiOk(page, 'oms', '020902', { id: so.id });
      const plan = await apiOk(page, 'oms', '020703', { orderId: so.id, lines: order.lines.map((l: { id: number; qty: number }) => ({ orderLineId: l.id, qty: l.qty })) });
      const confirmed = await apiOk(page, 'oms', '020705', { id: plan.id, version: plan.version });
      await apiOk(page, 'oms', '024003', { taskIds: [confirmed.taskId], post: true });
      noteNo = (await apiOk(page, 'oms', '024103', { taskId: confirmed.taskId, post: true })).docNo;
      await page.evaluate(() => localStorage.clear());
      await login(page, SALES);
    },
  });
  let page: Page;
  let finance: Page | undefined;
  let invoiceNo = '';

  beforeAll(() => {
    page = e2e.page;
  });

  it('the sales clerk invoices part of the delivered note with the keyboard', async () => {
    await page.goto('/market/invoiceDetail');
    await waitForScreen(page, '开具销售发票');
    await doc(page).waitFor();
    // the client: typed, Enter takes the only option left; the note's shipped lines come in
    await item(doc(page), '客户').locator('input').focus();
    await page.keyboard.type('杭州百货');
    await page.keyboard.press('Enter');
    await expect.poll(() => lineRows(page).count(), { timeout: 10_000 }).toBe(2);
    expect((await lines(page)).map((l) => [l.送货单, l.商品编码, l.可开票, l.开票数量])).toEqual([[noteNo, 'DM-2002', '12', '12'], [noteNo, 'DM-2003', '10', '10']]);
    await item(doc(page), '税率（%）').locator('input').focus();
    await page.keyboard.type('13');
    // the mugs: 10 of the 12 on this invoice
    const qty = lineRows(page).nth(0).getByRole('textbox', { name: '开票数量' });
    await qty.focus();
    await page.keyboard.press('Control+a');
    await page.keyboard.type('10');
    await page.keyboard.press('Tab');
    await expect.poll(async () => (await lines(page))[0]?.价税合计).toBe('113.00');
    await shot(page, '01-invoice-typed');
    await page.keyboard.press('Control+s');
    await expectToast(page, '保存成功');
    await openedAfterSave(page, /^\/market\/invoiceDetail\/\d+$/);
    await waitForScreen(page, '销售发票详情');
    await expectState(page, '草稿');
    invoiceNo = await docNo(page);
    expect(invoiceNo).toMatch(/^XF\d+$/);
    expect((await lines(page)).map((l) => [l.商品编码, l.开票数量, l.含税单价, l.价税合计, l.税额])).toEqual([
      ['DM-2002', '10', '11.3000', '113.00', '13.00'], ['DM-2003', '10', '1.0000', '10.00', '1.15'],
    ]);
    // posting is the accountant's: the clerk has no 过账 button
    expect(await btn(doc(page), '过账').count()).toBe(0);
    await shot(page, '02-invoice-saved');
  });

  it('the accountant posts it, prints it and finds the receivable', async () => {
    const other = await e2e.newPage();
    finance = other.page;
    await login(finance, FINANCE);
    await openList(finance, '/market/invoice', '销售发票');
    const r = row(finance.locator('.renderer-list'), invoiceNo);
    await r.waitFor();
    expect((await rowByTitle(finance.locator('.renderer-list'), r)).价税合计).toBe('123.00');
    await r.getByText(invoiceNo).click();
    await waitForScreen(finance, '销售发票详情');
    await btn(doc(finance), '过账').click();
    await confirmPopup(finance, `确定过账销售发票“${invoiceNo}”？过账后生成客户应收款。`);
    await expectState(finance, '已过账');
    await shot(finance, '03-invoice-posted');

    await btn(doc(finance), '打印预览').click();
    await waitForScreen(finance, '发票预览');
    const totals = finance.locator('.renderer-section').filter({ hasText: '价税合计（大写）' });
    await expect.poll(async () => (await totals.innerText()).replace(/\s+/g, ''), { timeout: 10_000 }).toContain('价税合计（大写）壹佰贰拾叁元整');
    const perRate = finance.locator('.renderer-section').filter({ hasText: '按税率合计' });
    expect((await perRate.locator('tbody tr.ant-table-row').allInnerTexts()).map((t) => t.split('\t').map((s) => s.trim()))).toEqual([['13%', '108.85', '14.15', '123.00']]);
    expect(await finance.locator('.renderer-section').filter({ hasText: '购买方' }).innerText()).toContain('杭州百货贸易公司');
    await shot(finance, '04-invoice-look');
    // as printed: the page body alone (menu, tabs and buttons hidden by the print CSS)
    await finance.emulateMedia({ media: 'print' });
    expect(await btn(finance, '打印').isVisible()).toBe(false);
    await screenshot(finance, `${SHOT_DIR}/04b-invoice-print`);
    await finance.emulateMedia({ media: 'screen' });

    await finance.goto('/financial/accounts_receivable_detail/' + (await clientId(finance)));
    await waitForScreen(finance, '应收账款详情');
    // the open items (the statement below lists the invoice too)
    const openItems = finance.locator('.renderer-section').filter({ has: finance.getByText('未结款项', { exact: true }) }).first();
    const item2 = row(openItems, invoiceNo);
    await item2.waitFor();
    expect(await item2.innerText()).toContain('销售发票');
    expect(await item2.innerText()).toContain('123.00');
    await shot(finance, '05-receivable');
  });
});

async function clientId(page: Page): Promise<number> {
  const aging = await apiOk(page, 'oms', '026201', { partyType: 'client', page: 1, pageSize: 50 });
  return Number((aging.list as Array<{ id: number; name: string }>).find((c) => c.name === '杭州百货贸易公司')!.id);
}
