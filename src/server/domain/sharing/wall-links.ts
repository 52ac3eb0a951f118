// 大屏链接 (oms 023203–023205, auth 990110): links that put the sales wall (数据大屏, /dataReport) on a
// television without anybody logging in on it. An administrator names a link (前台电视); opening
// /wall/{token} starts a session from it (990110), and the wall keeps itself going: when that session
// ends (its maximum age, a restart of the browser) the page opens the link again. The session's caller
// holds the wall's right only and reaches the wall's calls only (auth/caller.ts, auth/wall.ts). Stopping a
// link ends its sessions at once; a wall showing it says so on the screen at its next refresh.
// A link works while its maker's account and company are enabled and the maker holds the wall's right.
import type { CallContext } from '../../catalog/context.ts';
import { parseFlags } from '../../../core/flags.ts';
import { checkIpWhitelist, WALL_RIGHT } from '../../auth/caller.ts';
import { accountRights } from '../../auth/rights-guard.ts';
import { endWallLinkSessions, startSession } from '../../auth/tokens.ts';
import { Tenant } from '../../catalog/tenant.ts';
import { serverNow } from '../../clock.ts';
import { TypedTenant, typed } from '../../db/typed.ts';
import { bizError, validationError } from '../../http/errors.ts';
import { newMediaId } from '../../storage/names.ts';
import { countMiss, refuseWhenTooManyMisses } from './share-misses.ts';

/** The page a link opens, and the screen it shows. */
export const wallPath = (token: string) => `/wall/${token}`;
export const WALL_ROUTE = '/dataReport';
export const WALL_STATUS = { active: '使用中', revoked: '已停用' } as const;

export const CREATE_INPUT = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string', minLength: 1, maxLength: 50, title: '名称' } },
};
export const ID_INPUT = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, title: '大屏链接' } } };
export const TOKEN_INPUT = { type: 'object', required: ['token'], properties: { token: { type: 'string', maxLength: 100, title: '大屏链接' } } };

/** The form of every token (newMediaId): anything else is not looked up. */
const TOKEN = /^[A-Za-z0-9]{22}$/;

export async function createWallLink(ctx: CallContext, input: { name: string }) {
  const caller = ctx.caller!;
  const name = input.name.trim();
  if (!name) throw validationError([{ field: 'name', message: '名称不能为空' }]);
  const token = newMediaId();
  const at = serverNow().toISOString();
  const id = await ctx.transaction(async (trx, tenant) => {
    const row = await typed(trx).insertInto('wallLink').values({ companyId: tenant.companyId, token, name, createdAt: at, createdBy: caller.accountId })
      .returning('id').executeTakeFirstOrThrow();
    await ctx.audit({ action: 'create', entity: 'wallLink', recordId: row.id, recordLabel: name, changes: [{ field: 'name', title: '名称', from: null, to: name }] }, trx);
    return row.id;
  });
  return { id, name, token, path: wallPath(token), status: 'active', statusText: WALL_STATUS.active, createdAt: at };
}

/** Every link of the company, newest first. */
export async function listWallLinks(ctx: CallContext) {
  const rows = await TypedTenant.of(ctx.tenant).select('wallLink')
    .leftJoin('account as maker', 'maker.id', 'wallLink.createdBy')
    .leftJoin('account as stopper', 'stopper.id', 'wallLink.revokedBy')
    .selectAll('wallLink').select(['maker.userName as createdByName', 'stopper.userName as revokedByName'])
    .orderBy('wallLink.id', 'desc').limit(500).execute();
  const list = rows.map((r) => {
    const status = r.revokedAt ? 'revoked' : 'active';
    return {
      id: r.id, name: r.name, token: r.token, path: wallPath(r.token), status, statusText: WALL_STATUS[status],
      createdAt: r.createdAt, createdByName: r.createdByName ?? null, lastUsedAt: r.lastUsedAt, revokedAt: r.revokedAt, revokedByName: r.revokedByName ?? null,
    };
  });
  return { list, total: list.length, page: 1, pageSize: Math.max(1, list.length) };
}

/** Stops a link: no new session from it, and every session it started ends now. */
export async function revokeWallLink(ctx: CallContext, id: number) {
  const caller = ctx.caller!;
  const link = await TypedTenant.of(ctx.tenant).select('wallLink').select(['id', 'name', 'revokedAt']).where('id', '=', id).executeTakeFirst();
  if (!link) throw bizError('COMMON_NOT_FOUND_4004', { entity: '大屏链接' });
  if (link.revokedAt) throw bizError('WALL_ALREADY_REVOKED_4311');
  const at = serverNow().toISOString();
  await ctx.transaction(async (trx, t) => {
    // conditional: of two stops at once one changes the row, the other is told it is done already
    const res = await TypedTenant.of(t).update('wallLink').set({ revokedAt: at, revokedBy: caller.accountId }).where('id', '=', id).where('revokedAt', 'is', null).executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw bizError('WALL_ALREADY_REVOKED_4311');
    await endWallLinkSessions(trx, id);
    await ctx.audit({ action: 'state', entity: 'wallLink', recordId: id, recordLabel: link.name, changes: [{ field: 'revokedAt', title: '停用时间', from: null, to: at }] }, trx);
  });
  return { id, revokedAt: at };
}

/**
 * 990110 (public): a session from a link, as a login answers (the token pair), and the route to show.
 * Unknown and stopped links get the same answer: the wall can only say that its link no longer works.
 */
export async function wallLogin(ctx: CallContext, input: { token: string }) {
  // The one lookup not scoped by a caller's company: a public link names its row by its random token alone.
  const db = typed(ctx.db);
  const link = TOKEN.test(input.token)
    ? await db.selectFrom('wallLink').innerJoin('company', 'company.id', 'wallLink.companyId').innerJoin('account', 'account.id', 'wallLink.createdBy')
      .select(['wallLink.id', 'wallLink.companyId', 'wallLink.createdBy', 'wallLink.revokedAt', 'company.enabled as companyEnabled', 'company.flags', 'account.enabled as accountEnabled', 'account.roleIds'])
      .where('wallLink.token', '=', input.token).executeTakeFirst()
    : undefined;
  if (!link) {
    // only misses are limited: a television behind the same NAT as a guesser still opens its real link
    // (131-bit tokens: letting a hit through tells a guesser nothing it could use)
    refuseWhenTooManyMisses(ctx.ip);
    countMiss(ctx.ip);
  }
  if (!link || link.revokedAt || !link.companyEnabled || !link.accountEnabled || !(await makerHoldsWall(ctx, link.companyId, link.roleIds))) {
    throw bizError('WALL_LINK_INVALID_4310');
  }
  // the company's IP whitelist, as a password login meets it: a session every call of which the whitelist
  // refuses would send the wall round and round between its link and the refusal
  await checkIpWhitelist(ctx.db, link.companyId, parseFlags(link.flags).ipWhitelist, ctx.ip);
  const tokens = await startSession(ctx.db, { companyId: link.companyId, accountId: link.createdBy, ip: ctx.ip, userAgent: ctx.userAgent, wallLinkId: link.id }, ctx.config);
  await db.updateTable('wallLink').set({ lastUsedAt: serverNow().toISOString() }).where('id', '=', link.id).execute();
  return { ...tokens, route: WALL_ROUTE };
}

/** The maker's roles (as its account holds them now) give the wall's right. */
async function makerHoldsWall(ctx: CallContext, companyId: number, roleIds: unknown): Promise<boolean> {
  const held = await accountRights(new Tenant(ctx.db, companyId), roleIds);
  return held.allRights || held.rights.has(WALL_RIGHT);
}
