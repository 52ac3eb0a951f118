// Outbound-floor calls beyond the document engine's (outbound tasks, picking orders and delivery notes are
// served from src/server/documents/types/): assigning a task to a warehouse worker, the tasks a new
// picking order can take, the picking suggestion for chosen tasks, and what a task can deliver.
import { sql } from 'kysely';
import type { OpHandler } from '../catalog/context.ts';
import { bizError, validationError } from '../http/errors.ts';
import { refusal, text, type Row } from '../domain/procurement/common.ts';
import { linesToPick, suggestPicks } from '../domain/outbound/picking.ts';
import { OT_STATUS, OT_TITLE, PICKABLE_TASK } from '../domain/outbound/task.ts';
import { deliverableLines, loadingListLines } from '../documents/types/delivery-note.ts';
import { taskIdsOf } from '../documents/types/picking-order.ts';
import type { OpsDeps } from './index.ts';

const ID = { type: 'integer', minimum: 1, maximum: 2_147_483_647 } as const;
const ASSIGNABLE = ['open', 'picking', 'picked'];

export function outboundOps(_deps: OpsDeps): Record<string, OpHandler> {
  return {
    'outboundTask.assign': {
      input: { type: 'object', required: ['id'], properties: { id: { ...ID, title: OT_TITLE }, version: { ...ID, title: '版本' }, assigneeId: { anyOf: [{ ...ID }, { type: 'null' }], title: '作业人员' } } },
      run: (ctx, input: { id: number; version?: number; assigneeId?: number | null }) => ctx.transaction(async (db, tenant) => {
        const assigneeId = input.assigneeId ?? null;
        let name: string | null = null;
        if (assigneeId !== null) {
          const staff = (await tenant.select('staff').select(['id', 'name', 'enabled']).where('id', '=', assigneeId).executeTakeFirst()) as Row | undefined;
          if (!staff) throw validationError([{ field: 'assigneeId', message: '作业人员不存在' }]);
          if (Number(staff.enabled) !== 1) throw validationError([{ field: 'assigneeId', message: `员工“${String(staff.name)}”已停用` }]);
          name = String(staff.name);
        }
        const before = (await tenant.select('outboundTask').select(['assigneeId']).where('id', '=', input.id).executeTakeFirst()) as Row | undefined;
        const now = new Date().toISOString();
        let q = tenant.update('outboundTask').set({ assigneeId, updatedAt: now, updatedBy: ctx.caller!.accountId, version: sql`${sql.ref('version')} + 1` })
          .where('id', '=', input.id).where('status', 'in', ASSIGNABLE);
        if (input.version !== undefined) q = q.where('version', '=', input.version);
        const row = (await q.returning(['id', 'docNo', 'version']).executeTakeFirst()) as Row | undefined;
        if (!row) throw await refusal(tenant, 'outboundTask', OT_TITLE, OT_STATUS, input.id, input.version, ASSIGNABLE, '分派');
        let was: string | null = null;
        if (before?.assigneeId != null) was = text(((await tenant.select('staff').select('name').where('id', '=', Number(before.assigneeId)).executeTakeFirst()) as Row | undefined)?.name);
        await ctx.audit({ action: 'assign', entity: 'outboundTask', recordId: input.id, recordLabel: String(row.docNo), changes: [{ field: 'assigneeId', title: '作业人员', from: was, to: name }] }, db);
        return { id: input.id, docNo: String(row.docNo), version: Number(row.version), assigneeId, assigneeName: name };
      }),
    },
    'outboundTask.pickable': {
      input: { type: 'object', properties: { warehouseId: { ...ID, title: '仓库' }, keyword: { type: 'string', maxLength: 50, title: '关键字' } } },
      run: async (ctx, input: { warehouseId?: number; keyword?: string }) => {
        let q = ctx.tenant.select('outboundTask')
          .innerJoin('warehouse', (j) => j.onRef('warehouse.id', '=', 'outboundTask.warehouseId').onRef('warehouse.companyId', '=', 'outboundTask.companyId'))
          .leftJoin('client', (j) => j.onRef('client.id', '=', 'outboundTask.clientId').onRef('client.companyId', '=', 'outboundTask.companyId'))
          .select(['outboundTask.id', 'outboundTask.docNo', 'outboundTask.status', 'outboundTask.warehouseId', 'outboundTask.shipDate', 'outboundTask.totalQty', 'outboundTask.pickedQty', 'outboundTask.pickingQty',
            'warehouse.name as warehouseName', 'client.name as clientName'])
          .where('outboundTask.status', 'in', PICKABLE_TASK)
          .where(sql<boolean>`${sql.ref('outboundTask.totalQty')} > ${sql.ref('outboundTask.pickedQty')} + ${sql.ref('outboundTask.pickingQty')}`);
        if (input.warehouseId) q = q.where('outboundTask.warehouseId', '=', input.warehouseId);
        const kw = input.keyword?.trim();
        if (kw) q = q.where((eb) => eb.or([eb('outboundTask.docNo', 'like', `%${kw}%`), eb('client.name', 'like', `%${kw}%`)]));
        const rows = (await q.orderBy('outboundTask.id').limit(500).execute()) as Row[];
        const list = rows.map((r) => ({
          id: Number(r.id), docNo: String(r.docNo), status: String(r.status), statusText: OT_STATUS[String(r.status) as keyof typeof OT_STATUS], warehouseId: Number(r.warehouseId), warehouseName: String(r.warehouseName),
          clientName: text(r.clientName), shipDate: text(r.shipDate), openQty: Number(r.totalQty) - Number(r.pickedQty) - Number(r.pickingQty),
          label: `${String(r.docNo)} ${text(r.clientName) ?? ''}`.trim(), value: Number(r.id),
        }));
        return { list, total: list.length };
      },
    },
    'pickingOrder.suggest': {
      // one task (a link from the task) or several (a wave)
      input: { type: 'object', required: ['taskIds'], properties: { taskIds: { anyOf: [{ ...ID }, { type: 'array', minItems: 1, maxItems: 200, items: { ...ID } }], title: '出库任务' } } },
      run: async (ctx, input: { taskIds: number | number[] }) => {
        const { warehouseId, lines } = await linesToPick(ctx.tenant, taskIdsOf(input).map(Number));
        const s = await suggestPicks(ctx.tenant, warehouseId, lines);
        const list = s.map((l, i) => ({
          key: `${l.taskLineId}:${l.locationId ?? 0}`, lineNo: i + 1, taskId: l.taskId, taskDocNo: l.taskDocNo, taskLineId: l.taskLineId, productId: l.productId, productCode: l.productCode, productName: l.productName, qty: l.qty,
          suggestedLocationId: l.locationId, suggestedLcCode: l.place?.lcCode ?? null,
        }));
        const wh = (await ctx.tenant.select('warehouse').select('name').where('id', '=', warehouseId).executeTakeFirst()) as Row | undefined;
        return { warehouseId, warehouseName: text(wh?.name), list, total: list.length };
      },
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
