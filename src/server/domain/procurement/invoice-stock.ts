// Invoice stock (发票库存): per product, the quantity and amount (company base currency, cents) backed by
// posted purchase invoices. It changes only here, inside the invoice's posting or cancelling transaction:
// growing is one upsert per product (INSERT … ON CONFLICT DO UPDATE adding to the row), shrinking one
// conditional UPDATE per product that cannot take the quantity below zero; every change also writes an
// invoice_stock_move row (the history shown per product).
import { splitUnits, type PackSizes } from '../../../core/stock-units.ts';
import { companyDateRange } from '../../../core/format.ts';
import Decimal from 'decimal.js';
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import type { DB } from '../../db/connection.ts';
import { bizError } from '../../http/errors.ts';
import { insertMany, runSql } from '../../db/raw-sql.ts';
import { moneyText, parseDay, PRICE_SCALE, text, tz, type Row } from './common.ts';
import { TypedTenant, typed } from '../../db/typed.ts';

export const INVOICE_STOCK_KINDS = { invoice: '采购发票', reverse: '作废冲回', sale: '销售发票', saleReverse: '销售发票作废', credit: '红字发票', creditReverse: '红字发票作废' } as const;
export type InvoiceStockKind = keyof typeof INVOICE_STOCK_KINDS;

/** One invoice line's effect: qty (small units) and amount (base-currency cents), signed. */
export interface InvoiceStockMove {
  productId: number;
  qty: number;
  amount: number;
  docLine: number;
}

/**
 * Adds the moves of one document to the balances (kind 'invoice', positive) or takes them off (kind
 * 'reverse', the same moves with their signs as stored). Products in id order, so two documents touching
 * the same products take the rows in the same order.
 */
export async function applyInvoiceStock(
  db: DB, companyId: number, accountId: number, kind: InvoiceStockKind, docId: number, docNo: string, moves: InvoiceStockMove[],
  // a sales invoice takes from the stock (and may take it below zero: goods sold before the supplier's invoice came)
  opts: { docType?: 'purchaseInvoice' | 'salesInvoice' | 'salesCredit'; mayGoNegative?: boolean } = {},
): Promise<void> {
  const docType = opts.docType ?? 'purchaseInvoice';
  if (!moves.length) return;
  const now = new Date().toISOString();
  const per = new Map<number, { qty: number; amount: number }>();
  for (const m of moves) {
    const p = per.get(m.productId) ?? { qty: 0, amount: 0 };
    p.qty += m.qty;
    p.amount += m.amount;
    per.set(m.productId, p);
  }
  for (const [productId, d] of [...per.entries()].sort((a, b) => a[0] - b[0])) {
    if (d.qty >= 0 || opts.mayGoNegative) {
      await runSql(db, `insert into invoice_stock (company_id, product_id, qty, amount, updated_at) values (?, ?, ?, ?, ?)
        on conflict (company_id, product_id) do update set qty = invoice_stock.qty + excluded.qty, amount = invoice_stock.amount + excluded.amount, updated_at = excluded.updated_at`,
      [companyId, productId, d.qty, d.amount, now]);
      continue;
    }
    const done = await runSql(db, `update invoice_stock set qty = qty + ?, amount = amount + ?, updated_at = ?
      where company_id = ? and product_id = ? and qty + ? >= 0 returning id`, [d.qty, d.amount, now, companyId, productId, d.qty]);
    if (!done.length) {
      const row = (await runSql(db, `select s.qty, p.code from product p left join invoice_stock s on s.company_id = p.company_id and s.product_id = p.id
        where p.company_id = ? and p.id = ?`, [companyId, productId]))[0];
      throw bizError('PURCHASE_INVOICE_STOCK_4105', { code: String(row?.code ?? productId), docNo, qty: Number(row?.qty ?? 0), need: -d.qty },
        { productId, qty: Number(row?.qty ?? 0), need: -d.qty });
    }
  }
  await insertMany(db, 'invoice_stock_move', ['company_id', 'product_id', 'qty', 'amount', 'kind', 'doc_type', 'doc_id', 'doc_line', 'account_id', 'created_at'],
    moves.map((m) => [companyId, m.productId, m.qty, m.amount, kind, docType, docId, m.docLine, accountId, now]));
}

