// The lines of a receiving note, checked against their source's lines: a purchase order's (or its
// task's) or a sales return's. One check for both sources — locations of the note's warehouse and
// enabled, counted in small units or big/mid/small packs, damaged within counted, one line per source
// line and location, and the source's own ceiling (over-receipt) on what is accepted (counted − damaged).
import type { Tenant } from '../../catalog/tenant.ts';
import { validationError, type FieldError } from '../../http/errors.ts';
import { MAX_MOVE_QTY } from '../stock/ledger.ts';
import type { Row } from './common.ts';
import { TypedTenant } from '../../db/typed.ts';
import { lineQty } from './purchase-order.ts';

export interface ReceiptCheck {
  /** the note's lines (parsed) and as sent (big/mid/small packs) */
  lines: Row[];
  raw: Row[];
  warehouse: { id: number; name: string };
  /** which field of a note line names its source line */
  key: 'orderLineId' | 'returnLineId';
  /** the source's lines by id: id, lineNo, productId, code, qty, receivedQty and the product's packs */
  sources: Map<number, Row>;
  /** how a missing source line is named ("订单明细不能为空") and a duplicate one ("订单第 n 行") */
  keyTitle: string;
  sourceLine: (src: Row) => string;
  /** the line names no line of the source: the refusal to throw */
  mismatch: (line: number, id: number) => Error;
  /** what the source lines would have received with `sum` more: the refusal to throw, if over */
  over: (src: Row, sum: number) => Error | undefined;
}

/** Checks and completes the note's lines (productId, countedQty, damagedQty, qty, putawayQty, productCode); throws the first refusal. */
export async function checkReceiptLines(tenant: Tenant, c: ReceiptCheck): Promise<void> {
  const { lines, warehouse } = c;
  const locIds = [...new Set(lines.flatMap((x) => (x.locationId == null ? [] : [Number(x.locationId)])))];
  const locations = new Map<number, Row>();
  if (locIds.length) {
    for (const r of await TypedTenant.of(tenant).select('location').select(['id', 'warehouseId', 'lcCode', 'status']).where('id', 'in', locIds).execute()) locations.set(Number(r.id), r);
  }
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  const per = new Map<number, number>();
  lines.forEach((x, i) => {
    const err = (f: string, message: string) => errors.push({ field: `lines.${i}.${f}`, message: `第 ${i + 1} 行：${message}` });
    if (x[c.key] == null) { err(c.key, `${c.keyTitle}不能为空`); return; }
    const sourceId = Number(x[c.key]);
    const src = c.sources.get(sourceId);
    if (!src) throw c.mismatch(i + 1, sourceId);
    const locationId = x.locationId == null ? null : Number(x.locationId);
    if (locationId) {
      const loc = locations.get(locationId);
      if (!loc) { err('locationId', '库位不存在'); return; }
      if (Number(loc.warehouseId) !== warehouse.id) { err('locationId', `库位 ${String(loc.lcCode)} 不属于仓库 ${warehouse.name}`); return; }
      if (loc.status !== 'enabled') { err('locationId', `库位 ${String(loc.lcCode)} 已锁定`); return; }
    }
    const r = c.raw[i] ?? {};
    const counted = lineQty({ qty: x.countedQty as number | null, big: r.big as number | null, mid: r.mid as number | null, small: r.small as number | null }, src, { line: i + 1, productId: Number(src.productId) });
    if (counted === undefined) { err('countedQty', '实收数量不能为空'); return; }
    if (counted <= 0 || counted > MAX_MOVE_QTY) { err('countedQty', '实收数量必须大于 0'); return; }
    const damaged = x.damagedQty == null ? 0 : Number(x.damagedQty);
    if (damaged > counted) { err('damagedQty', '破损数量不能大于实收数量'); return; }
    const key = `${sourceId}:${locationId ?? 0}`;
    if (seen.has(key)) { err(c.key, `${c.sourceLine(src)}在同一库位重复，请合并为一行`); return; }
    seen.add(key);
    const qty = counted - damaged;
    const sum = (per.get(sourceId) ?? 0) + qty;
    per.set(sourceId, sum);
    // Early, friendly check; the posting enforces it again with a conditional update.
    const over = c.over(src, sum);
    if (over) throw over;
    // productCode is not stored: a posting in the same call knows the product from it (storedLines)
    Object.assign(x, { productId: Number(src.productId), countedQty: counted, damagedQty: damaged, qty, putawayQty: 0, productCode: String(src.code) });
  });
  if (errors.length) throw validationError(errors.slice(0, 200));
}
