// Shared links, the sharer's side (storage 980201–980203, 980206): make a link to a file the caller may
// reach, list the links (one's own; with reportForms.download.shareAll every link of the company) and revoke
// one (one's own; with that right any of the company's). A link
// lives 1, 7 or 30 days (default 7) by the server's clock, never past the day its file is swept (an export
// is kept EXPORT_RETENTION_DAYS); it may be limited to a number of downloads. Making and revoking are audited.
//
// The list is not a kept page (keptList): what it shows turns on the clock as well as on the table (a link
// expires with no write), and a kept page would show an expired link as 有效 and filter it so.
import { sql } from 'kysely';
import { holdsRight } from '../../auth/caller.ts';
import type { CallContext } from '../../catalog/context.ts';
import { serverNow } from '../../clock.ts';
import { TypedTenant, typed } from '../../db/typed.ts';
import { bizError } from '../../http/errors.ts';
import { newMediaId } from '../../storage/names.ts';
import { sizeText } from '../export-jobs.ts';
import { fileToShare, SHARE_KINDS, type FileRef, type ShareKind } from './shared-file.ts';

/** Who sees and revokes every link of the company, not only their own. */
export const SHARE_ALL_RIGHT = 'reportForms.download.shareAll';
export const SHARE_DAYS = [1, 7, 30] as const;
export const DEFAULT_SHARE_DAYS = 7;
export const MAX_DOWNLOADS_LIMIT = 1000;
const DAY_MS = 24 * 3600 * 1000;

export const SHARE_STATUS = { active: '有效', expired: '已过期', exhausted: '次数已用完', revoked: '已撤销' } as const;
export type ShareStatus = keyof typeof SHARE_STATUS;

/** The page a link opens. */
export const sharePath = (token: string) => `/a/${token}`;

export const CREATE_INPUT = {
  type: 'object',
  required: ['kind'],
  properties: {
    kind: { enum: Object.keys(SHARE_KINDS), title: '文件类型' },
    mediaId: { type: 'string', minLength: 1, maxLength: 64, title: '文件' },
    exportJobId: { type: 'integer', minimum: 1, title: '导出任务' },
    days: { enum: [...SHARE_DAYS], default: DEFAULT_SHARE_DAYS, title: '有效期（天）' },
    maxDownloads: { type: ['integer', 'null'], minimum: 1, maximum: MAX_DOWNLOADS_LIMIT, title: '最多下载次数' },
  },
};

export const LIST_INPUT = {
  type: 'object',
  properties: {
    page: { type: 'integer', minimum: 1, maximum: 100_000, default: 1, title: '页码' },
    pageSize: { type: 'integer', minimum: 1, maximum: 200, default: 20, title: '每页条数' },
    status: { enum: [...Object.keys(SHARE_STATUS), null], title: '状态' },
    keyword: { type: ['string', 'null'], maxLength: 100, title: '文件名' },
  },
};

export const ID_INPUT = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, title: '分享链接' } } };

export interface CreateInput extends FileRef {
  days: (typeof SHARE_DAYS)[number];
  maxDownloads?: number | null;
}

export interface ListInput {
  page: number;
  pageSize: number;
  status?: ShareStatus | null;
  keyword?: string | null;
}

/** A link's state at `now`: revoked first (the sharer's word), then expired, then used up. */
export function shareStatus(row: { revokedAt: string | null; expiresAt: string; maxDownloads: number | null; downloadCount: number }, now: string): ShareStatus {
  if (row.revokedAt) return 'revoked';
  if (row.expiresAt <= now) return 'expired';
  if (row.maxDownloads !== null && Number(row.downloadCount) >= Number(row.maxDownloads)) return 'exhausted';
  return 'active';
}

export async function createShare(ctx: CallContext, input: CreateInput) {
  const caller = ctx.caller!;
  const file = await fileToShare(ctx, input);
  const now = serverNow();
  let expiresAt = new Date(now.getTime() + input.days * DAY_MS).toISOString();
  // A link never outlives its file: an export swept earlier would leave a link that only says "gone".
  const capped = file.goneAt !== null && file.goneAt < expiresAt;
  if (capped) expiresAt = file.goneAt!;
  // The media id's generator: 22 characters of [A-Za-z0-9], about 131 random bits, safe in a URL.
  const token = newMediaId();
  const maxDownloads = input.maxDownloads ?? null;
  const id = await ctx.transaction(async (trx, tenant) => {
    const row = await typed(trx).insertInto('fileShare').values({
      companyId: tenant.companyId, token, kind: file.kind, mediaId: file.mediaId, exportJobId: file.exportJobId,
      fileName: file.fileName, fileSize: file.fileSize, contentType: file.contentType,
      createdAt: now.toISOString(), createdBy: caller.accountId, expiresAt, maxDownloads,
    }).returning('id').executeTakeFirstOrThrow();
    await ctx.audit({
      action: 'share', entity: 'fileShare', recordId: row.id, recordLabel: file.fileName,
      changes: [
        { field: 'expiresAt', title: '有效期至', from: null, to: expiresAt },
        { field: 'maxDownloads', title: '最多下载次数', from: null, to: maxDownloads ?? '不限' },
      ],
    }, trx);
    return row.id;
  });
  return {
    id, token, path: sharePath(token), fileName: file.fileName, fileSize: file.fileSize, fileSizeText: sizeText(file.fileSize),
    expiresAt, maxDownloads, capped, days: input.days,
  };
}

