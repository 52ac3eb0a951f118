// System tools (issue 17, cdm 0195xx/0198xx): process monitoring, API usage analysis, kept verification
// runs. The logic lives in src/server/domain/system/.
import type { OpHandler } from '../catalog/context.ts';
import { acceptingFilters } from '../catalog/list-filters.ts';
import { BACK_ORDER_LIST_INPUT, CLOSE_INPUT, closeBackOrders, listBackOrders } from '../domain/system/back-orders.ts';
import { DEVICE_LIST_INPUT, END_DEVICE_INPUT, endDeviceSessions, listDevices } from '../domain/system/devices.ts';
import { listProcesses } from '../domain/system/processes.ts';
import { diffStructure } from '../domain/system/structure.ts';
import { DIFF_INPUT, diffDocuments, docTypeOptions, type DiffInput } from '../domain/system/doc-diff.ts';
import { CLIENT_MAP_INPUT, clientMap, SALE_MAP_INPUT, saleMap, type MapInput } from '../domain/system/region-map.ts';
import { PROMISE_INPUT, promiseList } from '../domain/system/promises.ts';
import { CHECK_INPUT, checkStorage, repairOrphans } from '../domain/system/storage-check.ts';
import { TRY_DESCRIBE_INPUT, TRY_LIST_INPUT, tryDescribe, tryEndpoints } from '../domain/system/try-console.ts';
import { usageReport, USAGE_INPUT, type UsageInput } from '../domain/system/usage.ts';
import { getRun, listRuns, RUN_GET_INPUT, RUN_LIST_INPUT, runVerification } from '../domain/system/verify-runs.ts';
import type { OpsDeps } from './index.ts';

export function systemOps(deps: OpsDeps): Record<string, OpHandler> {
  return {
    'system.processes': acceptingFilters({ input: { type: 'object', properties: { page: { type: 'integer' }, pageSize: { type: 'integer' } } }, run: (ctx) => listProcesses(ctx) }),
    'system.usage': acceptingFilters({ input: USAGE_INPUT, run: (ctx, input: UsageInput) => usageReport(ctx, deps.catalog, input) }),
    'system.verify': { run: (ctx) => runVerification(ctx) },
    'system.verifyRuns': acceptingFilters({ input: RUN_LIST_INPUT, run: (ctx, input: { page: number; pageSize: number; onlyDifferences?: boolean | null }) => listRuns(ctx, input) }),
    'system.verifyRun': { input: RUN_GET_INPUT, run: (ctx, input: { id: string }) => getRun(ctx, input) },
    'system.backOrders': acceptingFilters({ input: BACK_ORDER_LIST_INPUT, run: (ctx, input: { page: number; pageSize: number; keyword?: string | null }) => listBackOrders(ctx, input) }),
    'system.tryEndpoints': { input: TRY_LIST_INPUT, run: async (ctx, input: { keyword?: string | null; id?: string | null }) => tryEndpoints(ctx, deps.catalog, input) },
    'system.tryDescribe': { input: TRY_DESCRIBE_INPUT, run: async (ctx, input: { api: string }) => tryDescribe(ctx, deps.catalog, input) },
    'system.diffStructure': acceptingFilters({ input: { type: 'object', properties: { page: { type: 'integer' }, pageSize: { type: 'integer' } } }, run: (ctx) => diffStructure(ctx) }),
    'system.devices': acceptingFilters({ input: DEVICE_LIST_INPUT, run: (ctx, input: { page: number; pageSize: number; keyword?: string | null; scope: 'all' | 'sales'; onlyOpen?: boolean | null }) => listDevices(ctx, input) }),
    'system.endDevice': { input: END_DEVICE_INPUT, run: (ctx, input: { id: string }) => endDeviceSessions(ctx, input, 'all') },
    // 销售设备: the same over the sales accounts only (whatever scope the body names)
    'system.saleDevices': acceptingFilters({ input: DEVICE_LIST_INPUT, run: (ctx, input: { page: number; pageSize: number; keyword?: string | null; scope: 'all' | 'sales'; onlyOpen?: boolean | null }) => listDevices(ctx, { ...input, scope: 'sales' }) }),
    'system.endSaleDevice': { input: END_DEVICE_INPUT, run: (ctx, input: { id: string }) => endDeviceSessions(ctx, input, 'sales') },
    'system.storageCheck': acceptingFilters({ input: CHECK_INPUT, run: (ctx, input: { page: number; pageSize: number; kind?: string | null }) => checkStorage(ctx, input) }),
    'system.repairOrphans': { run: (ctx) => repairOrphans(ctx) },
    'system.promises': acceptingFilters({ input: PROMISE_INPUT, run: (ctx, input: { page: number; pageSize: number; keyword?: string | null; onlyLate?: boolean | null }) => promiseList(ctx, input) }),
    'system.docTypes': { run: async (ctx) => docTypeOptions(ctx) },
    'system.diffDocuments': acceptingFilters({ input: DIFF_INPUT, run: (ctx, input: DiffInput) => diffDocuments(ctx, input) }),
    'system.clientMap': acceptingFilters({ input: CLIENT_MAP_INPUT, run: (ctx, input: MapInput) => clientMap(ctx, input) }),
    'system.saleMap': acceptingFilters({ input: SALE_MAP_INPUT, run: (ctx, input: MapInput) => saleMap(ctx, input) }),
    'system.closeBackOrders': { input: CLOSE_INPUT, run: (ctx, input: { ids: number[]; reason: string }) => closeBackOrders(ctx, input) },
  };
}
