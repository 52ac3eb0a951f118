// Cartons and loading lists beyond the document engine's calls (documents/types/carton.ts, loading-list.ts):
// what a task can still pack (a new carton's lines) and the sealed cartons a loading list can take.
import type { OpHandler } from '../catalog/context.ts';
import { bizError } from '../http/errors.ts';
import { text, type Row } from '../domain/procurement/common.ts';
import { packableLines } from '../documents/types/carton.ts';
import type { OpsDeps } from './index.ts';

const ID = { type: 'integer', minimum: 1, maximum: 2_147_483_647 } as const;

export function floorOps(_deps: OpsDeps): Record<string, OpHandler> {
  return {
    'carton.packable': {
      input: { type: 'object', required: ['taskId'], properties: { taskId: { ...ID, title: '出库任务' } } },
      run: async (ctx, input: { taskId: number }) => {
        const task = (await ctx.tenant.select('outboundTask').select(['id', 'docNo']).where('id', '=', input.taskId).executeTakeFirst()) as Row | undefined;
        if (!task) throw bizError('COMMON_NOT_FOUND_4004', { entity: '出库任务' });
        const lines = await packableLines(ctx.tenant, input.taskId);
        return { taskId: input.taskId, taskDocNo: String(task.docNo), lines, list: lines, total: lines.length };
      },
    },
    'carton.loadable': {
      input: { type: 'object', properties: { warehouseId: { ...ID, title: '仓库' }, keyword: { type: 'string', maxLength: 50, title: '关键字' }, id: { ...ID, title: '纸箱' } } },
      run: async (ctx, input: { warehouseId?: number; keyword?: string; id?: number }) => {
        let q = ctx.tenant.select('carton')
          .leftJoin('client', (j) => j.onRef('client.id', '=', 'carton.clientId').onRef('client.companyId', '=', 'carton.companyId'))
          .leftJoin('outboundTask', (j) => j.onRef('outboundTask.id', '=', 'carton.taskId').onRef('outboundTask.companyId', '=', 'carton.companyId'))
          .select(['carton.id', 'carton.docNo', 'carton.taskId', 'carton.warehouseId', 'carton.weight', 'carton.volume', 'carton.totalQty', 'client.name as clientName', 'outboundTask.docNo as taskDocNo']);
        if (input.id) q = q.where('carton.id', '=', input.id);
        else q = q.where('carton.status', '=', 'packed').where('carton.loadingListId', 'is', null);
        if (input.warehouseId) q = q.where('carton.warehouseId', '=', input.warehouseId);
        const kw = input.keyword?.trim();
        if (kw) q = q.where((eb) => eb.or([eb('carton.docNo', 'like', `%${kw}%`), eb('outboundTask.docNo', 'like', `%${kw}%`), eb('client.name', 'like', `%${kw}%`)]));
        const rows = (await q.orderBy('carton.id').limit(200).execute()) as Row[];
        const list = rows.map((r) => ({
          id: Number(r.id), cartonId: Number(r.id), code: String(r.docNo), docNo: String(r.docNo), name: `${text(r.taskDocNo) ?? ''} ${text(r.clientName) ?? ''}`.trim(), taskId: Number(r.taskId), taskDocNo: text(r.taskDocNo), clientName: text(r.clientName),
          weight: r.weight == null ? null : (Number(r.weight) / 1000).toFixed(3), volume: r.volume == null ? null : (Number(r.volume) / 1000).toFixed(3), totalQty: Number(r.totalQty ?? 0),
          label: `${String(r.docNo)} ${text(r.clientName) ?? ''}`.trim(), value: Number(r.id),
        }));
        return { list, total: list.length };
      },
    },
  };
}
