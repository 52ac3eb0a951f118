// Report calls (cdm 0196xx): the purchase report and the stock report, each a list (the list contract
// plus `totals` over every group) and an export of the whole report (also runnable in the export centre).
// The logic lives in src/server/domain/reports/.
import type { OpHandler } from '../catalog/context.ts';
import { acceptingFilters } from '../catalog/list-filters.ts';
import { exportPurchaseReport, PURCHASE_REPORT_INPUT, purchaseReport, type PurchaseReportInput } from '../domain/reports/purchase-report.ts';
import { exportStockReport, STOCK_REPORT_INPUT, stockReport, type StockReportInput } from '../domain/reports/stock-report.ts';
import { keptList } from '../resources/page-cache.ts';
import type { OpsDeps } from './index.ts';

// What each report reads (kept pages: a write to any of these makes a kept page stale).
const PURCHASE_REPORT_TABLES = ['purchaseOrder', 'purchaseOrderLine', 'receivingNote', 'receivingNoteLine', 'purchaseInvoice', 'purchaseInvoiceLine', 'supplier', 'product', 'warehouse', 'company'];
const STOCK_REPORT_TABLES = ['stockSummary', 'product', 'warehouse', 'category', 'company'];

export function reportOps(_deps: OpsDeps): Record<string, OpHandler> {
  return {
    'report.purchase': acceptingFilters(keptList('report.purchase', PURCHASE_REPORT_TABLES, PURCHASE_REPORT_INPUT, (ctx, input: PurchaseReportInput) => purchaseReport(ctx, input))),
    'report.purchaseExport': acceptingFilters({ input: PURCHASE_REPORT_INPUT, run: (ctx, input: PurchaseReportInput) => exportPurchaseReport(ctx, input) }),
    'report.stock': acceptingFilters(keptList('report.stock', STOCK_REPORT_TABLES, STOCK_REPORT_INPUT, (ctx, input: StockReportInput) => stockReport(ctx, input))),
    'report.stockExport': acceptingFilters({ input: STOCK_REPORT_INPUT, run: (ctx, input: StockReportInput) => exportStockReport(ctx, input) }),
  };
}
