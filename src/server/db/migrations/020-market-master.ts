// Sales master data: service providers (服务商 — carriers, forwarders, customs brokers) a sales order or
// an outbound plan names; and the presale whitelist's validity window and remark (the whitelist rows
// of 002 held only plan and client).
import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';
import { index, withId, withTenantStamps } from './columns.ts';

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await withTenantStamps(withId(db.schema.createTable('facilitator'), dialect))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('carrier')) // carrier | forwarder | broker | other
    .addColumn('contact', 'text')
    .addColumn('phone', 'text')
    .addColumn('email', 'text')
    .addColumn('address', 'text')
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('remark', 'text')
    .execute();
  await index(db, 'facilitator', ['company_id', 'code'], true);
  await index(db, 'facilitator', ['company_id', 'name']);
  await index(db, 'facilitator', ['company_id', 'kind']);

  // Dates are company-local days (YYYY-MM-DD); NULL leaves that side open.
  await db.schema.alterTable('presale_whitelist').addColumn('valid_from', 'text').execute();
  await db.schema.alterTable('presale_whitelist').addColumn('valid_to', 'text').execute();
  await db.schema.alterTable('presale_whitelist').addColumn('remark', 'text').execute();
}
