// 拣货单 (picking order) on the document engine (issue 14; oms 024001–024020): the picking of one or several
// open outbound tasks of one warehouse (a wave). Made from the tasks (`taskIds`, no lines: every open
// task line, split over the places suggested to take it from, domain/outbound/picking.ts), its lines in
// walking order; the picker records where each line was actually taken from and how much (a short pick:
// less than asked). draft (待拣货) → posted (已拣货); cancelled from draft.
// - What a draft holds of a task line is claimed on the line (pickingQty, one conditional UPDATE per line:
//   never more than the task's open quantity), given back when the draft is edited (before the new claim),
//   cancelled or posted.
// - Posting moves every picked quantity from its place to the warehouse's staging location in the ledger
//   (domain/outbound/staging.ts says why the order's reservation does not move until delivery); the ledger's
//   conditional update on the place decides between two pickers taking its last units. The task lines
//   get pickedQty (and shortQty for what was not found, which is open again on the task: a later picking
//   takes it, or it stays a back order on the sales order line).
import { sql } from 'kysely';
import type { CallContext } from '../../catalog/context.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import { bizError, validationError, type FieldError } from '../../http/errors.ts';
import { text, type Row } from '../../domain/procurement/common.ts';
import { linesToPick, PICK_FROM_TYPES, placesOf, sortByWalk, suggestPicks } from '../../domain/outbound/picking.ts';
import { stagingLocation } from '../../domain/outbound/staging.ts';
import { bulkChange } from '../../domain/outbound/bulk.ts';
import { PICKABLE_TASK, refreshTasks } from '../../domain/outbound/task.ts';
import { MAX_MOVE_QTY } from '../../domain/stock/ledger.ts';
import { defineDocument, sentLines } from '../definition.ts';
import { TypedTenant } from '../../db/typed.ts';

export const PK_TITLE = '拣货单';
const ID = { type: 'integer', min: 1, max: 2_147_483_647 } as const;

/** A line of the raw input: the suggestion the screen sends back, and whether a picked quantity was sent. */
interface SentLine { suggestedLocationId?: unknown; pickedQty?: unknown }

/** Gives back what the picking's lines (as stored) hold on their task lines. */
async function releaseClaims(untypedTenant: Tenant, pickingId: number): Promise<number[]> {
  const tenant = TypedTenant.of(untypedTenant);
  const per = new Map<number, number>();
  const tasks = new Set<number>();
  for (const r of await tenant.select('pickingOrderLine').select(['taskId', 'taskLineId', 'qty']).where('pickingId', '=', pickingId).execute()) {
    per.set(Number(r.taskLineId), (per.get(Number(r.taskLineId)) ?? 0) + Number(r.qty));
    tasks.add(Number(r.taskId));
  }
  const rows = [...per.entries()];
  const done = await bulkChange(untypedTenant, { table: 'outbound_task_line', values: ['q'], set: 'picking_qty = picking_qty - v.q', guard: 't.picking_qty >= v.q' }, rows);
  if (done.size !== rows.length) throw new Error(`picking ${pickingId}: a task line holds less than the picking`);
  return [...tasks];
}

/** Claims the lines' quantities on their task lines (never more than is open). */
async function claim(untypedTenant: Tenant, lines: Row[]): Promise<void> {
  const tenant = TypedTenant.of(untypedTenant);
  const per = new Map<number, { q: number; l: Row }>();
  for (const l of lines) {
    const k = Number(l.taskLineId);
    const had = per.get(k);
    per.set(k, { q: (had?.q ?? 0) + Number(l.qty), l });
  }
  const done = await bulkChange(untypedTenant, { table: 'outbound_task_line', values: ['q'], set: 'picking_qty = picking_qty + v.q', guard: 't.picking_qty + t.picked_qty + v.q <= t.qty' },
    [...per.entries()].map(([id, { q }]) => [id, q]));
  for (const [taskLineId, { q, l }] of [...per.entries()].sort((a, b) => a[0] - b[0])) {
    const ok = done.has(taskLineId);
    if (!ok) {
      const tl = await tenant.select('outboundTaskLine').innerJoin('outboundTask', (j) => j.onRef('outboundTask.id', '=', 'outboundTaskLine.taskId').onRef('outboundTask.companyId', '=', 'outboundTaskLine.companyId'))
        .innerJoin('product', (j) => j.onRef('product.id', '=', 'outboundTaskLine.productId').onRef('product.companyId', '=', 'outboundTaskLine.companyId'))
        .select(['outboundTaskLine.lineNo', 'outboundTaskLine.qty', 'outboundTaskLine.pickingQty', 'outboundTaskLine.pickedQty', 'outboundTask.docNo', 'product.code'])
        .where('outboundTaskLine.id', '=', taskLineId).executeTakeFirstOrThrow();
      const left = Math.max(0, Number(tl.qty) - Number(tl.pickedQty) - Number(tl.pickingQty));
      // all of it taken by a racing picking order meanwhile: the refusal its preparation would have given
      if (left === 0) throw bizError('OUTBOUND_PICK_NOTHING_4163', { tasks: String(tl.docNo) }, { taskLineId });
      throw bizError('OUTBOUND_PICK_OVER_4162', { docNo: String(tl.docNo), line: Number(tl.lineNo), code: String(tl.code), qty: Number(tl.qty), picked: Number(tl.pickedQty), picking: Number(tl.pickingQty), ask: q, left },
        { taskLineId, ask: q, left, line: Number(l.lineNo ?? 0) });
    }
  }
}

