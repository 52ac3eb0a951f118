// The first documents on the ledger, on the document engine: opening stock (期初库存单, `stock_init`)
// and stock adjustments (库存调整单, `stock_adjust`). draft → posted, or cancelled; a draft can be saved
// and posted in one call (`post: true`). Posting writes the document's moves through the ledger in the
// same transaction as the status change, so a document is on the ledger completely or not at all;
// cancelling a posted document appends reversing moves (the ledger is never edited).
import { parseFlags } from '../../../core/flags.ts';
import { splitUnits, toSmallUnits } from '../../../core/stock-units.ts';
import { bizError, validationError, type FieldError } from '../../http/errors.ts';
import { adjustReasons, DOC_STATUS, MAX_DOC_LINES } from '../../domain/stock/documents.ts';
import { MAX_MOVE_QTY, type MoveKind } from '../../domain/stock/ledger.ts';
import { packInputs } from '../pack-inputs.ts';
import { defineDocument, type DocumentDefinition, type Row, type SaveRun, sentLines } from '../definition.ts';
import { TypedTenant, typed } from '../../db/typed.ts';

/** A line of the raw input: its quantity, or the packs the validate hook turns into one. */
interface PackLine { qty?: unknown; big?: unknown; mid?: unknown; small?: unknown }

interface StockKind {
  type: 'stockInit' | 'stockAdjust';
  title: string;
  prefix: string;
  moveKind: MoveKind;
  /** adjustments: quantities may be negative; opening stock: positive only */
  signed: boolean;
  route: string;
}

/** Lines checked against the company's data, with messages that name the line (postMoves checks again). */
async function checkLines(kind: StockKind, run: SaveRun): Promise<void> {
  const { ctx, header, lines, input, lineAt } = run;
  const tenant = TypedTenant.of(ctx.tenant);
  const warehouseId = Number(header.warehouseId);
  const wh = await tenant.select('warehouse').select(['id', 'name', 'enabled']).where('id', '=', warehouseId).executeTakeFirst();
  if (!wh) throw validationError([{ field: 'warehouseId', message: '仓库不存在' }]);
  if (Number(wh.enabled) !== 1) throw bizError('STOCK_WAREHOUSE_DISABLED_4077', { warehouse: String(wh.name) });
  // (tables and columns named by the caller: the untyped view, rows as records)
  const read = async (table: string, cols: string[], ids: number[]) => {
    const out = new Map<number, Row>();
    for (let i = 0; i < ids.length; i += 500) {
      for (const r of await ctx.tenant.select(table).select(cols).where('id', 'in', ids.slice(i, i + 500)).execute()) out.set(Number(r.id), r);
    }
    return out;
  };
  const products = await read('product', ['id', 'code', 'bigQty', 'midQty'], [...new Set(lines.map((l) => Number(l.productId)))]);
  const locations = await read('location', ['id', 'warehouseId', 'lcCode', 'status'], [...new Set(lines.flatMap((l) => (l.locationId == null ? [] : [Number(l.locationId)])))]);
  const company = await typed(ctx.db).selectFrom('company').select('flags').where('id', '=', tenant.companyId).executeTakeFirst();
  const locationRequired = parseFlags(company?.flags).locationRequired;
  const raw = sentLines<PackLine>(input);
  const errors: FieldError[] = [];
  const seen = new Map<string, number>();
  lines.forEach((l, i) => {
    const { label, field } = lineAt(i);
    const err = (f: string, message: string) => errors.push({ field: `${field}.${f}`, message: `${label}：${message}` });
    const p = products.get(Number(l.productId));
    if (!p) { err('productId', '商品不存在'); return; }
    const locationId = l.locationId == null ? null : Number(l.locationId);
    const loc = locationId ? locations.get(locationId) : undefined;
    if (locationId) {
      if (!loc) { err('locationId', '库位不存在'); return; }
      if (Number(loc.warehouseId) !== warehouseId) { err('locationId', `库位 ${String(loc.lcCode)} 不属于仓库 ${String(wh.name)}`); return; }
      if (loc.status !== 'enabled') { err('locationId', `库位 ${String(loc.lcCode)} 已锁定`); return; }
    } else if (locationRequired) { err('locationId', `商品 ${String(p.code)} 未指定库位（公司要求出入库指定库位）`); return; }
    const r = raw[i]!;
    const parts = r.big != null || r.mid != null || r.small != null;
    const qty = l.qty != null ? Number(l.qty) : parts ? toSmallUnits({ big: r.big as number, mid: r.mid as number, small: r.small as number }, { bigQty: Number(p.bigQty), midQty: Number(p.midQty) }) : undefined;
    if (qty === undefined) { err('qty', l.qty == null && !parts ? '数量不能为空' : '数量超出范围'); return; }
    if (!Number.isSafeInteger(qty) || Math.abs(qty) > MAX_MOVE_QTY) { err('qty', '数量超出范围'); return; }
    if (kind.signed ? qty === 0 : qty <= 0) { err('qty', kind.signed ? '调整数量不能为 0' : '期初数量必须大于 0'); return; }
    const key = `${Number(l.productId)}:${locationId ?? 0}`;
    const dup = seen.get(key);
    if (dup !== undefined) { err('productId', `商品 ${String(p.code)}${loc ? `（库位 ${String(loc.lcCode)}）` : ''}与${lineAt(dup).label}重复，请合并为一行`); return; }
    seen.set(key, i);
    l.qty = qty;
  });
  if (errors.length) throw validationError(errors.slice(0, 200));
  // products and locations were read above through the company's scope: the engine need not again
  run.verified.add('productId');
  run.verified.add('locationId');
  header.lineCount = lines.length;
  header.totalQty = lines.reduce((s, l) => s + Number(l.qty), 0);
}

