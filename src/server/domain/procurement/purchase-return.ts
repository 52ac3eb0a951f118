// Return outbound plans (退货出库计划, `return_plan` + lines): goods sent back to a supplier, DESIGN §4.4.
// The plan itself — statuses, save, confirm, ship, cancel, list, get — is served by the document engine
// (src/server/documents/types/purchase-return.ts); this module holds what the engine calls and what it
// does not serve:
//  - A line names a product, the location the goods leave from, a quantity (small units) and, usually,
//    the posted receiving line the goods came in on; its unit price is then that order line's price.
//    Lines without a receiving line (goods received before the system) carry a price of their own.
//    A plan may be made from a posted receiving note alone (prepareReturn brings its returnable lines
//    in, bounded by the stock still there); a line without a location is split over the locations that
//    hold the product, preferring where the receipt went (checkReturnLines).
//  - Confirming, in one transaction: the status; each receiving note named by the lines claimed while
//    posted (its cancellation takes the same row, so the two serialise); each receiving line's returned
//    quantity by one conditional UPDATE that only passes while returned ≤ received (RETURN_OVER_4121
//    names the line); the goods reserved at their locations through postMoves (kind 'reserve'), so they
//    are not sold or moved before they leave — like any outbound plan (DESIGN §4.3).
//  - Shipping: the reservation is consumed and the goods leave (one move per line: on hand −q,
//    reserved −q, kind 'ship', doc type 'returnPlan'), guarded by the ledger.
//  - Cancelling undoes what the plan did: a confirmed plan releases its reservation and gives the
//    returned quantities back; a shipped plan is reversed (the shipment was recorded in error: the goods
//    come back to the locations they left, kind 'reverse') and gives the returned quantities back.
//  - The lines modal of the list screen changes or removes one line of a draft (saveLine, removeLine);
//    the returnable receiving lines and notes feed the new-plan form; the plan prints as an HTML sheet.
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { formatTime } from '../../../core/format.ts';
import { splitUnits } from '../../../core/stock-units.ts';
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import type { DB } from '../../db/connection.ts';
import type { DocumentType } from '../../documents/engine.ts';
import type { SaveRun, TransitionRun } from '../../documents/definition.ts';
import { bizError, validationError, type FieldError } from '../../http/errors.ts';
import { isEmpty } from '../../resources/fields.ts';
import { escapeHtml } from '../email.ts';
import { MAX_MOVE_QTY, type StockMove } from '../stock/ledger.ts';
import { addGuarded } from '../../db/raw-sql.ts';
import { packQtyProps, DOC_STATUS, moneyText, priceText, refusal, statusError, text, tz, type PackInput, type Row } from './common.ts';
import { lineQty } from './purchase-order.ts';
import { TypedTenant, typed } from '../../db/typed.ts';

export const RETURN_TITLE = '退货出库计划';
export const RETURN_PREFIX = 'TH';
export const RETURN_DOC_TYPE = 'returnPlan';
export const RETURN_STATUS = { draft: '草稿', confirmed: '已确认', shipped: '已出库', cancelled: '已作废' } as const;
export type ReturnStatus = keyof typeof RETURN_STATUS;
const RN_TITLE = '收货单';
const LINE_TITLE = '退货明细';
export const RETURN_MAX_LINES = 2000;
const MAX_LINES = RETURN_MAX_LINES;

/** The list route opened on one plan (the spec gives return plans no detail route). */
export const returnPlanRoute = (docNo: string) => `/procurement/outPlan/list?docNo=${encodeURIComponent(docNo)}`;

/** The return plans the engine serves. */
const returnPlans = (ctx: CallContext): DocumentType => ctx.documents.get(RETURN_DOC_TYPE)!;

export const RETURN_LINES_INPUT: InputSchema = {
  type: 'object',
  required: ['planId'],
  properties: {
    planId: { type: 'integer', minimum: 1, title: RETURN_TITLE },
    page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1, title: '页码' },
    pageSize: { type: 'integer', minimum: 1, maximum: 2000, default: 200, title: '每页条数' },
  },
};

export const RETURN_LINE_SAVE_INPUT: InputSchema = {
  type: 'object',
  required: ['id', 'version'],
  properties: {
    id: { type: 'integer', minimum: 1, title: LINE_TITLE },
    version: { type: 'integer', minimum: 1, title: '版本' },
    ...packQtyProps('qty', '退货数量'),
    locationId: { type: ['integer', 'null'], minimum: 1, title: '出库库位' },
    remark: { type: ['string', 'null'], maxLength: 200, title: '备注' },
  },
};

export const RETURNABLE_INPUT: InputSchema = {
  type: 'object',
  required: ['supplierId'],
  properties: {
    supplierId: { type: 'integer', minimum: 1, title: '供应商' },
    warehouseId: { type: ['integer', 'null'], minimum: 1, title: '仓库' },
    receivingNoteId: { type: ['integer', 'null'], minimum: 1, title: '收货单' },
    keyword: { type: ['string', 'null'], maxLength: 50, title: '关键字' },
    page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1, title: '页码' },
    pageSize: { type: 'integer', minimum: 1, maximum: 500, default: 50, title: '每页条数' },
  },
};

export const PRINT_INPUT: InputSchema = {
  type: 'object',
  properties: {
    id: { type: ['integer', 'null'], minimum: 1, title: RETURN_TITLE },
    docNo: { type: ['string', 'null'], maxLength: 50, title: '单号' },
  },
};


export interface ReturnLineInput {
  receivingLineId?: number | null;
  productId?: number | null;
  locationId?: number | null;
  qty?: number | null;
  big?: number | null;
  mid?: number | null;
  small?: number | null;
  /** × 10^4 (parsed by the engine's decimal field) */
  price?: number | null;
  remark?: string | null;
}

export interface ReturnLineSaveInput {
  id: number;
  version: number;
  qty?: number | null;
  big?: number | null;
  mid?: number | null;
  small?: number | null;
  locationId?: number | null;
  remark?: string | null;
}

export interface ReturnableInput {
  supplierId: number;
  warehouseId?: number | null;
  receivingNoteId?: number | null;
  keyword?: string | null;
  page: number;
  pageSize: number;
}

interface CheckedLine {
  productId: number;
  locationId: number | null;
  qty: number;
  /** × 10^4 */
  price: number;
  /** cents */
  amount: number;
  receivingLineId: number | null;
  remark: string | null;
}

const likeText = (s: string) => `%${s.replace(/[\\%_]/g, '')}%`;
/** Line amount in cents: qty × price (× 10^4) rounded half up to the cent. */
const amountOf = (qty: number, price: number) => new Decimal(price).times(qty).div(100).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();

// ---------------------------------------------------------------------------------------------------
// Reading the sources: receiving lines and the stock at each location

