// Purchase orders (采购订单, `purchase_order` + `purchase_order_line`), DESIGN §4.4.
// States: draft → confirmed → partlyReceived → received → closed; cancelled from draft, or from confirmed
// while nothing is received and no receiving note is open. Every transition is one conditional UPDATE on
// the status (and the version when the caller sends it): of two clerks confirming at once, one changes
// the row and the other is told the order's state now (PURCHASE_DOC_STATUS_4091).
// Money is exact: unit prices per small unit with up to 4 decimals (stored × 10^4), line amount =
// qty × price rounded half-up to the cent (stored in cents), totals are sums of the stored amounts.
import crypto from 'node:crypto';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { splitUnits, toSmallUnits } from '../../../core/stock-units.ts';
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import { bizError, validationError, type FieldError } from '../../http/errors.ts';
import { decimalOf } from '../../resources/fields.ts';
import { nextDocumentNo } from '../sequence.ts';
import { MAX_MOVE_QTY } from '../stock/ledger.ts';
import { insertMany } from '../../db/raw-sql.ts';
import { fileDate, xlsxDownload, type XlsxCell } from '../../files/xlsx.ts';
import type { FileResponse } from '../../http/file-response.ts';
import {
  packQtyProps, moneyText, parseDay, PO_STATUS, PRICE_SCALE, priceText, rateOn, rateText, refusal, text, today, tz, newestFirstPage, namedRows, type PoStatus, type Row, PAGING_PROPS,
} from './common.ts';

export const PO_TITLE = '采购订单';
export const PO_PREFIX = 'CG';
const MAX_LINES = 2000;
const MAX_PRICE = new Decimal('1000000000');

export const PO_SAVE_INPUT: InputSchema = {
  type: 'object',
  required: ['supplierId', 'warehouseId', 'lines'],
  properties: {
    id: { type: 'integer', minimum: 1, title: '采购订单' },
    version: { type: 'integer', minimum: 1, title: '版本' },
    supplierId: { type: 'integer', minimum: 1, title: '供应商' },
    currencyId: { type: ['integer', 'null'], minimum: 1, title: '币种' },
    orderDate: { type: ['string', 'null'], maxLength: 10, title: '订单日期' },
    warehouseId: { type: 'integer', minimum: 1, title: '收货仓库' },
    expectedDate: { type: ['string', 'null'], maxLength: 10, title: '预计到货日期' },
    companyRiseId: { type: ['integer', 'null'], minimum: 1, title: '公司抬头' },
    remark: { type: ['string', 'null'], maxLength: 500, title: '备注' },
    lines: {
      type: 'array', minItems: 1, maxItems: MAX_LINES, title: '明细',
      items: {
        type: 'object', required: ['productId', 'price'],
        properties: {
          productId: { type: 'integer', minimum: 1, title: '商品' },
          ...packQtyProps('qty', '数量'),
          price: { type: ['string', 'number'], maxLength: 30, title: '单价' },
          remark: { type: ['string', 'null'], maxLength: 200, title: '备注' },
        },
      },
    },
  },
};

export const PO_LIST_INPUT: InputSchema = {
  type: 'object',
  properties: {
    ...PAGING_PROPS,
    docNo: { type: ['string', 'null'], maxLength: 50, title: '单号' },
    supplierId: { type: ['integer', 'null'], minimum: 1, title: '供应商' },
    warehouseId: { type: ['integer', 'null'], minimum: 1, title: '仓库' },
    status: { enum: [...Object.keys(PO_STATUS), null], title: '状态' },
    dateFrom: { type: ['string', 'null'], maxLength: 10, title: '开始日期' },
    dateTo: { type: ['string', 'null'], maxLength: 10, title: '结束日期' },
  },
};

export interface PoLineInput {
  productId: number;
  qty?: number | null;
  big?: number | null;
  mid?: number | null;
  small?: number | null;
  price: string | number;
  remark?: string | null;
}

export interface PoSaveInput {
  id?: number;
  version?: number;
  supplierId: number;
  currencyId?: number | null;
  orderDate?: string | null;
  warehouseId: number;
  expectedDate?: string | null;
  companyRiseId?: number | null;
  remark?: string | null;
  lines: PoLineInput[];
}

