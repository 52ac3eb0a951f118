// 提货任务 (pick-up task) on the document engine (issue 14; oms 021921–021928): the client's own carrier
// comes to the warehouse to collect goods — of a delivery note, or of a loading list (each of its notes).
// open (待提货) → collected (已提货: who collected, their ID or phone, the vehicle, when); cancelled from open.
// Collecting moves no stock: the goods leave the books when the delivery note is posted (the clerk posts it
// when the carrier arrives), so collecting is refused while the note is not posted — the task is the
// warehouse's record of the hand-over, the note stays the only document that takes stock off the ledger.
import { validationError } from '../../http/errors.ts';
import { text, type Row } from '../../domain/procurement/common.ts';
import { defineDocument } from '../definition.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import { TypedTenant } from '../../db/typed.ts';

const ID = { type: 'integer', min: 1, max: 2_147_483_647 } as const;
const NOTE_STATUS: Record<string, string> = { draft: '草稿', posted: '已发货', signed: '已签收', cancelled: '已作废' };

/** The delivery notes a task covers: its own, or every note (not cancelled) made from its loading list. */
async function notesOf(untypedTenant: Tenant, header: Row): Promise<Row[]> {
  const tenant = TypedTenant.of(untypedTenant);
  let q = tenant.select('deliveryNote').select(['id', 'docNo', 'status', 'clientId', 'warehouseId', 'totalQty', 'loadingListId']).where('status', '<>', 'cancelled');
  q = header.deliveryNoteId != null ? q.where('id', '=', Number(header.deliveryNoteId)) : q.where('loadingListId', '=', Number(header.loadingListId));
  return await q.orderBy('id').execute();
}

