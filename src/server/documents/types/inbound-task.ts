// 入库任务 on the document engine (DESIGN §4.4): created by confirming an inbound plan or a sales return
// (never saved by itself; a return's task is cancelled and closed by its return), received through receiving notes that name it (domain/procurement/inbound-task.ts keeps the
// receipts' side). open → receiving → done; cancelled with its plan while nothing was received against
// it; closed (已关闭) with its plan when the supplier delivered less than planned and no more is expected.
// Lock order: cancelling takes plan → task (as cancelling the plan does), closing takes order → task →
// plan (as a receipt does). The engine's status update locks the task row, so the rows that come before
// it are locked by the transitions' `before` hooks; otherwise two paths could wait on each other on
// PostgreSQL.
import { sql } from 'kysely';
import { splitUnits } from '../../../core/stock-units.ts';
import { bizError, validationError } from '../../http/errors.ts';
import { CONTAINER_STATUS } from '../../domain/procurement/container.ts';
import { DOC_STATUS, refusal, text, type Row } from '../../domain/procurement/common.ts';
import { openNotesOf, PLAN_STATUS, PLAN_TITLE, releaseLines, TASK_PREFIX, TASK_STATUS, TASK_TITLE } from '../../domain/procurement/inbound-plan.ts';
import { givePlannedBack } from '../../domain/procurement/inbound-task.ts';
import { MAX_MOVE_QTY } from '../../domain/stock/ledger.ts';
import { defineDocument } from '../definition.ts';
import { TypedTenant } from '../../db/typed.ts';

const status = (s: keyof typeof TASK_STATUS, color: string) => ({ label: TASK_STATUS[s], color });
const ID = { type: 'integer', title: '', readonly: true, min: 1, max: 2_147_483_647 } as const;
/** Tasks that take receipts (and may be closed). */
const RECEIVABLE = ['open', 'receiving'];

/** A sales return's task is cancelled or closed by its return (which gives its quantities back to the order). */
function fromReturn(doc: Row, action: string) {
  if (doc.returnId == null) return;
  throw validationError([{ field: 'id', message: `入库任务 ${String(doc.docNo)} 来自销售退货单，请在销售退货单上${action}（未收部分随之取消）` }]);
}

/** The caller named another version than the row's: the conditional update refuses it. */
const stale = (doc: Row, version?: number) => version !== undefined && Number(doc.version) !== version;

