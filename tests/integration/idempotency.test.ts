// Retry-safe writes (issue 19.14): document-creating and posting calls carry an Idempotency-Key; a
// repeat of the key answers the first answer and writes nothing — sequentially, concurrently, and on
// SQLite and PostgreSQL alike. The key and the answer commit with the call's own writes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepIdempotencyKeys } from '../../src/server/http/idempotency.ts';
import { ok, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let admin: string;
let clerk: string;
let supplierId: number;
let warehouseId: number;
let productId: number;

const withKey = (key: string) => ({ headers: { 'idempotency-key': key } });
let keys = 0;
const newKey = () => `test-key-${Date.now()}-${++keys}`;

async function count(table: string, where: Record<string, unknown> = {}): Promise<number> {
  let q = t.database.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n'));
  for (const [k, v] of Object.entries(where)) q = q.where(k, '=', v);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

const poBody = (qty = 3) => ({ supplierId, warehouseId, expectedDate: '2026-12-01', lines: [{ productId, qty, price: 2.5 }] });
const initBody = (qty: number) => ({ warehouseId, post: true, lines: [{ productId, qty }] });

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login('demo', 'admin', 'demo123');
  clerk = await t.login('demo', 'clerk', 'demo123');
  supplierId = Number((await t.database.db.selectFrom('supplier').select('id').where('code', '=', 'S001').executeTakeFirstOrThrow()).id);
  const demoId = Number((await t.database.db.selectFrom('company').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id);
  warehouseId = Number((await t.database.db.selectFrom('warehouse').select('id').where('companyId', '=', demoId).where('code', '=', 'WH01').executeTakeFirstOrThrow()).id);
  productId = (await ok(t.call('cdm', '010203', { code: 'IDEM001', name: '幂等测试商品', unitSmall: '个' }, admin))).id;
});
afterAll(async () => {
  await t?.close();
});

describe('the same key twice', () => {
  it('saving a purchase order: one order, and the repeat answers exactly what the first answered', async () => {
    const before = await count('purchaseOrder');
    const key = newKey();
    const first = await t.raw('oms', '020203', poBody(), admin, withKey(key));
    const second = await t.raw('oms', '020203', poBody(), admin, withKey(key));
    expect(JSON.parse(first.body).code).toBe('200');
    expect(second.body).toBe(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(await count('purchaseOrder')).toBe(before + 1);
  });

  it('without a key every call is its own submission (two orders)', async () => {
    const before = await count('purchaseOrder');
    await ok(t.call('oms', '020203', poBody(), admin));
    await ok(t.call('oms', '020203', poBody(), admin));
    expect(await count('purchaseOrder')).toBe(before + 2);
  });

  it('confirming: the repeat answers the first success instead of “already confirmed”, and changes nothing', async () => {
    const po = await ok(t.call('oms', '020203', poBody(), admin));
    const key = newKey();
    const first = await t.call('oms', '020205', { id: po.id, version: po.version }, admin, withKey(key));
    expect(first.code).toBe('200');
    const audits = await count('auditLog');
    const second = await t.call('oms', '020205', { id: po.id, version: po.version }, admin, withKey(key));
    expect(second).toEqual(first);
    expect(await count('auditLog')).toBe(audits);
  });

  it('posting opening stock (save and post in one call): one document, one set of ledger moves', async () => {
    const docs = await count('stockInit');
    const moves = await count('stockMove', { productId });
    const key = newKey();
    const first = await t.call('oms', '022603', initBody(7), admin, withKey(key));
    expect(first.code).toBe('200');
    const second = await t.call('oms', '022603', initBody(7), admin, withKey(key));
    expect(second).toEqual(first);
    expect(await count('stockInit')).toBe(docs + 1);
    expect(await count('stockMove', { productId })).toBe(moves + 1);
  });

  it('a key is its account’s own: the same key from another account is another submission', async () => {
    const before = await count('purchaseOrder');
    const key = newKey();
    await ok(t.call('oms', '020203', poBody(), admin, withKey(key)));
    await ok(t.call('oms', '020203', poBody(), clerk, withKey(key)));
    expect(await count('purchaseOrder')).toBe(before + 2);
  });

  it('a refused call records nothing: after fixing the input, the same key saves', async () => {
    const key = newKey();
    const bad = await t.call('oms', '020203', { ...poBody(), lines: [] }, admin, withKey(key));
    expect(bad.code).not.toBe('200');
    expect(await count('idempotencyKey', { idemKey: key })).toBe(0);
    const before = await count('purchaseOrder');
    await ok(t.call('oms', '020203', poBody(), admin, withKey(key)));
    expect(await count('purchaseOrder')).toBe(before + 1);
  });
});

describe('the key commits with the call’s writes, or not at all', () => {
  it('a refusal inside the transaction, after the status was already changed, rolls back the key with the change', async () => {
    const po = await ok(t.call('oms', '020203', poBody(), admin));
    await t.database.db.updateTable('supplier').set({ enabled: 0 }).where('id', '=', supplierId).execute();
    const key = newKey();
    try {
      const refused = await t.call('oms', '020205', { id: po.id, version: po.version }, admin, withKey(key));
      expect(refused.code).toBe('PURCHASE_SUPPLIER_DISABLED_4092');
    } finally {
      await t.database.db.updateTable('supplier').set({ enabled: 1 }).where('id', '=', supplierId).execute();
    }
    expect(await count('idempotencyKey', { idemKey: key })).toBe(0);
    expect((await ok(t.call('oms', '020202', { id: po.id }, admin))).status).toBe(po.status);
    // the user fixed the cause and clicks again (same submission): now it is done, once
    const done = await t.call('oms', '020205', { id: po.id, version: po.version }, admin, withKey(key));
    expect(done.code).toBe('200');
    expect(await t.call('oms', '020205', { id: po.id, version: po.version }, admin, withKey(key))).toEqual(done);
  });
});

describe('concurrent twins', () => {
  it('five calls with one key at once: one order, five identical answers', async () => {
    const before = await count('purchaseOrder');
    const key = newKey();
    const answers = await Promise.all(Array.from({ length: 5 }, () => t.raw('oms', '020203', poBody(4), admin, withKey(key))));
    expect(JSON.parse(answers[0].body).code).toBe('200');
    for (const a of answers) expect(a.body).toBe(answers[0].body);
    expect(await count('purchaseOrder')).toBe(before + 1);
  });

  it('five postings with one key at once: one document, one ledger move', async () => {
    const docs = await count('stockInit');
    const moves = await count('stockMove', { productId });
    const key = newKey();
    const answers = await Promise.all(Array.from({ length: 5 }, () => t.raw('oms', '022603', initBody(5), admin, withKey(key))));
    expect(JSON.parse(answers[0].body).code).toBe('200');
    for (const a of answers) expect(a.body).toBe(answers[0].body);
    expect(await count('stockInit')).toBe(docs + 1);
    expect(await count('stockMove', { productId })).toBe(moves + 1);
  });
});

describe('refusals', () => {
  it('the same key with different content is refused with a clear message and writes nothing', async () => {
    const key = newKey();
    await ok(t.call('oms', '020203', poBody(3), admin, withKey(key)));
    const before = await count('purchaseOrder');
    const r = await t.call('oms', '020203', poBody(9), admin, withKey(key));
    expect(r.code).toBe('COMMON_IDEMPOTENCY_KEY_4024');
    expect(r.msg).toBe('这次提交的标识已用于内容不同的另一次提交，未执行。请刷新页面后重新提交');
    expect(await count('purchaseOrder')).toBe(before);
  });

  it('a malformed key is refused, naming the header', async () => {
    const r = await t.call('oms', '020203', poBody(), admin, withKey('x'));
    expect(r.code).toBe('COMMON_HEADER_4016');
    expect(r.msg).toContain('Idempotency-Key');
  });

  it('codes not marked idempotent ignore the header (a list stays a list)', async () => {
    const r = await t.call('oms', '020201', { pageNum: 1, pageSize: 10 }, admin, withKey(newKey()));
    expect(r.code).toBe('200');
  });
});

it('keys are kept 24 hours, then swept', async () => {
  const key = newKey();
  await ok(t.call('oms', '020203', poBody(), admin, withKey(key)));
  expect(await sweepIdempotencyKeys(t.database.db, 24, Date.now() + 23 * 3600_000)).toBe(0);
  expect(await count('idempotencyKey', { idemKey: key })).toBe(1);
  expect(await sweepIdempotencyKeys(t.database.db, 24, Date.now() + 25 * 3600_000)).toBeGreaterThan(0);
  expect(await count('idempotencyKey', { idemKey: key })).toBe(0);
});

it('the API documentation names the header on idempotent codes only', async () => {
  const doc = JSON.parse((await t.app.inject({ method: 'GET', url: '/api/openapi.json', headers: { token: admin } })).body);
  const params = (path: string) => (doc.paths[path].post.parameters ?? []).map((p: any) => p.name);
  expect(params('/oms/api/020203')).toContain('Idempotency-Key');
  expect(params('/oms/api/020201')).not.toContain('Idempotency-Key');
});
