// The one rule every account and role write goes through (DESIGN §4.1): a caller may act only on an
// account or role whose rights it holds itself — an all-rights target needs an all-rights caller — and a
// company always keeps one enabled all-rights account. Granting rights one lacks is refused where roles
// are assigned and rights granted (resources/hooks.ts); this module refuses acting on holders of them.
import type { Caller } from '../catalog/context.ts';
import type { Tenant } from '../catalog/tenant.ts';
import type { DB } from '../db/connection.ts';
import { bizError } from '../http/errors.ts';

export interface HeldRights {
  allRights: boolean;
  rights: Set<string>;
}

const isOn = (v: unknown) => v === 1 || v === true || v === '1';

export function parseIdList(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (typeof v !== 'string') return [];
  try { const p = JSON.parse(v); return Array.isArray(p) ? p : []; } catch { return []; }
}

/** What a role row holds (columns allRights, rights). */
export function roleRights(role: { allRights?: unknown; rights?: unknown }): HeldRights {
  return { allRights: isOn(role.allRights), rights: new Set(parseIdList(role.rights).map(String)) };
}

/** What an account holds through its roles (roleIds as stored: a JSON list). */
export async function accountRights(tenant: Tenant, roleIds: unknown): Promise<HeldRights> {
  const ids = parseIdList(roleIds).map(Number).filter(Number.isSafeInteger);
  const held: HeldRights = { allRights: false, rights: new Set() };
  if (!ids.length) return held;
  const roles = await tenant.select('role').select(['allRights', 'rights']).where('id', 'in', ids).execute();
  for (const r of roles) {
    const one = roleRights(r);
    if (one.allRights) held.allRights = true;
    for (const c of one.rights) held.rights.add(c);
  }
  return held;
}

/** The target's rights the caller lacks: 'all' for an all-rights target, [] when the caller holds them all. */
export function rightsBeyond(caller: Caller, target: HeldRights): 'all' | string[] {
  if (caller.allRights) return [];
  if (target.allRights) return 'all';
  return [...target.rights].filter((c) => c !== '1' && !caller.rights.has(c));
}

function refuse(kind: 'account' | 'role', name: string, action: string, beyond: 'all' | string[]): never {
  if (beyond === 'all') {
    throw bizError(kind === 'account' ? 'ACCOUNT_ALL_RIGHTS_4054' : 'ROLE_ALL_RIGHTS_4055', { name, action });
  }
  const list = `${beyond.slice(0, 5).join('、')}${beyond.length > 5 ? ` 等 ${beyond.length} 项` : ''}`;
  throw bizError(kind === 'account' ? 'ACCOUNT_RIGHTS_BEYOND_4056' : 'ROLE_RIGHTS_BEYOND_4057', { name, action, rights: list });
}

/** Refuses (changing nothing) when the account holds a right the caller lacks. */
export async function assertMayActOnAccount(caller: Caller, tenant: Tenant, account: { userName?: unknown; roleIds?: unknown }, action: string): Promise<void> {
  if (caller.allRights) return;
  const beyond = rightsBeyond(caller, await accountRights(tenant, account.roleIds));
  if (beyond === 'all' || beyond.length) refuse('account', String(account.userName ?? ''), action, beyond);
}

/** Refuses when the role holds a right the caller lacks. */
export function assertMayActOnRole(caller: Caller, role: { name?: unknown; allRights?: unknown; rights?: unknown }, action: string): void {
  const beyond = rightsBeyond(caller, roleRights(role));
  if (beyond === 'all' || beyond.length) refuse('role', String(role.name ?? ''), action, beyond);
}

/**
 * A role change reaches every account holding the role: refuses when one of them holds a right the caller
 * lacks (changing or deleting the role would demote an account the caller may not act on).
 */
export async function assertMayActOnRoleMembers(caller: Caller, tenant: Tenant, role: { id?: unknown; name?: unknown }, action: string): Promise<void> {
  if (caller.allRights) return;
  const id = String(role.id);
  const accounts = await tenant.select('account').select(['userName', 'roleIds']).where('roleIds', 'like', `%${id}%`).execute();
  for (const a of accounts) {
    if (!parseIdList(a.roleIds).some((x) => String(x) === id)) continue;
    await assertMayActOnAccount(caller, tenant, a, `${action}它持有的角色“${String(role.name ?? '')}”`);
  }
}

/**
 * Run inside the writing transaction, after the write: refuses (so the transaction rolls back) when the
 * company has no enabled account left holding an all-rights role. On PostgreSQL the company row is locked
 * first, so two concurrent writes (each demoting a different administrator) cannot both pass: the second
 * waits, then counts what the first committed. SQLite's write transactions are serialised already.
 */
export async function assertCompanyKeepsAdmin(db: DB, dialect: 'sqlite' | 'postgres', companyId: number, action: string): Promise<void> {
  if (dialect === 'postgres') await db.selectFrom('company').select('id').where('id', '=', companyId).forUpdate().execute();
  const adminRoles = (await db.selectFrom('role').select('id').where('companyId', '=', companyId).where('allRights', '=', 1).execute())
    .map((r) => String(r.id));
  if (adminRoles.length) {
    const accounts = await db.selectFrom('account').select('roleIds').where('companyId', '=', companyId).where('enabled', '=', 1).execute();
    const admin = new Set(adminRoles);
    if (accounts.some((a) => parseIdList(a.roleIds).some((id) => admin.has(String(id))))) return;
  }
  throw bizError('ACCOUNT_LAST_ADMIN_4058', { action });
}
