// 预收款发票 on the document engine (issue 15): money asked before delivery from a sales order (an amount or a
// percentage); posting writes the receivable; what receipts paid of it is deducted on the order's normal
// invoices (domain/sales/prepayment.ts holds the hooks). Its lines are those deductions, written by the
// invoices' posting (a save sends none).
import { cancelPrepayment, checkPrepayment, postPrepayment, PP_PREFIX, PP_TITLE, presentPrepayment } from '../../domain/sales/prepayment.ts';
import { defineDocument } from '../definition.ts';

const ID = { type: 'integer', min: 1, max: 2_147_483_647 } as const;

export const prepaymentInvoice = defineDocument({
  type: 'prepaymentInvoice',
  title: PP_TITLE,
  prefix: PP_PREFIX,
  table: 'prepaymentInvoice',
  managed: true,
  indexes: [['orderId'], ['clientId']],
  statuses: { draft: { label: '草稿', color: 'default' }, posted: { label: '已过账', color: 'green' }, cancelled: { label: '已作废', color: 'red' } },
  editable: ['draft'],
  removable: ['draft'],
  rights: { read: 'market.invoicePrepayment', edit: 'market.invoicePrepaymentAdd' },
  header: {
    orderId: { ...ID, type: 'integer', title: '销售订单', required: true },
    mode: { type: 'enum', title: '预收方式', values: [{ value: 'amount', label: '按金额' }, { value: 'percent', label: '按比例' }] },
    // 按比例: a share of the order's total (e.g. 30.00 %)
    percent: { type: 'decimal', scale: 2, title: '预收比例(%)' },
    amount: { type: 'money', title: '预收金额', min: 0 },
    invoiceDate: { type: 'date', title: '开票日期' },
    dueDate: { type: 'date', title: '收款到期日' },
    remark: { type: 'string', title: '备注', maxLength: 500 },
    clientId: { type: 'reference', resource: 'client', title: '客户', readonly: true },
    currencyId: { type: 'reference', resource: 'currency', title: '币种', readonly: true },
    exchangeRate: { type: 'decimal', scale: 6, title: '汇率', readonly: true },
    orderAmount: { type: 'money', title: '订单金额', readonly: true },
    totalAmount: { type: 'money', title: '价税合计', readonly: true },
    // what normal invoices of the order took of what was paid
    deductedAmount: { type: 'money', title: '已抵扣', readonly: true, default: 0 },
  },
  lines: {
    table: 'prepaymentInvoiceLine',
    parent: 'prepaymentId',
    min: 0,
    max: 2000,
    indexes: [['invoiceId']],
    fields: {
      invoiceId: { ...ID, type: 'integer', title: '销售发票', readonly: true },
      amount: { type: 'money', title: '抵扣金额', readonly: true },
      allocationId: { type: 'integer', title: '核销流水', readonly: true },
      deductDate: { type: 'date', title: '抵扣日期', readonly: true },
    },
  },
  hooks: { validate: checkPrepayment, present: presentPrepayment },
  transitions: {
    post: {
      label: '过账', from: ['draft'], to: 'posted', stamp: 'posted', overlay: true, right: 'market.invoice.post',
      confirm: '确定过账预收款发票“{docNo}”？过账后记客户应收款。', run: postPrepayment,
    },
    cancel: {
      label: '作废', from: ['draft', 'posted'], to: 'cancelled', stamp: 'cancelled', danger: true, overlay: true, right: 'market.invoice.post',
      confirm: '确定作废预收款发票“{docNo}”？已收款的不能作废。', run: cancelPrepayment,
    },
  },
  saveThen: { flag: 'post', transition: 'post' },
  links: [{ field: 'orderId', type: 'salesOrder' }],
  names: { orderId: { table: 'salesOrder', column: 'docNo' } },
  audit: ['orderId', 'mode', 'percent', 'amount', 'invoiceDate', 'dueDate', 'remark'],
  listFilters: ['orderId', 'clientId'],
  dateField: 'invoiceDate',
  listReads: ['salesOrder', 'openItem'],
  route: '/market/invoicePrepayment/{id}',
});
