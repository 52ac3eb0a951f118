// `npm run schemas:check` runs the resource registry's cross-checks too (the ones the server runs at
// start-up) and reports each as one line: file, JSON pointer, what is wrong.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkSchemas, formatProblem } from '../../src/server/catalog/schema-check.ts';
import { SCHEMAS_DIR } from '../../src/server/catalog/load-catalog.ts';

const roots: string[] = [];
afterEach(() => { for (const d of roots.splice(0)) fs.rmSync(d, { recursive: true, force: true }); });

/** A schemas/ tree with the real meta-schemas and the given endpoint and resource files. */
function tree(files: { endpoints?: Record<string, unknown>; resources?: Record<string, unknown> }): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'schemas-'));
  roots.push(root);
  fs.cpSync(path.join(SCHEMAS_DIR, 'meta'), path.join(root, 'meta'), { recursive: true });
  for (const [dir, map] of Object.entries(files)) {
    fs.mkdirSync(path.join(root, dir), { recursive: true });
    for (const [name, body] of Object.entries(map ?? {})) fs.writeFileSync(path.join(root, dir, name), JSON.stringify(body));
  }
  return root;
}

const thing = {
  name: 'thing', title: '东西', table: 'thing', labelField: 'name', defaultSort: { field: 'name', order: 'ascend' },
  fields: { name: { type: 'string', title: '名称', required: true } },
};
const cdm = (handler: string) => ({
  family: 'cdm',
  endpoints: [{ code: '019901', name: '测试接口', method: 'POST', body: 'json', response: 'json', permission: 'x.y', handler }],
});

describe('schemas:check and the resource registry', () => {
  it('reports cross-resource mistakes that the meta-schema cannot see, one line each', () => {
    const root = tree({
      resources: {
        'thing.json': { ...thing, labelField: 'nope', fields: { ...thing.fields, ownerId: { type: 'reference', resource: 'owner', title: '所有者' } } },
      },
    });
    const lines = checkSchemas(root).map(formatProblem);
    expect(lines).toEqual(expect.arrayContaining([
      expect.stringMatching(/resources\/thing\.json#\/fields\/ownerId\/resource: 引用的资源 owner 不存在$/),
      expect.stringMatching(/resources\/thing\.json#\/labelField: 字段 nope 不存在$/),
    ]));
    expect(lines.every((l) => !l.includes('\n'))).toBe(true);
  });

  it('reports a meta-schema violation once, not twice', () => {
    const root = tree({ resources: { 'thing.json': { ...thing, fields: { name: { type: 'varchar', title: '名称' } } } } });
    const lines = checkSchemas(root).map(formatProblem).filter((l) => l.includes('/fields/name/type'));
    expect(lines).toHaveLength(1);
  });

  it('flags a catalog entry that binds a write op of a readonly resource', () => {
    const root = tree({
      resources: { 'thing.json': { ...thing, stamps: false, readonly: true } },
      endpoints: { 'cdm.json': cdm('resource:thing.save') },
    });
    expect(checkSchemas(root).map(formatProblem)).toContainEqual(expect.stringMatching(/endpoints\/cdm\.json#\/endpoints\/0\/handler: 资源 thing 是只读的（readonly），没有 save 操作$/));
    const fine = tree({ resources: { 'thing.json': { ...thing, stamps: false, readonly: true } }, endpoints: { 'cdm.json': cdm('resource:thing.list') } });
    expect(checkSchemas(fine).map(formatProblem)).toEqual([]);
  });
});

describe('schemas:check and retry-safe document writes (issue 19.14)', () => {
  const oms = (entry: Record<string, unknown>) => ({
    family: 'oms',
    endpoints: [{ code: '029901', name: '保存测试单', method: 'POST', body: 'json', response: 'json', permission: 'x.y', handler: 'op:testDoc.save', ...entry }],
  });

  it('refuses a document write of the oms family that is not marked idempotent, naming the code', () => {
    const problems = checkSchemas(tree({ endpoints: { 'oms.json': oms({}) } })).map(formatProblem);
    expect(problems.some((p) => p.includes('oms:029901') && p.includes('"idempotent": true'))).toBe(true);
    expect(checkSchemas(tree({ endpoints: { 'oms.json': oms({ idempotent: true }) } })).map(formatProblem).filter((p) => p.includes('idempotent'))).toEqual([]);
  });

  it('refuses idempotent on a GET or on a file answer', () => {
    const get = checkSchemas(tree({ endpoints: { 'oms.json': oms({ idempotent: true, method: 'GET', body: 'none' }) } })).map(formatProblem);
    expect(get.some((p) => p.endsWith('oms.json#/endpoints/0/method: must be equal to constant'))).toBe(true);
    const file = checkSchemas(tree({ endpoints: { 'oms.json': oms({ idempotent: true, response: 'file' }) } })).map(formatProblem);
    expect(file.some((p) => p.endsWith('oms.json#/endpoints/0/response: must be equal to constant'))).toBe(true);
  });
});
