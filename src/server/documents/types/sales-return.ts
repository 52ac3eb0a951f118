// 销售退货单 (sales return / return inbound plan) on the document engine (DESIGN §4.4, issue 13): goods a client
// sends back from a shipped sales order. draft → confirmed (待收货: confirming creates its inbound task,
// which the warehouse receives on receiving notes) → receiving (部分收货) → received (已收货); closed
// (已关闭) from receiving with a reason, the unreceived rest cancelled; cancelled from draft, or from
// confirmed while nothing was received and no receiving note is open. The quantities it holds of the
// order lines, its task, the receiving side and the values kept for the credit note are the domain's
// (domain/sales/sales-return.ts).
import { splitUnits } from '../../../core/stock-units.ts';
import { bizError, validationError, type FieldError } from '../../http/errors.ts';
import { text, type Row } from '../../domain/procurement/common.ts';
import { lineQty } from '../../domain/procurement/purchase-order.ts';
import {
  cancelReturnTask, claimReturnOrder, closeReturnShort, createReturnTask, openNotesOfReturn, overReturn, RECEIVABLE_RETURN, refuseDraftNotesOfReturn, releaseReturned,
  returnOrderLines, RETURNABLE_ORDER, SR_PREFIX, SR_STATUS, SR_TITLE, takeReturned,
} from '../../domain/sales/sales-return.ts';
import { TASK_STATUS } from '../../domain/procurement/inbound-plan.ts';
import { returnCreditInvoice } from '../../domain/sales/credit.ts';
import { MAX_MOVE_QTY } from '../../domain/stock/ledger.ts';
import { defineDocument, sentLines } from '../definition.ts';
import { checkSourceLineClaims } from '../../domain/sales/order-line-claims.ts';
import { companyToday } from '../engine.ts';
import { packInputs } from '../pack-inputs.ts';
import { TypedTenant } from '../../db/typed.ts';

const ORDER_STATUS: Record<string, string> = { draft: '草稿', confirmed: '已确认', partlyShipped: '部分发货', shipped: '已发货', closed: '已关闭', cancelled: '已作废' };

