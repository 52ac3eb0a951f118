// Stock reads: the inventory list (product × warehouse, from stock_summary), stock by location
// (inventoryDistribution, from stock_balance) and a product's movements (from the ledger). Quantities
// are small units; every row also carries the big/mid/small split of the product's pack sizes.
import { sql } from 'kysely';
import { splitUnits, type PackSizes } from '../../../core/stock-units.ts';
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import type { Dialect } from '../../db/connection.ts';
import { bizError, validationError } from '../../http/errors.ts';
import { companyDateRange } from '../../../core/format.ts';
import { pageCacheOf, visibilityScope } from '../../resources/page-cache.ts';
import { keywordGrams } from '../../resources/keyword-grams.ts';
import { candidatesCondition, planKeyword, PRODUCT_KEYWORDS } from '../../resources/keyword-index.ts';
import { realDate } from '../../resources/fields.ts';
import { sqlTableName } from '../../db/table-writes.ts';
import { MOVE_KINDS, type MoveKind } from './ledger.ts';
import { STOCK_DOC_KINDS } from './documents.ts';
import { lookupKeyOf } from './locations.ts';
import { TypedTenant } from '../../db/typed.ts';

type Row = Record<string, unknown>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Q = any;

const PAGING = {
  page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1, title: '页码' },
  pageSize: { type: 'integer', minimum: 1, maximum: 500, default: 50, title: '每页条数' },
};

export const INVENTORY_INPUT: InputSchema = {
  type: 'object',
  properties: {
    ...PAGING,
    keyword: { type: ['string', 'null'], maxLength: 100, title: '商品编码或名称' },
    productId: { type: ['integer', 'null'], minimum: 1, title: '商品' },
    warehouseId: { type: ['integer', 'null'], minimum: 1, title: '仓库' },
    categoryId: { type: ['integer', 'null'], minimum: 1, title: '商品类别' },
    onlyInStock: { type: ['boolean', 'null'], title: '只看有库存' },
  },
};

export const DISTRIBUTION_INPUT: InputSchema = {
  type: 'object',
  properties: {
    ...PAGING,
    keyword: { type: ['string', 'null'], maxLength: 100, title: '商品编码或名称' },
    productId: { type: ['integer', 'null'], minimum: 1, title: '商品' },
    warehouseId: { type: ['integer', 'null'], minimum: 1, title: '仓库' },
    locationId: { type: ['integer', 'null'], minimum: 1, title: '库位' },
    lcCode: { type: ['string', 'null'], maxLength: 30, title: '库位编码' },
    zone: { type: ['string', 'null'], maxLength: 20, title: '库区' },
    onlyInStock: { type: ['boolean', 'null'], default: true, title: '只看有库存' },
  },
};

export const MOVEMENTS_INPUT: InputSchema = {
  type: 'object', required: ['productId'],
  properties: {
    ...PAGING,
    productId: { type: 'integer', minimum: 1, title: '商品' },
    warehouseId: { type: ['integer', 'null'], minimum: 1, title: '仓库' },
    kind: { enum: [...Object.keys(MOVE_KINDS), null], title: '变动类型' },
    dateFrom: { type: ['string', 'null'], maxLength: 10, title: '开始日期' },
    dateTo: { type: ['string', 'null'], maxLength: 10, title: '结束日期' },
  },
};

interface Paging { page: number; pageSize: number }

export interface InventoryInput extends Paging {
  keyword?: string | null;
  productId?: number | null;
  warehouseId?: number | null;
  categoryId?: number | null;
  onlyInStock?: boolean | null;
}

export interface DistributionInput extends Paging {
  keyword?: string | null;
  productId?: number | null;
  warehouseId?: number | null;
  locationId?: number | null;
  lcCode?: string | null;
  zone?: string | null;
  onlyInStock?: boolean | null;
}

export interface MovementsInput extends Paging {
  productId: number;
  warehouseId?: number | null;
  kind?: MoveKind | null;
  dateFrom?: string | null;
  dateTo?: string | null;
}

const text = (v: unknown) => (v === null || v === undefined ? null : String(v));

