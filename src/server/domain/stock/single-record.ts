// 单件扫描记录 (/entrepot/singleRecord): single pieces scanned on the floor — what (the product, by the code
// or barcode as scanned), where (a location, normalised as spec §3), how many, by whom and when. A record
// is a fact and is never changed; it moves no stock (counting and moving stock are the documents' work).
import { companyDateRange } from '../../../core/format.ts';
import type { CallContext } from '../../catalog/context.ts';
import { bizError, validationError } from '../../http/errors.ts';
import { realDate } from '../../resources/fields.ts';
import { lookupKeyOf } from './locations.ts';
import { TypedTenant, typed } from '../../db/typed.ts';

type Row = Record<string, unknown>;

export const SCAN_RECORD_INPUT = {
  type: 'object', required: ['code'],
  properties: {
    code: { type: 'string', minLength: 1, maxLength: 50, title: '商品编码或条码' },
    locationCode: { type: ['string', 'null'], maxLength: 50, title: '库位编码' },
    qty: { type: ['integer', 'null'], minimum: 1, maximum: 1_000_000, title: '件数' },
    remark: { type: ['string', 'null'], maxLength: 200, title: '备注' },
  },
};
export interface ScanRecordInput { code: string; locationCode?: string | null; qty?: number | null; remark?: string | null }

/** Records one scan (one piece unless `qty` says more). */
export async function recordScan(ctx: CallContext, input: ScanRecordInput) {
  const code = input.code.trim();
  if (!code) throw validationError([{ field: 'code', message: '请扫描或输入商品编码或条码' }]);
  const product = await TypedTenant.of(ctx.tenant).select('product').select(['id', 'code', 'name']).where((eb) => eb.or([eb('code', '=', code), eb('barcode', '=', code)])).orderBy('id').executeTakeFirst();
  if (!product) throw bizError('PRODUCT_NOT_EXIST_4001', {}, { code: code.slice(0, 50) });
  let location: Row | undefined;
  const lc = input.locationCode?.trim();
  if (lc) {
    const key = lookupKeyOf(lc);
    const found = key ? (await TypedTenant.of(ctx.tenant).select('location')
      .innerJoin('warehouse', (j) => j.onRef('warehouse.id', '=', 'location.warehouseId').onRef('warehouse.companyId', '=', 'location.companyId'))
      .select(['location.id', 'location.lcCode', 'location.warehouseId', 'warehouse.name as warehouseName']).where('location.lookupKey', '=', key).orderBy('location.id').limit(20).execute()) : [];
    if (!found.length) throw bizError('STOCK_LOCATION_NOT_FOUND_4079', { code: lc.slice(0, 40) });
    if (found.length > 1) throw bizError('STOCK_LOCATION_AMBIGUOUS_4080', { code: lc.slice(0, 40), warehouses: found.map((l) => String(l.warehouseName)).join('、') });
    location = found[0];
  }
  const now = new Date().toISOString();
  const row = {
    code, productId: Number(product.id), warehouseId: location ? Number(location.warehouseId) : null, locationId: location ? Number(location.id) : null,
    qty: input.qty ?? 1, remark: input.remark?.trim() || null, accountId: ctx.caller!.accountId, createdAt: now,
  };
  const inserted = await typed(ctx.tenant.db).insertInto('singleRecord').values({ ...row, companyId: ctx.tenant.companyId }).returning('id').executeTakeFirstOrThrow();
  return { id: Number(inserted.id), ...row, productCode: product.code, productName: product.name, lcCode: location?.lcCode ?? null };
}

export const RECORD_LIST_INPUT = {
  type: 'object',
  properties: {
    keyword: { type: ['string', 'null'], maxLength: 50, title: '商品编码、条码或名称' },
    dateFrom: { type: ['string', 'null'], maxLength: 10, title: '开始日期' },
    dateTo: { type: ['string', 'null'], maxLength: 10, title: '结束日期' },
    page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1, title: '页码' },
    pageSize: { type: 'integer', minimum: 1, maximum: 500, default: 20, title: '每页条数' },
  },
};
export interface RecordListInput { keyword?: string | null; dateFrom?: string | null; dateTo?: string | null; page: number; pageSize: number }

/** A typed day as YYYY-MM-DD, or a refusal naming the field (never an invalid date reaching the query). */
function day(v: string | null | undefined, field: string): string | undefined {
  if (!v) return undefined;
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(v.trim());
  const d = m ? realDate(Number(m[1]), Number(m[2]), Number(m[3])) : undefined;
  if (!d) throw validationError([{ field, message: '日期不是有效的日期（YYYY-MM-DD）' }]);
  return d;
}

/** The scan records, newest first. */
export async function listScanRecords(ctx: CallContext, input: RecordListInput) {
  const tz = ctx.caller?.company.timeZone ?? 8;
  const from = day(input.dateFrom, 'dateFrom');
  const to = day(input.dateTo, 'dateTo');
  let q = TypedTenant.of(ctx.tenant).select('singleRecord')
    .innerJoin('product', (j) => j.onRef('product.id', '=', 'singleRecord.productId').onRef('product.companyId', '=', 'singleRecord.companyId'))
    .leftJoin('location', (j) => j.onRef('location.id', '=', 'singleRecord.locationId').onRef('location.companyId', '=', 'singleRecord.companyId'))
    .leftJoin('warehouse', (j) => j.onRef('warehouse.id', '=', 'singleRecord.warehouseId').onRef('warehouse.companyId', '=', 'singleRecord.companyId'))
    .leftJoin('account', (j) => j.onRef('account.id', '=', 'singleRecord.accountId').onRef('account.companyId', '=', 'singleRecord.companyId'));
  const kw = input.keyword?.trim().replace(/[%_]/g, '');
  if (kw) q = q.where((eb) => eb.or([eb('singleRecord.code', '=', kw), eb('product.code', 'like', `${kw}%`), eb('product.name', 'like', `%${kw}%`)]));
  if (from) q = q.where('singleRecord.createdAt', '>=', companyDateRange(from, from, tz)[0]);
  if (to) q = q.where('singleRecord.createdAt', '<=', companyDateRange(to, to, tz)[1]);
  const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await q.select([
    'singleRecord.id', 'singleRecord.code', 'singleRecord.qty', 'singleRecord.remark', 'singleRecord.createdAt',
    'product.code as productCode', 'product.name as productName', 'location.lcCode', 'warehouse.name as warehouseName', 'account.userName',
  ]).orderBy('singleRecord.id', 'desc').limit(input.pageSize).offset((input.page - 1) * input.pageSize).execute();
  return {
    list: rows.map((r) => ({
      id: Number(r.id), code: r.code, qty: Number(r.qty), remark: r.remark ?? null, createdAt: r.createdAt,
      productCode: r.productCode, productName: r.productName, lcCode: r.lcCode ?? null, warehouseName: r.warehouseName ?? null, userName: r.userName ?? null,
    })),
    total,
  };
}
