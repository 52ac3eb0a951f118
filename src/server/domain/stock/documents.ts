// The first documents on the ledger: opening stock (期初库存单, `stock_init`) and stock adjustments
// (库存调整单, `stock_adjust`). One service serves both: draft → posted (or cancelled); a draft can be
// saved and posted in one call. Posting writes the document's moves through postMoves in the same
// transaction as the status change, so a document is on the ledger completely or not at all. Cancelling
// a posted document appends reversing moves (the ledger is never edited).
import crypto from 'node:crypto';
import { sql } from 'kysely';
import { parseFlags } from '../../../core/flags.ts';
import { companyDateRange } from '../../../core/format.ts';
import { splitUnits, toSmallUnits } from '../../../core/stock-units.ts';
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import type { DB } from '../../db/connection.ts';
import { ApiError, bizError, validationError, type FieldError } from '../../http/errors.ts';
import { realDate } from '../../resources/fields.ts';
import { nextDocumentNo } from '../sequence.ts';
import { MAX_MOVE_QTY, postMoves, type MoveKind, type StockMove } from './ledger.ts';
import { insertMany } from '../../db/raw-sql.ts';

type Row = Record<string, unknown>;

export interface DocKind {
  /** docType on the ledger and entity in the audit log */
  type: 'stockInit' | 'stockAdjust';
  title: string;
  header: string;
  line: string;
  /** the line table's SQL name */
  lineTable: string;
  /** document number prefix */
  prefix: string;
  moveKind: MoveKind;
  /** adjustments: quantities may be negative; opening stock: positive only */
  signed: boolean;
  /** adjustments carry a reason from the dictionary stockAdjustReason */
  reason: boolean;
}

export const STOCK_INIT: DocKind = { type: 'stockInit', title: '期初库存单', header: 'stockInit', line: 'stockInitLine', lineTable: 'stock_init_line', prefix: 'QC', moveKind: 'init', signed: false, reason: false };
export const STOCK_ADJUST: DocKind = { type: 'stockAdjust', title: '库存调整单', header: 'stockAdjust', line: 'stockAdjustLine', lineTable: 'stock_adjust_line', prefix: 'TZ', moveKind: 'adjust', signed: true, reason: true };
/** Every document type that writes stock moves, by docType (movements resolve their numbers here). */
export const STOCK_DOC_KINDS: Record<string, DocKind> = { stockInit: STOCK_INIT, stockAdjust: STOCK_ADJUST };

export const DOC_STATUS = { draft: '草稿', posted: '已过账', cancelled: '已作废' } as const;
export type DocStatus = keyof typeof DOC_STATUS;

/** Reasons used when the company has not defined its own dictionary `stockAdjustReason`. */
export const DEFAULT_ADJUST_REASONS = [
  { value: 'gain', label: '盘盈' },
  { value: 'loss', label: '盘亏' },
  { value: 'damage', label: '报损' },
  { value: 'sample', label: '样品领用' },
  { value: 'correction', label: '录入更正' },
  { value: 'other', label: '其他' },
];
export const ADJUST_REASON_DICT = 'stockAdjustReason';

export const MAX_DOC_LINES = 20_000;
const QTY = { type: ['integer', 'null'], minimum: -MAX_MOVE_QTY, maximum: MAX_MOVE_QTY };

export function saveInput(kind: DocKind): InputSchema {
  return {
    type: 'object',
    required: kind.reason ? ['warehouseId', 'reason', 'lines'] : ['warehouseId', 'lines'],
    properties: {
      id: { type: 'integer', minimum: 1, title: '单据' },
      version: { type: 'integer', minimum: 1, title: '版本' },
      warehouseId: { type: 'integer', minimum: 1, title: '仓库' },
      ...(kind.reason ? { reason: { type: 'string', minLength: 1, maxLength: 50, title: '调整原因' } } : {}),
      remark: { type: ['string', 'null'], maxLength: 500, title: '备注' },
      post: { type: 'boolean', default: false, title: '保存后立即过账' },
      lines: {
        type: 'array', minItems: 1, maxItems: MAX_DOC_LINES, title: '明细',
        items: {
          type: 'object', required: ['productId'],
          properties: {
            productId: { type: 'integer', minimum: 1, title: '商品' },
            locationId: { type: ['integer', 'null'], minimum: 1, title: '库位' },
            qty: { ...QTY, title: '数量（最小单位）' },
            big: { ...QTY, title: '大包装数' },
            mid: { ...QTY, title: '中包装数' },
            small: { ...QTY, title: '最小单位数' },
            remark: { type: ['string', 'null'], maxLength: 200, title: '备注' },
          },
        },
      },
    },
  };
}

