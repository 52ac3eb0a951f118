// Validates every schema file against its meta-schema and cross-checks references between them.
// Each problem is one line: file, JSON pointer, what is wrong.
import fs from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { SCHEMAS_DIR } from './load-catalog.ts';
import { loadResources } from '../resources/registry.ts';
import { crossCheckScreens } from './screen-crosscheck.ts';
import { extendsOf, mergeScreen } from '../../core/screen-extends.ts';

export interface SchemaProblem {
  file: string;
  pointer: string;
  message: string;
}

export const formatProblem = (p: SchemaProblem) => `${p.file}#${p.pointer || '/'}: ${p.message}`;

/** Verbs of document ops that create, post or change a document: a repeat must not do it twice. */
const DOCUMENT_WRITES = /^op:[a-zA-Z]+\.(save|post|confirm|cancel|close|copy|create|ship|arrive|unload|importLines|remove|saveLine|removeLine)$/;
/** oms ops that keep settings, not documents. */
const NOT_DOCUMENTS = /^op:(tableConfig|printInfo|printRecord)\./;

/** Document-creating or posting codes (the oms family's documents) must carry `idempotent: true`. */
export function mustBeIdempotent(family: string, handler: string): boolean {
  return family === 'oms' && DOCUMENT_WRITES.test(handler) && !NOT_DOCUMENTS.test(handler);
}

function listJson(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    return d.isDirectory() ? listJson(p) : d.name.endsWith('.json') ? [p] : [];
  }).sort();
}

