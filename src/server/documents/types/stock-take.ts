// 盘点单 (stocktaking, /entrepot/takeStock) on the document engine. A take is created for a warehouse,
// optionally narrowed to a zone and/or products; its lines — the counting sheet, product × location — are
// made by the validate hook from the book (balances with stock in the scope, plus the chosen products'
// default locations so an empty place is counted too), in walking order. counting → posted, or cancelled.
// Counting, the sheet and the variances are hand-written calls (domain/stock/stock-take.ts): the engine's
// save only creates (no status is editable: a save would replace the lines and lose the counts).
//
// Blind count: a counter never gets the book quantity. The line fields that carry it (bookQty, diffQty,
// unitPrice, diffValue) and the header's variance totals are stripped by the present hook from every
// answer of a caller without the variance right (TAKE_VARIANCE_RIGHT); the sheet call never selects them.
//
// Stock moving while a count is open — decided: the count compares against the book quantity AT THE TIME
// THE LOCATION WAS COUNTED, not a frozen location. The first count entry of a line records the line's book
// quantity server-side (stock_balance.on_hand as that transaction sees it); posting moves the difference
// (counted − book at count) against the CURRENT balance. Goods picked or put away after the count are
// therefore neither lost nor counted twice: current + (counted − book at count) = counted + what moved
// since. Freezing was not chosen because a count can stay open for hours and a frozen location would stop
// picking and putaway (and every other document would have to know about counts); the snapshot needs no
// change anywhere else.
import { sql } from 'kysely';
import { bizError, validationError } from '../../http/errors.ts';
import { MAX_DOC_LINES } from '../../domain/stock/documents.ts';
import { MAX_MOVE_QTY } from '../../domain/stock/ledger.ts';
import { buildTakeLines, stripBlind, TAKE_POST_RIGHT, TAKE_TITLE } from '../../domain/stock/stock-take.ts';
import { defineDocument } from '../definition.ts';
import { TypedTenant } from '../../db/typed.ts';

export const stockTake = defineDocument({
  type: 'stockTake',
  title: TAKE_TITLE,
  prefix: 'PD',
  table: 'stockTake',
  managed: true,
  statuses: {
    counting: { label: '盘点中', color: 'blue' },
    posted: { label: '已过账', color: 'green' },
    cancelled: { label: '已作废', color: 'red' },
  },
  initial: 'counting',
  // created once, never re-saved: a save replaces the lines, and the lines carry the counts
  editable: [],
  statusCode: 'STOCK_DOC_STATUS_4078',
  header: {
    warehouseId: { type: 'reference', resource: 'warehouse', title: '仓库', required: true },
    zone: { type: 'string', title: '库区', maxLength: 20 },
    productCodes: { type: 'string', title: '商品编码', maxLength: 4000 },
    remark: { type: 'string', title: '备注', maxLength: 500 },
    lineCount: { type: 'integer', title: '明细行数', readonly: true },
    // set by posting (variance right only)
    diffLines: { type: 'integer', title: '差异行数', readonly: true },
    diffValue: { type: 'money', title: '差异金额', readonly: true },
  },
  stampsAlso: ['lastCount'],
  lines: {
    table: 'stockTakeLine',
    parent: 'takeId',
    min: 0,
    max: MAX_DOC_LINES,
    fields: {
      productId: { type: 'reference', resource: 'product', title: '商品', readonly: true },
      locationId: { type: 'reference', resource: 'location', title: '库位', labelAs: 'lcCode', readonly: true },
      countedQty: { type: 'integer', title: '实盘数量', readonly: true, min: 0, max: MAX_MOVE_QTY },
      countCount: { type: 'integer', title: '录入次数', readonly: true },
      countedAt: { type: 'string', title: '盘点时间', readonly: true },
      bookQty: { type: 'integer', title: '账面数量', readonly: true },
      diffQty: { type: 'integer', title: '差异数量', readonly: true },
      unitPrice: { type: 'money', title: '单价', readonly: true },
      diffValue: { type: 'money', title: '差异金额', readonly: true },
    },
    reads: { productId: ['specification', 'bigQty', 'midQty', 'unitBig', 'unitMid', 'unitSmall'] },
  },
  hooks: {
    async validate(run) {
      if (run.id !== undefined) return;
      if (Array.isArray(run.input.lines) && run.input.lines.length) throw validationError([{ field: 'lines', message: '盘点明细由系统按范围生成，不能直接提交' }]);
      await buildTakeLines(run);
    },
    present(ctx, docs, lines) {
      stripBlind(ctx, docs, lines);
    },
  },
  transitions: {
    post: {
      label: '过账', from: ['counting'], to: 'posted', stamp: 'posted', overlay: true, right: TAKE_POST_RIGHT,
      confirm: '确定过账盘点单“{docNo}”？差异将作为一次库存调整写入流水（全部或全不）。',
      async run(t) {
        const lines = await t.storedLines();
        const open = lines.filter((l) => l.countedQty == null);
        if (open.length) throw bizError('STOCKTAKE_UNCOUNTED_4251', { docNo: String(t.doc.docNo), count: open.length }, { lineNos: open.slice(0, 50).map((l) => Number(l.lineNo)) });
        const warehouseId = Number(t.doc.warehouseId);
        const tenant = TypedTenant.of(t.tenant);
        const prices = new Map<number, bigint>();
        const ids = [...new Set(lines.map((l) => Number(l.productId)))];
        for (let i = 0; i < ids.length; i += 500) {
          for (const p of await tenant.select('product').select(['id', 'price']).where('id', 'in', ids.slice(i, i + 500)).execute()) prices.set(Number(p.id), BigInt(String(p.price ?? 0)));
        }
        let diffLines = 0;
        let total = 0n;
        const moves = [];
        for (const l of lines) {
          const diff = Number(l.countedQty) - Number(l.bookQty);
          const price = prices.get(Number(l.productId)) ?? 0n;
          const value = BigInt(diff) * price;
          total += value;
          if (diff === 0) continue;
          diffLines++;
          moves.push({ productId: Number(l.productId), warehouseId, locationId: l.locationId == null ? null : Number(l.locationId), qty: diff, kind: 'count' as const, docLine: Number(l.lineNo) });
        }
        // every line keeps its difference, price and value (0 too: the proof the place was counted), in one
        // statement from the same rows and prices as the moves
        await sql`update stock_take_line set diff_qty = counted_qty - book_qty,
            unit_price = coalesce((select p.price from product p where p.id = stock_take_line.product_id and p.company_id = stock_take_line.company_id), 0),
            diff_value = (counted_qty - book_qty) * coalesce((select p.price from product p where p.id = stock_take_line.product_id and p.company_id = stock_take_line.company_id), 0)
          where company_id = ${t.tenant.companyId} and take_id = ${Number(t.doc.id)}`.execute(t.db);
        // one posting, all lines or none: a refused line (stock moved out meanwhile, a location locked)
        // throws and rolls back the status change and every line's difference with it
        await t.postMoves(moves);
        await t.tenant.update('stockTake').set({ diffLines, diffValue: total.toString() }).where('id', '=', Number(t.doc.id)).execute();
        return { diffLines };
      },
    },
    cancel: {
      label: '作废', from: ['counting'], to: 'cancelled', stamp: 'cancelled', danger: true, overlay: true,
      confirm: '确定作废盘点单“{docNo}”？已录入的盘点数量不再过账。',
    },
  },
  listFilters: ['warehouseId'],
  dateField: 'createdAt',
  route: '/entrepot/takeStock',
});
