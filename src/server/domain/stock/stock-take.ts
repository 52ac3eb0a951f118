// Stocktaking (盘点) beside its engine definition (documents/types/stock-take.ts): the counting sheet made
// from the book, the blind sheet a counter works from, count entries (which add up), and the variance list.
// Why the book quantity is taken when a line is first counted (and not frozen): see the definition.
import { splitUnits, toSmallUnits, type PackSizes } from '../../../core/stock-units.ts';
import type { CallContext } from '../../catalog/context.ts';
import type { DB } from '../../db/connection.ts';
import type { Row, SaveRun } from '../../documents/definition.ts';
import { bizError, validationError } from '../../http/errors.ts';
import { MAX_DOC_LINES } from './documents.ts';
import { MAX_MOVE_QTY } from './ledger.ts';
import { lookupKeyOf } from './locations.ts';
import { TypedTenant, typed } from '../../db/typed.ts';

export const TAKE_TITLE = '盘点单';
/** Seeing book quantities and variances (a counter without it counts blind). */
export const TAKE_VARIANCE_RIGHT = 'entrepot.takeStock.variance';
export const TAKE_POST_RIGHT = 'entrepot.takeStock.post';

const BLIND_LINE_FIELDS = ['bookQty', 'diffQty', 'unitPrice', 'diffValue'] as const;
const BLIND_HEADER_FIELDS = ['diffLines', 'diffValue'] as const;

const mayUse = (ctx: CallContext, right: string) => !!ctx.caller?.allRights || !!ctx.caller?.rights.has(right);

/** Takes the book out of documents and lines shown to a caller without the variance right. */
export function stripBlind(ctx: CallContext, docs: Row[], lines?: Row[]): void {
  for (const l of lines ?? []) {
    const p = packOf(l);
    l.countedUnits = l.countedQty == null ? null : splitUnits(Number(l.countedQty), p).text;
  }
  if (mayUse(ctx, TAKE_VARIANCE_RIGHT)) {
    for (const l of lines ?? []) {
      if (l.diffQty != null) l.diffUnits = splitUnits(Number(l.diffQty), packOf(l)).text;
    }
    return;
  }
  for (const d of docs) for (const f of BLIND_HEADER_FIELDS) delete d[f];
  for (const l of lines ?? []) for (const f of BLIND_LINE_FIELDS) delete l[f];
}

const packOf = (r: Row): PackSizes => ({
  bigQty: Number(r.bigQty ?? 1), midQty: Number(r.midQty ?? 1),
  unitBig: (r.unitBig as string | null) ?? null, unitMid: (r.unitMid as string | null) ?? null, unitSmall: (r.unitSmall as string | null) ?? null,
});

/** Product codes as typed: separated by spaces, commas, semicolons or new lines. */
export function splitCodes(text: unknown): string[] {
  if (typeof text !== 'string') return [];
  return [...new Set(text.split(/[\s,，;；、]+/).map((s) => s.trim()).filter(Boolean))];
}

/**
 * The counting sheet of a new take: every balance of the scope holding stock (on hand or reserved), plus
 * the chosen products' default locations in the warehouse, in walking order (zone, row, column, level,
 * code) then product code. Refuses a scope with nothing to count and lines an open take already counts.
 */
