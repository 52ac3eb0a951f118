// `npm run new-screen -- <module>/<name> --resource <resource> [--title 标题] [--order 900] [--no-page] [--force] [--dir schemas/screens]`
//
// Writes a starting point for a screen over a master-data resource, for the developer to edit:
//   <module>/<name>.json        kind list: columns (searchable where the resource filters), keyword, toolbar
//                               (新增, 导出, 导入, 批量删除), row actions (编辑, 删除) and the modal form `edit`
//   <module>/<name>Detail.json  kind form: the same form on its own page, /<module>/<name>Detail/:id (hidden),
//                               linked from the list's label column
// Endpoint codes come from the catalog entries bound to `resource:<resource>.<op>` (the one whose right
// belongs to this screen first); each action's permission is the right of the code it calls. A file that
// exists is only replaced when it is a placeholder screen (its route, title, permission and menu are
// kept) or with --force.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Catalog, EndpointEntry, Family } from '../src/core/catalog.ts';
import { loadCatalog, SCHEMAS_DIR } from '../src/server/catalog/load-catalog.ts';
import { loadResources } from '../src/server/resources/registry.ts';
import type { Field, Resource, ResourceRegistry } from '../src/server/resources/types.ts';

export const MENU_GROUPS = ['common', 'commodity', 'procurement', 'market', 'entrepot', 'financial', 'reportForms', 'baseConfig', 'system', 'standalone'] as const;
const OPS = ['list', 'get', 'save', 'remove', 'export', 'import', 'template', 'options'] as const;
type Op = (typeof OPS)[number];
type Json = Record<string, unknown>;

export interface NewScreenOptions {
  /** `<module>/<name>` */
  target: string;
  resource: string;
  title?: string;
  order?: number;
  /** also write the form page (default true) */
  page?: boolean;
  force?: boolean;
  /** schemas/screens */
  dir?: string;
  catalog?: Catalog;
  registry?: ResourceRegistry;
}

export interface NewScreenResult {
  files: Array<{ file: string; content: string; replaced: boolean }>;
  warnings: string[];
}

interface Api { ref: string; permission: string }

/** resource op → the catalog code serving it; the one whose right belongs to `prefix` wins. */
function apisOf(catalog: Catalog, resource: string, prefix: string): Partial<Record<Op, Api>> {
  const found: Partial<Record<Op, Api[]>> = {};
  for (const [family, entries] of Object.entries(catalog.families) as [Family, EndpointEntry[]][]) {
    for (const e of entries) {
      const m = /^resource:([a-zA-Z]+)\.([a-z]+)$/.exec(e.handler);
      if (!m || m[1] !== resource || !(OPS as readonly string[]).includes(m[2]!)) continue;
      (found[m[2] as Op] ??= []).push({ ref: `${family}:${e.code}`, permission: e.permission });
    }
  }
  const out: Partial<Record<Op, Api>> = {};
  for (const [op, list] of Object.entries(found) as [Op, Api[]][]) {
    out[op] = list.find((a) => a.permission === prefix || a.permission.startsWith(`${prefix}.`)) ?? list[0];
  }
  return out;
}

const pxWidth = (f: Field, fallback: number) => Math.max(80, Math.min(400, f.width ? f.width * 8 : fallback));

function isMedia(f: Field): boolean {
  return f.type === 'string' && /(image|logo|photo|picture)Id$/i.test(f.name);
}

function enumSource(f: Field): Json {
  return f.dict ? { dict: f.dict } : { options: (f.values ?? []).map((v) => ({ value: v.value, label: v.label })) };
}

