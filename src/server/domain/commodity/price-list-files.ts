// Downloads of one price list (价格表): its prices, an import template pre-filled with them, its price
// changes (from the audit trail) and its prices against a purchase list (the margin).
import Decimal from 'decimal.js';
import type { CallContext } from '../../catalog/context.ts';
import { TypedTenant } from '../../db/typed.ts';
import { fileDate, xlsxDownload, type XlsxCell } from '../../files/xlsx.ts';
import { bizError } from '../../http/errors.ts';
import type { FileResponse } from '../../http/file-response.ts';
import { formatChanges } from '../../resources/fields.ts';
import { ACTIONS, formatAt, money, MONEY_FMT, pagedRows, safeName, tz } from '../master-data/sheet-export.ts';

export type PriceTitle = Awaited<ReturnType<typeof priceTitleOf>>;

/** A price list of the caller's company with its currency's name; COMMON_NOT_FOUND_4004 when none. */
export async function priceTitleOf(ctx: CallContext, id: number) {
  const row = await TypedTenant.of(ctx.tenant).select('priceTitle')
    .leftJoin('currency', (j) => j.onRef('currency.id', '=', 'priceTitle.currencyId').onRef('currency.companyId', '=', 'priceTitle.companyId'))
    .select(['priceTitle.id', 'priceTitle.code', 'priceTitle.name', 'priceTitle.kind', 'priceTitle.enabled', 'currency.currencyName'])
    .where('priceTitle.id', '=', id).executeTakeFirst();
  if (!row) throw bizError('COMMON_NOT_FOUND_4004', { entity: '价格表' });
  return row;
}

/** The list's prices by product code. */
export function priceListExport(ctx: CallContext, title: PriceTitle): FileResponse {
  const tenant = TypedTenant.of(ctx.tenant);
  const q = () => tenant.select('productPrice')
    .innerJoin('product', (j) => j.onRef('product.id', '=', 'productPrice.productId').onRef('product.companyId', '=', 'productPrice.companyId'))
    .select(['product.code', 'product.name', 'product.specification', 'product.unitSmall', 'productPrice.price', 'productPrice.updatedAt'])
    .where('productPrice.priceTitleId', '=', title.id).orderBy('product.code').orderBy('productPrice.id');
  return xlsxDownload(`${safeName(title.name)}价格_${fileDate(tz(ctx))}.xlsx`, async (book) => {
    const sheet = book.addSheet(safeName(title.name), [
      { header: '商品编码', width: 16 }, { header: '商品名称', width: 30 }, { header: '规格', width: 20 }, { header: '单位', width: 8 },
      { header: '价格', width: 14, numFmt: MONEY_FMT }, { header: '币种', width: 10 }, { header: '更新时间', width: 20 },
    ]);
    await pagedRows((limit, offset) => q().limit(limit).offset(offset).execute(), (rows) => {
      for (const r of rows) sheet.addRow([r.code, r.name, r.specification, r.unitSmall, money(r.price), title.currencyName, formatAt(r.updatedAt, tz(ctx))]);
    }, book.drain);
  });
}

/** An import template: every product of the company with its price in the list (blank when it has none). */
export function priceListTemplate(ctx: CallContext, title: PriceTitle): FileResponse {
  const tenant = TypedTenant.of(ctx.tenant);
  const q = () => tenant.select('product')
    .leftJoin('productPrice', (j) => j.onRef('productPrice.productId', '=', 'product.id').onRef('productPrice.companyId', '=', 'product.companyId')
      .on('productPrice.priceTitleId', '=', title.id))
    .select(['product.code', 'product.name', 'product.specification', 'productPrice.price'])
    .orderBy('product.code').orderBy('product.id');
  return xlsxDownload(`${safeName(title.name)}价格导入模板.xlsx`, async (book) => {
    const sheet = book.addSheet('价格', [
      { header: '商品编码', width: 16, highlight: true, numFmt: '@' }, { header: '商品名称', width: 30, numFmt: '@' }, { header: '规格', width: 20 },
      { header: '价格', width: 14, numFmt: MONEY_FMT, highlight: true },
    ]);
    await pagedRows((limit, offset) => q().limit(limit).offset(offset).execute(), (rows) => {
      for (const r of rows) sheet.addRow([r.code, r.name, r.specification, money(r.price)]);
    }, book.drain);
    const notes = book.addSheet('填写说明', [{ header: '项目', width: 14 }, { header: '说明', width: 70 }]);
    notes.addRow(['价格表', `${String(title.name)}（${String(title.code)}），币种：${String(title.currencyName ?? '未设置')}`]);
    notes.addRow(['商品编码', '必填，按编码匹配本公司商品']);
    notes.addRow(['价格', '必填，金额，最多 2 位小数；留空的行不会修改价格']);
    notes.addRow(['商品名称、规格', '仅供参考，导入时忽略']);
  });
}

