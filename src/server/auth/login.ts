// Password login (990103 type 0): company code, user name and password to a new session, with the IP
// whitelist, login throttling and constant hashing time that keep the login from being used to probe
// which companies, users and passwords exist.
import { parseFlags } from '../../core/flags.ts';
import type { CallContext } from '../catalog/context.ts';
import { typed } from '../db/typed.ts';
import { accessRefused, bizError } from '../http/errors.ts';
import { checkIpWhitelist } from './caller.ts';
import { DUMMY_HASH, verifyPassword } from './password.ts';
import { assertLoginAllowed, clearLoginFailures, isUsualSource, recordLoginFailure } from './rate-limit.ts';
import { startSession } from './tokens.ts';

export interface PasswordLogin { companyCode: string; userName: string; password: string }

export async function passwordLogin(ctx: CallContext, input: PasswordLogin) {
  const db = typed(ctx.db);
  const companyCode = input.companyCode.trim();
  const userName = input.userName.trim();
  const company = await db.selectFrom('company').select(['id', 'enabled', 'flags']).where('code', '=', companyCode).executeTakeFirst();
  // The whitelist comes before the password: from outside it, right and wrong passwords (and unknown
  // users) get the same answer, so the login cannot be used to test passwords.
  if (company) await checkIpWhitelist(ctx.db, Number(company.id), parseFlags(company.flags).ipWhitelist, ctx.ip);
  const row = company
    ? await db.selectFrom('account').select(['id', 'passwordHash', 'enabled']).where('companyId', '=', Number(company.id)).where('userName', '=', userName).executeTakeFirst()
    : undefined;
  const usual = row ? await isUsualSource(ctx.db, Number(row.id), ctx.ip) : false;
  await assertLoginAllowed(ctx.db, ctx.config, companyCode, userName, ctx.ip, usual);
  // Always spend the same hashing time, so response time does not reveal which user names exist.
  const ok = await verifyPassword(input.password, row ? String(row.passwordHash) : DUMMY_HASH);
  if (!company || !row || !ok) {
    await recordLoginFailure(ctx.db, ctx.config, companyCode, userName, ctx.ip, usual);
    throw bizError('AUTH_LOGIN_4033');
  }
  if (!company.enabled) throw accessRefused('公司已停用，请联系管理员');
  if (!row.enabled) throw accessRefused('账号已停用，请联系管理员');
  await clearLoginFailures(ctx.db, companyCode, userName, ctx.ip);
  return startSession(ctx.db, { companyId: Number(company.id), accountId: Number(row.id), ip: ctx.ip, userAgent: ctx.userAgent }, ctx.config);
}
