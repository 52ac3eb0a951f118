// Products and the parties trade happens with; enough for the catalog's product/price/presale codes.
import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';
import { index, withId, withTenantStamps } from './columns.ts';

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await withTenantStamps(withId(db.schema.createTable('category'), dialect))
    .addColumn('parent_id', 'integer', (c) => c.references('category.id'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await index(db, 'category', ['company_id', 'code'], true);

  await withTenantStamps(withId(db.schema.createTable('supplier'), dialect))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('contact', 'text')
    .addColumn('phone', 'text')
    .addColumn('email', 'text')
    .addColumn('address', 'text')
    .addColumn('currency_id', 'integer', (c) => c.references('currency.id'))
    .addColumn('payment_days', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('tax_no', 'text')
    .addColumn('bank_name', 'text')
    .addColumn('bank_account', 'text')
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('remark', 'text')
    .execute();
  await index(db, 'supplier', ['company_id', 'code'], true);
  await index(db, 'supplier', ['company_id', 'name']);

  await withTenantStamps(withId(db.schema.createTable('client'), dialect))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('contact', 'text')
    .addColumn('phone', 'text')
    .addColumn('email', 'text')
    .addColumn('address', 'text')
    .addColumn('currency_id', 'integer', (c) => c.references('currency.id'))
    .addColumn('price_title_id', 'integer', (c) => c.references('price_title.id'))
    // credit limit in minor units (cents)
    .addColumn('credit_limit', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('tax_no', 'text')
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('remark', 'text')
    .execute();
  await index(db, 'client', ['company_id', 'code'], true);
  await index(db, 'client', ['company_id', 'name']);

  await withTenantStamps(withId(db.schema.createTable('product'), dialect))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('barcode', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_en', 'text')
    .addColumn('category_id', 'integer', (c) => c.references('category.id'))
    .addColumn('brand', 'text')
    .addColumn('specification', 'text')
    .addColumn('hs_code', 'text')
    .addColumn('origin', 'text')
    .addColumn('image_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('onSale')) // onSale | stopped
    .addColumn('locked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('supplier_id', 'integer', (c) => c.references('supplier.id'))
    .addColumn('unit_big', 'text')
    .addColumn('unit_mid', 'text')
    .addColumn('unit_small', 'text', (c) => c.notNull().defaultTo('个'))
    // small units per mid and per big pack; 1 when the pack level is not used
    .addColumn('mid_qty', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('big_qty', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('carton_weight', 'bigint') // grams
    .addColumn('carton_volume', 'bigint') // cm³
    // reference price in minor units
    .addColumn('price', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('remark', 'text')
    .execute();
  await index(db, 'product', ['company_id', 'code'], true);
  await index(db, 'product', ['company_id', 'barcode']);
  await index(db, 'product', ['company_id', 'name']);
  await index(db, 'product', ['company_id', 'category_id']);
  await index(db, 'product', ['company_id', 'price']);
  await index(db, 'product', ['company_id', 'status', 'code']);

  await withTenantStamps(withId(db.schema.createTable('product_price'), dialect))
    .addColumn('price_title_id', 'integer', (c) => c.notNull().references('price_title.id'))
    .addColumn('product_id', 'integer', (c) => c.notNull().references('product.id'))
    .addColumn('price', 'bigint', (c) => c.notNull())
    .execute();
  await index(db, 'product_price', ['company_id', 'price_title_id', 'product_id'], true);

  await withTenantStamps(withId(db.schema.createTable('presale_plan'), dialect))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('start_date', 'text')
    .addColumn('end_date', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('draft'))
    .addColumn('remark', 'text')
    .execute();
  await index(db, 'presale_plan', ['company_id', 'code'], true);
  await withTenantStamps(withId(db.schema.createTable('presale_item'), dialect))
    .addColumn('plan_id', 'integer', (c) => c.notNull().references('presale_plan.id'))
    .addColumn('product_id', 'integer', (c) => c.notNull().references('product.id'))
    .addColumn('qty', 'integer', (c) => c.notNull())
    .addColumn('price', 'bigint', (c) => c.notNull())
    .execute();
  await index(db, 'presale_item', ['company_id', 'plan_id', 'product_id'], true);
  await withTenantStamps(withId(db.schema.createTable('presale_whitelist'), dialect))
    .addColumn('plan_id', 'integer', (c) => c.notNull().references('presale_plan.id'))
    .addColumn('client_id', 'integer', (c) => c.notNull().references('client.id'))
    .execute();
  await index(db, 'presale_whitelist', ['company_id', 'plan_id', 'client_id'], true);
}
