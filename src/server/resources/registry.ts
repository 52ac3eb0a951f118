// Reads schemas/resources/*.json, validates each against schemas/meta/resource.schema.json, cross-checks
// names (fields, references, keys) and resolves them into the registry the generic handlers run on.
import fs from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { Field, Referrer, Resource, ResourceFile, ResourceRegistry } from './types.ts';
import { SCHEMAS_DIR } from '../paths.ts';

export const RESOURCES_DIR = path.join(SCHEMAS_DIR, 'resources');
export const SYSTEM_FIELDS = ['id', 'version', 'createdAt', 'updatedAt', 'createdBy', 'updatedBy'] as const;

const UNSORTABLE = new Set(['password', 'list', 'json']);

function defaultLabelAs(f: { name: string; type: string }): string | undefined {
  if (f.type === 'reference') return f.name.endsWith('Id') ? `${f.name.slice(0, -2)}Name` : `${f.name}Name`;
  if (f.type === 'list') return f.name.endsWith('Ids') ? `${f.name.slice(0, -3)}Names` : `${f.name}Names`;
  return undefined;
}

class LoadError extends Error {}

export function loadResources(dir = RESOURCES_DIR): ResourceRegistry {
  const meta = JSON.parse(fs.readFileSync(path.join(SCHEMAS_DIR, 'meta/resource.schema.json'), 'utf8'));
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  const validate = ajv.compile(meta);
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort() : [];
  const raw = new Map<string, { file: string; data: ResourceFile }>();
  const problems: string[] = [];
  const rel = (file: string) => path.relative(process.cwd(), file) || file;

  for (const name of files) {
    const file = path.join(dir, name);
    let data: ResourceFile;
    try {
      data = JSON.parse(fs.readFileSync(file, 'utf8')) as ResourceFile;
    } catch (e) {
      problems.push(`${rel(file)}: JSON 无法解析：${(e as Error).message}`);
      continue;
    }
    if (!validate(data)) {
      for (const e of validate.errors ?? []) {
        const extra = e.keyword === 'additionalProperties' ? `（${String((e.params as { additionalProperty: string }).additionalProperty)}）` : '';
        problems.push(`${rel(file)}#${e.instancePath || '/'}: ${e.message}${extra}`);
      }
      continue;
    }
    if (data.name !== path.basename(name, '.json')) problems.push(`${rel(file)}#/name: 应与文件名一致（${path.basename(name, '.json')}）`);
    raw.set(data.name, { file, data });
  }
  if (problems.length) throw new LoadError(`资源定义不合法:\n${problems.join('\n')}`);

  const resources = new Map<string, Resource>();
  for (const [name, { file, data }] of raw) {
    const where = (pointer: string, msg: string) => problems.push(`${rel(file)}#${pointer}: ${msg}`);
    const fields: Field[] = [];
    for (const [fname, def] of Object.entries(data.fields)) {
      const pointer = `/fields/${fname}`;
      const labelAs = def.labelAs ?? defaultLabelAs({ name: fname, type: def.type });
      if (def.type === 'reference' || (def.type === 'list' && def.resource)) {
        const target = raw.get(def.resource!);
        if (!target) where(`${pointer}/resource`, `引用的资源 ${def.resource} 不存在`);
        else if (def.type === 'list' && (target.data.idType ?? 'integer') !== def.items) where(`${pointer}/items`, `应与 ${def.resource} 的 id 类型一致`);
        if (labelAs && data.fields[labelAs]) where(`${pointer}/labelAs`, `${labelAs} 与字段重名`);
      }
      if (def.pattern) {
        try { new RegExp(def.pattern, 'u'); } catch { where(`${pointer}/pattern`, '正则表达式无效'); }
      }
      if (def.type === 'enum') {
        const seen = new Set<string>();
        for (const v of def.values ?? []) {
          if (seen.has(v.value)) where(`${pointer}/values`, `取值 ${v.value} 重复`);
          seen.add(v.value);
        }
      }
      const writable = !def.readonly && !data.readonly;
      fields.push({
        ...def,
        name: fname,
        column: def.column ?? fname,
        labelAs: def.type === 'reference' || (def.type === 'list' && def.resource) ? labelAs : undefined,
        sortable: UNSORTABLE.has(def.type) ? false : def.sortable !== false,
        writable,
        exported: def.type !== 'password' && def.export !== false,
        imported: writable && def.import !== false && def.type !== 'json',
      });
    }
    const fieldMap = new Map(fields.map((f) => [f.name, f]));
    const known = (f: string) => fieldMap.has(f) || (SYSTEM_FIELDS as readonly string[]).includes(f);
    if (!fieldMap.has(data.labelField) && data.labelField !== 'id') where('/labelField', `字段 ${data.labelField} 不存在`);
    for (const [i, f] of (data.lookupFields ?? []).entries()) if (!fieldMap.has(f)) where(`/lookupFields/${i}`, `字段 ${f} 不存在`);
    if (data.enabledField && fieldMap.get(data.enabledField)?.type !== 'boolean') where('/enabledField', `应为布尔字段`);
    if (!known(data.defaultSort.field)) where('/defaultSort/field', `字段 ${data.defaultSort.field} 不存在`);
    const uniqueKeys: string[][] = [];
    for (const f of fields) if (f.unique) uniqueKeys.push([f.name]);
    for (const [i, key] of (data.unique ?? []).entries()) {
      for (const f of key) if (!fieldMap.has(f)) where(`/unique/${i}`, `字段 ${f} 不存在`);
      uniqueKeys.push(key);
    }
    if (data.importKey && !uniqueKeys.some((k) => k.join() === data.importKey!.join())) where('/importKey', '应是唯一键之一');
    if (data.tree) {
      const p = fieldMap.get(data.tree.parentField);
      if (!p || p.type !== 'reference' || p.resource !== name) where('/tree/parentField', '应为引用本资源的字段');
    }
    if (data.stamps === false && !data.readonly) where('/stamps', '没有版本列的资源只能是只读的（readonly: true）');
    resources.set(name, {
      name, title: data.title, table: data.table, file: rel(file),
      idType: data.idType ?? 'integer',
      stamps: data.stamps !== false,
      readonly: data.readonly === true,
      labelField: data.labelField,
      lookupFields: data.lookupFields ?? [data.labelField],
      enabledField: data.enabledField,
      defaultSort: data.defaultSort,
      uniqueKeys,
      importKey: data.importKey ?? uniqueKeys[0],
      tree: data.tree,
      keywordIndex: data.keywordIndex,
      fields, fieldMap, referrers: [],
    });
  }
  if (problems.length) throw new LoadError(`资源定义不合法:\n${problems.join('\n')}`);

  // Who holds ids of whom: declared external columns first (their order is what a refusal names first),
  // then reference fields and lists of references of other resources (once: a declared column that a
  // resource's field also holds is not checked twice).
  for (const { data } of raw.values()) {
    for (const x of data.referencedBy ?? []) {
      resources.get(data.name)!.referrers.push({ title: x.title, table: x.table, column: x.column, companyColumn: x.companyColumn ?? 'companyId', list: false });
    }
  }
  for (const r of resources.values()) {
    for (const f of r.fields) {
      if (!f.resource || r.readonly) continue;
      const target = resources.get(f.resource)!;
      const declared = target.referrers.find((x) => x.table === r.table && x.column === f.column);
      if (declared) { declared.resource = r.name; continue; }
      target.referrers.push({ title: r.title, table: r.table, column: f.column, companyColumn: 'companyId', list: f.type === 'list', resource: r.name });
    }
  }
  return { resources, get: (n: string) => resources.get(n) };
}
