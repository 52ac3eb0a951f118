// Tenancy, people, rights, sessions, logs, storage and per-user settings.
import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';
import { index, withId, withTenantStamps } from './columns.ts';

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await withId(db.schema.createTable('company'), dialect)
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('time_zone', 'integer', (c) => c.notNull().defaultTo(8))
    .addColumn('default_language', 'text', (c) => c.notNull().defaultTo('zh-CN'))
    .addColumn('currency_id', 'integer')
    // Multipliers are decimal strings ("1.10"): exact, and only ever compared with decimal.js.
    .addColumn('rece_multiple', 'text', (c) => c.notNull().defaultTo('1'))
    .addColumn('limit_multiple', 'text', (c) => c.notNull().defaultTo('0'))
    .addColumn('ceiling_multiple', 'text', (c) => c.notNull().defaultTo('0'))
    .addColumn('add_roo_type', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('container_types', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('flags', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await withTenantStamps(withId(db.schema.createTable('currency'), dialect))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('currency_name', 'text', (c) => c.notNull())
    .addColumn('currency_character', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('is_base', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('remark', 'text')
    .execute();
  await index(db, 'currency', ['company_id', 'code'], true);

  await withTenantStamps(withId(db.schema.createTable('exchange_rate'), dialect))
    .addColumn('currency_id', 'integer', (c) => c.notNull().references('currency.id'))
    .addColumn('rate_date', 'text', (c) => c.notNull())
    // rate against the company currency, scaled by 1e6
    .addColumn('rate', 'bigint', (c) => c.notNull())
    .addColumn('remark', 'text')
    .execute();
  await index(db, 'exchange_rate', ['company_id', 'currency_id', 'rate_date'], true);

  await withTenantStamps(withId(db.schema.createTable('department'), dialect))
    .addColumn('parent_id', 'integer', (c) => c.references('department.id'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('remark', 'text')
    .execute();
  await index(db, 'department', ['company_id', 'code'], true);

  await withTenantStamps(withId(db.schema.createTable('staff'), dialect))
    .addColumn('department_id', 'integer', (c) => c.references('department.id'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('phone', 'text')
    .addColumn('email', 'text')
    .addColumn('position', 'text')
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await index(db, 'staff', ['company_id', 'code'], true);

  await withTenantStamps(withId(db.schema.createTable('role'), dialect))
    .addColumn('name', 'text', (c) => c.notNull())
    // all_rights: the administrator role holds every right, including ones added later
    .addColumn('all_rights', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rights', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('remark', 'text')
    .execute();
  await index(db, 'role', ['company_id', 'name'], true);

  await withTenantStamps(withId(db.schema.createTable('warehouse'), dialect))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('address', 'text')
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await index(db, 'warehouse', ['company_id', 'code'], true);

  await withTenantStamps(withId(db.schema.createTable('price_title'), dialect))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull()) // purchase | sale
    .addColumn('currency_id', 'integer', (c) => c.references('currency.id'))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('remark', 'text')
    .execute();
  await index(db, 'price_title', ['company_id', 'code'], true);

  await withTenantStamps(withId(db.schema.createTable('account'), dialect))
    .addColumn('user_name', 'text', (c) => c.notNull())
    .addColumn('staff_id', 'integer', (c) => c.references('staff.id'))
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('role_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('warehouse_id', 'integer', (c) => c.references('warehouse.id'))
    .addColumn('purchase_price_id', 'integer', (c) => c.references('price_title.id'))
    .addColumn('sale_price_id', 'integer', (c) => c.references('price_title.id'))
    .addColumn('password_changed_at', 'text')
    .addColumn('remark', 'text')
    .execute();
  await index(db, 'account', ['company_id', 'user_name'], true);

  await withTenantStamps(withId(db.schema.createTable('dict_item'), dialect))
    .addColumn('dict_code', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('remark', 'text')
    .execute();
  await index(db, 'dict_item', ['company_id', 'dict_code', 'value'], true);

  await withTenantStamps(withId(db.schema.createTable('ip_whitelist'), dialect))
    .addColumn('cidr', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('remark', 'text')
    .execute();
  await index(db, 'ip_whitelist', ['company_id', 'cidr'], true);

  // Sessions: tokens are random and stored only as SHA-256 hashes.
  await db.schema.createTable('auth_session')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id'))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('account.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('ended_at', 'text')
    .addColumn('end_reason', 'text')
    .execute();
  await index(db, 'auth_session', ['account_id']);
  await db.schema.createTable('auth_token')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'text', (c) => c.notNull().references('auth_session.id'))
    .addColumn('kind', 'text', (c) => c.notNull()) // access | refresh
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await index(db, 'auth_token', ['session_id']);
  await withId(db.schema.createTable('login_failure'), dialect)
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .execute();
  await index(db, 'login_failure', ['key', 'at']);

  await withId(db.schema.createTable('audit_log'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('account_id', 'integer')
    .addColumn('user_name', 'text')
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('endpoint', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('entity', 'text', (c) => c.notNull())
    .addColumn('record_id', 'text')
    .addColumn('record_label', 'text')
    .addColumn('changes', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await index(db, 'audit_log', ['company_id', 'entity', 'record_id']);
  await index(db, 'audit_log', ['company_id', 'at']);

  await db.schema.createTable('error_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'integer')
    .addColumn('account_id', 'integer')
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('method', 'text')
    .addColumn('url', 'text')
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('stack', 'text')
    .execute();
  await index(db, 'error_log', ['company_id', 'at']);

  await db.schema.createTable('media')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id'))
    .addColumn('mime', 'text', (c) => c.notNull())
    .addColumn('ext', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('original_name', 'text')
    .addColumn('stored_name', 'text', (c) => c.notNull())
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer')
    .execute();

  await withId(db.schema.createTable('table_config'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id'))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('account.id'))
    .addColumn('list_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('config_content', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await index(db, 'table_config', ['company_id', 'account_id', 'list_name'], true);

  await withId(db.schema.createTable('print_info'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id'))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('account.id'))
    .addColumn('warehouse_code', 'text')
    .addColumn('warehouse_id', 'integer')
    .addColumn('content', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await index(db, 'print_info', ['company_id', 'account_id'], true);

  await withId(db.schema.createTable('print_record'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id'))
    .addColumn('doc_type', 'text', (c) => c.notNull())
    .addColumn('doc_id', 'text', (c) => c.notNull())
    .addColumn('print_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('first_printed_at', 'text', (c) => c.notNull())
    .addColumn('last_printed_at', 'text', (c) => c.notNull())
    .addColumn('last_printed_by', 'text')
    .execute();
  await index(db, 'print_record', ['company_id', 'doc_type', 'doc_id'], true);

  // Per-company number sequences (document numbers, product codes).
  await db.schema.createTable('sequence')
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('next_value', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('sequence_pk', ['company_id', 'name'])
    .execute();
}
