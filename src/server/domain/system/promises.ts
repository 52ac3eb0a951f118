// 承诺交期 (cdm 019812): the open sales order lines (confirmed or partly shipped orders) with their
// promised delivery date (the order's 交货日期) against what can cover them, per product × warehouse:
// first what the line already reserves, then the warehouse's available stock (on hand − reserved −
// committed; a presale commitment is not held stock), then the open purchase order lines to that warehouse by expected arrival date. Lines are
// served in promise order (earliest first; lines without a promise last). A line is 按时 when covered by
// its promise, 将延误 when its cover arrives after it, 已逾期 when the promise has passed, 无供应 when
// nothing known covers it (no purchase, or a purchase without an expected date).
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import { TypedTenant } from '../../db/typed.ts';

export const PROMISE_INPUT: InputSchema = {
  type: 'object',
  properties: {
    page: { type: 'integer', minimum: 1, default: 1, title: '页码' },
    pageSize: { type: 'integer', minimum: 1, maximum: 500, default: 50, title: '每页条数' },
    keyword: { type: ['string', 'null'], maxLength: 50, title: '关键字' },
    onlyLate: { type: ['boolean', 'null'], title: '只看延误' },
    sort: { type: ['object', 'null'] },
  },
};

export const PROMISE_STATUS = { onTime: '按时', late: '将延误', overdue: '已逾期', uncovered: '无供应', unpromised: '未承诺' } as const;
type Status = keyof typeof PROMISE_STATUS;

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const daysBetween = (a: string, b: string) => Math.round((Date.parse(b) - Date.parse(a)) / 86400_000);

