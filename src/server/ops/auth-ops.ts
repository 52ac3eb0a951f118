// 990103 login/refresh, 990104 session, 990106 logout, 990107 change password, 990108 switch warehouse.
import { parseFlags } from '../../core/flags.ts';
import { checkIpWhitelist } from '../auth/caller.ts';
import { DUMMY_HASH, hashPassword, verifyPassword } from '../auth/password.ts';
import { passwordProblem } from '../auth/password-policy.ts';
import { assertLoginAllowed, clearLoginFailures, isUsualSource, recordLoginFailure } from '../auth/rate-limit.ts';
import { endAccountSessions, endSession, rotateRefresh, startSession } from '../auth/tokens.ts';
import type { CallContext, OpHandler } from '../catalog/context.ts';
import { accessRefused, bizError } from '../http/errors.ts';

const str = (title: string, max = 100) => ({ type: 'string', title, minLength: 1, maxLength: max });

const token: OpHandler<{ type: 0 | 1; companyCode?: string; userName?: string; password?: string; refreshToken?: string }> = {
  input: {
    type: 'object',
    required: ['type'],
    properties: {
      type: { enum: [0, 1], title: '登录类型' },
      companyCode: str('公司代码', 50),
      userName: str('用户名', 50),
      password: str('密码', 200),
      refreshToken: str('刷新令牌', 200),
    },
    allOf: [
      { if: { properties: { type: { const: 0 } } }, then: { required: ['companyCode', 'userName', 'password'] } },
      { if: { properties: { type: { const: 1 } } }, then: { required: ['refreshToken'] } },
    ],
  },
  async run(ctx, input) {
    const ttl = ctx.config;
    if (input.type === 1) return rotateRefresh(ctx.db, input.refreshToken!, ttl);
    const companyCode = input.companyCode!.trim();
    const userName = input.userName!.trim();
    const company = await ctx.db.selectFrom('company').select(['id', 'enabled', 'flags']).where('code', '=', companyCode).executeTakeFirst();
    // The whitelist comes before the password: from outside it, right and wrong passwords (and unknown
    // users) get the same answer, so the login cannot be used to test passwords.
    if (company) await checkIpWhitelist(ctx.db, Number(company.id), parseFlags(company.flags).ipWhitelist, ctx.ip);
    const row = company
      ? await ctx.db.selectFrom('account').select(['id', 'passwordHash', 'enabled']).where('companyId', '=', Number(company.id)).where('userName', '=', userName).executeTakeFirst()
      : undefined;
    const usual = row ? await isUsualSource(ctx.db, Number(row.id), ctx.ip) : false;
    await assertLoginAllowed(ctx.db, ctx.config, companyCode, userName, ctx.ip, usual);
    // Always spend the same hashing time, so response time does not reveal which user names exist.
    const ok = await verifyPassword(input.password!, row ? String(row.passwordHash) : DUMMY_HASH);
    if (!company || !row || !ok) {
      await recordLoginFailure(ctx.db, ctx.config, companyCode, userName, ctx.ip, usual);
      throw bizError('AUTH_LOGIN_4033');
    }
    if (!company.enabled) throw accessRefused('公司已停用，请联系管理员');
    if (!row.enabled) throw accessRefused('账号已停用，请联系管理员');
    await clearLoginFailures(ctx.db, companyCode, userName, ctx.ip);
    return startSession(ctx.db, { companyId: Number(company.id), accountId: Number(row.id), ip: ctx.ip, userAgent: ctx.userAgent }, ttl);
  },
};

const parseList = (raw: unknown): string[] => {
  try { return JSON.parse(String(raw ?? '[]')) as string[]; } catch { return []; }
};

