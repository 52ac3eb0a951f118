// The condition language of screen schemas (DESIGN §3.1): `when`, visibility and disabling are data,
// evaluated here by plain code. Nothing is ever compiled (no eval, no new Function), so the app keeps a
// Content-Security-Policy without 'unsafe-eval', and a schema can never run arbitrary code.
//
//   {"status": "draft"}                         shorthand: every key equals (an array value means "in")
//   {"all": [c1, c2]}  {"any": [c1, c2]}  {"not": c}
//   {"field": "qty", "op": "gt", "value": 0}    ops: eq ne in nin gt gte lt lte empty notEmpty
//   {"flag": "presale"}                         a company flag is on
//   {"right": "baseConfig.currency.edit"}       the user holds the right (an array: any of them)
//   true / false                                constant
//
// A field may be a dotted path ("supplier.id"). A condition this module cannot read (unknown op, bad
// shape) is false: hiding a button by mistake is safer than showing one the schema meant to hide.

export type Scalar = string | number | boolean | null;

export type ConditionOp = 'eq' | 'ne' | 'in' | 'nin' | 'gt' | 'gte' | 'lt' | 'lte' | 'empty' | 'notEmpty';

export const CONDITION_OPS: readonly ConditionOp[] = ['eq', 'ne', 'in', 'nin', 'gt', 'gte', 'lt', 'lte', 'empty', 'notEmpty'];

export interface FieldCondition {
  field: string;
  /** Default 'eq'. */
  op?: ConditionOp;
  value?: Scalar | Scalar[];
}

export type Condition =
  | boolean
  | { all: Condition[] }
  | { any: Condition[] }
  | { not: Condition }
  | FieldCondition
  | { flag: string }
  | { right: string | string[] }
  | { [field: string]: Scalar | Scalar[] };

/** What a condition is evaluated against. */
export interface ConditionEnv {
  /** The row, record or form values. */
  data?: Record<string, unknown> | null;
  /** Company flags that are on. */
  flags?: Readonly<Record<string, boolean>> | null;
  /** Whether the user holds a right. Without it every `right` condition is false. */
  hasRight?: (code: string) => boolean;
}

