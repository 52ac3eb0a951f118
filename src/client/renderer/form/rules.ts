// Validation rules of a form field, from its schema (required, length, pattern, min/max and extra
// rules with their messages). Numbers are compared exactly (money arrives as a decimal string). Pure:
// the formily field calls `validateValue` through one validator function.

import { compareDecimalStrings } from '../../../core/conditions';
import type { FieldSchema, RuleSchema } from '../types';

function empty(v: unknown): boolean {
  return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
}

export function requiredMessage(field: Pick<FieldSchema, 'title' | 'requiredMessage'>, choice: boolean): string {
  return field.requiredMessage ?? `${choice ? '请选择' : '请输入'}${field.title}`;
}

const NUM = /^\s*-?\d+(\.\d+)?\s*$/;

function lengthOf(v: unknown): number {
  return Array.isArray(v) ? v.length : [...String(v)].length;
}

function checkRule(title: string, rule: RuleSchema, value: unknown, numeric: boolean): string | undefined {
  if (rule.maxLength !== undefined && lengthOf(value) > rule.maxLength) return rule.message ?? `${title}最多 ${rule.maxLength} 个字符`;
  if (rule.minLength !== undefined && lengthOf(value) < rule.minLength) return rule.message ?? `${title}至少 ${rule.minLength} 个字符`;
  if (rule.pattern !== undefined && typeof value !== 'object') {
    let re: RegExp | null = null;
    try {
      re = new RegExp(rule.pattern);
    } catch {
      re = null; // a bad pattern is a schema problem, reported by the schema check, not the user's
    }
    if (re && !re.test(String(value))) return rule.message ?? `${title}格式不正确`;
  }
  if ((rule.min !== undefined || rule.max !== undefined) && numeric) {
    const s = String(value).trim();
    if (!NUM.test(s)) return rule.message ?? `${title}必须是数字`;
    // Refused, never clamped: the message names the whole range when there is one.
    const range = rule.min !== undefined && rule.max !== undefined ? `${title}须在 ${rule.min} 到 ${rule.max} 之间` : undefined;
    if (rule.min !== undefined && compareDecimalStrings(s, String(rule.min)) < 0) return rule.message ?? range ?? `${title}不能小于 ${rule.min}`;
    if (rule.max !== undefined && compareDecimalStrings(s, String(rule.max)) > 0) return rule.message ?? range ?? `${title}不能大于 ${rule.max}`;
  }
  return undefined;
}

/** Widgets whose min/max bound the value rather than the length. */
const NUMERIC_WIDGETS = new Set(['number', 'money']);

/** The first message the value breaks (required is handled by formily's own `required`). */
export function validateValue(field: FieldSchema, value: unknown): string | undefined {
  if (empty(value)) return undefined;
  const numeric = NUMERIC_WIDGETS.has(field.widget ?? 'input');
  const base: RuleSchema = {
    maxLength: field.maxLength,
    minLength: field.minLength,
    pattern: field.pattern,
    min: numeric ? field.min : undefined,
    max: numeric ? field.max : undefined,
  };
  const own = checkRule(field.title, { ...base, pattern: undefined }, value, numeric);
  if (own) return own;
  if (field.pattern !== undefined) {
    const p = checkRule(field.title, { pattern: field.pattern, message: field.patternMessage }, value, numeric);
    if (p) return p;
  }
  for (const r of field.rules ?? []) {
    const m = checkRule(field.title, r, value, numeric || r.min !== undefined || r.max !== undefined);
    if (m) return m;
  }
  return undefined;
}
