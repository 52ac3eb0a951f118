// Report calls (cdm 0196xx, oms 0231xx): the purchase, stock, sales, presale, invoicing (开票报表, oms 023121/023122), receivables and payables (应收/应付报表, 023123–023126), money in and out (财务报表, 023127/023128), direct and dealer sales (直销报表, 023131/023132), other stock moves (其他出入库报表, 023133/023134), usage (应用使用统计, 023135/023136), daily closing and summary reports, each a list
// (the list contract plus `totals` over every group) and an export of the whole report (also runnable in the
// export centre); the daily closing itself (日结, oms 023105) and its record (日结记录, 023161, manual or 自动); 批量导出 (oms 023110/023111); the wall-screen dashboard (数据大屏, oms 023201/023202, domain/dashboard/).
// The logic lives in src/server/domain/reports/.
import type { OpHandler } from '../catalog/context.ts';
import { acceptingFilters } from '../catalog/list-filters.ts';
import { exportPurchaseReport, PURCHASE_REPORT_INPUT, purchaseReport, type PurchaseReportInput } from '../domain/reports/purchase-report.ts';
import { CLAPPER_REPORT_INPUT, clapperReport, exportClapperReport, exportSummaryReport, SUMMARY_REPORT_INPUT, summaryReport, type ClapperReportInput } from '../domain/reports/clapper-report.ts';
import { CLOSING_INPUT, closeDay, type ClosingInput } from '../domain/reports/closing.ts';
import { CLOSING_LOG_INPUT, closingLog } from '../domain/reports/closing-log.ts';
import type { Paging } from '../domain/commodity/product-query.ts';
import { exportPresaleReport, exportSaleReport, PRESALE_REPORT_INPUT, presaleReport, SALE_REPORT_INPUT, saleReport, type SaleReportInput } from '../domain/reports/sale-report.ts';
import { exportInvoicingReport, INVOICING_REPORT_INPUT, invoicingReport, type InvoicingReportInput } from '../domain/reports/invoicing-report.ts';
import { exportPayableReport, exportReceivableReport, type OpenItemsReportInput, PAYABLE_REPORT_INPUT, payableReport, RECEIVABLE_REPORT_INPUT, receivableReport } from '../domain/reports/open-items-report.ts';
import { CASH_REPORT_INPUT, cashReport, exportCashReport, type CashReportInput } from '../domain/reports/cash-report.ts';
import { exportStockReport, STOCK_REPORT_INPUT, stockReport, type StockReportInput } from '../domain/reports/stock-report.ts';
import { DASHBOARD_INPUT, dashboard } from '../domain/dashboard/dashboard.ts';
import { DIRECT_SELLING_INPUT, directSellingReport, exportDirectSellingReport, type DirectSellingInput } from '../domain/reports/direct-selling-report.ts';
import { exportOtherMovesReport, OTHER_MOVES_INPUT, otherMovesReport, type OtherMovesInput } from '../domain/reports/other-moves-report.ts';
import { APP_USAGE_INPUT, appUsageReport, exportAppUsageReport, type AppUsageInput } from '../domain/reports/app-usage-report.ts';
import { daysOrThisMonth } from '../domain/reports/report-days.ts';
import { tz } from '../domain/procurement/common.ts';
import { EXPORT_ALL_INPUT, exportAll, startExportAll, type ExportAllInput } from '../domain/reports/export-all.ts';
import { keptList } from '../resources/page-cache.ts';
import { targetsOf } from './export-job-ops.ts';
import type { OpsDeps } from './index.ts';

