// Reports of issue 16 (直销报表, 应用使用统计):
// - client.channel: how the company sells to the client — 'direct' (直销: to the end user) or 'dealer'
//   (经销: to a reseller). Nothing in the data told the two apart (price lists are shared by both), so the
//   client form carries it; existing clients count as direct sales until a clerk says otherwise.
// - auth_session (company_id, created_at): the usage report counts a company's logins over a date range
//   as a range read, not a scan of every session.
import type { Kysely } from 'kysely';
import { index } from './columns.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('client').addColumn('channel', 'text', (c) => c.notNull().defaultTo('direct')).execute();
  await index(db, 'auth_session', ['company_id', 'created_at']);
}
