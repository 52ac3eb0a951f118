// 销售发票 on the document engine (issue 15): a client's invoice matched to shipped delivery-note lines.
// draft → posted, or cancelled (from draft, or from posted while nothing is allocated against its
// receivable); a draft can be saved and posted in one call (`post: true`). Posting takes the invoiced
// quantities on the delivery lines, writes the receivable and takes invoice stock, in the transition's
// transaction (domain/sales/invoice.ts holds the hooks).
import { MAX_MOVE_QTY } from '../../domain/stock/ledger.ts';
import {
  cancelSalesInvoice, checkSalesInvoice, invoiceChainDown, postSalesInvoice, presentSalesInvoice, SI_DATE_FILTER, SI_MAX_LINES, SI_PREFIX, SI_TITLE,
} from '../../domain/sales/invoice.ts';
import { defineDocument } from '../definition.ts';

const ID = { type: 'integer', min: 1, max: 2_147_483_647 } as const;

export const salesInvoice = defineDocument({
  type: 'salesInvoice',
  title: SI_TITLE,
  prefix: SI_PREFIX,
  table: 'salesInvoice',
  managed: true,
  indexes: [['clientId'], ['deliveryNoteId']],
  statuses: { draft: { label: '草稿', color: 'default' }, posted: { label: '已过账', color: 'green' }, cancelled: { label: '已作废', color: 'red' } },
  editable: ['draft'],
  removable: ['draft'],
  rights: { read: 'market.invoice', edit: 'market.invoice.edit' },
  header: {
    clientId: { type: 'reference', resource: 'client', title: '客户', required: true },
    // the tax invoice's number once the tax system issued it (增值税发票号码), optional
    invoiceNo: { type: 'string', title: '发票号码', maxLength: 50 },
    // default: the currency of the first matched order
    currencyId: { type: 'reference', resource: 'currency', title: '币种' },
    invoiceDate: { type: 'date', title: '开票日期' },
    dueDate: { type: 'date', title: '收款到期日' },
    // default: the first order's title, else the company's default title
    companyRiseId: { type: 'reference', resource: 'companyRise', title: '公司抬头' },
    // percent with 2 decimals (stored × 100): the lines' rate unless a line names its own
    taxRate: { type: 'decimal', scale: 2, title: '税率' },
    remark: { type: 'string', title: '备注', maxLength: 500 },
    // the delivery note of the first line (the document chain: 送货单 → 销售发票)
    deliveryNoteId: { ...ID, type: 'integer', title: '送货单', readonly: true },
    exchangeRate: { type: 'decimal', scale: 6, title: '汇率', readonly: true },
    rateDate: { type: 'date', title: '汇率日期', readonly: true },
    lineCount: { type: 'integer', title: '明细行数', readonly: true },
    totalQty: { type: 'integer', title: '数量合计', readonly: true },
    totalAmount: { type: 'money', title: '价税合计', readonly: true },
    taxAmount: { type: 'money', title: '税额', readonly: true },
    totalAmountBase: { type: 'money', title: '本位币金额', readonly: true },
    // what posted red invoices took of it (domain/sales/credit.ts)
    creditedAmount: { type: 'money', title: '已冲红金额', readonly: true, default: 0 },
    // 预收款抵扣: what prepayment invoices of its orders, paid, took off its receivable at posting
    prepaymentDeducted: { type: 'money', title: '预收款抵扣', readonly: true, default: 0 },
  },
  lines: {
    table: 'salesInvoiceLine',
    parent: 'invoiceId',
    max: SI_MAX_LINES,
    indexes: [['deliveryLineId'], ['orderId']],
    fields: {
      deliveryLineId: { ...ID, type: 'integer', title: '送货明细', required: true },
      // filled from the delivery line by the hook
      deliveryNoteId: { ...ID, type: 'integer', title: '送货单', readonly: true },
      orderLineId: { ...ID, type: 'integer', title: '订单明细', readonly: true },
      orderId: { ...ID, type: 'integer', title: '销售订单', readonly: true },
      productId: { type: 'reference', resource: 'product', title: '商品', readonly: true },
      qty: { type: 'integer', title: '开票数量', min: -MAX_MOVE_QTY, max: MAX_MOVE_QTY },
      // default: the order line's price less its discount (tax included)
      price: { type: 'decimal', scale: 4, title: '含税单价', min: 0, max: '1000000000' },
      // default: the header's
      taxRate: { type: 'decimal', scale: 2, title: '税率', min: 0, max: 100 },
      amount: { type: 'money', title: '价税合计', readonly: true },
      taxAmount: { type: 'money', title: '税额', readonly: true },
      amountBase: { type: 'money', title: '本位币金额', readonly: true },
      creditedQty: { type: 'integer', title: '已冲红数量', readonly: true, default: 0 },
      creditedAmount: { type: 'money', title: '已冲红金额', readonly: true, default: 0 },
      remark: { type: 'string', title: '备注', maxLength: 200 },
    },
    reads: { productId: ['specification', 'bigQty', 'midQty', 'unitBig', 'unitMid', 'unitSmall'] },
  },
  hooks: { validate: checkSalesInvoice, present: presentSalesInvoice, chainDown: invoiceChainDown },
  transitions: {
    post: {
      label: '过账', from: ['draft'], to: 'posted', stamp: 'posted', overlay: true, right: 'market.invoice.post',
      confirm: '确定过账销售发票“{docNo}”？过账后生成客户应收款。', run: postSalesInvoice,
    },
    cancel: {
      label: '作废', from: ['draft', 'posted'], to: 'cancelled', stamp: 'cancelled', danger: true, overlay: true, right: 'market.invoice.cancel',
      confirm: '确定作废销售发票“{docNo}”？已过账的将冲回开票数量并作废应收款（已收款核销的不能作废）。', run: cancelSalesInvoice,
    },
  },
  saveThen: { flag: 'post', transition: 'post' },
  links: [{ field: 'deliveryNoteId', type: 'deliveryNote' }],
  followUps: [{ label: '开红字发票', to: '/market/invoiceDetailBack?invoiceId={id}', statuses: ['posted'], right: 'market.invoiceBack.edit' }],
  names: { deliveryNoteId: { table: 'deliveryNote', column: 'docNo' } },
  audit: ['clientId', 'invoiceNo', 'invoiceDate', 'dueDate', 'taxRate', 'totalQty', 'totalAmount'],
  listFilters: ['clientId'],
  docNoAlso: ['invoiceNo'],
  dateField: 'invoiceDate',
  listWhere: SI_DATE_FILTER,
  listReads: ['openItem'],
  export: {
    header: ['docNo', 'statusText', 'invoiceNo', 'invoiceDate', 'dueDate', 'clientId', { key: 'currencyName', title: '币种', width: 8 }, 'exchangeRate'],
    lines: [
      'lineNo', { key: 'deliveryDocNo', title: '送货单', width: 18 }, { key: 'orderDocNo', title: '销售订单', width: 18 }, { key: 'productCode', title: '商品编码', width: 16 },
      { key: 'productName', title: '商品名称', width: 30 }, { key: 'qty', title: '数量', width: 10 }, 'price', 'taxRate', 'amount', 'taxAmount', { key: 'remark', title: '备注', width: 30, from: 'doc' },
    ],
  },
  route: '/market/invoiceDetail/{id}',
});
