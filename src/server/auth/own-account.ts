// What a signed-in user changes on their own account: the password (990107; every session of the
// account ends) and the current warehouse (990108).
import type { CallContext } from '../catalog/context.ts';
import { TypedTenant } from '../db/typed.ts';
import { bizError } from '../http/errors.ts';
import { hashPassword, verifyPassword } from './password.ts';
import { passwordProblem } from './password-policy.ts';
import { endAccountSessions } from './tokens.ts';

export async function changeOwnPassword(ctx: CallContext, oldPassword: string, newPassword: string): Promise<null> {
  const caller = ctx.caller!;
  const acc = await TypedTenant.of(ctx.tenant).select('account').select(['passwordHash']).where('id', '=', caller.accountId).executeTakeFirstOrThrow();
  if (!(await verifyPassword(oldPassword, String(acc.passwordHash)))) throw bizError('AUTH_PASSWORD_4036');
  if (newPassword === oldPassword) throw bizError('AUTH_PASSWORD_WEAK_4037', { detail: '新密码不能与原密码相同' });
  const weak = passwordProblem(newPassword, { title: '新密码', userName: caller.userName });
  if (weak) throw bizError('AUTH_PASSWORD_WEAK_4037', { detail: weak });
  const passwordHash = await hashPassword(newPassword);
  await ctx.transaction(async (db, t) => {
    await TypedTenant.of(t).update('account').set({ passwordHash, passwordChangedAt: new Date().toISOString() }).where('id', '=', caller.accountId).execute();
    await ctx.audit({ action: 'update', entity: 'account', recordId: caller.accountId, recordLabel: caller.userName, changes: [{ field: 'password', title: '密码', from: '***', to: '***' }] }, db);
  });
  await endAccountSessions(ctx.db, caller.accountId, 'password-changed');
  return null;
}

export async function switchWarehouse(ctx: CallContext, warehouseId: number) {
  const tenant = TypedTenant.of(ctx.tenant);
  const wh = await tenant.select('warehouse').select(['id', 'code', 'name']).where('id', '=', warehouseId).where('enabled', '=', 1).executeTakeFirst();
  if (!wh) throw bizError('COMMON_NOT_FOUND_4004', { entity: '仓库' });
  await tenant.update('account').set({ warehouseId: wh.id }).where('id', '=', ctx.caller!.accountId).execute();
  return { warehouseId: wh.id, warehouseCode: wh.code, warehouseName: wh.name };
}
