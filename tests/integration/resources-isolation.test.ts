// Company isolation for EVERY resource in the registry: a row created in company demo is invisible and
// untouchable from company demo2 through list, get, save, remove, export and options, and demo2 cannot
// point a reference at it. Calls go through HTTP where the catalog has a code, else straight to the
// generic handler with demo2's company scope.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EndpointEntry, Family } from '../../src/core/catalog.ts';
import { parseFlags } from '../../src/core/flags.ts';
import type { CallContext, Caller, OpHandler } from '../../src/server/catalog/context.ts';
import { loadCatalog } from '../../src/server/catalog/load-catalog.ts';
import { Tenant } from '../../src/server/catalog/tenant.ts';
import { validateInput } from '../../src/server/catalog/validate-input.ts';
import { ApiError } from '../../src/server/http/errors.ts';
import { FileResponse } from '../../src/server/http/file-response.ts';
import { JsonText } from '../../src/server/http/json-text.ts';
import { writeAudit } from '../../src/server/http/logs.ts';
import { inTransaction } from '../../src/server/http/transaction.ts';
import { loadResources, resourceResolver, type Field, type Resource } from '../../src/server/resources/index.ts';
import { readXlsx } from '../fixtures/spreadsheets.ts';
import { startTestServer, type TestServer } from './helpers.ts';

type Envelope = { code: string; msg: string; data: any };
interface Company { id: number; code: string; accountId: number; token: string }

const reg = loadResources();
const resolve = resourceResolver(reg);
const catalog = loadCatalog();
const endpoints = new Map<string, { family: Family; entry: EndpointEntry }>();
for (const [family, entries] of Object.entries(catalog.families) as [Family, EndpointEntry[]][]) {
  for (const entry of entries) if (entry.handler.startsWith('resource:')) endpoints.set(entry.handler.slice('resource:'.length), { family, entry });
}

let t: TestServer;
let demo: Company;
let demo2: Company;

async function company(code: string): Promise<Company> {
  const token = await t.login(code, 'admin', 'demo123');
  const row = await t.database.db.selectFrom('company').innerJoin('account', 'account.companyId', 'company.id')
    .select(['company.id', 'account.id as accountId']).where('company.code', '=', code).where('account.userName', '=', 'admin').executeTakeFirstOrThrow();
  return { id: Number(row.id), code, accountId: Number(row.accountId), token };
}

/** A handler run with the company's scope, the way the HTTP layer would (for ops the catalog does not publish). */
async function direct(handler: OpHandler, who: Company, body: unknown): Promise<Envelope | Buffer> {
  const db = t.database.db;
  const tenant = new Tenant(db, who.id);
  const caller: Caller = {
    sessionId: 'test', accountId: who.accountId, userName: 'admin', allRights: true, rights: new Set(), withheld: new Set(), wall: false,
    company: { id: who.id, code: who.code, name: who.code, timeZone: 8, flags: parseFlags('{}'), operator: false },
  };
  const ctx: CallContext = {
    family: 'cdm', entry: { code: '000000', name: 'test', method: 'POST', body: 'json', response: 'json', permission: '1', handler: 'test' },
    database: t.database, db, config: t.config, ip: '127.0.0.1', userAgent: 'vitest', headers: {}, query: {}, token: null, caller, tenant, documents: new Map(),
    transaction: (fn) => inTransaction(db, (trx) => fn(trx, tenant.with(trx))),
    audit: (e, d) => writeAudit(d ?? db, caller, '127.0.0.1', 'test', e),
  };
  try {
    const result = await handler.run(ctx, validateInput(handler.input, body));
    if (result instanceof FileResponse) {
      if (Buffer.isBuffer(result.body)) return result.body;
      const chunks: Buffer[] = [];
      for await (const c of result.body) chunks.push(c as Buffer);
      return Buffer.concat(chunks);
    }
    // (a list page is answered as JSON text, as the HTTP layer sends it)
    return { code: '200', msg: '', data: result instanceof JsonText ? JSON.parse(result.text) : result };
  } catch (e) {
    if (e instanceof ApiError) return { code: e.code, msg: e.message, data: e.data };
    throw e;
  }
}