function stockDocument(kind: StockKind): DocumentDefinition {
  const status = (s: keyof typeof DOC_STATUS, color: string) => ({ label: DOC_STATUS[s], color });
  return defineDocument({
    type: kind.type,
    title: kind.title,
    prefix: kind.prefix,
    table: kind.type,
    statuses: { draft: status('draft', 'default'), posted: status('posted', 'green'), cancelled: status('cancelled', 'red') },
    editable: ['draft'],
    statusCode: 'STOCK_DOC_STATUS_4078',
    header: {
      warehouseId: { type: 'reference', resource: 'warehouse', title: '仓库', required: true },
      ...(kind.signed ? { reason: { type: 'string' as const, title: '调整原因', required: true, maxLength: 50 } } : {}),
      remark: { type: 'string', title: '备注', maxLength: 500 },
      lineCount: { type: 'integer', title: '明细行数', readonly: true },
      totalQty: { type: 'integer', title: '数量合计', readonly: true },
    },
    lines: {
      table: `${kind.type}Line`,
      max: MAX_DOC_LINES,
      fields: {
        productId: { type: 'reference', resource: 'product', title: '商品', required: true },
        locationId: { type: 'reference', resource: 'location', title: '库位', labelAs: 'lcCode' },
        qty: { type: 'integer', title: '数量', min: -MAX_MOVE_QTY, max: MAX_MOVE_QTY },
        remark: { type: 'string', title: '备注', maxLength: 200 },
      },
      reads: { productId: ['specification', 'bigQty', 'midQty', 'unitBig', 'unitMid', 'unitSmall'] },
      inputs: packInputs,
    },
    hooks: {
      async validate(run) {
        if (kind.signed) {
          const reasons = await adjustReasons(run.ctx.tenant);
          if (!reasons.some((r) => r.value === run.header.reason)) throw validationError([{ field: 'reason', message: `调整原因“${String(run.header.reason).slice(0, 50)}”不在可选范围内` }]);
        }
        await checkLines(kind, run);
      },
      async present(ctx, docs, lines) {
        if (kind.signed) {
          const reasons = await adjustReasons(ctx.tenant);
          for (const d of docs) d.reasonLabel = reasons.find((x) => x.value === d.reason)?.label ?? d.reason;
        }
        for (const l of lines ?? []) {
          l.units = splitUnits(Number(l.qty), { bigQty: Number(l.bigQty), midQty: Number(l.midQty), unitBig: l.unitBig as string | null, unitMid: l.unitMid as string | null, unitSmall: l.unitSmall as string | null });
        }
      },
    },
    transitions: {
      post: {
        label: '过账', from: ['draft'], to: 'posted', stamp: 'posted', overlay: true, confirm: `确定过账${kind.title}“{docNo}”？过账后库存立即变动。`,
        async run(t) {
          const warehouseId = Number(t.doc.warehouseId);
          const lines = await t.storedLines();
          await t.postMoves(lines.map((l) => ({ productId: Number(l.productId), warehouseId, locationId: l.locationId == null ? null : Number(l.locationId), qty: Number(l.qty), kind: kind.moveKind, docLine: Number(l.lineNo) })));
        },
      },
      cancel: {
        label: '作废', from: ['draft', 'posted'], to: 'cancelled', stamp: 'cancelled', danger: true, overlay: true,
        confirm: `确定作废${kind.title}“{docNo}”？已过账的单据将写入反向流水。`,
        // Reversal of an adjustment that took stock out puts it back; of stock that came in, takes it out —
        // guarded like any other move, so stock already used elsewhere makes the cancellation fail.
        run: (t) => (t.from === 'posted' ? t.reverseMoves() : Promise.resolve()),
      },
    },
    saveThen: { flag: 'post', transition: 'post' },
    // the reasons' labels come from the company's dictionary
    listReads: kind.signed ? ['dictItem'] : [],
    listFilters: ['warehouseId', ...(kind.signed ? ['reason'] : [])],
    dateField: 'createdAt',
    route: kind.route,
  });
}

export const stockInit = stockDocument({ type: 'stockInit', title: '期初库存单', prefix: 'QC', moveKind: 'init', signed: false, route: '/entrepot/inventoryInitRecordDetail/{id}' });
export const stockAdjust = stockDocument({ type: 'stockAdjust', title: '库存调整单', prefix: 'TZ', moveKind: 'adjust', signed: true, route: '/entrepot/inventoryAdjustRecord' });
