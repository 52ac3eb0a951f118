// Closing a short-delivered inbound task (inbound-task.ts): who closed it, when and why, on the task;
// its plan follows it into 已关闭 and keeps when. Finished export jobs are swept by age
// (export-retention.ts), found by their finishing time.
import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';
import { index } from './columns.ts';

export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('inbound_task').addColumn('closed_at', 'text').execute();
  await db.schema.alterTable('inbound_task').addColumn('closed_by', 'integer').execute();
  await db.schema.alterTable('inbound_task').addColumn('close_reason', 'text').execute();
  await db.schema.alterTable('inbound_plan').addColumn('closed_at', 'text').execute();
  await index(db, 'export_job', ['status', 'finished_at']);
}
