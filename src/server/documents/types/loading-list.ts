// 装车单 (loading list) on the document engine (issue 14; oms 021911–021920): sealed cartons of one warehouse
// onto a container (one of the company's container types, its number and seal number) or a truck. draft
// (装车中) → loaded (已装车: its cartons loaded) → shipped (已发货: every carton shipped by the delivery notes
// made from the list, one per outbound task — domain/outbound/cartons.ts); cancelled from draft or loaded
// while no carton has shipped (the cartons are sealed again, free for another list).
// A draft claims its cartons (carton.loading_list_id, one conditional UPDATE: sealed and on no other list),
// so a carton is never on two lists. Capacity (volume, weight) comes from the container type's standard or
// what the clerk enters; going over it is a warning on the list, not a refusal.
import { containerTypesOf } from '../../domain/procurement/container.ts';
import { bizError, validationError, type FieldError } from '../../http/errors.ts';
import { text, type Row } from '../../domain/procurement/common.ts';
import { CONTAINER_CAPACITY } from '../../domain/outbound/cartons.ts';
import { defineDocument } from '../definition.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import { TypedTenant } from '../../db/typed.ts';

const ID = { type: 'integer', min: 1, max: 2_147_483_647 } as const;

const fmt = (v: number) => v.toFixed(3).replace(/\.?0+$/, '');

/**
 * The warnings of a list's totals against its capacity (empty: it fits). `scale`: 1000 for the stored row
 * (grams, litres), 1 for the row as `get` shows it (kg, m³ as decimal text).
 */
export function capacityWarnings(d: Row, scale: 1 | 1000): string[] {
  const n = (v: unknown) => Number(v) / scale;
  const out: string[] = [];
  const vol = n(d.totalVolume ?? 0);
  const wt = n(d.totalWeight ?? 0);
  if (d.capacityVolume != null && vol > n(d.capacityVolume)) out.push(`体积 ${fmt(vol)} m³ 超出容积 ${fmt(n(d.capacityVolume))} m³`);
  if (d.capacityWeight != null && wt > n(d.capacityWeight)) out.push(`重量 ${fmt(wt)} kg 超出载重 ${fmt(n(d.capacityWeight))} kg`);
  if (Number(d.missingSizes ?? 0) > 0) out.push(`${Number(d.missingSizes)} 个纸箱未填写重量或体积，未计入合计`);
  return out;
}

async function releaseCartons(untypedTenant: Tenant, listId: number): Promise<void> {
  const tenant = TypedTenant.of(untypedTenant);
  await tenant.update('carton').set({ loadingListId: null, status: 'packed' }).where('loadingListId', '=', listId).where('status', 'in', ['packed', 'loaded']).execute();
}

