// Purchase invoice calls (oms 0203xx), sales invoice calls beside the engine's (oms 0224xx) and invoice stock reads (cdm 0114xx). The logic lives in
// src/server/domain/procurement/invoice.ts and invoice-stock.ts; the
// invoice itself is a document on the engine (src/server/documents/types/purchase-invoice.ts).
import type { OpHandler } from '../catalog/context.ts';
import { acceptingFilters } from '../catalog/list-filters.ts';
import { invoiceableLines, PI_LINES_INPUT, type PiLinesInput } from '../domain/procurement/invoice.ts';
import {
  INVOICE_STOCK_LIST_INPUT, INVOICE_STOCK_MOVES_INPUT, invoiceStockList, invoiceStockMoves, invoiceStockOf,
  type InvoiceStockListInput, type InvoiceStockMovesInput,
} from '../domain/procurement/invoice-stock.ts';
import { creditableLines } from '../domain/sales/credit.ts';
import { prepaymentOrderOptions } from '../domain/sales/prepayment.ts';
import { discountableInvoices } from '../domain/sales/discount.ts';
import { proformaOrderLines, proformaOrderOptions } from '../domain/sales/proforma.ts';
import { proformaCreditLines } from '../domain/sales/proforma-credit.ts';
import { invoicePdf } from '../domain/sales/invoice-pdf.ts';
import { invoiceableDeliveryLines, invoicePrintData, postedInvoiceOptions, SI_LINES_INPUT, type SiLinesInput } from '../domain/sales/invoice.ts';
import type { OpsDeps } from './index.ts';

export function invoiceOps(_deps: OpsDeps): Record<string, OpHandler> {
  return {
    // list, get, save, post, cancel and export are served by the document engine
    // (src/server/documents/types/purchase-invoice.ts)
    'purchaseInvoice.lines': acceptingFilters({ input: PI_LINES_INPUT, run: (ctx, input: PiLinesInput) => invoiceableLines(ctx, input) }),

    // sales invoices (oms 0224xx): the rest is served by the document engine (documents/types/sales-invoice.ts)
    'salesInvoice.lines': acceptingFilters({ input: SI_LINES_INPUT, run: (ctx, input: SiLinesInput) => invoiceableDeliveryLines(ctx, input) }),
    'salesInvoice.print': {
      input: { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, title: '销售发票' } } },
      run: (ctx, input: { id: number }) => invoicePrintData(ctx, input.id),
    },
    'salesInvoice.pdf': {
      input: { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, title: '销售发票' } } },
      run: (ctx, input: { id: number }) => invoicePdf(ctx, input.id),
    },
    'salesDiscount.invoices': {
      input: { type: 'object', required: ['clientId'], properties: { clientId: { type: 'integer', minimum: 1, title: '客户' } } },
      run: (ctx, input: { clientId: number }) => discountableInvoices(ctx, input.clientId),
    },
    'proformaInvoice.orders': {
      input: { type: 'object', properties: { keyword: { type: ['string', 'null'], maxLength: 100, title: '关键字' } } },
      run: (ctx, input: { keyword?: string | null }) => proformaOrderOptions(ctx, input),
    },
    'proformaInvoice.orderLines': {
      input: { type: 'object', required: ['orderId'], properties: { orderId: { type: 'integer', minimum: 1, title: '销售订单' } } },
      run: (ctx, input: { orderId: number }) => proformaOrderLines(ctx, input.orderId),
    },
    'proformaCredit.proformaLines': {
      input: { type: 'object', required: ['proformaId'], properties: { proformaId: { type: 'integer', minimum: 1, title: '形式发票' } } },
      run: (ctx, input: { proformaId: number }) => proformaCreditLines(ctx, input.proformaId),
    },
    'salesInvoice.options': {
      input: { type: 'object', properties: { keyword: { type: ['string', 'null'], maxLength: 100, title: '关键字' } } },
      run: (ctx, input: { keyword?: string | null }) => postedInvoiceOptions(ctx, input),
    },
    'prepaymentInvoice.orders': {
      input: { type: 'object', properties: { keyword: { type: ['string', 'null'], maxLength: 100, title: '关键字' } } },
      run: (ctx, input: { keyword?: string | null }) => prepaymentOrderOptions(ctx, input),
    },
    'salesCredit.creditable': {
      input: { type: 'object', required: ['invoiceId'], properties: { invoiceId: { type: 'integer', minimum: 1, title: '原销售发票' }, returnId: { type: ['integer', 'null'], minimum: 1, title: '销售退货单' } } },
      run: (ctx, input: { invoiceId: number; returnId?: number | null }) => creditableLines(ctx, input.invoiceId, input.returnId),
    },

    'invoiceStock.list': acceptingFilters({ input: INVOICE_STOCK_LIST_INPUT, run: (ctx, input: InvoiceStockListInput) => invoiceStockList(ctx, input) }),
    'invoiceStock.moves': acceptingFilters({ input: INVOICE_STOCK_MOVES_INPUT, run: (ctx, input: InvoiceStockMovesInput) => invoiceStockMoves(ctx, input) }),
    'invoiceStock.get': {
      input: { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, title: '商品' } } },
      run: (ctx, input: { id: number }) => invoiceStockOf(ctx, input.id),
    },
  };
}
