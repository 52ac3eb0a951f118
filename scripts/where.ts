// `npm run where <route | code | op>`: where something lives — the screen file(s), the endpoint codes,
// the handler each binds (hand-written op, document engine definition or resource file), and the tests
// that mention them. Examples:
//   npm run where /procurement/purchaseOrder/:id
//   npm run where 020205          (or oms:020205)
//   npm run where purchaseOrder.confirm
import fs from 'node:fs';
import path from 'node:path';
import type { EndpointEntry, Family } from '../src/core/catalog.ts';
import { allDocumentDefinitions, withDocumentEndpoints } from '../src/server/documents/index.ts';
import { loadCatalog } from '../src/server/catalog/load-catalog.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const rel = (f: string) => path.relative(ROOT, f);

function walk(dir: string, ext: RegExp, out: string[] = []): string[] {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const f = path.join(dir, e.name);
    if (e.isDirectory()) walk(f, ext, out);
    else if (ext.test(e.name)) out.push(f);
  }
  return out;
}

const screens = walk(path.join(ROOT, 'schemas/screens'), /\.json$/).map((file) => ({ file, data: JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown> }));
const sources = walk(path.join(ROOT, 'src/server'), /\.ts$/).map((file) => ({ file, text: fs.readFileSync(file, 'utf8') }));
const tests = walk(path.join(ROOT, 'tests'), /\.tsx?$/).map((file) => ({ file, text: fs.readFileSync(file, 'utf8') }));
const catalog = withDocumentEndpoints(loadCatalog(), allDocumentDefinitions());
const entries = (Object.entries(catalog.families) as [Family, EndpointEntry[]][]).flatMap(([family, list]) => list.map((e) => ({ family, ...e })));

/** Every "family:code" a screen file names. */
function apisOf(v: unknown, out = new Set<string>()): Set<string> {
  if (typeof v === 'string' && /^(auth|storage|cdm|oms):\d{6}$/.test(v)) out.add(v);
  else if (Array.isArray(v)) v.forEach((x) => apisOf(x, out));
  else if (v && typeof v === 'object') Object.values(v).forEach((x) => apisOf(x, out));
  return out;
}

/** The domain modules a source file imports (where a handler's rules and queries live; the session's own in src/server/auth). */
function domainModules(file: string): string[] {
  const text = sources.find((s) => s.file === file)?.text ?? '';
  const out = new Set<string>();
  for (const m of text.matchAll(/from '([^']+\/(?:domain|auth)\/[^']+\.ts)'/g)) out.add(rel(path.resolve(path.dirname(file), m[1]!)));
  return [...out].sort();
}

function handlerPlace(handler: string): { place: string; domain: string[] } {
  const [kind, name] = handler.split(':', 2) as [string, string];
  if (kind === 'resource') return { place: `schemas/resources/${name.slice(0, name.lastIndexOf('.'))}.json (generic resource handler ${name.slice(name.lastIndexOf('.') + 1)})`, domain: [] };
  const type = name.slice(0, name.indexOf('.'));
  const op = name.slice(name.indexOf('.') + 1);
  const written = sources.find((s) => s.file.includes('/ops/') && s.text.includes(`'${name}'`));
  if (written) return { place: `${rel(written.file)} (hand-written op ${name})`, domain: domainModules(written.file) };
  const def = allDocumentDefinitions().find((d) => d.type === type);
  if (def) {
    // the definition itself: `defineDocument({ type: '<type>'` — not a file that only names the type among its links
    const file = sources.find((s) => s.file.includes('/documents/types/') && new RegExp(`defineDocument\\(\\{\\s*type: '${type}'`).test(s.text));
    return { place: `${file ? rel(file.file) : 'a document definition'} (document engine: ${def.title}.${op}; engine in src/server/documents/engine.ts)`, domain: file ? domainModules(file.file) : [] };
  }
  return { place: `? (${handler} not found)`, domain: [] };
}

function showCode(e: (typeof entries)[number]) {
  const api = `${e.family}:${e.code}`;
  console.log(`  ${api}  ${e.name}  [${e.permission}]`);
  const { place, domain } = handlerPlace(e.handler);
  console.log(`    handler  ${e.handler} → ${place}`);
  if (domain.length) console.log(`    domain   ${domain.join(', ')}`);
  const users = screens.filter((s) => apisOf(s.data).has(api)).map((s) => `${rel(s.file)} (${String(s.data.route)})`);
  if (users.length) console.log(`    screens  ${users.join(', ')}`);
  const mentioning = tests.filter((t) => t.text.includes(`'${e.code}'`) || t.text.includes(api)).map((t) => rel(t.file));
  if (mentioning.length) console.log(`    tests    ${mentioning.join(', ')}`);
}

function routeMatches(pattern: string, route: string): boolean {
  if (pattern === route) return true;
  const re = new RegExp(`^${pattern.replace(/:[^/]+/g, '[^/]+')}$`);
  return re.test(route);
}

const arg = process.argv[2];
if (!arg) {
  console.error('usage: npm run where <route | code | op>');
  process.exit(2);
}
let found = false;
if (arg.startsWith('/')) {
  for (const s of screens.filter((x) => routeMatches(String(x.data.route), arg) || routeMatches(arg, String(x.data.route)))) {
    found = true;
    console.log(`${String(s.data.route)}  ${String(s.data.title)}  (${rel(s.file)}, kind ${String(s.data.kind)}${s.data.extends ? `, extends ${String(s.data.extends)}` : ''})`);
    const base = s.data.extends ? screens.find((x) => rel(x.file).endsWith(`${String(s.data.extends)}.json`)) : undefined;
    for (const api of apisOf(base ? { ...base.data, ...s.data } : s.data)) {
      const e = entries.find((x) => `${x.family}:${x.code}` === api);
      if (e) showCode(e);
    }
  }
} else {
  const code = arg.includes(':') ? arg.split(':')[1] : arg;
  for (const e of entries.filter((x) => x.code === code || x.handler === `op:${arg}` || x.handler === arg || x.handler === `resource:${arg}`)) {
    found = true;
    showCode(e);
  }
}
if (!found) {
  console.error(`没有找到：${arg}`);
  process.exit(1);
}
