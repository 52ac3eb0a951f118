// Where the server's read-only files live. From the sources (tsx, tests) that is the repository; in a
// release built by `npm run build` (scripts/build.ts) the bundle sits at <release>/server/main.js next to
// its own copy of schemas/ and the client, so a later build never changes what a running process reads.
import fs from 'node:fs';
import path from 'node:path';

// Set by the esbuild bundle of a release (scripts/lib/build-release.ts); absent when run from the sources.
declare const __TRADE_RELEASE__: boolean | undefined;

export const IS_RELEASE = typeof __TRADE_RELEASE__ !== 'undefined' && __TRADE_RELEASE__ === true;

/** The repository (from the sources) or the release folder (compiled). */
export const APP_ROOT = IS_RELEASE ? path.resolve(import.meta.dirname, '..') : path.resolve(import.meta.dirname, '../..');

export const SCHEMAS_DIR = path.join(APP_ROOT, 'schemas');

/** The client a process serves when CLIENT_DIR is not set: its release's own, or the current release's. */
export function defaultClientDir(): string {
  if (IS_RELEASE) return path.join(APP_ROOT, 'client');
  // From the sources: the newest release, resolved once so a later build does not move it under us.
  const current = path.join(APP_ROOT, 'dist/current/client');
  if (fs.existsSync(current)) return fs.realpathSync(current);
  return path.join(APP_ROOT, 'dist/client');
}
