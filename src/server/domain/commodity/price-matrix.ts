// The price matrix (价格管理): products × price lists ("price titles"). Prices live in product_price in
// cents. Every change of a price — one cell, a bulk adjustment, an import — writes one audit row per
// product in the shape the change-log export (cdm 014024, price.changeExport) reads: entity
// 'productPrice', recordId '<priceTitleId>:<productId>', recordLabel the product code, changes
// [{field: 'price', from, to}] with amounts as decimal strings. A stopped price list (enabled = 0) is
// never written: PRODUCT_PRICE_TITLE_STATUS_4005.
import Decimal from 'decimal.js';
import { sql, type SelectQueryBuilder } from 'kysely';
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import type { DB, Dialect } from '../../db/connection.ts';
import { ApiError, bizError, validationError } from '../../http/errors.ts';
import { cellTextAt, headerIndex, headerProblems, importFailed, MAX_IMPORT_ROWS, normHeader, readUploadedSpreadsheet } from '../../files/xlsx.ts';
import { TypedTenant, typed, type DB as TypedDB } from '../../db/typed.ts';

type Row = Record<string, unknown>;
/** A query over the company's products, before joins (the conditions of the matrix and of a mass adjustment). */
type Q = SelectQueryBuilder<TypedDB, 'product', object>;

/** Highest price a list may hold, in yuan (and in cents). */
const MAX_PRICE = new Decimal('1000000000');
const MAX_CENTS = MAX_PRICE.times(100);
const MAX_SELECTED = 10_000;
const PREVIEW_ROWS = 50;
const ENTITY = 'productPrice';

// ------------------------------------------------------------------------------------------------ inputs

const PAGING = {
  page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1, title: '页码' },
  pageSize: { type: 'integer', minimum: 1, maximum: 500, default: 20, title: '每页条数' },
};

/** Which products: the list's conditions (also accepted inside `filters`). */
const PRODUCT_CONDITIONS = {
  keyword: { type: ['string', 'null'], maxLength: 100, title: '商品编码或名称' },
  categoryId: { type: ['integer', 'null'], minimum: 1, title: '商品类别' },
  status: { enum: ['onSale', 'stopped', null], title: '商品状态' },
};

export const MATRIX_INPUT: InputSchema = {
  type: 'object',
  properties: {
    ...PAGING,
    ...PRODUCT_CONDITIONS,
    priceTitleIds: { type: ['array', 'null'], maxItems: 100, items: { type: 'integer', minimum: 1 }, title: '价格表' },
    kind: { enum: ['purchase', 'sale', null], title: '价格表类型' },
    sort: {
      type: ['object', 'null'],
      properties: { field: { type: 'string', maxLength: 64, title: '排序字段' }, order: { enum: ['ascend', 'descend', null], title: '排序方向' } },
    },
  },
};

const PRICE_VALUE = { type: ['string', 'number', 'null'], maxLength: 30, title: '价格' };

export const SET_PRICE_INPUT: InputSchema = {
  type: 'object',
  required: ['productId', 'priceTitleId'],
  properties: {
    productId: { type: 'integer', minimum: 1, title: '商品' },
    priceTitleId: { type: 'integer', minimum: 1, title: '价格表' },
    price: PRICE_VALUE,
    // The price the editor saw; when sent, a different stored price is a conflict (someone else changed it).
    expected: { type: ['string', 'number', 'null'], maxLength: 30, title: '原价格' },
  },
};

const ROUNDING = ['cent', 'jiao', 'yuan', 'ending9'] as const;
export type Rounding = (typeof ROUNDING)[number];
const ROUNDING_TEXT: Record<Rounding, string> = { cent: '取整到分', jiao: '取整到角', yuan: '取整到元', ending9: '尾数取 9（x.x9）' };

const ADJUST_PROPERTIES = {
  ...PRODUCT_CONDITIONS,
  priceTitleId: { type: 'integer', minimum: 1, title: '价格表' },
  productIds: { type: ['array', 'null'], maxItems: MAX_SELECTED, items: { type: 'integer', minimum: 1 }, title: '所选商品' },
  // 'self' | 'reference' | 'title' (with basisTitleId) | a price list id
  basis: { type: ['string', 'integer'], maxLength: 20, default: 'self', title: '调价基准' },
  basisTitleId: { type: ['integer', 'null'], minimum: 1, title: '基准价格表' },
  percent: { type: ['string', 'number'], maxLength: 20, title: '调整幅度（%）' },
  rounding: { enum: [...ROUNDING], default: 'cent', title: '取整方式' },
  dryRun: { type: ['boolean', 'null'], title: '仅预览' },
};

