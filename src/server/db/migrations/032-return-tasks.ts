// A confirmed sales return becomes an inbound task (入库任务, issue 13): the warehouse receives returns
// from the same task list and receiving flow as purchases. A task now has a source — an inbound plan of
// a purchase order (plan_id, order_id, its lines' order_line_id, as before) or a sales return
// (return_id, its lines' return_line_id) — so the purchase columns become nullable. Readers that join
// purchase_order / inbound_plan on them keep seeing purchase tasks only.
import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';
import { dropNotNull, index } from './columns.ts';

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await dropNotNull(db, dialect, 'inbound_task', 'plan_id');
  await dropNotNull(db, dialect, 'inbound_task', 'order_id');
  await dropNotNull(db, dialect, 'inbound_task_line', 'order_line_id');
  await db.schema.alterTable('inbound_task').addColumn('return_id', 'integer').execute();
  await db.schema.alterTable('inbound_task_line').addColumn('return_line_id', 'integer').execute();
  await index(db, 'inbound_task', ['company_id', 'return_id']);
  await index(db, 'inbound_task_line', ['company_id', 'task_id', 'return_line_id']);
}