/** The list's price changes, newest first, with the change in percent. */
export function priceChangeExport(ctx: CallContext, title: PriceTitle): FileResponse {
  const tenant = TypedTenant.of(ctx.tenant);
  // Price changes are audited as entity 'productPrice', recordId '<priceTitleId>:<productId>',
  // recordLabel = product code, changes [{field:'price', from, to}] (amounts as decimal strings).
  const q = () => tenant.select('auditLog').selectAll().where('entity', '=', 'productPrice')
    .where('recordId', 'like', `${Number(title.id)}:%`).orderBy('at', 'desc').orderBy('id', 'desc');
  return xlsxDownload(`${safeName(title.name)}调价记录_${fileDate(tz(ctx))}.xlsx`, async (book) => {
    const sheet = book.addSheet('调价记录', [
      { header: '时间', width: 20 }, { header: '操作人', width: 12 }, { header: '操作', width: 8 }, { header: '商品编码', width: 16 },
      { header: '原价', width: 14, numFmt: MONEY_FMT }, { header: '新价', width: 14, numFmt: MONEY_FMT }, { header: '调整幅度', width: 12 },
    ]);
    await pagedRows((limit, offset) => q().limit(limit).offset(offset).execute(), (rows) => {
      for (const r of rows) {
        let changes: Array<{ field?: string; from?: unknown; to?: unknown }> = [];
        try { changes = JSON.parse(String(r.changes ?? '[]')); } catch { changes = []; }
        const c = changes.find((x) => x.field === 'price');
        const num = (v: unknown) => { try { return v === null || v === undefined || v === '' ? undefined : new Decimal(String(v)); } catch { return undefined; } };
        const from = num(c?.from);
        const to = num(c?.to);
        const pct = from && to && !from.isZero() ? `${to.minus(from).div(from).times(100).toFixed(2)}%` : null;
        sheet.addRow([formatAt(r.at, tz(ctx)), r.userName, ACTIONS[String(r.action)] ?? String(r.action), r.recordLabel,
          from ? from.toNumber() : null, to ? to.toNumber() : null, pct]);
        if (!c && changes.length) sheet.addRow([null, null, null, null, null, null, formatChanges(changes)]);
      }
    }, book.drain);
  });
}

/** The purchase price list prices are compared with: the caller's default, else the company's first. */
async function comparisonList(ctx: CallContext, tenant: TypedTenant, exclude: number) {
  const account = await tenant.select('account').select('purchasePriceId').where('id', '=', ctx.caller!.accountId).executeTakeFirst();
  const pick = async (id?: number) => {
    let q = tenant.select('priceTitle').select(['id', 'name']).where('kind', '=', 'purchase').where('id', '!=', exclude);
    if (id !== undefined) q = q.where('id', '=', id);
    else q = q.where('enabled', '=', 1).orderBy('code');
    return q.limit(1).executeTakeFirst();
  };
  return (account?.purchasePriceId ? await pick(account.purchasePriceId) : undefined) ?? (await pick());
}

interface ComparedPrice { code: string; name: string; specification: string | null; price: number; cost: number | null }

/** The list's prices against the comparison purchase list (or the product's reference price): difference and margin. */
export async function priceCompareExport(ctx: CallContext, title: PriceTitle): Promise<FileResponse> {
  const tenant = TypedTenant.of(ctx.tenant);
  const other = await comparisonList(ctx, tenant, Number(title.id));
  const priced = () => tenant.select('productPrice')
    .innerJoin('product', (j) => j.onRef('product.id', '=', 'productPrice.productId').onRef('product.companyId', '=', 'productPrice.companyId'))
    .select(['product.code', 'product.name', 'product.specification', 'productPrice.price'])
    .where('productPrice.priceTitleId', '=', title.id).orderBy('product.code').orderBy('productPrice.id');
  const read = (limit: number, offset: number): Promise<ComparedPrice[]> => (other
    ? priced().leftJoin('productPrice as cmp', (j) => j.onRef('cmp.productId', '=', 'product.id').onRef('cmp.companyId', '=', 'product.companyId').on('cmp.priceTitleId', '=', other.id))
      .select('cmp.price as cost').limit(limit).offset(offset).execute()
    : priced().select('product.price as cost').limit(limit).offset(offset).execute());
  const costTitle = other ? `${String(other.name)}` : '参考价';
  return xlsxDownload(`${safeName(title.name)}价格对比_${fileDate(tz(ctx))}.xlsx`, async (book) => {
    const sheet = book.addSheet('价格对比', [
      { header: '商品编码', width: 16 }, { header: '商品名称', width: 30 }, { header: '规格', width: 20 },
      { header: `${String(title.name)}`, width: 14, numFmt: MONEY_FMT }, { header: `采购价（${costTitle}）`, width: 16, numFmt: MONEY_FMT },
      { header: '差额', width: 14, numFmt: MONEY_FMT }, { header: '毛利率', width: 10 },
    ]);
    await pagedRows(read, (rows) => {
      for (const r of rows) {
        const price = r.price === null || r.price === undefined ? undefined : new Decimal(String(r.price));
        const cost = r.cost === null || r.cost === undefined ? undefined : new Decimal(String(r.cost));
        const diff = price && cost ? price.minus(cost) : undefined;
        const margin = diff && price && !price.isZero() ? `${diff.div(price).times(100).toFixed(2)}%` : null;
        const cells: XlsxCell[] = [r.code, r.name, r.specification, money(r.price), money(r.cost), diff ? diff.div(100).toNumber() : null, margin];
        sheet.addRow(cells);
      }
    }, book.drain);
  });
}
