// Basic settings (/baseConfig): company titles used on invoices, customs (HS) codes, e-mail templates and
// the history of every mail sent, and the company's own master record (columns added to `company`).
import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';
import { index, withId, withTenantStamps } from './columns.ts';

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  // The company's master record beyond its settings: shown on documents and letterheads.
  for (const column of ['name_en', 'address', 'phone', 'email', 'website', 'tax_no', 'logo_id']) {
    await db.schema.alterTable('company').addColumn(column, 'text').execute();
  }

  // Company titles (letterheads) an invoice is issued under; one may be the default.
  await withTenantStamps(withId(db.schema.createTable('company_rise'), dialect))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_en', 'text')
    .addColumn('tax_no', 'text')
    .addColumn('address', 'text')
    .addColumn('address_en', 'text')
    .addColumn('phone', 'text')
    .addColumn('email', 'text')
    .addColumn('bank_name', 'text')
    .addColumn('bank_account', 'text')
    .addColumn('swift_code', 'text')
    .addColumn('logo_id', 'text')
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('remark', 'text')
    .execute();
  await index(db, 'company_rise', ['company_id', 'name'], true);
  await index(db, 'company_rise', ['company_id', 'is_default']);

  // Customs commodity codes (HS codes) with the tax rates that apply; rates are decimals scaled by 1e4.
  await withTenantStamps(withId(db.schema.createTable('customs_code'), dialect))
    .addColumn('hs_code', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_en', 'text')
    .addColumn('unit', 'text')
    .addColumn('second_unit', 'text')
    .addColumn('import_tax_rate', 'bigint')
    .addColumn('vat_rate', 'bigint')
    .addColumn('export_rebate_rate', 'bigint')
    .addColumn('supervision', 'text')
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('remark', 'text')
    .execute();
  await index(db, 'customs_code', ['company_id', 'hs_code'], true);
  await index(db, 'customs_code', ['company_id', 'name']);

  await withTenantStamps(withId(db.schema.createTable('email_template'), dialect))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull().defaultTo('html')) // html | text
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('remark', 'text')
    .execute();
  await index(db, 'email_template', ['company_id', 'code'], true);

  // Every mail the server sends: written as `queued` before the SMTP exchange, then `sent` or `failed`.
  // Template code and name are copied so the history reads the same after a template changes or goes.
  await withId(db.schema.createTable('email_history'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id'))
    .addColumn('template_id', 'integer')
    .addColumn('template_code', 'text')
    .addColumn('recipients', 'text', (c) => c.notNull())
    .addColumn('cc', 'text')
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull().defaultTo('html'))
    .addColumn('status', 'text', (c) => c.notNull()) // queued | sent | failed
    .addColumn('error', 'text')
    .addColumn('message_id', 'text')
    .addColumn('queued_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .addColumn('sent_by', 'integer')
    .addColumn('sent_by_name', 'text')
    .execute();
  await index(db, 'email_history', ['company_id', 'queued_at']);
  await index(db, 'email_history', ['company_id', 'status', 'queued_at']);
  await index(db, 'email_history', ['company_id', 'template_id']);
}
