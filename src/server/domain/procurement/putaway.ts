// Putaways (上架单, `putaway` + lines): received goods from the receiving place (the receiving line's
// location, or none) to storage locations, suggested from default_location (product × warehouse) and
// overridable. draft → posted → cancelled. Posting, in one transaction: the status (conditional UPDATE),
// the receiving note claimed while posted (a conditional UPDATE: its cancellation and this posting
// serialise), each receiving line's put-away quantity by a conditional UPDATE that cannot pass the
// accepted quantity (PURCHASE_PUTAWAY_OVER_4095), and two moves per line — out of the source, into the
// target — in one postMoves call. Cancelling a posted putaway moves the goods back (guarded by the ledger).
import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import type { DB } from '../../db/connection.ts';
import { bizError, validationError, type FieldError } from '../../http/errors.ts';
import { nextDocumentNo } from '../sequence.ts';
import { MAX_MOVE_QTY, postMoves, type StockMove } from '../stock/ledger.ts';
import { addGuarded, insertMany } from '../../db/raw-sql.ts';
import { companyDateRange } from '../../../core/format.ts';
import { DOC_STATUS, namedRows, newestFirstPage, PAGING_PROPS, parseDay, refusal, statusError, text, tz, type DocStatus, type Row } from './common.ts';
import { RN_TITLE } from './receiving.ts';

export const DOC_LIST_INPUT: InputSchema = {
  type: 'object',
  properties: {
    ...PAGING_PROPS,
    docNo: { type: ['string', 'null'], maxLength: 50, title: '单号' },
    warehouseId: { type: ['integer', 'null'], minimum: 1, title: '仓库' },
    status: { enum: ['draft', 'posted', 'cancelled', null], title: '状态' },
    dateFrom: { type: ['string', 'null'], maxLength: 10, title: '开始日期' },
    dateTo: { type: ['string', 'null'], maxLength: 10, title: '结束日期' },
  },
};

export interface DocListInput {
  page: number;
  pageSize: number;
  docNo?: string | null;
  warehouseId?: number | null;
  status?: DocStatus | null;
  dateFrom?: string | null;
  dateTo?: string | null;
}

export interface DocResult {
  id: number;
  docNo: string;
  status: DocStatus;
  version: number;
  totalQty: number;
}

/** Newest first, with filters. */
export async function listDocs(ctx: CallContext, table: 'putaway', input: DocListInput, view: (r: Row) => unknown, names: (t: Tenant) => ReturnType<Tenant['select']>) {
  const from = parseDay(input.dateFrom, 'dateFrom', '开始日期');
  const to = parseDay(input.dateTo, 'dateTo', '结束日期');
  let q = ctx.tenant.select(table);
  const docNo = input.docNo?.trim();
  if (docNo) q = q.where(`${table}.docNo`, 'like', `%${docNo.replace(/[\\%_]/g, '')}%`);
  if (input.warehouseId) q = q.where(`${table}.warehouseId`, '=', input.warehouseId);
  if (input.status) q = q.where(`${table}.status`, '=', input.status);
  if (from) q = q.where(`${table}.createdAt`, '>=', companyDateRange(from, from, tz(ctx))[0]);
  if (to) q = q.where(`${table}.createdAt`, '<=', companyDateRange(to, to, tz(ctx))[1]);
  return newestFirstPage(q, `${table}.id`, namedRows(names(ctx.tenant), `${table}.id`), view, input);
}

export const PA_TITLE = '上架单';
export const PA_PREFIX = 'SJ';

export const PA_SAVE_INPUT: InputSchema = {
  type: 'object',
  required: ['receivingNoteId'],
  properties: {
    id: { type: 'integer', minimum: 1, title: '上架单' },
    version: { type: 'integer', minimum: 1, title: '版本' },
    receivingNoteId: { type: 'integer', minimum: 1, title: '收货单' },
    remark: { type: ['string', 'null'], maxLength: 500, title: '备注' },
    post: { type: 'boolean', default: false, title: '保存后立即过账' },
    lines: {
      type: 'array', minItems: 1, maxItems: 2000, title: '明细',
      items: {
        type: 'object', required: ['receivingLineId'],
        properties: {
          receivingLineId: { type: 'integer', minimum: 1, title: '收货明细' },
          toLocationId: { type: ['integer', 'null'], minimum: 1, title: '上架库位' },
          qty: { type: ['integer', 'null'], minimum: 1, maximum: MAX_MOVE_QTY, title: '上架数量' },
          remark: { type: ['string', 'null'], maxLength: 200, title: '备注' },
        },
      },
    },
  },
};

