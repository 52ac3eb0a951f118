// 红字发票 on the document engine (issue 15): a credit against a posted sales invoice, with a reason
// (开票有误: the whole invoice; 销售退回: quantities; 销售折让: amounts). draft → posted → cancelled; a draft
// can be saved and posted in one call. Posting reduces the original's receivable through the allocation
// ledger (domain/sales/credit.ts holds the hooks).
import { MAX_MOVE_QTY } from '../../domain/stock/ledger.ts';
import { cancelCredit, checkCredit, CREDIT_REASONS, postCredit, prepareCredit, presentCredit, SC_PREFIX, SC_TITLE } from '../../domain/sales/credit.ts';
import { defineDocument } from '../definition.ts';

const ID = { type: 'integer', min: 1, max: 2_147_483_647 } as const;

export const salesCredit = defineDocument({
  type: 'salesCredit',
  title: SC_TITLE,
  prefix: SC_PREFIX,
  table: 'salesCredit',
  managed: true,
  indexes: [['invoiceId'], ['clientId'], ['returnId']],
  statuses: { draft: { label: '草稿', color: 'default' }, posted: { label: '已过账', color: 'red' }, cancelled: { label: '已作废', color: 'default' } },
  editable: ['draft'],
  removable: ['draft'],
  rights: { read: 'market.invoiceDetailBack', edit: 'market.invoiceBack.edit' },
  header: {
    invoiceId: { ...ID, type: 'integer', title: '原销售发票', required: true },
    reason: { type: 'enum', title: '红冲原因', required: true, values: Object.entries(CREDIT_REASONS).map(([value, label]) => ({ value, label })) },
    creditDate: { type: 'date', title: '开票日期' },
    // 开红字发票 from a received sales return (销售退回): the return it credits
    returnId: { type: 'integer', title: '销售退货单', min: 1, max: 2_147_483_647 },
    remark: { type: 'string', title: '备注', maxLength: 500 },
    clientId: { type: 'reference', resource: 'client', title: '客户', readonly: true },
    currencyId: { type: 'reference', resource: 'currency', title: '币种', readonly: true },
    exchangeRate: { type: 'decimal', scale: 6, title: '汇率', readonly: true },
    lineCount: { type: 'integer', title: '明细行数', readonly: true },
    totalQty: { type: 'integer', title: '冲红数量', readonly: true },
    totalAmount: { type: 'money', title: '冲红金额', readonly: true },
    taxAmount: { type: 'money', title: '冲红税额', readonly: true },
    // the allocation row that reduced the original's receivable
    allocationId: { type: 'integer', title: '核销流水', readonly: true },
  },
  lines: {
    table: 'salesCreditLine',
    parent: 'creditId',
    max: 2000,
    indexes: [['invoiceLineId']],
    fields: {
      invoiceLineId: { ...ID, type: 'integer', title: '原发票明细', required: true },
      productId: { type: 'reference', resource: 'product', title: '商品', readonly: true },
      qty: { type: 'integer', title: '冲红数量', min: 0, max: MAX_MOVE_QTY },
      // 销售折让: typed; otherwise qty × the invoice's price
      amount: { type: 'money', title: '冲红金额', min: 0 },
      price: { type: 'decimal', scale: 4, title: '含税单价', readonly: true },
      taxRate: { type: 'decimal', scale: 2, title: '税率', readonly: true },
      taxAmount: { type: 'money', title: '税额', readonly: true },
      remark: { type: 'string', title: '备注', maxLength: 200 },
    },
  },
  hooks: { prepare: prepareCredit, validate: checkCredit, present: presentCredit },
  transitions: {
    post: {
      label: '过账', from: ['draft'], to: 'posted', stamp: 'posted', overlay: true, right: 'market.invoiceBack.post',
      confirm: '确定过账红字发票“{docNo}”？过账后冲减原发票的应收款。', run: postCredit,
    },
    cancel: {
      label: '作废', from: ['draft', 'posted'], to: 'cancelled', stamp: 'cancelled', danger: true, overlay: true, right: 'market.invoiceBack.post',
      confirm: '确定作废红字发票“{docNo}”？已过账的将恢复原发票的应收款。', run: cancelCredit,
    },
  },
  saveThen: { flag: 'post', transition: 'post' },
  links: [{ field: 'invoiceId', type: 'salesInvoice' }, { field: 'returnId', type: 'salesReturn' }],
  names: { invoiceId: { table: 'salesInvoice', column: 'docNo' }, returnId: { table: 'salesReturn', column: 'docNo' } },
  audit: ['invoiceId', 'reason', 'creditDate', 'totalQty', 'totalAmount', 'remark'],
  listFilters: ['invoiceId', 'clientId'],
  dateField: 'creditDate',
  listReads: ['salesInvoice', 'salesReturn'],
  route: '/market/invoiceDetailBack/{id}',
});
