// List totals are cached between page turns but always right for the process that wrote the table.
import { afterAll, beforeAll, expect, it } from 'vitest';
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

it('notices rows written by another process within seconds', async () => {
  const before = await total();
  await s.database.db.insertInto('department').values({ companyId: 1, code: 'EXT1', name: '外部写入', sort: 0, version: 1, createdAt: 'x', updatedAt: 'x' }).execute();
  await new Promise((r) => setTimeout(r, 3100));
  expect(await total()).toBe(before + 1);
});
