// 形式发票红冲 on the document engine (issue 15): an issued proforma withdrawn wholly or in part, with a reason;
// never on the ledger (domain/sales/proforma-credit.ts holds the hooks).
import {
  cancelProformaCredit, checkProformaCredit, issueProformaCredit, PFC_PREFIX, PFC_TITLE, prepareProformaCredit, presentProformaCredit, PROFORMA_CREDIT_REASONS,
} from '../../domain/sales/proforma-credit.ts';
import { defineDocument } from '../definition.ts';

const ID = { type: 'integer', min: 1, max: 2_147_483_647 } as const;

export const proformaCredit = defineDocument({
  type: 'proformaCredit',
  title: PFC_TITLE,
  prefix: PFC_PREFIX,
  table: 'proformaCredit',
  managed: true,
  indexes: [['proformaId'], ['orderId'], ['clientId']],
  statuses: { draft: { label: '草稿', color: 'default' }, confirmed: { label: '已出具', color: 'red' }, cancelled: { label: '已作废', color: 'default' } },
  editable: ['draft'],
  removable: ['draft'],
  rights: { read: 'market.invoiceModalityBack', edit: 'market.invoiceModalityBack.edit' },
  header: {
    proformaId: { ...ID, type: 'integer', title: '原形式发票', required: true },
    reason: { type: 'enum', title: '红冲原因', required: true, values: Object.entries(PROFORMA_CREDIT_REASONS).map(([value, label]) => ({ value, label })) },
    creditDate: { type: 'date', title: '开票日期' },
    remark: { type: 'string', title: '备注', maxLength: 500 },
    orderId: { type: 'integer', title: '销售订单', readonly: true },
    clientId: { type: 'reference', resource: 'client', title: '客户', readonly: true },
    currencyId: { type: 'reference', resource: 'currency', title: '币种', readonly: true },
    lineCount: { type: 'integer', title: '明细行数', readonly: true },
    totalAmount: { type: 'money', title: '红冲金额', readonly: true },
    taxAmount: { type: 'money', title: '红冲税额', readonly: true },
  },
  lines: {
    table: 'proformaCreditLine',
    parent: 'creditId',
    max: 2000,
    indexes: [['proformaLineId']],
    fields: {
      proformaLineId: { ...ID, type: 'integer', title: '原形式发票明细', required: true },
      productId: { type: 'reference', resource: 'product', title: '商品', readonly: true },
      amount: { type: 'money', title: '红冲金额', min: 0 },
      taxAmount: { type: 'money', title: '税额', readonly: true },
      remark: { type: 'string', title: '备注', maxLength: 200 },
    },
  },
  hooks: { prepare: prepareProformaCredit, validate: checkProformaCredit, present: presentProformaCredit },
  transitions: {
    confirm: {
      label: '出具', from: ['draft'], to: 'confirmed', stamp: 'confirmed', right: 'market.invoiceModalityBack.edit',
      confirm: '确定出具形式发票红冲“{docNo}”？出具后原形式发票按红冲金额减少（不记应收）。', run: issueProformaCredit,
    },
    cancel: {
      label: '作废', from: ['draft', 'confirmed'], to: 'cancelled', stamp: 'cancelled', danger: true, right: 'market.invoiceModalityBack.edit',
      confirm: '确定作废形式发票红冲“{docNo}”？已出具的将恢复原形式发票的金额。', run: cancelProformaCredit,
    },
  },
  saveThen: { flag: 'confirm', transition: 'confirm' },
  links: [{ field: 'proformaId', type: 'proformaInvoice' }],
  names: { proformaId: { table: 'proformaInvoice', column: 'docNo' } },
  audit: ['proformaId', 'reason', 'creditDate', 'totalAmount', 'remark'],
  listFilters: ['proformaId', 'clientId'],
  dateField: 'creditDate',
  listReads: ['proformaInvoice'],
  route: '/market/invoiceModalityBack/{id}',
});
