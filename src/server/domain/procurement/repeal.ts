// Repeals of procurement documents (采购撤销单, oms 0218xx), DESIGN §4.4: the repeal desk of
// src/server/domain/repeal/desk.ts over purchase orders, inbound plans, inbound tasks, receiving notes,
// putaways, purchase invoices and return plans. Each target is its engine definition (title, statuses, route,
// cancellation) plus what its cancellation would undo and which later documents stand in its way (the
// preview; the cancellations still decide).
import { inboundPlan } from '../../documents/types/inbound-plan.ts';
import { inboundTask } from '../../documents/types/inbound-task.ts';
import { purchaseInvoice } from '../../documents/types/purchase-invoice.ts';
import { purchaseOrder } from '../../documents/types/purchase-order.ts';
import { returnPlan } from '../../documents/types/purchase-return.ts';
import { putaway } from '../../documents/types/putaway.ts';
import { receivingNote } from '../../documents/types/receiving-note.ts';
import { docNos, engineTarget, notCancellable, repealDesk, type Blocker, type TargetDef } from '../repeal/desk.ts';
import { moneyText } from './common.ts';
import { openNotesOf, TASK_STATUS } from './inbound-plan.ts';
import { returnPlansOfNote, refuseIfReturned } from './purchase-return.ts';

export const REPEAL_TITLE = '采购撤销单';

type TargetType = 'purchaseOrder' | 'inboundPlan' | 'inboundTask' | 'receivingNote' | 'putaway' | 'purchaseInvoice' | 'returnPlan';
const blockers = (docType: TargetType, numbers: string[]): Blocker[] => numbers.map((docNo) => ({ docType, docTypeText: TARGETS[docType].title, docNo }));

