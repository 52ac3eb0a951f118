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
    // products for a stock document's lines (opening stock): by exact code or barcode first, then partial; no prices
    'stock.pickProducts': {
      input: { type: 'object', properties: { keyword: { type: 'string', maxLength: 50, title: '关键字' }, id: { ...ID, title: '商品' }, limit: { type: 'integer', minimum: 1, maximum: 50, default: 20, title: '条数' } } },
      run: async (ctx, input: { keyword?: string; id?: number; limit?: number }) => {
        const kw = input.keyword?.trim() ?? '';
        let q = ctx.tenant.select('product').select(['id', 'code', 'barcode', 'name', 'specification', 'unitBig', 'unitMid', 'unitSmall', 'bigQty', 'midQty']);
        if (input.id) q = q.where('id', '=', input.id);
        else if (kw) q = q.where((eb) => eb.or([eb('code', '=', kw), eb('barcode', '=', kw), eb('code', 'like', `%${kw.replace(/[%_\\]/g, '')}%`), eb('name', 'like', `%${kw.replace(/[%_\\]/g, '')}%`)]));
        const rows = (await q.orderBy('code').limit(input.limit ?? 20).execute()) as Row[];
        rows.sort((a, b) => Number(b.code === kw || b.barcode === kw) - Number(a.code === kw || a.barcode === kw));
        const list = rows.map((r) => ({
          id: Number(r.id), value: Number(r.id), label: `${String(r.code)} ${String(r.name)}`, code: String(r.code), barcode: text(r.barcode), name: String(r.name), specification: text(r.specification),
          unitBig: text(r.unitBig), unitMid: text(r.unitMid), unitSmall: text(r.unitSmall), bigQty: Number(r.bigQty ?? 1), midQty: Number(r.midQty ?? 1),
        }));
        return { list, total: list.length };
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
