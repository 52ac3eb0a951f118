// Account administration beyond the generic resource: an administrator resets a user's password or
// enables/disables the account — never for an account holding rights the caller lacks, never leaving
// the company without an administrator; the account's sessions end.
import { clearCallerCache } from '../../auth/caller.ts';
import { hashPassword } from '../../auth/password.ts';
import { passwordProblem } from '../../auth/password-policy.ts';
import { assertCompanyKeepsAdmin, assertMayActOnAccount } from '../../auth/rights-guard.ts';
import { endAccountSessions } from '../../auth/tokens.ts';
import type { CallContext } from '../../catalog/context.ts';
import { TypedTenant } from '../../db/typed.ts';
import { bizError, validationError } from '../../http/errors.ts';

export async function resetAccountPassword(ctx: CallContext, id: number, password: string): Promise<null> {
  const acc = await TypedTenant.of(ctx.tenant).select('account').select(['id', 'userName', 'roleIds']).where('id', '=', id).executeTakeFirst();
  if (!acc) throw bizError('COMMON_NOT_FOUND_4004', { entity: '账号' });
  await assertMayActOnAccount(ctx.caller!, ctx.tenant, acc, '重置该账号的密码');
  const weak = passwordProblem(password, { title: '新密码', userName: String(acc.userName) });
  if (weak) throw validationError([{ field: 'password', message: weak }]);
  const passwordHash = await hashPassword(password);
  await ctx.transaction(async (db, t) => {
    await TypedTenant.of(t).update('account').set({ passwordHash, passwordChangedAt: new Date().toISOString() }).where('id', '=', id).execute();
    await ctx.audit({ action: 'update', entity: 'account', recordId: id, recordLabel: String(acc.userName), changes: [{ field: 'password', title: '密码', from: '***', to: '***' }] }, db);
  });
  await endAccountSessions(ctx.db, id, 'password-reset');
  return null;
}

export async function setAccountEnabled(ctx: CallContext, id: number, enabled: boolean): Promise<null> {
  const acc = await TypedTenant.of(ctx.tenant).select('account').select(['id', 'userName', 'enabled', 'roleIds']).where('id', '=', id).executeTakeFirst();
  if (!acc) throw bizError('COMMON_NOT_FOUND_4004', { entity: '账号' });
  if (id === ctx.caller!.accountId && !enabled) throw bizError('COMMON_VALIDATION_4000', { detail: '不能停用当前登录的账号' });
  await assertMayActOnAccount(ctx.caller!, ctx.tenant, acc, enabled ? '启用该账号' : '停用该账号');
  await ctx.transaction(async (db, t) => {
    await TypedTenant.of(t).update('account').set({ enabled: enabled ? 1 : 0, updatedAt: new Date().toISOString() }).where('id', '=', id).execute();
    if (!enabled) await assertCompanyKeepsAdmin(db, ctx.database.dialect, t.companyId, '停用该账号');
    await ctx.audit({ action: 'update', entity: 'account', recordId: id, recordLabel: String(acc.userName), changes: [{ field: 'enabled', title: '启用', from: !!acc.enabled, to: enabled }] }, db);
  });
  if (!enabled) await endAccountSessions(ctx.db, id, 'account-disabled');
  clearCallerCache();
  return null;
}
