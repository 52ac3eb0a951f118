// Products for a stock document's lines (opening stock, bound in ops/floor-ops.ts): what a clerk types —
// an exact code or barcode first, then part of the code or name — with units and pack sizes; no prices.
import type { CallContext } from '../../catalog/context.ts';
import { TypedTenant } from '../../db/typed.ts';
import { text } from '../procurement/common.ts';

export async function pickStockProducts(ctx: CallContext, input: { keyword?: string; id?: number; limit?: number }) {
  const kw = input.keyword?.trim() ?? '';
  let q = TypedTenant.of(ctx.tenant).select('product').select(['id', 'code', 'barcode', 'name', 'specification', 'unitBig', 'unitMid', 'unitSmall', 'bigQty', 'midQty']);
  if (input.id) q = q.where('id', '=', input.id);
  else if (kw) q = q.where((eb) => eb.or([eb('code', '=', kw), eb('barcode', '=', kw), eb('code', 'like', `%${kw.replace(/[%_\\]/g, '')}%`), eb('name', 'like', `%${kw.replace(/[%_\\]/g, '')}%`)]));
  const rows = await q.orderBy('code').limit(input.limit ?? 20).execute();
  rows.sort((a, b) => Number(b.code === kw || b.barcode === kw) - Number(a.code === kw || a.barcode === kw));
  const list = rows.map((r) => ({
    id: Number(r.id), value: Number(r.id), label: `${String(r.code)} ${String(r.name)}`, code: String(r.code), barcode: text(r.barcode), name: String(r.name), specification: text(r.specification),
    unitBig: text(r.unitBig), unitMid: text(r.unitMid), unitSmall: text(r.unitSmall), bigQty: Number(r.bigQty ?? 1), midQty: Number(r.midQty ?? 1),
  }));
  return { list, total: list.length };
}
