// Every screen file's routing keys, read eagerly and one key at a time: Vite turns each top-level JSON
// key into a named export, so only these small values reach the entry chunk, while columns, filters and
// forms of later screens stay in per-screen chunks (screenFiles.ts). Read only what the router and the
// guard need here: every key costs the entry chunk (and /login) a map over all screen files.

import type { ScreenGroup, ScreenRoute } from './screenTypes';

export const SCREENS_GLOB_BASE = '/schemas/screens/';

const routes = import.meta.glob<string>('/schemas/screens/**/*.json', { eager: true, import: 'route' });
const titles = import.meta.glob<string>('/schemas/screens/**/*.json', { eager: true, import: 'title' });
const permissions = import.meta.glob<string>('/schemas/screens/**/*.json', { eager: true, import: 'permission' });
const menus = import.meta.glob<{ group: ScreenGroup; order: number }>('/schemas/screens/**/*.json', {
  eager: true,
  import: 'menu',
});

/** `/schemas/screens/procurement/list.json` → `procurement/list` */
export function fileKey(globPath: string): string {
  return globPath.slice(SCREENS_GLOB_BASE.length).replace(/\.json$/, '');
}

export const screens: readonly ScreenRoute[] = Object.keys(routes)
  .map((path) => ({
    file: fileKey(path),
    route: routes[path],
    title: titles[path],
    permission: permissions[path],
    menu: menus[path],
  }))
  .sort((a, b) => a.route.localeCompare(b.route));