/** resource op through its catalog code when there is one; undefined when the resource has no such op. */
async function invoke(r: Resource, op: string, who: Company, body: unknown): Promise<Envelope | Buffer | undefined> {
  const ep = endpoints.get(`${r.name}.${op}`);
  if (ep) {
    const noBody = ep.entry.body === 'none';
    const res = await t.raw(ep.family, ep.entry.code, noBody ? undefined : body, who.token, { method: ep.entry.method });
    if (String(res.headers['content-type']).includes('application/json')) return JSON.parse(res.body) as Envelope;
    return res.rawPayload;
  }
  const handler = resolve(r.name, op);
  return handler ? direct(handler, who, body) : undefined;
}

async function firstId(table: string, companyId: number): Promise<number | string | undefined> {
  const row = await t.database.db.selectFrom(table).select('id').where('companyId', '=', companyId).orderBy('id').limit(1).executeTakeFirst();
  return row?.id as number | string | undefined;
}

let seq = 0;
function sample(f: Field): unknown {
  const n = ++seq + Math.floor(Math.random() * 1e6);
  switch (f.type) {
    case 'string':
      if (f.format === 'cidr') return `10.${n % 250}.${Math.floor(n / 250) % 250}.${seq % 250}`;
      if (f.format === 'email') return `t${n}@example.com`;
      // digit-only codes (HS codes) get digits
      if (f.pattern && !new RegExp(f.pattern, 'u').test(`T${n}`)) return String(100000 + n).slice(0, f.maxLength ?? 50);
      return `T${n}`.slice(0, f.maxLength ?? 50);
    case 'text': return `文本${n}`;
    case 'integer': return Number(f.min ?? 1);
    case 'boolean': return true;
    case 'enum': return f.values![0].value;
    case 'date': return `20${30 + (n % 60)}-0${1 + (n % 9)}-1${n % 9}`;
    case 'datetime': return new Date().toISOString();
    case 'money': return '1.00';
    case 'decimal': return '1';
    case 'list': return [];
    case 'json': return { n };
    case 'password': return 'secret123';
    default: return null;
  }
}

/**
 * A valid new row of r for a company: required and unique fields, references to that company's rows
 * (a referenced resource with no row in the company yet gets one first, e.g. a default location needs a
 * product and a location).
 */
/** Values a resource's own rules need beyond required fields (a promotion's kind needs its figure, dates in order). */
const SAMPLE_EXTRA: Record<string, Record<string, unknown>> = {
  promotion: { kind: 'percentOff', percent: '5', startDate: '2026-01-01', endDate: '2026-12-31' },
  // a series that exists (and that the demo company has no rule for yet); a region takes any code (a port a UN/LOCODE)
  numberRule: { series: 'PD' },
  port: { countryCode: 'CN', kind: 'region' },
};
/** Reference fields a row of the resource leaves empty: a client's contact names no supplier. */
const SAMPLE_NONE: Record<string, string[]> = { contact: ['supplierId'] };

async function sampleRow(r: Resource, companyId: number): Promise<Record<string, unknown>> {
  const row: Record<string, unknown> = { ...SAMPLE_EXTRA[r.name] };
  for (const f of r.fields) {
    if (!f.writable) continue;
    const needed = f.required || f.unique || r.uniqueKeys.some((k) => k.includes(f.name));
    if (!needed || SAMPLE_NONE[r.name]?.includes(f.name)) continue;
    if (f.type === 'reference') {
      const target = reg.get(f.resource!)!;
      row[f.name] = (await firstId(target.table, companyId)) ?? (f.required && target !== r ? await createSample(target, companyId) : undefined);
    } else if (!(f.name in row)) row[f.name] = sample(f);
  }
  return row;
}

async function createSample(r: Resource, companyId: number): Promise<number | string | undefined> {
  const created = await invoke(r, 'save', companyId === demo.id ? demo : demo2, await sampleRow(r, companyId));
  return created && !Buffer.isBuffer(created) && created.code === '200' ? created.data.id : undefined;
}

