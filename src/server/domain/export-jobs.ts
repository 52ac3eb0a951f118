// The export centre (导出中心): any export code the caller may call, run in the background. Starting a
// job checks the code (a file export of the catalog), the caller's right to it and its body (the same
// body the synchronous export takes), records the job and answers at once; this process then runs the
// export's own handler and writes its file under DATA_DIR/exports/<company>/. The list shows the caller's
// own jobs; only the account (and company) that asked may download the file.
//
// A job is worked on by the process that accepted it. While it waits or runs, that process touches its
// heartbeat; a queued or running job whose heartbeat stopped (the process exited or restarted) is marked
// failed the next time its owner lists the jobs, so nothing stays "running" forever.
//
// Finished jobs and their files are kept EXPORT_RETENTION_DAYS (export-retention.ts sweeps them); the list
// tells when each goes (expiresAt).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import ExcelJS from 'exceljs';
import type { EndpointEntry, Family } from '../../core/catalog.ts';
import { holdsRight } from '../auth/caller.ts';
import type { CallContext, OpHandler } from '../catalog/context.ts';
import { Tenant } from '../catalog/tenant.ts';
import { validateInput } from '../catalog/validate-input.ts';
import type { DB } from '../db/connection.ts';
import { ApiError, bizError } from '../http/errors.ts';
import { FileResponse, XLSX_TYPE } from '../http/file-response.ts';
import { writeErrorLog } from '../http/logs.ts';
import { expiresAt } from './export-retention.ts';
import { TypedTenant } from '../db/typed.ts';

type Row = Record<string, unknown>;

export const JOB_STATUS = { queued: '排队中', running: '导出中', done: '已完成', failed: '失败' } as const;
export type JobStatus = keyof typeof JOB_STATUS;

/** Jobs one process runs at the same time; the others wait their turn (queued). */
const MAX_RUNNING = 2;
/** Unfinished jobs one account may have. */
const MAX_OPEN_PER_ACCOUNT = 5;
const HEARTBEAT_MS = 20_000;
/** A queued or running job whose heartbeat is older than this has lost its process. */
export const STALE_MS = 120_000;
const INTERRUPTED = '任务中断（服务重启或进程退出），请重新导出';

/** This process, as recorded on the jobs it works on. */
const RUNNER = crypto.randomBytes(8).toString('hex');

export const START_INPUT = {
  type: 'object',
  required: ['api'],
  properties: {
    api: { type: 'string', pattern: '^(cdm|oms):\\d{6}$', title: '导出接口' },
    body: { type: ['object', 'null'], title: '导出条件' },
  },
};

export const JOB_LIST_INPUT = {
  type: 'object',
  properties: {
    page: { type: 'integer', minimum: 1, maximum: 100_000, default: 1, title: '页码' },
    pageSize: { type: 'integer', minimum: 1, maximum: 200, default: 20, title: '每页条数' },
    status: { enum: [...Object.keys(JOB_STATUS), null], title: '状态' },
  },
};

export const JOB_ID_INPUT = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, title: '导出任务' } } };

export interface StartInput {
  api: string;
  body?: Record<string, unknown> | null;
}

export interface JobListInput {
  page: number;
  pageSize: number;
  status?: JobStatus | null;
}

/** What the export centre needs from the server: the catalog entry of a code and its handler. */
export interface ExportTargets {
  entry(family: Family, code: string): EndpointEntry | undefined;
  handler(entry: EndpointEntry): OpHandler | undefined;
}

/** A catalog code the export centre runs: a file download whose name says it is an export (导出…). */
export function isExportEntry(entry: EndpointEntry): boolean {
  return entry.response === 'file' && entry.body === 'json' && entry.name.startsWith('导出');
}

const now = () => new Date().toISOString();
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v ?? {})) as T;

// ------------------------------------------------------------------------------------------ the queue

interface Work {
  id: number;
  db: DB;
  run(): Promise<void>;
}

const waiting: Work[] = [];
const active = new Map<number, Work>();
let running = 0;
let heartbeat: ReturnType<typeof setInterval> | null = null;
/** Settles when no job of this process is left (tests wait on it before closing the database). */
let idle: { promise: Promise<void>; resolve(): void } | null = null;

