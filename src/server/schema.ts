// The database's whole schema, made or brought up to date the one way every entry point does it — the
// server, `npm run seed`, the benchmarks, `npm run db:types`, 数据库结构对比's scratch copy: the migration
// files, then the tables of the managed document definitions (documents/tables.ts), which own their
// tables the way a Frappe DocType does. Calling migrate() alone left a seeded database without
// pay_document and `npm run verify` failing on it (issue 33 item 3); lint keeps migrate() to this file.
import type { Kysely } from 'kysely';
import type { Dialect } from './db/connection.ts';
import { migrate } from './db/migrate.ts';
import { allDocumentDefinitions, syncDocumentTables, type DocumentDefinition } from './documents/index.ts';

/** Applies pending migrations and creates or widens the managed document tables; returns the migrations applied. */
export async function prepareSchema(db: Kysely<any>, dialect: Dialect, defs: DocumentDefinition[] = allDocumentDefinitions()): Promise<string[]> {
  const applied = await migrate(db, dialect);
  await syncDocumentTables(db, dialect, defs);
  return applied;
}
