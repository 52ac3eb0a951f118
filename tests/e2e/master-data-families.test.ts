// The data-management families of cdm 0105 … 0191 in Chromium at 1280 px, as clerks use them: the sales
// clerk adds a delivery address for client C001 and makes it the default (the seeded default gives way);
// the administrator opens the number rule of 销售订单, types a new prefix and sees the preview of the next
// number before saving; the packaging specs list shows its carton sizes and volumes; every other new list
// opens with its demo rows and no column title cut short. Screenshots go to
// test-output/e2e/master-data-families/.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { btn, cells, headers, item, row } from './support/antd';
import { ADMIN, expectToast, hasChromium, login, screenshot, waitForScreen, type Account } from './support/browser';
import { setupE2e } from './support/setup';

const SALES: Account = { companyCode: 'demo', userName: 'sales', password: 'demo123' };
const SHOTS = 'master-data-families';

describe.skipIf(!hasChromium)('master-data families (e2e)', () => {
  const e2e = setupE2e({ walk: { shots: SHOTS } });

  async function pageAs(account: Account): Promise<Page> {
    const { page } = await e2e.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await login(page, account);
    return page;
  }

  it('the sales clerk adds a default delivery address for C001; the old default gives way', async () => {
    const page = await pageAs(SALES);
    await page.goto('/market/clientAddress');
    await waitForScreen(page, '客户收货地址');
    await row(page, '解放路 188 号百货大楼仓库').waitFor();
    expect(await headers(page)).toEqual(expect.arrayContaining(['客户', '默认地址', '收货人', '联系电话', '收货地址']));
    await btn(page, '新增').click();
    const modal = page.locator('.ant-modal:visible');
    await item(modal, '客户').locator('.ant-select').click();
    await page.keyboard.type('C001');
    await page.keyboard.press('Enter');
    await item(modal, '收货人').locator('input').fill('周主管');
    await item(modal, '联系电话').locator('input').fill('0571-88990011');
    await item(modal, '省份').locator('input').fill('浙江省');
    await item(modal, '城市').locator('input').fill('杭州市');
    await item(modal, '区县').locator('input').fill('余杭区');
    await item(modal, '详细地址').locator('input').fill('仓前街道文一西路 998 号 5 号门');
    await item(modal, '默认地址').locator('.ant-switch').click();
    await screenshot(page, `${SHOTS}/01-address-form`);
    await page.keyboard.press('Control+s');
    await expectToast(page, '保存成功');
    const added = row(page, '文一西路 998 号');
    await added.waitFor();
    await expect.poll(async () => (await cells(row(page, '解放路 188 号百货大楼仓库'))).join(' ')).toContain('否');
    expect((await cells(added)).join(' ')).toContain('是');
    await screenshot(page, `${SHOTS}/02-address-list`);
  });

  it('the administrator previews and saves a number rule for 销售订单', async () => {
    const page = await pageAs(ADMIN);
    await page.goto('/system/numberRule');
    await waitForScreen(page, '单据编号规则');
    const so = row(page, '销售订单');
    await so.waitFor();
    expect((await cells(so)).join(' ')).toMatch(/SO\d{12}/);
    await so.getByRole('button', { name: /编辑/ }).click();
    const modal = page.locator('.ant-modal:visible');
    const prefix = item(modal, '前缀').locator('input');
    await prefix.fill('XS');
    const preview = modal.frameLocator('iframe[title="预览"]');
    await expect.poll(() => preview.locator('body').innerText(), { timeout: 10_000 }).toMatch(/销售订单的下一个编号：XS\d{12}/);
    await screenshot(page, `${SHOTS}/03-number-rule-form`);
    await page.keyboard.press('Control+s');
    await expectToast(page, '保存成功');
    await expect.poll(async () => (await cells(row(page, '销售订单'))).join(' ')).toMatch(/XS\d{12}/);
    await screenshot(page, `${SHOTS}/04-number-rules`);
  });

  it('the packaging specs list shows each carton’s volume', async () => {
    const page = await pageAs(ADMIN);
    await page.goto('/commodity/packing');
    await waitForScreen(page, '包装规格');
    const spec = row(page, '保温杯 24 只装');
    await spec.waitFor();
    expect(await cells(spec)).toEqual(expect.arrayContaining(['24', '45.0 × 32.0 × 28.0', '9.600', '8.400', '0.0403']));
    await screenshot(page, `${SHOTS}/05-packing`);
  });

  it('every other new list opens with its demo rows and whole column titles', async () => {
    const page = await pageAs(ADMIN);
    const lists: Array<[string, string, string]> = [
      ['/commodity/brand', '品牌', '华东五金'], ['/commodity/unit', '计量单位', '千克'], ['/market/contact', '联系人', '陈经理'],
      ['/baseConfig/bankAccount', '公司银行账户', '中行美元户'], ['/baseConfig/paymentTerm', '付款条件', '月结 30 天'],
      ['/baseConfig/shippingMethod', '运输方式', '海运整柜'], ['/baseConfig/taxRate', '税率', '出口零税率'], ['/baseConfig/port', '港口与地区', '上海浦东国际机场'],
    ];
    for (const [i, [route, title, text]] of lists.entries()) {
      await page.goto(route);
      await waitForScreen(page, title);
      await row(page, text).waitFor();
      // no column title cut short by its width
      const cut = await page.locator('.ant-table-thead th .ant-table-column-title').evaluateAll((titles) =>
        titles.filter((el) => (el as HTMLElement).scrollWidth > (el as HTMLElement).clientWidth + 1).map((el) => (el as HTMLElement).innerText.trim()));
      expect(cut, route).toEqual([]);
      await screenshot(page, `${SHOTS}/${String(6 + i).padStart(2, '0')}-${route.split('/').pop()}`);
    }
  });
});