/** The caller's own links (我的分享), or with `all` every link of the company (全部分享, its own right). */
export async function listShares(ctx: CallContext, input: ListInput, all = false) {
  const caller = ctx.caller!;
  const now = serverNow().toISOString();
  const tenant = TypedTenant.of(ctx.tenant);
  let q = tenant.select('fileShare');
  if (!all) q = q.where('fileShare.createdBy', '=', caller.accountId);
  if (input.keyword?.trim()) q = q.where('fileShare.fileName', 'like', `%${input.keyword.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  const used = sql<boolean>`${sql.ref('fileShare.maxDownloads')} is not null and ${sql.ref('fileShare.downloadCount')} >= ${sql.ref('fileShare.maxDownloads')}`;
  switch (input.status) {
    case 'revoked': q = q.where('fileShare.revokedAt', 'is not', null); break;
    case 'expired': q = q.where('fileShare.revokedAt', 'is', null).where('fileShare.expiresAt', '<=', now); break;
    case 'exhausted': q = q.where('fileShare.revokedAt', 'is', null).where('fileShare.expiresAt', '>', now).where(used); break;
    case 'active': q = q.where('fileShare.revokedAt', 'is', null).where('fileShare.expiresAt', '>', now).where(sql<boolean>`not (${used})`); break;
    default: break;
  }
  const counted = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const rows = await q
    .leftJoin('account as creator', 'creator.id', 'fileShare.createdBy')
    .leftJoin('account as revoker', 'revoker.id', 'fileShare.revokedBy')
    .selectAll('fileShare')
    .select(['creator.userName as createdByName', 'revoker.userName as revokedByName'])
    .orderBy('fileShare.id', 'desc').limit(input.pageSize).offset((input.page - 1) * input.pageSize).execute();
  const list = rows.map((r) => {
    const status = shareStatus(r, now);
    const fileSize = r.fileSize === null ? null : Number(r.fileSize);
    const maxDownloads = r.maxDownloads === null ? null : Number(r.maxDownloads);
    return {
      id: r.id, token: r.token, path: sharePath(r.token), kind: r.kind, kindText: SHARE_KINDS[r.kind as ShareKind] ?? r.kind,
      fileName: r.fileName, fileSize, fileSizeText: sizeText(fileSize),
      createdAt: r.createdAt, createdByName: r.createdByName ?? null, expiresAt: r.expiresAt,
      maxDownloads, downloadCount: Number(r.downloadCount), downloadsText: `${Number(r.downloadCount)} / ${maxDownloads ?? '不限'}`,
      lastDownloadAt: r.lastDownloadAt, status, statusText: SHARE_STATUS[status],
      revokedAt: r.revokedAt, revokedByName: r.revokedByName ?? null,
    };
  });
  return { list, total: Number(counted?.n ?? 0), page: input.page, pageSize: input.pageSize };
}

/** Revokes a link: the caller's own, or any of the company's with the right to all. */
export async function revokeShare(ctx: CallContext, id: number) {
  const caller = ctx.caller!;
  const tenant = TypedTenant.of(ctx.tenant);
  let q = tenant.select('fileShare').select(['id', 'fileName', 'revokedAt']).where('id', '=', id);
  // Another account's link is answered as not existing, like another company's.
  if (!holdsRight(caller, SHARE_ALL_RIGHT)) q = q.where('createdBy', '=', caller.accountId);
  const share = await q.executeTakeFirst();
  if (!share) throw bizError('COMMON_NOT_FOUND_4004', { entity: '分享链接' });
  if (share.revokedAt) throw bizError('SHARE_ALREADY_REVOKED_4306');
  const at = serverNow().toISOString();
  await ctx.transaction(async (trx, t) => {
    // Conditional: of two revokes at once one changes the row, the other is told it is done already.
    const res = await TypedTenant.of(t).update('fileShare').set({ revokedAt: at, revokedBy: caller.accountId })
      .where('id', '=', id).where('revokedAt', 'is', null).executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw bizError('SHARE_ALREADY_REVOKED_4306');
    await ctx.audit({ action: 'revoke', entity: 'fileShare', recordId: id, recordLabel: share.fileName, changes: [{ field: 'revokedAt', title: '撤销时间', from: null, to: at }] }, trx);
  });
  return { id, revokedAt: at };
}