/** Receiving lines with their note, order (supplier, currency), order line price and product packs. */
async function receivingLines(untypedTenant: Tenant, ids: number[]): Promise<Map<number, Row>> {
  const tenant = TypedTenant.of(untypedTenant);
  const out = new Map<number, Row>();
  const l = 'receivingNoteLine';
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await tenant.select(l)
      .innerJoin('receivingNote as note', (j) => j.onRef('note.id', '=', `${l}.noteId`).onRef('note.companyId', '=', `${l}.companyId`))
      .innerJoin('purchaseOrder as po', (j) => j.onRef('po.id', '=', 'note.orderId').onRef('po.companyId', '=', `${l}.companyId`))
      .innerJoin('purchaseOrderLine as ol', (j) => j.onRef('ol.id', '=', `${l}.orderLineId`).onRef('ol.companyId', '=', `${l}.companyId`))
      .innerJoin('product', (j) => j.onRef('product.id', '=', `${l}.productId`).onRef('product.companyId', '=', `${l}.companyId`))
      .select([`${l}.id`, `${l}.noteId`, `${l}.lineNo`, `${l}.productId`, `${l}.locationId`, `${l}.qty`, `${l}.returnedQty`,
        'note.docNo as noteDocNo', 'note.status as noteStatus', 'note.warehouseId', 'note.orderId', 'po.supplierId', 'po.currencyId', 'ol.price',
        'product.code as productCode', 'product.bigQty', 'product.midQty', 'product.unitBig', 'product.unitMid'])
      .where(`${l}.id`, 'in', ids.slice(i, i + 500)).execute();
    for (const r of rows) out.set(Number(r.id), r);
  }
  return out;
}

interface Place { locationId: number | null; lcCode: string | null; available: number }

/** Stock that can leave, per product: every location of the warehouse with on hand − reserved > 0. */
async function availableStock(untypedTenant: Tenant, warehouseId: number, productIds: number[]): Promise<Map<number, Place[]>> {
  const tenant = TypedTenant.of(untypedTenant);
  const out = new Map<number, Place[]>();
  const ids = [...new Set(productIds)];
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await tenant.select('stockBalance')
      .leftJoin('location', (j) => j.onRef('location.id', '=', 'stockBalance.locationId').onRef('location.companyId', '=', 'stockBalance.companyId'))
      .select(['stockBalance.productId', 'stockBalance.locationId', 'stockBalance.onHand', 'stockBalance.reserved', 'location.lcCode', 'location.status'])
      .where('stockBalance.warehouseId', '=', warehouseId).where('stockBalance.productId', 'in', ids.slice(i, i + 500))
      .orderBy('stockBalance.productId').orderBy('stockBalance.locationId').execute();
    for (const r of rows) {
      const loc = Number(r.locationId);
      const available = Number(r.onHand) - Number(r.reserved);
      // locked locations cannot give stock (the ledger refuses them)
      if (available <= 0 || (loc !== 0 && r.status !== 'enabled')) continue;
      const list = out.get(Number(r.productId)) ?? [];
      list.push({ locationId: loc || null, lcCode: text(r.lcCode), available });
      out.set(Number(r.productId), list);
    }
  }
  return out;
}

/** Where the goods of receiving lines went: the receiving location, then the posted putaways' targets. */
async function placesOfReceipts(untypedTenant: Tenant, receiving: Map<number, Row>): Promise<Map<number, (number | null)[]>> {
  const tenant = TypedTenant.of(untypedTenant);
  const out = new Map<number, (number | null)[]>();
  for (const [id, r] of receiving) out.set(id, [r.locationId == null ? null : Number(r.locationId)]);
  const ids = [...receiving.keys()];
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await tenant.select('putawayLine')
      .innerJoin('putaway', (j) => j.onRef('putaway.id', '=', 'putawayLine.putawayId').onRef('putaway.companyId', '=', 'putawayLine.companyId'))
      .select(['putawayLine.receivingLineId', 'putawayLine.toLocationId']).where('putaway.status', '=', 'posted')
      .where('putawayLine.receivingLineId', 'in', ids.slice(i, i + 500)).orderBy('putawayLine.id', 'desc').execute();
    for (const r of rows) out.get(Number(r.receivingLineId))?.push(Number(r.toLocationId));
  }
  return out;
}

/**
 * Splits a quantity over the locations that hold the product: the preferred places first (where the
 * receipt went), then the fullest. `taken` is what earlier lines of the same plan already use.
 */
function allocate(qty: number, places: Place[], preferred: (number | null)[], taken: Map<string, number>, productId: number): Array<{ locationId: number | null; qty: number }> {
  const rank = (p: Place) => {
    const i = preferred.indexOf(p.locationId);
    return i < 0 ? preferred.length : i;
  };
  const ordered = [...places].sort((a, b) => rank(a) - rank(b) || b.available - a.available || (a.locationId ?? 0) - (b.locationId ?? 0));
  const out: Array<{ locationId: number | null; qty: number }> = [];
  let rest = qty;
  for (const p of ordered) {
    if (rest <= 0) break;
    const key = `${productId}:${p.locationId ?? 0}`;
    const free = p.available - (taken.get(key) ?? 0);
    if (free <= 0) continue;
    const q = Math.min(free, rest);
    taken.set(key, (taken.get(key) ?? 0) + q);
    out.push({ locationId: p.locationId, qty: q });
    rest -= q;
  }
  return rest > 0 ? [] : out;
}

function overReturn(r: Row, qty: number, line: number) {
  const received = Number(r.qty);
  const returned = Number(r.returnedQty);
  return bizError('RETURN_OVER_4121', { docNo: String(r.noteDocNo), line: Number(r.lineNo), code: String(r.productCode), received, returned, qty, left: Math.max(0, received - returned) },
    { line, receivingLineId: Number(r.id), received, returned, qty, left: Math.max(0, received - returned) });
}

// ---------------------------------------------------------------------------------------------------
// Checking a plan before it is written

interface Header { supplierId: number; warehouseId: number; supplierName: string; warehouseName: string }

async function checkHeader(ctx: CallContext, supplierId: number, warehouseId: number): Promise<Header> {
  const tenant = TypedTenant.of(ctx.tenant);
  const supplier = await tenant.select('supplier').select(['id', 'name']).where('id', '=', supplierId).executeTakeFirst();
  if (!supplier) throw validationError([{ field: 'supplierId', message: '供应商不存在' }]);
  const wh = await tenant.select('warehouse').select(['id', 'name', 'enabled']).where('id', '=', warehouseId).executeTakeFirst();
  if (!wh) throw validationError([{ field: 'warehouseId', message: '仓库不存在' }]);
  if (Number(wh.enabled) !== 1) throw bizError('STOCK_WAREHOUSE_DISABLED_4077', { warehouse: String(wh.name) });
  return { supplierId, warehouseId, supplierName: String(supplier.name), warehouseName: String(wh.name) };
}

