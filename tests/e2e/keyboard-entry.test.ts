// Keyboard only after login (no mouse event), as a clerk with a barcode scanner (issue 22): a supplier,
// a product with big/mid/small units and a purchase order of three lines entered by product code, the
// scanner simulated as the code typed at 5 ms a character followed by Enter at 0 ms. Every key is
// counted (a typed character is one key, Chinese ones included) and printed; the right product must be
// on every line, Ctrl+S saves, and focus is where a clerk expects it (the first field when a form opens,
// the first field in error after a refusal, 新增 again after saving).
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { apiOk, rowByTitle } from './support/antd';
import { ADMIN, expectToast, hasChromium, pathOf, waitForScreen } from './support/browser';
import { setupE2e } from './support/setup';

const SUPPLIER = { code: 'KS9001', name: '温州五金有限公司' };
const WAREHOUSE = { code: 'WK01', name: '键盘仓' };
// A decoy whose code starts with another's: a search for KP1001 finds both, the decoy first by code.
const PRODUCTS = [
  { code: 'KP1001', name: '六角螺栓' },
  { code: 'KP1002', name: '平垫圈' },
  { code: 'KP1003', name: '弹簧垫圈' },
  { code: 'KP10010', name: '六角螺栓加长' },
];

/** Keys pressed by the clerk, counted. */
class Keys {
  count = 0;
  constructor(private readonly page: Page) {}
  async press(key: string, times = 1): Promise<void> {
    for (let i = 0; i < times; i++) {
      await this.page.keyboard.press(key);
      this.count += 1;
    }
  }
  /** Typed as a person types: one key per character. */
  async type(text: string): Promise<void> {
    await this.page.keyboard.type(text, { delay: 20 });
    this.count += [...text].length;
  }
  /** A barcode scanner: 5 ms a character, then Enter at once. */
  async scan(code: string): Promise<void> {
    await this.page.keyboard.type(code, { delay: 5 });
    await this.page.keyboard.press('Enter');
    this.count += code.length + 1;
  }
  /** Tab until the focused element is the button reading `label` (at most 40). */
  async tabTo(label: string): Promise<void> {
    for (let i = 0; i < 40; i++) {
      if (await isFocusedButton(this.page, label)) return;
      await this.press('Tab');
    }
    throw new Error(`Tab never reached ${label}`);
  }
}

const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return { tag: el?.tagName ?? '', label: el?.getAttribute('aria-label') ?? '', text: (el?.textContent ?? '').replace(/\s+/g, ''), id: el?.id ?? '' };
  });
const isFocusedButton = async (page: Page, label: string) => {
  const f = await focused(page);
  return f.tag === 'BUTTON' && f.text.endsWith(label);
};
/** The label of the form item holding the focused field. */
const focusedField = (page: Page) =>
  page.evaluate(() => {
    const item = document.activeElement?.closest('.ant-formily-item');
    return (item?.querySelector('.ant-formily-item-label')?.textContent ?? '').replace(/[\s:：*]/g, '');
  });

const counts: Record<string, number> = {};

