// Cross-checks of screen files against the rest of the schemas: the fields a screen names exist in the
// resource its codes serve, the rights it names are declared somewhere, and the dictionaries it names exist.
import type { SchemaProblem } from './schema-check.ts';

interface ResourceShape {
  name: string;
  fields: Record<string, { type?: string; labelAs?: string; resource?: string; dict?: string; values?: unknown[]; filterable?: boolean; sortable?: boolean; title?: string }>;
  stamps?: boolean;
  /** fields added by hooks when rows are exposed */
  computed?: string[];
}

export interface CrossCheckInput {
  screens: ReadonlyArray<readonly [string, any]>;
  endpoints: ReadonlyArray<readonly [string, any]>;
  resources: ReadonlyArray<readonly [string, any]>;
  dictionaryCodes: string[];
  rel: (f: string) => string;
}

const STAMPS = ['id', 'version', 'createdAt', 'updatedAt', 'createdBy', 'updatedBy'];
const FIELD_LISTS = new Set(['columns', 'filters', 'fields', 'items']);

/** Names a resource's rows carry: its fields, reference labels, stamps and declared computed fields. */
function rowNames(r: ResourceShape): Set<string> {
  const names = new Set<string>(STAMPS);
  for (const [name, f] of Object.entries(r.fields ?? {})) {
    names.add(name);
    if (f.type === 'reference' || f.resource) names.add(f.labelAs ?? name.replace(/Ids?$/, (m) => (m === 'Ids' ? 'Names' : 'Name')));
  }
  for (const c of r.computed ?? []) names.add(c);
  return names;
}

function filterableIn(r: ResourceShape, field: string): boolean {
  if (field === 'id') return true;
  const f = r.fields?.[field];
  return !!f && f.filterable === true && !['password', 'list', 'json'].includes(f.type ?? '');
}

function sortableIn(r: ResourceShape, field: string): boolean {
  if (field === 'id') return true;
  if ((field === 'createdAt' || field === 'updatedAt') && r.stamps !== false) return true;
  const f = r.fields?.[field];
  // the registry's rule (resources/registry.ts): sortable unless said otherwise or of a type that cannot be
  return !!f && f.sortable !== false && !['password', 'list', 'json'].includes(f.type ?? '');
}

