// Verification (`npm run verify`, `/system/verification`): recomputes every balance from the ledger and
// compares, in SQL (grouped sums, not row by row in JavaScript):
// - ledger vs stock_balance: sum of qty / reserved_qty per company × product × warehouse × location
//   against on_hand / reserved (a key with moves but no balance row, or the reverse, is a difference too);
// - stock_balance vs stock_summary: the per product × warehouse totals against the sum of their locations;
// - ledger vs stock_summary.committed: what the ledger committed to orders per product × warehouse;
// - balances the company's flags forbid: on hand below zero, or more reserved than on hand, where
//   negativeStock is off.
import { sql } from 'kysely';
import { parseFlags } from '../../../core/flags.ts';
import type { DB } from '../../db/connection.ts';
import { typed } from '../../db/typed.ts';

type Row = Record<string, unknown>;

export type DifferenceKind = 'ledger' | 'summary' | 'committed' | 'negative' | 'overReserved';

export const DIFFERENCE_TITLES: Record<DifferenceKind, string> = {
  ledger: '库存余额与流水合计不符',
  summary: '仓库汇总与库位余额合计不符',
  committed: '订单预留与流水合计不符',
  negative: '负库存（公司未允许负库存）',
  overReserved: '预留数量超过现有库存',
};

export interface StockDifference {
  kind: DifferenceKind;
  title: string;
  companyId: number;
  companyCode: string | null;
  productId: number;
  productCode: string | null;
  warehouseId: number;
  warehouseCode: string | null;
  locationId: number | null;
  lcCode: string | null;
  /** expected values (from the ledger, or from the locations for a summary) */
  expectedOnHand: number | null;
  expectedReserved: number | null;
  /** stored values (balance or summary row; null when the row is missing) */
  actualOnHand: number | null;
  actualReserved: number | null;
  message: string;
}