export interface PoListInput {
  page: number;
  pageSize: number;
  docNo?: string | null;
  supplierId?: number | null;
  warehouseId?: number | null;
  status?: PoStatus | null;
  dateFrom?: string | null;
  dateTo?: string | null;
}

interface CheckedLine {
  productId: number;
  qty: number;
  price: number;
  amount: number;
  remark: string | null;
}

/** A quantity entered as qty (small units) or big/mid/small with the product's pack sizes. */
export function lineQty(l: { qty?: number | null; big?: number | null; mid?: number | null; small?: number | null }, p: Row, where: Record<string, unknown>): number | undefined {
  if (l.qty != null) return l.qty;
  if (l.big == null && l.mid == null && l.small == null) return undefined;
  const bigQty = Number(p.bigQty);
  const midQty = Number(p.midQty);
  // A big or mid count for a product without that pack cannot be turned into small units.
  if (l.big && (!(bigQty > 1) || !p.unitBig)) throw bizError('PRODUCT_BIG_QTY_4002', {}, { ...where, productCode: String(p.code), big: l.big, bigQty, unitBig: text(p.unitBig) });
  if (l.mid && (!(midQty > 1) || !p.unitMid)) throw bizError('PRODUCT_MID_QTY_4003', {}, { ...where, productCode: String(p.code), mid: l.mid, midQty, unitMid: text(p.unitMid) });
  // With both packs, the mid pack must divide the big one for a mid count to mean anything.
  if (l.mid && l.big && bigQty % midQty !== 0) throw bizError('PRODUCT_MID_QTY_4003', {}, { ...where, productCode: String(p.code), mid: l.mid, midQty, bigQty });
  return toSmallUnits({ big: l.big, mid: l.mid, small: l.small }, { bigQty, midQty });
}