function column(f: Field, apis: (r: string) => Partial<Record<Op, Api>>, filters: Json[], warnings: string[]): Json | undefined {
  const base: Json = { field: f.name, title: f.title };
  const search = f.filterable === true;
  switch (f.type) {
    case 'password': case 'json':
      return f.format === 'changes' ? { ...base, type: 'changes', width: 320 } : undefined;
    case 'reference': case 'list': {
      if (f.type === 'list' && !f.resource) return { ...base, width: pxWidth(f, 200) };
      const options = apis(f.resource!).options;
      if (search && f.type === 'reference') {
        if (options) filters.push({ field: f.name, title: f.title, widget: 'select', options: { api: options.ref } });
        else warnings.push(`${f.name}：资源 ${f.resource} 没有选项接口（resource:${f.resource}.options），未生成筛选`);
      }
      return { field: f.labelAs!, title: f.title, width: pxWidth(f, 160) };
    }
    case 'integer': return { ...base, type: 'number', decimals: 0, width: pxWidth(f, 100), sortable: f.sortable, ...(search ? { search: true } : {}) };
    case 'decimal': return { ...base, type: 'number', decimals: f.scale ?? 0, width: pxWidth(f, 120), sortable: f.sortable, ...(search ? { search: true } : {}) };
    case 'money': return { ...base, type: 'money', width: pxWidth(f, 120), sortable: f.sortable, ...(search ? { search: true } : {}) };
    case 'date': return { ...base, type: 'date', width: 120, sortable: f.sortable, ...(search ? { search: true } : {}) };
    case 'datetime': return { ...base, type: 'datetime', width: 170, sortable: f.sortable, ...(search ? { search: true } : {}) };
    case 'boolean':
      return { ...base, type: 'boolean', ...(f.trueLabel ? { trueText: f.trueLabel } : {}), ...(f.falseLabel ? { falseText: f.falseLabel } : {}), width: 90, sortable: f.sortable, ...(search ? { search: true } : {}) };
    case 'enum': return { ...base, type: 'enum', ...enumSource(f), width: pxWidth(f, 100), sortable: f.sortable, ...(search ? { search: true } : {}) };
    default: {
      if (isMedia(f)) return { ...base, type: 'image', size: 40, width: 80 };
      const col: Json = { ...base, width: pxWidth(f, f.type === 'text' ? 240 : 160) };
      if (f.type === 'text') col.ellipsis = true;
      if (f.sortable && f.type !== 'text') col.sortable = true;
      if (search) col.search = true;
      return col;
    }
  }
}

function formField(f: Field, apis: (r: string) => Partial<Record<Op, Api>>, warnings: string[]): Json | undefined {
  const base: Json = { field: f.name, title: f.title };
  const required = f.required && f.default === undefined ? { required: true } : {};
  const range = { ...(f.min !== undefined ? { min: f.min } : {}), ...(f.max !== undefined ? { max: f.max } : {}) };
  const dflt = f.default !== undefined && !(Array.isArray(f.default) && !f.default.length) && f.default !== '' ? { defaultValue: f.default } : {};
  switch (f.type) {
    case 'password': case 'json':
      warnings.push(`${f.name}（${f.title}）：${f.type} 字段没有通用表单控件，未放入表单`);
      return undefined;
    case 'reference': case 'list': {
      const multiple = f.type === 'list' ? { multiple: true } : {};
      if (f.type === 'list' && !f.resource) return { ...base, widget: 'select', multiple: true, options: [], ...required };
      const options = apis(f.resource!).options;
      if (!options) {
        warnings.push(`${f.name}（${f.title}）：资源 ${f.resource} 没有选项接口（resource:${f.resource}.options），未放入表单`);
        return undefined;
      }
      return { ...base, widget: 'select', options: { api: options.ref }, ...multiple, ...required };
    }
    case 'integer': return { ...base, widget: 'number', decimals: 0, ...range, ...required, ...dflt };
    case 'decimal': return { ...base, widget: 'number', decimals: f.scale ?? 0, ...range, ...required, ...dflt };
    case 'money': return { ...base, widget: 'money', ...range, ...required, ...dflt };
    case 'date': case 'datetime': return { ...base, widget: 'date', ...required };
    case 'boolean': return { ...base, widget: 'switch', defaultValue: f.default === true, ...(f.trueLabel ? { trueText: f.trueLabel } : {}), ...(f.falseLabel ? { falseText: f.falseLabel } : {}) };
    case 'enum': return { ...base, widget: 'select', ...enumSource(f), ...required, ...dflt };
    case 'text': return { ...base, widget: 'textarea', ...(f.maxLength ? { maxLength: f.maxLength } : {}), ...required };
    default: {
      if (isMedia(f)) return { ...base, widget: 'image', maxCount: 1 };
      const text: Json = { ...base, widget: 'input', filter: 'trim', ...required };
      if (f.maxLength) text.maxLength = f.maxLength;
      if (f.minLength) text.minLength = f.minLength;
      if (f.pattern) Object.assign(text, { pattern: f.pattern, patternMessage: `${f.title}格式不正确` });
      return text;
    }
  }
}

