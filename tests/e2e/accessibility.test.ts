// axe-core (npm) over one screen of each kind the renderer and the shell draw (issue 22 item 8): the
// login page, the home page, a list, a form in a modal, a form page, a detail page, a document, a
// report, the download page of a shared file and the dashboard. No critical and no serious violation; the counts by impact are printed (moderate and minor
// ones are reported, not failed).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOk, btn } from './support/antd';
import { ADMIN, hasChromium, login, waitForScreen } from './support/browser';
import { setupE2e } from './support/setup';

// Evaluated through the DevTools protocol: the app's Content-Security-Policy refuses inline scripts.
const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; html?: string }[];
}

async function axe(page: Page): Promise<Violation[]> {
  await page.waitForLoadState('networkidle');
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const w = window as unknown as { axe: { run(ctx: Document, o: unknown): Promise<{ violations: Violation[] }> } };
    const r = await w.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, html: `${(n as { html?: string }).html?.slice(0, 100)} in ${document.querySelector(n.target.join(' '))?.closest('.ant-formily-item, .ant-pagination, .ant-form-item, .ant-card, .ant-modal')?.className ?? '?'}` })) }));
  });
}

const byImpact: Record<string, Record<string, number>> = {};

function record(screen: string, violations: Violation[]): Violation[] {
  const counts: Record<string, number> = {};
  for (const v of violations) counts[v.impact ?? 'none'] = (counts[v.impact ?? 'none'] ?? 0) + v.nodes.length;
  byImpact[screen] = counts;
  const bad = violations.filter((v) => v.impact === 'critical' || v.impact === 'serious');
  if (bad.length) console.log(`${screen}: ${JSON.stringify(bad.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')} ${n.html ?? ''}`) })), null, 1)}`);
  const other = violations.filter((v) => v.impact !== 'critical' && v.impact !== 'serious');
  if (other.length) console.log(`${screen} (moderate/minor): ${other.map((v) => `${v.id}×${v.nodes.length}`).join(', ')}`);
  return bad;
}

describe.skipIf(!hasChromium)('accessibility: axe-core on one screen of each kind (e2e)', () => {
  const e2e = setupE2e({ page: true, timeout: 180_000 });
  let page: Page;
  let productId = 0;

  beforeAll(() => {
    page = e2e.page;
  });

  afterAll(async () => {
    const total: Record<string, number> = {};
    for (const c of Object.values(byImpact)) for (const [k, n] of Object.entries(c)) total[k] = (total[k] ?? 0) + n;
    console.log(`axe by screen: ${JSON.stringify(byImpact)}\naxe total (elements by impact): ${JSON.stringify(total)}`);
  });

  it('login page', async () => {
    await page.goto('/login');
    await page.locator('#login-userName').waitFor();
    expect(record('login', await axe(page))).toEqual([]);
  });

  it('home page (navigation)', async () => {
    await login(page, ADMIN);
    expect(record('navigation', await axe(page))).toEqual([]);
    productId = (await apiOk(page, 'cdm', '010203', { code: 'AX-001', name: '无障碍测试商品', unitSmall: '个', bigQty: 1, midQty: 1, price: '1.00' })).id;
  });

  it('list (供应商) and its form in a modal', async () => {
    await page.goto('/procurement/supplier');
    await waitForScreen(page, '供应商');
    await page.locator('.renderer-list .ant-table-row').first().waitFor();
    expect(record('list', await axe(page))).toEqual([]);
    await btn(page, '新增').click();
    await page.locator('.ant-modal input').first().waitFor();
    await btn(page.locator('.ant-modal'), '保存').click(); // with its required-field errors shown
    await page.locator('.ant-formily-item-error').first().waitFor();
    expect(record('modal form', await axe(page))).toEqual([]);
  });

  it('form page (公司设置)', async () => {
    await page.goto('/baseConfig/setConfig');
    await waitForScreen(page, '公司设置');
    await page.locator('.ant-formily-item').first().waitFor();
    expect(record('form', await axe(page))).toEqual([]);
  });

  it('detail page (商品详情)', async () => {
    await page.goto(`/commodity/goodsDetail/${productId}`);
    await waitForScreen(page, '商品详情');
    expect(record('detail', await axe(page))).toEqual([]);
  });

  it('document (新建采购订单 with a line)', async () => {
    await page.goto('/procurement/purchaseOrder');
    await waitForScreen(page, '新建采购订单');
    await btn(page, '添加行').click();
    expect(record('document', await axe(page))).toEqual([]);
  });

  it('report (采购报表)', async () => {
    await page.goto('/reportForms/purchase_new');
    await waitForScreen(page, '采购报表');
    await page.locator('.ant-table').first().waitFor();
    expect(record('report', await axe(page))).toEqual([]);
  });

  it('download page (/a/{id}, a shared export, opened without a login)', async () => {
    const job = await apiOk(page, 'cdm', '019901', { api: 'cdm:012905', body: {} });
    let shared: { path: string } | null = null;
    await expect.poll(async () => {
      const made = await page.evaluate(async (id) => {
        const res = await fetch('/storage/api/980201', { method: 'POST', headers: { 'content-type': 'application/json', token: localStorage.getItem('tbo.accessToken') ?? '' }, body: JSON.stringify({ kind: 'export', exportJobId: id }) });
        return (await res.json()) as { code: string; data: { path: string } };
      }, job.id);
      if (made.code === '200') shared = made.data;
      return made.code;
    }, { timeout: 20_000, interval: 300 }).toBe('200');
    const { context, page: guest } = await e2e.newPage();
    await guest.goto(shared!.path);
    await guest.locator('.download-page-button').waitFor();
    expect(record('download', await axe(guest))).toEqual([]);
    await context.close();
  });

  it('dashboard (数据大屏, the dark wall screen)', async () => {
    await page.goto('/dataReport/all');
    await page.getByTestId('kpi-salesToday').filter({ hasText: /\d/ }).waitFor();
    expect(record('dashboard', await axe(page))).toEqual([]);
  });
});
