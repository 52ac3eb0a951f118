// 客户分布 / 销售分布 (issue 17, cdm 019815–019816), on SQLite and PostgreSQL: clients and confirmed sales
// placed by province and city read from the address text (bundled division table), drafts not counted,
// a delivery address before the client's, 未识别 for what cannot be read; admin only; per company.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { regionOf } from '../../src/server/domain/system/region-map.ts';
import { ok, startTestServer, type TestServer } from './helpers.ts';
import { tradeFlow } from './trade-flow.ts';

const SO = { save: '020903', confirm: '020905' };

let t: TestServer;
let admin: string;
let wh: number;
let listId: number;
let productId: number;

const flow = tradeFlow(() => t, () => admin);

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login();
  let loc: number;
  ({ wh, loc } = await flow.warehouse('MPW', '分布仓'));
  listId = await flow.saleList();
  productId = (await ok(t.call('cdm', '010203', { code: 'MP01', name: '分布商品', unitSmall: '个' }, admin))).id;
  await ok(t.call('cdm', '014031', { productId, priceTitleId: listId, price: '2' }, admin));
  await ok(t.call('oms', '022603', { warehouseId: wh, lines: [{ productId, qty: 100, locationId: loc }], post: true }, admin));
});
afterAll(async () => t?.close());

describe('regionOf (the bundled division table)', () => {
  it('reads province and city from full names, short names, municipalities and a leading city', () => {
    expect(regionOf('浙江省杭州市西湖区文三路 1 号')).toEqual({ province: '浙江省', city: '杭州市' });
    expect(regionOf('广东深圳市南山区')).toEqual({ province: '广东省', city: '深圳市' });
    expect(regionOf('上海市黄浦区南京东路 100 号')).toEqual({ province: '上海市', city: '上海市' });
    expect(regionOf('广西壮族自治区南宁市青秀区')).toEqual({ province: '广西壮族自治区', city: '南宁市' });
    expect(regionOf('四川省凉山彝族自治州西昌市')).toEqual({ province: '四川省', city: '凉山彝族自治州' });
    expect(regionOf('苏州工业园区星湖街')).toEqual({ province: '江苏省', city: '苏州市' });
    expect(regionOf('中国 湖北省 武汉市')).toEqual({ province: '湖北省', city: '武汉市' });
    expect(regionOf('')).toEqual({ province: '未识别', city: '未识别' });
    expect(regionOf('Room 5, Nathan Road')).toEqual({ province: '未识别', city: '未识别' });
  });
});

describe('客户分布, 销售分布 (019815, 019816)', () => {
  it('counts clients and confirmed sales per province and city; admin only; per company', async () => {
    const row = (d: any, region: string) => d.list.find((r: any) => r.region === region);
    const before = {
      zj: row(await ok(t.call('cdm', '019815', { groupBy: 'province', pageSize: 100 }, admin)), '浙江省'),
      hz: row(await ok(t.call('cdm', '019815', { groupBy: 'city', pageSize: 500 }, admin)), '杭州市'),
    };
    const client = async (code: string, address: string) =>
      (await ok(t.call('cdm', '011703', { code, name: `分布客户${code}`, address, priceTitleId: listId, creditLimit: '0' }, admin))).id as number;
    const order = async (clientId: number, qty: number, confirm: boolean, deliveryAddress?: string) => {
      const so = await ok(t.call('oms', SO.save, { clientId, warehouseId: wh, deliveryAddress, lines: [{ productId, qty }] }, admin));
      if (confirm) await ok(t.call('oms', SO.confirm, { id: so.id, version: so.version }, admin));
    };
    const a = await client('MPA', '浙江省杭州市西湖区文三路 1 号');
    const b = await client('MPB', '浙江宁波市海曙区');
    await client('MPC', '新疆维吾尔自治区乌鲁木齐市');
    await order(a, 3, true);
    await order(a, 50, false); // a draft: not a sale
    await order(b, 1, true, '西藏自治区拉萨市城关区'); // delivered elsewhere
    const prov = await ok(t.call('cdm', '019815', { groupBy: 'province', pageSize: 100 }, admin));
    const zj = row(prov, '浙江省');
    expect(zj.clientCount - (before.zj?.clientCount ?? 0)).toBe(2);
    expect(zj.orderCount - (before.zj?.orderCount ?? 0)).toBe(2);
    expect(Number(zj.salesAmount) - Number(before.zj?.salesAmount ?? 0)).toBeCloseTo(8, 2);
    expect(row(prov, '新疆维吾尔自治区')).toMatchObject({ clientCount: 1, orderCount: 0, salesAmount: '0.00' });
    expect(prov.totals.clientCount).toBe(prov.list.reduce((s: number, r: any) => s + r.clientCount, 0));
    const city = await ok(t.call('cdm', '019815', { groupBy: 'city', pageSize: 500 }, admin));
    const hz = row(city, '杭州市');
    expect(hz.province).toBe('浙江省');
    expect(hz.clientCount - (before.hz?.clientCount ?? 0)).toBe(1);
    expect(Number(hz.salesAmount) - Number(before.hz?.salesAmount ?? 0)).toBeCloseTo(6, 2);

    // 销售分布: the order delivered to 拉萨 is counted there, not at its client's 宁波
    const sales = await ok(t.call('cdm', '019816', { groupBy: 'city', pageSize: 500 }, admin));
    expect(row(sales, '拉萨市')).toMatchObject({ province: '西藏自治区', orderCount: 1, qty: 1, salesAmount: '2.00' });
    expect(row(sales, '宁波市')).toBeUndefined();
    const bySalesman = await ok(t.call('cdm', '019816', { groupBy: 'salesman', pageSize: 500 }, admin));
    expect(bySalesman.list.find((r: any) => r.region === '西藏自治区')).toMatchObject({ staffName: '（未指定）', orderCount: 1 });
    expect((await t.call('cdm', '019816', { groupBy: 'planet' }, admin)).code).toBe('COMMON_VALIDATION_4000');

    // rights and companies
    expect((await t.call('cdm', '019815', {}, await t.login('demo', 'clerk'))).code).toBe('COMMON_NO_RIGHT_4003');
    expect((await t.call('cdm', '019816', {}, await t.login('demo', 'clerk'))).code).toBe('COMMON_NO_RIGHT_4003');
    const other = await ok(t.call('cdm', '019816', { groupBy: 'city', pageSize: 500 }, await t.login('demo2')));
    expect(row(other, '拉萨市')).toBeUndefined();
  });
});