function beat(): void {
  const byDb = new Map<DB, number[]>();
  for (const w of active.values()) byDb.set(w.db, [...(byDb.get(w.db) ?? []), w.id]);
  for (const [db, ids] of byDb) {
    void db.updateTable('exportJob').set({ heartbeatAt: now() }).where('id', 'in', ids).where('runner', '=', RUNNER)
      .execute().catch(() => undefined);
  }
}

function enqueue(w: Work): void {
  active.set(w.id, w);
  waiting.push(w);
  if (!heartbeat) {
    heartbeat = setInterval(beat, HEARTBEAT_MS);
    heartbeat.unref?.();
  }
  // After the answer has gone out: the export is the background's business.
  setImmediate(pump);
}

function pump(): void {
  while (running < MAX_RUNNING && waiting.length) {
    const w = waiting.shift()!;
    running++;
    void w.run().catch((e) => console.error('[export job]', w.id, e)).finally(() => {
      running--;
      active.delete(w.id);
      if (!active.size) {
        if (heartbeat) clearInterval(heartbeat);
        heartbeat = null;
        idle?.resolve();
        idle = null;
      }
      pump();
    });
  }
}

/** Resolves once every job this process accepted has finished (done or failed). */
export function exportJobsIdle(): Promise<void> {
  if (!active.size) return Promise.resolve();
  if (!idle) {
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    idle = { promise, resolve };
  }
  return idle.promise;
}

// ------------------------------------------------------------------------------------------- starting

function parseApi(api: string): { family: Family; code: string } {
  const [family, code] = api.split(':') as [Family, string];
  return { family, code };
}

export async function startExportJob(ctx: CallContext, targets: ExportTargets, input: StartInput) {
  const caller = ctx.caller!;
  const { family, code } = parseApi(input.api);
  const entry = targets.entry(family, code);
  if (!entry || !isExportEntry(entry)) throw bizError('EXPORT_NOT_EXPORT_CODE_4181', { api: input.api });
  if (!holdsRight(caller, entry.permission)) throw bizError('COMMON_NO_RIGHT_4003', { name: entry.name });
  const handler = targets.handler(entry);
  if (!handler) throw bizError('EXPORT_NOT_EXPORT_CODE_4181', { api: input.api });
  const body = input.body ?? {};
  // Bad conditions are refused now, the way the synchronous export would refuse them.
  validateInput(handler.input, clone(body));

  const tenant = TypedTenant.of(ctx.tenant);
  const open = await tenant.select('exportJob').select((eb) => eb.fn.countAll().as('n'))
    .where('accountId', '=', caller.accountId).where('status', 'in', ['queued', 'running']).executeTakeFirst();
  if (Number(open?.n ?? 0) >= MAX_OPEN_PER_ACCOUNT) throw bizError('EXPORT_JOB_BUSY_4184', { count: Number(open?.n) });

  const at = now();
  const inserted = await tenant.insert('exportJob', {
    accountId: caller.accountId, family, code, name: entry.name, body: JSON.stringify(body),
    status: 'queued', runner: RUNNER, createdAt: at, heartbeatAt: at,
  }).returning('id').executeTakeFirstOrThrow();
  const id = Number(inserted.id);
  const jobCtx = contextFor(ctx, family, entry);
  enqueue({ id, db: ctx.database.db, run: () => runJob(jobCtx, id, handler, body) });
  return { id, name: entry.name, status: 'queued', statusText: JOB_STATUS.queued };
}

/** The export's own call context: the same caller and company, the export's catalog entry, no request. */
function contextFor(ctx: CallContext, family: Family, entry: EndpointEntry): CallContext {
  const tenant = new Tenant(ctx.database.db, ctx.caller!.company.id);
  return {
    family, entry, database: ctx.database, db: ctx.database.db, config: ctx.config, ip: ctx.ip, userAgent: ctx.userAgent,
    headers: {}, query: {}, token: null, caller: ctx.caller, tenant, documents: ctx.documents,
    transaction: ctx.transaction, audit: ctx.audit,
  };
}

// -------------------------------------------------------------------------------------------- running

/** Where a company's export files lie: DATA_DIR/exports/<company id>/. */
export function exportsFolder(dataDir: string, companyId: number): string {
  return path.join(dataDir, 'exports', String(companyId));
}

