// List totals are cached between page turns but always right for the process that wrote the table.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers.ts';

let s: TestServer;
let admin: string;
beforeAll(async () => {
  s = await startTestServer();
  admin = await s.login();
});
afterAll(async () => s?.close());

const total = async (body: Record<string, unknown> = {}) => {
  const r = await s.call('cdm', '012901', { page: 1, pageSize: 1, ...body }, admin);
  expect(r.code).toBe('200');
  return r.data.total as number;
};

it('follows creates and removes at once, per filter', async () => {
  const before = await total();
  const filtered = await total({ keyword: '仓储' });
  const created = await s.call('cdm', '012903', { code: 'DX1', name: '仓储部' }, admin);
  expect(created.code).toBe('200');
  expect(await total()).toBe(before + 1);
  expect(await total({ keyword: '仓储' })).toBe(filtered + 1);
  expect((await s.call('cdm', '012904', { id: created.data.id }, admin)).code).toBe('200');
  expect(await total()).toBe(before);
});

it('counts exactly past the last page and on a short page', async () => {
  const all = await total();
  const last = await s.call('cdm', '012901', { page: all + 5, pageSize: 1 }, admin);
  expect(last.data).toMatchObject({ list: [], total: all });
  const short = await s.call('cdm', '012901', { page: 1, pageSize: 1000 }, admin);
  expect(short.data.total).toBe(short.data.list.length);
});

// (Writes by another server process: two-processes.test.ts and list-page-cache.test.ts.)
it('counts a row written through the server’s own database handle, outside any handler, at once', async () => {
  const before = await total();
  await s.database.db.insertInto('department').values({ companyId: 1, code: 'EXT1', name: '外部写入', sort: 0, version: 1, createdAt: 'x', updatedAt: 'x' }).execute();
  expect(await total()).toBe(before + 1);
});

// Grand totals (全部合计): a list asked withTotals answers the exact sum of every summable field over
// every row its keyword and filters keep, not just the page.
describe('grand totals over all filtered rows', () => {
  const list = (code: string, body: Record<string, unknown>, token = admin) => s.call('cdm', code, { page: 1, pageSize: 1, ...body }, token);

  it('sums an integer field over every filtered row, the page notwithstanding, and follows writes at once', async () => {
    const wh = (await s.call('cdm', '011003', { code: 'TOTW', name: '合计测试仓' }, admin)).data.id;
    for (const [lcCode, capacity] of [['T-01', 1000], ['T-02', 2500], ['T-03', null], ['X-01', 7]] as const) {
      expect((await s.call('cdm', '011103', { warehouseId: wh, lcCode, capacity }, admin)).code).toBe('200');
    }
    const all = await list('011101', { withTotals: true, filters: { warehouseId: wh } });
    expect(all.data).toMatchObject({ total: 4, totals: { capacity: 3507 } });
    expect(all.data.list).toHaveLength(1);
    const some = await list('011101', { withTotals: true, keyword: 'T-0', filters: { warehouseId: wh } });
    expect(some.data).toMatchObject({ total: 3, totals: { capacity: 3500 } });
    // nothing kept: zero, not null
    expect((await list('011101', { withTotals: true, keyword: 'NOPE', filters: { warehouseId: wh } })).data.totals).toEqual({ capacity: 0 });
    // a list that does not ask gets no totals
    expect((await list('011101', { filters: { warehouseId: wh } })).data.totals).toBeUndefined();
    const created = await s.call('cdm', '011103', { warehouseId: wh, lcCode: 'T-04', capacity: 3 }, admin);
    expect((await list('011101', { withTotals: true, filters: { warehouseId: wh } })).data.totals).toEqual({ capacity: 3510 });
    expect((await s.call('cdm', '011104', { ids: [created.data.id] }, admin)).code).toBe('200');
    expect((await list('011101', { withTotals: true, filters: { warehouseId: wh } })).data.totals).toEqual({ capacity: 3507 });
  });

  it('sums money exactly as decimal text (0.10 + 0.20 = 0.30, large amounts to the cent), by the same filters', async () => {
    const usd = (await s.call('cdm', '012101', { page: 1, pageSize: 20 }, admin)).data.list.find((c: any) => c.code === 'USD').id;
    for (const [code, creditLimit] of [['TC1', '0.10'], ['TC2', '0.20'], ['TC3', '99999999999.99']] as const) {
      expect((await s.call('cdm', '011703', { code, name: `合计客户${code}`, currencyId: usd, creditLimit }, admin)).code).toBe('200');
    }
    const r = await list('011701', { withTotals: true, filters: { currencyId: usd, creditLimit: [null, '1'] } });
    expect(r.data).toMatchObject({ total: 2, totals: { creditLimit: '0.30' } });
    const all = await list('011701', { withTotals: true, filters: { currencyId: usd } });
    expect(all.data.totals).toEqual({ creditLimit: '100000000000.29' });
    // another company's totals never include these rows
    const other = await s.login('demo2', 'admin', 'demo123');
    const theirs = await list('011701', { withTotals: true, keyword: '合计客户' }, other);
    expect(theirs.data).toMatchObject({ total: 0, totals: { creditLimit: '0.00' } });
  });

  it('bad filters are refused in Chinese with totals asked too', async () => {
    const r = await list('011701', { withTotals: true, filters: { creditLimit: ['abc', null] } });
    expect(r.code).toBe('COMMON_VALIDATION_4000');
    expect(r.msg).toBe('信用额度筛选条件格式不正确');
  });
});
