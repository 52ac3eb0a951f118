// 商品排序 in Chromium from the demo company — the display order now served by the domain module
// src/server/domain/commodity/product-sort.ts over the typed database: the admin appends a product by
// typing its code (it gets the next number), gives another a number, is told in Chinese when a third
// asks for a number already taken, then moves the first one down (the two swap numbers).
// Screenshots: test-output/e2e/product-sort/NN-*.png.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { btn, item, openList, row, rowByTitle } from './support/antd';
import { ADMIN, expectToast, hasChromium, screenshot } from './support/browser';
import { setupE2e } from './support/setup';

const SHOT_DIR = 'product-sort';

describe.skipIf(!hasChromium)('product display order (e2e)', () => {
  const e2e = setupE2e({ login: ADMIN, walk: { shots: SHOT_DIR } });
  let page: Page;
  beforeAll(() => {
    page = e2e.page;
  });
  const modal = () => page.locator('.ant-modal-content:visible');
  const list = () => page.locator('.renderer-list');
  const order = async () => (await list().locator('tr.ant-table-row').allInnerTexts()).map((t) => t.match(/DM-\d+/)?.[0]);

  async function add(code: string, sortNo?: string) {
    await btn(page, '加入排序').first().click();
    await item(modal(), '商品编码').locator('input').pressSequentially(code);
    if (sortNo) await item(modal(), '排序号').locator('input').pressSequentially(sortNo);
    await btn(modal(), '保存').click();
  }

  it('appends a product by its code, then gives another a number of its own', async () => {
    await openList(page, '/commodity/sortList', '商品排序');
    await add('DM-2001');
    await expectToast(page, '商品 DM-2001 的排序号为 1');
    await add('DM-1001', '5');
    await expectToast(page, '商品 DM-1001 的排序号为 5');
    await row(page, 'DM-1001').waitFor();
    expect(await order()).toEqual(['DM-2001', 'DM-1001']);
    expect((await rowByTitle(list(), row(page, 'DM-1001'))).排序号).toBe('5');
  });

  it('a number another product holds is refused in Chinese and nothing changes', async () => {
    await add('DM-1002', '5');
    await expect.poll(async () => modal().innerText()).toContain('排序号 5 已被商品 DM-1001 不锈钢六角螺栓 M8×30 使用');
    // leaving a form with typed changes asks first
    await page.keyboard.press('Escape');
    await btn(page.locator('.ant-modal-content:visible', { hasText: '有未保存的修改' }), '离开').click();
    await expect.poll(() => page.locator('.ant-modal-content:visible').count()).toBe(0);
    expect(await order()).toEqual(['DM-2001', 'DM-1001']);
  });

  it('下移 swaps the product with the next one', async () => {
    await row(page, 'DM-2001').getByText('下移', { exact: true }).click();
    await expectToast(page, '已下移');
    await expect.poll(order).toEqual(['DM-1001', 'DM-2001']);
    const shown = await rowByTitle(list(), row(page, 'DM-1001'));
    expect([shown.排序号, shown.商品名称]).toEqual(['1', '不锈钢六角螺栓 M8×30']);
    expect((await rowByTitle(list(), row(page, 'DM-2001'))).排序号).toBe('5');
    await screenshot(page, `${SHOT_DIR}/01-sorted`);
  });
});