// What each report reads (kept pages: a write to any of these makes a kept page stale).
const PURCHASE_REPORT_TABLES = ['purchaseOrder', 'purchaseOrderLine', 'receivingNote', 'receivingNoteLine', 'purchaseInvoice', 'purchaseInvoiceLine', 'supplier', 'product', 'warehouse', 'company'];
const STOCK_REPORT_TABLES = ['stockSummary', 'product', 'warehouse', 'category', 'company'];
const INVOICING_REPORT_TABLES = ['deliveryNote', 'deliveryNoteLine', 'salesInvoice', 'salesInvoiceLine', 'product', 'client', 'company'];
const OPEN_ITEMS_REPORT_TABLES = ['openItem', 'financeAllocation', 'client', 'supplier', 'company'];
// 期末未付: the daily closing's payable snapshots and the closings that kept them
const PAYABLE_REPORT_TABLES = [...OPEN_ITEMS_REPORT_TABLES, 'dailyClosing', 'payableSnapshot'];
const CASH_REPORT_TABLES = ['payDocument', 'advanceRefund', 'company'];
const SALE_REPORT_TABLES = ['salesOrder', 'salesOrderLine', 'product', 'category', 'client', 'staff', 'warehouse', 'presalePlan', 'company'];
const OTHER_MOVES_TABLES = ['stockMove', 'stockMoveDay', 'dailyClosing', 'receivingNote', 'product', 'category', 'warehouse', 'company'];

/** 其他出入库: the days made explicit before the page is kept, so "this month so far" is never served from another day. */
const otherMovesKept = keptList('report.otherMoves', OTHER_MOVES_TABLES, OTHER_MOVES_INPUT, (ctx, input: OtherMovesInput) => otherMovesReport(ctx, input));

