// The reports of issue 16 walked in Chromium from the demo company, each by the role user who holds it: 开票
// and 直销 by 销售员 (sales), 应收, 应付, 财务 and 其他出入库 by 会计 (finance), 应用使用统计 by the administrator.
// 销售员 also makes a client a dealer on the client form (销售渠道) and sees its sales move to 经销.
// On each: open it, switch the grouping by clicking, type a filter, read a row against the report's own
// call, see 全部合计 and the chart, start 后台导出 and find the file finished in 导出中心 (only the account that
// started it sees it). The demo's confirmed order is shipped first (its plan confirmed, picked — the cups short,
// they are not put away yet — and delivered) so 开票 has deliveries. Screenshots: test-output/e2e/report-walks/NN-*.png.
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { EXPORT_CENTRE_TEXT } from '../../src/client/renderer/actions/export';
import { apiOk, btn, cells, choose, item, row, rowByTitle } from './support/antd';
import { ADMIN, expectToast, hasChromium, login, screenshot, waitForScreen, type Account } from './support/browser';
import { setupE2e } from './support/setup';

const SHOT_DIR = 'report-walks';
const SALES: Account = { companyCode: 'demo', userName: 'sales', password: 'demo123' };
const FINANCE: Account = { companyCode: 'demo', userName: 'finance', password: 'demo123' };

/** A company day (UTC+8, the demo company's) `offset` days from now. */
const companyDay = (offset = 0) => new Date(Date.now() + 8 * 3_600_000 + offset * 86_400_000).toISOString().slice(0, 10);
const money = (s: string) => Number(s).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

let n = 0;
async function shot(page: Page, name: string): Promise<void> {
  await page.mouse.move(600, 890);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, `${SHOT_DIR}/${String(++n).padStart(2, '0')}-${name}`);
}

const table = (page: Page) => page.locator('.renderer-list').first();

async function open(page: Page, route: string, title: string): Promise<void> {
  await page.goto(route);
  await waitForScreen(page, title);
  await table(page).locator('.ant-table').first().waitFor();
}

/** Clicks a grouping and waits for a row holding `text`. */
async function groupBy(page: Page, label: string, text: string | RegExp): Promise<void> {
  await page.locator('.renderer-report-groupings').getByText(label, { exact: true }).click();
  await row(table(page), text).first().waitFor();
}

/** Types into a text filter (by its placeholder) and presses Enter. */
async function typeFilter(page: Page, placeholder: string, text: string): Promise<void> {
  await page.getByPlaceholder(placeholder).focus();
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}

/** Types a date range into the range picker of the filter form (the start day confirmed with Tab or
 *  Enter, as clerks do both), then 查询. */
async function typeRange(page: Page, from: string, to: string, confirm: 'Tab' | 'Enter' = 'Tab'): Promise<void> {
  const inputs = page.locator('.renderer-list .ant-picker-range input');
  await inputs.first().click();
  await page.keyboard.type(from);
  // either key takes the start day and moves the caret to the end day (Enter once lost the start day)
  await page.keyboard.press(confirm);
  await expect.poll(() => inputs.nth(1).evaluate((el) => el === document.activeElement)).toBe(true);
  await page.keyboard.type(to);
  await page.keyboard.press('Enter');
  await expect.poll(async () => [await inputs.first().inputValue(), await inputs.nth(1).inputValue()]).toEqual([from, to]);
  // both whole dates are in view (the filter column of a range is wider than the others': not "2026-10·")
  expect(await inputs.evaluateAll((els) => els.map((el) => (el as HTMLInputElement).scrollWidth <= (el as HTMLInputElement).clientWidth))).toEqual([true, true]);
  await btn(page, '查询').first().click();
}

/** A row's cell under a column title, once it reads `expected` (the list reloads after a filter). */
async function expectCell(page: Page, text: string | RegExp, column: string, expected: string): Promise<void> {
  await expect.poll(async () => (await rowByTitle(table(page), row(table(page), text).first()))[column], { timeout: 10_000 }).toBe(expected);
}

