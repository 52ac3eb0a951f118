// Shared links, the public side (storage 980204 page, 980205 download; no token): what someone holding a
// link may learn — the file's name, size, until when the link works and how many downloads are left — and
// the file itself. Nothing else of the company. Each state has its own clear message (不存在 / 已撤销 /
// 已过期 / 次数已用完 / 文件已不存在): telling a revoked link from an unknown one reveals nothing to anyone
// without the link, since ids are 131 random bits and an answer concerns only the id asked about.
// Misses are counted per address (share-misses.ts), so nobody can try ids by the million.
//
// A download is counted when it starts, by one conditional UPDATE (still valid, count below the limit):
// of two downloads racing for the last allowed one exactly one gets the file.
import { sql } from 'kysely';
import type { CallContext } from '../../catalog/context.ts';
import { serverNow } from '../../clock.ts';
import { typed, type TypedDB } from '../../db/typed.ts';
import { bizError } from '../../http/errors.ts';
import { FileResponse } from '../../http/file-response.ts';
import { sizeText } from '../export-jobs.ts';
import { shareStatus } from './file-shares.ts';
import { countMiss, refuseWhenTooManyMisses } from './share-misses.ts';
import { openSharedFile, sharedFilePath } from './shared-file.ts';

export const TOKEN_INPUT = { type: 'object', required: ['id'], properties: { id: { type: 'string', maxLength: 100, title: '链接' } } };

/** The form of every link id (newMediaId): anything else is not looked up. */
const TOKEN = /^[A-Za-z0-9]{22}$/;

async function findShare(ctx: CallContext, token: string) {
  // The one query not scoped by a caller's company: a public link names its row by its random id alone.
  const share = TOKEN.test(token) ? await typed(ctx.db).selectFrom('fileShare').selectAll().where('token', '=', token).executeTakeFirst() : undefined;
  if (!share) {
    // only misses are limited: a real link opens from an address that guessers share (one office NAT)
    refuseWhenTooManyMisses(ctx.ip);
    countMiss(ctx.ip);
    throw bizError('SHARE_NOT_FOUND_4301');
  }
  return share;
}

type Share = Awaited<ReturnType<typeof findShare>>;

function refuseUnusable(share: Share, now: string): void {
  const status = shareStatus(share, now);
  if (status === 'revoked') throw bizError('SHARE_REVOKED_4303');
  if (status === 'expired') throw bizError('SHARE_EXPIRED_4302');
  if (status === 'exhausted') throw bizError('SHARE_EXHAUSTED_4304', { max: Number(share.maxDownloads) });
}

async function fileOf(db: TypedDB, ctx: CallContext, share: Share): Promise<string> {
  const file = await sharedFilePath(db, ctx.config.dataDir, share);
  if (!file) throw bizError('SHARE_FILE_GONE_4305');
  return file;
}

/** The page of a link: what the file is and how long the link works. */
export async function sharePage(ctx: CallContext, token: string) {
  const share = await findShare(ctx, token);
  refuseUnusable(share, serverNow().toISOString());
  await fileOf(typed(ctx.db), ctx, share);
  const fileSize = share.fileSize === null ? null : Number(share.fileSize);
  const maxDownloads = share.maxDownloads === null ? null : Number(share.maxDownloads);
  const remaining = maxDownloads === null ? null : Math.max(0, maxDownloads - Number(share.downloadCount));
  return {
    id: share.token, fileName: share.fileName, fileSize, fileSizeText: sizeText(fileSize), expiresAt: share.expiresAt,
    maxDownloads, remaining, remainingText: remaining === null ? '不限' : `${remaining} 次`,
  };
}

/** The file of a link, counted. */
export async function shareDownload(ctx: CallContext, token: string): Promise<FileResponse> {
  const share = await findShare(ctx, token);
  const now = serverNow().toISOString();
  refuseUnusable(share, now);
  const db = typed(ctx.db);
  // Opened before counting: a file gone since costs the link no download.
  const stream = await openSharedFile(await fileOf(db, ctx, share));
  if (!stream) throw bizError('SHARE_FILE_GONE_4305');
  const counted = await db.updateTable('fileShare')
    .set({ downloadCount: sql<number>`${sql.ref('downloadCount')} + 1`, lastDownloadAt: now })
    .where('id', '=', share.id).where('revokedAt', 'is', null).where('expiresAt', '>', now)
    .where((eb) => eb.or([eb('maxDownloads', 'is', null), eb('downloadCount', '<', eb.ref('maxDownloads'))]))
    .executeTakeFirst();
  if (Number(counted.numUpdatedRows) !== 1) {
    stream.destroy();
    // Someone else took the last download (or the sharer revoked it) since the row was read: say which.
    const current = await db.selectFrom('fileShare').selectAll().where('id', '=', share.id).executeTakeFirstOrThrow();
    refuseUnusable(current, now);
    throw bizError('SHARE_EXHAUSTED_4304', { max: Number(current.maxDownloads) });
  }
  return new FileResponse(share.fileName, share.contentType, stream);
}
