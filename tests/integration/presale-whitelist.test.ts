// 预售白名单 (/commodity/whiteList, cdm 014821–014824, plan choices 014805) as a client sees it: save,
// list with the plan's and client's names, filters, refusals that change nothing, rights, company
// isolation; and isPresaleAllowed, the question a sales order line asks (plan active and in its dates,
// row in its dates, product in the plan, presale switched on). SQLite, or PostgreSQL with DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Tenant } from '../../src/server/catalog/tenant.ts';
import { isPresaleAllowed, presaleGrant } from '../../src/server/domain/commodity/presale-whitelist.ts';
import { ok, startTestServer, type TestServer } from './helpers.ts';

const W = { list: '014821', get: '014822', save: '014823', remove: '014824', planOptions: '014805' };
const PLAN = { save: '014803' };

let t: TestServer;
let demo: string;
let demo2: string;
let clerk: string;
let demoId: number;
let demo2Id: number;
const clients: Record<string, number> = {};
const products: Record<string, number> = {};
let spring: number; // active, 2026-03-01 … 2026-04-30, holds P1 and P2
let summer: number; // active, open-ended, holds P2
let draft: number; // draft, holds P1

async function companyId(code: string): Promise<number> {
  return Number((await t.database.db.selectFrom('company').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id);
}

async function setPresale(on: boolean) {
  const s = await ok(t.call('cdm', '013601', {}, demo));
  await ok(t.call('cdm', '013602', { version: s.version, flags: { ...s.flags, presale: on } }, demo));
}

beforeAll(async () => {
  t = await startTestServer();
  demo = await t.login('demo', 'admin', 'demo123');
  demo2 = await t.login('demo2', 'admin', 'demo123');
  clerk = await t.login('demo', 'clerk', 'demo123');
  demoId = await companyId('demo');
  demo2Id = await companyId('demo2');
  for (const [key, name] of [['C001', '华东商贸'], ['C002', '华南百货'], ['C003', '西北五金']]) {
    clients[key] = (await ok(t.call('cdm', '011703', { code: `W${key}`, name }, demo))).id;
  }
  for (const code of ['P1', 'P2', 'P3']) {
    products[code] = (await ok(t.call('cdm', '010203', { code: `WL-${code}`, name: `预售商品${code}`, unitSmall: '个', midQty: 1, bigQty: 1 }, demo))).id;
  }
  spring = (await ok(t.call('cdm', PLAN.save, { code: 'PS01', name: '春季预售', status: 'active', startDate: '2026-03-01', endDate: '2026-04-30' }, demo))).id;
  summer = (await ok(t.call('cdm', PLAN.save, { code: 'PS02', name: '夏季预售', status: 'active' }, demo))).id;
  draft = (await ok(t.call('cdm', PLAN.save, { code: 'PS03', name: '秋季预售（草稿）', status: 'draft' }, demo))).id;
  // A plan's products have no screen yet (issue 16's presell screens): written as that screen will.
  const now = new Date().toISOString();
  const stamp = { companyId: demoId, version: 1, createdAt: now, updatedAt: now };
  await t.database.db.insertInto('presaleItem').values([
    { ...stamp, planId: spring, productId: products.P1, qty: 1000, price: 125000 },
    { ...stamp, planId: spring, productId: products.P2, qty: 500, price: 90000 },
    { ...stamp, planId: summer, productId: products.P2, qty: 300, price: 88000 },
    { ...stamp, planId: draft, productId: products.P1, qty: 100, price: 100000 },
  ]).execute();
});

afterAll(async () => {
  await t?.close();
});

describe('presale whitelist screen', () => {
  let row: any;

  it('saves clients into plans and lists them with the plan and client names', async () => {
    row = await ok(t.call('cdm', W.save, { planId: spring, clientId: clients.C001, validFrom: '2026-03-10', validTo: '2026-04-10', remark: '大客户' }, demo));
    expect(row).toMatchObject({ planId: spring, planName: '春季预售', clientId: clients.C001, clientName: '华东商贸', validFrom: '2026-03-10', validTo: '2026-04-10', remark: '大客户', version: 1 });
    await ok(t.call('cdm', W.save, { planId: summer, clientId: clients.C001 }, demo));
    await ok(t.call('cdm', W.save, { planId: spring, clientId: clients.C002 }, demo));
    await ok(t.call('cdm', W.save, { planId: draft, clientId: clients.C003 }, demo));

    const all = await ok(t.call('cdm', W.list, { page: 1, pageSize: 20 }, demo));
    expect(all.total).toBe(4);
    const bySpring = await ok(t.call('cdm', W.list, { page: 1, filters: { planId: spring } }, demo));
    expect(bySpring.list.map((r: any) => r.clientName).sort()).toEqual(['华东商贸', '华南百货']);
    const byClient = await ok(t.call('cdm', W.list, { page: 1, filters: { clientId: clients.C001 } }, demo));
    expect(byClient.list.map((r: any) => r.planName).sort()).toEqual(['夏季预售', '春季预售']);

    // The plan select of the screen: every plan of the company, with its code.
    const plans = await ok(t.call('cdm', W.planOptions, {}, demo));
    expect(plans.map((p: any) => p.code).sort()).toEqual(['PS01', 'PS02', 'PS03']);
    expect(plans.find((p: any) => p.id === spring)).toMatchObject({ label: '春季预售' });
  });

  it('refuses bad input with Chinese messages and writes nothing', async () => {
    const before = (await ok(t.call('cdm', W.list, { page: 1 }, demo))).total;
    const empty = await t.call('cdm', W.save, { validFrom: '2026-02-30' }, demo);
    expect(empty.code).toBe('COMMON_VALIDATION_4000');
    expect(empty.data.errors.map((e: any) => e.message)).toEqual(expect.arrayContaining(['预售计划不能为空', '客户不能为空', '生效日期不是有效的日期（YYYY-MM-DD）']));

    const backwards = await t.call('cdm', W.save, { planId: summer, clientId: clients.C002, validFrom: '2026-05-01', validTo: '2026-04-01' }, demo);
    expect(backwards.code).toBe('COMMON_VALIDATION_4000');
    expect(backwards.msg).toBe('失效日期不能早于生效日期');

    const dup = await t.call('cdm', W.save, { planId: spring, clientId: clients.C001 }, demo);
    expect(dup.code).toBe('COMMON_UNIQUE_4011');
    expect(dup.msg).toBe('预售计划+客户“春季预售 华东商贸”已存在');

    const foreignClient = (await ok(t.call('cdm', '011703', { code: 'X01', name: '二公司客户' }, demo2))).id;
    const foreign = await t.call('cdm', W.save, { planId: spring, clientId: foreignClient }, demo);
    expect(foreign.code).toBe('COMMON_VALIDATION_4000');
    expect(foreign.msg).toBe('客户不存在');

    const stale = await t.call('cdm', W.save, { id: row.id, version: 2, remark: '过期' }, demo);
    expect(stale.code).toBe('COMMON_VERSION_CONFLICT_4009');
    expect((await ok(t.call('cdm', W.list, { page: 1 }, demo))).total).toBe(before);
    expect((await ok(t.call('cdm', W.get, { id: row.id }, demo))).remark).toBe('大客户');
  });

  it('needs the screen rights and keeps companies apart', async () => {
    expect((await t.call('cdm', W.list, { page: 1 }, clerk)).code).toBe('COMMON_NO_RIGHT_4003');
    expect((await t.call('cdm', W.save, { planId: spring, clientId: clients.C003 }, clerk)).code).toBe('COMMON_NO_RIGHT_4003');
    expect((await ok(t.call('cdm', W.list, { page: 1 }, demo2))).total).toBe(0);
    expect((await t.call('cdm', W.get, { id: row.id }, demo2)).code).toBe('COMMON_NOT_FOUND_4004');
    expect((await t.call('cdm', W.remove, { id: row.id }, demo2)).code).toBe('COMMON_NOT_FOUND_4004');
  });
});

describe('isPresaleAllowed', () => {
  const allowed = (client: string, product: string, day: string, company = demoId) =>
    isPresaleAllowed(new Tenant(t.database.db, company), clients[client]!, products[product]!, day);

  it('allows a whitelisted client a product of an active plan within both date windows', async () => {
    expect(await allowed('C001', 'P1', '2026-03-10')).toBe(true);
    expect(await allowed('C001', 'P1', '2026-04-10')).toBe(true);
    // C002's row has no dates of its own: the plan's window applies.
    expect(await allowed('C002', 'P1', '2026-03-01')).toBe(true);
    expect(await allowed('C002', 'P1', '2026-04-30')).toBe(true);
    expect(await allowed('C002', 'P1', '2026-05-01')).toBe(false);
    expect(await allowed('C002', 'P1', '2026-02-28')).toBe(false);
  });

  it('refuses outside the row dates, products not in the plan, other clients, draft plans', async () => {
    expect(await allowed('C001', 'P1', '2026-03-09')).toBe(false); // before 生效日期
    expect(await allowed('C001', 'P1', '2026-04-11')).toBe(false); // after 失效日期
    expect(await allowed('C001', 'P3', '2026-03-15')).toBe(false); // P3 is in no plan
    expect(await allowed('C003', 'P2', '2026-03-15')).toBe(false); // not on spring's or summer's list
    expect(await allowed('C003', 'P1', '2026-03-15')).toBe(false); // on the draft plan only
  });

  it('answers the plan that ends first when several allow it; open-ended plans cover any day', async () => {
    const tenant = new Tenant(t.database.db, demoId);
    expect(await presaleGrant(tenant, clients.C001!, products.P2!, '2026-03-15')).toEqual({ planId: spring, planCode: 'PS01', planName: '春季预售', price: 90000, qty: 500 });
    expect(await presaleGrant(tenant, clients.C001!, products.P2!, '2027-01-01')).toMatchObject({ planId: summer, planCode: 'PS02' });
    expect(await allowed('C001', 'P1', '2027-01-01')).toBe(false); // summer does not hold P1
  });

  it('follows the plan status, the row being removed and the company switch; another company sees nothing', async () => {
    const plan = await ok(t.call('cdm', '014802', { id: spring }, demo));
    await ok(t.call('cdm', PLAN.save, { id: spring, version: plan.version, status: 'closed' }, demo));
    expect(await allowed('C002', 'P1', '2026-03-15')).toBe(false);
    await ok(t.call('cdm', PLAN.save, { id: spring, version: plan.version + 1, status: 'active' }, demo));
    expect(await allowed('C002', 'P1', '2026-03-15')).toBe(true);

    await setPresale(false);
    expect(await allowed('C002', 'P1', '2026-03-15')).toBe(false);
    await setPresale(true);
    expect(await allowed('C002', 'P1', '2026-03-15')).toBe(true);

    expect(await allowed('C002', 'P1', '2026-03-15', demo2Id)).toBe(false);

    const c2 = (await ok(t.call('cdm', W.list, { page: 1, filters: { clientId: clients.C002 } }, demo))).list[0];
    await ok(t.call('cdm', W.remove, { id: c2.id }, demo));
    expect(await allowed('C002', 'P1', '2026-03-15')).toBe(false);
  });

  it('takes only a day as the date', async () => {
    await expect(allowed('C001', 'P1', '2026-3-10')).rejects.toThrow('YYYY-MM-DD');
  });
});

describe('预售商品 and 预售排序 (cdm 014806–014810)', () => {
  const IT = { get: '014806', save: '014807', remove: '014808', sort: '014809', list: '014810' };

  it('lists a plan\'s products with price, quantity, presold, left and in transit, in display order; saves, sorts and refuses', async () => {
    const p3 = products.P3;
    // 已预售 is the orders' to keep: what a client sends for it is ignored
    const made = await ok(t.call('cdm', IT.save, { planId: summer, productId: p3, price: '66.50', qty: 40, sortOrder: 5, soldQty: 999 }, demo));
    // the same product twice in one plan: refused, nothing written
    const dup = await t.call('cdm', IT.save, { planId: summer, productId: p3, price: '1', qty: 1 }, demo);
    expect(dup.code).not.toBe('200');
    expect((await t.call('cdm', IT.save, { planId: summer, productId: p3, price: '-1', qty: 1 }, demo)).code).not.toBe('200');

    const list = await ok(t.call('cdm', IT.list, { page: 1, pageSize: 20, planId: summer }, demo));
    expect(list.list.map((r: any) => [r.productCode, r.price, r.qty, r.soldQty, r.leftQty, r.incoming, r.sortOrder, r.planStatusText]))
      .toEqual([['WL-P2', '880.00', 300, 0, 300, 0, 0, '进行中'], ['WL-P3', '66.50', 40, 0, 40, 0, 5, '进行中']]);
    // 预售排序: P3 first
    await ok(t.call('cdm', IT.sort, { id: made.id, sortOrder: 0 }, demo));
    const p2 = list.list[0].id;
    await ok(t.call('cdm', IT.sort, { id: p2, sortOrder: '9' }, demo));
    expect((await ok(t.call('cdm', IT.list, { page: 1, pageSize: 20, filters: { planId: summer } }, demo))).list.map((r: any) => r.productCode)).toEqual(['WL-P3', 'WL-P2']);
    expect((await t.call('cdm', IT.sort, { id: p2, sortOrder: 'x' }, demo)).msg).toBe('排序必须是 0–1000000 的整数');
    // by keyword, across plans
    expect((await ok(t.call('cdm', IT.list, { page: 1, pageSize: 20, keyword: 'WL-P1' }, demo))).list.map((r: any) => r.planName)).toEqual(['春季预售', '秋季预售（草稿）']);
    // another company sees none of it; the clerk without the right is refused
    expect((await ok(t.call('cdm', IT.list, { page: 1, pageSize: 20 }, demo2))).total).toBe(0);
    expect((await t.call('cdm', IT.sort, { id: p2, sortOrder: 1 }, demo2)).code).toBe('COMMON_NOT_FOUND_4004');
    expect((await t.call('cdm', IT.list, { page: 1, pageSize: 20 }, clerk)).code).toBe('COMMON_NO_RIGHT_4003');
    await ok(t.call('cdm', IT.remove, { id: made.id }, demo));
  });
});