export const salesReturn = defineDocument({
  type: 'salesReturn',
  title: SR_TITLE,
  prefix: SR_PREFIX,
  table: 'salesReturn',
  managed: true,
  statuses: {
    draft: { label: SR_STATUS.draft, color: 'default' },
    confirmed: { label: SR_STATUS.confirmed, color: 'blue' },
    receiving: { label: SR_STATUS.receiving, color: 'orange' },
    received: { label: SR_STATUS.received, color: 'green' },
    closed: { label: SR_STATUS.closed, color: 'purple' },
    cancelled: { label: SR_STATUS.cancelled, color: 'red' },
  },
  editable: ['draft'],
  removable: ['draft'],
  rights: { read: 'market.salesReturn', edit: 'market.salesReturn.edit' },
  header: {
    orderId: { type: 'integer', title: '销售订单', required: true, min: 1, max: 2_147_483_647 },
    clientId: { type: 'reference', resource: 'client', title: '客户', readonly: true },
    warehouseId: { type: 'reference', resource: 'warehouse', title: '退货仓库', readonly: true },
    currencyId: { type: 'reference', resource: 'currency', title: '币种', readonly: true },
    returnDate: { type: 'date', title: '退货日期' },
    reason: { type: 'string', title: '退货原因', maxLength: 200 },
    remark: { type: 'string', title: '备注', maxLength: 500 },
    lineCount: { type: 'integer', title: '明细行数', readonly: true },
    totalQty: { type: 'integer', title: '退货数量', readonly: true },
    // what the warehouse received of it and its value at the delivery price (order currency): the credit note's base
    receivedQty: { type: 'integer', title: '已收货', readonly: true, default: 0 },
    receivedAmount: { type: 'money', title: '已收货金额', readonly: true, default: 0 },
    closeReason: { type: 'string', title: '关闭原因', readonly: true, maxLength: 500 },
  },
  lines: {
    table: 'salesReturnLine',
    parent: 'returnId',
    max: 2000,
    fields: {
      orderLineId: { type: 'integer', title: '订单明细', required: true, min: 1, max: 2_147_483_647 },
      productId: { type: 'reference', resource: 'product', title: '商品', readonly: true },
      qty: { type: 'integer', title: '退货数量', min: 0, max: MAX_MOVE_QTY },
      // the order line's price and discount, kept as they were delivered
      price: { type: 'decimal', scale: 4, title: '单价', readonly: true },
      discount: { type: 'decimal', scale: 2, title: '折扣(%)', readonly: true, default: 0 },
      receivedQty: { type: 'integer', title: '已收货', readonly: true, default: 0 },
      receivedAmount: { type: 'money', title: '已收货金额', readonly: true, default: 0 },
      remark: { type: 'string', title: '备注', maxLength: 200 },
    },
    reads: { productId: ['specification', 'bigQty', 'midQty', 'unitBig', 'unitMid', 'unitSmall'] },
    indexes: [['orderLineId']],
    inputs: packInputs,
  },
  indexes: [['orderId']],
  hooks: {
    async validate({ ctx, header, lines, input, id, verified, named }) {
      const tenant = TypedTenant.of(ctx.tenant);
      const orderId = Number(header.orderId);
      const order = await tenant.select('salesOrder').select(['id', 'docNo', 'status', 'clientId', 'warehouseId', 'currencyId']).where('id', '=', orderId).executeTakeFirst();
      if (!order) throw validationError([{ field: 'orderId', message: '销售订单不存在' }]);
      if (!RETURNABLE_ORDER.includes(String(order.status))) {
        const s = String(order.status);
        throw bizError('DOCUMENT_STATUS_4131', { doc: '销售订单', docNo: String(order.docNo), status: ORDER_STATUS[s] ?? s, action: '退货（尚未发货）' }, { id: orderId, status: s });
      }
      named.salesOrder = { id: orderId, label: String(order.docNo) };
      header.clientId = Number(order.clientId);
      header.warehouseId = Number(order.warehouseId);
      header.currencyId = order.currencyId == null ? null : Number(order.currencyId);
      header.returnDate ??= companyToday(ctx);
      await checkSourceLineClaims({
        tenant: ctx.tenant, lines, raw: sentLines(input), doc: SR_TITLE, source: { title: '销售订单', docNo: String(order.docNo) },
        sourceLines: new Map((await returnOrderLines(ctx.tenant, orderId)).map((r) => [Number(r.id), r])),
        held: id === undefined ? undefined : { table: 'salesReturnLine', parent: 'returnId', id },
        qtyTitle: '退货数量',
        fits: (ol, returned, qty) => { if (returned + qty > Number(ol.shippedQty)) throw overReturn(order, { ...ol, returnedQty: returned }, qty); },
        fill: (l, ol, qty) => Object.assign(l, { qty, productId: Number(ol.productId), price: Number(ol.price), discount: Number(ol.discount ?? 0), receivedQty: 0, receivedAmount: 0 }),
      }, (ol) => Number(ol.returnedQty));
      verified.add('productId');
      verified.add('clientId');
      verified.add('warehouseId');
      verified.add('currencyId');
      header.lineCount = lines.length;
      header.totalQty = lines.reduce((s, l) => s + Number(l.qty), 0);
      header.receivedQty = 0;
      header.receivedAmount = 0;
    },
    async saving({ tenant, header, lines, docId, created }) {
      if (!created) await releaseReturned(tenant, docId);
      const order = await claimReturnOrder(tenant, Number(header.orderId), '退货');
      await takeReturned(tenant, order, lines.map((l) => ({ orderLineId: Number(l.orderLineId), qty: Number(l.qty) })));
    },
    async present(ctx, docs, lines) {
      if (!docs.length) return;
      const tenant = TypedTenant.of(ctx.tenant);
      const orders = new Map((await tenant.select('salesOrder').select(['id', 'docNo'])
        .where('id', 'in', [...new Set(docs.map((d) => Number(d.orderId)))]).execute()).map((r) => [Number(r.id), r]));
      for (const d of docs) {
        d.orderDocNo = text(orders.get(Number(d.orderId))?.docNo);
        d.openQty = RECEIVABLE_RETURN.includes(String(d.status)) ? Math.max(0, Number(d.totalQty) - Number(d.receivedQty)) : 0;
      }
      if (!lines) return;
      const doc = docs[0]!;
      const ols = new Map(lines.length ? (await tenant.select('salesOrderLine').select(['id', 'lineNo', 'qty', 'shippedQty', 'returnedQty'])
        .where('id', 'in', [...new Set(lines.map((l) => Number(l.orderLineId)))]).execute()).map((r) => [Number(r.id), r]) : []);
      for (const l of lines) {
        const ol = ols.get(Number(l.orderLineId));
        const packs = { bigQty: Number(l.bigQty), midQty: Number(l.midQty), unitBig: text(l.unitBig), unitMid: text(l.unitMid), unitSmall: text(l.unitSmall) };
        Object.assign(l, {
          orderLineNo: Number(ol?.lineNo), orderedQty: Number(ol?.qty), shippedQty: Number(ol?.shippedQty ?? 0), orderReturnedQty: Number(ol?.returnedQty ?? 0),
          // what the order line can still take back (a draft's own quantity is held on the line and may be changed)
          leftQty: Math.max(0, Number(ol?.shippedQty ?? 0) - Number(ol?.returnedQty ?? 0) + (doc.status === 'draft' ? Number(l.qty) : 0)),
          units: splitUnits(Number(l.qty), packs), openQty: Math.max(0, Number(l.qty) - Number(l.receivedQty)),
        });
      }
      const task = await tenant.select('inboundTask').select(['id', 'docNo', 'status']).where('returnId', '=', Number(doc.id)).orderBy('id', 'desc').executeTakeFirst();
      Object.assign(doc, { taskId: task ? Number(task.id) : null, taskDocNo: text(task?.docNo), taskStatusText: task ? (TASK_STATUS as Record<string, string>)[String(task.status)] ?? String(task.status) : null });
      const notes = await tenant.select('receivingNote').select(['id', 'docNo', 'status', 'totalQty']).where('returnId', '=', Number(doc.id)).orderBy('id').execute();
      const NOTE: Record<string, string> = { draft: '草稿', posted: '已过账', cancelled: '已作废' };
      // 开红字发票: the posted invoice that covered the received lines and can still credit them (null: not invoiced)
      doc.creditInvoiceId = await returnCreditInvoice(ctx.tenant, Number(doc.id));
      doc.receivingNotes = notes.map((n) => ({ id: Number(n.id), docNo: String(n.docNo), status: String(n.status), statusText: NOTE[String(n.status)] ?? String(n.status), totalQty: Number(n.totalQty), route: `/entrepot/receivingNoteDetail/${Number(n.id)}` }));
    },
  },
  transitions: {
    confirm: {
      label: '确认', from: ['draft'], to: 'confirmed', right: 'market.salesReturn.confirm', stamp: 'confirmed', overlay: true,
      confirm: '确定确认销售退货单“{docNo}”？确认后生成入库任务，仓库按入库任务收货。',
      async run({ ctx, db, tenant, doc }) {
        await claimReturnOrder(tenant, Number(doc.orderId), '确认退货');
        const task = await createReturnTask(ctx, db, tenant, doc);
        return { totalQty: Number(doc.totalQty), taskId: task.id, taskDocNo: task.docNo };
      },
    },
    close: {
      label: '关闭', from: ['receiving'], to: 'closed', right: 'market.salesReturn.confirm', stamp: 'closed',
      input: { properties: { reason: { type: 'string', maxLength: 500, title: '关闭原因' } }, required: ['reason'] },
      async before({ tenant, doc, input }) {
        if (!String(input.reason ?? '').trim()) throw validationError([{ field: 'reason', message: '请填写关闭原因' }]);
        if (doc.status === 'receiving') await refuseDraftNotesOfReturn(tenant, doc);
      },
      // the unreceived rest is cancelled (given back to the order lines) and the task closed with it
      async run({ ctx, db, tenant, doc, input, audit }) {
        const reason = String(input.reason).trim();
        const { releasedQty, taskDocNo } = await closeReturnShort(ctx, db, tenant, doc, reason);
        audit.push({ field: 'closeReason', title: '关闭原因', from: null, to: reason }, { field: 'releasedQty', title: '取消未收数量', from: null, to: releasedQty });
        return { receivedQty: Number(doc.receivedQty), releasedQty, taskDocNo };
      },
    },
    cancel: {
      label: '作废', from: ['draft', 'confirmed'], to: 'cancelled', right: 'market.salesReturn.confirm', stamp: 'cancelled', danger: true, overlay: true,
      // a confirmed return can be cancelled only while nothing was received
      onlyWhen: { confirmed: { receivedQty: 0 } },
      // cancelEffect: the definition's repeal preview (below), filled in by `get`
      confirm: '确定作废销售退货单“{docNo}”？{cancelEffect}',
      async run({ ctx, db, tenant, doc }) {
        const notes = await openNotesOfReturn(tenant, Number(doc.id));
        if (notes.length) throw bizError('PURCHASE_DEPENDENT_DOCS_4096', { doc: SR_TITLE, docNo: String(doc.docNo), next: notes.join('、') }, { id: Number(doc.id), notes });
        await releaseReturned(tenant, Number(doc.id));
        await cancelReturnTask(ctx, db, tenant, doc);
        return { totalQty: Number(doc.totalQty) };
      },
    },
  },
  followUps: [
    { label: '入库任务', to: '/entrepot/inboundTaskDetail/{taskId}', statuses: ['confirmed', 'receiving', 'received', 'closed'], right: 'entrepot.inboundTaskDetail', when: (doc) => doc.taskId != null },
    {
      label: '收货', to: '/entrepot/returnReceiving/new?returnId={id}', statuses: ['confirmed', 'receiving'], right: 'entrepot.returnReceiving',
      when: (doc) => Number(doc.openQty) > 0,
    },
    {
      // a red invoice (销售退回) for what was received, on the invoice that covered the returned lines
      label: '开红字发票', to: '/market/invoiceDetailBack?invoiceId={creditInvoiceId}&reason=return&returnId={id}&returnDocNo={docNo}', statuses: ['receiving', 'received', 'closed'], right: 'market.invoiceBack.edit',
      when: (doc) => doc.creditInvoiceId != null,
    },
  ],
  // what a cancellation undoes, for the 作废 confirmation and the sales repeal desk (engineTarget reads it)
  repeal: {
    columns: ['lineCount', 'totalQty', 'receivedQty', 'orderId'],
    async describe(tenant, f) {
      const status = (SR_STATUS as Record<string, string>)[f.status] ?? f.status;
      if (!['draft', 'confirmed'].includes(f.status) || Number(f.row.receivedQty) > 0) {
        return { cancellable: false, blockers: [], effect: `${SR_TITLE} ${f.docNo} 当前状态为“${status}”${Number(f.row.receivedQty) > 0 ? `（已收货 ${Number(f.row.receivedQty)} 个）` : ''}，不能作废` };
      }
      const order = await TypedTenant.of(tenant).select('salesOrder').select('docNo').where('id', '=', Number(f.row.orderId)).executeTakeFirst();
      const notes = await openNotesOfReturn(tenant, f.id);
      return {
        cancellable: !notes.length, blockers: notes.map((docNo) => ({ docType: 'receivingNote', docTypeText: '收货单', docNo })),
        effect: `销售退货单 ${f.docNo} ${f.status === 'draft' ? '为草稿' : '已确认、尚未收货'}：作废退货单，退还销售订单 ${String(order?.docNo ?? '')} 的退货数量 ${Number(f.row.totalQty)} 个（${Number(f.row.lineCount)} 行）`,
      };
    },
  },
  links: [{ field: 'orderId', type: 'salesOrder' }],
  names: { orderId: { table: 'salesOrder', column: 'docNo' } },
  audit: ['orderId', 'returnDate', 'reason', 'totalQty'],
  stampsAlso: ['received'],
  listFilters: ['orderId', 'clientId', 'warehouseId'],
  dateField: 'returnDate',
  listReads: ['salesOrder'],
  export: {
    header: ['docNo', 'statusText', { key: 'orderDocNo', title: '销售订单', width: 18 }, 'clientId', 'warehouseId', 'returnDate', 'reason', 'receivedQty', 'receivedAmount'],
    lines: ['lineNo', { key: 'productCode', title: '商品编码', width: 16 }, { key: 'productName', title: '商品名称', width: 30 }, 'qty', 'price', 'discount', 'receivedQty', 'receivedAmount', 'remark'],
  },
  route: '/market/salesReturnDetail/{id}',
});
