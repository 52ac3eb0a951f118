// Applies the pure guard (guard.ts) to every navigation: react-router's blocker holds a navigation
// before it commits, so a refused one leaves the current page as it was (spec: "navigation is
// cancelled"); locations that arrive without passing the blocker are checked before they render.

import { useCallback, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { toast } from '../request';
import { useBlocker, useLocation, useNavigate, type BlockerFunction } from 'react-router-dom';
import { LOGIN_PATH, type GuardDecision } from './guard';
import { decideFor } from './guardInput';
import { PUBLIC } from './permissionCode';
import { screenMatcher } from './routeTable';
import { hasToken, onSessionChange } from './sessionAccess';
import { wallLinkToken } from '../session/storage';
import { confirmLeave, hasUnsavedChanges } from '../renderer/form/unsavedChanges';

export function NavigationGuard({ children }: { children: ReactNode }) {
  const location = useLocation();
  const navigate = useNavigate();
  const held = useRef<GuardDecision | null>(null);

  const apply = useCallback(
    (decision: GuardDecision) => {
      if (decision.type === 'redirect') navigate(decision.to, { replace: true });
      if (decision.type === 'deny') {
        toast.warning(decision.message);
        if (decision.fallback) navigate(decision.fallback, { replace: true });
      }
    },
    [navigate],
  );

  // The router allows one blocker, so this one also holds a permitted navigation while a form has
  // unsaved changes (renderer/form/unsavedChanges.ts) until the user confirms leaving.
  const shouldBlock = useCallback<BlockerFunction>(({ currentLocation, nextLocation }) => {
    const decision = decideFor(nextLocation, currentLocation);
    held.current = decision;
    return decision.type !== 'allow' || (nextLocation.pathname !== currentLocation.pathname && hasUnsavedChanges());
  }, []);
  const blocker = useBlocker(shouldBlock);

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    const decision = held.current;
    held.current = null;
    // Blocked although the guard allows it: held for unsaved changes.
    if (!decision || decision.type === 'allow') {
      void confirmLeave().then((leave) => (leave ? blocker.proceed?.() : blocker.reset?.()));
      return;
    }
    blocker.reset();
    if (decision) apply(decision);
  }, [blocker, apply]);

  // Some locations never pass through the blocker: the first one, those reached before the blocker
  // is registered (it registers in an effect, after a child <Navigate> has already run), and history
  // entries made outside the router (pushState by other code; POP to them is not blocked). Check every
  // committed location once more; for one the blocker let through this is always "allow". Entries made
  // outside the router all carry the key "default", so a location is told apart by its identity (a
  // new object per navigation), never by its key: keyed by key, a second such refusal drew a blank
  // page without a warning, and an allowed page after it let the next refused one render.
  const committed = useMemo(() => ({ location, decision: decideFor(location, null) }), [location]);
  const refused = committed.decision.type !== 'allow';
  const appliedFor = useRef<unknown>(null);
  // The last page drawn: a refused location that did not pass the blocker goes back there (replacing
  // the refused entry) rather than to /navigation, so the clerk stays where they were.
  const lastAllowed = useRef<string | null>(null);
  if (!refused) lastAllowed.current = location.pathname + location.search;
  useEffect(() => {
    if (!refused || appliedFor.current === committed.location) return;
    appliedFor.current = committed.location;
    const d = committed.decision;
    if (d.type === 'deny' && lastAllowed.current !== null) apply({ ...d, fallback: lastAllowed.current });
    else apply(d);
  }, [committed, refused, apply]);

  useDocumentTitle(location.pathname);
  useLeaveWhenLoggedOut(location.pathname);

  return refused ? null : <>{children}</>;
}

function useDocumentTitle(pathname: string): void {
  useEffect(() => {
    const screen = screenMatcher.match(pathname);
    if (screen) document.title = screen.title;
  }, [pathname]);
}

/** Tokens cleared elsewhere (logout in another tab, session ended): leave pages that need them. */
function useLeaveWhenLoggedOut(pathname: string): void {
  const navigate = useNavigate();
  const current = useRef(pathname);
  current.current = pathname;
  useEffect(
    () =>
      onSessionChange(() => {
        // (a wall's tab opens its link again instead: request/navigation.ts)
        if (hasToken() || current.current === LOGIN_PATH || wallLinkToken()) return;
        const screen = screenMatcher.match(current.current);
        if (screen?.permission === PUBLIC) return;
        navigate(LOGIN_PATH, { replace: true });
      }),
    [navigate],
  );
}
