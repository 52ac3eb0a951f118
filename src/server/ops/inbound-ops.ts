// Inbound planning calls: inbound plans (oms 0212xx), inbound tasks (0213xx), containers and their
// withdrawing records (0216xx). The logic lives in src/server/domain/procurement/.
import type { OpHandler } from '../catalog/context.ts';
import { acceptingFilters } from '../catalog/list-filters.ts';
import { ID_INPUT, ID_VERSION_INPUT } from '../domain/procurement/common.ts';
import {
  arriveContainer, CONTAINER_LIST_INPUT, CONTAINER_SAVE_INPUT, containerOptions, containerTypeOptions, getContainer, getWithdrawing, listContainers,
  listWithdrawings, saveContainer, UNLOAD_INPUT, unloadContainer, WITHDRAWING_LIST_INPUT,
  type ContainerListInput, type ContainerSaveInput, type WithdrawingListInput,
} from '../domain/procurement/container.ts';
import { plannableLines } from '../domain/procurement/inbound-plan.ts';
import type { OpsDeps } from './index.ts';

type IdVersion = { id: number; version?: number };

export function inboundOps(_deps: OpsDeps): Record<string, OpHandler> {
  return {
    // list, get, save, confirm and cancel of inbound plans: the document engine (documents/types/inbound-plan.ts)
    'inboundPlan.plannable': {
      input: { type: 'object', required: ['orderId'], properties: { orderId: { type: 'integer', minimum: 1, title: '采购订单' } } },
      run: (ctx, input: { orderId: number }) => plannableLines(ctx, input.orderId),
    },

    // list, get, cancel and close of inbound tasks: the document engine (documents/types/inbound-task.ts)

    'container.list': acceptingFilters({ input: CONTAINER_LIST_INPUT, run: (ctx, input: ContainerListInput) => listContainers(ctx, input) }),
    'container.get': { input: ID_INPUT, run: (ctx, input: { id: number }) => getContainer(ctx, input.id) },
    'container.save': { input: CONTAINER_SAVE_INPUT, run: (ctx, input: ContainerSaveInput) => saveContainer(ctx, input) },
    'container.arrive': { input: ID_VERSION_INPUT, run: (ctx, input: IdVersion) => arriveContainer(ctx, input) },
    'container.unload': { input: UNLOAD_INPUT, run: (ctx, input: IdVersion & { finish?: boolean; remark?: string | null }) => unloadContainer(ctx, input) },
    'container.typeOptions': { run: (ctx) => containerTypeOptions(ctx) },
    'container.options': {
      input: { type: 'object', properties: { keyword: { type: ['string', 'null'], maxLength: 20, title: '关键字' } } },
      run: (ctx, input: { keyword?: string | null }) => containerOptions(ctx, input),
    },
    'containerWithdrawing.list': acceptingFilters({ input: WITHDRAWING_LIST_INPUT, run: (ctx, input: WithdrawingListInput) => listWithdrawings(ctx, input) }),
    'containerWithdrawing.get': { input: ID_INPUT, run: (ctx, input: { id: number }) => getWithdrawing(ctx, input.id) },
  };
}
