// Document numbers (src/server/domain/sequence.ts) on the database the suite runs on. Never one number
// twice, also while transactions overlap; on PostgreSQL a transaction that has taken a number does not
// hold up the next document of the same kind (its number is committed on its own connection), and a
// rolled-back document leaves a gap. On SQLite (one writer) numbers stay in the document's transaction:
// a rolled-back document gives its number back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextDocumentNo } from '../../src/server/domain/sequence.ts';
import { inTransaction } from '../../src/server/http/transaction.ts';
import { isPostgres, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let companyId: number;

beforeAll(async () => {
  t = await startTestServer();
  companyId = Number((await t.database.db.selectFrom('company').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id);
});

afterAll(async () => {
  await t?.close();
});

const AT = new Date('2026-11-21T04:00:00Z');
const take = (db: typeof t.database.db) => nextDocumentNo(db, companyId, 'TN', 8, AT);

describe('document numbers', () => {
  it('hands out each number once to overlapping transactions', async () => {
    const numbers = await Promise.all(Array.from({ length: 12 }, () => inTransaction(t.database.db, (trx) => take(trx))));
    expect(new Set(numbers).size).toBe(12);
    expect(numbers.every((n) => /^TN20261121\d{4}$/.test(n))).toBe(true);
  });

  it.runIf(isPostgres())('PostgreSQL: an open transaction holding a number does not hold up the next one', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let first = '';
    const slow = inTransaction(t.database.db, async (trx) => {
      first = await take(trx);
      await held;
    });
    while (!first) await new Promise((r) => setTimeout(r, 5));
    // Within a second, while the first transaction is still open.
    const second = await Promise.race([
      inTransaction(t.database.db, (trx) => take(trx)),
      new Promise<string>((r) => setTimeout(() => r('waited'), 1000)),
    ]);
    release();
    await slow;
    expect(second).not.toBe('waited');
    expect(Number(second.slice(-4))).toBe(Number(first.slice(-4)) + 1);
  });

  it('a rolled-back document: a gap on PostgreSQL, the number given back on SQLite', async () => {
    const before = await inTransaction(t.database.db, (trx) => take(trx));
    await expect(inTransaction(t.database.db, async (trx) => {
      await take(trx);
      throw new Error('document refused');
    })).rejects.toThrow('document refused');
    const after = await inTransaction(t.database.db, (trx) => take(trx));
    expect(Number(after.slice(-4)) - Number(before.slice(-4))).toBe(isPostgres() ? 2 : 1);
  });
});
