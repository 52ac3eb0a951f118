// Query parts the commodity screens share: a keyword over products (code/name contain it, barcode equals
// it), one page plus its total, a product by id or code, and the product columns of list rows.
import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { Dialect } from '../../db/connection.ts';
import type { DB, TypedTenant } from '../../db/typed.ts';
import { bizError, validationError } from '../../http/errors.ts';

export interface Paging { page: number; pageSize: number }

export const text = (v: unknown) => (v === null || v === undefined ? null : String(v));

function like(dialect: Dialect, ref: string, pattern: string) {
  return dialect === 'postgres' ? sql<boolean>`${sql.ref(ref)} ilike ${pattern} escape '\\'` : sql<boolean>`${sql.ref(ref)} like ${pattern} escape '\\'`;
}

const contains = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Product code or name contains the keyword (case-insensitive), or the barcode equals it; undefined for no keyword. */
export function productKeyword(dialect: Dialect, keyword: string | null | undefined, extra: string[] = []): RawBuilder<boolean> | undefined {
  const k = keyword?.trim();
  if (!k) return undefined;
  const pattern = contains(k);
  const any = [
    like(dialect, 'product.code', pattern), like(dialect, 'product.name', pattern), sql<boolean>`${sql.ref('product.barcode')} = ${k}`,
    ...extra.map((ref) => like(dialect, ref, pattern)),
  ];
  return sql<boolean>`(${sql.join(any, sql` or `)})`;
}

/** How many rows a query has. */
export async function countOf<TB extends keyof DB, O>(q: SelectQueryBuilder<DB, TB, O>): Promise<number> {
  const row = await q.select(sql<number | string>`count(*)`.as('n')).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** One page (`read(limit, offset)`) and the total; the count is only run when the page does not tell it. */
export async function page<T>(p: Paging, read: (limit: number, offset: number) => Promise<T[]>, count: () => Promise<number>): Promise<{ list: T[]; total: number }> {
  const offset = (p.page - 1) * p.pageSize;
  const list = await read(p.pageSize, offset);
  const total = list.length < p.pageSize && (list.length > 0 || offset === 0) ? offset + list.length : await count();
  return { list, total };
}

/** A product of the company by id or code; PRODUCT_NOT_EXIST_4001 when there is none. */
export async function productOf(tenant: TypedTenant, input: { productId?: number | null; productCode?: string | null; id?: number | null }) {
  const id = input.productId ?? input.id ?? null;
  const code = input.productCode?.trim();
  let q = tenant.select('product').selectAll();
  if (id !== null) q = q.where('id', '=', id);
  else if (code) q = q.where('code', '=', code);
  else throw validationError([{ field: 'productCode', message: '请填写商品编码' }]);
  const row = await q.executeTakeFirst();
  if (!row) throw bizError('PRODUCT_NOT_EXIST_4001');
  return row;
}

export const PRODUCT_COLUMNS = [
  'product.id', 'product.code', 'product.name', 'product.barcode', 'product.specification', 'product.imageId', 'product.status', 'product.categoryId', 'product.updatedAt',
] as const;

/** The product columns of a list row and its category's name. */
export function withCategory<O>(q: SelectQueryBuilder<DB, 'product', O>) {
  return q.leftJoin('category', (j) => j.onRef('category.id', '=', 'product.categoryId').onRef('category.companyId', '=', 'product.companyId'))
    .select([...PRODUCT_COLUMNS, 'category.name as categoryName']);
}

const STATUS_TEXT: Record<string, string> = { onSale: '在售', stopped: '停售' };

interface ProductListRow {
  id: number; code: string; name: string; barcode: string | null; specification: string | null; imageId: string | null;
  status: string; categoryId: number | null; categoryName: string | null; updatedAt: string;
}

/** A product as list screens show it. */
export function productRow(r: ProductListRow) {
  return {
    id: Number(r.id), code: r.code, name: r.name, barcode: r.barcode ?? null, specification: r.specification ?? null,
    imageId: r.imageId ?? null, status: r.status, statusText: STATUS_TEXT[String(r.status)] ?? r.status,
    categoryId: r.categoryId === null || r.categoryId === undefined ? null : Number(r.categoryId), categoryName: r.categoryName ?? null,
    updatedAt: r.updatedAt,
  };
}