export async function buildTakeLines(run: SaveRun): Promise<void> {
  const { ctx, header, lines } = run;
  const tenant = TypedTenant.of(ctx.tenant);
  const warehouseId = Number(header.warehouseId);
  const wh = await tenant.select('warehouse').select(['id', 'name', 'enabled']).where('id', '=', warehouseId).executeTakeFirst();
  if (!wh) throw validationError([{ field: 'warehouseId', message: '仓库不存在' }]);
  if (Number(wh.enabled) !== 1) throw bizError('STOCK_WAREHOUSE_DISABLED_4077', { warehouse: String(wh.name) });
  const zone = typeof header.zone === 'string' && header.zone.trim() ? header.zone.trim().toUpperCase() : null;
  header.zone = zone;
  if (zone) {
    const z = await tenant.select('location').select('id').where('warehouseId', '=', warehouseId).where('zone', '=', zone).limit(1).executeTakeFirst();
    if (!z) throw validationError([{ field: 'zone', message: `仓库 ${String(wh.name)} 没有库区 ${zone}` }]);
  }
  const codes = splitCodes(header.productCodes);
  let productIds: number[] | undefined;
  if (codes.length) {
    if (codes.length > 2000) throw validationError([{ field: 'productCodes', message: '一次最多盘点 2000 个商品' }]);
    const found = await tenant.select('product').select(['id', 'code', 'barcode']).where((eb) => eb.or([eb('code', 'in', codes), eb('barcode', 'in', codes)])).execute();
    const known = new Set(found.flatMap((p) => [String(p.code), String(p.barcode ?? '')]));
    const missing = codes.filter((c) => !known.has(c));
    if (missing.length) throw validationError([{ field: 'productCodes', message: `商品编码不存在：${missing.slice(0, 10).join('、')}${missing.length > 10 ? ` 等 ${missing.length} 个` : ''}` }]);
    productIds = [...new Set(found.map((p) => Number(p.id)))];
    header.productCodes = found.map((p) => String(p.code)).filter((c, i, a) => a.indexOf(c) === i).join(' ');
  } else header.productCodes = null;

  let q = tenant.select('stockBalance')
    .leftJoin('location', (j) => j.onRef('location.id', '=', 'stockBalance.locationId').onRef('location.companyId', '=', 'stockBalance.companyId'))
    .select(['stockBalance.productId', 'stockBalance.locationId'])
    .where('stockBalance.warehouseId', '=', warehouseId)
    .where((eb) => eb.or([eb('stockBalance.onHand', '!=', 0), eb('stockBalance.reserved', '!=', 0)]));
  if (zone) q = q.where('location.zone', '=', zone);
  if (productIds) q = q.where('stockBalance.productId', 'in', productIds);
  const keys = new Map<string, { productId: number; locationId: number | null }>();
  for (const r of await q.limit(MAX_DOC_LINES + 1).execute()) {
    const loc = Number(r.locationId) || null;
    keys.set(`${Number(r.productId)}:${loc ?? 0}`, { productId: Number(r.productId), locationId: loc });
  }
  if (productIds) {
    let d = tenant.select('defaultLocation')
      .innerJoin('location', (j) => j.onRef('location.id', '=', 'defaultLocation.locationId').onRef('location.companyId', '=', 'defaultLocation.companyId'))
      .select(['defaultLocation.productId', 'defaultLocation.locationId'])
      .where('defaultLocation.warehouseId', '=', warehouseId).where('defaultLocation.productId', 'in', productIds);
    if (zone) d = d.where('location.zone', '=', zone);
    for (const r of await d.execute()) keys.set(`${Number(r.productId)}:${Number(r.locationId)}`, { productId: Number(r.productId), locationId: Number(r.locationId) });
  }
  if (!keys.size) throw validationError([{ field: productIds ? 'productCodes' : 'warehouseId', message: '所选范围内没有库存，也没有默认库位，无可盘点的明细' }]);
  if (keys.size > MAX_DOC_LINES) throw validationError([{ field: 'zone', message: `所选范围超过 ${MAX_DOC_LINES} 行，请按库区或商品分批盘点` }]);

  // walking order of the locations, then product code
  const all = [...keys.values()];
  const locIds = [...new Set(all.flatMap((k) => (k.locationId ? [k.locationId] : [])))];
  const prodIds = [...new Set(all.map((k) => k.productId))];
  const locs = new Map<number, Row>();
  const prods = new Map<number, Row>();
  for (let i = 0; i < locIds.length; i += 500) {
    for (const r of await tenant.select('location').select(['id', 'lcCode', 'zone', 'locRow as row', 'locColumn as column', 'locLevel as level']).where('id', 'in', locIds.slice(i, i + 500)).execute()) locs.set(Number(r.id), r);
  }
  for (let i = 0; i < prodIds.length; i += 500) {
    for (const r of await tenant.select('product').select(['id', 'code']).where('id', 'in', prodIds.slice(i, i + 500)).execute()) prods.set(Number(r.id), r);
  }
  const str = (v: unknown) => (v == null ? '' : String(v));
  const num = (v: unknown) => (v == null ? 0 : Number(v) || 0);
  all.sort((a, b) => {
    const la = a.locationId ? locs.get(a.locationId) : undefined;
    const lb = b.locationId ? locs.get(b.locationId) : undefined;
    return str(la?.zone).localeCompare(str(lb?.zone)) || num(la?.row) - num(lb?.row) || num(la?.column) - num(lb?.column)
      || num(la?.level) - num(lb?.level) || str(la?.lcCode).localeCompare(str(lb?.lcCode))
      || str(prods.get(a.productId)?.code).localeCompare(str(prods.get(b.productId)?.code));
  });

  // one product at one place is counted by one open take at a time: two would each post the difference
  const overlap = await openTakeOverlap(tenant, warehouseId, all);
  if (overlap) throw bizError('STOCKTAKE_OVERLAP_4252', overlap);

  for (const k of all) lines.push({ productId: k.productId, locationId: k.locationId });
  run.verified.add('productId');
  run.verified.add('locationId');
  header.lineCount = lines.length;
}

