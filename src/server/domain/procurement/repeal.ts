// Repeals (采购撤销单, `repeal`): cancelling a procurement document by its number, with a reason, DESIGN §4.4.
// A repeal finds the document among purchase orders, inbound plans, inbound tasks, receiving notes,
// putaways, purchase invoices and return plans, and calls that document's own cancellation — the logic
// (what is released or reversed, which later documents keep it) lives there and is not repeated here.
// The cancellation runs inside the repeal's transaction (the document functions are given a context
// whose `transaction` joins the open one), so the record of the repeal is written together with the
// cancellation or not at all: a refused cancellation answers with its own business error (e.g.
// PURCHASE_DEPENDENT_DOCS_4096 naming the later documents) and writes nothing.
// `previewRepeal` tells, before anything is done, what the cancellation would undo and which later
// documents stand in its way (the same checks the cancellations make; they still decide).
import { companyDateRange } from '../../../core/format.ts';
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import type { DB } from '../../db/connection.ts';
import { bizError, validationError } from '../../http/errors.ts';
import { nextDocumentNo } from '../sequence.ts';
import {
  DOC_STATUS, moneyText, parseDay, PO_STATUS, text, tz, newestFirstPage, namedRows, type Row,
  PAGING_PROPS,
} from './common.ts';
import { openNotesOf, PLAN_STATUS, TASK_STATUS } from './inbound-plan.ts';
import { RETURN_STATUS, returnPlanRoute, returnPlansOfNote, refuseIfReturned } from './purchase-return.ts';

export const REPEAL_TITLE = '采购撤销单';
export const REPEAL_PREFIX = 'CX';
export const REPEAL_ENTITY = 'repeal';

export type TargetType = 'purchaseOrder' | 'inboundPlan' | 'inboundTask' | 'receivingNote' | 'putaway' | 'purchaseInvoice' | 'returnPlan';

/** The right (and its name) a caller needs to cancel a document of each type, from the endpoint catalog. */
export type CancelRights = Record<TargetType, { permission: string; name: string }>;

/** The catalog handler of each type's cancellation: the repeal asks for the same right. */
export const CANCEL_HANDLERS: Record<TargetType, string> = {
  purchaseOrder: 'op:purchaseOrder.cancel',
  inboundPlan: 'op:inboundPlan.cancel',
  inboundTask: 'op:inboundTask.cancel',
  receivingNote: 'op:receivingNote.cancel',
  putaway: 'op:putaway.cancel',
  purchaseInvoice: 'op:purchaseInvoice.cancel',
  returnPlan: 'op:returnPlan.cancel',
};

interface Found { type: TargetType; id: number; docNo: string; status: string; row: Row }
interface Blocker { docType: TargetType; docTypeText: string; docNo: string }
interface Described { cancellable: boolean; effect: string; blockers: Blocker[] }

type Cancel = (ctx: CallContext, input: { id: number; version?: number }) => Promise<unknown>;

interface TargetDef {
  title: string;
  table: string;
  statuses: Record<string, string>;
  route: (id: number, docNo: string) => string;
  cancel: Cancel;
  /** extra header columns read with the document (for the preview) */
  columns: string[];
  describe: (tenant: Tenant, f: Found) => Promise<Described>;
}

/** The cancellation of a document served by the engine: its own `cancel` transition. */
const engineCancel = (type: TargetType): Cancel => (ctx, input) => ctx.documents.get(type)!.transition(ctx, 'cancel', input);

const statusText = (t: TargetDef, s: string) => t.statuses[s] ?? s;
const blockers = (docType: TargetType, docNos: string[]): Blocker[] => docNos.map((docNo) => ({ docType, docTypeText: TARGETS[docType].title, docNo }));
const notCancellable = (t: TargetDef, f: Found): Described => ({ cancellable: false, effect: `${t.title} ${f.docNo} 当前状态为“${statusText(t, f.status)}”，不能作废`, blockers: [] });
const docNos = (rows: Row[]) => rows.map((r) => String(r.docNo));

