// System tools in Chromium (issue 17), from the demo company: the administrator sees both server
// processes sharing the database on 服务监控 (and the one stopped as 已停止 after 刷新); sends a call from
// 接口调试 with the body prefilled from the catalog; a user holding only 接口调试 is refused the call they
// have no right to; and 欠货单处理 closes a back order left by a short pick with a reason typed in, the
// reservation released. Screenshots: test-output/e2e/system-tools/NN-*.png.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { spawnServer, type SpawnedServer } from '../support/spawn-server';
import { apiOk, btn, item, openList, row } from './support/antd';
import { ADMIN, expectToast, hasChromium, login, screenshot, waitForScreen, type Account } from './support/browser';
import { ensureClientBuilt } from './support/client';
import { startServer, type TestServer } from './support/server';
import { setupE2e } from './support/setup';

const SHOT_DIR = 'system-tools';
const TRIER: Account = { companyCode: 'demo', userName: 'trier', password: 'secret-111' };

async function shot(page: Page, name: string): Promise<void> {
  await page.mouse.move(600, 890);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, `${SHOT_DIR}/${name}`);
}

describe.skipIf(!hasChromium)('system tools: 服务监控, 接口调试, 欠货单处理 (e2e)', () => {
  let first: TestServer;
  let second: SpawnedServer | null = null;
  const e2e = setupE2e({
    login: ADMIN,
    walk: { shots: SHOT_DIR },
    timeout: 240_000,
    start: async () => {
      first = await startServer();
      // a second process on the same database (the SQLite file of the first)
      second = await spawnServer({ DATA_DIR: first.dataDir, CLIENT_DIR: await ensureClientBuilt(), DATABASE_URL: '' });
      return { ...first, stop: async () => { await second?.stop(); await first.stop(); } };
    },
  });
  let page: Page;
  let backOrderNo = '';

  beforeAll(() => {
    page = e2e.page;
  });

  it('服务监控 shows both processes running; the stopped one shows 已停止 after 刷新', async () => {
    await openList(page, '/system/serviceMonitoring', '服务监控');
    const list = page.locator('.renderer-list');
    await expect.poll(() => list.locator('.ant-table-row', { hasText: '运行中' }).count()).toBe(2);
    await expect.poll(() => list.locator('.ant-table-row', { hasText: '是' }).count()).toBe(1);
    await shot(page, '01-service-monitoring');
    await second!.stop();
    second = null;
    await btn(list, '刷新').first().click();
    await expect.poll(() => list.locator('.ant-table-row', { hasText: '已停止' }).count()).toBe(1);
    await expect.poll(() => list.locator('.ant-table-row', { hasText: '运行中' }).count()).toBe(1);
  });

  it('接口调试: picks a code by typing, the body comes prefilled, 发送 shows the answer', async () => {
    await page.goto('/system/try');
    await waitForScreen(page, '接口调试');
    const api = item(page, '接口');
    await api.locator('.ant-select').click();
    await page.keyboard.type('019503');
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'cdm:019503 数据校验记录' }).click();
    const body = item(page, '请求体').locator('textarea');
    await expect.poll(() => body.inputValue()).toContain('"pageSize": 20');
    await expect.poll(() => page.frameLocator('.renderer-html-preview iframe').locator('body').textContent()).toContain('所需权限：system.verification（你有此权限）');
    await body.fill('{"page": 1, "pageSize": 5}');
    await btn(page, '发送').click();
    const answer = page.locator('.renderer-api-call-answer');
    await expect.poll(() => answer.textContent()).toContain('code 200');
    await expect.poll(() => answer.textContent()).toContain('"pageSize": 5');
    await shot(page, '02-try-sent');
  });

  it('接口调试 is no way around rights: a user holding only 接口调试 is refused 库存数据校验', async () => {
    const role = await apiOk(page, 'cdm', '013303', { name: '接口调试员', rights: ['system.try'] });
    await apiOk(page, 'cdm', '013403', { userName: TRIER.userName, password: TRIER.password, roleIds: [role.id] });
    const other = await e2e.newPage();
    const trier = other.page;
    await login(trier, TRIER);
    await trier.goto('/system/try');
    await waitForScreen(trier, '接口调试');
    await item(trier, '接口').locator('.ant-select').click();
    await trier.keyboard.type('019401');
    await trier.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'cdm:019401' }).click();
    await expect.poll(() => trier.frameLocator('.renderer-html-preview iframe').locator('body').textContent()).toContain('你没有此权限，发送会被拒绝');
    await btn(trier, '发送').click();
    const answer = trier.locator('.renderer-api-call-answer');
    await expect.poll(() => answer.textContent()).toContain('code COMMON_NO_RIGHT_4003');
    expect(await answer.textContent()).toContain('无权限执行“库存数据校验”');
    await shot(trier, '03-try-refused');
    await other.context.close();
  });

  it('欠货单处理: a short-picked, partly delivered order is closed with a reason; its reservation is released', async () => {
    // the back order, made through the API as the demo admin: a product with 10 in stock, an order of 6,
    // picked 4 (short 2), the 4 delivered, the task closed
    const whs = (await apiOk(page, 'cdm', '011001', { page: 1, pageSize: 10 })).list;
    const wh = whs.find((w: any) => w.code === 'WH01').id;
    const locs = (await apiOk(page, 'cdm', '011101', { page: 1, pageSize: 50, filters: { warehouseId: wh } })).list;
    const loc = locs.find((l: any) => l.type === 'storage').id;
    const lists = (await apiOk(page, 'cdm', '014001', { page: 1, pageSize: 20 })).list;
    const sp = lists.find((l: any) => l.code === 'SP01').id;
    const product = await apiOk(page, 'cdm', '010203', { code: 'QH-001', name: '欠货演示商品', unitSmall: '个' });
    await apiOk(page, 'cdm', '014031', { productId: product.id, priceTitleId: sp, price: '3' });
    await apiOk(page, 'oms', '022603', { warehouseId: wh, lines: [{ productId: product.id, qty: 10, locationId: loc }], post: true });
    const clients = (await apiOk(page, 'cdm', '011701', { page: 1, pageSize: 10 })).list;
    const so = await apiOk(page, 'oms', '020903', { clientId: clients[0].id, warehouseId: wh, lines: [{ productId: product.id, qty: 6 }] });
    await apiOk(page, 'oms', '020905', { id: so.id, version: so.version });
    const order = await apiOk(page, 'oms', '020902', { id: so.id });
    const plan = await apiOk(page, 'oms', '020703', { orderId: so.id, lines: order.lines.map((l: any) => ({ orderLineId: l.id, qty: l.qty })) });
    const confirmed = await apiOk(page, 'oms', '020705', { id: plan.id, version: plan.version });
    const pk = await apiOk(page, 'oms', '024003', { taskIds: [confirmed.taskId] });
    const picking = await apiOk(page, 'oms', '024002', { id: pk.id });
    await apiOk(page, 'oms', '024003', { id: pk.id, version: picking.version, post: true,
      lines: picking.lines.map((l: any) => ({ taskLineId: l.taskLineId, qty: l.qty, suggestedLocationId: l.suggestedLocationId, pickedQty: l.qty - 2 })) });
    await apiOk(page, 'oms', '024103', { taskId: confirmed.taskId, deliveryDate: '2026-11-26', post: true });
    const task = await apiOk(page, 'oms', '021306', { id: confirmed.taskId });
    await apiOk(page, 'oms', '021313', { id: confirmed.taskId, version: task.version });
    backOrderNo = so.docNo;

    await openList(page, '/system/deleteBackOrder', '欠货单处理');
    const list = page.locator('.renderer-list');
    const r = row(list, backOrderNo);
    await r.waitFor();
    expect(await r.textContent()).toContain('欠货演示商品 欠 2');
    await shot(page, '04-back-orders');
    await r.locator('.ant-checkbox-input').check();
    await btn(list, '关闭所选欠货').click();
    const modal = page.locator('.ant-modal:visible');
    await modal.waitFor();
    await item(modal, '关闭原因').locator('textarea').click();
    await page.keyboard.type('客户不再要余下的货');
    await btn(modal, '确定关闭').click();
    await expectToast(page, '已关闭 1 张订单的欠货，释放预留 2');
    await expect.poll(() => row(list, backOrderNo).count()).toBe(0);
    const after = await apiOk(page, 'oms', '020902', { id: so.id });
    expect([after.status, after.reservedQty]).toEqual(['closed', 0]);
    await shot(page, '05-back-order-closed');
  });
});
