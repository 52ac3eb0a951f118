// 上架单 on the document engine (DESIGN §4.4): goods of a posted receiving note from the receiving place
// (the receiving line's location, or none) to storage locations, suggested from the product's default
// location in the warehouse and overridable. draft → posted → cancelled; saved and posted in one call
// with `post: true`; saved without lines, it takes every line's open quantity to its suggested location.
// What posting and cancelling do (the note claimed, the put-away quantities guarded, two moves per line)
// is the domain's (domain/procurement/putaway.ts), in the transition's transaction.
import { bizError, validationError, type FieldError } from '../../http/errors.ts';
import { DOC_STATUS, statusError, type Row } from '../../domain/procurement/common.ts';
import { applyPutaway, PA_PREFIX, PA_TITLE, suggestPutaway } from '../../domain/procurement/putaway.ts';
import { RN_TITLE } from '../../domain/procurement/receiving.ts';
import { MAX_MOVE_QTY } from '../../domain/stock/ledger.ts';
import { defineDocument, type SaveRun } from '../definition.ts';
import { TypedTenant } from '../../db/typed.ts';

const status = (s: keyof typeof DOC_STATUS, color: string) => ({ label: DOC_STATUS[s], color });
const ID = { type: 'integer', min: 1, max: 2_147_483_647 } as const;

/** The lines against the note: what is left to put away, the target locations (suggested or chosen). */
async function checkPutaway({ ctx, header, lines, input, verified, named }: SaveRun): Promise<void> {
  const noteId = Number(header.receivingNoteId);
  const s = await suggestPutaway(ctx, noteId);
  if (s.status !== 'posted') throw statusError(RN_TITLE, DOC_STATUS, { id: noteId, docNo: s.docNo, status: s.status }, '上架');
  named.receivingNote = { id: noteId, label: s.docNo };
  const byId = new Map(s.lines.map((l) => [l.receivingLineId, l]));
  if (input.lines === undefined || input.lines === null) {
    // no lines given: every open quantity to its suggested location
    for (const l of s.lines) if (l.openQty > 0) lines.push({ receivingLineId: l.receivingLineId, toLocationId: null, qty: null, remark: null });
    if (!lines.length) throw validationError([{ field: 'lines', message: `收货单 ${s.docNo} 已全部上架` }]);
  } else if (!lines.length) throw validationError([{ field: 'lines', message: '请至少添加一行明细' }]);
  const locIds = [...new Set(lines.flatMap((w) => (w.toLocationId == null ? [] : [Number(w.toLocationId)])))];
  const locations = new Map<number, Row>();
  if (locIds.length) for (const r of await TypedTenant.of(ctx.tenant).select('location').select(['id', 'warehouseId', 'lcCode', 'status']).where('id', 'in', locIds).execute()) locations.set(Number(r.id), r);
  const errors: FieldError[] = [];
  const per = new Map<number, number>();
  lines.forEach((w, i) => {
    const err = (f: string, message: string) => errors.push({ field: `lines.${i}.${f}`, message: `第 ${i + 1} 行：${message}` });
    const rl = byId.get(Number(w.receivingLineId));
    if (!rl) throw bizError('PURCHASE_LINE_MISMATCH_4098', { doc: PA_TITLE, line: i + 1, source: RN_TITLE, docNo: s.docNo }, { line: i + 1, receivingLineId: Number(w.receivingLineId) });
    const chosen = w.toLocationId == null ? null : Number(w.toLocationId);
    const to = chosen ?? rl.suggestedLocationId;
    if (!to) { err('toLocationId', `商品 ${rl.productCode} 没有默认库位，请选择上架库位`); return; }
    if (chosen) {
      const loc = locations.get(chosen);
      if (!loc) { err('toLocationId', '库位不存在'); return; }
      if (Number(loc.warehouseId) !== s.warehouseId) { err('toLocationId', `库位 ${String(loc.lcCode)} 不属于收货仓库`); return; }
      if (loc.status !== 'enabled') { err('toLocationId', `库位 ${String(loc.lcCode)} 已锁定`); return; }
    }
    if (to === rl.fromLocationId) { err('toLocationId', '上架库位与收货库位相同'); return; }
    const qty = w.qty == null ? rl.openQty : Number(w.qty);
    const sum = (per.get(rl.receivingLineId) ?? 0) + qty;
    per.set(rl.receivingLineId, sum);
    if (qty <= 0 || sum > rl.openQty) {
      throw bizError('PURCHASE_PUTAWAY_OVER_4095', { docNo: s.docNo, line: rl.lineNo, code: rl.productCode, received: rl.receivedQty, done: rl.putawayQty, qty: sum },
        { receivingLineId: rl.receivingLineId, lineNo: rl.lineNo, received: rl.receivedQty, done: rl.putawayQty, qty: sum });
    }
    // productCode is not stored: a posting in the same call knows the product from it (storedLines)
    Object.assign(w, { productId: rl.productId, fromLocationId: rl.fromLocationId, toLocationId: to, qty, productCode: rl.productCode });
  });
  if (errors.length) throw validationError(errors.slice(0, 200));
  // target locations were read above through the company's scope, with their own refusals
  verified.add('toLocationId');
  header.warehouseId = s.warehouseId;
  header.lineCount = lines.length;
  header.totalQty = lines.reduce((n, l) => n + Number(l.qty), 0);
}