export const loadingList = defineDocument({
  type: 'loadingList',
  title: '装车单',
  prefix: 'LL',
  table: 'loadingList',
  managed: true,
  statuses: { draft: { label: '装车中', color: 'blue' }, loaded: { label: '已装车', color: 'orange' }, shipped: { label: '已发货', color: 'green' }, cancelled: { label: '已作废', color: 'red' } },
  editable: ['draft'],
  rights: { read: 'entrepot.loadingList', edit: 'entrepot.loadingList.edit' },
  header: {
    warehouseId: { type: 'reference', resource: 'warehouse', title: '仓库', required: true },
    mode: { type: 'enum', title: '装运方式', required: true, values: [{ value: 'container', label: '集装箱' }, { value: 'truck', label: '货车' }], default: 'container' },
    containerType: { type: 'string', title: '柜型', maxLength: 20 },
    containerNo: { type: 'string', title: '柜号', maxLength: 20 },
    sealNo: { type: 'string', title: '封条号', maxLength: 30 },
    vehicleNo: { type: 'string', title: '车牌号', maxLength: 20 },
    carrier: { type: 'string', title: '承运商', maxLength: 100 },
    driverName: { type: 'string', title: '司机', maxLength: 50 },
    loadDate: { type: 'date', title: '装车日期' },
    capacityVolume: { type: 'decimal', scale: 3, title: '容积(m³)', min: '0', max: '1000' },
    capacityWeight: { type: 'decimal', scale: 3, title: '载重(kg)', min: '0', max: '100000' },
    remark: { type: 'string', title: '备注', maxLength: 500 },
    cartonCount: { type: 'integer', title: '箱数', readonly: true },
    totalQty: { type: 'integer', title: '商品数量', readonly: true },
    totalWeight: { type: 'decimal', scale: 3, title: '总重(kg)', readonly: true },
    totalVolume: { type: 'decimal', scale: 3, title: '总体积(m³)', readonly: true },
    missingSizes: { type: 'integer', title: '未填尺寸箱数', readonly: true },
  },
  lines: {
    table: 'loadingListLine',
    parent: 'listId',
    indexes: [['cartonId']],
    max: 2000,
    fields: {
      cartonId: { ...ID, type: 'integer', title: '纸箱', required: true },
      taskId: { ...ID, type: 'integer', title: '出库任务', readonly: true },
      remark: { type: 'string', title: '备注', maxLength: 200 },
    },
  },
  hooks: {
    async validate({ ctx, header, lines, id }) {
      const tenant = TypedTenant.of(ctx.tenant);
      const errors: FieldError[] = [];
      if (header.mode === 'container') {
        const types = await containerTypesOf(ctx);
        if (header.containerType == null) errors.push({ field: 'containerType', message: '请选择柜型' });
        else if (!types.includes(String(header.containerType))) errors.push({ field: 'containerType', message: `柜型“${String(header.containerType)}”不是本公司的柜型（${types.join('、') || '未设置'}）` });
        const std = CONTAINER_CAPACITY[String(header.containerType)];
        if (std) {
          header.capacityVolume ??= std.volume;
          header.capacityWeight ??= std.weight;
        }
      } else if (header.vehicleNo == null) errors.push({ field: 'vehicleNo', message: '货车装运请填写车牌号' });
      if (errors.length) throw validationError(errors);
      const ids = lines.map((l) => Number(l.cartonId));
      const cartons = new Map(ids.length ? (await tenant.select('carton').select(['id', 'docNo', 'status', 'warehouseId', 'taskId', 'loadingListId', 'weight', 'volume', 'totalQty']).where('id', 'in', ids).execute()).map((r) => [Number(r.id), r]) : []);
      const seen = new Set<number>();
      let weight = 0;
      let volume = 0;
      let qty = 0;
      let missing = 0;
      lines.forEach((l, i) => {
        const err = (message: string) => errors.push({ field: `lines.${i}.cartonId`, message: `第 ${i + 1} 行：${message}` });
        const c = cartons.get(Number(l.cartonId));
        if (!c) return err('纸箱不存在');
        if (seen.has(Number(c.id))) return err(`纸箱 ${String(c.docNo)} 重复`);
        seen.add(Number(c.id));
        if (Number(c.warehouseId) !== Number(header.warehouseId)) return err(`纸箱 ${String(c.docNo)} 不属于本装车单的仓库`);
        const mine = id != null && Number(c.loadingListId) === id;
        if (c.status !== 'packed' && !mine) return err(`纸箱 ${String(c.docNo)} 不是已封箱状态（${String(c.status) === 'draft' ? '请先封箱' : '已装车或已作废'}）`);
        if (c.loadingListId != null && !mine) return err(`纸箱 ${String(c.docNo)} 已在其他装车单上`);
        l.taskId = Number(c.taskId);
        qty += Number(c.totalQty ?? 0);
        if (c.weight == null || c.volume == null) missing++;
        weight += Number(c.weight ?? 0);
        volume += Number(c.volume ?? 0);
      });
      if (errors.length) throw validationError(errors.slice(0, 200));
      Object.assign(header, { cartonCount: lines.length, totalQty: qty, totalWeight: weight, totalVolume: volume, missingSizes: missing });
    },
    // the cartons: the old ones freed, the new ones claimed (sealed and on no list), in one statement each
    async saving({ tenant: untypedTenant, lines, docId, created }) {
      const tenant = TypedTenant.of(untypedTenant);
      if (!created) await tenant.update('carton').set({ loadingListId: null }).where('loadingListId', '=', docId).where('status', '=', 'packed').execute();
      const ids = [...new Set(lines.map((l) => Number(l.cartonId)))];
      if (!ids.length) return;
      const got = await tenant.update('carton').set({ loadingListId: docId }).where('id', 'in', ids).where('status', '=', 'packed').where('loadingListId', 'is', null).returning('id').execute();
      if (got.length !== ids.length) {
        const taken = new Set(got.map((r) => Number(r.id)));
        const lost = await tenant.select('carton').select('docNo').where('id', 'in', ids.filter((id) => !taken.has(id))).execute();
        throw bizError('LOADING_CARTON_TAKEN_4273', { cartons: lost.map((r) => String(r.docNo)).join('、') });
      }
    },
    async present(ctx, docs, lines) {
      for (const d of docs) {
        const w = capacityWarnings(d, 1);
        Object.assign(d, { warnings: w, warningText: w.join('；') || null, capacityText: [d.capacityVolume != null ? `${fmt(Number(d.capacityVolume))} m³` : null, d.capacityWeight != null ? `${fmt(Number(d.capacityWeight))} kg` : null].filter(Boolean).join(' / ') || null });
      }
      if (!lines?.length) return;
      const tenant = TypedTenant.of(ctx.tenant);
      const cartons = new Map((await tenant.select('carton').select(['id', 'docNo', 'status', 'weight', 'volume', 'totalQty', 'orderId', 'clientId', 'deliveryNoteId']).where('id', 'in', [...new Set(lines.map((l) => Number(l.cartonId)))]).execute()).map((r) => [Number(r.id), r]));
      const taskIds = [...new Set(lines.map((l) => Number(l.taskId)))];
      const tasks = new Map((await tenant.select('outboundTask').select(['id', 'docNo']).where('id', 'in', taskIds).execute()).map((r) => [Number(r.id), String(r.docNo)]));
      const clientIds = [...new Set([...cartons.values()].map((c) => Number(c.clientId)))];
      const clients = new Map(clientIds.length ? (await tenant.select('client').select(['id', 'name']).where('id', 'in', clientIds).execute()).map((r) => [Number(r.id), String(r.name)]) : []);
      const S: Record<string, string> = { draft: '装箱中', packed: '已封箱', loaded: '已装车', shipped: '已发货', cancelled: '已作废' };
      for (const l of lines) {
        const c = cartons.get(Number(l.cartonId));
        Object.assign(l, {
          cartonDocNo: text(c?.docNo), cartonStatus: text(c?.status), cartonStatusText: S[String(c?.status)] ?? null, taskDocNo: tasks.get(Number(l.taskId)) ?? null,
          clientName: clients.get(Number(c?.clientId)) ?? null, weight: c?.weight == null ? null : (Number(c.weight) / 1000).toFixed(3), volume: c?.volume == null ? null : (Number(c.volume) / 1000).toFixed(3), totalQty: Number(c?.totalQty ?? 0),
        });
      }
      // one delivery note per task on the list: made from the list once it is loaded
      const doc = docs[0]!;
      const notes = await tenant.select('deliveryNote').select(['id', 'docNo', 'status', 'taskId']).where('loadingListId', '=', Number(doc.id)).where('status', '<>', 'cancelled').orderBy('id').execute();
      const NOTE: Record<string, string> = { draft: '草稿', posted: '已发货', signed: '已签收' };
      doc.tasks = taskIds.sort((a, b) => a - b).map((taskId) => {
        const n = notes.find((x) => Number(x.taskId) === taskId);
        const ls = lines.filter((l) => Number(l.taskId) === taskId);
        return {
          taskId, taskDocNo: tasks.get(taskId) ?? null, clientName: ls[0]?.clientName ?? null, cartonCount: ls.length, totalQty: ls.reduce((s, l) => s + Number(l.totalQty), 0),
          noteId: n ? Number(n.id) : null, noteDocNo: text(n?.docNo), noteStatusText: n ? NOTE[String(n.status)] ?? String(n.status) : null,
          route: n ? `/entrepot/deliverGoodsDetail/${Number(n.id)}` : doc.status === 'loaded' ? `/entrepot/deliverGoods/add?loadingListId=${Number(doc.id)}&taskId=${taskId}` : null,
          listId: Number(doc.id), action: !n && doc.status === 'loaded' ? '生成送货单' : null,
        };
      });
    },
  },
  transitions: {
    load: {
      label: '装车完成', from: ['draft'], to: 'loaded', stamp: 'loaded', right: 'entrepot.loadingList.edit', overlay: true,
      confirm: '确定装车单“{docNo}”装车完成？纸箱状态变为已装车，之后可按出库任务生成送货单。',
      async run({ tenant, doc, storedLines }) {
        const lines = await storedLines();
        if (!lines.length) throw validationError([{ field: 'lines', message: '装车单没有纸箱，请先添加纸箱' }]);
        if (doc.mode === 'container' && !String(doc.sealNo ?? '').trim()) throw validationError([{ field: 'sealNo', message: '集装箱装车完成前请填写封条号' }]);
        const ids = lines.map((l) => Number(l.cartonId));
        const got = await tenant.update('carton').set({ status: 'loaded' }).where('id', 'in', ids).where('loadingListId', '=', Number(doc.id)).where('status', '=', 'packed').returning('id').execute();
        if (got.length !== ids.length) throw new Error(`loading list ${String(doc.id)}: a carton is no longer on it`);
        return { warnings: capacityWarnings(doc, 1000) };
      },
    },
    cancel: {
      label: '作废', from: ['draft', 'loaded'], to: 'cancelled', stamp: 'cancelled', danger: true, right: 'entrepot.loadingList.edit', overlay: true,
      confirm: '确定作废装车单“{docNo}”？纸箱回到已封箱，可装上其他装车单。',
      async before({ tenant, doc }) {
        if (!['draft', 'loaded'].includes(String(doc.status))) return;
        const note = await TypedTenant.of(tenant).select('deliveryNote').select('docNo').where('loadingListId', '=', Number(doc.id)).where('status', '<>', 'cancelled').limit(1).executeTakeFirst();
        if (note) throw bizError('LOADING_HAS_NOTE_4275', { docNo: String(doc.docNo), note: String(note.docNo) });
      },
      async run({ tenant, doc }) {
        await releaseCartons(tenant, Number(doc.id));
      },
    },
  },
  saveThen: { flag: 'load', transition: 'load' },
  names: {},
  audit: ['warehouseId', 'mode', 'containerType', 'containerNo', 'sealNo', 'vehicleNo', 'carrier', 'cartonCount', 'remark'],
  listFilters: ['warehouseId', 'mode'],
  docNoAlso: ['containerNo', 'vehicleNo'],
  dateField: 'createdAt',
  listReads: ['carton', 'outboundTask', 'client', 'deliveryNote'],
  export: {
    header: ['docNo', 'statusText', 'warehouseId', 'mode', 'containerType', 'containerNo', 'sealNo', 'vehicleNo', 'cartonCount', 'totalWeight', 'totalVolume'],
    lines: ['lineNo', { key: 'cartonDocNo', title: '纸箱', width: 18 }, { key: 'taskDocNo', title: '出库任务', width: 18 }, { key: 'clientName', title: '客户', width: 24 }, { key: 'totalQty', title: '数量', width: 10 }],
  },
  route: '/entrepot/loadingDetail/{id}',
});
