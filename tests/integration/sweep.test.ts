// Sweeps over the whole catalog: rights refusal for every code, and bad input never yields a 500,
// never changes a row, and never takes the server down.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EndpointEntry, Family } from '../../src/core/catalog.ts';
import { servedCatalog } from '../../src/server/documents/index.ts';
import { CLERK_RIGHTS } from '../../src/server/db/seed.ts';
import { startTestServer, type TestServer } from './helpers.ts';

// with the codes document definitions generate
const catalog = servedCatalog();
const all: Array<{ family: Family; e: EndpointEntry }> = (Object.entries(catalog.families) as [Family, EndpointEntry[]][])
  .flatMap(([family, list]) => list.map((e) => ({ family, e })));

let s: TestServer;
let admin: string;
let clerk: string;
beforeAll(async () => {
  s = await startTestServer({ LOGIN_MAX_FAILURES: '1000', LOGIN_MAX_FAILURES_PER_IP: '100000' });
  admin = await s.login();
  clerk = await s.login('demo', 'clerk');
});
afterAll(async () => s?.close());

const send = (family: Family, e: EndpointEntry, body: unknown, token: string | null, payload?: string) =>
  s.raw(family, e.code, e.body === 'none' ? undefined : body, token, {
    method: e.method, public: e.permission === 'public', payload,
    headers: payload !== undefined ? { 'content-type': 'application/json' } : undefined,
  });

function envelopeOf(res: { headers: Record<string, unknown>; body: string }): { code: string; msg: string } | null {
  return String(res.headers['content-type'] ?? '').includes('application/json') ? JSON.parse(res.body) : null;
}

/**
 * A fingerprint of every business row; logs, sessions and login counters are expected to move, and so
 * are the records of which tables were written (PostgreSQL, postgres-writes.ts: logging a login
 * failure is a write too).
 */
const VOLATILE = new Set(['audit_log', 'error_log', 'auth_session', 'auth_token', 'login_failure', 'schema_migration', 'table_write', 'table_write_total', 'service_process', 'api_usage_minute', 'verify_run']);
async function fingerprint(): Promise<string> {
  const tables = s.database.dialect === 'postgres'
    ? (await s.database.db.selectFrom('information_schema.tables' as any).select('tableName').where('tableSchema', '=', 'public').execute()).map((r: any) => r.tableName)
    : (await s.database.db.selectFrom('sqlite_master' as any).select('name').where('type', '=', 'table').where('name', 'not like', 'sqlite_%').execute()).map((r: any) => r.name);
  const h = crypto.createHash('sha256');
  for (const t of tables.filter((t: string) => !VOLATILE.has(t)).sort()) {
    const rows = await s.database.db.selectFrom(t).selectAll().execute();
    h.update(t + JSON.stringify(rows.map((r) => JSON.stringify(r)).sort()));
  }
  return h.digest('hex');
}

describe('rights refusal for every catalog code', () => {
  const guarded = all.filter(({ e }) => e.permission !== 'public' && e.permission !== '1' && !CLERK_RIGHTS.includes(e.permission));
  it.each(guarded.map(({ family, e }) => [`${family}:${e.code} ${e.name}`, family, e] as const))('%s', async (_n, family, e) => {
    const res = await send(family, e, {}, clerk);
    expect(envelopeOf(res)).toMatchObject({ code: 'COMMON_NO_RIGHT_4003', msg: `无权限执行“${e.name}”，请联系管理员授权` });
  });
  it('lets any logged-in user call the code-1 entries', async () => {
    for (const { family, e } of all.filter(({ e }) => e.permission === '1')) {
      const env = envelopeOf(await send(family, e, {}, clerk));
      expect(env?.code, `${family}:${e.code}`).not.toBe('COMMON_NO_RIGHT_4003');
    }
  });
  it('refuses every non-public code without a token', async () => {
    for (const { family, e } of all.filter(({ e }) => e.permission !== 'public')) {
      const env = envelopeOf(await send(family, e, {}, null));
      expect(env?.code, `${family}:${e.code}`).toBe('5012');
    }
  });
});

const big = 'x'.repeat(100 * 1024);
const nasty = [`' OR 1=1; DROP TABLE company; --`, '<script>alert(1)</script>', '"; DELETE FROM account; --', '%00\u0000\\', '../../etc/passwd'];
const fields = ['id', 'ids', 'page', 'pageSize', 'keyword', 'code', 'name', 'currencyName', 'currencyId', 'rate', 'rateDate', 'userName', 'password',
  'type', 'companyCode', 'refreshToken', 'filters', 'sort', 'version', 'listName', 'configContent', 'soIdList', 'docType', 'warehouseId', 'cidr',
  'parentId', 'rights', 'roleIds', 'enabled', 'dictCode', 'value', 'label', 'date', 'productId', 'price', 'oldPassword', 'newPassword'];
const shapes: Record<string, unknown> = {
  'wrong types': Object.fromEntries(fields.map((f, i) => [f, [{}, [], true, -1.5, 'abc', null][i % 6]])),
  'huge strings': Object.fromEntries(fields.map((f) => [f, big])),
  'nested junk': { filters: { name: { $gt: '' } }, sort: { field: 'password_hash; drop table x', order: 'sideways' }, page: 1e308, pageSize: -5 },
};

describe('bad-input sweep over every catalog code', () => {
  it('never answers 500, never changes a row, and the server keeps answering', async () => {
    const before = await fingerprint();
    const failures: string[] = [];
    // Codes without a body take no input to get wrong (010226 hands out the next product code by design).
    for (const { family, e } of all.filter(({ e }) => e.body !== 'none')) {
      const token = e.permission === 'public' ? null : e.handler === 'op:auth.logout' ? await s.login() : admin;
      const attempts: Array<[string, unknown, string | undefined]> = [
        ...Object.entries(shapes).map(([n, b]) => [n, b, undefined] as [string, unknown, undefined]),
        ['missing fields', {}, undefined],
        ['malformed JSON', undefined, '{"page": 1,,'],
      ];
      for (const [label, body, payload] of attempts) {
        const res = await send(family, e, body, token, e.body === 'json' ? payload : undefined);
        const env = envelopeOf(res);
        if (res.statusCode >= 500 || env?.code === '500') failures.push(`${family}:${e.code} ${label}: ${res.statusCode} ${env?.msg}`);
      }
    }
    expect(failures).toEqual([]);
    expect(await fingerprint()).toBe(before);
    expect((await s.call('auth', '990104', {}, admin)).code).toBe('200');
  });

  it('stores SQL and HTML metacharacters as plain text, never as code', async () => {
    for (const text of nasty) {
      const r = await s.call('cdm', '012903', { code: crypto.randomBytes(4).toString('hex'), name: text.slice(0, 50) }, admin);
      expect(r.code, text).not.toBe('500');
      if (r.code === '200') {
        const got = await s.call('cdm', '012902', { id: r.data.id }, admin);
        expect(got.data.name).toBe(text.slice(0, 50));
      }
      const list = await s.call('cdm', '012901', { page: 1, pageSize: 20, keyword: text }, admin);
      // NUL is refused up front (PostgreSQL cannot store it); everything else is searched as plain text.
      expect(list.code, text).toBe(text.includes('\u0000') ? 'COMMON_BAD_REQUEST_4001' : '200');
    }
    const companies = await s.database.db.selectFrom('company').select('code').execute();
    expect(companies.map((c) => c.code).sort()).toEqual(['demo', 'demo2']);
  });
});
