// 退货出库计划 on the document engine (DESIGN §4.4): goods sent back to a supplier. draft → confirmed →
// shipped; cancelled from each of them. Confirming takes the returned quantities on the receiving lines
// and reserves the goods at their locations, shipping takes them out, cancelling undoes either — each
// in the transition's own transaction (domain/procurement/purchase-return.ts holds the hooks, the lines
// modal's per-line edits, the returnable lines and the printable sheet). The spec gives return plans no
// detail route: a plan opens as its list filtered to its number.
import {
  cancelReturn, checkReturnLines, confirmReturn, prepareReturn, presentReturn, RETURN_MAX_LINES, RETURN_PREFIX, RETURN_STATUS, RETURN_TITLE, shipReturn,
} from '../../domain/procurement/purchase-return.ts';
import { defineDocument } from '../definition.ts';
import { packInputs } from '../pack-inputs.ts';

const status = (s: keyof typeof RETURN_STATUS, color: string) => ({ label: RETURN_STATUS[s], color });

export const returnPlan = defineDocument({
  type: 'returnPlan',
  title: RETURN_TITLE,
  prefix: RETURN_PREFIX,
  table: 'returnPlan',
  statuses: { draft: status('draft', 'default'), confirmed: status('confirmed', 'blue'), shipped: status('shipped', 'green'), cancelled: status('cancelled', 'red') },
  editable: ['draft'],
  statusCode: 'PURCHASE_DOC_STATUS_4091',
  header: {
    // filled from the receiving note, or kept from the plan being edited (prepare hook)
    supplierId: { type: 'reference', resource: 'supplier', title: '供应商', required: true },
    warehouseId: { type: 'reference', resource: 'warehouse', title: '仓库', required: true },
    reason: { type: 'string', title: '退货原因', required: true, maxLength: 500 },
    remark: { type: 'string', title: '备注', maxLength: 500 },
    // the source order and note when every line names the same one; the currency of their prices
    orderId: { type: 'integer', title: '采购订单', readonly: true },
    receivingNoteId: { type: 'integer', title: '收货单', readonly: true },
    currencyId: { type: 'reference', resource: 'currency', title: '币种', readonly: true },
    lineCount: { type: 'integer', title: '明细行数', readonly: true },
    totalQty: { type: 'integer', title: '退货数量', readonly: true },
    totalAmount: { type: 'money', title: '金额合计', readonly: true },
  },
  lines: {
    table: 'returnPlanLine',
    parent: 'planId',
    // one line without a location may become several (one per location that holds the goods)
    max: RETURN_MAX_LINES,
    fields: {
      receivingLineId: { type: 'integer', title: '收货明细', min: 1, max: 2_147_483_647 },
      productId: { type: 'reference', resource: 'product', title: '商品' },
      locationId: { type: 'reference', resource: 'location', title: '出库库位', labelAs: 'lcCode' },
      qty: { type: 'integer', title: '退货数量' },
      // of a line without a receiving line; one with it takes its order line's price
      price: { type: 'decimal', scale: 4, title: '单价', min: 0, max: '1000000000' },
      amount: { type: 'money', title: '金额', readonly: true },
      remark: { type: 'string', title: '备注', maxLength: 200 },
    },
    reads: { productId: ['specification', 'bigQty', 'midQty', 'unitBig', 'unitMid', 'unitSmall'] },
    inputs: packInputs,
  },
  hooks: { prepare: prepareReturn, validate: checkReturnLines, present: presentReturn },
  transitions: {
    confirm: {
      label: '确认', from: ['draft'], to: 'confirmed', stamp: 'confirmed', overlay: true,
      confirm: '确定确认退货出库计划“{docNo}”？确认后占用可退数量并预留库存。', run: confirmReturn,
    },
    ship: {
      label: '出库', from: ['confirmed'], to: 'shipped', stamp: 'shipped', overlay: true,
      confirm: '确定退货出库“{docNo}”？预留的库存将从出库库位出库。', run: shipReturn,
    },
    cancel: {
      label: '作废', from: ['draft', 'confirmed', 'shipped'], to: 'cancelled', stamp: 'cancelled', danger: true, overlay: true,
      confirm: '确定作废退货出库计划“{docNo}”？已确认的释放预留，已出库的冲回出库。', run: cancelReturn,
    },
  },
  audit: ['supplierId', 'reason', 'lineCount', 'totalQty'],
  listFilters: ['supplierId', 'warehouseId'],
  dateField: 'createdAt',
  listReads: ['purchaseOrder', 'receivingNote'],
  route: '/procurement/outPlan/list?docNo={docNo}',
});