export interface PaSaveInput {
  id?: number;
  version?: number;
  receivingNoteId: number;
  remark?: string | null;
  post?: boolean;
  /** omitted: every receiving line's open quantity to its suggested location */
  lines?: Array<{ receivingLineId: number; toLocationId?: number | null; qty?: number | null; remark?: string | null }>;
}

interface CheckedLine {
  receivingLineId: number;
  productId: number;
  fromLocationId: number | null;
  toLocationId: number;
  qty: number;
  remark: string | null;
}

/** The note's lines with what is left to put away and the suggested location of each. */
export async function suggestPutaway(ctx: CallContext, receivingNoteId: number) {
  const tenant = ctx.tenant;
  const note = (await tenant.select('receivingNote').select(['id', 'docNo', 'status', 'warehouseId']).where('id', '=', receivingNoteId).executeTakeFirst()) as Row | undefined;
  if (!note) throw bizError('COMMON_NOT_FOUND_4004', { entity: RN_TITLE });
  const l = 'receivingNoteLine';
  const rows = (await tenant.select(l)
    .innerJoin('product', (j) => j.onRef('product.id', '=', `${l}.productId`).onRef('product.companyId', '=', `${l}.companyId`))
    .leftJoin('location as src', (j) => j.onRef('src.id', '=', `${l}.locationId`).onRef('src.companyId', '=', `${l}.companyId`))
    .leftJoin('defaultLocation as dl', (j) => j.onRef('dl.productId', '=', `${l}.productId`).onRef('dl.companyId', '=', `${l}.companyId`).on('dl.warehouseId', '=', Number(note.warehouseId)))
    .leftJoin('location as dst', (j) => j.onRef('dst.id', '=', 'dl.locationId').onRef('dst.companyId', '=', `${l}.companyId`))
    .select([`${l}.id`, `${l}.lineNo`, `${l}.productId`, `${l}.locationId`, `${l}.qty`, `${l}.putawayQty`, 'product.code as productCode', 'product.name as productName',
      'src.lcCode as fromLcCode', 'dl.locationId as suggestedLocationId', 'dst.lcCode as suggestedLcCode', 'dst.status as suggestedStatus'])
    .where(`${l}.noteId`, '=', receivingNoteId).orderBy(`${l}.lineNo`).execute()) as Row[];
  return {
    receivingNoteId, docNo: String(note.docNo), status: String(note.status), warehouseId: Number(note.warehouseId),
    lines: rows.map((r) => ({
      receivingLineId: Number(r.id), lineNo: Number(r.lineNo), productId: Number(r.productId), productCode: String(r.productCode), productName: String(r.productName),
      fromLocationId: r.locationId == null ? null : Number(r.locationId), fromLcCode: text(r.fromLcCode),
      receivedQty: Number(r.qty), putawayQty: Number(r.putawayQty), openQty: Math.max(0, Number(r.qty) - Number(r.putawayQty)),
      suggestedLocationId: r.suggestedLocationId == null || r.suggestedStatus !== 'enabled' ? null : Number(r.suggestedLocationId), suggestedLcCode: text(r.suggestedLcCode),
    })),
  };
}

