// Shared pieces of the procurement documents: status texts, the status refusal, dates, money scales, the
// exchange rate of a day and the company's over-receipt multiple.
import Decimal from 'decimal.js';
import { formatDate } from '../../../core/format.ts';
import type { CallContext } from '../../catalog/context.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import type { DB } from '../../db/connection.ts';
import { ApiError, bizError, validationError } from '../../http/errors.ts';
import { realDate } from '../../resources/fields.ts';
import { MAX_MOVE_QTY } from '../stock/ledger.ts';
import { TypedTenant, typed } from '../../db/typed.ts';

export type Row = Record<string, unknown>;

/** A line's big/mid/small packs as the request sent them (the parsed line holds the rest). */
export interface PackInput { big?: number | null; mid?: number | null; small?: number | null }

export const PO_STATUS = {
  draft: '草稿', confirmed: '已确认', partlyReceived: '部分收货', received: '已收货', closed: '已关闭', cancelled: '已作废',
} as const;
export type PoStatus = keyof typeof PO_STATUS;

/** Receiving notes and putaways. */
export const DOC_STATUS = { draft: '草稿', posted: '已过账', cancelled: '已作废' } as const;
export type DocStatus = keyof typeof DOC_STATUS;

export const tz = (ctx: CallContext) => ctx.caller?.company.timeZone ?? 8;
export const text = (v: unknown) => (v === null || v === undefined ? null : String(v));
export const today = (ctx: CallContext) => formatDate(new Date().toISOString(), tz(ctx));

/** Unit prices are stored × 10^4, amounts (cents) × 10^2, exchange rates × 10^6. */
export const PRICE_SCALE = 4;
export const priceText = (v: unknown) => new Decimal(String(v ?? 0)).div(10 ** PRICE_SCALE).toFixed(PRICE_SCALE);
export const moneyText = (v: unknown) => new Decimal(String(v ?? 0)).div(100).toFixed(2);
export const rateText = (v: unknown) => new Decimal(String(v ?? 0)).div(1_000_000).toFixed(6);

export function parseDay(v: string | null | undefined, field: string, title: string): string | undefined {
  if (v === null || v === undefined || v.trim() === '') return undefined;
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(v.trim());
  const d = m ? realDate(Number(m[1]), Number(m[2]), Number(m[3])) : undefined;
  if (!d) throw validationError([{ field, message: `${title}不是有效的日期（YYYY-MM-DD）` }]);
  return d;
}

/** The rate (× 10^6) of a currency on a day: the base currency is 1; else the latest rate on or before it. */
export async function rateOn(untypedTenant: Tenant, currencyId: number, date: string): Promise<{ rate: number; rateDate: string }> {
  const tenant = TypedTenant.of(untypedTenant);
  const currency = await tenant.select('currency').select(['id', 'currencyName', 'isBase', 'enabled']).where('id', '=', currencyId).executeTakeFirst();
  if (!currency) throw validationError([{ field: 'currencyId', message: '币种不存在' }]);
  if (Number(currency.isBase) === 1) return { rate: 1_000_000, rateDate: date };
  const rate = await tenant.select('exchangeRate').select(['rateDate', 'rate']).where('currencyId', '=', currencyId)
    .where('rateDate', '<=', date).orderBy('rateDate', 'desc').limit(1).executeTakeFirst();
  if (!rate) throw bizError('EXCHANGE_RATE_NOT_FOUND_4051', { currency: String(currency.currencyName), date }, { currencyId, date });
  return { rate: Number(rate.rate), rateDate: String(rate.rateDate) };
}

/** The company's over-receipt multiple as an exact fraction num/den ('1.1' → 11/10; missing or bad → 1). */
export interface Multiple { text: string; num: number; den: number }

// Parsed once per setting text: Decimal's toFraction costs ~30 µs, and every receipt asks.
const multiples = new Map<string, Multiple>();

