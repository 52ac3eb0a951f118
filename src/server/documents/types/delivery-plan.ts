// 发货计划 (outbound plan) on the document engine (DESIGN §4.4, issue 13; oms 0207xx): which lines of a confirmed sales
// order leave when, from the order's warehouse, by which means of transport and carrier.
// draft → confirmed (待出库: the warehouse floor works from it) → done (已出库, set by the delivery that
// ships it); cancelled from draft or confirmed. What a plan holds of an order line is kept on the line
// (plannedQty): saving takes it by one conditional UPDATE per line (never more than ordered less
// shipped), editing a draft gives its old quantities back first, cancelling gives them back — all in the
// document's own transaction, with the order row claimed while it can be planned (serialises with its
// cancelling and closing, which refuse while plans are open).
import { sql } from 'kysely';
import { splitUnits } from '../../../core/stock-units.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import { bizError, validationError, type FieldError } from '../../http/errors.ts';
import { text, type Row } from '../../domain/procurement/common.ts';
import { lineQty } from '../../domain/procurement/purchase-order.ts';
import { cancelTaskOfPlan, createOutboundTask } from '../../domain/outbound/task.ts';
import { defineDocument, sentLines } from '../definition.ts';
import { checkSourceLineClaims } from '../../domain/sales/order-line-claims.ts';
import { orderPlanLines } from '../pack-inputs.ts';
import { TypedTenant } from '../../db/typed.ts';

export const DP_TITLE = '发货计划';
/** Sales order statuses an outbound plan can be made in. */
export const PLANNABLE_ORDER = ['confirmed', 'partlyShipped'];
const ORDER_STATUS: Record<string, string> = { draft: '草稿', confirmed: '已确认', partlyShipped: '部分发货', shipped: '已发货', closed: '已关闭', cancelled: '已作废' };

function orderStatusError(order: Row, action: string) {
  const status = String(order.status);
  return bizError('DOCUMENT_STATUS_4131', { doc: '销售订单', docNo: String(order.docNo), status: ORDER_STATUS[status] ?? status, action }, { id: Number(order.id), status });
}

function overPlan(order: Row, ol: Row, qty: number) {
  const ordered = Number(ol.qty);
  const planned = Number(ol.plannedQty);
  const shipped = Number(ol.shippedQty);
  const left = Math.max(0, ordered - shipped - planned);
  return bizError('SALES_PLAN_OVER_4147', { docNo: String(order.docNo), line: Number(ol.lineNo), code: String(ol.code), ordered, planned, shipped, qty, left },
    { orderLineId: Number(ol.id), lineNo: Number(ol.lineNo), ordered, planned, shipped, qty, left });
}

/** The order's lines with their products and planned/shipped quantities. */
export async function salesOrderLines(untypedTenant: Tenant, orderId: number): Promise<Row[]> {
  const tenant = TypedTenant.of(untypedTenant);
  const l = 'salesOrderLine';
  return await tenant.select(l)
    .innerJoin('product', (j) => j.onRef('product.id', '=', `${l}.productId`).onRef('product.companyId', '=', `${l}.companyId`))
    .select([`${l}.id`, `${l}.lineNo`, `${l}.productId`, `${l}.qty`, `${l}.plannedQty`, `${l}.shippedQty`, `${l}.reservedQty`,
      'product.code', 'product.name', 'product.specification', 'product.bigQty', 'product.midQty', 'product.unitBig', 'product.unitMid', 'product.unitSmall'])
    .where(`${l}.orderId`, '=', orderId).orderBy(`${l}.lineNo`).execute();
}