async function checkPutaway(ctx: CallContext, input: PaSaveInput) {
  const s = await suggestPutaway(ctx, input.receivingNoteId);
  if (s.status !== 'posted') throw statusError(RN_TITLE, DOC_STATUS, { id: input.receivingNoteId, docNo: s.docNo, status: s.status }, '上架');
  const byId = new Map(s.lines.map((l) => [l.receivingLineId, l]));
  const wanted = input.lines ?? s.lines.filter((l) => l.openQty > 0).map((l) => ({ receivingLineId: l.receivingLineId, toLocationId: null, qty: null, remark: null }));
  if (!wanted.length) throw validationError([{ field: 'lines', message: `收货单 ${s.docNo} 已全部上架` }]);
  const locIds = [...new Set(wanted.map((w) => w.toLocationId).filter((x): x is number => typeof x === 'number'))];
  const locations = new Map<number, Row>();
  if (locIds.length) for (const r of (await ctx.tenant.select('location').select(['id', 'warehouseId', 'lcCode', 'status']).where('id', 'in', locIds).execute()) as Row[]) locations.set(Number(r.id), r);
  const errors: FieldError[] = [];
  const out: CheckedLine[] = [];
  const per = new Map<number, number>();
  wanted.forEach((w, i) => {
    const err = (f: string, message: string) => errors.push({ field: `lines.${i}.${f}`, message: `第 ${i + 1} 行：${message}` });
    const rl = byId.get(w.receivingLineId);
    if (!rl) throw bizError('PURCHASE_LINE_MISMATCH_4098', { doc: PA_TITLE, line: i + 1, source: RN_TITLE, docNo: s.docNo }, { line: i + 1, receivingLineId: w.receivingLineId });
    const to = w.toLocationId ?? rl.suggestedLocationId;
    if (!to) { err('toLocationId', `商品 ${rl.productCode} 没有默认库位，请选择上架库位`); return; }
    if (w.toLocationId) {
      const loc = locations.get(w.toLocationId);
      if (!loc) { err('toLocationId', '库位不存在'); return; }
      if (Number(loc.warehouseId) !== s.warehouseId) { err('toLocationId', `库位 ${String(loc.lcCode)} 不属于收货仓库`); return; }
      if (loc.status !== 'enabled') { err('toLocationId', `库位 ${String(loc.lcCode)} 已锁定`); return; }
    }
    if (to === rl.fromLocationId) { err('toLocationId', '上架库位与收货库位相同'); return; }
    const qty = w.qty ?? rl.openQty;
    const sum = (per.get(rl.receivingLineId) ?? 0) + qty;
    per.set(rl.receivingLineId, sum);
    if (qty <= 0 || sum > rl.openQty) {
      throw bizError('PURCHASE_PUTAWAY_OVER_4095', { docNo: s.docNo, line: rl.lineNo, code: rl.productCode, received: rl.receivedQty, done: rl.putawayQty, qty: sum },
        { receivingLineId: rl.receivingLineId, lineNo: rl.lineNo, received: rl.receivedQty, done: rl.putawayQty, qty: sum });
    }
    out.push({ receivingLineId: rl.receivingLineId, productId: rl.productId, fromLocationId: rl.fromLocationId, toLocationId: to, qty, remark: w.remark ?? null });
  });
  if (errors.length) throw validationError(errors.slice(0, 200));
  // Read through the company's scope; the receiving lines reference them.
  const products = new Map(s.lines.map((l) => [l.productId, l.productCode]));
  return { warehouseId: s.warehouseId, noteDocNo: s.docNo, lines: out, products };
}

async function putawayLines(tenant: Tenant, id: number) {
  return ((await tenant.select('putawayLine').select(['lineNo', 'receivingLineId', 'productId', 'fromLocationId', 'toLocationId', 'qty']).where('putawayId', '=', id).orderBy('lineNo').execute()) as Row[])
    .map((r) => ({
      lineNo: Number(r.lineNo), receivingLineId: Number(r.receivingLineId), productId: Number(r.productId),
      fromLocationId: r.fromLocationId == null ? null : Number(r.fromLocationId), toLocationId: Number(r.toLocationId), qty: Number(r.qty),
    }));
}

function movesOf(id: number, warehouseId: number, lines: Awaited<ReturnType<typeof putawayLines>>, reverse: boolean): StockMove[] {
  const sign = reverse ? -1 : 1;
  const kind = reverse ? 'reverse' : 'putaway';
  return lines.flatMap((l) => [
    { productId: l.productId, warehouseId, locationId: l.fromLocationId, qty: -sign * l.qty, kind, docType: 'putaway', docId: id, docLine: l.lineNo },
    { productId: l.productId, warehouseId, locationId: l.toLocationId, qty: sign * l.qty, kind, docType: 'putaway', docId: id, docLine: l.lineNo },
  ] as StockMove[]);
}

type PutawayLine = Awaited<ReturnType<typeof putawayLines>>[number];