export function reportOps(deps: OpsDeps): Record<string, OpHandler> {
  const targets = targetsOf(deps);
  return {
    'report.purchase': acceptingFilters(keptList('report.purchase', PURCHASE_REPORT_TABLES, PURCHASE_REPORT_INPUT, (ctx, input: PurchaseReportInput) => purchaseReport(ctx, input))),
    'report.purchaseExport': acceptingFilters({ input: PURCHASE_REPORT_INPUT, run: (ctx, input: PurchaseReportInput) => exportPurchaseReport(ctx, input) }),
    'report.stock': acceptingFilters(keptList('report.stock', STOCK_REPORT_TABLES, STOCK_REPORT_INPUT, (ctx, input: StockReportInput) => stockReport(ctx, input))),
    'report.stockExport': acceptingFilters({ input: STOCK_REPORT_INPUT, run: (ctx, input: StockReportInput) => exportStockReport(ctx, input) }),
    'report.sale': acceptingFilters(keptList('report.sale', SALE_REPORT_TABLES, SALE_REPORT_INPUT, (ctx, input: SaleReportInput) => saleReport(ctx, input))),
    'report.saleExport': acceptingFilters({ input: SALE_REPORT_INPUT, run: (ctx, input: SaleReportInput) => exportSaleReport(ctx, input) }),
    'report.presale': acceptingFilters(keptList('report.presale', SALE_REPORT_TABLES, PRESALE_REPORT_INPUT, (ctx, input: SaleReportInput) => presaleReport(ctx, input))),
    'report.presaleExport': acceptingFilters({ input: PRESALE_REPORT_INPUT, run: (ctx, input: SaleReportInput) => exportPresaleReport(ctx, input) }),
    'report.invoicing': acceptingFilters(keptList('report.invoicing', INVOICING_REPORT_TABLES, INVOICING_REPORT_INPUT, (ctx, input: InvoicingReportInput) => invoicingReport(ctx, input))),
    'report.invoicingExport': acceptingFilters({ input: INVOICING_REPORT_INPUT, run: (ctx, input: InvoicingReportInput) => exportInvoicingReport(ctx, input) }),
    'report.receivable': acceptingFilters(keptList('report.receivable', OPEN_ITEMS_REPORT_TABLES, RECEIVABLE_REPORT_INPUT, (ctx, input: OpenItemsReportInput) => receivableReport(ctx, input))),
    'report.receivableExport': acceptingFilters({ input: RECEIVABLE_REPORT_INPUT, run: (ctx, input: OpenItemsReportInput) => exportReceivableReport(ctx, input) }),
    'report.payable': acceptingFilters(keptList('report.payable', PAYABLE_REPORT_TABLES, PAYABLE_REPORT_INPUT, (ctx, input: OpenItemsReportInput) => payableReport(ctx, input))),
    'report.payableExport': acceptingFilters({ input: PAYABLE_REPORT_INPUT, run: (ctx, input: OpenItemsReportInput) => exportPayableReport(ctx, input) }),
    'report.cash': acceptingFilters(keptList('report.cash', CASH_REPORT_TABLES, CASH_REPORT_INPUT, (ctx, input: CashReportInput) => cashReport(ctx, input))),
    'report.directSelling': acceptingFilters(keptList('report.directSelling', SALE_REPORT_TABLES, DIRECT_SELLING_INPUT, (ctx, input: DirectSellingInput) => directSellingReport(ctx, input))),
    'report.directSellingExport': acceptingFilters({ input: DIRECT_SELLING_INPUT, run: (ctx, input: DirectSellingInput) => exportDirectSellingReport(ctx, input) }),
    'report.otherMoves': acceptingFilters({
      input: OTHER_MOVES_INPUT,
      run: (ctx, input: OtherMovesInput) => {
        const { from, to } = daysOrThisMonth(input.dateRange, tz(ctx));
        return otherMovesKept.run(ctx, { ...input, dateRange: [from, to] });
      },
    }),
    'report.otherMovesExport': acceptingFilters({ input: OTHER_MOVES_INPUT, run: (ctx, input: OtherMovesInput) => exportOtherMovesReport(ctx, input) }),
    // not kept: the API usage aggregate is written by the process monitor's flush, outside the table write
    // log a kept page trusts, and sessions are opened by logins, which do not note writes either
    'report.appUsage': acceptingFilters({ input: APP_USAGE_INPUT, run: (ctx, input: AppUsageInput) => appUsageReport(ctx, deps.catalog, deps.rights, input) }),
    'report.appUsageExport': acceptingFilters({ input: APP_USAGE_INPUT, run: (ctx, input: AppUsageInput) => exportAppUsageReport(ctx, deps.catalog, deps.rights, input) }),
    'report.cashExport': acceptingFilters({ input: CASH_REPORT_INPUT, run: (ctx, input: CashReportInput) => exportCashReport(ctx, input) }),
    // not kept pages: with no dates they are today's, and its balances read the ledger since the last closing
    'report.clapper': acceptingFilters({ input: CLAPPER_REPORT_INPUT, run: (ctx, input: ClapperReportInput) => clapperReport(ctx, input) }),
    'report.clapperExport': acceptingFilters({ input: CLAPPER_REPORT_INPUT, run: (ctx, input: ClapperReportInput) => exportClapperReport(ctx, input) }),
    'report.summary': acceptingFilters({ input: SUMMARY_REPORT_INPUT, run: (ctx, input: ClapperReportInput) => summaryReport(ctx, input) }),
    'report.summaryExport': acceptingFilters({ input: SUMMARY_REPORT_INPUT, run: (ctx, input: ClapperReportInput) => exportSummaryReport(ctx, input) }),
    'report.exportAllStart': { input: EXPORT_ALL_INPUT, run: (ctx, input: ExportAllInput) => startExportAll(ctx, targets, input) },
    'report.exportAll': { input: EXPORT_ALL_INPUT, run: (ctx, input: ExportAllInput) => exportAll(ctx, targets, input) },
    // 数据大屏: figures of now, read on every refresh (not kept pages)
    'dashboard.sales': { input: DASHBOARD_INPUT, run: (ctx) => dashboard(ctx, 'sales') },
    'dashboard.all': { input: DASHBOARD_INPUT, run: (ctx) => dashboard(ctx, 'all') },
    'report.closeDay': { input: CLOSING_INPUT, run: (ctx, input: ClosingInput) => closeDay(ctx, input) },
    'report.closings': keptList('report.closings', ['dailyClosing', 'account'], CLOSING_LOG_INPUT, (ctx, input: Paging) => closingLog(ctx, input)),
  };
}
