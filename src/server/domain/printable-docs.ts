// The documents a print mark (oms 023803) may name: each docType with its table. A mark names documents
// by number (or by id) and must find every one of them in the caller's company, or nothing is recorded:
// the print record is the company's trace of what was printed, not a place for arbitrary text.
import type { Tenant } from '../catalog/tenant.ts';
import { bizError } from '../http/errors.ts';

export const PRINTABLE_DOCS: Record<string, { title: string; table: string }> = {
  purchaseOrder: { title: '采购订单', table: 'purchaseOrder' },
  inboundPlan: { title: '入库计划', table: 'inboundPlan' },
  inboundTask: { title: '入库任务', table: 'inboundTask' },
  receivingNote: { title: '收货单', table: 'receivingNote' },
  putaway: { title: '上架单', table: 'putaway' },
  purchaseInvoice: { title: '采购发票', table: 'purchaseInvoice' },
  returnPlan: { title: '退货出库计划', table: 'returnPlan' },
  repeal: { title: '撤销单', table: 'repeal' },
  containerWithdrawing: { title: '拆柜记录', table: 'containerWithdrawing' },
  stockInit: { title: '期初库存', table: 'stockInit' },
  stockAdjust: { title: '库存调整', table: 'stockAdjust' },
};

const isId = (v: string | number) => typeof v === 'number' || /^[1-9]\d{0,15}$/.test(v);

/**
 * The document numbers of the named documents (numbers or ids, in the caller's company), in the order
 * given, duplicates dropped. Refuses the whole list, naming what was not found, when any is not one.
 */
export async function resolvePrintableDocs(tenant: Tenant, docType: string, refs: Array<string | number>): Promise<string[]> {
  const kind = PRINTABLE_DOCS[docType];
  if (!kind) throw bizError('PRINT_DOC_TYPE_4191', { docType: docType.slice(0, 50), allowed: Object.keys(PRINTABLE_DOCS).join('、') });
  const texts = [...new Set(refs.map((r) => String(r).trim()))];
  const ids = texts.filter(isId).map(Number).filter(Number.isSafeInteger);
  const numbers = texts.filter((x) => !isId(x));
  const found = new Map<string, string>();
  for (let i = 0; i < Math.max(ids.length, numbers.length); i += 500) {
    const idPart = ids.slice(i, i + 500);
    const noPart = numbers.slice(i, i + 500);
    const rows = await tenant.select(kind.table).select(['id', 'docNo'])
      .where((eb) => eb.or([
        ...(idPart.length ? [eb('id', 'in', idPart)] : []),
        ...(noPart.length ? [eb('docNo', 'in', noPart)] : []),
      ])).execute();
    for (const r of rows) {
      found.set(String(r.id), String(r.docNo));
      found.set(String(r.docNo), String(r.docNo));
    }
  }
  const missing = texts.filter((x) => !found.has(isId(x) ? String(Number(x)) : x));
  if (missing.length) {
    const shown = missing.slice(0, 5).map((m) => (m.length > 30 ? `${m.slice(0, 30)}…` : m)).join('、');
    throw bizError('PRINT_DOC_NOT_FOUND_4192', { doc: kind.title, refs: missing.length > 5 ? `${shown} 等 ${missing.length} 个` : shown }, { missing: missing.slice(0, 100) });
  }
  return [...new Set(texts.map((x) => found.get(isId(x) ? String(Number(x)) : x)!))];
}
