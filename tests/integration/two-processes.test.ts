// Two server processes on one database behave as one system (PostgreSQL under CI, SQLite otherwise).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers.ts';
import { post, spawnServer, type SpawnedServer } from '../support/spawn-server.ts';

let owner: TestServer;
let a: SpawnedServer;
let b: SpawnedServer;

beforeAll(async () => {
  owner = await startTestServer(); // creates, migrates and seeds the database
  const env = { DATA_DIR: owner.config.dataDir, DATABASE_URL: owner.config.databaseUrl ?? '', CLIENT_DIR: '/nonexistent' };
  [a, b] = await Promise.all([spawnServer(env), spawnServer(env)]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await owner?.close();
});

it('a token issued by one process works on the other, and a logout on one is refused on the other', async () => {
  const login = await post(`${a.url}/auth/public/990103`, { type: 0, companyCode: 'demo', userName: 'admin', password: 'demo123' });
  expect(login.code).toBe('200');
  const token = login.data.accessToken;
  expect((await post(`${b.url}/auth/api/990104`, {}, token)).code).toBe('200');
  expect((await post(`${a.url}/auth/api/990106`, {}, token)).code).toBe('200');
  // b may have cached the token for at most a second
  await new Promise((r) => setTimeout(r, 1100));
  expect((await post(`${b.url}/auth/api/990104`, {}, token)).code).toBe('5011');
});

it('a refresh token rotated on one process cannot be replayed on the other', async () => {
  const login = await post(`${b.url}/auth/public/990103`, { type: 0, companyCode: 'demo', userName: 'admin', password: 'demo123' });
  const rotated = await post(`${a.url}/auth/public/990103`, { type: 1, refreshToken: login.data.refreshToken });
  expect(rotated.code).toBe('200');
  expect((await post(`${b.url}/auth/public/990103`, { type: 1, refreshToken: login.data.refreshToken })).code).toBe('5011');
});
