// Purchase invoice calls (oms 0203xx) and invoice stock reads (cdm 0114xx). The logic lives in
// src/server/domain/procurement/invoice.ts and invoice-stock.ts.
import type { OpHandler } from '../catalog/context.ts';
import { acceptingFilters } from '../catalog/list-filters.ts';
import { ID_INPUT, ID_VERSION_INPUT } from '../domain/procurement/common.ts';
import {
  cancelInvoice, exportInvoices, getInvoice, invoiceableLines, listInvoices, PI_LINES_INPUT, PI_LIST_INPUT, PI_SAVE_INPUT, postInvoice, saveInvoice,
  type PiLinesInput, type PiListInput, type PiSaveInput,
} from '../domain/procurement/invoice.ts';
import {
  INVOICE_STOCK_LIST_INPUT, INVOICE_STOCK_MOVES_INPUT, invoiceStockList, invoiceStockMoves, invoiceStockOf,
  type InvoiceStockListInput, type InvoiceStockMovesInput,
} from '../domain/procurement/invoice-stock.ts';
import type { OpsDeps } from './index.ts';

type IdVersion = { id: number; version?: number };

export function invoiceOps(_deps: OpsDeps): Record<string, OpHandler> {
  return {
    'purchaseInvoice.list': acceptingFilters({ input: PI_LIST_INPUT, run: (ctx, input: PiListInput) => listInvoices(ctx, input) }),
    'purchaseInvoice.get': { input: ID_INPUT, run: (ctx, input: { id: number }) => getInvoice(ctx, input.id) },
    'purchaseInvoice.save': { input: PI_SAVE_INPUT, run: (ctx, input: PiSaveInput) => saveInvoice(ctx, input) },
    'purchaseInvoice.post': { input: ID_VERSION_INPUT, run: (ctx, input: IdVersion) => postInvoice(ctx, input) },
    'purchaseInvoice.cancel': { input: ID_VERSION_INPUT, run: (ctx, input: IdVersion) => cancelInvoice(ctx, input) },
    'purchaseInvoice.lines': acceptingFilters({ input: PI_LINES_INPUT, run: (ctx, input: PiLinesInput) => invoiceableLines(ctx, input) }),
    'purchaseInvoice.export': acceptingFilters({ input: PI_LIST_INPUT, run: (ctx, input: PiListInput) => exportInvoices(ctx, input) }),

    'invoiceStock.list': acceptingFilters({ input: INVOICE_STOCK_LIST_INPUT, run: (ctx, input: InvoiceStockListInput) => invoiceStockList(ctx, input) }),
    'invoiceStock.moves': acceptingFilters({ input: INVOICE_STOCK_MOVES_INPUT, run: (ctx, input: InvoiceStockMovesInput) => invoiceStockMoves(ctx, input) }),
    'invoiceStock.get': {
      input: { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, title: '商品' } } },
      run: (ctx, input: { id: number }) => invoiceStockOf(ctx, input.id),
    },
  };
}
