// The resource files: every schemas/resources/*.json passes the meta-schema and the cross-checks, and a
// broken file stops loading with its path and the JSON pointer of the problem.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadResources } from '../../src/server/resources/index.ts';

const dirs: string[] = [];
function dirWith(files: Record<string, unknown>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'res-'));
  dirs.push(dir);
  for (const [name, body] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), typeof body === 'string' ? body : JSON.stringify(body));
  return dir;
}
afterEach(() => { for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true }); });

const base = {
  name: 'thing', title: '东西', table: 'thing', labelField: 'name', defaultSort: { field: 'name', order: 'ascend' },
  fields: { name: { type: 'string', title: '名称', required: true } },
};

describe('resource registry', () => {
  it('loads every shipped resource file with resolved references', () => {
    const reg = loadResources();
    const currency = reg.get('currency')!;
    expect(currency.title).toBe('币种');
    // who holds currency ids: resource fields plus the declared company column
    expect(currency.referrers.map((r) => r.title)).toEqual(expect.arrayContaining(['汇率', '供应商', '客户', '价格表', '公司本位币']));
    expect(reg.get('role')!.referrers).toEqual([expect.objectContaining({ title: '账号', column: 'roleIds', list: true })]);
    expect(reg.get('exchangeRate')!.uniqueKeys).toEqual([['currencyId', 'rateDate']]);
    expect(reg.get('account')!.fieldMap.get('password')).toMatchObject({ column: 'passwordHash', exported: false, sortable: false });
    for (const r of reg.resources.values()) expect(r.file).toMatch(/^schemas\/resources\/\w+\.json$/);
  });

  it('names the file and the JSON pointer of a meta-schema violation', () => {
    const dir = dirWith({ 'thing.json': { ...base, fields: { name: { type: 'varchar', title: '名称' } } } });
    expect(() => loadResources(dir)).toThrow(/thing\.json#\/fields\/name\/type: must be equal to one of the allowed values/);
  });

  it('refuses unknown references, sort fields, label fields and readonly-less stampless tables', () => {
    const dir = dirWith({
      'thing.json': {
        ...base, labelField: 'nope', defaultSort: { field: 'gone', order: 'ascend' }, stamps: false,
        fields: { ...base.fields, ownerId: { type: 'reference', resource: 'owner', title: '所有者' } },
      },
    });
    let message = '';
    try { loadResources(dir); } catch (e) { message = (e as Error).message; }
    expect(message).toContain('thing.json#/fields/ownerId/resource: 引用的资源 owner 不存在');
    expect(message).toContain('thing.json#/labelField: 字段 nope 不存在');
    expect(message).toContain('thing.json#/defaultSort/field: 字段 gone 不存在');
    expect(message).toContain('thing.json#/stamps');
  });

  it('requires the name to match the file and forbids system field names', () => {
    const dir = dirWith({ 'other.json': { ...base, fields: { ...base.fields, version: { type: 'integer', title: '版本' } } } });
    let message = '';
    try { loadResources(dir); } catch (e) { message = (e as Error).message; }
    expect(message).toContain('other.json#/fields');
    const dir2 = dirWith({ 'other.json': base });
    expect(() => loadResources(dir2)).toThrow(/other\.json#\/name: 应与文件名一致/);
  });
});
