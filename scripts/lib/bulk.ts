// What the bulk seeders share (seed-scale, seed-moves, seed-documents): a seeded PRNG, so a run gives the
// same data again, and multi-row inserts sized under each database's bound-parameter limit.
import type { DB, Dialect } from '../../src/server/db/connection.ts';

/** mulberry32: a uniform number in [0, 1) per call, the same sequence for the same seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Rows per multi-row insert: bound parameters under SQLite's 32766 and PostgreSQL's 65535. */
export const batchOf = (dialect: Dialect, columns: number) => Math.floor((dialect === 'postgres' ? 60000 : 30000) / columns);

export async function insertBatched(db: DB, dialect: Dialect, table: string, rows: Record<string, unknown>[]): Promise<void> {
  if (!rows.length) return;
  const size = batchOf(dialect, Object.keys(rows[0]!).length);
  for (let i = 0; i < rows.length; i += size) await db.insertInto(table).values(rows.slice(i, i + size)).execute();
}
