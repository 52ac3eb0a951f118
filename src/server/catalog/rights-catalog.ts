// The rights catalog: every function-right code named by a screen (route and buttons) or by the
// endpoint catalog. The administrator role's "all rights" means this whole set.
import fs from 'node:fs';
import path from 'node:path';
import type { Catalog } from '../../core/catalog.ts';
import { ANY_USER, PUBLIC } from '../../core/catalog.ts';
import { SCHEMAS_DIR } from './load-catalog.ts';

export interface RightInfo {
  code: string;
  name: string;
  /** the screen route that declares it, when one does */
  route?: string;
  group?: string;
}

/** Every .json file under a folder (the screen files). */
export function walkJson(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return walkJson(p);
    return d.name.endsWith('.json') ? [p] : [];
  });
}

/** Collects `permission` values from a screen file together with the nearest title. */
function collect(node: unknown, screen: { route?: string; group?: string }, out: Map<string, RightInfo>, title?: string): void {
  if (Array.isArray(node)) return node.forEach((n) => collect(n, screen, out, title));
  if (!node || typeof node !== 'object') return;
  const obj = node as Record<string, unknown>;
  const here = typeof obj.title === 'string' ? obj.title : title;
  if (typeof obj.permission === 'string' && obj.permission !== ANY_USER && obj.permission !== PUBLIC && !out.has(obj.permission)) {
    out.set(obj.permission, { code: obj.permission, name: here ?? obj.permission, route: screen.route, group: screen.group });
  }
  for (const [k, v] of Object.entries(obj)) if (k !== 'permission') collect(v, screen, out, here);
}

/**
 * `also`: rights no screen button or endpoint names, checked by server rules themselves (e.g. passing a
 * sales order's price bounds), declared by document definitions.
 */
export function buildRightsCatalog(catalog: Catalog, screensDir = path.join(SCHEMAS_DIR, 'screens'), also: RightInfo[] = []): RightInfo[] {
  const out = new Map<string, RightInfo>();
  for (const r of also) out.set(r.code, r);
  for (const file of walkJson(screensDir)) {
    const screen = JSON.parse(fs.readFileSync(file, 'utf8')) as { route?: string; menu?: { group?: string } };
    collect(screen, { route: screen.route, group: screen.menu?.group }, out);
  }
  for (const entries of Object.values(catalog.families)) {
    for (const e of entries) {
      if (e.permission === ANY_USER || e.permission === PUBLIC || out.has(e.permission)) continue;
      out.set(e.permission, { code: e.permission, name: e.name });
    }
  }
  return [...out.values()].sort((a, b) => a.code.localeCompare(b.code));
}
