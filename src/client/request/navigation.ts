// Going to /login, and ending the session once (spec §8: 5011/5019, a failed refresh).
// The router registers its own navigator (react-router navigate) with setLoginNavigator; by default a
// full page load to /login is used.

import { clearStorage, markSessionEnded, wallLinkToken } from '../session/storage';
import { getPresenter } from './presenter';

export type LoginNavigator = (path: '/login') => void;

const defaultNavigator: LoginNavigator = (path) => {
  if (typeof window !== 'undefined') window.location.assign(path);
};

let navigator: LoginNavigator = defaultNavigator;

/** Register how to go to /login (the router passes react-router's navigate). Returns an unregister. */
export function setLoginNavigator(fn: LoginNavigator | null): () => void {
  const previous = navigator;
  navigator = fn ?? defaultNavigator;
  return () => {
    navigator = previous;
  };
}

export function goToLogin(): void {
  // a wall's tab has nobody to log in: it opens its link again (a new session, or the link's refusal)
  const wall = wallLinkToken();
  if (wall && typeof window !== 'undefined') {
    window.location.assign(`/wall/${encodeURIComponent(wall)}`);
    return;
  }
  navigator('/login');
}

/**
 * End the session: clear local storage and go to /login — once, however many requests fail together.
 * The latch re-arms when new tokens are stored (the next login). `notice`, when given, is shown once as a
 * warning toast (e.g. the server's reason for 5019).
 */
export function endSession(notice?: string): boolean {
  if (!markSessionEnded()) return false;
  clearStorage();
  if (notice) getPresenter().toast('warning', notice);
  goToLogin();
  return true;
}
