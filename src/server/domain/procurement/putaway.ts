// Putaways (上架单, `putaway` + lines): received goods from the receiving place (the receiving line's
// location, or none) to storage locations, suggested from default_location (product × warehouse) and
// overridable. The document (list, get, save, post, cancel) is on the document engine
// (documents/types/putaway.ts); here are the suggestions and what posting does. Posting, in one
// transaction: the status (the engine's conditional UPDATE), the receiving note claimed while posted (a
// conditional UPDATE: its cancellation and this posting serialise), each receiving line's put-away
// quantity by a conditional UPDATE that cannot pass the accepted quantity (PURCHASE_PUTAWAY_OVER_4095),
// and two moves per line — out of the source, into the target — in one postMoves call. Cancelling a
// posted putaway moves the goods back (guarded by the ledger).
import type { CallContext } from '../../catalog/context.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import type { DB } from '../../db/connection.ts';
import { bizError } from '../../http/errors.ts';
import { postMoves, type StockMove } from '../stock/ledger.ts';
import { addGuarded } from '../../db/raw-sql.ts';
import { DOC_STATUS, statusError, text } from './common.ts';
import { RN_TITLE } from './receiving.ts';
import { TypedTenant } from '../../db/typed.ts';

export const PA_TITLE = '上架单';
export const PA_PREFIX = 'SJ';

/** The note's lines with what is left to put away and the suggested location of each. */
export async function suggestPutaway(ctx: CallContext, receivingNoteId: number) {
  const tenant = TypedTenant.of(ctx.tenant);
  const note = await tenant.select('receivingNote').select(['id', 'docNo', 'status', 'warehouseId']).where('id', '=', receivingNoteId).executeTakeFirst();
  if (!note) throw bizError('COMMON_NOT_FOUND_4004', { entity: RN_TITLE });
  const l = 'receivingNoteLine';
  const rows = await tenant.select(l)
    .innerJoin('product', (j) => j.onRef('product.id', '=', `${l}.productId`).onRef('product.companyId', '=', `${l}.companyId`))
    .leftJoin('location as src', (j) => j.onRef('src.id', '=', `${l}.locationId`).onRef('src.companyId', '=', `${l}.companyId`))
    .leftJoin('defaultLocation as dl', (j) => j.onRef('dl.productId', '=', `${l}.productId`).onRef('dl.companyId', '=', `${l}.companyId`).on('dl.warehouseId', '=', Number(note.warehouseId)))
    .leftJoin('location as dst', (j) => j.onRef('dst.id', '=', 'dl.locationId').onRef('dst.companyId', '=', `${l}.companyId`))
    .select([`${l}.id`, `${l}.lineNo`, `${l}.productId`, `${l}.locationId`, `${l}.qty`, `${l}.putawayQty`, 'product.code as productCode', 'product.name as productName',
      'src.lcCode as fromLcCode', 'dl.locationId as suggestedLocationId', 'dst.lcCode as suggestedLcCode', 'dst.status as suggestedStatus'])
    .where(`${l}.noteId`, '=', receivingNoteId).orderBy(`${l}.lineNo`).execute();
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

export async function putawayLines(untypedTenant: Tenant, id: number) {
  const tenant = TypedTenant.of(untypedTenant);
  return (await tenant.select('putawayLine').select(['lineNo', 'receivingLineId', 'productId', 'fromLocationId', 'toLocationId', 'qty']).where('putawayId', '=', id).orderBy('lineNo').execute())
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

export type PutawayLine = Awaited<ReturnType<typeof putawayLines>>[number];

/** `saved`: the lines this transaction has just written (saves reading them back). */
export async function applyPutaway(ctx: CallContext, db: DB, tenant: Tenant, id: number, noteId: number, warehouseId: number, reverse: boolean,
  saved?: { lines: PutawayLine[]; products?: ReadonlyMap<number, string> }): Promise<void> {
  const t = TypedTenant.of(tenant);
  // Claim the receiving note while it is posted (its cancellation takes the same row).
  const note = await t.update('receivingNote').set({ updatedAt: new Date().toISOString() }).where('id', '=', noteId).where('status', '=', 'posted')
    .returning(['id', 'docNo']).executeTakeFirst();
  if (!note) {
    const doc = await t.select('receivingNote').select(['id', 'docNo', 'status']).where('id', '=', noteId).executeTakeFirst();
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
      const rl = await t.select('receivingNoteLine').innerJoin('product', (j) => j.onRef('product.id', '=', 'receivingNoteLine.productId'))
        .select(['receivingNoteLine.lineNo', 'receivingNoteLine.qty', 'receivingNoteLine.putawayQty', 'product.code']).where('receivingNoteLine.id', '=', lineId).executeTakeFirst();
      if (!rl || reverse) throw new Error(`putaway ${id}: receiving line ${lineId} does not match`);
      throw bizError('PURCHASE_PUTAWAY_OVER_4095', { docNo: String(note.docNo), line: Number(rl.lineNo), code: String(rl.code), received: Number(rl.qty), done: Number(rl.putawayQty), qty: d },
        { receivingLineId: lineId, lineNo: Number(rl.lineNo), received: Number(rl.qty), done: Number(rl.putawayQty), qty: d });
    }
  }
  await postMoves(db, ctx.caller!, movesOf(id, warehouseId, lines, reverse), { knownProducts: saved?.products });
}
