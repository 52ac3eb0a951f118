// The sales orders a new document may be made from (the select of a proforma or a prepayment invoice): number,
// client and total, newest first, narrowed by a typed number or client name. Each caller names the statuses.
import type { CallContext } from '../../catalog/context.ts';
import { moneyText } from '../procurement/common.ts';
import { TypedTenant } from '../../db/typed.ts';

export async function salesOrderOptions(ctx: CallContext, input: { keyword?: string | null }, statuses: readonly string[]) {
  let q = TypedTenant.of(ctx.tenant).select('salesOrder')
    .innerJoin('client', (j) => j.onRef('client.id', '=', 'salesOrder.clientId').onRef('client.companyId', '=', 'salesOrder.companyId'))
    .select(['salesOrder.id', 'salesOrder.docNo', 'salesOrder.totalAmount', 'client.name as clientName']).where('salesOrder.status', 'in', [...statuses]);
  const k = input.keyword?.trim();
  if (k) {
    const pattern = `%${k.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const op = ctx.database.dialect === 'postgres' ? 'ilike' : 'like';
    q = q.where((eb) => eb.or([eb('salesOrder.docNo', op, pattern), eb('client.name', op, pattern)]));
  }
  const rows = await q.orderBy('salesOrder.id', 'desc').limit(500).execute();
  return rows.map((r) => ({ id: Number(r.id), label: `${String(r.docNo)} ${String(r.clientName)} ${moneyText(r.totalAmount)}`, code: String(r.docNo) }));
}
