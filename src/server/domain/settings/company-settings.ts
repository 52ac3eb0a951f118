// Company parameters (公司参数): time zone, language, base currency, the receipt and sale-price
// multiples, container types and the company's flags; saved under the company's version with every
// change audited.
import { COMPANY_FLAGS, parseFlags, type CompanyFlag } from '../../../core/flags.ts';
import { clearCallerCache } from '../../auth/caller.ts';
import type { AuditChange, CallContext } from '../../catalog/context.ts';
import { TypedTenant, typed, type DB } from '../../db/typed.ts';
import type { Selectable } from 'kysely';
import { bizError } from '../../http/errors.ts';

type CompanyRow = Selectable<DB['company']>;

export const SETTING_TITLES = {
  name: '公司名称', timeZone: '时区', defaultLanguage: '默认语言', currencyId: '本位币', receMultiple: '超收倍数',
  limitMultiple: '销售价下限倍数', ceilingMultiple: '销售价上限倍数', addRooType: '加柜方式', containerTypes: '柜型',
} as const;
type SettingKey = keyof typeof SETTING_TITLES;

export interface SettingsInput {
  version: number;
  name?: string;
  timeZone?: number;
  defaultLanguage?: string;
  currencyId?: number;
  receMultiple?: string;
  limitMultiple?: string;
  ceilingMultiple?: string;
  addRooType?: number;
  containerTypes?: string[];
  flags?: Partial<Record<CompanyFlag, boolean>>;
}

function settingsView(row: CompanyRow) {
  return {
    name: row.name,
    code: row.code,
    timeZone: Number(row.timeZone),
    defaultLanguage: row.defaultLanguage,
    currencyId: row.currencyId,
    receMultiple: String(row.receMultiple),
    limitMultiple: String(row.limitMultiple),
    ceilingMultiple: String(row.ceilingMultiple),
    addRooType: Number(row.addRooType),
    containerTypes: JSON.parse(String(row.containerTypes || '[]')) as string[],
    flags: parseFlags(row.flags),
    version: Number(row.version),
  };
}

export async function companySettings(ctx: CallContext) {
  const row = await typed(ctx.db).selectFrom('company').selectAll().where('id', '=', ctx.caller!.company.id).executeTakeFirstOrThrow();
  return { ...settingsView(row), flagTitles: COMPANY_FLAGS };
}

export async function saveCompanySettings(ctx: CallContext, input: SettingsInput) {
  const companyId = ctx.caller!.company.id;
  if (input.currencyId !== undefined) {
    const cur = await TypedTenant.of(ctx.tenant).select('currency').select('id').where('id', '=', input.currencyId).executeTakeFirst();
    if (!cur) throw bizError('COMMON_NOT_FOUND_4004', { entity: '币种' });
  }
  return ctx.transaction(async (untypedDb) => {
    const db = typed(untypedDb);
    const before = await db.selectFrom('company').selectAll().where('id', '=', companyId).executeTakeFirstOrThrow();
    const changes: AuditChange[] = [];
    const set: Record<string, unknown> = {};
    for (const key of Object.keys(SETTING_TITLES) as SettingKey[]) {
      if (input[key] === undefined) continue;
      const stored = key === 'containerTypes' ? JSON.stringify(input[key]) : input[key];
      const old = before[key];
      if (String(old) !== String(stored)) changes.push({ field: key, title: SETTING_TITLES[key], from: old, to: stored });
      set[key] = stored;
    }
    if (input.flags) {
      const oldFlags = parseFlags(before.flags);
      const next = { ...oldFlags, ...input.flags } as Record<CompanyFlag, boolean>;
      for (const k of Object.keys(COMPANY_FLAGS) as CompanyFlag[]) {
        if (oldFlags[k] !== next[k]) changes.push({ field: `flags.${k}`, title: COMPANY_FLAGS[k], from: oldFlags[k], to: next[k] });
      }
      set.flags = JSON.stringify(next);
    }
    const res = await db.updateTable('company').set({ ...set, version: Number(before.version) + 1, updatedAt: new Date().toISOString() })
      .where('id', '=', companyId).where('version', '=', input.version).executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw bizError('COMMON_VERSION_CONFLICT_4009', { entity: '公司参数' });
    await ctx.audit({ action: 'update', entity: 'company', recordId: companyId, recordLabel: String(before.name), changes }, untypedDb);
    clearCallerCache();
    const after = await db.selectFrom('company').selectAll().where('id', '=', companyId).executeTakeFirstOrThrow();
    return settingsView(after);
  });
}