async function openTakeOverlap(tenant: TypedTenant, warehouseId: number, keys: Array<{ productId: number; locationId: number | null }>) {
  const wanted = new Set(keys.map((k) => `${k.productId}:${k.locationId ?? 0}`));
  const open = await tenant.select('stockTake').select(['id', 'docNo']).where('warehouseId', '=', warehouseId).where('status', '=', 'counting').execute();
  for (const t of open) {
    const rows = await tenant.select('stockTakeLine').select(['productId', 'locationId']).where('takeId', '=', Number(t.id)).execute();
    const hit = rows.find((r) => wanted.has(`${Number(r.productId)}:${Number(r.locationId ?? 0)}`));
    if (hit) return { docNo: String(t.docNo) };
  }
  return undefined;
}

// ---- the counter's sheet ------------------------------------------------------------------------------

export const SHEET_INPUT = {
  type: 'object', required: ['id'],
  properties: {
    id: { type: 'integer', minimum: 1, title: '盘点单' },
    keyword: { type: ['string', 'null'], maxLength: 50, title: '商品或库位' },
    open: { type: ['boolean', 'null'], title: '只看未盘' },
    page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1, title: '页码' },
    pageSize: { type: 'integer', minimum: 1, maximum: 500, default: 50, title: '每页条数' },
  },
};
export interface SheetInput { id: number; keyword?: string | null; open?: boolean | null; page: number; pageSize: number }

async function takeOf(tenant: TypedTenant, id: number): Promise<Row> {
  const take = await tenant.select('stockTake').select(['id', 'docNo', 'status', 'warehouseId']).where('id', '=', id).executeTakeFirst();
  if (!take) throw bizError('COMMON_NOT_FOUND_4004', { entity: TAKE_TITLE });
  return take;
}

function sheetQuery(tenant: TypedTenant, takeId: number) {
  return tenant.select('stockTakeLine')
    .innerJoin('product', (j) => j.onRef('product.id', '=', 'stockTakeLine.productId').onRef('product.companyId', '=', 'stockTakeLine.companyId'))
    .leftJoin('location', (j) => j.onRef('location.id', '=', 'stockTakeLine.locationId').onRef('location.companyId', '=', 'stockTakeLine.companyId'))
    .where('stockTakeLine.takeId', '=', takeId);
}

const SHEET_COLUMNS = [
  'stockTakeLine.id', 'stockTakeLine.takeId', 'stockTakeLine.lineNo', 'stockTakeLine.productId', 'stockTakeLine.locationId', 'stockTakeLine.countedQty', 'stockTakeLine.countCount', 'stockTakeLine.countedAt',
  'product.code as productCode', 'product.name as productName', 'product.barcode', 'product.specification', 'product.bigQty', 'product.midQty', 'product.unitBig', 'product.unitMid', 'product.unitSmall',
  'location.lcCode',
] as const;

