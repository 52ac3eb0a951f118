// Every screen file's routing keys, read eagerly and one key at a time: Vite turns each JSON key into a
// named export, so only these small values reach the entry chunk while columns, filters and forms of
// later screens stay in per-screen chunks (loaded by loadScreenFile). The `?screen` query makes the lazy
// import a different module id; without it Vite would keep the whole file in the entry chunk.

import type { ScreenFile, ScreenGroup, ScreenKind, ScreenMeta } from './screenTypes';

const GLOB_BASE = '/schemas/screens/';

const routes = import.meta.glob<string>('/schemas/screens/**/*.json', { eager: true, import: 'route' });
const titles = import.meta.glob<string>('/schemas/screens/**/*.json', { eager: true, import: 'title' });
const permissions = import.meta.glob<string>('/schemas/screens/**/*.json', { eager: true, import: 'permission' });
const menus = import.meta.glob<{ group: ScreenGroup; order: number }>('/schemas/screens/**/*.json', {
  eager: true,
  import: 'menu',
});
const hiddens = import.meta.glob<boolean>('/schemas/screens/**/*.json', { eager: true, import: 'hidden' });
const childrens = import.meta.glob<boolean>('/schemas/screens/**/*.json', { eager: true, import: 'children' });
const kinds = import.meta.glob<ScreenKind>('/schemas/screens/**/*.json', { eager: true, import: 'kind' });

const fullFiles = import.meta.glob<ScreenFile>('/schemas/screens/**/*.json', {
  import: 'default',
  query: '?screen',
});

function fileKey(globPath: string): string {
  return globPath.slice(GLOB_BASE.length).replace(/\.json$/, '');
}

function buildIndex(): ScreenMeta[] {
  return Object.keys(routes)
    .map((path) => ({
      file: fileKey(path),
      route: routes[path],
      title: titles[path],
      permission: permissions[path],
      menu: menus[path],
      hidden: hiddens[path],
      children: childrens[path],
      kind: kinds[path],
    }))
    .sort((a, b) => a.route.localeCompare(b.route));
}

export const screens: readonly ScreenMeta[] = buildIndex();

export function loadScreenFile(file: string): Promise<ScreenFile> {
  const load = fullFiles[`${GLOB_BASE}${file}.json`];
  if (!load) return Promise.reject(new Error(`界面定义不存在：${file}`));
  return load();
}
