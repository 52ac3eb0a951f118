// The bar of open pages: a page that replaces its own query (a picker on the page) keeps one tab.
import { beforeEach, describe, expect, it } from 'vitest';
import { currentTabs, openTab, replaceTab, resetTabs } from '../../src/client/shell/openTabs';
import { HOME_PATH } from '../../src/client/router/guard';

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
});
