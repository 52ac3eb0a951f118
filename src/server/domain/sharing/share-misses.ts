// Public link lookups that found nothing, counted per address: after MAX_MISSES within WINDOW_MS an address's
// misses are refused (请求过于频繁) until its window ends, so ids cannot be tried in bulk — a real link still
// opens from it (the lookup comes first), or one guesser would darken every wall behind the same NAT. Kept in this process's
// memory: with N processes an address gets at most N × MAX_MISSES tries per window, still nothing against
// 131-bit ids. Someone with a real link rarely misses more than a mistyped character or two.
import { bizError } from '../../http/errors.ts';

export const MAX_MISSES = 30;
export const WINDOW_MS = 10 * 60 * 1000;
/** Addresses remembered at most; the oldest windows are dropped first (a flood of addresses cannot fill memory). */
const MAX_ADDRESSES = 10_000;

const misses = new Map<string, { since: number; count: number }>();

function current(ip: string, now: number) {
  const m = misses.get(ip);
  if (m && now - m.since < WINDOW_MS) return m;
  if (m) misses.delete(ip);
  return undefined;
}

export function refuseWhenTooManyMisses(ip: string, now = Date.now()): void {
  const m = current(ip, now);
  if (m && m.count >= MAX_MISSES) throw bizError('COMMON_BUSY_4029');
}

export function countMiss(ip: string, now = Date.now()): void {
  const m = current(ip, now);
  if (m) {
    m.count++;
    return;
  }
  if (misses.size >= MAX_ADDRESSES) misses.delete(misses.keys().next().value!);
  misses.set(ip, { since: now, count: 1 });
}

/** Forgets every count (tests start clean). */
export function forgetShareMisses(): void {
  misses.clear();
}
