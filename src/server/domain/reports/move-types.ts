// What a stock move was, from its document: the move types the daily closing sums per day (stock_move_day)
// and 其他出入库报表 reports. A cancelled document's reversing moves carry its type (they net it out).
import { sql } from 'kysely';
import type { Tenant } from '../../catalog/tenant.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Q = any;

/** The moves that are neither a purchase receipt nor a sales delivery (其他出入库), in report order. */
export const OTHER_MOVE_TYPES = {
  init: '期初入库',
  count: '盘点盈亏',
  adjust: '库存调整',
  salesReturn: '销售退货入库',
  purchaseReturn: '采购退货出库',
  transfer: '库内移库',
} as const;
export type OtherMoveType = keyof typeof OTHER_MOVE_TYPES;

/** A move's type (needs the receiving note joined: movesWithType); purchase receipts, deliveries and the rest apart. */
export const MOVE_TYPE = sql<string>`case
  when ${sql.ref('stockMove.docType')} = 'stockInit' then 'init'
  when ${sql.ref('stockMove.docType')} = 'stockTake' then 'count'
  when ${sql.ref('stockMove.docType')} = 'stockAdjust' then 'adjust'
  when ${sql.ref('stockMove.docType')} = 'receivingNote' and ${sql.ref('receivingNote.returnId')} is not null then 'salesReturn'
  when ${sql.ref('stockMove.docType')} = 'receivingNote' then 'purchase'
  when ${sql.ref('stockMove.docType')} = 'returnPlan' then 'purchaseReturn'
  when ${sql.ref('stockMove.docType')} = 'deliveryNote' then 'delivery'
  when ${sql.ref('stockMove.docType')} in ('putaway', 'pickingOrder') then 'transfer'
  else 'other'
end`;

/** The company's moves that changed a quantity, recorded in (after, upTo], with what MOVE_TYPE needs. */
export function movesWithType(tenant: Tenant, after: string, upTo: string): Q {
  return tenant.select('stockMove')
    .leftJoin('receivingNote', (j: Q) => j.onRef('receivingNote.id', '=', 'stockMove.docId').onRef('receivingNote.companyId', '=', 'stockMove.companyId')
      .on('stockMove.docType', '=', 'receivingNote'))
    .where('stockMove.createdAt', '>', after).where('stockMove.createdAt', '<=', upTo)
    .where('stockMove.qty', '<>', 0);
}

const CHUNK = 200;

/**
 * Sums a closed day's moves per product × warehouse × type into stock_move_day (again: the day's rows are
 * replaced). A day's moves are those recorded in it, so its rows never change once it is over.
 */
export async function summariseMoveDay(tenant: Tenant, day: string, dayStart: string, dayEnd: string): Promise<number> {
  await tenant.delete('stockMoveDay').where('day', '=', day).execute();
  const rows = (await movesWithType(tenant, dayStart, dayEnd).select([
    'stockMove.productId', 'stockMove.warehouseId', MOVE_TYPE.as('moveType'),
    sql`sum(case when ${sql.ref('stockMove.qty')} > 0 then ${sql.ref('stockMove.qty')} else 0 end)`.as('inQty'),
    sql`sum(case when ${sql.ref('stockMove.qty')} < 0 then -${sql.ref('stockMove.qty')} else 0 end)`.as('outQty'),
  ]).groupBy(['stockMove.productId', 'stockMove.warehouseId', MOVE_TYPE]).execute()) as Array<Record<string, unknown>>;
  const values = rows.map((r) => ({ day, productId: Number(r.productId), warehouseId: Number(r.warehouseId), moveType: String(r.moveType), inQty: String(r.inQty), outQty: String(r.outQty) }));
  for (let i = 0; i < values.length; i += CHUNK) await tenant.insert('stockMoveDay', values.slice(i, i + CHUNK)).execute();
  return values.length;
}
