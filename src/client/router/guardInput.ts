// Gathers the guard's inputs for a location from the screen table and the session.

import { decideNavigation, type GuardDecision } from './guard';
import { screenMatcher } from './routeTable';
import { currentRights, hasToken } from './sessionAccess';

export interface PathLike {
  pathname: string;
  search?: string;
}

export function fullPath(location: PathLike): string {
  return location.pathname + (location.search ?? '');
}

export function decideFor(to: PathLike, from: PathLike | null): GuardDecision {
  const screen = screenMatcher.match(to.pathname);
  return decideNavigation({
    to: fullPath(to),
    screen: screen && { path: screen.route, title: screen.title, permission: screen.permission },
    from: from && fullPath(from),
    hasToken: hasToken(),
    rights: currentRights(),
  });
}
