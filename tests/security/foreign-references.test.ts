// Issue 33 item 2: no write takes another company's row by its id. For every engine document and every
// resource with reference fields, the test copies a record of company demo (the walkable demo data, so
// every type has one) into a save call made as demo2's administrator: every reference field then holds
// an id of the other company. demo2 must be refused — with the message a reference outside the company
// gets ("客户不存在") — and nothing may be written. The same body saved as demo itself is the control: it
// is accepted (or refused for reasons that are not its references), so the refusal is the references'.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Family } from '../../src/core/catalog.ts';
import { allDocumentDefinitions, servedCatalog } from '../../src/server/documents/index.ts';
import { loadResources } from '../../src/server/resources/registry.ts';
import { startTestServer, type TestServer } from '../integration/helpers.ts';

type Row = Record<string, any>;
let t: TestServer;
let demo: string;
let demo2: string;

const catalog = servedCatalog();
const byHandler = new Map<string, { family: Family; code: string }>();
for (const [family, entries] of Object.entries(catalog.families)) for (const e of entries) byHandler.set(e.handler, { family: family as Family, code: e.code });

beforeAll(async () => {
  t = await startTestServer({ LOGIN_MAX_FAILURES: '1000' }, undefined, { demoWalk: true });
  demo = await t.login('demo', 'admin', 'demo123');
  demo2 = await t.login('demo2', 'admin', 'demo123');
});
afterAll(async () => t?.close());

const companyId = async (code: string) => Number((await t.database.db.selectFrom('company').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id);
async function rowsOf(table: string, company: number): Promise<number> {
  const r = await t.database.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).where('companyId', '=', company).executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** Records of demo through the list and get codes (documents with their lines). */
async function demoRecords(prefix: string, max = 8, token = demo): Promise<Row[]> {
  const list = byHandler.get(`${prefix}.list`);
  const get = byHandler.get(`${prefix}.get`);
  if (!list) return [];
  const page = await t.call(list.family, list.code, { page: 1, pageSize: max }, token);
  const rows: Row[] = page.data?.list ?? [];
  if (!get) return rows;
  const out: Row[] = [];
  for (const r of rows) {
    const one = await t.call(get.family, get.code, { id: r.id }, token);
    if (one.code === '200') out.push(one.data);
  }
  return out;
}

const pick = (record: Row, names: string[]) => Object.fromEntries(names.filter((n) => record[n] !== null && record[n] !== undefined).map((n) => [n, record[n]]));
/** Refused for naming a row the caller's company does not have: a field error, or a business code saying so. */
const isRefusalOfReference = (r: { code: string; msg: string; data: any }, fields: string[]) =>
  r.code !== '200' && ((Array.isArray(r.data?.errors) && r.data.errors.some((e: { field: string; message: string }) =>
    fields.some((f) => e.field === f || e.field.endsWith(`.${f}`)) && /不存在/.test(e.message))) || (!r.data?.errors && /不存在/.test(r.msg)));
/** Fields that hold another row's id: references, and integer ids a hook resolves itself (orderId, openItemId). */
const idFields = (fields: Array<[string, { type: string; readonly?: boolean }]>) =>
  fields.filter(([n, f]) => !f.readonly && (f.type === 'reference' || (f.type === 'integer' && /Id$/.test(n)))).map(([n]) => n);

/** Today under the run's clock (tests/support/clock-shift.ts), in company time (UTC+8). */
const today = () => new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);

