// Per-company number sequences (table `sequence`): product codes, document numbers. A value is taken by
// one conditional increment (UPDATE ... SET next_value = next_value + 1 RETURNING), so two callers never
// share one; the first use creates the row with an insert that cannot race (ON CONFLICT DO NOTHING).
// takeSequenceValue runs in the caller's transaction: a rolled-back transaction gives its value back.
// Document numbers on PostgreSQL are taken on a connection of their own and committed at once
// (db/autonomous.ts), so documents of one kind do not queue behind each other's commits; a document
// whose transaction rolls back then leaves a gap in the day's numbers (never a number used twice).
import { formatDate } from '../../core/format.ts';
import { autonomousFor } from '../db/autonomous.ts';
import type { DB } from '../db/connection.ts';
import { runSql } from '../db/raw-sql.ts';

/** Takes the next value of a company's sequence; `start` gives the first value when the sequence is new. */
export async function takeSequenceValue(db: DB, companyId: number, name: string, start: number | (() => Promise<number>) = 1): Promise<number> {
  for (let attempt = 0; attempt < 3; attempt++) {
    // Every document number passes here: plain SQL (db/raw-sql.ts).
    const [bumped] = await runSql(db, 'update sequence set next_value = next_value + 1 where company_id = ? and name = ? returning next_value', [companyId, name]);
    if (bumped) return Number(bumped.nextValue) - 1;
    const first = typeof start === 'function' ? await start() : start;
    await db.insertInto('sequence').values({ companyId, name, nextValue: first })
      .onConflict((oc) => oc.columns(['companyId', 'name']).doNothing()).execute();
  }
  throw new Error(`sequence ${name}: could not take a value`);
}

/**
 * A document number: prefix + the company's date + a per-day counter, e.g. QC202611210001.
 * `tzHours` is the company's time zone, so the day changes at the company's midnight.
 */
export async function nextDocumentNo(db: DB, companyId: number, prefix: string, tzHours: number, at = new Date()): Promise<string> {
  const day = formatDate(at.toISOString(), tzHours).replace(/-/g, '');
  const n = await takeSequenceValue(autonomousFor(db) ?? db, companyId, `doc:${prefix}:${day}`, 1);
  return `${prefix}${day}${String(n).padStart(4, '0')}`;
}
