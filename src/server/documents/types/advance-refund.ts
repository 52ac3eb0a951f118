// 退款单 on the document engine: an advance paid back — to a client (退预收款) or from a supplier (预付款退回).
// draft → posted (the refund booked as the party's item, settled at once by the advances of the lines) →
// reversed (冲销: the allocations undone, the item cancelled, the advances back); a draft may be cancelled
// or deleted. domain/finance/advance-refund.ts holds the hooks, domain/finance/ledger.ts the ledgers.
import {
  checkAdvanceRefund, postAdvanceRefund, presentAdvanceRefund, REFUND_KIND, REFUND_PREFIX, REFUND_TITLE, refundedAdvances, reverseAdvanceRefund,
} from '../../domain/finance/advance-refund.ts';
import { defineDocument } from '../definition.ts';
import { MONEY_DOCUMENT_STATUSES } from './pay-document.ts';

const ID_MAX = 2_147_483_647;
const MONEY_MAX = '1000000000000';
const values = (o: Record<string, string>) => Object.entries(o).map(([value, label]) => ({ value, label }));

export const advanceRefund = defineDocument({
  type: 'advanceRefund',
  title: REFUND_TITLE,
  prefix: REFUND_PREFIX,
  table: 'advanceRefund',
  managed: true,
  indexes: [['refundDate']],
  statuses: MONEY_DOCUMENT_STATUSES,
  editable: ['draft'],
  removable: ['draft'],
  rights: { read: 'financial.advance_refund', edit: 'financial.advance_refund.edit' },
  header: {
    partyType: { type: 'enum', title: '退款类型', required: true, values: values(REFUND_KIND) },
    clientId: { type: 'reference', resource: 'client', title: '客户' },
    supplierId: { type: 'reference', resource: 'supplier', title: '供应商' },
    refundDate: { type: 'date', title: '退款日期' },
    // the advances' currency, taken from the lines (a draft whose lines change currency follows them)
    currencyId: { type: 'reference', resource: 'currency', title: '币种', readonly: true },
    amount: { type: 'money', title: '退款金额', readonly: true },
    method: { type: 'enum', title: '结算方式', values: values({ bank: '银行转账', cash: '现金' }) },
    account: { type: 'string', title: '收付款账户', maxLength: 100 },
    remark: { type: 'string', title: '备注', maxLength: 500 },
    exchangeRate: { type: 'decimal', scale: 6, title: '汇率', readonly: true },
    rateDate: { type: 'date', title: '汇率日期', readonly: true },
    amountBase: { type: 'money', title: '本位币金额', readonly: true },
    lineCount: { type: 'integer', title: '明细行数', readonly: true },
  },
  lines: {
    table: 'advanceRefundLine',
    parent: 'refundId',
    max: 200,
    indexes: [['payDocumentId']],
    fields: {
      payDocumentId: { type: 'integer', title: '收付款单', required: true, min: 1, max: ID_MAX },
      amount: { type: 'money', title: '退款金额', required: true, min: 0, max: MONEY_MAX },
      remark: { type: 'string', title: '备注', maxLength: 200 },
    },
  },
  hooks: { validate: checkAdvanceRefund, present: presentAdvanceRefund, chainDown: refundedAdvances },
  transitions: {
    post: {
      label: '过账', from: ['draft'], to: 'posted', right: 'financial.advance_refund.edit', stamp: 'posted', overlay: true,
      confirm: '确定过账退款单“{docNo}”？过账后按明细冲减预收/预付款。', run: postAdvanceRefund,
    },
    cancel: {
      label: '作废', from: ['draft'], to: 'cancelled', right: 'financial.advance_refund.edit', stamp: 'cancelled', danger: true, overlay: true,
      confirm: '确定作废退款单“{docNo}”？',
    },
    reverse: {
      label: '冲销', from: ['posted'], to: 'reversed', right: 'financial.advance_refund.edit', stamp: 'reversed', danger: true, overlay: true,
      confirm: '确定冲销退款单“{docNo}”？退回的预收/预付款将恢复。', run: reverseAdvanceRefund,
    },
  },
  saveThen: { flag: 'post', transition: 'post' },
  audit: ['partyType', 'clientId', 'supplierId', 'refundDate', 'currencyId', 'amount', 'method', 'account', 'remark'],
  listFilters: ['partyType', 'clientId', 'supplierId', 'currencyId', 'method'],
  dateField: 'refundDate',
  listReads: ['payDocument'],
  route: '/financial/advance_refund/{id}',
});
