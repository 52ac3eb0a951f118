// /docRelate: any procurement document number → the chain it belongs to (purchase order → inbound plans →
// inbound tasks → receiving notes → putaways), each with its type, id, number, status and the screen route that opens it.
import type { CallContext } from '../../catalog/context.ts';
import { bizError } from '../../http/errors.ts';
import { DOC_STATUS, PO_STATUS, type Row } from './common.ts';
import { PLAN_STATUS, TASK_STATUS } from './inbound-plan.ts';
import { RETURN_STATUS, returnPlanRoute } from './purchase-return.ts';
import { TypedTenant } from '../../db/typed.ts';

export const DOC_TYPES = {
  purchaseOrder: { title: '采购订单', route: (id: number) => `/procurement/purchaseOrder/${id}`, statuses: PO_STATUS as Record<string, string> },
  inboundPlan: { title: '入库计划', route: (id: number) => `/procurement/treasuryPlanDetail/${id}`, statuses: PLAN_STATUS as Record<string, string> },
  inboundTask: { title: '入库任务', route: (id: number) => `/entrepot/inboundTaskDetail/${id}`, statuses: TASK_STATUS as Record<string, string> },
  receivingNote: { title: '收货单', route: (id: number) => `/entrepot/receivingNoteDetail/${id}`, statuses: DOC_STATUS as Record<string, string> },
  putaway: { title: '上架单', route: (id: number) => `/entrepot/putawayDetail/${id}`, statuses: DOC_STATUS as Record<string, string> },
  // purchase invoices hang under the first receiving note of the order they invoice
  purchaseInvoice: { title: '采购发票', route: (id: number) => `/procurement/invoiceDetail/${id}`, statuses: DOC_STATUS as Record<string, string> },
  // return plans hang under the receiving note they return from (or the order); no detail route: the list opened on the number
  returnPlan: { title: '退货出库计划', route: (_id: number) => '/procurement/outPlan/list', statuses: RETURN_STATUS as Record<string, string> },
} as const;
type DocType = keyof typeof DOC_TYPES;

export interface ChainItem {
  docType: DocType;
  docTypeText: string;
  id: number;
  number: string;
  status: string;
  statusText: string;
  route: string;
  /** the number of the document this one came from (null for the order) */
  from: string | null;
  level: number;
}

function item(docType: DocType, r: Row, from: string | null, level: number): ChainItem {
  const t = DOC_TYPES[docType];
  const status = String(r.status);
  return { docType, docTypeText: t.title, id: Number(r.id), number: String(r.docNo), status, statusText: t.statuses[status] ?? status, route: t.route(Number(r.id)), from, level };
}

