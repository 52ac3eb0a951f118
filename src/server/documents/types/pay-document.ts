// 收付款单 on the document engine: draft → posted (allocation lines settle their items; a post-dated cheque
// waits until cleared) → reversed (冲销: every allocation undone, items reopened); a draft may be cancelled
// or deleted. domain/finance/pay-document.ts holds the hooks, domain/finance/ledger.ts the ledgers.
import { CHEQUE_STATUS, checkPayDocument, DIRECTION, PAY_TITLE, postPayDocument, presentPayDocument, reversePayDocument } from '../../domain/finance/pay-document.ts';
import { defineDocument } from '../definition.ts';

const ID_MAX = 2_147_483_647;
const MONEY_MAX = '1000000000000';
const values = (o: Record<string, string>) => Object.entries(o).map(([value, label]) => ({ value, label }));

/** The life of a money document (收付款单, 退款单): posted money is reversed (冲销), never edited. */
export const MONEY_DOCUMENT_STATUSES = {
  draft: { label: '草稿', color: 'default' },
  posted: { label: '已过账', color: 'green' },
  reversed: { label: '已冲销', color: 'orange' },
  cancelled: { label: '已作废', color: 'red' },
} as const;

export const payDocument = defineDocument({
  type: 'payDocument',
  title: PAY_TITLE,
  prefix: 'SK',
  table: 'payDocument',
  managed: true,
  // receipts and payments by date (reports, 数据大屏)
  indexes: [['payDate']],
  statuses: MONEY_DOCUMENT_STATUSES,
  editable: ['draft'],
  removable: ['draft'],
  rights: { read: 'financial.pay_document', edit: 'financial.pay_document.edit' },
  header: {
    direction: { type: 'enum', title: '收付方向', required: true, values: values(DIRECTION) },
    clientId: { type: 'reference', resource: 'client', title: '客户' },
    supplierId: { type: 'reference', resource: 'supplier', title: '供应商' },
    payDate: { type: 'date', title: '收付日期' },
    currencyId: { type: 'reference', resource: 'currency', title: '币种' },
    amount: { type: 'money', title: '金额', required: true, min: 0, max: MONEY_MAX },
    bankFee: { type: 'money', title: '手续费', min: 0, max: MONEY_MAX },
    discount: { type: 'money', title: '折扣', min: 0, max: MONEY_MAX },
    method: { type: 'enum', title: '结算方式', values: values({ bank: '银行转账', cash: '现金', cheque: '支票' }) },
    account: { type: 'string', title: '收付款账户', maxLength: 100 },
    chequeNo: { type: 'string', title: '支票号', maxLength: 50 },
    chequeDate: { type: 'date', title: '支票到期日' },
    chequeStatus: { type: 'enum', title: '支票状态', readonly: true, values: values(CHEQUE_STATUS) },
    settled: { type: 'integer', title: '已核销入账', readonly: true },
    remark: { type: 'string', title: '备注', maxLength: 500 },
    exchangeRate: { type: 'decimal', scale: 6, title: '汇率', readonly: true },
    rateDate: { type: 'date', title: '汇率日期', readonly: true },
    settleAmount: { type: 'money', title: '可核销金额', readonly: true },
    allocatedAmount: { type: 'money', title: '已核销金额', readonly: true },
    amountBase: { type: 'money', title: '本位币金额', readonly: true },
    lineCount: { type: 'integer', title: '明细行数', readonly: true },
  },
  lines: {
    table: 'payDocumentLine',
    parent: 'payId',
    min: 0,
    max: 500,
    fields: {
      openItemId: { type: 'integer', title: '应收应付款项', required: true, min: 1, max: ID_MAX },
      amount: { type: 'money', title: '核销金额', min: 0, max: MONEY_MAX },
      paidAmount: { type: 'money', title: '折合本单金额', readonly: true },
      remark: { type: 'string', title: '备注', maxLength: 200 },
    },
  },
  hooks: { validate: checkPayDocument, present: presentPayDocument },
  transitions: {
    post: {
      label: '过账', from: ['draft'], to: 'posted', right: 'financial.pay_document.post', stamp: 'posted', overlay: true,
      confirm: '确定过账收付款单“{docNo}”？过账后按明细核销应收应付款，未核销部分转为预收/预付款。', run: postPayDocument,
    },
    cancel: {
      label: '作废', from: ['draft'], to: 'cancelled', right: 'financial.pay_document.post', stamp: 'cancelled', danger: true, overlay: true,
      confirm: '确定作废收付款单“{docNo}”？',
    },
    reverse: {
      label: '冲销', from: ['posted'], to: 'reversed', right: 'financial.pay_document.post', stamp: 'reversed', danger: true, overlay: true,
      confirm: '确定冲销收付款单“{docNo}”？已核销的款项将重新打开。', run: reversePayDocument,
    },
  },
  saveThen: { flag: 'post', transition: 'post' },
  audit: ['direction', 'clientId', 'supplierId', 'payDate', 'currencyId', 'amount', 'bankFee', 'discount'],
  listFilters: ['direction', 'clientId', 'supplierId', 'currencyId', 'method'],
  dateField: 'payDate',
  listReads: ['financeAllocation', 'openItem'],
  route: '/financial/pay_document_detail/{id}',
});