function packsOf(r: Row): PackSizes {
  return { bigQty: Number(r.bigQty ?? 1), midQty: Number(r.midQty ?? 1), unitBig: text(r.unitBig), unitMid: text(r.unitMid), unitSmall: text(r.unitSmall) };
}

/** SQLite's LIKE: case-insensitive for ASCII letters. */
function like(ref: string, pattern: string) {
  return sql<boolean>`${sql.ref(ref)} like ${pattern} escape '\\'`;
}

const contains = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

type Candidates = ReturnType<typeof candidatesCondition>;

/**
 * The product keyword index's narrowing of a keyword (resources/keyword-index.ts) for a query reading
 * `rows` rows, or counting, as a condition on `productRef` — the product id of the rows the query walks,
 * so that a row can be passed over before its product is read; null when the keyword is shorter than
 * two characters or the plan scans. Every product the keyword test below keeps holds the keyword's
 * grams (in its code, name or barcode).
 */
async function keywordCandidates(tenant: Tenant, dialect: Dialect, keyword: string | null | undefined, rows: number | 'count', productRef: string): Promise<Candidates> {
  const grams = keyword?.trim() ? keywordGrams(keyword.trim()) : null;
  if (!grams) return null;
  const plan = await planKeyword({ db: tenant.db, dialect, ix: PRODUCT_KEYWORDS, source: 'product', companyId: tenant.companyId, grams, rows, probe: dialect === 'sqlite' });
  return candidatesCondition(dialect, PRODUCT_KEYWORDS, tenant.companyId, plan, productRef);
}

/**
 * Products matching a keyword: code or name contains it (case-insensitive), or the barcode equals it.
 * A keyword with no cased characters (Chinese, digits) matches the same rows with a plain substring
 * test — instr() on SQLite, strpos() on PostgreSQL — which is several times cheaper over 100,000 names
 * than LIKE/ILIKE. `candidates` (keywordCandidates) narrows first.
 */
function keywordFilter(q: Q, dialect: Dialect, keyword: string | null | undefined, candidates: Candidates): Q {
  const k = keyword?.trim();
  if (!k) return q;
  if (candidates) q = q.where(candidates.sql);
  if (k.toLowerCase() === k.toUpperCase()) {
    const fn = dialect === 'postgres' ? 'strpos' : 'instr';
    return q.where((eb: Q) => eb.or([
      sql<boolean>`${sql.raw(fn)}(${sql.ref('product.code')}, ${k}) > 0`, sql<boolean>`${sql.raw(fn)}(${sql.ref('product.name')}, ${k}) > 0`, eb('product.barcode', '=', k),
    ]));
  }
  if (dialect === 'postgres') {
    // The same rows as ILIKE (which, in a UTF-8 database, compares lower() of both sides), but planned
    // like the test above: PostgreSQL guesses that ILIKE '%…%' matches almost nothing, so it reads every
    // product in a parallel scan (three processes per request) and sorts; with strpos it reads
    // product.code's index in page order and stops after the page.
    return q.where((eb: Q) => eb.or([
      sql<boolean>`strpos(lower(${sql.ref('product.code')}), lower(${k})) > 0`, sql<boolean>`strpos(lower(${sql.ref('product.name')}), lower(${k})) > 0`, eb('product.barcode', '=', k),
    ]));
  }
  const pattern = contains(k);
  return q.where((eb: Q) => eb.or([like('product.code', pattern), like('product.name', pattern), eb('product.barcode', '=', k)]));
}

/**
 * A page and its total. The total of the same criteria under the same write state (keptPage's token) is
 * counted once and reused between page turns; a short page gives the exact total without counting;
 * rows are always read.
 */
