// Types of screen files (schemas/meta/screen.schema.json) as the client reads them: a few routing keys
// at start-up, the whole file when the screen opens.

import { MENU_GROUPS, MENU_GROUP_TITLES, type MenuGroup } from '../../core/menu-groups';

export { MENU_GROUPS, MENU_GROUP_TITLES, type MenuGroup };

/** Drawn without the layout and never listed in the menu. */
export type ScreenGroup = MenuGroup | 'standalone';

export type ScreenKind = 'placeholder' | 'list' | 'form' | 'detail' | 'document' | 'report' | 'download' | 'dashboard' | 'wall' | 'custom';

/** What routing needs from a screen file: path, title, right and place. In the entry chunk. */
export interface ScreenRoute {
  /** Which file it came from, e.g. `procurement/list`; keys the lazily loaded full schema. */
  file: string;
  route: string;
  title: string;
  permission: string;
  menu: { group: ScreenGroup; order: number };
}

/** What the menu needs on top (read by the layout's chunk only). */
export interface MenuScreen extends ScreenRoute {
  hidden: boolean;
}

/** The whole screen file, loaded when the screen opens. Kind-specific parts stay untyped here. */
export interface ScreenFile extends Omit<ScreenRoute, 'file'> {
  hidden: boolean;
  children: boolean;
  kind: ScreenKind;
  component?: string;
  flag?: string;
  /** touch-first page for a tablet (large targets, no hover) */
  touch?: boolean;
  description?: string;
  [kindSpecific: string]: unknown;
}

export function isStandalone(screen: Pick<ScreenRoute, 'menu'>): boolean {
  return screen.menu.group === 'standalone';
}
