// Report calls (cdm 0196xx): the purchase report and the stock report, each a list (the list contract
// plus `totals` over every group) and an export of the whole report (also runnable in the export centre).
// The logic lives in src/server/domain/reports/.
import type { OpHandler } from '../catalog/context.ts';
import { acceptingFilters } from '../catalog/list-filters.ts';
import { exportPurchaseReport, PURCHASE_REPORT_INPUT, purchaseReport, type PurchaseReportInput } from '../domain/reports/purchase-report.ts';
import { exportStockReport, STOCK_REPORT_INPUT, stockReport, type StockReportInput } from '../domain/reports/stock-report.ts';
import type { OpsDeps } from './index.ts';

export function reportOps(_deps: OpsDeps): Record<string, OpHandler> {
  return {
    'report.purchase': acceptingFilters({ input: PURCHASE_REPORT_INPUT, run: (ctx, input: PurchaseReportInput) => purchaseReport(ctx, input) }),
    'report.purchaseExport': acceptingFilters({ input: PURCHASE_REPORT_INPUT, run: (ctx, input: PurchaseReportInput) => exportPurchaseReport(ctx, input) }),
    'report.stock': acceptingFilters({ input: STOCK_REPORT_INPUT, run: (ctx, input: StockReportInput) => stockReport(ctx, input) }),
    'report.stockExport': acceptingFilters({ input: STOCK_REPORT_INPUT, run: (ctx, input: StockReportInput) => exportStockReport(ctx, input) }),
  };
}