async function pageWithTotal<T>(ctx: CallContext, criteria: unknown, token: string, page: Paging, rows: () => Promise<T[]>, count: () => Promise<number>) {
  const cache = pageCacheOf(ctx.database);
  const key = `${visibilityScope(ctx)}\u0001${JSON.stringify(criteria)}`;
  let total = cache.total(key, token);
  const offset = (page.page - 1) * page.pageSize;
  // The first page is always read; a later one only when the total says it has rows.
  const fetched = total === undefined || total > offset || offset === 0;
  const list = fetched ? await rows() : [];
  if (fetched && list.length < page.pageSize && (list.length > 0 || offset === 0)) total = offset + list.length;
  else if (total === undefined) total = await cache.countOnce(key, token, count);
  cache.rememberTotal(key, token, total);
  return { list, total, page: page.page, pageSize: page.pageSize };
}

/** A category and all below it. */
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

function quantities(onHand: number, reserved: number, packs: PackSizes) {
  const available = onHand - reserved;
  return {
    onHand, reserved, available,
    // expected on open inbound tasks (confirmed inbound plans); filled in by withInbound
    inbound: 0,
    units: { onHand: splitUnits(onHand, packs), reserved: splitUnits(reserved, packs), available: splitUnits(available, packs) },
  };
}

/** Every table inventoryList reads (keptPage: a write to any of them makes a kept page stale). */
export const INVENTORY_TABLES = ['stockSummary', 'product', 'productKeyword', 'category', 'warehouse', 'inboundTaskLine', 'inboundTask', 'company'].map(sqlTableName);

/**
 * Inventory per product × warehouse: on hand, reserved (at locations + committed to sales orders),
 * available (= on hand − reserved), inbound.
 * `token`: the write state of INVENTORY_TABLES the page is read under (keptPage).
 */
export async function inventoryList(ctx: CallContext, input: InventoryInput, token: string) {
  const tenant = TypedTenant.of(ctx.tenant);
  const dialect = ctx.database.dialect;
  const productFilter = !!(input.keyword?.trim() || input.categoryId);
  const categories = input.categoryId ? await categoryAndBelow(tenant, input.categoryId) : undefined;
  const base = (joinProduct: boolean, candidates: Candidates): Q => {
    let q: Q = tenant.select('stockSummary');
    if (joinProduct) q = q.innerJoin('product', (j: Q) => j.onRef('product.id', '=', 'stockSummary.productId').onRef('product.companyId', '=', 'stockSummary.companyId'));
    if (input.productId) q = q.where('stockSummary.productId', '=', input.productId);
    if (input.warehouseId) q = q.where('stockSummary.warehouseId', '=', input.warehouseId);
    if (input.onlyInStock) q = q.where('stockSummary.onHand', '>', 0);
    if (categories) q = q.where('product.categoryId', 'in', categories);
    return keywordFilter(q, dialect, input.keyword, candidates);
  };
  const criteria = ['inventory', input.keyword?.trim() || null, input.productId ?? null, input.warehouseId ?? null, input.categoryId ?? null, !!input.onlyInStock];
  const count = async () => {
    const candidates = await keywordCandidates(ctx.tenant, dialect, input.keyword, 'count', 'product.id');
    const counted = await base(productFilter, candidates).select((eb: Q) => eb.fn.countAll().as('total')).executeTakeFirst();
    return Number(counted?.total ?? 0);
  };
  // Walked in product code order: product.id is at hand before the stock row is read.
  const rows = async () => (await base(true, await keywordCandidates(ctx.tenant, dialect, input.keyword, input.page * input.pageSize, 'product.id'))
    .innerJoin('warehouse', (j: Q) => j.onRef('warehouse.id', '=', 'stockSummary.warehouseId').onRef('warehouse.companyId', '=', 'stockSummary.companyId'))
    .select(['stockSummary.productId', 'stockSummary.warehouseId', 'stockSummary.onHand', 'stockSummary.reserved', 'stockSummary.committed', 'stockSummary.updatedAt',
      'product.code as productCode', 'product.name as productName', 'product.specification', 'product.categoryId', 'product.barcode',
      'product.bigQty', 'product.midQty', 'product.unitBig', 'product.unitMid', 'product.unitSmall',
      'warehouse.code as warehouseCode', 'warehouse.name as warehouseName'])
    .orderBy('product.code').orderBy('stockSummary.warehouseId')
    .limit(input.pageSize).offset((input.page - 1) * input.pageSize).execute()).map((r: Row) => {
    const packs = packsOf(r);
    return {
      productId: Number(r.productId), productCode: String(r.productCode), productName: String(r.productName), specification: text(r.specification),
      barcode: text(r.barcode), categoryId: r.categoryId == null ? null : Number(r.categoryId),
      warehouseId: Number(r.warehouseId), warehouseCode: String(r.warehouseCode), warehouseName: String(r.warehouseName),
      // reserved at locations (returns) and committed to sales orders: both are not available
      ...quantities(Number(r.onHand), Number(r.reserved) + Number(r.committed), packs),
      committed: Number(r.committed),
      bigQty: packs.bigQty, midQty: packs.midQty, unitBig: packs.unitBig, unitMid: packs.unitMid, unitSmall: packs.unitSmall,
      updatedAt: text(r.updatedAt),
    };
  });
  return pageWithTotal(ctx, criteria, token, input, async () => withInbound(tenant, await rows()), count);
}