/** Every returnable line of a posted note, allocated over the stock that is still there. */
async function linesFromNote(ctx: CallContext, note: Row, h: Header): Promise<ReturnLineInput[]> {
  const rows = await TypedTenant.of(ctx.tenant).select('receivingNoteLine').select(['id', 'productId', 'qty', 'returnedQty'])
    .where('noteId', '=', Number(note.id)).orderBy('lineNo').execute();
  const open = rows.filter((r) => Number(r.qty) - Number(r.returnedQty) > 0);
  const stock = await availableStock(ctx.tenant, h.warehouseId, open.map((r) => Number(r.productId)));
  const left = new Map<number, number>();
  for (const [p, places] of stock) left.set(p, places.reduce((s, x) => s + x.available, 0));
  const lines: ReturnLineInput[] = [];
  for (const r of open) {
    // what the warehouse still holds of the product bounds what can go back now
    const qty = Math.min(Number(r.qty) - Number(r.returnedQty), left.get(Number(r.productId)) ?? 0);
    if (qty <= 0) continue;
    left.set(Number(r.productId), (left.get(Number(r.productId)) ?? 0) - qty);
    lines.push({ receivingLineId: Number(r.id), qty });
  }
  if (!lines.length) throw bizError('RETURN_NOTHING_4123', { docNo: String(note.docNo), warehouse: h.warehouseName }, { receivingNoteId: Number(note.id) });
  return lines;
}

async function checkLines(ctx: CallContext, h: Header, input: ReturnLineInput[], onlyNote: Row | undefined) {
  const tenant = TypedTenant.of(ctx.tenant);
  const receiving = await receivingLines(ctx.tenant, [...new Set(input.map((l) => l.receivingLineId).filter((x): x is number => typeof x === 'number'))]);
  const productIds = [...new Set(input.map((l) => l.productId).filter((x): x is number => typeof x === 'number'))];
  const products = new Map<number, Row>();
  for (let i = 0; i < productIds.length; i += 500) {
    for (const r of await tenant.select('product').select(['id', 'code', 'bigQty', 'midQty', 'unitBig', 'unitMid']).where('id', 'in', productIds.slice(i, i + 500)).execute()) {
      products.set(Number(r.id), r);
    }
  }
  const locIds = [...new Set(input.map((l) => l.locationId).filter((x): x is number => typeof x === 'number'))];
  const locations = new Map<number, Row>();
  if (locIds.length) for (const r of await tenant.select('location').select(['id', 'warehouseId', 'lcCode', 'status']).where('id', 'in', locIds).execute()) locations.set(Number(r.id), r);
  const needStock = input.filter((l) => !l.locationId);
  const stockProducts = needStock.map((l) => (l.receivingLineId ? Number(receiving.get(l.receivingLineId)?.productId ?? 0) : Number(l.productId ?? 0))).filter((x) => x > 0);
  const stock = stockProducts.length ? await availableStock(ctx.tenant, h.warehouseId, stockProducts) : new Map<number, Place[]>();
  const preferred = needStock.some((l) => l.receivingLineId) ? await placesOfReceipts(ctx.tenant, receiving) : new Map<number, (number | null)[]>();
  const taken = new Map<string, number>();
  const perReceiving = new Map<number, number>();
  const currencies = new Set<number>();
  const orders = new Set<number>();
  const notes = new Set<number>();
  let free = false;
  const errors: FieldError[] = [];
  const out: CheckedLine[] = [];
  input.forEach((x, i) => {
    const err = (f: string, message: string) => errors.push({ field: `lines.${i}.${f}`, message: `第 ${i + 1} 行：${message}` });
    let productId: number;
    let price: number;
    let packs: Row;
    let rl: Row | undefined;
    if (x.receivingLineId) {
      rl = receiving.get(x.receivingLineId);
      if (!rl) { err('receivingLineId', '收货明细不存在'); return; }
      if (onlyNote && Number(rl.noteId) !== Number(onlyNote.id)) {
        throw bizError('PURCHASE_LINE_MISMATCH_4098', { doc: RETURN_TITLE, line: i + 1, source: RN_TITLE, docNo: String(onlyNote.docNo) }, { line: i + 1, receivingLineId: x.receivingLineId });
      }
      if (rl.noteStatus !== 'posted' || Number(rl.supplierId) !== h.supplierId || Number(rl.warehouseId) !== h.warehouseId) {
        const status = String(rl.noteStatus);
        throw bizError('RETURN_LINE_4122', { line: i + 1, supplier: h.supplierName, warehouse: h.warehouseName, docNo: String(rl.noteDocNo), status: (DOC_STATUS as Record<string, string>)[status] ?? status },
          { line: i + 1, receivingLineId: x.receivingLineId });
      }
      if (x.productId && x.productId !== Number(rl.productId)) { err('productId', '商品与收货明细不一致'); return; }
      productId = Number(rl.productId);
      price = Number(rl.price);
      packs = { ...rl, code: rl.productCode };
      currencies.add(Number(rl.currencyId));
      orders.add(Number(rl.orderId));
      notes.add(Number(rl.noteId));
    } else {
      const p = x.productId ? products.get(x.productId) : undefined;
      if (!x.productId) { err('productId', '商品不能为空（或选择收货明细）'); return; }
      if (!p) { err('productId', '商品不存在'); return; }
      productId = x.productId;
      packs = p;
      // the engine parsed the price (decimal field: ≥ 0, 4 decimals, stored × 10^4)
      price = x.price == null ? 0 : Number(x.price);
      free = true;
    }
    const qty = lineQty(x, packs, { line: i + 1, productId });
    if (qty === undefined) { err('qty', '退货数量不能为空'); return; }
    if (qty <= 0 || qty > MAX_MOVE_QTY) { err('qty', '退货数量必须大于 0'); return; }
    if (rl) {
      const sum = (perReceiving.get(Number(rl.id)) ?? 0) + qty;
      perReceiving.set(Number(rl.id), sum);
      // Early, friendly check; confirming enforces it with a conditional update.
      if (Number(rl.returnedQty) + sum > Number(rl.qty)) throw overReturn(rl, sum, i + 1);
    }
    const amount = amountOf(qty, price);
    if (amount > Number.MAX_SAFE_INTEGER / 1000) { err('qty', '金额超出范围'); return; }
    const remark = x.remark ?? null;
    if (x.locationId) {
      const loc = locations.get(x.locationId);
      if (!loc) { err('locationId', '库位不存在'); return; }
      if (Number(loc.warehouseId) !== h.warehouseId) { err('locationId', `库位 ${String(loc.lcCode)} 不属于仓库 ${h.warehouseName}`); return; }
      if (loc.status !== 'enabled') { err('locationId', `库位 ${String(loc.lcCode)} 已锁定`); return; }
      out.push({ productId, locationId: x.locationId, qty, price, amount, receivingLineId: rl ? Number(rl.id) : null, remark });
      return;
    }
    // No location given: the goods leave from where the stock is, preferring where the receipt went.
    const places = stock.get(productId) ?? [];
    const parts = allocate(qty, places, rl ? preferred.get(Number(rl.id)) ?? [] : [], taken, productId);
    if (!parts.length) {
      const available = places.reduce((s, p) => s + p.available, 0);
      throw bizError('RETURN_STOCK_SHORT_4124', { code: String(packs.code), warehouse: h.warehouseName, available, qty }, { line: i + 1, productId, available, qty });
    }
    for (const part of parts) out.push({ productId, locationId: part.locationId, qty: part.qty, price, amount: amountOf(part.qty, price), receivingLineId: rl ? Number(rl.id) : null, remark });
  });
  if (errors.length) throw validationError(errors.slice(0, 200));
  if (out.length > MAX_LINES) throw validationError([{ field: 'lines', message: `明细最多 ${MAX_LINES} 行` }]);
  if (currencies.size > 1) {
    const codes = await tenant.select('currency').select('code').where('id', 'in', [...currencies]).orderBy('code').execute();
    throw bizError('RETURN_CURRENCY_4125', { currencies: codes.map((c) => String(c.code)).join('、') });
  }
  let currencyId = currencies.size ? [...currencies][0]! : undefined;
  if (!currencyId) {
    const s = await tenant.select('supplier').select('currencyId').where('id', '=', h.supplierId).executeTakeFirst();
    const c = await typed(ctx.db).selectFrom('company').select('currencyId').where('id', '=', tenant.companyId).executeTakeFirst();
    currencyId = Number(s?.currencyId ?? c?.currencyId ?? 0) || undefined;
  }
  if (!currencyId) throw validationError([{ field: 'currencyId', message: '币种不能为空（供应商与公司都没有默认币种）' }]);
  const totalQty = out.reduce((s, l) => s + l.qty, 0);
  const totalAmount = out.reduce((s, l) => s + l.amount, 0);
  if (!Number.isSafeInteger(totalQty) || totalAmount > Number.MAX_SAFE_INTEGER / 1000) throw validationError([{ field: 'lines', message: '合计超出范围' }]);
  return {
    lines: out, currencyId, totalQty, totalAmount,
    // the order and note the goods came from, when every line names the same one
    orderId: !free && orders.size === 1 ? [...orders][0]! : null,
    receivingNoteId: !free && notes.size === 1 ? [...notes][0]! : null,
  };
}

