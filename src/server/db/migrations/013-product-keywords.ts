// The product keyword index (resources/keyword-index.ts): each product's distinct bigrams of code,
// barcode, name and English name, one row per (company, gram, product). The primary key in that order
// is the whole table — SQLite stores it WITHOUT ROWID — and serves both the lists (the products holding
// a gram) and the writers (a product's old grams are deleted through it: the writers know them from the
// old texts, so no second index). Existing products are indexed here: read in id order, grams written
// in key order, 100,000 products in about two seconds (SQLite) or five (PostgreSQL, where the key is
// added after the rows: one sorted build instead of 3 million inserts into it).
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';
import { PRODUCT_KEYWORDS, rebuildKeywords } from '../../resources/keyword-index.ts';

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  let t = db.schema.createTable('product_keyword')
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('gram', 'integer', (c) => c.notNull()) // two characters, keyword-grams.ts
    .addColumn('product_id', 'integer', (c) => c.notNull());
  if (dialect === 'sqlite') t = t.addPrimaryKeyConstraint('product_keyword_pk', ['company_id', 'gram', 'product_id']).modifyEnd(sql`without rowid`);
  await t.execute();
  await rebuildKeywords(db, dialect, PRODUCT_KEYWORDS, 'product');
  if (dialect === 'postgres') {
    await db.schema.alterTable('product_keyword').addPrimaryKeyConstraint('product_keyword_pk', ['company_id', 'gram', 'product_id']).execute();
    // Gram frequencies for the planner now, not whenever autovacuum comes by.
    await sql`analyze product_keyword`.execute(db);
  }
}
