// Menu search (issue 22 item 7): a screen is found by its title or the pinyin initials of its title.
import { describe, expect, it } from 'vitest';
import { searchMenu } from '../../src/client/shell/menuSearchMatch';
import { pinyinInitials } from '../../src/client/shell/pinyinInitials';

const items = [
  { route: '/procurement/list', title: '采购订单', group: '采购' },
  { route: '/procurement/purchaseOrder', title: '新建采购订单', group: '采购' },
  { route: '/procurement/supplier', title: '供应商', group: '采购' },
  { route: '/commodity/inventory', title: '商品库存', group: '商品' },
  { route: '/baseConfig/currency', title: '币种', group: '设置' },
  { route: '/baseConfig/exchangeRate', title: '汇率', group: '设置' },
];

describe('menu search', () => {
  it('pinyin initials of screen titles', () => {
    expect(['采购订单', '供应商', '商品列表', '入库计划', '汇率', '操作记录', '账号管理', '今日收款', '错误日志'].map(pinyinInitials)).toEqual([
      'cgdd', 'gys', 'splb', 'rkjh', 'hl', 'czjl', 'zhgl', 'jrsk', 'cwrz',
    ]);
    expect(pinyinInitials('PDA 盘点')).toBe('pdapd');
  });

  it('finds by title or initials, a match at the start first', () => {
    expect(searchMenu(items, 'cgdd').map((h) => h.title)).toEqual(['采购订单', '新建采购订单']);
    expect(searchMenu(items, 'GYS').map((h) => h.title)).toEqual(['供应商']);
    expect(searchMenu(items, '库存').map((h) => h.title)).toEqual(['商品库存']);
    expect(searchMenu(items, 'hl').map((h) => h.route)).toEqual(['/baseConfig/exchangeRate']);
    expect(searchMenu(items, 'zzz')).toEqual([]);
    expect(searchMenu(items, '')).toHaveLength(items.length);
  });
});
