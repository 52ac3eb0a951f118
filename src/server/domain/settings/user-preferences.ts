// What each user keeps for themselves: the column configuration of a list (tableConfig) and the print
// settings (printInfo: warehouse, printer, paper, copies). One row per account (and list), upserted.
import type { CallContext } from '../../catalog/context.ts';
import { TypedTenant, typed } from '../../db/typed.ts';
import { bizError } from '../../http/errors.ts';

export async function tableConfigOf(ctx: CallContext, listName: string) {
  const accountId = ctx.caller!.accountId;
  const row = await TypedTenant.of(ctx.tenant).select('tableConfig').select(['configContent', 'updatedAt'])
    .where('accountId', '=', accountId).where('listName', '=', listName).executeTakeFirst();
  return { accountId, listName, configContent: row ? String(row.configContent) : null, updatedAt: row?.updatedAt ?? null };
}

export async function saveTableConfig(ctx: CallContext, listName: string, configContent: string) {
  try { JSON.parse(configContent); } catch { throw bizError('COMMON_VALIDATION_4000', { detail: '列配置必须是 JSON 文本' }); }
  const accountId = ctx.caller!.accountId;
  const now = new Date().toISOString();
  await ctx.transaction(async (db, t) => {
    const res = await TypedTenant.of(t).update('tableConfig').set({ configContent, updatedAt: now }).where('accountId', '=', accountId).where('listName', '=', listName).executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) {
      await typed(db).insertInto('tableConfig').values({ companyId: t.companyId, accountId, listName, configContent, updatedAt: now }).execute();
    }
  });
  return { accountId, listName, updatedAt: now };
}

export interface PrintSettings { warehouseCode?: string; warehouseId: number; printer?: string; paper?: string; copies?: number }

export async function printSettingsOf(ctx: CallContext) {
  const row = await TypedTenant.of(ctx.tenant).select('printInfo').selectAll().where('accountId', '=', ctx.caller!.accountId).executeTakeFirst();
  return row ? { warehouseCode: row.warehouseCode, warehouseId: row.warehouseId, ...JSON.parse(String(row.content)) } : null;
}

export async function savePrintSettings(ctx: CallContext, input: PrintSettings) {
  const wh = await TypedTenant.of(ctx.tenant).select('warehouse').select(['id', 'code']).where('id', '=', input.warehouseId).executeTakeFirst();
  if (!wh) throw bizError('COMMON_NOT_FOUND_4004', { entity: '仓库' });
  const { warehouseCode: _c, warehouseId: _i, ...rest } = input;
  const accountId = ctx.caller!.accountId;
  const now = new Date().toISOString();
  const values = { warehouseCode: String(wh.code), warehouseId: Number(wh.id), content: JSON.stringify(rest), updatedAt: now };
  await ctx.transaction(async (db, t) => {
    const res = await TypedTenant.of(t).update('printInfo').set(values).where('accountId', '=', accountId).executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) await typed(db).insertInto('printInfo').values({ ...values, accountId, companyId: t.companyId }).execute();
  });
  return { warehouseCode: values.warehouseCode, warehouseId: values.warehouseId, ...rest };
}
