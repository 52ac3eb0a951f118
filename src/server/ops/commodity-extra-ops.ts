// Commodity screens beyond the product list — competing, product versions and their diff, the display
// order, products with an image, presale items: the binding only (input schema → domain call). The work is
// in src/server/domain/commodity/ (competing.ts, product-versions.ts, product-sort.ts, product-images.ts,
// presale-items.ts).
import type { OpHandler } from '../catalog/context.ts';
import { acceptingFilters } from '../catalog/list-filters.ts';
import { competingList, type CompetingInput } from '../domain/commodity/competing.ts';
import { productImageList, type ImageListInput } from '../domain/commodity/product-images.ts';
import { MAX_SORT_NO, sortList, sortMove, sortRemove, sortSave, type SortListInput, type SortSaveInput } from '../domain/commodity/product-sort.ts';
import { versionDiff, versionList, type VersionInput } from '../domain/commodity/product-versions.ts';
import { listPresaleItems, PRESALE_ITEMS_INPUT, setPresaleSort, type PresaleItemsInput } from '../domain/commodity/presale-items.ts';
import type { OpsDeps } from './index.ts';

const PAGING = {
  page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1, title: '页码' },
  pageSize: { type: 'integer', minimum: 1, maximum: 500, default: 20, title: '每页条数' },
};
const KEYWORD = { type: ['string', 'null'], maxLength: 100, title: '关键字' };
const PRODUCT_ID = { type: ['integer', 'null'], minimum: 1, title: '商品' };
const PRODUCT_CODE = { type: ['string', 'null'], maxLength: 30, title: '商品编码' };
const CATEGORY_ID = { type: ['integer', 'null'], minimum: 1, title: '商品类别' };

const VERSION_INPUT = {
  type: 'object',
  properties: {
    ...PAGING,
    productId: PRODUCT_ID,
    productCode: PRODUCT_CODE,
    fromVersion: { type: ['integer', 'null'], minimum: 1, maximum: 1_000_000, title: '对比版本' },
    toVersion: { type: ['integer', 'null'], minimum: 1, maximum: 1_000_000, title: '目标版本' },
    onlyChanged: { type: ['boolean', 'null'], title: '只看有变化的字段' },
  },
};

export function commodityExtraOps(deps: OpsDeps): Record<string, OpHandler> {
  const product = deps.resources.get('product')!;
  return {
    // 预售商品 / 预售排序
    'presale.items': acceptingFilters({ input: PRESALE_ITEMS_INPUT, run: (ctx, input: PresaleItemsInput) => listPresaleItems(ctx, input) }),
    'presale.sort': {
      input: { type: 'object', required: ['id', 'sortOrder'], properties: { id: { type: 'integer', minimum: 1, title: '预售商品' }, sortOrder: { type: ['integer', 'string'], maxLength: 10, title: '排序' } } },
      run: (ctx, input: { id: number; sortOrder: number | string }) => setPresaleSort(ctx, input),
    },

    'competing.list': acceptingFilters({
      input: {
        type: 'object',
        properties: { ...PAGING, keyword: KEYWORD, competitorId: { type: ['integer', 'null'], minimum: 1, title: '竞争对手' }, productId: PRODUCT_ID },
      },
      run: (ctx, input: CompetingInput) => competingList(ctx, input),
    }),

    'productVersion.list': acceptingFilters({ input: VERSION_INPUT, run: (ctx, input: VersionInput) => versionList(ctx, deps.resources, product, input) }),
    'productVersion.diff': acceptingFilters({ input: VERSION_INPUT, run: (ctx, input: VersionInput) => versionDiff(ctx, deps.resources, product, input) }),

    'productSort.list': acceptingFilters({
      input: { type: 'object', properties: { ...PAGING, keyword: KEYWORD, scope: { enum: ['sorted', 'unsorted', null], title: '范围' }, categoryId: CATEGORY_ID } },
      run: (ctx, input: SortListInput) => sortList(ctx, input),
    }),
    'productSort.save': {
      input: {
        type: 'object',
        properties: {
          id: { type: ['integer', 'null'], minimum: 1, title: '商品' },
          productCode: PRODUCT_CODE,
          sortNo: { type: ['integer', 'null'], minimum: 1, maximum: MAX_SORT_NO, title: '排序号' },
        },
      },
      run: (ctx, input: SortSaveInput) => sortSave(ctx, input),
    },
    'productSort.move': {
      input: {
        type: 'object', required: ['id', 'direction'],
        properties: { id: { type: 'integer', minimum: 1, title: '商品' }, direction: { enum: ['up', 'down'], title: '方向' } },
      },
      run: (ctx, input: { id: number; direction: 'up' | 'down' }) => sortMove(ctx, input),
    },
    'productSort.remove': {
      input: {
        type: 'object',
        properties: { id: { type: 'integer', minimum: 1, title: '商品' }, ids: { type: 'array', maxItems: 1000, items: { type: 'integer', minimum: 1 }, title: '所选商品' } },
      },
      run: (ctx, input: { id?: number; ids?: number[] }) => sortRemove(ctx, input),
    },

    'product.imageList': acceptingFilters({
      input: { type: 'object', properties: { ...PAGING, keyword: KEYWORD, categoryId: CATEGORY_ID } },
      run: (ctx, input: ImageListInput) => productImageList(ctx, input),
    }),
  };
}
