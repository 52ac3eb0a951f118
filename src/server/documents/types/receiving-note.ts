// 收货单 on the document engine (DESIGN §4.4): counted quantities against a confirmed or partly received
// purchase order, optionally against one of its inbound tasks. draft → posted → cancelled (a draft can
// be cancelled too); a draft can be saved and posted in one call (`post: true`). Accepted = counted −
// damaged; over-receipt is bounded by the company's receMultiple, checked here early and enforced again
// by the posting's conditional updates (domain/procurement/receiving.ts: order lines, stock, the order's
// partlyReceived/received, the task's progress — all in the transition's transaction).
import { splitUnits } from '../../../core/stock-units.ts';
import { bizError, validationError, type FieldError } from '../../http/errors.ts';
import { DOC_STATUS, PO_STATUS, receMultipleOf, statusError, text, type Row } from '../../domain/procurement/common.ts';
import { checkNoteTask } from '../../domain/procurement/inbound-task.ts';
import { lineQty, PO_TITLE } from '../../domain/procurement/purchase-order.ts';
import { applyNote, overReceipt, RECEIVABLE, reverseNote, RN_PREFIX, RN_TITLE, type PostedLines } from '../../domain/procurement/receiving.ts';
import { applyReturnNote, checkReturnNote, reverseReturnNote } from '../../domain/sales/sales-return.ts';
import { MAX_MOVE_QTY } from '../../domain/stock/ledger.ts';
import { checkReceiptLines } from '../../domain/procurement/receipt-lines.ts';
import { defineDocument, type SaveRun, sentLines, type TransitionRun } from '../definition.ts';
import { packInputs } from '../pack-inputs.ts';
import { TypedTenant } from '../../db/typed.ts';

const status = (s: keyof typeof DOC_STATUS, color: string) => ({ label: DOC_STATUS[s], color });
const ID = { type: 'integer', min: 1, max: 2_147_483_647 } as const;

/** The note's lines against the order (and its task): quantities, locations, over-receipt, duplicates. */
async function checkNote({ ctx, header, lines, input, verified, named }: SaveRun): Promise<void> {
  const tenant = TypedTenant.of(ctx.tenant);
  // the note's source: a purchase order (and its task), or a confirmed sales return (domain/sales/sales-return.ts)
  // a return's inbound task names its return
  if (header.taskId != null && header.returnId == null && header.orderId == null) {
    const task = await tenant.select('inboundTask').select(['returnId']).where('id', '=', Number(header.taskId)).executeTakeFirst();
    if (task?.returnId != null) header.returnId = Number(task.returnId);
  }
  if (header.returnId != null) {
    if (header.orderId != null) throw validationError([{ field: 'returnId', message: '收货单只能来自一个来源：采购订单或销售退货单' }]);
    await checkReturnNote(ctx, header, lines, sentLines(input), named);
    verified.add('locationId');
    return;
  }
  if (header.orderId == null) throw validationError([{ field: 'orderId', message: '采购订单不能为空' }]);
  const orderId = Number(header.orderId);
  const order = await tenant.select('purchaseOrder').select(['id', 'docNo', 'status', 'warehouseId']).where('id', '=', orderId).executeTakeFirst();
  if (!order) throw validationError([{ field: 'orderId', message: '采购订单不存在' }]);
  if (!RECEIVABLE.includes(String(order.status))) throw statusError(PO_TITLE, PO_STATUS, order, '收货');
  named.purchaseOrder = { id: orderId, label: String(order.docNo) };
  const warehouseId = Number(order.warehouseId);
  const wh = await tenant.select('warehouse').select(['name', 'enabled']).where('id', '=', warehouseId).executeTakeFirst();
  if (!wh || Number(wh.enabled) !== 1) throw bizError('STOCK_WAREHOUSE_DISABLED_4077', { warehouse: String(wh?.name ?? warehouseId) });
  const l = 'purchaseOrderLine';
  const orderLines = new Map<number, Row>();
  for (const r of await tenant.select(l)
    .innerJoin('product', (j) => j.onRef('product.id', '=', `${l}.productId`).onRef('product.companyId', '=', `${l}.companyId`))
    .select([`${l}.id`, `${l}.lineNo`, `${l}.productId`, `${l}.qty`, `${l}.receivedQty`, 'product.code', 'product.bigQty', 'product.midQty', 'product.unitBig', 'product.unitMid'])
    // only the lines the note names (an order of 2,000 lines is received a few at a time)
    .where(`${l}.orderId`, '=', orderId).where(`${l}.id`, 'in', [...new Set(lines.map((x) => Number(x.orderLineId)))]).execute()) orderLines.set(Number(r.id), r);
  const multiple = await receMultipleOf(ctx.db, tenant.companyId);
  await checkReceiptLines(ctx.tenant, {
    lines, raw: sentLines(input), warehouse: { id: warehouseId, name: String(wh.name) }, key: 'orderLineId', sources: orderLines,
    keyTitle: '订单明细', sourceLine: (ol) => `订单第 ${Number(ol.lineNo)} 行`,
    mismatch: (line, orderLineId) => bizError('PURCHASE_LINE_MISMATCH_4098', { doc: RN_TITLE, line, source: PO_TITLE, docNo: String(order.docNo) }, { line, orderLineId }),
    over: (ol, sum) => ((Number(ol.receivedQty) + sum) * multiple.den > Number(ol.qty) * multiple.num ? overReceipt(order, ol, sum, multiple) : undefined),
  });
  if (header.taskId != null) await checkNoteTask(ctx.tenant, Number(header.taskId), orderId, lines.map((x) => Number(x.orderLineId)));
  // locations were read above through the company's scope, with their own refusals
  verified.add('locationId');
  header.warehouseId = warehouseId;
  header.lineCount = lines.length;
  header.totalQty = lines.reduce((s, x) => s + Number(x.qty), 0);
}

