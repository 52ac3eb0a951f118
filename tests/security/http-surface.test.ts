// What the HTTP surface shows an outsider (issue 19, items 5, 9 and 10): where an access token is taken
// from, what an anonymous caller can learn, the Referrer-Policy on every answer, and how uploaded files
// (a PDF that holds JavaScript) are served. Issue 17: of every code in the catalog, an anonymous caller
// reaches exactly the public ones — login, the label peek and a shared file's page and download.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointPath, type Family } from '../../src/core/catalog.ts';
import { loadCatalog } from '../../src/server/catalog/load-catalog.ts';
import { allDocumentDefinitions, withDocumentEndpoints } from '../../src/server/documents/index.ts';
import { startTestServer, type TestServer } from '../integration/helpers.ts';

let s: TestServer;
let demo: string;

beforeAll(async () => {
  s = await startTestServer();
  demo = await s.login('demo', 'admin', 'demo123');
});
afterAll(async () => s?.close());

const envelope = (body: string) => JSON.parse(body) as { code: string; msg: string; data: unknown };

function multipartFile(filename: string, content: Buffer) {
  const boundary = '----sec' + crypto.randomBytes(8).toString('hex');
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/pdf\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('item 5: the access token travels in the token header', () => {
  it('refuses a token in the query string on every code but the image read 980106 (spec §7)', async () => {
    for (const [family, code] of [['cdm', '010201'], ['cdm', '013401'], ['oms', '020201'], ['auth', '990104']] as const) {
      const r = await s.call(family, code, { page: 1 }, null, { query: { token: demo } });
      expect(r.code, `${family} ${code}`).toBe('5012');
    }
    // The same calls with the header work.
    expect((await s.call('cdm', '010201', { page: 1 }, demo)).code).toBe('200');
  });

  it('accepts the query token for 980106 only', async () => {
    const r = await s.raw('storage', '980106', undefined, null, { method: 'GET', query: { mediaId: 'nope', token: demo } });
    expect(envelope(r.body).code).toBe('STORAGE_NOT_EXIST_4043');
  });

  it('sends Referrer-Policy: same-origin on every answer: envelopes, errors, unknown paths, documents, files, pages', async () => {
    const answers = [
      await s.app.inject({ method: 'POST', url: '/cdm/api/010201', headers: { token: demo, 'content-type': 'application/json' }, payload: '{"page":1}' }),
      await s.app.inject({ method: 'POST', url: '/cdm/api/010201', headers: { 'content-type': 'application/json' }, payload: '{"page":1}' }),
      await s.app.inject({ method: 'POST', url: '/cdm/api/010201', headers: { token: demo, 'content-type': 'application/json' }, payload: '{"page":' }),
      await s.app.inject({ method: 'POST', url: '/auth/public/990103', headers: { 'content-type': 'application/json' }, payload: '{"type":0,"companyCode":"demo","userName":"nobody","password":"x"}' }),
      await s.app.inject({ method: 'GET', url: '/cdm/api/nothing/here' }),
      await s.app.inject({ method: 'GET', url: '/api/openapi.json', headers: { token: demo } }),
      await s.app.inject({ method: 'GET', url: '/api/catalog' }),
      await s.app.inject({ method: 'POST', url: '/cdm/api/013405', headers: { token: demo, 'content-type': 'application/json' }, payload: '{}' }),
      await s.app.inject({ method: 'GET', url: '/some/screen' }),
    ];
    for (const r of answers) expect(r.headers['referrer-policy'], `${r.statusCode} ${r.body.slice(0, 80)}`).toBe('same-origin');
  });
});

describe('item 9: without a token, every /api/ path answers 5012', () => {
  it('serves /api/openapi.json to logged-in callers only', async () => {
    const anon = await s.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(envelope(anon.body)).toMatchObject({ code: '5012' });
    expect(anon.body).not.toContain('resource:');
    const doc = JSON.parse((await s.app.inject({ method: 'GET', url: '/api/openapi.json', headers: { token: demo } })).body);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('answers a known code, an unknown code, a code of another family and a junk path alike', async () => {
    const paths = [
      ['POST', '/cdm/api/010201'], // known
      ['POST', '/oms/api/014501'], // a cdm code under oms
      ['POST', '/cdm/api/999999'], // unknown
      ['GET', '/cdm/api/010201'], // known code, wrong method
      ['POST', '/auth/api/990103'], // the public login code under the private family
      ['POST', '/storage/api/123456'],
      ['GET', '/cdm/api/a/b/c'],
      ['GET', '/api/codes'],
      ['GET', '/api/nothing'],
      ['POST', '/oms/api/'],
    ] as const;
    const seen = new Set<string>();
    for (const [method, url] of paths) {
      const r = await s.app.inject({ method, url, headers: { 'content-type': 'application/json' }, payload: method === 'POST' ? '{}' : undefined });
      const e = envelope(r.body);
      expect(e.code, `${method} ${url}`).toBe('5012');
      seen.add(r.body);
    }
    expect(seen.size, 'every anonymous answer is the same text').toBe(1);
  });

  it('still tells a logged-in caller which codes do not exist', async () => {
    expect((await s.call('oms', '014501', {}, demo)).code).toBe('COMMON_API_NOT_EXIST_4005');
    const r = await s.app.inject({ method: 'GET', url: '/api/nothing', headers: { token: demo } });
    expect(envelope(r.body).code).toBe('COMMON_API_NOT_EXIST_4005');
  });
});

describe('item 10: uploaded files are never run from the app origin', () => {
  it('serves an uploaded PDF as an attachment under a sandbox CSP, scripts and all', async () => {
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/OpenAction<</S/JavaScript/JS(app.alert(document.cookie))>>>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
    const { payload, headers } = multipartFile('报价单.pdf', pdf);
    const up = await s.call('storage', '980107', undefined, demo, { payload, headers });
    expect(up.code).toBe('200');
    const r = await s.raw('storage', '980106', undefined, null, { method: 'GET', query: { mediaId: `${up.data.mediaId}_0`, token: demo } });
    expect(r.headers['content-type']).toBe('application/pdf');
    expect(String(r.headers['content-disposition'])).toMatch(/^attachment;/);
    expect(String(r.headers['content-security-policy'])).toMatch(/(^|;\s*)sandbox(;|$)/);
    expect(r.headers['x-content-type-options']).toBe('nosniff');
  });

  it('puts every file answer (exports too) under the sandbox CSP', async () => {
    const r = await s.raw('cdm', '013405', {}, demo);
    expect(String(r.headers['content-disposition'])).toMatch(/^attachment;/);
    expect(String(r.headers['content-security-policy'])).toMatch(/(^|;\s*)sandbox(;|$)/);
  });
});

describe('issue 17: without a token, only the public codes answer', () => {
  const catalog = withDocumentEndpoints(loadCatalog(), allDocumentDefinitions());
  const all = (Object.entries(catalog.families) as [Family, typeof catalog.families.auth][]).flatMap(([family, entries]) => entries.map((e) => ({ family, e })));

  it('answers every code but login, the label peek, the shared file\'s page and download and the wall link\'s opening with 5012', async () => {
    expect(all.length).toBeGreaterThan(300);
    const reached: string[] = [];
    for (const { family, e } of all) {
      const r = await s.app.inject({ method: e.method, url: endpointPath(family, e), headers: { 'content-type': 'application/json' }, payload: e.method === 'POST' ? '{}' : undefined });
      if (envelope(r.body).code !== '5012') reached.push(`${family}:${e.code}`);
    }
    expect(reached.sort()).toEqual(['auth:990103', 'auth:990110', 'auth:990120', 'storage:980204', 'storage:980205']);
  });

  it('serves a private code under no public path, and a public code under no private one', async () => {
    for (const { family, e } of all.filter((x) => x.e.permission !== 'public')) {
      const r = await s.app.inject({ method: 'POST', url: `/${family}/public/${e.code}`, headers: { 'content-type': 'application/json' }, payload: '{}' });
      expect(envelope(r.body).code, `${family}:${e.code}`).toBe('COMMON_API_NOT_EXIST_4005');
    }
    for (const [family, code] of [['storage', '980204'], ['storage', '980205'], ['auth', '990120'], ['auth', '990110']] as const) {
      expect((await s.call(family, code, { id: 'x' }, demo)).code, `${family}:${code} under /api/`).toBe('COMMON_API_NOT_EXIST_4005');
    }
  });

  it('tells a wall link\'s opening nothing about links it does not hold', async () => {
    const r = await s.call('auth', '990110', { token: 'AAAAAAAAAAAAAAAAAAAAAA' }, null, { public: true });
    expect(r).toMatchObject({ code: 'WALL_LINK_INVALID_4310', data: null });
  });

  it('tells a shared link\'s page nothing about links it does not hold', async () => {
    const r = await s.call('storage', '980204', { id: 'AAAAAAAAAAAAAAAAAAAAAA' }, null, { public: true });
    expect(r).toMatchObject({ code: 'SHARE_NOT_FOUND_4301', data: null });
  });
});
