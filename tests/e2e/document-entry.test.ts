// Every editable cell of every document screen, typed into in Chromium and saved (issue 20 item 1: a
// typed quantity used to reach the server as text — "damagedQty": "5" — and be refused with
// 破损数量格式不正确 / 上架数量格式不正确). Master data through the API; each document through its screen:
// purchase order (商品, 数量 big/mid/small, 单价, 备注), inbound plan (计划数量, 备注), receiving note
// (实收, 破损, 备注), putaway (上架库位, 上架数量, 备注), purchase invoice (开票数量, 单价, 备注). Each save
// must succeed and the saved document must show what was typed.
import type { Locator, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { apiOk, btn, choose, exact, item, pickDate, rowByTitle } from './support/antd';
import { ADMIN, expectToast, hasChromium, pathOf, waitForScreen } from './support/browser';
import { setupE2e } from './support/setup';

const doc = (page: Page) => page.locator('.renderer-document-screen');
const lineRows = (page: Page) => doc(page).locator('.renderer-line-table tr.ant-table-row');
const docNo = async (page: Page) => (await doc(page).locator('.renderer-document-no').innerText()).trim();

async function lines(page: Page): Promise<Record<string, string>[]> {
  const table = doc(page).locator('.renderer-line-table');
  const out: Record<string, string>[] = [];
  for (const r of await lineRows(page).all()) out.push(await rowByTitle(table, r));
  return out;
}

/** Saves the document on screen: the toast, then its own page (answering the unsaved-changes question if it comes). */
async function saveAndOpen(page: Page, url: RegExp): Promise<number> {
  await btn(doc(page), '保存').click();
  await expectToast(page, '保存成功');
  const question = page.locator('.ant-modal-confirm', { hasText: '有未保存的修改' });
  await expect.poll(async () => url.test(pathOf(page)) || (await question.isVisible()), { timeout: 15_000 }).toBe(true);
  if (!url.test(pathOf(page))) {
    await btn(question, '离开').click();
    await page.waitForURL((u) => url.test(u.pathname));
  }
  await doc(page).locator('.renderer-document-no').waitFor();
  return Number(pathOf(page).split('/').pop());
}

/** Chooses a row in a lookup cell by typing its code and picking the option reading `label`. */
async function lookup(page: Page, cell: Locator, code: string, label: string): Promise<void> {
  await cell.click();
  await cell.fill(code);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: exact(label) }).click();
}

const P = { code: 'DE-P01', name: '不锈钢餐盒' }; // 箱 = 4 盒 × 6 个
const S = { code: 'DE-S01', name: '宁波餐具有限公司' };
const W = { code: 'WH-DE', name: '餐具仓' };
const LOC = 'DE-01-01';