function exportsDir(ctx: CallContext): string {
  return exportsFolder(ctx.config.dataDir, ctx.caller!.company.id);
}

async function runJob(ctx: CallContext, id: number, handler: OpHandler, body: Record<string, unknown>): Promise<void> {
  const db = ctx.database.db;
  const started = await db.updateTable('exportJob').set({ status: 'running', startedAt: now(), heartbeatAt: now(), runner: RUNNER })
    .where('id', '=', id).where('status', '=', 'queued').executeTakeFirst();
  if (Number(started.numUpdatedRows) !== 1) return;
  const dir = exportsDir(ctx);
  let tmp: string | null = null;
  try {
    const result = await handler.run(ctx, validateInput(handler.input, clone(body)));
    if (!(result instanceof FileResponse)) throw new Error(`${ctx.family}:${ctx.entry.code} did not answer a file`);
    fs.mkdirSync(dir, { recursive: true });
    const ext = path.extname(result.fileName).slice(0, 10) || (result.contentType === XLSX_TYPE ? '.xlsx' : '');
    const storedName = `${id}-${crypto.randomBytes(6).toString('hex')}${ext}`;
    tmp = path.join(dir, `${storedName}.part`);
    if (Buffer.isBuffer(result.body)) await fs.promises.writeFile(tmp, result.body);
    else await pipeline(result.body, fs.createWriteStream(tmp));
    const rowCount = ext === '.xlsx' ? await countRows(tmp) : null;
    await fs.promises.rename(tmp, path.join(dir, storedName));
    tmp = null;
    const size = (await fs.promises.stat(path.join(dir, storedName))).size;
    await db.updateTable('exportJob').set({
      status: 'done', fileName: result.fileName, contentType: result.contentType, storedName, rowCount, fileSize: size,
      finishedAt: now(), heartbeatAt: now(),
    }).where('id', '=', id).where('status', '=', 'running').where('runner', '=', RUNNER).execute();
  } catch (e) {
    if (tmp) await fs.promises.rm(tmp, { force: true }).catch(() => undefined);
    const message = e instanceof ApiError ? e.message : `导出失败，请联系管理员（错误编号 ${await writeErrorLog(db, {
      companyId: ctx.caller!.company.id, accountId: ctx.caller!.accountId, method: 'JOB', url: `export job ${id} ${ctx.family}:${ctx.entry.code}`, error: e,
    })}）`;
    await db.updateTable('exportJob').set({ status: 'failed', error: message.slice(0, 2000), finishedAt: now(), heartbeatAt: now() })
      .where('id', '=', id).where('status', '=', 'running').where('runner', '=', RUNNER).execute().catch(() => undefined);
  }
}

function cellText(v: ExcelJS.CellValue | undefined): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object' && 'richText' in v && Array.isArray(v.richText)) return v.richText.map((t) => t.text).join('');
  return String(v);
}

/**
 * Data rows of the first sheet: the rows under the header, without a closing totals line (a report's
 * 合计 row is not a data row). Read back from the file as written, streaming.
 */
export async function countRows(file: string): Promise<number> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, { worksheets: 'emit', sharedStrings: 'cache', hyperlinks: 'ignore', styles: 'ignore', entries: 'ignore' });
  let sheets = 0;
  let rows = 0;
  let lastIsTotal = false;
  for await (const ws of reader) {
    sheets++;
    for await (const row of ws as AsyncIterable<ExcelJS.Row>) {
      if (sheets !== 1 || row.number === 1) continue;
      rows++;
      lastIsTotal = cellText(row.getCell(1).value) === '合计';
    }
  }
  return rows - (lastIsTotal ? 1 : 0);
}

// ----------------------------------------------------------------------------------- listing, download

