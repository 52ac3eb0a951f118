// One transaction, retried when PostgreSQL reports a serialization failure or a deadlock.
import type { DB } from '../db/connection.ts';

const RETRYABLE = new Set(['40001', '40P01']);

export async function inTransaction<T>(db: DB, fn: (trx: DB) => Promise<T>, attempts = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await db.transaction().execute(fn);
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (!code || !RETRYABLE.has(code) || i >= attempts) throw e;
      await new Promise((r) => setTimeout(r, 5 * i + Math.random() * 20));
    }
  }
}
