// The '500' path: an unexpected failure answers with an error id and no internals, and is logged.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Catalog } from '../../src/core/catalog.ts';
import { bindCatalog } from '../../src/server/catalog/bind.ts';
import { loadConfig } from '../../src/server/config.ts';
import { openDatabase, type Database } from '../../src/server/db/connection.ts';
import { migrate } from '../../src/server/db/migrate.ts';
import { seedIfEmpty } from '../../src/server/db/seed.ts';
import { buildApp } from '../../src/server/http/app.ts';
import { authOps } from '../../src/server/ops/auth-ops.ts';

let database: Database;
let app: Awaited<ReturnType<typeof buildApp>>;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tbo-500-'));

beforeAll(async () => {
  // A real app over a catalog with one handler that fails the way a bug would.
  const catalog: Catalog = { families: { storage: [], oms: [], auth: [
    { code: '990103', name: '登录/刷新令牌', method: 'POST', body: 'json', response: 'json', permission: 'public', handler: 'op:auth.token' },
  ], cdm: [
    { code: '011111', name: '故障接口', method: 'POST', body: 'json', response: 'json', permission: '1', handler: 'op:test.broken' },
  ] } };
  const ops = { 'auth.token': authOps(() => [])['auth.token'], 'test.broken': { run: async () => { throw new Error('SELECT secret FROM internals -- boom'); } } };
  const config = loadConfig({ DATA_DIR: dir });
  database = openDatabase({ dataDir: dir });
  await migrate(database.db, database.dialect);
  await seedIfEmpty(database.db, database.dialect);
  app = await buildApp({ config, database, catalog, bound: bindCatalog(catalog, ops, () => undefined) });
});
afterAll(async () => {
  await app?.close();
  await database?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('answers 500 with an error id, hides SQL and stack, and records the error', async () => {
  const login = JSON.parse((await app.inject({ method: 'POST', url: '/auth/public/990103', payload: { type: 0, companyCode: 'demo', userName: 'admin', password: 'demo123' } })).body);
  const res = await app.inject({ method: 'POST', url: '/cdm/api/011111', headers: { token: login.data.accessToken }, payload: {} });
  const body = JSON.parse(res.body);
  expect(body.code).toBe('500');
  expect(body.msg).not.toMatch(/SELECT|secret|at .*\.ts/);
  const id = /错误编号 ([0-9A-F]{12})/.exec(body.msg)?.[1];
  expect(id).toBeTruthy();
  const row = await database.db.selectFrom('errorLog').selectAll().where('id', '=', id!).executeTakeFirstOrThrow();
  expect(row.message).toContain('boom');
  expect(row.url).toBe('/cdm/api/011111');
});

it('keeps a failing URL\'s query string (a token, say) out of the error log', async () => {
  const login = JSON.parse((await app.inject({ method: 'POST', url: '/auth/public/990103', payload: { type: 0, companyCode: 'demo', userName: 'admin', password: 'demo123' } })).body);
  const res = await app.inject({ method: 'POST', url: `/cdm/api/011111?token=${login.data.accessToken}`, headers: { token: login.data.accessToken }, payload: {} });
  const id = /错误编号 ([0-9A-F]{12})/.exec(JSON.parse(res.body).msg)?.[1];
  const row = await database.db.selectFrom('errorLog').selectAll().where('id', '=', id!).executeTakeFirstOrThrow();
  expect(row.url).toBe('/cdm/api/011111');
  expect(JSON.stringify(row)).not.toContain(login.data.accessToken);
});

it('records who was calling when it failed', async () => {
  const row = await database.db.selectFrom('errorLog').selectAll().orderBy('at', 'desc').executeTakeFirstOrThrow();
  expect(row.companyId).toBeTruthy();
  expect(row.accountId).toBeTruthy();
});
