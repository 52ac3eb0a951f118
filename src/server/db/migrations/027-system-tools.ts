// System tools (issue 17): the heartbeat row of every server process sharing the database (服务监控),
// the per-minute API usage aggregate (接口分析: one row per minute × company × account × endpoint ×
// answer code, counts and a latency histogram; never a row per request) and the kept verification
// runs with their differences (数据校验详情).
import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';
import { index, withId } from './columns.ts';

/** Upper bounds (ms) of the latency histogram buckets b0..b11 (b11: slower than 5 s). */
export const LATENCY_BUCKETS_MS = [5, 10, 25, 50, 100, 250, 500, 1000, 2000, 5000, 10000, Infinity];

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await db.schema.createTable('service_process')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('pid', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('last_seen', 'text', (c) => c.notNull())
    .addColumn('stopped_at', 'text')
    // the last snapshot (memory, event-loop delay, requests, errors, pool, database size, jobs) as JSON
    .addColumn('stats', 'text', (c) => c.notNull())
    .execute();

  let usage = db.schema.createTable('api_usage_minute')
    .addColumn('minute', 'text', (c) => c.notNull())
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('endpoint', 'text', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('calls', 'bigint', (c) => c.notNull())
    .addColumn('total_ms', 'bigint', (c) => c.notNull())
    .addColumn('max_ms', 'bigint', (c) => c.notNull());
  for (let i = 0; i < LATENCY_BUCKETS_MS.length; i++) usage = usage.addColumn(`b${i}`, 'bigint', (c) => c.notNull().defaultTo(0));
  await usage.addPrimaryKeyConstraint('api_usage_minute_pk', ['minute', 'company_id', 'account_id', 'endpoint', 'code']).execute();
  await index(db, 'api_usage_minute', ['company_id', 'minute']);

  await withId(db.schema.createTable('verify_run'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('account_id', 'integer')
    .addColumn('ms', 'integer', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('differences', 'text', (c) => c.notNull())
    .execute();
  await index(db, 'verify_run', ['company_id', 'at']);
}
