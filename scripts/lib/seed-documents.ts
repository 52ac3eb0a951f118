// Documents at scale for one company, written straight into the tables (the reports' benchmark, not a
// business walk): confirmed sales orders with their lines, and posted sales and purchase invoices, each
// with one line and its open item (receivable or payable, nothing allocated yet) — spread over the past
// year by date and by the instant they were recorded, so the daily closing has every day to close.
// Deterministic (seeded PRNG), batched multi-row inserts, SQLite or PostgreSQL. Needs the products,
// clients and suppliers of seedScale first.
import { sql } from 'kysely';
import type { DB, Dialect } from '../../src/server/db/connection.ts';
import { insertBatched, prng } from './bulk.ts';

export interface SeedDocumentsOptions {
  company: string;
  /** sales order lines (orders of 5 lines) */
  orderLines: number;
  /** invoices, half sales and half purchase */
  invoices: number;
  dialect: Dialect;
  /** days back from now the documents are spread over (default 365) */
  days?: number;
  seed?: number;
  log?: (line: string) => void;
}

const ids = async (db: DB, table: string, companyId: number) =>
  (await db.selectFrom(table).select('id').where('companyId', '=', companyId).orderBy('id').execute()).map((r) => Number(r.id));

const LINES_PER_ORDER = 5;
const CHUNK = 20_000;