/** JSON the way the hand-written screens look: containers open, small items (a column, a field, an action) on one line. */
export function formatJson(v: unknown, indent = '', depth = 0): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  const entries = Array.isArray(v) ? v.map((x) => [undefined, x] as const) : Object.entries(v as Json).filter(([, x]) => x !== undefined);
  if (!entries.length) return Array.isArray(v) ? '[]' : '{}';
  const key = (k: string | undefined) => (k === undefined ? '' : `${JSON.stringify(k)}: `);
  if (depth >= 2) {
    const inline = (x: unknown): string => x === null || typeof x !== 'object' ? JSON.stringify(x)
      : Array.isArray(x) ? `[${x.map(inline).join(', ')}]`
        : `{ ${Object.entries(x as Json).filter(([, y]) => y !== undefined).map(([k, y]) => `${JSON.stringify(k)}: ${inline(y)}`).join(', ')} }`;
    const flat = inline(v);
    if (flat.length + indent.length <= 180 && !flat.includes('\n')) return flat;
  }
  const inner = indent + '  ';
  const body = entries.map(([k, x]) => `${inner}${key(k)}${formatJson(x, inner, depth + 1)}`).join(',\n');
  return Array.isArray(v) ? `[\n${body}\n${indent}]` : `{\n${body}\n${indent}}`;
}

/** The screen file (relative to dir) already showing `title` in the menu, other than `except`. */
function menuTitleOwner(dir: string, title: string, except: string[]): string | undefined {
  const skip = new Set(except.map((f) => path.resolve(f)));
  const walk = (d: string): string | undefined => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) {
        const found = walk(full);
        if (found) return found;
      } else if (entry.name.endsWith('.json') && !skip.has(path.resolve(full))) {
        const s = readJson(full);
        if (s && s.hidden !== true && s.title === title) return path.relative(dir, full);
      }
    }
    return undefined;
  };
  return fs.existsSync(dir) ? walk(dir) : undefined;
}

function readJson(file: string): Json | undefined {
  try { return JSON.parse(fs.readFileSync(file, 'utf8')) as Json; } catch { return undefined; }
}

const ROUTING_KEYS = ['route', 'title', 'permission', 'menu', 'hidden', 'children', 'flag'] as const;

