// Hand-written list codes take their conditions in `filters` too, as the renderer's lists send them.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers.ts';

let s: TestServer;
let admin: string;
let productId: number;
beforeAll(async () => {
  s = await startTestServer();
  admin = await s.login();
  const p = await s.call('cdm', '010203', { code: 'LC1', name: '清单测试商品', unitSmall: '个' }, admin);
  expect(p.code).toBe('200');
  productId = p.data.id;
});
afterAll(async () => s?.close());

it('movements accept the required product inside filters', async () => {
  const top = await s.call('cdm', '011303', { page: 1, pageSize: 10, productId }, admin);
  const inFilters = await s.call('cdm', '011303', { page: 1, pageSize: 10, filters: { productId } }, admin);
  expect(inFilters.code).toBe('200');
  expect(inFilters.data).toEqual(top.data);
  const missing = await s.call('cdm', '011303', { page: 1, pageSize: 10, filters: {} }, admin);
  expect(missing).toMatchObject({ code: 'COMMON_VALIDATION_4000', msg: '商品不能为空' });
});

it('conditions in filters are validated by the list own schema, naming the field', async () => {
  const bad = await s.call('cdm', '011301', { page: 1, pageSize: 10, filters: { warehouseId: 'abc' } }, admin);
  expect(bad.code).toBe('COMMON_VALIDATION_4000');
  expect(bad.msg).toContain('仓库');
  const other = await s.call('cdm', '011301', { page: 1, pageSize: 10, filters: { warehouseId: 999999 } }, admin);
  expect(other).toMatchObject({ code: '200', data: { total: 0 } });
});
