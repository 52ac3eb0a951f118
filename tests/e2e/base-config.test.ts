// The basic-settings module (/baseConfig) in Chromium against the real server on a fresh database,
// every screen drawn from its schema: as admin, a currency and a rate (and the rate in force on a day);
// a role with a few rights and an account holding it, whose user then sees only those menu entries
// and buttons; column settings saved on the server and found again in a new browser; export, then
// import of the same file with one row broken (the error report, nothing written); the server's field
// message on a form; a mail sent through a local SMTP server started here; and every /baseConfig route
// drawn without a schema error. Screenshots go to test-output/e2e/base-config-*.png.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startSmtp, type TestSmtp } from '../integration/smtp';
import { ADMIN, expectToast, fillLogin, hasChromium, login, pathOf, screenshot, waitForScreen, type Account } from './support/browser';
import { setupE2e } from './support/setup';
import { choose as chooseOption } from './support/antd';

const VIEWER: Account = { companyCode: 'demo', userName: 'rateviewer', password: 'viewer123' };

// ---------------------------------------------------------------------------------- antd helpers

const exact = (s: string) => new RegExp(`^\\s*${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);

/** A button by its label (antd icons add their own name in front: "plus 新增"). */
function btn(scope: Page | Locator, label: string): Locator {
  return scope.getByRole('button', { name: new RegExp(`(^|\\s)${label}$`) });
}

/** The form item whose label reads `label`. */
function item(scope: Page | Locator, label: string): Locator {
  const page = 'page' in scope ? scope.page() : scope;
  return scope.locator('.ant-formily-item').filter({ has: page.locator('.ant-formily-item-label label', { hasText: exact(label) }) });
}

/** The shared helper: an option may show its code before its label ("GBP 英镑"). */
const choose = chooseOption;

async function pickDate(field: Locator, day: string): Promise<void> {
  const input = field.locator('.ant-picker input');
  await input.click();
  await input.fill(day);
  await input.press('Enter');
}

/** A table row holding `text`. */
function row(scope: Page | Locator, text: string): Locator {
  return scope.locator('tr.ant-table-row', { hasText: text });
}

async function headers(page: Page): Promise<string[]> {
  const list = await page.locator('.renderer-list .ant-table-thead th').allInnerTexts();
  return list.map((s) => s.trim()).filter(Boolean);
}

async function openList(page: Page, route: string, title: string): Promise<void> {
  await page.goto(route);
  await waitForScreen(page, title);
  await page.locator('.renderer-list .ant-table').first().waitFor();
  await page.waitForLoadState('networkidle');
}

async function logout(page: Page): Promise<void> {
  await page.getByTestId('user-menu').hover();
  await page.getByText('退出登录').click();
  await page.waitForURL('**/login');
}

// ---------------------------------------------------------------------------------- the tests

describe.skipIf(!hasChromium)('basic settings (e2e)', () => {
  let smtp: TestSmtp;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tbo-basecfg-'));
  const saved: Record<string, string | undefined> = {};

  const e2e = setupE2e({
    before: async () => {
      smtp = await startSmtp();
      // The server reads its SMTP settings from the environment it is started with.
      for (const [k, v] of Object.entries({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port), SMTP_FROM: 'office@demo-trading.example' })) {
        saved[k] = process.env[k];
        process.env[k] = v;
      }
    },
    after: async () => {
      await smtp?.close();
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      fs.rmSync(tmp, { recursive: true, force: true });
    },
  });

  it('as admin: creates a currency and a rate, and finds the rate in force on a later day', async () => {
    const { context, page } = await e2e.newPage();
    await login(page, ADMIN);

    await openList(page, '/baseConfig/currency', '币种');
    await btn(page, '新增').click();
    const modal = page.locator('.ant-modal');
    await item(modal, '币种代码').locator('input').fill('GBP');
    await item(modal, '币种名称').locator('input').fill('英镑');
    await item(modal, '币种符号').locator('input').fill('£');
    await btn(modal, '保存').click();
    await expectToast(page, '保存成功');
    await row(page, 'GBP').waitFor();
    expect(await row(page, 'GBP').innerText()).toContain('英镑');

    await openList(page, '/baseConfig/exchange', '汇率');
    await btn(page, '新增').click();
    await choose(page, item(modal, '币种'), '英镑');
    await pickDate(item(modal, '日期'), '2026-03-01');
    await item(modal, '汇率').locator('input').fill('9.1234');
    await btn(modal, '保存').click();
    await expectToast(page, '保存成功');
    await row(page, '英镑').waitFor();
    expect(await row(page, '英镑').innerText()).toMatch(/英镑\s+2026-03-01\s+9\.123400/);

    await btn(page, '查询某日汇率').click();
    await choose(page, item(modal, '币种'), '英镑');
    await pickDate(item(modal, '日期'), '2026-04-15');
    await btn(modal, '查询').click();
    const result = page.locator('.renderer-form-result');
    await result.waitFor();
    expect((await result.innerText()).trim()).toBe('英镑（GBP）在 2026-04-15 的汇率为 9.123400（2026-03-01 起生效）');
    await screenshot(page, 'base-config-rate-on-day');
    await context.close();
  });

  it('as admin: creates a role with a few rights and an account holding it', async () => {
    const { context, page } = await e2e.newPage();
    await login(page, ADMIN);

    await openList(page, '/baseConfig/role', '角色权限');
    await btn(page, '新增').click();
    const drawer = page.locator('.ant-drawer');
    await item(drawer, '角色名称').locator('input').fill('汇率查看员');
    const tree = drawer.locator('.ant-tree');
    const node = (title: string) => tree.locator('.ant-tree-treenode').filter({ has: page.locator('.ant-tree-title', { hasText: exact(title) }) });
    // 币种: the page only. 汇率: the page and 导出 (every route has a 导出: one route open at a time).
    await node('币种').locator('.ant-tree-switcher').click();
    await node('币种（页面）').locator('.ant-tree-checkbox').click();
    await node('币种').locator('.ant-tree-switcher').click();
    await expect.poll(() => node('币种（页面）').count()).toBe(0); // collapsed (after its animation)
    await node('汇率').locator('.ant-tree-switcher').click();
    await node('汇率（页面）').locator('.ant-tree-checkbox').click();
    // 汇率's own 导出: the first 导出 node after its page node
    await node('汇率（页面）')
      .locator('xpath=following-sibling::div[contains(@class,"ant-tree-treenode")][.//span[contains(@class,"ant-tree-title") and normalize-space()="导出"]][1]')
      .locator('.ant-tree-checkbox')
      .click();
    await screenshot(page, 'base-config-role-rights');
    const saved = page.waitForResponse((r) => r.url().endsWith('/cdm/api/013303'));
    await btn(drawer, '保存').click();
    const body = (await (await saved).request().postDataJSON()) as { name: string; rights: string[]; allRights: boolean };
    expect(body.name).toBe('汇率查看员');
    expect(body.allRights).toBe(false);
    expect([...body.rights].sort()).toEqual(['baseConfig.currency', 'baseConfig.exchange', 'baseConfig.exchange.export']);
    await expectToast(page, '保存成功');
    await row(page, '汇率查看员').waitFor();

    await openList(page, '/baseConfig/accountManagementList', '账号管理');
    await btn(page, '新增').click();
    await waitForScreen(page, '账号详情');
    const form = page.locator('.renderer-form-screen');
    await item(form, '用户名').locator('input').fill(VIEWER.userName);
    await item(form, '密码').locator('input').fill(VIEWER.password);
    await choose(page, item(form, '角色'), '汇率查看员');
    await page.keyboard.press('Escape');
    await choose(page, item(form, '默认仓库'), '主仓库');
    await btn(form, '保存').click();
    await expectToast(page, '保存成功');
    await page.waitForURL('**/baseConfig/accountManagementList');
    await row(page, VIEWER.userName).waitFor();
    expect(await row(page, VIEWER.userName).innerText()).toContain('汇率查看员');

    // The role's members now list the account.
    await openList(page, '/baseConfig/role', '角色权限');
    await btn(row(page, '汇率查看员'), '成员').click();
    const members = page.locator('.ant-modal');
    await row(members, VIEWER.userName).waitFor();
    expect(await members.locator('.ant-modal-title').innerText()).toBe('持有角色“汇率查看员”的账号');
    await screenshot(page, 'base-config-role-members');
    await context.close();
  });

  it('the new account sees only its menu entries and buttons', async () => {
    const { context, page } = await e2e.newPage();
    await login(page, ADMIN);
    await logout(page);
    await fillLogin(page, VIEWER);
    await page.waitForURL('**/navigation');

    const menu = page.locator('.ant-pro-sider-menu');
    await menu.getByText('基础设置', { exact: true }).click();
    await menu.getByText('汇率', { exact: true }).waitFor();
    const sections = await menu.locator(':scope > li.ant-menu-submenu > .ant-menu-submenu-title').allInnerTexts();
    expect(sections.map((s) => s.trim())).toEqual(['常用功能', '基础设置']);
    const items = (await menu.locator('li.ant-menu-submenu-open li.ant-menu-item').allInnerTexts()).map((s) => s.trim()).filter(Boolean);
    expect(items).toContain('币种');
    expect(items).toContain('汇率');
    for (const refused of ['汇率变动记录', '角色权限', '公司设置', '账号管理', '部门', '员工', '采购订单']) expect(items).not.toContain(refused);
    await page.waitForTimeout(400); // submenu animation
    await screenshot(page, 'base-config-viewer-menu');

    await menu.getByText('汇率', { exact: true }).click();
    await waitForScreen(page, '汇率');
    await row(page, '英镑').waitFor();
    expect(await btn(page, '导出').count()).toBe(1);
    expect(await btn(page, '查询某日汇率').count()).toBe(1);
    for (const hidden of ['新增', '导入', '批量删除', '编辑', '删除']) expect(await btn(page, hidden).count(), hidden).toBe(0);
    await screenshot(page, 'base-config-viewer-exchange');

    await openList(page, '/baseConfig/currency', '币种');
    await row(page, 'GBP').waitFor();
    for (const hidden of ['新增', '导出', '导入', '批量删除', '编辑', '删除']) expect(await btn(page, hidden).count(), hidden).toBe(0);

    // A route the role does not hold, opened by its URL: the warning, and /navigation instead.
    await page.goto('/baseConfig/role');
    await expectToast(page, '无权限访问角色权限页面，请联系管理员授权');
    await page.waitForURL('**/navigation');
    expect(pathOf(page)).toBe('/navigation');
    await context.close();
  });

  it('hidden and reordered columns are saved on the server and found again in a new browser context', async () => {
    const first = await e2e.newPage();
    await login(first.page, ADMIN);
    await openList(first.page, '/baseConfig/currency', '币种');
    const before = await headers(first.page);
    expect(before).toEqual(['币种代码', '币种名称', '币种符号', '本位币', '状态', '备注', '更新时间', '操作']);
    await btn(first.page, '列设置').click();
    const panel = first.page.locator('.renderer-column-settings');
    await panel.locator('[data-column-key="remark"] .ant-checkbox-input').click();
    const savedConfig = first.page.waitForResponse((r) => r.url().endsWith('/oms/api/023402'));
    await panel.locator('[data-column-key="enabled"]').getByRole('button', { name: '上移' }).click();
    await savedConfig;
    // the last change may still be waiting for its debounce: wait until the headers show it, then for the save
    const expected = ['币种代码', '币种名称', '币种符号', '状态', '本位币', '更新时间', '操作'];
    await expect.poll(() => headers(first.page)).toEqual(expected);
    await first.page.waitForLoadState('networkidle');
    await first.page.waitForTimeout(800);
    await screenshot(first.page, 'base-config-columns-changed');
    await first.context.close();

    const second = await e2e.newPage();
    await login(second.page, ADMIN);
    await openList(second.page, '/baseConfig/currency', '币种');
    expect(await headers(second.page)).toEqual(expected);
    await screenshot(second.page, 'base-config-columns-restored');
    // reset restores the schema's columns (and saves that)
    await btn(second.page, '列设置').click();
    await second.page.locator('.renderer-column-settings').getByRole('button', { name: '重置' }).click();
    await expect.poll(() => headers(second.page)).toEqual(before);
    await second.context.close();
  });

  it('exports a list, imports the same file with one row broken: the error report, and nothing written', async () => {
    const { context, page } = await e2e.newPage();
    await login(page, ADMIN);
    await openList(page, '/baseConfig/currency', '币种');
    const [download] = await Promise.all([page.waitForEvent('download'), btn(page, '导出').click()]);
    expect(download.suggestedFilename()).toMatch(/^币种_\d{8}\.xlsx$/);
    const exported = path.join(tmp, 'currency.xlsx');
    await download.saveAs(exported);

    // In the file: rename GBP (a change that would be written) and break EUR's code (refused).
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(exported);
    const sheet = book.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).map((v) => (v && typeof v === 'object' && 'richText' in v ? (v as { richText: { text: string }[] }).richText.map((t) => t.text).join('') : v));
    const codeCol = header.indexOf('币种代码');
    const nameCol = header.indexOf('币种名称');
    expect(codeCol).toBeGreaterThan(0);
    const cellText = (r: number, c: number) => sheet.getRow(r).getCell(c).text;
    let broken = 0;
    for (let r = 2; r <= sheet.rowCount; r++) {
      if (cellText(r, codeCol) === 'GBP') sheet.getRow(r).getCell(nameCol).value = '英镑（已改）';
      if (cellText(r, codeCol) === 'EUR') {
        sheet.getRow(r).getCell(codeCol).value = 'E-U-R!';
        broken = r;
      }
    }
    expect(broken).toBeGreaterThan(1);
    const edited = path.join(tmp, 'currency-broken.xlsx');
    await book.xlsx.writeFile(edited);

    await btn(page, '导入').click();
    const modal = page.locator('.ant-modal');
    await modal.locator('input[type=file]').setInputFiles(edited);
    await btn(modal, '导入').click();
    const report = modal.locator('.ant-table');
    await report.waitFor();
    expect(await modal.innerText()).toContain('导入失败，以下行有错误（未写入任何数据）');
    const lines = (await report.locator('tr.ant-table-row').allInnerTexts()).map((s) => s.replace(/\s+/g, ' ').trim());
    expect(lines).toEqual([`${broken} 币种代码 第 ${broken} 行：币种代码格式不正确`]);
    await screenshot(page, 'base-config-import-errors');
    await btn(modal, '取消').click();

    // Nothing written: GBP keeps its name, EUR is still there.
    await page.getByRole('button', { name: '刷新', exact: true }).click();
    await page.waitForLoadState('networkidle');
    expect(await row(page, 'GBP').innerText()).toContain('英镑');
    expect(await row(page, 'GBP').innerText()).not.toContain('已改');
    await row(page, 'EUR').waitFor();
    await context.close();
  });

  it("a form with a bad value shows the server's message on its field", async () => {
    const { context, page } = await e2e.newPage();
    await login(page, ADMIN);
    await openList(page, '/baseConfig/companyIp', 'IP 白名单');
    await btn(page, '新增').click();
    const modal = page.locator('.ant-modal');
    await item(modal, 'IP 地址或网段').locator('input').fill('300.1.2.3');
    await btn(modal, '保存').click();
    await item(modal, 'IP 地址或网段').getByText('IP 地址或网段格式不正确').waitFor();
    await screenshot(page, 'base-config-server-field-error');
    // corrected, it saves
    await item(modal, 'IP 地址或网段').locator('input').fill('192.168.10.0/24');
    await btn(modal, '保存').click();
    await expectToast(page, '保存成功');
    await row(page, '192.168.10.0/24').waitFor();
    await context.close();
  });

  it('sends a mail through the configured SMTP server, with a sandboxed preview, and lists it as sent', async () => {
    const { context, page } = await e2e.newPage();
    await login(page, ADMIN);
    await page.goto('/baseConfig/emailTemplate');
    await waitForScreen(page, '发送邮件');
    const form = page.locator('.renderer-form-screen');
    const to = item(form, '收件人').locator('input');
    await to.fill('buyer@example.com');
    await to.press('Enter');
    await item(form, '主题').locator('input').fill('到货通知 {orderNo}');
    await item(form, '正文').locator('textarea').fill('<p>您的订单 <b>{orderNo}</b> 已到货。</p><script>parent.document.title = "pwned"</script>');
    await btn(item(form, '参数'), '添加参数').click();
    await item(form, '参数').locator('input').nth(0).fill('orderNo');
    await item(form, '参数').locator('input').nth(1).fill('PO-1001');
    const frame = form.locator('.renderer-html-preview iframe');
    await expect.poll(async () => (await frame.getAttribute('srcdoc')) ?? '', { timeout: 10_000 }).toContain('PO-1001');
    expect(await frame.getAttribute('sandbox')).toBe('');
    expect(await form.locator('.renderer-html-preview-subject').innerText()).toBe('到货通知 PO-1001');
    await page.waitForTimeout(300);
    expect(await page.title()).toBe('发送邮件'); // the script in the body did not run
    await screenshot(page, 'base-config-email-preview');

    await btn(form, '发送').click();
    await expectToast(page, '邮件已发送');
    await page.waitForURL('**/baseConfig/emailHistory');
    const mails = await smtp.waitFor(1);
    expect(mails[0]!.subject).toBe('到货通知 PO-1001');
    expect(mails[0]!.to).toEqual(['buyer@example.com']);
    await row(page, '到货通知 PO-1001').waitFor();
    expect(await row(page, '到货通知 PO-1001').innerText()).toContain('已发送');
    await screenshot(page, 'base-config-email-history');
    await context.close();
  });

  it('draws every /baseConfig route from its schema without an error box', async () => {
    const { context, page } = await e2e.newPage();
    await login(page, ADMIN);
    const routes: [string, string][] = [
      ['currency', '币种'], ['exchange', '汇率'], ['dynamicExchange', '汇率变动记录'], ['role', '角色权限'], ['setConfig', '公司设置'],
      ['dictionaries', '数据字典'], ['department', '部门'], ['staffList', '员工'], ['companyRise', '公司抬头'], ['companyIp', 'IP 白名单'],
      ['company', '公司信息'], ['record', '打印记录'], ['customsList', '海关编码'], ['emailTemplateList', '邮件模板'], ['emailTemplate', '发送邮件'],
      ['emailHistory', '邮件发送记录'], ['accountManagementList', '账号管理'], ['accountManagementDetail', '账号详情'],
    ];
    for (const [name, title] of routes) {
      await page.goto(`/baseConfig/${name}`);
      await waitForScreen(page, title);
      await page.locator('.renderer-screen').first().waitFor();
      await page.waitForLoadState('networkidle');
      expect(await page.locator('.schema-problem').count(), name).toBe(0);
      expect(await page.locator('.renderer-screen').first().innerText(), name).not.toContain('建设中');
    }

    // A few screens in their working state, for the record. Some rate history first (through the API).
    const codes = await page.evaluate(async (points: [string, string][]) => {
      const token = localStorage.getItem('tbo.accessToken') ?? '';
      const out: string[] = [];
      for (const [rateDate, rate] of points) {
        const res = await fetch('/cdm/api/012503', { method: 'POST', headers: { 'content-type': 'application/json', token }, body: JSON.stringify({ currencyId: 2, rateDate, rate }) });
        out.push(((await res.json()) as { code: string }).code);
      }
      return out;
    }, [['2026-02-01', '7.15'], ['2026-03-01', '7.09'], ['2026-04-01', '7.2012'], ['2026-05-01', '7.18'], ['2026-06-01', '7.25']] as [string, string][]);
    expect(codes.every((c) => c === '200')).toBe(true);
    await page.goto('/baseConfig/dynamicExchange');
    await waitForScreen(page, '汇率变动记录');
    await choose(page, page.locator('.renderer-filter-bar .ant-form-item', { hasText: '币种' }), '美元');
    await btn(page, '查询').click();
    // the line of the rates: every date posted on its x axis, a point's rate in the tooltip with 4 decimals
    const chart = page.locator('.renderer-chart-section .renderer-chart');
    await chart.locator('svg path').first().waitFor({ state: 'attached' });
    await expect.poll(async () => (await chart.locator('svg text').allTextContents()).filter((t) => t.startsWith('2026-'))).toEqual(
      expect.arrayContaining(['2026-02-01', '2026-03-01', '2026-04-01', '2026-05-01', '2026-06-01']),
    );
    await chart.hover({ position: { x: 500, y: 120 } });
    await expect.poll(async () => ((await chart.locator('.renderer-chart-tooltip').count()) ? chart.locator('.renderer-chart-tooltip').innerText() : '')).toMatch(/汇率\s*7\.\d{4}\b/);
    await screenshot(page, 'base-config-dynamic-exchange');

    await openList(page, '/baseConfig/department', '部门');
    await row(page, '采购部').waitFor();
    await screenshot(page, 'base-config-department-tree');

    await page.goto('/baseConfig/setConfig');
    await waitForScreen(page, '公司设置');
    await item(page, '启用预售').waitFor();
    await screenshot(page, 'base-config-set-config');
    await context.close();
  });
});
