// One transaction, retried when PostgreSQL reports a serialization failure or a deadlock, or when SQLite
// reports the database busy: another process committed after this transaction's first read, so its
// snapshot cannot become a write (SQLITE_BUSY_SNAPSHOT — the busy timeout does not wait for that), or
// the busy timeout ran out. Every attempt starts from a clean, rolled-back transaction.
import { rememberRoot } from '../db/autonomous.ts';
import type { DB } from '../db/connection.ts';

const RETRYABLE = new Set(['40001', '40P01', 'SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT']);

export async function inTransaction<T>(db: DB, fn: (trx: DB) => Promise<T>, attempts = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await db.transaction().execute((trx) => {
        rememberRoot(trx, db);
        return fn(trx);
      });
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (!code || !RETRYABLE.has(code) || i >= attempts) throw e;
      await new Promise((r) => setTimeout(r, 5 * i + Math.random() * 20));
    }
  }
}