/** Keys that make an object an operator rather than the field-equality shorthand. */
const RESERVED = new Set(['all', 'any', 'not', 'field', 'op', 'value', 'flag', 'right']);

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Value at a dotted path; undefined when any step is missing. */
export function readPath(data: unknown, path: string): unknown {
  let cur: unknown = data;
  for (const key of path.split('.')) {
    if (!isPlainObject(cur) && !Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

function isEmptyValue(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (typeof v === 'string') return v.trim() === '';
  if (Array.isArray(v)) return v.length === 0;
  if (isPlainObject(v)) return Object.keys(v).length === 0;
  return false;
}

/**
 * Loose equality that matches how values travel: ids arrive as numbers or strings ("12" vs 12), and
 * booleans may be stored as 0/1. Objects never equal anything.
 */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === undefined || a === null || b === undefined || b === null) return false;
  if (typeof a === 'boolean' || typeof b === 'boolean') {
    const asBool = (x: unknown) => (x === true || x === 1 || x === '1' || x === 'true' ? true : x === false || x === 0 || x === '0' || x === 'false' ? false : undefined);
    const x = asBool(a);
    return x !== undefined && x === asBool(b);
  }
  if ((typeof a === 'number' || typeof a === 'string') && (typeof b === 'number' || typeof b === 'string')) {
    return String(a) === String(b);
  }
  return false;
}

const NUMERIC = /^\s*-?\d+(\.\d+)?\s*$/;

/**
 * Order of two values: numeric when both look like numbers (compared exactly as decimal strings, so
 * "10.10" > "9.9" and money strings never pass through floats), else as strings (ISO dates order
 * correctly as text). undefined when either side is empty.
 */
function compare(a: unknown, b: unknown): number | undefined {
  if (isEmptyValue(a) || isEmptyValue(b)) return undefined;
  const sa = String(a);
  const sb = String(b);
  if (NUMERIC.test(sa) && NUMERIC.test(sb)) return compareDecimalStrings(sa.trim(), sb.trim());
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/** Compare two decimal strings exactly (no float conversion). */
export function compareDecimalStrings(a: string, b: string): number {
  const neg = (s: string) => s.startsWith('-');
  const abs = (s: string) => (neg(s) ? s.slice(1) : s);
  const norm = (s: string): [string, string] => {
    const [i = '0', f = ''] = abs(s).split('.');
    return [i.replace(/^0+(?=\d)/, ''), f.replace(/0+$/, '')];
  };
  const [ai, af] = norm(a);
  const [bi, bf] = norm(b);
  const zero = (i: string, f: string) => /^0*$/.test(i) && f === '';
  const aNeg = neg(a) && !zero(ai, af);
  const bNeg = neg(b) && !zero(bi, bf);
  if (aNeg !== bNeg) return aNeg ? -1 : 1;
  let mag: number;
  if (ai.length !== bi.length) mag = ai.length < bi.length ? -1 : 1;
  else if (ai !== bi) mag = ai < bi ? -1 : 1;
  else {
    const len = Math.max(af.length, bf.length);
    const fa = af.padEnd(len, '0');
    const fb = bf.padEnd(len, '0');
    mag = fa === fb ? 0 : fa < fb ? -1 : 1;
  }
  return aNeg ? -mag : mag;
}

function fieldTest(actual: unknown, op: ConditionOp, expected: unknown): boolean {
  switch (op) {
    case 'eq':
      return Array.isArray(expected) ? expected.some((e) => same(actual, e)) : same(actual, expected);
    case 'ne':
      return !fieldTest(actual, 'eq', expected);
    case 'in':
      return Array.isArray(expected) && expected.some((e) => same(actual, e));
    case 'nin':
      return Array.isArray(expected) && !expected.some((e) => same(actual, e));
    case 'empty':
      return isEmptyValue(actual);
    case 'notEmpty':
      return !isEmptyValue(actual);
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const c = compare(actual, expected);
      if (c === undefined) return false;
      return op === 'gt' ? c > 0 : op === 'gte' ? c >= 0 : op === 'lt' ? c < 0 : c <= 0;
    }
    default:
      return false;
  }
}

/** Evaluate a condition. `undefined`/`null` (no condition) is true. */
export function evaluate(condition: Condition | null | undefined, env: ConditionEnv = {}): boolean {
  if (condition === undefined || condition === null) return true;
  if (typeof condition === 'boolean') return condition;
  if (!isPlainObject(condition)) return false;
  const c = condition as Record<string, unknown>;

  if ('all' in c) return Array.isArray(c.all) && c.all.every((x) => evaluate(x as Condition, env));
  if ('any' in c) return Array.isArray(c.any) && c.any.some((x) => evaluate(x as Condition, env));
  if ('not' in c) return c.not !== undefined && !evaluate(c.not as Condition, env);
  if ('flag' in c) return typeof c.flag === 'string' && env.flags?.[c.flag] === true;
  if ('right' in c) {
    const codes = Array.isArray(c.right) ? c.right : [c.right];
    if (!env.hasRight || codes.length === 0) return false;
    return codes.some((code) => (typeof code === 'string' || typeof code === 'number') && env.hasRight!(String(code)));
  }
  if ('field' in c) {
    if (typeof c.field !== 'string' || c.field === '') return false;
    const op = (c.op ?? 'eq') as ConditionOp;
    if (!CONDITION_OPS.includes(op)) return false;
    return fieldTest(readPath(env.data, c.field), op, c.value);
  }
  // Shorthand: {"status": "draft", "type": ["a", "b"]} — every key must hold.
  const keys = Object.keys(c);
  if (keys.length === 0) return true;
  return keys.every((k) => {
    const expected = c[k];
    if (isPlainObject(expected)) return false;
    return fieldTest(readPath(env.data, k), Array.isArray(expected) ? 'in' : 'eq', expected);
  });
}

/**
 * Problems in a condition, each with its path (for schema checks and the renderer's error box):
 * `when.all[1].op: 未知的条件运算符 "like"`.
 */
export function conditionProblems(condition: unknown, path = 'when'): string[] {
  if (condition === undefined || condition === null || typeof condition === 'boolean') return [];
  if (!isPlainObject(condition)) return [`${path}: 条件必须是对象或布尔值`];
  const c = condition;
  const list = (key: 'all' | 'any') =>
    Array.isArray(c[key])
      ? (c[key] as unknown[]).flatMap((x, i) => conditionProblems(x, `${path}.${key}[${i}]`))
      : [`${path}.${key}: 必须是条件数组`];
  if ('all' in c) return list('all');
  if ('any' in c) return list('any');
  if ('not' in c) return conditionProblems(c.not, `${path}.not`);
  if ('flag' in c) return typeof c.flag === 'string' ? [] : [`${path}.flag: 必须是公司开关名称`];
  if ('right' in c) {
    const ok = typeof c.right === 'string' || (Array.isArray(c.right) && c.right.every((x) => typeof x === 'string'));
    return ok ? [] : [`${path}.right: 必须是权限编码或其数组`];
  }
  if ('field' in c) {
    const out: string[] = [];
    if (typeof c.field !== 'string' || !c.field) out.push(`${path}.field: 必须是字段名`);
    if (c.op !== undefined && !CONDITION_OPS.includes(c.op as ConditionOp)) out.push(`${path}.op: 未知的条件运算符 "${String(c.op)}"`);
    if ((c.op === 'in' || c.op === 'nin') && !Array.isArray(c.value)) out.push(`${path}.value: ${String(c.op)} 需要数组`);
    return out;
  }
  return Object.entries(c).flatMap(([k, v]) =>
    RESERVED.has(k) ? [`${path}.${k}: 保留字不能用作字段简写`] : isPlainObject(v) ? [`${path}.${k}: 简写的值必须是标量或数组`] : [],
  );
}
