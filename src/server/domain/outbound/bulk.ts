// Guarded quantity changes of many lines in one statement (the outbound documents change the task and
// order lines of a whole wave or note at once): `UPDATE <table> SET ... FROM (VALUES ...)` with the guard
// in its WHERE, evaluated by the database on each row as it is; RETURNING tells which rows passed, so a
// caller compares the count and looks for the refused row only when one was refused (as the ledger does).
import type { Tenant } from '../../catalog/tenant.ts';
import { isSqlite, runSql, sqlText, tuples } from '../../db/raw-sql.ts';

export interface BulkChange {
  /** snake_case table */
  table: string;
  /** names of the per-row values after the id (v.<name> in `set` and `guard`) */
  values: string[];
  /** the SET list, e.g. `picking_qty = picking_qty + v.q` */
  set: string;
  /** the guard, columns as `t.<column>`, values as `v.<name>` (true: none) */
  guard: string;
}

/** Applies the change to each row [id, ...values] (sorted by id: one lock order on PostgreSQL); returns the ids it changed. */
export async function bulkChange(tenant: Tenant, c: BulkChange, rows: Array<[number, ...number[]]>): Promise<Set<number>> {
  const done = new Set<number>();
  const sorted = [...rows].sort((a, b) => a[0] - b[0]);
  const pg = !isSqlite(tenant.db);
  for (let i = 0; i < sorted.length; i += 500) {
    const chunk = sorted.slice(i, i + 500);
    const width = c.values.length + 1;
    const tuple = pg ? `(${['cast(? as integer)', ...c.values.map(() => 'cast(? as bigint)')].join(', ')})` : `(${new Array(width).fill('?').join(', ')})`;
    const text = sqlText(`bulk ${c.table} ${c.set} ${c.guard} ${pg} ${chunk.length}`, () => `
      with v(vid, ${c.values.join(', ')}) as (values ${tuples(tuple, chunk.length)})
      update ${c.table} as t set ${c.set}
      from v where t.company_id = ? and t.id = v.vid and (${c.guard})
      returning id`);
    const params: unknown[] = chunk.flat();
    params.push(tenant.companyId);
    for (const r of await runSql(tenant.db, text, params)) done.add(Number(r.id));
  }
  return done;
}
