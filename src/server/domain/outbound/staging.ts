// The staging place of a warehouse's outbound floor (发货暂存区): picking moves goods from their storage
// locations here, a posted delivery note takes them off the ledger from here. It is an ordinary location
// of type `shipping` (so stock there shows in every stock view as on hand in the warehouse, and the
// ledger's guards apply to it), created on demand the first time a warehouse picks.
//
// Why the reservation does not change at picking: the sales order committed its quantity per product ×
// warehouse (stock_summary.committed) when it was confirmed; picking moves stock between two locations of
// the same warehouse, so the warehouse's on-hand and committed totals stay as they are and available
// (on hand − reserved − committed) does not move. The committed quantity is consumed by the delivery note,
// in the same move that takes the goods (qty −q, committed −q). Goods in staging cannot be taken by any
// other document meanwhile: the ledger refuses to take stock of a product × warehouse below what is
// committed to orders, and picking suggestions never point at a staging location.
import type { Tenant } from '../../catalog/tenant.ts';
import { TypedTenant } from '../../db/typed.ts';
import { lookupKeyOf } from '../stock/locations.ts';

export const STAGING_CODE = 'OUT-STAGE';
export const STAGING_TYPE = 'shipping';

/** The warehouse's staging location (its first `shipping` location, else one created now). */
export async function stagingLocation(tenant: Tenant, warehouseId: number, accountId: number | null): Promise<number> {
  const t = TypedTenant.of(tenant);
  const found = async () => await t.select('location').select('id').where('warehouseId', '=', warehouseId).where('type', '=', STAGING_TYPE)
    .where('status', '=', 'enabled').orderBy('id').limit(1).executeTakeFirst();
  const had = await found();
  if (had) return Number(had.id);
  const now = new Date().toISOString();
  // two first pickings at once: the unique code lets one insert through, both read the same row after
  await t.insert('location', {
    warehouseId, lcCode: STAGING_CODE, lookupKey: lookupKeyOf(STAGING_CODE), zone: 'OUT', type: STAGING_TYPE, status: 'enabled', remark: '发货暂存区（拣货后、发货前）',
    version: 1, createdAt: now, updatedAt: now, createdBy: accountId, updatedBy: accountId,
  }).onConflict((oc) => oc.doNothing()).execute();
  const made = await found();
  if (made) return Number(made.id);
  // the code is taken by a location of another type: use it only if it is this warehouse's and enabled
  const byCode = await t.select('location').select(['id', 'status']).where('warehouseId', '=', warehouseId).where('lcCode', '=', STAGING_CODE).executeTakeFirst();
  if (byCode && byCode.status === 'enabled') {
    await t.update('location').set({ type: STAGING_TYPE }).where('id', '=', Number(byCode.id)).execute();
    return Number(byCode.id);
  }
  throw new Error(`warehouse ${warehouseId}: no staging location could be made`);
}
