// The navigation guard of spec §2 as a pure function; NavigationGuard.tsx applies its decisions.

import { ANY_USER, PUBLIC } from './permissionCode';

export const LOGIN_PATH = '/login';
export const HOME_PATH = '/navigation';

/** What the guard needs to know about the target route; null when no screen matches the path. */
export interface GuardTarget {
  path: string;
  title: string;
  permission: string;
}

export interface GuardInput {
  /** Path (pathname + search) being navigated to, and its screen if any. */
  to: string;
  screen: GuardTarget | null;
  /** Path currently shown; null on the first load of the app. */
  from: string | null;
  hasToken: boolean;
  rights: ReadonlySet<string>;
}

export type GuardDecision =
  | { type: 'allow' }
  /** Stay where you are, silently. */
  | { type: 'cancel' }
  | { type: 'redirect'; to: string }
  /** Show the warning; stay where you are, or go to `fallback` when there is no page to stay on. */
  | { type: 'deny'; message: string; fallback: string | null };

export function noPermissionMessage(title: string): string {
  return `无权限访问${title}页面，请联系管理员授权`;
}

export function pathOnly(path: string): string {
  const cut = path.search(/[?#]/);
  return cut === -1 ? path : path.slice(0, cut);
}

export function mayOpen(permission: string, rights: ReadonlySet<string>): boolean {
  return permission === ANY_USER || permission === PUBLIC || rights.has(permission);
}

export function decideNavigation({ to, screen, from, hasToken, rights }: GuardInput): GuardDecision {
  if (from !== null && from === to) return { type: 'cancel' };

  const toPath = pathOnly(to);
  if (toPath === LOGIN_PATH) return hasToken ? { type: 'redirect', to: HOME_PATH } : { type: 'allow' };

  // Redirect routes and unknown paths carry no screen; their own redirects bring the user to a screen
  // (or to /login), which passes through here again.
  if (!screen) return { type: 'allow' };

  if (!hasToken) return screen.permission === PUBLIC ? { type: 'allow' } : { type: 'redirect', to: LOGIN_PATH };

  if (mayOpen(screen.permission, rights)) return { type: 'allow' };

  const fallback = from === null && toPath !== HOME_PATH ? HOME_PATH : null;
  return { type: 'deny', message: noPermissionMessage(screen.title), fallback };
}
