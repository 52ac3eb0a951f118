// Runs in a worker thread (plain JavaScript: it is loaded without the TypeScript loader). Reads one
// uploaded workbook off the server's event loop — parsing a large sheet takes seconds of CPU, which on
// the main thread stalled every request of every company — within the limits it is given:
// - .xlsx: the zip's declared sizes are summed before anything is inflated, then every entry is
//   inflated with a hard output bound (zlib maxOutputLength), so a zip whose directory lies is stopped
//   at the bound, not after it; only then does SheetJS parse it;
// - rows and columns: SheetJS stops reading a sheet after `sheetRows`; anything beyond is refused.
// Answers { sheet } or { refused: { reason, ... } }; an unexpected failure is { refused: { reason: 'unreadable' } }.
import { parentPort, workerData } from 'node:worker_threads';
import { createRequire } from 'node:module';
import zlib from 'node:zlib';

const require = createRequire(import.meta.url);
// The CommonJS build: it inflates with node:zlib (the ES module build carries a slower JavaScript inflate).
const XLSX = require('@e965/xlsx');

class Refused extends Error {
  constructor(reason, extra = {}) {
    super(reason);
    this.reason = reason;
    this.extra = extra;
  }
}

/** The zip's entries from its central directory: [{ name, method, compressed, size, offset }]. */
function zipEntries(buf) {
  const start = Math.max(0, buf.length - 65_557);
  for (let i = buf.length - 22; i >= start; i--) {
    if (buf.readUInt32LE(i) !== 0x06054b50) continue;
    const count = buf.readUInt16LE(i + 10);
    let p = buf.readUInt32LE(i + 16);
    const entries = [];
    for (let n = 0; n < count; n++) {
      if (p + 46 > buf.length || buf.readUInt32LE(p) !== 0x02014b50) throw new Refused('unreadable');
      const method = buf.readUInt16LE(p + 10);
      const compressed = buf.readUInt32LE(p + 20);
      const size = buf.readUInt32LE(p + 24);
      const nameLength = buf.readUInt16LE(p + 28);
      const offset = buf.readUInt32LE(p + 42);
      // Zip64 (sizes or offsets past 4 GB): no workbook an import needs is that large.
      if (size === 0xffffffff || compressed === 0xffffffff || offset === 0xffffffff) throw new Refused('inflated');
      entries.push({ name: buf.toString('utf8', p + 46, p + 46 + nameLength), method, compressed, size, offset });
      p += 46 + nameLength + buf.readUInt16LE(p + 30) + buf.readUInt16LE(p + 32);
    }
    return entries;
  }
  throw new Refused('unreadable');
}

/** Refuses a zip that declares, or actually inflates to, more than `max` bytes in all. */
function checkInflated(buf, max) {
  const entries = zipEntries(buf);
  let declared = 0;
  for (const e of entries) declared += e.size;
  if (declared > max) throw new Refused('inflated');
  let total = 0;
  for (const e of entries) {
    if (e.offset + 30 > buf.length || buf.readUInt32LE(e.offset) !== 0x04034b50) throw new Refused('unreadable');
    const dataAt = e.offset + 30 + buf.readUInt16LE(e.offset + 26) + buf.readUInt16LE(e.offset + 28);
    const data = buf.subarray(dataAt, dataAt + e.compressed);
    let size;
    if (e.method === 0) size = data.length;
    else if (e.method === 8) {
      try {
        size = zlib.inflateRawSync(data, { maxOutputLength: Math.max(1, max - total) }).length;
      } catch (err) {
        if (err && (err.code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError)) throw new Refused('inflated');
        throw new Refused('unreadable');
      }
    } else throw new Refused('unreadable');
    total += size;
    if (total > max) throw new Refused('inflated');
  }
}

const isHidden = (wb, i) => !!wb.Workbook?.Sheets?.[i]?.Hidden;

/** One cell as a plain value, and (numbers shown through a format of their own) the text shown. */
function cellOf(cell) {
  if (!cell) return [null, null];
  if (cell.t === 's' || cell.t === 'str') return [String(cell.v ?? ''), null];
  if (cell.t === 'b') return [!!cell.v, null];
  if (cell.t === 'd' && cell.v instanceof Date) return [cell.v, null];
  if (cell.t === 'n' && typeof cell.v === 'number') {
    const fmt = cell.z;
    if (fmt && typeof fmt === 'string' && XLSX.SSF.is_date(fmt)) {
      const d = XLSX.SSF.parse_date_code(cell.v);
      return [new Date(Date.UTC(d.y, d.m - 1, d.d, d.H, d.M, d.S)), null];
    }
    // "0000000" shows 10001 as 0010001: a code column wants what the user sees.
    const shown = fmt && fmt !== 'General' && typeof cell.w === 'string' ? cell.w : null;
    return [cell.v, shown];
  }
  return [null, null];
}

function read({ buf, kind, maxInflated, maxRows, maxColumns }) {
  const data = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  if (kind === 'xlsx') checkInflated(data, maxInflated);
  let wb;
  try {
    // sheetRows: rows past the limit are not read at all (one more tells that there were more).
    wb = XLSX.read(data, { type: 'buffer', cellNF: true, cellText: true, cellDates: false, cellFormula: false, cellHTML: false, cellStyles: false, sheetRows: maxRows + 1, dense: true });
  } catch {
    throw new Refused('unreadable');
  }
  const index = wb.SheetNames.findIndex((_, i) => !isHidden(wb, i));
  const name = wb.SheetNames[index < 0 ? 0 : index];
  const ws = name ? wb.Sheets[name] : undefined;
  if (!ws || !ws['!ref']) return { name: name ?? '', rows: [], merges: [] };
  const range = XLSX.utils.decode_range(ws['!ref']);
  const dense = ws['!data'] ?? [];
  const rows = [];
  let lastRow = -1;
  for (let r = range.s.r; r <= range.e.r; r++) {
    const line = dense[r];
    if (!line) continue;
    const cells = [];
    const texts = [];
    let any = false;
    let anyText = false;
    for (let c = 0; c < line.length; c++) {
      const [v, shown] = cellOf(line[c]);
      if (v !== null && v !== '') {
        if (c >= maxColumns) throw new Refused('columns', { column: XLSX.utils.encode_col(c) });
        any = true;
      }
      cells.push(v);
      texts.push(shown);
      if (shown !== null) anyText = true;
    }
    if (!any) continue;
    while (cells.length && (cells[cells.length - 1] === null || cells[cells.length - 1] === '')) { cells.pop(); texts.pop(); }
    rows.push(anyText ? { row: r + 1, cells, texts } : { row: r + 1, cells });
    lastRow = r;
  }
  // Read up to maxRows + 1 rows: a value in the last one is past the limit. (Whether the sheet goes on
  // cannot be told from its declared dimension, which some writers get wrong.)
  if (lastRow >= maxRows) throw new Refused('rows');
  const merges = (ws['!merges'] ?? []).map((m) => ({ s: { r: m.s.r, c: m.s.c }, e: { r: m.e.r, c: m.e.c } }));
  return { name, rows, merges };
}

parentPort.once('message', (job) => {
  let answer;
  try {
    answer = { sheet: read(job) };
  } catch (e) {
    answer = e instanceof Refused ? { refused: { reason: e.reason, ...e.extra } } : { refused: { reason: 'unreadable' } };
  }
  parentPort.postMessage(answer);
});
void workerData;
