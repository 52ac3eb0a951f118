// The file behind a shared link: an uploaded file (media) or a finished export of the export centre. When a
// link is made, the caller must be able to reach the file (any media of the company; an export only its
// owner's, as the export centre's own download); when the link is used, the file is opened by the share's
// company, and a file deleted or swept since is told as gone.
import fs from 'node:fs';
import path from 'node:path';
import type { ReadStream } from 'node:fs';
import type { CallContext } from '../../catalog/context.ts';
import { TypedTenant, type TypedDB } from '../../db/typed.ts';
import { bizError } from '../../http/errors.ts';
import { mediaStore } from '../../storage/media-store.ts';
import { mediaDisplayName } from '../../storage/names.ts';
import { exportsFolder, JOB_STATUS, type JobStatus } from '../export-jobs.ts';
import { expiresAt as exportExpiresAt } from '../export-retention.ts';

export const SHARE_KINDS = { media: '上传文件', export: '导出文件' } as const;
export type ShareKind = keyof typeof SHARE_KINDS;

export interface FileRef {
  kind: ShareKind;
  mediaId?: string;
  exportJobId?: number;
}

export interface ShareableFile {
  kind: ShareKind;
  mediaId: string | null;
  exportJobId: number | null;
  fileName: string;
  fileSize: number | null;
  contentType: string;
  /** When the file itself is swept (an export's retention); null: kept until someone deletes it. */
  goneAt: string | null;
}

/** The file the caller asks to share, as the caller may reach it. */
export async function fileToShare(ctx: CallContext, ref: FileRef): Promise<ShareableFile> {
  const tenant = TypedTenant.of(ctx.tenant);
  if (ref.kind === 'media') {
    if (!ref.mediaId) throw bizError('COMMON_BAD_REQUEST_4001', { detail: '请指定要分享的文件（mediaId）' });
    const media = await tenant.select('media').select(['id', 'ext', 'originalName', 'size', 'mime']).where('id', '=', ref.mediaId).executeTakeFirst();
    if (!media) throw bizError('STORAGE_NOT_EXIST_4043');
    return { kind: 'media', mediaId: media.id, exportJobId: null, fileName: mediaDisplayName(media), fileSize: Number(media.size), contentType: media.mime, goneAt: null };
  }
  if (!ref.exportJobId) throw bizError('COMMON_BAD_REQUEST_4001', { detail: '请指定要分享的导出任务（exportJobId）' });
  // Only the account that ran the export may download it, so only it may share it.
  const job = await tenant.select('exportJob').selectAll().where('id', '=', ref.exportJobId).where('accountId', '=', ctx.caller!.accountId).executeTakeFirst();
  if (!job) throw bizError('COMMON_NOT_FOUND_4004', { entity: '导出任务' });
  const status = job.status as JobStatus;
  if (status !== 'done') throw bizError('EXPORT_JOB_NOT_READY_4182', { name: job.name, status: JOB_STATUS[status] ?? status, action: '分享' });
  if (!job.storedName || !fs.existsSync(path.join(exportsFolder(ctx.config.dataDir, job.companyId), path.basename(job.storedName)))) {
    throw bizError('EXPORT_FILE_GONE_4183', { name: job.name });
  }
  return {
    kind: 'export', mediaId: null, exportJobId: job.id, fileName: job.fileName ?? job.name,
    fileSize: job.fileSize === null ? null : Number(job.fileSize), contentType: job.contentType ?? 'application/octet-stream',
    goneAt: exportExpiresAt(job.finishedAt, ctx.config.exportRetentionDays),
  };
}

interface ShareFileColumns {
  companyId: number;
  kind: string;
  mediaId: string | null;
  exportJobId: number | null;
}

/** Where the shared file lies now, or null when it was deleted or swept. */
export async function sharedFilePath(db: TypedDB, dataDir: string, share: ShareFileColumns): Promise<string | null> {
  let file: string | null = null;
  if (share.kind === 'media' && share.mediaId) {
    const media = await db.selectFrom('media').select('storedName').where('id', '=', share.mediaId).where('companyId', '=', share.companyId).executeTakeFirst();
    if (media) file = mediaStore(dataDir).pathOf(media.storedName);
  } else if (share.kind === 'export' && share.exportJobId) {
    const job = await db.selectFrom('exportJob').select(['storedName', 'status']).where('id', '=', share.exportJobId).where('companyId', '=', share.companyId).executeTakeFirst();
    if (job?.status === 'done' && job.storedName) file = path.join(exportsFolder(dataDir, share.companyId), path.basename(job.storedName));
  }
  return file && fs.existsSync(file) ? file : null;
}

/** The shared file opened for reading (the handle is taken before the download is counted). */
export async function openSharedFile(file: string): Promise<ReadStream | null> {
  try {
    const fh = await fs.promises.open(file, 'r');
    return fh.createReadStream();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}
