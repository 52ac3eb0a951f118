// Cartons and loading lists beyond the document engine's calls (documents/types/carton.ts, loading-list.ts):
// what a task can still pack (a new carton's lines), the sealed cartons a loading list can take, and the
// products for a stock document's lines — the binding only: src/server/domain/outbound/floor-lists.ts and
// src/server/domain/stock/product-pick.ts answer.
import type { OpHandler } from '../catalog/context.ts';
import { loadableCartons, packableOfTask } from '../domain/outbound/floor-lists.ts';
import { pickStockProducts } from '../domain/stock/product-pick.ts';
import type { OpsDeps } from './index.ts';

const ID = { type: 'integer', minimum: 1, maximum: 2_147_483_647 } as const;

export function floorOps(_deps: OpsDeps): Record<string, OpHandler> {
  return {
    'carton.packable': {
      input: { type: 'object', required: ['taskId'], properties: { taskId: { ...ID, title: '出库任务' } } },
      run: (ctx, input: { taskId: number }) => packableOfTask(ctx, input.taskId),
    },
    // products for a stock document's lines (opening stock): by exact code or barcode first, then partial; no prices
    'stock.pickProducts': {
      input: { type: 'object', properties: { keyword: { type: 'string', maxLength: 50, title: '关键字' }, id: { ...ID, title: '商品' }, limit: { type: 'integer', minimum: 1, maximum: 50, default: 20, title: '条数' } } },
      run: (ctx, input: { keyword?: string; id?: number; limit?: number }) => pickStockProducts(ctx, input),
    },
    'carton.loadable': {
      input: { type: 'object', properties: { warehouseId: { ...ID, title: '仓库' }, keyword: { type: 'string', maxLength: 50, title: '关键字' }, id: { ...ID, title: '纸箱' } } },
      run: (ctx, input: { warehouseId?: number; keyword?: string; id?: number }) => loadableCartons(ctx, input),
    },
  };
}