// ---------------------------------------------------------------------------------------------------
// Saving (the engine's prepare and validate hooks)

/** What prepareReturn found, for the validate hook of the same save (keyed by the input object). */
const prepared = new WeakMap<Row, { h: Header; note?: Row }>();

const positiveId = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 1 && v <= 2_147_483_647;

/**
 * Completes a save's input: the supplier and warehouse of the plan being edited, or of the receiving note
 * it is made from; its stored lines when an edit names none; the note's returnable lines when a new plan
 * names only the note.
 */
export async function prepareReturn(ctx: CallContext, input: Row): Promise<void> {
  const tenant = TypedTenant.of(ctx.tenant);
  if (isEmpty(input.reason)) throw validationError([{ field: 'reason', message: '退货原因不能为空' }]);
  for (const [f, title] of [['receivingNoteId', '收货单'], ['supplierId', '供应商'], ['warehouseId', '仓库']] as const) {
    if (input[f] != null && !positiveId(input[f])) throw validationError([{ field: f, message: `${title}格式不正确` }]);
  }
  let h: Header;
  let note: Row | undefined;
  if (input.id !== undefined) {
    // supplier and warehouse stay what the plan was made with
    const plan = await tenant.select('returnPlan').select(['id', 'docNo', 'status', 'version', 'supplierId', 'warehouseId']).where('id', '=', Number(input.id)).executeTakeFirst();
    if (!plan) throw bizError('COMMON_NOT_FOUND_4004', { entity: RETURN_TITLE });
    if (plan.status !== 'draft') throw statusError(RETURN_TITLE, RETURN_STATUS, plan, '修改');
    h = await checkHeader(ctx, Number(plan.supplierId), Number(plan.warehouseId));
    if (input.lines == null) {
      // an edit of the header alone keeps the lines as they are
      input.lines = (await tenant.select('returnPlanLine').select(['receivingLineId', 'productId', 'locationId', 'qty', 'price', 'remark']).where('planId', '=', plan.id).orderBy('lineNo').execute())
        .map((l) => ({ receivingLineId: l.receivingLineId, productId: l.productId, locationId: l.locationId, qty: Number(l.qty), price: priceText(l.price), remark: l.remark }));
    }
  } else if (input.receivingNoteId) {
    note = await tenant.select('receivingNote').innerJoin('purchaseOrder as po', (j) => j.onRef('po.id', '=', 'receivingNote.orderId').onRef('po.companyId', '=', 'receivingNote.companyId'))
      .select(['receivingNote.id', 'receivingNote.docNo', 'receivingNote.status', 'receivingNote.warehouseId', 'po.supplierId'])
      .where('receivingNote.id', '=', Number(input.receivingNoteId)).executeTakeFirst();
    if (!note) throw validationError([{ field: 'receivingNoteId', message: '收货单不存在' }]);
    if (note.status !== 'posted') throw statusError(RN_TITLE, DOC_STATUS, note, '退货');
    if (input.supplierId && input.supplierId !== Number(note.supplierId)) throw validationError([{ field: 'supplierId', message: `收货单 ${String(note.docNo)} 不是所选供应商的收货单` }]);
    if (input.warehouseId && input.warehouseId !== Number(note.warehouseId)) throw validationError([{ field: 'warehouseId', message: `收货单 ${String(note.docNo)} 不是所选仓库的收货单` }]);
    h = await checkHeader(ctx, Number(note.supplierId), Number(note.warehouseId));
    if (input.lines == null) input.lines = await linesFromNote(ctx, note, h);
  } else {
    const missing: FieldError[] = [];
    if (!input.supplierId) missing.push({ field: 'supplierId', message: '供应商不能为空（或选择收货单）' });
    if (!input.warehouseId) missing.push({ field: 'warehouseId', message: '仓库不能为空（或选择收货单）' });
    if (!input.lines) missing.push({ field: 'lines', message: '明细不能为空（或选择收货单）' });
    if (missing.length) throw validationError(missing);
    h = await checkHeader(ctx, Number(input.supplierId), Number(input.warehouseId));
  }
  input.supplierId = h.supplierId;
  input.warehouseId = h.warehouseId;
  prepared.set(input, { h, note });
}

/**
 * The lines checked against their receiving lines and the stock, each without a location split over the
 * locations that hold the product; the plan's currency, source order and note, and totals on the header.
 */
