// A new user walks the demo company as it is after `npm start` — no fixtures: the seeded warehouse has
// its locations, the seeded order planned in full is received from the order's own 收货 (the task and
// its lines come along), put away to the product's default location, and the stock shows it.
// Screenshots: test-output/e2e/demo-walk/NN-*.png.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { btn, confirmPopup, openList, row, rowByTitle } from './support/antd';
import { ADMIN, expectToast, hasChromium, pathOf, screenshot, waitForScreen } from './support/browser';
import { setupE2e } from './support/setup';

const doc = (page: Page) => page.locator('.renderer-document-screen');
const lineRows = (page: Page) => doc(page).locator('.renderer-line-table tr.ant-table-row');
const stateTag = (page: Page) => doc(page).locator('.ant-card-head-title .ant-tag');
const expectState = (page: Page, label: string) => expect.poll(async () => (await stateTag(page).innerText()).trim(), { timeout: 10_000 }).toBe(label);

async function lines(page: Page): Promise<Record<string, string>[]> {
  const table = doc(page).locator('.renderer-line-table');
  const out: Record<string, string>[] = [];
  for (const r of await lineRows(page).all()) out.push(await rowByTitle(table, r));
  return out;
}

async function headerValue(page: Page, label: string): Promise<string> {
  const field = doc(page).locator('.ant-formily-item').filter({ has: page.locator('.ant-formily-item-label label', { hasText: new RegExp(`^\\s*${label}\\s*$`) }) });
  const chosen = field.locator('.ant-select-selection-item');
  if (await chosen.count()) return (await chosen.first().innerText()).trim();
  return (await field.locator('input, textarea').first().inputValue()).trim();
}

/** After 保存 a new document opens at its own URL (answering 离开 should the unsaved-changes question come). */
async function openedAfterSave(page: Page, url: RegExp): Promise<void> {
  const question = page.locator('.ant-modal-confirm', { hasText: '有未保存的修改' });
  await expect.poll(async () => url.test(pathOf(page)) || (await question.isVisible()), { timeout: 15_000 }).toBe(true);
  if (!url.test(pathOf(page))) {
    await btn(question, '离开').click();
    await page.waitForURL((u) => url.test(u.pathname));
  }
}

const shot = (page: Page, name: string) => screenshot(page, `demo-walk/${name}`);

describe.skipIf(!hasChromium)('demo company walk (e2e)', () => {
  const e2e = setupE2e({ login: ADMIN });
  let page: Page;
  beforeAll(() => {
    page = e2e.page;
  });

  it('the warehouse has its locations, in zones', async () => {
    await openList(page, '/entrepot/location', '库位');
    await expect.poll(() => page.locator('.renderer-list tr.ant-table-row').count()).toBe(6);
    await shot(page, '01-locations');
  });

  it('lists read currencies and states by their labels: 人民币, not CNY', async () => {
    await openList(page, '/procurement/invoice/list', '采购发票');
    const table = page.locator('.renderer-list');
    await row(table, 'FP-DEMO-0001').first().waitFor();
    const cells = await rowByTitle(table, row(table, 'FP-DEMO-0001').first());
    expect(cells.币种).toBe('人民币');
    expect(cells.状态).toBe('已过账');
    expect(await table.innerText()).not.toContain('CNY');
  });

  it('a confirmed order and a posted note are drawn read-only uniformly: one look for every field, no input hints', async () => {
    for (const [list, title, state, detail] of [
      ['/procurement/list', '采购订单', /温州永诚杯具有限公司.*已确认/, '采购订单详情'],
      ['/entrepot/receivingNoteList', '收货单', /已过账/, '收货单详情'],
    ] as const) {
      await openList(page, list, title);
      await row(page.locator('.renderer-list'), state).first().locator('a').first().click();
      await waitForScreen(page, detail);
      await doc(page).locator('.ant-formily-item').first().waitFor();
      const looks = await doc(page).locator('.renderer-form-locked .ant-formily-item-control').evaluateAll((els) =>
        els.map((el) => {
          const box = el.querySelector('.ant-input, .ant-input-number, .ant-select-selector, .ant-picker') as HTMLElement | null;
          const text = (el.querySelector('input, .ant-select-selection-item, .ant-select-selection-placeholder') as HTMLElement | null) ?? box;
          return box ? `${getComputedStyle(box).backgroundColor} ${text ? getComputedStyle(text).color : ''}` : 'none';
        }).filter((x) => x !== 'none'),
      );
      expect(looks.length).toBeGreaterThan(3);
      expect([...new Set(looks)]).toEqual([looks[0]]);
      const shown = await doc(page).locator('.renderer-form-locked').innerText();
      for (const hint of ['不选则用供应商的币种', '请选择', '请输入', '从入库任务收货时带入']) expect(shown).not.toContain(hint);
      const placeholders = await doc(page).locator('.renderer-form-locked input[placeholder]').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).placeholder).filter((p) => p && p !== '-'));
      expect(placeholders).toEqual([]);
      await shot(page, `02-read-only-${title}`);
    }
  });

  it("an order planned in full is received from the order's 收货: the task and its lines come along; put away; in stock", async () => {
    await openList(page, '/procurement/list', '采购订单');
    const planned = row(page.locator('.renderer-list'), /宁波华东五金制品厂.*已确认/);
    await expect.poll(() => planned.count()).toBe(1);
    await planned.locator('a').first().click();
    await waitForScreen(page, '采购订单详情');
    await expectState(page, '已确认');
    await btn(doc(page), '收货').click();
    await waitForScreen(page, '收货单详情');
    await expect.poll(() => lineRows(page).count()).toBe(1);
    expect((await headerValue(page, '入库任务')).startsWith('RT')).toBe(true);
    expect((await lines(page)).map((l) => [l.商品编码, l.未收])).toEqual([['DM-1003', '10,000']]);
    // fields the clerk never types into (制单人, 入库数量) carry no 请输入… hint
    expect(await doc(page).locator('input[disabled][placeholder^="请输入"]').count()).toBe(0);
    await expect.poll(async () => (await page.locator('.page-tabs .ant-tabs-tab-active').innerText()).trim()).toBe('收货单详情（新建）');
    await shot(page, '03-receiving-from-order');
    await btn(doc(page), '保存').click();
    await expectToast(page, '保存成功');
    await openedAfterSave(page, /^\/entrepot\/receivingNoteDetail\/\d+$/);
    await btn(doc(page), '过账').click();
    await confirmPopup(page);
    await expectState(page, '已过账');

    await btn(doc(page), '上架').click();
    await waitForScreen(page, '上架单详情');
    await expect.poll(() => lineRows(page).count()).toBe(1);
    expect((await lines(page)).map((l) => [l.商品编码, l.上架库位])).toEqual([['DM-1003', 'C-02-01']]);
    await btn(doc(page), '保存').click();
    await expectToast(page, '保存成功');
    await openedAfterSave(page, /^\/entrepot\/putawayDetail\/\d+$/);
    await btn(doc(page), '过账').click();
    await confirmPopup(page);
    await expectState(page, '已过账');
    await shot(page, '04-putaway-posted');

    await openList(page, '/commodity/inventory', '商品库存');
    const washer = row(page.locator('.renderer-list'), 'DM-1003');
    await expect.poll(async () => (await rowByTitle(page.locator('.renderer-list'), washer)).现有).toBe('10,000');
    await shot(page, '05-stock');
  });
});
