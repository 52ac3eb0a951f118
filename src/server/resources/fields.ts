// Field values in their three shapes: stored (database), exposed (JSON responses) and cells (xlsx).
// Money and decimals are integers in the database (× 10^scale) and exact decimal strings outside it.
import Decimal from 'decimal.js';
import { passwordProblem } from '../auth/password-policy.ts';
import { formatTime } from '../../core/format.ts';
import { parseCidr } from '../auth/ip-whitelist.ts';
import { DB_INT_MAX, DB_INT_MIN } from '../db/int-bounds.ts';
import type { Field } from './types.ts';

export type Parsed = { value: unknown; error?: undefined } | { error: string; value?: undefined };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/;
const MAX_JSON = 200_000;
const patternCache = new Map<string, RegExp>();

export function isEmpty(v: unknown): boolean {
  return v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
}

export function scaleOf(f: Field): number {
  return f.type === 'money' ? 2 : f.type === 'decimal' ? f.scale ?? 0 : 0;
}

function regex(p: string): RegExp {
  let r = patternCache.get(p);
  if (!r) { r = new RegExp(p, 'u'); patternCache.set(p, r); }
  return r;
}

/** An exact decimal from JSON or a cell; binary-float noise from spreadsheets (0.30000000000000004) is dropped. */
export function decimalOf(v: unknown): Decimal | undefined {
  let s: string;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return undefined;
    s = Number.isInteger(v) ? String(v) : v.toPrecision(15);
  } else if (typeof v === 'string') {
    s = v.trim().replace(/,/g, '');
    if (!/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(s)) return undefined;
  } else return undefined;
  try {
    const d = new Decimal(s);
    return d.isFinite() ? d : undefined;
  } catch {
    return undefined;
  }
}

/** Scaled integer (as stored) from an exact decimal; undefined when it would not fit exactly. */
function scaled(d: Decimal, scale: number): number | undefined {
  const n = d.times(new Decimal(10).pow(scale));
  if (!n.isInteger() || n.abs().greaterThan(Number.MAX_SAFE_INTEGER)) return undefined;
  return n.toNumber();
}

export function realDate(y: number, m: number, d: number): string | undefined {
  if (y < 1900 || y > 2999 || m < 1 || m > 12 || d < 1) return undefined;
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  if (d > last) return undefined;
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

function checkText(f: Field, s: string): string | undefined {
  const len = [...s].length;
  if (f.maxLength !== undefined && len > f.maxLength) return `${f.title}长度不能超过 ${f.maxLength} 个字符`;
  if (f.minLength !== undefined && len < f.minLength) return `${f.title}至少 ${f.minLength} 个字符`;
  if (f.pattern && !regex(f.pattern).test(s)) return `${f.title}格式不正确`;
  if (f.format === 'cidr' && !parseCidr(s)) return 'IP 地址或网段格式不正确';
  if (f.format === 'email' && !EMAIL.test(s)) return `${f.title}格式不正确`;
  return undefined;
}

function checkRange(f: Field, d: Decimal, shown: string): string | undefined {
  if (f.min !== undefined && d.lessThan(new Decimal(f.min))) return `${f.title}不能小于 ${f.min}`;
  if (f.max !== undefined && d.greaterThan(new Decimal(f.max))) return `${f.title}不能大于 ${f.max}`;
  void shown;
  return undefined;
}

function parseBoolean(f: Field, v: unknown): 0 | 1 | undefined {
  if (v === true || v === 1) return 1;
  if (v === false || v === 0) return 0;
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase();
    if (['1', 'true', '是', 'y', 'yes', (f.trueLabel ?? '').toLowerCase()].includes(s)) return 1;
    if (['0', 'false', '否', 'n', 'no', (f.falseLabel ?? '').toLowerCase()].includes(s)) return 0;
  }
  return undefined;
}

/** A date cell or text → 'YYYY-MM-DD'. Spreadsheet dates arrive as Date at UTC midnight. */
function parseDate(v: unknown): string | undefined {
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime())) return undefined;
    // Cells hold a calendar date at midnight (UTC); a few seconds of float noise must not move the day.
    const t = new Date(v.getTime() + 30_000);
    return realDate(t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate());
  }
  if (typeof v !== 'string') return undefined;
  const m = DATE.exec(v.trim());
  return m ? realDate(Number(m[1]), Number(m[2]), Number(m[3])) : undefined;
}

