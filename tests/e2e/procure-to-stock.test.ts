// Procure to stock in Chromium against the real server on a fresh database, as the administrator, every
// screen drawn from its schema: a product with big/mid/small units and a box spec (commodity list form),
// a supplier, a warehouse with locations and default locations; a purchase order of three lines typed
// in the line table (product lookup, units editor, price) and confirmed; its inbound plan, confirmed
// into an inbound task; a receiving note from that task with one line short, posted (the order shows
// 部分收货 and what is still open, the task 收货中); a putaway to the suggested locations, posted; the
// stock on 商品库存 and 库存分布 to the unit; the supplier's invoice for what was received, posted; and
// the whole chain on /docRelate, each number a link. One browser page walks the road step by step (each
// step needs the one before). Screenshots of every step: test-output/e2e/procure-to-stock/NN-*.png.
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiOk, btn, cells, choose, confirmPopup, exact, item, openList, pickDate, row, rowByTitle } from './support/antd';
import { ADMIN, expectToast, hasChromium, launchBrowser, login, newPage, pathOf, screenshot, SHOTS, waitForScreen } from './support/browser';
import { startServer, type TestServer } from './support/server';

const SHOT_DIR = 'procure-to-stock';

/** A screenshot of the step, with the pointer parked where it opens no menu (the user menu opens on hover). */
async function shot(page: Page, name: string): Promise<void> {
  await page.mouse.move(600, 890);
  await page.evaluate(() => window.scrollTo(0, 0)); // a full-page picture of a scrolled page draws the sticky header mid-page
  await screenshot(page, `${SHOT_DIR}/${name}`);
}

// What the road uses. Codes are unique in the demo company so lists can be searched by them.
const A = { code: 'PTS-A01', name: '不锈钢保温杯 500ml', spec: '500ml 银色' }; // 箱 24 = 4 盒 × 6 个, typed in the form
const B = { code: 'PTS-B01', name: '陶瓷马克杯', spec: '350ml 白色' }; // 箱 12 个, through the API
const C = { code: 'PTS-C01', name: '硅胶杯盖', spec: '直径 8cm' }; // 个 only, through the API
const SUPPLIER = { code: 'SUP-PTS', name: '杭州精工杯业有限公司' };
const WAREHOUSE = { code: 'WH-PTS', name: '杯具仓' };
const LOCATIONS = { A: 'PA-01-01', B: 'PA-01-02', C: 'PB-02-01' };

/** The document screen's frame: its title, number and state tag. */
const doc = (page: Page) => page.locator('.renderer-document-screen');
const stateTag = (page: Page) => doc(page).locator('.ant-card-head-title .ant-tag');
const docNo = async (page: Page) => (await doc(page).locator('.renderer-document-no').innerText()).trim();
const lineRows = (page: Page) => doc(page).locator('.renderer-line-table tr.ant-table-row');
const lineTotals = (page: Page) => doc(page).locator('.renderer-line-table .ant-table-summary tr').first();

async function expectState(page: Page, label: string): Promise<void> {
  await expect.poll(async () => (await stateTag(page).innerText()).trim(), { timeout: 10_000 }).toBe(label);
}

/** A header field's shown value (inputs of a disabled or read-only document header). */
async function headerValue(page: Page, label: string): Promise<string> {
  const field = item(doc(page), label);
  const chosen = field.locator('.ant-select-selection-item');
  if (await chosen.count()) return (await chosen.first().innerText()).trim();
  const input = field.locator('input, textarea');
  if (await input.count()) return (await input.first().inputValue()).trim();
  return (await field.locator('.ant-formily-item-control').innerText()).trim();
}

/** Lines of the document's line table by column title. */
async function lines(page: Page): Promise<Record<string, string>[]> {
  const table = doc(page).locator('.renderer-line-table');
  const out: Record<string, string>[] = [];
  for (const r of await lineRows(page).all()) out.push(await rowByTitle(table, r));
  return out;
}

