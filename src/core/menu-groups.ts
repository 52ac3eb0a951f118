// The menu's sections, in menu order, with their names: the client draws the menu from them and the server
// names a right's module by them (应用使用统计 groups calls by module).
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
