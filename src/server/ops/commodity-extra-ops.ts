// Commodity screens beyond the product list: competitor products with their latest observed price and
// the gap to our sale price (competing), a product's versions and a field-by-field comparison of two of
// them (diffInfo), the product display order (sortList) and the products that have an image
// (imageDownload). Every query is scoped by the caller's company.
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import type { CallContext, OpHandler } from '../catalog/context.ts';
import { acceptingFilters } from '../catalog/list-filters.ts';
import type { Tenant } from '../catalog/tenant.ts';
import type { Dialect } from '../db/connection.ts';
import { bizError, validationError } from '../http/errors.ts';
import { fetchRow } from '../resources/index.ts';
import { display } from '../resources/fields.ts';
import type { Field, Resource, ResourceRegistry } from '../resources/types.ts';
import { listPresaleItems, PRESALE_ITEMS_INPUT, setPresaleSort, type PresaleItemsInput } from '../domain/commodity/presale-items.ts';
import type { OpsDeps } from './index.ts';

type Row = Record<string, unknown>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Q = any;

const PAGING = {
  page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1, title: '页码' },
  pageSize: { type: 'integer', minimum: 1, maximum: 500, default: 20, title: '每页条数' },
};
const KEYWORD = { type: ['string', 'null'], maxLength: 100, title: '关键字' };
const PRODUCT_ID = { type: ['integer', 'null'], minimum: 1, title: '商品' };
const PRODUCT_CODE = { type: ['string', 'null'], maxLength: 30, title: '商品编码' };

interface Paging { page: number; pageSize: number }

const text = (v: unknown) => (v === null || v === undefined ? null : String(v));

// ------------------------------------------------------------------------------------------ shared parts

function like(dialect: Dialect, ref: string, pattern: string) {
  return dialect === 'postgres' ? sql<boolean>`${sql.ref(ref)} ilike ${pattern} escape '\\'` : sql<boolean>`${sql.ref(ref)} like ${pattern} escape '\\'`;
}

const contains = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Product code or name contains the keyword (case-insensitive), or the barcode equals it. */
function productKeyword(q: Q, dialect: Dialect, keyword: string | null | undefined, extra: string[] = []): Q {
  const k = keyword?.trim();
  if (!k) return q;
  const pattern = contains(k);
  return q.where((eb: Q) => eb.or([
    like(dialect, 'product.code', pattern), like(dialect, 'product.name', pattern), eb('product.barcode', '=', k),
    ...extra.map((ref) => like(dialect, ref, pattern)),
  ]));
}

/** One page and the total of a query (rows and count built from the same conditions). */
async function page(base: () => Q, p: Paging, order: (q: Q) => Q, select: (q: Q) => Q): Promise<{ list: Row[]; total: number }> {
  const offset = (p.page - 1) * p.pageSize;
  const list = (await order(select(base())).limit(p.pageSize).offset(offset).execute()) as Row[];
  const total = list.length < p.pageSize && (list.length > 0 || offset === 0)
    ? offset + list.length
    : Number(((await base().select((eb: Q) => eb.fn.countAll().as('n')).executeTakeFirst()) as Row | undefined)?.n ?? 0);
  return { list, total };
}

/** A product of the company by id or code; PRODUCT_NOT_EXIST_4001 when there is none. */
async function productOf(tenant: Tenant, input: { productId?: number | null; productCode?: string | null; id?: number | null }): Promise<Row> {
  const id = input.productId ?? input.id ?? null;
  const code = input.productCode?.trim();
  let q = tenant.select('product').selectAll();
  if (id !== null) q = q.where('id', '=', id);
  else if (code) q = q.where('code', '=', code);
  else throw validationError([{ field: 'productCode', message: '请填写商品编码' }]);
  const row = (await q.executeTakeFirst()) as Row | undefined;
  if (!row) throw bizError('PRODUCT_NOT_EXIST_4001');
  return row;
}

// -------------------------------------------------------------------------------------------- competing

interface CompetingInput extends Paging {
  keyword?: string | null;
  competitorId?: number | null;
  productId?: number | null;
}

const COMPETING_INPUT = {
  type: 'object',
  properties: {
    ...PAGING,
    keyword: KEYWORD,
    competitorId: { type: ['integer', 'null'], minimum: 1, title: '竞争对手' },
    productId: PRODUCT_ID,
  },
};