function parseDatetime(v: unknown): string | undefined {
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? undefined : v.toISOString();
  if (typeof v !== 'string') return undefined;
  const s = v.trim();
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(s)) return undefined;
  // Without an offset the text is UTC (the API's convention: times travel as UTC).
  const iso = /(Z|[+-]\d{2}:?\d{2})$/.test(s) ? s.replace(' ', 'T') : `${s.replace(' ', 'T')}${s.length === 10 ? 'T00:00:00' : ''}Z`;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? undefined : new Date(t).toISOString();
}

/**
 * Converts an input value (JSON body or import cell) to its stored form, or explains in Chinese why it
 * cannot be. Empty input gives { value: null }; `required` is checked by the caller. Reference fields take
 * an id here (imports resolve labels to ids first).
 */
export function parseValue(f: Field, raw: unknown, source: 'json' | 'import' = 'json'): Parsed {
  if (f.type === 'list') return parseList(f, raw, source);
  if (f.type === 'json') {
    if (raw === undefined || raw === null) return { value: null };
    const text = JSON.stringify(raw);
    if (text.length > MAX_JSON) return { error: `${f.title}内容过长` };
    return { value: text };
  }
  if (isEmpty(raw)) return { value: null };
  const bad = { error: `${f.title}格式不正确` };
  switch (f.type) {
    case 'string':
    case 'text':
    case 'password': {
      let s: string;
      if (typeof raw === 'string') s = f.type === 'password' ? raw : raw.trim();
      else if (typeof raw === 'number' && Number.isFinite(raw)) s = Number.isInteger(raw) ? BigInt(raw).toString() : String(raw);
      else if (raw instanceof Date && source === 'import') s = raw.toISOString().slice(0, 10);
      else return bad;
      const err = checkText(f, s) ?? (f.type === 'password' ? passwordProblem(s, { title: f.title }) ?? undefined : undefined);
      return err ? { error: err } : { value: s };
    }
    case 'integer':
    case 'reference': {
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*-?\d+\s*$/.test(raw) ? Number(raw) : NaN;
      if (!Number.isSafeInteger(n)) return { error: f.type === 'reference' ? `${f.title}格式不正确` : `${f.title}必须是整数` };
      if (f.type === 'reference') return n > 0 && n <= DB_INT_MAX ? { value: n } : { error: `${f.title}不存在` };
      // Without bounds of its own a field holds what a database integer column holds.
      const min = f.min ?? DB_INT_MIN;
      const max = f.max ?? DB_INT_MAX;
      // Number bounds compare exactly with a safe integer: no Decimal per value (every line's every
      // integer field passes here — the posting path's parse showed Decimal in bench:stock's profile).
      if (typeof min === 'number' && typeof max === 'number') {
        if (n < min) return { error: `${f.title}不能小于 ${min}` };
        if (n > max) return { error: `${f.title}不能大于 ${max}` };
        return { value: n };
      }
      const err = checkRange({ ...f, min, max }, new Decimal(n), String(n));
      return err ? { error: err } : { value: n };
    }
    case 'boolean': {
      const b = parseBoolean(f, raw);
      if (b === undefined) return { error: `${f.title}取值不正确，应为${f.trueLabel ?? '是'}或${f.falseLabel ?? '否'}` };
      return { value: b };
    }
    case 'enum': {
      const s = String(raw).trim();
      const hit = f.values!.find((v) => v.value === s) ?? (source === 'import' ? f.values!.find((v) => v.label === s) : undefined);
      if (!hit) return { error: `${f.title}取值不正确，可选：${f.values!.map((v) => v.label).join('、')}` };
      return { value: hit.value };
    }
    case 'date': {
      const d = parseDate(raw);
      return d ? { value: d } : { error: `${f.title}不是有效的日期（YYYY-MM-DD）` };
    }
    case 'datetime': {
      const d = parseDatetime(raw);
      return d ? { value: d } : { error: `${f.title}不是有效的时间` };
    }
    case 'money':
    case 'decimal': {
      const d = decimalOf(raw);
      if (!d) return { error: `${f.title}必须是数字` };
      const scale = scaleOf(f);
      if (d.decimalPlaces() > scale) return { error: scale === 0 ? `${f.title}必须是整数` : `${f.title}最多 ${scale} 位小数` };
      const err = checkRange(f, d, d.toFixed());
      if (err) return { error: err };
      const n = scaled(d, scale);
      return n === undefined ? { error: `${f.title}超出范围` } : { value: n };
    }
  }
  return bad;
}