export const ID_INPUT: InputSchema = {
  type: 'object', required: ['id'],
  properties: { id: { type: 'integer', minimum: 1, title: '单据' }, version: { type: 'integer', minimum: 1, title: '版本' } },
};

export const LIST_INPUT: InputSchema = {
  type: 'object',
  properties: {
    page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1, title: '页码' },
    pageSize: { type: 'integer', minimum: 1, maximum: 500, default: 20, title: '每页条数' },
    docNo: { type: ['string', 'null'], maxLength: 50, title: '单号' },
    warehouseId: { type: ['integer', 'null'], minimum: 1, title: '仓库' },
    status: { enum: ['draft', 'posted', 'cancelled', null], title: '状态' },
    reason: { type: ['string', 'null'], maxLength: 50, title: '调整原因' },
    dateFrom: { type: ['string', 'null'], maxLength: 10, title: '开始日期' },
    dateTo: { type: ['string', 'null'], maxLength: 10, title: '结束日期' },
  },
};

export interface LineInput {
  productId: number;
  locationId?: number | null;
  qty?: number | null;
  big?: number | null;
  mid?: number | null;
  small?: number | null;
  remark?: string | null;
}

export interface SaveInput {
  id?: number;
  version?: number;
  warehouseId: number;
  reason?: string;
  remark?: string | null;
  post?: boolean;
  lines: LineInput[];
}

interface CheckedLine {
  productId: number;
  locationId: number | null;
  qty: number;
  remark: string | null;
}

const tz = (ctx: CallContext) => ctx.caller?.company.timeZone ?? 8;
const text = (v: unknown) => (v === null || v === undefined ? null : String(v));

async function inChunks<T>(items: T[], size: number, fn: (chunk: T[]) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await fn(items.slice(i, i + size));
}

/** The company's adjustment reasons: its own dictionary when it has one, else the defaults. */
export async function adjustReasons(tenant: Tenant): Promise<Array<{ value: string; label: string }>> {
  const rows = (await tenant.select('dictItem').select(['value', 'label']).where('dictCode', '=', ADJUST_REASON_DICT).where('enabled', '=', 1)
    .orderBy('sort').orderBy('value').execute()) as Row[];
  return rows.length ? rows.map((r) => ({ value: String(r.value), label: String(r.label) })) : DEFAULT_ADJUST_REASONS;
}

export interface LineSource {
  /** position shown in messages: "第 n 行" (line number or spreadsheet row) */
  label: string;
  field: string;
}

/**
 * Checks a document's header and lines against the company's data (outside the posting transaction, for
 * messages that name the line; postMoves checks again inside it). Returns lines with small-unit quantities.
 */