function walk(node: unknown, pointer: string, visit: (value: unknown, pointer: string, key: string) => void, key = ''): void {
  visit(node, pointer, key);
  if (Array.isArray(node)) node.forEach((v, i) => walk(v, `${pointer}/${i}`, visit, String(i)));
  else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) walk(v, `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, visit, k);
}

/** `/procurement/purchaseOrder/:id` matches `/procurement/purchaseOrder/{id}` and `/procurement/purchaseOrder/12`. */
function routeMatcher(routes: string[]): (link: string) => boolean {
  const res = routes.map((r) => new RegExp('^' + r.replace(/:[A-Za-z]+/g, '[^/]+') + '$'));
  return (link) => {
    const l = link.split('?')[0].replace(/\{[A-Za-z]+\}/g, 'x');
    return res.some((re) => re.test(l));
  };
}

export function checkSchemas(root = SCHEMAS_DIR): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const rel = (f: string) => path.relative(process.cwd(), f);
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  const read = (file: string): any => {
    try {
      return JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch (e) {
      problems.push({ file: rel(file), pointer: '', message: `不是合法的 JSON：${(e as Error).message}` });
      return undefined;
    }
  };
  // Meta-schemas may reference each other (screen.schema.json → screen-kinds.schema.json): load all first.
  for (const f of listJson(path.join(root, 'meta'))) {
    const m = read(f);
    if (m?.$id) ajv.addSchema(m);
  }
  const validateAll = (files: string[], metaName: string, load: (file: string) => any = read) => {
    const metaFile = path.join(root, 'meta', metaName);
    if (!fs.existsSync(metaFile)) return files.map((f) => [f, load(f)] as const);
    const meta = read(metaFile);
    const validate = (meta?.$id && ajv.getSchema(meta.$id)) || ajv.compile(meta);
    return files.map((f) => {
      const data = load(f);
      if (data !== undefined && !validate(data)) {
        for (const e of validate.errors ?? []) problems.push({ file: rel(f), pointer: e.instancePath, message: `${e.message}${e.params && 'additionalProperty' in e.params ? `（${(e.params as any).additionalProperty}）` : ''}` });
      }
      return [f, data] as const;
    });
  };

  // Screens that extend another are checked as merged (what the client draws); the name in `extends`
  // must be a screen file that does not itself extend.
  const validateScreens = (dir: string) => {
    const files = listJson(dir);
    const raw = new Map(files.map((f) => [f, read(f)] as const));
    const byName = new Map(files.map((f) => [path.relative(dir, f).replace(/\\/g, '/').replace(/\.json$/, ''), f] as const));
    const merged = new Map<string, any>();
    for (const [f, data] of raw) {
      const name = extendsOf(data);
      if (!name) { merged.set(f, data); continue; }
      const baseFile = byName.get(name);
      const base = baseFile ? raw.get(baseFile) : undefined;
      if (!base) problems.push({ file: rel(f), pointer: '/extends', message: `被扩展的界面 ${name} 不存在` });
      else if (extendsOf(base)) problems.push({ file: rel(f), pointer: '/extends', message: `被扩展的界面 ${name} 本身也是扩展（只允许一层）` });
      merged.set(f, base && !extendsOf(base) ? mergeScreen(base, data) : data);
    }
    return validateAll(files, 'screen.schema.json', (f) => merged.get(f));
  };

  // (screens may call only these: the client imports the JSON catalog; codes a document definition
  // generates exist on the server alone — see src/server/documents/index.ts)
  const endpoints = validateAll(listJson(path.join(root, 'endpoints')), 'endpoints.schema.json');
  const resources = validateAll(listJson(path.join(root, 'resources')), 'resource.schema.json');
  const screens = validateScreens(path.join(root, 'screens'));

  const codes = new Set<string>();
  for (const [, data] of endpoints) for (const e of data?.endpoints ?? []) codes.add(`${data.family}:${e.code}`);
  const resourceNames = new Set(resources.map(([f, data]) => data?.name ?? path.basename(f, '.json')));
  for (const [f, data] of endpoints) {
    (data?.endpoints ?? []).forEach((e: any, i: number) => {
      const m = /^resource:([a-zA-Z]+)\./.exec(e.handler ?? '');
      if (m && !resourceNames.has(m[1])) problems.push({ file: rel(f), pointer: `/endpoints/${i}/handler`, message: `资源 ${m[1]} 不存在（schemas/resources/${m[1]}.json）` });
      if (mustBeIdempotent(data.family, e.handler ?? '') && e.idempotent !== true) {
        problems.push({ file: rel(f), pointer: `/endpoints/${i}`, message: `接口 ${data.family}:${e.code}（${e.name}）创建或过账单据，须标记 "idempotent": true（重复提交只执行一次）` });
      }
    });
  }

  const routes = new Map<string, string>();
  for (const [f, data] of screens) {
    if (!data?.route) continue;
    if (routes.has(data.route)) problems.push({ file: rel(f), pointer: '/route', message: `路由 ${data.route} 与 ${routes.get(data.route)} 重复` });
    else routes.set(data.route, rel(f));
  }
  const isRoute = routeMatcher([...routes.keys()]);
  for (const [f, data] of screens) {
    walk(data, '', (value, pointer, key) => {
      if (typeof value !== 'string') return;
      if (/^(auth|storage|cdm|oms):\d{6}$/.test(value) && !codes.has(value)) problems.push({ file: rel(f), pointer, message: `接口 ${value} 不在接口目录中` });
      if ((key === 'link' || key === 'to' || key === 'then' || key === 'afterSave') && value.startsWith('/') && !isRoute(value)) problems.push({ file: rel(f), pointer, message: `链接 ${value} 不指向任何路由` });
    });
  }
  const dictFile = path.join(root, 'dictionaries.json');
  const dictionaryCodes = fs.existsSync(dictFile) ? Object.keys(read(dictFile)?.dictionaries ?? {}) : [];
  problems.push(...crossCheckScreens({ screens, endpoints, resources, dictionaryCodes, rel }));
  // The resource registry's own cross-checks (what the server runs at start-up), in the same format.
  for (const p of resourceRegistryProblems(path.join(root, 'resources'), endpoints, rel)) {
    if (!problems.some((q) => formatProblem(q) === formatProblem(p))) problems.push(p);
  }
  return problems;
}

const WRITE_OPS = new Set(['save', 'remove', 'import', 'template']);

/**
 * Runs loadResources() (references between resources, label/sort/unique/tree fields, stamps) and turns its
 * error lines (`file#pointer: message`) into problems; also flags catalog entries that bind a write op of a
 * readonly resource (the server would refuse to start).
 */
function resourceRegistryProblems(dir: string, endpoints: ReadonlyArray<readonly [string, any]>, rel: (f: string) => string): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  let reg: ReturnType<typeof loadResources>;
  try {
    reg = loadResources(dir);
  } catch (e) {
    for (const line of String((e as Error).message).split('\n').slice(1).map((l) => l.trim()).filter(Boolean)) {
      const m = /^(.*?\.json)(?:#(\/[^:]*))?: (.*)$/.exec(line);
      out.push(m ? { file: m[1], pointer: m[2] === '/' ? '' : m[2] ?? '', message: m[3] } : { file: rel(dir), pointer: '', message: line });
    }
    return out;
  }
  for (const [f, data] of endpoints) {
    (data?.endpoints ?? []).forEach((e: any, i: number) => {
      const m = /^resource:([a-zA-Z]+)\.([a-z]+)$/.exec(e.handler ?? '');
      if (m && WRITE_OPS.has(m[2]) && reg.get(m[1])?.readonly) {
        out.push({ file: rel(f), pointer: `/endpoints/${i}/handler`, message: `资源 ${m[1]} 是只读的（readonly），没有 ${m[2]} 操作` });
      }
    });
  }
  return out;
}
