// Tables of `managed` document definitions, created from their fields (the way a Frappe DocType owns its
// table): run at start-up after the migrations. A missing table is created; a field added to the
// definition later becomes a new nullable column. Columns are never dropped or retyped here (a
// migration does that, on purpose). Migration-owned documents (managed: false) are left alone.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../db/connection.ts';
import { index, withId, withTenantStamps } from '../db/migrations/columns.ts';
import { lockStartup } from '../db/migrate.ts';
import type { FieldType } from '../resources/types.ts';
import type { DocumentDefinition } from './definition.ts';
import { snake } from './fields.ts';

function columnType(t: FieldType): 'integer' | 'bigint' | 'text' {
  switch (t) {
    case 'reference': case 'boolean': return 'integer';
    // quantities (small units) and scaled money/decimals can pass 2^31
    case 'integer': case 'money': case 'decimal': return 'bigint';
    default: return 'text';
  }
}

async function existingColumns(db: Kysely<any>, dialect: Dialect, table: string): Promise<Set<string> | undefined> {
  const rows = dialect === 'sqlite'
    ? (await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db)).rows
    : (await sql<{ name: string }>`select column_name as name from information_schema.columns where table_schema = current_schema() and table_name = ${table}`.execute(db)).rows;
  return rows.length ? new Set(rows.map((r) => r.name)) : undefined;
}

export async function syncDocumentTables(db: Kysely<any>, dialect: Dialect, defs: DocumentDefinition[]): Promise<void> {
  if (!defs.some((d) => d.managed)) return;
  // under the start-up lock: processes starting together would collide creating the same table
  await db.transaction().execute(async (trx) => {
    await lockStartup(trx, dialect);
    await syncTables(trx, dialect, defs);
  });
}

async function syncTables(db: Kysely<any>, dialect: Dialect, defs: DocumentDefinition[]): Promise<void> {
  for (const def of defs) {
    if (!def.managed) continue;
    const header = snake(def.table);
    const lines = snake(def.lines.table);
    const stamps = [...new Set(Object.values(def.transitions).flatMap((t) => (t.stamp ? [t.stamp] : [])))];
    const headerCols: Array<[string, string]> = [
      ['doc_no', 'text'], ['status', 'text'],
      ...stamps.flatMap((s): Array<[string, string]> => [[`${snake(s)}_at`, 'text'], [`${snake(s)}_by`, 'integer']]),
      ...(def.stampsAlso ?? []).map((s): [string, string] => [`${snake(s)}_at`, 'text']),
      ...Object.entries(def.header).map(([name, f]): [string, string] => [snake(f.column ?? name), columnType(f.type)]),
    ];
    const parent = snake(def.lines.parent ?? 'docId');
    const lineCols: Array<[string, string]> = Object.entries(def.lines.fields).map(([name, f]) => [snake(f.column ?? name), columnType(f.type)]);

    const have = await existingColumns(db, dialect, header);
    if (!have) {
      let t = withTenantStamps(withId(db.schema.createTable(header).ifNotExists(), dialect));
      for (const [c, type] of headerCols) t = t.addColumn(c, type as any, (b) => (c === 'doc_no' || c === 'status' ? b.notNull() : b));
      await t.execute();
      await index(db, header, ['company_id', 'doc_no'], true);
      await index(db, header, ['company_id', 'status', 'id']);
    } else {
      for (const [c, type] of headerCols) if (!have.has(c)) await db.schema.alterTable(header).addColumn(c, type as any).execute();
    }
    const haveLines = await existingColumns(db, dialect, lines);
    if (!haveLines) {
      let t = withId(db.schema.createTable(lines).ifNotExists(), dialect)
        .addColumn('company_id', 'integer', (b) => b.notNull())
        .addColumn(parent, 'integer', (b) => b.notNull().references(`${header}.id`))
        .addColumn('line_no', 'integer', (b) => b.notNull());
      for (const [c, type] of lineCols) t = t.addColumn(c, type as any);
      await t.execute();
      await index(db, lines, ['company_id', parent, 'line_no'], true);
    } else {
      for (const [c, type] of lineCols) if (!haveLines.has(c)) await db.schema.alterTable(lines).addColumn(c, type as any).execute();
    }
    // the definition's own indexes (lookups by a source document), made once
    for (const [table, list] of [[header, def.indexes ?? []], [lines, def.lines.indexes ?? []]] as const) {
      for (const cols of list) {
        const columns = ['company_id', ...cols.map((c) => snake(c))];
        await db.schema.createIndex(`${table}_${columns.join('_')}_ix`).ifNotExists().on(table).columns(columns).execute();
      }
    }
  }
}
