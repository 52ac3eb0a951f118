// Small per-account preferences (pinned shortcuts, visit history) in localStorage, keyed by company and
// account so two people sharing a browser keep their own.

import { getSession } from '../session';
import { getKept, setKept } from './keptPreferences';

export function accountKey(kind: 'pins' | 'history'): string | null {
  const s = getSession();
  return s ? `tbo.${kind}.${s.companyCode}.${String(s.accountId)}` : null;
}

export function readJson<T>(key: string | null, fallback: T): T {
  if (!key) return fallback;
  try {
    const raw = getKept(key);
    return raw ? (JSON.parse(raw) as T) : fallback;
  } catch {
    return fallback;
  }
}

export function writeJson(key: string | null, value: unknown): void {
  if (key) setKept(key, JSON.stringify(value));
}