export const ADJUST_INPUT: InputSchema = { type: 'object', required: ['priceTitleId', 'percent'], properties: ADJUST_PROPERTIES };

/** The preview takes a half-filled form: nothing is required, what is missing is named in the answer. */
export const PREVIEW_INPUT: InputSchema = {
  type: 'object',
  properties: { ...ADJUST_PROPERTIES, priceTitleId: { type: ['integer', 'null'], minimum: 1, title: '价格表' }, percent: { type: ['string', 'number', 'null'], maxLength: 20, title: '调整幅度（%）' } },
};

interface ProductConditions {
  keyword?: string | null;
  categoryId?: number | null;
  status?: 'onSale' | 'stopped' | null;
}

export interface MatrixInput extends ProductConditions {
  page: number;
  pageSize: number;
  priceTitleIds?: number[] | null;
  kind?: 'purchase' | 'sale' | null;
  sort?: { field?: string; order?: 'ascend' | 'descend' | null } | null;
}

export interface SetPriceInput {
  productId: number;
  priceTitleId: number;
  price?: string | number | null;
  expected?: string | number | null;
}

export interface AdjustInput extends ProductConditions {
  priceTitleId: number;
  productIds?: number[] | null;
  basis?: string | number;
  basisTitleId?: number | null;
  percent: string | number;
  rounding?: Rounding;
  dryRun?: boolean | null;
}

// ------------------------------------------------------------------------------------------------- money

const text = (v: unknown) => (v === null || v === undefined ? null : String(v));
/** Cents (as stored) → "12.30"; null stays null. */
const yuan = (cents: unknown): string | null => (cents === null || cents === undefined ? null : new Decimal(String(cents)).div(100).toFixed(2));

/**
 * A price as typed or imported → cents, exactly; null for "no price" (null or empty). Spreadsheet numbers
 * are read at Excel's 15 significant digits, so 0.1 + 0.2 computed in a sheet is 0.3, not 0.30000000000000004.
 */
export function parsePrice(raw: unknown, title = '价格'): { cents: number | null } | { error: string } {
  if (raw === null || raw === undefined) return { cents: null };
  let s: string;
  if (typeof raw === 'number') {
    if (!Number.isFinite(raw)) return { error: `${title}必须是数字` };
    s = new Decimal(raw.toPrecision(15)).toFixed();
  } else {
    s = String(raw).trim().replace(/,/g, '');
  }
  if (s === '') return { cents: null };
  if (!/^\d{1,12}(\.\d+)?$/.test(s)) return { error: `${title}必须是不小于 0 的数字` };
  const d = new Decimal(s);
  if (d.decimalPlaces() > 2) return { error: `${title}最多 2 位小数` };
  if (d.gt(MAX_PRICE)) return { error: `${title}不能超过 1,000,000,000.00` };
  return { cents: d.times(100).toNumber() };
}

/** The percentage of a bulk adjustment ("5" = +5 %, "-3.5" = −3.5 %). */
function parsePercent(raw: unknown): Decimal {
  const s = typeof raw === 'number' ? (Number.isFinite(raw) ? new Decimal(raw.toPrecision(15)).toFixed() : '') : String(raw ?? '').trim();
  const fail = (message: string) => validationError([{ field: 'percent', message }]);
  if (!/^[+-]?\d{1,6}(\.\d+)?$/.test(s)) throw fail('调整幅度必须是数字（如 5 表示上调 5%，-3.5 表示下调 3.5%）');
  const d = new Decimal(s);
  if (d.decimalPlaces() > 4) throw fail('调整幅度最多 4 位小数');
  if (d.lt(-100)) throw fail('调整幅度不能小于 -100');
  if (d.gt(1000)) throw fail('调整幅度不能大于 1000');
  return d;
}

/**
 * A computed price rounded by the chosen rule, half-up: to the cent, the jiao (0.1), the yuan, or to the
 * nearest price ending in 9 at the cent (x.x9: 10.4895 → 10.49, 10.44 → 10.49, 10.43 → 10.39); a positive
 * price never rounds below 0.09.
 */
export function roundPrice(v: Decimal, rule: Rounding): Decimal {
  switch (rule) {
    case 'cent': return v.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
    case 'jiao': return v.toDecimalPlaces(1, Decimal.ROUND_HALF_UP);
    case 'yuan': return v.toDecimalPlaces(0, Decimal.ROUND_HALF_UP);
    case 'ending9': {
      if (v.lte(0)) return new Decimal(0);
      return Decimal.max(v.plus('0.01').toDecimalPlaces(1, Decimal.ROUND_HALF_UP).minus('0.01'), '0.09');
    }
  }
}

