// Validates handler input against its JSON Schema and reports each failure in Chinese, naming the field.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { validationError, type FieldError } from '../http/errors.ts';
import { DB_INT_MAX, DB_INT_MIN } from '../db/int-bounds.ts';
import type { InputSchema } from './context.ts';

const ajv = new Ajv2020({ allErrors: true, strict: false, coerceTypes: false, useDefaults: true, removeAdditional: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
const cache = new WeakMap<InputSchema, ValidateFunction>();

function titleAt(schema: InputSchema, pointer: string, extra?: string): string {
  const parts = pointer.split('/').filter(Boolean);
  if (extra) parts.push(extra);
  let node: any = schema;
  let title = parts.join('.') || '请求内容';
  for (const p of parts) {
    if (node?.properties?.[p]) node = node.properties[p];
    else if (node?.items && /^\d+$/.test(p)) node = node.items;
    else { node = undefined; break; }
    if (typeof node?.title === 'string') title = node.title;
  }
  return title;
}

function describe(schema: InputSchema, e: ErrorObject): FieldError {
  const missing = e.keyword === 'required' ? String((e.params as { missingProperty: string }).missingProperty) : undefined;
  const title = titleAt(schema, e.instancePath, missing);
  const field = [e.instancePath.split('/').filter(Boolean).join('.'), missing].filter(Boolean).join('.') || '$';
  const p = e.params as Record<string, unknown>;
  const msg = (() => {
    switch (e.keyword) {
      case 'required': return `${title}不能为空`;
      case 'type': return `${title}格式不正确`;
      case 'maxLength': return `${title}长度不能超过 ${p.limit} 个字符`;
      case 'minLength': return Number(p.limit) <= 1 ? `${title}不能为空` : `${title}长度不能少于 ${p.limit} 个字符`;
      case 'minimum': case 'exclusiveMinimum': return `${title}不能小于${e.keyword === 'exclusiveMinimum' ? '或等于' : ''} ${p.limit}`;
      case 'maximum': case 'exclusiveMaximum': return `${title}不能大于${e.keyword === 'exclusiveMaximum' ? '或等于' : ''} ${p.limit}`;
      case 'enum': case 'const': return `${title}取值不正确`;
      case 'maxItems': return `${title}最多 ${p.limit} 项`;
      case 'minItems': return `${title}至少 ${p.limit} 项`;
      case 'format': case 'pattern': return `${title}格式不正确`;
      default: return `${title}不正确`;
    }
  })();
  return { field, message: msg };
}

/** Keywords whose values are data, not schemas. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'title', 'description']);

/**
 * The schema as compiled: every `integer` without a bound gets the database integer's (an id of 2^31 or
 * 1e308 is an integer to JSON Schema, and PostgreSQL fails the statement it reaches), so every code
 * refuses it naming the field, whoever wrote its schema. Bounds a schema states are kept.
 */
export function withIntegerBounds(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withIntegerBounds);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) out[k] = DATA_KEYWORDS.has(k) ? v : withIntegerBounds(v);
  const type = out.type;
  if (type === 'integer' || (Array.isArray(type) && type.includes('integer'))) {
    if (out.maximum === undefined && out.exclusiveMaximum === undefined) out.maximum = DB_INT_MAX;
    if (out.minimum === undefined && out.exclusiveMinimum === undefined) out.minimum = DB_INT_MIN;
  }
  return out;
}

export function validateInput<T>(schema: InputSchema | undefined, input: unknown): T {
  if (!schema) return (input ?? {}) as T;
  let fn = cache.get(schema);
  if (!fn) { fn = ajv.compile(withIntegerBounds(schema) as InputSchema); cache.set(schema, fn); }
  const value = input ?? {};
  if (fn(value)) return value as T;
  const seen = new Set<string>();
  const errors = (fn.errors ?? []).map((e) => describe(schema, e)).filter((e) => !seen.has(e.field) && seen.add(e.field));
  throw validationError(errors);
}
