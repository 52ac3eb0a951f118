// 价格查询 (/price): oms 022501 one product's prices on every price list, last purchases and competitor
// prices; 022502 the product picker's search (src/server/domain/commodity/price-query.ts).
import type { OpHandler } from '../catalog/context.ts';
import { PRICE_QUERY_INPUT, PRODUCT_SEARCH_INPUT, priceQuery, searchProducts } from '../domain/commodity/price-query.ts';
import type { OpsDeps } from './index.ts';

export function priceQueryOps(_deps: OpsDeps): Record<string, OpHandler> {
  return {
    'price.query': { input: PRICE_QUERY_INPUT, run: (ctx, input: { id: number }) => priceQuery(ctx, input.id) },
    'price.products': { input: PRODUCT_SEARCH_INPUT, run: (ctx, input: { keyword?: string | null; id?: number | null; limit: number }) => searchProducts(ctx, input) },
  };
}
