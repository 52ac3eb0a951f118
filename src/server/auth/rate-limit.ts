// Login failures counted per account and per IP in the database, so the limit holds across processes.
import type { DB } from '../db/connection.ts';
import { bizError } from '../http/errors.ts';

export interface LoginLimits {
  loginMaxFailuresPerAccount: number;
  loginMaxFailuresPerIp: number;
  loginWindowSec: number;
}

const keys = (companyCode: string, userName: string, ip: string) => ({
  account: `acct:${companyCode.toLowerCase()}:${userName.toLowerCase()}`,
  ip: `ip:${ip}`,
});

async function failures(db: DB, key: string, sinceIso: string): Promise<number> {
  const r = await db.selectFrom('loginFailure').select((eb) => eb.fn.countAll().as('n')).where('key', '=', key).where('at', '>', sinceIso).executeTakeFirst();
  return Number(r?.n ?? 0);
}

export async function assertLoginAllowed(db: DB, limits: LoginLimits, companyCode: string, userName: string, ip: string): Promise<void> {
  const since = new Date(Date.now() - limits.loginWindowSec * 1000).toISOString();
  const k = keys(companyCode, userName, ip);
  const minutes = Math.ceil(limits.loginWindowSec / 60);
  if ((await failures(db, k.account, since)) >= limits.loginMaxFailuresPerAccount) throw bizError('AUTH_LOGIN_LOCKED_4034', { minutes });
  if ((await failures(db, k.ip, since)) >= limits.loginMaxFailuresPerIp) throw bizError('AUTH_LOGIN_LOCKED_4034', { minutes });
}

export async function recordLoginFailure(db: DB, companyCode: string, userName: string, ip: string): Promise<void> {
  const k = keys(companyCode, userName, ip);
  const at = new Date().toISOString();
  await db.insertInto('loginFailure').values([{ key: k.account, at }, { key: k.ip, at }]).execute();
}

export async function clearLoginFailures(db: DB, companyCode: string, userName: string): Promise<void> {
  await db.deleteFrom('loginFailure').where('key', '=', keys(companyCode, userName, '').account).execute();
}