type FieldLike = { type: string; resource?: string; required?: boolean; readonly?: boolean; values?: Array<{ value: unknown }>; maxLength?: number };
const firstIds = new Map<string, number | null>();
/** A company's first row of a resource (demo2 gets one made from the declaration when it has none). */
async function firstId(resource: string, token: string): Promise<number | null> {
  const key = `${token === demo ? 'demo' : 'demo2'}:${resource}`;
  if (!firstIds.has(key)) {
    let id = (await demoRecords(`resource:${resource}`, 1, token))[0]?.id ?? null;
    const save = byHandler.get(`resource:${resource}.save`);
    if (id == null && token === demo2 && save) {
      firstIds.set(key, null); // a resource referring to itself (a parent) gets none while it is being made
      const r = loadResources().get(resource)!;
      const made = await t.call(save.family, save.code, await synthesize(r.fields.filter((f) => f.name !== 'id').map((f) => [f.name, { ...f, readonly: !f.writable } as FieldLike]), demo2), demo2);
      id = made.code === '200' ? made.data.id : null;
    }
    firstIds.set(key, id);
  }
  return firstIds.get(key)!;
}
/** A body made from the declaration: the company's first row for each reference, a plain value for each required field. */
async function synthesize(fields: Array<[string, FieldLike]>, token = demo): Promise<Row> {
  const out: Row = {};
  for (const [n, f] of fields) {
    if (f.readonly) continue;
    if (f.type === 'reference') {
      const id = await firstId(f.resource!, token);
      if (id != null) out[n] = id;
    } else if (f.required) {
      out[n] = f.type === 'enum' ? f.values?.[0]?.value : f.type === 'integer' ? 1 : f.type === 'date' ? today() : f.type === 'boolean' ? false
        : ['money', 'decimal', 'number'].includes(f.type) ? '1' : `T${n}`.slice(0, f.maxLength ?? 20);
    }
  }
  return out;
}

interface Outcome { what: string; controlAccepted: boolean; singleFields: number }
const outcomes: Outcome[] = [];

async function attempt(what: string, save: { family: Family; code: string }, table: string, body: Row, refFields: string[], copied: boolean, references: Array<[string, string, boolean]>) {
  const [d1, d2] = [await companyId('demo'), await companyId('demo2')];
  // 1. every id field holds demo's ids, the caller is demo2
  const before = await rowsOf(table, d2);
  const foreign = await t.call(save.family, save.code, body, demo2);
  expect(foreign.code, `${what} saved by demo2 with demo's ids: ${JSON.stringify(foreign).slice(0, 300)}`).not.toBe('200');
  expect(await rowsOf(table, d2), `${what}: nothing written in demo2`).toBe(before);
  // 2. the control: the same body as demo itself
  const ownBefore = await rowsOf(table, d1);
  const own = await t.call(save.family, save.code, body, demo);
  // a copied control never fails on its references: they are its own company's (a body made from the
  // declaration may hold an id nobody has, such as taskLineId 1)
  if (copied) expect(isRefusalOfReference(own, refFields), `${what} as demo: ${JSON.stringify(own).slice(0, 300)}`).toBe(false);
  const accepted = own.code === '200';
  if (accepted) expect(await rowsOf(table, d1)).toBe(ownBefore + 1);
  // 3. a body demo saves, with one reference at a time pointing at demo2's row: refused, naming that field
  let tried = 0;
  if (accepted) {
    for (const [name, resource, inLine] of references) {
      const other = await firstId(resource, demo2);
      const holds = inLine ? body.lines?.[0]?.[name] != null : body[name] != null;
      if (other == null || !holds) continue;
      const variant = inLine ? { ...body, lines: [{ ...body.lines[0], [name]: other }, ...body.lines.slice(1)] } : { ...body, [name]: other };
      const n = await rowsOf(table, d1);
      const r = await t.call(save.family, save.code, variant, demo);
      expect(isRefusalOfReference(r, [name]), `${what} as demo with demo2's ${name} ${other}: ${JSON.stringify(r).slice(0, 300)}`).toBe(true);
      expect(await rowsOf(table, d1)).toBe(n);
      tried++;
    }
  }
  outcomes.push({ what, controlAccepted: accepted, singleFields: tried });
}

