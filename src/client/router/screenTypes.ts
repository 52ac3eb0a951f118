// The routing part of a screen file (schemas/meta/screen.schema.json). These keys are required in every
// file because the client reads exactly them at start-up; everything else loads with the screen.

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

export type ScreenKind = 'placeholder' | 'list' | 'form' | 'detail' | 'document' | 'report' | 'custom';

export interface ScreenMeta {
  /** Which file it came from, e.g. `procurement/list`; keys the lazily loaded full schema. */
  file: string;
  route: string;
  title: string;
  permission: string;
  menu: { group: ScreenGroup; order: number };
  hidden: boolean;
  children: boolean;
  kind: ScreenKind;
}

/** The whole screen file, loaded when the screen opens. Kind-specific parts stay untyped here. */
export interface ScreenFile extends Omit<ScreenMeta, 'file'> {
  component?: string;
  flag?: string;
  description?: string;
  [kindSpecific: string]: unknown;
}

export function isStandalone(screen: Pick<ScreenMeta, 'menu'>): boolean {
  return screen.menu.group === 'standalone';
}