/** Our sale price per product: the caller's default sale price list, else the product's reference price. */
async function ourPrices(ctx: CallContext, productIds: number[], base: Row | undefined): Promise<Map<number, { price: Decimal; currencyId: number | null; currencyName: string | null; source: string }>> {
  const tenant = ctx.tenant;
  const out = new Map<number, { price: Decimal; currencyId: number | null; currencyName: string | null; source: string }>();
  if (!productIds.length) return out;
  const account = await tenant.select('account').select('salePriceId').where('id', '=', ctx.caller!.accountId).executeTakeFirst();
  const title = account?.salePriceId
    ? ((await tenant.select('priceTitle')
      .leftJoin('currency', (j) => j.onRef('currency.id', '=', 'priceTitle.currencyId').onRef('currency.companyId', '=', 'priceTitle.companyId'))
      .select(['priceTitle.id', 'priceTitle.name', 'priceTitle.currencyId', 'currency.currencyName'])
      .where('priceTitle.id', '=', account.salePriceId as number).where('priceTitle.kind', '=', 'sale').executeTakeFirst()) as Row | undefined)
    : undefined;
  if (title) {
    const rows = (await tenant.select('productPrice').select(['productId', 'price'])
      .where('priceTitleId', '=', title.id as number).where('productId', 'in', productIds).execute()) as Row[];
    const currencyId = title.currencyId === null || title.currencyId === undefined ? (base ? Number(base.id) : null) : Number(title.currencyId);
    const currencyName = text(title.currencyName) ?? text(base?.currencyName);
    for (const r of rows) out.set(Number(r.productId), { price: new Decimal(String(r.price)).div(100), currencyId, currencyName, source: String(title.name) });
  }
  const missing = productIds.filter((id) => !out.has(id));
  if (missing.length) {
    const rows = (await tenant.select('product').select(['id', 'price']).where('id', 'in', missing).execute()) as Row[];
    for (const r of rows) {
      out.set(Number(r.id), { price: new Decimal(String(r.price ?? 0)).div(100), currencyId: base ? Number(base.id) : null, currencyName: text(base?.currencyName), source: '参考价' });
    }
  }
  return out;
}

