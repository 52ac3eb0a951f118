// The menu's extra key (hidden), read only by the layout's chunk, not by the entry.

import { fileKey, screens } from './screenIndex';
import type { MenuScreen } from './screenTypes';

const hiddens = import.meta.glob<boolean>('/schemas/screens/**/*.json', { eager: true, import: 'hidden' });
const hiddenByFile = new Map(Object.entries(hiddens).map(([path, hidden]) => [fileKey(path), hidden]));

export const menuScreens: readonly MenuScreen[] = screens.map((s) => ({ ...s, hidden: hiddenByFile.get(s.file) ?? true }));
