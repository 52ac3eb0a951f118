// Competitors, their products (each linked to one of ours) and the prices observed for them; and the
// product display order (商品排序). Observed prices are unit prices × 10^4 in the observation's currency.
import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';
import { index, withId, withTenantStamps } from './columns.ts';

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await withTenantStamps(withId(db.schema.createTable('competitor'), dialect))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('website', 'text')
    .addColumn('remark', 'text')
    .execute();
  await index(db, 'competitor', ['company_id', 'name'], true);

  await withTenantStamps(withId(db.schema.createTable('competitor_product'), dialect))
    .addColumn('competitor_id', 'integer', (c) => c.notNull().references('competitor.id'))
    .addColumn('product_id', 'integer', (c) => c.notNull().references('product.id'))
    .addColumn('code', 'text') // the competitor's own article number, when known
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('specification', 'text')
    .addColumn('remark', 'text')
    .execute();
  // NULL codes do not collide on either database: items without an article number may repeat.
  await index(db, 'competitor_product', ['company_id', 'competitor_id', 'code'], true);
  await index(db, 'competitor_product', ['company_id', 'product_id']);
  await index(db, 'competitor_product', ['company_id', 'name']);

  await withTenantStamps(withId(db.schema.createTable('competitor_price'), dialect))
    .addColumn('competitor_product_id', 'integer', (c) => c.notNull().references('competitor_product.id'))
    .addColumn('observed_on', 'text', (c) => c.notNull()) // YYYY-MM-DD
    .addColumn('price', 'bigint', (c) => c.notNull()) // unit price × 10^4
    .addColumn('currency_id', 'integer', (c) => c.references('currency.id'))
    .addColumn('source', 'text')
    .addColumn('remark', 'text')
    .execute();
  // The latest observation of a competitor product is the first row in this order.
  await index(db, 'competitor_price', ['company_id', 'competitor_product_id', 'observed_on', 'id']);
  await index(db, 'competitor_price', ['company_id', 'currency_id']);

  // Display order: products with a number are shown in that order; NULL = not in the sorted list.
  await db.schema.alterTable('product').addColumn('sort_no', 'integer').execute();
  await index(db, 'product', ['company_id', 'sort_no'], true);
}
