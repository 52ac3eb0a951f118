// 入库计划 on the document engine (DESIGN §4.4): which lines of a confirmed purchase order arrive when,
// optionally in a container. draft → confirmed → done; cancelled from draft, or from confirmed while its
// task has no receipts; closed (已关闭) with its task when the warehouse closes a short delivery
// (documents/types/inbound-task.ts, close). What a plan holds of an order line is kept on the line (planned_qty):
// saving takes it by one conditional UPDATE per line, editing a draft gives its old quantities back
// first, cancelling gives them back — all in the document's own transaction (domain/procurement/inbound-plan.ts).
import { splitUnits } from '../../../core/stock-units.ts';
import { bizError, validationError, type FieldError } from '../../http/errors.ts';
import { CONTAINER_STATUS, claimLoadableContainer, loadableContainer } from '../../domain/procurement/container.ts';
import { PO_STATUS, statusError, text, type Row } from '../../domain/procurement/common.ts';
import {
  cancelTaskOfPlan, claimOrder, createTask, orderLines, overPlan, PLAN_PREFIX, PLAN_STATUS, PLAN_TITLE, PLANNABLE, releaseLines, takeLines, TASK_STATUS,
} from '../../domain/procurement/inbound-plan.ts';
import { lineQty, PO_TITLE, type PackLine } from '../../domain/procurement/purchase-order.ts';
import { MAX_MOVE_QTY } from '../../domain/stock/ledger.ts';
import { defineDocument, sentLines } from '../definition.ts';
import { orderPlanLines } from '../pack-inputs.ts';
import { TypedTenant } from '../../db/typed.ts';

/** A line of the raw input: its quantity, or the packs the validate hook turns into one. */

const status = (s: keyof typeof PLAN_STATUS, color: string) => ({ label: PLAN_STATUS[s], color });

