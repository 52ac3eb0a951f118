// Repeals of sales documents (销售撤销单, oms 022901–022904, /market/repeal): the repeal desk of
// src/server/domain/repeal/desk.ts over sales orders, outbound plans, outbound tasks, picking orders and
// delivery notes, sales returns. Each target says what its
// cancellation undoes (reservations released, planned quantities given back) and which later documents
// stand in its way; the documents' own cancellations decide (SALES_OPEN_PLANS_4148 and the status rules).
import { salesOrder } from '../../documents/types/sales-order.ts';
import { deliveryPlan } from '../../documents/types/delivery-plan.ts';
import { outboundTask } from '../../documents/types/outbound-task.ts';
import { pickingOrder } from '../../documents/types/picking-order.ts';
import { deliveryNote } from '../../documents/types/delivery-note.ts';
import { salesReturn } from '../../documents/types/sales-return.ts';
import { docNos, engineTarget, notCancellable, repealDesk, type Blocker, type TargetDef } from '../repeal/desk.ts';
import { TypedTenant } from '../../db/typed.ts';

export const SALES_REPEAL_TITLE = '销售撤销单';

const OPEN_PLAN = ['draft', 'confirmed'];

const TARGETS: Record<string, TargetDef> = {
  salesOrder: engineTarget(salesOrder, {
    columns: ['lineCount', 'totalQty', 'reservedQty', 'shippedQty'],
    async describe(tenant, f) {
      const t = TARGETS.salesOrder;
      if (!['draft', 'confirmed'].includes(f.status) || Number(f.row.shippedQty) > 0) {
        const d = notCancellable(t, f);
        return f.status === 'partlyShipped' ? { ...d, effect: `${d.effect}（已部分发货，可在订单上“关闭”释放未发货部分）` } : d;
      }
      const plans = docNos(await TypedTenant.of(tenant).select('deliveryPlan').select('docNo').where('orderId', '=', f.id).where('status', 'in', OPEN_PLAN).orderBy('id').limit(5).execute());
      const size = `${Number(f.row.lineCount)} 行，共 ${Number(f.row.totalQty)} 个`;
      return {
        cancellable: !plans.length, blockers: blockers('deliveryPlan', plans),
        effect: f.status === 'draft'
          ? `销售订单 ${f.docNo} 为草稿：作废后不能再确认（${size}）`
          : `销售订单 ${f.docNo} 已确认、尚未发货：作废订单（${size}），释放已预留库存 ${Number(f.row.reservedQty)} 个`,
      };
    },
  }),
  deliveryPlan: engineTarget(deliveryPlan, {
    columns: ['lineCount', 'totalQty', 'orderId'],
    async describe(tenant, f) {
      const t = TARGETS.deliveryPlan;
      if (!OPEN_PLAN.includes(f.status)) return notCancellable(t, f);
      const order = await TypedTenant.of(tenant).select('salesOrder').select('docNo').where('id', '=', Number(f.row.orderId)).executeTakeFirst();
      return {
        cancellable: true, blockers: [],
        effect: `发货计划 ${f.docNo} ${f.status === 'draft' ? '为草稿' : '已确认（待出库）'}：作废计划，退还销售订单 ${String(order?.docNo ?? '')} 的计划数量 ${Number(f.row.totalQty)} 个（${Number(f.row.lineCount)} 行）`,
      };
    },
  }),
  outboundTask: engineTarget(outboundTask, {
    columns: ['totalQty', 'pickedQty', 'planId'],
    async describe(tenant, f) {
      const t = TARGETS.outboundTask;
      if (!['open', 'picking'].includes(f.status)) return notCancellable(t, f);
      const plan = await TypedTenant.of(tenant).select('deliveryPlan').select('docNo').where('id', '=', Number(f.row.planId)).executeTakeFirst();
      const picks = docNos(await TypedTenant.of(tenant).select('pickingOrder').select('docNo').where('taskId', '=', f.id).where('status', '=', 'draft').orderBy('id').limit(5).execute());
      const picked = Number(f.row.pickedQty);
      return {
        cancellable: picked === 0 && !picks.length, blockers: blockers('pickingOrder', picks),
        effect: `出库任务 ${f.docNo}：作废任务（计划 ${Number(f.row.totalQty)} 个），发货计划 ${String(plan?.docNo ?? '')} 回到草稿` + (picked ? `；已拣货 ${picked} 个，不能作废` : ''),
      };
    },
  }),
  pickingOrder: engineTarget(pickingOrder, {
    columns: ['totalQty', 'pickedQty'],
    async describe(tenant, f) {
      const t = TARGETS.pickingOrder;
      if (f.status === 'draft') return { cancellable: true, blockers: [], effect: `拣货单 ${f.docNo} 待拣货：作废，退还出库任务的待拣数量 ${Number(f.row.totalQty)} 个` };
      if (f.status !== 'posted') return notCancellable(t, f);
      return { cancellable: true, blockers: [], effect: `拣货单 ${f.docNo} 已拣货：将 ${Number(f.row.pickedQty)} 个从待发区移回原库位（已发货的部分会被拒绝，请先作废送货单）` };
    },
  }),
  deliveryNote: engineTarget(deliveryNote, {
    columns: ['totalQty', 'orderId'],
    async describe(tenant, f) {
      const t = TARGETS.deliveryNote;
      if (f.status === 'draft') return { cancellable: true, blockers: [], effect: `送货单 ${f.docNo} 为草稿（未发货，不影响库存）：直接作废` };
      if (f.status !== 'posted') return notCancellable(t, f);
      const order = await TypedTenant.of(tenant).select('salesOrder').select('docNo').where('id', '=', Number(f.row.orderId)).executeTakeFirst();
      return { cancellable: true, blockers: [], effect: `送货单 ${f.docNo} 已发货：冲回出库 ${Number(f.row.totalQty)} 个（货物回到待发区，重新预留），扣回销售订单 ${String(order?.docNo ?? '')} 的已发货数量` };
    },
  }),
  // its preview is the definition's own `repeal` declaration
  salesReturn: engineTarget(salesReturn),
};

const blockers = (docType: string, numbers: string[]): Blocker[] => numbers.map((docNo) => ({ docType, docTypeText: TARGETS[docType].title, docNo }));

export const salesRepeals = repealDesk({
  title: SALES_REPEAL_TITLE, prefix: 'XC', entity: 'salesRepeal', detailRoute: (id) => `/market/repealDetail/${id}`, targets: TARGETS,
});
