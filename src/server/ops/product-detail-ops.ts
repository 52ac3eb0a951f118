// The product page's tabs that are not generic lists: prices on every price list, documents the product
// appears in (src/server/domain/commodity/product-documents.ts).
import type { OpHandler } from '../catalog/context.ts';
import { acceptingFilters } from '../catalog/list-filters.ts';
import { PRODUCT_DOCS_INPUT, productDocuments, productPrices } from '../domain/commodity/product-documents.ts';
import type { OpsDeps } from './index.ts';

export function productDetailOps(_deps: OpsDeps): Record<string, OpHandler> {
  return {
    'product.documents': acceptingFilters({ input: PRODUCT_DOCS_INPUT, run: (ctx, input: { productId: number; page: number; pageSize: number }) => productDocuments(ctx, input) }),
    'product.prices': acceptingFilters({
      input: { type: 'object', required: ['productId'], properties: { productId: { type: 'integer', minimum: 1, title: '商品' } } },
      run: (ctx, input: { productId: number }) => productPrices(ctx, input.productId),
    }),
  };
}