async function competingList(ctx: CallContext, input: CompetingInput) {
  const { tenant } = ctx;
  const dialect = ctx.database.dialect;
  const base = () => {
    let q = tenant.select('competitorProduct')
      .innerJoin('competitor', (j) => j.onRef('competitor.id', '=', 'competitorProduct.competitorId').onRef('competitor.companyId', '=', 'competitorProduct.companyId'))
      .innerJoin('product', (j) => j.onRef('product.id', '=', 'competitorProduct.productId').onRef('product.companyId', '=', 'competitorProduct.companyId'));
    if (input.competitorId) q = q.where('competitorProduct.competitorId', '=', input.competitorId);
    if (input.productId) q = q.where('competitorProduct.productId', '=', input.productId);
    return productKeyword(q, dialect, input.keyword, ['competitorProduct.name', 'competitorProduct.code', 'competitor.name']);
  };
  // The latest observation of each row: the first in (observed_on desc, id desc), found by index.
  const latest = sql`(select p2.id from competitor_price p2 where p2.company_id = competitor_product.company_id
    and p2.competitor_product_id = competitor_product.id order by p2.observed_on desc, p2.id desc limit 1)`;
  const { list, total } = await page(base, input, (q) => q.orderBy('product.code').orderBy('competitor.name').orderBy('competitorProduct.id'), (q) => q
    .leftJoin('competitorPrice as lp', (j: Q) => j.on(sql`${sql.ref('lp.id')} = ${latest}`))
    .leftJoin('currency as lc', (j: Q) => j.onRef('lc.id', '=', 'lp.currencyId').onRef('lc.companyId', '=', 'competitorProduct.companyId'))
    .select([
      'competitorProduct.id', 'competitorProduct.version', 'competitorProduct.competitorId', 'competitor.name as competitorName',
      'competitorProduct.code', 'competitorProduct.name', 'competitorProduct.specification', 'competitorProduct.remark',
      'competitorProduct.productId', 'product.code as productCode', 'product.name as productName', 'product.specification as productSpecification',
      'product.imageId', 'competitorProduct.updatedAt',
      'lp.price as latestPrice', 'lp.currencyId as latestCurrencyId', 'lc.currencyName as latestCurrencyName', 'lp.observedOn as latestObservedOn', 'lp.source as latestSource',
    ]));
  const baseCurrency = (await tenant.select('currency').select(['id', 'currencyName']).where('isBase', '=', 1).executeTakeFirst()) as Row | undefined;
  const ours = await ourPrices(ctx, [...new Set(list.map((r) => Number(r.productId)))], baseCurrency);
  return {
    total, page: input.page, pageSize: input.pageSize,
    list: list.map((r) => {
      const theirs = r.latestPrice === null || r.latestPrice === undefined ? null : new Decimal(String(r.latestPrice)).div(10_000);
      const theirCurrency = r.latestCurrencyId === null || r.latestCurrencyId === undefined ? (baseCurrency ? Number(baseCurrency.id) : null) : Number(r.latestCurrencyId);
      const our = ours.get(Number(r.productId));
      // A gap only means something in one currency; no conversion is guessed here.
      const comparable = theirs !== null && our !== undefined && our.currencyId === theirCurrency;
      const gap = comparable ? our!.price.minus(theirs!) : null;
      return {
        id: Number(r.id), version: Number(r.version),
        competitorId: Number(r.competitorId), competitorName: r.competitorName,
        code: r.code ?? null, name: r.name, specification: r.specification ?? null, remark: r.remark ?? null,
        productId: Number(r.productId), productCode: r.productCode, productName: r.productName, productSpecification: r.productSpecification ?? null,
        imageId: r.imageId ?? null, updatedAt: r.updatedAt,
        latestPrice: theirs === null ? null : theirs.toFixed(4),
        latestCurrencyId: r.latestCurrencyId === null || r.latestCurrencyId === undefined ? null : Number(r.latestCurrencyId),
        latestCurrencyName: theirs === null ? null : text(r.latestCurrencyName) ?? text(baseCurrency?.currencyName),
        latestObservedOn: r.latestObservedOn ?? null, latestSource: r.latestSource ?? null,
        ourPrice: our ? our.price.toFixed(2) : null, ourPriceSource: our?.source ?? null, ourCurrencyName: our?.currencyName ?? null,
        priceGap: gap === null ? null : gap.toFixed(4),
        priceGapRate: gap === null || theirs!.isZero() ? null : gap.div(theirs!).times(100).toDecimalPlaces(2).toNumber(),
      };
    }),
  };
}

// ------------------------------------------------------------------------------------ versions and diff

interface Change { field?: string; title?: string; from?: unknown; to?: unknown }

interface Version {
  version: number;
  auditId: number | null;
  at: string | null;
  userName: string | null;
  action: string | null;
  changes: Change[];
}

/** What a reader sees of a field (labels for references, enums and booleans), as the audit log writes it. */
function shownFields(product: Resource): Field[] {
  return product.fields.filter((f) => f.type !== 'password' && f.type !== 'json');
}

function parseChanges(v: unknown): Change[] {
  let list: unknown = v;
  if (typeof v === 'string') {
    try { list = JSON.parse(v); } catch { return []; }
  }
  return Array.isArray(list) ? (list as Change[]) : [];
}

/** A change entry that only moved the product in the display order (no product version). */
const sortOnly = (changes: Change[]) => changes.length > 0 && changes.every((c) => c.field === SORT_FIELD);

/**
 * The versions of a product, newest first. Every create/update of the product writes one audit entry and
 * (updates) adds one to its version, so the newest update entry made the current version, the one before
 * it the version before, and so on; a product created by import has no entry for version 1.
 */
