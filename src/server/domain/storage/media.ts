// Media (uploaded files) of a company, behind 980107 upload and 980106 image read (ops/storage-ops.ts binds
// them). Uploads are typed by their bytes, stored under random names in `${dataDir}/media/`, and recorded in
// `media` for the caller's company; reads go through the caller's company scope, so another company's id
// behaves exactly like an id that does not exist.
import crypto from 'node:crypto';
import fs from 'node:fs';
import type { MultipartFile } from '@fastify/multipart';
import type { CallContext } from '../../catalog/context.ts';
import { nowIso } from '../../db/connection.ts';
import { TypedTenant } from '../../db/typed.ts';
import { bizError } from '../../http/errors.ts';
import { FileResponse } from '../../http/file-response.ts';
import { ImageDecodeError, mediaStore } from '../../storage/media-store.ts';
import { DEFAULT_IMAGE_SIZE, formatBytes, IMAGE_SIZES, mediaDisplayName, newMediaId, newStoredName, parseMediaParam, sanitizeOriginalName } from '../../storage/names.ts';
import { ALLOWED_DESCRIPTION, GIF, JPEG, PDF, PNG, sniffType, WEBP, XLS, XLSX, type SniffedType } from '../../storage/sniff.ts';

// Media never changes under its id and the URL carries the caller's token: a day in the browser's cache is safe.
const IMAGE_CACHE = 'private, max-age=86400';

export interface UploadResult {
  mediaId: string;
  mime: string;
  size: number;
  width: number | null;
  height: number | null;
  originalName: string | null;
}

const BY_MIME = new Map<string, SniffedType>([PNG, JPEG, GIF, WEBP, PDF, XLSX, XLS].map((t) => [t.mime, t]));

const tooLarge = (max: number) => bizError('STORAGE_SIZE_4042', { max: formatBytes(max) });
const notExist = () => bizError('STORAGE_NOT_EXIST_4043');
/** Errors while parsing the request body (no boundary, cut short, aborted) are the client's, not ours. */
const badMultipart = () => bizError('COMMON_BAD_REQUEST_4001', { detail: '上传内容不完整或格式错误' });

/**
 * Reads the uploaded part into memory, never more than `max` bytes. @fastify/multipart stops the stream
 * at its fileSize limit (the same config value) and marks it truncated; either way the upload is refused
 * before anything touches the disk or the table.
 */
async function readCapped(part: MultipartFile, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  let over = false;
  try {
    for await (const chunk of part.file as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > max) over = true;
      // Keep reading to the end of the part (busboy discards the rest), but keep nothing more.
      if (!over) chunks.push(chunk);
    }
  } catch (e) {
    if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(max);
    throw badMultipart();
  }
  if (over || part.file.truncated) throw tooLarge(max);
  return Buffer.concat(chunks, total);
}

/** 980107: stores the uploaded file (one part) for the caller's company. */
export async function uploadMedia(ctx: CallContext): Promise<UploadResult> {
  const max = ctx.config.uploadMaxBytes;
  let part: MultipartFile | undefined;
  try {
    part = ctx.file ? await ctx.file() : undefined;
  } catch (e) {
    if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(max);
    throw badMultipart();
  }
  if (!part) throw bizError('STORAGE_EMPTY_4045');
  const body = await readCapped(part, max);
  if (body.length === 0) throw bizError('STORAGE_EMPTY_4045');
  const type = sniffType(body);
  if (!type) throw bizError('STORAGE_TYPE_4041', { allowed: ALLOWED_DESCRIPTION });

  const store = mediaStore(ctx.config.dataDir);
  let width: number | null = null;
  let height: number | null = null;
  if (type.kind === 'image') {
    try {
      ({ width, height } = await store.imageInfo(body, type));
    } catch (e) {
      if (e instanceof ImageDecodeError) throw bizError('STORAGE_DAMAGED_4047');
      throw e;
    }
  }
  const caller = ctx.caller!;
  const mediaId = newMediaId();
  const storedName = newStoredName(type.ext);
  const originalName = sanitizeOriginalName(part.filename);
  const sha256 = crypto.createHash('sha256').update(body).digest('hex');

  await store.writeOriginal(storedName, body);
  try {
    // Rendering the default thumbnail decodes the whole image (a truncated or corrupt file fails here,
    // not when a list first shows it) and warms the cache for the size lists use.
    if (type.kind === 'image') await store.scaled(storedName, type.sharpFormat!, DEFAULT_IMAGE_SIZE);
    await ctx.transaction(async (db, tenant) => {
      await TypedTenant.of(tenant).insert('media', {
        id: mediaId, mime: type.mime, ext: type.ext, size: body.length, sha256, originalName, storedName,
        width, height, createdAt: nowIso(), createdBy: caller.accountId,
      }).execute();
      await ctx.audit({ action: 'create', entity: 'media', recordId: mediaId, recordLabel: originalName }, db);
    });
  } catch (e) {
    await store.remove(storedName).catch(() => undefined);
    if (e instanceof ImageDecodeError) throw bizError('STORAGE_DAMAGED_4047');
    throw e;
  }
  return { mediaId, mime: type.mime, size: body.length, width, height, originalName };
}

async function openStream(file: string) {
  try {
    const fh = await fs.promises.open(file, 'r');
    return fh.createReadStream();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw notExist();
    throw e;
  }
}

/** 980106: the original file, or an image scaled to one of IMAGE_SIZES, by `mediaId` (id or id_size). */
export async function mediaImage(ctx: CallContext): Promise<FileResponse> {
  const param = parseMediaParam((ctx.query as Record<string, unknown>).mediaId);
  if (!param.ok) {
    if (param.reason === 'size') throw bizError('STORAGE_SIZE_PARAM_4044', { allowed: IMAGE_SIZES.join('、') + '（0 为原图）' });
    throw notExist();
  }
  const row = await TypedTenant.of(ctx.tenant).select('media')
    .select(['media.id', 'media.mime', 'media.ext', 'media.storedName', 'media.originalName'])
    .where('media.id', '=', param.id)
    .executeTakeFirst();
  if (!row) throw notExist();
  const type = BY_MIME.get(row.mime);
  if (!type) throw notExist();
  const store = mediaStore(ctx.config.dataDir);
  const original = store.pathOf(row.storedName);
  // Images show inline (lists and <img>); anything else — a PDF may carry JavaScript — is a download, so
  // the browser never opens it as a page of this origin.
  const inline = type.kind === 'image';

  if (param.size === 0) return new FileResponse(mediaDisplayName(row), type.mime, await openStream(original), inline, IMAGE_CACHE);
  if (type.kind !== 'image') throw bizError('STORAGE_NOT_IMAGE_4046');
  if (!fs.existsSync(original)) throw notExist();
  try {
    const scaled = await store.scaled(row.storedName, type.sharpFormat!, param.size);
    return new FileResponse(mediaDisplayName(row, scaled.ext), scaled.mime, await fs.promises.readFile(scaled.file), true, IMAGE_CACHE);
  } catch (e) {
    if (e instanceof ImageDecodeError) throw bizError('STORAGE_DAMAGED_4047');
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw notExist();
    throw e;
  }
}
