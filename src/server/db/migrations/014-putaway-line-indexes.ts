// Putaway lines are looked up by the receiving line they put away (a purchase return finds where the
// returned goods went: purchase-return.ts), which no index served, so that lookup read every putaway line
// of the company. The index on the target location served no query at all, while every posted putaway
// wrote ~16 of its pages (a 50-line putaway spreads over as many locations): it goes.
import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';
import { index } from './columns.ts';

export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.dropIndex('putaway_line_company_id_to_location_id_ix').execute();
  await index(db, 'putaway_line', ['company_id', 'receiving_line_id']);
}
