// Presale lines of sales orders (issue 13): what each presale plan's product has sold against expected
// arrivals, so the plan's presale quantity is a guarded limit (sold_qty + q <= qty in one UPDATE); and the
// display order of a plan's products (预售排序).
import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('presale_item').addColumn('sold_qty', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('presale_item').addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}
