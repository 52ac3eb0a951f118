// Containers (集装箱, `container`) that inbound plans arrive in, and the withdrawing (卸柜) records written
// when one is unloaded. planned → arrived → unloading → unloaded; every step is one conditional UPDATE
// on the status (and the version when the caller sends it). The number is unique per company (checked
// first for a friendly message, enforced by the unique index against two clerks at once); the type must
// be one of the company's container types (company settings, /baseConfig/setConfig).
// Unloading writes one withdrawing record listing the lines of the plans (not cancelled) the container
// carried. Plans can be attached only while the container is planned or arrived: attaching claims the
// container row, so an unloading that runs at the same time sees every plan or refuses the attachment.
import crypto from 'node:crypto';
import { sql } from 'kysely';
import { splitUnits } from '../../../core/stock-units.ts';
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import { ApiError, bizError, validationError } from '../../http/errors.ts';
import { nextDocumentNo } from '../sequence.ts';
// (a cycle: inbound-plan.ts imports this file; PLAN_STATUS is only read when a request runs)
import { PLAN_STATUS } from './inbound-plan.ts';
import { insertMany } from '../../db/raw-sql.ts';
import {
  parseDay, statusError, text, tz, newestFirstPage, namedRows, type Row,
  PAGING_PROPS,
} from './common.ts';
import { TypedTenant, typed } from '../../db/typed.ts';

export const CONTAINER_TITLE = '集装箱';
export const CONTAINER_STATUS = { planned: '待到港', arrived: '已到港', unloading: '卸柜中', unloaded: '已卸柜' } as const;
export type ContainerStatus = keyof typeof CONTAINER_STATUS;
export const WITHDRAWING_TITLE = '卸柜记录';
export const WITHDRAWING_PREFIX = 'XG';
/** Plans may be put into a container only before it is being unloaded. */
export const LOADABLE: ContainerStatus[] = ['planned', 'arrived'];

export const CONTAINER_SAVE_INPUT: InputSchema = {
  type: 'object',
  required: ['containerNo', 'containerType'],
  properties: {
    id: { type: 'integer', minimum: 1, title: '集装箱' },
    version: { type: 'integer', minimum: 1, title: '版本' },
    containerNo: { type: 'string', minLength: 1, maxLength: 20, title: '集装箱号' },
    containerType: { type: 'string', minLength: 1, maxLength: 20, title: '柜型' },
    sealNo: { type: ['string', 'null'], maxLength: 30, title: '封条号' },
    eta: { type: ['string', 'null'], maxLength: 10, title: '预计到港日期' },
    remark: { type: ['string', 'null'], maxLength: 500, title: '备注' },
  },
};

export const CONTAINER_LIST_INPUT: InputSchema = {
  type: 'object',
  properties: {
    ...PAGING_PROPS,
    containerNo: { type: ['string', 'null'], maxLength: 20, title: '集装箱号' },
    containerType: { type: ['string', 'null'], maxLength: 20, title: '柜型' },
    status: { enum: [...Object.keys(CONTAINER_STATUS), null], title: '状态' },
    etaFrom: { type: ['string', 'null'], maxLength: 10, title: '预计到港开始日期' },
    etaTo: { type: ['string', 'null'], maxLength: 10, title: '预计到港结束日期' },
  },
};

export const UNLOAD_INPUT: InputSchema = {
  type: 'object',
  required: ['id'],
  properties: {
    id: { type: 'integer', minimum: 1, title: '集装箱' },
    version: { type: 'integer', minimum: 1, title: '版本' },
    finish: { type: 'boolean', default: true, title: '卸柜完成' },
    remark: { type: ['string', 'null'], maxLength: 500, title: '备注' },
  },
};

export const WITHDRAWING_LIST_INPUT: InputSchema = {
  type: 'object',
  properties: {
    ...PAGING_PROPS,
    containerId: { type: ['integer', 'null'], minimum: 1, title: '集装箱' },
    docNo: { type: ['string', 'null'], maxLength: 50, title: '单号' },
  },
};

