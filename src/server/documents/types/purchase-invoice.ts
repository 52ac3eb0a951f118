// 采购发票 on the document engine (DESIGN §4.4): a supplier's invoice matched to posted receiving lines.
// draft → posted, or cancelled (from draft, or from posted while nothing of its payable is paid and its
// invoice stock is still there); a draft can be saved and posted in one call (`post: true`). Posting
// takes the invoiced quantities on the receiving lines, writes the payable and grows invoice stock, in
// the transition's transaction (domain/procurement/invoice.ts holds the hooks).
import { MAX_MOVE_QTY } from '../../domain/stock/ledger.ts';
import { DOC_STATUS } from '../../domain/procurement/common.ts';
import {
  cancelInvoice, checkInvoice, INVOICE_DATE_FILTER, invoiceNoConflict, PI_MAX_LINES, PI_PREFIX, PI_TITLE, postInvoice, presentInvoice,
} from '../../domain/procurement/invoice.ts';
import { defineDocument } from '../definition.ts';
import { packInputs } from '../pack-inputs.ts';

const status = (s: keyof typeof DOC_STATUS, color: string) => ({ label: DOC_STATUS[s], color });
const ID_MAX = 2_147_483_647;

export const purchaseInvoice = defineDocument({
  type: 'purchaseInvoice',
  title: PI_TITLE,
  prefix: PI_PREFIX,
  table: 'purchaseInvoice',
  statuses: { draft: status('draft', 'default'), posted: status('posted', 'green'), cancelled: status('cancelled', 'red') },
  editable: ['draft'],
  statusCode: 'PURCHASE_DOC_STATUS_4091',
  header: {
    supplierId: { type: 'reference', resource: 'supplier', title: '供应商', required: true },
    invoiceNo: { type: 'string', title: '发票号', required: true, maxLength: 50 },
    // default: the currency of the first matched order
    currencyId: { type: 'reference', resource: 'currency', title: '币种' },
    invoiceDate: { type: 'date', title: '发票日期' },
    dueDate: { type: 'date', title: '付款到期日' },
    companyRiseId: { type: 'reference', resource: 'companyRise', title: '公司抬头' },
    // percent with 2 decimals (stored × 100); 0–100 checked by the hook with its own message
    taxRate: { type: 'decimal', scale: 2, title: '税率' },
    remark: { type: 'string', title: '备注', maxLength: 500 },
    exchangeRate: { type: 'decimal', scale: 6, title: '汇率', readonly: true },
    rateDate: { type: 'date', title: '汇率日期', readonly: true },
    lineCount: { type: 'integer', title: '明细行数', readonly: true },
    totalQty: { type: 'integer', title: '数量合计', readonly: true },
    totalAmount: { type: 'money', title: '金额合计', readonly: true },
    taxAmount: { type: 'money', title: '税额', readonly: true },
  },
  lines: {
    table: 'purchaseInvoiceLine',
    parent: 'invoiceId',
    max: PI_MAX_LINES,
    fields: {
      receivingLineId: { type: 'integer', title: '收货明细', required: true, min: 1, max: ID_MAX },
      // filled from the receiving line by the hook
      receivingNoteId: { type: 'integer', title: '收货单', readonly: true },
      orderLineId: { type: 'integer', title: '订单明细', readonly: true },
      orderId: { type: 'integer', title: '采购订单', readonly: true },
      productId: { type: 'reference', resource: 'product', title: '商品', readonly: true },
      qty: { type: 'integer', title: '开票数量', min: -MAX_MOVE_QTY, max: MAX_MOVE_QTY },
      // default: the order line's price
      price: { type: 'decimal', scale: 4, title: '单价', min: 0, max: '1000000000' },
      amount: { type: 'money', title: '金额', readonly: true },
      remark: { type: 'string', title: '备注', maxLength: 200 },
    },
    reads: { productId: ['specification', 'bigQty', 'midQty', 'unitBig', 'unitMid', 'unitSmall'] },
    inputs: packInputs,
  },
  hooks: { validate: checkInvoice, conflict: invoiceNoConflict, present: presentInvoice },
  transitions: {
    post: {
      label: '过账', from: ['draft'], to: 'posted', stamp: 'posted', overlay: true,
      confirm: '确定过账采购发票“{docNo}”？过账后生成应付款。', run: postInvoice,
    },
    cancel: {
      label: '作废', from: ['draft', 'posted'], to: 'cancelled', stamp: 'cancelled', danger: true, overlay: true,
      confirm: '确定作废采购发票“{docNo}”？已过账的将冲回开票数量并作废应付款。', run: cancelInvoice,
    },
  },
  saveThen: { flag: 'post', transition: 'post' },
  audit: ['supplierId', 'invoiceNo', 'totalQty', 'totalAmount'],
  listFilters: ['supplierId'],
  // the number filter finds the supplier's invoice number too
  docNoAlso: ['invoiceNo'],
  dateField: 'invoiceDate',
  listWhere: INVOICE_DATE_FILTER,
  listReads: ['supplierPayable'],
  export: {
    header: ['docNo', 'statusText', 'invoiceNo', 'invoiceDate', 'dueDate', 'supplierId', { key: 'currencyName', title: '币种', width: 8 }, 'exchangeRate'],
    lines: [
      'lineNo', { key: 'receivingDocNo', title: '收货单', width: 18 }, { key: 'orderDocNo', title: '采购订单', width: 18 }, { key: 'productCode', title: '商品编码', width: 16 },
      { key: 'productName', title: '商品名称', width: 30 }, { key: 'qty', title: '数量', width: 10 }, 'price', 'amount', { key: 'remark', title: '备注', width: 30, from: 'doc' },
    ],
  },
  route: '/procurement/invoiceDetail/{id}',
});
