// Idempotency keys for calls the catalog marks `idempotent` (document saves, confirm/post/cancel, copy,
// imports that create documents; see server/http/idempotency.ts). One key per submission:
// - the request core takes one key per call and keeps it across its own retries (a 5012 refresh and
//   replay sends the same key again);
// - a submission whose answer never arrived (network failure, aborted) is usually submitted again by the
//   user — a second click on the same form, same content: that repeat reuses the unanswered key, so the
//   server answers the first call's outcome instead of making a second document. Any answer from the
//   server (success or refusal) ends the submission: the next click is a new one, with a new key;
// - a caller that knows its submissions (a form instance) may pass its own key (CallOptions).

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** How long an unanswered submission's key is reused (the server keeps keys 24 h by default). */
const REUSE_MS = 12 * 3600 * 1000;
const MAX_UNANSWERED = 200;

/** request identity (family, code, body) → the key of its unanswered submission */
const unanswered = new Map<string, { key: string; at: number }>();

/** 128 random bits as hex (crypto.getRandomValues works outside secure contexts too). */
export function newIdempotencyKey(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The key for a submission of `request` (its dedupe identity): given, reused if unanswered, or new. */
export function submissionKey(request: string, given?: string, now = Date.now()): string {
  if (given) return given;
  const open = unanswered.get(request);
  if (open && now - open.at < REUSE_MS) return open.key;
  return newIdempotencyKey();
}

/** After the call: `answered` false (no answer reached us) keeps the key for the same submission again. */
export function settleSubmission(request: string, key: string, answered: boolean, now = Date.now()): void {
  unanswered.delete(request);
  if (answered) return;
  if (unanswered.size >= MAX_UNANSWERED) unanswered.delete(unanswered.keys().next().value!);
  unanswered.set(request, { key, at: now });
}
