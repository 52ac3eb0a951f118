// Retry-safe writes. A call the catalog marks `idempotent` (document saves, confirm/post/cancel, copy,
// imports that create documents) may come with an `Idempotency-Key` header: one per form submission or
// action click, kept by the client's request core across its own retries. A repeat with the same key
// (same company, account and endpoint) answers what the first call answered and writes nothing — so a
// second click after an answer lost to a network error or a server killed just after its commit does
// not make a second document.
// - The key is claimed at the start of the call's transaction (a row under a unique constraint) and its
//   answer written just before that transaction commits: the key and the call's writes commit together
//   or not at all, so no kill between commit and recording can lose it.
// - A concurrent twin waits on the unique index until the first commits, then finds the row and answers
//   the stored response (its own transaction rolls back untouched).
// - The same key with a different request is refused (COMMON_IDEMPOTENCY_KEY_4024) and changes nothing.
// - Keys are kept IDEMPOTENCY_KEY_HOURS (default 24) and swept like finished exports.
// Every transaction a handler opens through ctx.transaction carries this, so any document served
// through the catalog inherits it by setting `idempotent: true` on its codes.
import crypto from 'node:crypto';
import type { EndpointEntry } from '../../core/catalog.ts';
import type { Caller } from '../catalog/context.ts';
import type { DB } from '../db/connection.ts';
import { ApiError, bizError } from './errors.ts';
import { JsonText } from './json-text.ts';
import { inTransaction } from './transaction.ts';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** What a key may look like: the client sends a random hex or UUID string. */
const KEY_FORMAT = /^[A-Za-z0-9_.:-]{8,128}$/;

/** Thrown inside a transaction when the key was already used: the stored answer is the call's answer. */
export class Replay {
  constructor(readonly answer: JsonText) {}
}

interface Scope {
  companyId: number;
  accountId: number;
  /** family:code */
  endpoint: string;
}

function canonical(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(canonical);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value).sort()) out[k] = canonical((value as Record<string, unknown>)[k]);
  return out;
}

/**
 * The content a key stands for: the JSON body (key order ignored) and the query string (multipart
 * imports carry their choices there; the file itself is not hashed — a new file is a new submission
 * and gets a new key from the client).
 */
export function requestHash(body: unknown, query: Record<string, unknown>): string {
  const { token: _token, ...rest } = query ?? {};
  return crypto.createHash('sha256').update(JSON.stringify([canonical(body ?? null), canonical(rest)])).digest('hex');
}

/** The call's key, if it brought one (refused when malformed); undefined for codes not marked. */
export function keyOf(entry: EndpointEntry, headers: Record<string, string | string[] | undefined>): string | undefined {
  if (!entry.idempotent) return undefined;
  const raw = headers[IDEMPOTENCY_HEADER];
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string' || !KEY_FORMAT.test(raw)) throw bizError('COMMON_HEADER_4016', { name: 'Idempotency-Key' });
  return raw;
}

function answerText(result: unknown): string {
  return result instanceof JsonText ? result.text : JSON.stringify(result ?? null);
}

/** The call's IdempotentCall when its code is marked idempotent and it came with a key (else undefined). */
export function idempotentCall(db: DB, entry: EndpointEntry, caller: Caller | null, endpoint: string,
  headers: Record<string, string | string[] | undefined>, body: unknown, query: unknown): IdempotentCall | undefined {
  const key = caller ? keyOf(entry, headers) : undefined;
  if (!key || !caller) return undefined;
  const scope = { companyId: caller.company.id, accountId: caller.accountId, endpoint };
  return new IdempotentCall(db, scope, key, requestHash(body, (query ?? {}) as Record<string, unknown>));
}

/** One call that came with a key. */
export class IdempotentCall {
  /** a transaction of this call committed the claim */
  #claimed = false;
  /** the answer last written to the row (committed) */
  #recorded: string | undefined;

  constructor(private readonly db: DB, private readonly scope: Scope, readonly key: string, private readonly hash: string) {}

