// Every integer of every request is range-checked where requests are validated (issue 19 item 3): an
// id of 2^31 or 1e308 reached PostgreSQL and answered 500 (188 of 288 codes), while SQLite took it.
// This sweeps every JSON code of the catalog, as the all-rights administrator, with out-of-range
// values in `id` and in every integer its input schema names (lines included), on SQLite — or
// PostgreSQL when DATABASE_URL is set: no answer may be 500, and a code that reads an integer id
// refuses it with a validation error naming the field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EndpointEntry, Family } from '../../src/core/catalog.ts';
import { bindCatalog, type BoundEndpoint } from '../../src/server/catalog/bind.ts';
import { loadCatalog } from '../../src/server/catalog/load-catalog.ts';
import { buildRightsCatalog } from '../../src/server/catalog/rights-catalog.ts';
import { allDocumentDefinitions, loadDocumentTypes, withDocumentEndpoints } from '../../src/server/documents/index.ts';
import { allOps } from '../../src/server/ops/index.ts';
import { loadResources, resourceResolver } from '../../src/server/resources/index.ts';
import { startTestServer, type TestServer } from '../integration/helpers.ts';

const OUT_OF_RANGE = [2_147_483_648, 1e308, -2_147_483_649];
/** Codes that end the caller's session or change its credentials: called last, or not at all. */
const SESSION_CODES = new Set(['990104', '990105', '990106', '990107']);

let t: TestServer;
let token: string;
let bound: Map<string, BoundEndpoint>;

function boundEndpoints(): Map<string, BoundEndpoint> {
  const definitions = allDocumentDefinitions();
  const catalog = withDocumentEndpoints(loadCatalog(), definitions);
  const resources = loadResources();
  const documents = loadDocumentTypes(catalog, resources, definitions);
  return bindCatalog(catalog, allOps({ catalog, rights: buildRightsCatalog(catalog), resources, documents }), resourceResolver(resources));
}

type Schema = { type?: unknown; properties?: Record<string, Schema>; items?: Schema };
const isInteger = (s: Schema | undefined) => !!s && (s.type === 'integer' || (Array.isArray(s.type) && s.type.includes('integer')));

/** A body putting `v` in every integer property the schema names (one level into arrays of objects). */
function integersBody(schema: Schema | undefined, v: number): Record<string, unknown> | undefined {
  const props = schema?.properties;
  if (!props) return undefined;
  const body: Record<string, unknown> = {};
  for (const [k, p] of Object.entries(props)) {
    if (isInteger(p)) body[k] = v;
    else if (p.type === 'array' && isInteger(p.items)) body[k] = [v];
    else if (p.type === 'array' && p.items?.properties) body[k] = [integersBody(p.items, v)];
  }
  return Object.keys(body).length ? body : undefined;
}

async function errorLogRows(): Promise<number> {
  const r = await t.database.db.selectFrom('errorLog').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
  return Number(r?.n ?? 0);
}

async function send(ep: BoundEndpoint, body: unknown): Promise<{ code: string; msg: string; data: any }> {
  const res = await t.raw(ep.family as Family, ep.entry.code, body, token, { public: ep.entry.permission === 'public' });
  if (!String(res.headers['content-type'] ?? '').includes('json')) return { code: 'file', msg: '', data: null };
  const env = JSON.parse(res.body);
  if (env.code === '5012' || env.code === '5011') token = await t.login();
  return env;
}

beforeAll(async () => {
  t = await startTestServer();
  token = await t.login();
  bound = boundEndpoints();
});

afterAll(async () => {
  await t?.close();
});

describe('integers out of the database range, in every JSON code', () => {
  it('never answer 500 nor write an error-log row; codes reading an integer id refuse it naming the field', async () => {
    const eps = [...bound.values()].filter((ep) => ep.entry.body === 'json' && ep.entry.method === 'POST' && !SESSION_CODES.has(ep.entry.code));
    expect(eps.length).toBeGreaterThan(200);
    const before = await errorLogRows();
    const failures: string[] = [];
    const notRefused: string[] = [];
    let idCodes = 0;
    for (const ep of eps) {
      const schema = ep.handler.input as Schema | undefined;
      const readsId = isInteger(schema?.properties?.id) || /^resource:.*\.(get|save|remove|delete)$/.test(ep.entry.handler);
      if (readsId) idCodes++;
      for (const v of OUT_OF_RANGE) {
        const bodies = [{ id: v }, integersBody(schema, v)].filter(Boolean);
        for (const body of bodies) {
          const r = await send(ep, body);
          const what = `${ep.family}:${ep.entry.code} ${(ep.entry as EndpointEntry).name} ${JSON.stringify(body).slice(0, 120)} → ${r.code} ${r.msg.slice(0, 80)}`;
          if (r.code === '500') failures.push(what);
        }
        if (readsId) {
          const r = await send(ep, { id: v, version: 1 });
          if (r.code !== 'COMMON_VALIDATION_4000' || !(r.data?.errors ?? []).some((e: { field: string }) => e.field === 'id')) notRefused.push(`${ep.family}:${ep.entry.code} ${ep.entry.name} id=${v} → ${r.code} ${r.msg}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(notRefused).toEqual([]);
    expect(idCodes).toBeGreaterThan(100);
    expect(await errorLogRows()).toBe(before);
  }, 300_000);

  it('resource saves: every integer and reference field out of range is refused naming it', async () => {
    const reg = loadResources();
    const saves = [...bound.values()].filter((ep) => /^resource:[\w-]+\.save$/.test(ep.entry.handler));
    expect(saves.length).toBeGreaterThan(20);
    const missed: string[] = [];
    let fields = 0;
    for (const ep of saves) {
      const r = reg.get(ep.entry.handler.slice('resource:'.length, -'.save'.length))!;
      // read-only fields are server-managed: a save ignores what a client sends for them
      for (const f of r.fields.filter((x) => (x.type === 'integer' || x.type === 'reference') && !x.readonly)) {
        if (f.max !== undefined && Number(f.max) > 2_147_483_647) continue; // a bigint column, bounded by its own max
        fields++;
        for (const v of [2_147_483_648, 1e308]) {
          const res = await send(ep, { [f.name]: v });
          const named = res.code === 'COMMON_VALIDATION_4000' && (res.data?.errors ?? []).some((e: { field: string }) => e.field === f.name);
          if (!named) missed.push(`${ep.family}:${ep.entry.code} ${r.name}.${f.name}=${v} → ${res.code} ${res.msg.slice(0, 80)}`);
        }
      }
    }
    expect(missed).toEqual([]);
    expect(fields).toBeGreaterThan(20);
  }, 120_000);

  it('a list filter of 1e308 on an integer field and on id is a validation error, not 500', async () => {
    for (const filters of [{ id: 1e308 }, { id: 2_147_483_648 }, { midQty: 1e308 }, { midQty: [1, 1e308] }]) {
      const r = await t.call('cdm', '010201', { page: 1, pageSize: 5, filters }, token);
      expect(r.code, JSON.stringify(filters)).toBe('COMMON_VALIDATION_4000');
    }
  });

  it('says which field and what bound', async () => {
    const r = await t.call('oms', '020202', { id: 2_147_483_648 }, token);
    expect(r.code).toBe('COMMON_VALIDATION_4000');
    expect(r.data.errors[0].field).toBe('id');
    expect(r.msg).toMatch(/不能大于 2147483647|编号/);
  });
});