export const TARGETS: Record<TargetType, TargetDef> = {
  purchaseOrder: {
    title: '采购订单', table: 'purchaseOrder', statuses: PO_STATUS, route: (id) => `/procurement/purchaseOrder/${id}`,
    cancel: engineCancel('purchaseOrder'),
    columns: ['lineCount', 'totalQty', 'receivedQty'],
    async describe(tenant, f) {
      const t = TARGETS.purchaseOrder;
      if (!['draft', 'confirmed'].includes(f.status) || Number(f.row.receivedQty) > 0) return notCancellable(t, f);
      const next = [
        ...blockers('receivingNote', docNos((await tenant.select('receivingNote').select('docNo').where('orderId', '=', f.id).where('status', '!=', 'cancelled').orderBy('id').limit(5).execute()) as Row[])),
        ...blockers('inboundPlan', docNos((await tenant.select('inboundPlan').select('docNo').where('orderId', '=', f.id).where('status', 'in', ['draft', 'confirmed']).orderBy('id').limit(5).execute()) as Row[])),
      ];
      const size = `${Number(f.row.lineCount)} 行，共 ${Number(f.row.totalQty)} 个`;
      return {
        cancellable: !next.length, blockers: next,
        effect: f.status === 'draft' ? `采购订单 ${f.docNo} 为草稿：作废后不能再确认（${size}）` : `采购订单 ${f.docNo} 已确认、尚未收货：作废订单（${size}），不再收货`,
      };
    },
  },
  inboundPlan: {
    title: '入库计划', table: 'inboundPlan', statuses: PLAN_STATUS, route: (id) => `/procurement/treasuryPlanDetail/${id}`,
    cancel: engineCancel('inboundPlan'),
    columns: ['lineCount', 'totalQty'],
    async describe(tenant, f) {
      const t = TARGETS.inboundPlan;
      if (!['draft', 'confirmed'].includes(f.status)) return notCancellable(t, f);
      const release = `释放 ${Number(f.row.lineCount)} 行共 ${Number(f.row.totalQty)} 个的计划数量`;
      if (f.status === 'draft') return { cancellable: true, blockers: [], effect: `入库计划 ${f.docNo} 为草稿：作废并${release}` };
      const task = (await tenant.select('inboundTask').select(['id', 'docNo', 'status', 'receivedQty']).where('planId', '=', f.id).executeTakeFirst()) as Row | undefined;
      const next = task ? blockers('receivingNote', await openNotesOf(tenant, Number(task.id))) : [];
      const taskOpen = !task || (task.status === 'open' && Number(task.receivedQty) === 0);
      return {
        cancellable: !next.length && taskOpen, blockers: next,
        effect: `入库计划 ${f.docNo} 已确认：作废计划${task ? `及入库任务 ${String(task.docNo)}` : ''}，${release}`
          + (taskOpen ? '' : `；入库任务 ${String(task!.docNo)} 当前状态为“${TASK_STATUS[String(task!.status) as keyof typeof TASK_STATUS] ?? String(task!.status)}”，不能作废`),
      };
    },
  },
  inboundTask: {
    title: '入库任务', table: 'inboundTask', statuses: TASK_STATUS, route: (id) => `/entrepot/inboundTaskDetail/${id}`,
    cancel: (ctx, input) => ctx.documents.get('inboundTask')!.transition(ctx, 'cancel', input),
    columns: ['planId', 'totalQty'],
    async describe(tenant, f) {
      const t = TARGETS.inboundTask;
      if (f.status !== 'open') return notCancellable(t, f);
      const plan = (await tenant.select('inboundPlan').select('docNo').where('id', '=', Number(f.row.planId)).executeTakeFirst()) as Row | undefined;
      const next = blockers('receivingNote', await openNotesOf(tenant, f.id));
      return { cancellable: !next.length, blockers: next, effect: `入库任务 ${f.docNo} 待收货：作废任务及其入库计划 ${String(plan?.docNo ?? '')}，释放计划数量 ${Number(f.row.totalQty)} 个` };
    },
  },
  receivingNote: {
    title: '收货单', table: 'receivingNote', statuses: DOC_STATUS, route: (id) => `/entrepot/receivingNoteDetail/${id}`,
    cancel: (ctx, input) => ctx.documents.get('receivingNote')!.transition(ctx, 'cancel', input),
    columns: ['lineCount', 'totalQty', 'orderId'],
    async describe(tenant, f) {
      const t = TARGETS.receivingNote;
      if (f.status === 'draft') return { cancellable: true, blockers: [], effect: `收货单 ${f.docNo} 为草稿（未过账，不影响库存）：直接作废` };
      if (f.status !== 'posted') return notCancellable(t, f);
      const order = (await tenant.select('purchaseOrder').select('docNo').where('id', '=', Number(f.row.orderId)).executeTakeFirst()) as Row | undefined;
      const invoices = (await tenant.select('purchaseInvoiceLine')
        .innerJoin('purchaseInvoice', (j) => j.onRef('purchaseInvoice.id', '=', 'purchaseInvoiceLine.invoiceId').onRef('purchaseInvoice.companyId', '=', 'purchaseInvoiceLine.companyId'))
        .select('purchaseInvoice.docNo').distinct().where('purchaseInvoiceLine.receivingNoteId', '=', f.id).where('purchaseInvoice.status', '=', 'posted')
        .orderBy('purchaseInvoice.docNo').limit(5).execute()) as Row[];
      const next = [
        ...blockers('putaway', docNos((await tenant.select('putaway').select('docNo').where('receivingNoteId', '=', f.id).where('status', '=', 'posted').orderBy('id').limit(5).execute()) as Row[])),
        ...blockers('purchaseInvoice', docNos(invoices)),
        ...blockers('returnPlan', await returnPlansOfNote(tenant, f.id)),
      ];
      return {
        cancellable: !next.length, blockers: next,
        effect: `收货单 ${f.docNo} 已过账：将冲回 ${Number(f.row.lineCount)} 行 共 ${Number(f.row.totalQty)} 个入库，并扣回采购订单 ${String(order?.docNo ?? '')} 的已收数量`,
      };
    },
  },
  putaway: {
    title: '上架单', table: 'putaway', statuses: DOC_STATUS, route: (id) => `/entrepot/putawayDetail/${id}`,
    cancel: (ctx, input) => ctx.documents.get('putaway')!.transition(ctx, 'cancel', input),
    columns: ['lineCount', 'totalQty'],
    async describe(_tenant, f) {
      const t = TARGETS.putaway;
      if (f.status === 'draft') return { cancellable: true, blockers: [], effect: `上架单 ${f.docNo} 为草稿（未过账，不影响库存）：直接作废` };
      if (f.status !== 'posted') return notCancellable(t, f);
      return { cancellable: true, blockers: [], effect: `上架单 ${f.docNo} 已过账：将 ${Number(f.row.lineCount)} 行 共 ${Number(f.row.totalQty)} 个从上架库位移回收货库位（上架库位的库存已被使用时会被拒绝）` };
    },
  },
  purchaseInvoice: {
    title: '采购发票', table: 'purchaseInvoice', statuses: DOC_STATUS, route: (id) => `/procurement/invoiceDetail/${id}`,
    cancel: engineCancel('purchaseInvoice'),
    columns: ['totalQty', 'totalAmount'],
    async describe(tenant, f) {
      const t = TARGETS.purchaseInvoice;
      if (f.status === 'draft') return { cancellable: true, blockers: [], effect: `采购发票 ${f.docNo} 为草稿：直接作废` };
      if (f.status !== 'posted') return notCancellable(t, f);
      const p = (await tenant.select('supplierPayable').select(['paidAmount']).where('invoiceId', '=', f.id).executeTakeFirst()) as Row | undefined;
      const paid = Number(p?.paidAmount ?? 0);
      const effect = `采购发票 ${f.docNo} 已过账：作废应付款 ${moneyText(f.row.totalAmount)}，冲回开票数量 ${Number(f.row.totalQty)} 个与发票库存`;
      if (paid !== 0) return { cancellable: false, blockers: [], effect: `${effect}；应付款已付款 ${moneyText(paid)}，不能作废` };
      return { cancellable: true, blockers: [], effect };
    },
  },
  returnPlan: {
    title: '退货出库计划', table: 'returnPlan', statuses: RETURN_STATUS, route: (_id, docNo) => returnPlanRoute(docNo),
    cancel: engineCancel('returnPlan'),
    columns: ['lineCount', 'totalQty'],
    async describe(_tenant, f) {
      const t = TARGETS.returnPlan;
      const size = `${Number(f.row.lineCount)} 行 共 ${Number(f.row.totalQty)} 个`;
      if (f.status === 'draft') return { cancellable: true, blockers: [], effect: `退货出库计划 ${f.docNo} 为草稿：直接作废` };
      if (f.status === 'confirmed') return { cancellable: true, blockers: [], effect: `退货出库计划 ${f.docNo} 已确认：释放预留库存（${size}），退还收货明细的可退数量` };
      if (f.status === 'shipped') return { cancellable: true, blockers: [], effect: `退货出库计划 ${f.docNo} 已出库：将冲回出库（${size}，货物回到原库位），退还收货明细的可退数量` };
      return notCancellable(t, f);
    },
  },
};