function sheetRow(r: Row): Row {
  const p = packOf(r);
  const counted = r.countedQty == null ? null : Number(r.countedQty);
  return {
    id: Number(r.id), takeId: Number(r.takeId), lineNo: Number(r.lineNo), productId: Number(r.productId), locationId: r.locationId == null ? null : Number(r.locationId),
    productCode: r.productCode, productName: r.productName, barcode: r.barcode ?? null, specification: r.specification ?? null, lcCode: r.lcCode ?? null,
    bigQty: p.bigQty, midQty: p.midQty, unitBig: p.unitBig, unitMid: p.unitMid, unitSmall: p.unitSmall,
    countedQty: counted, countedUnits: counted == null ? null : splitUnits(counted, p).text, countCount: Number(r.countCount ?? 0), countedAt: r.countedAt ?? null,
    counted: counted != null,
  };
}

/** The blind counting sheet: what to count where and what has been counted — never the book. */
export async function takeSheet(ctx: CallContext, input: SheetInput) {
  const tenant = TypedTenant.of(ctx.tenant);
  const take = await takeOf(tenant, input.id);
  let q = sheetQuery(tenant, input.id);
  const kw = typeof input.keyword === 'string' ? input.keyword.trim() : '';
  if (kw) {
    const key = lookupKeyOf(kw);
    q = q.where((eb) => eb.or([
      eb('product.code', '=', kw), eb('product.barcode', '=', kw), eb('product.code', 'like', `${kw.replace(/[%_]/g, '')}%`),
      ...(key ? [eb('location.lookupKey', '=', key)] : []),
    ]));
  }
  if (input.open) q = q.where('stockTakeLine.countedQty', 'is', null);
  const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await q.select([...SHEET_COLUMNS]).orderBy('stockTakeLine.lineNo').limit(input.pageSize).offset((input.page - 1) * input.pageSize).execute();
  const counted = Number((await tenant.select('stockTakeLine').where('takeId', '=', input.id).where('countedQty', 'is not', null)
    .select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  return { list: rows.map(sheetRow), total, docNo: take.docNo, status: take.status, countedLines: counted };
}

// ---- count entries ------------------------------------------------------------------------------------

const QTY = { type: ['integer', 'null'], minimum: -MAX_MOVE_QTY, maximum: MAX_MOVE_QTY };
export const COUNT_INPUT = {
  type: 'object', required: ['id'],
  properties: {
    id: { type: 'integer', minimum: 1, title: '盘点单' },
    lineId: { type: ['integer', 'null'], minimum: 1, title: '盘点明细' },
    productCode: { type: ['string', 'null'], maxLength: 50, title: '商品编码或条码' },
    locationCode: { type: ['string', 'null'], maxLength: 50, title: '库位编码' },
    big: { ...QTY, title: '大包装数' },
    mid: { ...QTY, title: '中包装数' },
    small: { ...QTY, title: '最小单位数' },
    qty: { ...QTY, title: '数量（最小单位）' },
  },
};
export interface CountInput {
  id: number; lineId?: number | null; productCode?: string | null; locationCode?: string | null;
  big?: number | null; mid?: number | null; small?: number | null; qty?: number | null;
}

/**
 * One count entry: adds to what the line has counted (two counters' entries add up; a negative entry
 * corrects a mistake, never below 0). The line is named by id, or by product and location codes — a
 * product found at a place the sheet does not list gets a new line. The first entry of a line records its
 * book quantity at that moment (see the definition). Answers what was counted — never the book.
 */
export async function enterCount(ctx: CallContext, input: CountInput) {
  const parts = input.big != null || input.mid != null || input.small != null;
  if (input.qty == null && !parts) throw validationError([{ field: 'small', message: '请输入盘点数量' }]);
  if (input.qty != null && parts) throw validationError([{ field: 'qty', message: '数量与大/中/小包装数只填一种' }]);
  if (input.lineId == null && !input.productCode?.trim()) throw validationError([{ field: 'productCode', message: '请选择盘点明细，或输入商品编码和库位' }]);
  const now = new Date().toISOString();
  const accountId = ctx.caller!.accountId;
  return ctx.transaction(async (db, untypedTenant) => {
    const tenant = TypedTenant.of(untypedTenant);
    // The take's row is written first: it is the lock posting takes too (its status update), so an
    // entry and a posting of one take never interleave — an entry after the posting is refused, one
    // before it is in the posting.
    const touched = await tenant.update('stockTake').set({ lastCountAt: now }).where('id', '=', input.id).where('status', '=', 'counting')
      .returning(['id', 'docNo', 'warehouseId']).executeTakeFirst();
    if (!touched) {
      const take = await takeOf(tenant, input.id);
      const labels: Record<string, string> = { counting: '盘点中', posted: '已过账', cancelled: '已作废' };
      throw bizError('STOCK_DOC_STATUS_4078', { doc: TAKE_TITLE, docNo: String(take.docNo), status: labels[String(take.status)] ?? String(take.status), action: '录入盘点数量' });
    }
    const warehouseId = Number(touched.warehouseId);
    const line = input.lineId != null ? await lineById(tenant, input.id, input.lineId) : await lineByCodes(db, tenant, input, warehouseId);
    const qty = input.qty != null ? input.qty : toSmallUnits({ big: input.big, mid: input.mid, small: input.small }, packOf(line));
    if (qty === undefined || !Number.isSafeInteger(qty) || Math.abs(qty) > MAX_MOVE_QTY) throw validationError([{ field: 'small', message: '数量超出范围' }]);
    const before = line.countedQty == null ? 0 : Number(line.countedQty);
    if (before + qty < 0) throw bizError('STOCKTAKE_COUNT_NEGATIVE_4253', { code: String(line.productCode), location: String(line.lcCode ?? '无库位'), counted: before, qty });
    const bal = await tenant.select('stockBalance').select('onHand').where('productId', '=', Number(line.productId))
      .where('warehouseId', '=', warehouseId).where('locationId', '=', Number(line.locationId ?? 0)).executeTakeFirst();
    const book = Number(bal?.onHand ?? 0);
    // the sum changes in the database (two entries at once both count), guarded against going below 0
    const updated = await tenant.update('stockTakeLine').set((eb: any) => ({
      countedQty: eb(eb.fn.coalesce('countedQty', eb.val(0)), '+', qty),
      countCount: eb(eb.fn.coalesce('countCount', eb.val(0)), '+', 1),
      bookQty: eb.fn.coalesce('bookQty', eb.val(book)),
      countedAt: now,
    })).where('id', '=', Number(line.id)).where((eb) => eb(eb(eb.fn.coalesce('countedQty', eb.val(0)), '+', qty), '>=', 0))
      .returning(['id', 'countedQty', 'countCount']).executeTakeFirst();
    if (!updated) throw bizError('STOCKTAKE_COUNT_NEGATIVE_4253', { code: String(line.productCode), location: String(line.lcCode ?? '无库位'), counted: before, qty });
    await typed(db).insertInto('stockTakeCount').values({ companyId: tenant.companyId, takeId: input.id, lineId: Number(line.id), qty, bookQty: book, accountId, createdAt: now }).execute();
    const counted = Number(updated.countedQty);
    return {
      id: Number(line.id), lineNo: Number(line.lineNo), productCode: line.productCode, productName: line.productName, lcCode: line.lcCode ?? null,
      qty, countedQty: counted, countedUnits: splitUnits(counted, packOf(line)).text, countCount: Number(updated.countCount), added: !!line.added,
    };
  });
}

async function lineById(tenant: TypedTenant, takeId: number, lineId: number): Promise<Row> {
  const r = await sheetQuery(tenant, takeId).select([...SHEET_COLUMNS]).where('stockTakeLine.id', '=', lineId).executeTakeFirst();
  if (!r) throw validationError([{ field: 'lineId', message: '盘点明细不存在' }]);
  return r;
}

/** The line of a product at a location (codes as scanned), added to the sheet when the take lacks it. */
async function lineByCodes(db: DB, tenant: TypedTenant, input: CountInput, warehouseId: number): Promise<Row> {
  const code = input.productCode!.trim();
  const product = await tenant.select('product').select(['id', 'code']).where((eb) => eb.or([eb('code', '=', code), eb('barcode', '=', code)])).orderBy('id').executeTakeFirst();
  if (!product) throw bizError('PRODUCT_NOT_EXIST_4001', {}, { productCode: code.slice(0, 50) });
  let locationId: number | null = null;
  const lc = input.locationCode?.trim();
  if (lc) {
    const key = lookupKeyOf(lc);
    const loc = key ? (await tenant.select('location').select(['id', 'status']).where('warehouseId', '=', warehouseId).where('lookupKey', '=', key).executeTakeFirst()) : undefined;
    if (!loc) throw bizError('STOCK_LOCATION_NOT_FOUND_4079', { code: lc.slice(0, 40) });
    locationId = Number(loc.id);
  }
  let q = sheetQuery(tenant, input.id).select([...SHEET_COLUMNS]).where('stockTakeLine.productId', '=', Number(product.id));
  q = locationId ? q.where('stockTakeLine.locationId', '=', locationId) : q.where('stockTakeLine.locationId', 'is', null);
  const found = await q.executeTakeFirst();
  if (found) return found;
  // found where the sheet did not expect it: a new line (the take's row is locked by this transaction)
  const last = await tenant.select('stockTakeLine').select((eb) => eb.fn.max('lineNo').as('n')).where('takeId', '=', input.id).executeTakeFirst();
  const lineNo = Number(last?.n ?? 0) + 1;
  if (lineNo > MAX_DOC_LINES) throw validationError([{ field: 'productCode', message: `盘点单最多 ${MAX_DOC_LINES} 行` }]);
  await typed(db).insertInto('stockTakeLine').values({ companyId: tenant.companyId, takeId: input.id, lineNo, productId: Number(product.id), locationId, countCount: 0 }).execute();
  await tenant.update('stockTake').set((eb: any) => ({ lineCount: eb(eb.fn.coalesce('lineCount', eb.val(0)), '+', 1) })).where('id', '=', input.id).execute();
  let again = sheetQuery(tenant, input.id).select([...SHEET_COLUMNS]).where('stockTakeLine.lineNo', '=', lineNo);
  again = again.where('stockTakeLine.productId', '=', Number(product.id));
  return { ...(await again.executeTakeFirstOrThrow()), added: true };
}

// ---- variances ----------------------------------------------------------------------------------------

export const VARIANCE_INPUT = {
  type: 'object', required: ['id'],
  properties: {
    id: { type: 'integer', minimum: 1, title: '盘点单' },
    onlyDiff: { type: ['boolean', 'null'], title: '只看差异' },
    page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1, title: '页码' },
    pageSize: { type: 'integer', minimum: 1, maximum: 500, default: 50, title: '每页条数' },
  },
};
export interface VarianceInput { id: number; onlyDiff?: boolean | null; page: number; pageSize: number }

/** Money in cents (bigint) as text with two decimals. */
export function centsText(v: bigint): string {
  const neg = v < 0n;
  const a = neg ? -v : v;
  return `${neg ? '-' : ''}${a / 100n}.${String(a % 100n).padStart(2, '0')}`;
}

/**
 * Book vs counted per line, in small units and as big/mid/small, and in value (the product's reference
 * price, 参考价 — the ledger keeps no cost). Open takes: the difference of counted lines against the book
 * at count time, and how much has moved at the place since; posted takes: what was posted.
 */
export async function takeVariances(ctx: CallContext, input: VarianceInput) {
  const tenant = TypedTenant.of(ctx.tenant);
  const take = await takeOf(tenant, input.id);
  const warehouseId = Number(take.warehouseId);
  let q = sheetQuery(tenant, input.id);
  if (input.onlyDiff) q = q.where((eb) => eb.or([eb('stockTakeLine.diffQty', '!=', 0), eb.and([eb('stockTakeLine.diffQty', 'is', null), eb('stockTakeLine.countedQty', 'is not', null), eb('stockTakeLine.countedQty', '!=', eb.ref('stockTakeLine.bookQty'))])]));
  const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await q.select([...SHEET_COLUMNS, 'stockTakeLine.bookQty', 'stockTakeLine.diffQty', 'stockTakeLine.unitPrice', 'stockTakeLine.diffValue', 'product.price'])
    .orderBy('stockTakeLine.lineNo').limit(input.pageSize).offset((input.page - 1) * input.pageSize).execute();
  const current = new Map<string, number>();
  if (take.status === 'counting' && rows.length) {
    const bal = await tenant.select('stockBalance').select(['productId', 'locationId', 'onHand']).where('warehouseId', '=', warehouseId)
      .where('productId', 'in', [...new Set(rows.map((r) => Number(r.productId)))]).execute();
    for (const b of bal) current.set(`${Number(b.productId)}:${Number(b.locationId)}`, Number(b.onHand));
  }
  const list = rows.map((r) => {
    const base = sheetRow(r);
    const p = packOf(r);
    const counted = base.countedQty as number | null;
    const book = r.bookQty == null ? null : Number(r.bookQty);
    const diff = r.diffQty != null ? Number(r.diffQty) : counted != null && book != null ? counted - book : null;
    const price = BigInt(String(r.unitPrice ?? r.price ?? 0));
    const value = r.diffValue != null ? BigInt(String(r.diffValue)) : diff != null ? BigInt(diff) * price : null;
    const now = current.get(`${Number(r.productId)}:${Number(r.locationId ?? 0)}`) ?? 0;
    const u = (n: number | null) => (n == null ? null : splitUnits(n, p));
    return {
      ...base, bookQty: book, diffQty: diff,
      book: u(book), countedSplit: u(counted), diff: u(diff),
      bookUnits: u(book)?.text ?? null, diffUnits: u(diff)?.text ?? null,
      unitPrice: centsText(price), diffValue: value == null ? null : centsText(value),
      movedSince: take.status === 'counting' && book != null ? now - book : null,
    };
  });
  const sums = await tenant.select('stockTakeLine')
    .innerJoin('product', (j) => j.onRef('product.id', '=', 'stockTakeLine.productId').onRef('product.companyId', '=', 'stockTakeLine.companyId'))
    .select(['stockTakeLine.countedQty', 'stockTakeLine.bookQty', 'stockTakeLine.diffQty', 'stockTakeLine.diffValue', 'product.price'])
    .where('stockTakeLine.takeId', '=', input.id).execute();
  let diffLines = 0;
  let counted = 0;
  let value = 0n;
  for (const s of sums) {
    if (s.countedQty == null) continue;
    counted++;
    const d = s.diffQty != null ? Number(s.diffQty) : Number(s.countedQty) - Number(s.bookQty);
    if (d !== 0) diffLines++;
    value += s.diffValue != null ? BigInt(String(s.diffValue)) : BigInt(d) * BigInt(String(s.price ?? 0));
  }
  return { list, total, docNo: take.docNo, status: take.status, summary: { lines: sums.length, countedLines: counted, diffLines, diffValue: centsText(value) } };
}

/** Takes open for counting, for the tablet's choice (newest first). */
export async function openTakeOptions(ctx: CallContext) {
  const rows = await TypedTenant.of(ctx.tenant).select('stockTake')
    .leftJoin('warehouse', (j) => j.onRef('warehouse.id', '=', 'stockTake.warehouseId').onRef('warehouse.companyId', '=', 'stockTake.companyId'))
    .select(['stockTake.id', 'stockTake.docNo', 'stockTake.zone', 'warehouse.name as warehouseName'])
    .where('stockTake.status', '=', 'counting').orderBy('stockTake.id', 'desc').limit(200).execute();
  return rows.map((r) => ({ id: Number(r.id), label: `${String(r.docNo)} ${String(r.warehouseName ?? '')}${r.zone ? ` 库区 ${String(r.zone)}` : ''}`, code: String(r.docNo) }));
}
