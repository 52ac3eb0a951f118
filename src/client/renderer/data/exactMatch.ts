// What a typed or scanned text names exactly, among the rows a search answered. A barcode scanner types
// a code and presses Enter at once; Enter must take the row that code belongs to, never the first row
// of an older, partial search. Codes compare case-insensitively with blanks trimmed; a location code may
// be typed without its dashes (A0102 for A-01-02), when that names one row only.

type Row = Record<string, unknown>;

/** Fields holding a code a clerk types or scans (products: code, barcode; locations: label = lcCode). */
export const CODE_FIELDS = ['code', 'barcode', 'lcCode', 'docNo', 'label'] as const;

const norm = (v: unknown) => (v === undefined || v === null ? '' : String(v).trim().toUpperCase());
const bare = (s: string) => s.replace(/[-\s]/g, '');

export function exactMatch<T extends Row>(rows: readonly T[], typed: string, fields: readonly string[] = CODE_FIELDS): T | undefined {
  const want = norm(typed);
  if (!want) return undefined;
  const hit = rows.find((r) => fields.some((f) => norm(r[f]) === want));
  if (hit) return hit;
  const loose = rows.filter((r) => fields.some((f) => norm(r[f]) !== '' && bare(norm(r[f])) === bare(want)));
  return loose.length === 1 ? loose[0] : undefined;
}
