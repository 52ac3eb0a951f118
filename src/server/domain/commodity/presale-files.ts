// Downloads of one presale plan (预售计划): its items, an import template pre-filled with them, and its
// client whitelist.
import type { CallContext } from '../../catalog/context.ts';
import { TypedTenant } from '../../db/typed.ts';
import { fileDate, xlsxDownload } from '../../files/xlsx.ts';
import { bizError } from '../../http/errors.ts';
import type { FileResponse } from '../../http/file-response.ts';
import { money, MONEY_FMT, moneyText, pagedRows, safeName, tz } from '../master-data/sheet-export.ts';

export type PresalePlan = Awaited<ReturnType<typeof presalePlanOf>>;

/** A presale plan of the caller's company; COMMON_NOT_FOUND_4004 when none. */
export async function presalePlanOf(ctx: CallContext, id: number) {
  const row = await TypedTenant.of(ctx.tenant).select('presalePlan').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw bizError('COMMON_NOT_FOUND_4004', { entity: '预售计划' });
  return row;
}

const items = (ctx: CallContext, plan: PresalePlan) => TypedTenant.of(ctx.tenant).select('presaleItem')
  .innerJoin('product', (j) => j.onRef('product.id', '=', 'presaleItem.productId').onRef('product.companyId', '=', 'presaleItem.companyId'))
  .where('presaleItem.planId', '=', plan.id);

/** The plan's items by product code. */
export function presaleItemsExport(ctx: CallContext, plan: PresalePlan): FileResponse {
  const q = () => items(ctx, plan)
    .select(['product.code', 'product.name', 'product.specification', 'product.unitSmall', 'presaleItem.qty', 'presaleItem.price'])
    .orderBy('product.code').orderBy('presaleItem.id');
  return xlsxDownload(`${safeName(plan.name)}预售商品_${fileDate(tz(ctx))}.xlsx`, async (book) => {
    const sheet = book.addSheet('预售商品', [
      { header: '商品编码', width: 16 }, { header: '商品名称', width: 30 }, { header: '规格', width: 20 }, { header: '单位', width: 8 },
      { header: '数量', width: 10 }, { header: '预售价', width: 14, numFmt: MONEY_FMT },
    ]);
    await pagedRows((limit, offset) => q().limit(limit).offset(offset).execute(), (rows) => {
      for (const r of rows) sheet.addRow([r.code, r.name, r.specification, r.unitSmall, Number(r.qty), money(r.price)]);
    }, book.drain);
  });
}

/** An import template holding the plan's current items. */
export async function presaleItemsTemplate(ctx: CallContext, plan: PresalePlan): Promise<FileResponse> {
  const rows = await items(ctx, plan).select(['product.code', 'product.name', 'presaleItem.qty', 'presaleItem.price'])
    .orderBy('product.code').limit(100_000).execute();
  return xlsxDownload(`${safeName(plan.name)}预售商品导入模板.xlsx`, async (book) => {
    const sheet = book.addSheet('预售商品', [
      { header: '商品编码', width: 16, highlight: true, numFmt: '@' }, { header: '商品名称', width: 30, numFmt: '@' },
      { header: '数量', width: 10, highlight: true }, { header: '预售价', width: 14, numFmt: MONEY_FMT, highlight: true },
    ]);
    for (const r of rows) sheet.addRow([r.code, r.name, Number(r.qty), money(r.price)]);
    const notes = book.addSheet('填写说明', [{ header: '项目', width: 14 }, { header: '说明', width: 70 }]);
    notes.addRow(['预售计划', `${String(plan.name)}（${String(plan.code)}）`]);
    notes.addRow(['商品编码', '必填，按编码匹配本公司商品']);
    notes.addRow(['数量', '必填，正整数（最小单位）']);
    notes.addRow(['预售价', `必填，金额，最多 2 位小数（如 ${moneyText(1999)}）`]);
    notes.addRow(['商品名称', '仅供参考，导入时忽略']);
  });
}

/** The clients on the plan's whitelist by client code. */
export function presaleWhitelistExport(ctx: CallContext, plan: PresalePlan): FileResponse {
  const q = () => TypedTenant.of(ctx.tenant).select('presaleWhitelist')
    .innerJoin('client', (j) => j.onRef('client.id', '=', 'presaleWhitelist.clientId').onRef('client.companyId', '=', 'presaleWhitelist.companyId'))
    .select(['client.code', 'client.name', 'client.contact', 'client.phone'])
    .where('presaleWhitelist.planId', '=', plan.id).orderBy('client.code').orderBy('presaleWhitelist.id');
  return xlsxDownload(`${safeName(plan.name)}预售白名单_${fileDate(tz(ctx))}.xlsx`, async (book) => {
    const sheet = book.addSheet('预售白名单', [{ header: '客户编码', width: 16 }, { header: '客户名称', width: 30 }, { header: '联系人', width: 12 }, { header: '电话', width: 16 }]);
    await pagedRows((limit, offset) => q().limit(limit).offset(offset).execute(), (rows) => {
      for (const r of rows) sheet.addRow([r.code, r.name, r.contact, r.phone]);
    }, book.drain);
  });
}