export async function promiseList(ctx: CallContext, input: { page: number; pageSize: number; keyword?: string | null; onlyLate?: boolean | null }) {
  const today = day(Date.now() + ctx.caller!.company.timeZone * 3600_000);
  const tenant = TypedTenant.of(ctx.tenant);
  const demand = await tenant.select('salesOrderLine')
    .innerJoin('salesOrder', 'salesOrder.id', 'salesOrderLine.orderId')
    .leftJoin('client', 'client.id', 'salesOrder.clientId')
    .leftJoin('product', 'product.id', 'salesOrderLine.productId')
    .select(['salesOrderLine.id', 'salesOrderLine.lineNo', 'salesOrderLine.productId', 'salesOrderLine.qty', 'salesOrderLine.shippedQty', 'salesOrderLine.reservedQty', 'salesOrderLine.presaleQty',
      'salesOrder.id as orderId', 'salesOrder.docNo', 'salesOrder.warehouseId', 'salesOrder.deliveryDate', 'client.name as clientName', 'product.code as productCode', 'product.name as productName'])
    .where('salesOrder.status', 'in', ['confirmed', 'partlyShipped'])
    .whereRef('salesOrderLine.qty', '>', 'salesOrderLine.shippedQty').execute();
  if (!demand.length) return { list: [], total: 0, page: input.page, pageSize: input.pageSize, today, late: 0 };
  const productIds = [...new Set(demand.map((d) => Number(d.productId)))];
  const stock = new Map<string, number>();
  const arrivals = new Map<string, Array<{ date: string | null; qty: number; docNo: string }>>();
  for (let i = 0; i < productIds.length; i += 500) {
    const ids = productIds.slice(i, i + 500);
    for (const s of await tenant.select('stockSummary').select(['productId', 'warehouseId', 'onHand', 'reserved', 'committed']).where('productId', 'in', ids).execute()) {
      stock.set(`${Number(s.productId)}:${Number(s.warehouseId)}`, Math.max(0, Number(s.onHand) - Number(s.reserved) - Number(s.committed)));
    }
    const pos = await tenant.select('purchaseOrderLine').innerJoin('purchaseOrder', 'purchaseOrder.id', 'purchaseOrderLine.orderId')
      .select(['purchaseOrderLine.productId', 'purchaseOrderLine.qty', 'purchaseOrderLine.receivedQty', 'purchaseOrder.warehouseId', 'purchaseOrder.expectedDate', 'purchaseOrder.docNo'])
      .where('purchaseOrder.status', 'in', ['confirmed', 'partlyReceived']).where('purchaseOrderLine.productId', 'in', ids).execute();
    for (const p of pos) {
      const open = Number(p.qty) - Number(p.receivedQty);
      if (open <= 0) continue;
      const key = `${Number(p.productId)}:${Number(p.warehouseId)}`;
      if (!arrivals.has(key)) arrivals.set(key, []);
      arrivals.get(key)!.push({ date: p.expectedDate ?? null, qty: open, docNo: String(p.docNo) });
    }
  }
  for (const list of arrivals.values()) list.sort((a, b) => (a.date ?? '9999') < (b.date ?? '9999') ? -1 : (a.date ?? '9999') > (b.date ?? '9999') ? 1 : 0);
  demand.sort((a, b) => {
    const x = a.deliveryDate ?? '9999-99-99', y = b.deliveryDate ?? '9999-99-99';
    return x < y ? -1 : x > y ? 1 : Number(a.orderId) - Number(b.orderId) || Number(a.lineNo) - Number(b.lineNo);
  });
  const rows = demand.map((d) => {
    const key = `${Number(d.productId)}:${Number(d.warehouseId)}`;
    const open = Number(d.qty) - Number(d.shippedQty);
    // a presale commitment (ordered against expected arrivals) is not stock held: it needs an arrival
    const held = Math.min(open, Math.max(0, Number(d.reservedQty) - Number(d.presaleQty ?? 0)));
    let need = open - held;
    let ready: string | null = today;
    const sources: string[] = [];
    if (held > 0) sources.push(`已预留 ${held}`);
    const free = stock.get(key) ?? 0;
    if (need > 0 && free > 0) {
      const take = Math.min(need, free);
      stock.set(key, free - take);
      need -= take;
      sources.push(`现货 ${take}`);
    }
    const queue = arrivals.get(key) ?? [];
    while (need > 0 && queue.length && queue[0]!.date) {
      const a = queue[0]!;
      const take = Math.min(need, a.qty);
      a.qty -= take;
      need -= take;
      if (!a.qty) queue.shift();
      sources.push(`${a.docNo}（${a.date}）${take}`);
      if (ready === null || a.date! > ready) ready = a.date!;
    }
    const promised = d.deliveryDate ?? null;
    let status: Status;
    if (need > 0) { status = 'uncovered'; ready = null; }
    else if (!promised) status = 'unpromised';
    else if (promised < today) status = 'overdue';
    else status = ready! > promised ? 'late' : 'onTime';
    return {
      key: `${Number(d.orderId)}:${Number(d.id)}`, orderId: Number(d.orderId), docNo: String(d.docNo), lineNo: Number(d.lineNo), clientName: d.clientName ?? null,
      productCode: d.productCode ?? null, productName: d.productName ?? null, openQty: open, promised, ready, shortQty: need,
      daysLate: status === 'late' ? daysBetween(promised!, ready!) : status === 'overdue' ? daysBetween(promised!, today) : null,
      status, statusText: PROMISE_STATUS[status], cover: sources.join('；') || '无',
    };
  });
  const kw = input.keyword?.trim().toLowerCase();
  let list = rows;
  if (kw) list = list.filter((r) => [r.docNo, r.clientName ?? '', r.productCode ?? '', r.productName ?? ''].some((x) => String(x).toLowerCase().includes(kw)));
  if (input.onlyLate) list = list.filter((r) => r.status === 'late' || r.status === 'overdue' || r.status === 'uncovered');
  return {
    list: list.slice((input.page - 1) * input.pageSize, input.page * input.pageSize), total: list.length, page: input.page, pageSize: input.pageSize,
    today, late: rows.filter((r) => r.status !== 'onTime' && r.status !== 'unpromised').length,
  };
}
