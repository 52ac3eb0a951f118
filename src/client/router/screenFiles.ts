// Whole screen files, one lazy chunk each, fetched when the screen opens. The `?screen` query makes these
// different module ids from the eager key imports of screenIndex.ts; without it Vite would keep every
// whole file in the entry chunk. Imported only by ScreenPage, so this map is not in the entry either.
// A file that `extends` another is drawn merged with it (src/core/screen-extends.ts).

import { extendsOf, mergeScreen, type ScreenObject } from '../../core/screen-extends';
import { SCREENS_GLOB_BASE } from './screenIndex';
import type { ScreenFile } from './screenTypes';

const files = import.meta.glob<ScreenFile>('/schemas/screens/**/*.json', { import: 'default', query: '?screen' });

function loadOne(file: string): Promise<ScreenFile> {
  const load = files[`${SCREENS_GLOB_BASE}${file}.json`];
  if (!load) return Promise.reject(new Error(`界面定义不存在：${file}`));
  return load();
}

export async function loadScreenFile(file: string): Promise<ScreenFile> {
  const own = await loadOne(file);
  const base = extendsOf(own as unknown as ScreenObject);
  if (!base) return own;
  return mergeScreen((await loadOne(base)) as unknown as ScreenObject, own as unknown as ScreenObject) as unknown as ScreenFile;
}