export async function checkReturnLines(run: SaveRun): Promise<void> {
  const { ctx, input, header, lines } = run;
  const { h, note } = prepared.get(input)!;
  const raw = (input.lines ?? []) as PackInput[];
  const wanted: ReturnLineInput[] = lines.map((l, i) => ({
    receivingLineId: l.receivingLineId as number | null, productId: l.productId as number | null, locationId: l.locationId as number | null,
    qty: l.qty as number | null, big: raw[i]?.big, mid: raw[i]?.mid, small: raw[i]?.small,
    price: l.price as number | null, remark: l.remark as string | null,
  }));
  const checked = await checkLines(ctx, h, wanted, note);
  lines.splice(0, lines.length, ...checked.lines.map((l) => ({ ...l })));
  Object.assign(header, {
    currencyId: checked.currencyId, orderId: checked.orderId, receivingNoteId: checked.receivingNoteId,
    lineCount: checked.lines.length, totalQty: checked.totalQty, totalAmount: checked.totalAmount,
  });
  // supplier, warehouse, products and locations were read above through the company's scope
  for (const f of ['supplierId', 'warehouseId', 'productId', 'locationId']) run.verified.add(f);
}

// ---------------------------------------------------------------------------------------------------
// Transitions (the engine's hooks, inside the transition's transaction)

interface PlanLine { lineNo: number; productId: number; locationId: number | null; qty: number; receivingLineId: number | null }

const planLines = (rows: Row[]): PlanLine[] => rows.map((r) => ({
  lineNo: Number(r.lineNo), productId: Number(r.productId), locationId: r.locationId == null ? null : Number(r.locationId), qty: Number(r.qty),
  receivingLineId: r.receivingLineId == null ? null : Number(r.receivingLineId),
}));

type PlanMove = Omit<StockMove, 'docType' | 'docId'>;

function movesOf(warehouseId: number, lines: PlanLine[], what: 'reserve' | 'release' | 'ship' | 'reverse'): PlanMove[] {
  return lines.map((l) => {
    const m: PlanMove = { productId: l.productId, warehouseId, locationId: l.locationId, kind: what, docLine: l.lineNo };
    if (what === 'reserve') m.reserved = l.qty;
    else if (what === 'release') m.reserved = -l.qty;
    else if (what === 'ship') { m.qty = -l.qty; m.reserved = -l.qty; } else m.qty = l.qty;
    return m;
  });
}

/** Takes (sign 1) or gives back (−1) the lines' quantities on their receiving lines. */
async function applyReturned(untypedDb: DB, untypedTenant: Tenant, lines: PlanLine[], sign: 1 | -1): Promise<void> {
  const tenant = TypedTenant.of(untypedTenant);
  const db = typed(untypedDb);
  const per = new Map<number, number>();
  for (const l of lines) if (l.receivingLineId) per.set(l.receivingLineId, (per.get(l.receivingLineId) ?? 0) + l.qty);
  if (!per.size) return;
  if (sign === 1) {
    // Claim the notes while posted: a note's cancellation takes the same rows, so the two serialise.
    const noteIds = [...new Set((await tenant.select('receivingNoteLine').select('noteId').where('id', 'in', [...per.keys()]).execute()).map((r) => Number(r.noteId)))].sort((a, b) => a - b);
    for (const noteId of noteIds) {
      const ok = await tenant.update('receivingNote').set({ updatedAt: new Date().toISOString() }).where('id', '=', noteId).where('status', '=', 'posted').returning('id').executeTakeFirst();
      if (!ok) {
        const doc = await tenant.select('receivingNote').select(['id', 'docNo', 'status']).where('id', '=', noteId).executeTakeFirstOrThrow();
        throw statusError(RN_TITLE, DOC_STATUS, doc, '退货');
      }
    }
  }
  const changes = [...per.entries()].sort((a, b) => a[0] - b[0]).map(([k, d]) => [k, sign * d] as [number, number]);
  const passed = await addGuarded(db, {
    table: 'receiving_note_line', column: 'returned_qty', companyId: tenant.companyId, changes,
    guard: sign === 1 ? 'returned_qty + v.d <= qty' : 'returned_qty + v.d >= 0',
  });
  for (const [lineId, d] of changes) {
    if (passed.has(lineId)) continue;
    if (sign === -1) throw new Error(`return plan: receiving line ${lineId} has less returned than the plan`);
    const rl = (await receivingLines(untypedTenant, [lineId])).get(lineId);
    if (!rl) throw bizError('COMMON_NOT_FOUND_4004', { entity: '收货明细' });
    throw overReturn(rl, d, lines.find((l) => l.receivingLineId === lineId)?.lineNo ?? 0);
  }
}

const moneyOf = (doc: Row) => ({ totalQty: Number(doc.totalQty), totalAmount: moneyText(doc.totalAmount) });

/** draft → confirmed: the returned quantities are taken and the goods reserved at their locations. */
export async function confirmReturn(t: TransitionRun) {
  const lines = planLines(await t.storedLines());
  await applyReturned(t.db, t.tenant, lines, 1);
  await t.postMoves(movesOf(Number(t.doc.warehouseId), lines, 'reserve'));
  return moneyOf(t.doc);
}

/** confirmed → shipped: the reserved goods leave the warehouse. */
export async function shipReturn(t: TransitionRun) {
  await t.postMoves(movesOf(Number(t.doc.warehouseId), planLines(await t.storedLines()), 'ship'));
  return moneyOf(t.doc);
}

/** draft / confirmed / shipped → cancelled, undoing what the plan did (see the top of this file). */
export async function cancelReturn(t: TransitionRun) {
  if (t.from !== 'draft') {
    const lines = planLines(await t.storedLines());
    await applyReturned(t.db, t.tenant, lines, -1);
    await t.postMoves(movesOf(Number(t.doc.warehouseId), lines, t.from === 'confirmed' ? 'release' : 'reverse'));
  }
  return moneyOf(t.doc);
}

// ---------------------------------------------------------------------------------------------------
// The lines modal: one line of a draft at a time

async function recomputeTotals(untypedTenant: Tenant, planId: number): Promise<void> {
  const tenant = TypedTenant.of(untypedTenant);
  const t = await tenant.select('returnPlanLine').select((eb) => [eb.fn.countAll().as('n'), eb.fn.sum('qty').as('q'), eb.fn.sum('amount').as('a')])
    .where('planId', '=', planId).executeTakeFirst();
  await tenant.update('returnPlan').set({ lineCount: Number(t?.n ?? 0), totalQty: Number(t?.q ?? 0), totalAmount: Number(t?.a ?? 0) }).where('id', '=', planId).execute();
}

/** Claims a draft plan for a line change (its version moves on); refused when it is not a draft any more. */
async function claimDraft(untypedTenant: Tenant, planId: number, version: number, by: number): Promise<Row> {
  const tenant = TypedTenant.of(untypedTenant);
  const plan = await tenant.update('returnPlan').set({ updatedAt: new Date().toISOString(), updatedBy: by, version: sql`${sql.ref('version')} + 1` })
    .where('id', '=', planId).where('status', '=', 'draft').where('version', '=', version)
    .returning(['id', 'docNo', 'version', 'warehouseId']).executeTakeFirst();
  if (!plan) throw await refusal(untypedTenant, 'returnPlan', RETURN_TITLE, RETURN_STATUS, planId, version, ['draft'], '修改');
  return plan;
}