async function checkOrder(ctx: CallContext, input: PoSaveInput) {
  const tenant = ctx.tenant;
  const supplier = (await tenant.select('supplier').select(['id', 'name', 'enabled', 'currencyId']).where('id', '=', input.supplierId).executeTakeFirst()) as Row | undefined;
  if (!supplier) throw validationError([{ field: 'supplierId', message: '供应商不存在' }]);
  if (Number(supplier.enabled) !== 1) throw bizError('PURCHASE_SUPPLIER_DISABLED_4092', { name: String(supplier.name) }, { supplierId: input.supplierId });
  const wh = (await tenant.select('warehouse').select(['id', 'name', 'enabled']).where('id', '=', input.warehouseId).executeTakeFirst()) as Row | undefined;
  if (!wh) throw validationError([{ field: 'warehouseId', message: '仓库不存在' }]);
  if (Number(wh.enabled) !== 1) throw bizError('STOCK_WAREHOUSE_DISABLED_4077', { warehouse: String(wh.name) });
  if (input.companyRiseId) {
    const rise = (await tenant.select('companyRise').select(['id', 'enabled']).where('id', '=', input.companyRiseId).executeTakeFirst()) as Row | undefined;
    if (!rise) throw validationError([{ field: 'companyRiseId', message: '公司抬头不存在' }]);
    if (Number(rise.enabled) !== 1) throw validationError([{ field: 'companyRiseId', message: '公司抬头已停用' }]);
  }
  let currencyId = input.currencyId ?? (supplier.currencyId == null ? undefined : Number(supplier.currencyId));
  if (!currencyId) {
    const company = (await ctx.db.selectFrom('company').select('currencyId').where('id', '=', tenant.companyId).executeTakeFirst()) as Row | undefined;
    currencyId = company?.currencyId == null ? undefined : Number(company.currencyId);
  }
  if (!currencyId) throw validationError([{ field: 'currencyId', message: '币种不能为空' }]);
  const currency = (await tenant.select('currency').select(['id', 'enabled']).where('id', '=', currencyId).executeTakeFirst()) as Row | undefined;
  if (!currency) throw validationError([{ field: 'currencyId', message: '币种不存在' }]);
  if (Number(currency.enabled) !== 1) throw validationError([{ field: 'currencyId', message: '币种已停用' }]);
  const orderDate = parseDay(input.orderDate, 'orderDate', '订单日期') ?? today(ctx);
  const expectedDate = parseDay(input.expectedDate, 'expectedDate', '预计到货日期') ?? null;
  const { rate, rateDate } = await rateOn(tenant, currencyId, orderDate);

  const products = new Map<number, Row>();
  const ids = [...new Set(input.lines.map((l) => l.productId))];
  for (let i = 0; i < ids.length; i += 500) {
    const rows = (await tenant.select('product').select(['id', 'code', 'status', 'locked', 'bigQty', 'midQty', 'unitBig', 'unitMid'])
      .where('id', 'in', ids.slice(i, i + 500)).execute()) as Row[];
    for (const r of rows) products.set(Number(r.id), r);
  }
  const errors: FieldError[] = [];
  const lines: CheckedLine[] = [];
  input.lines.forEach((l, i) => {
    const err = (f: string, message: string) => errors.push({ field: `lines.${i}.${f}`, message: `第 ${i + 1} 行：${message}` });
    const p = products.get(l.productId);
    if (!p) { err('productId', '商品不存在'); return; }
    const where = { line: i + 1, productId: l.productId };
    if (Number(p.locked) === 1) throw bizError('PRODUCT_LOCK_4006', {}, { ...where, productCode: String(p.code) });
    if (p.status === 'stopped') throw bizError('PURCHASE_PRODUCT_STOPPED_4093', { code: String(p.code) }, where);
    const qty = lineQty(l, p, where);
    if (qty === undefined) { err('qty', l.qty == null && l.big == null && l.mid == null && l.small == null ? '数量不能为空' : '数量超出范围'); return; }
    if (qty <= 0) { err('qty', '数量必须大于 0'); return; }
    if (qty > MAX_MOVE_QTY) { err('qty', '数量超出范围'); return; }
    const price = decimalOf(l.price);
    if (!price) { err('price', '单价必须是数字'); return; }
    if (price.isNegative()) { err('price', '单价不能小于 0'); return; }
    if (price.greaterThan(MAX_PRICE)) { err('price', `单价不能大于 ${MAX_PRICE.toFixed()}`); return; }
    if (price.decimalPlaces() > PRICE_SCALE) { err('price', `单价最多 ${PRICE_SCALE} 位小数`); return; }
    const amount = price.times(qty).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).times(100);
    if (amount.greaterThan(Number.MAX_SAFE_INTEGER / 1000)) { err('qty', '金额超出范围'); return; }
    lines.push({ productId: l.productId, qty, price: price.times(10 ** PRICE_SCALE).toNumber(), amount: amount.toNumber(), remark: l.remark ?? null });
  });
  if (errors.length) throw validationError(errors.slice(0, 200));
  const totalQty = lines.reduce((s, l) => s + l.qty, 0);
  const totalAmount = lines.reduce((s, l) => s + l.amount, 0);
  if (!Number.isSafeInteger(totalQty) || totalAmount > Number.MAX_SAFE_INTEGER / 1000) throw validationError([{ field: 'lines', message: '合计超出范围' }]);
  return {
    supplierName: String(supplier.name),
    header: {
      supplierId: input.supplierId, currencyId, exchangeRate: rate, rateDate, orderDate, warehouseId: input.warehouseId, expectedDate,
      companyRiseId: input.companyRiseId ?? null, remark: input.remark ?? null, lineCount: lines.length, totalQty, totalAmount,
    },
    lines,
  };
}

export interface PoResult {
  id: number;
  docNo: string;
  status: PoStatus;
  version: number;
}