async function productHistory(ctx: CallContext, reg: ResourceRegistry, product: Resource, row: Row): Promise<{ current: Row; versions: Version[] }> {
  const exposed = (await fetchRow(reg, product, ctx.tenant, Number(row.id)))!;
  const current: Row = {};
  for (const f of shownFields(product)) {
    current[f.name] = f.type === 'reference' ? (exposed[f.labelAs!] ?? exposed[f.name] ?? null) : display(f, exposed[f.name]);
  }
  const entries = (await ctx.tenant.select('auditLog').select(['id', 'at', 'userName', 'action', 'changes'])
    .where('entity', '=', product.name).where('recordId', '=', String(row.id)).where('action', 'in', ['create', 'update'])
    .orderBy('id', 'desc').limit(5000).execute()) as Row[];
  const latest = Number(row.version);
  const byVersion = new Map<number, Version>();
  let v = latest;
  for (const e of entries) {
    const changes = parseChanges(e.changes);
    if (e.action === 'update' && sortOnly(changes)) continue;
    const version = e.action === 'create' ? 1 : v--;
    if (version < 1 || byVersion.has(version)) continue;
    byVersion.set(version, { version, auditId: Number(e.id), at: text(e.at), userName: text(e.userName), action: text(e.action), changes });
  }
  const versions: Version[] = [];
  for (let k = latest; k >= 1; k--) versions.push(byVersion.get(k) ?? { version: k, auditId: null, at: null, userName: null, action: null, changes: [] });
  return { current, versions };
}

/** The fields as they were at a version: the current values with every later change undone. */
function stateAt(product: Resource, current: Row, versions: Version[], k: number): Row {
  const state = { ...current };
  for (const v of versions) {
    if (v.version <= k) break;
    for (const c of v.changes) if (c.field && product.fieldMap.has(c.field)) state[c.field] = c.from ?? null;
  }
  return state;
}

const shown = (v: unknown): string | null => (v === null || v === undefined || v === '' ? null : typeof v === 'object' ? JSON.stringify(v) : String(v));

interface VersionInput extends Paging {
  productId?: number | null;
  productCode?: string | null;
  fromVersion?: number | null;
  toVersion?: number | null;
  onlyChanged?: boolean | null;
}

const VERSION_INPUT = {
  type: 'object',
  properties: {
    ...PAGING,
    productId: PRODUCT_ID,
    productCode: PRODUCT_CODE,
    fromVersion: { type: ['integer', 'null'], minimum: 1, maximum: 1_000_000, title: '对比版本' },
    toVersion: { type: ['integer', 'null'], minimum: 1, maximum: 1_000_000, title: '目标版本' },
    onlyChanged: { type: ['boolean', 'null'], title: '只看有变化的字段' },
  },
};

const ACTION_TEXT: Record<string, string> = { create: '新增', update: '修改' };

async function versionList(ctx: CallContext, reg: ResourceRegistry, product: Resource, input: VersionInput) {
  if (!input.productId && !input.productCode?.trim()) return { list: [], total: 0, page: 1, pageSize: input.pageSize };
  const row = await productOf(ctx.tenant, input);
  const { versions } = await productHistory(ctx, reg, product, row);
  const start = (input.page - 1) * input.pageSize;
  return {
    total: versions.length, page: input.page, pageSize: input.pageSize,
    list: versions.slice(start, start + input.pageSize).map((v) => ({
      id: v.version, version: v.version, current: v.version === Number(row.version),
      at: v.at, userName: v.userName, action: v.action,
      actionText: v.action ? ACTION_TEXT[v.action] ?? v.action : v.version === 1 ? '新增（导入或初始数据）' : '（无记录）',
      changes: v.changes,
    })),
  };
}

async function versionDiff(ctx: CallContext, reg: ResourceRegistry, product: Resource, input: VersionInput) {
  if (!input.productId && !input.productCode?.trim()) return { list: [], total: 0, page: 1, pageSize: input.pageSize };
  const row = await productOf(ctx.tenant, input);
  const latest = Number(row.version);
  const to = input.toVersion ?? latest;
  const from = input.fromVersion ?? Math.max(1, to - 1);
  const errors = [];
  if (to > latest) errors.push({ field: 'toVersion', message: `目标版本不能大于当前版本 ${latest}` });
  if (from > latest) errors.push({ field: 'fromVersion', message: `对比版本不能大于当前版本 ${latest}` });
  if (errors.length) throw validationError(errors);
  const { current, versions } = await productHistory(ctx, reg, product, row);
  const a = stateAt(product, current, versions, from);
  const b = stateAt(product, current, versions, to);
  const rows = shownFields(product).map((f) => {
    const before = shown(a[f.name]);
    const after = shown(b[f.name]);
    return { field: f.name, title: f.title, before, after, changed: before !== after };
  }).filter((r) => !input.onlyChanged || r.changed);
  const info = (k: number) => versions.find((v) => v.version === k);
  return {
    total: rows.length, page: 1, pageSize: rows.length,
    list: rows,
    productId: Number(row.id), productCode: row.code, productName: row.name,
    fromVersion: from, toVersion: to, currentVersion: latest,
    fromAt: info(from)?.at ?? null, toAt: info(to)?.at ?? null,
  };
}

