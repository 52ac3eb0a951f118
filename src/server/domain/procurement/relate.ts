// /docRelate: any procurement document number → the chain it belongs to (purchase order → receiving
// notes → putaways), each with its type, id, number, status and the screen route that opens it.
import type { CallContext } from '../../catalog/context.ts';
import { bizError } from '../../http/errors.ts';
import { DOC_STATUS, PO_STATUS, type Row } from './common.ts';

export const DOC_TYPES = {
  purchaseOrder: { title: '采购订单', route: (id: number) => `/procurement/purchaseOrder/${id}`, statuses: PO_STATUS as Record<string, string> },
  receivingNote: { title: '收货单', route: (id: number) => `/entrepot/receivingNoteDetail/${id}`, statuses: DOC_STATUS as Record<string, string> },
  putaway: { title: '上架单', route: (id: number) => `/entrepot/putawayDetail/${id}`, statuses: DOC_STATUS as Record<string, string> },
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
  const tenant = ctx.tenant;
  const docNo = input.docNo.trim();
  let orderId: number | undefined;
  let found: { docType: DocType; id: number } | undefined;
  const po = (await tenant.select('purchaseOrder').select(['id']).where('docNo', '=', docNo).executeTakeFirst()) as Row | undefined;
  if (po) { orderId = Number(po.id); found = { docType: 'purchaseOrder', id: orderId }; }
  if (!found) {
    const rn = (await tenant.select('receivingNote').select(['id', 'orderId']).where('docNo', '=', docNo).executeTakeFirst()) as Row | undefined;
    if (rn) { orderId = Number(rn.orderId); found = { docType: 'receivingNote', id: Number(rn.id) }; }
  }
  if (!found) {
    const pa = (await tenant.select('putaway').innerJoin('receivingNote', (j) => j.onRef('receivingNote.id', '=', 'putaway.receivingNoteId').onRef('receivingNote.companyId', '=', 'putaway.companyId'))
      .select(['putaway.id', 'receivingNote.orderId']).where('putaway.docNo', '=', docNo).executeTakeFirst()) as Row | undefined;
    if (pa) { orderId = Number(pa.orderId); found = { docType: 'putaway', id: Number(pa.id) }; }
  }
  if (!found || orderId === undefined) throw bizError('PURCHASE_DOC_NOT_FOUND_4097', { docNo: docNo.slice(0, 50) });
  const order = (await tenant.select('purchaseOrder').select(['id', 'docNo', 'status']).where('id', '=', orderId).executeTakeFirstOrThrow()) as Row;
  const notes = (await tenant.select('receivingNote').select(['id', 'docNo', 'status']).where('orderId', '=', orderId).orderBy('id').execute()) as Row[];
  const putaways = notes.length
    ? ((await tenant.select('putaway').select(['id', 'docNo', 'status', 'receivingNoteId']).where('receivingNoteId', 'in', notes.map((n) => Number(n.id))).orderBy('id').execute()) as Row[])
    : [];
  const chain: ChainItem[] = [item('purchaseOrder', order, null, 0)];
  for (const n of notes) {
    chain.push(item('receivingNote', n, String(order.docNo), 1));
    for (const p of putaways.filter((x) => Number(x.receivingNoteId) === Number(n.id))) chain.push(item('putaway', p, String(n.docNo), 2));
  }
  return { docNo, found, chain };
}
