// Spreadsheets in and out.
// Out: a streaming .xlsx writer (exceljs WorkbookWriter) behind a FileResponse; every text cell is an
// inline string, so text that looks like a formula (=, +, -, @) stays text — no cell is ever a formula.
// In: an uploaded .xlsx or legacy .xls, checked by extension and magic bytes, read by SheetJS in a worker
// thread within fixed limits (size inflated, rows, columns) into rows of plain cell values with their
// spreadsheet row numbers, the text numbers are shown as, and the sheet's merged ranges.
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { Worker } from 'node:worker_threads';
import ExcelJS from 'exceljs';
import type { CallContext } from '../catalog/context.ts';
import { bizError } from '../http/errors.ts';
import { FileResponse, XLSX_TYPE } from '../http/file-response.ts';

// ---------------------------------------------------------------------------------------------- writing

export interface XlsxColumn {
  header: string;
  /** width in characters (default from the header length) */
  width?: number;
  /** Excel number format for numeric cells, e.g. '0.00' */
  numFmt?: string;
  /** header shown in red (e.g. required import columns) */
  highlight?: boolean;
}

export type XlsxCell = string | number | boolean | Date | null | undefined;

export interface XlsxSheet {
  addRow(values: readonly XlsxCell[]): void;
}

export interface XlsxBook {
  addSheet(name: string, columns: readonly XlsxColumn[]): XlsxSheet;
  /** Waits while the client has not taken what was written (call between pages of a long export). */
  drain(): Promise<void>;
}

/** Text Excel would start evaluating when typed; written as text with the text number format. */
export const FORMULA_START = /^[=+\-@\t\r]/;

function headerWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += ch.charCodeAt(0) > 0xff ? 2 : 1;
  return Math.min(60, Math.max(10, w + 2));
}

/** YYYYMMDD in the given time zone (hours), for file names. */
export function fileDate(tzHours = 8, at = new Date()): string {
  const d = new Date(at.getTime() + tzHours * 3_600_000);
  return `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}${String(d.getUTCDate()).padStart(2, '0')}`;
}

/**
 * A streamed .xlsx download. `write` runs after the response has started: do every check that should
 * become a JSON error before calling this. If `write` fails, the download is cut off (and logged).
 */
export function xlsxDownload(fileName: string, write: (book: XlsxBook) => Promise<void>): FileResponse {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const book: XlsxBook = {
    addSheet(name, columns) {
      const ws = workbook.addWorksheet(name.replace(/[\\/?*[\]:]/g, '_').slice(0, 31) || 'Sheet1', { views: [{ state: 'frozen', ySplit: 1 }] });
      ws.columns = columns.map((c, i) => ({ key: `c${i}`, width: c.width ?? headerWidth(c.header), style: c.numFmt ? { numFmt: c.numFmt } : {} }));
      const header = ws.getRow(1);
      columns.forEach((c, i) => {
        const cell = header.getCell(i + 1);
        cell.value = { richText: [{ text: c.header }] };
        cell.font = { bold: true, color: c.highlight ? { argb: 'FFC00000' } : undefined };
        cell.numFmt = '@';
      });
      header.commit();
      let rowNo = 1;
      return {
        addRow(values) {
          rowNo += 1;
          const row = ws.getRow(rowNo);
          values.forEach((v, i) => {
            if (v === null || v === undefined || v === '') return;
            const cell = row.getCell(i + 1);
            if (typeof v === 'string') {
              cell.value = { richText: [{ text: v }] };
              if (FORMULA_START.test(v)) cell.numFmt = '@';
            } else if (typeof v === 'number') {
              cell.value = Number.isFinite(v) ? v : null;
            } else if (typeof v === 'boolean' || v instanceof Date) {
              cell.value = v;
            } else {
              cell.value = { richText: [{ text: String(v) }] };
            }
          });
          row.commit();
        },
      };
    },
    async drain() {
      if (out.destroyed) throw new Error('下载已中断');
      if (out.readableLength > 1 << 20) await Promise.race([once(out, 'drain'), once(out, 'close')]);
      if (out.destroyed) throw new Error('下载已中断');
    },
  };
  (async () => {
    try {
      await write(book);
      await workbook.commit();
    } catch (e) {
      if (!out.destroyed) {
        console.error('[xlsx export failed]', fileName, e);
        out.destroy(e as Error);
      }
    }
  })();
  return new FileResponse(fileName, XLSX_TYPE, out);
}

