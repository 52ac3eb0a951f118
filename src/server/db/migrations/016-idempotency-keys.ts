// Retry-safe writes (http/idempotency.ts): one row per Idempotency-Key a document-creating or posting
// call came with, written in the same transaction as the call's own writes and holding its answer, so a
// repeat (a second click after a lost answer) returns that answer and writes nothing. Keys are scoped to
// company, account and endpoint; rows older than the retention are swept.
import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';
import { index, withId } from './columns.ts';

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await withId(db.schema.createTable('idempotency_key'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id'))
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('endpoint', 'text', (c) => c.notNull()) // family:code, e.g. oms:020203
    .addColumn('idem_key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull()) // sha256 of the request's content
    .addColumn('answer', 'text', (c) => c.notNull()) // the envelope's data as JSON text
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await index(db, 'idempotency_key', ['company_id', 'account_id', 'endpoint', 'idem_key'], true);
  await index(db, 'idempotency_key', ['created_at']);
}
