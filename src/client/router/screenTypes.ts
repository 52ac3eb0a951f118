// Types of screen files (schemas/meta/screen.schema.json) as the client reads them: a few routing keys
// at start-up, the whole file when the screen opens.

export const MENU_GROUPS = [
  'common',
  'commodity',
  'procurement',
  'market',
  'entrepot',
  'financial',
  'reportForms',
  'baseConfig',
  'system',
] as const;

export type MenuGroup = (typeof MENU_GROUPS)[number];
/** Drawn without the layout and never listed in the menu. */
export type ScreenGroup = MenuGroup | 'standalone';

/** Menu section names, in menu order. */
export const MENU_GROUP_TITLES: Record<MenuGroup, string> = {
  common: '常用功能',
  commodity: '商品',
  procurement: '采购',
  market: '销售',
  entrepot: '仓库',
  financial: '财务',
  reportForms: '报表',
  baseConfig: '基础设置',
  system: '系统工具',
};

export type ScreenKind = 'placeholder' | 'list' | 'form' | 'detail' | 'document' | 'report' | 'download' | 'dashboard' | 'custom';

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
