// Repeals of sales documents (销售撤销单, oms 022901–022904, /market/repeal): the repeal desk of
// src/server/domain/repeal/desk.ts over sales orders and outbound plans. Each target says what its
// cancellation undoes (reservations released, planned quantities given back) and which later documents
// stand in its way; the documents' own cancellations decide (SALES_OPEN_PLANS_4148 and the status rules).
import { salesOrder } from '../../documents/types/sales-order.ts';
import { deliveryPlan } from '../../documents/types/delivery-plan.ts';
import { docNos, engineTarget, notCancellable, repealDesk, type Blocker, type TargetDef } from '../repeal/desk.ts';
import type { Row } from '../procurement/common.ts';

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
      const plans = docNos((await tenant.select('deliveryPlan').select('docNo').where('orderId', '=', f.id).where('status', 'in', OPEN_PLAN).orderBy('id').limit(5).execute()) as Row[]);
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
      const order = (await tenant.select('salesOrder').select('docNo').where('id', '=', Number(f.row.orderId)).executeTakeFirst()) as Row | undefined;
      return {
        cancellable: true, blockers: [],
        effect: `发货计划 ${f.docNo} ${f.status === 'draft' ? '为草稿' : '已确认（待出库）'}：作废计划，退还销售订单 ${String(order?.docNo ?? '')} 的计划数量 ${Number(f.row.totalQty)} 个（${Number(f.row.lineCount)} 行）`,
      };
    },
  }),
};

const blockers = (docType: string, numbers: string[]): Blocker[] => numbers.map((docNo) => ({ docType, docTypeText: TARGETS[docType].title, docNo }));

export const salesRepeals = repealDesk({
  title: SALES_REPEAL_TITLE, prefix: 'XC', entity: 'salesRepeal', detailRoute: (id) => `/market/repealDetail/${id}`, targets: TARGETS,
});