const ORDER: TargetType[] = ['purchaseOrder', 'inboundPlan', 'inboundTask', 'receivingNote', 'putaway', 'purchaseInvoice', 'returnPlan'];

async function findTarget(tenant: Tenant, docNo: string): Promise<Found | undefined> {
  for (const type of ORDER) {
    const t = TARGETS[type];
    const row = (await tenant.select(t.table).select(['id', 'docNo', 'status', ...t.columns]).where('docNo', '=', docNo).executeTakeFirst()) as Row | undefined;
    if (row) return { type, id: Number(row.id), docNo: String(row.docNo), status: String(row.status), row };
  }
  return undefined;
}

const notFound = (docNo: string) => bizError('REPEAL_DOC_NOT_FOUND_4127', { docNo: docNo.slice(0, 50) });

export const REPEAL_PREVIEW_INPUT: InputSchema = {
  type: 'object', required: ['docNo'],
  properties: { docNo: { type: 'string', minLength: 1, maxLength: 50, title: '单号' } },
};

export const REPEAL_CREATE_INPUT: InputSchema = {
  type: 'object', required: ['docNo', 'reason'],
  properties: {
    docNo: { type: 'string', minLength: 1, maxLength: 50, title: '单号' },
    reason: { type: 'string', minLength: 1, maxLength: 500, title: '撤销原因' },
  },
};