/** A file size as people read it: 812 B, 12.5 KB, 3.2 MB. */
export function sizeText(bytes: number | null): string | null {
  if (bytes === null) return null;
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function expose(r: Row, retentionDays: number) {
  const status = String(r.status) as JobStatus;
  const fileSize = r.fileSize === null || r.fileSize === undefined ? null : Number(r.fileSize);
  return {
    id: Number(r.id), api: `${String(r.family)}:${String(r.code)}`, name: String(r.name), status, statusText: JOB_STATUS[status] ?? status,
    fileName: r.fileName ?? null, rowCount: r.rowCount === null || r.rowCount === undefined ? null : Number(r.rowCount),
    fileSize, fileSizeText: sizeText(fileSize), error: r.error ?? null,
    createdAt: String(r.createdAt), startedAt: r.startedAt ?? null, finishedAt: r.finishedAt ?? null,
    // when the sweep removes the job (and its file); null while unfinished or when files are kept
    expiresAt: expiresAt(r.finishedAt, retentionDays),
  };
}

/** Jobs of the caller whose process went away: failed, by a conditional update (another reader may race). */
async function failOrphans(ctx: CallContext): Promise<void> {
  const before = new Date(Date.now() - STALE_MS).toISOString();
  const stale = await TypedTenant.of(ctx.tenant).select('exportJob').select(['id', 'heartbeatAt'])
    .where('accountId', '=', ctx.caller!.accountId).where('status', 'in', ['queued', 'running']).where('heartbeatAt', '<', before).execute();
  for (const j of stale) {
    if (active.has(Number(j.id))) continue;
    await ctx.tenant.update('exportJob').set({ status: 'failed', error: INTERRUPTED, finishedAt: now() })
      .where('id', '=', Number(j.id)).where('status', 'in', ['queued', 'running']).where('heartbeatAt', '=', String(j.heartbeatAt)).execute();
  }
}

export async function listExportJobs(ctx: CallContext, input: JobListInput) {
  await failOrphans(ctx);
  let q = TypedTenant.of(ctx.tenant).select('exportJob').where('accountId', '=', ctx.caller!.accountId);
  if (input.status) q = q.where('status', '=', input.status);
  const counted = await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
  const rows = await q.selectAll().orderBy('id', 'desc').limit(input.pageSize).offset((input.page - 1) * input.pageSize).execute();
  return { list: rows.map((r) => expose(r, ctx.config.exportRetentionDays)), total: Number(counted?.n ?? 0), page: input.page, pageSize: input.pageSize };
}

/**
 * The caller's own job; another account's (or company's) job is answered as not existing. A download
 * of a job that is not there says the job may have been swept (the list the user clicked may be older).
 */
async function ownJob(ctx: CallContext, id: number, forDownload = false): Promise<Row> {
  const job = await TypedTenant.of(ctx.tenant).select('exportJob').selectAll().where('id', '=', id).where('accountId', '=', ctx.caller!.accountId)
    .executeTakeFirst();
  if (job) return job;
  const days = ctx.config.exportRetentionDays;
  if (forDownload && days) throw bizError('EXPORT_JOB_EXPIRED_4185', { days }, { id, retentionDays: days });
  throw bizError('COMMON_NOT_FOUND_4004', { entity: '导出任务' });
}

export async function downloadExportJob(ctx: CallContext, id: number): Promise<FileResponse> {
  const job = await ownJob(ctx, id, true);
  const status = String(job.status) as JobStatus;
  if (status !== 'done') throw bizError('EXPORT_JOB_NOT_READY_4182', { name: String(job.name), status: JOB_STATUS[status] ?? status, action: '下载' });
  const file = path.join(exportsDir(ctx), path.basename(String(job.storedName ?? '')));
  if (!job.storedName || !fs.existsSync(file)) throw bizError('EXPORT_FILE_GONE_4183', { name: String(job.name) });
  return new FileResponse(String(job.fileName ?? path.basename(file)), String(job.contentType ?? 'application/octet-stream'), fs.createReadStream(file));
}

/** Removes a finished job and its file (the caller's own only). */
export async function removeExportJob(ctx: CallContext, id: number) {
  const job = await ownJob(ctx, id);
  const res = await ctx.tenant.delete('exportJob').where('id', '=', id).where('status', 'in', ['done', 'failed']).executeTakeFirst();
  if (Number(res.numDeletedRows) !== 1) throw bizError('EXPORT_JOB_NOT_READY_4182', { name: String(job.name), status: JOB_STATUS[String(job.status) as JobStatus] ?? String(job.status), action: '删除' });
  if (job.storedName) await fs.promises.rm(path.join(exportsDir(ctx), path.basename(String(job.storedName))), { force: true });
  return { removed: 1 };
}
