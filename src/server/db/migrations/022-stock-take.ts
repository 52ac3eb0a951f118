// Stocktaking (盘点, documents/types/stock-take.ts): the count entries behind each counting-sheet line; the
// per-company key that signs label QR codes (domain/stock/labels.ts); single-piece scan records (单件扫描
// 记录, domain/stock/single-record.ts).
// The take and its lines are a `managed` engine document (tables created from the definition at start-up,
// after the migrations), so the entries refer to them by id without a foreign key.
// Every entry is kept: two counters counting one product at one location add up (the line's
// counted_qty is their sum, changed by one conditional UPDATE per entry), and the entries are the proof of
// who counted what and when. book_qty is the book quantity at the moment of the entry (server-side; a
// counter never sees it).
import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';
import { index, withId } from './columns.ts';

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await withId(db.schema.createTable('stock_take_count'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id'))
    .addColumn('take_id', 'integer', (c) => c.notNull())
    .addColumn('line_id', 'integer', (c) => c.notNull())
    .addColumn('qty', 'bigint', (c) => c.notNull())
    .addColumn('book_qty', 'bigint', (c) => c.notNull())
    .addColumn('account_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await index(db, 'stock_take_count', ['company_id', 'take_id', 'line_id']);
  // what was scanned, by whom, where and when (append-only: a record is never changed)
  await withId(db.schema.createTable('single_record'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('product_id', 'integer', (c) => c.notNull())
    .addColumn('warehouse_id', 'integer')
    .addColumn('location_id', 'integer')
    .addColumn('qty', 'bigint', (c) => c.notNull())
    .addColumn('remark', 'text')
    .addColumn('account_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await index(db, 'single_record', ['company_id', 'created_at']);
  await index(db, 'single_record', ['company_id', 'product_id']);
  // random per company, set on first use; signs the company's label QR codes
  await db.schema.alterTable('company').addColumn('label_key', 'text').execute();
}