/** Creates (with a new number) or updates a draft order; lines are replaced. */
export async function saveOrder(ctx: CallContext, input: PoSaveInput, copiedFrom?: number): Promise<PoResult & { totalQty: number; totalAmount: string }> {
  const caller = ctx.caller!;
  if (input.id !== undefined && input.version === undefined) throw validationError([{ field: 'version', message: '版本不能为空，请刷新后重试' }]);
  const { supplierName, header, lines } = await checkOrder(ctx, input);
  const now = new Date().toISOString();
  return ctx.transaction(async (db, tenant) => {
    let id: number;
    let docNo = '';
    let version = 1;
    if (input.id !== undefined) {
      const updated = (await tenant.update('purchaseOrder').set({ ...header, updatedAt: now, updatedBy: caller.accountId, version: sql`${sql.ref('version')} + 1` })
        .where('id', '=', input.id).where('status', '=', 'draft').where('version', '=', input.version!)
        .returning(['id', 'docNo', 'version']).executeTakeFirst()) as Row | undefined;
      if (!updated) throw await refusal(tenant, 'purchaseOrder', PO_TITLE, PO_STATUS, input.id, input.version, ['draft'], '修改');
      id = Number(updated.id);
      docNo = String(updated.docNo);
      version = Number(updated.version);
      await tenant.delete('purchaseOrderLine').where('orderId', '=', id).execute();
    } else {
      const inserted = (await tenant.insert('purchaseOrder', {
        ...header, docNo: `~${Date.now().toString(36)}${crypto.randomBytes(6).toString('hex')}`, status: 'draft', copiedFromId: copiedFrom ?? null,
        version: 1, createdAt: now, createdBy: caller.accountId, updatedAt: now, updatedBy: caller.accountId,
      }).returning('id').executeTakeFirstOrThrow()) as Row;
      id = Number(inserted.id);
    }
    await insertMany(db, 'purchase_order_line', ['company_id', 'order_id', 'line_no', 'product_id', 'qty', 'price', 'amount', 'received_qty', 'remark'],
      lines.map((l, i) => [tenant.companyId, id, i + 1, l.productId, l.qty, l.price, l.amount, 0, l.remark]));
    if (!docNo) {
      docNo = await nextDocumentNo(db, tenant.companyId, PO_PREFIX, tz(ctx));
      await tenant.update('purchaseOrder').set({ docNo }).where('id', '=', id).execute();
    }
    await ctx.audit({
      action: input.id !== undefined ? 'update' : 'create', entity: 'purchaseOrder', recordId: id, recordLabel: docNo,
      changes: [
        { field: 'supplierId', title: '供应商', from: null, to: supplierName },
        { field: 'lineCount', title: '明细行数', from: null, to: header.lineCount },
        { field: 'totalQty', title: '数量合计', from: null, to: header.totalQty },
        { field: 'totalAmount', title: '金额合计', from: null, to: moneyText(header.totalAmount) },
        ...(copiedFrom ? [{ field: 'copiedFromId', title: '复制自', from: null, to: copiedFrom }] : []),
      ],
    }, db);
    return { id, docNo, status: 'draft' as const, version, totalQty: header.totalQty, totalAmount: moneyText(header.totalAmount) };
  });
}

/** Deletes a draft order and its lines. */
export async function removeOrder(ctx: CallContext, input: { id: number; version?: number }) {
  return ctx.transaction(async (db, tenant) => {
    // Writes first: the status check and the claim of the row are one statement.
    let q = tenant.update('purchaseOrder').set({ version: sql`${sql.ref('version')} + 1` }).where('id', '=', input.id).where('status', '=', 'draft');
    if (input.version !== undefined) q = q.where('version', '=', input.version);
    const doc = (await q.returning(['id', 'docNo']).executeTakeFirst()) as Row | undefined;
    if (!doc) throw await refusal(tenant, 'purchaseOrder', PO_TITLE, PO_STATUS, input.id, input.version, ['draft'], '删除');
    await tenant.delete('purchaseOrderLine').where('orderId', '=', input.id).execute();
    await tenant.delete('purchaseOrder').where('id', '=', input.id).execute();
    await ctx.audit({ action: 'remove', entity: 'purchaseOrder', recordId: input.id, recordLabel: String(doc.docNo) }, db);
    return { id: input.id, docNo: String(doc.docNo) };
  });
}

const TRANSITIONS = {
  confirm: { from: ['draft'], to: 'confirmed', action: '确认', stamp: 'confirmed' },
  cancel: { from: ['draft', 'confirmed'], to: 'cancelled', action: '作废', stamp: 'cancelled' },
  close: { from: ['partlyReceived', 'received'], to: 'closed', action: '关闭', stamp: 'closed' },
} as const;

