// File responses: a download with the file name in both filename (ASCII) and filename* (UTF-8).
import type { Readable } from 'node:stream';

export class FileResponse {
  constructor(
    readonly fileName: string,
    readonly contentType: string,
    readonly body: Buffer | Readable,
    readonly inline = false,
    /** Downloads default to no-store; images addressed by id may be cached by the browser. */
    readonly cacheControl = 'private, no-store',
  ) {}
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export function contentDisposition(fileName: string, inline = false): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_') || 'download';
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
  return `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