/** Changes one line of a draft: its quantity (bounded by what is returnable), location or remark. */
export async function saveLine(ctx: CallContext, input: ReturnLineSaveInput) {
  const caller = ctx.caller!;
  return ctx.transaction(async (db, untypedTenant) => {
    const tenant = TypedTenant.of(untypedTenant);
    const line = await tenant.select('returnPlanLine').innerJoin('product', (j) => j.onRef('product.id', '=', 'returnPlanLine.productId').onRef('product.companyId', '=', 'returnPlanLine.companyId'))
      .select(['returnPlanLine.id', 'returnPlanLine.planId', 'returnPlanLine.lineNo', 'returnPlanLine.productId', 'returnPlanLine.locationId', 'returnPlanLine.qty', 'returnPlanLine.price',
        'returnPlanLine.receivingLineId', 'returnPlanLine.remark', 'product.code', 'product.bigQty', 'product.midQty', 'product.unitBig', 'product.unitMid'])
      .where('returnPlanLine.id', '=', input.id).executeTakeFirst();
    if (!line) throw bizError('COMMON_NOT_FOUND_4004', { entity: LINE_TITLE });
    const plan = await claimDraft(untypedTenant, Number(line.planId), input.version, caller.accountId);
    const qty = lineQty(input, line, { line: Number(line.lineNo), productId: Number(line.productId) }) ?? Number(line.qty);
    if (qty <= 0 || qty > MAX_MOVE_QTY) throw validationError([{ field: 'qty', message: '退货数量必须大于 0' }]);
    const locationId = input.locationId === undefined ? (line.locationId == null ? null : Number(line.locationId)) : input.locationId;
    if (locationId) {
      const loc = await tenant.select('location').select(['warehouseId', 'lcCode', 'status']).where('id', '=', locationId).executeTakeFirst();
      if (!loc) throw validationError([{ field: 'locationId', message: '库位不存在' }]);
      if (Number(loc.warehouseId) !== Number(plan.warehouseId)) throw validationError([{ field: 'locationId', message: `库位 ${String(loc.lcCode)} 不属于退货仓库` }]);
      if (loc.status !== 'enabled') throw validationError([{ field: 'locationId', message: `库位 ${String(loc.lcCode)} 已锁定` }]);
    }
    if (line.receivingLineId != null) {
      const rlId = Number(line.receivingLineId);
      const rl = (await receivingLines(untypedTenant, [rlId])).get(rlId);
      const others = await tenant.select('returnPlanLine').select((eb) => eb.fn.sum('qty').as('q')).where('planId', '=', Number(line.planId))
        .where('receivingLineId', '=', rlId).where('id', '!=', input.id).executeTakeFirst();
      const sum = Number(others?.q ?? 0) + qty;
      if (rl && Number(rl.returnedQty) + sum > Number(rl.qty)) throw overReturn(rl, sum, Number(line.lineNo));
    }
    const amount = amountOf(qty, Number(line.price));
    await tenant.update('returnPlanLine').set({ qty, amount, locationId, remark: input.remark === undefined ? line.remark : input.remark }).where('id', '=', input.id).execute();
    await recomputeTotals(untypedTenant, Number(line.planId));
    await ctx.audit({ action: 'update', entity: RETURN_DOC_TYPE, recordId: Number(line.planId), recordLabel: String(plan.docNo), changes: [
      { field: `line${Number(line.lineNo)}.qty`, title: `第 ${Number(line.lineNo)} 行数量`, from: Number(line.qty), to: qty },
      ...(locationId !== (line.locationId == null ? null : Number(line.locationId)) ? [{ field: `line${Number(line.lineNo)}.locationId`, title: `第 ${Number(line.lineNo)} 行库位`, from: line.locationId, to: locationId }] : []),
    ] }, db);
    return { id: input.id, planId: Number(line.planId), docNo: String(plan.docNo), version: Number(plan.version), qty, amount: moneyText(amount) };
  });
}

/** Removes one line of a draft (the last one stays: a plan returning nothing is cancelled instead). */
export async function removeLine(ctx: CallContext, input: { id: number; version: number }) {
  const caller = ctx.caller!;
  return ctx.transaction(async (db, untypedTenant) => {
    const tenant = TypedTenant.of(untypedTenant);
    const line = await tenant.select('returnPlanLine').select(['id', 'planId', 'lineNo', 'qty']).where('id', '=', input.id).executeTakeFirst();
    if (!line) throw bizError('COMMON_NOT_FOUND_4004', { entity: LINE_TITLE });
    const plan = await claimDraft(untypedTenant, Number(line.planId), input.version, caller.accountId);
    const n = await tenant.select('returnPlanLine').select((eb) => eb.fn.countAll().as('n')).where('planId', '=', Number(line.planId)).executeTakeFirst();
    if (Number(n?.n ?? 0) <= 1) throw bizError('RETURN_LAST_LINE_4126', { docNo: String(plan.docNo) }, { id: Number(line.planId) });
    await tenant.delete('returnPlanLine').where('id', '=', input.id).execute();
    await recomputeTotals(untypedTenant, Number(line.planId));
    await ctx.audit({ action: 'update', entity: RETURN_DOC_TYPE, recordId: Number(line.planId), recordLabel: String(plan.docNo),
      changes: [{ field: `line${Number(line.lineNo)}`, title: `删除第 ${Number(line.lineNo)} 行`, from: Number(line.qty), to: null }] }, db);
    return { id: input.id, planId: Number(line.planId), docNo: String(plan.docNo), version: Number(plan.version) };
  });
}

// ---------------------------------------------------------------------------------------------------
// Reading