/** Picks a product in the 商品 lookup cell of a line by typing its code. */
async function pickProduct(page: Page, line: Locator, code: string, label: string): Promise<void> {
  const box = line.getByRole('combobox', { name: '商品' });
  await box.click();
  await box.fill(code);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: exact(label) }).click();
  await expect.poll(async () => (await line.locator('.ant-select-selection-item').innerText()).trim()).toBe(label);
}

/** Times the unsaved-changes question got in the way of a save's own navigation (see openedAfterSave). */
const guardHits: string[] = [];

/**
 * Saving a new document opens it at its own URL (afterSave). Bug worked around here: DocumentScreen
 * saves the header through its own call, so the header form never learns it was saved and the navigation
 * guard asks 有未保存的修改 on the way to the saved document. The test answers 离开 and reports it.
 */
async function openedAfterSave(page: Page, url: RegExp): Promise<void> {
  const question = page.locator('.ant-modal-confirm', { hasText: '有未保存的修改' });
  await expect.poll(async () => url.test(pathOf(page)) || (await question.isVisible()), { timeout: 15_000 }).toBe(true);
  if (!url.test(pathOf(page))) {
    guardHits.push(pathOf(page));
    await btn(question, '离开').click();
    await page.waitForURL((u) => url.test(u.pathname));
  }
}

