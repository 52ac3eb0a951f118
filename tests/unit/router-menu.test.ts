import { describe, expect, it } from 'vitest';
import { menuScreens } from '../../src/client/router/screenMenu';
import { buildMenu } from '../../src/client/shell/menuData';

describe('side menu', () => {
  it('lists the module sections in the fixed order with their Chinese names', () => {
    const all = new Set(menuScreens.map((s) => s.permission));
    expect(buildMenu(menuScreens, all).map((s) => s.title)).toEqual([
      '常用功能',
      '商品',
      '采购',
      '销售',
      '仓库',
      '财务',
      '报表',
      '基础设置',
      '系统工具',
    ]);
  });

  it('lists only routes the user may open, never hidden or standalone ones', () => {
    const clerk = new Set(['1', 'procurement.supplier', 'procurement.list', 'procurement.purchaseOrder']);
    const menu = buildMenu(menuScreens, clerk);
    expect(menu.map((s) => [s.title, s.items.map((i) => i.route)])).toEqual([
      ['常用功能', ['/navigation', '/history']],
      ['采购', ['/procurement/supplier', '/procurement/list', '/procurement/purchaseOrder']],
    ]);
  });

  it('orders items by menu.order', () => {
    const all = new Set(menuScreens.map((s) => s.permission));
    for (const section of buildMenu(menuScreens, all)) {
      const orders = section.items.map((i) => i.menu.order);
      expect(orders).toEqual([...orders].sort((a, b) => a - b));
      for (const item of section.items) expect(item.hidden).toBe(false);
    }
  });
});