/** confirm / cancel / close: one conditional UPDATE per possible source state. */
export async function changeOrderStatus(ctx: CallContext, name: keyof typeof TRANSITIONS, input: { id: number; version?: number }): Promise<PoResult> {
  const caller = ctx.caller!;
  const t = TRANSITIONS[name];
  const now = new Date().toISOString();
  return ctx.transaction(async (db, tenant) => {
    let from: string | undefined;
    let doc: Row | undefined;
    for (const f of t.from) {
      let q = tenant.update('purchaseOrder').set({
        status: t.to, [`${t.stamp}At`]: now, [`${t.stamp}By`]: caller.accountId, updatedAt: now, updatedBy: caller.accountId, version: sql`${sql.ref('version')} + 1`,
      }).where('id', '=', input.id).where('status', '=', f);
      if (input.version !== undefined) q = q.where('version', '=', input.version);
      // a confirmed order can only be cancelled while nothing has been received
      if (name === 'cancel') q = q.where('receivedQty', '=', 0);
      doc = (await q.returning(['id', 'docNo', 'version']).executeTakeFirst()) as Row | undefined;
      if (doc) { from = f; break; }
    }
    if (!doc || !from) throw await refusal(tenant, 'purchaseOrder', PO_TITLE, PO_STATUS, input.id, input.version, [...t.from], t.action);
    if (name === 'confirm') {
      // What was fine when the draft was saved may have changed since: the supplier and the products are
      // checked again in the confirming transaction.
      const sup = (await tenant.select('purchaseOrder').innerJoin('supplier', (j) => j.onRef('supplier.id', '=', 'purchaseOrder.supplierId').onRef('supplier.companyId', '=', 'purchaseOrder.companyId'))
        .select(['supplier.name', 'supplier.enabled']).where('purchaseOrder.id', '=', input.id).executeTakeFirst()) as Row | undefined;
      if (sup && Number(sup.enabled) !== 1) throw bizError('PURCHASE_SUPPLIER_DISABLED_4092', { name: String(sup.name) }, { id: input.id });
      const bad = (await tenant.select('purchaseOrderLine').innerJoin('product', (j) => j.onRef('product.id', '=', 'purchaseOrderLine.productId').onRef('product.companyId', '=', 'purchaseOrderLine.companyId'))
        .select(['purchaseOrderLine.lineNo', 'purchaseOrderLine.productId', 'product.code', 'product.locked', 'product.status']).where('purchaseOrderLine.orderId', '=', input.id)
        .where((eb) => eb.or([eb('product.locked', '=', 1), eb('product.status', '=', 'stopped')])).orderBy('purchaseOrderLine.lineNo').limit(1).executeTakeFirst()) as Row | undefined;
      if (bad) {
        const where = { line: Number(bad.lineNo), productId: Number(bad.productId), productCode: String(bad.code) };
        if (Number(bad.locked) === 1) throw bizError('PRODUCT_LOCK_4006', {}, where);
        throw bizError('PURCHASE_PRODUCT_STOPPED_4093', { code: String(bad.code) }, where);
      }
    }
    if (name === 'cancel') {
      // Receiving notes that are not cancelled, and open inbound plans, depend on the order.
      const open = [
        ...((await tenant.select('receivingNote').select(['docNo']).where('orderId', '=', input.id).where('status', '!=', 'cancelled').limit(3).execute()) as Row[]),
        // inbound plans hold planned quantities of the order's lines (and their tasks expect the goods)
        ...((await tenant.select('inboundPlan').select(['docNo']).where('orderId', '=', input.id).where('status', 'in', ['draft', 'confirmed']).limit(3).execute()) as Row[]),
      ];
      if (open.length) throw bizError('PURCHASE_DEPENDENT_DOCS_4096', { doc: PO_TITLE, docNo: String(doc.docNo), next: open.map((r) => String(r.docNo)).join('、') }, { id: input.id });
    }
    if (name === 'close') {
      // Open inbound tasks still expect goods of this order (counted as inbound); they are closed first,
      // each with its reason (inbound-task.ts closeTask gives their open quantity back).
      const tasks = (await tenant.select('inboundTask').select(['docNo']).where('orderId', '=', input.id).where('status', 'in', ['open', 'receiving']).orderBy('id').limit(3).execute()) as Row[];
      if (tasks.length) throw bizError('PURCHASE_OPEN_TASKS_4099', { docNo: String(doc.docNo), tasks: tasks.map((r) => String(r.docNo)).join('、') }, { id: input.id, tasks: tasks.map((r) => String(r.docNo)) });
    }
    await ctx.audit({ action: name, entity: 'purchaseOrder', recordId: input.id, recordLabel: String(doc.docNo), changes: [{ field: 'status', title: '状态', from: PO_STATUS[from as PoStatus], to: PO_STATUS[t.to] }] }, db);
    return { id: input.id, docNo: String(doc.docNo), status: t.to, version: Number(doc.version) };
  });
}