/** The moves a posted document wrote (to reverse exactly what it added). */
export async function movesOf(untypedDb: DB, companyId: number, docId: number, docType = 'purchaseInvoice', kind: InvoiceStockKind = 'invoice'): Promise<InvoiceStockMove[]> {
  const db = typed(untypedDb);
  const rows = await runSql(db, `select product_id, qty, amount, doc_line from invoice_stock_move
    where company_id = ? and doc_type = ? and doc_id = ? and kind = ? order by id`, [companyId, docType, docId, kind]);
  // raw rows come back camel-cased like every other query (db/camel-case.ts)
  return rows.map((r) => ({ productId: Number(r.productId), qty: Number(r.qty), amount: Number(r.amount), docLine: Number(r.docLine) }));
}

// ---------------------------------------------------------------------------------------------- reads

const PAGING = {
  page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1, title: '页码' },
  pageSize: { type: 'integer', minimum: 1, maximum: 500, default: 50, title: '每页条数' },
};

export const INVOICE_STOCK_LIST_INPUT: InputSchema = {
  type: 'object',
  properties: {
    ...PAGING,
    keyword: { type: ['string', 'null'], maxLength: 100, title: '商品编码或名称' },
    productId: { type: ['integer', 'null'], minimum: 1, title: '商品' },
    onlyInStock: { type: ['boolean', 'null'], title: '只看有发票库存' },
  },
};

export const INVOICE_STOCK_MOVES_INPUT: InputSchema = {
  type: 'object', required: ['productId'],
  properties: {
    ...PAGING,
    productId: { type: 'integer', minimum: 1, title: '商品' },
    kind: { enum: [...Object.keys(INVOICE_STOCK_KINDS), null], title: '变动类型' },
    dateFrom: { type: ['string', 'null'], maxLength: 10, title: '开始日期' },
    dateTo: { type: ['string', 'null'], maxLength: 10, title: '结束日期' },
  },
};

export interface InvoiceStockListInput {
  page: number;
  pageSize: number;
  keyword?: string | null;
  productId?: number | null;
  onlyInStock?: boolean | null;
}

export interface InvoiceStockMovesInput {
  page: number;
  pageSize: number;
  productId: number;
  kind?: InvoiceStockKind | null;
  dateFrom?: string | null;
  dateTo?: string | null;
}

function packsOf(r: Row): PackSizes {
  return { bigQty: Number(r.bigQty ?? 1), midQty: Number(r.midQty ?? 1), unitBig: text(r.unitBig), unitMid: text(r.unitMid), unitSmall: text(r.unitSmall) };
}

/** Average unit price (× 1, 4 decimals) of an amount in cents over a quantity; null for no quantity. */
function averagePrice(amountCents: number, qty: number): string | null {
  if (!qty) return null;
  return new Decimal(amountCents).div(100).div(qty).toDecimalPlaces(PRICE_SCALE, Decimal.ROUND_HALF_UP).toFixed(PRICE_SCALE);
}

async function baseCurrency(ctx: CallContext): Promise<Row | undefined> {
  return await typed(ctx.db).selectFrom('company').innerJoin('currency', (j) => j.onRef('currency.id', '=', 'company.currencyId'))
    .select(['currency.id', 'currency.code', 'currency.currencyName']).where('company.id', '=', ctx.tenant.companyId).executeTakeFirst();
}

