// The session store clears all of localStorage when a session ends (spec §8). The login form's memory,
// pinned shortcuts and visit history are the user's preferences, not session data, so they are copied
// in memory and written back after such a clear.

import { subscribeSession } from '../session';

const KEPT_PREFIXES = ['tbo.lastLogin', 'tbo.pins.', 'tbo.history.'];
const kept = new Map<string, string>();

function isKept(key: string): boolean {
  return KEPT_PREFIXES.some((p) => key.startsWith(p));
}

function snapshot(): void {
  try {
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      if (key && isKept(key)) kept.set(key, localStorage.getItem(key) ?? '');
    }
  } catch {
    // no localStorage: nothing to keep
  }
}

function restore(): void {
  try {
    for (const [key, raw] of kept) if (localStorage.getItem(key) === null) localStorage.setItem(key, raw);
  } catch {
    // no localStorage
  }
}

export function getKept(key: string): string | null {
  try {
    const raw = localStorage.getItem(key);
    if (raw !== null) kept.set(key, raw);
    return raw ?? kept.get(key) ?? null;
  } catch {
    return kept.get(key) ?? null;
  }
}

export function setKept(key: string, raw: string): void {
  kept.set(key, raw);
  try {
    localStorage.setItem(key, raw);
  } catch {
    // storage full or denied: the in-memory copy still serves this tab
  }
}

let installed = false;

/** Start keeping preferences across session clears (idempotent). */
export function keepPreferences(): void {
  if (installed) return;
  installed = true;
  snapshot();
  subscribeSession(restore);
}