/** What the posting needs of the lines; the products known when a save posts at once (checked by checkNote). */
async function postedLines(storedLines: TransitionRun['storedLines']): Promise<PostedLines> {
  const rows = await storedLines();
  const products = new Map<number, string>();
  for (const r of rows) if (typeof r.productCode === 'string') products.set(Number(r.productId), r.productCode);
  return {
    lines: rows.map((r) => ({ lineNo: Number(r.lineNo), orderLineId: Number(r.orderLineId), productId: Number(r.productId), locationId: r.locationId == null ? null : Number(r.locationId), qty: Number(r.qty) })),
    products: products.size === new Set(rows.map((r) => Number(r.productId))).size ? products : undefined,
  };
}

export const receivingNote = defineDocument({
  type: 'receivingNote',
  title: RN_TITLE,
  prefix: RN_PREFIX,
  table: 'receivingNote',
  statuses: { draft: status('draft', 'default'), posted: status('posted', 'green'), cancelled: status('cancelled', 'red') },
  editable: ['draft'],
  statusCode: 'PURCHASE_DOC_STATUS_4091',
  header: {
    // the source: a purchase order (optionally one of its inbound tasks) or a sales return
    orderId: { ...ID, type: 'integer', title: '采购订单' },
    taskId: { ...ID, type: 'integer', title: '入库任务' },
    returnId: { ...ID, type: 'integer', title: '销售退货单' },
    warehouseId: { type: 'reference', resource: 'warehouse', title: '仓库', readonly: true },
    remark: { type: 'string', title: '备注', maxLength: 500 },
    lineCount: { type: 'integer', title: '明细行数', readonly: true },
    totalQty: { type: 'integer', title: '收货数量', readonly: true },
  },
  lines: {
    table: 'receivingNoteLine',
    parent: 'noteId',
    max: 2000,
    fields: {
      orderLineId: { ...ID, type: 'integer', title: '订单明细' },
      returnLineId: { ...ID, type: 'integer', title: '退货单明细' },
      productId: { type: 'reference', resource: 'product', title: '商品', readonly: true },
      locationId: { type: 'reference', resource: 'location', title: '收货库位', labelAs: 'lcCode' },
      // in small units, or entered as big/mid/small packs (turned into small units by the hook)
      countedQty: { type: 'integer', title: '实收数量', min: 0, max: MAX_MOVE_QTY },
      damagedQty: { type: 'integer', title: '破损数量', min: 0, max: MAX_MOVE_QTY },
      // accepted into stock: counted − damaged
      qty: { type: 'integer', title: '入库数量', readonly: true },
      putawayQty: { type: 'integer', title: '已上架', readonly: true, default: 0 },
      remark: { type: 'string', title: '备注', maxLength: 200 },
    },
    reads: { productId: ['bigQty', 'midQty', 'unitBig', 'unitMid', 'unitSmall'] },
    inputs: packInputs,
  },
  hooks: {
    validate: checkNote,
    async present(ctx, docs, lines) {
      if (!docs.length) return;
      const tenant = TypedTenant.of(ctx.tenant);
      const returnIds = [...new Set(docs.flatMap((d) => (d.returnId == null ? [] : [Number(d.returnId)])))];
      const returns = new Map(returnIds.length ? (await tenant.select('salesReturn')
        .innerJoin('client', (j) => j.onRef('client.id', '=', 'salesReturn.clientId').onRef('client.companyId', '=', 'salesReturn.companyId'))
        .select(['salesReturn.id', 'salesReturn.docNo', 'client.name as clientName']).where('salesReturn.id', 'in', returnIds).execute()).map((r) => [Number(r.id), r]) : []);
      for (const d of docs) {
        const r = d.returnId == null ? undefined : returns.get(Number(d.returnId));
        Object.assign(d, { returnDocNo: text(r?.docNo), clientName: text(r?.clientName), sourceText: r ? `销售退货 ${String(r.docNo)}` : '采购收货' });
      }
      const orders = new Map((await tenant.select('purchaseOrder')
        .innerJoin('supplier', (j) => j.onRef('supplier.id', '=', 'purchaseOrder.supplierId').onRef('supplier.companyId', '=', 'purchaseOrder.companyId'))
        .select(['purchaseOrder.id', 'purchaseOrder.docNo', 'supplier.name as supplierName'])
        .where('purchaseOrder.id', 'in', [...new Set(docs.flatMap((d) => (d.orderId == null ? [] : [Number(d.orderId)])))].concat([0])).execute()).map((r) => [Number(r.id), r]));
      for (const d of docs) {
        const o = d.orderId == null ? undefined : orders.get(Number(d.orderId));
        Object.assign(d, { orderDocNo: text(o?.docNo), supplierName: text(o?.supplierName) });
      }
      if (!lines?.length) return;
      const olIds = [...new Set(lines.flatMap((l) => (l.orderLineId == null ? [] : [Number(l.orderLineId)])))];
      const ols = new Map(olIds.length ? (await tenant.select('purchaseOrderLine').select(['id', 'lineNo', 'qty', 'receivedQty'])
        .where('id', 'in', olIds).execute()).map((r) => [Number(r.id), r]) : []);
      const rlIds = [...new Set(lines.flatMap((l) => (l.returnLineId == null ? [] : [Number(l.returnLineId)])))];
      const rls = new Map(rlIds.length ? (await tenant.select('salesReturnLine').select(['id', 'lineNo', 'qty', 'receivedQty'])
        .where('id', 'in', rlIds).execute()).map((r) => [Number(r.id), r]) : []);
      for (const l of lines) {
        const ol = l.orderLineId == null ? rls.get(Number(l.returnLineId)) : ols.get(Number(l.orderLineId));
        const packs = { bigQty: Number(l.bigQty), midQty: Number(l.midQty), unitBig: text(l.unitBig), unitMid: text(l.unitMid), unitSmall: text(l.unitSmall) };
        Object.assign(l, { orderLineNo: Number(ol?.lineNo), orderedQty: Number(ol?.qty), orderReceivedQty: Number(ol?.receivedQty), units: splitUnits(Number(l.qty), packs) });
        // a note of a sales return: the return line's quantity and what it still expects
        if (l.returnLineId != null) Object.assign(l, { returnLineNo: Number(ol?.lineNo), returnQty: Number(ol?.qty), openQty: Math.max(0, Number(ol?.qty) - Number(ol?.receivedQty)) });
      }
    },
  },
  transitions: {
    post: {
      label: '过账', from: ['draft'], to: 'posted', stamp: 'posted', overlay: true,
      confirm: '确定过账收货单“{docNo}”？过账后货物计入库存。',
      async run({ ctx, db, tenant, doc, storedLines }) {
        if (doc.returnId != null) {
          await applyReturnNote(ctx, db, tenant, doc, await postedLines(storedLines));
          return { totalQty: Number(doc.totalQty) };
        }
        await applyNote(ctx, db, tenant, Number(doc.id), Number(doc.orderId), Number(doc.warehouseId), doc.taskId == null ? null : Number(doc.taskId), await postedLines(storedLines));
        return { totalQty: Number(doc.totalQty) };
      },
    },
    cancel: {
      label: '作废', from: ['draft', 'posted'], to: 'cancelled', stamp: 'cancelled', danger: true, overlay: true,
      confirm: '确定作废收货单“{docNo}”？已过账的收货单将冲回库存。',
      async run({ ctx, db, tenant, doc, from }) {
        if (from === 'posted') await reverseNote(ctx, db, tenant, doc, doc.returnId != null ? reverseReturnNote : undefined);
        return { totalQty: Number(doc.totalQty) };
      },
    },
  },
  saveThen: { flag: 'post', transition: 'post' },
  followUps: [
    { label: '上架', to: '/entrepot/putawayDetail/new?receivingNoteId={id}', statuses: ['posted'], right: 'entrepot.putaway.edit' },
  ],
  links: [{ field: 'taskId', type: 'inboundTask' }, { field: 'orderId', type: 'purchaseOrder' }, { field: 'returnId', type: 'salesReturn' }],
  names: { orderId: { table: 'purchaseOrder', column: 'docNo' }, taskId: { table: 'inboundTask', column: 'docNo' }, returnId: { table: 'salesReturn', column: 'docNo' } },
  audit: ['orderId', 'returnId', 'totalQty'],
  listFilters: ['orderId', 'taskId', 'warehouseId', 'returnId'],
  dateField: 'createdAt',
  listReads: ['purchaseOrder', 'supplier', 'salesReturn', 'client'],
  route: '/entrepot/receivingNoteDetail/{id}',
  // a note received against a sales return opens on its own screen (client and return, not supplier and order)
  routeFor: (r) => (r.returnId != null ? '/entrepot/returnReceiving/{id}' : undefined),
});