export const liftingTask = defineDocument({
  type: 'liftingTask',
  title: '提货任务',
  prefix: 'TH',
  table: 'liftingTask',
  managed: true,
  indexes: [['deliveryNoteId'], ['loadingListId']],
  statuses: { open: { label: '待提货', color: 'blue' }, collected: { label: '已提货', color: 'green' }, cancelled: { label: '已作废', color: 'red' } },
  initial: 'open',
  editable: ['open'],
  rights: { read: 'entrepot.liftingTasks', edit: 'entrepot.liftingTasks.edit' },
  header: {
    deliveryNoteId: { ...ID, type: 'integer', title: '送货单' },
    loadingListId: { ...ID, type: 'integer', title: '装车单' },
    clientId: { type: 'reference', resource: 'client', title: '客户', readonly: true },
    warehouseId: { type: 'reference', resource: 'warehouse', title: '仓库', readonly: true },
    carrier: { type: 'string', title: '承运商', maxLength: 100 },
    plannedDate: { type: 'date', title: '预约提货日期' },
    collectorName: { type: 'string', title: '提货人', maxLength: 50 },
    collectorId: { type: 'string', title: '证件号/电话', maxLength: 50 },
    vehicleNo: { type: 'string', title: '车牌号', maxLength: 20 },
    totalQty: { type: 'integer', title: '数量', readonly: true },
    noteNos: { type: 'string', title: '送货单', maxLength: 2000, readonly: true },
    remark: { type: 'string', title: '备注', maxLength: 500 },
  },
  lines: {
    table: 'liftingTaskLine',
    parent: 'taskId',
    min: 0,
    max: 200,
    fields: {
      noteId: { ...ID, type: 'integer', title: '送货单', readonly: true },
      qty: { type: 'integer', title: '数量', readonly: true },
    },
  },
  hooks: {
    async validate({ ctx, header, lines }) {
      if ((header.deliveryNoteId == null) === (header.loadingListId == null)) throw validationError([{ field: 'deliveryNoteId', message: '请选择送货单或装车单（二选一）' }]);
      const notes = await notesOf(ctx.tenant, header);
      if (!notes.length) throw validationError([{ field: header.deliveryNoteId != null ? 'deliveryNoteId' : 'loadingListId', message: header.deliveryNoteId != null ? '送货单不存在或已作废' : '装车单还没有送货单：请先由装车单生成送货单' }]);
      const clients = new Set(notes.map((n) => Number(n.clientId)));
      header.clientId = clients.size === 1 ? Number(notes[0]!.clientId) : null;
      header.warehouseId = Number(notes[0]!.warehouseId);
      header.totalQty = notes.reduce((s, n) => s + Number(n.totalQty), 0);
      header.noteNos = notes.map((n) => String(n.docNo)).join('、').slice(0, 2000);
      lines.splice(0, lines.length, ...notes.map((n) => ({ noteId: Number(n.id), qty: Number(n.totalQty) })));
    },
    async present(ctx, docs) {
      const ids = [...new Set(docs.map((d) => Number(d.loadingListId)).filter((x) => x > 0))];
      const lists = new Map(ids.length ? (await TypedTenant.of(ctx.tenant).select('loadingList').select(['id', 'docNo']).where('id', 'in', ids).execute()).map((r) => [Number(r.id), String(r.docNo)]) : []);
      for (const d of docs) d.loadingListDocNo = lists.get(Number(d.loadingListId)) ?? null;
    },
  },
  transitions: {
    collect: {
      label: '提货', from: ['open'], to: 'collected', stamp: 'collected', right: 'entrepot.liftingTasks.edit',
      input: {
        properties: {
          collectorName: { type: 'string', maxLength: 50, title: '提货人' },
          collectorId: { type: 'string', maxLength: 50, title: '证件号/电话' },
          vehicleNo: { type: 'string', maxLength: 20, title: '车牌号' },
        },
        required: ['collectorName'],
      },
      async before({ input }) {
        if (!String(input.collectorName ?? '').trim()) throw validationError([{ field: 'collectorName', message: '请填写提货人' }]);
      },
      async run({ tenant, doc, input, audit }) {
        // the goods leave the books by the notes: every one of them posted before the hand-over
        const notes = await notesOf(tenant, doc);
        const open = notes.filter((n) => n.status === 'draft');
        if (open.length || !notes.length) {
          throw validationError([{ field: 'deliveryNoteId', message: `送货单 ${open.map((n) => `${String(n.docNo)}（${NOTE_STATUS[String(n.status)]}）`).join('、') || '—'} 还未发货：请先发货（货物随送货单出库），再记录提货` }]);
        }
        const collectorName = String(input.collectorName).trim();
        // (the time: the transition's stamp, collectedAt / collectedBy)
        const set = { collectorName, collectorId: text(input.collectorId)?.trim() || doc.collectorId || null, vehicleNo: text(input.vehicleNo)?.trim() || doc.vehicleNo || null };
        await tenant.update('liftingTask').set(set).where('id', '=', Number(doc.id)).execute();
        audit.push({ field: 'collectorName', title: '提货人', from: null, to: collectorName }, { field: 'vehicleNo', title: '车牌号', from: null, to: set.vehicleNo as string | null });
        return set;
      },
    },
    cancel: { label: '作废', from: ['open'], to: 'cancelled', stamp: 'cancelled', danger: true, right: 'entrepot.liftingTasks.edit', confirm: '确定作废提货任务“{docNo}”？' },
  },
  audit: ['deliveryNoteId', 'loadingListId', 'carrier', 'plannedDate', 'collectorName', 'vehicleNo', 'remark'],
  names: { deliveryNoteId: { table: 'deliveryNote', column: 'docNo' } },
  links: [{ field: 'deliveryNoteId', type: 'deliveryNote' }],
  listFilters: ['clientId', 'warehouseId', 'deliveryNoteId', 'loadingListId'],
  docNoAlso: ['noteNos', 'vehicleNo'],
  dateField: 'createdAt',
  listReads: ['loadingList'],
  route: '/entrepot/liftingTasks',
});
