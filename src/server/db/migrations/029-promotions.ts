// Promotions (促销活动, issue 16): price off, percentage off or buy N get M, for chosen products or a
// category (with its sub-categories), for every client or one client group (the clients of one sale price
// list), between two company-local days. Sales order lines carry what they picked up (columns added by
// the managed sales order definition: promotion_id, promotion_text, gift_of).
import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';
import { index, withId, withTenantStamps } from './columns.ts';

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await withTenantStamps(withId(db.schema.createTable('promotion'), dialect))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull()) // amountOff | percentOff | buyGet
    .addColumn('off_amount', 'bigint') // per small unit, company currency, × 10^4
    .addColumn('percent', 'integer') // percent off × 100
    .addColumn('buy_qty', 'integer') // small units
    .addColumn('get_qty', 'integer') // small units given free per buy_qty
    .addColumn('scope', 'text', (c) => c.notNull().defaultTo('product')) // product | category
    .addColumn('category_id', 'integer', (c) => c.references('category.id'))
    .addColumn('price_title_id', 'integer', (c) => c.references('price_title.id')) // client group; NULL: every client
    .addColumn('start_date', 'text', (c) => c.notNull())
    .addColumn('end_date', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('remark', 'text')
    .execute();
  await index(db, 'promotion', ['company_id', 'code'], true);
  await index(db, 'promotion', ['company_id', 'end_date']);
  await withTenantStamps(withId(db.schema.createTable('promotion_product'), dialect))
    .addColumn('promotion_id', 'integer', (c) => c.notNull().references('promotion.id'))
    .addColumn('product_id', 'integer', (c) => c.notNull().references('product.id'))
    .addColumn('remark', 'text')
    .execute();
  await index(db, 'promotion_product', ['company_id', 'promotion_id', 'product_id'], true);
  await index(db, 'promotion_product', ['company_id', 'product_id']);
}