/** Rows of readonly resources come from the system (logs); write one straight into the table. */
async function insertReadonly(r: Resource, companyId: number): Promise<number | string> {
  const values: Record<string, unknown> = { companyId };
  for (const f of r.fields) {
    const v = sample(f);
    values[f.column] = f.type === 'boolean' ? 1 : f.type === 'json' ? JSON.stringify(v) : f.type === 'money' ? 100 : f.type === 'decimal' ? 1 : v;
  }
  if (r.idType === 'string') {
    values.id = `ISO${Date.now()}${seq}`.toUpperCase();
    await t.database.db.insertInto(r.table).values(values).execute();
    return values.id as string;
  }
  const row = await t.database.db.insertInto(r.table).values(values).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

function env(x: Envelope | Buffer | undefined): Envelope {
  if (!x || Buffer.isBuffer(x)) throw new Error('expected a JSON envelope');
  return x;
}

beforeAll(async () => {
  t = await startTestServer();
  demo = await company('demo');
  demo2 = await company('demo2');
});

afterAll(async () => {
  await t?.close();
});

describe('every resource is company-scoped', () => {
  it('the registry has the resources the catalog names', () => {
    for (const key of endpoints.keys()) expect(resolve(key.split('.')[0], key.split('.')[1]), key).toBeDefined();
    expect([...reg.resources.keys()].length).toBeGreaterThanOrEqual(17);
  });

  for (const r of reg.resources.values()) {
    it(`${r.name}（${r.title}）`, async () => {
      // A row in demo.
      let id: number | string;
      let version = 1;
      if (r.readonly) id = await insertReadonly(r, demo.id);
      else {
        const created = env(await invoke(r, 'save', demo, await sampleRow(r, demo.id)));
        expect(created.code, `${r.name} create: ${created.msg}`).toBe('200');
        id = created.data.id;
        version = created.data.version;
      }
      const mine = env(await invoke(r, 'get', demo, { id }));
      expect(mine.code).toBe('200');

      // demo2 cannot see it...
      const list = env(await invoke(r, 'list', demo2, { page: 1, pageSize: 1000, filters: { id } }));
      expect(list.code).toBe('200');
      expect(list.data.total).toBe(0);
      const all = env(await invoke(r, 'list', demo2, { page: 1, pageSize: 1000 }));
      expect(all.data.list.some((x: any) => String(x.id) === String(id))).toBe(false);
      const got = env(await invoke(r, 'get', demo2, { id }));
      expect(got.code).toBe('COMMON_NOT_FOUND_4004');
      expect(got.msg).toBe(`${r.title}不存在或已被删除`);
      const opts = await invoke(r, 'options', demo2, {});
      if (opts) expect(env(opts).data.some((o: any) => String(o.id) === String(id))).toBe(false);
      const file = await invoke(r, 'export', demo2, { ids: [id] });
      expect(Buffer.isBuffer(file)).toBe(true);
      const [sheet] = await readXlsx(file as Buffer);
      expect(sheet.rows.length).toBe(1); // the header only

      // ...nor touch it.
      if (!r.readonly) {
        const field = r.fields.find((f) => f.writable && f.type !== 'reference' && f.type !== 'password' && !f.unique)!;
        const saved = env(await invoke(r, 'save', demo2, { id, version, [field.name]: sample(field) }));
        expect(saved.code).toBe('COMMON_NOT_FOUND_4004');
        const removed = env(await invoke(r, 'remove', demo2, { id }));
        expect(removed.code).toBe('COMMON_NOT_FOUND_4004');
        const still = env(await invoke(r, 'get', demo, { id }));
        expect(still.code).toBe('200');
        expect(still.data.version).toBe(version);
        expect(still.data).toEqual(mine.data);

        // demo2 cannot point a reference at demo's rows either.
        for (const f of r.fields.filter((x) => x.type === 'reference' && x.writable)) {
          const foreign = await firstId(reg.get(f.resource!)!.table, demo.id);
          if (foreign === undefined) continue;
          const row = { ...(await sampleRow(r, demo2.id)), [f.name]: foreign };
          const refused = env(await invoke(r, 'save', demo2, row));
          expect(refused.code, `${r.name}.${f.name}`).toBe('COMMON_VALIDATION_4000');
          expect(refused.data.errors.map((e: any) => e.field)).toContain(f.name);
        }
        for (const f of r.fields.filter((x) => x.type === 'list' && x.resource && x.writable)) {
          const foreign = await firstId(reg.get(f.resource!)!.table, demo.id);
          const row = { ...(await sampleRow(r, demo2.id)), [f.name]: [foreign] };
          const refused = env(await invoke(r, 'save', demo2, row));
          expect(refused.code, `${r.name}.${f.name}`).toBe('COMMON_VALIDATION_4000');
        }

        // and demo still can remove its own row (nothing references it)
        const own = env(await invoke(r, 'remove', demo, { id }));
        expect(own.code, `${r.name} remove: ${own.msg}`).toBe('200');
      }
    });
  }
});
