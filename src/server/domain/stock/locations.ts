// Locations (库位): the lookup key of spec §3, the resource rules of `location` and `defaultLocation`,
// and the lookups a scanner or a typed code uses.
import type { CallContext } from '../../catalog/context.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import { bizError, validationError, type FieldError } from '../../http/errors.ts';
import type { ResourceHooks } from '../../resources/hooks.ts';
import { TypedTenant } from '../../db/typed.ts';

/**
 * The lookup key of a location code (spec §3): the code with every '-', 'S', 'Z', 'A' and 'B' removed.
 * Input is trimmed and upper-cased first (codes are stored in capitals), so "a-01-02-s", "A-01-02-S" and
 * "0102" all give "0102".
 */
export function lookupKeyOf(code: string): string {
  return code.trim().toUpperCase().replace(/[-SZAB]/g, '');
}


export const LOCATION_HOOKS: ResourceHooks = {
  derive({ merged }) {
    return typeof merged.lcCode === 'string' ? { lookupKey: lookupKeyOf(merged.lcCode) } : {};
  },
  async validate({ tenant, id, values, merged }): Promise<FieldError[]> {
    if (!('lcCode' in values) && !('warehouseId' in values)) return [];
    const code = String(merged.lcCode ?? '');
    const key = lookupKeyOf(code);
    if (!key) return [{ field: 'lcCode', message: `库位编码“${code}”去掉 -、S、Z、A、B 后为空，无法按编码查找，请更换编码` }];
    let q = tenant.select('location').select(['id', 'lcCode']).where('warehouseId', '=', merged.warehouseId as number).where('lookupKey', '=', key);
    if (id !== null) q = q.where('id', '!=', id as number);
    const clash = await q.limit(1).executeTakeFirst();
    if (clash && String(clash.lcCode) !== code) {
      return [{ field: 'lcCode', message: `库位编码“${code}”与本仓库已有库位“${String(clash.lcCode)}”去掉 -、S、Z、A、B 后相同（查询键 ${key}），扫描或输入时无法区分，请更换编码` }];
    }
    return [];
  },
};

export const DEFAULT_LOCATION_HOOKS: ResourceHooks = {
  async validate({ tenant, values, merged }): Promise<FieldError[]> {
    if (!('locationId' in values) && !('warehouseId' in values)) return [];
    const loc = await tenant.select('location').select(['warehouseId', 'lcCode']).where('id', '=', merged.locationId as number).executeTakeFirst();
    if (loc && Number(loc.warehouseId) !== Number(merged.warehouseId)) {
      return [{ field: 'locationId', message: `库位“${String(loc.lcCode)}”不属于所选仓库` }];
    }
    return [];
  },
};

export interface LocationHit {
  id: number;
  lcCode: string;
  lookupKey: string;
  warehouseId: number;
  warehouseCode: string;
  warehouseName: string;
  zone: string | null;
  type: string;
  status: string;
}

/** Finds a location by a scanned or typed code (normalised as spec §3), optionally within one warehouse. */
export async function lookupLocation(untypedTenant: Tenant, code: string, warehouseId?: number): Promise<LocationHit> {
  const tenant = TypedTenant.of(untypedTenant);
  const key = lookupKeyOf(code);
  if (!key) throw validationError([{ field: 'code', message: '库位编码去掉 -、S、Z、A、B 后为空，请重新输入' }]);
  let q = tenant.select('location')
    .innerJoin('warehouse', (j) => j.onRef('warehouse.id', '=', 'location.warehouseId').onRef('warehouse.companyId', '=', 'location.companyId'))
    .select(['location.id', 'location.lcCode', 'location.lookupKey', 'location.warehouseId', 'warehouse.code as warehouseCode', 'warehouse.name as warehouseName',
      'location.zone', 'location.type', 'location.status'])
    .where('location.lookupKey', '=', key);
  if (warehouseId !== undefined) q = q.where('location.warehouseId', '=', warehouseId);
  const rows = await q.orderBy('warehouse.code').limit(20).execute();
  if (!rows.length) throw bizError('STOCK_LOCATION_NOT_FOUND_4079', { code: code.trim().slice(0, 40) });
  if (rows.length > 1) throw bizError('STOCK_LOCATION_AMBIGUOUS_4080', { code: code.trim().slice(0, 40), warehouses: rows.map((r) => String(r.warehouseName)).join('、') });
  const r = rows[0]!;
  return {
    id: Number(r.id), lcCode: String(r.lcCode), lookupKey: String(r.lookupKey), warehouseId: Number(r.warehouseId),
    warehouseCode: String(r.warehouseCode), warehouseName: String(r.warehouseName), zone: (r.zone as string | null) ?? null,
    type: String(r.type), status: String(r.status),
  };
}

/** Location options of one warehouse (or all), for selects: enabled ones unless asked otherwise. */
export async function locationOptions(ctx: CallContext, input: { warehouseId?: number; keyword?: string | null; includeLocked?: boolean }) {
  let q = TypedTenant.of(ctx.tenant).select('location').select(['id', 'lcCode', 'warehouseId', 'zone', 'type', 'status']);
  if (input.warehouseId !== undefined) q = q.where('warehouseId', '=', input.warehouseId);
  if (!input.includeLocked) q = q.where('status', '=', 'enabled');
  const keyword = typeof input.keyword === 'string' ? input.keyword.trim() : '';
  // Codes hold only A–Z, 0–9 and '-', so anything else in the keyword can be dropped (no LIKE wildcards).
  const text = keyword.toUpperCase().replace(/[^A-Z0-9-]/g, '');
  if (keyword) {
    const key = lookupKeyOf(text);
    q = q.where((eb) => eb.or([
      eb('lcCode', 'like', `${text}%`),
      ...(key ? [eb('lookupKey', 'like', `${key}%`)] : []),
    ]));
  }
  const rows = await q.orderBy('lcCode').orderBy('id').limit(2000).execute();
  return rows.map((r) => ({ id: Number(r.id), label: String(r.lcCode), warehouseId: Number(r.warehouseId), zone: r.zone ?? null, type: String(r.type), status: String(r.status) }));
}

/** Resource rules registered in resources/hooks.ts. */
export const STOCK_HOOKS: Record<string, ResourceHooks> = {
  location: LOCATION_HOOKS,
  defaultLocation: DEFAULT_LOCATION_HOOKS,
};
