// File responses: the file name from Content-Disposition and handing the blob to the browser.

/**
 * The file name of a Content-Disposition header. Prefers RFC 5987 `filename*=UTF-8''<percent-encoded>`,
 * then `filename="..."` (percent-decoded when it looks encoded). Null when the header has no name.
 */
export function fileNameFromDisposition(header: string | null | undefined): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*([^;]+)/i.exec(header);
  if (star) {
    let v = star[1]!.trim().replace(/^"(.*)"$/, '$1');
    const m = /^([\w!#$%&+^`{}~-]*)'[^']*'(.*)$/.exec(v);
    if (m) v = m[2]!;
    try {
      const decoded = decodeURIComponent(v);
      if (decoded) return decoded;
    } catch {
      if (v) return v;
    }
  }
  const plain = /(?:^|;)\s*filename\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/i.exec(header);
  if (plain) {
    let v = plain[1]!.trim();
    if (v.startsWith('"')) v = v.slice(1, -1).replace(/\\(.)/g, '$1');
    if (/%[0-9a-f]{2}/i.test(v)) {
      try {
        v = decodeURIComponent(v);
      } catch {
        // keep as is
      }
    }
    if (v) return v;
  }
  return null;
}

/** Save a blob under a file name with a temporary object URL and an <a download> click. */
export function saveBlob(blob: Blob, fileName: string): void {
  if (typeof document === 'undefined' || typeof URL === 'undefined' || !URL.createObjectURL) return;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  document.body.removeChild(a);
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
