// 财务工作台 (workBench): the finance desk's to-do list in one table — receivables overdue and falling due
// in the next N days, payables due, cheques maturing, receipts and payments with money waiting to be
// allocated — each row with the screen that deals with it. At most 100 rows of each kind, oldest first.
import { sql } from 'kysely';
import type { CallContext } from '../../catalog/context.ts';
import { moneyText, parseDay, text, today, type Row } from '../procurement/common.ts';
import { itemKind } from './ledger.ts';
import { TypedTenant } from '../../db/typed.ts';

export const WORK_BENCH_INPUT = {
  type: 'object',
  properties: {
    page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1, title: '页码' },
    pageSize: { type: 'integer', minimum: 1, maximum: 500, default: 50, title: '每页条数' },
    task: { type: ['string', 'null'], enum: [null, 'overdue', 'dueSoon', 'payable', 'cheque', 'advance'], title: '事项' },
    days: { type: ['integer', 'null'], minimum: 0, maximum: 365, title: '未来天数' },
    today: { type: ['string', 'null'], maxLength: 10, title: '基准日' },
  },
};

const TASKS = { overdue: '逾期应收', dueSoon: '即将到期应收', payable: '应付到期', cheque: '支票将到期', advance: '待核销预收预付' } as const;
type Task = keyof typeof TASKS;
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const daysBetween = (a: string, b: string) => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);

export async function workBench(ctx: CallContext, input: { page: number; pageSize: number; task?: Task | null; days?: number | null; today?: string | null }) {
  const tenant = TypedTenant.of(ctx.tenant);
  const day = parseDay(input.today ?? undefined, 'today', '基准日') ?? today(ctx);
  const until = addDays(day, input.days ?? 7);
  const want = (t: Task) => !input.task || input.task === t;
  const rows: Row[] = [];
  const items = (side: string) => tenant.select('openItem').innerJoin('currency', (j) => j.onRef('currency.id', '=', 'openItem.currencyId'))
    .leftJoin('client', (j) => j.onRef('client.id', '=', 'openItem.partyId').on('openItem.partyType', '=', 'client'))
    .leftJoin('supplier', (j) => j.onRef('supplier.id', '=', 'openItem.partyId').on('openItem.partyType', '=', 'supplier'))
    .select(['openItem.id', 'openItem.partyId', 'openItem.partyType', 'openItem.side', 'openItem.sourceType', 'openItem.docNo', 'openItem.dueDate', 'openItem.openAmount',
      'currency.code as currencyCode', 'client.name as clientName', 'supplier.name as supplierName'])
    .where('openItem.side', '=', side).where('openItem.status', '=', 'open').orderBy('openItem.dueDate').orderBy('openItem.id').limit(100);
  const itemRow = (task: Task, r: Row, route: string) => ({
    task, taskText: TASKS[task], docNo: String(r.docNo), kind: itemKind(r), partyName: text(r.clientName ?? r.supplierName), date: String(r.dueDate),
    currencyCode: String(r.currencyCode), amount: moneyText(r.openAmount),
    note: String(r.dueDate) < day ? `逾期 ${daysBetween(String(r.dueDate), day)} 天` : String(r.dueDate) === day ? '今天到期' : `${daysBetween(day, String(r.dueDate))} 天后到期`, route,
  });
  if (want('overdue')) {
    for (const r of await items('receivable').where('openItem.dueDate', '<', day).execute()) rows.push(itemRow('overdue', r, `/financial/accounts_receivable_detail/${Number(r.partyId)}`));
  }
  if (want('dueSoon')) {
    for (const r of await items('receivable').where('openItem.dueDate', '>=', day).where('openItem.dueDate', '<=', until).execute()) {
      rows.push(itemRow('dueSoon', r, `/financial/accounts_receivable_detail/${Number(r.partyId)}`));
    }
  }
  if (want('payable')) {
    for (const r of await items('payable').where('openItem.dueDate', '<=', until).execute()) {
      rows.push(itemRow('payable', r, `/financial/pay_document_detail/new?direction=payment&supplierId=${Number(r.partyId)}`));
    }
  }
  if (want('cheque')) {
    const cheques = await tenant.select('payDocument').innerJoin('currency', (j) => j.onRef('currency.id', '=', 'payDocument.currencyId'))
      .leftJoin('client', (j) => j.onRef('client.id', '=', 'payDocument.clientId'))
      .select(['payDocument.id', 'payDocument.docNo', 'payDocument.chequeNo', 'payDocument.chequeDate', 'payDocument.amount', 'currency.code as currencyCode', 'client.name as clientName'])
      .where('payDocument.status', '=', 'posted').where('payDocument.method', '=', 'cheque').where('payDocument.chequeStatus', 'in', ['received', 'deposited'])
      .where('payDocument.chequeDate', '<=', until).orderBy('payDocument.chequeDate').limit(100).execute();
    for (const r of cheques) {
      const due = String(r.chequeDate);
      rows.push({
        task: 'cheque', taskText: TASKS.cheque, docNo: String(r.docNo), kind: `支票 ${String(r.chequeNo)}`, partyName: text(r.clientName), date: due, currencyCode: String(r.currencyCode),
        amount: moneyText(r.amount), note: due < day ? `已过到期日 ${daysBetween(due, day)} 天` : `${daysBetween(day, due)} 天后到期`, route: '/financial/maturedCheck',
      });
    }
  }
  if (want('advance')) {
    const adv = await tenant.select('payDocument').innerJoin('currency', (j) => j.onRef('currency.id', '=', 'payDocument.currencyId'))
      .leftJoin('client', (j) => j.onRef('client.id', '=', 'payDocument.clientId')).leftJoin('supplier', (j) => j.onRef('supplier.id', '=', 'payDocument.supplierId'))
      .select(['payDocument.id', 'payDocument.docNo', 'payDocument.direction', 'payDocument.payDate', 'payDocument.settleAmount', 'payDocument.allocatedAmount', 'currency.code as currencyCode',
        'client.name as clientName', 'supplier.name as supplierName'])
      .where('payDocument.status', '=', 'posted').where(sql<boolean>`${sql.ref('payDocument.settleAmount')} > ${sql.ref('payDocument.allocatedAmount')}`)
      .where((eb: any) => eb.or([eb('payDocument.method', 'is', null), eb('payDocument.method', '!=', 'cheque'), eb('payDocument.settled', '=', 1)]))
      .orderBy('payDocument.payDate').limit(100).execute();
    for (const r of adv) {
      rows.push({
        task: 'advance', taskText: TASKS.advance, docNo: String(r.docNo), kind: r.direction === 'receipt' ? '预收款' : '预付款', partyName: text(r.clientName ?? r.supplierName),
        date: String(r.payDate), currencyCode: String(r.currencyCode), amount: moneyText(Number(r.settleAmount) - Number(r.allocatedAmount)), note: '未核销', route: `/financial/pay_document_detail/${Number(r.id)}`,
      });
    }
  }
  const list: Row[] = rows.map((r, i) => ({ key: String(i + 1), ...r }));
  const offset = (input.page - 1) * input.pageSize;
  const counts = Object.fromEntries(Object.keys(TASKS).map((k) => [k, list.filter((r) => r.task === k).length]));
  return { today: day, list: list.slice(offset, offset + input.pageSize), total: list.length, page: input.page, pageSize: input.pageSize, counts };
}
