// Access and refresh tokens: random, stored only as SHA-256 hashes, checked against the database so
// revocation holds across every server process sharing it. A one-second in-process cache keeps hot
// paths off the database without letting a revoked token live longer than that.
import crypto from 'node:crypto';
import type { DB } from '../db/connection.ts';
import { accessRefused, sessionEnded, tokenInvalid } from '../http/errors.ts';

export const CACHE_MS = 1000;

export function newToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
}

export interface TokenTtl {
  accessTokenTtlSec: number;
  refreshTokenTtlSec: number;
  /** Absolute lifetime of a session from its login: no token of it outlives that. */
  sessionMaxAgeSec: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A new pair for the session; neither token outlives the session's end (`sessionEndsMs`). */
export async function issuePair(db: DB, sessionId: string, ttl: TokenTtl, sessionEndsMs: number): Promise<TokenPair> {
  const now = Date.now();
  const accessToken = newToken();
  const refreshToken = newToken();
  await db.insertInto('authToken').values([
    { tokenHash: hashToken(accessToken), sessionId, kind: 'access', expiresAt: iso(Math.min(sessionEndsMs, now + ttl.accessTokenTtlSec * 1000)) },
    { tokenHash: hashToken(refreshToken), sessionId, kind: 'refresh', expiresAt: iso(Math.min(sessionEndsMs, now + ttl.refreshTokenTtlSec * 1000)) },
  ]).execute();
  return { accessToken, refreshToken };
}

/** `wallLinkId`: a session started from a wall link (大屏链接), whose caller holds the wall's right only. */
export async function startSession(db: DB, s: { companyId: number; accountId: number; ip: string; userAgent: string; wallLinkId?: number }, ttl: TokenTtl): Promise<TokenPair> {
  const id = crypto.randomUUID();
  const now = Date.now();
  await db.insertInto('authSession').values({ id, companyId: s.companyId, accountId: s.accountId, createdAt: iso(now), ip: s.ip, userAgent: s.userAgent.slice(0, 300), wallLinkId: s.wallLinkId ?? null }).execute();
  return issuePair(db, id, ttl, now + ttl.sessionMaxAgeSec * 1000);
}

/**
 * Rotates a refresh token. The old one is spent by a conditional update, so two concurrent uses cannot
 * both succeed; presenting a spent token again means it leaked or was replayed: the session ends. The new
 * pair never reaches past the session's absolute end (its login + sessionMaxAgeSec): a session that is
 * refreshed forever still ends then.
 */
export async function rotateRefresh(db: DB, refreshToken: string, ttl: TokenTtl): Promise<TokenPair> {
  const hash = hashToken(refreshToken);
  const now = iso(Date.now());
  const outcome = await db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('authToken').innerJoin('authSession', 'authSession.id', 'authToken.sessionId')
      .select(['authToken.sessionId', 'authToken.expiresAt', 'authToken.usedAt', 'authSession.endedAt', 'authSession.createdAt'])
      .where('authToken.tokenHash', '=', hash).where('authToken.kind', '=', 'refresh').executeTakeFirst();
    if (!row || row.endedAt) return { kind: 'ended' as const };
    const sessionId = String(row.sessionId);
    if (row.usedAt) return { kind: 'reused' as const, sessionId };
    const sessionEndsMs = Date.parse(String(row.createdAt)) + ttl.sessionMaxAgeSec * 1000;
    if (!(sessionEndsMs > Date.parse(now))) return { kind: 'tooOld' as const, sessionId };
    if (String(row.expiresAt) <= now) return { kind: 'expired' as const };
    const spent = await trx.updateTable('authToken').set({ usedAt: now })
      .where('tokenHash', '=', hash).where('usedAt', 'is', null).executeTakeFirst();
    if (Number(spent.numUpdatedRows) !== 1) return { kind: 'reused' as const, sessionId };
    // The old access token dies with the rotation.
    await trx.updateTable('authToken').set({ expiresAt: now }).where('sessionId', '=', sessionId).where('kind', '=', 'access').where('expiresAt', '>', now).execute();
    return { kind: 'rotated' as const, pair: await issuePair(trx, sessionId, ttl, sessionEndsMs) };
  });
  if (outcome.kind === 'rotated') return outcome.pair;
  if (outcome.kind === 'expired') throw sessionEnded('登录已过期，请重新登录');
  if (outcome.kind === 'tooOld') {
    await endSession(db, outcome.sessionId, 'max-age');
    throw sessionEnded(`登录已满 ${formatAge(ttl.sessionMaxAgeSec)}，为了安全请重新登录`);
  }
  if (outcome.kind === 'reused') {
    // A spent refresh token presented again has leaked or been replayed: end the whole session.
    await endSession(db, outcome.sessionId, 'refresh-reuse');
    throw sessionEnded('登录凭证已被使用，会话已结束，请重新登录');
  }
  throw sessionEnded();
}

