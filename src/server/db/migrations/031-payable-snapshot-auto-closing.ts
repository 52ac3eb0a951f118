// The daily closing (migration 028) also keeps payables, and closes days by itself (issue 16):
// - payable_snapshot: each supplier's open payables at the end of the day (cents, company currency), rows ≠ 0
//   only, like receivable_snapshot.
// - daily_closing.payable_rows: how many; daily_closing.payables: 1 when the closing kept payables — a day
//   closed before this migration has none, so payables read from the latest closing that kept them.
// - daily_closing.auto: 1 when the server closed the day by itself (past the company's midnight, nobody had);
//   closed_by is then empty.
// - Covering indexes for the reports' first pages (npm run bench:reports, issue 16): each report sums document
//   lines joined to their headers over every day; with the columns it reads in the index the database walks
//   two indexes instead of looking up 100 000s of table rows (SQLite CPU per call ÷3 or more). The sales
//   documents' tables are the document engine's (created after the migrations), not indexed here.
import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';
import { index } from './columns.ts';

/** index → the columns each report reads, leading with what it filters on */
const REPORT_INDEXES: Array<[string, string[]]> = [
  // 采购报表 (invoiced)
  ['purchase_invoice', ['company_id', 'supplier_id', 'status', 'invoice_date', 'id', 'exchange_rate']], // by supplier (its first grouping) without a sort
  ['purchase_invoice_line', ['company_id', 'invoice_id', 'product_id', 'qty', 'amount']],
  // 应收报表, 应付报表
  ['open_item', ['company_id', 'side', 'party_type', 'doc_date', 'status', 'party_id', 'source_type', 'amount_base', 'allocated_base']],
];

export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.createTable('payable_snapshot')
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('supplier_id', 'integer', (c) => c.notNull())
    .addColumn('balance', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('payable_snapshot_pk', ['company_id', 'day', 'supplier_id'])
    .execute();
  await db.schema.alterTable('daily_closing').addColumn('payable_rows', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('daily_closing').addColumn('payables', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('daily_closing').addColumn('auto', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  for (const [table, columns] of REPORT_INDEXES) await index(db, table, columns);
}