export const pickingOrder = defineDocument({
  type: 'pickingOrder',
  title: PK_TITLE,
  prefix: 'PK',
  table: 'pickingOrder',
  managed: true,
  statuses: { draft: { label: '待拣货', color: 'blue' }, posted: { label: '已拣货', color: 'green' }, cancelled: { label: '已作废', color: 'red' } },
  editable: ['draft'],
  rights: { read: 'entrepot.pickingList', edit: 'entrepot.pickingOrder.edit' },
  header: {
    warehouseId: { type: 'reference', resource: 'warehouse', title: '仓库', readonly: true },
    // the first task of the wave (the document chain follows it); every task is on the lines
    taskId: { ...ID, type: 'integer', title: '出库任务', readonly: true },
    taskNos: { type: 'string', title: '出库任务', readonly: true, maxLength: 2000 },
    pickerId: { type: 'reference', resource: 'staff', title: '拣货员' },
    remark: { type: 'string', title: '备注', maxLength: 500 },
    taskCount: { type: 'integer', title: '任务数', readonly: true },
    lineCount: { type: 'integer', title: '明细行数', readonly: true },
    totalQty: { type: 'integer', title: '应拣数量', readonly: true },
    pickedQty: { type: 'integer', title: '实拣数量', readonly: true },
    shortQty: { type: 'integer', title: '短拣数量', readonly: true },
  },
  lines: {
    table: 'pickingOrderLine',
    parent: 'pickingId',
    indexes: [['taskId'], ['taskLineId']],
    min: 0,
    max: 5000,
    fields: {
      taskId: { ...ID, type: 'integer', title: '出库任务', readonly: true },
      taskLineId: { ...ID, type: 'integer', title: '任务明细', required: true },
      productId: { type: 'reference', resource: 'product', title: '商品', readonly: true },
      qty: { type: 'integer', title: '应拣数量', min: 1, max: MAX_MOVE_QTY },
      suggestedLocationId: { type: 'reference', resource: 'location', title: '建议库位', readonly: true, labelAs: 'suggestedLcCode' },
      // where the picker took it from (empty: the suggestion)
      locationId: { type: 'reference', resource: 'location', title: '拣货库位', labelAs: 'lcCode' },
      // what the picker took (empty: as asked); less than asked is a short pick
      pickedQty: { type: 'integer', title: '实拣数量', min: 0, max: MAX_MOVE_QTY },
      remark: { type: 'string', title: '备注', maxLength: 200 },
    },
    reads: { productId: ['specification', 'unitSmall', 'barcode'] },
  },
  hooks: {
    // made from tasks: the open task lines with their suggested places
    async prepare(ctx, input) {
      if (input.id !== undefined || (input.lines !== undefined && input.lines !== null)) return;
      const ids = taskIdsOf(input);
      if (!ids.length || !ids.every((x) => Number.isSafeInteger(x) && Number(x) > 0) || ids.length > 200) throw validationError([{ field: 'taskIds', message: '请选择出库任务（最多 200 个）' }]);
      const { warehouseId, lines } = await linesToPick(ctx.tenant, ids.map(Number));
      const suggested = await suggestPicks(ctx.tenant, warehouseId, lines);
      input.lines = suggested.map((s) => ({ taskLineId: s.taskLineId, qty: s.qty, suggestedLocationId: s.locationId }));
    },
    async validate({ ctx, input, header, lines, verified }) {
      const tenant = TypedTenant.of(ctx.tenant);
      if (!lines.length) throw validationError([{ field: 'lines', message: '请至少保留一行明细' }]);
      const raw = sentLines<SentLine>(input);
      const tls = new Map<number, Row>();
      const ids = [...new Set(lines.map((l) => Number(l.taskLineId)))];
      for (let i = 0; i < ids.length; i += 500) {
        const rows = await tenant.select('outboundTaskLine').innerJoin('outboundTask', (j) => j.onRef('outboundTask.id', '=', 'outboundTaskLine.taskId').onRef('outboundTask.companyId', '=', 'outboundTaskLine.companyId'))
          .select(['outboundTaskLine.id', 'outboundTaskLine.taskId', 'outboundTaskLine.productId', 'outboundTask.docNo', 'outboundTask.status', 'outboundTask.warehouseId'])
          .where('outboundTaskLine.id', 'in', ids.slice(i, i + 500)).execute();
        for (const r of rows) tls.set(Number(r.id), r);
      }
      // a suggestion is advice the screen sends back as it got it (from 021312 or the draft): checked like a place picked from
      lines.forEach((l, i) => {
        const sug = Number(raw[i]?.suggestedLocationId ?? 0);
        l.suggestedLocationId = Number.isSafeInteger(sug) && sug > 0 ? sug : null;
      });
      const places = await placesOf(ctx.tenant, lines.flatMap((l) => [l.locationId, l.suggestedLocationId].filter((x) => x != null).map(Number)));
      let warehouseId: number | undefined;
      const errors: FieldError[] = [];
      const tasks = new Map<number, string>();
      lines.forEach((l, i) => {
        const err = (f: string, message: string) => errors.push({ field: `lines.${i}.${f}`, message: `第 ${i + 1} 行：${message}` });
        const tl = tls.get(Number(l.taskLineId));
        if (!tl) { err('taskLineId', '出库任务明细不存在'); return; }
        warehouseId ??= Number(tl.warehouseId);
        if (Number(tl.warehouseId) !== warehouseId) { err('taskLineId', `出库任务 ${String(tl.docNo)} 不属于本拣货单的仓库`); return; }
        if (!PICKABLE_TASK.includes(String(tl.status))) { err('taskLineId', `出库任务 ${String(tl.docNo)} 不是待拣货状态`); return; }
        tasks.set(Number(tl.taskId), String(tl.docNo));
        if (l.qty == null || Number(l.qty) <= 0) { err('qty', '应拣数量必须大于 0'); return; }
        const picked = raw[i]?.pickedQty == null ? null : Number(l.pickedQty);
        if (picked !== null && picked > Number(l.qty)) { err('pickedQty', `实拣数量 ${picked} 超过应拣数量 ${Number(l.qty)}；多出的请另开拣货单`); return; }
        for (const f of ['locationId', 'suggestedLocationId']) {
          if (l[f] == null) continue;
          const p = places.get(Number(l[f]));
          if (!p || p.warehouseId !== warehouseId) { err(f, '库位不存在或不属于本仓库'); return; }
          if (!PICK_FROM_TYPES.includes(p.type)) { err(f, `库位 ${String(p.lcCode)} 不是存储或拣货库位（发货暂存、收货、残次库位不能拣货）`); return; }
          if (p.status !== 'enabled' && f === 'locationId') { err(f, `库位 ${String(p.lcCode)} 已锁定`); return; }
        }
        l.taskId = Number(tl.taskId);
        l.productId = Number(tl.productId);
      });
      if (errors.length) throw validationError(errors.slice(0, 200));
      for (const f of ['productId', 'locationId', 'suggestedLocationId']) verified.add(f);
      // walking order of the place each line will be taken from
      const placed = lines.map((l, i) => ({ l, i, taskId: Number(l.taskId), lineNo: i, place: places.get(Number(l.locationId ?? l.suggestedLocationId ?? 0)) }));
      const sorted = sortByWalk(placed).map((p) => p.l);
      lines.splice(0, lines.length, ...sorted);
      header.warehouseId = warehouseId;
      header.taskId = Math.min(...tasks.keys());
      header.taskNos = [...tasks.entries()].sort((a, b) => a[0] - b[0]).map(([, d]) => d).join('、').slice(0, 2000);
      header.taskCount = tasks.size;
      header.lineCount = lines.length;
      header.totalQty = lines.reduce((s, l) => s + Number(l.qty), 0);
      header.pickedQty = null;
      header.shortQty = null;
      for (const l of lines) if (l.pickedQty == null) l.pickedQty = null;
    },
    async saving({ ctx, tenant, lines, docId, created }) {
      const tasks = new Set<number>(created ? [] : await releaseClaims(tenant, docId));
      await claim(tenant, lines);
      for (const l of lines) tasks.add(Number(l.taskId));
      await refreshAll(ctx, tenant, [...tasks]);
    },
    async present(ctx, docs, lines) {
      if (!lines?.length) return;
      // the tasks of the wave, as the screen's task field holds them
      docs[0]!.taskIds = [...new Set(lines.map((l) => Number(l.taskId)))].sort((a, b) => a - b);
      const tls = new Map((await TypedTenant.of(ctx.tenant).select('outboundTaskLine').innerJoin('outboundTask', (j) => j.onRef('outboundTask.id', '=', 'outboundTaskLine.taskId').onRef('outboundTask.companyId', '=', 'outboundTaskLine.companyId'))
        .select(['outboundTaskLine.id', 'outboundTaskLine.lineNo', 'outboundTask.docNo']).where('outboundTaskLine.id', 'in', [...new Set(lines.map((l) => Number(l.taskLineId)))]).execute())
        .map((r) => [Number(r.id), r]));
      const draft = docs[0]?.status === 'draft';
      for (const l of lines) {
        const tl = tls.get(Number(l.taskLineId));
        const picked = l.pickedQty == null ? (draft ? null : Number(l.qty)) : Number(l.pickedQty);
        Object.assign(l, { key: `${Number(l.taskLineId)}:${Number(l.suggestedLocationId ?? 0)}`, taskDocNo: text(tl?.docNo), taskLineNo: Number(tl?.lineNo), shortQty: picked == null ? null : Math.max(0, Number(l.qty) - picked), placeCode: text(l.lcCode) ?? text(l.suggestedLcCode) });
      }
    },
  },
  transitions: {
    post: {
      label: '拣货完成', from: ['draft'], to: 'posted', stamp: 'posted', overlay: true,
      confirm: '确定拣货单“{docNo}”拣货完成？实拣数量从库位移到发货暂存区；少拣的数量留在出库任务中待拣。',
      async run({ ctx, tenant, doc, storedLines, postMoves }) {
        const lines = await storedLines();
        const warehouseId = Number(doc.warehouseId);
        const staging = await stagingLocation(tenant, warehouseId, ctx.caller!.accountId);
        const errors: FieldError[] = [];
        const moves = [];
        let picked = 0;
        for (const l of lines) {
          const asked = Number(l.qty);
          const got = l.pickedQty == null ? asked : Number(l.pickedQty);
          const from = l.locationId ?? l.suggestedLocationId;
          picked += got;
          if (got === 0) continue;
          if (from == null) { errors.push({ field: `lines.${Number(l.lineNo) - 1}.locationId`, message: `第 ${Number(l.lineNo)} 行：请填写拣货库位，或把实拣数量记为 0（短拣）` }); continue; }
          if (Number(from) === staging) { errors.push({ field: `lines.${Number(l.lineNo) - 1}.locationId`, message: `第 ${Number(l.lineNo)} 行：发货暂存区不能拣货` }); continue; }
          moves.push({ productId: Number(l.productId), warehouseId, locationId: Number(from), qty: -got, kind: 'transfer' as const, docLine: Number(l.lineNo) });
          moves.push({ productId: Number(l.productId), warehouseId, locationId: staging, qty: got, kind: 'transfer' as const, docLine: Number(l.lineNo) });
        }
        if (errors.length) throw validationError(errors.slice(0, 200));
        // the task lines: the claim ends; what was picked is picked, the rest is open again (short)
        const per = new Map<number, { asked: number; got: number; taskId: number }>();
        for (const l of lines) {
          const k = Number(l.taskLineId);
          const p = per.get(k) ?? { asked: 0, got: 0, taskId: Number(l.taskId) };
          p.asked += Number(l.qty);
          p.got += l.pickedQty == null ? Number(l.qty) : Number(l.pickedQty);
          per.set(k, p);
        }
        const moved = await bulkChange(tenant, {
          table: 'outbound_task_line', values: ['asked', 'got'],
          set: 'picking_qty = picking_qty - v.asked, picked_qty = picked_qty + v.got, short_qty = short_qty + v.asked - v.got', guard: 't.picking_qty >= v.asked',
        }, [...per.entries()].map(([id, p]) => [id, p.asked, p.got]));
        if (moved.size !== per.size) throw new Error(`picking ${String(doc.id)}: a task line holds less than the picking`);
        await refreshAll(ctx, tenant, [...new Set([...per.values()].map((p) => p.taskId))]);
        // the stock last: task lines → stock, the order a delivery note takes them in too
        await postMoves(moves);
        // a line left empty was picked as asked: say so on the line
        await tenant.update('pickingOrderLine').set((eb) => ({ pickedQty: eb.ref('qty') })).where('pickingId', '=', Number(doc.id)).where('pickedQty', 'is', null).execute();
        const totalQty = Number(doc.totalQty);
        await tenant.update('pickingOrder').set({ pickedQty: picked, shortQty: totalQty - picked }).where('id', '=', Number(doc.id)).execute();
        return { pickedQty: picked, shortQty: totalQty - picked, stagingLocationId: staging };
      },
    },
    cancel: {
      label: '作废', from: ['draft', 'posted'], to: 'cancelled', stamp: 'cancelled', danger: true, overlay: true,
      confirm: '确定作废拣货单“{docNo}”？未拣货的应拣数量退回出库任务；已拣货的货物从发货暂存区移回原库位。',
      async run({ ctx, tenant, doc, from, storedLines, reverseMoves }) {
        if (from === 'draft') return void (await refreshAll(ctx, tenant, await releaseClaims(tenant, Number(doc.id))));
        // posted: while what it picked is still in staging (not delivered), the picks are undone
        const per = new Map<number, { got: number; short: number; taskId: number }>();
        for (const l of await storedLines()) {
          const p = per.get(Number(l.taskLineId)) ?? { got: 0, short: 0, taskId: Number(l.taskId) };
          p.got += Number(l.pickedQty ?? l.qty);
          p.short += Number(l.qty) - Number(l.pickedQty ?? l.qty);
          per.set(Number(l.taskLineId), p);
        }
        const undone = await bulkChange(tenant, {
          table: 'outbound_task_line', values: ['got', 'short'],
          set: 'picked_qty = picked_qty - v.got, short_qty = short_qty - v.short', guard: 't.picked_qty - t.delivered_qty - coalesce(t.packed_qty, 0) >= v.got and t.short_qty >= v.short',
        }, [...per.entries()].map(([id, p]) => [id, p.got, p.short]));
        if (undone.size !== per.size) {
          const taskIds = [...new Set([...per.values()].map((p) => p.taskId))];
          const notes = await TypedTenant.of(tenant).select('deliveryNote').select('docNo').where('taskId', 'in', taskIds).where('status', 'in', ['posted', 'signed']).orderBy('id').limit(3).execute();
          throw bizError('OUTBOUND_PICK_DELIVERED_4169', { docNo: String(doc.docNo), notes: notes.map((n) => String(n.docNo)).join('、') || '—' }, { id: Number(doc.id) });
        }
        await refreshAll(ctx, tenant, [...per.values()].map((p) => p.taskId));
        await reverseMoves();
      },
    },
  },
  saveThen: { flag: 'post', transition: 'post' },
  links: [{ field: 'taskId', type: 'outboundTask' }],
  names: { taskId: { table: 'outboundTask', column: 'docNo' } },
  audit: ['pickerId', 'taskNos', 'totalQty', 'remark'],
  listFilters: ['warehouseId', 'taskId', 'pickerId'],
  dateField: 'createdAt',
  listReads: ['outboundTask', 'outboundTaskLine', 'location'],
  export: {
    header: ['docNo', 'statusText', 'warehouseId', 'taskNos', 'pickerId'],
    lines: ['lineNo', { key: 'placeCode', title: '库位', width: 14 }, { key: 'productCode', title: '商品编码', width: 16 }, { key: 'productName', title: '商品名称', width: 30 }, 'qty', 'pickedQty', { key: 'taskDocNo', title: '出库任务', width: 18 }],
  },
  route: '/entrepot/pickingOrderDetail/{id}',
});

/** Task totals and statuses after their lines changed (in task order). */
async function refreshAll(ctx: CallContext, tenant: Tenant, taskIds: number[]): Promise<void> {
  await refreshTasks(ctx, tenant, taskIds);
}

/** The tasks a new picking is made from: `taskIds` (one id or a list), or `taskId`. */
export function taskIdsOf(input: Row): unknown[] {
  const v = input.taskIds ?? input.taskId;
  return Array.isArray(v) ? v : v == null ? [] : [v];
}
