// What a wall's session may call. A wall link (大屏链接, domain/sharing/wall-links.ts) is a URL on a
// television: anyone who reads it off the screen holds a session of the company. So that session reaches
// the wall's own data (the calls whose right is the wall's) and the few calls the page needs to run — its
// session object and logging out — and nothing else: not the option lists every logged-in user may read
// (clients, suppliers, staff), not uploads, not exports.
import { WALL_RIGHT } from './caller.ts';

const WALL_PAGE_CALLS = new Set(['auth:990104', 'auth:990106']);

export function wallMayCall(endpoint: string, permission: string): boolean {
  return permission === WALL_RIGHT || WALL_PAGE_CALLS.has(endpoint);
}