describe.skipIf(!hasChromium)('keyboard-only entry with a scanner (e2e)', () => {
  let page: Page;

  setupE2e({
    login: ADMIN,
    timeout: 180_000,
    ready: async (e2e) => {
      page = e2e.page;
      await apiOk(page, 'cdm', '011003', { code: WAREHOUSE.code, name: WAREHOUSE.name });
      for (const p of PRODUCTS.slice(1)) await apiOk(page, 'cdm', '010203', { ...p, unitSmall: '个', bigQty: 1, midQty: 1, price: '2.00' });
    },
  });

  afterAll(() => {
    console.log(`keys: ${JSON.stringify(counts)}`);
  });

  it('getting around: every Tab stop is visible, menu search by pinyin initials (Ctrl+K and /), tiles and the user menu by Tab', async () => {
    await page.goto('/procurement/supplier');
    await waitForScreen(page, '供应商');
    await page.locator('.renderer-list .ant-table-row').first().waitFor();
    // From the page's start to 新增: no stop on something of no size (the empty pane under the page tabs was one).
    const stops: { tag: string; height: number; text: string }[] = [];
    for (let i = 0; i < 40 && !(await isFocusedButton(page, '新增')); i++) {
      await page.keyboard.press('Tab');
      stops.push(await page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        return { tag: el.tagName, height: el.getBoundingClientRect().height, text: (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 20) };
      }));
    }
    counts.tabsToNew = stops.length;
    expect(stops.filter((s) => s.height === 0 || s.tag === 'BODY')).toEqual([]);
    expect(await isFocusedButton(page, '新增')).toBe(true);

    await page.keyboard.press('Control+k');
    const box = page.getByRole('combobox', { name: '功能名称或拼音首字母' });
    await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('cgdd');
    await expect.poll(async () => (await page.locator('.menu-search-item').first().innerText()).split('\n')[0]).toBe('采购订单');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/procurement/list');
    await waitForScreen(page, '采购订单');

    await expect.poll(() => page.locator('.ant-modal-wrap:visible').count()).toBe(0); // the search has closed
    await page.locator('body').evaluate((b) => (document.activeElement as HTMLElement | null)?.blur?.() ?? b);
    await page.keyboard.press('/');
    await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('gys');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/procurement/supplier');

    // /navigation: the user menu and a pinned tile, both by Tab and Enter.
    await page.goto('/navigation');
    await page.getByTestId('navigation-page').waitFor();
    let userMenu = false;
    for (let i = 0; i < 60 && !userMenu; i++) {
      await page.keyboard.press('Tab');
      userMenu = await page.evaluate(() => document.activeElement?.getAttribute('data-testid') === 'user-menu');
    }
    expect(userMenu).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByRole('menuitem', { name: /修改密码/ }).waitFor();
    await page.keyboard.press('Escape');
    const tiles = await page.locator('.shortcut-tile a').count();
    if (tiles > 0) {
      let onTile = false;
      for (let i = 0; i < 80 && !onTile; i++) {
        await page.keyboard.press('Tab');
        onTile = await page.evaluate(() => !!document.activeElement?.closest('.shortcut-tile') && document.activeElement?.tagName === 'A');
      }
      expect(onTile).toBe(true);
      const route = await page.evaluate(() => document.activeElement!.getAttribute('href'));
      await page.keyboard.press('Enter');
      await page.waitForURL(`**${route}`);
    }
  });

  it('a supplier: 新增 by Tab, the caret in the first field, a refusal back to the field in error, Ctrl+S, focus back on 新增', async () => {
    await page.goto('/procurement/supplier');
    await waitForScreen(page, '供应商');
    await page.locator('.renderer-list .ant-table-row').first().waitFor();
    const keys = new Keys(page);
    await keys.tabTo('新增');
    await keys.press('Enter');
    await page.locator('.ant-modal input').first().waitFor();
    await expect.poll(() => focusedField(page)).toBe('供应商编码');
    await keys.type(SUPPLIER.code);
    await keys.press('Control+s'); // name missing: refused, caret goes to 供应商名称
    await expect.poll(() => focusedField(page)).toBe('供应商名称');
    await keys.type(SUPPLIER.name);
    await keys.press('Tab');
    await keys.type('李明');
    await keys.press('Tab');
    await keys.type('13800001111');
    await keys.press('Enter'); // Enter in a single-line field saves the modal
    await expectToast(page, '保存成功');
    await expect.poll(() => page.locator('.ant-modal:visible').count()).toBe(0);
    await expect.poll(() => isFocusedButton(page, '新增')).toBe(true);
    counts.supplier = keys.count;
    expect(keys.count).toBeLessThanOrEqual(70);

    // A series: 保存并新增 saves, keeps the modal open with an empty form, the caret in its first field.
    await keys.press('Enter'); // 新增 again
    await expect.poll(() => focusedField(page)).toBe('供应商编码');
    await page.keyboard.type('KS9002');
    await page.keyboard.press('Tab');
    await page.keyboard.type('瑞安标准件厂');
    await page.locator('.ant-modal').getByRole('button', { name: '保存并新增' }).focus();
    await page.keyboard.press('Enter');
    await expectToast(page, '保存成功');
    await expect.poll(() => focusedField(page)).toBe('供应商编码');
    expect(await page.locator('.ant-modal input').first().inputValue()).toBe('');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('.ant-modal:visible').count()).toBe(0);
    const saved = await apiOk(page, 'cdm', '011601', { page: 1, pageSize: 10, keyword: 'KS900' });
    expect(saved.list.map((r: { code: string }) => r.code).sort()).toEqual(['KS9001', 'KS9002']);
  });

  it('a product with big/mid/small units; its default supplier chosen by typing the supplier code', async () => {
    await page.goto('/commodity/list');
    await waitForScreen(page, '商品列表');
    await page.locator('.renderer-list .ant-table-row').first().waitFor();
    const keys = new Keys(page);
    await keys.tabTo('新增');
    await keys.press('Enter');
    await expect.poll(() => focusedField(page)).toBe('商品编码');
    await keys.type(PRODUCTS[0]!.code);
    await keys.press('Tab', 2); // 条码
    await keys.type(PRODUCTS[0]!.name);
    // to 默认供应商: 英文名称, 商品类别, 品牌, 规格, 海关编码, 产地
    while ((await focusedField(page)) !== '默认供应商') await keys.press('Tab');
    await keys.scan(SUPPLIER.code);
    await expect.poll(() => page.locator('.ant-modal .ant-formily-item', { hasText: '默认供应商' }).locator('.ant-select-selection-item').innerText()).toBe(SUPPLIER.name);
    while ((await focusedField(page)) !== '小单位') await keys.press('Tab');
    await keys.type('个');
    await keys.press('Tab');
    await keys.type('盒');
    await keys.press('Tab');
    await keys.type('6');
    await keys.press('Tab');
    await keys.type('箱');
    await keys.press('Tab');
    await keys.type('24');
    await keys.press('Control+s');
    await expectToast(page, '保存成功');
    await expect.poll(() => isFocusedButton(page, '新增')).toBe(true);
    counts.product = keys.count;
    const saved = (await apiOk(page, 'cdm', '010201', { page: 1, pageSize: 5, keyword: PRODUCTS[0]!.code })).list.find((p: { code: string }) => p.code === PRODUCTS[0]!.code);
    expect(saved).toMatchObject({ unitSmall: '个', unitMid: '盒', midQty: 6, unitBig: '箱', bigQty: 24 });
  });

  it('a purchase order of three lines by scanned product codes, Enter through the cells, Ctrl+S', async () => {
    await page.goto('/procurement/purchaseOrder');
    await waitForScreen(page, '新建采购订单');
    await expect.poll(() => focusedField(page)).toBe('供应商');
    const keys = new Keys(page);
    await keys.scan(SUPPLIER.code); // a code typed into the supplier select, Enter
    await keys.press('Tab');
    await keys.scan(WAREHOUSE.code);
    await keys.tabTo('添加行');
    await keys.press('Enter'); // a line, the caret in its 商品 cell
    const lines = [
      { code: 'KP1001', qty: ['2', '1', '3'] }, // 箱 / 盒 / 个
      { code: 'KP1002', qty: ['50'] },
      { code: 'KP1003', qty: ['7'] },
    ];
    for (const [i, l] of lines.entries()) {
      await expect.poll(() => focused(page).then((f) => f.label)).toBe('商品');
      await keys.scan(l.code); // the product, and the caret moves on to the quantity
      await expect.poll(() => focused(page).then((f) => f.label)).toMatch(/^数量/);
      for (const q of l.qty) {
        await keys.type(q);
        await keys.press('Enter');
      }
      if (i < lines.length - 1) {
        // through 单价 (kept) and 备注: past the last cell a new line opens
        while ((await focused(page)).label !== '商品') await keys.press('Enter');
      }
    }
    counts.purchaseOrder = keys.count + 1; // and Ctrl+S

    // Not counted: Enter past the last cell opens a 4th line; deleting it leaves the caret on line 3.
    while ((await focused(page)).label !== '商品') await page.keyboard.press('Enter');
    const lineRows = page.locator('.renderer-line-table tr.ant-table-row');
    await expect.poll(() => lineRows.count()).toBe(4);
    await page.getByRole('button', { name: '删除第 4 行' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => lineRows.count()).toBe(3);
    await expect.poll(() => focused(page).then((f) => f.label)).toBe('商品');
    expect(await lineRows.nth(2).evaluate((r) => r.contains(document.activeElement))).toBe(true);
    // 行 and 商品 stay on the left while the lines scroll sideways.
    const fixed = await page.locator('.renderer-line-table thead th.ant-table-cell-fix-left').allInnerTexts();
    expect(fixed.map((t) => t.trim())).toEqual(['行', '商品']);

    await page.keyboard.press('Control+s');
    await expectToast(page, '保存成功');
    await page.waitForURL(/\/procurement\/purchaseOrder\/\d+$/);
    const id = Number(pathOf(page).split('/').pop());
    const order = await apiOk(page, 'oms', '020202', { id });
    expect(order.lines.map((l: { productCode: string; qty: number }) => [l.productCode, l.qty])).toEqual([
      ['KP1001', 2 * 24 + 6 + 3],
      ['KP1002', 50],
      ['KP1003', 7],
    ]);
    expect(keys.count).toBeLessThanOrEqual(90);
    const table = page.locator('.renderer-line-table');
    await table.locator('tr.ant-table-row').first().waitFor();
    expect((await rowByTitle(table, table.locator('tr.ant-table-row').first())).商品).toBe('KP1001 六角螺栓');
  });
});