export async function seedDocuments(db: DB, opts: SeedDocumentsOptions): Promise<{ orders: number; orderLines: number; invoices: number; ms: number }> {
  const started = Date.now();
  const log = opts.log ?? (() => undefined);
  const rnd = prng(opts.seed ?? 20261126);
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const company = await db.selectFrom('company').select(['id', 'currencyId', 'timeZone']).where('code', '=', opts.company).executeTakeFirst();
  if (!company) throw new Error(`公司代码 “${opts.company}” 不存在`);
  const companyId = Number(company.id);
  const currencyId = Number(company.currencyId);
  const tzMs = Number(company.timeZone ?? 8) * 3_600_000;
  const [products, clients, suppliers, warehouses, staff] = await Promise.all(['product', 'client', 'supplier', 'warehouse', 'staff'].map((t) => ids(db, t, companyId)));
  if (!products!.length || !clients!.length || !suppliers!.length) throw new Error('公司没有商品、客户或供应商：先用 seedScale 生成');
  const span = (opts.days ?? 365) * 86_400_000;
  const t0 = Date.now() - span;
  /** the k-th of n, spread evenly over the span: the instant recorded and its company day */
  const when = (k: number, n: number) => {
    const at = new Date(t0 + Math.floor(((k + 0.5) / n) * span));
    return { at: at.toISOString(), day: new Date(at.getTime() + tzMs).toISOString().slice(0, 10) };
  };
  const stamp = (at: string) => ({ companyId, version: 1, createdAt: at, updatedAt: at });

  // Sales orders of five lines, confirmed (what the sales report and 日结报表 count).
  const orders = Math.ceil(opts.orderLines / LINES_PER_ORDER);
  let lines = 0;
  for (let first = 0; first < orders; first += CHUNK) {
    const n = Math.min(CHUNK, orders - first);
    const head: Record<string, unknown>[] = [];
    const body: Array<Record<string, unknown>[]> = [];
    for (let i = 0; i < n; i++) {
      const k = first + i;
      const { at, day } = when(k, orders);
      const ls: Record<string, unknown>[] = [];
      let total = 0;
      for (let j = 0; j < LINES_PER_ORDER && lines + ls.length < opts.orderLines; j++) {
        const qty = 1 + Math.floor(rnd() * 50);
        const price = 100 + Math.floor(rnd() * 50_000);
        total += qty * price;
        ls.push({ companyId, lineNo: j + 1, productId: pick(products!), qty, price, discount: 0, listPrice: price, amount: qty * price, reservedQty: 0, shippedQty: 0, plannedQty: 0, returnedQty: 0, presaleQty: 0 });
      }
      lines += ls.length;
      body.push(ls);
      head.push({ ...stamp(at), docNo: `BSO${String(k + 1).padStart(8, '0')}`, status: 'confirmed', confirmedAt: at, clientId: pick(clients!),
        salesmanId: staff!.length ? pick(staff!) : null, warehouseId: warehouses!.length ? pick(warehouses!) : null, currencyId, orderDate: day,
        exchangeRate: 1_000_000, rateDate: day, lineCount: ls.length, totalQty: ls.reduce((s, l) => s + Number(l.qty), 0), totalAmount: total, totalAmountBase: total,
        reservedQty: 0, shippedQty: 0 });
    }
    await db.transaction().execute(async (trx) => {
      await insertBatched(trx, opts.dialect, 'salesOrder', head);
      const got = await trx.selectFrom('salesOrder').select(['id', 'docNo']).where('companyId', '=', companyId).where('docNo', 'in', head.map((h) => String(h.docNo))).execute();
      const byNo = new Map(got.map((r) => [String(r.docNo), Number(r.id)]));
      await insertBatched(trx, opts.dialect, 'salesOrderLine', head.flatMap((h, i) => body[i]!.map((l) => ({ ...l, orderId: byNo.get(String(h.docNo)) }))));
    });
    log(`  销售订单 ${Math.min(first + n, orders)}/${orders}，行 ${lines}（${((Date.now() - started) / 1000).toFixed(1)} 秒）`);
  }

  // Invoices, alternately sales and purchase, posted, each with one line and its open item. A purchase
  // invoice line names its receiving line; these stand alone, so the foreign keys are not checked while
  // they go in (SQLite: the connection's pragma, outside any transaction; PostgreSQL: the transaction's role).
  if (opts.dialect === 'sqlite') await sql`pragma foreign_keys = off`.execute(db);
  for (let first = 0; first < opts.invoices; first += CHUNK) {
    const n = Math.min(CHUNK, opts.invoices - first);
    const sales: Record<string, unknown>[] = [];
    const purchases: Record<string, unknown>[] = [];
    const facts = new Map<string, { productId: number; qty: number; price: number; amount: number; partyId: number; day: string; at: string }>();
    for (let i = 0; i < n; i++) {
      const k = first + i;
      const { at, day } = when(k, opts.invoices);
      const qty = 1 + Math.floor(rnd() * 100);
      const price = 100 + Math.floor(rnd() * 20_000);
      const amount = qty * price;
      const productId = pick(products!);
      if (k % 2 === 0) {
        const docNo = `BSI${String(k + 1).padStart(8, '0')}`;
        const clientId = pick(clients!);
        facts.set(docNo, { productId, qty, price, amount, partyId: clientId, day, at });
        sales.push({ ...stamp(at), docNo, status: 'posted', postedAt: at, clientId, invoiceNo: docNo, currencyId, invoiceDate: day, dueDate: day, taxRate: 0,
          exchangeRate: 1_000_000, rateDate: day, lineCount: 1, totalQty: qty, totalAmount: amount, taxAmount: 0, totalAmountBase: amount, creditedAmount: 0, prepaymentDeducted: 0 });
      } else {
        const docNo = `BPI${String(k + 1).padStart(8, '0')}`;
        const supplierId = pick(suppliers!);
        facts.set(docNo, { productId, qty, price, amount, partyId: supplierId, day, at });
        purchases.push({ ...stamp(at), docNo, supplierId, currencyId, exchangeRate: 1_000_000, rateDate: day, invoiceNo: docNo, invoiceDate: day, dueDate: day,
          taxRate: 0, status: 'posted', lineCount: 1, totalQty: qty, totalAmount: amount, taxAmount: 0, postedAt: at });
      }
    }
    await db.transaction().execute(async (trx) => {
      if (opts.dialect === 'postgres') await sql`set local session_replication_role = replica`.execute(trx);
      const items: Record<string, unknown>[] = [];
      for (const [table, head, side, partyType, sourceType] of [
        ['salesInvoice', sales, 'receivable', 'client', 'salesInvoice'],
        ['purchaseInvoice', purchases, 'payable', 'supplier', 'purchaseInvoice'],
      ] as const) {
        await insertBatched(trx, opts.dialect, table, head);
        const got = await trx.selectFrom(table).select(['id', 'docNo']).where('companyId', '=', companyId).where('docNo', 'in', head.map((h) => String(h.docNo))).execute();
        const lineRows = got.map((r) => {
          const f = facts.get(String(r.docNo))!;
          items.push({ ...stamp(f.at), side, partyType, partyId: f.partyId, sourceType, sourceId: Number(r.id), docNo: String(r.docNo), docDate: f.day, dueDate: f.day,
            currencyId, exchangeRate: 1_000_000, amount: f.amount, amountBase: f.amount, allocated: 0, openAmount: f.amount, allocatedBase: 0, status: 'open' });
          return table === 'salesInvoice'
            ? { companyId, invoiceId: Number(r.id), lineNo: 1, productId: f.productId, qty: f.qty, price: f.price, taxRate: 0, amount: f.amount, taxAmount: 0, amountBase: f.amount, creditedQty: 0, creditedAmount: 0 }
            : { companyId, invoiceId: Number(r.id), lineNo: 1, receivingLineId: 0, receivingNoteId: 0, orderLineId: 0, orderId: 0, productId: f.productId, qty: f.qty, price: f.price, amount: f.amount };
        });
        await insertBatched(trx, opts.dialect, `${table}Line`, lineRows);
      }
      await insertBatched(trx, opts.dialect, 'openItem', items);
    });
    log(`  发票 ${first + n}/${opts.invoices}（${((Date.now() - started) / 1000).toFixed(1)} 秒）`);
  }
  if (opts.dialect === 'sqlite') await sql`pragma foreign_keys = on`.execute(db);
  return { orders, orderLines: lines, invoices: opts.invoices, ms: Date.now() - started };
}