/** `saved`: the lines this transaction has just written (saves reading them back). */
async function applyPutaway(ctx: CallContext, db: DB, tenant: Tenant, id: number, noteId: number, warehouseId: number, reverse: boolean,
  saved?: { lines: PutawayLine[]; products: ReadonlyMap<number, string> }): Promise<void> {
  // Claim the receiving note while it is posted (its cancellation takes the same row).
  const note = (await tenant.update('receivingNote').set({ updatedAt: new Date().toISOString() }).where('id', '=', noteId).where('status', '=', 'posted')
    .returning(['id', 'docNo']).executeTakeFirst()) as Row | undefined;
  if (!note) {
    const doc = (await tenant.select('receivingNote').select(['id', 'docNo', 'status']).where('id', '=', noteId).executeTakeFirst()) as Row | undefined;
    if (!doc) throw bizError('COMMON_NOT_FOUND_4004', { entity: RN_TITLE });
    throw statusError(RN_TITLE, DOC_STATUS, doc, '上架');
  }
  const lines = saved?.lines ?? await putawayLines(tenant, id);
  const per = new Map<number, number>();
  for (const l of lines) per.set(l.receivingLineId, (per.get(l.receivingLineId) ?? 0) + l.qty);
  // Every receiving line's conditional update in one statement; a line it does not return was refused.
  const changes = [...per.entries()].sort((a, b) => a[0] - b[0]);
  const passed = await addGuarded(db, {
    table: 'receiving_note_line', column: 'putaway_qty', companyId: tenant.companyId, where: 'note_id = ?', whereParams: [noteId],
    changes: changes.map(([lineId, d]) => [lineId, reverse ? -d : d]),
    guard: reverse ? 'putaway_qty + v.d >= 0' : 'putaway_qty + v.d <= qty',
  });
  for (const [lineId, d] of changes) {
    if (!passed.has(lineId)) {
      const rl = (await tenant.select('receivingNoteLine').innerJoin('product', (j) => j.onRef('product.id', '=', 'receivingNoteLine.productId'))
        .select(['receivingNoteLine.lineNo', 'receivingNoteLine.qty', 'receivingNoteLine.putawayQty', 'product.code']).where('receivingNoteLine.id', '=', lineId).executeTakeFirst()) as Row | undefined;
      if (!rl || reverse) throw new Error(`putaway ${id}: receiving line ${lineId} does not match`);
      throw bizError('PURCHASE_PUTAWAY_OVER_4095', { docNo: String(note.docNo), line: Number(rl.lineNo), code: String(rl.code), received: Number(rl.qty), done: Number(rl.putawayQty), qty: d },
        { receivingLineId: lineId, lineNo: Number(rl.lineNo), received: Number(rl.qty), done: Number(rl.putawayQty), qty: d });
    }
  }
  await postMoves(db, ctx.caller!, movesOf(id, warehouseId, lines, reverse), { knownProducts: saved?.products });
}

