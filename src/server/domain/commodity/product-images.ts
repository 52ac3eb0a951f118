// 商品图片 (imageDownload): the products that have an image, for choosing which to download.
import type { CallContext } from '../../catalog/context.ts';
import { TypedTenant } from '../../db/typed.ts';
import { countOf, page, productKeyword, productRow, withCategory, type Paging } from './product-query.ts';

export interface ImageListInput extends Paging {
  keyword?: string | null;
  categoryId?: number | null;
}

export async function productImageList(ctx: CallContext, input: ImageListInput) {
  const tenant = TypedTenant.of(ctx.tenant);
  const keyword = productKeyword(ctx.database.dialect, input.keyword);
  const base = () => {
    let q = tenant.select('product').where('product.imageId', 'is not', null);
    if (input.categoryId) q = q.where('product.categoryId', '=', input.categoryId);
    if (keyword) q = q.where(keyword);
    return q;
  };
  const { list, total } = await page(input, (limit, offset) => withCategory(base()).orderBy('product.code').orderBy('product.id').limit(limit).offset(offset).execute(),
    () => countOf(base()));
  return { total, page: input.page, pageSize: input.pageSize, list: list.map(productRow) };
}
