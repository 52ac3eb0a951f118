// A repeal desk (撤销单): cancelling a document by its number, with a reason, DESIGN §4.4. One desk per
// family (procurement, sales); each declares its target document types — how to find one, what its
// cancellation undoes (`describe`, for the preview) and the cancellation itself (the document's own
// `cancel`, usually the engine transition). The logic of what is released or reversed, and which later
// documents keep it, lives in the document and is not repeated here.
// The cancellation runs inside the repeal's transaction (the document functions get a context whose
// `transaction` joins the open one), so the record of the repeal is written together with the
// cancellation or not at all: a refused cancellation answers with its own business error and writes
// nothing. Every family's repeals share the `repeal` table; a desk only sees its own document types.
import { companyDateRange } from '../../../core/format.ts';
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import type { DB } from '../../db/connection.ts';
import { TypedTenant } from '../../db/typed.ts';
import { bizError, validationError } from '../../http/errors.ts';
import { nextDocumentNo } from '../sequence.ts';
import { parseDay, text, tz, newestFirstPage, namedRows, type Row, PAGING_PROPS } from '../procurement/common.ts';

export interface Found { type: string; id: number; docNo: string; status: string; row: Row }
export interface Blocker { docType: string; docTypeText: string; docNo: string }
export interface Described { cancellable: boolean; effect: string; blockers: Blocker[] }
export type Cancel = (ctx: CallContext, input: { id: number; version?: number }) => Promise<unknown>;

export interface TargetDef {
  title: string;
  table: string;
  statuses: Record<string, string>;
  route: (id: number, docNo: string) => string;
  /** the catalog handler of the document's cancellation: the repeal asks for the same right */
  cancelHandler: string;
  cancel: Cancel;
  /** extra header columns read with the document (for the preview) */
  columns: string[];
  describe: (tenant: Tenant, f: Found) => Promise<Described>;
  /** checks the document's own cancellation does not make, run after claiming it (refuse by throwing) */
  beforeCancel?: (tenant: Tenant, f: Found, now: string) => Promise<void>;
}

export interface DeskConfig {
  /** e.g. 采购撤销单 */
  title: string;
  prefix: string;
  /** the audit trail's entity name */
  entity: string;
  detailRoute: (id: number) => string;
  /** looked up in this order by number */
  targets: Record<string, TargetDef>;
}

/** The right (and its name) a caller needs to cancel each document type, read from the endpoint catalog. */
export type CancelRights = Record<string, { permission: string; name: string }>;

export const statusText = (t: TargetDef, s: string) => t.statuses[s] ?? s;
export const notCancellable = (t: TargetDef, f: Found): Described => ({ cancellable: false, effect: `${t.title} ${f.docNo} 当前状态为“${statusText(t, f.status)}”，不能作废`, blockers: [] });
export const docNos = (rows: Row[]) => rows.map((r) => String(r.docNo));
/** The cancellation of a document served by the engine: its own `cancel` transition. */
export const engineCancel = (type: string): Cancel => (ctx, input) => ctx.documents.get(type)!.transition(ctx, 'cancel', input);

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

export interface RepealListInput {
  page: number;
  pageSize: number;
  docNo?: string | null;
  docType?: string | null;
  dateFrom?: string | null;
  dateTo?: string | null;
}

/**
 * A context for a document's cancellation inside the repeal's open transaction: its own `transaction`
 * joins that one (nested transactions are not opened), and every read and write goes through it.
 */
function joined(ctx: CallContext, db: DB, tenant: Tenant): CallContext {
  return { ...ctx, db, tenant, transaction: (fn) => fn(db, tenant), audit: (e, d) => ctx.audit(e, d ?? db) };
}

