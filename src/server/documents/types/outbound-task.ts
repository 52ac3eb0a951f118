// 出库任务 (outbound task) on the document engine (issue 14; oms 021305–021314): the warehouse's work
// order for one confirmed outbound plan (created in the plan's confirm transaction, never saved by
// itself), assigned to a warehouse worker (staff), worked through picking orders and shipped by delivery
// notes; progress per line (domain/outbound/task.ts). open (待拣货) → picking (拣货中) → picked (已拣货) →
// done (已出库); cancelled (已作废) while nothing was picked and no picking order holds it — which gives
// its plan back to draft (待确认 again: the clerk corrects the plan and confirms it, making a new task, or
// cancels it, which gives the order lines back). Lock order plan → task, as confirming and cancelling the
// plan take them: the plan row is claimed in the transition's `before` hook, before the engine's status
// update locks the task row.
import { sql } from 'kysely';
import { splitUnits } from '../../../core/stock-units.ts';
import { bizError } from '../../http/errors.ts';
import { refusal, text } from '../../domain/procurement/common.ts';
import { bulkChange } from '../../domain/outbound/bulk.ts';
import { DELIVERABLE_TASK, OT_PREFIX, OT_STATUS, OT_TITLE, openPickingsOf, refreshTasks } from '../../domain/outbound/task.ts';
import { MAX_MOVE_QTY } from '../../domain/stock/ledger.ts';
import { defineDocument } from '../definition.ts';
import { TypedTenant } from '../../db/typed.ts';

const status = (s: keyof typeof OT_STATUS, color: string) => ({ label: OT_STATUS[s], color });
const ID = { type: 'integer', title: '', readonly: true, min: 1, max: 2_147_483_647 } as const;
const QTY = { type: 'integer', readonly: true, min: 0, max: MAX_MOVE_QTY } as const;
const BACK_ORDER: Record<string, string> = { keep: '保留欠货', cancel: '取消欠货', complete: '整单发货' };
const PLAN_STATUS = { draft: '草稿', confirmed: '待出库', done: '已出库', cancelled: '已作废' };