const TARGETS: Record<TargetType, TargetDef> = {
  purchaseOrder: engineTarget(purchaseOrder, {
    columns: ['lineCount', 'totalQty', 'receivedQty'],
    async describe(tenant, f) {
      const t = TARGETS.purchaseOrder;
      if (!['draft', 'confirmed'].includes(f.status) || Number(f.row.receivedQty) > 0) return notCancellable(t, f);
      const next = [
        ...blockers('receivingNote', docNos(await tenant.select('receivingNote').select('docNo').where('orderId', '=', f.id).where('status', '!=', 'cancelled').orderBy('id').limit(5).execute())),
        ...blockers('inboundPlan', docNos(await tenant.select('inboundPlan').select('docNo').where('orderId', '=', f.id).where('status', 'in', ['draft', 'confirmed']).orderBy('id').limit(5).execute())),
      ];
      const size = `${Number(f.row.lineCount)} 行，共 ${Number(f.row.totalQty)} 个`;
      return {
        cancellable: !next.length, blockers: next,
        effect: f.status === 'draft' ? `采购订单 ${f.docNo} 为草稿：作废后不能再确认（${size}）` : `采购订单 ${f.docNo} 已确认、尚未收货：作废订单（${size}），不再收货`,
      };
    },
  }),
  inboundPlan: engineTarget(inboundPlan, {
    columns: ['lineCount', 'totalQty'],
    async describe(tenant, f) {
      const t = TARGETS.inboundPlan;
      if (!['draft', 'confirmed'].includes(f.status)) return notCancellable(t, f);
      const release = `释放 ${Number(f.row.lineCount)} 行共 ${Number(f.row.totalQty)} 个的计划数量`;
      if (f.status === 'draft') return { cancellable: true, blockers: [], effect: `入库计划 ${f.docNo} 为草稿：作废并${release}` };
      const task = await tenant.select('inboundTask').select(['id', 'docNo', 'status', 'receivedQty']).where('planId', '=', f.id).executeTakeFirst();
      const next = task ? blockers('receivingNote', await openNotesOf(tenant, Number(task.id))) : [];
      const taskOpen = !task || (task.status === 'open' && Number(task.receivedQty) === 0);
      return {
        cancellable: !next.length && taskOpen, blockers: next,
        effect: `入库计划 ${f.docNo} 已确认：作废计划${task ? `及入库任务 ${String(task.docNo)}` : ''}，${release}`
          + (taskOpen ? '' : `；入库任务 ${String(task!.docNo)} 当前状态为“${TASK_STATUS[String(task!.status) as keyof typeof TASK_STATUS] ?? String(task!.status)}”，不能作废`),
      };
    },
  }),
  inboundTask: engineTarget(inboundTask, {
    columns: ['planId', 'totalQty'],
    async describe(tenant, f) {
      const t = TARGETS.inboundTask;
      if (f.status !== 'open') return notCancellable(t, f);
      const plan = await tenant.select('inboundPlan').select('docNo').where('id', '=', Number(f.row.planId)).executeTakeFirst();
      const next = blockers('receivingNote', await openNotesOf(tenant, f.id));
      return { cancellable: !next.length, blockers: next, effect: `入库任务 ${f.docNo} 待收货：作废任务及其入库计划 ${String(plan?.docNo ?? '')}，释放计划数量 ${Number(f.row.totalQty)} 个` };
    },
  }),
  receivingNote: engineTarget(receivingNote, {
    // What the note's own cancellation does not look at: return plans holding its lines. Claim the note
    // first (a return plan's confirmation claims it too), then look.
    async beforeCancel(tenant, f, now) {
      await tenant.update('receivingNote').set({ updatedAt: now }).where('id', '=', f.id).execute();
      await refuseIfReturned(tenant, f.id, f.docNo);
    },
    columns: ['lineCount', 'totalQty', 'orderId'],
    async describe(tenant, f) {
      const t = TARGETS.receivingNote;
      if (f.status === 'draft') return { cancellable: true, blockers: [], effect: `收货单 ${f.docNo} 为草稿（未过账，不影响库存）：直接作废` };
      if (f.status !== 'posted') return notCancellable(t, f);
      const order = await tenant.select('purchaseOrder').select('docNo').where('id', '=', Number(f.row.orderId)).executeTakeFirst();
      const invoices = await tenant.select('purchaseInvoiceLine')
        .innerJoin('purchaseInvoice', (j) => j.onRef('purchaseInvoice.id', '=', 'purchaseInvoiceLine.invoiceId').onRef('purchaseInvoice.companyId', '=', 'purchaseInvoiceLine.companyId'))
        .select('purchaseInvoice.docNo').distinct().where('purchaseInvoiceLine.receivingNoteId', '=', f.id).where('purchaseInvoice.status', '=', 'posted')
        .orderBy('purchaseInvoice.docNo').limit(5).execute();
      const next = [
        ...blockers('putaway', docNos(await tenant.select('putaway').select('docNo').where('receivingNoteId', '=', f.id).where('status', '=', 'posted').orderBy('id').limit(5).execute())),
        ...blockers('purchaseInvoice', docNos(invoices)),
        ...blockers('returnPlan', await returnPlansOfNote(tenant, f.id)),
      ];
      return {
        cancellable: !next.length, blockers: next,
        effect: `收货单 ${f.docNo} 已过账：将冲回 ${Number(f.row.lineCount)} 行 共 ${Number(f.row.totalQty)} 个入库，并扣回采购订单 ${String(order?.docNo ?? '')} 的已收数量`,
      };
    },
  }),
  putaway: engineTarget(putaway, {
    columns: ['lineCount', 'totalQty'],
    async describe(_tenant, f) {
      const t = TARGETS.putaway;
      if (f.status === 'draft') return { cancellable: true, blockers: [], effect: `上架单 ${f.docNo} 为草稿（未过账，不影响库存）：直接作废` };
      if (f.status !== 'posted') return notCancellable(t, f);
      return { cancellable: true, blockers: [], effect: `上架单 ${f.docNo} 已过账：将 ${Number(f.row.lineCount)} 行 共 ${Number(f.row.totalQty)} 个从上架库位移回收货库位（上架库位的库存已被使用时会被拒绝）` };
    },
  }),
  purchaseInvoice: engineTarget(purchaseInvoice, {
    columns: ['totalQty', 'totalAmount'],
    async describe(tenant, f) {
      const t = TARGETS.purchaseInvoice;
      if (f.status === 'draft') return { cancellable: true, blockers: [], effect: `采购发票 ${f.docNo} 为草稿：直接作废` };
      if (f.status !== 'posted') return notCancellable(t, f);
      const p = await tenant.select('supplierPayable').select(['paidAmount']).where('invoiceId', '=', f.id).executeTakeFirst();
      const paid = Number(p?.paidAmount ?? 0);
      const effect = `采购发票 ${f.docNo} 已过账：作废应付款 ${moneyText(f.row.totalAmount)}，冲回开票数量 ${Number(f.row.totalQty)} 个与发票库存`;
      if (paid !== 0) return { cancellable: false, blockers: [], effect: `${effect}；应付款已付款 ${moneyText(paid)}，不能作废` };
      return { cancellable: true, blockers: [], effect };
    },
  }),
  returnPlan: engineTarget(returnPlan, {
    columns: ['lineCount', 'totalQty'],
    async describe(_tenant, f) {
      const t = TARGETS.returnPlan;
      const size = `${Number(f.row.lineCount)} 行 共 ${Number(f.row.totalQty)} 个`;
      if (f.status === 'draft') return { cancellable: true, blockers: [], effect: `退货出库计划 ${f.docNo} 为草稿：直接作废` };
      if (f.status === 'confirmed') return { cancellable: true, blockers: [], effect: `退货出库计划 ${f.docNo} 已确认：释放预留库存（${size}），退还收货明细的可退数量` };
      if (f.status === 'shipped') return { cancellable: true, blockers: [], effect: `退货出库计划 ${f.docNo} 已出库：将冲回出库（${size}，货物回到原库位），退还收货明细的可退数量` };
      return notCancellable(t, f);
    },
  }),
};


export const procurementRepeals = repealDesk({
  title: REPEAL_TITLE, prefix: 'CX', entity: 'repeal', detailRoute: (id) => `/procurement/repealDetail/${id}`, targets: TARGETS,
});