export function newScreen(opts: NewScreenOptions): NewScreenResult {
  const m = /^([A-Za-z][A-Za-z0-9_]*)\/([A-Za-z][A-Za-z0-9_]*)$/.exec(opts.target);
  if (!m) throw new Error(`目标应写成 <模块>/<名称>，如 baseConfig/companyRise（当前为 “${opts.target}”）`);
  const [, module, name] = m as unknown as [string, string, string];
  if (!(MENU_GROUPS as readonly string[]).includes(module)) throw new Error(`模块 ${module} 不是菜单分组之一：${MENU_GROUPS.join(', ')}`);
  const registry = opts.registry ?? loadResources();
  const catalog = opts.catalog ?? loadCatalog();
  const r: Resource | undefined = registry.get(opts.resource);
  if (!r) throw new Error(`资源 ${opts.resource} 不存在（schemas/resources/${opts.resource}.json）；现有：${[...registry.resources.keys()].sort().join(', ')}`);
  const dir = opts.dir ?? path.join(SCHEMAS_DIR, 'screens');
  const listFile = path.join(dir, module, `${name}.json`);
  const pageFile = path.join(dir, module, `${name}Detail.json`);
  const warnings: string[] = [];

  // Routing keys: a placeholder's are kept, else they follow the conventions.
  const existing = fs.existsSync(listFile) ? readJson(listFile) : undefined;
  const permission = typeof existing?.permission === 'string' && existing.kind === 'placeholder' ? existing.permission : `${module}.${name}`;
  const apiCache = new Map<string, Partial<Record<Op, Api>>>();
  const apis = (resource: string) => {
    if (!apiCache.has(resource)) apiCache.set(resource, apisOf(catalog, resource, resource === r.name ? permission : '\u0000'));
    return apiCache.get(resource)!;
  };
  const own = apis(r.name);
  if (!own.list) throw new Error(`资源 ${r.name} 没有列表接口：请先在 schemas/endpoints/*.json 中添加一个 handler 为 resource:${r.name}.list 的接口`);

  const title = opts.title ?? (existing?.kind === 'placeholder' && typeof existing.title === 'string' ? existing.title : r.title);
  if (existing && existing.kind !== 'placeholder' && !opts.force) throw new Error(`${path.relative(process.cwd(), listFile)} 已存在且不是占位页面；确认覆盖请加 --force`);
  const taken = menuTitleOwner(dir, title, [listFile, pageFile]);
  if (taken) {
    throw new Error(`标题“${title}”已是菜单项 ${taken} 的标题，两个菜单项同名用户无法区分：请用 --title 给新页面一个菜单中没有的标题`);
  }
  const routing = (file: string, defaults: Json, titleOverride?: string): Json => {
    const old = fs.existsSync(file) ? readJson(file) : undefined;
    if (old && old.kind !== 'placeholder' && !opts.force) throw new Error(`${path.relative(process.cwd(), file)} 已存在且不是占位页面；确认覆盖请加 --force`);
    const kept: Json = {};
    if (old?.kind === 'placeholder') for (const k of ROUTING_KEYS) if (old[k] !== undefined) kept[k] = old[k];
    return { $schema: '../../meta/screen.schema.json', ...defaults, ...kept, ...(titleOverride ? { title: titleOverride } : {}) };
  };

  // ---------------------------------------------------------------------------------- list
  const filters: Json[] = [];
  const columns: Json[] = [];
  const pageRoute = `/${module}/${name}Detail`;
  const writePage = opts.page !== false && !!own.get && !!own.save && !r.readonly;
  for (const f of r.fields) {
    const c = column(f, apis, filters, warnings);
    if (!c) continue;
    // fields kept out of export files are internal: available, hidden by default
    if (f.export === false) c.hidden = true;
    // the label column opens the record's page
    columns.push(writePage && f.name === r.labelField && !c.type ? { field: c.field, title: c.title, type: 'link', link: `${pageRoute}/{id}`, ...c } : c);
  }
  if (r.stamps) columns.push({ field: 'updatedAt', title: '更新时间', type: 'datetime', width: 170, sortable: true });
  if (columns[0]) columns[0].fixed = 'left';

  // A field that is a unique key on its own (a code) identifies the record: typed when it is created,
  // shown but locked when it is edited (changing it would make it another record to every reference).
  const ownKeys = new Set(r.uniqueKeys.filter((k) => k.length === 1).map((k) => k[0]));
  const formFields = r.readonly ? [] : r.fields.filter((f) => f.writable).map((f) => {
    const field = formField(f, apis, warnings);
    return field && ownKeys.has(f.name) ? { ...field, readonlyOnEdit: true } : field;
  }).filter((x): x is Json => !!x);
  const canEdit = !!own.save && formFields.length > 0;
  const form: Json = {
    title,
    api: { ...(own.get ? { get: own.get.ref } : {}), save: own.save?.ref },
    layout: { columns: formFields.length > 6 ? 2 : 1, labelWidth: 110 },
    fields: formFields,
  };
  const label = r.labelField === 'id' ? '{id}' : `{${r.labelField}}`;
  const toolbar: Json[] = [];
  const rowActions: Json[] = [];
  if (canEdit) toolbar.push({ action: 'form', title: '新增', type: 'primary', form: 'edit', permission: own.save!.permission });
  if (own.export) toolbar.push({ action: 'export', title: '导出', permission: own.export.permission });
  if (own.import) toolbar.push({ action: 'import', title: '导入', permission: own.import.permission });
  if (own.remove) {
    toolbar.push({ action: 'call', title: '批量删除', bulk: true, danger: true, api: own.remove.ref, body: { ids: '{ids}' }, confirm: `确定删除选中的 {count} 个${r.title}？`, success: `已删除 {count} 个${r.title}`, permission: own.remove.permission });
  }
  if (canEdit) rowActions.push({ action: 'form', title: '编辑', form: 'edit', permission: own.save!.permission });
  if (own.remove) rowActions.push({ action: 'call', title: '删除', danger: true, api: own.remove.ref, body: { id: '{id}' }, confirm: `确定删除${r.title}“${label}”？`, success: '已删除', permission: own.remove.permission });

  const api: Json = { list: own.list.ref };
  for (const op of ['get', 'save', 'remove', 'export', 'import', 'template'] as const) if (own[op]) api[op] = own[op]!.ref;
  const searchable = r.fields.filter((f) => f.searchable && (f.type === 'string' || f.type === 'text'));
  const list: Json = {
    ...routing(listFile, { route: `/${module}/${name}`, title, permission, menu: { group: module, order: opts.order ?? 900 }, hidden: module === 'standalone', children: false }, opts.title),
    kind: 'list',
    name: `${module}.${name}`,
    api,
    ...(searchable.length ? { keyword: { placeholder: searchable.map((f) => f.title).join(' / ') } } : {}),
    defaultSort: r.defaultSort,
    columns,
    ...(filters.length ? { filters } : {}),
    ...(toolbar.length ? { toolbar } : {}),
    ...(rowActions.length ? { rowActions } : {}),
    ...(canEdit ? { forms: { edit: form } } : {}),
  };

  const files: NewScreenResult['files'] = [{ file: listFile, content: formatJson(list) + '\n', replaced: !!existing }];

  // ---------------------------------------------------------------------------------- form page
  if (writePage && canEdit) {
    const page: Json = {
      ...routing(pageFile, { route: `${pageRoute}/:id`, title: `${title}详情`, permission: `${module}.${name}Detail`, menu: { group: module, order: Number((list.menu as { order?: number } | undefined)?.order ?? 900) + 1 }, hidden: true, children: false }, opts.title ? `${opts.title}详情` : undefined),
      kind: 'form',
      api: form.api,
      layout: { columns: 2, labelWidth: 110 },
      fields: formFields,
      afterSave: `/${module}/${name}`,
    };
    files.push({ file: pageFile, content: formatJson(page) + '\n', replaced: fs.existsSync(pageFile) });
  } else if (opts.page !== false) {
    warnings.push(r.readonly ? `资源 ${r.name} 是只读的：只生成列表` : `资源 ${r.name} 缺少详情或保存接口：未生成表单页面`);
  }
  return { files, warnings };
}

