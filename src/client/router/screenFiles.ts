// Whole screen files, one lazy chunk each, fetched when the screen opens. The `?screen` query makes these
// different module ids from the eager key imports of screenIndex.ts; without it Vite would keep every
// whole file in the entry chunk. Imported only by ScreenPage, so this map is not in the entry either.

import { SCREENS_GLOB_BASE } from './screenIndex';
import type { ScreenFile } from './screenTypes';

const files = import.meta.glob<ScreenFile>('/schemas/screens/**/*.json', { import: 'default', query: '?screen' });

export function loadScreenFile(file: string): Promise<ScreenFile> {
  const load = files[`${SCREENS_GLOB_BASE}${file}.json`];
  if (!load) return Promise.reject(new Error(`界面定义不存在：${file}`));
  return load();
}
