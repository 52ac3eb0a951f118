// Request bodies are bounded at the HTTP layer, before any handler (issue 19 item 4): a body nested
// thousands deep answered 500 (Maximum call stack size exceeded in the list page key) on 34 list codes.
// Depth beyond MAX_JSON_DEPTH and size beyond the body limit get a clear refusal on every code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonDeeperThan, MAX_JSON_DEPTH } from '../../src/server/http/json-limits.ts';
import { startTestServer, type TestServer } from '../integration/helpers.ts';

let t: TestServer;
let token: string;

beforeAll(async () => {
  t = await startTestServer();
  token = await t.login();
});

afterAll(async () => {
  await t?.close();
});

const nested = (depth: number, leaf = '1') => '{"a":'.repeat(depth) + leaf + '}'.repeat(depth);

describe('JSON nesting depth', () => {
  it('counts objects and arrays, not brackets inside strings', () => {
    expect(jsonDeeperThan(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonDeeperThan(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonDeeperThan('[' .repeat(40) + ']'.repeat(40))).toBe(true);
    expect(jsonDeeperThan(JSON.stringify({ s: '[[[[{{{{'.repeat(100) + '\\"[[' }))).toBe(false);
  });

  it('a list filter nested 10,000 deep: 请求格式错误, on every list code tried, and nothing logged as a server error', async () => {
    const deep = nested(10_000);
    for (const [family, code] of [['cdm', '010201'], ['cdm', '011001'], ['oms', '020201'], ['cdm', '011301']] as const) {
      const res = await t.raw(family, code, undefined, token, { payload: `{"page":1,"filters":${deep}}`, headers: { 'content-type': 'application/json' } });
      const env = JSON.parse(res.body);
      expect(env.code, `${code}: ${env.msg}`).toBe('COMMON_BAD_REQUEST_4001');
      expect(env.msg).toBe(`请求格式错误：内容嵌套超过 ${MAX_JSON_DEPTH} 层`);
    }
    const logged = await t.database.db.selectFrom('errorLog').select('id').execute();
    expect(logged).toEqual([]);
  });

  it('an ordinary document body (lines of objects) passes', async () => {
    const r = await t.call('cdm', '010201', { page: 1, pageSize: 5, filters: { status: ['onSale'] }, sort: { field: 'code', order: 'ascend' } }, token);
    expect(r.code).toBe('200');
  });

  it('a body over the size limit: 请求内容过大', async () => {
    const big = JSON.stringify({ page: 1, keyword: 'x'.repeat(3 * 1024 * 1024) });
    const res = await t.raw('cdm', '010201', undefined, token, { payload: big, headers: { 'content-type': 'application/json' } });
    expect(JSON.parse(res.body)).toMatchObject({ code: 'COMMON_TOO_LARGE_4015', msg: '请求内容过大' });
  });
});