function main(): void {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      resource: { type: 'string', short: 'r' },
      title: { type: 'string' },
      order: { type: 'string' },
      'no-page': { type: 'boolean' },
      force: { type: 'boolean' },
      dir: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || positionals.length !== 1 || !values.resource) {
    console.log('用法：npm run new-screen -- <模块>/<名称> --resource <资源> [--title 标题] [--order 900] [--no-page] [--force] [--dir schemas/screens]');
    process.exit(values.help ? 0 : 1);
  }
  const order = values.order === undefined ? undefined : Number(values.order);
  if (order !== undefined && !Number.isFinite(order)) throw new Error(`--order 必须是数字，当前为 “${values.order}”`);
  const result = newScreen({
    target: positionals[0]!, resource: values.resource, title: values.title, order, page: !values['no-page'], force: values.force,
    dir: values.dir ? path.resolve(values.dir) : undefined,
  });
  for (const f of result.files) {
    fs.mkdirSync(path.dirname(f.file), { recursive: true });
    fs.writeFileSync(f.file, f.content);
    console.log(`${f.replaced ? '已覆盖' : '已生成'} ${path.relative(process.cwd(), f.file)}`);
  }
  for (const w of result.warnings) console.warn(`注意：${w}`);
  console.log('请检查并编辑生成的文件，然后运行 npm run schemas:check');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  }
}