export function parseMultiple(value: unknown): Multiple {
  const raw = String(value ?? '1').trim() || '1';
  const known = multiples.get(raw);
  if (known) return known;
  let d: Decimal;
  try {
    d = new Decimal(raw);
  } catch {
    d = new Decimal(1);
  }
  if (!d.isFinite() || d.lessThan(1)) d = new Decimal(1);
  const [n, den] = d.toDecimalPlaces(4).toFraction();
  const m = { text: d.toDecimalPlaces(4).toFixed(), num: n.toNumber(), den: den.toNumber() };
  if (multiples.size > 100) multiples.clear();
  multiples.set(raw, m);
  return m;
}

export async function receMultipleOf(untypedDb: DB, companyId: number): Promise<Multiple> {
  const db = typed(untypedDb);
  const row = await db.selectFrom('company').select('receMultiple').where('id', '=', companyId).executeTakeFirst();
  return parseMultiple(row?.receMultiple);
}

export function statusError(title: string, statusTexts: Record<string, string>, doc: Row, action: string): ApiError {
  const status = String(doc.status);
  return bizError('PURCHASE_DOC_STATUS_4091', { doc: title, docNo: String(doc.docNo), status: statusTexts[status] ?? status, action }, { id: Number(doc.id), status });
}

/** Why a conditional header update changed nothing: not found, wrong status, or someone else's edit. */
export async function refusal(tenant: Tenant, table: string, title: string, statusTexts: Record<string, string>, id: number, version: number | undefined, expected: string[], action: string): Promise<ApiError> {
  // (the table is the caller's document table, named at run time: the untyped view)
  const doc: Row | undefined = await tenant.select(table).select(['id', 'docNo', 'status', 'version']).where('id', '=', id).executeTakeFirst();
  if (!doc) return bizError('COMMON_NOT_FOUND_4004', { entity: title });
  if (!expected.includes(String(doc.status))) return statusError(title, statusTexts, doc, action);
  return bizError('COMMON_VERSION_CONFLICT_4009', { entity: title });
}

export const ID_VERSION_INPUT = {
  type: 'object', required: ['id'],
  properties: { id: { type: 'integer', minimum: 1, title: '单据' }, version: { type: 'integer', minimum: 1, title: '版本' } },
};
export const ID_INPUT = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, title: '单据' } } };

/** Paging of every document list. */
export const PAGING_PROPS = {
  page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1, title: '页码' },
  pageSize: { type: 'integer', minimum: 1, maximum: 500, default: 20, title: '每页条数' },
} as const;

// Filtered document queries of any table; the rows are read back as plain records.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnySelect = any;

/** Rows of a page read with their names (the query `names` starts joins them), newest first. */
export const namedRows = (names: AnySelect, idColumn: string) => async (ids: number[]): Promise<Row[]> =>
  await names.where(idColumn, 'in', ids).orderBy(idColumn, 'desc').execute();

/**
 * One page of a document list, newest first: the filtered count, the page's ids (no joins, so the
 * database walks one index), then only those rows read in full.
 */
export async function newestFirstPage<V>(where: AnySelect, idColumn: string, read: (ids: number[]) => Promise<Row[]>, view: (r: Row) => V, paging: { page: number; pageSize: number }) {
  const counted = await where.select((eb: AnySelect) => eb.fn.countAll().as('total')).executeTakeFirst();
  const total = Number(counted?.total ?? 0);
  const offset = (paging.page - 1) * paging.pageSize;
  let rows: Row[] = [];
  if (total > offset) {
    const ids = (await where.select(idColumn).orderBy(idColumn, 'desc').limit(paging.pageSize).offset(offset).execute()).map((r: Row) => Number(r.id));
    if (ids.length) rows = await read(ids);
  }
  return { list: rows.map(view), total, page: paging.page, pageSize: paging.pageSize };
}

/** A quantity in small units on a document line (null: not given). */
export const QTY = { type: ['integer', 'null'], minimum: 0, maximum: MAX_MOVE_QTY } as const;

/**
 * A line quantity entered either as the total in small units (`field`) or as big/mid/small packs
 * (turned into small units with the product's pack sizes by lineQty); `part` prefixes the pack titles.
 */
export function packQtyProps(field: string, title: string, part = '') {
  return {
    [field]: { ...QTY, title: `${title}（最小单位）` },
    big: { ...QTY, title: `${part}大包装数` },
    mid: { ...QTY, title: `${part}中包装数` },
    small: { ...QTY, title: `${part}最小单位数` },
  };
}