/** A whole small workbook in memory (templates, tests). */
export async function xlsxBuffer(sheets: Array<{ name: string; columns: XlsxColumn[]; rows: XlsxCell[][] }>): Promise<Buffer> {
  const res = xlsxDownload('x.xlsx', async (book) => {
    for (const s of sheets) {
      const sheet = book.addSheet(s.name, s.columns);
      for (const r of s.rows) sheet.addRow(r);
    }
  });
  const chunks: Buffer[] = [];
  for await (const c of res.body as PassThrough) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

// ---------------------------------------------------------------------------------------------- reading

export type CellValue = string | number | boolean | Date | null;

export interface SheetRow {
  /** spreadsheet row number (1-based), as the user sees it */
  row: number;
  /** cell values by column, 0-based from column A */
  cells: CellValue[];
  /**
   * The text a number is shown as, where the cell has a number format of its own ("0000000" shows
   * 10001 as 0010001); absent when no cell of the row has one. Text columns read it: textAt().
   */
  texts?: Array<string | null>;
}

/** A merged range, 0-based rows and columns (inclusive). */
export interface MergedRange {
  s: { r: number; c: number };
  e: { r: number; c: number };
}

export interface SheetData {
  name: string;
  rows: SheetRow[];
  merges: MergedRange[];
}

export type SpreadsheetKind = 'xlsx' | 'xls';

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const OLE_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/**
 * What an uploaded workbook may hold. Data rows: every import takes at most 50,000 (MAX_IMPORT_ROWS);
 * the reader stops a little past that (blank rows above the header). Columns: templates have up to ~30.
 * Inflated: 50,000 rows × 30 columns of XML is ~40–60 MB; a 10 MB upload may inflate far more (380 MB
 * was seen), and parsing that froze the server and took ~4 GB.
 */
export const SPREADSHEET_LIMITS = {
  maxInflated: 100 * 1024 * 1024,
  maxRows: 50_000 + 100,
  maxColumns: 200,
  /** a worker still reading after this long is stopped */
  timeoutMs: 60_000,
  /** workers reading at once; further uploads wait their turn */
  concurrency: 2,
  /** heap of one reading worker */
  heapMb: 1024,
};

/** 'xlsx' / 'xls' when the extension and the first bytes agree; otherwise null. */
export function sniffSpreadsheet(buf: Buffer, fileName: string): SpreadsheetKind | null {
  const ext = /\.([a-z0-9]+)$/i.exec(fileName.trim())?.[1]?.toLowerCase();
  if (ext === 'xlsx' && buf.subarray(0, 4).equals(ZIP_MAGIC)) return 'xlsx';
  if (ext === 'xls' && buf.subarray(0, 8).equals(OLE_MAGIC)) return 'xls';
  return null;
}

/** The text a text column (codes, barcodes, HS codes) reads from a cell: as shown, whatever its type. */
export function textAt(line: SheetRow, index: number): string | null {
  const shown = line.texts?.[index];
  if (shown !== undefined && shown !== null) return shown;
  const c = line.cells[index];
  if (c === null || c === undefined) return null;
  if (c instanceof Date) return c.toISOString().slice(0, 10);
  if (typeof c === 'number' && Number.isInteger(c)) return BigInt(c).toString();
  return String(c);
}

type Refusal = { reason: 'inflated' | 'rows' | 'columns' | 'timeout' | 'unreadable'; column?: string };

function refusalError(r: Refusal) {
  const mb = Math.round(SPREADSHEET_LIMITS.maxInflated / 1024 / 1024);
  switch (r.reason) {
    case 'inflated': return bizError('COMMON_IMPORT_TOO_BIG_4018', { detail: `解压后超过 ${mb} MB` });
    case 'rows': return bizError('COMMON_IMPORT_TOO_BIG_4018', { detail: `超过 ${MAX_IMPORT_ROWS} 行` });
    case 'timeout': return bizError('COMMON_IMPORT_TOO_BIG_4018', { detail: `读取超过 ${SPREADSHEET_LIMITS.timeoutMs / 1000} 秒` });
    case 'columns': return bizError('COMMON_IMPORT_TOO_BIG_4018', { detail: `超过 ${SPREADSHEET_LIMITS.maxColumns} 列（${r.column ?? ''} 列有内容）` });
    default: return bizError('COMMON_IMPORT_FILE_4013');
  }
}

/** Data rows an import takes at most (every import). */
export const MAX_IMPORT_ROWS = 50_000;

let running = 0;
const waiting: Array<() => void> = [];

async function turn(): Promise<() => void> {
  if (running >= SPREADSHEET_LIMITS.concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  return () => {
    running--;
    waiting.shift()?.();
  };
}

/** Reads the workbook in a worker thread (spreadsheet-worker.mjs) within SPREADSHEET_LIMITS. */
async function readInWorker(buf: Buffer, kind: SpreadsheetKind): Promise<SheetData> {
  const done = await turn();
  try {
    const worker = new Worker(new URL('./spreadsheet-worker.mjs', import.meta.url), {
      // The worker is plain JavaScript: no TypeScript loader in it.
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: SPREADSHEET_LIMITS.heapMb },
    });
    const answer = await new Promise<{ sheet?: SheetData; refused?: Refusal }>((resolve) => {
      const timer = setTimeout(() => resolve({ refused: { reason: 'timeout' } }), SPREADSHEET_LIMITS.timeoutMs);
      const settle = (a: { sheet?: SheetData; refused?: Refusal }) => { clearTimeout(timer); resolve(a); };
      worker.once('message', settle);
      // Out of memory (ERR_WORKER_OUT_OF_MEMORY) is a file too large to read; anything else unreadable.
      worker.once('error', (e) => settle({ refused: { reason: (e as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'inflated' : 'unreadable' } }));
      worker.once('exit', () => settle({ refused: { reason: 'unreadable' } }));
      const copy = new Uint8Array(buf.byteLength);
      copy.set(buf);
      worker.postMessage({ buf: copy, kind, ...SPREADSHEET_LIMITS }, [copy.buffer]);
    });
    void worker.terminate();
    if (answer.refused) throw refusalError(answer.refused);
    return answer.sheet!;
  } finally {
    done();
  }
}

/**
 * Reads the first visible sheet, off the event loop. Throws COMMON_IMPORT_FILE_4013 when the file is
 * not a readable workbook, COMMON_IMPORT_TOO_BIG_4018 past SPREADSHEET_LIMITS.
 */
export async function readSpreadsheet(buf: Buffer, kind: SpreadsheetKind): Promise<SheetData> {
  return readInWorker(buf, kind);
}

export interface Upload {
  fileName: string;
  kind: SpreadsheetKind;
  sheet: SheetData;
}

/**
 * The spreadsheet uploaded with a multipart call: no file → COMMON_IMPORT_EMPTY_4014; not .xlsx/.xls by
 * extension and content → COMMON_IMPORT_FILE_4013; over the upload limit → COMMON_TOO_LARGE_4015.
 */
export async function readUploadedSpreadsheet(ctx: CallContext): Promise<Upload> {
  let part;
  try {
    part = ctx.file ? await ctx.file() : undefined;
  } catch {
    throw bizError('COMMON_IMPORT_EMPTY_4014');
  }
  if (!part || !part.filename) throw bizError('COMMON_IMPORT_EMPTY_4014');
  let buf: Buffer;
  try {
    buf = await part.toBuffer();
  } catch (e) {
    if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE' || (e as { statusCode?: number }).statusCode === 413) throw bizError('COMMON_TOO_LARGE_4015');
    throw bizError('COMMON_IMPORT_EMPTY_4014');
  }
  if (part.file.truncated) throw bizError('COMMON_TOO_LARGE_4015');
  if (!buf.length) throw bizError('COMMON_IMPORT_EMPTY_4014');
  const kind = sniffSpreadsheet(buf, part.filename);
  if (!kind) throw bizError('COMMON_IMPORT_FILE_4013');
  return { fileName: part.filename, kind, sheet: await readSpreadsheet(buf, kind) };
}

/** A header as matched: whitespace removed, a leading '*' (required-column mark) ignored. */
export function normHeader(text: string): string {
  return text.replace(/\s+/g, '').replace(/^\*/, '');
}

/** A1-style name of a cell or range (0-based row and column). */
function cellName(r: number, c: number): string {
  let col = '';
  for (let n = c + 1; n > 0; n = Math.floor((n - 1) / 26)) col = String.fromCharCode(65 + ((n - 1) % 26)) + col;
  return `${col}${r + 1}`;
}

/**
 * Why the header row cannot map one column to one field: each merged range in it spanning several
 * columns (the value sits in its first cell; the columns under the others would be read under no
 * header, or the wrong one), and each header of `known` (the titles the import reads) found in more
 * than one column. Empty when the header is usable.
 */
export function headerProblems(sheet: Pick<SheetData, 'merges'>, header: SheetRow, known?: Iterable<string>): Array<{ row: number; message: string }> {
  const r = header.row - 1;
  const problems = sheet.merges
    .filter((m) => m.s.r <= r && m.e.r >= r && m.e.c > m.s.c)
    .sort((a, b) => a.s.c - b.s.c)
    .map((m) => ({
      row: header.row,
      message: `第 ${header.row} 行：表头单元格 ${cellName(m.s.r, m.s.c)}:${cellName(m.e.r, m.e.c)} 是合并单元格（跨 ${m.e.c - m.s.c + 1} 列），每列只能对应一个字段，请取消合并后重新导入`,
    }));
  // A field's header in two columns: which one holds the data cannot be told.
  const wanted = new Set([...(known ?? [])].map(normHeader));
  const at = new Map<string, number[]>();
  header.cells.forEach((c, i) => {
    const text = c === null || c === undefined ? '' : normHeader(String(c));
    if (text && wanted.has(text)) at.set(text, [...(at.get(text) ?? []), i]);
  });
  for (const [text, cols] of at) {
    if (cols.length < 2) continue;
    problems.push({
      row: header.row,
      message: `第 ${header.row} 行：表头“${text}”出现在 ${cols.map((c) => cellName(r, c)).join('、')}，每个字段只能有一列，请删除多余的列后重新导入`,
    });
  }
  return problems;
}

export interface ImportRowError {
  row: number;
  field: string;
  /** the field's title, from its resource (the error table shows it) */
  title?: string;
  message: string;
}

/**
 * The refusal of a whole import file (COMMON_IMPORT_4012, nothing written): its errors in row order —
 * they are found check by check, column by column — each row's own in the order found.
 */
export function importFailed(errors: ImportRowError[]) {
  const sorted = [...errors].sort((a, b) => a.row - b.row);
  return bizError('COMMON_IMPORT_4012', { count: new Set(sorted.map((e) => e.row)).size }, { errors: sorted.slice(0, 2000), total: sorted.length });
}

/** The trimmed text of a text column's cell ('' when empty): see textAt(). */
export function cellTextAt(line: SheetRow, index: number | undefined): string {
  return index === undefined ? '' : (textAt(line, index) ?? '').trim();
}

/** Normalised header text → column index (the first column wins). */
export function headerIndex(cells: readonly CellValue[]): Map<string, number> {
  const map = new Map<string, number>();
  cells.forEach((c, i) => {
    if (c === null || c === undefined) return;
    const text = normHeader(String(c));
    if (text && !map.has(text)) map.set(text, i);
  });
  return map;
}