export async function savePutaway(ctx: CallContext, input: PaSaveInput): Promise<DocResult> {
  const caller = ctx.caller!;
  if (input.id !== undefined && input.version === undefined) throw validationError([{ field: 'version', message: '版本不能为空，请刷新后重试' }]);
  const { warehouseId, noteDocNo, lines, products } = await checkPutaway(ctx, input);
  const totalQty = lines.reduce((s, l) => s + l.qty, 0);
  const post = input.post === true;
  const now = new Date().toISOString();
  return ctx.transaction(async (db, tenant) => {
    const header: Row = {
      receivingNoteId: input.receivingNoteId, warehouseId, remark: input.remark ?? null, lineCount: lines.length, totalQty,
      ...(post ? { status: 'posted', postedAt: now, postedBy: caller.accountId } : {}), updatedAt: now, updatedBy: caller.accountId,
    };
    let id: number;
    let docNo = '';
    let version = 1;
    if (input.id !== undefined) {
      const updated = (await tenant.update('putaway').set({ ...header, version: sql`${sql.ref('version')} + 1` })
        .where('id', '=', input.id).where('status', '=', 'draft').where('version', '=', input.version!).returning(['id', 'docNo', 'version']).executeTakeFirst()) as Row | undefined;
      if (!updated) throw await refusal(tenant, 'putaway', PA_TITLE, DOC_STATUS, input.id, input.version, ['draft'], '修改');
      id = Number(updated.id);
      docNo = String(updated.docNo);
      version = Number(updated.version);
      await tenant.delete('putawayLine').where('putawayId', '=', id).execute();
    } else {
      const inserted = (await tenant.insert('putaway', {
        ...header, docNo: `~${Date.now().toString(36)}${crypto.randomBytes(6).toString('hex')}`, status: header.status ?? 'draft', version: 1, createdAt: now, createdBy: caller.accountId,
      }).returning('id').executeTakeFirstOrThrow()) as Row;
      id = Number(inserted.id);
    }
    await insertMany(db, 'putaway_line', ['company_id', 'putaway_id', 'line_no', 'receiving_line_id', 'product_id', 'from_location_id', 'to_location_id', 'qty', 'remark'],
      lines.map((l, i) => [tenant.companyId, id, i + 1, l.receivingLineId, l.productId, l.fromLocationId, l.toLocationId, l.qty, l.remark]));
    if (post) await applyPutaway(ctx, db, tenant, id, input.receivingNoteId, warehouseId, false, { lines: lines.map((l, i) => ({ ...l, lineNo: i + 1 })), products });
    if (!docNo) {
      docNo = await nextDocumentNo(db, tenant.companyId, PA_PREFIX, tz(ctx));
      await tenant.update('putaway').set({ docNo }).where('id', '=', id).execute();
    }
    await ctx.audit([
      { action: input.id !== undefined ? 'update' : 'create', entity: 'putaway', recordId: id, recordLabel: docNo,
        changes: [{ field: 'receivingNoteId', title: '收货单', from: null, to: noteDocNo }, { field: 'totalQty', title: '上架数量', from: null, to: totalQty }] },
      ...(post ? [{ action: 'post' as const, entity: 'putaway', recordId: id, recordLabel: docNo, changes: [{ field: 'status', title: '状态', from: DOC_STATUS.draft, to: DOC_STATUS.posted }] }] : []),
    ], db);
    return { id, docNo, status: post ? 'posted' : 'draft', version, totalQty };
  });
}

export async function postPutaway(ctx: CallContext, input: { id: number; version?: number }): Promise<DocResult> {
  const caller = ctx.caller!;
  const now = new Date().toISOString();
  return ctx.transaction(async (db, tenant) => {
    let q = tenant.update('putaway').set({ status: 'posted', postedAt: now, postedBy: caller.accountId, updatedAt: now, updatedBy: caller.accountId, version: sql`${sql.ref('version')} + 1` })
      .where('id', '=', input.id).where('status', '=', 'draft');
    if (input.version !== undefined) q = q.where('version', '=', input.version);
    const doc = (await q.returning(['id', 'docNo', 'version', 'receivingNoteId', 'warehouseId', 'totalQty']).executeTakeFirst()) as Row | undefined;
    if (!doc) throw await refusal(tenant, 'putaway', PA_TITLE, DOC_STATUS, input.id, input.version, ['draft'], '过账');
    await applyPutaway(ctx, db, tenant, input.id, Number(doc.receivingNoteId), Number(doc.warehouseId), false);
    await ctx.audit({ action: 'post', entity: 'putaway', recordId: input.id, recordLabel: String(doc.docNo), changes: [{ field: 'status', title: '状态', from: DOC_STATUS.draft, to: DOC_STATUS.posted }] }, db);
    return { id: input.id, docNo: String(doc.docNo), status: 'posted', version: Number(doc.version), totalQty: Number(doc.totalQty) };
  });
}

export async function cancelPutaway(ctx: CallContext, input: { id: number; version?: number }): Promise<DocResult> {
  const caller = ctx.caller!;
  const now = new Date().toISOString();
  return ctx.transaction(async (db, tenant) => {
    const change = (from: DocStatus) => {
      let q = tenant.update('putaway').set({ status: 'cancelled', cancelledAt: now, cancelledBy: caller.accountId, updatedAt: now, updatedBy: caller.accountId, version: sql`${sql.ref('version')} + 1` })
        .where('id', '=', input.id).where('status', '=', from);
      if (input.version !== undefined) q = q.where('version', '=', input.version);
      return q.returning(['id', 'docNo', 'version', 'receivingNoteId', 'warehouseId', 'totalQty']).executeTakeFirst() as Promise<Row | undefined>;
    };
    let from: DocStatus = 'draft';
    let doc = await change('draft');
    if (!doc) { from = 'posted'; doc = await change('posted'); }
    if (!doc) throw await refusal(tenant, 'putaway', PA_TITLE, DOC_STATUS, input.id, input.version, ['draft', 'posted'], '作废');
    if (from === 'posted') await applyPutaway(ctx, db, tenant, input.id, Number(doc.receivingNoteId), Number(doc.warehouseId), true);
    await ctx.audit({ action: 'cancel', entity: 'putaway', recordId: input.id, recordLabel: String(doc.docNo), changes: [{ field: 'status', title: '状态', from: DOC_STATUS[from], to: DOC_STATUS.cancelled }] }, db);
    return { id: input.id, docNo: String(doc.docNo), status: 'cancelled', version: Number(doc.version), totalQty: Number(doc.totalQty) };
  });
}