export interface VerifyResult {
  checkedAt: string;
  ms: number;
  companies: number;
  moves: number;
  balances: number;
  /** number of differences found (the list holds at most `limit`) */
  total: number;
  differences: StockDifference[];
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** Recomputes and compares; `companyId` limits the check to one company. */
export async function verifyStock(untypedDb: DB, opts: { companyId?: number; limit?: number } = {}): Promise<VerifyResult> {
  const db = typed(untypedDb);
  const started = Date.now();
  const checkedAt = new Date().toISOString();
  const limit = opts.limit ?? 1000;
  const only = (table: string) => (opts.companyId === undefined ? sql`` : sql`where ${sql.ref(`${table}.companyId`)} = ${opts.companyId}`);

  const ledger = (await sql<Row>`
    select company_id, product_id, warehouse_id, location_id,
      cast(sum(l_on) as bigint) as ledger_on_hand, cast(sum(l_res) as bigint) as ledger_reserved,
      cast(sum(b_on) as bigint) as balance_on_hand, cast(sum(b_res) as bigint) as balance_reserved, cast(sum(has_b) as bigint) as has_balance
    from (
      select company_id, product_id, warehouse_id, coalesce(location_id, 0) as location_id,
        qty as l_on, reserved_qty as l_res, 0 as b_on, 0 as b_res, 0 as has_b
      from stock_move ${only('stockMove')}
      union all
      select company_id, product_id, warehouse_id, location_id, 0, 0, on_hand, reserved, 1
      from stock_balance ${only('stockBalance')}
    ) x
    group by company_id, product_id, warehouse_id, location_id
    having sum(l_on) <> sum(b_on) or sum(l_res) <> sum(b_res)
  `.execute(db)).rows;

  const summary = (await sql<Row>`
    select company_id, product_id, warehouse_id,
      cast(sum(b_on) as bigint) as balance_on_hand, cast(sum(b_res) as bigint) as balance_reserved,
      cast(sum(s_on) as bigint) as summary_on_hand, cast(sum(s_res) as bigint) as summary_reserved, cast(sum(has_s) as bigint) as has_summary
    from (
      select company_id, product_id, warehouse_id, on_hand as b_on, reserved as b_res, 0 as s_on, 0 as s_res, 0 as has_s
      from stock_balance ${only('stockBalance')}
      union all
      select company_id, product_id, warehouse_id, 0, 0, on_hand, reserved, 1
      from stock_summary ${only('stockSummary')}
    ) x
    group by company_id, product_id, warehouse_id
    having sum(b_on) <> sum(s_on) or sum(b_res) <> sum(s_res)
  `.execute(db)).rows;

  const committed = (await sql<Row>`
    select company_id, product_id, warehouse_id, cast(sum(l_c) as bigint) as ledger_committed,
      cast(sum(s_c) as bigint) as summary_committed, cast(sum(s_on) as bigint) as summary_on_hand,
      cast(sum(s_res) as bigint) as summary_reserved, cast(sum(has_s) as bigint) as has_summary
    from (
      select company_id, product_id, warehouse_id, committed_qty as l_c, 0 as s_c, 0 as s_on, 0 as s_res, 0 as has_s
      from stock_move ${only('stockMove')}
      union all
      select company_id, product_id, warehouse_id, 0, committed, on_hand, reserved, 1
      from stock_summary ${only('stockSummary')}
    ) x
    group by company_id, product_id, warehouse_id
    having sum(l_c) <> sum(s_c)
  `.execute(db)).rows;

  // Companies whose flags forbid negative stock.
  let cq = db.selectFrom('company').select(['id', 'flags']);
  if (opts.companyId !== undefined) cq = cq.where('id', '=', opts.companyId);
  const companies = await cq.execute();
  const strict = companies.filter((c) => !parseFlags(c.flags).negativeStock).map((c) => Number(c.id));
  const forbidden = strict.length
    ? (await db.selectFrom('stockBalance').select(['companyId', 'productId', 'warehouseId', 'locationId', 'onHand', 'reserved'])
      .where('companyId', 'in', strict)
      .where((eb) => eb.or([eb('onHand', '<', 0), eb('reserved', '>', eb.ref('onHand'))]))
      .execute())
    : [];

  // (tables named at run time: the untyped view)
  const counts = async (table: string) => {
    let q = untypedDb.selectFrom(table).select((eb) => eb.fn.countAll().as('n'));
    if (opts.companyId !== undefined) q = q.where('companyId', '=', opts.companyId);
    return Number((await q.executeTakeFirst())?.n ?? 0);
  };

  const raw: Array<Omit<StockDifference, 'title' | 'companyCode' | 'productCode' | 'warehouseCode' | 'lcCode' | 'message'>> = [];
  for (const r of ledger) {
    raw.push({
      kind: 'ledger', companyId: Number(r.companyId), productId: Number(r.productId), warehouseId: Number(r.warehouseId), locationId: Number(r.locationId) || null,
      expectedOnHand: num(r.ledgerOnHand), expectedReserved: num(r.ledgerReserved),
      actualOnHand: Number(r.hasBalance) ? num(r.balanceOnHand) : null, actualReserved: Number(r.hasBalance) ? num(r.balanceReserved) : null,
    });
  }
  for (const r of summary) {
    raw.push({
      kind: 'summary', companyId: Number(r.companyId), productId: Number(r.productId), warehouseId: Number(r.warehouseId), locationId: null,
      expectedOnHand: num(r.balanceOnHand), expectedReserved: num(r.balanceReserved),
      actualOnHand: Number(r.hasSummary) ? num(r.summaryOnHand) : null, actualReserved: Number(r.hasSummary) ? num(r.summaryReserved) : null,
    });
  }
  for (const r of committed) {
    raw.push({
      kind: 'committed', companyId: Number(r.companyId), productId: Number(r.productId), warehouseId: Number(r.warehouseId), locationId: null,
      expectedOnHand: null, expectedReserved: num(r.ledgerCommitted),
      actualOnHand: Number(r.hasSummary) ? num(r.summaryOnHand) : null, actualReserved: Number(r.hasSummary) ? num(r.summaryCommitted) : null,
    });
  }
  // more committed to orders than the warehouse holds, where the company does not allow negative stock
  const overCommitted = strict.length
    ? (await db.selectFrom('stockSummary').select(['companyId', 'productId', 'warehouseId', 'onHand', 'reserved', 'committed'])
      .where('companyId', 'in', strict).where('committed', '>', 0)
      .where((eb) => eb(eb('reserved', '+', eb.ref('committed')), '>', eb.ref('onHand')))
      .execute())
    : [];
  // presale (issue 13): a warehouse's commitments may exceed what it holds by what open orders still hold
  // against expected arrivals (their lines' presale part, at most what each line still holds)
  const presaleHeld = new Map<string, number>();
  if (overCommitted.length) {
    const rows = await db.selectFrom('salesOrderLine')
      .innerJoin('salesOrder', (j) => j.onRef('salesOrder.id', '=', 'salesOrderLine.orderId').onRef('salesOrder.companyId', '=', 'salesOrderLine.companyId'))
      .select(['salesOrderLine.companyId', 'salesOrderLine.productId', 'salesOrder.warehouseId', 'salesOrderLine.presaleQty', 'salesOrderLine.reservedQty'])
      .where('salesOrderLine.presaleQty', '>', 0).where('salesOrderLine.reservedQty', '>', 0)
      .where('salesOrderLine.productId', 'in', [...new Set(overCommitted.map((r) => Number(r.productId)))])
      .execute();
    for (const r of rows) {
      const k = `${Number(r.companyId)}:${Number(r.productId)}:${Number(r.warehouseId)}`;
      presaleHeld.set(k, (presaleHeld.get(k) ?? 0) + Math.min(Number(r.presaleQty), Number(r.reservedQty)));
    }
  }
  for (const r of overCommitted) {
    const gap = Number(r.reserved) + Number(r.committed) - Number(r.onHand);
    if (gap <= (presaleHeld.get(`${Number(r.companyId)}:${Number(r.productId)}:${Number(r.warehouseId)}`) ?? 0)) continue;
    raw.push({
      kind: 'overReserved', companyId: Number(r.companyId), productId: Number(r.productId), warehouseId: Number(r.warehouseId), locationId: null,
      expectedOnHand: null, expectedReserved: null, actualOnHand: num(r.onHand), actualReserved: Number(r.reserved) + Number(r.committed),
    });
  }
  for (const r of forbidden) {
    raw.push({
      kind: Number(r.onHand) < 0 ? 'negative' : 'overReserved', companyId: Number(r.companyId), productId: Number(r.productId), warehouseId: Number(r.warehouseId),
      locationId: Number(r.locationId) || null, expectedOnHand: null, expectedReserved: null, actualOnHand: num(r.onHand), actualReserved: num(r.reserved),
    });
  }

  const shown = raw.slice(0, limit);
  const names = async (table: string, column: string, ids: number[]) => {
    const map = new Map<number, string>();
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await untypedDb.selectFrom(table).select(['id', `${column} as label`] as never).where('id', 'in', ids.slice(i, i + 500)).execute();
      for (const x of rows) map.set(Number(x.id), String(x.label));
    }
    return map;
  };
  const ids = (f: (d: (typeof shown)[number]) => number | null) => [...new Set(shown.map(f).filter((x): x is number => !!x))];
  const companyCodes = await names('company', 'code', ids((d) => d.companyId));
  const productCodes = await names('product', 'code', ids((d) => d.productId));
  const warehouseCodes = await names('warehouse', 'code', ids((d) => d.warehouseId));
  const lcCodes = await names('location', 'lcCode', ids((d) => d.locationId));
  const differences: StockDifference[] = shown.map((d) => {
    const companyCode = companyCodes.get(d.companyId) ?? null;
    const productCode = productCodes.get(d.productId) ?? null;
    const warehouseCode = warehouseCodes.get(d.warehouseId) ?? null;
    const lcCode = d.locationId ? lcCodes.get(d.locationId) ?? String(d.locationId) : null;
    const where = `公司 ${companyCode ?? d.companyId} 商品 ${productCode ?? d.productId} 仓库 ${warehouseCode ?? d.warehouseId}${d.locationId ? ` 库位 ${lcCode}` : ''}`;
    const shownNum = (v: number | null) => (v === null ? '（无记录）' : String(v));
    let message: string;
    if (d.kind === 'ledger') message = `${where}：流水合计 现有 ${d.expectedOnHand}、预留 ${d.expectedReserved}，余额表 现有 ${shownNum(d.actualOnHand)}、预留 ${shownNum(d.actualReserved)}`;
    else if (d.kind === 'summary') message = `${where}：各库位合计 现有 ${d.expectedOnHand}、预留 ${d.expectedReserved}，仓库汇总 现有 ${shownNum(d.actualOnHand)}、预留 ${shownNum(d.actualReserved)}`;
    else if (d.kind === 'committed') message = `${where}：流水合计 订单预留 ${d.expectedReserved}，仓库汇总 订单预留 ${shownNum(d.actualReserved)}`;
    else message = `${where}：现有 ${d.actualOnHand}，预留 ${d.actualReserved}`;
    return { ...d, title: DIFFERENCE_TITLES[d.kind], companyCode, productCode, warehouseCode, lcCode, message: `${DIFFERENCE_TITLES[d.kind]}｜${message}` };
  });
  return {
    checkedAt, ms: Date.now() - started, companies: companies.length,
    moves: await counts('stockMove'), balances: await counts('stockBalance'),
    total: raw.length, differences,
  };
}
