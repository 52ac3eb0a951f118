// Two server processes on one database behave as one system (PostgreSQL under CI, SQLite otherwise).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers.ts';
import { post, spawnTwo, type SpawnedServer } from '../support/spawn-server.ts';

let owner: TestServer;
let a: SpawnedServer;
let b: SpawnedServer;

beforeAll(async () => {
  owner = await startTestServer(); // creates, migrates and seeds the database
  [a, b] = await spawnTwo(owner);
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

// Issue 19.12: behind a load balancer, a user who saves on one process and reloads on the other must see
// the change — a kept list page is never served once a write touching its tables has been answered.
it('a write answered by one process is in the very next list read on the other: 0 stale reads', async () => {
  const login = await post(`${a.url}/auth/public/990103`, { type: 0, companyCode: 'demo', userName: 'admin', password: 'demo123' });
  const tk = login.data.accessToken as string;
  const warehouses = async (url: string) => (await post(`${url}/cdm/api/011001`, { page: 1, pageSize: 50 }, tk)).data.list as any[];
  const wh = (await warehouses(a.url)).find((w) => w.code === 'WH01');
  const product = await post(`${a.url}/cdm/api/010203`, { code: 'TWOPROC1', name: '双进程测试商品', unitSmall: '个' }, tk);
  expect(product.code).toBe('200');
  const inventory = async (url: string) => {
    const r = await post(`${url}/cdm/api/011301`, { page: 1, pageSize: 10, productId: product.data.id, warehouseId: wh.id }, tk);
    expect(r.code).toBe('200');
    return r.data.list.reduce((s: number, x: any) => s + Number(x.onHand), 0) as number;
  };
  let stale = 0;
  let version = wh.version;
  const rounds = 60;
  for (let i = 1; i <= rounds; i++) {
    const [writer, reader] = i % 2 ? [a, b] : [b, a];
    await warehouses(reader.url); // the reader keeps the page
    const name = `主仓库-${i}`;
    const saved = await post(`${writer.url}/cdm/api/011003`, { id: wh.id, version, name }, tk);
    expect(saved.code).toBe('200');
    version = saved.data.version;
    if ((await warehouses(reader.url)).find((w) => w.id === wh.id).name !== name) stale++;
  }
  let onHand = await inventory(a.url);
  for (let i = 1; i <= rounds / 2; i++) {
    const [writer, reader] = i % 2 ? [a, b] : [b, a];
    await inventory(reader.url);
    const posted = await post(`${writer.url}/oms/api/022603`, { warehouseId: wh.id, post: true, lines: [{ productId: product.data.id, qty: 1 }] }, tk);
    expect(posted.code).toBe('200');
    onHand += 1;
    if ((await inventory(reader.url)) !== onHand) stale++;
  }
  expect(stale).toBe(0);
}, 120_000);

// Issue 19.14 across processes: a repeat of a submission may reach the other process (a load balancer
// retrying, a second click): the key still makes one document.
it('the same Idempotency-Key sent to both processes at once makes one purchase order, and both answer it', async () => {
  const login = await post(`${a.url}/auth/public/990103`, { type: 0, companyCode: 'demo', userName: 'admin', password: 'demo123' });
  const tk = login.data.accessToken as string;
  const supplier = (await post(`${a.url}/cdm/api/011601`, { page: 1, pageSize: 10 }, tk)).data.list[0];
  const wh = (await post(`${a.url}/cdm/api/011001`, { page: 1, pageSize: 10 }, tk)).data.list[0];
  const product = await post(`${a.url}/cdm/api/010203`, { code: 'TWOPROC2', name: '双进程幂等商品', unitSmall: '个' }, tk);
  const body = JSON.stringify({ supplierId: supplier.id, warehouseId: wh.id, lines: [{ productId: product.data.id, qty: 1, price: 1 }] });
  const orders = async () => (await post(`${a.url}/oms/api/020201`, { page: 1, pageSize: 1 }, tk)).data.total as number;
  const before = await orders();
  for (let round = 0; round < 5; round++) {
    const key = `two-process-key-${round}-${Date.now()}`;
    const send = (url: string) => fetch(`${url}/oms/api/020203`, { method: 'POST', headers: { 'content-type': 'application/json', token: tk, 'idempotency-key': key }, body }).then((r) => r.text());
    const [x, y] = await Promise.all([send(a.url), send(b.url)]);
    expect(JSON.parse(x).code).toBe('200');
    expect(y).toBe(x);
  }
  expect(await orders()).toBe(before + 5);
}, 60_000);