function parseList(f: Field, raw: unknown, source: 'json' | 'import'): Parsed {
  if (raw === undefined || raw === null) return { value: null };
  let items: unknown[];
  if (Array.isArray(raw)) items = raw;
  else if (source === 'import' && (typeof raw === 'string' || typeof raw === 'number')) {
    items = String(raw).split(/[,，;；、\n]/).map((s) => s.trim()).filter(Boolean);
  } else return { error: `${f.title}格式不正确` };
  if (f.maxItems !== undefined && items.length > f.maxItems) return { error: `${f.title}最多 ${f.maxItems} 项` };
  const out: Array<string | number> = [];
  const seen = new Set<string | number>();
  for (const item of items) {
    let v: string | number;
    if (f.items === 'integer') {
      const n = typeof item === 'number' ? item : typeof item === 'string' && /^\d+$/.test(item.trim()) ? Number(item) : NaN;
      if (!Number.isSafeInteger(n) || n <= 0 || n > DB_INT_MAX) return { error: `${f.title}格式不正确` };
      v = n;
    } else {
      if (typeof item !== 'string' || !item.trim()) return { error: `${f.title}格式不正确` };
      v = item.trim();
      if (f.maxLength !== undefined && v.length > f.maxLength) return { error: `${f.title}中的“${v.slice(0, 20)}”过长` };
      if (f.pattern && !regex(f.pattern).test(v)) return { error: `${f.title}中的“${v.slice(0, 20)}”格式不正确` };
    }
    if (!seen.has(v)) { seen.add(v); out.push(v); }
  }
  return { value: JSON.stringify(out) };
}

function parseJson(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v !== 'string') return v;
  try { return JSON.parse(v); } catch { return null; }
}

/** A stored (scaled) safe integer as its exact decimal text, e.g. 1250 at scale 2 → "12.50", -5 → "-0.05". */
function scaledText(n: number, scale: number): string {
  if (scale === 0) return String(n);
  const digits = String(Math.abs(n)).padStart(scale + 1, '0');
  return `${n < 0 ? '-' : ''}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

/** Stored value → the value list/get return (password fields are never exposed). */
export function expose(f: Field, v: unknown): unknown {
  if (v === undefined || v === null) return f.type === 'list' ? [] : null;
  switch (f.type) {
    case 'boolean': return Number(v) === 1 || v === true;
    case 'integer': case 'reference': return Number(v);
    case 'money': case 'decimal': {
      const scale = scaleOf(f);
      if (typeof v === 'number' && Number.isSafeInteger(v)) return scaledText(v, scale);
      return new Decimal(String(v)).div(new Decimal(10).pow(scale)).toFixed(scale);
    }
    case 'list': { const p = parseJson(v); return Array.isArray(p) ? p : []; }
    case 'json': return parseJson(v);
    default: return v;
  }
}

/** The same stored value as expose gives, compared for audit changes. */
export function sameStored(f: Field, a: unknown, b: unknown): boolean {
  if ((a === null || a === undefined) && (b === null || b === undefined)) return true;
  if (a === null || a === undefined || b === null || b === undefined) return false;
  if (f.type === 'integer' || f.type === 'reference' || f.type === 'boolean' || f.type === 'money' || f.type === 'decimal') return Number(a) === Number(b);
  return String(a) === String(b);
}

/** Text of an exposed value for messages and the audit log (labels for enums and booleans). */
export function display(f: Field, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (f.type === 'boolean') return v ? f.trueLabel ?? '是' : f.falseLabel ?? '否';
  if (f.type === 'enum') return f.values!.find((x) => x.value === v)?.label ?? v;
  return v;
}

export function formatChanges(v: unknown): string {
  if (!Array.isArray(v)) return '';
  const show = (x: unknown) => (x === null || x === undefined || x === '' ? '（空）' : typeof x === 'object' ? JSON.stringify(x) : String(x));
  return v.map((c: { field?: string; title?: string; from?: unknown; to?: unknown }) => `${c.title ?? c.field}：${show(c.from)} → ${show(c.to)}`).join('\n');
}

/** An exposed row's value as an xlsx cell (labels for references, enums and booleans). */
export function toCell(f: Field, row: Record<string, unknown>, tzHours: number): unknown {
  const v = row[f.name];
  if (f.type === 'reference') return row[f.labelAs!] ?? (v == null ? null : String(v));
  if (f.type === 'list') {
    const shown = f.labelAs ? row[f.labelAs] : v;
    return Array.isArray(shown) ? shown.join(', ') : null;
  }
  if (v === null || v === undefined) return null;
  switch (f.type) {
    case 'boolean': case 'enum': return display(f, v);
    case 'money': case 'decimal': return Number(v as string);
    case 'datetime': return formatTime(v as string, tzHours);
    case 'json': return f.format === 'changes' ? formatChanges(v) : JSON.stringify(v);
    default: return v;
  }
}
