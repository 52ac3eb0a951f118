// Decides what an uploaded file is from its bytes (magic numbers and container structure), never from
// its name or the Content-Type the client sent. Only the kinds listed here are accepted.

export type MediaKind = 'image' | 'document';

export interface SniffedType {
  mime: string;
  ext: string;
  kind: MediaKind;
  /** sharp's format name for images: the decoded format must agree with the sniffed one. */
  sharpFormat?: 'png' | 'jpeg' | 'gif' | 'webp';
}

export const PNG: SniffedType = { mime: 'image/png', ext: 'png', kind: 'image', sharpFormat: 'png' };
export const JPEG: SniffedType = { mime: 'image/jpeg', ext: 'jpg', kind: 'image', sharpFormat: 'jpeg' };
export const GIF: SniffedType = { mime: 'image/gif', ext: 'gif', kind: 'image', sharpFormat: 'gif' };
export const WEBP: SniffedType = { mime: 'image/webp', ext: 'webp', kind: 'image', sharpFormat: 'webp' };
export const PDF: SniffedType = { mime: 'application/pdf', ext: 'pdf', kind: 'document' };
export const XLSX: SniffedType = { mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', ext: 'xlsx', kind: 'document' };
export const XLS: SniffedType = { mime: 'application/vnd.ms-excel', ext: 'xls', kind: 'document' };

/** What the refusal message lists. */
export const ALLOWED_DESCRIPTION = '图片（PNG、JPEG、GIF、WebP）和文档（PDF、Excel xlsx/xls）';

const startsWith = (buf: Buffer, bytes: number[] | string, at = 0): boolean => {
  const b = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : Buffer.from(bytes);
  return buf.length >= at + b.length && buf.subarray(at, at + b.length).equals(b);
};

export function sniffType(buf: Buffer): SniffedType | null {
  if (startsWith(buf, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return PNG;
  if (startsWith(buf, [0xff, 0xd8, 0xff])) return JPEG;
  if (startsWith(buf, 'GIF87a') || startsWith(buf, 'GIF89a')) return GIF;
  if (startsWith(buf, 'RIFF') && startsWith(buf, 'WEBP', 8)) return WEBP;
  if (startsWith(buf, '%PDF-')) return PDF;
  if (startsWith(buf, [0x50, 0x4b, 0x03, 0x04])) return isXlsx(buf) ? XLSX : null;
  if (startsWith(buf, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return isXls(buf) ? XLS : null;
  return null;
}

/** Names of the entries in a zip's central directory, or null when it is not a well-formed zip. */
export function zipEntryNames(buf: Buffer): string[] | null {
  // End of central directory: signature 0x06054b50, at most 22 + 65535 (comment) bytes from the end.
  const min = Math.max(0, buf.length - 22 - 0xffff);
  let eocd = -1;
  for (let i = buf.length - 22; i >= min; i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) { eocd = i; break; }
  }
  if (eocd < 0) return null;
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== 0x02014b50) return null;
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    if (p + 46 + nameLen > buf.length) return null;
    names.push(buf.toString('utf8', p + 46, p + 46 + nameLen));
    p += 46 + nameLen + extraLen + commentLen;
  }
  return names;
}

/** An Office Open XML spreadsheet: a zip with [Content_Types].xml and the workbook part. */
function isXlsx(buf: Buffer): boolean {
  const names = zipEntryNames(buf);
  if (!names) return false;
  return names.includes('[Content_Types].xml') && names.some((n) => n === 'xl/workbook.xml' || n === 'xl/workbook.bin');
}

/** Names of the entries in an OLE compound file's directory, or null when it is not well formed. */
export function oleEntryNames(buf: Buffer): string[] | null {
  if (buf.length < 512) return null;
  const shift = buf.readUInt16LE(30);
  if (shift !== 9 && shift !== 12) return null;
  const sectorSize = 1 << shift;
  const sectorAt = (sid: number) => (sid + 1) * sectorSize;
  const sectorOk = (sid: number) => sid >= 0 && sectorAt(sid) + sectorSize <= buf.length;
  const ENDOFCHAIN = 0xfffffffe;
  const FREESECT = 0xffffffff;
  const numFat = buf.readUInt32LE(44);
  const firstDir = buf.readUInt32LE(48);
  let difatSid = buf.readUInt32LE(68);
  // The FAT's own sectors: 109 listed in the header, the rest in a chain of DIFAT sectors.
  const fatSectors: number[] = [];
  for (let i = 0; i < 109 && fatSectors.length < numFat; i++) fatSectors.push(buf.readUInt32LE(76 + i * 4));
  const perDifat = sectorSize / 4 - 1;
  for (let guard = 0; fatSectors.length < numFat && difatSid !== ENDOFCHAIN && difatSid !== FREESECT; guard++) {
    if (guard > 10_000 || !sectorOk(difatSid)) return null;
    const base = sectorAt(difatSid);
    for (let i = 0; i < perDifat && fatSectors.length < numFat; i++) fatSectors.push(buf.readUInt32LE(base + i * 4));
    difatSid = buf.readUInt32LE(base + perDifat * 4);
  }
  if (fatSectors.length < numFat) return null;
  const perFat = sectorSize / 4;
  const next = (sid: number): number => {
    const fatIndex = Math.floor(sid / perFat);
    if (fatIndex >= fatSectors.length || !sectorOk(fatSectors[fatIndex])) return -1;
    return buf.readUInt32LE(sectorAt(fatSectors[fatIndex]) + (sid % perFat) * 4);
  };
  const names: string[] = [];
  const seen = new Set<number>();
  for (let sid = firstDir; sid !== ENDOFCHAIN; sid = next(sid)) {
    if (!sectorOk(sid) || seen.has(sid)) return null;
    seen.add(sid);
    const base = sectorAt(sid);
    for (let e = 0; e < sectorSize / 128; e++) {
      const entry = base + e * 128;
      const nameBytes = buf.readUInt16LE(entry + 64);
      const type = buf[entry + 66];
      if (type === 0 || nameBytes < 2 || nameBytes > 64) continue;
      names.push(buf.toString('utf16le', entry, entry + nameBytes - 2));
    }
  }
  return names;
}

/** A legacy Excel (BIFF) file: an OLE compound file holding a Workbook (or BIFF5 Book) stream. */
function isXls(buf: Buffer): boolean {
  const names = oleEntryNames(buf);
  return !!names && names.some((n) => /^(workbook|book)$/i.test(n));
}