/**
 * 在途: what confirmed inbound plans still expect per product × warehouse — the open quantity of their
 * inbound tasks that are open or being received. One grouped query for the page's products.
 */
async function withInbound<T extends { productId: number; warehouseId: number; inbound: number } & PackSizes>(tenant: TypedTenant, list: T[]): Promise<Array<T & { inboundUnits?: ReturnType<typeof splitUnits> }>> {
  if (!list.length) return list;
  const ids = [...new Set(list.map((r) => r.productId))];
  const open = await tenant.select('inboundTaskLine')
    .innerJoin('inboundTask', (j: Q) => j.onRef('inboundTask.id', '=', 'inboundTaskLine.taskId').onRef('inboundTask.companyId', '=', 'inboundTaskLine.companyId'))
    .select(['inboundTaskLine.productId', 'inboundTask.warehouseId', (eb: Q) => eb.fn.sum(eb('inboundTaskLine.qty', '-', eb.ref('inboundTaskLine.receivedQty'))).as('open')])
    .where('inboundTask.status', 'in', ['open', 'receiving']).where('inboundTaskLine.productId', 'in', ids)
    .groupBy(['inboundTaskLine.productId', 'inboundTask.warehouseId']).execute();
  const byKey = new Map(open.map((r) => [`${Number(r.productId)}:${Number(r.warehouseId)}`, Math.max(0, Number(r.open ?? 0))]));
  return list.map((r) => {
    const inbound = byKey.get(`${r.productId}:${r.warehouseId}`) ?? 0;
    return { ...r, inbound, inboundUnits: splitUnits(inbound, r) };
  });
}

/** Every table distributionList reads (keptPage). */
export const DISTRIBUTION_TABLES = ['stockBalance', 'product', 'productKeyword', 'location', 'warehouse', 'company'].map(sqlTableName);

