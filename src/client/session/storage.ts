// Persistent client state: the token pair and the 990104 session object, in localStorage so a reload
// keeps the user logged in. localStorage is the source of truth (another tab may rotate the tokens or
// log out); an in-memory map stands in where localStorage is unavailable. This module has no
// dependency on the request core, so the request core can use it.

import type { SessionInfo, Tokens } from './types';

export const STORAGE_KEYS = {
  accessToken: 'tbo.accessToken',
  refreshToken: 'tbo.refreshToken',
  session: 'tbo.session',
} as const;

const memory = new Map<string, string>();

/**
 * A wall's tab (大屏链接, /wall/{token}): its session lives in this tab's sessionStorage, beside the link's
 * token, so opening a wall link never replaces the session of a user logged in in the same browser, and
 * the wall can open its link again when its session ends (request/navigation.ts).
 */
const WALL_KEY = 'tbo.wallLink';

function tabStore(): Storage | null {
  try {
    return typeof sessionStorage !== 'undefined' && sessionStorage ? sessionStorage : null;
  } catch {
    return null;
  }
}

/** The wall link this tab shows, if it is a wall's tab. */
export function wallLinkToken(): string | null {
  return tabStore()?.getItem(WALL_KEY) || null;
}

/** This tab becomes the wall of link `token`: its own session store, empty to start with. */
export function enterWallMode(token: string): void {
  const tab = tabStore();
  if (!tab) return;
  tab.clear();
  tab.setItem(WALL_KEY, token);
  notify();
}

/** The link no longer works: the tab is an ordinary one again. */
export function leaveWallMode(): void {
  const tab = tabStore();
  if (!tab) return;
  tab.clear();
  notify();
}

function store(): Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'clear'> {
  if (wallLinkToken()) {
    const tab = tabStore()!;
    // clearing a wall's session keeps which link it shows
    return { getItem: (k) => tab.getItem(k), setItem: (k, v) => tab.setItem(k, v), removeItem: (k) => tab.removeItem(k), clear: () => { const w = tab.getItem(WALL_KEY); tab.clear(); if (w) tab.setItem(WALL_KEY, w); } };
  }
  try {
    if (typeof localStorage !== 'undefined' && localStorage) return localStorage;
  } catch {
    // access denied (privacy mode): fall through to memory
  }
  return {
    getItem: (k) => memory.get(k) ?? null,
    setItem: (k, v) => void memory.set(k, String(v)),
    removeItem: (k) => void memory.delete(k),
    clear: () => memory.clear(),
  };
}

type Listener = () => void;
const listeners = new Set<Listener>();
let version = 0;

/** Subscribe to any change of tokens or session (this tab or, via the storage event, another tab). */
export function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Increases on every change; lets snapshots be cached. */
export function storageVersion(): number {
  return version;
}

function notify(): void {
  version += 1;
  for (const l of [...listeners]) l();
}

if (typeof window !== 'undefined' && typeof window.addEventListener === 'function') {
  window.addEventListener('storage', (e: StorageEvent) => {
    if (e.key === null || (Object.values(STORAGE_KEYS) as string[]).includes(e.key)) notify();
  });
}

export function getAccessToken(): string | null {
  return store().getItem(STORAGE_KEYS.accessToken) || null;
}

export function getRefreshToken(): string | null {
  return store().getItem(STORAGE_KEYS.refreshToken) || null;
}

let ended = false;

/**
 * Store a new token pair (login or refresh). Rotation: the refresh token is always replaced when the
 * server sends one. Storing tokens also re-arms the "session ended" latch (see markSessionEnded).
 */
export function setTokens(tokens: Partial<Tokens>): void {
  const s = store();
  if (tokens.accessToken) s.setItem(STORAGE_KEYS.accessToken, tokens.accessToken);
  if (tokens.refreshToken) s.setItem(STORAGE_KEYS.refreshToken, tokens.refreshToken);
  if (tokens.accessToken) ended = false;
  notify();
}

let cachedSession: { raw: string | null; value: SessionInfo | null } = { raw: null, value: null };

export function getStoredSession(): SessionInfo | null {
  const raw = store().getItem(STORAGE_KEYS.session);
  if (raw !== cachedSession.raw) {
    let value: SessionInfo | null = null;
    try {
      value = raw ? (JSON.parse(raw) as SessionInfo) : null;
    } catch {
      value = null;
    }
    cachedSession = { raw, value };
  }
  return cachedSession.value;
}

export function setStoredSession(session: SessionInfo | null): void {
  if (session) store().setItem(STORAGE_KEYS.session, JSON.stringify(session));
  else store().removeItem(STORAGE_KEYS.session);
  notify();
}

const preserved: string[] = [];

/**
 * Keys (exact, or prefixes ending in '*') that clearStorage keeps, e.g. the login form's remembered
 * company code. Nothing is kept unless registered.
 */
export function preserveOnClear(...keys: string[]): void {
  for (const k of keys) if (!preserved.includes(k)) preserved.push(k);
}

function isPreserved(key: string): boolean {
  return preserved.some((p) => (p.endsWith('*') ? key.startsWith(p.slice(0, -1)) : key === p));
}

/**
 * Clear local storage (spec §8): tokens, session and everything else the app kept there, except keys
 * registered with preserveOnClear.
 */
export function clearStorage(): void {
  const s = store();
  const kept: [string, string][] = [];
  if (preserved.length && typeof localStorage !== 'undefined' && s === localStorage) {
    for (let i = 0; i < localStorage.length; i += 1) {
      const k = localStorage.key(i);
      if (k !== null && isPreserved(k)) kept.push([k, localStorage.getItem(k) ?? '']);
    }
  }
  s.clear();
  memory.clear();
  for (const [k, v] of kept) s.setItem(k, v);
  notify();
}

/**
 * One-shot latch for ending the session: returns true the first time it is called after tokens were
 * last stored, false afterwards, so that many failing requests end the session (clear + /login) once.
 */
export function markSessionEnded(): boolean {
  if (ended) return false;
  ended = true;
  return true;
}

export function isSessionEnded(): boolean {
  return ended;
}

/** For tests: forget the latch. */
export function resetSessionLatch(): void {
  ended = false;
}
