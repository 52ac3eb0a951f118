// 批量导出 (exportAll): several reports exported in one background job of the export centre. The user picks
// reports and a date range; oms 023110 starts one job of oms 023111, which runs each report's own export
// (the code its screen schema names as api.export, with its default grouping and the date range when the
// report filters by dates), each as the caller — who must hold that export's right — and answers one .zip
// holding every workbook. Which reports may be picked is the list below; the rest is read from their schemas.
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import JSZip from 'jszip';
import type { Family } from '../../../core/catalog.ts';
import { holdsRight } from '../../auth/caller.ts';
import { SCHEMAS_DIR } from '../../catalog/load-catalog.ts';
import type { CallContext } from '../../catalog/context.ts';
import { validateInput } from '../../catalog/validate-input.ts';
import { FileResponse } from '../../http/file-response.ts';
import { ApiError, bizError, validationError, type FieldError } from '../../http/errors.ts';
import { fileDate } from '../../files/xlsx.ts';
import { startExportJob, type ExportTargets } from '../export-jobs.ts';
import { tz } from '../procurement/common.ts';
import { DATE_RANGE_INPUT, dayRange } from './common.ts';

/** The reports a batch may hold (screen file names under schemas/screens/reportForms/). */
export const BATCH_REPORTS = ['sale', 'clapper', 'summaryAll', 'preSale_report', 'purchase_new', 'storage', 'makeBallot', 'receivable', 'dealWith', 'finance', 'direct_selling', 'other', 'app'] as const;

export const EXPORT_ALL_INPUT = {
  type: 'object',
  required: ['reports'],
  properties: {
    reports: { type: 'array', minItems: 1, maxItems: BATCH_REPORTS.length, uniqueItems: true, items: { enum: [...BATCH_REPORTS] }, title: '报表' },
    dateRange: DATE_RANGE_INPUT,
  },
};

export interface ExportAllInput {
  reports: string[];
  dateRange?: unknown;
}

interface Screen {
  title: string;
  api?: { list?: string; export?: string };
  groupings?: Array<{ value: string }>;
  defaultGrouping?: string;
  filters?: Array<{ field: string }>;
}

const screens = new Map<string, Screen>();
function screenOf(name: string): Screen {
  let s = screens.get(name);
  if (!s) {
    s = JSON.parse(fs.readFileSync(path.join(SCHEMAS_DIR, 'screens', 'reportForms', `${name}.json`), 'utf8')) as Screen;
    screens.set(name, s);
  }
  return s;
}

/** One report's export (or its page query): catalog entry, handler and body; refused when the caller may not run it. */
function plan(ctx: CallContext, targets: ExportTargets, name: string, input: ExportAllInput, api: 'export' | 'list' = 'export') {
  const s = screenOf(name);
  const [family, code] = String(s.api?.[api] ?? '').split(':') as [Family, string];
  const entry = targets.entry(family, code);
  const handler = entry && targets.handler(entry);
  if (!entry || !handler) throw validationError([{ field: 'reports', message: `报表“${s.title}”不能导出` }]);
  if (!holdsRight(ctx.caller!, entry.permission)) throw bizError('COMMON_NO_RIGHT_4003', { name: entry.name });
  const body: Record<string, unknown> = { groupBy: s.defaultGrouping ?? s.groupings?.[0]?.value };
  if (s.filters?.some((f) => f.field === 'dateRange') && input.dateRange) body.filters = { dateRange: input.dateRange };
  return { family, entry, handler, body };
}

/**
 * Each report's own query asked for one row with the batch's filters: what the report would refuse (a range
 * longer than it allows, say) is refused now, naming the report, and not when the job runs later.
 */
async function checkReport(ctx: CallContext, targets: ExportTargets, name: string, input: ExportAllInput): Promise<void> {
  const q = plan(ctx, targets, name, input, 'list');
  try {
    await q.handler.run({ ...ctx, family: q.family, entry: q.entry }, validateInput(q.handler.input, JSON.parse(JSON.stringify({ ...q.body, page: 1, pageSize: 1 }))));
  } catch (e) {
    if (e instanceof ApiError && e.code === 'COMMON_VALIDATION_4000') {
      const errors = ((e.data as { errors?: FieldError[] } | null)?.errors ?? [{ field: 'dateRange', message: e.message }]).map((f) => ({ field: f.field, message: `报表“${screenOf(name).title}”：${f.message}` }));
      throw validationError(errors);
    }
    throw e;
  }
}

/** Starts the batch in the export centre (checked now: the dates, the reports, the rights, each report's own limits). */
export async function startExportAll(ctx: CallContext, targets: ExportTargets, input: ExportAllInput) {
  dayRange(input.dateRange, tz(ctx));
  for (const name of input.reports) plan(ctx, targets, name, input);
  for (const name of input.reports) await checkReport(ctx, targets, name, input);
  return startExportJob(ctx, targets, { api: 'oms:023111', body: { reports: input.reports, dateRange: input.dateRange ?? null } });
}

async function bufferOf(body: Buffer | Readable): Promise<Buffer> {
  if (Buffer.isBuffer(body)) return body;
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c as Uint8Array));
  return Buffer.concat(chunks);
}

/** The batch itself: each report's workbook in one .zip. */
export async function exportAll(ctx: CallContext, targets: ExportTargets, input: ExportAllInput): Promise<FileResponse> {
  dayRange(input.dateRange, tz(ctx));
  const zip = new JSZip();
  for (const name of input.reports) {
    const p = plan(ctx, targets, name, input);
    const result = await p.handler.run({ ...ctx, family: p.family, entry: p.entry }, validateInput(p.handler.input, JSON.parse(JSON.stringify(p.body))));
    if (!(result instanceof FileResponse)) throw new Error(`${p.family}:${p.entry.code} did not answer a file`);
    zip.file(result.fileName, await bufferOf(result.body));
  }
  const out = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
  return new FileResponse(`批量导出_${fileDate(tz(ctx))}.zip`, 'application/zip', out);
}
