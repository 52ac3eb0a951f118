// Input filter directives (spec §5). Screens name a filter in their schema (`"filter": "int"`,
// `"filter": "decimals:3"`); the client applies it to what the user types or pastes through this one
// function. Every filter first converts full-width digits, letters and punctuation to half-width, so a
// Chinese IME or pasted full-width text ("１２３") is read as the user meant it.

export type FilterName =
  | 'int'
  | 'code'
  | 'letter'
  | 'intAndLetter'
  | 'noChinese'
  | 'trim'
  | 'trimAll'
  | 'intFilterF'
  | `decimals:${number}`;

export const FILTER_NAMES = [
  'int',
  'code',
  'letter',
  'intAndLetter',
  'noChinese',
  'trim',
  'trimAll',
  'decimals',
  'intFilterF',
] as const;

/** Full-width ASCII (U+FF01–U+FF5E) → ASCII; ideographic space (U+3000) → space. */
export function toHalfWidth(value: string): string {
  let out = '';
  for (const ch of value) {
    const c = ch.charCodeAt(0);
    if (c >= 0xff01 && c <= 0xff5e) out += String.fromCharCode(c - 0xfee0);
    else if (c === 0x3000) out += ' ';
    else out += ch;
  }
  return out;
}

/** Strip leading zeros of an integer part: "007" → "7", "000" → "0", "" stays "". */
function stripLeadingZeros(intPart: string): string {
  const s = intPart.replace(/^0+/, '');
  return s === '' && intPart !== '' ? '0' : s;
}

/**
 * A non-negative decimal number being typed, with at most `n` decimals. Keeps digits and the first
 * dot; a leading dot becomes "0."; n = 0 allows no dot at all. The Chinese full stop '。' counts as a dot
 * (a Chinese IME types it for '.').
 */
function decimalNumber(value: string, n: number): string {
  const s = value.replace(/。/g, '.').replace(/[^\d.]/g, '');
  const dot = s.indexOf('.');
  if (dot < 0 || n <= 0) return stripLeadingZeros(s.replace(/\./g, ''));
  const intPart = stripLeadingZeros(s.slice(0, dot)) || '0';
  const frac = s.slice(dot + 1).replace(/\./g, '').slice(0, n);
  return `${intPart}.${frac}`;
}

/** Parse "decimals:3" / "decimals(3)" → 3; undefined when the name is not a decimals filter. */
export function parseDecimalsFilter(name: string): number | undefined {
  const m = /^decimals(?::|\()\s*(\d+)\s*\)?$/.exec(name.trim());
  if (m) return Number(m[1]);
  if (name.trim() === 'decimals') return 2;
  return undefined;
}

/** True when `name` is a filter this module knows (unknown names leave values untouched). */
export function isKnownFilter(name: string): boolean {
  return parseDecimalsFilter(name) !== undefined || (FILTER_NAMES as readonly string[]).includes(name);
}

const HAN = /[\p{Script=Han}\u3000-\u303f\uff00-\uffef]/gu;

/**
 * Apply the named filter to an input value and return what the input should hold.
 * - int: digits only, leading zeros stripped ("0" stays).
 * - code: digits and minus.
 * - letter: Latin letters, dots and spaces (tabs/newlines of pasted text become one space).
 * - intAndLetter: Latin letters and digits.
 * - noChinese: removes Chinese characters (Han ideographs and CJK punctuation).
 * - trim: removes leading whitespace.
 * - trimAll: removes all whitespace (spaces, tabs, newlines).
 * - decimals:n: a non-negative number with at most n decimals (plain `decimals` means 2).
 * - intFilterF: an optionally negative number with at most 2 decimals.
 * Unknown or empty filter names return the value exactly as typed (no half-width conversion either).
 */
export function applyFilter(name: string | undefined | null, value: string | null | undefined): string {
  const raw = value == null ? '' : String(value);
  if (!name) return raw;
  const key = name.trim();
  const decimals = parseDecimalsFilter(key);
  if (decimals === undefined && !(FILTER_NAMES as readonly string[]).includes(key)) return raw;
  const v = toHalfWidth(raw);
  if (decimals !== undefined) return decimalNumber(v, decimals);
  switch (key) {
    case 'int':
      return stripLeadingZeros(v.replace(/\D/g, ''));
    case 'code':
      return v.replace(/[^\d-]/g, '');
    case 'letter':
      return v.replace(/[\t\r\n]+/g, ' ').replace(/[^A-Za-z. ]/g, '');
    case 'intAndLetter':
      return v.replace(/[^A-Za-z0-9]/g, '');
    case 'noChinese':
      return v.replace(HAN, '');
    case 'trim':
      return v.replace(/^\s+/, '');
    case 'trimAll':
      return v.replace(/\s+/g, '');
    case 'intFilterF': {
      const s = v.replace(/。/g, '.').replace(/[^\d.-]/g, '');
      const negative = s.startsWith('-');
      const body = decimalNumber(s.replace(/-/g, ''), 2);
      return negative ? `-${body}` : body;
    }
    default:
      return raw;
  }
}
