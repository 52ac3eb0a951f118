// 欠货关闭 (cdm 019801–019802): the open back orders — sales orders left partly shipped by short picks
// and partial deliveries, each with what is still owed — and closing them in bulk with a reason. Closing
// is the sales order's own 关闭 transition (documents/types/sales-order.ts): what the order still commits
// is released through the ledger, refused while a delivery plan of the order is open. All the chosen
// orders close in one transaction, or none does; the reason goes to each order's audit trail.
import { sql } from 'kysely';
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import { bizError, validationError } from '../../http/errors.ts';
import { TypedTenant } from '../../db/typed.ts';

export const BACK_ORDER_LIST_INPUT: InputSchema = {
  type: 'object',
  properties: {
    page: { type: 'integer', minimum: 1, default: 1, title: '页码' },
    pageSize: { type: 'integer', minimum: 1, maximum: 500, default: 20, title: '每页条数' },
    keyword: { type: ['string', 'null'], maxLength: 50, title: '关键字' },
    sort: { type: ['object', 'null'] },
  },
};

export async function listBackOrders(ctx: CallContext, input: { page: number; pageSize: number; keyword?: string | null }) {
  const tenant = TypedTenant.of(ctx.tenant);
  let q = tenant.select('salesOrder')
    .leftJoin('client', 'client.id', 'salesOrder.clientId')
    .leftJoin('warehouse', 'warehouse.id', 'salesOrder.warehouseId')
    .where('salesOrder.status', '=', 'partlyShipped');
  const kw = input.keyword?.trim();
  if (kw) {
    const like = `%${kw.replace(/[%_\\]/g, '')}%`;
    q = q.where((eb) => eb.or([eb('salesOrder.docNo', 'like', like), eb('client.code', 'like', like), eb('client.name', 'like', like)]));
  }
  const counted = await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
  const orders = await q.select([
    'salesOrder.id', 'salesOrder.docNo', 'salesOrder.orderDate', 'salesOrder.deliveryDate', 'salesOrder.totalQty', 'salesOrder.shippedQty',
    'salesOrder.reservedQty', 'salesOrder.version', 'salesOrder.backOrderPolicy', 'client.code as clientCode', 'client.name as clientName', 'warehouse.name as warehouseName',
  ]).orderBy('salesOrder.orderDate', 'asc').orderBy('salesOrder.id', 'asc').limit(input.pageSize).offset((input.page - 1) * input.pageSize).execute();
  const ids = orders.map((o) => Number(o.id));
  const lines = ids.length ? await tenant.select('salesOrderLine').leftJoin('product', 'product.id', 'salesOrderLine.productId')
    .select(['salesOrderLine.orderId', 'salesOrderLine.lineNo', 'salesOrderLine.qty', 'salesOrderLine.shippedQty', 'salesOrderLine.reservedQty', 'product.code', 'product.name'])
    .where('salesOrderLine.orderId', 'in', ids).where(sql`sales_order_line.qty`, '>', sql`sales_order_line.shipped_qty`).orderBy('salesOrderLine.lineNo').execute() : [];
  const plans = ids.length ? await tenant.select('deliveryPlan').select(['orderId', 'docNo']).where('orderId', 'in', ids).where('status', 'in', ['draft', 'confirmed']).execute() : [];
  return {
    list: orders.map((o) => {
      const mine = lines.filter((l) => Number(l.orderId) === Number(o.id));
      const openPlans = plans.filter((p) => Number(p.orderId) === Number(o.id)).map((p) => String(p.docNo));
      return {
        id: Number(o.id), docNo: String(o.docNo), orderDate: o.orderDate ?? null, deliveryDate: o.deliveryDate ?? null, version: Number(o.version),
        clientCode: o.clientCode ?? null, clientName: o.clientName ?? null, warehouseName: o.warehouseName ?? null,
        totalQty: Number(o.totalQty), shippedQty: Number(o.shippedQty), openQty: Number(o.totalQty) - Number(o.shippedQty), reservedQty: Number(o.reservedQty),
        openLines: mine.length,
        owed: mine.slice(0, 5).map((l) => `${String(l.code)} ${String(l.name)} 欠 ${Number(l.qty) - Number(l.shippedQty)}`).join('；') + (mine.length > 5 ? `；等 ${mine.length} 行` : ''),
        openPlans: openPlans.join('、'),
        closable: openPlans.length === 0,
      };
    }),
    total: Number(counted?.n ?? 0), page: input.page, pageSize: input.pageSize,
  };
}

export const CLOSE_INPUT: InputSchema = {
  type: 'object', required: ['ids', 'reason'],
  properties: {
    ids: { type: 'array', items: { type: 'integer', minimum: 1 }, minItems: 1, maxItems: 200, uniqueItems: true, title: '欠货订单' },
    reason: { type: 'string', maxLength: 200, title: '关闭原因' },
  },
};

export async function closeBackOrders(ctx: CallContext, input: { ids: number[]; reason: string }) {
  const reason = input.reason.trim();
  if (reason.length < 2) throw validationError([{ field: 'reason', message: '请填写关闭原因（至少 2 个字）' }]);
  const orders = ctx.documents.get('salesOrder');
  if (!orders) throw new Error('salesOrder is not served');
  const ids = [...input.ids].sort((a, b) => a - b);
  return ctx.transaction(async (db, tenant) => {
    let released = 0;
    const closed: string[] = [];
    for (const id of ids) {
      const doc = await TypedTenant.of(tenant).select('salesOrder').select(['id', 'docNo', 'status', 'reservedQty']).where('id', '=', id).executeTakeFirst();
      if (!doc) throw bizError('COMMON_NOT_FOUND_4004', { entity: `销售订单（编号 ${id}）` });
      if (doc.status !== 'partlyShipped') {
        throw bizError('SYSTEM_BACK_ORDER_NOT_OPEN_4501', { docNo: String(doc.docNo), status: orders.statusLabel(String(doc.status)) }, { id });
      }
      await orders.apply(ctx, db, tenant, 'close', { id });
      released += Number(doc.reservedQty);
      closed.push(String(doc.docNo));
      await ctx.audit({ action: 'close', entity: 'salesOrder', recordId: id, recordLabel: String(doc.docNo), changes: [
        { field: 'backOrder', title: '欠货处理', from: null, to: '关闭欠货' },
        { field: 'closeReason', title: '关闭原因', from: null, to: reason },
        { field: 'releasedQty', title: '释放预留数量', from: Number(doc.reservedQty), to: 0 },
      ] }, db);
    }
    return { closed: closed.length, docNos: closed, releasedQty: released };
  });
}
