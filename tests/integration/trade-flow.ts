// What many integration tests do to get a company into a state: stock in, a sales order confirmed, planned,
// picked and delivered, an opening receivable and a receipt — each over HTTP as a clerk would, through the
// same codes the screens call. One copy here instead of one per test file (`duplicates` found six).
import ExcelJS from 'exceljs';
import { vi } from 'vitest';
import { ok, type TestServer } from './helpers.ts';

/** The oms codes these steps call. */
export const SALES_CODES = {
  order: { save: '020903', get: '020902', confirm: '020905' },
  plan: { save: '020703', confirm: '020705' },
  picking: { save: '024003', get: '024002' },
  delivery: { save: '024103' },
  pay: { save: '026003', openItems: '026010' },
  openingBalance: { save: '026213' },
  openingStock: { save: '022603' },
} as const;
const C = SALES_CODES;

export interface OrderLineInput {
  productId: number;
  qty: number;
  price?: string;
}

/**
 * The steps, on the server and with the token the getters give at the time of the call (test files
 * start their server in beforeAll; tests that move the clock log in again).
 */
export function tradeFlow(server: () => TestServer, as: () => string) {
  const call = (code: string, body: Record<string, unknown>, family: 'oms' | 'cdm' = 'oms') => ok(server().call(family, code, body, as()));
  const flow = {
    /** A warehouse with one storage location. */
    async warehouse(code: string, name: string): Promise<{ wh: number; loc: number }> {
      const wh = (await call('011003', { code, name }, 'cdm')).id as number;
      const loc = (await call('011103', { warehouseId: wh, lcCode: 'A-01-01-1', zone: 'A', row: '01', column: '01', level: '1', type: 'storage' }, 'cdm')).id as number;
      return { wh, loc };
    },
    /** The demo company's sale price list (SP01). */
    async saleList(): Promise<number> {
      return Number((await server().database.db.selectFrom('priceTitle').select('id').where('code', '=', 'SP01').executeTakeFirstOrThrow()).id);
    },
    /** Opening stock, posted at once. */
    stockIn: (warehouseId: number, locationId: number, productId: number, qty: number) =>
      call(C.openingStock.save, { warehouseId, lines: [{ productId, qty, locationId }], post: true }),
    /** A sales order saved and (unless `confirm` is false) confirmed. */
    async order(clientId: number, warehouseId: number, orderDate: string | undefined, lines: OrderLineInput[], extra: Record<string, unknown> = {}, confirm = true) {
      const so = await call(C.order.save, { clientId, warehouseId, ...(orderDate ? { orderDate } : {}), lines, ...extra });
      if (confirm) await call(C.order.confirm, { id: so.id, version: so.version });
      return so as { id: number; docNo: string; version: number };
    },
    /** What is left of every line of an order planned and confirmed: its outbound task. */
    async plan(orderId: number): Promise<{ planId: number; planDocNo: string; taskId: number }> {
      const o = await call(C.order.get, { id: orderId });
      const p = await call(C.plan.save, { orderId, lines: o.lines.map((l: { id: number; qty: number }) => ({ orderLineId: l.id, qty: l.qty })) });
      const confirmed = await call(C.plan.confirm, { id: p.id, version: p.version });
      return { planId: p.id, planDocNo: p.docNo, taskId: confirmed.taskId };
    },
    /** An outbound task picked in full and delivered (the delivery note posted). */
    async deliver(taskId: number, deliveryDate?: string) {
      await call(C.picking.save, { taskIds: [taskId], post: true });
      return call(C.delivery.save, { taskId, ...(deliveryDate ? { deliveryDate } : {}), post: true });
    },
    /** All of an order shipped: planned, picked, delivered. */
    async ship(orderId: number, deliveryDate?: string) {
      const { taskId } = await flow.plan(orderId);
      return flow.deliver(taskId, deliveryDate);
    },
    /** A posted opening receivable of a client, as its open item. */
    async openingReceivable(clientId: number, amount: string, docDate: string, dueDate?: string) {
      const doc = await call(C.openingBalance.save, { side: 'receivable', clientId, amount, docDate, ...(dueDate ? { dueDate } : {}), post: true });
      const items = await call(C.pay.openItems, { partyType: 'client', partyId: clientId });
      return items.list.find((i: { docNo: string }) => i.docNo === doc.docNo);
    },
    /** A posted bank receipt settling one open item. */
    receipt: (clientId: number, itemId: number, amount: string, payDate: string) =>
      call(C.pay.save, { direction: 'receipt', clientId, payDate, amount, method: 'bank', post: true, lines: [{ openItemId: itemId, amount }] }),
  };
  return flow;
}

/** The clock at an instant (only Date is faked: timers run, so the server keeps answering). */
export function clockAt(iso: string): void {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  vi.setSystemTime(new Date(iso));
}

/** Cents as money text ("-12.05"): a test's own exact arithmetic. */
export function moneyText(cents: bigint): string {
  const neg = cents < 0n;
  const s = (neg ? -cents : cents).toString().padStart(3, '0');
  return `${neg ? '-' : ''}${s.slice(0, -2)}.${s.slice(-2)}`;
}

/** The first sheet of an .xlsx as rows of cell values as a reader sees them (rich text as its text). */
export async function xlsxRows(payload: Buffer): Promise<unknown[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(payload as unknown as ArrayBuffer);
  const out: unknown[][] = [];
  wb.worksheets[0]!.eachRow((row) => {
    out.push(Array.from((row.values as unknown[]).slice(1), (v: any) => (v && typeof v === 'object' && 'richText' in v ? v.richText.map((x: any) => x.text).join('') : v ?? null)));
  });
  return out;
}