export async function checkLines(ctx: CallContext, kind: DocKind, warehouseId: number, lines: LineInput[], sources?: LineSource[]): Promise<CheckedLine[]> {
  const tenant = ctx.tenant;
  const errors: FieldError[] = [];
  const at = (i: number) => sources?.[i] ?? { label: `第 ${i + 1} 行`, field: `lines.${i}` };
  const wh = (await tenant.select('warehouse').select(['id', 'name', 'enabled']).where('id', '=', warehouseId).executeTakeFirst()) as Row | undefined;
  if (!wh) throw validationError([{ field: 'warehouseId', message: '仓库不存在' }]);
  if (Number(wh.enabled) !== 1) throw bizError('STOCK_WAREHOUSE_DISABLED_4077', { warehouse: String(wh.name) });
  const products = new Map<number, Row>();
  await inChunks([...new Set(lines.map((l) => l.productId))], 500, async (ids) => {
    const rows = (await tenant.select('product').select(['id', 'code', 'bigQty', 'midQty', 'unitBig', 'unitMid', 'unitSmall']).where('id', 'in', ids).execute()) as Row[];
    for (const r of rows) products.set(Number(r.id), r);
  });
  const locations = new Map<number, Row>();
  await inChunks([...new Set(lines.map((l) => l.locationId).filter((x): x is number => typeof x === 'number'))], 500, async (ids) => {
    const rows = (await tenant.select('location').select(['id', 'warehouseId', 'lcCode', 'status']).where('id', 'in', ids).execute()) as Row[];
    for (const r of rows) locations.set(Number(r.id), r);
  });
  const company = await ctx.db.selectFrom('company').select('flags').where('id', '=', tenant.companyId).executeTakeFirst();
  const locationRequired = parseFlags(company?.flags).locationRequired;
  const seen = new Map<string, number>();
  const out: CheckedLine[] = [];
  lines.forEach((l, i) => {
    const { label, field } = at(i);
    const err = (f: string, message: string) => errors.push({ field: `${field}.${f}`, message: `${label}：${message}` });
    const p = products.get(l.productId);
    if (!p) { err('productId', '商品不存在'); return; }
    const loc = l.locationId ? locations.get(l.locationId) : undefined;
    if (l.locationId) {
      if (!loc) { err('locationId', '库位不存在'); return; }
      if (Number(loc.warehouseId) !== warehouseId) { err('locationId', `库位 ${String(loc.lcCode)} 不属于仓库 ${String(wh.name)}`); return; }
      if (loc.status !== 'enabled') { err('locationId', `库位 ${String(loc.lcCode)} 已锁定`); return; }
    } else if (locationRequired) { err('locationId', `商品 ${String(p.code)} 未指定库位（公司要求出入库指定库位）`); return; }
    const packs = { bigQty: Number(p.bigQty), midQty: Number(p.midQty) };
    const parts = l.big != null || l.mid != null || l.small != null;
    const qty = l.qty != null ? l.qty : parts ? toSmallUnits({ big: l.big, mid: l.mid, small: l.small }, packs) : undefined;
    if (qty === undefined) { err('qty', l.qty == null && !parts ? '数量不能为空' : '数量超出范围'); return; }
    if (Math.abs(qty) > MAX_MOVE_QTY) { err('qty', '数量超出范围'); return; }
    if (kind.signed ? qty === 0 : qty <= 0) { err('qty', kind.signed ? '调整数量不能为 0' : '期初数量必须大于 0'); return; }
    const key = `${l.productId}:${l.locationId ?? 0}`;
    const dup = seen.get(key);
    if (dup !== undefined) { err('productId', `商品 ${String(p.code)}${loc ? `（库位 ${String(loc.lcCode)}）` : ''}与${at(dup).label}重复，请合并为一行`); return; }
    seen.set(key, i);
    out.push({ productId: l.productId, locationId: l.locationId ?? null, qty, remark: l.remark ?? null });
  });
  if (errors.length) throw validationError(errors.slice(0, 200));
  return out;
}

function statusError(kind: DocKind, doc: Row, action: string): ApiError {
  const status = String(doc.status) as DocStatus;
  return bizError('STOCK_DOC_STATUS_4078', { doc: kind.title, docNo: String(doc.docNo), status: DOC_STATUS[status] ?? status, action }, { id: Number(doc.id), status });
}

/** Why a conditional header update changed nothing: not found, wrong status, or someone else's edit. */
async function refusal(kind: DocKind, tenant: Tenant, id: number, version: number | undefined, expected: DocStatus[], action: string): Promise<ApiError> {
  const doc = (await tenant.select(kind.header).select(['id', 'docNo', 'status', 'version']).where('id', '=', id).executeTakeFirst()) as Row | undefined;
  if (!doc) return bizError('COMMON_NOT_FOUND_4004', { entity: kind.title });
  if (!expected.includes(String(doc.status) as DocStatus)) return statusError(kind, doc, action);
  if (version !== undefined && Number(doc.version) !== version) return bizError('COMMON_VERSION_CONFLICT_4009', { entity: kind.title });
  return bizError('COMMON_VERSION_CONFLICT_4009', { entity: kind.title });
}