function headerView(r: Row) {
  const status = String(r.status) as PoStatus;
  return {
    id: Number(r.id), docNo: String(r.docNo), docType: 'purchaseOrder', status, statusText: PO_STATUS[status] ?? status,
    supplierId: Number(r.supplierId), supplierCode: text(r.supplierCode), supplierName: text(r.supplierName),
    currencyId: Number(r.currencyId), currencyCode: text(r.currencyCode), currencyName: text(r.currencyName),
    exchangeRate: rateText(r.exchangeRate), rateDate: text(r.rateDate), orderDate: String(r.orderDate),
    warehouseId: Number(r.warehouseId), warehouseName: text(r.warehouseName), expectedDate: text(r.expectedDate),
    companyRiseId: r.companyRiseId == null ? null : Number(r.companyRiseId), companyRiseName: text(r.companyRiseName),
    remark: text(r.remark), lineCount: Number(r.lineCount), totalQty: Number(r.totalQty), totalAmount: moneyText(r.totalAmount),
    totalAmountBase: moneyText(new Decimal(String(r.totalAmount)).times(String(r.exchangeRate)).div(1_000_000).toDecimalPlaces(0, Decimal.ROUND_HALF_UP)),
    receivedQty: Number(r.receivedQty), copiedFromId: r.copiedFromId == null ? null : Number(r.copiedFromId), version: Number(r.version),
    createdAt: text(r.createdAt), createdByName: text(r.createdByName), confirmedAt: text(r.confirmedAt), cancelledAt: text(r.cancelledAt), closedAt: text(r.closedAt),
    route: `/procurement/purchaseOrder/${Number(r.id)}`,
  };
}

function withNames(tenant: Tenant) {
  const h = 'purchaseOrder';
  return tenant.select(h)
    .innerJoin('supplier', (j) => j.onRef('supplier.id', '=', `${h}.supplierId`).onRef('supplier.companyId', '=', `${h}.companyId`))
    .innerJoin('warehouse', (j) => j.onRef('warehouse.id', '=', `${h}.warehouseId`).onRef('warehouse.companyId', '=', `${h}.companyId`))
    .innerJoin('currency', (j) => j.onRef('currency.id', '=', `${h}.currencyId`).onRef('currency.companyId', '=', `${h}.companyId`))
    .leftJoin('companyRise', (j) => j.onRef('companyRise.id', '=', `${h}.companyRiseId`).onRef('companyRise.companyId', '=', `${h}.companyId`))
    .leftJoin('account as creator', (j) => j.onRef('creator.id', '=', `${h}.createdBy`).onRef('creator.companyId', '=', `${h}.companyId`))
    .selectAll(h)
    .select(['supplier.code as supplierCode', 'supplier.name as supplierName', 'warehouse.name as warehouseName', 'currency.code as currencyCode',
      'currency.currencyName', 'companyRise.name as companyRiseName', 'creator.userName as createdByName']);
}

/** One order with its lines (quantities in big/mid/small, received and open quantities). */
export async function getOrder(ctx: CallContext, id: number) {
  const tenant = ctx.tenant;
  const doc = (await withNames(tenant).where('purchaseOrder.id', '=', id).executeTakeFirst()) as Row | undefined;
  if (!doc) throw bizError('COMMON_NOT_FOUND_4004', { entity: PO_TITLE });
  const l = 'purchaseOrderLine';
  const lines = (await tenant.select(l)
    .innerJoin('product', (j) => j.onRef('product.id', '=', `${l}.productId`).onRef('product.companyId', '=', `${l}.companyId`))
    .select([`${l}.id`, `${l}.lineNo`, `${l}.productId`, `${l}.qty`, `${l}.price`, `${l}.amount`, `${l}.receivedQty`, `${l}.plannedQty`, `${l}.remark`,
      'product.code as productCode', 'product.name as productName', 'product.specification', 'product.bigQty', 'product.midQty', 'product.unitBig', 'product.unitMid', 'product.unitSmall'])
    .where(`${l}.orderId`, '=', id).orderBy(`${l}.lineNo`).execute()) as Row[];
  return {
    ...headerView(doc),
    // What inbound plans can still take (the screen offers 入库计划 only while something is left).
    unplannedQty: lines.reduce((s, r) => s + Math.max(0, Number(r.qty) - Number(r.plannedQty)), 0),
    lines: lines.map((r) => {
      const packs = { bigQty: Number(r.bigQty), midQty: Number(r.midQty), unitBig: text(r.unitBig), unitMid: text(r.unitMid), unitSmall: text(r.unitSmall) };
      const qty = Number(r.qty);
      const received = Number(r.receivedQty);
      return {
        id: Number(r.id), lineNo: Number(r.lineNo), productId: Number(r.productId), productCode: String(r.productCode), productName: String(r.productName),
        specification: text(r.specification), unitBig: packs.unitBig, unitMid: packs.unitMid, unitSmall: packs.unitSmall, bigQty: packs.bigQty, midQty: packs.midQty,
        qty, units: splitUnits(qty, packs), price: priceText(r.price), amount: moneyText(r.amount),
        receivedQty: received, openQty: Math.max(0, qty - received), remark: text(r.remark),
      };
    }),
  };
}

