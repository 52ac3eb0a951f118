// The company's master record (公司信息 on /baseConfig): names, address, contacts, tax number and logo,
// saved under the company's version with every change audited.
import type { Selectable } from 'kysely';
import { clearCallerCache } from '../../auth/caller.ts';
import type { AuditChange, CallContext } from '../../catalog/context.ts';
import { typed, type DB } from '../../db/typed.ts';
import { bizError, validationError } from '../../http/errors.ts';
import { checkLogo } from '../../resources/settings-hooks.ts';

export const COMPANY_FIELDS = {
  name: '公司名称', nameEn: '英文名称', address: '地址', phone: '电话', email: '邮箱', website: '网址', taxNo: '纳税人识别号', logoId: '标志图片',
} as const;
type InfoField = keyof typeof COMPANY_FIELDS;

export type CompanyInfoInput = { version: number } & Partial<Record<InfoField, string | null>>;

function companyView(row: Selectable<DB['company']>) {
  return {
    id: Number(row.id),
    code: String(row.code),
    name: String(row.name),
    nameEn: row.nameEn ?? null,
    address: row.address ?? null,
    phone: row.phone ?? null,
    email: row.email ?? null,
    website: row.website ?? null,
    taxNo: row.taxNo ?? null,
    logoId: row.logoId ?? null,
    version: Number(row.version),
    updatedAt: row.updatedAt,
  };
}

export async function companyInfo(ctx: CallContext) {
  return companyView(await typed(ctx.db).selectFrom('company').selectAll().where('id', '=', ctx.caller!.company.id).executeTakeFirstOrThrow());
}

export async function saveCompanyInfo(ctx: CallContext, input: CompanyInfoInput) {
  const companyId = ctx.caller!.company.id;
  const set: Partial<Record<InfoField, string | null>> = {};
  for (const key of Object.keys(COMPANY_FIELDS) as InfoField[]) {
    const given = input[key];
    if (given === undefined) continue;
    const v = typeof given === 'string' ? given.trim() : given;
    set[key] = v === '' ? null : v;
  }
  if (set.name === null) throw validationError([{ field: 'name', message: '公司名称不能为空' }]);
  if (set.logoId) {
    const errors = await checkLogo(ctx.tenant, set.logoId, 'logoId');
    if (errors.length) throw validationError(errors);
  }
  return ctx.transaction(async (untypedDb) => {
    const db = typed(untypedDb);
    const before = await db.selectFrom('company').selectAll().where('id', '=', companyId).executeTakeFirstOrThrow();
    const changes: AuditChange[] = [];
    for (const [k, v] of Object.entries(set) as Array<[InfoField, string | null]>) {
      const old = before[k] ?? null;
      if (String(old ?? '') !== String(v ?? '')) changes.push({ field: k, title: COMPANY_FIELDS[k], from: old, to: v });
    }
    // (name is NOT NULL and was refused above when emptied; the column types cannot know that)
    const res = await db.updateTable('company').set({ ...(set as Record<string, string | null>), version: Number(before.version) + 1, updatedAt: new Date().toISOString() })
      .where('id', '=', companyId).where('version', '=', input.version).executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw bizError('COMMON_VERSION_CONFLICT_4009', { entity: '公司信息' });
    await ctx.audit({ action: 'update', entity: 'company', recordId: companyId, recordLabel: String(before.name), changes }, untypedDb);
    if ('name' in set) clearCallerCache();
    return companyView(await db.selectFrom('company').selectAll().where('id', '=', companyId).executeTakeFirstOrThrow());
  });
}
