// 期初应收 / 期初应付 (opening balances) on the document engine: what a client owes, or what is owed to a
// supplier, when a company starts here — one open item per document, posted into the open-items ledger.
// draft → posted (the item is written) → cancelled (only while nothing is allocated to it).
import type { SaveRun, TransitionRun } from '../definition.ts';
import { addOpenItem, cancelOpenItem, SIDE_OF, type PartyType } from '../../domain/finance/ledger.ts';
import { baseCurrencyId } from '../../domain/finance/pay-document.ts';
import { rateOn, today } from '../../domain/procurement/common.ts';
import { validationError } from '../../http/errors.ts';
import { defineDocument } from '../definition.ts';
import { TypedTenant } from '../../db/typed.ts';

const TITLE = '期初余额';

async function check(run: SaveRun) {
  const { ctx, header } = run;
  const side = String(header.side);
  const partyField = side === 'receivable' ? 'clientId' : 'supplierId';
  if (header[partyField] == null) throw validationError([{ field: partyField, message: side === 'receivable' ? '期初应收的客户不能为空' : '期初应付的供应商不能为空' }]);
  header[side === 'receivable' ? 'supplierId' : 'clientId'] = null;
  header.docDate ??= today(ctx);
  if (header.dueDate == null) {
    // due from the party's payment terms (days) after the document's date
    const tenant = TypedTenant.of(ctx.tenant);
    const partyId = Number(header[partyField]);
    const party = side === 'receivable'
      ? await tenant.select('client').select('paymentDays').where('id', '=', partyId).executeTakeFirst()
      : await tenant.select('supplier').select('paymentDays').where('id', '=', partyId).executeTakeFirst();
    const days = Number(party?.paymentDays ?? 0) || 0;
    header.dueDate = new Date(Date.parse(`${String(header.docDate)}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
  }
  if (String(header.dueDate) < String(header.docDate)) throw validationError([{ field: 'dueDate', message: '到期日不能早于单据日期' }]);
  if (!(Number(header.amount) > 0)) throw validationError([{ field: 'amount', message: '金额必须大于 0' }]);
  header.currencyId ??= await baseCurrencyId(ctx.tenant);
  const { rate, rateDate } = await rateOn(ctx.tenant, Number(header.currencyId), String(header.docDate));
  Object.assign(header, { exchangeRate: rate, rateDate });
}

async function post(t: TransitionRun) {
  const d = t.doc;
  const partyType: PartyType = d.side === 'receivable' ? 'client' : 'supplier';
  await addOpenItem(t.tenant, t.ctx.caller!.accountId, {
    side: SIDE_OF[partyType], partyType, partyId: Number(partyType === 'client' ? d.clientId : d.supplierId), sourceType: 'openingBalance', sourceId: Number(d.id),
    docNo: String(d.docNo), reference: (d.reference as string | null) ?? null, docDate: String(d.docDate), dueDate: String(d.dueDate),
    currencyId: Number(d.currencyId), exchangeRate: Number(d.exchangeRate), amount: Number(d.amount),
  });
}

async function cancel(t: TransitionRun) {
  if (t.from === 'posted') await cancelOpenItem(t.tenant, 'openingBalance', Number(t.doc.id), { doc: TITLE, docNo: String(t.doc.docNo) });
}

export const openingBalance = defineDocument({
  type: 'openingBalance',
  title: TITLE,
  prefix: 'QC',
  table: 'openingBalance',
  managed: true,
  statuses: { draft: { label: '草稿', color: 'default' }, posted: { label: '已过账', color: 'green' }, cancelled: { label: '已作废', color: 'red' } },
  editable: ['draft'],
  removable: ['draft'],
  rights: { read: 'financial.accounts_receivable', edit: 'financial.openingBalance.edit' },
  header: {
    side: { type: 'enum', title: '类型', required: true, values: [{ value: 'receivable', label: '期初应收' }, { value: 'payable', label: '期初应付' }] },
    clientId: { type: 'reference', resource: 'client', title: '客户' },
    supplierId: { type: 'reference', resource: 'supplier', title: '供应商' },
    reference: { type: 'string', title: '原单号', maxLength: 50 },
    docDate: { type: 'date', title: '单据日期' },
    dueDate: { type: 'date', title: '到期日' },
    currencyId: { type: 'reference', resource: 'currency', title: '币种' },
    amount: { type: 'money', title: '金额', required: true, min: 0, max: '1000000000000' },
    exchangeRate: { type: 'decimal', scale: 6, title: '汇率', readonly: true },
    rateDate: { type: 'date', title: '汇率日期', readonly: true },
    remark: { type: 'string', title: '备注', maxLength: 500 },
  },
  lines: { table: 'openingBalanceLine', parent: 'balanceId', min: 0, max: 1, fields: { remark: { type: 'string', title: '备注', maxLength: 200 } } },
  hooks: { validate: check },
  transitions: {
    post: { label: '过账', from: ['draft'], to: 'posted', right: 'financial.openingBalance.edit', stamp: 'posted', overlay: true, confirm: '确定过账期初余额“{docNo}”？', run: post },
    cancel: {
      label: '作废', from: ['draft', 'posted'], to: 'cancelled', right: 'financial.openingBalance.edit', stamp: 'cancelled', danger: true, overlay: true,
      confirm: '确定作废期初余额“{docNo}”？', run: cancel,
    },
  },
  saveThen: { flag: 'post', transition: 'post' },
  listFilters: ['side', 'clientId', 'supplierId'],
  docNoAlso: ['reference'],
  dateField: 'docDate',
  // no screen of its own: entered from 应收账款 (a form on the list), shown as open items there
  route: '/financial/accounts_receivable',
});
