// Stocktaking and the floor views in Chromium, from the demo company a new user gets (issue 14): a
// warehouse supervisor (role 盘点主管, made here by the demo admin; the seeded 仓管员 counts but neither sees variances nor posts) starts a count of zone C of 主仓库, counts
// blind with the keyboard (two entries for the nuts add up), sees the variances, posts them; then counts
// on /ipad/inventory at 1024×768 with touch emulation and scans on /ipad; a product label's QR URL is
// opened without a token (code and name only) and logged in (stock); the label sheet prints on A4 or
// 100×50 mm stock; a single piece is scanned into 单件扫描记录. Screenshots: test-output/e2e/stocktake/NN-*.png.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiOk, btn, cells, choose, confirmPopup, headers, item, openList, row } from './support/antd';
import { ADMIN, expectToast, hasChromium, login, screenshot, waitForTitle, type Account } from './support/browser';
import { setupE2e } from './support/setup';

const SHOT_DIR = 'stocktake';
const KEEPER: Account = { companyCode: 'demo', userName: 'keeper', password: 'Count-4711' };
// the demo walk's stock (seed-demo-walk.ts): 1000 bolts DM-1001 at C-01-01, 1500 nuts DM-1002 at C-01-02
// (1 盒 = 100, 1 箱 = 2000, reference price 0.12), 24 cups DM-2001 at D-01-01

async function shot(page: Page, name: string): Promise<void> {
  await screenshot(page, `${SHOT_DIR}/${name}`);
}

