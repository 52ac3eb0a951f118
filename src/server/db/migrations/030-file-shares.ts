// Shared files (/a/{id}, issue 17): a link an employee made so someone outside the system can download one
// file without logging in — an uploaded file (media) or a finished export of the export centre. The link's
// id (`token`) is 128 random bits, url-safe; the row says until when it works (expires_at), how often it
// may be used (max_downloads, NULL: no limit), how often it was (download_count, raised by one
// conditional UPDATE per download) and whether it was revoked. File name and size are kept as they were
// when shared: the public page shows them without reading the file's own record.
import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';
import { index, withId } from './columns.ts';

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await withId(db.schema.createTable('file_share'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id'))
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull()) // media | export
    .addColumn('media_id', 'text') // kind media: media.id
    .addColumn('export_job_id', 'integer') // kind export: export_job.id (no foreign key: the job is swept or deleted, the link then says the file is gone)
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('file_size', 'bigint')
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('max_downloads', 'integer')
    .addColumn('download_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_download_at', 'text')
    .addColumn('revoked_at', 'text')
    .addColumn('revoked_by', 'integer')
    .execute();
  await index(db, 'file_share', ['token'], true);
  await index(db, 'file_share', ['company_id', 'created_by', 'id']);
  await index(db, 'file_share', ['company_id', 'id']);
}