export function crossCheckScreens(input: CrossCheckInput): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const resourceByName = new Map<string, ResourceShape>();
  const dicts = new Set(input.dictionaryCodes);
  for (const [, r] of input.resources) {
    if (!r?.name) continue;
    resourceByName.set(r.name, r);
    for (const f of Object.values(r.fields ?? {}) as Array<{ dict?: string }>) if (f.dict) dicts.add(f.dict);
  }
  const resourceOfCode = new Map<string, string>();
  const listCodes = new Set<string>();
  const declaredRights = new Set<string>(['1', 'public']);
  for (const [, file] of input.endpoints) {
    for (const e of file?.endpoints ?? []) {
      declaredRights.add(e.permission);
      const m = /^resource:([a-zA-Z]+)\.(list|get)$/.exec(e.handler ?? '');
      if (m) resourceOfCode.set(`${file.family}:${e.code}`, m[1]);
      if (m?.[2] === 'list') listCodes.add(`${file.family}:${e.code}`);
    }
  }
  for (const [, s] of input.screens) if (typeof s?.permission === 'string') declaredRights.add(s.permission);

  for (const [file, screen] of input.screens) {
    if (!screen || typeof screen !== 'object') continue;
    const f = input.rel(file);
    // Walk with the resource of the nearest object that declares an api.list/api.get.
    // `listed`: the resource is served by the list code of the nearest api (its filters and sorting
    // are the resource's list query's).
    const visit = (node: unknown, pointer: string, resource: ResourceShape | undefined, inFieldList: boolean, listed = false, list = ''): void => {
      if (Array.isArray(node)) return node.forEach((n, i) => visit(n, `${pointer}/${i}`, resource, inFieldList, listed, list));
      if (!node || typeof node !== 'object') return;
      const obj = node as Record<string, any>;
      const api = obj.api && typeof obj.api === 'object' ? obj.api : undefined;
      const code = api && (api.list ?? api.get);
      const own = typeof code === 'string' ? resourceOfCode.get(code) : undefined;
      const here = own ? resourceByName.get(own) : api ? undefined : resource;
      const isListed = own ? typeof api.list === 'string' && listCodes.has(api.list) : api ? false : listed;
      if (inFieldList && typeof obj.field === 'string' && here) {
        const root = obj.field.split('.')[0];
        if (!rowNames(here).has(root)) problems.push({ file: f, pointer: `${pointer}/field`, message: `字段 ${obj.field} 不在资源 ${here.name} 中` });
        const rf = here.fields?.[obj.field];
        // An enumerated value is read by its label on every screen: the column or field says where the
        // labels are (a dict or options), or the user reads a raw code.
        if (rf && (rf.type === 'enum' || rf.dict || Array.isArray(rf.values)) && !obj.dict && !obj.options && obj.type !== 'boolean') {
          problems.push({ file: f, pointer, message: `字段 ${obj.field}（${rf.title ?? obj.field}）是枚举值，需要 dict 或 options 才能显示为文字${rf.dict ? `（资源字段的字典：${rf.dict}）` : ''}` });
        }
        // What the resource's list query refuses at run time (不能按“…”筛选/排序) is refused here first.
        if (isListed && (list === 'filters' || (list === 'columns' && obj.search)) && !filterableIn(here, obj.field)) {
          problems.push({ file: f, pointer: list === 'filters' ? `${pointer}/field` : `${pointer}/search`, message: `资源 ${here.name} 不能按字段 ${obj.field}（${rf?.title ?? obj.field}）筛选（资源字段需 filterable: true）` });
        }
        if (isListed && list === 'columns' && obj.sortable === true && !sortableIn(here, obj.field)) {
          problems.push({ file: f, pointer: `${pointer}/sortable`, message: `资源 ${here.name} 不能按字段 ${obj.field}（${rf?.title ?? obj.field}）排序（资源字段需 sortable: true）` });
        }
      }
      // A list's default order and the filters a list action binds to its row go to the list query too.
      if (own && isListed && here && obj.defaultSort && typeof obj.defaultSort.field === 'string' && !sortableIn(here, obj.defaultSort.field)) {
        problems.push({ file: f, pointer: `${pointer}/defaultSort/field`, message: `资源 ${here.name} 不能按字段 ${obj.defaultSort.field} 排序（资源字段需可排序）` });
      }
      const bound = obj.bind && typeof obj.bind === 'object' && typeof obj.list?.api?.list === 'string' && listCodes.has(obj.list.api.list) ? resourceByName.get(resourceOfCode.get(obj.list.api.list) ?? '') : undefined;
      if (bound) {
        for (const key of Object.keys(obj.bind)) {
          if (!filterableIn(bound, key)) problems.push({ file: f, pointer: `${pointer}/bind/${key}`, message: `资源 ${bound.name} 不能按字段 ${key}（${bound.fields?.[key]?.title ?? key}）筛选（资源字段需 filterable: true）` });
        }
      }
      if (typeof obj.dict === 'string' && !dicts.has(obj.dict)) problems.push({ file: f, pointer: `${pointer}/dict`, message: `字典 ${obj.dict} 不存在（schemas/dictionaries.json 或资源字段的 dict）` });
      if (pointer !== '' && typeof obj.permission === 'string' && !declaredRights.has(obj.permission)) {
        problems.push({ file: f, pointer: `${pointer}/permission`, message: `权限 ${obj.permission} 不在权限目录中（接口目录或页面路由未声明）` });
      }
      for (const [k, v] of Object.entries(obj)) {
        if (k === 'api') continue;
        visit(v, `${pointer}/${k}`, here, FIELD_LISTS.has(k), isListed, FIELD_LISTS.has(k) ? k : '');
      }
    };
    visit(screen, '', undefined, false);
  }
  return problems;
}
