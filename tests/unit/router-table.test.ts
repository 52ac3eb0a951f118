import { describe, expect, it } from 'vitest';
import { createScreenMatcher, REDIRECTS, screenMatcher } from '../../src/client/router/routeTable';
import type { ScreenRoute } from '../../src/client/router/screenTypes';

describe('screen matcher', () => {
  it('finds the screen of a path, params included', () => {
    expect(screenMatcher.match('/baseConfig/currency')?.title).toBe('币种');
    expect(screenMatcher.match('/procurement/purchaseOrder/42')?.title).toBe('采购订单详情');
    expect(screenMatcher.match('/procurement/purchaseOrder')?.title).toBe('新建采购订单');
    expect(screenMatcher.match('/market/invoiceDetail')?.permission).toBe('market.invoiceDetail');
    expect(screenMatcher.match('/market/invoiceDetail/7')?.title).toBe('销售发票详情');
    expect(screenMatcher.match('/system/verificationDetail/2026-11-21')?.permission).toBe('system.verificationDetail');
    // the shared-file page is opened without a login (issue 17)
    expect(screenMatcher.match('/a/abc123')?.permission).toBe('public');
  });

  it('knows /login, and nothing for unknown paths or redirects', () => {
    expect(screenMatcher.match('/login')?.title).toBe('登录');
    expect(screenMatcher.match('/nope')).toBeNull();
    expect(screenMatcher.match('/')).toBeNull();
  });

  it('prefers a static segment over a param', () => {
    const s = (route: string, title: string): ScreenRoute => ({
      file: route,
      route,
      title,
      permission: '1',
      menu: { group: 'common', order: 1 },
    });
    const m = createScreenMatcher([s('/x/:id', '详情'), s('/x/new', '新建')]);
    expect(m.match('/x/new')?.title).toBe('新建');
    expect(m.match('/x/9')?.title).toBe('详情');
  });
});

describe('redirects (spec §2)', () => {
  it('are exactly the spec ones plus /diff', () => {
    expect(REDIRECTS).toEqual({
      '/': '/navigation',
      '/i': '/ipad',
      '/d': '/dataReport',
      '/dA': '/dataReport/all',
      '/diff': '/system/diff',
    });
  });

  it('point at screens that exist', () => {
    for (const to of Object.values(REDIRECTS)) expect(screenMatcher.match(to), to).not.toBeNull();
  });
});