export const REPEAL_LIST_INPUT: InputSchema = {
  type: 'object',
  properties: {
    ...PAGING_PROPS,
    docNo: { type: ['string', 'null'], maxLength: 50, title: '单号' },
    docType: { enum: [...ORDER, null], title: '单据类型' },
    dateFrom: { type: ['string', 'null'], maxLength: 10, title: '开始日期' },
    dateTo: { type: ['string', 'null'], maxLength: 10, title: '结束日期' },
  },
};

export interface RepealListInput {
  page: number;
  pageSize: number;
  docNo?: string | null;
  docType?: TargetType | null;
  dateFrom?: string | null;
  dateTo?: string | null;
}

/** What cancelling the document would undo and what stands in its way; shaped for the htmlPreview widget too. */
export async function previewRepeal(ctx: CallContext, input: { docNo: string }) {
  const docNo = input.docNo.trim();
  const f = docNo ? await findTarget(ctx.tenant, docNo) : undefined;
  if (!f) {
    // An answer, not an error: the form asks while the number is being typed.
    const message = notFound(docNo).message;
    return { found: false, docNo, cancellable: false, message, blockers: [] as Blocker[], subject: '未找到单据', body: message, format: 'text' };
  }
  const t = TARGETS[f.type];
  const d = await t.describe(ctx.tenant, f);
  const message = d.blockers.length
    ? `${d.effect}\n不能撤销：已有后续单据 ${d.blockers.map((b) => `${b.docTypeText} ${b.docNo}`).join('、')}，请先撤销后续单据`
    : d.effect;
  return {
    found: true, docType: f.type, docTypeText: t.title, id: f.id, docNo: f.docNo, status: f.status, statusText: statusText(t, f.status), route: t.route(f.id, f.docNo),
    cancellable: d.cancellable, effect: d.effect, blockers: d.blockers, message,
    subject: `${t.title} ${f.docNo}（${statusText(t, f.status)}）`, body: d.cancellable ? `撤销后：${message}` : message, format: 'text',
  };
}

/**
 * A context for a document's cancellation inside the repeal's open transaction: its own `transaction`
 * joins that one (nested transactions are not opened), and every read and write goes through it.
 */
function joined(ctx: CallContext, db: DB, tenant: Tenant): CallContext {
  return { ...ctx, db, tenant, transaction: (fn) => fn(db, tenant), audit: (e, d) => ctx.audit(e, d ?? db) };
}