function movesOf(kind: DocKind, docId: number, lines: Array<{ lineNo: number; productId: number; locationId: number | null; qty: number }>, warehouseId: number, reverse = false): StockMove[] {
  return lines.map((l) => ({
    productId: l.productId, warehouseId, locationId: l.locationId, qty: reverse ? -l.qty : l.qty,
    kind: reverse ? 'reverse' : kind.moveKind, docType: kind.type, docId, docLine: l.lineNo,
  }));
}

async function insertLines(db: DB, companyId: number, kind: DocKind, docId: number, lines: CheckedLine[]): Promise<void> {
  await insertMany(db, kind.lineTable, ['company_id', 'doc_id', 'line_no', 'product_id', 'location_id', 'qty', 'remark'],
    lines.map((l, i) => [companyId, docId, i + 1, l.productId, l.locationId, l.qty, l.remark]));
}

export interface SaveResult {
  id: number;
  docNo: string;
  status: DocStatus;
  version: number;
  lineCount: number;
  totalQty: number;
}

/** Creates or updates a draft; with `post`, posts it in the same transaction. */
export async function saveDocument(ctx: CallContext, kind: DocKind, input: SaveInput, sources?: LineSource[]): Promise<SaveResult> {
  const caller = ctx.caller!;
  if (kind.reason) {
    const reasons = await adjustReasons(ctx.tenant);
    if (!reasons.some((r) => r.value === input.reason)) throw validationError([{ field: 'reason', message: `调整原因“${String(input.reason).slice(0, 50)}”不在可选范围内` }]);
  }
  if (input.id !== undefined && input.version === undefined) throw validationError([{ field: 'version', message: '版本不能为空，请刷新后重试' }]);
  const lines = await checkLines(ctx, kind, input.warehouseId, input.lines, sources);
  const totalQty = lines.reduce((s, l) => s + l.qty, 0);
  const post = input.post === true;
  const now = new Date().toISOString();
  return ctx.transaction(async (db, tenant) => {
    const header: Row = {
      warehouseId: input.warehouseId, remark: input.remark ?? null, lineCount: lines.length, totalQty,
      ...(kind.reason ? { reason: input.reason } : {}),
      ...(post ? { status: 'posted', postedAt: now, postedBy: caller.accountId } : {}),
      updatedAt: now, updatedBy: caller.accountId,
    };
    let id: number;
    let docNo: string;
    let version: number;
    if (input.id !== undefined) {
      // The first statement writes (on SQLite it takes the write lock before anything is read).
      const updated = (await tenant.update(kind.header).set({ ...header, version: sql`${sql.ref('version')} + 1` })
        .where('id', '=', input.id).where('status', '=', 'draft').where('version', '=', input.version!)
        .returning(['id', 'docNo', 'version']).executeTakeFirst()) as Row | undefined;
      if (!updated) throw await refusal(kind, tenant, input.id, input.version, ['draft'], '修改');
      id = Number(updated.id);
      docNo = String(updated.docNo);
      version = Number(updated.version);
      await tenant.delete(kind.line).where('docId', '=', id).execute();
    } else {
      // The number is taken last (below), so the company's sequence row is locked only briefly.
      const inserted = (await tenant.insert(kind.header, {
        // (a temporary unique number that sorts after real ones, so its index entry lands on the last page)
        ...header, docNo: `~${Date.now().toString(36)}${crypto.randomBytes(6).toString('hex')}`, status: header.status ?? 'draft',
        version: 1, createdAt: now, createdBy: caller.accountId,
      }).returning('id').executeTakeFirstOrThrow()) as Row;
      id = Number(inserted.id);
      docNo = '';
      version = 1;
    }
    await insertLines(db, tenant.companyId, kind, id, lines);
    if (post) {
      await postMoves(db, caller, movesOf(kind, id, lines.map((l, i) => ({ ...l, lineNo: i + 1 })), input.warehouseId));
    }
    if (!docNo) {
      docNo = await nextDocumentNo(db, tenant.companyId, kind.prefix, tz(ctx));
      await tenant.update(kind.header).set({ docNo }).where('id', '=', id).execute();
    }
    await ctx.audit({
      action: input.id !== undefined ? 'update' : 'create', entity: kind.type, recordId: id, recordLabel: docNo,
      changes: [
        { field: 'lineCount', title: '明细行数', from: null, to: lines.length },
        { field: 'totalQty', title: '数量合计', from: null, to: totalQty },
        ...(post ? [{ field: 'status', title: '状态', from: DOC_STATUS.draft, to: DOC_STATUS.posted }] : []),
      ],
    }, db);
    if (post) await ctx.audit({ action: 'post', entity: kind.type, recordId: id, recordLabel: docNo, changes: [{ field: 'status', title: '状态', from: DOC_STATUS.draft, to: DOC_STATUS.posted }] }, db);
    return { id, docNo, status: post ? 'posted' : 'draft', version, lineCount: lines.length, totalQty };
  });
}

