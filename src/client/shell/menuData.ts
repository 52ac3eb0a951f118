// The side menu: module sections in the fixed order, each listing the visible routes the user may open.

import { mayOpen } from '../router/guard';
import { MENU_GROUP_TITLES, MENU_GROUPS, isStandalone, type MenuGroup, type MenuScreen } from '../router/screenTypes';

export interface MenuSection {
  group: MenuGroup;
  title: string;
  items: MenuScreen[];
}

export function isMenuItem(screen: MenuScreen): boolean {
  return !screen.hidden && !isStandalone(screen);
}

export function buildMenu(screens: readonly MenuScreen[], rights: ReadonlySet<string>): MenuSection[] {
  return MENU_GROUPS.map((group) => ({
    group,
    title: MENU_GROUP_TITLES[group],
    items: screens
      .filter((s) => s.menu.group === group && isMenuItem(s) && mayOpen(s.permission, rights))
      .sort((a, b) => a.menu.order - b.menu.order || a.route.localeCompare(b.route)),
  })).filter((section) => section.items.length > 0);
}