export async function sessionObject(ctx: CallContext, allRightCodes: () => string[]) {
  const caller = ctx.caller!;
  const t = ctx.tenant;
  const company = await ctx.db.selectFrom('company').selectAll().where('id', '=', caller.company.id).executeTakeFirstOrThrow();
  const account = await t.select('account').selectAll().where('id', '=', caller.accountId).executeTakeFirstOrThrow();
  const staff = account.staffId ? await t.select('staff').select(['name']).where('id', '=', account.staffId).executeTakeFirst() : undefined;
  const warehouse = account.warehouseId ? await t.select('warehouse').select(['id', 'code']).where('id', '=', account.warehouseId).executeTakeFirst() : undefined;
  const currencies = await t.select('currency').select(['id', 'code', 'currencyName', 'currencyCharacter', 'isBase']).where('enabled', '=', 1).orderBy('id').execute();
  const base = currencies.find((c) => c.id === company.currencyId) ?? currencies[0];
  const personnel = await t.select('staff').select(['id', 'name', 'code', 'departmentId']).where('enabled', '=', 1).orderBy('code').execute();
  const currencyList = currencies.map((c) => ({ id: c.id, code: c.code, currencyName: c.currencyName, currencyCharacter: c.currencyCharacter, isBase: !!c.isBase }));
  return {
    functionRights: caller.allRights ? ['1', ...allRightCodes()] : ['1', ...caller.rights],
    companyName: company.name,
    companyCode: company.code,
    companyId: company.id,
    employeeName: staff?.name ?? account.userName,
    defaultLanguage: company.defaultLanguage,
    timeZone: Number(company.timeZone),
    userName: account.userName,
    accountId: account.id,
    warehouseCode: warehouse?.code ?? null,
    warehouseId: warehouse?.id ?? null,
    purchasePriceId: account.purchasePriceId ?? null,
    salePriceId: account.salePriceId ?? null,
    currencyList,
    currencyMap: Object.fromEntries(currencyList.map((c) => [c.id, c])),
    currencyId: base?.id ?? null,
    currencyCharacter: base?.currencyCharacter ?? '',
    receMultiple: Number(company.receMultiple),
    addRooType: Number(company.addRooType),
    limitMultiple: Number(company.limitMultiple),
    ceilingMultiple: Number(company.ceilingMultiple),
    containerType: parseList(company.containerTypes),
    personnel: personnel.map((p) => ({ id: p.id, name: p.name, code: p.code, departmentId: p.departmentId })),
    flags: caller.company.flags,
  };
}

export function authOps(allRightCodes: () => string[]): Record<string, OpHandler> {
  return {
    'auth.token': token,
    'auth.session': { input: { type: 'object', properties: { token: { type: 'string', maxLength: 200, title: '令牌' } } }, run: (ctx) => sessionObject(ctx, allRightCodes) },
    'auth.logout': {
      input: { type: 'object', properties: { token: { type: 'string', maxLength: 200, title: '令牌' } } },
      async run(ctx) {
        await endSession(ctx.db, ctx.caller!.sessionId, 'logout');
        return null;
      },
    },
    'auth.changePassword': {
      input: { type: 'object', required: ['oldPassword', 'newPassword'], properties: { oldPassword: str('原密码', 200), newPassword: str('新密码', 200) } },
      async run(ctx, input: { oldPassword: string; newPassword: string }) {
        const acc = await ctx.tenant.select('account').select(['passwordHash']).where('id', '=', ctx.caller!.accountId).executeTakeFirstOrThrow();
        if (!(await verifyPassword(input.oldPassword, String(acc.passwordHash)))) throw bizError('AUTH_PASSWORD_4036');
        if (input.newPassword === input.oldPassword) throw bizError('AUTH_PASSWORD_WEAK_4037', { detail: '新密码不能与原密码相同' });
        const weak = passwordProblem(input.newPassword, { title: '新密码', userName: ctx.caller!.userName });
        if (weak) throw bizError('AUTH_PASSWORD_WEAK_4037', { detail: weak });
        const passwordHash = await hashPassword(input.newPassword);
        await ctx.transaction(async (db, t) => {
          await t.update('account').set({ passwordHash, passwordChangedAt: new Date().toISOString() }).where('id', '=', ctx.caller!.accountId).execute();
          await ctx.audit({ action: 'update', entity: 'account', recordId: ctx.caller!.accountId, recordLabel: ctx.caller!.userName, changes: [{ field: 'password', title: '密码', from: '***', to: '***' }] }, db);
        });
        await endAccountSessions(ctx.db, ctx.caller!.accountId, 'password-changed');
        return null;
      },
    },
    'auth.switchWarehouse': {
      input: { type: 'object', required: ['warehouseId'], properties: { warehouseId: { type: 'integer', title: '仓库' } } },
      async run(ctx, input: { warehouseId: number }) {
        const wh = await ctx.tenant.select('warehouse').select(['id', 'code']).where('id', '=', input.warehouseId).where('enabled', '=', 1).executeTakeFirst();
        if (!wh) throw bizError('COMMON_NOT_FOUND_4004', { entity: '仓库' });
        await ctx.tenant.update('account').set({ warehouseId: wh.id }).where('id', '=', ctx.caller!.accountId).execute();
        return { warehouseId: wh.id, warehouseCode: wh.code };
      },
    },
  };
}