async function docLines(tenant: Tenant, kind: DocKind, id: number) {
  const rows = (await tenant.select(kind.line).select(['lineNo', 'productId', 'locationId', 'qty']).where('docId', '=', id).orderBy('lineNo').execute()) as Row[];
  return rows.map((r) => ({ lineNo: Number(r.lineNo), productId: Number(r.productId), locationId: r.locationId == null ? null : Number(r.locationId), qty: Number(r.qty) }));
}

/** Posts a draft: status and moves in one transaction. */
export async function postDocument(ctx: CallContext, kind: DocKind, input: { id: number; version?: number }): Promise<SaveResult> {
  const caller = ctx.caller!;
  const now = new Date().toISOString();
  return ctx.transaction(async (db, tenant) => {
    let q = tenant.update(kind.header).set({ status: 'posted', postedAt: now, postedBy: caller.accountId, updatedAt: now, updatedBy: caller.accountId, version: sql`${sql.ref('version')} + 1` })
      .where('id', '=', input.id).where('status', '=', 'draft');
    if (input.version !== undefined) q = q.where('version', '=', input.version);
    const doc = (await q.returning(['id', 'docNo', 'version', 'warehouseId', 'lineCount', 'totalQty']).executeTakeFirst()) as Row | undefined;
    if (!doc) throw await refusal(kind, tenant, input.id, input.version, ['draft'], '过账');
    const lines = await docLines(tenant, kind, input.id);
    await postMoves(db, caller, movesOf(kind, input.id, lines, Number(doc.warehouseId)));
    await ctx.audit({ action: 'post', entity: kind.type, recordId: input.id, recordLabel: String(doc.docNo), changes: [{ field: 'status', title: '状态', from: DOC_STATUS.draft, to: DOC_STATUS.posted }] }, db);
    return { id: input.id, docNo: String(doc.docNo), status: 'posted', version: Number(doc.version), lineCount: Number(doc.lineCount), totalQty: Number(doc.totalQty) };
  });
}

