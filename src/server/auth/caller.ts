// Turns an access token into the Caller: account, company, flags and rights, checked for being enabled
// and for the company's IP whitelist. Cached for at most a second per token (see tokens.ts).
import { parseFlags } from '../../core/flags.ts';
import type { Caller } from '../catalog/context.ts';
import type { DB } from '../db/connection.ts';
import { accessRefused, tokenInvalid } from '../http/errors.ts';
import { ipAllowed } from './ip-whitelist.ts';
import { isOperatorCompany, NO_INSTANCE_POLICY, type InstancePolicy } from './operator.ts';
import { CACHE_MS, hashToken, resolveAccess } from './tokens.ts';

const callerCache = new Map<string, { caller: Caller; until: number }>();

export function clearCallerCache(): void {
  callerCache.clear();
}

export async function loadCompanyAccess(db: DB, companyId: number, ip: string): Promise<void> {
  const company = await db.selectFrom('company').select(['enabled', 'flags']).where('id', '=', companyId).executeTakeFirst();
  if (!company || !company.enabled) throw accessRefused('公司已停用，请联系管理员');
  await checkIpWhitelist(db, companyId, parseFlags(company.flags).ipWhitelist, ip);
}

export async function checkIpWhitelist(db: DB, companyId: number, enforced: boolean, ip: string): Promise<void> {
  if (!enforced) return;
  const rows = await db.selectFrom('ipWhitelist').select('cidr').where('companyId', '=', companyId).where('enabled', '=', 1).execute();
  if (!ipAllowed(ip, rows.map((r) => String(r.cidr)))) throw accessRefused(`当前 IP（${ip}）不在公司白名单内，禁止访问`);
}

const NOTHING_WITHHELD: ReadonlySet<string> = new Set();

/** The one right a session started from a wall link (大屏链接) may hold: the sales wall's. */
export const WALL_RIGHT = 'dataReport';

async function buildCaller(db: DB, sessionId: string, accountId: number, companyId: number, policy: InstancePolicy, wallLinkId: number | null): Promise<{ caller: Caller; whitelist: string[] | null }> {
  const row = await db.selectFrom('account').innerJoin('company', 'company.id', 'account.companyId')
    .select(['account.userName', 'account.enabled as accountEnabled', 'account.roleIds', 'company.code', 'company.name', 'company.timeZone', 'company.flags', 'company.enabled as companyEnabled'])
    .select((eb) => eb.selectFrom('company as first').select((f) => f.fn.min('first.id').as('id')).as('firstCompanyId'))
    .where('account.id', '=', accountId).where('account.companyId', '=', companyId).executeTakeFirst();
  if (!row) throw tokenInvalid();
  if (!row.companyEnabled) throw accessRefused('公司已停用，请联系管理员');
  if (!row.accountEnabled) throw accessRefused('账号已停用，请联系管理员');
  const flags = parseFlags(row.flags);
  const roleIds = JSON.parse(String(row.roleIds || '[]')) as number[];
  const roles = roleIds.length
    ? await db.selectFrom('role').select(['allRights', 'rights']).where('companyId', '=', companyId).where('id', 'in', roleIds).execute()
    : [];
  const rights = new Set<string>();
  let allRights = false;
  for (const r of roles) {
    if (r.allRights) allRights = true;
    for (const code of JSON.parse(String(r.rights || '[]')) as string[]) rights.add(code);
  }
  const whitelist = flags.ipWhitelist
    ? (await db.selectFrom('ipWhitelist').select('cidr').where('companyId', '=', companyId).where('enabled', '=', 1).execute()).map((r) => String(r.cidr))
    : null;
  const operator = isOperatorCompany(policy, { id: companyId, code: String(row.code) }, Number(row.firstCompanyId));
  // a wall's session: the wall's right, if its maker still holds it, and nothing else
  const wall = wallLinkId !== null;
  const wallRights = new Set<string>(wall && (allRights || rights.has(WALL_RIGHT)) ? [WALL_RIGHT] : []);
  return {
    caller: {
      sessionId, accountId, userName: String(row.userName), allRights: wall ? false : allRights, rights: wall ? wallRights : rights,
      withheld: operator ? NOTHING_WITHHELD : policy.instanceRights,
      wall,
      company: { id: companyId, code: String(row.code), name: String(row.name), timeZone: Number(row.timeZone), flags, operator },
    },
    whitelist,
  };
}

const whitelistCache = new Map<string, string[] | null>();

export async function authenticate(db: DB, token: string | null, ip: string, policy: InstancePolicy = NO_INSTANCE_POLICY): Promise<Caller> {
  const access = await resolveAccess(db, token);
  const key = hashToken(token!);
  const now = Date.now();
  let cached = callerCache.get(key);
  if (!cached || cached.until <= now) {
    const built = await buildCaller(db, access.sessionId, access.accountId, access.companyId, policy, access.wallLinkId);
    cached = { caller: built.caller, until: now + CACHE_MS };
    callerCache.set(key, cached);
    whitelistCache.set(key, built.whitelist);
    if (callerCache.size > 10_000) { callerCache.clear(); whitelistCache.clear(); }
  }
  const list = whitelistCache.get(key);
  if (list && !ipAllowed(ip, list)) throw accessRefused(`当前 IP（${ip}）不在公司白名单内，禁止访问`);
  return cached.caller;
}

export function holdsRight(caller: Caller, code: string): boolean {
  if (caller.withheld.has(code)) return false;
  return code === '1' || caller.allRights || caller.rights.has(code);
}

/** The rights the caller holds, as functionRights lists them ('1' first; `all`: every right of the catalog). */
export function heldRights(caller: Caller, all: () => string[]): string[] {
  const held = caller.allRights ? all() : [...caller.rights];
  return ['1', ...held.filter((code) => code !== '1' && !caller.withheld.has(code))];
}
