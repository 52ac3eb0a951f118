// Products found by what a clerk types (code or barcode), the units of measure product forms offer, and the
// next free product code of the company's sequence.
import { sql } from 'kysely';
import type { CallContext } from '../../catalog/context.ts';
import { TypedTenant } from '../../db/typed.ts';
import { bizError, validationError } from '../../http/errors.ts';
import { fetchRow } from '../../resources/index.ts';
import type { Resource, ResourceRegistry } from '../../resources/types.ts';
import { takeSequenceValue } from '../sequence.ts';

/** The product whose code is `code`, else the first (by code) whose barcode is; PRODUCT_NOT_EXIST_4001 when none. */
export async function lookupProduct(ctx: CallContext, reg: ResourceRegistry, product: Resource, code: string) {
  const c = code.trim();
  if (!c) throw validationError([{ field: 'code', message: '商品编码或条码不能为空' }]);
  const tenant = TypedTenant.of(ctx.tenant);
  const hit = (await tenant.select('product').select('id').where('code', '=', c).executeTakeFirst())
    ?? (await tenant.select('product').select('id').where('barcode', '=', c).orderBy('code').limit(1).executeTakeFirst());
  if (!hit) throw bizError('PRODUCT_NOT_EXIST_4001');
  return fetchRow(reg, product, ctx.tenant, Number(hit.id));
}

/** The company's enabled units of measure (计量单位, cdm 0106), in their order: {value, label} both the unit's name, as products store it. */
export async function unitOptions(ctx: CallContext): Promise<Array<{ value: string; label: string; code: string; decimals: number }>> {
  const rows = await TypedTenant.of(ctx.tenant).select('measureUnit').select(['code', 'name', 'decimals']).where('enabled', '=', 1)
    .orderBy('sort').orderBy('code').execute();
  return rows.map((r) => ({ value: String(r.name), label: String(r.name), code: String(r.code), decimals: Number(r.decimals) }));
}

/** Next product code from the company's sequence: a conditional increment, so two callers never share one. */
export async function nextProductCode(ctx: CallContext): Promise<string> {
  return ctx.transaction(async (db, untypedTenant) => {
    const tenant = TypedTenant.of(untypedTenant);
    // First use: start after the largest code of the form P000123 already in the company.
    const start = async () => {
      const top = await tenant.select('product').select('code').where('code', '>=', 'P000000').where('code', '<=', 'P999999')
        .where(sql<boolean>`length(${sql.ref('code')}) = 7`).orderBy('code', 'desc').limit(1).executeTakeFirst();
      return top && /^P\d{6}$/.test(String(top.code)) ? Number(String(top.code).slice(1)) + 1 : 1;
    };
    for (let attempt = 0; attempt < 100; attempt++) {
      const value = await takeSequenceValue(db, tenant.companyId, 'productCode', start);
      const code = `P${String(value).padStart(6, '0')}`;
      const taken = await tenant.select('product').select('id').where('code', '=', code).executeTakeFirst();
      if (!taken) return code;
    }
    throw new Error('product code sequence: no free code after 100 attempts');
  });
}