export function repealDesk(config: DeskConfig) {
  const types = Object.keys(config.targets);
  const blockers = (docType: string, numbers: string[]): Blocker[] => numbers.map((docNo) => ({ docType, docTypeText: config.targets[docType].title, docNo }));
  const kinds = types.map((k) => config.targets[k].title).join('、');
  const notFound = (docNo: string) => bizError('REPEAL_DOC_NOT_FOUND_4127', { docNo: docNo.slice(0, 50), kinds });

  async function findTarget(tenant: Tenant, docNo: string): Promise<Found | undefined> {
    for (const type of types) {
      const t = config.targets[type];
      // (the target's table and columns are its definition's, named at run time: the untyped view)
      const row: Row | undefined = await tenant.select(t.table).select(['id', 'docNo', 'status', ...t.columns]).where('docNo', '=', docNo).executeTakeFirst();
      if (row) return { type, id: Number(row.id), docNo: String(row.docNo), status: String(row.status), row };
    }
    return undefined;
  }

  function view(r: Row) {
    const type = String(r.docType);
    const t = config.targets[type];
    const from = String(r.fromStatus);
    return {
      id: Number(r.id), docNo: String(r.docNo), docType: type, docTypeText: t?.title ?? type, targetId: Number(r.docId), targetDocNo: String(r.targetDocNo),
      targetRoute: t ? t.route(Number(r.docId), String(r.targetDocNo)) : null, fromStatus: from, fromStatusText: t ? statusText(t, from) : from,
      reason: String(r.reason), summary: text(r.summary), createdAt: text(r.createdAt), createdByName: text(r.createdByName),
      route: config.detailRoute(Number(r.id)),
    };
  }

  function withNames(tenant: Tenant) {
    return TypedTenant.of(tenant).select('repeal')
      .leftJoin('account as creator', (j) => j.onRef('creator.id', '=', 'repeal.createdBy').onRef('creator.companyId', '=', 'repeal.companyId'))
      .selectAll('repeal').select(['creator.userName as createdByName']);
  }

  return {
    config,
    types,
    blockers,
    listInput: {
      type: 'object',
      properties: {
        ...PAGING_PROPS,
        docNo: { type: ['string', 'null'], maxLength: 50, title: '单号' },
        docType: { enum: [...types, null], title: '单据类型' },
        dateFrom: { type: ['string', 'null'], maxLength: 10, title: '开始日期' },
        dateTo: { type: ['string', 'null'], maxLength: 10, title: '结束日期' },
      },
    } as InputSchema,

    /** What cancelling the document would undo and what stands in its way; shaped for the htmlPreview widget too. */
    async preview(ctx: CallContext, input: { docNo: string }) {
      const docNo = input.docNo.trim();
      const f = docNo ? await findTarget(ctx.tenant, docNo) : undefined;
      if (!f) {
        // An answer, not an error: the form asks while the number is being typed.
        const message = notFound(docNo).message;
        return { found: false, docNo, cancellable: false, message, blockers: [] as Blocker[], subject: '未找到单据', body: message, format: 'text' };
      }
      const t = config.targets[f.type];
      const d = await t.describe(ctx.tenant, f);
      const message = d.blockers.length
        ? `${d.effect}\n不能撤销：已有后续单据 ${d.blockers.map((b) => `${b.docTypeText} ${b.docNo}`).join('、')}，请先撤销后续单据`
        : d.effect;
      return {
        found: true, docType: f.type, docTypeText: t.title, id: f.id, docNo: f.docNo, status: f.status, statusText: statusText(t, f.status), route: t.route(f.id, f.docNo),
        cancellable: d.cancellable, effect: d.effect, blockers: d.blockers, message,
        subject: `${t.title} ${f.docNo}（${statusText(t, f.status)}）`, body: d.cancellable ? `撤销后：${message}` : message, format: 'text',
      };
    },

    /** Cancels the document numbered `docNo` and records the repeal with its reason, in one transaction. */
    async create(ctx: CallContext, input: { docNo: string; reason: string }, rights: CancelRights) {
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
        const t = config.targets[f.type];
        const summary = (await t.describe(tenant, f)).effect;
        if (t.beforeCancel) await t.beforeCancel(tenant, f, now);
        // The document's current state decides (no version: the repeal acts on the document as it is now).
        await t.cancel(joined(ctx, db, tenant), { id: f.id });
        // the number from the company's sequence, in this transaction (no temporary number)
        const number = await nextDocumentNo(db, tenant.companyId, config.prefix, tz(ctx));
        const inserted = await TypedTenant.of(tenant).insert('repeal', {
          docNo: number, docType: f.type, docId: f.id, targetDocNo: f.docNo, fromStatus: f.status,
          reason, summary, version: 1, createdAt: now, createdBy: caller.accountId, updatedAt: now, updatedBy: caller.accountId,
        }).returning('id').executeTakeFirstOrThrow();
        const id = Number(inserted.id);
        await ctx.audit({ action: 'create', entity: config.entity, recordId: id, recordLabel: number, changes: [
          { field: 'targetDocNo', title: '撤销单据', from: null, to: `${t.title} ${f.docNo}` },
          { field: 'fromStatus', title: '原状态', from: null, to: statusText(t, f.status) },
          { field: 'reason', title: '撤销原因', from: null, to: reason },
        ] }, db);
        return {
          id, docNo: number, docType: f.type, docTypeText: t.title, targetId: f.id, targetDocNo: f.docNo, fromStatus: f.status, fromStatusText: statusText(t, f.status),
          status: 'cancelled', summary, route: config.detailRoute(id), targetRoute: t.route(f.id, f.docNo),
        };
      });
    },

    async get(ctx: CallContext, id: number) {
      const r = await withNames(ctx.tenant).where('repeal.id', '=', id).where('repeal.docType', 'in', types).executeTakeFirst();
      if (!r) throw bizError('COMMON_NOT_FOUND_4004', { entity: config.title });
      const v = view(r);
      const t = config.targets[v.docType];
      // (the target's table, named at run time: the untyped view)
      const now: Row | undefined = await ctx.tenant.select(t.table).select('status').where('id', '=', v.targetId).executeTakeFirst();
      const status = now ? String(now.status) : null;
      return { ...v, targetStatus: status, targetStatusText: status ? statusText(t, status) : null };
    },

    async list(ctx: CallContext, input: RepealListInput) {
      const from = parseDay(input.dateFrom, 'dateFrom', '开始日期');
      const to = parseDay(input.dateTo, 'dateTo', '结束日期');
      let q = TypedTenant.of(ctx.tenant).select('repeal').where('repeal.docType', 'in', types);
      const docNo = input.docNo?.trim().replace(/[\\%_]/g, '');
      if (docNo) q = q.where((eb) => eb.or([eb('repeal.docNo', 'like', `%${docNo}%`), eb('repeal.targetDocNo', 'like', `%${docNo}%`)]));
      if (input.docType) q = q.where('repeal.docType', '=', input.docType);
      if (from) q = q.where('repeal.createdAt', '>=', companyDateRange(from, from, tz(ctx))[0]);
      if (to) q = q.where('repeal.createdAt', '<=', companyDateRange(to, to, tz(ctx))[1]);
      return newestFirstPage(q, 'repeal.id', namedRows(withNames(ctx.tenant), 'repeal.id'), view, input);
    },
  };
}

