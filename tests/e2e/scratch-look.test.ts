import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { apiOk } from './support/antd';
import { ADMIN, hasChromium, launchBrowser, login, newPage } from './support/browser';
import { startServer, type TestServer } from './support/server';
describe.skipIf(!hasChromium)('scratch', () => {
  let server: TestServer; let browser: Browser;
  beforeAll(async () => { server = await startServer(); browser = await launchBrowser(); });
  afterAll(async () => { await browser?.close(); await server?.stop(); });
  it('look', async () => {
    const { page } = await newPage(browser, server.baseUrl);
    await login(page, ADMIN);
    const products = (await apiOk(page, 'cdm', '010201', { page: 1, pageSize: 5 })).list;
    const orders = (await apiOk(page, 'oms', '020201', { page: 1, pageSize: 9 })).list;
    const po = orders.find((o: any) => o.status === 'partlyReceived');
    for (const url of [`/commodity/goodsDetail/${products[0].id}`, `/procurement/purchaseOrder/${po.id}`, '/procurement/invoice/list', '/baseConfig/setConfig']) {
      await page.goto(url);
      await page.waitForTimeout(2500);
      console.log('=====', url, '\n', (await page.locator('.page-body').innerText()).slice(0, 2500));
    }
  });
});