async function claimOrder(untypedTenant: Tenant, orderId: number, action: string): Promise<Row> {
  const tenant = TypedTenant.of(untypedTenant);
  const row = await tenant.update('salesOrder').set({ updatedAt: new Date().toISOString() }).where('id', '=', orderId).where('status', 'in', PLANNABLE_ORDER)
    .returning(['id', 'docNo', 'status']).executeTakeFirst();
  if (row) return row;
  const doc = await tenant.select('salesOrder').select(['id', 'docNo', 'status']).where('id', '=', orderId).executeTakeFirst();
  if (!doc) throw bizError('COMMON_NOT_FOUND_4004', { entity: '销售订单' });
  throw orderStatusError(doc, action);
}

async function takeLines(tenant: Tenant, order: Row, lines: Array<{ orderLineId: number; qty: number }>): Promise<void> {
  for (const l of [...lines].sort((a, b) => a.orderLineId - b.orderLineId)) {
    const ok = await tenant.update('salesOrderLine').set({ plannedQty: sql`${sql.ref('plannedQty')} + ${l.qty}` })
      .where('id', '=', l.orderLineId).where('orderId', '=', Number(order.id))
      .where(sql<boolean>`${sql.ref('plannedQty')} + ${sql.ref('shippedQty')} + ${l.qty} <= ${sql.ref('qty')}`)
      .returning('id').executeTakeFirst();
    if (!ok) {
      const ol = (await salesOrderLines(tenant, Number(order.id))).find((r) => Number(r.id) === l.orderLineId);
      if (!ol) throw bizError('COMMON_NOT_FOUND_4004', { entity: '销售订单明细' });
      throw overPlan(order, ol, l.qty);
    }
  }
}

async function releaseLines(untypedTenant: Tenant, planId: number): Promise<void> {
  const tenant = TypedTenant.of(untypedTenant);
  const per = new Map<number, number>();
  for (const r of await tenant.select('deliveryPlanLine').select(['orderLineId', 'qty']).where('planId', '=', planId).execute()) {
    per.set(Number(r.orderLineId), (per.get(Number(r.orderLineId)) ?? 0) + Number(r.qty));
  }
  for (const [orderLineId, q] of [...per.entries()].sort((a, b) => a[0] - b[0])) {
    const ok = await tenant.update('salesOrderLine').set({ plannedQty: sql`${sql.ref('plannedQty')} - ${q}` })
      .where('id', '=', orderLineId).where('plannedQty', '>=', q).returning('id').executeTakeFirst();
    if (!ok) throw new Error(`delivery plan ${planId}: order line ${orderLineId} has less planned than the plan`);
  }
}

/** What a new plan of the order can take, line by line (the screen loads it when the order is chosen). */
export async function plannableSalesLines(untypedTenant: Tenant, orderId: number) {
  const tenant = TypedTenant.of(untypedTenant);
  const order = await tenant.select('salesOrder')
    .innerJoin('client', (j) => j.onRef('client.id', '=', 'salesOrder.clientId').onRef('client.companyId', '=', 'salesOrder.companyId'))
    .innerJoin('warehouse', (j) => j.onRef('warehouse.id', '=', 'salesOrder.warehouseId').onRef('warehouse.companyId', '=', 'salesOrder.companyId'))
    .select(['salesOrder.id', 'salesOrder.docNo', 'salesOrder.status', 'salesOrder.warehouseId', 'salesOrder.deliveryDate', 'client.name as clientName', 'warehouse.name as warehouseName'])
    .where('salesOrder.id', '=', orderId).executeTakeFirst();
  if (!order) throw bizError('COMMON_NOT_FOUND_4004', { entity: '销售订单' });
  const status = String(order.status);
  return {
    orderId, orderDocNo: String(order.docNo), status, statusText: ORDER_STATUS[status] ?? status, plannable: PLANNABLE_ORDER.includes(status),
    clientName: String(order.clientName), warehouseId: Number(order.warehouseId), warehouseName: String(order.warehouseName), deliveryDate: text(order.deliveryDate),
    lines: (await salesOrderLines(untypedTenant, orderId)).map((r) => {
      const packs = { bigQty: Number(r.bigQty), midQty: Number(r.midQty), unitBig: text(r.unitBig), unitMid: text(r.unitMid), unitSmall: text(r.unitSmall) };
      const left = Math.max(0, Number(r.qty) - Number(r.shippedQty) - Number(r.plannedQty));
      return {
        orderLineId: Number(r.id), lineNo: Number(r.lineNo), productId: Number(r.productId), productCode: String(r.code), productName: String(r.name),
        specification: text(r.specification), ...packs, qty: Number(r.qty), plannedQty: Number(r.plannedQty), shippedQty: Number(r.shippedQty), leftQty: left, leftUnits: splitUnits(left, packs),
      };
    }),
  };
}