/** What `get` and the list show beyond the engine's columns: source numbers, packs and receiving lines. */
export async function presentReturn(ctx: CallContext, docs: Row[], lines?: Row[]): Promise<void> {
  const tenant = TypedTenant.of(ctx.tenant);
  const numbers = async (table: 'purchaseOrder' | 'receivingNote', ids: unknown[]) => {
    const wanted = [...new Set(ids.filter((x) => x != null).map(Number))];
    return new Map(wanted.length ? (await tenant.select(table).select(['id', 'docNo']).where('id', 'in', wanted).execute()).map((r) => [Number(r.id), String(r.docNo)]) : []);
  };
  const orders = await numbers('purchaseOrder', docs.map((d) => d.orderId));
  const notes = await numbers('receivingNote', docs.map((d) => d.receivingNoteId));
  for (const d of docs) {
    Object.assign(d, {
      orderDocNo: d.orderId == null ? null : orders.get(Number(d.orderId)) ?? null,
      receivingDocNo: d.receivingNoteId == null ? null : notes.get(Number(d.receivingNoteId)) ?? null,
      // the audit trail of the plan, for a list bound to the audit log
      auditEntity: RETURN_DOC_TYPE, auditKey: String(d.id),
    });
  }
  if (!lines?.length) return;
  const rlIds = [...new Set(lines.flatMap((l) => (l.receivingLineId == null ? [] : [Number(l.receivingLineId)])))];
  const received = new Map(rlIds.length ? (await tenant.select('receivingNoteLine')
    .innerJoin('receivingNote as note', (j) => j.onRef('note.id', '=', 'receivingNoteLine.noteId').onRef('note.companyId', '=', 'receivingNoteLine.companyId'))
    .select(['receivingNoteLine.id', 'receivingNoteLine.lineNo', 'receivingNoteLine.qty', 'receivingNoteLine.returnedQty', 'note.docNo'])
    .where('receivingNoteLine.id', 'in', rlIds).execute()).map((r) => [Number(r.id), r]) : []);
  for (const l of lines) {
    const rl = l.receivingLineId == null ? undefined : received.get(Number(l.receivingLineId));
    Object.assign(l, {
      units: splitUnits(Number(l.qty), { bigQty: Number(l.bigQty), midQty: Number(l.midQty), unitBig: l.unitBig as string | null, unitMid: l.unitMid as string | null, unitSmall: l.unitSmall as string | null }),
      receivingDocNo: text(rl?.docNo), receivingLineNo: rl ? Number(rl.lineNo) : null,
      receivedQty: rl ? Number(rl.qty) : null, returnedQty: rl ? Number(rl.returnedQty) : null,
    });
  }
}

/** A plan's lines as a list (the lines modal of the list screen), each with the plan's status and version. */
export async function listLines(ctx: CallContext, input: { planId: number; page: number; pageSize: number }) {
  // the engine's answer (DocumentView): its fields come from the document definition at run time
  const plan = await returnPlans(ctx).get(ctx, input.planId);
  const status = String(plan.status);
  const offset = (input.page - 1) * input.pageSize;
  return {
    list: plan.lines.slice(offset, offset + input.pageSize).map((r) => ({ ...r, planId: Number(plan.id), planDocNo: String(plan.docNo), planStatus: status, planStatusText: String(plan.statusText), version: Number(plan.version),
      // the engine's answer whether the plan may change now: the modal's 修改/删除 ask it
      planEditable: plan.editable === true })),
    total: Number(plan.lineCount), page: input.page, pageSize: input.pageSize,
  };
}

/**
 * What can go back to a supplier: posted receiving lines of the supplier with received − returned > 0,
 * each with the stock that can leave per location of the note's warehouse.
 */
export async function returnableLines(ctx: CallContext, input: ReturnableInput) {
  const tenant = TypedTenant.of(ctx.tenant);
  const l = 'receivingNoteLine';
  let q = tenant.select(l)
    .innerJoin('receivingNote as note', (j) => j.onRef('note.id', '=', `${l}.noteId`).onRef('note.companyId', '=', `${l}.companyId`))
    .innerJoin('purchaseOrder as po', (j) => j.onRef('po.id', '=', 'note.orderId').onRef('po.companyId', '=', `${l}.companyId`))
    .innerJoin('product', (j) => j.onRef('product.id', '=', `${l}.productId`).onRef('product.companyId', '=', `${l}.companyId`))
    .where('note.status', '=', 'posted').where('po.supplierId', '=', input.supplierId)
    .whereRef(`${l}.returnedQty`, '<', `${l}.qty`);
  if (input.warehouseId) q = q.where('note.warehouseId', '=', input.warehouseId);
  if (input.receivingNoteId) q = q.where('note.id', '=', input.receivingNoteId);
  const keyword = input.keyword?.trim();
  if (keyword) q = q.where((eb) => eb.or([eb('note.docNo', 'like', likeText(keyword)), eb('product.code', 'like', likeText(keyword)), eb('product.name', 'like', likeText(keyword))]));
  const counted = await q.select((eb) => eb.fn.countAll().as('total')).executeTakeFirst();
  const total = Number(counted?.total ?? 0);
  const rows = await q.innerJoin('purchaseOrderLine as ol', (j) => j.onRef('ol.id', '=', `${l}.orderLineId`).onRef('ol.companyId', '=', `${l}.companyId`))
    .innerJoin('warehouse', (j) => j.onRef('warehouse.id', '=', 'note.warehouseId').onRef('warehouse.companyId', '=', `${l}.companyId`))
    .select([`${l}.id`, `${l}.lineNo`, `${l}.productId`, `${l}.qty`, `${l}.returnedQty`, 'note.id as noteId', 'note.docNo as noteDocNo', 'note.warehouseId', 'warehouse.name as warehouseName',
      'po.docNo as orderDocNo', 'ol.price', 'product.code as productCode', 'product.name as productName', 'product.unitSmall'])
    .orderBy('note.id', 'desc').orderBy(`${l}.lineNo`).limit(input.pageSize).offset((input.page - 1) * input.pageSize).execute();
  const stockOf = new Map<number, Map<number, Place[]>>();
  for (const wh of new Set(rows.map((r) => Number(r.warehouseId)))) {
    stockOf.set(wh, await availableStock(ctx.tenant, wh, rows.filter((r) => Number(r.warehouseId) === wh).map((r) => Number(r.productId))));
  }
  return {
    list: rows.map((r) => {
      const places = stockOf.get(Number(r.warehouseId))?.get(Number(r.productId)) ?? [];
      const received = Number(r.qty);
      const returned = Number(r.returnedQty);
      return {
        receivingLineId: Number(r.id), receivingNoteId: Number(r.noteId), receivingDocNo: String(r.noteDocNo), lineNo: Number(r.lineNo), orderDocNo: String(r.orderDocNo),
        warehouseId: Number(r.warehouseId), warehouseName: String(r.warehouseName),
        productId: Number(r.productId), productCode: String(r.productCode), productName: String(r.productName), unitSmall: text(r.unitSmall),
        receivedQty: received, returnedQty: returned, returnableQty: received - returned, price: priceText(r.price),
        availableQty: places.reduce((s, p) => s + p.available, 0),
        stock: places.map((p) => ({ locationId: p.locationId, lcCode: p.lcCode, availableQty: p.available })),
        stockText: places.map((p) => `${p.lcCode ?? '无库位'}：${p.available}`).join('、') || '无库存',
      };
    }),
    total, page: input.page, pageSize: input.pageSize,
  };
}

