// Session state (spec §3, §6): the 990104 object persisted in localStorage, tokens, rights.
//   login()        990103 type 0 → store tokens → loadSession()
//   loadSession()  990104 → store the session object
//   logout()       990106 → clear local storage → /login
//   hasRight(code) '1' (any logged-in user) is always true

import { ANY_USER } from '../../core/catalog';
import { OK, type Envelope } from '../../core/codes';
import { callApi, endSession } from '../request';
import { getAccessToken, getStoredSession, setStoredSession, setTokens } from './storage';
import type { Currency, Person, SessionInfo, Tokens } from './types';

export const LOGIN_CODE = '990103';
export const SESSION_CODE = '990104';
export const LOGOUT_CODE = '990106';

export interface LoginParams {
  companyCode: string;
  userName: string;
  password: string;
}

export function getSession(): SessionInfo | null {
  return getStoredSession();
}

export function setSession(session: SessionInfo | null): void {
  setStoredSession(session);
}

/** True when an access token is stored (the router guard's "with a token"). */
export function isLoggedIn(): boolean {
  return !!getAccessToken();
}

/**
 * Password login. Resolves to the 990103 envelope when it failed (e.g. AUTH_LOGIN_4033, handed back
 * silently so the login form can show its msg), otherwise to the 990104 envelope of the session load.
 */
export async function login(params: LoginParams): Promise<Envelope<SessionInfo | Tokens | null>> {
  const res = await callApi<Tokens>('auth', LOGIN_CODE, {
    type: 0,
    companyCode: params.companyCode,
    userName: params.userName,
    password: params.password,
  });
  if (res.code !== OK || !res.data?.accessToken) return res as Envelope<Tokens | null>;
  setTokens({ accessToken: res.data.accessToken, refreshToken: res.data.refreshToken });
  return loadSession();
}

/** Load (or reload) the session object with 990104 and store it. */
export async function loadSession(): Promise<Envelope<SessionInfo | null>> {
  const res = await callApi<SessionInfo>('auth', SESSION_CODE, {});
  if (res.code === OK && res.data) setStoredSession(normaliseSession(res.data));
  return res;
}

/** Log out: 990106, then clear local storage and go to /login (whatever 990106 answered). */
export async function logout(): Promise<void> {
  try {
    await callApi('auth', LOGOUT_CODE, {});
  } finally {
    endSession();
  }
}

function normaliseSession(s: SessionInfo): SessionInfo {
  return {
    ...s,
    functionRights: Array.isArray(s.functionRights) ? s.functionRights.map(String) : [],
    currencyList: Array.isArray(s.currencyList) ? s.currencyList : [],
    containerType: Array.isArray(s.containerType) ? s.containerType : [],
    personnel: Array.isArray(s.personnel) ? s.personnel : [],
    flags: s.flags && typeof s.flags === 'object' ? s.flags : {},
    timeZone: Number(s.timeZone ?? 0) || 0,
  };
}

let rightsCache: { session: SessionInfo | null; rights: Set<string> } = { session: null, rights: new Set() };

function rightsOf(session: SessionInfo | null): Set<string> {
  if (rightsCache.session !== session) {
    rightsCache = { session, rights: new Set(session?.functionRights ?? []) };
  }
  return rightsCache.rights;
}

/**
 * Whether the user holds right `code` (spec §2, §6). Code '1' and an empty code are always allowed.
 * An array means "any of these".
 */
export function hasRight(code: string | number | readonly (string | number)[] | null | undefined, session: SessionInfo | null = getSession()): boolean {
  if (Array.isArray(code)) return code.length === 0 || code.some((c) => hasRight(c, session));
  if (code === null || code === undefined || code === '') return true;
  const c = String(code);
  if (c === ANY_USER) return true;
  return rightsOf(session).has(c);
}

/** A company behaviour flag (DESIGN §4.1). */
export function hasFlag(name: string, session: SessionInfo | null = getSession()): boolean {
  return session?.flags?.[name] === true;
}

let currencyCache: { session: SessionInfo | null; map: Record<string, Currency> } = { session: null, map: {} };

/** The session's currencies by id (keys are String(id)). */
export function getCurrencyMap(session: SessionInfo | null = getSession()): Record<string, Currency> {
  if (currencyCache.session !== session) {
    const map: Record<string, Currency> = {};
    for (const c of session?.currencyList ?? []) map[String(c.id)] = c;
    currencyCache = { session, map };
  }
  return currencyCache.map;
}

export function getPersonnel(session: SessionInfo | null = getSession()): Person[] {
  return session?.personnel ?? [];
}

/** The company time zone in hours (0 when not logged in). */
export function getTimeZone(session: SessionInfo | null = getSession()): number {
  return Number(session?.timeZone ?? 0) || 0;
}
