// Indexes the generic resource handlers need: reference checks before a remove (who still uses this
// currency, supplier, department, price list...) and the common list filters of master data.
import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';
import { index } from './columns.ts';

export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await index(db, 'product', ['company_id', 'supplier_id']);
  await index(db, 'product', ['company_id', 'updated_at']);
  await index(db, 'staff', ['company_id', 'department_id']);
  await index(db, 'department', ['company_id', 'parent_id']);
  await index(db, 'category', ['company_id', 'parent_id']);
  await index(db, 'supplier', ['company_id', 'currency_id']);
  await index(db, 'client', ['company_id', 'currency_id']);
  await index(db, 'client', ['company_id', 'price_title_id']);
  await index(db, 'price_title', ['company_id', 'currency_id']);
  await index(db, 'account', ['company_id', 'staff_id']);
  await index(db, 'product_price', ['company_id', 'product_id']);
  await index(db, 'presale_item', ['company_id', 'product_id']);
  await index(db, 'presale_whitelist', ['company_id', 'client_id']);
  await index(db, 'audit_log', ['company_id', 'entity', 'at']);
  await index(db, 'print_record', ['company_id', 'last_printed_at']);
}