/** Visible tap targets smaller than 44×44 px (buttons, switches, the clear × of inputs and selects). */
function smallTargets(p: Page) {
  return p.evaluate(() => [...document.querySelectorAll('button, a[href], .ant-switch, .ant-input-clear-icon, .ant-select-clear, .ant-select-selector, .ant-pagination-item')]
    .map((e) => ({ e, r: e.getBoundingClientRect() }))
    .filter(({ e, r }) => r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden' && (r.width < 44 || r.height < 44))
    .map(({ e, r }) => `${e.className.toString().split(' ')[0]} “${(e.textContent ?? '').slice(0, 8)}” ${Math.round(r.width)}×${Math.round(r.height)}`));
}

describe.skipIf(!hasChromium)('stocktaking, tablet and labels (e2e)', () => {
  const e2e = setupE2e({
    page: true,
    walk: { shots: SHOT_DIR },
    // the demo admin gives a warehouse clerk the stocktaking rights
    ready: async ({ page }) => {
      await login(page, ADMIN);
      const role = await apiOk(page, 'cdm', '013303', {
        name: '盘点主管',
        rights: ['entrepot.takeStock', 'entrepot.takeStock.edit', 'entrepot.takeStock.count', 'entrepot.takeStock.variance', 'entrepot.takeStock.post', 'ipad', 'ipad.inventory', 'commodity.inventory'],
      });
      await apiOk(page, 'cdm', '013403', { userName: KEEPER.userName, password: KEEPER.password, roleIds: [role.id] });
      await page.evaluate(() => localStorage.clear());
      await login(page, KEEPER);
    },
  });
  let page: Page;
  let takeNo = '';

  beforeAll(() => {
    page = e2e.page;
  });


  const drawer = () => page.locator('.ant-drawer-content:visible');
  const modal = () => page.locator('.ant-modal-content:visible');

  it('the clerk starts a count of zone C: the sheet is made from the book, in walking order', async () => {
    await openList(page, '/entrepot/takeStock', '盘点');
    await btn(page, '新建盘点').click();
    await choose(page, item(modal(), '仓库'), '主仓库');
    await item(modal(), '库区').locator('input').click();
    await page.keyboard.type('c');
    await item(modal(), '备注').locator('textarea').click();
    await page.keyboard.type('月末盘点 C 区');
    await shot(page, '01-new-take');
    await btn(modal(), '生成盘点表').click();
    await expectToast(page, '共 2 行');
    const r = row(page, '盘点中');
    await r.waitFor();
    takeNo = (await cells(r))[0]!;
    expect(takeNo).toMatch(/^PD\d+/);
    expect(await cells(r)).toEqual(expect.arrayContaining(['主仓库', 'C', '盘点中', '2']));
  });

  it('counts blind with the keyboard: no book quantity anywhere; two entries for the nuts add up', async () => {
    await btn(row(page, takeNo), '盘点录入').click();
    await drawer().locator('tr.ant-table-row').first().waitFor();
    const titles = await headers(drawer());
    expect(titles).toEqual(expect.arrayContaining(['库位', '商品编码', '已盘数量']));
    expect(titles.join(' ')).not.toMatch(/账面|差异/);
    expect(await drawer().locator('tr.ant-table-row').allInnerTexts()).toEqual([expect.stringContaining('C-01-01'), expect.stringContaining('C-01-02')]);
    await shot(page, '02-sheet-blind');

    // bolts: 1 箱 (the first box has the focus)
    await btn(row(drawer(), 'DM-1001'), '录入').click();
    await modal().waitFor();
    await page.keyboard.type('1');
    await page.keyboard.press('Enter');
    await expectToast(page, '第 1 行累计 1箱');
    // nuts: 14 盒, then 95 个 more
    await btn(row(drawer(), 'DM-1002'), '录入').click();
    await modal().waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.type('14');
    await shot(page, '03-count-entry');
    await page.keyboard.press('Enter');
    await expectToast(page, '第 2 行累计 14盒');
    await btn(row(drawer(), 'DM-1002'), '录入').click();
    await modal().waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.type('95');
    await page.keyboard.press('Enter');
    await expectToast(page, '第 2 行累计 14盒95个');
    await expect.poll(async () => cells(row(drawer(), 'DM-1002'))).toEqual(expect.arrayContaining(['14盒95个', '2']));
    expect(await cells(row(drawer(), 'DM-1001'))).toEqual(expect.arrayContaining(['1箱', '1']));
    await shot(page, '04-sheet-counted');
    await page.keyboard.press('Escape');
    await drawer().waitFor({ state: 'hidden' });
  });

  it('sees the variances in big/mid/small and in value, and posts them', async () => {
    await btn(row(page, takeNo), '差异').click();
    await drawer().locator('tr.ant-table-row').first().waitFor();
    const bolts = await cells(row(drawer(), 'DM-1001'));
    const nuts = await cells(row(drawer(), 'DM-1002'));
    // 账面 / 实盘 / 差异 (大/中/小), then in small units, price and value
    expect(bolts.slice(4, 7)).toEqual(['1箱', '1箱', '0个']);
    expect(nuts.slice(4, 7)).toEqual(['15盒', '14盒95个', '-5个']);
    expect(nuts).toEqual(expect.arrayContaining(['1,500', '1,495', '-5', '-0.60']));
    await shot(page, '05-variances');
    await page.keyboard.press('Escape');
    await drawer().waitFor({ state: 'hidden' });

    await btn(row(page, takeNo), '过账').click();
    await confirmPopup(page, `确定过账盘点单“${takeNo}”？差异将作为一次库存调整写入流水（全部或全不）。`);
    await expectToast(page, '已过账');
    await expect.poll(async () => cells(row(page, takeNo))).toEqual(expect.arrayContaining(['已过账', '1', '-0.60']));
    await shot(page, '06-posted');
    // only the nuts moved: 1495 left at C-01-02, the bolts as they were
    const nutsNow = await apiOk(page, 'oms', '024209', { keyword: 'DM-1002', page: 1, pageSize: 10 });
    expect(nutsNow.list.map((l: any) => [l.lcCode, l.onHand])).toEqual([['C-01-02', 1495]]); // eslint-disable-line @typescript-eslint/no-explicit-any
    const boltsNow = await apiOk(page, 'oms', '024209', { keyword: 'DM-1001', page: 1, pageSize: 10 });
    expect(boltsNow.list.map((l: any) => [l.lcCode, l.onHand])).toEqual([['C-01-01', 1000]]); // eslint-disable-line @typescript-eslint/no-explicit-any
  });

  it('/ipad/inventory at 1024×768 with touch: picks the take, scans a location, counts by tapping', async () => {
    const first = (await apiOk(page, 'oms', '024201', { page: 1, pageSize: 1, docNo: takeNo })).list[0];
    const take = await apiOk(page, 'oms', '024203', { warehouseId: first.warehouseId, productCodes: 'DM-2001' });
    const context = await e2e.browser.newContext({ baseURL: e2e.server.baseUrl, locale: 'zh-CN', viewport: { width: 1024, height: 768 }, hasTouch: true, isMobile: true });
    const tablet = await context.newPage();
    try {
      await login(tablet, KEEPER);
      await tablet.goto('/ipad/inventory');
      await waitForTitle(tablet, '平板库存查询');
      await tablet.locator('.screen-touch').waitFor();
      // the take: tapped in its select
      await tablet.locator('.renderer-filter-bar .ant-select').first().tap();
      await tablet.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: take.docNo }).tap();
      await tablet.locator('.renderer-filter-bar input[placeholder^="扫描"]').fill('d0101');
      await btn(tablet, '查询').tap();
      const line = tablet.locator('tr.ant-table-row', { hasText: 'D-01-01' });
      await line.waitFor();
      await expect.poll(() => tablet.locator('tr.ant-table-row').count()).toBe(1);
      // big targets: the row's button and the query button are at least 44 px high
      const entry = btn(line, '录入');
      expect((await entry.boundingBox())!.height).toBeGreaterThanOrEqual(44);
      expect((await btn(tablet, '查询').boundingBox())!.height).toBeGreaterThanOrEqual(48);
      await screenshot(tablet, `${SHOT_DIR}/07-ipad-inventory`);
      // every target on the page is at least 44×44 (the keyword's ×, the 只看未盘 switch …; issue 33 item 6)
      await tablet.locator('.renderer-filter-bar input[placeholder^="扫描"]').tap();
      expect(await smallTargets(tablet)).toEqual([]);
      // a tap on the row itself (its name, not its button) opens the entry
      await line.locator('td').nth(2).tap();
      const dialog = tablet.locator('.ant-modal-content:visible');
      await dialog.waitFor();
      await item(dialog, '大包装').locator('input').tap();
      await tablet.keyboard.type('1');
      await screenshot(tablet, `${SHOT_DIR}/08-ipad-entry`);
      await btn(dialog, '录入').tap();
      await expectToast(tablet, 'D-01-01 DM-2001 累计 1箱');
      await expect.poll(async () => cells(line)).toEqual(expect.arrayContaining(['1箱', '1']));
      // the counter never sees the book here either
      expect((await headers(tablet)).join(' ')).not.toMatch(/账面|差异/);
      // cups found at D-01-02, which the sheet does not list: scanned in as a new line
      await btn(tablet, '表外录入').tap();
      const extra = tablet.locator('.ant-modal-content:visible');
      await extra.waitFor();
      await item(extra, '商品').locator('input').fill('DM-2001');
      await item(extra, '库位').locator('input').fill('d0102');
      await item(extra, '最小单位').locator('input').fill('3');
      await screenshot(tablet, `${SHOT_DIR}/08b-ipad-extra`);
      await btn(extra, '录入').tap();
      await expectToast(tablet, 'D-01-02 DM-2001 累计 3个');
      const sheet = await apiOk(tablet, 'oms', '024206', { id: take.id, page: 1, pageSize: 50 });
      expect(sheet.list.map((l: any) => [l.lcCode, l.countedQty])).toEqual(expect.arrayContaining([['D-01-01', 24], ['D-01-02', 3]])); // eslint-disable-line @typescript-eslint/no-explicit-any

      // /ipad: a scanned product code shows its stock by location
      await tablet.goto('/ipad');
      await waitForTitle(tablet, '平板工作台');
      await tablet.locator('.renderer-filter-bar input').first().fill('DM-1002');
      await tablet.keyboard.press('Enter');
      const stock = tablet.locator('tr.ant-table-row', { hasText: 'C-01-02' });
      await stock.waitFor();
      expect(await cells(stock)).toEqual(expect.arrayContaining(['C-01-02', 'DM-1002', '14盒95个']));
      await screenshot(tablet, `${SHOT_DIR}/09-ipad-scan`);
      // a tap on a result row shows every place of that product
      await stock.locator('td').nth(2).tap();
      const places = tablet.locator('.ant-drawer-content:visible');
      await places.locator('.ant-drawer-title', { hasText: 'DM-1002' }).waitFor();
      await places.locator('tr.ant-table-row', { hasText: 'C-01-02' }).waitFor();
      expect(await smallTargets(tablet)).toEqual([]);
      await screenshot(tablet, `${SHOT_DIR}/09b-ipad-places`);
    } finally {
      await context.close();
    }
  });

  it('a label\'s QR URL without a token shows only code and name; logged in, the stock too; the label sheet prints', async () => {
    // the admin prints the product labels of the bolts and nuts
    const { context: adminContext, page: admin } = await e2e.newPage();
    let token = '';
    try {
      await login(admin, ADMIN);
      await openList(admin, '/commodity/list', '商品列表');
      for (const code of ['DM-1001', 'DM-1002']) await row(admin, code).locator('.ant-checkbox-input').check();
      await btn(admin, '打印商品标签').click();
      const labels = admin.locator('[data-testid="label"]');
      await expect.poll(() => labels.count()).toBe(2);
      await admin.locator('.label-qr svg').first().waitFor();
      expect(await labels.first().innerText()).toContain('DM-1001');
      expect(await admin.locator('.label-barcode-bars svg').count()).toBe(2);
      await screenshot(admin, `${SHOT_DIR}/10-labels-a4`);
      await admin.locator('.ant-radio-button-wrapper', { hasText: '100 × 50' }).click();
      await admin.emulateMedia({ media: 'print' });
      await screenshot(admin, `${SHOT_DIR}/11-labels-roll-print`);
      await admin.emulateMedia({ media: 'screen' });
      const data = await apiOk(admin, 'oms', '024211', { kind: 'product', ids: [(await apiOk(admin, 'oms', '024209', { keyword: 'DM-1001', page: 1, pageSize: 1 })).list[0].productId] });
      token = data.labels[0].qr;
    } finally {
      await adminContext.close();
    }

    const { context, page: anon } = await e2e.newPage();
    try {
      await anon.goto(`/qrCodeLoad?t=${encodeURIComponent(token)}`);
      await waitForTitle(anon, '扫码查看');
      await anon.getByText('不锈钢六角螺栓 M8×30').first().waitFor();
      const shown = await anon.locator('body').innerText();
      expect(shown).toContain('DM-1001');
      expect(shown).toContain('商品');
      expect(shown).not.toContain('C-01-01');
      expect(shown).not.toContain('库存');
      await screenshot(anon, `${SHOT_DIR}/12-qr-no-token`);
      // a forged token is refused, and says so
      const peek = (id: string) => anon.evaluate(async (t) => (await fetch('/auth/public/990120', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: t }) })).json(), id);
      expect(await peek(token)).toMatchObject({ code: '200', data: { kind: 'product', code: 'DM-1001', name: '不锈钢六角螺栓 M8×30' } });
      expect(Object.keys((await peek(token)).data).sort()).toEqual(['code', 'kind', 'kindText', 'name', 'token']);
      expect(await peek(token.replace(/\.[^.]+$/, '.AAAAAAAAAAAAAAAAAAAAAA'))).toMatchObject({ code: 'LABEL_TOKEN_INVALID_4254', data: null });
      await anon.goto(`/qrCodeLoad?t=${encodeURIComponent(token.replace(/-(\d+)\./, '-999.'))}`);
      await anon.getByText('标签二维码无效或已被篡改').first().waitFor();
      await screenshot(anon, `${SHOT_DIR}/13-qr-forged`);
    } finally {
      await context.close();
    }

    // the clerk, logged in: the same URL shows the stock by location
    await page.goto(`/qrCodeLoad?t=${encodeURIComponent(token)}`);
    await waitForTitle(page, '扫码查看');
    const stock = page.locator('tr.ant-table-row', { hasText: 'C-01-01' });
    await stock.waitFor();
    expect(await cells(stock)).toEqual(['主仓库', 'C-01-01', 'DM-1001', '不锈钢六角螺栓 M8×30', '1箱', '0个']);
    await screenshot(page, `${SHOT_DIR}/14-qr-logged-in`);
  });

  it('单件扫描记录: a scan typed like a scanner (code, Enter) is recorded with the place, who and when', async () => {
    const { context, page: admin } = await e2e.newPage();
    try {
      await login(admin, ADMIN);
      await openList(admin, '/entrepot/singleRecord', '单件扫描记录');
      await btn(admin, '扫描').click();
      const form = admin.locator('.ant-modal-content:visible');
      await form.waitFor();
      await admin.keyboard.type('DM-2002');
      await item(form, '库位').locator('input').fill('d-01-02');
      await item(form, '库位').locator('input').press('Enter');
      await expectToast(admin, '已记录 DM-2002 骨瓷咖啡杯 300ml');
      const r = row(admin, 'DM-2002');
      await r.waitFor();
      expect(await cells(r)).toEqual(expect.arrayContaining(['DM-2002', '骨瓷咖啡杯 300ml', '主仓库', 'D-01-02', '1', 'admin']));
      await screenshot(admin, `${SHOT_DIR}/15-single-record`);
    } finally {
      await context.close();
    }
  });
});
