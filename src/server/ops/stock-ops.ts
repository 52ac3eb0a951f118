// Stock calls: location lookup/options, the inventory reads, opening stock and adjustment documents, and
// the verification of balances against the ledger. The logic lives in src/server/domain/stock/.
import type { OpHandler } from '../catalog/context.ts';
import { acceptingFilters } from '../catalog/list-filters.ts';
import { adjustReasons } from '../domain/stock/documents.ts';
import { importInitLines, initTemplate } from '../domain/stock/init-import.ts';
import {
  distributionList, DISTRIBUTION_INPUT, DISTRIBUTION_TABLES, inventoryList, INVENTORY_INPUT, INVENTORY_TABLES, movementList, MOVEMENTS_INPUT,
  type DistributionInput, type InventoryInput, type MovementsInput,
} from '../domain/stock/inventory.ts';
import { locationOptions, lookupLocation } from '../domain/stock/locations.ts';
import { keptList } from '../resources/page-cache.ts';
import { LABEL_DATA_INPUT, LABEL_STOCK_INPUT, labelData, labelStock, PEEK_INPUT, peekLabel, type LabelKind } from '../domain/stock/labels.ts';
import { SCAN_INPUT, scanStock, type ScanInput } from '../domain/stock/scan.ts';
import { listScanRecords, RECORD_LIST_INPUT, recordScan, SCAN_RECORD_INPUT, type RecordListInput, type ScanRecordInput } from '../domain/stock/single-record.ts';
import {
  COUNT_INPUT, enterCount, openTakeOptions, SHEET_INPUT, takeSheet, takeVariances, VARIANCE_INPUT, type CountInput, type SheetInput, type VarianceInput,
} from '../domain/stock/stock-take.ts';
import type { OpsDeps } from './index.ts';


export function stockOps(_deps: OpsDeps): Record<string, OpHandler> {
  return {
    'location.lookup': {
      input: {
        type: 'object', required: ['code'],
        properties: { code: { type: 'string', minLength: 1, maxLength: 50, title: '库位编码' }, warehouseId: { type: 'integer', minimum: 1, title: '仓库' } },
      },
      run: (ctx, input: { code: string; warehouseId?: number }) => lookupLocation(ctx.tenant, input.code, input.warehouseId),
    },
    'location.options': {
      input: {
        type: 'object',
        properties: {
          warehouseId: { type: 'integer', minimum: 1, title: '仓库' },
          keyword: { type: ['string', 'null'], maxLength: 50, title: '关键字' },
          includeLocked: { type: 'boolean', title: '包含锁定库位' },
        },
      },
      run: (ctx, input: { warehouseId?: number; keyword?: string | null; includeLocked?: boolean }) => locationOptions(ctx, input),
    },

    'stock.inventory': acceptingFilters(keptList('stock.inventory', INVENTORY_TABLES, INVENTORY_INPUT, (ctx, input: InventoryInput, token) => inventoryList(ctx, input, token))),
    'stock.distribution': acceptingFilters(keptList('stock.distribution', DISTRIBUTION_TABLES, DISTRIBUTION_INPUT, (ctx, input: DistributionInput, token) => distributionList(ctx, input, token))),
    'stock.movements': acceptingFilters({ input: MOVEMENTS_INPUT, run: (ctx, input: MovementsInput) => movementList(ctx, input) }),

    // list, get, save, post and cancel of opening stock and adjustments: the document engine
    // (src/server/documents/types/stock-documents.ts)
    'stockInit.importLines': { run: (ctx) => importInitLines(ctx) },
    'stockInit.template': { async run() { return initTemplate(); } },
    'stockAdjust.reasons': { async run(ctx) { return adjustReasons(ctx.tenant); } },

    // stocktaking: list, get, create, post and cancel are the engine's (documents/types/stock-take.ts)
    'stockTake.sheet': acceptingFilters({ input: SHEET_INPUT, run: (ctx, input: SheetInput) => takeSheet(ctx, input) }),
    'stockTake.count': { input: COUNT_INPUT, run: (ctx, input: CountInput) => enterCount(ctx, input) },
    'stockTake.variances': acceptingFilters({ input: VARIANCE_INPUT, run: (ctx, input: VarianceInput) => takeVariances(ctx, input) }),

    'stockTake.openOptions': { run: (ctx) => openTakeOptions(ctx) },

    // the floor: a scanned code's stock by location (/ipad), labels and what their QR code opens
    'stock.scan': acceptingFilters({ input: SCAN_INPUT, run: (ctx, input: ScanInput) => scanStock(ctx, input) }),
    'label.data': { input: LABEL_DATA_INPUT, run: (ctx, input: { kind: LabelKind; docType?: string; ids: number[] }) => labelData(ctx, input) },
    'label.peek': { input: PEEK_INPUT, run: (ctx, input: { id: string }) => peekLabel(ctx, input) },
    'label.stock': acceptingFilters({ input: LABEL_STOCK_INPUT, run: (ctx, input: { t: string; page: number; pageSize: number }) => labelStock(ctx, input) }),

    'singleRecord.scan': { input: SCAN_RECORD_INPUT, run: (ctx, input: ScanRecordInput) => recordScan(ctx, input) },
    'singleRecord.list': acceptingFilters({ input: RECORD_LIST_INPUT, run: (ctx, input: RecordListInput) => listScanRecords(ctx, input) }),

    // the verification (cdm 019401) is system.verify (system-ops.ts): it keeps each run
  };
}