// --------------------------------------------------------------------------------------------- price lists

interface Title {
  id: number;
  code: string;
  name: string;
  kind: string;
  enabled: boolean;
}

async function titleOf(tenant: TypedTenant, id: number): Promise<Title> {
  const row = await tenant.select('priceTitle').select(['id', 'code', 'name', 'kind', 'enabled']).where('id', '=', id).executeTakeFirst();
  if (!row) throw bizError('COMMON_NOT_FOUND_4004', { entity: '价格表' });
  return { id: Number(row.id), code: String(row.code), name: String(row.name), kind: String(row.kind), enabled: Number(row.enabled) === 1 };
}

/** A price list that may be written: of the company and not stopped. */
async function writableTitle(tenant: TypedTenant, id: number): Promise<Title> {
  const title = await titleOf(tenant, id);
  if (!title.enabled) throw bizError('PRODUCT_PRICE_TITLE_STATUS_4005', {}, { priceTitleId: title.id, name: title.name });
  return title;
}

/** The price lists shown as matrix columns: the chosen ones (or all) of the company, purchase lists first. */
async function shownTitles(tenant: TypedTenant, ids: number[] | null | undefined, kind: string | null | undefined) {
  let q = tenant.select('priceTitle')
    .leftJoin('currency', (j) => j.onRef('currency.id', '=', 'priceTitle.currencyId').onRef('currency.companyId', '=', 'priceTitle.companyId'))
    .select(['priceTitle.id', 'priceTitle.code', 'priceTitle.name', 'priceTitle.kind', 'priceTitle.enabled', 'priceTitle.currencyId',
      'currency.currencyName', 'currency.currencyCharacter']);
  if (ids?.length) q = q.where('priceTitle.id', 'in', [...new Set(ids)]);
  if (kind) q = q.where('priceTitle.kind', '=', kind);
  const rows = await q.orderBy('priceTitle.kind').orderBy('priceTitle.code').orderBy('priceTitle.id').limit(100).execute();
  return rows.map((r) => {
    const enabled = Number(r.enabled) === 1;
    return {
      id: Number(r.id), code: String(r.code), name: String(r.name), kind: String(r.kind), kindText: r.kind === 'purchase' ? '采购价' : '销售价',
      currencyId: r.currencyId === null || r.currencyId === undefined ? null : Number(r.currencyId),
      currencyName: text(r.currencyName), currencyCharacter: text(r.currencyCharacter) ?? '', enabled,
      // The column title: a stopped list says so, its cells are read-only.
      label: enabled ? String(r.name) : `${String(r.name)}（停用）`,
    };
  });
}

// ------------------------------------------------------------------------------------------------ products

function like(dialect: Dialect, ref: string, pattern: string) {
  return dialect === 'postgres' ? sql<boolean>`${sql.ref(ref)} ilike ${pattern} escape '\\'` : sql<boolean>`${sql.ref(ref)} like ${pattern} escape '\\'`;
}

