// Reports of issue 16 (直销报表, 其他出入库报表, 应用使用统计):
// - client.channel: how the company sells to the client — 'direct' (直销: to the end user) or 'dealer'
//   (经销: to a reseller). Nothing in the data told the two apart (price lists are shared by both), so the
//   client form carries it; existing clients count as direct sales until a clerk says otherwise.
// - stock_move_day: what the moves recorded on one company day did, per product × warehouse × move type
//   (in and out apart, small units), kept by the daily closing beside its snapshots, so a report over the
//   moves of many days reads one row per day and key instead of every move. daily_closing.moves_summarised
//   says a closed day has them (days closed before this migration have not: reports read their moves).
// - auth_session (company_id, created_at): the usage report counts a company's logins over a date range
//   as a range read, not a scan of every session.
import type { Kysely } from 'kysely';
import { index } from './columns.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('client').addColumn('channel', 'text', (c) => c.notNull().defaultTo('direct')).execute();
  await db.schema.createTable('stock_move_day')
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('product_id', 'integer', (c) => c.notNull())
    .addColumn('warehouse_id', 'integer', (c) => c.notNull())
    .addColumn('move_type', 'text', (c) => c.notNull())
    .addColumn('in_qty', 'bigint', (c) => c.notNull())
    .addColumn('out_qty', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('stock_move_day_pk', ['company_id', 'day', 'product_id', 'warehouse_id', 'move_type'])
    .execute();
  await db.schema.alterTable('daily_closing').addColumn('moves_summarised', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await index(db, 'auth_session', ['company_id', 'created_at']);
}
