// The early check of a document whose lines claim quantities from a sales order's lines (an outbound
// plan or a sales return from a sales order's lines). The save's transaction claims again with a conditional update;
// this check only gives the clerk every mistake of the form at once, in the document's words.
import type { Tenant } from '../../catalog/tenant.ts';
import { bizError, validationError, type FieldError } from '../../http/errors.ts';
import { lineQty } from '../procurement/purchase-order.ts';
import type { Row } from '../procurement/common.ts';

export interface SourceLineClaim {
  tenant: Tenant;
  /** the parsed lines (filled in place by `fill`) and the raw input lines (their big/mid/small packs) */
  lines: Row[];
  raw: Row[];
  /** the source document's lines by id, and its title and number for the refusal of a line not its own */
  sourceLines: Map<number, Row>;
  doc: string;
  source: { title: string; docNo: string };
  /** a draft being edited: its line table, parent column and id — what it holds now is given back */
  held?: { table: string; parent: string; id: number };
  /** the quantity's name in messages (计划数量, 退货数量) */
  qtyTitle: string;
  /** throws the document's over-claim refusal when `qty` more does not fit, `heldElsewhere` being what others hold */
  fits(sourceLine: Row, heldElsewhere: number, qty: number): void;
  /** completes the line from its source line once its quantity is known */
  fill(line: Row, sourceLine: Row, qty: number): void;
}

/** What a document already holds of each source line (its stored lines). */
async function heldBy(tenant: Tenant, held: SourceLineClaim['held']): Promise<Map<number, number>> {
  const own = new Map<number, number>();
  if (!held) return own;
  // the table is the caller's line table, named at run time: the untyped view
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const rows: Row[] = await (tenant.select(held.table as any) as any).select(['orderLineId', 'qty']).where(held.parent, '=', held.id).execute();
  for (const r of rows) own.set(Number(r.orderLineId), (own.get(Number(r.orderLineId)) ?? 0) + Number(r.qty));
  return own;
}

/**
 * Checks each line: it names a line of the source once, its quantity (qty, or big/mid/small packs) is given, in
 * range and above 0, and fits what the source line has left. Form mistakes are collected and thrown together.
 */
export async function checkSourceLineClaims(c: SourceLineClaim, heldField: (sourceLine: Row) => number): Promise<void> {
  const own = await heldBy(c.tenant, c.held);
  const errors: FieldError[] = [];
  const seen = new Set<number>();
  c.lines.forEach((l, i) => {
    const err = (f: string, message: string) => errors.push({ field: `lines.${i}.${f}`, message: `第 ${i + 1} 行：${message}` });
    const orderLineId = Number(l.orderLineId);
    const ol = c.sourceLines.get(orderLineId);
    if (!ol) throw bizError('PURCHASE_LINE_MISMATCH_4098', { doc: c.doc, line: i + 1, source: c.source.title, docNo: c.source.docNo }, { line: i + 1, orderLineId });
    if (seen.has(orderLineId)) { err('orderLineId', `订单第 ${Number(ol.lineNo)} 行重复，请合并为一行`); return; }
    seen.add(orderLineId);
    const r = c.raw[i]!;
    const qty = lineQty({ qty: l.qty as number | null, big: r.big as number | null, mid: r.mid as number | null, small: r.small as number | null }, ol, { line: i + 1, productId: Number(ol.productId) });
    if (qty === undefined) { err('qty', r.qty == null && r.big == null && r.mid == null && r.small == null ? `${c.qtyTitle}不能为空` : `${c.qtyTitle}超出范围`); return; }
    if (qty <= 0) { err('qty', `${c.qtyTitle}必须大于 0`); return; }
    c.fits(ol, heldField(ol) - (own.get(orderLineId) ?? 0), qty);
    c.fill(l, ol, qty);
  });
  if (errors.length) throw validationError(errors.slice(0, 200));
}
