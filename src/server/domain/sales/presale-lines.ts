// Presale lines (issue 13): when a confirmed order asks for more of a product than its warehouse has
// available, a client on the presale whitelist (presale-whitelist.ts: the company's presale switch, an
// active plan listing the product, the order date within the plan's and the whitelist row's dates) may
// commit the rest against expected arrivals — the open quantity of inbound tasks into that warehouse.
// Without the whitelist the ledger refuses as for any order.
//
// What is decided here, in the confirmation's transaction:
//   - per product: need (the order's lines), available (on hand − reserved − committed, read with the
//     totals row locked on PostgreSQL, in product order as the ledger locks them), the shortfall;
//   - for a short product with a grant: the expected arrivals (inbound task lines read FOR SHARE on
//     PostgreSQL, so a receipt cannot slip in between this read and the commitment) and the presale
//     already committed against them (the warehouse's gap); the shortfall must fit in what is left, and in
//     the plan's presale quantity (presale_item.sold_qty, a guarded counter);
//   - the commitment moves carry the arrivals as their allowance: the ledger's guarded totals update lets
//     the warehouse's commitments exceed on hand by at most that, so concurrent confirmations for the last
//     expected units cannot both pass (ledger.ts).
// The line records the part ordered against arrivals (presaleQty) and the plan (presalePlanId); cancelling
// or closing gives the plan's quantity back. Arrivals make the commitment an ordinary one by raising on
// hand — nothing is converted.
import { sql } from 'kysely';
import type { Tenant } from '../../catalog/tenant.ts';
import type { DB } from '../../db/connection.ts';
import { isSqlite } from '../../db/raw-sql.ts';
import { bizError } from '../../http/errors.ts';
import { presaleGrant } from '../commodity/presale-whitelist.ts';
import { TypedTenant } from '../../db/typed.ts';

type Row = Record<string, unknown>;

export interface PresaleDecision {
  /** per product: the allowance its commitment moves carry (0 for ordinary products) */
  allowance: Map<number, number>;
  /** per line id: the part ordered against arrivals and the plan */
  lines: Map<number, { presaleQty: number; planId: number }>;
}

interface OrderLine { id: number; productId: number; qty: number; code?: string }

/** Open quantity of inbound tasks per product into the warehouse (locked against receipts on PostgreSQL). */
async function expectedArrivals(db: DB, untypedTenant: Tenant, warehouseId: number, productIds: number[]): Promise<Map<number, number>> {
  const tenant = TypedTenant.of(untypedTenant);
  let q = tenant.select('inboundTaskLine')
    .innerJoin('inboundTask', (j) => j.onRef('inboundTask.id', '=', 'inboundTaskLine.taskId').onRef('inboundTask.companyId', '=', 'inboundTaskLine.companyId'))
    .select(['inboundTaskLine.productId', 'inboundTaskLine.qty', 'inboundTaskLine.receivedQty'])
    .where('inboundTask.warehouseId', '=', warehouseId).where('inboundTask.status', 'in', ['open', 'receiving'])
    .where('inboundTaskLine.productId', 'in', productIds)
    .orderBy('inboundTaskLine.id');
  if (!isSqlite(db)) q = q.forShare('inboundTaskLine' as never) as typeof q;
  const out = new Map<number, number>();
  for (const r of await q.execute()) {
    const id = Number(r.productId);
    out.set(id, (out.get(id) ?? 0) + Math.max(0, Number(r.qty) - Number(r.receivedQty)));
  }
  return out;
}

/** The warehouse's totals for the products, locked in product order on PostgreSQL (the ledger's order). */
async function totals(db: DB, untypedTenant: Tenant, warehouseId: number, productIds: number[]): Promise<Map<number, { onHand: number; held: number }>> {
  const tenant = TypedTenant.of(untypedTenant);
  let q = tenant.select('stockSummary').select(['productId', 'onHand', 'reserved', 'committed'])
    .where('warehouseId', '=', warehouseId).where('productId', 'in', productIds).orderBy('productId');
  if (!isSqlite(db)) q = q.forUpdate() as typeof q;
  return new Map((await q.execute()).map((r) => [Number(r.productId), { onHand: Number(r.onHand), held: Number(r.reserved) + Number(r.committed) }]));
}

/**
 * Decides which part of each line is presale, takes it from the plan's quantity, and answers the
 * allowances for the ledger. Throws SALES_PRESALE_OVER_4149 when the arrivals (or the plan) cannot cover
 * a whitelisted client's shortfall; products without a grant are left to the ledger's own refusal.
 */
