// Sales calls beyond the document engine's (sales orders are served from
// src/server/documents/types/sales-order.ts): picking products for an order line and copying an order.
import type { OpHandler } from '../catalog/context.ts';
import { ID_INPUT } from '../domain/procurement/common.ts';
import { copySalesOrder, pickSaleProducts, SALE_PICK_INPUT, type SalePickInput } from '../domain/sales/sales-order.ts';
import type { OpsDeps } from './index.ts';

export function salesOps(_deps: OpsDeps): Record<string, OpHandler> {
  return {
    'salesOrder.pickProducts': { input: SALE_PICK_INPUT, run: (ctx, input: SalePickInput) => pickSaleProducts(ctx, input) },
    'salesOrder.copy': { input: ID_INPUT, run: (ctx, input: { id: number }) => copySalesOrder(ctx, input.id) },
  };
}