function putawayView(r: Row) {
  const status = String(r.status) as DocStatus;
  return {
    id: Number(r.id), docNo: String(r.docNo), docType: 'putaway', status, statusText: DOC_STATUS[status] ?? status,
    receivingNoteId: Number(r.receivingNoteId), receivingDocNo: text(r.receivingDocNo), warehouseId: Number(r.warehouseId), warehouseName: text(r.warehouseName),
    remark: text(r.remark), lineCount: Number(r.lineCount), totalQty: Number(r.totalQty), version: Number(r.version),
    createdAt: text(r.createdAt), createdByName: text(r.createdByName), postedAt: text(r.postedAt), cancelledAt: text(r.cancelledAt),
    route: `/entrepot/putawayDetail/${Number(r.id)}`,
  };
}

function withNames(tenant: Tenant) {
  const h = 'putaway';
  return tenant.select(h)
    .innerJoin('receivingNote', (j) => j.onRef('receivingNote.id', '=', `${h}.receivingNoteId`).onRef('receivingNote.companyId', '=', `${h}.companyId`))
    .innerJoin('warehouse', (j) => j.onRef('warehouse.id', '=', `${h}.warehouseId`).onRef('warehouse.companyId', '=', `${h}.companyId`))
    .leftJoin('account as creator', (j) => j.onRef('creator.id', '=', `${h}.createdBy`).onRef('creator.companyId', '=', `${h}.companyId`))
    .selectAll(h)
    .select(['receivingNote.docNo as receivingDocNo', 'warehouse.name as warehouseName', 'creator.userName as createdByName']);
}

export async function getPutaway(ctx: CallContext, id: number) {
  const tenant = ctx.tenant;
  const doc = (await withNames(tenant).where('putaway.id', '=', id).executeTakeFirst()) as Row | undefined;
  if (!doc) throw bizError('COMMON_NOT_FOUND_4004', { entity: PA_TITLE });
  const l = 'putawayLine';
  const lines = (await tenant.select(l)
    .innerJoin('product', (j) => j.onRef('product.id', '=', `${l}.productId`).onRef('product.companyId', '=', `${l}.companyId`))
    .leftJoin('location as src', (j) => j.onRef('src.id', '=', `${l}.fromLocationId`).onRef('src.companyId', '=', `${l}.companyId`))
    .innerJoin('location as dst', (j) => j.onRef('dst.id', '=', `${l}.toLocationId`).onRef('dst.companyId', '=', `${l}.companyId`))
    .select([`${l}.id`, `${l}.lineNo`, `${l}.receivingLineId`, `${l}.productId`, `${l}.fromLocationId`, `${l}.toLocationId`, `${l}.qty`, `${l}.remark`,
      'product.code as productCode', 'product.name as productName', 'product.unitSmall', 'src.lcCode as fromLcCode', 'dst.lcCode as toLcCode'])
    .where(`${l}.putawayId`, '=', id).orderBy(`${l}.lineNo`).execute()) as Row[];
  return {
    ...putawayView(doc),
    lines: lines.map((r) => ({
      id: Number(r.id), lineNo: Number(r.lineNo), receivingLineId: Number(r.receivingLineId), productId: Number(r.productId), productCode: String(r.productCode),
      productName: String(r.productName), unitSmall: text(r.unitSmall), fromLocationId: r.fromLocationId == null ? null : Number(r.fromLocationId), fromLcCode: text(r.fromLcCode),
      toLocationId: Number(r.toLocationId), toLcCode: text(r.toLcCode), qty: Number(r.qty), remark: text(r.remark),
    })),
  };
}

export const listPutaways = (ctx: CallContext, input: DocListInput) => listDocs(ctx, 'putaway', input, putawayView, withNames as never);