// ------------------------------------------------------------------------------------------ display order

const SORT_FIELD = 'sortNo';
const SORT_TITLE = '排序号';
const MAX_SORT_NO = 999_999_999;

interface SortListInput extends Paging {
  keyword?: string | null;
  scope?: 'sorted' | 'unsorted' | null;
  categoryId?: number | null;
}

const PRODUCT_COLUMNS = ['product.id', 'product.code', 'product.name', 'product.barcode', 'product.specification', 'product.imageId', 'product.status', 'product.categoryId', 'product.updatedAt'];

function withCategory(q: Q): Q {
  return q.leftJoin('category', (j: Q) => j.onRef('category.id', '=', 'product.categoryId').onRef('category.companyId', '=', 'product.companyId'))
    .select('category.name as categoryName');
}

const STATUS_TEXT: Record<string, string> = { onSale: '在售', stopped: '停售' };

function productRow(r: Row): Row {
  return {
    id: Number(r.id), code: r.code, name: r.name, barcode: r.barcode ?? null, specification: r.specification ?? null,
    imageId: r.imageId ?? null, status: r.status, statusText: STATUS_TEXT[String(r.status)] ?? r.status,
    categoryId: r.categoryId === null || r.categoryId === undefined ? null : Number(r.categoryId), categoryName: r.categoryName ?? null,
    updatedAt: r.updatedAt,
  };
}

async function sortList(ctx: CallContext, input: SortListInput) {
  const unsorted = input.scope === 'unsorted';
  const base = () => {
    let q = ctx.tenant.select('product').where('product.sortNo', unsorted ? 'is' : 'is not', null);
    if (input.categoryId) q = q.where('product.categoryId', '=', input.categoryId);
    return productKeyword(q, ctx.database.dialect, input.keyword);
  };
  const { list, total } = await page(base, input,
    (q) => (unsorted ? q.orderBy('product.code') : q.orderBy('product.sortNo')).orderBy('product.id'),
    (q) => withCategory(q.select([...PRODUCT_COLUMNS, 'product.sortNo'])));
  return {
    total, page: input.page, pageSize: input.pageSize,
    list: list.map((r) => ({ ...productRow(r), sortNo: r.sortNo === null || r.sortNo === undefined ? null : Number(r.sortNo), sorted: r.sortNo !== null && r.sortNo !== undefined })),
  };
}

