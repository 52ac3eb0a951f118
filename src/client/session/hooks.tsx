// React bindings of the session store.

import { useSyncExternalStore, type ReactNode } from 'react';
import { getAccessToken, subscribe } from './storage';
import { getCurrencyMap, getPersonnel, getSession, hasRight } from './session';
import type { Currency, Person, SessionInfo } from './types';

/** The session object (null when logged out); re-renders on login, reload, logout, other tabs. */
export function useSession(): SessionInfo | null {
  return useSyncExternalStore(subscribe, getSession, getSession);
}

/** The stored access token (null when logged out). */
export function useAccessToken(): string | null {
  return useSyncExternalStore(subscribe, getAccessToken, getAccessToken);
}

export function useCurrencyMap(): Record<string, Currency> {
  return getCurrencyMap(useSession());
}

export function usePersonnel(): Person[] {
  return getPersonnel(useSession());
}

/** Whether the user holds right `code` ('1' always true). */
export function usePermission(code: string | number | readonly (string | number)[] | null | undefined): boolean {
  return hasRight(code, useSession());
}

export interface PermissionProps {
  /** Right code, or several (any of them suffices). '1' always shows. */
  code: string | number | readonly (string | number)[] | null | undefined;
  children?: ReactNode;
  /** What to show without the right (default nothing). */
  fallback?: ReactNode;
}

/** Shows its children only when the user holds `code` (spec §6). */
export function Permission({ code, children, fallback = null }: PermissionProps): JSX.Element {
  return <>{usePermission(code) ? children : fallback}</>;
}