export const deliveryPlan = defineDocument({
  type: 'deliveryPlan',
  title: DP_TITLE,
  prefix: 'DP',
  table: 'deliveryPlan',
  managed: true,
  statuses: {
    draft: { label: '草稿', color: 'default' },
    confirmed: { label: '待出库', color: 'blue' },
    done: { label: '已出库', color: 'green' },
    cancelled: { label: '已作废', color: 'red' },
  },
  editable: ['draft'],
  removable: ['draft'],
  rights: { read: 'market.deliveryPlan', edit: 'market.deliveryPlan.edit' },
  header: {
    orderId: { type: 'integer', title: '销售订单', required: true, min: 1, max: 2_147_483_647 },
    clientId: { type: 'reference', resource: 'client', title: '客户', readonly: true },
    warehouseId: { type: 'reference', resource: 'warehouse', title: '发货仓库', readonly: true },
    shipDate: { type: 'date', title: '计划出库日期' },
    transportMode: {
      type: 'enum', title: '运输方式',
      values: [{ value: 'truck', label: '汽车' }, { value: 'container', label: '集装箱' }, { value: 'express', label: '快递' }, { value: 'pickup', label: '客户自提' }],
    },
    carrier: { type: 'string', title: '承运商', maxLength: 100 },
    vehicleNo: { type: 'string', title: '车牌/柜号', maxLength: 50 },
    remark: { type: 'string', title: '备注', maxLength: 500 },
    lineCount: { type: 'integer', title: '明细行数', readonly: true },
    totalQty: { type: 'integer', title: '计划数量', readonly: true },
  },
  lines: orderPlanLines('deliveryPlanLine'),
  hooks: {
    async validate({ ctx, header, lines, input, id, verified }) {
      const tenant = TypedTenant.of(ctx.tenant);
      const orderId = Number(header.orderId);
      const order = await tenant.select('salesOrder').select(['id', 'docNo', 'status', 'clientId', 'warehouseId', 'deliveryDate']).where('id', '=', orderId).executeTakeFirst();
      if (!order) throw validationError([{ field: 'orderId', message: '销售订单不存在' }]);
      if (!PLANNABLE_ORDER.includes(String(order.status))) throw orderStatusError(order, '制定发货计划');
      header.clientId = Number(order.clientId);
      header.warehouseId = Number(order.warehouseId);
      header.shipDate ??= text(order.deliveryDate);
      await checkSourceLineClaims({
        tenant: ctx.tenant, lines, raw: sentLines(input), doc: DP_TITLE, source: { title: '销售订单', docNo: String(order.docNo) },
        sourceLines: new Map((await salesOrderLines(ctx.tenant, orderId)).map((r) => [Number(r.id), r])),
        held: id === undefined ? undefined : { table: 'deliveryPlanLine', parent: 'planId', id },
        qtyTitle: '计划数量',
        fits: (ol, planned, qty) => { if (planned + Number(ol.shippedQty) + qty > Number(ol.qty)) throw overPlan(order, { ...ol, plannedQty: planned }, qty); },
        fill: (l, ol, qty) => { l.qty = qty; l.productId = Number(ol.productId); },
      }, (ol) => Number(ol.plannedQty));
      verified.add('productId');
      header.lineCount = lines.length;
      header.totalQty = lines.reduce((s, l) => s + Number(l.qty), 0);
    },
    async saving({ tenant, header, lines, docId, created }) {
      if (!created) await releaseLines(tenant, docId);
      const order = await claimOrder(tenant, Number(header.orderId), '制定发货计划');
      await takeLines(tenant, order, lines.map((l) => ({ orderLineId: Number(l.orderLineId), qty: Number(l.qty) })));
    },
    async present(ctx, docs, lines) {
      if (!docs.length) return;
      const tenant = TypedTenant.of(ctx.tenant);
      const orders = new Map((await tenant.select('salesOrder').select(['id', 'docNo'])
        .where('id', 'in', [...new Set(docs.map((d) => Number(d.orderId)))]).execute()).map((r) => [Number(r.id), r]));
      for (const d of docs) d.orderDocNo = text(orders.get(Number(d.orderId))?.docNo);
      if (!lines?.length) return;
      const ols = new Map((await tenant.select('salesOrderLine').select(['id', 'lineNo', 'qty', 'plannedQty', 'shippedQty'])
        .where('id', 'in', [...new Set(lines.map((l) => Number(l.orderLineId)))]).execute()).map((r) => [Number(r.id), r]));
      for (const l of lines) {
        const ol = ols.get(Number(l.orderLineId));
        Object.assign(l, {
          orderLineNo: Number(ol?.lineNo), orderedQty: Number(ol?.qty), shippedQty: Number(ol?.shippedQty ?? 0),
          units: splitUnits(Number(l.qty), { bigQty: Number(l.bigQty), midQty: Number(l.midQty), unitBig: l.unitBig as string | null, unitMid: l.unitMid as string | null, unitSmall: l.unitSmall as string | null }),
        });
      }
    },
  },
  transitions: {
    confirm: {
      label: '确认', from: ['draft'], to: 'confirmed', right: 'market.deliveryPlan.confirm', stamp: 'confirmed', overlay: true,
      confirm: '确定确认发货计划“{docNo}”？确认后仓库按计划出库。',
      // the warehouse's outbound task is made in the same transaction (one per plan: a plan ships from one warehouse)
      async run({ ctx, db, tenant, doc }) {
        await claimOrder(tenant, Number(doc.orderId), '确认发货计划');
        const task = await createOutboundTask(ctx, db, tenant, doc);
        return { taskId: task.id, taskDocNo: task.docNo };
      },
    },
    cancel: {
      label: '作废', from: ['draft', 'confirmed'], to: 'cancelled', right: 'market.deliveryPlan.confirm', stamp: 'cancelled', danger: true, overlay: true,
      confirm: '确定作废发货计划“{docNo}”？计划数量退回销售订单，未拣货的出库任务一并作废。',
      async run({ ctx, db, tenant, doc, from }) {
        if (from === 'confirmed') await cancelTaskOfPlan(ctx, db, tenant, doc);
        await releaseLines(tenant, Number(doc.id));
      },
    },
  },
  links: [{ field: 'orderId', type: 'salesOrder' }],
  names: { orderId: { table: 'salesOrder', column: 'docNo' } },
  audit: ['orderId', 'shipDate', 'transportMode', 'carrier', 'totalQty'],
  stampsAlso: ['done'],
  listFilters: ['orderId', 'clientId', 'warehouseId', 'transportMode'],
  dateField: 'shipDate',
  listReads: ['salesOrder'],
  export: {
    header: ['docNo', 'statusText', { key: 'orderDocNo', title: '销售订单', width: 18 }, 'clientId', 'warehouseId', 'shipDate', 'transportMode', 'carrier', 'vehicleNo'],
    lines: ['lineNo', { key: 'productCode', title: '商品编码', width: 16 }, { key: 'productName', title: '商品名称', width: 30 }, 'qty', 'remark'],
  },
  route: '/market/deliveryPlanOrderDetail/{id}',
});
