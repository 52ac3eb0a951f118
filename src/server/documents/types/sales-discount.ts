// 折扣发票 on the document engine (issue 15): an allowance granted after the fact against one or several
// posted sales invoices of a client, one line per invoice (domain/sales/discount.ts holds the hooks).
import { cancelDiscount, checkDiscount, postDiscount, presentDiscount, SD_PREFIX, SD_TITLE } from '../../domain/sales/discount.ts';
import { defineDocument } from '../definition.ts';

const ID = { type: 'integer', min: 1, max: 2_147_483_647 } as const;

export const salesDiscount = defineDocument({
  type: 'salesDiscount',
  title: SD_TITLE,
  prefix: SD_PREFIX,
  table: 'salesDiscount',
  managed: true,
  indexes: [['clientId']],
  statuses: { draft: { label: '草稿', color: 'default' }, posted: { label: '已过账', color: 'green' }, cancelled: { label: '已作废', color: 'red' } },
  editable: ['draft'],
  removable: ['draft'],
  rights: { read: 'market.invoiceDiscountTicket', edit: 'market.invoiceDiscount.edit' },
  header: {
    clientId: { type: 'reference', resource: 'client', title: '客户', required: true },
    discountDate: { type: 'date', title: '开票日期' },
    reason: { type: 'string', title: '折让原因', maxLength: 200 },
    remark: { type: 'string', title: '备注', maxLength: 500 },
    currencyId: { type: 'reference', resource: 'currency', title: '币种', readonly: true },
    exchangeRate: { type: 'decimal', scale: 6, title: '汇率', readonly: true },
    lineCount: { type: 'integer', title: '发票数', readonly: true },
    totalAmount: { type: 'money', title: '折让金额', readonly: true },
    taxAmount: { type: 'money', title: '折让税额', readonly: true },
  },
  lines: {
    table: 'salesDiscountLine',
    parent: 'discountId',
    max: 500,
    indexes: [['invoiceId']],
    fields: {
      invoiceId: { ...ID, type: 'integer', title: '销售发票', required: true },
      amount: { type: 'money', title: '折让金额', min: 0 },
      taxRate: { type: 'decimal', scale: 2, title: '税率', readonly: true },
      taxAmount: { type: 'money', title: '税额', readonly: true },
      allocationId: { type: 'integer', title: '核销流水', readonly: true },
      remark: { type: 'string', title: '备注', maxLength: 200 },
    },
  },
  hooks: { validate: checkDiscount, present: presentDiscount },
  transitions: {
    post: {
      label: '过账', from: ['draft'], to: 'posted', stamp: 'posted', overlay: true, right: 'market.invoiceDiscount.post',
      confirm: '确定过账折扣发票“{docNo}”？过账后按行冲减各销售发票的应收款。', run: postDiscount,
    },
    cancel: {
      label: '作废', from: ['draft', 'posted'], to: 'cancelled', stamp: 'cancelled', danger: true, overlay: true, right: 'market.invoiceDiscount.post',
      confirm: '确定作废折扣发票“{docNo}”？已过账的将恢复各销售发票的应收款。', run: cancelDiscount,
    },
  },
  saveThen: { flag: 'post', transition: 'post' },
  audit: ['clientId', 'discountDate', 'reason', 'totalAmount', 'remark'],
  listFilters: ['clientId'],
  dateField: 'discountDate',
  route: '/market/invoiceDiscountTicket/{id}',
});
