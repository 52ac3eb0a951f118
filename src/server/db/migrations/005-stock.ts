// Warehouses' locations, default locations, and the stock ledger (DESIGN §4.3): an append-only movement
// table, balances per company × product × warehouse × location, a per product × warehouse summary kept in
// the same transaction, and the first two stock documents (opening stock, adjustments).
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';
import { index, withId, withTenantStamps, type TableBuilder } from './columns.ts';

/** SQLite: a table clustered on its primary key (balances are read and written by key only). */
function clustered(t: TableBuilder, dialect: Dialect): TableBuilder {
  return dialect === 'sqlite' ? t.modifyEnd(sql`without rowid`) : t;
}

async function documentTables(db: Kysely<any>, dialect: Dialect, header: string, line: string, extra: (t: TableBuilder) => TableBuilder): Promise<void> {
  await extra(withTenantStamps(withId(db.schema.createTable(header), dialect)))
    .addColumn('doc_no', 'text', (c) => c.notNull())
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('draft')) // draft | posted | cancelled
    .addColumn('remark', 'text')
    .addColumn('line_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_qty', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('posted_at', 'text')
    .addColumn('posted_by', 'integer')
    .addColumn('cancelled_at', 'text')
    .addColumn('cancelled_by', 'integer')
    .execute();
  await index(db, header, ['company_id', 'doc_no'], true);
  await index(db, header, ['company_id', 'warehouse_id']);
  await index(db, header, ['company_id', 'status', 'id']);
  await index(db, header, ['company_id', 'created_at']);

  await withId(db.schema.createTable(line), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id'))
    .addColumn('doc_id', 'integer', (c) => c.notNull().references(`${header}.id`))
    .addColumn('line_no', 'integer', (c) => c.notNull())
    .addColumn('product_id', 'integer', (c) => c.notNull().references('product.id'))
    .addColumn('location_id', 'integer', (c) => c.references('location.id'))
    // small units; opening stock > 0, adjustments ≠ 0 (signed)
    .addColumn('qty', 'bigint', (c) => c.notNull())
    .addColumn('remark', 'text')
    .execute();
  await index(db, line, ['company_id', 'doc_id', 'line_no'], true);
  // Removing a product still used by a draft is refused with a clear message (resource referencedBy);
  // a location's removal is refused by its balances, or by the foreign key for a draft's line (no index
  // for that rare case: every posting would pay for it).
  await index(db, line, ['company_id', 'product_id']);
}

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  // Locations. lookup_key = lc_code without '-', 'S', 'Z', 'A', 'B' (spec §3), unique per warehouse.
  await withTenantStamps(withId(db.schema.createTable('location'), dialect))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('lc_code', 'text', (c) => c.notNull())
    .addColumn('lookup_key', 'text', (c) => c.notNull())
    .addColumn('zone', 'text')
    .addColumn('loc_row', 'text')
    .addColumn('loc_column', 'text')
    .addColumn('loc_level', 'text')
    .addColumn('type', 'text', (c) => c.notNull().defaultTo('storage')) // storage | picking | receiving | shipping | damaged
    .addColumn('capacity', 'bigint')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('enabled')) // enabled | locked
    .addColumn('remark', 'text')
    .execute();
  await index(db, 'location', ['company_id', 'warehouse_id', 'lc_code'], true);
  await index(db, 'location', ['company_id', 'warehouse_id', 'lookup_key'], true);
  await index(db, 'location', ['company_id', 'lc_code']);
  await index(db, 'location', ['company_id', 'lookup_key']);

  // Default location per product and warehouse (putaway suggestions).
  await withTenantStamps(withId(db.schema.createTable('default_location'), dialect))
    .addColumn('product_id', 'integer', (c) => c.notNull().references('product.id'))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('location_id', 'integer', (c) => c.notNull().references('location.id'))
    .addColumn('remark', 'text')
    .execute();
  await index(db, 'default_location', ['company_id', 'product_id', 'warehouse_id'], true);
  await index(db, 'default_location', ['company_id', 'warehouse_id']);
  await index(db, 'default_location', ['company_id', 'location_id']);

  // The ledger: append-only, one row per stock change. qty changes on hand, reserved_qty changes the
  // reserved quantity (small units, integers). location_id is null when no location is used.
  // No foreign keys to product/warehouse/location: postMoves checks them in the posting transaction,
  // every ledger key has its balance row, and a product, warehouse or location with a balance row cannot
  // be removed (referencedBy) — while a foreign key here would make every removal scan the ledger.
  let move = db.schema.createTable('stock_move');
  move = dialect === 'postgres'
    ? move.addColumn('id', 'bigserial', (c) => c.primaryKey())
    : move.addColumn('id', 'integer', (c) => c.primaryKey()); // rowid: append-only, never deleted
  await move
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('product_id', 'integer', (c) => c.notNull())
    .addColumn('warehouse_id', 'integer', (c) => c.notNull())
    .addColumn('location_id', 'integer')
    .addColumn('qty', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('reserved_qty', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('doc_type', 'text', (c) => c.notNull())
    .addColumn('doc_id', 'integer', (c) => c.notNull())
    .addColumn('doc_line', 'integer')
    .addColumn('account_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await index(db, 'stock_move', ['company_id', 'product_id', 'id']);
  await index(db, 'stock_move', ['company_id', 'doc_type', 'doc_id']);

  // Balances. location_id 0 = "no location": the key must be NOT NULL for ON CONFLICT to match it on
  // both engines (NULLs are distinct in unique indexes).
  await clustered(db.schema.createTable('stock_balance')
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('product_id', 'integer', (c) => c.notNull())
    .addColumn('warehouse_id', 'integer', (c) => c.notNull())
    .addColumn('location_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('on_hand', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('reserved', 'bigint', (c) => c.notNull().defaultTo(0).check(sql`reserved >= 0`))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('stock_balance_pk', ['company_id', 'product_id', 'warehouse_id', 'location_id']), dialect)
    .execute();
  await index(db, 'stock_balance', ['company_id', 'warehouse_id', 'location_id', 'product_id']);
  await index(db, 'stock_balance', ['company_id', 'location_id']);

  // Per product × warehouse totals over locations, changed in the same statement batch as the balances
  // (the inventory list pages over these rather than aggregating locations on every request).
  await clustered(db.schema.createTable('stock_summary')
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('product_id', 'integer', (c) => c.notNull())
    .addColumn('warehouse_id', 'integer', (c) => c.notNull())
    .addColumn('on_hand', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('reserved', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('stock_summary_pk', ['company_id', 'product_id', 'warehouse_id']), dialect)
    .execute();
  await index(db, 'stock_summary', ['company_id', 'warehouse_id', 'product_id']);

  // Opening stock and adjustments.
  await documentTables(db, dialect, 'stock_init', 'stock_init_line', (t) => t);
  await documentTables(db, dialect, 'stock_adjust', 'stock_adjust_line', (t) => t.addColumn('reason', 'text', (c) => c.notNull()));
}
