// Spreadsheets in and out.
// Out: a streaming .xlsx writer (exceljs WorkbookWriter) behind a FileResponse; every text cell is an
// inline string, so text that looks like a formula (=, +, -, @) stays text — no cell is ever a formula.
// In: an uploaded .xlsx (exceljs) or legacy .xls (SheetJS), checked by extension and magic bytes, read
// into rows of plain cell values with their spreadsheet row numbers.
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import XLSX from 'xlsx';
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
  /** cell values by column, 0-based from the sheet's first used column */
  cells: CellValue[];
}

export interface SheetData {
  name: string;
  rows: SheetRow[];
}

export type SpreadsheetKind = 'xlsx' | 'xls';

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const OLE_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
/** Inflated size a workbook may reach (a 10 MB upload is ~100–200 MB of XML at most). */
const MAX_INFLATED = 400 * 1024 * 1024;

/** 'xlsx' / 'xls' when the extension and the first bytes agree; otherwise null. */
export function sniffSpreadsheet(buf: Buffer, fileName: string): SpreadsheetKind | null {
  const ext = /\.([a-z0-9]+)$/i.exec(fileName.trim())?.[1]?.toLowerCase();
  if (ext === 'xlsx' && buf.subarray(0, 4).equals(ZIP_MAGIC)) return 'xlsx';
  if (ext === 'xls' && buf.subarray(0, 8).equals(OLE_MAGIC)) return 'xls';
  return null;
}

/** Sum of the uncompressed sizes in a zip's central directory; null when it cannot be read. */
export function zipInflatedSize(buf: Buffer): number | null {
  const start = Math.max(0, buf.length - 65_557);
  for (let i = buf.length - 22; i >= start; i--) {
    if (buf.readUInt32LE(i) !== 0x06054b50) continue;
    const count = buf.readUInt16LE(i + 10);
    let p = buf.readUInt32LE(i + 16);
    let total = 0;
    for (let n = 0; n < count; n++) {
      if (p + 46 > buf.length || buf.readUInt32LE(p) !== 0x02014b50) return null;
      const size = buf.readUInt32LE(p + 24);
      if (size === 0xffffffff) return null;
      total += size;
      p += 46 + buf.readUInt16LE(p + 28) + buf.readUInt16LE(p + 30) + buf.readUInt16LE(p + 32);
    }
    return total;
  }
  return null;
}

function plainExcelJs(v: unknown): CellValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v instanceof Date) return v;
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (Array.isArray(o.richText)) return (o.richText as Array<{ text?: string }>).map((t) => t.text ?? '').join('');
    if ('formula' in o || 'sharedFormula' in o) return plainExcelJs(o.result);
    if ('text' in o) return plainExcelJs(o.text);
    if ('error' in o) return null;
  }
  return String(v);
}

async function readXlsx(buf: Buffer): Promise<SheetData> {
  const inflated = zipInflatedSize(buf);
  if (inflated === null || inflated > MAX_INFLATED) throw new Error('zip too large or unreadable');
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as unknown as ArrayBuffer);
  const ws = wb.worksheets.find((w) => w.state === 'visible') ?? wb.worksheets[0];
  if (!ws) return { name: '', rows: [] };
  const rows: SheetRow[] = [];
  ws.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    const cells: CellValue[] = [];
    row.eachCell({ includeEmpty: false }, (cell, col) => { cells[col - 1] = plainExcelJs(cell.value); });
    for (let i = 0; i < cells.length; i++) if (cells[i] === undefined) cells[i] = null;
    rows.push({ row: rowNumber, cells });
  });
  return { name: ws.name, rows };
}

function readXls(buf: Buffer): SheetData {
  const wb = XLSX.read(buf, { type: 'buffer', cellNF: true, cellDates: false, cellFormula: false, cellHTML: false, dense: false });
  const name = wb.SheetNames[0];
  const ws = name ? wb.Sheets[name] : undefined;
  if (!ws || !ws['!ref']) return { name: name ?? '', rows: [] };
  const range = XLSX.utils.decode_range(ws['!ref']);
  const rows: SheetRow[] = [];
  for (let r = range.s.r; r <= range.e.r; r++) {
    const cells: CellValue[] = [];
    let any = false;
    for (let c = 0; c <= range.e.c; c++) {
      const cell = ws[XLSX.utils.encode_cell({ r, c })] as { t: string; v: unknown; z?: string } | undefined;
      let v: CellValue = null;
      if (cell) {
        if (cell.t === 's' || cell.t === 'str') v = String(cell.v ?? '');
        else if (cell.t === 'b') v = !!cell.v;
        else if (cell.t === 'n' && typeof cell.v === 'number') {
          const fmt = cell.z;
          if (fmt && XLSX.SSF.is_date(fmt)) {
            const d = XLSX.SSF.parse_date_code(cell.v) as { y: number; m: number; d: number; H: number; M: number; S: number };
            v = new Date(Date.UTC(d.y, d.m - 1, d.d, d.H, d.M, d.S));
          } else v = cell.v;
        } else if (cell.t === 'd' && cell.v instanceof Date) v = cell.v;
      }
      if (v !== null && v !== '') any = true;
      cells.push(v);
    }
    if (any) rows.push({ row: r + 1, cells });
  }
  return { name: name!, rows };
}

/** Reads the first visible sheet. Throws COMMON_IMPORT_FILE_4013 when the file is not a readable workbook. */
export async function readSpreadsheet(buf: Buffer, kind: SpreadsheetKind): Promise<SheetData> {
  try {
    return kind === 'xlsx' ? await readXlsx(buf) : readXls(buf);
  } catch {
    throw bizError('COMMON_IMPORT_FILE_4013');
  }
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
