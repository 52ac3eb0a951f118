// 纸箱 (carton) on the document engine (issue 14; oms 021901–021910): picked goods of one outbound task
// packed into a numbered box, with its weight and volume and a label (Code 128 of its number, a QR code
// opening /qrCodeLoad). draft (装箱中) → packed (已封箱) → loaded (已装车, by a loading list) → shipped (已发货,
// by the delivery note made from the list); cancelled from draft or packed while on no loading list.
// No stock moves here (domain/outbound/cartons.ts says why and how the claims work): what a draft or a
// sealed carton holds is claimed on its task lines, never more than picked and not yet delivered.
import { bizError, documentStatusError, validationError, type FieldError } from '../../http/errors.ts';
import { text, type Row } from '../../domain/procurement/common.ts';
import { claimPacked, releasePacked, taskLineFigures, unpacked } from '../../domain/outbound/cartons.ts';
import { DELIVERABLE_TASK, OT_STATUS } from '../../domain/outbound/task.ts';
import { MAX_MOVE_QTY } from '../../domain/stock/ledger.ts';
import { defineDocument } from '../definition.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import { TypedTenant } from '../../db/typed.ts';

const ID = { type: 'integer', min: 1, max: 2_147_483_647 } as const;

async function storedLinesOf(untypedTenant: Tenant, cartonId: number): Promise<Row[]> {
  const tenant = TypedTenant.of(untypedTenant);
  return await tenant.select('cartonLine').select(['taskLineId', 'qty']).where('cartonId', '=', cartonId).execute();
}