export const inboundTask = defineDocument({
  type: 'inboundTask',
  title: TASK_TITLE,
  prefix: TASK_PREFIX,
  table: 'inboundTask',
  statuses: { open: status('open', 'blue'), receiving: status('receiving', 'orange'), done: status('done', 'green'), closed: status('closed', 'purple'), cancelled: status('cancelled', 'red') },
  initial: 'open',
  editable: [],
  statusCode: 'PURCHASE_DOC_STATUS_4091',
  header: {
    planId: { ...ID, title: '入库计划' },
    orderId: { ...ID, title: '采购订单' },
    warehouseId: { type: 'reference', resource: 'warehouse', title: '仓库', readonly: true },
    containerId: { ...ID, title: '集装箱' },
    // a sales return's task (no plan, no purchase order): received against the return's lines
    returnId: { ...ID, title: '销售退货单' },
    remark: { type: 'string', title: '备注', maxLength: 500, readonly: true },
    lineCount: { type: 'integer', title: '明细行数', readonly: true },
    totalQty: { type: 'integer', title: '计划数量', readonly: true },
    receivedQty: { type: 'integer', title: '已收数量', readonly: true },
    closeReason: { type: 'string', title: '关闭原因', readonly: true },
  },
  lines: {
    table: 'inboundTaskLine',
    parent: 'taskId',
    max: 2000,
    fields: {
      orderLineId: { ...ID, title: '订单明细' },
      returnLineId: { ...ID, title: '退货单明细' },
      productId: { type: 'reference', resource: 'product', title: '商品', readonly: true },
      qty: { type: 'integer', title: '计划数量', readonly: true, min: 0, max: MAX_MOVE_QTY },
      receivedQty: { type: 'integer', title: '已收', readonly: true },
      remark: { type: 'string', title: '备注', maxLength: 200, readonly: true },
    },
    reads: { productId: ['specification', 'bigQty', 'midQty', 'unitBig', 'unitMid', 'unitSmall'] },
  },
  hooks: {
    async present(ctx, docs, lines) {
      if (!docs.length) return;
      const tenant = TypedTenant.of(ctx.tenant);
      const plans = await tenant.byIds('inboundPlan', ['docNo', 'expectedDate'], docs.map((d) => Number(d.planId)));
      const orders = new Map((await tenant.select('purchaseOrder')
        .innerJoin('supplier', (j) => j.onRef('supplier.id', '=', 'purchaseOrder.supplierId').onRef('supplier.companyId', '=', 'purchaseOrder.companyId'))
        .select(['purchaseOrder.id', 'purchaseOrder.docNo', 'supplier.name as supplierName'])
        .where('purchaseOrder.id', 'in', [...new Set(docs.map((d) => Number(d.orderId)))]).execute()).map((r) => [Number(r.id), r]));
      const returns = new Map((await tenant.select('salesReturn')
        .innerJoin('client', (j) => j.onRef('client.id', '=', 'salesReturn.clientId').onRef('client.companyId', '=', 'salesReturn.companyId'))
        .select(['salesReturn.id', 'salesReturn.docNo', 'salesReturn.returnDate', 'client.name as clientName'])
        .where('salesReturn.id', 'in', [0, ...new Set(docs.flatMap((d) => (d.returnId == null ? [] : [Number(d.returnId)])))]).execute()).map((r) => [Number(r.id), r]));
      const containers = await tenant.byIds('container', ['containerNo', 'containerType', 'status'], docs.flatMap((d) => (d.containerId == null ? [] : [Number(d.containerId)])));
      for (const d of docs) {
        const p = plans.get(Number(d.planId));
        const o = orders.get(Number(d.orderId));
        const c = d.containerId == null ? undefined : containers.get(Number(d.containerId));
        const cs = c ? String(c.status) : null;
        const r = d.returnId == null ? undefined : returns.get(Number(d.returnId));
        Object.assign(d, {
          planDocNo: text(p?.docNo), expectedDate: text(p?.expectedDate ?? r?.returnDate), orderDocNo: text(o?.docNo), supplierName: text(o?.supplierName),
          // where the goods come from: a purchase order's plan, or a client's return
          returnDocNo: text(r?.docNo), clientName: text(r?.clientName), partyName: text(o?.supplierName ?? r?.clientName),
          sourceText: r ? `销售退货 ${String(r.docNo)}` : o ? `采购订单 ${String(o.docNo)}` : null,
          containerNo: text(c?.containerNo), containerType: text(c?.containerType), containerStatus: cs, containerStatusText: cs ? (CONTAINER_STATUS as Record<string, string>)[cs] ?? cs : null,
          // a closed task expects nothing more: what it did not receive was given back to the order
          openQty: d.status === 'closed' ? 0 : Math.max(0, Number(d.totalQty) - Number(d.receivedQty)),
        });
      }
      if (!lines) return;
      const doc = docs[0]!;
      // closed: what was not received is no longer open but given back to the order (released)
      const closed = doc.status === 'closed';
      const shortOf = (l: Row) => Math.max(0, Number(l.qty) - Number(l.receivedQty));
      const ols = await tenant.byIds('purchaseOrderLine', ['lineNo', 'qty', 'receivedQty'], lines.flatMap((l) => (l.orderLineId == null ? [] : [Number(l.orderLineId)])));
      const rls = await tenant.byIds('salesReturnLine', ['lineNo', 'qty', 'receivedQty'], lines.flatMap((l) => (l.returnLineId == null ? [] : [Number(l.returnLineId)])));
      for (const l of lines) {
        // the source line: the purchase order's, or the sales return's
        const ol = l.orderLineId == null ? rls.get(Number(l.returnLineId)) : ols.get(Number(l.orderLineId));
        const packs = { bigQty: Number(l.bigQty), midQty: Number(l.midQty), unitBig: text(l.unitBig), unitMid: text(l.unitMid), unitSmall: text(l.unitSmall) };
        const open = closed ? 0 : shortOf(l);
        Object.assign(l, {
          orderLineNo: Number(ol?.lineNo), orderedQty: Number(ol?.qty), orderReceivedQty: Number(ol?.receivedQty),
          units: splitUnits(Number(l.qty), packs), openQty: open, openUnits: splitUnits(open, packs), releasedQty: closed ? shortOf(l) : 0,
        });
      }
      doc.releasedQty = closed ? lines.reduce((s, l) => s + shortOf(l), 0) : 0;
      const notes = await tenant.select('receivingNote').select(['id', 'docNo', 'status', 'totalQty', 'postedAt', 'createdAt']).where('taskId', '=', Number(doc.id)).orderBy('id').execute();
      doc.receivingNotes = notes.map((n) => {
        const s = String(n.status);
        return {
          id: Number(n.id), docNo: String(n.docNo), status: s, statusText: (DOC_STATUS as Record<string, string>)[s] ?? s, totalQty: Number(n.totalQty),
          createdAt: text(n.createdAt), postedAt: text(n.postedAt), route: `/entrepot/receivingNoteDetail/${Number(n.id)}`,
        };
      });
    },
  },
  transitions: {
    cancel: {
      label: '作废', from: ['open'], to: 'cancelled', stamp: 'cancelled', danger: true, overlay: true,
      confirm: '确定作废入库任务“{docNo}”？其入库计划将一并作废。',
      onlyWhen: { open: { receivedQty: 0 } },
      // The plan first, as cancelling the plan does: both paths lock plan, then task.
      async before({ ctx, tenant, doc, version }) {
        fromReturn(doc, '作废');
        if (doc.status !== 'open' || stale(doc, version)) return;
        const now = new Date().toISOString();
        const caller = ctx.caller!;
        const plan = await tenant.update('inboundPlan').set({ status: 'cancelled', cancelledAt: now, cancelledBy: caller.accountId, updatedAt: now, updatedBy: caller.accountId, version: sql`${sql.ref('version')} + 1` })
          .where('id', '=', Number(doc.planId)).where('status', '=', 'confirmed').returning('id').executeTakeFirst();
        if (!plan) throw await refusal(tenant, 'inboundPlan', PLAN_TITLE, PLAN_STATUS, Number(doc.planId), undefined, ['confirmed'], '作废');
        const notes = await openNotesOf(tenant, Number(doc.id));
        if (notes.length) throw bizError('PURCHASE_DEPENDENT_DOCS_4096', { doc: TASK_TITLE, docNo: String(doc.docNo), next: notes.join('、') }, { id: Number(doc.planId), taskId: Number(doc.id) });
      },
      async run({ ctx, db, tenant, doc }) {
        const plan = await TypedTenant.of(tenant).select('inboundPlan').select(['id', 'docNo']).where('id', '=', Number(doc.planId)).executeTakeFirstOrThrow();
        await releaseLines(tenant, Number(plan.id));
        await ctx.audit({ action: 'cancel', entity: 'inboundPlan', recordId: Number(plan.id), recordLabel: String(plan.docNo), changes: [{ field: 'status', title: '状态', from: PLAN_STATUS.confirmed, to: PLAN_STATUS.cancelled }] }, db);
        return { totalQty: Number(doc.totalQty), planId: Number(plan.id), planDocNo: String(plan.docNo) };
      },
    },
    close: {
      label: '关闭', from: RECEIVABLE, to: 'closed', stamp: 'closed',
      input: { properties: { reason: { type: 'string', maxLength: 500, title: '关闭原因' } }, required: ['reason'] },
      // The locks in the order a receipt takes them (order row, task, plan), so the two serialise: a
      // receipt posted first is in the lines read after, one posted after finds the task closed.
      async before({ tenant, doc, version, input }) {
        fromReturn(doc, '关闭');
        if (!String(input.reason).trim()) throw validationError([{ field: 'reason', message: '请填写关闭原因' }]);
        if (!RECEIVABLE.includes(String(doc.status)) || stale(doc, version)) return;
        await tenant.update('purchaseOrder').set({ updatedAt: new Date().toISOString() }).where('id', '=', Number(doc.orderId)).execute();
        const drafts = await TypedTenant.of(tenant).select('receivingNote').select('docNo').where('taskId', '=', Number(doc.id)).where('status', '=', 'draft').orderBy('id').limit(3).execute();
        if (drafts.length) {
          throw bizError('INBOUND_TASK_DRAFT_NOTES_4115', { docNo: String(doc.docNo), notes: drafts.map((d) => String(d.docNo)).join('、') }, { id: Number(doc.id), notes: drafts.map((d) => String(d.docNo)) });
        }
      },
      // What the task still expected goes back to the order lines; the plan is closed with it.
      async run({ ctx, db, tenant: untypedTenant, doc, input, audit }) {
        const tenant = TypedTenant.of(untypedTenant);
        const id = Number(doc.id);
        const reason = String(input.reason).trim();
        const now = String(doc.updatedAt);
        await tenant.update('inboundTask').set({ closeReason: reason }).where('id', '=', id).execute();
        const lines = await tenant.select('inboundTaskLine').select(['orderLineId', 'qty', 'receivedQty']).where('taskId', '=', id).orderBy('orderLineId').execute();
        let releasedQty = 0;
        for (const l of lines) {
          const left = Math.max(0, Number(l.qty) - Number(l.receivedQty));
          await givePlannedBack(untypedTenant, Number(l.orderLineId), left, id);
          releasedQty += left;
        }
        const plan = await tenant.update('inboundPlan').set({ status: 'closed', closedAt: now, updatedAt: now, updatedBy: ctx.caller!.accountId, version: sql`${sql.ref('version')} + 1` })
          .where('id', '=', Number(doc.planId)).where('status', '=', 'confirmed').returning(['id', 'docNo']).executeTakeFirst();
        if (!plan) throw await refusal(untypedTenant, 'inboundPlan', PLAN_TITLE, PLAN_STATUS, Number(doc.planId), undefined, ['confirmed'], '关闭');
        const why = { field: 'closeReason', title: '关闭原因', from: null, to: reason };
        audit.push(why, { field: 'releasedQty', title: '释放未收数量', from: null, to: releasedQty });
        await ctx.audit({
          action: 'close', entity: 'inboundPlan', recordId: Number(plan.id), recordLabel: String(plan.docNo),
          changes: [{ field: 'status', title: '状态', from: PLAN_STATUS.confirmed, to: PLAN_STATUS.closed }, why, { field: 'taskId', title: TASK_TITLE, from: null, to: String(doc.docNo) }],
        }, db);
        return { receivedQty: Number(doc.receivedQty), releasedQty, planId: Number(plan.id), planDocNo: String(plan.docNo), planStatus: 'closed' };
      },
    },
  },
  followUps: [
    { label: '收货', to: '/entrepot/receivingNoteDetail/new?orderId={orderId}&taskId={id}', statuses: RECEIVABLE, right: 'entrepot.receivingNote.edit', when: (doc) => doc.returnId == null },
    // a return's task: received on the return receiving screen (client and return lines)
    { label: '收货', to: '/entrepot/returnReceiving/new?returnId={returnId}&taskId={id}', statuses: RECEIVABLE, right: 'entrepot.returnReceiving', when: (doc) => doc.returnId != null },
  ],
  links: [{ field: 'planId', type: 'inboundPlan' }, { field: 'returnId', type: 'salesReturn' }],
  // done is reached by the receipts (domain/procurement/inbound-task.ts)
  stampsAlso: ['done'],
  listFilters: ['orderId', 'planId', 'containerId', 'warehouseId', 'returnId'],
  dateField: 'createdAt',
  listReads: ['inboundPlan', 'purchaseOrder', 'supplier', 'container', 'salesReturn', 'client'],
  route: '/entrepot/inboundTaskDetail/{id}',
});
