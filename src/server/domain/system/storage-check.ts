// 文件完整性检查 (cdm 019810–019811): the uploaded files (DATA_DIR/media/) against their `media` records.
// For the caller's company: records whose file is missing, and files whose size or SHA-256 no longer match
// the record. For the store as a whole: orphan files — originals in media/ that no record of any company
// names (older than ORPHAN_GRACE_MS, so an upload being written is never one); they carry no company and
// nothing of their content is shown, and only to the companies that run the installation (auth/operator.ts):
// another company's administrator learns nothing about the store's other files. The repair moves orphans into media/orphaned/<date>/ (kept, not
// deleted: an administrator can put one back or delete the folder).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import { TypedTenant, typed } from '../../db/typed.ts';

export const ORPHAN_GRACE_MS = 10 * 60_000;
const SKIP = new Set(['cache', 'tmp', 'orphaned']);

export interface StorageProblem {
  key: string;
  kind: 'missing' | 'mismatch' | 'orphan';
  mediaId: string | null;
  storedName: string;
  originalName: string | null;
  expected: string | null;
  found: string | null;
  createdAt: string | null;
}

const mediaRoot = (ctx: CallContext) => path.join(ctx.config.dataDir, 'media');

function sha256Of(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = crypto.createHash('sha256');
    fs.createReadStream(file).on('data', (d) => hash.update(d)).on('end', () => resolve(hash.digest('hex'))).on('error', reject);
  });
}

async function orphans(ctx: CallContext): Promise<Array<{ name: string; size: number; mtime: string }>> {
  const root = mediaRoot(ctx);
  if (!fs.existsSync(root)) return [];
  const entries = await fs.promises.readdir(root, { withFileTypes: true });
  const files = entries.filter((e) => e.isFile() && !SKIP.has(e.name)).map((e) => e.name);
  const named = new Set<string>();
  for (let i = 0; i < files.length; i += 500) {
    const chunk = files.slice(i, i + 500);
    for (const r of await typed(ctx.db).selectFrom('media').select('storedName').where('storedName', 'in', chunk).execute()) named.add(String(r.storedName));
  }
  const out = [];
  const before = Date.now() - ORPHAN_GRACE_MS;
  for (const name of files) {
    if (named.has(name)) continue;
    const st = await fs.promises.stat(path.join(root, name)).catch(() => null);
    if (st && st.mtimeMs < before) out.push({ name, size: st.size, mtime: new Date(st.mtimeMs).toISOString() });
  }
  return out;
}

export const CHECK_INPUT: InputSchema = {
  type: 'object',
  properties: {
    page: { type: 'integer', minimum: 1, default: 1, title: '页码' },
    pageSize: { type: 'integer', minimum: 1, maximum: 1000, default: 50, title: '每页条数' },
    kind: { type: ['string', 'null'], enum: ['missing', 'mismatch', 'orphan', null], title: '问题' },
  },
};

export async function checkStorage(ctx: CallContext, input: { page: number; pageSize: number; kind?: string | null }) {
  const root = mediaRoot(ctx);
  const rows = await TypedTenant.of(ctx.tenant).select('media').select(['id', 'storedName', 'originalName', 'size', 'sha256', 'createdAt']).orderBy('createdAt').execute();
  const problems: StorageProblem[] = [];
  for (const r of rows) {
    const file = path.join(root, path.basename(String(r.storedName)));
    const base = { mediaId: String(r.id), storedName: String(r.storedName), originalName: r.originalName ?? null, createdAt: String(r.createdAt) };
    const st = await fs.promises.stat(file).catch(() => null);
    if (!st) {
      problems.push({ key: `missing:${base.mediaId}`, kind: 'missing', ...base, expected: `${Number(r.size)} 字节`, found: null });
      continue;
    }
    if (st.size !== Number(r.size)) {
      problems.push({ key: `mismatch:${base.mediaId}`, kind: 'mismatch', ...base, expected: `${Number(r.size)} 字节`, found: `${st.size} 字节` });
      continue;
    }
    const sha = await sha256Of(file);
    if (sha !== String(r.sha256)) problems.push({ key: `mismatch:${base.mediaId}`, kind: 'mismatch', ...base, expected: `SHA-256 ${String(r.sha256).slice(0, 16)}…`, found: `SHA-256 ${sha.slice(0, 16)}…` });
  }
  for (const o of ctx.caller!.company.operator ? await orphans(ctx) : []) {
    problems.push({ key: `orphan:${o.name}`, kind: 'orphan', mediaId: null, storedName: o.name, originalName: null, expected: null, found: `${o.size} 字节，${o.mtime.slice(0, 19).replace('T', ' ')}`, createdAt: null });
  }
  const counts = { missing: 0, mismatch: 0, orphan: 0 };
  for (const p of problems) counts[p.kind]++;
  const shown = input.kind ? problems.filter((p) => p.kind === input.kind) : problems;
  return {
    list: shown.slice((input.page - 1) * input.pageSize, input.page * input.pageSize), total: shown.length, page: input.page, pageSize: input.pageSize,
    checked: rows.length, ...counts,
  };
}

/** Moves every orphan file into media/orphaned/<YYYY-MM-DD>/ ; answers how many and where. */
export async function repairOrphans(ctx: CallContext) {
  const root = mediaRoot(ctx);
  const found = await orphans(ctx);
  const dir = path.join(root, 'orphaned', new Date().toISOString().slice(0, 10));
  if (found.length) await fs.promises.mkdir(dir, { recursive: true });
  let moved = 0;
  for (const o of found) {
    // checked again just before: a record written since the list was read keeps its file
    const named = await ctx.db.selectFrom('media').select('id').where('storedName', '=', o.name).executeTakeFirst();
    if (named) continue;
    await fs.promises.rename(path.join(root, o.name), path.join(dir, o.name));
    moved++;
  }
  return { moved, folder: moved ? path.relative(ctx.config.dataDir, dir) : null };
}