export const carton = defineDocument({
  type: 'carton',
  title: '纸箱',
  prefix: 'CT',
  table: 'carton',
  managed: true,
  indexes: [['taskId'], ['loadingListId'], ['deliveryNoteId']],
  statuses: {
    draft: { label: '装箱中', color: 'blue' }, packed: { label: '已封箱', color: 'cyan' }, loaded: { label: '已装车', color: 'orange' },
    shipped: { label: '已发货', color: 'green' }, cancelled: { label: '已作废', color: 'red' },
  },
  editable: ['draft'],
  rights: { read: 'entrepot.cardboardList', edit: 'entrepot.cardboard.edit' },
  header: {
    taskId: { ...ID, type: 'integer', title: '出库任务', required: true },
    orderId: { ...ID, type: 'integer', title: '销售订单', readonly: true },
    clientId: { type: 'reference', resource: 'client', title: '客户', readonly: true },
    warehouseId: { type: 'reference', resource: 'warehouse', title: '仓库', readonly: true },
    // kg with 3 decimals (stored in grams), m³ with 3 decimals (stored in litres)
    weight: { type: 'decimal', scale: 3, title: '毛重(kg)', min: '0', max: '100000' },
    volume: { type: 'decimal', scale: 3, title: '体积(m³)', min: '0', max: '1000' },
    packerId: { type: 'reference', resource: 'staff', title: '装箱员' },
    remark: { type: 'string', title: '备注', maxLength: 500 },
    loadingListId: { ...ID, type: 'integer', title: '装车单', readonly: true },
    deliveryNoteId: { ...ID, type: 'integer', title: '送货单', readonly: true },
    lineCount: { type: 'integer', title: '明细行数', readonly: true },
    totalQty: { type: 'integer', title: '装箱数量', readonly: true },
  },
  lines: {
    table: 'cartonLine',
    parent: 'cartonId',
    indexes: [['taskLineId'], ['orderLineId']],
    max: 500,
    fields: {
      taskLineId: { ...ID, type: 'integer', title: '任务明细', required: true },
      orderLineId: { ...ID, type: 'integer', title: '订单明细', readonly: true },
      productId: { type: 'reference', resource: 'product', title: '商品', readonly: true },
      qty: { type: 'integer', title: '装箱数量', min: 1, max: MAX_MOVE_QTY },
      remark: { type: 'string', title: '备注', maxLength: 200 },
    },
    reads: { productId: ['specification', 'unitSmall', 'barcode'] },
  },
  hooks: {
    // a carton made from a task without lines: everything picked and not yet in a carton
    async prepare(ctx, input) {
      if (input.id !== undefined || (input.lines !== undefined && input.lines !== null) || !Number.isSafeInteger(input.taskId) || Number(input.taskId) <= 0) return;
      const lines = await packableLines(ctx.tenant, Number(input.taskId));
      if (!lines.length) {
        const task = await TypedTenant.of(ctx.tenant).select('outboundTask').select('docNo').where('id', '=', Number(input.taskId)).executeTakeFirst();
        if (!task) throw bizError('COMMON_NOT_FOUND_4004', { entity: '出库任务' });
        throw bizError('CARTON_NOTHING_4276', { docNo: String(task.docNo) }, { taskId: Number(input.taskId) });
      }
      input.lines = lines.map((l) => ({ taskLineId: l.taskLineId, qty: l.qty }));
    },
    async validate({ ctx, header, lines, verified }) {
      const tenant = TypedTenant.of(ctx.tenant);
      const taskId = Number(header.taskId);
      const task = await tenant.select('outboundTask').select(['id', 'docNo', 'status', 'orderId', 'clientId', 'warehouseId']).where('id', '=', taskId).executeTakeFirst();
      if (!task) throw validationError([{ field: 'taskId', message: '出库任务不存在' }]);
      if (!DELIVERABLE_TASK.includes(String(task.status))) throw documentStatusError('出库任务', OT_STATUS, task, '装箱');
      const figures = await taskLineFigures(ctx.tenant, lines.map((l) => Number(l.taskLineId)));
      const errors: FieldError[] = [];
      const sum = new Map<number, number>();
      lines.forEach((l, i) => {
        const err = (f: string, message: string) => errors.push({ field: `lines.${i}.${f}`, message: `第 ${i + 1} 行：${message}` });
        const tl = figures.get(Number(l.taskLineId));
        if (!tl || Number(tl.taskId) !== taskId) { err('taskLineId', `不是出库任务 ${String(task.docNo)} 的明细`); return; }
        if (l.qty == null || Number(l.qty) <= 0) { err('qty', '装箱数量必须大于 0'); return; }
        l.orderLineId = Number(tl.orderLineId);
        l.productId = Number(tl.productId);
        sum.set(Number(tl.id), (sum.get(Number(tl.id)) ?? 0) + Number(l.qty));
      });
      if (errors.length) throw validationError(errors.slice(0, 200));
      verified.add('productId');
      Object.assign(header, { orderId: Number(task.orderId), clientId: Number(task.clientId), warehouseId: Number(task.warehouseId), lineCount: lines.length, totalQty: lines.reduce((s, l) => s + Number(l.qty), 0) });
      header.loadingListId = null;
      header.deliveryNoteId = null;
    },
    // the claim: old lines given back first, then the new ones (the guard in one statement per carton)
    async saving({ tenant, lines, docId, created }) {
      if (!created) await releasePacked(tenant, await storedLinesOf(tenant, docId));
      await claimPacked(tenant, lines);
    },
    async present(ctx, docs, lines) {
      if (!docs.length) return;
      const tenant = TypedTenant.of(ctx.tenant);
      const ids = (k: string) => [...new Set(docs.map((d) => Number(d[k])).filter((x) => x > 0))];
      const tasks = await tenant.byIds('outboundTask', ['docNo'], ids('taskId'));
      const orders = await tenant.byIds('salesOrder', ['docNo'], ids('orderId'));
      const lists = await tenant.byIds('loadingList', ['docNo'], ids('loadingListId'));
      const notes = await tenant.byIds('deliveryNote', ['docNo'], ids('deliveryNoteId'));
      // the box number: its place among the task's cartons (not cancelled), by creation
      const boxes = new Map<number, number[]>();
      const taskIds = ids('taskId');
      if (taskIds.length) {
        for (const r of await tenant.select('carton').select(['id', 'taskId']).where('taskId', 'in', taskIds).where('status', '<>', 'cancelled').orderBy('id').execute()) {
          const list = boxes.get(Number(r.taskId)) ?? [];
          list.push(Number(r.id));
          boxes.set(Number(r.taskId), list);
        }
      }
      for (const d of docs) {
        const box = boxes.get(Number(d.taskId)) ?? [];
        const n = box.indexOf(Number(d.id));
        Object.assign(d, {
          taskDocNo: text(tasks.get(Number(d.taskId))?.docNo), orderDocNo: text(orders.get(Number(d.orderId))?.docNo),
          loadingListDocNo: text(lists.get(Number(d.loadingListId))?.docNo), deliveryNoteDocNo: text(notes.get(Number(d.deliveryNoteId))?.docNo),
          boxNo: n >= 0 ? n + 1 : null, boxCount: box.length, boxText: n >= 0 ? `第 ${n + 1} / ${box.length} 箱` : null,
        });
      }
      if (!lines?.length) return;
      const figures = await taskLineFigures(ctx.tenant, lines.map((l) => Number(l.taskLineId)));
      for (const l of lines) {
        const tl = figures.get(Number(l.taskLineId));
        Object.assign(l, { taskLineNo: Number(tl?.lineNo), pickedQty: Number(tl?.pickedQty ?? 0), unpackedQty: tl ? unpacked(tl) : 0 });
      }
    },
  },
  transitions: {
    seal: {
      label: '封箱', from: ['draft'], to: 'packed', stamp: 'packed', right: 'entrepot.cardboard.edit',
      confirm: '确定封箱“{docNo}”？封箱后可装车，不能再修改箱内商品。',
    },
    cancel: {
      label: '作废', from: ['draft', 'packed'], to: 'cancelled', stamp: 'cancelled', danger: true, right: 'entrepot.cardboard.edit',
      confirm: '确定作废纸箱“{docNo}”？箱内商品回到已拣未装箱，可重新装箱。',
      async before({ tenant, doc }) {
        if (doc.loadingListId != null && ['draft', 'packed'].includes(String(doc.status))) {
          const list = await TypedTenant.of(tenant).select('loadingList').select('docNo').where('id', '=', Number(doc.loadingListId)).executeTakeFirst();
          throw bizError('CARTON_ON_LIST_4272', { docNo: String(doc.docNo), listNo: String(list?.docNo ?? '') }, { loadingListId: Number(doc.loadingListId) });
        }
      },
      async run({ tenant, doc }) {
        await releasePacked(tenant, await storedLinesOf(tenant, Number(doc.id)));
      },
    },
  },
  saveThen: { flag: 'seal', transition: 'seal' },
  links: [{ field: 'taskId', type: 'outboundTask' }],
  names: { taskId: { table: 'outboundTask', column: 'docNo' } },
  audit: ['taskId', 'weight', 'volume', 'packerId', 'totalQty', 'remark'],
  listFilters: ['taskId', 'orderId', 'clientId', 'warehouseId', 'loadingListId'],
  dateField: 'createdAt',
  listReads: ['outboundTask', 'salesOrder', 'loadingList', 'deliveryNote'],
  export: {
    header: ['docNo', 'statusText', { key: 'taskDocNo', title: '出库任务', width: 18 }, { key: 'boxText', title: '箱号', width: 14 }, 'clientId', 'weight', 'volume'],
    lines: ['lineNo', { key: 'productCode', title: '商品编码', width: 16 }, { key: 'productName', title: '商品名称', width: 30 }, 'qty'],
  },
  route: '/entrepot/cardboardDetail/{id}',
});

/** What a task has picked and not yet packed or delivered, line by line (a new carton's lines). */
export async function packableLines(untypedTenant: Parameters<typeof taskLineFigures>[0], taskId: number) {
  const tenant = TypedTenant.of(untypedTenant);
  const rows = await tenant.select('outboundTaskLine').innerJoin('product', (j) => j.onRef('product.id', '=', 'outboundTaskLine.productId').onRef('product.companyId', '=', 'outboundTaskLine.companyId'))
    .select(['outboundTaskLine.id', 'outboundTaskLine.lineNo', 'outboundTaskLine.productId', 'outboundTaskLine.pickedQty', 'outboundTaskLine.deliveredQty', 'outboundTaskLine.packedQty', 'product.code', 'product.name', 'product.unitSmall'])
    .where('outboundTaskLine.taskId', '=', taskId).orderBy('outboundTaskLine.lineNo').execute();
  return rows.map((r) => ({
    taskLineId: Number(r.id), lineNo: Number(r.lineNo), productId: Number(r.productId), productCode: String(r.code), productName: String(r.name), unitSmall: text(r.unitSmall),
    pickedQty: Number(r.pickedQty), unpackedQty: unpacked(r), qty: unpacked(r),
  })).filter((l) => l.qty > 0);
}
