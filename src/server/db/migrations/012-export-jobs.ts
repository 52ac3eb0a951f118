// The export centre (导出中心): exports that run in the background. A job remembers who asked (account
// and company: only they may download), which export code with which body, and how it went —
// queued → running → done | failed — with the row count, the file's size and where it lies under
// DATA_DIR, or the error text. `heartbeat_at` is touched while a process works on the job, so a job whose
// process went away can be told from one still running elsewhere.
import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';
import { index, withId } from './columns.ts';

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await withId(db.schema.createTable('export_job'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id'))
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('family', 'text', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull()) // the export code's name, e.g. 导出部门
    .addColumn('body', 'text', (c) => c.notNull()) // JSON: the conditions, as the synchronous export takes them
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('queued')) // queued | running | done | failed
    .addColumn('file_name', 'text') // the download's name
    .addColumn('content_type', 'text')
    .addColumn('stored_name', 'text') // under DATA_DIR/exports/<company id>/
    .addColumn('row_count', 'integer')
    .addColumn('file_size', 'bigint')
    .addColumn('error', 'text')
    .addColumn('runner', 'text') // the process working on it
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('finished_at', 'text')
    .addColumn('heartbeat_at', 'text')
    .execute();
  await index(db, 'export_job', ['company_id', 'account_id', 'id']);
  await index(db, 'export_job', ['status', 'heartbeat_at']);
}