export async function docRelate(ctx: CallContext, input: { docNo: string }) {
  const tenant = TypedTenant.of(ctx.tenant);
  const docNo = input.docNo.trim();
  let orderId: number | undefined;
  let found: { docType: DocType; id: number } | undefined;
  const po = await tenant.select('purchaseOrder').select(['id']).where('docNo', '=', docNo).executeTakeFirst();
  if (po) { orderId = Number(po.id); found = { docType: 'purchaseOrder', id: orderId }; }
  if (!found) {
    const rn = await tenant.select('receivingNote').select(['id', 'orderId']).where('docNo', '=', docNo).executeTakeFirst();
    // a note of a sales return (no purchase order) is on the sales chain: the engine answers for it
    if (rn && rn.orderId != null) { orderId = Number(rn.orderId); found = { docType: 'receivingNote', id: Number(rn.id) }; }
  }
  if (!found) {
    const pa = await tenant.select('putaway').innerJoin('receivingNote', (j) => j.onRef('receivingNote.id', '=', 'putaway.receivingNoteId').onRef('receivingNote.companyId', '=', 'putaway.companyId'))
      .select(['putaway.id', 'receivingNote.orderId']).where('putaway.docNo', '=', docNo).executeTakeFirst();
    if (pa && pa.orderId != null) { orderId = Number(pa.orderId); found = { docType: 'putaway', id: Number(pa.id) }; }
  }
  if (!found) {
    // an invoice over several orders shows the chain of its first line's order
    const inv = await tenant.select('purchaseInvoice').innerJoin('purchaseInvoiceLine as il', (j) => j.onRef('il.invoiceId', '=', 'purchaseInvoice.id').onRef('il.companyId', '=', 'purchaseInvoice.companyId'))
      .select(['purchaseInvoice.id', 'il.orderId']).where('purchaseInvoice.docNo', '=', docNo).orderBy('il.lineNo').limit(1).executeTakeFirst();
    if (inv) { orderId = Number(inv.orderId); found = { docType: 'purchaseInvoice', id: Number(inv.id) }; }
  }
  if (!found) {
    const plan = await tenant.select('inboundPlan').select(['id', 'orderId']).where('docNo', '=', docNo).executeTakeFirst();
    if (plan) { orderId = Number(plan.orderId); found = { docType: 'inboundPlan', id: Number(plan.id) }; }
  }
  if (!found) {
    const task = await tenant.select('inboundTask').select(['id', 'orderId']).where('docNo', '=', docNo).executeTakeFirst();
    // a sales return's task (no purchase order) is on the sales chain: the engine answers for it
    if (task && task.orderId != null) { orderId = Number(task.orderId); found = { docType: 'inboundTask', id: Number(task.id) }; }
  }
  if (!found) {
    // a return plan shows the chain of the order its goods came from; one without an order stands alone
    const rp = await tenant.select('returnPlan').select(['id', 'docNo', 'status', 'orderId']).where('docNo', '=', docNo).executeTakeFirst();
    if (rp && rp.orderId == null) return { docNo, found: { docType: 'returnPlan' as DocType, id: Number(rp.id) }, chain: [{ ...item('returnPlan', rp, null, 0), route: returnPlanRoute(String(rp.docNo)) }] };
    if (rp) { orderId = Number(rp.orderId); found = { docType: 'returnPlan', id: Number(rp.id) }; }
  }
  if (!found || orderId === undefined) throw bizError('PURCHASE_DOC_NOT_FOUND_4097', { docNo: docNo.slice(0, 50) });
  const order = await tenant.select('purchaseOrder').select(['id', 'docNo', 'status']).where('id', '=', orderId).executeTakeFirstOrThrow();
  const notes = await tenant.select('receivingNote').select(['id', 'docNo', 'status', 'taskId']).where('orderId', '=', orderId).orderBy('id').execute();
  const plans = await tenant.select('inboundPlan').select(['id', 'docNo', 'status']).where('orderId', '=', orderId).orderBy('id').execute();
  const tasks = await tenant.select('inboundTask').select(['id', 'docNo', 'status', 'planId']).where('orderId', '=', orderId).orderBy('id').execute();
  const putaways = notes.length
    ? (await tenant.select('putaway').select(['id', 'docNo', 'status', 'receivingNoteId']).where('receivingNoteId', 'in', notes.map((n) => Number(n.id))).orderBy('id').execute())
    : [];
  const invoices = await tenant.select('purchaseInvoice').innerJoin('purchaseInvoiceLine as il', (j) => j.onRef('il.invoiceId', '=', 'purchaseInvoice.id').onRef('il.companyId', '=', 'purchaseInvoice.companyId'))
    .select(['purchaseInvoice.id', 'purchaseInvoice.docNo', 'purchaseInvoice.status']).select((eb) => eb.fn.min('il.receivingNoteId').as('receivingNoteId'))
    .where('il.orderId', '=', orderId).groupBy(['purchaseInvoice.id', 'purchaseInvoice.docNo', 'purchaseInvoice.status']).orderBy('purchaseInvoice.id').execute();
  const returns = await tenant.select('returnPlan').select(['id', 'docNo', 'status', 'receivingNoteId']).where('orderId', '=', orderId).orderBy('id').execute();
  const returnItem = (r: Row, from: string, level: number): ChainItem => ({ ...item('returnPlan', r, from, level), route: returnPlanRoute(String(r.docNo)) });
  const chain: ChainItem[] = [item('purchaseOrder', order, null, 0)];
  const addNote = (n: Row, from: string, level: number) => {
    chain.push(item('receivingNote', n, from, level));
    for (const p of putaways.filter((x) => Number(x.receivingNoteId) === Number(n.id))) chain.push(item('putaway', p, String(n.docNo), level + 1));
    for (const v of invoices.filter((x) => Number(x.receivingNoteId) === Number(n.id))) chain.push(item('purchaseInvoice', v, String(n.docNo), level + 1));
    for (const r of returns.filter((x) => Number(x.receivingNoteId) === Number(n.id))) chain.push(returnItem(r, String(n.docNo), level + 1));
  };
  // order → inbound plan → its task → the notes received against the task; other notes hang on the order
  for (const pl of plans) {
    chain.push(item('inboundPlan', pl, String(order.docNo), 1));
    for (const tk of tasks.filter((x) => Number(x.planId) === Number(pl.id))) {
      chain.push(item('inboundTask', tk, String(pl.docNo), 2));
      for (const n of notes.filter((x) => Number(x.taskId) === Number(tk.id))) addNote(n, String(tk.docNo), 3);
    }
  }
  for (const n of notes.filter((x) => x.taskId == null)) addNote(n, String(order.docNo), 1);
  for (const r of returns.filter((x) => x.receivingNoteId == null)) chain.push(returnItem(r, String(order.docNo), 1));
  return { docNo, found, chain };
}