export const outboundTask = defineDocument({
  type: 'outboundTask',
  title: OT_TITLE,
  prefix: OT_PREFIX,
  table: 'outboundTask',
  managed: true,
  indexes: [['planId'], ['orderId']],
  statuses: { open: status('open', 'blue'), picking: status('picking', 'orange'), picked: status('picked', 'cyan'), done: status('done', 'green'), cancelled: status('cancelled', 'red') },
  initial: 'open',
  editable: [],
  rights: { read: 'entrepot.outboundTask' },
  header: {
    planId: { ...ID, title: '发货计划' },
    orderId: { ...ID, title: '销售订单' },
    clientId: { type: 'reference', resource: 'client', title: '客户', readonly: true },
    warehouseId: { type: 'reference', resource: 'warehouse', title: '仓库', readonly: true },
    assigneeId: { type: 'reference', resource: 'staff', title: '作业人员', readonly: true },
    shipDate: { type: 'date', title: '计划出库日期', readonly: true },
    remark: { type: 'string', title: '备注', maxLength: 500, readonly: true },
    lineCount: { ...QTY, title: '明细行数' },
    totalQty: { ...QTY, title: '计划数量' },
    pickingQty: { ...QTY, title: '拣货中' },
    pickedQty: { ...QTY, title: '已拣数量' },
    shortQty: { ...QTY, title: '短拣数量' },
    deliveredQty: { ...QTY, title: '已发数量' },
  },
  lines: {
    table: 'outboundTaskLine',
    parent: 'taskId',
    max: 2000,
    fields: {
      orderLineId: { ...ID, title: '订单明细' },
      productId: { type: 'reference', resource: 'product', title: '商品', readonly: true },
      qty: { ...QTY, title: '计划数量' },
      pickingQty: { ...QTY, title: '拣货中' },
      pickedQty: { ...QTY, title: '已拣' },
      shortQty: { ...QTY, title: '短拣' },
      deliveredQty: { ...QTY, title: '已发' },
      // in cartons not yet shipped (domain/outbound/cartons.ts; null on lines older than cartons: 0)
      packedQty: { ...QTY, title: '已装箱' },
      remark: { type: 'string', title: '备注', maxLength: 200, readonly: true },
    },
    reads: { productId: ['specification', 'bigQty', 'midQty', 'unitBig', 'unitMid', 'unitSmall'] },
  },
  hooks: {
    async present(ctx, docs, lines) {
      if (!docs.length) return;
      const tenant = TypedTenant.of(ctx.tenant);
      const plans = await tenant.byIds('deliveryPlan', ['docNo', 'transportMode', 'carrier'], docs.map((d) => Number(d.planId)));
      const orders = await tenant.byIds('salesOrder', ['docNo', 'backOrderPolicy'], docs.map((d) => Number(d.orderId)));
      for (const d of docs) {
        const p = plans.get(Number(d.planId));
        const o = orders.get(Number(d.orderId));
        const cancelled = d.status === 'cancelled' || d.status === 'done';
        Object.assign(d, {
          planDocNo: text(p?.docNo), orderDocNo: text(o?.docNo), carrier: text(p?.carrier), backOrderPolicy: text(o?.backOrderPolicy),
          backOrderPolicyText: BACK_ORDER[String(o?.backOrderPolicy)] ?? null,
          openQty: cancelled ? 0 : Math.max(0, Number(d.totalQty) - Number(d.pickedQty) - Number(d.pickingQty)),
          toDeliverQty: Math.max(0, Number(d.pickedQty) - Number(d.deliveredQty)),
        });
      }
      if (!lines) return;
      const doc = docs[0]!;
      const closed = doc.status === 'cancelled' || doc.status === 'done';
      const ols = await tenant.byIds('salesOrderLine', ['lineNo', 'qty', 'shippedQty'], lines.map((l) => Number(l.orderLineId)));
      for (const l of lines) {
        const ol = ols.get(Number(l.orderLineId));
        const packs = { bigQty: Number(l.bigQty), midQty: Number(l.midQty), unitBig: text(l.unitBig), unitMid: text(l.unitMid), unitSmall: text(l.unitSmall) };
        const open = closed ? 0 : Math.max(0, Number(l.qty) - Number(l.pickedQty) - Number(l.pickingQty));
        Object.assign(l, {
          orderLineNo: Number(ol?.lineNo), orderedQty: Number(ol?.qty), orderShippedQty: Number(ol?.shippedQty),
          // what the client still waits for on the order line (the back order)
          backOrderQty: Math.max(0, Number(ol?.qty) - Number(ol?.shippedQty)),
          units: splitUnits(Number(l.qty), packs), openQty: open, toDeliverQty: Math.max(0, Number(l.pickedQty) - Number(l.deliveredQty)),
        });
      }
      const picks = await tenant.select('pickingOrder').innerJoin('pickingOrderLine as pl', (j) => j.onRef('pl.pickingId', '=', 'pickingOrder.id').onRef('pl.companyId', '=', 'pickingOrder.companyId'))
        .select(['pickingOrder.id', 'pickingOrder.docNo', 'pickingOrder.status']).distinct().where('pl.taskId', '=', Number(doc.id)).orderBy('pickingOrder.id').execute();
      const notes = await tenant.select('deliveryNote').select(['id', 'docNo', 'status', 'totalQty']).where('taskId', '=', Number(doc.id)).orderBy('id').execute();
      const PICK = { draft: '待拣货', posted: '已拣货', cancelled: '已作废' } as Record<string, string>;
      const NOTE = { draft: '草稿', posted: '已发货', signed: '已签收', cancelled: '已作废' } as Record<string, string>;
      doc.pickingOrders = picks.map((p) => ({ id: Number(p.id), docNo: String(p.docNo), status: String(p.status), statusText: PICK[String(p.status)] ?? String(p.status), route: `/entrepot/pickingOrderDetail/${Number(p.id)}` }));
      doc.deliveryNotes = notes.map((n) => ({ id: Number(n.id), docNo: String(n.docNo), status: String(n.status), statusText: NOTE[String(n.status)] ?? String(n.status), totalQty: Number(n.totalQty), route: `/entrepot/deliverGoodsDetail/${Number(n.id)}` }));
    },
  },
  transitions: {
    cancel: {
      // picking: a draft picking order holds it (refused below with its number)
      label: '作废', from: ['open', 'picking'], to: 'cancelled', stamp: 'cancelled', danger: true, overlay: true,
      confirm: '确定作废出库任务“{docNo}”？其发货计划将退回草稿，可修改后重新确认或作废。',
      onlyWhen: { open: { pickedQty: 0, pickingQty: 0 }, picking: { pickedQty: 0, pickingQty: 0 } },
      // not offered once picking started (the before hook refuses it with OUTBOUND_TASK_BUSY_4161)
      offerWhen: (doc) => Number(doc.pickedQty) === 0 && Number(doc.pickingQty) === 0,
      // the plan first (plan → task, as confirming and cancelling the plan lock them)
      async before({ ctx, tenant, doc, version }) {
        if (!['open', 'picking'].includes(String(doc.status)) || (version !== undefined && Number(doc.version) !== version)) return;
        const pickings = await openPickingsOf(tenant, Number(doc.id));
        if (Number(doc.pickedQty) > 0 || pickings.length) {
          throw bizError('OUTBOUND_TASK_BUSY_4161', { docNo: String(doc.docNo), picked: Number(doc.pickedQty), pickings: pickings.join('、') || '无' }, { id: Number(doc.id), pickings });
        }
        const now = new Date().toISOString();
        const plan = await tenant.update('deliveryPlan').set({ status: 'draft', confirmedAt: null, confirmedBy: null, updatedAt: now, updatedBy: ctx.caller!.accountId, version: sql`${sql.ref('version')} + 1` })
          .where('id', '=', Number(doc.planId)).where('status', '=', 'confirmed').returning('id').executeTakeFirst();
        if (!plan) throw await refusal(tenant, 'deliveryPlan', '发货计划', PLAN_STATUS, Number(doc.planId), undefined, ['confirmed'], '退回草稿');
      },
      async run({ ctx, db, tenant, doc }) {
        const plan = await TypedTenant.of(tenant).select('deliveryPlan').select(['id', 'docNo']).where('id', '=', Number(doc.planId)).executeTakeFirstOrThrow();
        await ctx.audit({ action: 'state', entity: 'deliveryPlan', recordId: Number(plan.id), recordLabel: String(plan.docNo), changes: [{ field: 'status', title: '状态', from: PLAN_STATUS.confirmed, to: PLAN_STATUS.draft }, { field: 'taskId', title: OT_TITLE, from: String(doc.docNo), to: '已作废' }] }, db);
        return { planId: Number(plan.id), planDocNo: String(plan.docNo), planStatus: 'draft' };
      },
    },
    close: {
      // the client takes no more of it (a short pick that will not be found): the rest goes back to the order
      label: '关闭', from: ['picking', 'picked'], to: 'done', danger: true, overlay: true,
      confirm: '确定关闭出库任务“{docNo}”？未拣货的数量不再出库，退回销售订单（可另作发货计划，或关闭订单释放预留）。',
      onlyWhen: { picking: { pickingQty: 0 }, picked: { pickingQty: 0 } },
      async before({ tenant, doc, version }) {
        if (!['picking', 'picked'].includes(String(doc.status)) || (version !== undefined && Number(doc.version) !== version)) return;
        const pickings = await openPickingsOf(tenant, Number(doc.id));
        if (Number(doc.pickedQty) !== Number(doc.deliveredQty) || pickings.length) {
          throw bizError('OUTBOUND_TASK_OPEN_4170', { docNo: String(doc.docNo), staged: Number(doc.pickedQty) - Number(doc.deliveredQty), pickings: pickings.join('、') || '无' }, { id: Number(doc.id), pickings });
        }
        // the plan row first, as the plan's own transitions lock it
        await tenant.update('deliveryPlan').set({ updatedAt: new Date().toISOString() }).where('id', '=', Number(doc.planId)).execute();
      },
      async run({ ctx, tenant, doc, audit }) {
        const tls = await TypedTenant.of(tenant).select('outboundTaskLine').select(['orderLineId', 'qty', 'deliveredQty']).where('taskId', '=', Number(doc.id)).execute();
        const back = new Map<number, number>();
        for (const l of tls) back.set(Number(l.orderLineId), (back.get(Number(l.orderLineId)) ?? 0) + Number(l.qty) - Number(l.deliveredQty));
        const rows = [...back.entries()].filter(([, q]) => q > 0) as Array<[number, number]>;
        const given = await bulkChange(tenant, { table: 'sales_order_line', values: ['q'], set: 'planned_qty = planned_qty - v.q', guard: 't.planned_qty >= v.q' }, rows);
        if (given.size !== rows.length) throw new Error(`outbound task ${String(doc.id)}: an order line has less planned than the task`);
        await refreshTasks(ctx, tenant, [Number(doc.id)], true);
        const releasedQty = rows.reduce((n, [, q]) => n + q, 0);
        audit.push({ field: 'releasedQty', title: '退回订单数量', from: null, to: releasedQty });
        return { releasedQty };
      },
    },
  },
  followUps: [
    { label: '拣货', to: '/entrepot/pickingOrderDetailNew/new?taskIds={id}', statuses: ['open', 'picking'], right: 'entrepot.pickingOrder.edit', when: (d) => Number(d.openQty) > 0 },
    { label: '发货', to: '/entrepot/deliverGoods/add?taskId={id}', statuses: ['picking', 'picked'], right: 'entrepot.deliverGoods.edit', when: (d) => Number(d.toDeliverQty) > 0 },
  ],
  links: [{ field: 'planId', type: 'deliveryPlan' }],
  names: { planId: { table: 'deliveryPlan', column: 'docNo' } },
  stampsAlso: ['done'],
  listFilters: ['orderId', 'planId', 'clientId', 'warehouseId', 'assigneeId'],
  // the tasks a new delivery note can take goods from (picked, not yet delivered)
  listWhere: {
    input: { toDeliver: { type: 'boolean', title: '有待发货' } },
    apply: (q, input) => (input.toDeliver === true
      ? q.where('outboundTask.status', 'in', DELIVERABLE_TASK).where(sql<boolean>`${sql.ref('outboundTask.pickedQty')} > ${sql.ref('outboundTask.deliveredQty')}`)
      : q),
  },
  dateField: 'createdAt',
  listReads: ['deliveryPlan', 'salesOrder'],
  export: {
    header: ['docNo', 'statusText', { key: 'planDocNo', title: '发货计划', width: 18 }, { key: 'orderDocNo', title: '销售订单', width: 18 }, 'clientId', 'warehouseId', 'assigneeId', 'shipDate'],
    lines: ['lineNo', { key: 'productCode', title: '商品编码', width: 16 }, { key: 'productName', title: '商品名称', width: 30 }, 'qty', 'pickedQty', 'shortQty', 'deliveredQty'],
  },
  route: '/entrepot/outboundTaskDetail/{id}',
});
