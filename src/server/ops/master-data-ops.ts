// Master-data calls (product lookups and files, category tree, exchange rate of a day, dictionaries,
// price-list and presale files): the binding only — input schema, the headers that name a price list or
// presale plan, and the call into the domain modules (src/server/domain/master-data/, domain/commodity/).
import type { CallContext, OpHandler } from '../catalog/context.ts';
import { bizError } from '../http/errors.ts';
import { priceChangeExport, priceCompareExport, priceListExport, priceListTemplate, priceTitleOf } from '../domain/commodity/price-list-files.ts';
import { presaleItemsExport, presaleItemsTemplate, presalePlanOf, presaleWhitelistExport } from '../domain/commodity/presale-files.ts';
import { allDictionaries, categoryTree } from '../domain/master-data/dictionaries.ts';
import { exchangeRateOn } from '../domain/master-data/exchange-rates.ts';
import { productImagesZip, productLabelExport, productLogExport, type ProductLogInput } from '../domain/master-data/product-files.ts';
import { lookupProduct, nextProductCode, unitOptions } from '../domain/master-data/products.ts';
import type { OpsDeps } from './index.ts';

function header(ctx: CallContext, name: string): string | undefined {
  const v = ctx.headers[name.toLowerCase()];
  const s = Array.isArray(v) ? v[0] : v;
  return typeof s === 'string' && s.trim() ? s.trim() : undefined;
}

function positiveId(raw: unknown): number | undefined {
  const s = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
  if (!/^\d{1,15}$/.test(s)) return undefined;
  const n = Number(s);
  return n > 0 ? n : undefined;
}

/** The price list named by the `priceTitleId` header. */
function priceTitleId(ctx: CallContext): number {
  const id = positiveId(header(ctx, 'priceTitleId'));
  if (!id) throw bizError('COMMON_HEADER_4016', { name: 'priceTitleId' });
  return id;
}

/** The presale plan named by `pptId` (query or header). */
function presalePlanId(ctx: CallContext): number {
  const id = positiveId(ctx.query.pptId ?? header(ctx, 'pptId'));
  if (!id) throw bizError('COMMON_HEADER_4016', { name: 'pptId' });
  return id;
}

export function masterDataOps(deps: OpsDeps): Record<string, OpHandler> {
  const reg = deps.resources;
  const product = reg.get('product')!;
  const idList = { type: 'array', minItems: 1, maxItems: 1000, items: { type: 'integer', minimum: 1 }, title: '所选商品' };

  return {
    'product.lookup': {
      input: { type: 'object', required: ['code'], properties: { code: { type: 'string', minLength: 1, maxLength: 50, title: '商品编码或条码' } } },
      run: (ctx, input: { code: string }) => lookupProduct(ctx, reg, product, input.code),
    },
    'product.unitOptions': { run: (ctx) => unitOptions(ctx) },
    'product.nextCode': { run: async (ctx) => ({ code: await nextProductCode(ctx) }) },
    'product.imagesZip': {
      input: { type: 'object', required: ['ids'], properties: { ids: idList } },
      run: (ctx, input: { ids: number[] }) => productImagesZip(ctx, [...new Set(input.ids)]),
    },
    'product.logExport': {
      input: {
        type: 'object',
        properties: {
          productId: { type: 'integer', minimum: 1, title: '商品' },
          from: { type: 'string', maxLength: 10, title: '开始日期' },
          to: { type: 'string', maxLength: 10, title: '结束日期' },
        },
      },
      run: (ctx, input: ProductLogInput) => productLogExport(ctx, product, input),
    },
    'product.labelExport': {
      input: { type: 'object', required: ['ids'], properties: { ids: idList } },
      run: (ctx, input: { ids: number[] }) => productLabelExport(ctx, product, [...new Set(input.ids)]),
    },

    'category.tree': { run: (ctx) => categoryTree(ctx) },
    'exchangeRate.on': {
      input: {
        type: 'object', required: ['currencyId', 'date'],
        properties: { currencyId: { type: 'integer', minimum: 1, title: '币种' }, date: { type: 'string', maxLength: 10, title: '日期' } },
      },
      run: (ctx, input: { currencyId: number; date: string }) => exchangeRateOn(ctx, input.currencyId, input.date),
    },
    'dictionary.all': { run: (ctx) => allDictionaries(ctx, reg) },

    'price.export': { run: async (ctx) => priceListExport(ctx, await priceTitleOf(ctx, priceTitleId(ctx))) },
    'price.template': { run: async (ctx) => priceListTemplate(ctx, await priceTitleOf(ctx, priceTitleId(ctx))) },
    'price.changeExport': { run: async (ctx) => priceChangeExport(ctx, await priceTitleOf(ctx, priceTitleId(ctx))) },
    'price.compareExport': { run: async (ctx) => priceCompareExport(ctx, await priceTitleOf(ctx, priceTitleId(ctx))) },

    'presale.itemsExport': { run: async (ctx) => presaleItemsExport(ctx, await presalePlanOf(ctx, presalePlanId(ctx))) },
    'presale.itemsTemplate': { run: async (ctx) => presaleItemsTemplate(ctx, await presalePlanOf(ctx, presalePlanId(ctx))) },
    'presale.whitelistExport': { run: async (ctx) => presaleWhitelistExport(ctx, await presalePlanOf(ctx, presalePlanId(ctx))) },
  };
}
