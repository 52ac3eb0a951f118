// Runs migrations in order, once each, on either dialect. Kept tiny so both dialects see the same steps.
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Dialect } from './connection.ts';
import * as m001 from './migrations/001-core.ts';
import * as m002 from './migrations/002-master-data.ts';
import * as m003 from './migrations/003-resource-indexes.ts';
import * as m004 from './migrations/004-settings.ts';
import * as m005 from './migrations/005-stock.ts';
import * as m006 from './migrations/006-procurement.ts';
import * as m007 from './migrations/007-invoice.ts';
import * as m008 from './migrations/008-inbound.ts';
import * as m009 from './migrations/009-competing.ts';
import * as m011 from './migrations/011-purchase-return.ts';
import * as m012 from './migrations/012-export-jobs.ts';
import * as m013 from './migrations/013-product-keywords.ts';
import * as m014 from './migrations/014-putaway-line-indexes.ts';
import * as m015 from './migrations/015-inbound-close-export-expiry.ts';
import * as m016 from './migrations/016-idempotency-keys.ts';
import * as m017 from './migrations/017-table-write-log.ts';
import * as m018 from './migrations/018-order-reservations.ts';
import * as m019 from './migrations/019-presale-sold.ts';
import * as m020 from './migrations/020-market-master.ts';
import * as m022 from './migrations/022-stock-take.ts';
import * as m023 from './migrations/023-finance.ts';
import * as m026 from './migrations/026-sales-returns.ts';
import * as m027 from './migrations/027-system-tools.ts';
import * as m028 from './migrations/028-daily-closing.ts';
import * as m029 from './migrations/029-promotions.ts';
import * as m030 from './migrations/030-file-shares.ts';
import * as m031 from './migrations/031-payable-snapshot-auto-closing.ts';
import * as m032 from './migrations/032-return-tasks.ts';
import * as m033 from './migrations/033-dashboard.ts';
import * as m034 from './migrations/034-client-channel.ts';
import * as m035 from './migrations/035-wall-links.ts';
import * as m036 from './migrations/036-master-data-families.ts';

interface Migration {
  name: string;
  up(db: Kysely<any>, dialect: Dialect): Promise<void>;
}

export const MIGRATIONS: Migration[] = [
  { name: '001-core', up: m001.up },
  { name: '002-master-data', up: m002.up },
  { name: '003-resource-indexes', up: m003.up },
  { name: '004-settings', up: m004.up },
  { name: '005-stock', up: m005.up },
  { name: '006-procurement', up: m006.up },
  { name: '007-invoice', up: m007.up },
  { name: '008-inbound', up: m008.up },
  { name: '009-competing', up: m009.up },
  { name: '011-purchase-return', up: m011.up },
  { name: '012-export-jobs', up: m012.up },
  { name: '013-product-keywords', up: m013.up },
  { name: '014-putaway-line-indexes', up: m014.up },
  { name: '015-inbound-close-export-expiry', up: m015.up },
  { name: '016-idempotency-keys', up: m016.up },
  { name: '017-table-write-log', up: m017.up },
  { name: '018-order-reservations', up: m018.up },
  { name: '019-presale-sold', up: m019.up },
  { name: '020-market-master', up: m020.up },
  { name: '022-stock-take', up: m022.up },
  { name: '023-finance', up: m023.up },
  { name: '026-sales-returns', up: m026.up },
  { name: '027-system-tools', up: m027.up },
  { name: '028-daily-closing', up: m028.up },
  { name: '029-promotions', up: m029.up },
  { name: '030-file-shares', up: m030.up },
  { name: '031-payable-snapshot-auto-closing', up: m031.up },
  { name: '032-return-tasks', up: m032.up },
  { name: '033-dashboard', up: m033.up },
  { name: '034-client-channel', up: m034.up },
  { name: '035-wall-links', up: m035.up },
  { name: '036-master-data-families', up: m036.up },
];

/** PostgreSQL advisory lock key held while migrating or seeding (one process at a time). */
export const STARTUP_LOCK = 424242;

/**
 * Takes the start-up lock inside `trx`: on PostgreSQL an advisory lock held until the transaction ends;
 * on SQLite the transaction itself began with the write lock (BEGIN IMMEDIATE, connection.ts).
 */
export async function lockStartup(trx: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(${STARTUP_LOCK})`.execute(trx);
}

export async function migrate(db: Kysely<any>, dialect: Dialect): Promise<string[]> {
  // Under the lock: two processes creating the table at once collide even with IF NOT EXISTS on
  // PostgreSQL (a unique violation in its catalog), and one of them would stop.
  await db.transaction().execute(async (trx) => {
    await lockStartup(trx, dialect);
    await trx.schema
      .createTable('schema_migration')
      .ifNotExists()
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('applied_at', 'text', (c) => c.notNull())
      .execute();
  });
  const done = new Set((await db.selectFrom('schemaMigration').select('name').execute()).map((r) => r.name as string));
  const applied: string[] = [];
  for (const m of MIGRATIONS) {
    if (done.has(m.name)) continue;
    // Each migration is all-or-nothing: PostgreSQL and SQLite both run DDL inside transactions.
    await db.transaction().execute(async (trx) => {
      await lockStartup(trx, dialect);
      const again = await trx.selectFrom('schemaMigration').select('name').where('name', '=', m.name).executeTakeFirst();
      if (again) return;
      await m.up(trx, dialect);
      await trx.insertInto('schemaMigration').values({ name: m.name, appliedAt: new Date().toISOString() }).execute();
      applied.push(m.name);
    });
  }
  // New indexes on a database that already has statistics can mislead SQLite's planner until it
  // re-analyses (a 0.3 ms list page became 97 ms after 003 added indexes to a seeded database).
  if (applied.length && dialect === 'sqlite') await sql`analyze`.execute(db);
  return applied;
}
