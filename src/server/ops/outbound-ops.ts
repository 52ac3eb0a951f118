// Outbound-floor calls beyond the document engine's (outbound tasks, picking orders and delivery notes are
// served from src/server/documents/types/): assigning a task to a warehouse worker, the tasks a new
// picking order can take, the picking suggestion for chosen tasks, and what a task can deliver — the
// binding only: src/server/domain/outbound/ (task.ts, floor-lists.ts) and the delivery note's definition answer.
import type { OpHandler } from '../catalog/context.ts';
import { bizError } from '../http/errors.ts';
import { pickableTasks, pickingSuggestion } from '../domain/outbound/floor-lists.ts';
import { assignTask, OT_TITLE } from '../domain/outbound/task.ts';
import { deliverableLines, loadingListLines } from '../documents/types/delivery-note.ts';
import { taskIdsOf } from '../documents/types/picking-order.ts';
import type { OpsDeps } from './index.ts';

const ID = { type: 'integer', minimum: 1, maximum: 2_147_483_647 } as const;

export function outboundOps(_deps: OpsDeps): Record<string, OpHandler> {
  return {
    'outboundTask.assign': {
      input: { type: 'object', required: ['id'], properties: { id: { ...ID, title: OT_TITLE }, version: { ...ID, title: '版本' }, assigneeId: { anyOf: [{ ...ID }, { type: 'null' }], title: '作业人员' } } },
      run: (ctx, input: { id: number; version?: number; assigneeId?: number | null }) => assignTask(ctx, input),
    },
    'outboundTask.pickable': {
      input: { type: 'object', properties: { warehouseId: { ...ID, title: '仓库' }, keyword: { type: 'string', maxLength: 50, title: '关键字' } } },
      run: (ctx, input: { warehouseId?: number; keyword?: string }) => pickableTasks(ctx, input),
    },
    'pickingOrder.suggest': {
      // one task (a link from the task) or several (a wave)
      input: { type: 'object', required: ['taskIds'], properties: { taskIds: { anyOf: [{ ...ID }, { type: 'array', minItems: 1, maxItems: 200, items: { ...ID } }], title: '出库任务' } } },
      run: (ctx, input: { taskIds: number | number[] }) => pickingSuggestion(ctx, taskIdsOf(input).map(Number)),
    },
    'deliveryNote.deliverable': {
      input: { type: 'object', required: ['taskId'], properties: { taskId: { ...ID, title: OT_TITLE }, loadingListId: { anyOf: [{ ...ID }, { type: 'null' }], title: '装车单' } } },
      run: async (ctx, input: { taskId: number; loadingListId?: number | null }) => {
        // from a loaded list: what the list's cartons of the task hold
        if (input.loadingListId) return loadingListLines(ctx, input.loadingListId, input.taskId);
        const d = await deliverableLines(ctx, input.taskId);
        if (!d.deliverable) throw bizError('OUTBOUND_DELIVER_NOTHING_4166', { docNo: d.taskDocNo }, { taskId: d.taskId });
        return d;
      },
    },
  };
}