/** The grand totals row (全部合计, or 合计 where page sums mean nothing) holds `value`, and the chart is drawn. */
async function totalsAndChart(page: Page, value: string, label = '全部合计'): Promise<void> {
  const all = table(page).locator('.ant-table-summary tr', { hasText: label });
  await expect.poll(async () => cells(all), { timeout: 10_000 }).toEqual(expect.arrayContaining([value]));
  await page.locator('.renderer-report-chart').first().locator('svg, canvas').first().waitFor();
}

/** 后台导出, then the job in 导出中心 until it reads 已完成. */
async function exportToCentre(page: Page, jobName: string, name: string): Promise<void> {
  await btn(page, '后台导出').first().click();
  await expectToast(page, EXPORT_CENTRE_TEXT);
  await page.goto('/reportForms/download');
  await waitForScreen(page, '导出中心');
  const job = row(page, jobName).first();
  await expect.poll(async () => {
    await btn(page, '刷新').first().click().catch(() => undefined);
    return (await cells(job)).join('|');
  }, { timeout: 20_000, interval: 500 }).toContain('已完成');
  await shot(page, `${name}-export-centre`);
}

describe.skipIf(!hasChromium)('report walks by role (e2e)', () => {
  let sales: Page | undefined;
  let finance: Page | undefined;
  const e2e = setupE2e({
    login: ADMIN,
    walk: { shots: SHOT_DIR, pages: () => [['sales', sales], ['finance', finance]] },
    // the demo's confirmed order shipped: its draft plan confirmed, the task picked and delivered
    ready: async ({ page }) => {
      const plans = await apiOk(page, 'oms', '020701', { page: 1, pageSize: 20 });
      const plan = plans.list.find((p: any) => p.status === 'draft');
      const confirmed = await apiOk(page, 'oms', '020705', { id: plan.id, version: plan.version });
      // the cups are still at the receiving place (their putaway is a draft): picked short, as 0
      const draft = await apiOk(page, 'oms', '024003', { taskIds: [confirmed.taskId] });
      const picking = await apiOk(page, 'oms', '024002', { id: draft.id });
      await apiOk(page, 'oms', '024003', {
        id: picking.id, version: picking.version, post: true,
        lines: picking.lines.map((l: any) => ({ taskLineId: l.taskLineId, qty: l.qty, suggestedLocationId: l.suggestedLocationId, pickedQty: l.suggestedLocationId ? l.qty : 0 })),
      });
      await apiOk(page, 'oms', '024103', { taskId: confirmed.taskId, post: true });
    },
  });
  const roleContexts: Array<{ close(): Promise<void> }> = [];

  afterAll(async () => {
    for (const c of roleContexts) await c.close();
  });

  async function as(account: Account): Promise<Page> {
    const { context, page } = await e2e.newPage();
    roleContexts.push(context);
    await login(page, account);
    return page;
  }

  it('开票报表 (sales): by client the 500 delivered (the cups picked short), not yet invoiced; a typed product; exported to 导出中心', async () => {
    sales = await as(SALES);
    const page = sales;
    await open(page, '/reportForms/makeBallot', '开票报表');
    await groupBy(page, '按客户', '上海优品百货有限公司');
    await expectCell(page, '上海优品百货有限公司', '发货数量', '500');
    await expectCell(page, '上海优品百货有限公司', '已发货未开票', '500');
    // the cups were not shipped: typed, the client's row goes; the other product brings it back
    await typeFilter(page, '商品编码 / 条码 / 名称', 'DM-2001');
    await expect.poll(() => row(table(page), '上海优品百货有限公司').count(), { timeout: 10_000 }).toBe(0);
    await page.getByPlaceholder('商品编码 / 条码 / 名称').fill('');
    await typeFilter(page, '商品编码 / 条码 / 名称', 'DM-1001');
    await expectCell(page, '上海优品百货有限公司', '发货数量', '500');
    await totalsAndChart(page, '500');
    await shot(page, 'makeBallot-by-client');
    await exportToCentre(page, '导出开票报表', 'makeBallot');
  });

  it('直销报表 (sales): the direct client\'s 600.00 by month and by client; a typed product narrows it; exported', async () => {
    const page = sales!;
    await open(page, '/reportForms/direct_selling', '直销报表');
    const month = companyDay().slice(0, 7);
    await expectCell(page, month, '直销金额', '600.00');
    await groupBy(page, '按客户', '上海优品百货有限公司');
    const seen = await rowByTitle(table(page), row(table(page), '上海优品百货有限公司').first());
    expect([seen.直销金额, seen.经销金额, seen.销售金额合计]).toEqual(['600.00', '0.00', '600.00']);
    await typeFilter(page, '商品编码 / 条码 / 名称', 'DM-2001');
    await expectCell(page, '上海优品百货有限公司', '直销金额', '300.00');
    await totalsAndChart(page, '300.00');
    await shot(page, 'direct-selling-by-client');
    await exportToCentre(page, '导出直销报表', 'direct-selling');
  });

  it('the client form\'s 销售渠道: 上海优品 made a dealer (经销 chosen, Ctrl+S) moves its 600.00 to the 经销 columns', async () => {
    const page = sales!;
    await page.goto('/market/client');
    await waitForScreen(page, '客户');
    const client = row(table(page), '上海优品百货有限公司').first();
    await btn(client, '编辑').click();
    const dialog = page.locator('.ant-modal:visible');
    await choose(page, item(dialog, '销售渠道'), '经销');
    await shot(page, 'client-channel-form');
    await page.keyboard.press('Control+s');
    await expect.poll(() => page.locator('.ant-modal:visible').count(), { timeout: 10_000 }).toBe(0);
    await expect.poll(async () => (await rowByTitle(table(page), client)).销售渠道, { timeout: 10_000 }).toBe('经销');
    await open(page, '/reportForms/direct_selling', '直销报表');
    await groupBy(page, '按客户', '上海优品百货有限公司');
    const seen = await rowByTitle(table(page), row(table(page), '上海优品百货有限公司').first());
    expect([seen.直销金额, seen.经销数量, seen.经销金额, seen.销售金额合计]).toEqual(['0.00', '512', '600.00', '600.00']);
    await shot(page, 'direct-selling-dealer');
  });

  it('应收账龄报表 (finance): by client, a typed date range; figures as the report answers them; exported', async () => {
    finance = await as(FINANCE);
    const page = finance;
    await open(page, '/reportForms/receivable', '应收账龄报表');
    await groupBy(page, '按客户', 'C001');
    await typeRange(page, '2026-10-01', companyDay());
    const api = await apiOk(page, 'oms', '023123', { page: 1, pageSize: 50, groupBy: 'client', filters: { dateRange: ['2026-10-01', companyDay()] } });
    const c001 = api.list.find((r: any) => r.clientCode === 'C001');
    // the opening items of 10-20 (5,600.00) and 11-01 (USD, at its rate); the 08-15 one falls before the range
    expect(Number(c001.amount)).toBeGreaterThan(5600);
    await expectCell(page, 'C001', '应收金额', money(c001.amount));
    await totalsAndChart(page, money(api.totals.amount));
    await shot(page, 'receivable-by-client');
    await exportToCentre(page, '导出应收报表', 'receivable');
  });

  it('应付报表 (finance): by supplier, a typed date range; the posted purchase invoice; exported', async () => {
    const page = finance!;
    await open(page, '/reportForms/dealWith', '应付报表');
    const api = await apiOk(page, 'oms', '023125', { page: 1, pageSize: 50, groupBy: 'supplier', filters: { dateRange: ['2026-01-01', companyDay()] } });
    expect(api.list.length).toBeGreaterThan(0);
    const first = api.list[0];
    await groupBy(page, '按供应商', first.supplierCode);
    await typeRange(page, '2026-01-01', companyDay(), 'Enter');
    await expectCell(page, first.supplierCode, '应付金额', money(first.amount));
    await totalsAndChart(page, money(api.totals.amount));
    await shot(page, 'dealWith-by-supplier');
    await exportToCentre(page, '导出应付报表', 'dealWith');
  });

  it('财务报表 (finance): by method, the bank receipt and the cheque; a typed date range leaves the cheque; exported', async () => {
    const page = finance!;
    await open(page, '/reportForms/finance', '财务报表');
    const api = await apiOk(page, 'oms', '023127', { page: 1, pageSize: 50, groupBy: 'method', filters: {} });
    const bank = api.list.find((r: any) => r.method === 'bank');
    await groupBy(page, '按结算方式', bank.methodText);
    await expectCell(page, bank.methodText, '收款金额', money(bank.receiptAmount));
    expect(await row(table(page), '支票').count()).toBe(1);
    // October only: the bank receipt of 10-08, not the cheque of 11-12
    await typeRange(page, '2026-10-01', '2026-10-31');
    await expect.poll(() => row(table(page), '支票').count(), { timeout: 10_000 }).toBe(0);
    await expectCell(page, bank.methodText, '收款金额', '5,000.00');
    await totalsAndChart(page, '5,000.00');
    await shot(page, 'finance-by-method');
    await exportToCentre(page, '导出财务报表', 'finance');
  });

  it('其他出入库报表 (finance): by type the putaways and picking (库内移库), by warehouse, a typed product; exported', async () => {
    const page = finance!;
    await open(page, '/reportForms/other', '其他出入库报表');
    const byType = await apiOk(page, 'oms', '023133', { page: 1, pageSize: 50, groupBy: 'type', filters: {} });
    const transfer = byType.list.find((r: any) => r.moveType === 'transfer');
    expect(transfer.inQty).toBeGreaterThan(0);
    await expectCell(page, '库内移库', '入库数量', transfer.inQty.toLocaleString('en-US'));
    await groupBy(page, '按仓库', '主仓库');
    await typeFilter(page, '商品编码 / 条码 / 名称', 'DM-1001');
    const one = await apiOk(page, 'oms', '023133', { page: 1, pageSize: 50, groupBy: 'warehouse', filters: { product: 'DM-1001' } });
    await expectCell(page, '主仓库', '入库金额（参考价）', money(one.list[0].inValue));
    await totalsAndChart(page, money(one.totals.inValue));
    await shot(page, 'other-by-warehouse');
    await exportToCentre(page, '导出其他出入库报表', 'other');
  });

  it('应用使用统计 (admin): today\'s logins by day, the role users by user, a typed user name, by module; exported', async () => {
    const page = e2e.page;
    await open(page, '/reportForms/app', '应用使用统计');
    const today = companyDay();
    await row(table(page), today).first().waitFor();
    const seen = await rowByTitle(table(page), row(table(page), today).first());
    // admin, sales and finance logged in today
    expect(Number(seen.活跃用户数)).toBeGreaterThanOrEqual(3);
    expect(Number(seen.登录次数)).toBeGreaterThanOrEqual(3);
    await groupBy(page, '按用户', 'finance');
    expect(await row(table(page), 'sales').count()).toBe(1);
    await typeFilter(page, '账号（可输入一部分）', 'fin');
    await expect.poll(async () => (await table(page).locator('tr.ant-table-row').allInnerTexts()).map((t) => t.split(/\s/)[0]), { timeout: 10_000 }).toEqual(['finance']);
    // one user left: 活跃用户数 1 in 合计 (a distinct count: no 本页合计 of it)
    await totalsAndChart(page, '1', '合计');
    expect(await table(page).locator('.ant-table-summary tr', { hasText: '本页合计' }).count()).toBe(0);
    await shot(page, 'app-by-user');
    await groupBy(page, '按模块', '报表');
    await row(table(page), '（登录，不分模块）').first().waitFor();
    await shot(page, 'app-by-module');
    await exportToCentre(page, '导出应用使用统计', 'app');
  });
});