function stockView(r: Row, currency: Row | undefined) {
  const qty = Number(r.qty ?? 0);
  const amount = Number(r.amount ?? 0);
  return {
    id: Number(r.productId), productId: Number(r.productId), productCode: String(r.productCode), productName: String(r.productName),
    specification: text(r.specification), unitSmall: text(r.unitSmall), qty, units: splitUnits(qty, packsOf(r)),
    amount: moneyText(amount), avgPrice: averagePrice(amount, qty), currencyCode: text(currency?.code), currencyName: text(currency?.currencyName), updatedAt: text(r.updatedAt),
    route: `/commodity/invoiceDetail/${Number(r.productId)}`,
  };
}

const PRODUCT_COLUMNS = ['product.code as productCode', 'product.name as productName', 'product.specification', 'product.bigQty', 'product.midQty',
  'product.unitBig', 'product.unitMid', 'product.unitSmall'] as const;

/** Invoice stock per product (products that ever had an invoice), by product code. */
export async function invoiceStockList(ctx: CallContext, input: InvoiceStockListInput) {
  const tenant = TypedTenant.of(ctx.tenant);
  let q = tenant.select('invoiceStock')
    .innerJoin('product', (j) => j.onRef('product.id', '=', 'invoiceStock.productId').onRef('product.companyId', '=', 'invoiceStock.companyId'));
  const k = input.keyword?.trim();
  if (k) {
    const pattern = `%${k.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const op = ctx.database.dialect === 'postgres' ? 'ilike' : 'like';
    q = q.where((eb) => eb.or([eb('product.code', op, pattern), eb('product.name', op, pattern), eb('product.barcode', '=', k)]));
  }
  if (input.productId) q = q.where('invoiceStock.productId', '=', input.productId);
  if (input.onlyInStock) q = q.where('invoiceStock.qty', '>', 0);
  const counted = await q.select((eb) => eb.fn.countAll().as('total')).executeTakeFirst();
  const total = Number(counted?.total ?? 0);
  const offset = (input.page - 1) * input.pageSize;
  const rows = total > offset
    ? (await q.select(['invoiceStock.productId', 'invoiceStock.qty', 'invoiceStock.amount', 'invoiceStock.updatedAt', ...PRODUCT_COLUMNS])
      .orderBy('product.code').limit(input.pageSize).offset(offset).execute())
    : [];
  const currency = await baseCurrency(ctx);
  return { list: rows.map((r) => stockView(r, currency)), total, page: input.page, pageSize: input.pageSize };
}

/** One product's invoice stock (zero when it never had an invoice): the invoice stock detail page. */
export async function invoiceStockOf(ctx: CallContext, productId: number) {
  const r = await TypedTenant.of(ctx.tenant).select('product')
    .leftJoin('invoiceStock', (j) => j.onRef('invoiceStock.productId', '=', 'product.id').onRef('invoiceStock.companyId', '=', 'product.companyId'))
    .select(['product.id as productId', 'invoiceStock.qty', 'invoiceStock.amount', 'invoiceStock.updatedAt', ...PRODUCT_COLUMNS])
    .where('product.id', '=', productId).executeTakeFirst();
  if (!r) throw bizError('PRODUCT_NOT_EXIST_4001');
  return stockView(r, await baseCurrency(ctx));
}

/** A product's invoice stock movements, newest first, with the invoice and supplier of each. */
export async function invoiceStockMoves(ctx: CallContext, input: InvoiceStockMovesInput) {
  const tenant = TypedTenant.of(ctx.tenant);
  const product = await invoiceStockOf(ctx, input.productId);
  const from = parseDay(input.dateFrom, 'dateFrom', '开始日期');
  const to = parseDay(input.dateTo, 'dateTo', '结束日期');
  const m = 'invoiceStockMove';
  let q = tenant.select(m).where(`${m}.productId`, '=', input.productId);
  if (input.kind) q = q.where(`${m}.kind`, '=', input.kind);
  if (from) q = q.where(`${m}.createdAt`, '>=', companyDateRange(from, from, tz(ctx))[0]);
  if (to) q = q.where(`${m}.createdAt`, '<=', companyDateRange(to, to, tz(ctx))[1]);
  const counted = await q.select((eb) => eb.fn.countAll().as('total')).executeTakeFirst();
  const total = Number(counted?.total ?? 0);
  const offset = (input.page - 1) * input.pageSize;
  const rows = total > offset
    ? (await q
      .leftJoin('purchaseInvoice', (j) => j.onRef('purchaseInvoice.id', '=', `${m}.docId`).onRef('purchaseInvoice.companyId', '=', `${m}.companyId`).on(`${m}.docType`, '=', 'purchaseInvoice'))
      .leftJoin('supplier', (j) => j.onRef('supplier.id', '=', 'purchaseInvoice.supplierId').onRef('supplier.companyId', '=', `${m}.companyId`))
      .leftJoin('salesInvoice', (j) => j.onRef('salesInvoice.id', '=', `${m}.docId`).onRef('salesInvoice.companyId', '=', `${m}.companyId`).on(`${m}.docType`, '=', 'salesInvoice'))
      .leftJoin('salesCredit', (j) => j.onRef('salesCredit.id', '=', `${m}.docId`).onRef('salesCredit.companyId', '=', `${m}.companyId`).on(`${m}.docType`, '=', 'salesCredit'))
      .leftJoin('client', (j) => j.on((eb) => eb.or([eb('client.id', '=', eb.ref('salesInvoice.clientId')), eb('client.id', '=', eb.ref('salesCredit.clientId'))])).onRef('client.companyId', '=', `${m}.companyId`))
      .leftJoin('account', (j) => j.onRef('account.id', '=', `${m}.accountId`).onRef('account.companyId', '=', `${m}.companyId`))
      .select([`${m}.id`, `${m}.qty`, `${m}.amount`, `${m}.kind`, `${m}.docType`, `${m}.docId`, `${m}.docLine`, `${m}.createdAt`,
        'purchaseInvoice.docNo', 'purchaseInvoice.invoiceNo', 'supplier.name as supplierName', 'salesInvoice.docNo as salesDocNo', 'salesCredit.docNo as creditDocNo', 'salesInvoice.invoiceNo as salesInvoiceNo',
        'client.name as clientName', 'account.userName'])
      .orderBy(`${m}.id`, 'desc').limit(input.pageSize).offset(offset).execute())
    : [];
  const productRow = await tenant.select('product').select(['bigQty', 'midQty', 'unitBig', 'unitMid', 'unitSmall']).where('id', '=', input.productId).executeTakeFirstOrThrow();
  return {
    product,
    list: rows.map((r) => {
      const kind = String(r.kind) as InvoiceStockKind;
      const qty = Number(r.qty);
      const sale = r.docType === 'salesInvoice';
      const credit = r.docType === 'salesCredit';
      return {
        id: Number(r.id), kind, kindText: INVOICE_STOCK_KINDS[kind] ?? kind, qty, units: splitUnits(qty, packsOf(productRow)), amount: moneyText(r.amount),
        docType: String(r.docType), docTitle: credit ? '红字发票' : sale ? '销售发票' : '采购发票', docId: Number(r.docId), docNo: text(credit ? r.creditDocNo : sale ? r.salesDocNo : r.docNo), docLine: r.docLine == null ? null : Number(r.docLine),
        invoiceNo: text(sale ? r.salesInvoiceNo : r.invoiceNo), supplierName: text(r.supplierName), clientName: text(r.clientName),
        partyName: text(sale || credit ? r.clientName : r.supplierName), userName: text(r.userName), createdAt: String(r.createdAt),
        route: credit ? `/market/invoiceDetailBack/${Number(r.docId)}` : sale ? `/market/invoiceDetail/${Number(r.docId)}` : `/procurement/invoiceDetail/${Number(r.docId)}`,
      };
    }),
    total, page: input.page, pageSize: input.pageSize,
  };
}