describe.skipIf(!hasChromium)('typing into every editable cell of every document screen saves (e2e)', () => {
  let page: Page;
  const ids = { order: 0, note: 0 };
  let orderNo = '';

  setupE2e({
    login: ADMIN,
    timeout: 180_000,
    ready: async (e2e) => {
      page = e2e.page;
      await apiOk(page, 'cdm', '010203', { code: P.code, name: P.name, unitBig: '箱', unitMid: '盒', unitSmall: '个', bigQty: 24, midQty: 6, price: '3.50' });
      await apiOk(page, 'cdm', '011603', { code: S.code, name: S.name, paymentDays: 30 });
      const warehouse = await apiOk(page, 'cdm', '011003', { code: W.code, name: W.name });
      await apiOk(page, 'cdm', '011103', { warehouseId: warehouse.id, lcCode: LOC, zone: 'DE', type: 'storage' });
    },
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') console.log(`failed at ${page.url()}; toasts: ${JSON.stringify(await page.locator('.ant-message-notice-content').allInnerTexts())}; errors: ${JSON.stringify(await page.locator('.ant-formily-item-error-help').allInnerTexts())}`);
  });

  it('purchase order: 商品, 数量 (箱/盒/个), 单价, 备注', async () => {
    await page.goto('/procurement/purchaseOrder');
    await waitForScreen(page, '新建采购订单');
    await choose(page, item(doc(page), '供应商'), S.name);
    await choose(page, item(doc(page), '收货仓库'), W.name);
    await btn(doc(page), '添加行').click();
    const line = lineRows(page).first();
    await lookup(page, line.getByRole('combobox', { name: '商品' }), P.code, `${P.code} ${P.name}`);
    await line.getByRole('textbox', { name: '数量（大包装）' }).fill('2');
    await line.getByRole('textbox', { name: '数量（中包装）' }).fill('1');
    await line.getByRole('textbox', { name: '数量（最小单位）' }).fill('3');
    await line.getByRole('textbox', { name: '单价' }).fill('3.25');
    await line.getByRole('textbox', { name: '备注' }).fill('加急');
    ids.order = await saveAndOpen(page, /^\/procurement\/purchaseOrder\/\d+$/);
    orderNo = await docNo(page);
    expect((await lines(page)).map((l) => [l.商品, l.数量, l.单价, l.金额, l.备注])).toEqual([[`${P.code} ${P.name}`, '2 / 1 / 3', '3.2500', '185.25', '加急']]);
    const order = await apiOk(page, 'oms', '020202', { id: ids.order });
    await apiOk(page, 'oms', '020205', { id: ids.order, version: order.version });
  });

  it('inbound plan: 计划数量 (箱/盒/个), 备注', async () => {
    await page.goto(`/procurement/treasuryPlanOrder?orderId=${ids.order}`);
    await waitForScreen(page, '新建入库计划');
    await expect.poll(() => lineRows(page).count()).toBe(1);
    await pickDate(item(doc(page), '预计到货日期'), '2026-12-01');
    const line = lineRows(page).first();
    await line.getByRole('textbox', { name: '计划数量（大包装）' }).fill('1');
    await line.getByRole('textbox', { name: '计划数量（中包装）' }).fill('2');
    await line.getByRole('textbox', { name: '计划数量（最小单位）' }).fill('5');
    await line.getByRole('textbox', { name: '备注' }).fill('第一批');
    await saveAndOpen(page, /^\/procurement\/treasuryPlanDetail\/\d+$/);
    expect((await lines(page)).map((l) => [l.计划数量, l.备注])).toEqual([['1 / 2 / 5', '第一批']]); // as typed: the plan's lines know their packs
  });

  it('receiving note: 实收 (箱/盒/个), 破损, 备注', async () => {
    await page.goto(`/entrepot/receivingNoteDetail/new?orderId=${ids.order}`);
    await waitForScreen(page, '收货单详情');
    await expect.poll(() => lineRows(page).count()).toBe(1);
    const line = lineRows(page).first();
    await line.getByRole('textbox', { name: '实收（大包装）' }).fill('2');
    await line.getByRole('textbox', { name: '实收（中包装）' }).fill('0');
    await line.getByRole('textbox', { name: '实收（最小单位）' }).fill('3');
    await line.getByRole('textbox', { name: '破损' }).fill('5');
    await line.getByRole('textbox', { name: '备注' }).fill('外箱破');
    ids.note = await saveAndOpen(page, /^\/entrepot\/receivingNoteDetail\/\d+$/);
    // still a draft, open for editing: the count comes back in the packs it was typed in (2 箱 3 个 = 51)
    expect((await lines(page)).map((l) => [l.实收, l.破损, l.备注])).toEqual([['2 /  / 3', '5', '外箱破']]);
    const note = await apiOk(page, 'oms', '021402', { id: ids.note });
    await apiOk(page, 'oms', '021404', { id: ids.note, version: note.version });
  });

  it('putaway: 上架库位, 上架数量, 备注', async () => {
    await page.goto(`/entrepot/putawayDetail/new?receivingNoteId=${ids.note}`);
    await waitForScreen(page, '上架单详情');
    await expect.poll(() => lineRows(page).count()).toBe(1);
    const line = lineRows(page).first();
    await lookup(page, line.getByRole('combobox', { name: '上架库位' }), LOC, LOC);
    await line.getByRole('textbox', { name: '上架数量' }).fill('40');
    await line.getByRole('textbox', { name: '备注' }).fill('先上一部分');
    await saveAndOpen(page, /^\/entrepot\/putawayDetail\/\d+$/);
    expect((await lines(page)).map((l) => [l.上架库位, l.上架数量, l.备注])).toEqual([[LOC, '40', '先上一部分']]);
  });

  it('purchase invoice: 开票数量, 单价, 备注', async () => {
    await page.goto('/procurement/invoice/add');
    await waitForScreen(page, '新增采购发票');
    await choose(page, item(doc(page), '供应商'), S.name);
    await expect.poll(() => lineRows(page).count()).toBe(1);
    await item(doc(page), '发票号').locator('input').fill('88001234');
    const line = lineRows(page).first();
    await line.getByRole('textbox', { name: '开票数量' }).fill('20');
    await line.getByRole('textbox', { name: '单价' }).fill('3.3');
    await line.getByRole('textbox', { name: '备注' }).fill('部分开票');
    await saveAndOpen(page, /^\/procurement\/invoiceDetail\/\d+$/);
    expect((await lines(page)).map((l) => [l.采购订单, l.开票数量, l.单价, l.金额, l.备注])).toEqual([[orderNo, '20', '3.3000', '66.00', '部分开票']]);
  });
});
