// Login throttling by account AND source, with growing delays instead of a lock-out, so that nobody can
// lock a user out from elsewhere (DESIGN §4.1). Failures are rows in the database, so the limits hold
// across every server process. Three counts, each with its own free attempts, then a wait that doubles
// with every further failure (1 s, 2 s, 4 s … up to LOGIN_DELAY_MAX):
//   - this account from this source (LOGIN_MAX_FAILURES): an attacker guessing from one place;
//   - this source, any account (LOGIN_MAX_FAILURES_PER_IP): one place trying many accounts;
//   - this account from sources it has not logged in from lately (LOGIN_MAX_FAILURES_PER_ACCOUNT): many
//     places guessing one account. A source the account logged in from in the last 90 days is exempt
//     from this count, so the real user at the usual desk still gets in while the account is attacked.
// While a wait runs, no password is checked (the right one is refused like a wrong one: no oracle).
import net from 'node:net';
import type { DB } from '../db/connection.ts';
import { bizError } from '../http/errors.ts';

export interface LoginLimits {
  loginMaxFailuresPerAccount: number;
  loginMaxFailuresPerIp: number;
  loginMaxFailuresAccountWide: number;
  loginWindowSec: number;
  loginDelayMaxSec: number;
}

/** How long a source stays "usual" for an account after a successful login from it. */
const USUAL_SOURCE_DAYS = 90;

/**
 * The source a failure is counted against: an IPv4 address, or the /64 of an IPv6 address (one
 * subscriber holds a whole /64, so counting single IPv6 addresses would count nothing).
 */
export function sourceOf(ip: string): string {
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (v4) return v4[1];
  if (net.isIP(ip) !== 6) return ip;
  const [head, tail = ''] = ip.split('::');
  const h = head ? head.split(':') : [];
  const t = ip.includes('::') ? (tail ? tail.split(':') : []) : [];
  const groups = ip.includes('::') ? [...h, ...Array(8 - h.length - t.length).fill('0'), ...t] : h;
  return `${groups.slice(0, 4).map((g) => parseInt(g || '0', 16).toString(16)).join(':')}::/64`;
}

const keys = (companyCode: string, userName: string, ip: string) => {
  const account = `${companyCode.toLowerCase()}:${userName.toLowerCase()}`;
  const source = sourceOf(ip);
  return { pair: `pair:${account}@${source}`, source: `ip:${source}`, account: `acct:${account}` };
};

async function failures(db: DB, key: string, sinceIso: string): Promise<{ n: number; lastMs: number }> {
  const r = await db.selectFrom('loginFailure').select((eb) => [eb.fn.countAll().as('n'), eb.fn.max('at').as('last')])
    .where('key', '=', key).where('at', '>', sinceIso).executeTakeFirst();
  return { n: Number(r?.n ?? 0), lastMs: r?.last ? Date.parse(String(r.last)) : 0 };
}

/** Milliseconds still to wait after n failures, the last at lastMs (0: may try now). */
export function waitAfter(n: number, free: number, lastMs: number, nowMs: number, maxSec: number): number {
  if (n < free) return 0;
  const delaySec = Math.min(maxSec, 2 ** Math.min(n - free, 30));
  return Math.max(0, lastMs + delaySec * 1000 - nowMs);
}

export function waitText(ms: number): string {
  const s = Math.ceil(ms / 1000);
  return s < 60 ? `${s} 秒` : `${Math.ceil(s / 60)} 分钟`;
}

/** Whether the account logged in successfully from this source within the last 90 days. */
export async function isUsualSource(db: DB, accountId: number, ip: string): Promise<boolean> {
  const since = new Date(Date.now() - USUAL_SOURCE_DAYS * 86_400_000).toISOString();
  const rows = await db.selectFrom('authSession').select('ip').where('accountId', '=', accountId).where('createdAt', '>', since)
    .orderBy('createdAt', 'desc').limit(1000).execute();
  const source = sourceOf(ip);
  return rows.some((r) => sourceOf(String(r.ip)) === source);
}

export async function assertLoginAllowed(db: DB, limits: LoginLimits, companyCode: string, userName: string, ip: string, usual: boolean): Promise<void> {
  const now = Date.now();
  const since = new Date(now - limits.loginWindowSec * 1000).toISOString();
  const k = keys(companyCode, userName, ip);
  const pair = await failures(db, k.pair, since);
  const source = await failures(db, k.source, since);
  let wait = Math.max(
    waitAfter(pair.n, limits.loginMaxFailuresPerAccount, pair.lastMs, now, limits.loginDelayMaxSec),
    waitAfter(source.n, limits.loginMaxFailuresPerIp, source.lastMs, now, limits.loginDelayMaxSec),
  );
  if (!usual) {
    const account = await failures(db, k.account, since);
    wait = Math.max(wait, waitAfter(account.n, limits.loginMaxFailuresAccountWide, account.lastMs, now, limits.loginDelayMaxSec));
  }
  if (wait > 0) throw bizError('AUTH_LOGIN_LOCKED_4034', { wait: waitText(wait) });
}

let lastSweep = 0;

export async function recordLoginFailure(db: DB, limits: LoginLimits, companyCode: string, userName: string, ip: string, usual: boolean): Promise<void> {
  const k = keys(companyCode, userName, ip);
  const now = Date.now();
  const at = new Date(now).toISOString();
  const rows = [{ key: k.pair, at }, { key: k.source, at }];
  if (!usual) rows.push({ key: k.account, at });
  await db.insertInto('loginFailure').values(rows).execute();
  // Failures older than the window count for nothing: dropped every ten minutes or so.
  if (now - lastSweep > 600_000) {
    lastSweep = now;
    await db.deleteFrom('loginFailure').where('at', '<=', new Date(now - limits.loginWindowSec * 1000).toISOString()).execute();
  }
}

/** A successful login forgives this account's failures from this source only. */
export async function clearLoginFailures(db: DB, companyCode: string, userName: string, ip: string): Promise<void> {
  await db.deleteFrom('loginFailure').where('key', '=', keys(companyCode, userName, ip).pair).execute();
}