/** Stock by location (inventoryDistribution): one row per product × warehouse × location. `token` as inventoryList's. */
export async function distributionList(ctx: CallContext, input: DistributionInput, token: string) {
  const tenant = TypedTenant.of(ctx.tenant);
  const dialect = ctx.database.dialect;
  const lcKey = input.lcCode?.trim() ? lookupKeyOf(input.lcCode) : '';
  if (input.lcCode?.trim() && !lcKey) throw validationError([{ field: 'lcCode', message: '库位编码去掉 -、S、Z、A、B 后为空' }]);
  const base = (candidates: Candidates): Q => {
    let q: Q = tenant.select('stockBalance')
      .innerJoin('product', (j: Q) => j.onRef('product.id', '=', 'stockBalance.productId').onRef('product.companyId', '=', 'stockBalance.companyId'))
      .leftJoin('location', (j: Q) => j.onRef('location.id', '=', 'stockBalance.locationId').onRef('location.companyId', '=', 'stockBalance.companyId'));
    if (input.productId) q = q.where('stockBalance.productId', '=', input.productId);
    if (input.warehouseId) q = q.where('stockBalance.warehouseId', '=', input.warehouseId);
    if (input.locationId) q = q.where('stockBalance.locationId', '=', input.locationId);
    if (lcKey) q = q.where('location.lookupKey', 'like', `${lcKey.replace(/[\\%_]/g, '')}%`);
    if (input.zone?.trim()) q = q.where('location.zone', '=', input.zone.trim());
    if (input.onlyInStock !== false) q = q.where((eb: Q) => eb.or([eb('stockBalance.onHand', '!=', 0), eb('stockBalance.reserved', '!=', 0)]));
    return keywordFilter(q, dialect, input.keyword, candidates);
  };
  const criteria = ['distribution', input.keyword?.trim() || null, input.productId ?? null, input.warehouseId ?? null, input.locationId ?? null, lcKey || null,
    input.zone?.trim() || null, input.onlyInStock !== false];
  const count = async () => {
    const counted = await base(await keywordCandidates(ctx.tenant, dialect, input.keyword, 'count', 'stockBalance.productId')).select((eb: Q) => eb.fn.countAll().as('total')).executeTakeFirst();
    return Number(counted?.total ?? 0);
  };
  // Index order (warehouse, location, product): pages stay cheap however many balances there are.
  const rows = async () => (await base(await keywordCandidates(ctx.tenant, dialect, input.keyword, input.page * input.pageSize, 'stockBalance.productId'))
    .innerJoin('warehouse', (j: Q) => j.onRef('warehouse.id', '=', 'stockBalance.warehouseId').onRef('warehouse.companyId', '=', 'stockBalance.companyId'))
    .select(['stockBalance.productId', 'stockBalance.warehouseId', 'stockBalance.locationId', 'stockBalance.onHand', 'stockBalance.reserved', 'stockBalance.updatedAt',
      'product.code as productCode', 'product.name as productName', 'product.specification',
      'product.bigQty', 'product.midQty', 'product.unitBig', 'product.unitMid', 'product.unitSmall',
      'warehouse.code as warehouseCode', 'warehouse.name as warehouseName', 'location.lcCode', 'location.zone', 'location.type as locationType', 'location.status as locationStatus'])
    .orderBy('stockBalance.warehouseId').orderBy('stockBalance.locationId').orderBy('stockBalance.productId')
    .limit(input.pageSize).offset((input.page - 1) * input.pageSize).execute()).map((r: Row) => {
    const packs = packsOf(r);
    return {
      productId: Number(r.productId), productCode: String(r.productCode), productName: String(r.productName), specification: text(r.specification),
      warehouseId: Number(r.warehouseId), warehouseCode: String(r.warehouseCode), warehouseName: String(r.warehouseName),
      locationId: Number(r.locationId) || null, lcCode: text(r.lcCode), zone: text(r.zone), locationType: text(r.locationType), locationStatus: text(r.locationStatus),
      ...quantities(Number(r.onHand), Number(r.reserved), packs),
      unitSmall: packs.unitSmall, updatedAt: text(r.updatedAt),
    };
  });
  return pageWithTotal(ctx, criteria, token, input, rows, count);
}

function dateBound(v: string | null | undefined, field: string, title: string): string | undefined {
  if (!v) return undefined;
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(v.trim());
  const d = m ? realDate(Number(m[1]), Number(m[2]), Number(m[3])) : undefined;
  if (!d) throw validationError([{ field, message: `${title}不是有效的日期（YYYY-MM-DD）` }]);
  return d;
}

/** Documents outside documents.ts that write ledger rows (procurement): their header table and title. */
const OTHER_LEDGER_DOCS: Record<string, { header: string; title: string }> = {
  receivingNote: { header: 'receivingNote', title: '收货单' },
  putaway: { header: 'putaway', title: '上架单' },
  returnPlan: { header: 'returnPlan', title: '退货出库计划' },
  stockTake: { header: 'stockTake', title: '盘点单' },
};

