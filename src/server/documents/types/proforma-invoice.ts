// 形式发票 on the document engine (issue 15): a printable offer from a sales order, never on the ledger
// (domain/sales/proforma.ts holds the hooks).
import { MAX_MOVE_QTY } from '../../domain/stock/ledger.ts';
import { checkProforma, PF_PREFIX, PF_TITLE, prepareProforma, presentProforma } from '../../domain/sales/proforma.ts';
import { refuseCancelUnderCredit } from '../../domain/sales/proforma-credit.ts';
import { defineDocument } from '../definition.ts';

const ID = { type: 'integer', min: 1, max: 2_147_483_647 } as const;

export const proformaInvoice = defineDocument({
  type: 'proformaInvoice',
  title: PF_TITLE,
  prefix: PF_PREFIX,
  table: 'proformaInvoice',
  managed: true,
  indexes: [['orderId'], ['clientId']],
  statuses: { draft: { label: '草稿', color: 'default' }, confirmed: { label: '已出具', color: 'blue' }, cancelled: { label: '已作废', color: 'red' } },
  editable: ['draft'],
  removable: ['draft'],
  rights: { read: 'market.invoiceDetailModality', edit: 'market.invoiceModality.edit' },
  header: {
    orderId: { ...ID, type: 'integer', title: '销售订单', required: true },
    mode: { type: 'enum', title: '开票方式', required: true, values: [{ value: 'qty', label: '按数量' }, { value: 'amount', label: '按金额' }] },
    issueDate: { type: 'date', title: '开票日期' },
    validUntil: { type: 'date', title: '有效期至' },
    companyRiseId: { type: 'reference', resource: 'companyRise', title: '公司抬头' },
    taxRate: { type: 'decimal', scale: 2, title: '税率' },
    remark: { type: 'string', title: '备注', maxLength: 500 },
    clientId: { type: 'reference', resource: 'client', title: '客户', readonly: true },
    currencyId: { type: 'reference', resource: 'currency', title: '币种', readonly: true },
    lineCount: { type: 'integer', title: '明细行数', readonly: true },
    totalQty: { type: 'integer', title: '数量合计', readonly: true },
    totalAmount: { type: 'money', title: '价税合计', readonly: true },
    taxAmount: { type: 'money', title: '税额', readonly: true },
    orderAmount: { type: 'money', title: '订单金额', readonly: true },
  },
  lines: {
    table: 'proformaInvoiceLine',
    parent: 'proformaId',
    max: 2000,
    fields: {
      orderLineId: { ...ID, type: 'integer', title: '订单明细', required: true },
      productId: { type: 'reference', resource: 'product', title: '商品', readonly: true },
      qty: { type: 'integer', title: '数量', min: 0, max: MAX_MOVE_QTY },
      price: { type: 'decimal', scale: 4, title: '含税单价', readonly: true },
      // 按金额: typed; 按数量: qty × the order's net price
      amount: { type: 'money', title: '价税合计', min: 0 },
      taxAmount: { type: 'money', title: '税额', readonly: true },
      // withdrawn by issued red proformas (形式发票红冲), never beyond `amount`
      creditedAmount: { type: 'money', title: '已红冲', readonly: true, default: 0 },
      remark: { type: 'string', title: '备注', maxLength: 200 },
    },
  },
  hooks: { prepare: prepareProforma, validate: checkProforma, present: presentProforma },
  transitions: {
    confirm: { label: '出具', from: ['draft'], to: 'confirmed', stamp: 'confirmed', right: 'market.invoiceModality.edit', confirm: '确定出具形式发票“{docNo}”？出具后不能修改（形式发票不记应收）。' },
    cancel: { label: '作废', from: ['draft', 'confirmed'], to: 'cancelled', stamp: 'cancelled', danger: true, right: 'market.invoiceModality.edit', confirm: '确定作废形式发票“{docNo}”？', run: refuseCancelUnderCredit },
  },
  saveThen: { flag: 'confirm', transition: 'confirm' },
  followUps: [
    { label: '转开正式发票', to: '/market/invoiceDetail?clientId={clientId}', statuses: ['confirmed'], right: 'market.invoice.edit' },
    { label: '红冲', to: '/market/invoiceModalityBack?proformaId={id}', statuses: ['confirmed'], right: 'market.invoiceModalityBack.edit' },
  ],
  links: [{ field: 'orderId', type: 'salesOrder' }],
  names: { orderId: { table: 'salesOrder', column: 'docNo' } },
  audit: ['orderId', 'mode', 'issueDate', 'validUntil', 'totalAmount', 'remark'],
  listFilters: ['orderId', 'clientId'],
  dateField: 'issueDate',
  listReads: ['salesOrder', 'proformaCredit'],
  route: '/market/invoiceDetailModality/{id}',
});
