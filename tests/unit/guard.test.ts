import { describe, expect, it } from 'vitest';
import { decideNavigation, noPermissionMessage, type GuardInput, type GuardTarget } from '../../src/client/router/guard';

const currency: GuardTarget = { path: '/baseConfig/currency', title: '币种', permission: 'baseConfig.currency' };
const navigation: GuardTarget = { path: '/navigation', title: '首页导航', permission: '1' };
const qrCodeLoad: GuardTarget = { path: '/qrCodeLoad', title: '扫码查看', permission: 'public' };
const login: GuardTarget = { path: '/login', title: '登录', permission: 'public' };

function input(over: Partial<GuardInput>): GuardInput {
  return {
    to: '/baseConfig/currency',
    screen: currency,
    from: '/navigation',
    hasToken: true,
    rights: new Set(['baseConfig.currency']),
    ...over,
  };
}

describe('navigation guard (spec §2)', () => {
  it('cancels navigating to the path already shown', () => {
    expect(decideNavigation(input({ from: '/baseConfig/currency' }))).toEqual({ type: 'cancel' });
  });

  it('treats a different query string as a different page', () => {
    expect(decideNavigation(input({ to: '/baseConfig/currency?page=2', from: '/baseConfig/currency' }))).toEqual({ type: 'allow' });
  });

  it('sends /login with a token to /navigation', () => {
    expect(decideNavigation(input({ to: '/login', screen: login }))).toEqual({ type: 'redirect', to: '/navigation' });
    expect(decideNavigation(input({ to: '/login', screen: login, from: null }))).toEqual({ type: 'redirect', to: '/navigation' });
  });

  it('lets /login open without a token', () => {
    expect(decideNavigation(input({ to: '/login', screen: login, hasToken: false }))).toEqual({ type: 'allow' });
  });

  it('allows a route whose code is among the function rights', () => {
    expect(decideNavigation(input({}))).toEqual({ type: 'allow' });
  });

  it('allows a route with code 1 for any logged-in user', () => {
    expect(decideNavigation(input({ to: '/navigation', screen: navigation, from: '/history', rights: new Set() }))).toEqual({
      type: 'allow',
    });
  });

  it('refuses a route without the right: warning with the page title, navigation cancelled', () => {
    expect(decideNavigation(input({ rights: new Set(['procurement.list']) }))).toEqual({
      type: 'deny',
      message: '无权限访问币种页面，请联系管理员授权',
      fallback: null,
    });
  });

  it('on a first load without the right, warns and goes to /navigation (there is no page to stay on)', () => {
    expect(decideNavigation(input({ from: null, rights: new Set() }))).toEqual({
      type: 'deny',
      message: noPermissionMessage('币种'),
      fallback: '/navigation',
    });
  });

  it('sends the user without a token to /login', () => {
    expect(decideNavigation(input({ hasToken: false }))).toEqual({ type: 'redirect', to: '/login' });
    expect(decideNavigation(input({ hasToken: false, to: '/navigation', screen: navigation, from: null }))).toEqual({
      type: 'redirect',
      to: '/login',
    });
  });

  it('lets /qrCodeLoad open without a token', () => {
    expect(decideNavigation(input({ hasToken: false, to: '/qrCodeLoad', screen: qrCodeLoad, from: null }))).toEqual({
      type: 'allow',
    });
  });

  it('leaves redirect routes and unknown paths to the router (which ends at a screen or /login)', () => {
    expect(decideNavigation(input({ to: '/', screen: null, hasToken: false }))).toEqual({ type: 'allow' });
    expect(decideNavigation(input({ to: '/no/such/page', screen: null }))).toEqual({ type: 'allow' });
  });
});