  #row(db: DB) {
    return db.selectFrom('idempotencyKey').select(['requestHash', 'answer'])
      .where('companyId', '=', this.scope.companyId).where('accountId', '=', this.scope.accountId)
      .where('endpoint', '=', this.scope.endpoint).where('idemKey', '=', this.key);
  }

  /**
   * Runs the handler: a key already answered gives that answer (Replay) without running it; a refusal
   * that raced a twin which committed meanwhile also gives the twin's answer, as the twin's own repeat
   * would.
   */
  async run(handler: () => Promise<unknown>): Promise<unknown> {
    const first = await this.stored();
    if (first) return new Replay(first);
    let result: unknown;
    try {
      result = await handler();
    } catch (e) {
      if (e instanceof Replay) return e;
      if (e instanceof ApiError) {
        const twin = await this.stored();
        if (twin) return new Replay(twin);
      }
      throw e;
    }
    await this.finish(result);
    return result;
  }

  /** ctx.transaction of the call: the key is claimed first and answered last, in the same transaction. */
  async transaction<T>(db: DB, work: (trx: DB) => Promise<T>): Promise<T> {
    const result = await inTransaction(db, async (trx) => {
      await this.claim(trx);
      const r = await work(trx);
      await this.record(trx, r);
      return r;
    });
    this.committed(result);
    return result;
  }

  /** The first call's answer when this key was used before (refused if for other content). */
  async stored(db: DB = this.db): Promise<JsonText | undefined> {
    const row = (await this.#row(db).executeTakeFirst()) as { requestHash: string; answer: string } | undefined;
    if (!row) return undefined;
    if (row.requestHash !== this.hash) throw bizError('COMMON_IDEMPOTENCY_KEY_4024');
    return new JsonText(row.answer);
  }

  /**
   * First thing in each transaction of the call: claims the key (the first transaction only). If it is
   * taken — by a twin that committed meanwhile — throws Replay with that twin's answer.
   */
  async claim(trx: DB): Promise<void> {
    if (this.#claimed) return;
    // A row seen as a conflict may be gone by the time it is read (its twin rolled back, or the sweep):
    // then the key is free again and the insert is tried once more.
    for (let attempt = 0; attempt < 3; attempt++) {
      const inserted = await trx.insertInto('idempotencyKey').values({
        companyId: this.scope.companyId, accountId: this.scope.accountId, endpoint: this.scope.endpoint, idemKey: this.key,
        requestHash: this.hash, answer: 'null', createdAt: new Date().toISOString(),
      }).onConflict((oc) => oc.columns(['companyId', 'accountId', 'endpoint', 'idemKey']).doNothing()).returning('id').executeTakeFirst();
      if (inserted) return;
      const first = await this.stored(trx);
      if (first) throw new Replay(first);
    }
    throw new Error('idempotency key could not be claimed');
  }

  /** Last thing in each transaction of the call: its answer, committed with its writes. */
  async record(trx: DB, result: unknown): Promise<void> {
    const text = answerText(result);
    await this.#update(trx, text);
  }

  /** After a transaction of the call committed. */
  committed(result: unknown): void {
    this.#claimed = true;
    this.#recorded = answerText(result);
  }

  /**
   * After the handler answered: a call that wrote without ctx.transaction records its key now; one whose
   * answer is not its last transaction's result (reshaped afterwards) stores the answer it gave.
   */
  async finish(result: unknown): Promise<void> {
    const text = answerText(result);
    if (!this.#claimed) {
      await this.db.insertInto('idempotencyKey').values({
        companyId: this.scope.companyId, accountId: this.scope.accountId, endpoint: this.scope.endpoint, idemKey: this.key,
        requestHash: this.hash, answer: text, createdAt: new Date().toISOString(),
      }).onConflict((oc) => oc.columns(['companyId', 'accountId', 'endpoint', 'idemKey']).doNothing()).execute();
    } else if (text !== this.#recorded) {
      await this.#update(this.db, text);
    }
  }

  async #update(db: DB, text: string): Promise<void> {
    await db.updateTable('idempotencyKey').set({ answer: text })
      .where('companyId', '=', this.scope.companyId).where('accountId', '=', this.scope.accountId)
      .where('endpoint', '=', this.scope.endpoint).where('idemKey', '=', this.key).execute();
  }
}

const HOUR_MS = 3600 * 1000;

/** Removes keys older than `hours` (0: never). */
export async function sweepIdempotencyKeys(db: DB, hours: number, now = Date.now()): Promise<number> {
  if (!hours) return 0;
  const cutoff = new Date(now - hours * HOUR_MS).toISOString();
  const r = await db.deleteFrom('idempotencyKey').where('createdAt', '<', cutoff).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** The sweep at start-up and then hourly, until stopped. */
export function startIdempotencySweep(db: DB, hours: number, intervalMs = HOUR_MS): { stop(): Promise<void> } {
  if (!hours) return { stop: async () => undefined };
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const run = () => {
    if (!stopped) running = sweepIdempotencyKeys(db, hours).catch((e) => console.error('[idempotency sweep]', e));
  };
  run();
  const timer = setInterval(run, intervalMs);
  timer.unref?.();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