function isUniqueViolation(e: unknown): boolean {
  const code = (e as { code?: string }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

const sortConflict = () => bizError('COMMON_VERSION_CONFLICT_4009', { entity: '商品排序' });

async function takenBy(tenant: Tenant, sortNo: number, except: number): Promise<Row | undefined> {
  return (await tenant.select('product').select(['id', 'code', 'name']).where('sortNo', '=', sortNo).where('id', '!=', except).executeTakeFirst()) as Row | undefined;
}

const taken = (sortNo: number, other: Row) => validationError([{ field: SORT_FIELD, message: `${SORT_TITLE} ${sortNo} 已被商品 ${String(other.code)} ${String(other.name)} 使用` }]);

/** Writes one product's number (null: out of the list) if it still holds `from`; audited on the product. */
async function writeSortNo(ctx: CallContext, db: Parameters<Parameters<CallContext['transaction']>[0]>[0], tenant: Tenant, p: Row, from: number | null, to: number | null, audit = true) {
  const res = await tenant.update('product').set({ sortNo: to })
    .where('id', '=', Number(p.id)).where('sortNo', from === null ? 'is' : '=', from).executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw sortConflict();
  if (audit) {
    await ctx.audit({
      action: 'update', entity: 'product', recordId: Number(p.id), recordLabel: String(p.name),
      changes: [{ field: SORT_FIELD, title: SORT_TITLE, from, to }],
    }, db);
  }
}

const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

class LastNumberTaken extends Error {}

async function sortSave(ctx: CallContext, input: { id?: number | null; productCode?: string | null; sortNo?: number | null }) {
  // Two clerks appending at once both read the same last number; the loser simply takes the next one.
  for (let attempt = 1; ; attempt++) {
    try {
      return await sortSaveOnce(ctx, input);
    } catch (e) {
      if (!(isUniqueViolation(e) || e instanceof LastNumberTaken) || input.sortNo != null) throw e;
      if (attempt >= 5) throw sortConflict();
    }
  }
}

async function sortSaveOnce(ctx: CallContext, input: { id?: number | null; productCode?: string | null; sortNo?: number | null }) {
  try {
    return await ctx.transaction(async (db, tenant) => {
      const p = await productOf(tenant, { id: input.id, productCode: input.productCode });
      const before = numOrNull(p.sortNo);
      let to = input.sortNo ?? null;
      if (to === null) {
        if (before !== null) return { id: Number(p.id), sortNo: before };
        const top = await tenant.select('product').select((eb: Q) => eb.fn.max('sortNo').as('m')).executeTakeFirst();
        to = Math.min(MAX_SORT_NO, Number((top as Row | undefined)?.m ?? 0) + 1);
      }
      if (to === before) return { id: Number(p.id), sortNo: to };
      const other = await takenBy(tenant, to, Number(p.id));
      // Appending: another clerk committed the same next number between our two reads — take the next.
      if (other && input.sortNo == null) throw new LastNumberTaken();
      if (other) throw taken(to, other);
      await writeSortNo(ctx, db, tenant, p, before, to);
      return { id: Number(p.id), code: p.code, sortNo: to };
    });
  } catch (e) {
    // Two clerks gave two products the same number at once: the unique index stopped the second.
    if (isUniqueViolation(e) && input.sortNo != null) throw validationError([{ field: SORT_FIELD, message: `${SORT_TITLE} ${input.sortNo} 已被其他商品使用` }]);
    throw e;
  }
}

async function sortMove(ctx: CallContext, input: { id: number; direction: 'up' | 'down' }) {
  try {
    return await ctx.transaction(async (db, tenant) => {
      const p = await productOf(tenant, { id: input.id });
      const mine = numOrNull(p.sortNo);
      if (mine === null) throw validationError([{ field: 'id', message: `商品 ${String(p.code)} 不在排序列表中，请先加入排序` }]);
      const up = input.direction === 'up';
      const neighbour = (await tenant.select('product').select(['id', 'code', 'name', 'sortNo'])
        .where('sortNo', up ? '<' : '>', mine).orderBy('sortNo', up ? 'desc' : 'asc').limit(1).executeTakeFirst()) as Row | undefined;
      if (!neighbour) throw validationError([{ field: 'direction', message: up ? '已经是第一个，不能上移' : '已经是最后一个，不能下移' }]);
      const theirs = Number(neighbour.sortNo);
      // Swap through NULL: the unique index never sees two products holding one number.
      await writeSortNo(ctx, db, tenant, p, mine, null, false);
      await writeSortNo(ctx, db, tenant, neighbour, theirs, mine);
      await writeSortNo(ctx, db, tenant, { ...p, sortNo: null }, null, theirs, false);
      await ctx.audit({ action: 'update', entity: 'product', recordId: Number(p.id), recordLabel: String(p.name), changes: [{ field: SORT_FIELD, title: SORT_TITLE, from: mine, to: theirs }] }, db);
      return { id: Number(p.id), sortNo: theirs, swappedWith: { id: Number(neighbour.id), code: neighbour.code, sortNo: mine } };
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw sortConflict();
    throw e;
  }
}

async function sortRemove(ctx: CallContext, input: { id?: number; ids?: number[] }) {
  const ids = [...new Set([...(input.ids ?? []), ...(input.id ? [input.id] : [])])];
  if (!ids.length) throw validationError([{ field: 'ids', message: '请选择要移出排序的商品' }]);
  return ctx.transaction(async (db, tenant) => {
    const rows = (await tenant.select('product').select(['id', 'code', 'name', 'sortNo']).where('id', 'in', ids).execute()) as Row[];
    if (rows.length !== ids.length) throw bizError('PRODUCT_NOT_EXIST_4001');
    let removed = 0;
    for (const p of rows) {
      if (p.sortNo === null || p.sortNo === undefined) continue;
      await writeSortNo(ctx, db, tenant, p, Number(p.sortNo), null);
      removed++;
    }
    return { removed };
  });
}

// ----------------------------------------------------------------------------------------------- images

interface ImageListInput extends Paging {
  keyword?: string | null;
  categoryId?: number | null;
}

async function imageList(ctx: CallContext, input: ImageListInput) {
  const base = () => {
    let q = ctx.tenant.select('product').where('product.imageId', 'is not', null);
    if (input.categoryId) q = q.where('product.categoryId', '=', input.categoryId);
    return productKeyword(q, ctx.database.dialect, input.keyword);
  };
  const { list, total } = await page(base, input, (q) => q.orderBy('product.code').orderBy('product.id'), (q) => withCategory(q.select(PRODUCT_COLUMNS)));
  return { total, page: input.page, pageSize: input.pageSize, list: list.map(productRow) };
}

// -------------------------------------------------------------------------------------------------- ops

export function commodityExtraOps(deps: OpsDeps): Record<string, OpHandler> {
  const product = deps.resources.get('product')!;
  return {
    // 预售商品 / 预售排序 (src/server/domain/commodity/presale-items.ts)
    'presale.items': acceptingFilters({ input: PRESALE_ITEMS_INPUT, run: (ctx, input: PresaleItemsInput) => listPresaleItems(ctx, input) }),
    'presale.sort': {
      input: { type: 'object', required: ['id', 'sortOrder'], properties: { id: { type: 'integer', minimum: 1, title: '预售商品' }, sortOrder: { type: ['integer', 'string'], maxLength: 10, title: '排序' } } },
      run: (ctx, input: { id: number; sortOrder: number | string }) => setPresaleSort(ctx, input),
    },
    'competing.list': acceptingFilters({ input: COMPETING_INPUT, run: (ctx, input: CompetingInput) => competingList(ctx, input) }),

    'productVersion.list': acceptingFilters({ input: VERSION_INPUT, run: (ctx, input: VersionInput) => versionList(ctx, deps.resources, product, input) }),
    'productVersion.diff': acceptingFilters({ input: VERSION_INPUT, run: (ctx, input: VersionInput) => versionDiff(ctx, deps.resources, product, input) }),

    'productSort.list': acceptingFilters({
      input: {
        type: 'object',
        properties: { ...PAGING, keyword: KEYWORD, scope: { enum: ['sorted', 'unsorted', null], title: '范围' }, categoryId: { type: ['integer', 'null'], minimum: 1, title: '商品类别' } },
      },
      run: (ctx, input: SortListInput) => sortList(ctx, input),
    }),
    'productSort.save': {
      input: {
        type: 'object',
        properties: {
          id: { type: ['integer', 'null'], minimum: 1, title: '商品' },
          productCode: PRODUCT_CODE,
          sortNo: { type: ['integer', 'null'], minimum: 1, maximum: MAX_SORT_NO, title: SORT_TITLE },
        },
      },
      run: (ctx, input: { id?: number | null; productCode?: string | null; sortNo?: number | null }) => sortSave(ctx, input),
    },
    'productSort.move': {
      input: {
        type: 'object', required: ['id', 'direction'],
        properties: { id: { type: 'integer', minimum: 1, title: '商品' }, direction: { enum: ['up', 'down'], title: '方向' } },
      },
      run: (ctx, input: { id: number; direction: 'up' | 'down' }) => sortMove(ctx, input),
    },
    'productSort.remove': {
      input: {
        type: 'object',
        properties: { id: { type: 'integer', minimum: 1, title: '商品' }, ids: { type: 'array', maxItems: 1000, items: { type: 'integer', minimum: 1 }, title: '所选商品' } },
      },
      run: (ctx, input: { id?: number; ids?: number[] }) => sortRemove(ctx, input),
    },

    'product.imageList': acceptingFilters({
      input: { type: 'object', properties: { ...PAGING, keyword: KEYWORD, categoryId: { type: ['integer', 'null'], minimum: 1, title: '商品类别' } } },
      run: (ctx, input: ImageListInput) => imageList(ctx, input),
    }),
  };
}
