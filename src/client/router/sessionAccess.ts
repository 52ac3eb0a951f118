// What routing reads from the session: is there a token, which rights are held. Read straight from the
// session storage so the guard answers synchronously, in the middle of a navigation.

import { getAccessToken, getStoredSession, subscribe } from '../session/storage';

let cached: { list: readonly string[] | undefined; set: ReadonlySet<string> } = { list: undefined, set: new Set() };

export function hasToken(): boolean {
  return getAccessToken() !== null;
}

export function currentRights(): ReadonlySet<string> {
  const list = getStoredSession()?.functionRights;
  if (list !== cached.list) cached = { list, set: new Set(list ?? []) };
  return cached.set;
}

export function currentFlags(): Readonly<Record<string, boolean>> {
  return getStoredSession()?.flags ?? {};
}

export function onSessionChange(listener: () => void): () => void {
  return subscribe(listener);
}
