// `{field}` placeholders in schema strings (link routes, call bodies, success texts). Plain text
// substitution only — nothing is evaluated. In a route, values are URL-encoded; a body string that is
// exactly one placeholder keeps the value's type (so {"id": "{id}"} sends a number, {"ids": "{ids}"}
// an array).

import { readPath } from '../../core/conditions';

const PLACEHOLDER = /\{([A-Za-z_$][\w.$]*)\}/g;
const WHOLE = /^\{([A-Za-z_$][\w.$]*)\}$/;

function text(v: unknown): string {
  return v === undefined || v === null ? '' : String(v);
}

/** "/procurement/purchaseOrder/{id}" → "/procurement/purchaseOrder/12". */
export function fillRoute(template: string, data: Record<string, unknown> | null | undefined): string {
  return template.replace(PLACEHOLDER, (_, path: string) => encodeURIComponent(text(readPath(data, path))));
}

/** Text with placeholders filled, not encoded (messages). */
export function fillText(template: string, data: Record<string, unknown> | null | undefined): string {
  return template.replace(PLACEHOLDER, (_, path: string) => text(readPath(data, path)));
}

/** A body template filled from data, recursively; whole-placeholder strings keep their type. */
export function fillBody(template: unknown, data: Record<string, unknown> | null | undefined): unknown {
  if (typeof template === 'string') {
    const whole = WHOLE.exec(template);
    if (whole) return readPath(data, whole[1]!);
    return fillText(template, data);
  }
  if (Array.isArray(template)) return template.map((t) => fillBody(t, data));
  if (template && typeof template === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(template)) out[k] = fillBody(v, data);
    return out;
  }
  return template;
}