function formatAge(sec: number): string {
  if (sec % 86400 === 0) return `${sec / 86400} 天`;
  if (sec % 3600 === 0) return `${sec / 3600} 小时`;
  return `${Math.max(1, Math.round(sec / 60))} 分钟`;
}

export async function endSession(db: DB, sessionId: string, reason: string): Promise<void> {
  await db.updateTable('authSession').set({ endedAt: iso(Date.now()), endReason: reason }).where('id', '=', sessionId).where('endedAt', 'is', null).execute();
  tokenCache.clear();
}

export async function endAccountSessions(db: DB, accountId: number, reason: string): Promise<void> {
  await db.updateTable('authSession').set({ endedAt: iso(Date.now()), endReason: reason }).where('accountId', '=', accountId).where('endedAt', 'is', null).execute();
  tokenCache.clear();
}

/** Ends every session started from a wall link (the link was stopped). */
export async function endWallLinkSessions(db: DB, wallLinkId: number): Promise<void> {
  await db.updateTable('authSession').set({ endedAt: iso(Date.now()), endReason: 'wall-link-revoked' }).where('wallLinkId', '=', wallLinkId).where('endedAt', 'is', null).execute();
  tokenCache.clear();
}

export interface AccessRow {
  sessionId: string;
  accountId: number;
  companyId: number;
  /** the session was started from this wall link (大屏链接) */
  wallLinkId: number | null;
}

const tokenCache = new Map<string, { row: AccessRow; until: number }>();

/** Resolves an access token to its live session, or throws 5012 (unknown/expired) / 5011 (ended). */
export async function resolveAccess(db: DB, token: string | null): Promise<AccessRow> {
  if (!token) throw tokenInvalid();
  const hash = hashToken(token);
  const cached = tokenCache.get(hash);
  const nowMs = Date.now();
  if (cached && cached.until > nowMs) return cached.row;
  const row = await db.selectFrom('authToken').innerJoin('authSession', 'authSession.id', 'authToken.sessionId')
    .select(['authToken.sessionId', 'authToken.expiresAt', 'authSession.endedAt', 'authSession.endReason', 'authSession.accountId', 'authSession.companyId', 'authSession.wallLinkId'])
    .where('authToken.tokenHash', '=', hash).where('authToken.kind', '=', 'access').executeTakeFirst();
  if (!row || String(row.expiresAt) <= iso(nowMs)) throw tokenInvalid();
  if (row.endReason === 'account-disabled') throw accessRefused('账号已停用，请联系管理员');
  if (row.endedAt) throw sessionEnded();
  const access: AccessRow = { sessionId: String(row.sessionId), accountId: Number(row.accountId), companyId: Number(row.companyId), wallLinkId: row.wallLinkId == null ? null : Number(row.wallLinkId) };
  const expiresMs = Date.parse(String(row.expiresAt));
  tokenCache.set(hash, { row: access, until: Math.min(nowMs + CACHE_MS, expiresMs) });
  if (tokenCache.size > 10_000) tokenCache.clear();
  return access;
}