/** Cancels a draft, or a posted document by appending reversing moves (refused when the stock is gone). */
export async function cancelDocument(ctx: CallContext, kind: DocKind, input: { id: number; version?: number }): Promise<SaveResult> {
  const caller = ctx.caller!;
  const now = new Date().toISOString();
  return ctx.transaction(async (db, tenant) => {
    const change = (from: DocStatus) => {
      let q = tenant.update(kind.header).set({ status: 'cancelled', cancelledAt: now, cancelledBy: caller.accountId, updatedAt: now, updatedBy: caller.accountId, version: sql`${sql.ref('version')} + 1` })
        .where('id', '=', input.id).where('status', '=', from);
      if (input.version !== undefined) q = q.where('version', '=', input.version);
      return q.returning(['id', 'docNo', 'version', 'warehouseId', 'lineCount', 'totalQty']).executeTakeFirst() as Promise<Row | undefined>;
    };
    // Writes first (SQLite write lock before any read); at most one of the two matches.
    let from: DocStatus = 'draft';
    let doc = await change('draft');
    if (!doc) { from = 'posted'; doc = await change('posted'); }
    if (!doc) throw await refusal(kind, tenant, input.id, input.version, ['draft', 'posted'], '作废');
    if (from === 'posted') {
      const lines = await docLines(tenant, kind, input.id);
      // Reversal of an adjustment that took stock out puts it back; of stock that came in, takes it out —
      // guarded like any other move, so stock already used elsewhere makes the cancellation fail.
      await postMoves(db, caller, movesOf(kind, input.id, lines, Number(doc.warehouseId), true));
    }
    await ctx.audit({ action: 'cancel', entity: kind.type, recordId: input.id, recordLabel: String(doc.docNo), changes: [{ field: 'status', title: '状态', from: DOC_STATUS[from], to: DOC_STATUS.cancelled }] }, db);
    return { id: input.id, docNo: String(doc.docNo), status: 'cancelled', version: Number(doc.version), lineCount: Number(doc.lineCount), totalQty: Number(doc.totalQty) };
  });
}

/** One document with its lines (product, location, quantities in big/mid/small). */
export async function getDocument(ctx: CallContext, kind: DocKind, id: number) {
  const tenant = ctx.tenant;
  const h = kind.header;
  const doc = (await tenant.select(h)
    .innerJoin('warehouse', (j) => j.onRef('warehouse.id', '=', `${h}.warehouseId`).onRef('warehouse.companyId', '=', `${h}.companyId`))
    .leftJoin('account as creator', (j) => j.onRef('creator.id', '=', `${h}.createdBy`).onRef('creator.companyId', '=', `${h}.companyId`))
    .leftJoin('account as poster', (j) => j.onRef('poster.id', '=', `${h}.postedBy`).onRef('poster.companyId', '=', `${h}.companyId`))
    .selectAll(h)
    .select(['warehouse.code as warehouseCode', 'warehouse.name as warehouseName', 'creator.userName as createdByName', 'poster.userName as postedByName'])
    .where(`${h}.id`, '=', id).executeTakeFirst()) as Row | undefined;
  if (!doc) throw bizError('COMMON_NOT_FOUND_4004', { entity: kind.title });
  const l = kind.line;
  const lines = (await tenant.select(l)
    .innerJoin('product', (j) => j.onRef('product.id', '=', `${l}.productId`).onRef('product.companyId', '=', `${l}.companyId`))
    .leftJoin('location', (j) => j.onRef('location.id', '=', `${l}.locationId`).onRef('location.companyId', '=', `${l}.companyId`))
    .select([`${l}.id`, `${l}.lineNo`, `${l}.productId`, `${l}.locationId`, `${l}.qty`, `${l}.remark`, 'product.code as productCode', 'product.name as productName',
      'product.specification', 'product.bigQty', 'product.midQty', 'product.unitBig', 'product.unitMid', 'product.unitSmall', 'location.lcCode'])
    .where(`${l}.docId`, '=', id).orderBy(`${l}.lineNo`).execute()) as Row[];
  const reasons = kind.reason ? await adjustReasons(tenant) : [];
  return {
    ...headerView(kind, doc, reasons),
    lines: lines.map((r) => ({
      id: Number(r.id), lineNo: Number(r.lineNo), productId: Number(r.productId), productCode: String(r.productCode), productName: String(r.productName),
      specification: text(r.specification), locationId: r.locationId == null ? null : Number(r.locationId), lcCode: text(r.lcCode),
      qty: Number(r.qty), units: splitUnits(Number(r.qty), { bigQty: Number(r.bigQty), midQty: Number(r.midQty), unitBig: text(r.unitBig), unitMid: text(r.unitMid), unitSmall: text(r.unitSmall) }),
      unitSmall: text(r.unitSmall), remark: text(r.remark),
    })),
  };
}