describe.skipIf(!hasChromium)('procure to stock (e2e)', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  // filled as the road goes on
  const ids = { b: 0, c: 0, warehouse: 0, order: 0, note: 0, putaway: 0 };
  const numbers = { order: '', plan: '', task: '', note: '', putaway: '', invoice: '' };

  beforeAll(async () => {
    fs.rmSync(path.join(SHOTS, SHOT_DIR), { recursive: true, force: true }); // no pictures of an older run
    server = await startServer();
    browser = await launchBrowser();
    ({ context, page } = await newPage(browser, server.baseUrl));
    await login(page, ADMIN);
  });

  // Each step needs the one before: after a failure the rest are skipped, not failed for that reason.
  let broken = false;
  beforeEach((ctx) => {
    if (broken) ctx.skip();
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state !== 'fail') return;
    broken = true;
    console.log(`failed at ${page.url()}; toasts: ${JSON.stringify(await page.locator('.ant-message-notice-content').allInnerTexts())}`);
    await shot(page, 'failure').catch(() => undefined);
  });

  afterAll(async () => {
    if (guardHits.length) console.log(`有未保存的修改 asked after saving on: ${guardHits.join(', ')}`);
    await context?.close();
    await browser?.close();
    await server?.stop();
  });

  it('creates a product with big/mid/small units and a box spec in the commodity list form', async () => {
    await openList(page, '/commodity/list', '商品列表');
    await btn(page, '新增').click();
    const modal = page.locator('.ant-modal');
    await item(modal, '商品编码').locator('input').fill(A.code);
    await item(modal, '商品名称').locator('input').fill(A.name);
    await item(modal, '规格').locator('input').fill(A.spec);
    await item(modal, '参考价').locator('input').fill('12.5');
    await item(modal, '小单位').locator('input').fill('个');
    await item(modal, '中单位').locator('input').fill('盒');
    await item(modal, '中包装含小单位数').locator('input').fill('6');
    await item(modal, '大单位').locator('input').fill('箱');
    await item(modal, '大包装含小单位数').locator('input').fill('24');
    await item(modal, '箱重（克）').locator('input').fill('9600');
    await item(modal, '箱体积（cm³）').locator('input').fill('54000');
    await shot(page, '01-product-form');
    await btn(modal, '保存').click();
    await expectToast(page, '保存成功');
    const listed = row(page, A.code);
    await listed.waitFor();
    const shown = await rowByTitle(page.locator('.renderer-list'), listed);
    expect(shown).toMatchObject({ 商品编码: A.code, 商品名称: A.name, 规格: A.spec, 大单位: '箱', 中单位: '盒', 小单位: '个', 中包装数: '6', 大包装数: '24', '箱重（克）': '9,600', '箱体积（cm³）': '54,000' });
    expect(shown.参考价).toContain('12.50');

    // The two other products of the order come through the API: the form is not the point twice more.
    ids.b = (await apiOk(page, 'cdm', '010203', { code: B.code, name: B.name, specification: B.spec, unitBig: '箱', unitSmall: '个', bigQty: 12, midQty: 1, price: '8.80' })).id;
    ids.c = (await apiOk(page, 'cdm', '010203', { code: C.code, name: C.name, specification: C.spec, unitSmall: '个', bigQty: 1, midQty: 1, price: '0.35' })).id;
    await page.locator('.renderer-list input[placeholder^="商品编码"]').fill('PTS-');
    await btn(page, '查询').click();
    await expect.poll(() => page.locator('.renderer-list tr.ant-table-row').count()).toBe(3);
    await shot(page, '02-product-list');
  });

  it('creates the supplier', async () => {
    await openList(page, '/procurement/supplier', '供应商');
    await btn(page, '新增').click();
    const modal = page.locator('.ant-modal');
    await item(modal, '供应商编码').locator('input').fill(SUPPLIER.code);
    await item(modal, '供应商名称').locator('input').fill(SUPPLIER.name);
    await item(modal, '联系人').locator('input').fill('王建国');
    await item(modal, '电话').locator('input').fill('0571-88886666');
    await item(modal, '账期（天）').locator('input').fill('30');
    await shot(page, '03-supplier-form');
    await btn(modal, '保存').click();
    await expectToast(page, '保存成功');
    await row(page, SUPPLIER.code).waitFor();
    expect(await rowByTitle(page.locator('.renderer-list'), row(page, SUPPLIER.code))).toMatchObject({ 供应商名称: SUPPLIER.name, 联系人: '王建国', '账期（天）': '30', 状态: '启用' });
    await shot(page, '04-supplier-list');
  });

  it('sets up a warehouse, its locations and the default location of each product', async () => {
    await openList(page, '/entrepot/list', '仓库');
    await btn(page, '新增').click();
    const modal = page.locator('.ant-modal');
    await item(modal, '仓库编码').locator('input').fill(WAREHOUSE.code);
    await item(modal, '仓库名称').locator('input').fill(WAREHOUSE.name);
    await btn(modal, '保存').click();
    await expectToast(page, '保存成功');
    await row(page, WAREHOUSE.code).waitFor();
    const warehouses: { id: number; code: string }[] = (await apiOk(page, 'cdm', '011001', { page: 1, pageSize: 50 })).list;
    ids.warehouse = warehouses.find((w) => w.code === WAREHOUSE.code)?.id ?? 0;
    expect(ids.warehouse).toBeGreaterThan(0);

    // Locations and two of the default locations through the API; the first default location on its screen.
    const loc: Record<string, number> = {};
    for (const code of Object.values(LOCATIONS)) loc[code] = (await apiOk(page, 'cdm', '011103', { warehouseId: ids.warehouse, lcCode: code, zone: code.slice(0, 2), type: 'storage' })).id;
    await apiOk(page, 'cdm', '011203', { productId: ids.b, warehouseId: ids.warehouse, locationId: loc[LOCATIONS.B] });
    await apiOk(page, 'cdm', '011203', { productId: ids.c, warehouseId: ids.warehouse, locationId: loc[LOCATIONS.C] });

    await openList(page, '/entrepot/defaultLocation', '默认库位');
    await btn(page, '新增').click();
    await choose(page, item(modal, '商品'), A.name);
    await choose(page, item(modal, '仓库'), WAREHOUSE.name);
    await choose(page, item(modal, '库位'), LOCATIONS.A);
    await btn(modal, '保存').click();
    await expectToast(page, '保存成功');
    await row(page, A.name).waitFor();
    const list = page.locator('.renderer-list');
    const shown = await Promise.all([A.name, B.name, C.name].map(async (n) => (await rowByTitle(list, row(page, n))).库位));
    expect(shown).toEqual([LOCATIONS.A, LOCATIONS.B, LOCATIONS.C]);
    await shot(page, '05-default-locations');
  });

  it('enters a purchase order of three lines with big/mid/small quantities, saves and confirms it', async () => {
    await page.goto('/procurement/purchaseOrder');
    await waitForScreen(page, '新建采购订单');
    await choose(page, item(doc(page), '供应商'), SUPPLIER.name);
    await choose(page, item(doc(page), '收货仓库'), WAREHOUSE.name);

    for (let i = 0; i < 3; i++) await btn(doc(page), '添加行').click();
    await expect.poll(() => lineRows(page).count()).toBe(3);
    const [la, lb, lc] = [lineRows(page).nth(0), lineRows(page).nth(1), lineRows(page).nth(2)];

    // A: 2 箱 1 盒 3 个 = 57 个 at the reference price the lookup brings (12.50)
    await pickProduct(page, la, A.code, `${A.code} ${A.name}`);
    expect(await la.getByRole('textbox', { name: '单价' }).inputValue()).toBe('12.50');
    await la.getByRole('textbox', { name: '数量（大包装）' }).fill('2');
    await la.getByRole('textbox', { name: '数量（中包装）' }).fill('1');
    await la.getByRole('textbox', { name: '数量（最小单位）' }).fill('3');
    // B has no inner box: only 箱 and 个. 5 箱 = 60 个 at 8.8000
    await pickProduct(page, lb, B.code, `${B.code} ${B.name}`);
    expect(await lb.getByRole('textbox', { name: '数量（中包装）' }).count()).toBe(0);
    await lb.getByRole('textbox', { name: '数量（大包装）' }).fill('5');
    await lb.getByRole('textbox', { name: '单价' }).fill('8.8');
    // C: small units only, 100 个 at 0.3456 (four decimals: the amount rounds half up to 34.56)
    await pickProduct(page, lc, C.code, `${C.code} ${C.name}`);
    expect(await lc.getByRole('textbox', { name: /数量（(大|中)包装）/ }).count()).toBe(0);
    await lc.getByRole('textbox', { name: '数量（最小单位）' }).fill('100');
    await lc.getByRole('textbox', { name: '单价' }).fill('0.3456');

    const typed = await lines(page);
    expect(typed.map((l) => [l.规格, l.金额])).toEqual([[A.spec, '712.50'], [B.spec, '528.00'], [C.spec, '34.56']]);
    const totals = await cells(lineTotals(page));
    expect(totals).toContain('合计');
    expect(totals).toContain('217');
    expect(totals).toContain('1,275.06');
    await shot(page, '06-purchase-order-new');

    await btn(doc(page), '保存').click();
    await expectToast(page, '保存成功');
    await openedAfterSave(page, /^\/procurement\/purchaseOrder\/\d+$/);
    await waitForScreen(page, '采购订单详情');
    ids.order = Number(pathOf(page).split('/').pop());
    await expectState(page, '草稿');
    numbers.order = await docNo(page);
    expect(numbers.order).toMatch(/^CG\d{12}$/);
    expect(await headerValue(page, '金额合计')).toContain('1275.06');
    const saved = await lines(page);
    // still a draft: the saved totals come back split into the packs they were typed in
    expect(saved.map((l) => [l.商品, l.数量, l.单价, l.金额])).toEqual([
      [`${A.code} ${A.name}`, '2 / 1 / 3', '12.5000', '712.50'],
      [`${B.code} ${B.name}`, '5 / ', '8.8000', '528.00'],
      [`${C.code} ${C.name}`, '100', '0.3456', '34.56'],
    ]);

    await btn(doc(page), '确认').click();
    await confirmPopup(page, `确定确认采购订单“${numbers.order}”？确认后不能再修改。`);
    await expectToast(page, '已确认');
    await expectState(page, '已确认');
    // confirmed: read-only, and the next steps offered
    expect(await btn(doc(page), '保存').count()).toBe(0);
    expect(await btn(doc(page), '添加行').count()).toBe(0);
    expect((await lines(page)).map((l) => [l.商品, l.数量, l.单价, l.金额, l.已收, l.未收])).toEqual([
      [`${A.code} ${A.name}`, '57', '12.5000', '712.50', '0', '57'],
      [`${B.code} ${B.name}`, '60', '8.8000', '528.00', '0', '60'],
      [`${C.code} ${C.name}`, '100', '0.3456', '34.56', '0', '100'],
    ]);
    expect(await cells(lineTotals(page))).toEqual(expect.arrayContaining(['合计', '217', '1,275.06']));
    await btn(doc(page), '收货').waitFor();
    await shot(page, '07-purchase-order-confirmed');
  });

  it('plans the arrival: an inbound plan for the whole order, confirmed into an inbound task', async () => {
    await page.goto('/procurement/treasuryPlanOrder');
    await waitForScreen(page, '新建入库计划');
    await choose(page, item(doc(page), '采购订单'), numbers.order);
    await expect.poll(() => lineRows(page).count()).toBe(3);
    expect(await headerValue(page, '供应商')).toBe(SUPPLIER.name);
    expect(await headerValue(page, '收货仓库')).toBe(WAREHOUSE.name);
    await pickDate(item(doc(page), '预计到货日期'), '2026-12-01');
    // every open unit planned by default, shown in the packs of each product
    expect((await lines(page)).map((l) => [l.商品编码, l.订购, l.可计划, l.计划数量])).toEqual([
      [A.code, '57', '57', '2 / 1 / 3'],
      [B.code, '60', '60', '5 / '],
      [C.code, '100', '100', '100'],
    ]);
    expect(await cells(lineTotals(page))).toContain('217');
    await shot(page, '08-inbound-plan-new');

    await btn(doc(page), '保存').click();
    await expectToast(page, '保存成功');
    await openedAfterSave(page, /^\/procurement\/treasuryPlanDetail\/\d+$/);
    await expectState(page, '草稿');
    numbers.plan = await docNo(page);
    expect(numbers.plan).toMatch(/^RP\d{12}$/);
    await btn(doc(page), '确认').click();
    await confirmPopup(page, `确定确认入库计划“${numbers.plan}”？确认后生成入库任务。`);
    await expectToast(page, '已确认，入库任务已生成');
    await expectState(page, '已确认');
    numbers.task = await headerValue(page, '入库任务');
    expect(numbers.task).toMatch(/^RT\d{12}$/);
    expect(await headerValue(page, '预计到货日期')).toContain('2026-12-01');
    await shot(page, '09-inbound-plan-confirmed');

    await btn(doc(page), '入库任务').click();
    await page.waitForURL(/\/entrepot\/inboundTaskDetail\/\d+$/);
    await waitForScreen(page, '入库任务详情');
    await expectState(page, '待收货');
    expect(await docNo(page)).toBe(numbers.task);
    expect(await headerValue(page, '入库计划')).toBe(numbers.plan);
    expect(await headerValue(page, '采购订单')).toBe(numbers.order);
    expect((await lines(page)).map((l) => [l.商品编码, l.计划数量, l['计划（大/中/小）'], l.未收])).toEqual([
      [A.code, '57', '2箱1盒3个', '57'],
      [B.code, '60', '5箱', '60'],
      [C.code, '100', '100个', '100'],
    ]);
    await shot(page, '10-inbound-task');
  });

  it('receives against the task with one line short, posts the note: the order shows 部分收货, the task 收货中', async () => {
    // The order's own 收货 action is there too (it receives without a task).
    await page.goto(`/procurement/purchaseOrder/${ids.order}`);
    await waitForScreen(page, '采购订单详情');
    await btn(doc(page), '收货').waitFor();
    await page.goBack();
    await waitForScreen(page, '入库任务详情');
    const taskUrl = pathOf(page);

    await btn(doc(page), '收货').click();
    await page.waitForURL(`**/entrepot/receivingNoteDetail/new?orderId=${ids.order}&taskId=*`);
    await waitForScreen(page, '收货单详情');
    await expect.poll(() => lineRows(page).count()).toBe(3);
    expect(await headerValue(page, '入库任务')).toBe(numbers.task);
    expect(await headerValue(page, '供应商')).toBe(SUPPLIER.name);
    expect(await headerValue(page, '收货仓库')).toBe(WAREHOUSE.name);
    const brought = await lines(page);
    expect(brought.map((l) => [l.商品编码, l.订购, l.未收, l.实收])).toEqual([
      [A.code, '57', '57', '2 / 1 / 3'],
      [B.code, '60', '60', '5 / '],
      [C.code, '100', '100', '100'],
    ]);
    // counted = open by default; B arrived short: 4 箱 6 个 = 54 of 60
    const lb = lineRows(page).nth(1);
    await lb.getByRole('textbox', { name: '实收（大包装）' }).fill('4');
    await lb.getByRole('textbox', { name: '实收（最小单位）' }).fill('6');
    expect(await cells(lineTotals(page))).toContain('211');
    await shot(page, '11-receiving-note-new');

    await btn(doc(page), '保存').click();
    await expectToast(page, '保存成功');
    await openedAfterSave(page, /^\/entrepot\/receivingNoteDetail\/\d+$/);
    ids.note = Number(pathOf(page).split('/').pop());
    await expectState(page, '草稿');
    numbers.note = await docNo(page);
    expect(numbers.note).toMatch(/^SH\d{12}$/);
    await btn(doc(page), '过账').click();
    await confirmPopup(page, `确定过账收货单“${numbers.note}”？过账后货物计入库存。`);
    await expectToast(page, '已过账');
    await expectState(page, '已过账');
    expect(await headerValue(page, '入库数量')).toBe('211');
    expect((await lines(page)).map((l) => [l.商品编码, l.实收, l.破损, l.入库])).toEqual([[A.code, '57', '0', '57'], [B.code, '54', '0', '54'], [C.code, '100', '0', '100']]);
    await shot(page, '12-receiving-note-posted');

    await page.goto(`/procurement/purchaseOrder/${ids.order}`);
    await waitForScreen(page, '采购订单详情');
    await expectState(page, '部分收货');
    expect((await lines(page)).map((l) => [l.数量, l.已收, l.未收])).toEqual([['57', '57', '0'], ['60', '54', '6'], ['100', '100', '0']]);
    await btn(doc(page), '收货').waitFor(); // the rest of B can still come
    await btn(doc(page), '关闭').waitFor();
    await shot(page, '13-purchase-order-partly-received');

    await page.goto(taskUrl);
    await waitForScreen(page, '入库任务详情');
    await expectState(page, '收货中');
    expect([await headerValue(page, '已收数量'), await headerValue(page, '未收数量')]).toEqual(['211', '6']);
    expect((await lines(page)).map((l) => [l.商品编码, l.已收, l.未收, l['未收（大/中/小）']])).toEqual([
      [A.code, '57', '0', '0个'],
      [B.code, '54', '6', '6个'],
      [C.code, '100', '0', '0个'],
    ]);
    await shot(page, '14-inbound-task-receiving');
  });

  it('puts the goods away to the suggested locations and posts the putaway', async () => {
    await page.goto(`/entrepot/receivingNoteDetail/${ids.note}`);
    await waitForScreen(page, '收货单详情');
    await btn(doc(page), '上架').click();
    await page.waitForURL(`**/entrepot/putawayDetail/new?receivingNoteId=${ids.note}`);
    await waitForScreen(page, '上架单详情');
    await expect.poll(() => lineRows(page).count()).toBe(3);
    expect(await headerValue(page, '仓库')).toBe(WAREHOUSE.name);
    const suggested = await lines(page);
    expect(suggested.map((l) => [l.商品编码, l.待上架, l.上架库位])).toEqual([[A.code, '57', LOCATIONS.A], [B.code, '54', LOCATIONS.B], [C.code, '100', LOCATIONS.C]]);
    const qtys = await lineRows(page).getByRole('textbox', { name: '上架数量' }).evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
    expect(qtys).toEqual(['57', '54', '100']);
    await shot(page, '15-putaway-new');

    await btn(doc(page), '保存').click();
    await expectToast(page, '保存成功');
    await openedAfterSave(page, /^\/entrepot\/putawayDetail\/\d+$/);
    ids.putaway = Number(pathOf(page).split('/').pop());
    numbers.putaway = await docNo(page);
    expect(numbers.putaway).toMatch(/^SJ/);
    await btn(doc(page), '过账').click();
    await confirmPopup(page, `确定过账上架单“${numbers.putaway}”？过账后库存移到上架库位。`);
    await expectToast(page, '已过账');
    await expectState(page, '已过账');
    expect(await headerValue(page, '上架数量')).toBe('211');
    expect((await lines(page)).map((l) => [l.商品编码, l.上架库位, l.上架数量])).toEqual([[A.code, LOCATIONS.A, '57'], [B.code, LOCATIONS.B, '54'], [C.code, LOCATIONS.C, '100']]);
    await shot(page, '16-putaway-posted');
  });

  it('shows the stock on 商品库存 and 库存分布, to the unit', async () => {
    await openList(page, '/commodity/inventory', '商品库存');
    await page.locator('.renderer-list input[placeholder^="商品编码"]').fill('PTS-');
    await btn(page, '查询').click();
    await expect.poll(() => page.locator('.renderer-list tr.ant-table-row').count()).toBe(3);
    const list = page.locator('.renderer-list');
    const inv = await Promise.all([A, B, C].map((p) => rowByTitle(list, row(page, p.code))));
    expect(inv.map((r) => [r.商品编码, r.仓库, r.现有, r['现有（大/中/小）'], r.可用, r['可用（大/中/小）']])).toEqual([
      [A.code, WAREHOUSE.name, '57', '2箱1盒3个', '57', '2箱1盒3个'],
      [B.code, WAREHOUSE.name, '54', '4箱6个', '54', '4箱6个'],
      [C.code, WAREHOUSE.name, '100', '100个', '100', '100个'],
    ]);
    const totals = (await list.locator('.ant-table-summary tr').first().allInnerTexts()).join(' ');
    expect(totals).toContain('本页合计');
    expect(totals).toMatch(/\b211\b/);
    await shot(page, '17-inventory');

    await openList(page, '/entrepot/inventoryDistribution', '库存分布');
    await page.locator('.renderer-list input[placeholder^="商品编码"]').fill('PTS-');
    await btn(page, '查询').click();
    await expect.poll(() => page.locator('.renderer-list tr.ant-table-row').count()).toBe(3);
    const dist = await Promise.all([A, B, C].map((p) => rowByTitle(list, row(page, p.code))));
    expect(dist.map((r) => [r.仓库, r.库位, r.商品编码, r.现有, r['现有（大/中/小）']])).toEqual([
      [WAREHOUSE.name, LOCATIONS.A, A.code, '57', '2箱1盒3个'],
      [WAREHOUSE.name, LOCATIONS.B, B.code, '54', '4箱6个'],
      [WAREHOUSE.name, LOCATIONS.C, C.code, '100', '100个'],
    ]);
    await shot(page, '18-inventory-distribution');
  });

  it("enters the supplier's invoice for what was received and posts it", async () => {
    await page.goto('/procurement/invoice/add');
    await waitForScreen(page, '新增采购发票');
    await choose(page, item(doc(page), '供应商'), SUPPLIER.name);
    await expect.poll(() => lineRows(page).count()).toBe(3);
    await item(doc(page), '发票号').locator('input').fill('04561120'); // the supplier's number (digits, as on a 发票)
    await pickDate(item(doc(page), '开票日期'), '2026-11-20');
    await item(doc(page), '税率（%）').locator('input').fill('13');
    // what was received (not what was ordered), at the order's prices
    expect((await lines(page)).map((l) => [l.收货单, l.采购订单, l.商品编码, l.可开票, l.开票数量, l.单价, l.金额])).toEqual([
      [numbers.note, numbers.order, A.code, '57', '57', '12.5000', '712.50'],
      [numbers.note, numbers.order, B.code, '54', '54', '8.8000', '475.20'],
      [numbers.note, numbers.order, C.code, '100', '100', '0.3456', '34.56'],
    ]);
    expect(await cells(lineTotals(page))).toEqual(expect.arrayContaining(['合计', '211', '1,222.26']));
    await shot(page, '19-invoice-new');

    await btn(doc(page), '保存').click();
    await expectToast(page, '保存成功');
    await openedAfterSave(page, /^\/procurement\/invoiceDetail\/\d+$/);
    await expectState(page, '草稿');
    numbers.invoice = await docNo(page);
    expect(numbers.invoice).toMatch(/^FP\d{12}$/);
    await btn(doc(page), '过账').click();
    await confirmPopup(page, `确定过账采购发票“${numbers.invoice}”？过账后生成应付款。`);
    await expectToast(page, '已过账');
    await expectState(page, '已过账');
    // 1222.26 × 13 / 113 = 140.6136… → 140.61; due after the supplier's 30 days
    expect([await headerValue(page, '发票号'), await headerValue(page, '价税合计'), await headerValue(page, '税额'), await headerValue(page, '付款到期日'), await headerValue(page, '应付款')])
      .toEqual(['04561120', '1222.26', '140.61', '2026-12-20', '未结清']);
    expect((await lines(page)).map((l) => [l.商品编码, l.可开票, l.开票数量, l.金额])).toEqual([[A.code, '0', '57', '712.50'], [B.code, '0', '54', '475.20'], [C.code, '0', '100', '34.56']]);
    await shot(page, '20-invoice-posted');
  });

  it('opens /docRelate from the order and sees the whole chain, each number a link', async () => {
    await page.goto(`/procurement/purchaseOrder/${ids.order}`);
    await waitForScreen(page, '采购订单详情');
    await btn(doc(page), '单据关联').click();
    await page.waitForURL(`**/docRelate?docNo=${numbers.order}`);
    await waitForScreen(page, '单据关联查询');
    const list = page.locator('.renderer-list');
    await row(page, numbers.putaway).waitFor();
    const chain = [];
    for (const r of await list.locator('tr.ant-table-row').all()) chain.push(await rowByTitle(list, r));
    expect(chain.map((r) => [r.单据类型, r.单号, r.状态, r.来源单号])).toEqual([
      ['采购订单', numbers.order, '部分收货', '-'],
      ['入库计划', numbers.plan, '已确认', numbers.order],
      ['入库任务', numbers.task, '收货中', numbers.plan],
      ['收货单', numbers.note, '已过账', numbers.task],
      ['上架单', numbers.putaway, '已过账', numbers.note],
      ['采购发票', numbers.invoice, '已过账', numbers.note],
    ]);
    // every number is a link to its document
    const hrefs = await list.locator('tr.ant-table-row').evaluateAll((rows) => rows.map((r) => r.querySelector('a')?.getAttribute('href') ?? ''));
    expect(hrefs).toEqual([
      `/procurement/purchaseOrder/${ids.order}`,
      expect.stringMatching(/^\/procurement\/treasuryPlanDetail\/\d+$/),
      expect.stringMatching(/^\/entrepot\/inboundTaskDetail\/\d+$/),
      `/entrepot/receivingNoteDetail/${ids.note}`,
      `/entrepot/putawayDetail/${ids.putaway}`,
      expect.stringMatching(/^\/procurement\/invoiceDetail\/\d+$/),
    ]);
    await shot(page, '21-doc-relate');

    // a number opens its document
    await row(page, numbers.note).getByRole('link', { name: numbers.note }).click();
    await page.waitForURL(`**/entrepot/receivingNoteDetail/${ids.note}`);
    await waitForScreen(page, '收货单详情');
    expect(await docNo(page)).toBe(numbers.note);
    await shot(page, '22-doc-relate-opened');
  });
});