/** Posted receiving notes with something returnable: {id, label} for the new-plan form. */
export async function returnableNotes(ctx: CallContext, input: { keyword?: string | null }) {
  let q = TypedTenant.of(ctx.tenant).select('receivingNote')
    .innerJoin('purchaseOrder as po', (j) => j.onRef('po.id', '=', 'receivingNote.orderId').onRef('po.companyId', '=', 'receivingNote.companyId'))
    .innerJoin('supplier', (j) => j.onRef('supplier.id', '=', 'po.supplierId').onRef('supplier.companyId', '=', 'receivingNote.companyId'))
    .select(['receivingNote.id', 'receivingNote.docNo', 'receivingNote.warehouseId', 'po.supplierId', 'supplier.name as supplierName'])
    .where('receivingNote.status', '=', 'posted')
    .where((eb) => eb.exists(eb.selectFrom('receivingNoteLine').select('receivingNoteLine.id').where('receivingNoteLine.companyId', '=', ctx.tenant.companyId)
      .whereRef('receivingNoteLine.noteId', '=', 'receivingNote.id').whereRef('receivingNoteLine.returnedQty', '<', 'receivingNoteLine.qty')));
  const keyword = input.keyword?.trim();
  if (keyword) q = q.where((eb) => eb.or([eb('receivingNote.docNo', 'like', likeText(keyword)), eb('supplier.name', 'like', likeText(keyword))]));
  const rows = await q.orderBy('receivingNote.id', 'desc').limit(200).execute();
  return rows.map((r) => ({
    id: Number(r.id), label: `${String(r.docNo)} ${String(r.supplierName)}`, docNo: String(r.docNo), supplierId: Number(r.supplierId), warehouseId: Number(r.warehouseId),
  }));
}

/** Return plans that hold quantities of a receiving note (confirmed or shipped): what its cancellation must wait for. */
export async function returnPlansOfNote(untypedTenant: Tenant, noteId: number): Promise<string[]> {
  const tenant = TypedTenant.of(untypedTenant);
  const rows = await tenant.select('returnPlan')
    .innerJoin('returnPlanLine as l', (j) => j.onRef('l.planId', '=', 'returnPlan.id').onRef('l.companyId', '=', 'returnPlan.companyId'))
    .innerJoin('receivingNoteLine as rl', (j) => j.onRef('rl.id', '=', 'l.receivingLineId').onRef('rl.companyId', '=', 'returnPlan.companyId'))
    .select('returnPlan.docNo').distinct().where('rl.noteId', '=', noteId).where('returnPlan.status', 'in', ['confirmed', 'shipped'])
    .orderBy('returnPlan.docNo').limit(3).execute();
  return rows.map((r) => String(r.docNo));
}

/**
 * For the cancellation of a posted receiving note (after it has claimed the note row): a note whose
 * lines are held by return plans stays, naming them.
 */
export async function refuseIfReturned(untypedTenant: Tenant, noteId: number, noteDocNo: string): Promise<void> {
  const tenant = TypedTenant.of(untypedTenant);
  const held = await tenant.select('receivingNoteLine').select('id').where('noteId', '=', noteId).where('returnedQty', '>', 0).limit(1).executeTakeFirst();
  if (!held) return;
  const plans = await returnPlansOfNote(untypedTenant, noteId);
  throw bizError('PURCHASE_DEPENDENT_DOCS_4096', { doc: RN_TITLE, docNo: noteDocNo, next: plans.join('、') }, { id: noteId, returnPlans: plans });
}

// ---------------------------------------------------------------------------------------------------
// Printable view

/** The plan as a printable sheet: {subject, body (HTML), format} for the htmlPreview widget. */
export async function printPlan(ctx: CallContext, input: { id?: number | null; docNo?: string | null }) {
  let id = input.id ?? undefined;
  if (!id && input.docNo?.trim()) {
    const r = await TypedTenant.of(ctx.tenant).select('returnPlan').select('id').where('docNo', '=', input.docNo.trim()).executeTakeFirst();
    id = r ? Number(r.id) : undefined;
  }
  if (!id) throw bizError('COMMON_NOT_FOUND_4004', { entity: RETURN_TITLE });
  // the engine's answer (DocumentView): its fields come from the document definition at run time
  const p = await returnPlans(ctx).get(ctx, id);
  const e = (v: unknown) => escapeHtml(v === null || v === undefined ? '' : String(v));
  const at = (v: unknown) => (v ? formatTime(String(v), tz(ctx)) : '');
  const cell = 'border:1px solid #999;padding:4px 6px';
  const head = [['单号', p.docNo], ['状态', p.statusText], ['供应商', `${p.supplierCode ?? ''} ${p.supplierName ?? ''}`], ['仓库', p.warehouseName],
    ['采购订单', p.orderDocNo ?? ''], ['收货单', p.receivingDocNo ?? ''], ['币种', p.currencyName], ['退货原因', p.reason], ['备注', p.remark ?? ''],
    ['制单', `${p.createdByName ?? ''} ${at(p.createdAt)}`], ['确认时间', at(p.confirmedAt)], ['出库时间', at(p.shippedAt)]];
  const body = `<h2 style="text-align:center;margin:4px 0 12px">${e(RETURN_TITLE)}</h2>`
    + `<table style="width:100%;border-collapse:collapse;margin-bottom:10px">${head.map(([k, v], i) => `${i % 3 === 0 ? '<tr>' : ''}<td style="padding:2px 6px;color:#555;white-space:nowrap">${e(k)}</td><td style="padding:2px 6px">${e(v)}</td>${i % 3 === 2 ? '</tr>' : ''}`).join('')}</table>`
    + `<table style="width:100%;border-collapse:collapse"><thead><tr>${['行', '商品编码', '商品名称', '库位', '数量', '单位', '单价', '金额', '收货单'].map((h) => `<th style="${cell};background:#f5f5f5">${h}</th>`).join('')}</tr></thead><tbody>`
    + p.lines.map((l) => `<tr><td style="${cell}">${l.lineNo}</td><td style="${cell}">${e(l.productCode)}</td><td style="${cell}">${e(l.productName)}</td><td style="${cell}">${e(l.lcCode ?? '')}</td>`
      + `<td style="${cell};text-align:right">${l.qty}</td><td style="${cell}">${e(l.unitSmall ?? '')}</td><td style="${cell};text-align:right">${e(l.price)}</td><td style="${cell};text-align:right">${e(l.amount)}</td><td style="${cell}">${e(l.receivingDocNo ?? '')}</td></tr>`).join('')
    + `<tr><td style="${cell}" colspan="4">合计（${p.lineCount} 行）</td><td style="${cell};text-align:right">${p.totalQty}</td><td style="${cell}" colspan="2"></td><td style="${cell};text-align:right">${e(p.totalAmount)}</td><td style="${cell}"></td></tr>`
    + '</tbody></table>'
    + '<p style="margin-top:28px;display:flex;justify-content:space-between"><span>仓库发货：__________</span><span>供应商签收：__________</span><span>日期：__________</span></p>';
  return { subject: `${RETURN_TITLE} ${p.docNo}（${p.statusText}）`, body, format: 'html' };
}