function headerView(kind: DocKind, r: Row, reasons: Array<{ value: string; label: string }>) {
  const status = String(r.status) as DocStatus;
  return {
    id: Number(r.id), docNo: String(r.docNo), docType: kind.type, warehouseId: Number(r.warehouseId), warehouseCode: text(r.warehouseCode), warehouseName: text(r.warehouseName),
    status, statusText: DOC_STATUS[status] ?? status,
    ...(kind.reason ? { reason: String(r.reason), reasonLabel: reasons.find((x) => x.value === r.reason)?.label ?? String(r.reason) } : {}),
    remark: text(r.remark), lineCount: Number(r.lineCount), totalQty: Number(r.totalQty), version: Number(r.version),
    createdAt: text(r.createdAt), createdBy: r.createdBy == null ? null : Number(r.createdBy), createdByName: text(r.createdByName),
    postedAt: text(r.postedAt), postedByName: text(r.postedByName), cancelledAt: text(r.cancelledAt),
  };
}

function dateBound(v: string | null | undefined, field: string, title: string): string | undefined {
  if (!v) return undefined;
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(v.trim());
  const d = m ? realDate(Number(m[1]), Number(m[2]), Number(m[3])) : undefined;
  if (!d) throw validationError([{ field, message: `${title}不是有效的日期（YYYY-MM-DD）` }]);
  return d;
}

export interface DocListInput {
  page: number;
  pageSize: number;
  docNo?: string | null;
  warehouseId?: number | null;
  status?: DocStatus | null;
  reason?: string | null;
  dateFrom?: string | null;
  dateTo?: string | null;
}

/** Documents of a kind, newest first, with filters. */
export async function listDocuments(ctx: CallContext, kind: DocKind, input: DocListInput) {
  const tenant = ctx.tenant;
  const h = kind.header;
  const from = dateBound(input.dateFrom, 'dateFrom', '开始日期');
  const to = dateBound(input.dateTo, 'dateTo', '结束日期');
  let where = tenant.select(h);
  const docNo = input.docNo?.trim();
  if (docNo) where = where.where(`${h}.docNo`, 'like', `%${docNo.replace(/[\\%_]/g, '')}%`);
  if (input.warehouseId) where = where.where(`${h}.warehouseId`, '=', input.warehouseId);
  if (input.status) where = where.where(`${h}.status`, '=', input.status);
  if (kind.reason && input.reason) where = where.where(`${h}.reason`, '=', input.reason);
  if (from) where = where.where(`${h}.createdAt`, '>=', companyDateRange(from, from, tz(ctx))[0]);
  if (to) where = where.where(`${h}.createdAt`, '<=', companyDateRange(to, to, tz(ctx))[1]);
  const counted = (await where.select((eb) => eb.fn.countAll().as('total')).executeTakeFirst()) as Row | undefined;
  const total = Number(counted?.total ?? 0);
  const offset = (input.page - 1) * input.pageSize;
  const rows = total > offset
    ? ((await where
      .innerJoin('warehouse', (j) => j.onRef('warehouse.id', '=', `${h}.warehouseId`).onRef('warehouse.companyId', '=', `${h}.companyId`))
      .leftJoin('account as creator', (j) => j.onRef('creator.id', '=', `${h}.createdBy`).onRef('creator.companyId', '=', `${h}.companyId`))
      .leftJoin('account as poster', (j) => j.onRef('poster.id', '=', `${h}.postedBy`).onRef('poster.companyId', '=', `${h}.companyId`))
      .selectAll(h)
      .select(['warehouse.code as warehouseCode', 'warehouse.name as warehouseName', 'creator.userName as createdByName', 'poster.userName as postedByName'])
      .orderBy(`${h}.id`, 'desc').limit(input.pageSize).offset(offset).execute()) as Row[])
    : [];
  const reasons = kind.reason ? await adjustReasons(tenant) : [];
  return { list: rows.map((r) => headerView(kind, r, reasons)), total, page: input.page, pageSize: input.pageSize };
}