describe('another company’s ids in every reference field', () => {
  it('收付款单 (oms 026003): a receipt from demo’s client and a payment to demo’s supplier are refused as 客户不存在 / 供应商不存在', async () => {
    const [client] = await demoRecords('resource:client', 1);
    const [supplier] = await demoRecords('resource:supplier', 1);
    const receipt = await t.call('oms', '026003', { direction: 'receipt', clientId: client.id, payDate: today(), amount: '1.00', method: 'bank', post: true }, demo2);
    expect(receipt.code).toBe('COMMON_VALIDATION_4000');
    expect(receipt.data.errors).toContainEqual({ field: 'clientId', message: '客户不存在' });
    const payment = await t.call('oms', '026003', { direction: 'payment', supplierId: supplier.id, payDate: today(), amount: '1.00', method: 'bank', post: true }, demo2);
    expect(payment.data.errors).toContainEqual({ field: 'supplierId', message: '供应商不存在' });
    // demo2's money lists name no party of demo's
    const advances = await t.call('oms', '026012', { page: 1, pageSize: 50 }, demo2);
    expect(JSON.stringify(advances.data)).not.toContain(client.name);
  });

  it('every engine document’s save code', async () => {
    for (const def of allDocumentDefinitions()) {
      const save = byHandler.get(`op:${def.type}.save`);
      if (!save) continue;
      const headerNames = Object.entries(def.header).filter(([, f]) => !f.readonly).map(([n]) => n);
      const lineNames = Object.entries(def.lines.fields).filter(([, f]) => !f.readonly).map(([n]) => n);
      const refFields = idFields([...Object.entries(def.header), ...Object.entries(def.lines.fields)]);
      const references: Array<[string, string, boolean]> = [
        ...Object.entries(def.header).filter(([, f]) => f.type === 'reference' && !f.readonly).map(([n, f]): [string, string, boolean] => [n, f.resource!, false]),
        ...Object.entries(def.lines.fields).filter(([, f]) => f.type === 'reference' && !f.readonly).map(([n, f]): [string, string, boolean] => [n, f.resource!, true]),
      ];
      const records = await demoRecords(`op:${def.type}`);
      const record = records.find((r) => refFields.some((f) => r[f] != null || (r.lines ?? []).some((l: Row) => l[f] != null)));
      const body = record
        ? { ...pick(record, headerNames), lines: (record.lines ?? []).map((l: Row) => pick(l, lineNames)) }
        : { ...(await synthesize(Object.entries(def.header))), lines: [await synthesize(Object.entries(def.lines.fields))] };
      await attempt(`${def.title} ${save.family}:${save.code}`, save, def.table, body, refFields, !!record, references);
    }
  });

  it('every resource save code with reference fields', async () => {
    const registry = loadResources();
    for (const r of registry.resources.values()) {
      const save = byHandler.get(`resource:${r.name}.save`);
      const refFields = idFields(r.fields.map((f) => [f.name, { type: f.type, readonly: !f.writable }]));
      if (!save || !refFields.length) continue;
      const record = (await demoRecords(`resource:${r.name}`, 20)).find((x) => refFields.some((f) => x[f] != null));
      const body: Row = record
        ? pick(record, r.fields.filter((f) => f.writable && f.name !== 'id').map((f) => f.name))
        : await synthesize(r.fields.filter((f) => f.name !== 'id').map((f) => [f.name, { ...f, readonly: !f.writable } as FieldLike]));
      // a copy needs its own unique keys
      for (const key of r.uniqueKeys) for (const n of key) if (typeof body[n] === 'string' && !refFields.includes(n)) body[n] = `${body[n]}X9`.slice(-(r.fieldMap.get(n)?.maxLength ?? 60));
      await attempt(`${r.title} ${save.family}:${save.code}`, save, r.table, body, refFields, !!record, r.fields.filter((f) => f.type === 'reference' && f.writable).map((f) => [f.name, f.resource!, false]));
    }
  });

  afterAll(() => {
    const accepted = outcomes.filter((o) => o.controlAccepted);
    console.log(`foreign references: ${outcomes.length} save codes tried; ${accepted.length} whose copy demo itself saves, with ${accepted.reduce((n, o) => n + o.singleFields, 0)} single reference fields refused one at a time; ` +
      `copies demo refuses for other reasons: ${outcomes.filter((o) => !o.controlAccepted).map((o) => o.what).join('、') || 'none'}`);
  });
});