export interface ContainerSaveInput {
  id?: number;
  version?: number;
  containerNo: string;
  containerType: string;
  sealNo?: string | null;
  eta?: string | null;
  remark?: string | null;
}

export interface ContainerListInput {
  page: number;
  pageSize: number;
  containerNo?: string | null;
  containerType?: string | null;
  status?: ContainerStatus | null;
  etaFrom?: string | null;
  etaTo?: string | null;
}

export interface WithdrawingListInput {
  page: number;
  pageSize: number;
  containerId?: number | null;
  docNo?: string | null;
}

const like = (v: string) => `%${v.replace(/[\\%_]/g, '')}%`;

function isUniqueViolation(e: unknown): boolean {
  const code = (e as { code?: string }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** The company's container types (company settings; an unreadable setting means none). */
export async function containerTypesOf(ctx: CallContext): Promise<string[]> {
  const row = await typed(ctx.db).selectFrom('company').select('containerTypes').where('id', '=', ctx.tenant.companyId).executeTakeFirst();
  try {
    const list = JSON.parse(String(row?.containerTypes || '[]')) as unknown;
    return Array.isArray(list) ? list.map(String) : [];
  } catch {
    return [];
  }
}

export const containerStatusError = (c: Row, action: string) =>
  statusError(CONTAINER_TITLE, CONTAINER_STATUS, { id: c.id, docNo: c.containerNo, status: c.status }, action);

/** Why a conditional container update changed nothing: not found, wrong status, or someone else's edit. */
async function refusal(untypedTenant: Tenant, id: number, version: number | undefined, expected: string[], action: string): Promise<ApiError> {
  const tenant = TypedTenant.of(untypedTenant);
  const c = await tenant.select('container').select(['id', 'containerNo', 'status', 'version']).where('id', '=', id).executeTakeFirst();
  if (!c) return bizError('COMMON_NOT_FOUND_4004', { entity: CONTAINER_TITLE });
  if (!expected.includes(String(c.status))) return containerStatusError(c, action);
  return bizError('COMMON_VERSION_CONFLICT_4009', { entity: CONTAINER_TITLE });
}

/**
 * Claims a container for a plan (inside the caller's transaction): it must exist and still take plans.
 * The claim is a conditional UPDATE, so it serialises with the container's unloading.
 */
export async function claimLoadableContainer(untypedTenant: Tenant, containerId: number, action: string): Promise<Row> {
  const tenant = TypedTenant.of(untypedTenant);
  const row = await tenant.update('container').set({ updatedAt: new Date().toISOString() }).where('id', '=', containerId).where('status', 'in', LOADABLE)
    .returning(['id', 'containerNo', 'status', 'eta']).executeTakeFirst();
  if (row) return row;
  const c = await tenant.select('container').select(['id', 'containerNo', 'status']).where('id', '=', containerId).executeTakeFirst();
  if (!c) throw validationError([{ field: 'containerId', message: '集装箱不存在' }]);
  throw containerStatusError(c, action);
}

/** Early, friendly check of a container for a plan (the transaction claims it again). */
export async function loadableContainer(untypedTenant: Tenant, containerId: number, action: string): Promise<Row> {
  const tenant = TypedTenant.of(untypedTenant);
  const c = await tenant.select('container').select(['id', 'containerNo', 'status', 'eta']).where('id', '=', containerId).executeTakeFirst();
  if (!c) throw validationError([{ field: 'containerId', message: '集装箱不存在' }]);
  if (!LOADABLE.includes(String(c.status) as ContainerStatus)) throw containerStatusError(c, action);
  return c;
}

export async function saveContainer(ctx: CallContext, input: ContainerSaveInput) {
  const caller = ctx.caller!;
  if (input.id !== undefined && input.version === undefined) throw validationError([{ field: 'version', message: '版本不能为空，请刷新后重试' }]);
  // Numbers are written in capitals (ISO 6346: four letters and seven digits); other layouts exist, so
  // only the characters are checked.
  const containerNo = input.containerNo.trim().toUpperCase();
  if (!/^[A-Z0-9][A-Z0-9-]{0,19}$/.test(containerNo)) throw validationError([{ field: 'containerNo', message: '集装箱号只能包含字母、数字和“-”' }]);
  const containerType = input.containerType.trim();
  const types = await containerTypesOf(ctx);
  if (!types.includes(containerType)) throw bizError('INBOUND_CONTAINER_TYPE_4113', { type: containerType, allowed: types.length ? types.join('、') : '无' }, { containerType, allowed: types });
  const eta = parseDay(input.eta, 'eta', '预计到港日期') ?? null;
  const values = { containerNo, containerType, sealNo: input.sealNo?.trim() || null, eta, remark: input.remark ?? null };
  const now = new Date().toISOString();
  const taken = async (tenant: Tenant) => {
    let q = tenant.select('container').select(['id', 'containerNo', 'status']).where('containerNo', '=', containerNo);
    if (input.id !== undefined) q = q.where('id', '!=', input.id);
    const other = await q.executeTakeFirst();
    const status = String(other?.status ?? '');
    return other ? bizError('INBOUND_CONTAINER_TAKEN_4112', { containerNo, status: CONTAINER_STATUS[status as ContainerStatus] ?? status }, { id: Number(other.id) }) : undefined;
  };
  try {
    return await ctx.transaction(async (db, untypedTenant) => {
      const tenant = TypedTenant.of(untypedTenant);
      // Another company's id is not found before anything is said about numbers.
      if (input.id !== undefined && !(await tenant.select('container').select('id').where('id', '=', input.id).executeTakeFirst())) {
        throw bizError('COMMON_NOT_FOUND_4004', { entity: CONTAINER_TITLE });
      }
      const clash = await taken(untypedTenant);
      if (clash) throw clash;
      let id: number;
      let version = 1;
      let status = 'planned';
      if (input.id !== undefined) {
        const updated = await tenant.update('container').set({ ...values, updatedAt: now, updatedBy: caller.accountId, version: sql`${sql.ref('version')} + 1` })
          .where('id', '=', input.id).where('version', '=', input.version!).where('status', '!=', 'unloaded')
          .returning(['id', 'version', 'status']).executeTakeFirst();
        if (!updated) throw await refusal(untypedTenant, input.id, input.version, ['planned', 'arrived', 'unloading'], '修改');
        id = Number(updated.id);
        version = Number(updated.version);
        status = String(updated.status);
      } else {
        const inserted = await tenant.insert('container', {
          ...values, status: 'planned', version: 1, createdAt: now, createdBy: caller.accountId, updatedAt: now, updatedBy: caller.accountId,
        }).returning('id').executeTakeFirstOrThrow();
        id = Number(inserted.id);
      }
      await ctx.audit({
        action: input.id !== undefined ? 'update' : 'create', entity: 'container', recordId: id, recordLabel: containerNo,
        changes: [
          { field: 'containerNo', title: '集装箱号', from: null, to: containerNo },
          { field: 'containerType', title: '柜型', from: null, to: containerType },
          { field: 'eta', title: '预计到港日期', from: null, to: eta },
        ],
      }, db);
      return { id, containerNo, status, version };
    });
  } catch (e) {
    // Two clerks entered the same number at once: the unique index stopped the second.
    if (isUniqueViolation(e)) throw (await taken(ctx.tenant)) ?? bizError('INBOUND_CONTAINER_TAKEN_4112', { containerNo, status: '-' });
    throw e;
  }
}

/** planned → arrived. */
export async function arriveContainer(ctx: CallContext, input: { id: number; version?: number }) {
  const caller = ctx.caller!;
  const now = new Date().toISOString();
  return ctx.transaction(async (db, untypedTenant) => {
    const tenant = TypedTenant.of(untypedTenant);
    let q = tenant.update('container').set({ status: 'arrived', arrivedAt: now, arrivedBy: caller.accountId, updatedAt: now, updatedBy: caller.accountId, version: sql`${sql.ref('version')} + 1` })
      .where('id', '=', input.id).where('status', '=', 'planned');
    if (input.version !== undefined) q = q.where('version', '=', input.version);
    const c = await q.returning(['id', 'containerNo', 'version']).executeTakeFirst();
    if (!c) throw await refusal(untypedTenant, input.id, input.version, ['planned'], '到港');
    await ctx.audit({ action: 'arrive', entity: 'container', recordId: input.id, recordLabel: String(c.containerNo), changes: [{ field: 'status', title: '状态', from: CONTAINER_STATUS.planned, to: CONTAINER_STATUS.arrived }] }, db);
    return { id: input.id, containerNo: String(c.containerNo), status: 'arrived' as const, version: Number(c.version) };
  });
}

/**
 * finish = false: arrived → unloading (unloading has started). finish (default): arrived or unloading →
 * unloaded, writing the withdrawing record of the plan lines the container carried.
 */
export async function unloadContainer(ctx: CallContext, input: { id: number; version?: number; finish?: boolean; remark?: string | null }) {
  const caller = ctx.caller!;
  const now = new Date().toISOString();
  const finish = input.finish !== false;
  return ctx.transaction(async (db, untypedTenant) => {
    const tenant = TypedTenant.of(untypedTenant);
    const from: ContainerStatus[] = finish ? ['arrived', 'unloading'] : ['arrived'];
    const to: ContainerStatus = finish ? 'unloaded' : 'unloading';
    let c: Row | undefined;
    let was: ContainerStatus | undefined;
    for (const f of from) {
      let q = tenant.update('container').set({
        status: to, ...(finish ? { unloadedAt: now, unloadedBy: caller.accountId } : { unloadingAt: now }), updatedAt: now, updatedBy: caller.accountId,
        version: sql`${sql.ref('version')} + 1`,
      }).where('id', '=', input.id).where('status', '=', f);
      if (input.version !== undefined) q = q.where('version', '=', input.version);
      c = await q.returning(['id', 'containerNo', 'version']).executeTakeFirst();
      if (c) { was = f; break; }
    }
    if (!c || !was) throw await refusal(untypedTenant, input.id, input.version, from, finish ? '卸柜' : '开始卸柜');
    await ctx.audit({ action: finish ? 'unload' : 'startUnloading', entity: 'container', recordId: input.id, recordLabel: String(c.containerNo), changes: [{ field: 'status', title: '状态', from: CONTAINER_STATUS[was], to: CONTAINER_STATUS[to] }] }, db);
    const result = { id: input.id, containerNo: String(c.containerNo), status: to, version: Number(c.version), withdrawingId: null as number | null, withdrawingDocNo: null as string | null, totalQty: 0 };
    if (!finish) return result;
    const lines = await tenant.select('inboundPlanLine')
      .innerJoin('inboundPlan', (j) => j.onRef('inboundPlan.id', '=', 'inboundPlanLine.planId').onRef('inboundPlan.companyId', '=', 'inboundPlanLine.companyId'))
      .select(['inboundPlanLine.id', 'inboundPlanLine.planId', 'inboundPlanLine.orderLineId', 'inboundPlanLine.productId', 'inboundPlanLine.qty'])
      .where('inboundPlan.containerId', '=', input.id).where('inboundPlan.status', '!=', 'cancelled')
      .orderBy('inboundPlanLine.planId').orderBy('inboundPlanLine.lineNo').execute();
    const totalQty = lines.reduce((s, l) => s + Number(l.qty), 0);
    const inserted = await tenant.insert('containerWithdrawing', {
      docNo: `~${Date.now().toString(36)}${crypto.randomBytes(6).toString('hex')}`, containerId: input.id, remark: input.remark ?? null, lineCount: lines.length, totalQty,
      version: 1, createdAt: now, createdBy: caller.accountId, updatedAt: now, updatedBy: caller.accountId,
    }).returning('id').executeTakeFirstOrThrow();
    const wid = Number(inserted.id);
    await insertMany(db, 'container_withdrawing_line', ['company_id', 'withdrawing_id', 'line_no', 'plan_id', 'plan_line_id', 'order_line_id', 'product_id', 'qty'],
      lines.map((l, i) => [tenant.companyId, wid, i + 1, Number(l.planId), Number(l.id), Number(l.orderLineId), Number(l.productId), Number(l.qty)]));
    const docNo = await nextDocumentNo(db, tenant.companyId, WITHDRAWING_PREFIX, tz(ctx));
    await tenant.update('containerWithdrawing').set({ docNo }).where('id', '=', wid).execute();
    await ctx.audit({ action: 'create', entity: 'containerWithdrawing', recordId: wid, recordLabel: docNo, changes: [{ field: 'totalQty', title: '卸柜数量', from: null, to: totalQty }] }, db);
    return { ...result, withdrawingId: wid, withdrawingDocNo: docNo, totalQty };
  });
}

function containerView(r: Row) {
  const status = String(r.status) as ContainerStatus;
  return {
    id: Number(r.id), containerNo: String(r.containerNo), containerType: String(r.containerType), sealNo: text(r.sealNo), eta: text(r.eta),
    status, statusText: CONTAINER_STATUS[status] ?? status, remark: text(r.remark),
    arrivedAt: text(r.arrivedAt), unloadingAt: text(r.unloadingAt), unloadedAt: text(r.unloadedAt),
    planCount: Number(r.planCount ?? 0), totalQty: Number(r.totalQty ?? 0),
    version: Number(r.version), createdAt: text(r.createdAt), createdByName: text(r.createdByName), updatedAt: text(r.updatedAt),
    route: `/entrepot/containerDetail/${Number(r.id)}`,
  };
}

/** Containers with their creator and, per container, the plans (not cancelled) and their quantity. */
async function containerRows(untypedTenant: Tenant, ids: number[]): Promise<Row[]> {
  const tenant = TypedTenant.of(untypedTenant);
  if (!ids.length) return [];
  const rows = await tenant.select('container')
    .leftJoin('account as creator', (j) => j.onRef('creator.id', '=', 'container.createdBy').onRef('creator.companyId', '=', 'container.companyId'))
    .selectAll('container').select(['creator.userName as createdByName'])
    .where('container.id', 'in', ids).orderBy('container.id', 'desc').execute();
  const sums = await tenant.select('inboundPlan').select((eb) => ['inboundPlan.containerId', eb.fn.countAll().as('planCount'), eb.fn.sum('inboundPlan.totalQty').as('totalQty')])
    .where('inboundPlan.containerId', 'in', ids).where('inboundPlan.status', '!=', 'cancelled').groupBy('inboundPlan.containerId').execute();
  const byId = new Map(sums.map((s) => [Number(s.containerId), s]));
  return rows.map((r) => ({ ...r, planCount: byId.get(Number(r.id))?.planCount ?? 0, totalQty: byId.get(Number(r.id))?.totalQty ?? 0 }));
}

export async function listContainers(ctx: CallContext, input: ContainerListInput) {
  const from = parseDay(input.etaFrom, 'etaFrom', '预计到港开始日期');
  const to = parseDay(input.etaTo, 'etaTo', '预计到港结束日期');
  let q = TypedTenant.of(ctx.tenant).select('container');
  const no = input.containerNo?.trim();
  if (no) q = q.where('container.containerNo', 'like', like(no.toUpperCase()));
  if (input.containerType?.trim()) q = q.where('container.containerType', '=', input.containerType.trim());
  if (input.status) q = q.where('container.status', '=', input.status);
  if (from) q = q.where('container.eta', '>=', from);
  if (to) q = q.where('container.eta', '<=', to);
  return newestFirstPage(q, 'container.id', (ids) => containerRows(ctx.tenant, ids), containerView, input);
}

/** One container with the plans it carries and its withdrawing records. */
export async function getContainer(ctx: CallContext, id: number) {
  const tenant = TypedTenant.of(ctx.tenant);
  const [row] = await containerRows(ctx.tenant, [id]);
  if (!row) throw bizError('COMMON_NOT_FOUND_4004', { entity: CONTAINER_TITLE });
  const plans = await tenant.select('inboundPlan')
    .innerJoin('purchaseOrder', (j) => j.onRef('purchaseOrder.id', '=', 'inboundPlan.orderId').onRef('purchaseOrder.companyId', '=', 'inboundPlan.companyId'))
    .innerJoin('supplier', (j) => j.onRef('supplier.id', '=', 'purchaseOrder.supplierId').onRef('supplier.companyId', '=', 'inboundPlan.companyId'))
    .select(['inboundPlan.id', 'inboundPlan.docNo', 'inboundPlan.status', 'inboundPlan.expectedDate', 'inboundPlan.lineCount', 'inboundPlan.totalQty',
      'purchaseOrder.docNo as orderDocNo', 'supplier.name as supplierName'])
    .where('inboundPlan.containerId', '=', id).orderBy('inboundPlan.id').execute();
  const withdrawings = await tenant.select('containerWithdrawing').select(['id', 'docNo', 'lineCount', 'totalQty', 'createdAt'])
    .where('containerId', '=', id).orderBy('id').execute();
  return {
    ...containerView(row),
    plans: plans.map((p) => ({
      id: Number(p.id), docNo: String(p.docNo), status: String(p.status), statusText: (PLAN_STATUS as Record<string, string>)[String(p.status)] ?? String(p.status),
      expectedDate: text(p.expectedDate), orderDocNo: String(p.orderDocNo), supplierName: String(p.supplierName), lineCount: Number(p.lineCount), totalQty: Number(p.totalQty),
      route: `/procurement/treasuryPlanDetail/${Number(p.id)}`,
    })),
    withdrawings: withdrawings.map((w) => ({
      id: Number(w.id), docNo: String(w.docNo), lineCount: Number(w.lineCount), totalQty: Number(w.totalQty), createdAt: text(w.createdAt), route: `/entrepot/withdrawingRecord/${Number(w.id)}`,
    })),
  };
}

/** Choices for a plan's container: containers that still take plans. */
export async function containerOptions(ctx: CallContext, input: { keyword?: string | null }) {
  let q = TypedTenant.of(ctx.tenant).select('container').select(['id', 'containerNo', 'containerType', 'status', 'eta']).where('status', 'in', LOADABLE);
  const k = input.keyword?.trim();
  if (k) q = q.where('containerNo', 'like', like(k.toUpperCase()));
  const rows = await q.orderBy('id', 'desc').limit(200).execute();
  return rows.map((r) => ({
    value: Number(r.id), label: `${String(r.containerNo)}（${String(r.containerType)}，${CONTAINER_STATUS[String(r.status) as ContainerStatus]}）`,
    containerNo: String(r.containerNo), containerType: String(r.containerType), status: String(r.status), eta: text(r.eta),
  }));
}

export async function containerTypeOptions(ctx: CallContext) {
  return (await containerTypesOf(ctx)).map((t) => ({ value: t, label: t }));
}

function withdrawingView(r: Row) {
  return {
    id: Number(r.id), docNo: String(r.docNo), containerId: Number(r.containerId), containerNo: text(r.containerNo), containerType: text(r.containerType),
    lineCount: Number(r.lineCount), totalQty: Number(r.totalQty), remark: text(r.remark),
    createdAt: text(r.createdAt), createdByName: text(r.createdByName), route: `/entrepot/withdrawingRecord/${Number(r.id)}`,
  };
}

function withdrawingNames(untypedTenant: Tenant) {
  const tenant = TypedTenant.of(untypedTenant);
  const h = 'containerWithdrawing';
  return tenant.select(h)
    .innerJoin('container', (j) => j.onRef('container.id', '=', `${h}.containerId`).onRef('container.companyId', '=', `${h}.companyId`))
    .leftJoin('account as creator', (j) => j.onRef('creator.id', '=', `${h}.createdBy`).onRef('creator.companyId', '=', `${h}.companyId`))
    .selectAll(h).select(['container.containerNo', 'container.containerType', 'creator.userName as createdByName']);
}

export async function listWithdrawings(ctx: CallContext, input: WithdrawingListInput) {
  let q = TypedTenant.of(ctx.tenant).select('containerWithdrawing');
  if (input.containerId) q = q.where('containerWithdrawing.containerId', '=', input.containerId);
  const docNo = input.docNo?.trim();
  if (docNo) q = q.where('containerWithdrawing.docNo', 'like', like(docNo));
  return newestFirstPage(q, 'containerWithdrawing.id', namedRows(withdrawingNames(ctx.tenant), 'containerWithdrawing.id'), withdrawingView, input);
}

export async function getWithdrawing(ctx: CallContext, id: number) {
  const tenant = TypedTenant.of(ctx.tenant);
  const doc = await withdrawingNames(ctx.tenant).where('containerWithdrawing.id', '=', id).executeTakeFirst();
  if (!doc) throw bizError('COMMON_NOT_FOUND_4004', { entity: WITHDRAWING_TITLE });
  const l = 'containerWithdrawingLine';
  const lines = await tenant.select(l)
    .innerJoin('inboundPlan as plan', (j) => j.onRef('plan.id', '=', `${l}.planId`).onRef('plan.companyId', '=', `${l}.companyId`))
    .innerJoin('purchaseOrder as po', (j) => j.onRef('po.id', '=', 'plan.orderId').onRef('po.companyId', '=', `${l}.companyId`))
    .innerJoin('purchaseOrderLine as ol', (j) => j.onRef('ol.id', '=', `${l}.orderLineId`).onRef('ol.companyId', '=', `${l}.companyId`))
    .innerJoin('product', (j) => j.onRef('product.id', '=', `${l}.productId`).onRef('product.companyId', '=', `${l}.companyId`))
    .select([`${l}.id`, `${l}.lineNo`, `${l}.planId`, `${l}.planLineId`, `${l}.orderLineId`, `${l}.productId`, `${l}.qty`,
      'plan.docNo as planDocNo', 'po.docNo as orderDocNo', 'ol.lineNo as orderLineNo',
      'product.code as productCode', 'product.name as productName', 'product.specification', 'product.bigQty', 'product.midQty', 'product.unitBig', 'product.unitMid', 'product.unitSmall'])
    .where(`${l}.withdrawingId`, '=', id).orderBy(`${l}.lineNo`).execute();
  return {
    ...withdrawingView(doc),
    lines: lines.map((r) => ({
      id: Number(r.id), lineNo: Number(r.lineNo), planId: Number(r.planId), planDocNo: String(r.planDocNo), planLineId: Number(r.planLineId),
      orderDocNo: String(r.orderDocNo), orderLineId: Number(r.orderLineId), orderLineNo: Number(r.orderLineNo), productId: Number(r.productId),
      productCode: String(r.productCode), productName: String(r.productName), specification: text(r.specification), unitSmall: text(r.unitSmall),
      qty: Number(r.qty), units: splitUnits(Number(r.qty), { bigQty: Number(r.bigQty), midQty: Number(r.midQty), unitBig: text(r.unitBig), unitMid: text(r.unitMid), unitSmall: text(r.unitSmall) }),
    })),
  };
}