export type RepealDesk = ReturnType<typeof repealDesk>;

/** The right each target's own cancellation needs, read from the endpoint catalog by its handler. */
export function cancelRightsFrom(entries: Array<{ handler: string; permission: string; name: string }>, config: DeskConfig): CancelRights {
  const out: CancelRights = {};
  for (const [type, t] of Object.entries(config.targets)) {
    const e = entries.find((x) => x.handler === t.cancelHandler);
    if (!e) throw new Error(`repeal: no catalog entry binds ${t.cancelHandler}`);
    out[type] = { permission: e.permission, name: e.name };
  }
  return out;
}

/** A target served by the engine: title, table, statuses, route and cancellation read from its definition. */
export function engineTarget(def: { type: string; title: string; table: string; route: string; statuses: Record<string, { label: string }>; repeal?: Pick<TargetDef, 'columns' | 'describe'> },
  own?: Pick<TargetDef, 'columns' | 'describe'> & Partial<Pick<TargetDef, 'beforeCancel'>>): TargetDef {
  // the target's preview: given here, else the definition's own `repeal` declaration
  const rule = own ?? def.repeal;
  if (!rule) throw new Error(`repeal: ${def.type} declares no repeal preview`);
  return {
    title: def.title, table: def.table,
    statuses: Object.fromEntries(Object.entries(def.statuses).map(([k, v]) => [k, v.label])),
    route: (id, docNo) => def.route.replace('{id}', String(id)).replace('{docNo}', encodeURIComponent(docNo)),
    cancelHandler: `op:${def.type}.cancel`, cancel: engineCancel(def.type),
    columns: rule.columns, describe: rule.describe,
    ...(own?.beforeCancel ? { beforeCancel: own.beforeCancel } : {}),
  };
}