function listQuery(ctx: CallContext, input: Omit<PoListInput, 'page' | 'pageSize'>) {
  const from = parseDay(input.dateFrom, 'dateFrom', '开始日期');
  const to = parseDay(input.dateTo, 'dateTo', '结束日期');
  let q = ctx.tenant.select('purchaseOrder');
  const docNo = input.docNo?.trim();
  if (docNo) q = q.where('purchaseOrder.docNo', 'like', `%${docNo.replace(/[\\%_]/g, '')}%`);
  if (input.supplierId) q = q.where('purchaseOrder.supplierId', '=', input.supplierId);
  if (input.warehouseId) q = q.where('purchaseOrder.warehouseId', '=', input.warehouseId);
  if (input.status) q = q.where('purchaseOrder.status', '=', input.status);
  if (from) q = q.where('purchaseOrder.orderDate', '>=', from);
  if (to) q = q.where('purchaseOrder.orderDate', '<=', to);
  return q;
}

export async function listOrders(ctx: CallContext, input: PoListInput) {
  const where = listQuery(ctx, input);
  return newestFirstPage(where, 'purchaseOrder.id', namedRows(withNames(ctx.tenant), 'purchaseOrder.id'), headerView, input);
}

/** purchaseOrderAgain: a new draft with the old order's supplier, warehouse, currency, title and lines. */
export async function copyOrder(ctx: CallContext, id: number) {
  const old = await getOrder(ctx, id);
  return saveOrder(ctx, {
    supplierId: old.supplierId, currencyId: old.currencyId, warehouseId: old.warehouseId, companyRiseId: old.companyRiseId, remark: old.remark,
    lines: old.lines.map((l) => ({ productId: l.productId, qty: l.qty, price: l.price, remark: l.remark })),
  }, id);
}

/** The filtered orders with their lines as .xlsx. */
export async function exportOrders(ctx: CallContext, input: Omit<PoListInput, 'page' | 'pageSize'>): Promise<FileResponse> {
  const ids = ((await listQuery(ctx, input).select('purchaseOrder.id').orderBy('purchaseOrder.id', 'desc').limit(20_000).execute()) as Row[]).map((r) => Number(r.id));
  return xlsxDownload(`采购订单_${fileDate(tz(ctx))}.xlsx`, async (book) => {
    const sheet = book.addSheet('采购订单', [
      { header: '单号', width: 18 }, { header: '状态', width: 10 }, { header: '订单日期', width: 12 }, { header: '供应商', width: 24 }, { header: '仓库', width: 14 },
      { header: '币种', width: 8 }, { header: '汇率', width: 10 }, { header: '行号', width: 6 }, { header: '商品编码', width: 16 }, { header: '商品名称', width: 30 },
      { header: '数量', width: 10 }, { header: '单价', width: 12, numFmt: '0.0000' }, { header: '金额', width: 14, numFmt: '#,##0.00' }, { header: '已收数量', width: 10 },
      { header: '预计到货', width: 12 }, { header: '备注', width: 30 },
    ]);
    for (const id of ids) {
      const o = await getOrder(ctx, id);
      for (const l of o.lines) {
        sheet.addRow([o.docNo, o.statusText, o.orderDate, o.supplierName, o.warehouseName, o.currencyName, Number(o.exchangeRate), l.lineNo, l.productCode, l.productName,
          l.qty, Number(l.price), Number(l.amount), l.receivedQty, o.expectedDate, o.remark] as XlsxCell[]);
      }
      await book.drain();
    }
  });
}
