// Inbound planning (DESIGN §4.4, between the purchase order and the receiving note): containers, inbound
// plans (which order lines arrive when, optionally in a container), the inbound task a confirmed plan
// creates, and the record written when a container is unloaded. Quantities are small units (integers).
//  - purchase_order_line.planned_qty: what plans that are not cancelled hold of the line; a plan line is
//    taken by one conditional UPDATE (planned_qty + q <= qty), so two plans can never over-plan a line.
//  - receiving_note.task_id: the inbound task a receiving note was received against (nullable: receiving
//    straight from the order stays possible).
import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';
import { index, withId, withTenantStamps } from './columns.ts';

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  // Containers: planned → arrived → unloading → unloaded. container_type is one of the company's
  // container types (company.container_types).
  await withTenantStamps(withId(db.schema.createTable('container'), dialect))
    .addColumn('container_no', 'text', (c) => c.notNull())
    .addColumn('container_type', 'text', (c) => c.notNull())
    .addColumn('seal_no', 'text')
    .addColumn('eta', 'text') // company date YYYY-MM-DD
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('planned'))
    .addColumn('remark', 'text')
    .addColumn('arrived_at', 'text')
    .addColumn('arrived_by', 'integer')
    .addColumn('unloading_at', 'text')
    .addColumn('unloaded_at', 'text')
    .addColumn('unloaded_by', 'integer')
    .execute();
  await index(db, 'container', ['company_id', 'container_no'], true);
  await index(db, 'container', ['company_id', 'status', 'id']);

  // Inbound plans: draft → confirmed (creates the inbound task) → done (the task is fully received);
  // cancelled from draft, or from confirmed while the task has no receipts.
  await withTenantStamps(withId(db.schema.createTable('inbound_plan'), dialect))
    .addColumn('doc_no', 'text', (c) => c.notNull())
    .addColumn('order_id', 'integer', (c) => c.notNull().references('purchase_order.id'))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('expected_date', 'text')
    .addColumn('container_id', 'integer', (c) => c.references('container.id'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('draft'))
    .addColumn('remark', 'text')
    .addColumn('line_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_qty', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('confirmed_at', 'text')
    .addColumn('confirmed_by', 'integer')
    .addColumn('cancelled_at', 'text')
    .addColumn('cancelled_by', 'integer')
    .addColumn('done_at', 'text')
    .execute();
  await index(db, 'inbound_plan', ['company_id', 'doc_no'], true);
  await index(db, 'inbound_plan', ['company_id', 'order_id']);
  await index(db, 'inbound_plan', ['company_id', 'container_id']);
  await index(db, 'inbound_plan', ['company_id', 'status', 'id']);

  await withId(db.schema.createTable('inbound_plan_line'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id'))
    .addColumn('plan_id', 'integer', (c) => c.notNull().references('inbound_plan.id'))
    .addColumn('line_no', 'integer', (c) => c.notNull())
    .addColumn('order_line_id', 'integer', (c) => c.notNull().references('purchase_order_line.id'))
    .addColumn('product_id', 'integer', (c) => c.notNull().references('product.id'))
    .addColumn('qty', 'bigint', (c) => c.notNull())
    .addColumn('remark', 'text')
    .execute();
  await index(db, 'inbound_plan_line', ['company_id', 'plan_id', 'line_no'], true);
  await index(db, 'inbound_plan_line', ['company_id', 'order_line_id']);
  await index(db, 'inbound_plan_line', ['company_id', 'product_id']);

  // Inbound tasks: open → receiving → done; cancelled (with its plan) while nothing is received.
  await withTenantStamps(withId(db.schema.createTable('inbound_task'), dialect))
    .addColumn('doc_no', 'text', (c) => c.notNull())
    .addColumn('plan_id', 'integer', (c) => c.notNull().references('inbound_plan.id'))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('purchase_order.id'))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('container_id', 'integer', (c) => c.references('container.id'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
    .addColumn('remark', 'text')
    .addColumn('line_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_qty', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('received_qty', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('done_at', 'text')
    .addColumn('cancelled_at', 'text')
    .addColumn('cancelled_by', 'integer')
    .execute();
  await index(db, 'inbound_task', ['company_id', 'doc_no'], true);
  await index(db, 'inbound_task', ['company_id', 'plan_id'], true); // one task per plan
  await index(db, 'inbound_task', ['company_id', 'order_id']);
  await index(db, 'inbound_task', ['company_id', 'status', 'id']);

  await withId(db.schema.createTable('inbound_task_line'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id'))
    .addColumn('task_id', 'integer', (c) => c.notNull().references('inbound_task.id'))
    .addColumn('line_no', 'integer', (c) => c.notNull())
    .addColumn('order_line_id', 'integer', (c) => c.notNull().references('purchase_order_line.id'))
    .addColumn('product_id', 'integer', (c) => c.notNull().references('product.id'))
    .addColumn('qty', 'bigint', (c) => c.notNull())
    .addColumn('received_qty', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('remark', 'text')
    .execute();
  await index(db, 'inbound_task_line', ['company_id', 'task_id', 'line_no'], true);
  await index(db, 'inbound_task_line', ['company_id', 'task_id', 'order_line_id'], true);
  await index(db, 'inbound_task_line', ['company_id', 'product_id']);

  // Withdrawing (卸柜) records: what came out of a container when it was unloaded — the lines of the
  // plans it carried, as they stood at that moment.
  await withTenantStamps(withId(db.schema.createTable('container_withdrawing'), dialect))
    .addColumn('doc_no', 'text', (c) => c.notNull())
    .addColumn('container_id', 'integer', (c) => c.notNull().references('container.id'))
    .addColumn('remark', 'text')
    .addColumn('line_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_qty', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await index(db, 'container_withdrawing', ['company_id', 'doc_no'], true);
  await index(db, 'container_withdrawing', ['company_id', 'container_id']);

  await withId(db.schema.createTable('container_withdrawing_line'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id'))
    .addColumn('withdrawing_id', 'integer', (c) => c.notNull().references('container_withdrawing.id'))
    .addColumn('line_no', 'integer', (c) => c.notNull())
    .addColumn('plan_id', 'integer', (c) => c.notNull().references('inbound_plan.id'))
    .addColumn('plan_line_id', 'integer', (c) => c.notNull().references('inbound_plan_line.id'))
    .addColumn('order_line_id', 'integer', (c) => c.notNull().references('purchase_order_line.id'))
    .addColumn('product_id', 'integer', (c) => c.notNull().references('product.id'))
    .addColumn('qty', 'bigint', (c) => c.notNull())
    .execute();
  await index(db, 'container_withdrawing_line', ['company_id', 'withdrawing_id', 'line_no'], true);
  await index(db, 'container_withdrawing_line', ['company_id', 'product_id']);

  await db.schema.alterTable('purchase_order_line').addColumn('planned_qty', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('receiving_note').addColumn('task_id', 'integer', (c) => c.references('inbound_task.id')).execute();
  await index(db, 'receiving_note', ['company_id', 'task_id']);
}
