// The price matrix calls (价格管理): products × price lists, one price, bulk adjustment with its preview,
// price import for one list. The logic lives in src/server/domain/commodity/price-matrix.ts.
import type { OpHandler } from '../catalog/context.ts';
import { acceptingFilters } from '../catalog/list-filters.ts';
import {
  ADJUST_INPUT, adjustPreview, adjustPrices, importPrices, MATRIX_INPUT, matrixList, PREVIEW_INPUT, SET_PRICE_INPUT, setPrice,
  type AdjustInput, type MatrixInput, type SetPriceInput,
} from '../domain/commodity/price-matrix.ts';
import type { OpsDeps } from './index.ts';

export function priceMatrixOps(_deps: OpsDeps): Record<string, OpHandler> {
  return {
    'priceMatrix.list': acceptingFilters({ input: MATRIX_INPUT, run: (ctx, input: MatrixInput) => matrixList(ctx, input) }),
    'priceMatrix.setPrice': { input: SET_PRICE_INPUT, run: (ctx, input: SetPriceInput) => setPrice(ctx, input) },
    // The form sends the list's conditions as `filters` (like the list itself) or the chosen productIds.
    'priceMatrix.adjust': acceptingFilters({ input: ADJUST_INPUT, run: (ctx, input: AdjustInput) => adjustPrices(ctx, input) }),
    'priceMatrix.adjustPreview': acceptingFilters({ input: PREVIEW_INPUT, run: (ctx, input: Partial<AdjustInput>) => adjustPreview(ctx, input) }),
    'priceMatrix.import': { run: (ctx) => importPrices(ctx) },
  };
}