/** Code or name contains the keyword (case-insensitive), or the barcode equals it. */
function keywordFilter(q: Q, dialect: Dialect, keyword: string | null | undefined): Q {
  const k = keyword?.trim();
  if (!k) return q;
  const pattern = `%${k.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return q.where((eb) => eb.or([like(dialect, 'product.code', pattern), like(dialect, 'product.name', pattern), eb('product.barcode', '=', k)]));
}

/** A category and every category below it. */
async function categoryAndBelow(tenant: TypedTenant, id: number): Promise<number[]> {
  const rows = await tenant.select('category').select(['id', 'parentId']).execute();
  if (!rows.some((r) => Number(r.id) === id)) throw validationError([{ field: 'categoryId', message: '商品类别不存在' }]);
  const children = new Map<number, number[]>();
  for (const r of rows) if (r.parentId != null) children.set(Number(r.parentId), [...(children.get(Number(r.parentId)) ?? []), Number(r.id)]);
  const out = new Set<number>([id]);
  const stack = [id];
  while (stack.length) for (const c of children.get(stack.pop()!) ?? []) if (!out.has(c)) { out.add(c); stack.push(c); }
  return [...out];
}

/** Applies the product conditions (and a chosen set of products) to a query over `product`. */
async function productFilter(tenant: TypedTenant, dialect: Dialect, c: ProductConditions & { productIds?: number[] | null }): Promise<(q: Q) => Q> {
  const categories = c.categoryId ? await categoryAndBelow(tenant, c.categoryId) : undefined;
  const ids = c.productIds?.length ? [...new Set(c.productIds)] : undefined;
  return (q: Q) => {
    let out = q;
    if (ids) out = out.where('product.id', 'in', ids);
    if (categories) out = out.where('product.categoryId', 'in', categories);
    if (c.status) out = out.where('product.status', '=', c.status);
    return keywordFilter(out, dialect, c.keyword);
  };
}

const SORTABLE: Record<string, 'product.code' | 'product.name' | 'product.price' | 'product.specification'> = { code: 'product.code', name: 'product.name', price: 'product.price', specification: 'product.specification' };

// ------------------------------------------------------------------------------------------------- matrix

/** One page of products with one field per shown price list (`p<id>`: "12.30" or null), and the lists. */
export async function matrixList(ctx: CallContext, input: MatrixInput) {
  const tenant = TypedTenant.of(ctx.tenant);
  const titles = await shownTitles(tenant, input.priceTitleIds, input.kind);
  const where = await productFilter(tenant, ctx.database.dialect, input);
  const base = () => where(tenant.select('product'));
  const sortRef = SORTABLE[input.sort?.field ?? ''] ?? 'product.code';
  const dir = input.sort?.order === 'descend' ? 'desc' : 'asc';
  const offset = (input.page - 1) * input.pageSize;
  const rows = await base()
    .leftJoin('category', (j) => j.onRef('category.id', '=', 'product.categoryId').onRef('category.companyId', '=', 'product.companyId'))
    .select(['product.id', 'product.code', 'product.name', 'product.specification', 'product.unitSmall', 'product.price', 'product.status', 'category.name as categoryName'])
    .orderBy(sortRef, dir).orderBy('product.id', dir).limit(input.pageSize).offset(offset).execute();
  const total = rows.length < input.pageSize && (rows.length > 0 || offset === 0)
    ? offset + rows.length
    : Number((await base().select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
  const prices = new Map<string, unknown>();
  if (rows.length && titles.length) {
    const found = await tenant.select('productPrice').select(['productId', 'priceTitleId', 'price'])
      .where('productId', 'in', rows.map((r) => Number(r.id))).where('priceTitleId', 'in', titles.map((t) => t.id)).execute();
    for (const p of found) prices.set(`${Number(p.priceTitleId)}:${Number(p.productId)}`, p.price);
  }
  const list = rows.map((r) => {
    const out: Row = {
      id: Number(r.id), code: String(r.code), name: String(r.name), specification: text(r.specification), unitSmall: text(r.unitSmall),
      categoryName: text(r.categoryName), status: String(r.status), price: yuan(r.price ?? 0),
    };
    for (const t of titles) out[`p${t.id}`] = yuan(prices.get(`${t.id}:${Number(r.id)}`));
    return out;
  });
  return { list, total, page: input.page, pageSize: input.pageSize, priceTitles: titles };
}

// ---------------------------------------------------------------------------------------------- change log

interface PriceChange {
  titleId: number;
  productId: number;
  productCode: string;
  from: number | null;
  to: number | null;
}

/** One audit row per changed price, written in the caller's transaction (the change-log export reads them). */
async function logChanges(ctx: CallContext, db: DB, changes: PriceChange[], reason?: string): Promise<void> {
  const caller = ctx.caller!;
  const at = new Date().toISOString();
  const endpoint = `${ctx.family}:${ctx.entry.code}`;
  const rows = changes.map((c) => ({
    companyId: caller.company.id, accountId: caller.accountId, userName: caller.userName, at, ip: ctx.ip, endpoint,
    action: c.from === null ? 'create' : c.to === null ? 'remove' : 'update',
    entity: ENTITY, recordId: `${c.titleId}:${c.productId}`, recordLabel: c.productCode,
    changes: JSON.stringify([
      { field: 'price', title: '价格', from: yuan(c.from), to: yuan(c.to) },
      ...(reason ? [{ field: 'reason', title: '说明', from: null, to: reason }] : []),
    ]),
  }));
  for (let i = 0; i < rows.length; i += 500) await db.insertInto('auditLog').values(rows.slice(i, i + 500)).execute();
}

function isUniqueViolation(e: unknown): boolean {
  const code = (e as { code?: string }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

const priceConflict = () => bizError('COMMON_VERSION_CONFLICT_4009', { entity: '商品价格' });

/** Writes price changes: inserts for new prices, conditional updates/deletes (the price read must still be there). */
async function writeChanges(ctx: CallContext, db: DB, tenant: TypedTenant, changes: Array<PriceChange & { rowId: number | null }>): Promise<void> {
  const now = new Date().toISOString();
  const accountId = ctx.caller!.accountId;
  const inserts = changes.filter((c) => c.from === null && c.to !== null)
    .map((c) => ({ companyId: tenant.companyId, priceTitleId: c.titleId, productId: c.productId, price: c.to!, version: 1, createdAt: now, updatedAt: now, createdBy: accountId, updatedBy: accountId }));
  for (let i = 0; i < inserts.length; i += 500) await typed(db).insertInto('productPrice').values(inserts.slice(i, i + 500)).execute();
  for (const c of changes) {
    if (c.from === null || c.to !== null) continue;
    const res = await tenant.delete('productPrice').where('id', '=', c.rowId!).where('price', '=', c.from).executeTakeFirst();
    if (Number(res.numDeletedRows) !== 1) throw priceConflict();
  }
  // Updates 500 at a time, one statement each, each row only while it still holds the price that was
  // read. The ids go in a plain IN list, which PostgreSQL hashes; a row-value list `(id, price) in (...)`
  // made it test every pair against every row (16 s for 20,000 prices).
  const updates = changes.filter((c) => c.from !== null && c.to !== null);
  for (let i = 0; i < updates.length; i += 500) {
    const chunk = updates.slice(i, i + 500);
    const to = sql.join(chunk.map((c) => sql`when ${c.rowId} then cast(${c.to} as bigint)`), sql` `);
    const from = sql.join(chunk.map((c) => sql`when ${c.rowId} then cast(${c.from} as bigint)`), sql` `);
    const res = await tenant.update('productPrice')
      .set({ price: sql`case ${sql.ref('id')} ${to} end`, version: sql`${sql.ref('version')} + 1`, updatedAt: now, updatedBy: accountId })
      .where('id', 'in', chunk.map((c) => c.rowId!))
      .where(sql<boolean>`${sql.ref('price')} = case ${sql.ref('id')} ${from} end`)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== chunk.length) throw priceConflict();
  }
}

async function runWrite<T>(ctx: CallContext, fn: (db: DB, tenant: TypedTenant) => Promise<T>): Promise<T> {
  try {
    return await ctx.transaction((db, tenant) => fn(db, TypedTenant.of(tenant)));
  } catch (e) {
    // Two writers creating the same price at once: the second one lost the race.
    if (isUniqueViolation(e)) throw priceConflict();
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------- one price

/** Sets (or, with null / '', removes) one product's price on one list. */
export async function setPrice(ctx: CallContext, input: SetPriceInput) {
  const parsed = parsePrice(input.price);
  if ('error' in parsed) throw validationError([{ field: 'price', message: parsed.error }]);
  let expected: number | null | undefined;
  if (input.expected !== undefined) {
    const e = parsePrice(input.expected, '原价格');
    if ('error' in e) throw validationError([{ field: 'expected', message: e.error }]);
    expected = e.cents;
  }
  return runWrite(ctx, async (db, tenant) => {
    const title = await writableTitle(tenant, input.priceTitleId);
    const product = await tenant.select('product').select(['id', 'code']).where('id', '=', input.productId).executeTakeFirst();
    if (!product) throw bizError('PRODUCT_NOT_EXIST_4001');
    const current = await tenant.select('productPrice').select(['id', 'price'])
      .where('priceTitleId', '=', title.id).where('productId', '=', input.productId).executeTakeFirst();
    const from = current ? Number(current.price) : null;
    if (expected !== undefined && expected !== from) throw priceConflict();
    const result = { productId: input.productId, priceTitleId: title.id, price: yuan(parsed.cents), changed: from !== parsed.cents };
    if (!result.changed) return result;
    const change = { titleId: title.id, productId: input.productId, productCode: String(product.code), from, to: parsed.cents, rowId: current ? Number(current.id) : null };
    await writeChanges(ctx, db, tenant, [change]);
    await logChanges(ctx, db, [change]);
    return result;
  });
}

// -------------------------------------------------------------------------------------------- bulk adjust

type Basis = { kind: 'self' } | { kind: 'reference' } | { kind: 'title'; title: Title };

async function basisOf(tenant: TypedTenant, input: Pick<AdjustInput, 'basis' | 'basisTitleId' | 'priceTitleId'>): Promise<Basis> {
  const raw = input.basis ?? 'self';
  if (raw === 'self') return { kind: 'self' };
  if (raw === 'reference') return { kind: 'reference' };
  const id = raw === 'title' ? input.basisTitleId : /^\d{1,12}$/.test(String(raw)) ? Number(raw) : undefined;
  if (raw !== 'title' && id === undefined) throw validationError([{ field: 'basis', message: '调价基准取值不正确' }]);
  if (!id) throw validationError([{ field: 'basisTitleId', message: '请选择基准价格表' }]);
  if (id === input.priceTitleId) return { kind: 'self' };
  const title = await titleOf(tenant, id).catch((e) => {
    if (e instanceof ApiError) throw validationError([{ field: 'basisTitleId', message: '基准价格表不存在' }]);
    throw e;
  });
  return { kind: 'title', title };
}

function basisText(basis: Basis, target: Title, percent: Decimal, rounding: Rounding): string {
  const from = basis.kind === 'self' ? `按${target.name}现价` : basis.kind === 'reference' ? '按商品参考价' : `按${basis.title.name}`;
  return `批量调价：${from} ${percent.gte(0) ? '+' : ''}${percent.toFixed()}%，${ROUNDING_TEXT[rounding]}`;
}

/** Every price of one list, by product id. */
async function pricesOf(tenant: TypedTenant, titleId: number): Promise<Map<number, { id: number; price: number }>> {
  const rows = await tenant.select('productPrice').select(['id', 'productId', 'price']).where('priceTitleId', '=', titleId).execute();
  return new Map(rows.map((r) => [Number(r.productId), { id: Number(r.id), price: Number(r.price) }]));
}

interface Planned {
  productId: number;
  code: string;
  name: string;
  rowId: number | null;
  from: number | null;
  to: number;
}

interface Plan {
  target: Title;
  reason: string;
  matched: number;
  skipped: number;
  items: Planned[];
}

/** What an adjustment would do: every product in scope with a basis price, its current and new price. */
async function planAdjust(ctx: CallContext, tenant: TypedTenant, input: AdjustInput): Promise<Plan> {
  const target = await writableTitle(tenant, input.priceTitleId);
  const percent = parsePercent(input.percent);
  const rounding: Rounding = input.rounding ?? 'cent';
  const basis = await basisOf(tenant, input);
  const where = await productFilter(tenant, ctx.database.dialect, input);
  const rows = await where(tenant.select('product')).select(['product.id', 'product.code', 'product.name', 'product.price as reference'])
    .orderBy('product.code').orderBy('product.id').execute();
  // The lists' prices are read on their own and matched here: joined to the products, PostgreSQL planned a
  // nested loop over every price of the list for each product when its statistics were stale (just after
  // a large import), 60 s for 20,000 products.
  const current = await pricesOf(tenant, target.id);
  const basisPrices = basis.kind === 'title' ? await pricesOf(tenant, basis.title.id) : undefined;
  const factor = percent.div(100).plus(1);
  const items: Planned[] = [];
  let skipped = 0;
  for (const r of rows) {
    const held = current.get(Number(r.id));
    const from = held ? held.price : null;
    const basisCents = basis.kind === 'self' ? from : basis.kind === 'reference' ? Number(r.reference ?? 0) : (basisPrices!.get(Number(r.id))?.price ?? null);
    if (basisCents === null) { skipped++; continue; }
    const to = roundPrice(new Decimal(basisCents).div(100).times(factor), rounding).times(100);
    if (to.gt(MAX_CENTS)) {
      throw validationError([{ field: 'percent', message: `商品 ${String(r.code)} 调整后的价格 ${to.div(100).toFixed(2)} 超过上限 1,000,000,000.00` }]);
    }
    items.push({ productId: Number(r.id), code: String(r.code), name: String(r.name), rowId: held ? held.id : null, from, to: to.toNumber() });
  }
  return { target, reason: basisText(basis, target, percent, rounding), matched: rows.length, skipped, items };
}

function summary(plan: Plan) {
  const changed = plan.items.filter((i) => i.from !== i.to).length;
  return { priceTitleId: plan.target.id, matched: plan.matched, changed, unchanged: plan.items.length - changed, skipped: plan.skipped, description: plan.reason };
}

/**
 * Adjusts a list's prices by a percentage of a basis (the list itself, the product's reference price, or
 * another list), rounded by a rule, for the chosen products or every product matching the list's
 * conditions; products without a basis price are skipped. All or nothing, in one transaction. With
 * dryRun nothing is written and the first 50 before/after pairs come back.
 */
export async function adjustPrices(ctx: CallContext, input: AdjustInput) {
  if (input.dryRun) return previewAdjust(ctx, input);
  return runWrite(ctx, async (db, tenant) => {
    const plan = await planAdjust(ctx, tenant, input);
    const changes = plan.items.filter((i) => i.from !== i.to)
      .map((i) => ({ titleId: plan.target.id, productId: i.productId, productCode: i.code, from: i.from, to: i.to, rowId: i.rowId }));
    await writeChanges(ctx, db, tenant, changes);
    await logChanges(ctx, db, changes, plan.reason);
    return { ...summary(plan), dryRun: false };
  });
}

async function previewAdjust(ctx: CallContext, input: AdjustInput) {
  const plan = await planAdjust(ctx, TypedTenant.of(ctx.tenant), input);
  return {
    ...summary(plan), dryRun: true,
    samples: plan.items.slice(0, PREVIEW_ROWS).map((i) => ({ productId: i.productId, code: i.code, name: i.name, before: yuan(i.from), after: yuan(i.to), changed: i.from !== i.to })),
  };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The adjustment form's live preview ({body, format, missing} as the form preview widget reads it): the
 * counts and the first 50 before/after pairs as an HTML table, or what is still missing, or why the
 * adjustment would be refused.
 */
export async function adjustPreview(ctx: CallContext, input: Partial<AdjustInput>) {
  const missing: string[] = [];
  if (!input.priceTitleId) missing.push('价格表');
  if (input.percent === undefined || input.percent === null || String(input.percent).trim() === '' || String(input.percent).trim() === '-') missing.push('调整幅度');
  if (input.basis === 'title' && !input.basisTitleId) missing.push('基准价格表');
  const note = (html: string) => ({ body: html, format: 'html', missing });
  if (missing.length) return note('<p style="color:#999">填写价格表和调整幅度后显示调整前后的价格</p>');
  try {
    const r = await previewAdjust(ctx, input as AdjustInput);
    const cell = 'style="border:1px solid #eee;padding:2px 8px"';
    const num = 'style="border:1px solid #eee;padding:2px 8px;text-align:right"';
    const rows = r.samples.map((s) => `<tr${s.changed ? '' : ' style="color:#999"'}><td ${cell}>${escapeHtml(s.code)}</td><td ${cell}>${escapeHtml(s.name)}</td>`
      + `<td ${num}>${s.before ?? '-'}</td><td ${num}>${s.after ?? '-'}</td></tr>`).join('');
    const head = `<p>${escapeHtml(r.description)}</p><p>共 ${r.matched} 个商品：将调整 <b>${r.changed}</b> 个，不变 ${r.unchanged} 个，无基准价跳过 ${r.skipped} 个。`
      + `${r.samples.length ? `前 ${r.samples.length} 个：` : ''}</p>`;
    const table = r.samples.length
      ? `<table style="border-collapse:collapse;width:100%"><tr><th ${cell}>商品编码</th><th ${cell}>商品名称</th><th ${cell}>调整前</th><th ${cell}>调整后</th></tr>${rows}</table>`
      : '';
    return { ...note(head + table), counts: { matched: r.matched, changed: r.changed, unchanged: r.unchanged, skipped: r.skipped } };
  } catch (e) {
    if (e instanceof ApiError && e.code !== '500') return note(`<p style="color:#cf1322">${escapeHtml(e.message)}</p>`);
    throw e;
  }
}

// ------------------------------------------------------------------------------------------------- import

const COLUMNS = { productCode: '商品编码', price: '价格' } as const;

function positiveId(raw: unknown): number | undefined {
  const v = Array.isArray(raw) ? raw[0] : raw;
  const s = typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '';
  return /^\d{1,15}$/.test(s) && Number(s) > 0 ? Number(s) : undefined;
}

/**
 * Prices of one list (header priceTitleId, as the template 014021 is asked for) from a spreadsheet in
 * the template's shape: 商品编码 and 价格 (other columns ignored; an empty price leaves the price as it
 * is). All rows or none: any bad row refuses the file with a row-by-row report (COMMON_IMPORT_4012).
 */
export async function importPrices(ctx: CallContext) {
  const titleId = positiveId(ctx.headers.pricetitleid);
  if (!titleId) throw bizError('COMMON_HEADER_4016', { name: 'priceTitleId' });
  await writableTitle(TypedTenant.of(ctx.tenant), titleId);
  const upload = await readUploadedSpreadsheet(ctx);
  const rows = upload.sheet.rows.filter((x) => x.cells.some((c) => c !== null && !(typeof c === 'string' && !c.trim())));
  if (!rows.length) throw bizError('COMMON_IMPORT_EMPTY_4014');
  const errors: Array<{ row: number; field: string; message: string }> = [];
  const fail = () => importFailed(errors);
  for (const p of headerProblems(upload.sheet, rows[0], Object.values(COLUMNS))) errors.push({ ...p, field: '' });
  if (errors.length) throw fail();
  const header = headerIndex(rows[0].cells);
  for (const k of ['productCode', 'price'] as const) {
    if (header.get(normHeader(COLUMNS[k])) === undefined) errors.push({ row: rows[0].row, field: k, message: `缺少必填列“${COLUMNS[k]}”，请使用价格导入模板` });
  }
  if (errors.length) throw fail();
  const data = rows.slice(1);
  if (!data.length) { errors.push({ row: rows[0].row + 1, field: '', message: '文件中没有数据行' }); throw fail(); }
  if (data.length > MAX_IMPORT_ROWS) throw bizError('COMMON_IMPORT_ROWS_4017', { max: MAX_IMPORT_ROWS, count: data.length });

  const codeAt = header.get(normHeader(COLUMNS.productCode))!;
  const priceAt = header.get(normHeader(COLUMNS.price))!;
  const codes = [...new Set(data.map((r) => cellTextAt(r, codeAt)).filter(Boolean))];
  const products = new Map<string, number>();
  for (let i = 0; i < codes.length; i += 500) {
    const found = await TypedTenant.of(ctx.tenant).select('product').select(['id', 'code']).where('code', 'in', codes.slice(i, i + 500)).execute();
    for (const p of found) products.set(String(p.code), Number(p.id));
  }
  const wanted: Array<{ productId: number; code: string; cents: number }> = [];
  const seen = new Map<string, number>();
  let blank = 0;
  for (const r of data) {
    const err = (field: string, message: string) => errors.push({ row: r.row, field, message: `第 ${r.row} 行：${message}` });
    const code = cellTextAt(r, codeAt);
    if (!code) { err('productCode', `${COLUMNS.productCode}不能为空`); continue; }
    const productId = products.get(code);
    if (!productId) { err('productCode', `商品编码“${code.slice(0, 40)}”不存在`); continue; }
    const other = seen.get(code);
    if (other !== undefined) { err('productCode', `商品编码“${code.slice(0, 40)}”与第 ${other} 行重复`); continue; }
    seen.set(code, r.row);
    const p = parsePrice(r.cells[priceAt] ?? null);
    if ('error' in p) { err('price', p.error); continue; }
    if (p.cents === null) { blank++; continue; }
    wanted.push({ productId, code, cents: p.cents });
  }
  if (errors.length) throw fail();

  return runWrite(ctx, async (db, tenant) => {
    const title = await writableTitle(tenant, titleId);
    const current = new Map<number, Row>();
    const ids = wanted.map((w) => w.productId);
    for (let i = 0; i < ids.length; i += 500) {
      const found = await tenant.select('productPrice').select(['id', 'productId', 'price']).where('priceTitleId', '=', title.id).where('productId', 'in', ids.slice(i, i + 500)).execute();
      for (const f of found) current.set(Number(f.productId), f);
    }
    const changes = wanted.map((w) => {
      const row = current.get(w.productId);
      return { titleId: title.id, productId: w.productId, productCode: w.code, from: row ? Number(row.price) : null, to: w.cents, rowId: row ? Number(row.id) : null };
    }).filter((c) => c.from !== c.to);
    await writeChanges(ctx, db, tenant, changes);
    await logChanges(ctx, db, changes, `导入：${upload.fileName}`.slice(0, 200));
    const result = { created: changes.filter((c) => c.from === null).length, updated: changes.filter((c) => c.from !== null).length, unchanged: wanted.length - changes.length, skipped: blank };
    await ctx.audit({
      action: 'import', entity: 'priceTitle', recordId: title.id, recordLabel: `${title.name}：${upload.fileName}`.slice(0, 200),
      changes: [
        { field: 'created', title: '新增', from: null, to: result.created },
        { field: 'updated', title: '更新', from: null, to: result.updated },
        { field: 'unchanged', title: '未变化', from: null, to: result.unchanged },
      ],
    }, db);
    return result;
  });
}
