// Whether a client may order a product as presale (beyond available stock, against expected arrivals):
// the question a sales order line asks when its quantity exceeds what is available (issue 13's presale
// lines). The answer comes from the presale whitelist (/commodity/whiteList, resource presaleWhitelist)
// and the presale plans it names:
//
//   - the company has presale switched on (flag `presale`, /baseConfig/setConfig);
//   - the client has a whitelist row whose plan is 进行中 (status `active`);
//   - the product is one of that plan's products (presale_item);
//   - `onDate` (a company-local day, YYYY-MM-DD — the order date) lies within the plan's start/end dates
//     and within the row's 生效日期/失效日期; an empty date leaves that side open.
//
// The plan is the product scope: a client is whitelisted per plan, and a plan lists its products, so
// whitelisting never opens presale on products nobody planned. Call it inside the order's transaction
// (pass `tenant.with(trx)`) so the answer and the reservation see the same data.
import { parseFlags } from '../../../core/flags.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import { TypedTenant } from '../../db/typed.ts';

/** The plan that lets the client order the product on that day, with the plan's price and quantity. */
export interface PresaleGrant {
  planId: number;
  planCode: string;
  planName: string;
  /** the plan's presale price of the product, in cents (minor units) as stored (presale_item.price) */
  price: number;
  /** the plan's presale quantity of the product, small units */
  qty: number;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The plan under which `clientId` may order `productId` as presale on `onDate`, or null. When several
 * plans allow it, the one that ends first (then the lowest plan id) is answered: the offer about to close
 * is the one the order draws on.
 */
export async function presaleGrant(tenant: Tenant, clientId: number, productId: number, onDate: string): Promise<PresaleGrant | null> {
  if (!DAY.test(onDate)) throw new Error(`presaleGrant: onDate must be YYYY-MM-DD, got ${onDate}`);
  const t = TypedTenant.of(tenant);
  const company = await t.db.selectFrom('company').select('flags').where('id', '=', tenant.companyId).executeTakeFirst();
  if (!company || !parseFlags(company.flags).presale) return null;
  const rows = await t.select('presaleWhitelist')
    .innerJoin('presalePlan', (j) => j.onRef('presalePlan.id', '=', 'presaleWhitelist.planId').onRef('presalePlan.companyId', '=', 'presaleWhitelist.companyId'))
    .innerJoin('presaleItem', (j) => j.onRef('presaleItem.planId', '=', 'presalePlan.id').onRef('presaleItem.companyId', '=', 'presalePlan.companyId'))
    .select(['presalePlan.id', 'presalePlan.code', 'presalePlan.name', 'presalePlan.endDate', 'presaleItem.price', 'presaleItem.qty'])
    .where('presaleWhitelist.clientId', '=', clientId)
    .where('presaleItem.productId', '=', productId)
    .where('presalePlan.status', '=', 'active')
    .where((eb) => eb.and([
      eb.or([eb('presalePlan.startDate', 'is', null), eb('presalePlan.startDate', '<=', onDate)]),
      eb.or([eb('presalePlan.endDate', 'is', null), eb('presalePlan.endDate', '>=', onDate)]),
      eb.or([eb('presaleWhitelist.validFrom', 'is', null), eb('presaleWhitelist.validFrom', '<=', onDate)]),
      eb.or([eb('presaleWhitelist.validTo', 'is', null), eb('presaleWhitelist.validTo', '>=', onDate)]),
    ]))
    .execute();
  if (!rows.length) return null;
  // Open-ended plans sort last; ties by id, so the answer never depends on the database's row order.
  rows.sort((a, b) => (a.endDate ? 0 : 1) - (b.endDate ? 0 : 1) || String(a.endDate ?? '').localeCompare(String(b.endDate ?? '')) || Number(a.id) - Number(b.id));
  const r = rows[0]!;
  return { planId: Number(r.id), planCode: String(r.code), planName: String(r.name), price: Number(r.price), qty: Number(r.qty) };
}

/** Whether `clientId` may order `productId` beyond available stock on `onDate` (see the file head). */
export async function isPresaleAllowed(tenant: Tenant, clientId: number, productId: number, onDate: string): Promise<boolean> {
  return (await presaleGrant(tenant, clientId, productId, onDate)) !== null;
}
