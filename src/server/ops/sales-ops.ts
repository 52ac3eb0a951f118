// Sales calls beyond the document engine's (sales orders are served from
// src/server/documents/types/sales-order.ts): picking products for an order line, copying an order, and
// the order lines an outbound plan can still take; repeals of sales documents.
import type { OpHandler } from '../catalog/context.ts';
import { ID_INPUT } from '../domain/procurement/common.ts';
import { copySalesOrder, pickSaleProducts, SALE_PICK_INPUT, type SalePickInput } from '../domain/sales/sales-order.ts';
import { plannableSalesLines } from '../documents/types/delivery-plan.ts';
import { receivableReturnLines, returnableLines } from '../domain/sales/sales-return.ts';
import { printOutboundTask } from '../domain/outbound/task-print.ts';
import { exportOrderLines, listOrderLines, ORDER_LINES_INPUT, type OrderLinesInput } from '../domain/sales/order-lines.ts';
import { acceptingFilters } from '../catalog/list-filters.ts';
import { salesRepeals } from '../domain/sales/repeal.ts';
import { importSalesOrders, salesOrderTemplate } from '../domain/sales/order-import.ts';
import { changeOrderLine, ORDER_CHANGE_INPUT, type OrderChangeInput } from '../domain/sales/order-change.ts';
import type { OpsDeps } from './index.ts';
import { repealOps } from './repeal-ops.ts';

export function salesOps(deps: OpsDeps): Record<string, OpHandler> {
  return {
    // 销售撤销单 (oms 022901–022904)
    ...repealOps(deps, 'salesRepeal', salesRepeals),
    'salesOrder.change': { input: ORDER_CHANGE_INPUT, run: (ctx, input: OrderChangeInput) => changeOrderLine(ctx, input) },
    'salesOrder.import': { run: (ctx) => importSalesOrders(ctx) },
    'salesOrder.template': { run: async () => salesOrderTemplate() },
    'salesOrder.pickProducts': { input: SALE_PICK_INPUT, run: (ctx, input: SalePickInput) => pickSaleProducts(ctx, input) },
    'deliveryPlan.plannable': {
      input: { type: 'object', required: ['orderId'], properties: { orderId: { type: 'integer', minimum: 1, title: '销售订单' } } },
      run: (ctx, input: { orderId: number }) => plannableSalesLines(ctx.tenant, input.orderId),
    },
    // 销售退货单: what a new return of an order can take; what a receiving note of a return can still receive
    'salesReturn.returnable': {
      input: { type: 'object', required: ['orderId'], properties: { orderId: { type: 'integer', minimum: 1, title: '销售订单' } } },
      run: (ctx, input: { orderId: number }) => returnableLines(ctx.tenant, input.orderId),
    },
    'salesReturn.receivable': {
      input: { type: 'object', required: ['returnId'], properties: { returnId: { type: 'integer', minimum: 1, title: '销售退货单' } } },
      run: (ctx, input: { returnId: number }) => receivableReturnLines(ctx.tenant, input.returnId),
    },
    // 出库任务打印 (oms 021314)
    'outboundTask.print': {
      input: { type: 'object', properties: { id: { type: ['integer', 'null'], minimum: 1, title: '出库任务' }, docNo: { type: ['string', 'null'], maxLength: 50, title: '单号' } } },
      run: (ctx, input: { id?: number | null; docNo?: string | null }) => printOutboundTask(ctx, deps.documents, input),
    },
    'salesOrder.lines': acceptingFilters({ input: ORDER_LINES_INPUT, run: (ctx, input: OrderLinesInput) => listOrderLines(ctx, input) }),
    'salesOrder.exportLines': acceptingFilters({ input: ORDER_LINES_INPUT, run: (ctx, input: OrderLinesInput) => exportOrderLines(ctx, input) }),
    'salesOrder.copy': { input: ID_INPUT, run: (ctx, input: { id: number }) => copySalesOrder(ctx, input.id) },
  };
}