export async function decidePresale(db: DB, untypedTenant: Tenant, order: { clientId: number; warehouseId: number; orderDate: string }, lines: OrderLine[]): Promise<PresaleDecision> {
  const tenant = TypedTenant.of(untypedTenant);
  const decision: PresaleDecision = { allowance: new Map(), lines: new Map() };
  const need = new Map<number, number>();
  for (const l of lines) need.set(l.productId, (need.get(l.productId) ?? 0) + l.qty);
  const ids = [...need.keys()].sort((a, b) => a - b);
  if (!ids.length) return decision;
  const stock = await totals(db, untypedTenant, order.warehouseId, ids);
  const short = ids.filter((id) => {
    const s = stock.get(id);
    return need.get(id)! > Math.max(0, (s?.onHand ?? 0) - (s?.held ?? 0));
  });
  if (!short.length) return decision;
  const grants = new Map<number, NonNullable<Awaited<ReturnType<typeof presaleGrant>>>>();
  for (const id of short) {
    const g = await presaleGrant(untypedTenant, order.clientId, id, order.orderDate);
    if (g) grants.set(id, g);
  }
  if (!grants.size) return decision;
  const arrivals = await expectedArrivals(db, untypedTenant, order.warehouseId, [...grants.keys()]);
  const codes = new Map((await tenant.select('product').select(['id', 'code']).where('id', 'in', [...grants.keys()]).execute()).map((r) => [Number(r.id), String(r.code)]));
  for (const [productId, grant] of grants) {
    const s = stock.get(productId) ?? { onHand: 0, held: 0 };
    const available = Math.max(0, s.onHand - s.held);
    const presold = Math.max(0, s.held - s.onHand);
    const incoming = arrivals.get(productId) ?? 0;
    const shortfall = need.get(productId)! - available;
    const figures = { code: codes.get(productId) ?? String(productId), qty: need.get(productId)!, available, incoming, presold, left: Math.max(0, incoming - presold) };
    if (shortfall > incoming - presold) throw bizError('SALES_PRESALE_OVER_4149', figures, { productId, ...figures });
    // the plan's presale quantity (0: no limit) — a guarded counter, so two orders cannot both take its last units
    if (grant.qty > 0) {
      const taken = await tenant.update('presaleItem').set({ soldQty: sql`${sql.ref('soldQty')} + ${shortfall}` })
        .where('planId', '=', grant.planId).where('productId', '=', productId)
        .where(sql<boolean>`${sql.ref('soldQty')} + ${shortfall} <= ${sql.ref('qty')}`).returning('id').executeTakeFirst();
      if (!taken) {
        const item = await tenant.select('presaleItem').select(['qty', 'soldQty']).where('planId', '=', grant.planId).where('productId', '=', productId).executeTakeFirst();
        throw bizError('SALES_PRESALE_PLAN_4150', { code: figures.code, plan: grant.planName, planQty: Number(item?.qty ?? grant.qty), sold: Number(item?.soldQty ?? 0), qty: shortfall },
          { productId, planId: grant.planId });
      }
    }
    decision.allowance.set(productId, incoming);
    // the shortfall is recorded on the product's last lines (the earlier ones come out of stock first)
    let rest = shortfall;
    for (const l of [...lines].reverse()) {
      if (rest <= 0) break;
      if (l.productId !== productId) continue;
      const part = Math.min(l.qty, rest);
      decision.lines.set(l.id, { presaleQty: part, planId: grant.planId });
      rest -= part;
    }
  }
  return decision;
}

/**
 * Gives the plans back what the order's presale lines took from them and have not shipped (cancel,
 * close): a line's presale part is its last units, so what it still holds counts first.
 */
export async function returnPresale(untypedTenant: Tenant, lines: Row[]): Promise<void> {
  const tenant = TypedTenant.of(untypedTenant);
  const byItem = new Map<string, { planId: number; productId: number; qty: number }>();
  for (const l of lines) {
    const q = Math.min(Number(l.presaleQty ?? 0), Number(l.reservedQty ?? 0));
    if (!(q > 0) || l.presalePlanId == null) continue;
    const k = `${Number(l.presalePlanId)}:${Number(l.productId)}`;
    const e = byItem.get(k) ?? { planId: Number(l.presalePlanId), productId: Number(l.productId), qty: 0 };
    e.qty += q;
    byItem.set(k, e);
  }
  for (const e of [...byItem.values()].sort((a, b) => a.planId - b.planId || a.productId - b.productId)) {
    await tenant.update('presaleItem').set({ soldQty: sql`case when ${sql.ref('soldQty')} > ${e.qty} then ${sql.ref('soldQty')} - ${e.qty} else 0 end` })
      .where('planId', '=', e.planId).where('productId', '=', e.productId).execute();
  }
}