/** Cancels the document numbered `docNo` and records the repeal with its reason, in one transaction. */
export async function createRepeal(ctx: CallContext, input: { docNo: string; reason: string }, rights: CancelRights) {
  const caller = ctx.caller!;
  const docNo = input.docNo.trim();
  const reason = input.reason.trim();
  if (!docNo) throw validationError([{ field: 'docNo', message: '单号不能为空' }]);
  if (!reason) throw validationError([{ field: 'reason', message: '撤销原因不能为空' }]);
  const now = new Date().toISOString();
  return ctx.transaction(async (db, tenant) => {
    const f = await findTarget(tenant, docNo);
    if (!f) throw notFound(docNo);
    // The repeal is no way around the document's own right to cancel it.
    const right = rights[f.type];
    if (!caller.allRights && right.permission !== '1' && !caller.rights.has(right.permission)) throw bizError('COMMON_NO_RIGHT_4003', { name: right.name });
    const t = TARGETS[f.type];
    const summary = (await t.describe(tenant, f)).effect;
    if (f.type === 'receivingNote') {
      // What the note's own cancellation does not look at: return plans holding its lines. Claim the note
      // first (a return plan's confirmation claims it too), then look.
      await tenant.update('receivingNote').set({ updatedAt: now }).where('id', '=', f.id).execute();
      await refuseIfReturned(tenant, f.id, f.docNo);
    }
    // The document's current state decides (no version: the repeal acts on the document as it is now).
    await t.cancel(joined(ctx, db, tenant), { id: f.id });
    // the number from the company's sequence, in this transaction (no temporary number)
    const number = await nextDocumentNo(db, tenant.companyId, REPEAL_PREFIX, tz(ctx));
    const inserted = (await tenant.insert('repeal', {
      docNo: number, docType: f.type, docId: f.id, targetDocNo: f.docNo, fromStatus: f.status,
      reason, summary, version: 1, createdAt: now, createdBy: caller.accountId, updatedAt: now, updatedBy: caller.accountId,
    }).returning('id').executeTakeFirstOrThrow()) as Row;
    const id = Number(inserted.id);
    await ctx.audit({ action: 'create', entity: REPEAL_ENTITY, recordId: id, recordLabel: number, changes: [
      { field: 'targetDocNo', title: '撤销单据', from: null, to: `${t.title} ${f.docNo}` },
      { field: 'fromStatus', title: '原状态', from: null, to: statusText(t, f.status) },
      { field: 'reason', title: '撤销原因', from: null, to: reason },
    ] }, db);
    return {
      id, docNo: number, docType: f.type, docTypeText: t.title, targetId: f.id, targetDocNo: f.docNo, fromStatus: f.status, fromStatusText: statusText(t, f.status),
      status: 'cancelled', summary, route: `/procurement/repealDetail/${id}`, targetRoute: t.route(f.id, f.docNo),
    };
  });
}

function repealView(r: Row) {
  const type = String(r.docType) as TargetType;
  const t = TARGETS[type];
  const from = String(r.fromStatus);
  return {
    id: Number(r.id), docNo: String(r.docNo), docType: type, docTypeText: t?.title ?? type, targetId: Number(r.docId), targetDocNo: String(r.targetDocNo),
    targetRoute: t ? t.route(Number(r.docId), String(r.targetDocNo)) : null, fromStatus: from, fromStatusText: t ? statusText(t, from) : from,
    reason: String(r.reason), summary: text(r.summary), createdAt: text(r.createdAt), createdByName: text(r.createdByName),
    route: `/procurement/repealDetail/${Number(r.id)}`,
  };
}

function withNames(tenant: Tenant) {
  return tenant.select('repeal')
    .leftJoin('account as creator', (j) => j.onRef('creator.id', '=', 'repeal.createdBy').onRef('creator.companyId', '=', 'repeal.companyId'))
    .selectAll('repeal').select(['creator.userName as createdByName']);
}

export async function getRepeal(ctx: CallContext, id: number) {
  const r = (await withNames(ctx.tenant).where('repeal.id', '=', id).executeTakeFirst()) as Row | undefined;
  if (!r) throw bizError('COMMON_NOT_FOUND_4004', { entity: REPEAL_TITLE });
  const view = repealView(r);
  const t = TARGETS[view.docType];
  const now = t ? ((await ctx.tenant.select(t.table).select('status').where('id', '=', view.targetId).executeTakeFirst()) as Row | undefined) : undefined;
  const status = now ? String(now.status) : null;
  return { ...view, targetStatus: status, targetStatusText: status && t ? statusText(t, status) : null };
}

export async function listRepeals(ctx: CallContext, input: RepealListInput) {
  const from = parseDay(input.dateFrom, 'dateFrom', '开始日期');
  const to = parseDay(input.dateTo, 'dateTo', '结束日期');
  let q = ctx.tenant.select('repeal');
  const docNo = input.docNo?.trim().replace(/[\\%_]/g, '');
  if (docNo) q = q.where((eb) => eb.or([eb('repeal.docNo', 'like', `%${docNo}%`), eb('repeal.targetDocNo', 'like', `%${docNo}%`)]));
  if (input.docType) q = q.where('repeal.docType', '=', input.docType);
  if (from) q = q.where('repeal.createdAt', '>=', companyDateRange(from, from, tz(ctx))[0]);
  if (to) q = q.where('repeal.createdAt', '<=', companyDateRange(to, to, tz(ctx))[1]);
  return newestFirstPage(q, 'repeal.id', namedRows(withNames(ctx.tenant), 'repeal.id'), repealView, input);
}