export const inboundPlan = defineDocument({
  type: 'inboundPlan',
  title: PLAN_TITLE,
  prefix: PLAN_PREFIX,
  table: 'inboundPlan',
  statuses: { draft: status('draft', 'default'), confirmed: status('confirmed', 'blue'), done: status('done', 'green'), closed: status('closed', 'purple'), cancelled: status('cancelled', 'red') },
  editable: ['draft'],
  statusCode: 'PURCHASE_DOC_STATUS_4091',
  header: {
    orderId: { type: 'integer', title: '采购订单', required: true, min: 1, max: 2_147_483_647 },
    warehouseId: { type: 'reference', resource: 'warehouse', title: '仓库', readonly: true },
    expectedDate: { type: 'date', title: '预计到货日期' },
    containerId: { type: 'integer', title: '集装箱', min: 1, max: 2_147_483_647 },
    remark: { type: 'string', title: '备注', maxLength: 500 },
    lineCount: { type: 'integer', title: '明细行数', readonly: true },
    totalQty: { type: 'integer', title: '计划数量', readonly: true },
  },
  lines: orderPlanLines('inboundPlanLine'),
  hooks: {
    async validate({ ctx, header, lines, input, id }) {
      const tenant = TypedTenant.of(ctx.tenant);
      const orderId = Number(header.orderId);
      const order = await tenant.select('purchaseOrder').select(['id', 'docNo', 'status', 'warehouseId', 'expectedDate']).where('id', '=', orderId).executeTakeFirst();
      if (!order) throw validationError([{ field: 'orderId', message: '采购订单不存在' }]);
      if (!PLANNABLE.includes(String(order.status))) throw statusError(PO_TITLE, PO_STATUS, order, '制定入库计划');
      const container = header.containerId ? await loadableContainer(ctx.tenant, Number(header.containerId), '装入入库计划') : undefined;
      header.warehouseId = Number(order.warehouseId);
      header.expectedDate ??= text(container?.eta) ?? text(order.expectedDate);
      const ols = new Map((await orderLines(ctx.tenant, orderId)).map((r) => [Number(r.id), r]));
      // A draft being edited gives back what it holds now.
      const own = new Map<number, number>();
      if (id !== undefined) {
        for (const r of await tenant.select('inboundPlanLine').select(['orderLineId', 'qty']).where('planId', '=', id).execute()) {
          own.set(Number(r.orderLineId), (own.get(Number(r.orderLineId)) ?? 0) + Number(r.qty));
        }
      }
      const raw = sentLines<PackLine>(input);
      const errors: FieldError[] = [];
      const seen = new Set<number>();
      lines.forEach((l, i) => {
        const err = (f: string, message: string) => errors.push({ field: `lines.${i}.${f}`, message: `第 ${i + 1} 行：${message}` });
        const orderLineId = Number(l.orderLineId);
        const ol = ols.get(orderLineId);
        if (!ol) throw bizError('PURCHASE_LINE_MISMATCH_4098', { doc: PLAN_TITLE, line: i + 1, source: PO_TITLE, docNo: String(order.docNo) }, { line: i + 1, orderLineId });
        if (seen.has(orderLineId)) { err('orderLineId', `订单第 ${Number(ol.lineNo)} 行重复，请合并为一行`); return; }
        seen.add(orderLineId);
        const r = raw[i]!;
        const qty = lineQty({ qty: l.qty as number | null, big: r.big as number | null, mid: r.mid as number | null, small: r.small as number | null }, ol, { line: i + 1, productId: Number(ol.productId) });
        if (qty === undefined) { err('qty', r.qty == null && r.big == null && r.mid == null && r.small == null ? '计划数量不能为空' : '计划数量超出范围'); return; }
        if (qty <= 0) { err('qty', '计划数量必须大于 0'); return; }
        if (qty > MAX_MOVE_QTY) { err('qty', '计划数量超出范围'); return; }
        // Early, friendly check; the transaction enforces it again with a conditional update.
        const planned = Number(ol.plannedQty) - (own.get(orderLineId) ?? 0);
        if (planned + qty > Number(ol.qty)) throw overPlan(order, ol, qty, planned);
        l.qty = qty;
        l.productId = Number(ol.productId);
      });
      if (errors.length) throw validationError(errors.slice(0, 200));
      header.lineCount = lines.length;
      header.totalQty = lines.reduce((s, l) => s + Number(l.qty), 0);
    },
    async saving({ tenant, header, lines, docId, created }) {
      if (!created) await releaseLines(tenant, docId);
      const order = await claimOrder(tenant, Number(header.orderId), '制定入库计划');
      if (header.containerId) await claimLoadableContainer(tenant, Number(header.containerId), '装入入库计划');
      await takeLines(tenant, order, lines.map((l) => ({ orderLineId: Number(l.orderLineId), qty: Number(l.qty) })));
    },
    async present(ctx, docs, lines) {
      if (!docs.length) return;
      const tenant = TypedTenant.of(ctx.tenant);
      const ids = docs.map((d) => Number(d.id));
      const orders = new Map((await tenant.select('purchaseOrder')
        .innerJoin('supplier', (j) => j.onRef('supplier.id', '=', 'purchaseOrder.supplierId').onRef('supplier.companyId', '=', 'purchaseOrder.companyId'))
        .select(['purchaseOrder.id', 'purchaseOrder.docNo', 'purchaseOrder.supplierId', 'supplier.name as supplierName'])
        .where('purchaseOrder.id', 'in', [...new Set(docs.map((d) => Number(d.orderId)))]).execute()).map((r) => [Number(r.id), r]));
      const containerIds = [...new Set(docs.flatMap((d) => (d.containerId == null ? [] : [Number(d.containerId)])))];
      const containers = new Map(containerIds.length ? (await tenant.select('container').select(['id', 'containerNo', 'containerType', 'status']).where('id', 'in', containerIds).execute()).map((r) => [Number(r.id), r]) : []);
      const tasks = new Map((await tenant.select('inboundTask').select(['id', 'planId', 'docNo', 'status', 'receivedQty', 'closeReason']).where('planId', 'in', ids).execute()).map((r) => [Number(r.planId), r]));
      for (const d of docs) {
        const o = orders.get(Number(d.orderId));
        const c = d.containerId == null ? undefined : containers.get(Number(d.containerId));
        const task = tasks.get(Number(d.id));
        const cs = c ? String(c.status) : null;
        const ts = task ? (String(task.status) as keyof typeof TASK_STATUS) : null;
        Object.assign(d, {
          orderDocNo: text(o?.docNo), supplierId: o ? Number(o.supplierId) : null, supplierName: text(o?.supplierName),
          containerNo: text(c?.containerNo), containerType: text(c?.containerType), containerStatus: cs, containerStatusText: cs ? (CONTAINER_STATUS as Record<string, string>)[cs] ?? cs : null,
          taskId: task ? Number(task.id) : null, taskDocNo: text(task?.docNo), taskStatus: ts, taskStatusText: ts ? TASK_STATUS[ts] ?? ts : null,
          receivedQty: Number(task?.receivedQty ?? 0), closeReason: d.status === 'closed' ? text(task?.closeReason) : null,
          taskRoute: task ? `/entrepot/inboundTaskDetail/${Number(task.id)}` : null,
        });
      }
      if (!lines?.length) return;
      const doc = docs[0]!;
      const ols = new Map((await tenant.select('purchaseOrderLine').select(['id', 'lineNo', 'qty', 'plannedQty', 'receivedQty'])
        .where('id', 'in', [...new Set(lines.map((l) => Number(l.orderLineId)))]).execute()).map((r) => [Number(r.id), r]));
      const received = new Map<number, number>();
      if (doc.taskId != null) {
        for (const r of await tenant.select('inboundTaskLine').select(['orderLineId', 'receivedQty']).where('taskId', '=', Number(doc.taskId)).execute()) {
          received.set(Number(r.orderLineId), Number(r.receivedQty));
        }
      }
      for (const l of lines) {
        const ol = ols.get(Number(l.orderLineId));
        const qty = Number(l.qty);
        Object.assign(l, {
          orderLineNo: Number(ol?.lineNo), orderedQty: Number(ol?.qty), orderPlannedQty: Number(ol?.plannedQty), orderReceivedQty: Number(ol?.receivedQty),
          units: splitUnits(qty, { bigQty: Number(l.bigQty), midQty: Number(l.midQty), unitBig: l.unitBig as string | null, unitMid: l.unitMid as string | null, unitSmall: l.unitSmall as string | null }),
          receivedQty: received.get(Number(l.orderLineId)) ?? 0,
        });
      }
    },
  },
  transitions: {
    confirm: {
      label: '确认', from: ['draft'], to: 'confirmed', stamp: 'confirmed', overlay: true, confirm: '确定确认入库计划“{docNo}”？确认后生成入库任务。',
      // creates the plan's inbound task (same lines) in the same transaction
      async run({ ctx, db, tenant, doc }) {
        await claimOrder(tenant, Number(doc.orderId), '确认入库计划');
        const task = await createTask(ctx, db, tenant, doc, String(doc.updatedAt));
        return { taskId: task.id, taskDocNo: task.docNo, totalQty: Number(doc.totalQty) };
      },
    },
    cancel: {
      label: '作废', from: ['draft', 'confirmed'], to: 'cancelled', stamp: 'cancelled', danger: true, overlay: true, confirm: '确定作废入库计划“{docNo}”？计划数量退回采购订单。',
      async run({ ctx, db, tenant, doc, from }) {
        if (from === 'confirmed') await cancelTaskOfPlan(ctx, db, tenant, doc, String(doc.updatedAt));
        await releaseLines(tenant, Number(doc.id));
        return { totalQty: Number(doc.totalQty) };
      },
    },
  },
  names: { orderId: { table: 'purchaseOrder', column: 'docNo' }, containerId: { table: 'container', column: 'containerNo' } },
  audit: ['orderId', 'containerId', 'expectedDate', 'totalQty'],
  // done and closed are reached from the inbound task (receiving, closing a short delivery)
  stampsAlso: ['done', 'closed'],
  listFilters: ['orderId', 'containerId', 'warehouseId'],
  dateField: 'expectedDate',
  listReads: ['purchaseOrder', 'supplier', 'container', 'inboundTask'],
  route: '/procurement/treasuryPlanDetail/{id}',
});
