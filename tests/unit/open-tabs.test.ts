// The bar of open pages: a page that replaces its own query (a picker on the page) keeps one tab.
import { beforeEach, describe, expect, it } from 'vitest';
import { currentTabs, openTab, replaceTab, resetTabs } from '../../src/client/shell/openTabs';
import { HOME_PATH } from '../../src/client/router/guard';
import { pageTitle, replacesPrevious } from '../../src/client/shell/pageTracking';
import type { ScreenRoute } from '../../src/client/router/screenTypes';

const keys = () => currentTabs().map((t) => t.key);

describe('open tabs', () => {
  beforeEach(() => resetTabs());

  it('replaceTab points the tab at the new query in its place; an unknown old key opens a tab', () => {
    openTab({ key: '/commodity/list', title: '商品列表' });
    openTab({ key: '/price', title: '价格查询' });
    openTab({ key: '/market/client', title: '客户' });
    replaceTab('/price', { key: '/price?productId=1', title: '价格查询' });
    replaceTab('/price?productId=1', { key: '/price?productId=2', title: '价格查询' });
    expect(keys()).toEqual([HOME_PATH, '/commodity/list', '/price?productId=2', '/market/client']);
    replaceTab('/nowhere', { key: '/price?productId=3', title: '价格查询' });
    expect(keys()).toEqual([HOME_PATH, '/commodity/list', '/price?productId=2', '/market/client', '/price?productId=3']);
  });

  it('replacing onto a key already open leaves one tab of it', () => {
    openTab({ key: '/price?productId=1', title: '价格查询' });
    openTab({ key: '/price?productId=2', title: '价格查询' });
    replaceTab('/price?productId=2', { key: '/price?productId=1', title: '价格查询' });
    expect(keys()).toEqual([HOME_PATH, '/price?productId=1']);
  });

  it('a saved new document takes the place of its （新建） tab; other pages open their own (issue 30)', () => {
    const screen: ScreenRoute = { file: 'market/saleOrderDetail', route: '/market/saleOrderDetail/:id', title: '销售订单详情', permission: '1', menu: { group: 'market', order: 1 } };
    const fresh = { key: '/market/saleOrderDetail/new', pathname: '/market/saleOrderDetail/new' };
    openTab({ key: fresh.key, title: pageTitle(screen, fresh.pathname) });
    expect(currentTabs().at(-1)!.title).toBe('销售订单详情（新建）');
    const saved = '/market/saleOrderDetail/12';
    expect(replacesPrevious(screen, 'REPLACE', fresh, saved, saved)).toBe(true);
    replaceTab(fresh.key, { key: saved, title: pageTitle(screen, saved) });
    expect(currentTabs().map((t) => t.title)).toEqual(['首页导航', '销售订单详情（12）']);
    // a link to another order (PUSH), or a replace coming from another screen, opens a tab
    expect(replacesPrevious(screen, 'PUSH', { key: saved, pathname: saved }, '/market/saleOrderDetail/13', '/market/saleOrderDetail/13')).toBe(false);
    expect(replacesPrevious(screen, 'REPLACE', { key: '/market/saleOrder', pathname: '/market/saleOrder' }, saved, saved)).toBe(false);
  });
});
