// Which screen a path belongs to, and the fixed redirects of spec §2.

import { matchRoutes, type RouteObject } from 'react-router-dom';
import { LOGIN_PATH } from './guard';
import { PUBLIC } from './permissionCode';
import { screens as allScreens } from './screenIndex';
import type { ScreenRoute } from './screenTypes';

/** Spec §2, plus /diff: the spec lists it bare, while the other system tools live under /system. */
export const REDIRECTS: Readonly<Record<string, string>> = {
  '/': '/navigation',
  '/i': '/ipad',
  '/d': '/dataReport',
  '/dA': '/dataReport/all',
  '/diff': '/system/diff',
};

/** The login page is part of the shell, not a schema-drawn screen; it still has a title. */
export const LOGIN_SCREEN: ScreenRoute = {
  file: '',
  route: LOGIN_PATH,
  title: '登录',
  permission: PUBLIC,
  menu: { group: 'standalone', order: 0 },
};

export interface ScreenMatcher {
  match(pathname: string): ScreenRoute | null;
}

export function createScreenMatcher(screens: readonly ScreenRoute[]): ScreenMatcher {
  const table: (RouteObject & { screen: ScreenRoute })[] = [LOGIN_SCREEN, ...screens].map((screen) => ({
    path: screen.route,
    screen,
  }));
  return {
    match(pathname) {
      const found = matchRoutes(table, pathname);
      const last = found?.[found.length - 1]?.route as { screen: ScreenRoute } | undefined;
      return last?.screen ?? null;
    },
  };
}

export const screenMatcher = createScreenMatcher(allScreens);