/** A product's ledger rows, newest first (the goods detail page's movements tab). */
export async function movementList(ctx: CallContext, input: MovementsInput) {
  const tenant = TypedTenant.of(ctx.tenant);
  const tz = ctx.caller?.company.timeZone ?? 8;
  const product = await tenant.select('product').select(['id', 'code', 'name', 'bigQty', 'midQty', 'unitBig', 'unitMid', 'unitSmall'])
    .where('id', '=', input.productId).executeTakeFirst();
  if (!product) throw bizError('PRODUCT_NOT_EXIST_4001');
  const from = dateBound(input.dateFrom, 'dateFrom', '开始日期');
  const to = dateBound(input.dateTo, 'dateTo', '结束日期');
  let where = tenant.select('stockMove').where('stockMove.productId', '=', input.productId);
  if (input.warehouseId) where = where.where('stockMove.warehouseId', '=', input.warehouseId);
  if (input.kind) where = where.where('stockMove.kind', '=', input.kind);
  if (from) where = where.where('stockMove.createdAt', '>=', companyDateRange(from, from, tz)[0]);
  if (to) where = where.where('stockMove.createdAt', '<=', companyDateRange(to, to, tz)[1]);
  const counted = await where.select((eb) => eb.fn.countAll().as('total')).executeTakeFirst();
  const total = Number(counted?.total ?? 0);
  const offset = (input.page - 1) * input.pageSize;
  const rows = total > offset
    ? (await where
      .innerJoin('warehouse', (j) => j.onRef('warehouse.id', '=', 'stockMove.warehouseId').onRef('warehouse.companyId', '=', 'stockMove.companyId'))
      .leftJoin('location', (j) => j.onRef('location.id', '=', 'stockMove.locationId').onRef('location.companyId', '=', 'stockMove.companyId'))
      .leftJoin('account', (j) => j.onRef('account.id', '=', 'stockMove.accountId').onRef('account.companyId', '=', 'stockMove.companyId'))
      .select(['stockMove.id', 'stockMove.warehouseId', 'stockMove.locationId', 'stockMove.qty', 'stockMove.reservedQty', 'stockMove.kind', 'stockMove.docType',
        'stockMove.docId', 'stockMove.docLine', 'stockMove.createdAt', 'warehouse.code as warehouseCode', 'warehouse.name as warehouseName', 'location.lcCode',
        'account.userName'])
      .orderBy('stockMove.id', 'desc').limit(input.pageSize).offset(offset).execute())
    : [];
  // Document numbers, one query per document type on the page.
  const docNos = new Map<string, string>();
  const byType = new Map<string, number[]>();
  for (const r of rows) byType.set(String(r.docType), [...(byType.get(String(r.docType)) ?? []), Number(r.docId)]);
  for (const [type, ids] of byType) {
    const kind = STOCK_DOC_KINDS[type] ?? OTHER_LEDGER_DOCS[type];
    if (!kind) continue;
    // (the header table is named by the move's document type: the untyped view)
    const docs = await ctx.tenant.select(kind.header).select(['id', 'docNo']).where('id', 'in', [...new Set(ids)]).execute();
    for (const d of docs) docNos.set(`${type}:${String(d.id)}`, String(d.docNo));
  }
  const packs = packsOf(product);
  const list = rows.map((r) => ({
    id: Number(r.id), kind: String(r.kind), kindText: MOVE_KINDS[String(r.kind) as MoveKind] ?? String(r.kind),
    warehouseId: Number(r.warehouseId), warehouseCode: String(r.warehouseCode), warehouseName: String(r.warehouseName),
    locationId: r.locationId == null ? null : Number(r.locationId), lcCode: text(r.lcCode),
    qty: Number(r.qty), reservedQty: Number(r.reservedQty), units: splitUnits(Number(r.qty), packs),
    docType: String(r.docType), docTitle: (STOCK_DOC_KINDS[String(r.docType)] ?? OTHER_LEDGER_DOCS[String(r.docType)])?.title ?? String(r.docType), docId: Number(r.docId),
    docNo: docNos.get(`${String(r.docType)}:${String(r.docId)}`) ?? null, docLine: r.docLine == null ? null : Number(r.docLine),
    userName: text(r.userName), createdAt: String(r.createdAt),
  }));
  return {
    product: { id: Number(product.id), code: String(product.code), name: String(product.name), unitSmall: packs.unitSmall },
    list, total, page: input.page, pageSize: input.pageSize,
  };
}
