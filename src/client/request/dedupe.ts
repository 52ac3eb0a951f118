// Duplicate-request tracking (spec §8): an identical request (same family, code, body and extra
// params) already in flight is dropped. Codes whose catalog entry says dedupe:false are not tracked.

const inFlight = new Set<string>();

function stable(value: unknown, seen: WeakSet<object>): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (typeof Blob !== 'undefined' && value instanceof Blob) {
    const f = value as Blob & { name?: string; lastModified?: number };
    return { $blob: [f.name ?? '', f.size, f.type, f.lastModified ?? 0] };
  }
  if (typeof FormData !== 'undefined' && value instanceof FormData) {
    return { $form: [...value.entries()].map(([k, v]) => [k, stable(v, seen)]) };
  }
  if (seen.has(value)) return '$cycle';
  seen.add(value);
  if (Array.isArray(value)) return value.map((v) => stable(v, seen));
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value).sort()) out[k] = stable((value as Record<string, unknown>)[k], seen);
  return out;
}

/** A key identical for identical requests, whatever the order of object keys. */
export function requestKey(family: string, code: string, body: unknown, extra?: unknown): string {
  return `${family}:${code}:${JSON.stringify(stable(body ?? null, new WeakSet()))}:${JSON.stringify(
    stable(extra ?? null, new WeakSet()),
  )}`;
}

/** Try to register a request; false when an identical one is in flight. */
export function acquire(key: string): boolean {
  if (inFlight.has(key)) return false;
  inFlight.add(key);
  return true;
}

export function release(key: string): void {
  inFlight.delete(key);
}

export function inFlightCount(): number {
  return inFlight.size;
}
