// Grand totals of a list: the fields a resource marks `summable`, summed by the database over every row
// the list's keyword and filters keep (not just the page). Stored values are integers (money and
// decimals scaled), so the sums are exact; they are answered the way list rows carry the field: money and
// decimals as exact decimal text ("1234.50"), integers as numbers (as text past 2^53).
import Decimal from 'decimal.js';
import { scaleOf } from './fields.ts';
import type { Field, Resource } from './types.ts';

export function summableFields(r: Resource): Field[] {
  return r.fields.filter((f) => f.summable === true);
}

/** A database sum (number, numeric text or null for no rows) as the list answers it. */
export function exposeSum(f: Field, raw: unknown): string | number {
  const d = raw === null || raw === undefined || raw === '' ? new Decimal(0) : new Decimal(String(raw));
  const scale = scaleOf(f);
  if (scale > 0) return d.div(new Decimal(10).pow(scale)).toFixed(scale);
  return d.abs().lessThanOrEqualTo(Number.MAX_SAFE_INTEGER) ? d.toNumber() : d.toFixed(0);
}

/** {field: total} of every summable field, from the sums the query answered. */
export function totalsOf(fields: readonly Field[], sums: Map<string, unknown>): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const f of fields) out[f.name] = exposeSum(f, sums.get(f.name));
  return out;
}