export const putaway = defineDocument({
  type: 'putaway',
  title: PA_TITLE,
  prefix: PA_PREFIX,
  table: 'putaway',
  statuses: { draft: status('draft', 'default'), posted: status('posted', 'green'), cancelled: status('cancelled', 'red') },
  editable: ['draft'],
  statusCode: 'PURCHASE_DOC_STATUS_4091',
  header: {
    receivingNoteId: { ...ID, type: 'integer', title: '收货单', required: true },
    warehouseId: { type: 'reference', resource: 'warehouse', title: '仓库', readonly: true },
    remark: { type: 'string', title: '备注', maxLength: 500 },
    lineCount: { type: 'integer', title: '明细行数', readonly: true },
    totalQty: { type: 'integer', title: '上架数量', readonly: true },
  },
  lines: {
    table: 'putawayLine',
    parent: 'putawayId',
    min: 0,
    max: 2000,
    fields: {
      receivingLineId: { ...ID, type: 'integer', title: '收货明细', required: true },
      productId: { type: 'reference', resource: 'product', title: '商品', readonly: true },
      fromLocationId: { type: 'reference', resource: 'location', title: '收货库位', readonly: true, labelAs: 'fromLcCode' },
      toLocationId: { type: 'reference', resource: 'location', title: '上架库位', labelAs: 'toLcCode' },
      qty: { type: 'integer', title: '上架数量', min: 1, max: MAX_MOVE_QTY },
      remark: { type: 'string', title: '备注', maxLength: 200 },
    },
    reads: { productId: ['unitSmall'] },
  },
  hooks: {
    validate: checkPutaway,
    async present(ctx, docs) {
      if (!docs.length) return;
      const notes = new Map((await TypedTenant.of(ctx.tenant).select('receivingNote').select(['id', 'docNo'])
        .where('id', 'in', [...new Set(docs.map((d) => Number(d.receivingNoteId)))]).execute()).map((r) => [Number(r.id), String(r.docNo)]));
      for (const d of docs) d.receivingDocNo = notes.get(Number(d.receivingNoteId)) ?? null;
    },
  },
  transitions: {
    post: {
      label: '过账', from: ['draft'], to: 'posted', stamp: 'posted', overlay: true,
      confirm: '确定过账上架单“{docNo}”？过账后库存移到上架库位。',
      async run({ ctx, db, tenant, doc, storedLines }) {
        const rows = await storedLines();
        const products = new Map<number, string>();
        for (const r of rows) if (typeof r.productCode === 'string') products.set(Number(r.productId), r.productCode);
        const lines = rows.map((r) => ({
          lineNo: Number(r.lineNo), receivingLineId: Number(r.receivingLineId), productId: Number(r.productId),
          fromLocationId: r.fromLocationId == null ? null : Number(r.fromLocationId), toLocationId: Number(r.toLocationId), qty: Number(r.qty),
        }));
        // the products are known when a save posts at once (its validate hook read them)
        const known = products.size === new Set(lines.map((l) => l.productId)).size ? products : undefined;
        await applyPutaway(ctx, db, tenant, Number(doc.id), Number(doc.receivingNoteId), Number(doc.warehouseId), false, { lines, products: known });
        return { totalQty: Number(doc.totalQty) };
      },
    },
    cancel: {
      label: '作废', from: ['draft', 'posted'], to: 'cancelled', stamp: 'cancelled', danger: true, overlay: true,
      confirm: '确定作废上架单“{docNo}”？已过账的上架单将把货物移回收货位置。',
      async run({ ctx, db, tenant, doc, from }) {
        if (from === 'posted') await applyPutaway(ctx, db, tenant, Number(doc.id), Number(doc.receivingNoteId), Number(doc.warehouseId), true);
        return { totalQty: Number(doc.totalQty) };
      },
    },
  },
  saveThen: { flag: 'post', transition: 'post' },
  links: [{ field: 'receivingNoteId', type: 'receivingNote' }],
  names: { receivingNoteId: { table: 'receivingNote', column: 'docNo' } },
  audit: ['receivingNoteId', 'totalQty'],
  listFilters: ['receivingNoteId', 'warehouseId'],
  dateField: 'createdAt',
  listReads: ['receivingNote'],
  route: '/entrepot/putawayDetail/{id}',
});
