// Totals for list pages. count(*) over a company's 100,000 rows costs milliseconds on every page turn,
// while the pager only needs a number the user cannot tell from exact. A total is reused until this
// process writes the table (exact for the writer's own process) or for a few seconds (other processes
// sharing PostgreSQL may write meanwhile).
import crypto from 'node:crypto';

const TTL_MS = 3000;
const MAX_ENTRIES = 5000;

const versions = new Map<string, number>();
const totals = new Map<string, { total: number; version: number; at: number }>();

const tableKey = (companyId: number, table: string) => `${companyId}:${table}`;

export function bumpTable(companyId: number, table: string): void {
  const k = tableKey(companyId, table);
  versions.set(k, (versions.get(k) ?? 0) + 1);
}

/** The part of a list request that decides its total (not page, size or sort). */
export function countKey(companyId: number, table: string, criteria: unknown): string {
  const digest = crypto.createHash('sha1').update(JSON.stringify(criteria ?? null)).digest('base64url');
  return `${tableKey(companyId, table)}:${digest}`;
}

export function cachedTotal(companyId: number, table: string, key: string): number | undefined {
  const hit = totals.get(key);
  if (!hit) return undefined;
  if (hit.version !== (versions.get(tableKey(companyId, table)) ?? 0) || Date.now() - hit.at > TTL_MS) {
    totals.delete(key);
    return undefined;
  }
  return hit.total;
}

/** The table's write count in this process: read it before querying, to remember what was read with. */
export function tableVersion(companyId: number, table: string): number {
  return versions.get(tableKey(companyId, table)) ?? 0;
}

/** `version`: tableVersion() from before the total was read (a write meanwhile makes it stale at once). */
export function rememberTotal(companyId: number, table: string, key: string, total: number, version = tableVersion(companyId, table)): void {
  if (totals.size >= MAX_ENTRIES) totals.clear();
  totals.set(key, { total, version, at: Date.now() });
}

const counting = new Map<string, Promise<number>>();

/**
 * One count at a time per key and table version: requests that find no total while it is being counted
 * wait for that count instead of starting their own. Without this, the 50 requests in flight when a
 * total expired all counted it (50 × 20 ms of a keyword scan: the event loop blocked for a second).
 */
export function sharedCount(key: string, version: number | string, count: () => Promise<number>): Promise<number> {
  // A count started before a write of this process is not shared with requests made after it.
  const k = `${key}@${version}`;
  let running = counting.get(k);
  if (!running) {
    running = count().finally(() => counting.delete(k));
    counting.set(k, running);
  }
  return running;
}
