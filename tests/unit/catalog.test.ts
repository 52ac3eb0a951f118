// The endpoint catalog keeps every transport behaviour spec §7 states, and binding is strict.
import { describe, expect, it } from 'vitest';
import type { Catalog } from '../../src/core/catalog.ts';
import { findEndpoint } from '../../src/core/catalog.ts';
import { bindCatalog } from '../../src/server/catalog/bind.ts';
import { loadCatalog } from '../../src/server/catalog/load-catalog.ts';
import { contentDisposition } from '../../src/server/http/file-response.ts';

const catalog = loadCatalog();
const cdm = (code: string) => {
  const e = findEndpoint(catalog, 'cdm', code);
  if (!e) throw new Error(`cdm:${code} missing from the catalog`);
  return e;
};

describe('spec §7 transport behaviour', () => {
  it.each(['010214', '011711', '011611'])('GET with no payload: %s', (code) => {
    expect(cdm(code)).toMatchObject({ method: 'GET', body: 'none' });
  });
  it.each(['010404', '013801', '010226'])('POST with no body: %s', (code) => {
    expect(cdm(code)).toMatchObject({ method: 'POST', body: 'none' });
  });
  it.each(['011709', '011609', '010240', '010245', '010248', '010249', '011619', '010259', '019701'])('file response: %s', (code) => {
    expect(cdm(code)).toMatchObject({ method: 'POST', response: 'file' });
    expect(cdm(code).extra ?? []).toEqual([]);
  });
  it.each(['014019', '014021', '014024', '014026'])('file + priceTitleId header: %s', (code) => {
    expect(cdm(code)).toMatchObject({ response: 'file', extra: [{ name: 'priceTitleId', in: 'header' }] });
  });
  it.each(['014811', '014812', '014813'])('file + pptId as query and header: %s', (code) => {
    expect(cdm(code)).toMatchObject({ response: 'file', extra: [{ name: 'pptId', in: 'query+header' }] });
  });
  it('only 010213 is excluded from duplicate tracking', () => {
    const excluded = Object.values(catalog.families).flat().filter((e) => e.dedupe === false).map((e) => e.code);
    expect(excluded).toEqual(['010213']);
  });
  it('auth and storage codes', () => {
    expect(findEndpoint(catalog, 'auth', '990103')?.permission).toBe('public');
    expect(findEndpoint(catalog, 'auth', '990104')?.permission).toBe('1');
    expect(findEndpoint(catalog, 'storage', '980106')).toMatchObject({ method: 'GET', response: 'file' });
    expect(findEndpoint(catalog, 'storage', '980107')).toMatchObject({ method: 'POST', body: 'multipart' });
  });
});

describe('binding codes to handlers', () => {
  const tiny: Catalog = { families: { auth: [], storage: [], oms: [], cdm: [
    { code: '011111', name: '测试接口', method: 'POST', body: 'json', response: 'json', permission: '1', handler: 'op:test.one' },
  ] } };
  const handler = { run: async () => null };
  it('binds a code to its op', () => {
    expect(bindCatalog(tiny, { 'test.one': handler }, () => undefined).get('cdm:011111')?.handler).toBe(handler);
  });
  it('refuses a code without a handler, naming the code', () => {
    expect(() => bindCatalog(tiny, {}, () => undefined)).toThrow(/cdm:011111.*op:test\.one 不存在/);
  });
  it('refuses a handler no code names', () => {
    expect(() => bindCatalog(tiny, { 'test.one': handler, 'test.orphan': handler }, () => undefined)).toThrow(/op:test\.orphan 不在接口目录中/);
  });
});

describe('Content-Disposition', () => {
  it('carries an ASCII fallback and the UTF-8 name', () => {
    const h = contentDisposition('商品导出_20261121.xlsx');
    expect(h).toMatch(/^attachment; filename="_+20261121\.xlsx"; filename\*=UTF-8''/);
    const encoded = /filename\*=UTF-8''(.+)$/.exec(h)![1];
    expect(decodeURIComponent(encoded)).toBe('商品导出_20261121.xlsx');
  });
  it('cannot be broken by quotes in the name', () => {
    expect(contentDisposition('a"b.xlsx')).toContain('filename="a_b.xlsx"');
  });
});

describe('idempotent codes (retry-safe writes, issue 19.14)', () => {
  it('every code that creates, posts or changes a document is marked idempotent; reads and settings are not', async () => {
    const { mustBeIdempotent } = await import('../../src/server/catalog/schema-check.ts');
    const oms = catalog.families.oms;
    const marked = oms.filter((e) => e.idempotent).map((e) => e.code);
    for (const e of oms) if (mustBeIdempotent('oms', e.handler)) expect(e.idempotent, `${e.code} ${e.name}`).toBe(true);
    expect(marked).toEqual(expect.arrayContaining(['020203', '020205', '020206', '020208', '021403', '021404', '021405', '021503', '021504', '022603', '022604', '022606', '022703', '022704', '021804']));
    for (const code of ['020201', '020202', '020209', '023402', '023801']) expect(marked).not.toContain(code);
    expect(mustBeIdempotent('oms', 'op:salesOrder.confirm')).toBe(true);
    expect(mustBeIdempotent('oms', 'op:tableConfig.save')).toBe(false);
  });
});
