// What a scanner or a typed code finds on the floor (/ipad): a product (code or barcode) or a location
// (its code normalised as spec §3: '-', 'S', 'Z', 'A', 'B' removed), and the stock there by location:
// on hand and reserved at the place.
import { splitUnits } from '../../../core/stock-units.ts';
import type { CallContext } from '../../catalog/context.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import { lookupKeyOf } from './locations.ts';
import { TypedTenant } from '../../db/typed.ts';

type Row = Record<string, unknown>;

export const SCAN_INPUT = {
  type: 'object',
  properties: {
    keyword: { type: ['string', 'null'], maxLength: 60, title: '商品编码、条码或库位编码' },
    warehouseId: { type: ['integer', 'null'], minimum: 1, title: '仓库' },
    page: { type: 'integer', minimum: 1, maximum: 100_000, default: 1, title: '页码' },
    pageSize: { type: 'integer', minimum: 1, maximum: 500, default: 50, title: '每页条数' },
  },
};
export interface ScanInput { keyword?: string | null; warehouseId?: number | null; page: number; pageSize: number }

export interface ScanHit {
  kind: 'product' | 'location';
  productIds: number[];
  locationIds: number[];
}

/** A product by exact code or barcode first; otherwise locations by lookup key. */
export async function findScanned(untypedTenant: Tenant, code: string, warehouseId?: number | null): Promise<ScanHit | undefined> {
  const tenant = TypedTenant.of(untypedTenant);
  const text = code.trim();
  if (!text) return undefined;
  const products = await tenant.select('product').select('id').where((eb) => eb.or([eb('code', '=', text), eb('barcode', '=', text)])).limit(20).execute();
  if (products.length) return { kind: 'product', productIds: products.map((p) => Number(p.id)), locationIds: [] };
  const key = lookupKeyOf(text);
  if (!key) return undefined;
  let q = tenant.select('location').select('id').where('lookupKey', '=', key);
  if (warehouseId) q = q.where('warehouseId', '=', warehouseId);
  const locations = await q.limit(50).execute();
  if (locations.length) return { kind: 'location', productIds: [], locationIds: locations.map((l) => Number(l.id)) };
  return undefined;
}

/** Stock by location of what was scanned (places holding or reserving stock), walking order. */
export async function scanStock(ctx: CallContext, input: ScanInput) {
  const keyword = (input.keyword ?? '').trim();
  const hit = keyword ? await findScanned(ctx.tenant, keyword, input.warehouseId) : undefined;
  if (!hit) return { list: [], total: 0, found: keyword ? 'none' : null, message: keyword ? `没有找到商品或库位“${keyword.slice(0, 40)}”` : '请扫描或输入商品编码、条码或库位编码' };
  const rows = await stockRows(ctx.tenant, hit, input.warehouseId ?? undefined);
  const page = rows.slice((input.page - 1) * input.pageSize, input.page * input.pageSize);
  return { list: page, total: rows.length, found: hit.kind };
}

/** Balances (on hand or reserved) of the products, or at the locations, with labels and units. */
export async function stockRows(untypedTenant: Tenant, hit: ScanHit, warehouseId?: number): Promise<Row[]> {
  const tenant = TypedTenant.of(untypedTenant);
  let q = tenant.select('stockBalance')
    .innerJoin('product', (j) => j.onRef('product.id', '=', 'stockBalance.productId').onRef('product.companyId', '=', 'stockBalance.companyId'))
    .innerJoin('warehouse', (j) => j.onRef('warehouse.id', '=', 'stockBalance.warehouseId').onRef('warehouse.companyId', '=', 'stockBalance.companyId'))
    .leftJoin('location', (j) => j.onRef('location.id', '=', 'stockBalance.locationId').onRef('location.companyId', '=', 'stockBalance.companyId'))
    .select([
      'stockBalance.productId', 'stockBalance.warehouseId', 'stockBalance.locationId', 'stockBalance.onHand', 'stockBalance.reserved',
      'product.code as productCode', 'product.name as productName', 'product.specification', 'product.barcode',
      'product.bigQty', 'product.midQty', 'product.unitBig', 'product.unitMid', 'product.unitSmall',
      'warehouse.name as warehouseName', 'location.lcCode', 'location.zone',
    ])
    .where((eb) => eb.or([eb('stockBalance.onHand', '!=', 0), eb('stockBalance.reserved', '!=', 0)]));
  q = hit.kind === 'product' ? q.where('stockBalance.productId', 'in', hit.productIds) : q.where('stockBalance.locationId', 'in', hit.locationIds);
  if (warehouseId) q = q.where('stockBalance.warehouseId', '=', warehouseId);
  const rows = await q.orderBy('warehouse.name').orderBy('location.lcCode').orderBy('product.code').limit(2000).execute();
  return rows.map((r) => {
    const p = { bigQty: Number(r.bigQty ?? 1), midQty: Number(r.midQty ?? 1), unitBig: r.unitBig as string | null, unitMid: r.unitMid as string | null, unitSmall: r.unitSmall as string | null };
    const onHand = Number(r.onHand);
    const reserved = Number(r.reserved);
    return {
      key: `${Number(r.productId)}:${Number(r.warehouseId)}:${Number(r.locationId)}`,
      productId: Number(r.productId), warehouseId: Number(r.warehouseId), locationId: Number(r.locationId) || null,
      productCode: r.productCode, productName: r.productName, specification: r.specification ?? null, barcode: r.barcode ?? null,
      warehouseName: r.warehouseName, lcCode: r.lcCode ?? null, zone: r.zone ?? null,
      // what is committed to orders is the warehouse's (picking decides the place), so no "available" per place
      onHand, reserved, onHandUnits: splitUnits(onHand, p).text, reservedUnits: splitUnits(reserved, p).text,
    };
  });
}
