// The {code,msg,data} envelope and the client-side codes the request core adds for outcomes that have
// no server answer. Callers check `res.code === OK` (or use isOk); every call resolves to an envelope.

import type { Envelope } from '../../core/codes';

export type { Envelope };

/** The request was dropped: an identical one is already in flight (spec §8). No toast. */
export const CLIENT_DUPLICATE = 'CLIENT_DUPLICATE';
/** No usable answer: network failure, timeout, or a body that is not an envelope. Toast shown. */
export const CLIENT_NETWORK = 'CLIENT_NETWORK';
/** A file call failed without a JSON envelope (export/template failure). Toast shown. */
export const CLIENT_FILE_ERROR = 'CLIENT_FILE_ERROR';
/** The caller aborted the request (AbortSignal). No toast. */
export const CLIENT_ABORTED = 'CLIENT_ABORTED';

export function clientEnvelope<T = null>(code: string, msg = '', data: T = null as T): Envelope<T> {
  return { code, msg, data };
}

/** Read a response body as an envelope; null when it is not one. Numeric codes are normalised. */
export function asEnvelope(body: unknown): Envelope | null {
  if (typeof body === 'string') {
    const t = body.trim();
    if (!t.startsWith('{')) return null;
    try {
      body = JSON.parse(t);
    } catch {
      return null;
    }
  }
  if (!body || typeof body !== 'object') return null;
  const b = body as Record<string, unknown>;
  if (typeof b.code !== 'string' && typeof b.code !== 'number') return null;
  return { code: String(b.code), msg: typeof b.msg === 'string' ? b.msg : b.msg == null ? '' : String(b.msg), data: b.data ?? null };
}
