// Sales orders reserve stock per product × warehouse, not per location (DESIGN §4.3): which location the
// goods leave from is decided later, by picking. Those reservations ("committed" to orders) live on the
// per product × warehouse totals, beside the location-level `reserved` that sums the balances (a
// purchase return reserves at its locations): available = on hand − reserved − committed, guarded by the
// ledger in the posting's transaction. Each ledger row says how much it committed (committed_qty), so
// verification recomputes the column from the ledger as it does the others.
// A client's back-order policy says what happens to what cannot ship at once.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('stock_summary').addColumn('committed', 'bigint', (c) => c.notNull().defaultTo(0).check(sql`committed >= 0`)).execute();
  await db.schema.alterTable('stock_move').addColumn('committed_qty', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  // keep: the rest stays open; cancel: the rest is cancelled at the first delivery; complete: ship only whole orders
  await db.schema.alterTable('client').addColumn('back_order_policy', 'text', (c) => c.notNull().defaultTo('keep')).execute();
}
