// 采购订单 on the document engine (DESIGN §4.4): draft → confirmed → partlyReceived → received → closed;
// cancelled from draft, or from confirmed while nothing is received and no receiving note or inbound
// plan is open. Receiving notes move it through partlyReceived/received (receiving.ts).
// Money is exact: unit prices per small unit with up to 4 decimals (stored × 10^4), line amount =
// qty × price rounded half-up to the cent (stored in cents), totals are sums of the stored amounts;
// the exchange rate is the one of the order date (× 10^6).
import Decimal from 'decimal.js';
import { splitUnits } from '../../../core/stock-units.ts';
import { bizError, validationError, type FieldError } from '../../http/errors.ts';
import { PO_PREFIX, PO_TITLE, tradeLineQty, type PackLine } from '../../domain/procurement/purchase-order.ts';
import { PO_STATUS, rateOn, today, type Row } from '../../domain/procurement/common.ts';
import { MAX_MOVE_QTY } from '../../domain/stock/ledger.ts';
import { packInputs } from '../pack-inputs.ts';
import { defineDocument, sentLines, type TransitionRun } from '../definition.ts';
import { TypedTenant, typed } from '../../db/typed.ts';

/** A line of the raw input: its quantity, or the packs the validate hook turns into one. */

const status = (label: keyof typeof PO_STATUS, color: string) => ({ label: PO_STATUS[label], color });

/** What was fine when the draft was saved may have changed since: checked again when it is confirmed. */
async function recheckOnConfirm({ tenant: untypedTenant, doc }: TransitionRun) {
  const tenant = TypedTenant.of(untypedTenant);
  const id = Number(doc.id);
  const sup = await tenant.select('supplier').select(['name', 'enabled']).where('id', '=', Number(doc.supplierId)).executeTakeFirst();
  if (sup && Number(sup.enabled) !== 1) throw bizError('PURCHASE_SUPPLIER_DISABLED_4092', { name: String(sup.name) }, { id });
  const bad = await tenant.select('purchaseOrderLine').innerJoin('product', (j) => j.onRef('product.id', '=', 'purchaseOrderLine.productId').onRef('product.companyId', '=', 'purchaseOrderLine.companyId'))
    .select(['purchaseOrderLine.lineNo', 'purchaseOrderLine.productId', 'product.code', 'product.locked', 'product.status']).where('purchaseOrderLine.orderId', '=', id)
    .where((eb) => eb.or([eb('product.locked', '=', 1), eb('product.status', '=', 'stopped')])).orderBy('purchaseOrderLine.lineNo').limit(1).executeTakeFirst();
  if (bad) {
    const where = { line: Number(bad.lineNo), productId: Number(bad.productId), productCode: String(bad.code) };
    if (Number(bad.locked) === 1) throw bizError('PRODUCT_LOCK_4006', {}, where);
    throw bizError('PURCHASE_PRODUCT_STOPPED_4093', { code: String(bad.code) }, where);
  }
}

/** Receiving notes that are not cancelled, and open inbound plans, depend on the order. */
async function refuseIfDependents({ tenant: untypedTenant, doc }: TransitionRun) {
  const tenant = TypedTenant.of(untypedTenant);
  const id = Number(doc.id);
  const open = [
    ...(await tenant.select('receivingNote').select(['docNo']).where('orderId', '=', id).where('status', '!=', 'cancelled').limit(3).execute()),
    // inbound plans hold planned quantities of the order's lines (and their tasks expect the goods)
    ...(await tenant.select('inboundPlan').select(['docNo']).where('orderId', '=', id).where('status', 'in', ['draft', 'confirmed']).limit(3).execute()),
  ];
  if (open.length) throw bizError('PURCHASE_DEPENDENT_DOCS_4096', { doc: PO_TITLE, docNo: String(doc.docNo), next: open.map((r) => String(r.docNo)).join('、') }, { id });
}

/** Open inbound tasks still expect goods of the order: they are closed first, each with its reason. */
async function refuseIfOpenTasks({ tenant: untypedTenant, doc }: TransitionRun) {
  const tenant = TypedTenant.of(untypedTenant);
  const id = Number(doc.id);
  const tasks = await tenant.select('inboundTask').select(['docNo']).where('orderId', '=', id).where('status', 'in', ['open', 'receiving']).orderBy('id').limit(3).execute();
  if (tasks.length) throw bizError('PURCHASE_OPEN_TASKS_4099', { docNo: String(doc.docNo), tasks: tasks.map((r) => String(r.docNo)).join('、') }, { id, tasks: tasks.map((r) => String(r.docNo)) });
}

export const purchaseOrder = defineDocument({
  type: 'purchaseOrder',
  title: PO_TITLE,
  prefix: PO_PREFIX,
  table: 'purchaseOrder',
  statuses: {
    draft: status('draft', 'default'), confirmed: status('confirmed', 'blue'), partlyReceived: status('partlyReceived', 'orange'),
    received: status('received', 'green'), closed: status('closed', 'purple'), cancelled: status('cancelled', 'red'),
  },
  editable: ['draft'],
  removable: ['draft'],
  statusCode: 'PURCHASE_DOC_STATUS_4091',
  header: {
    supplierId: { type: 'reference', resource: 'supplier', title: '供应商', required: true },
    currencyId: { type: 'reference', resource: 'currency', title: '币种' },
    orderDate: { type: 'date', title: '订单日期' },
    warehouseId: { type: 'reference', resource: 'warehouse', title: '收货仓库', required: true },
    expectedDate: { type: 'date', title: '预计到货日期' },
    companyRiseId: { type: 'reference', resource: 'companyRise', title: '公司抬头' },
    remark: { type: 'string', title: '备注', maxLength: 500 },
    exchangeRate: { type: 'decimal', scale: 6, title: '汇率', readonly: true },
    rateDate: { type: 'date', title: '汇率日期', readonly: true },
    lineCount: { type: 'integer', title: '明细行数', readonly: true },
    totalQty: { type: 'integer', title: '数量合计', readonly: true },
    totalAmount: { type: 'money', title: '金额合计', readonly: true },
    receivedQty: { type: 'integer', title: '已收数量', readonly: true, default: 0 },
    copiedFromId: { type: 'integer', title: '复制自', readonly: true },
  },
  lines: {
    table: 'purchaseOrderLine',
    parent: 'orderId',
    max: 2000,
    fields: {
      productId: { type: 'reference', resource: 'product', title: '商品', required: true },
      // in small units, or entered as big/mid/small packs (turned into small units by the hook)
      qty: { type: 'integer', title: '数量', min: 0, max: MAX_MOVE_QTY },
      price: { type: 'decimal', scale: 4, title: '单价', required: true, min: 0, max: '1000000000' },
      amount: { type: 'money', title: '金额', readonly: true },
      receivedQty: { type: 'integer', title: '已收', readonly: true, default: 0 },
      // held by inbound plans (inbound-plan.ts takes and gives it back)
      plannedQty: { type: 'integer', title: '已计划', readonly: true, default: 0 },
      remark: { type: 'string', title: '备注', maxLength: 200 },
    },
    reads: { productId: ['specification', 'unitBig', 'unitMid', 'unitSmall', 'bigQty', 'midQty'] },
    inputs: packInputs,
  },
  hooks: {
    async validate({ ctx, input, header, lines, verified }) {
      const tenant = TypedTenant.of(ctx.tenant);
      const supplier = await tenant.select('supplier').select(['id', 'name', 'enabled', 'currencyId']).where('id', '=', Number(header.supplierId)).executeTakeFirst();
      if (!supplier) throw validationError([{ field: 'supplierId', message: '供应商不存在' }]);
      if (Number(supplier.enabled) !== 1) throw bizError('PURCHASE_SUPPLIER_DISABLED_4092', { name: String(supplier.name) }, { supplierId: Number(header.supplierId) });
      const wh = await tenant.select('warehouse').select(['id', 'name', 'enabled']).where('id', '=', Number(header.warehouseId)).executeTakeFirst();
      if (!wh) throw validationError([{ field: 'warehouseId', message: '仓库不存在' }]);
      if (Number(wh.enabled) !== 1) throw bizError('STOCK_WAREHOUSE_DISABLED_4077', { warehouse: String(wh.name) });
      // the currency: chosen, else the supplier's, else the company's
      let currencyId = header.currencyId == null ? (supplier.currencyId == null ? undefined : Number(supplier.currencyId)) : Number(header.currencyId);
      if (!currencyId) {
        const company = await typed(ctx.db).selectFrom('company').select('currencyId').where('id', '=', tenant.companyId).executeTakeFirst();
        currencyId = company?.currencyId == null ? undefined : Number(company.currencyId);
      }
      if (!currencyId) throw validationError([{ field: 'currencyId', message: '币种不能为空' }]);
      header.currencyId = currencyId;
      header.orderDate ??= today(ctx);
      const { rate, rateDate } = await rateOn(ctx.tenant, currencyId, String(header.orderDate));
      header.exchangeRate = rate;
      header.rateDate = rateDate;

      const products = new Map<number, Row>();
      const ids = [...new Set(lines.map((l) => Number(l.productId)))];
      for (let i = 0; i < ids.length; i += 500) {
        const rows = await tenant.select('product').select(['id', 'code', 'status', 'locked', 'bigQty', 'midQty', 'unitBig', 'unitMid'])
          .where('id', 'in', ids.slice(i, i + 500)).execute();
        for (const r of rows) products.set(Number(r.id), r);
      }
      const raw = sentLines<PackLine>(input);
      const errors: FieldError[] = [];
      lines.forEach((l, i) => {
        const err = (f: string, message: string) => errors.push({ field: `lines.${i}.${f}`, message: `第 ${i + 1} 行：${message}` });
        const where = { line: i + 1, productId: Number(l.productId) };
        const qty = tradeLineQty(l, raw[i]!, products.get(Number(l.productId)), where, (code) => bizError('PURCHASE_PRODUCT_STOPPED_4093', { code }, where), err);
        if (qty === undefined) return;
        const amount = new Decimal(Number(l.price)).div(10_000).times(qty).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).times(100);
        if (amount.greaterThan(Number.MAX_SAFE_INTEGER / 1000)) { err('qty', '金额超出范围'); return; }
        l.qty = qty;
        l.amount = amount.toNumber();
      });
      if (errors.length) throw validationError(errors.slice(0, 200));
      // read above through the company's scope, with their own refusals: the engine need not again
      for (const f of ['supplierId', 'warehouseId', 'productId']) verified.add(f);
      const totalQty = lines.reduce((s, l) => s + Number(l.qty), 0);
      const totalAmount = lines.reduce((s, l) => s + Number(l.amount), 0);
      if (!Number.isSafeInteger(totalQty) || totalAmount > Number.MAX_SAFE_INTEGER / 1000) throw validationError([{ field: 'lines', message: '合计超出范围' }]);
      Object.assign(header, { lineCount: lines.length, totalQty, totalAmount });
    },
    present(_ctx, docs, lines) {
      // what inbound plans can still take (入库计划 is offered only while something is left)
      if (lines) for (const doc of docs) doc.unplannedQty = lines.reduce((s, l) => s + Math.max(0, Number(l.qty) - Number(l.plannedQty)), 0);
      for (const doc of docs) doc.totalAmountBase = new Decimal(String(doc.totalAmount ?? 0)).times(String(doc.exchangeRate ?? 0)).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);
      for (const l of lines ?? []) {
        const qty = Number(l.qty);
        l.units = splitUnits(qty, { bigQty: Number(l.bigQty), midQty: Number(l.midQty), unitBig: l.unitBig as string | null, unitMid: l.unitMid as string | null, unitSmall: l.unitSmall as string | null });
        l.openQty = Math.max(0, qty - Number(l.receivedQty));
      }
    },
  },
  transitions: {
    confirm: {
      label: '确认', from: ['draft'], to: 'confirmed', stamp: 'confirmed', overlay: true,
      confirm: '确定确认采购订单“{docNo}”？确认后不能再修改。', run: recheckOnConfirm,
    },
    close: {
      label: '关闭', from: ['partlyReceived', 'received'], to: 'closed', stamp: 'closed',
      confirm: '确定关闭采购订单“{docNo}”？关闭后不再收货。', run: refuseIfOpenTasks,
    },
    cancel: {
      label: '作废', from: ['draft', 'confirmed'], to: 'cancelled', stamp: 'cancelled', danger: true, overlay: true,
      // a confirmed order can only be cancelled while nothing has been received
      onlyWhen: { confirmed: { receivedQty: 0 } },
      confirm: '确定作废采购订单“{docNo}”？', run: refuseIfDependents,
    },
  },
  followUps: [
    { label: '收货', to: '/entrepot/receivingNoteDetail/new?orderId={id}', statuses: ['confirmed', 'partlyReceived'], right: 'entrepot.receivingNote.edit' },
    { label: '入库计划', to: '/procurement/treasuryPlanOrder?orderId={id}', statuses: ['confirmed', 'partlyReceived'], right: 'procurement.treasuryPlan.edit', when: (doc) => Number(doc.unplannedQty) > 0 },
  ],
  listFilters: ['supplierId', 'warehouseId'],
  dateField: 'orderDate',
  export: {
    header: ['docNo', 'statusText', 'orderDate', 'supplierId', 'warehouseId', { key: 'currencyCode', title: '币种', width: 8 }, 'exchangeRate'],
    lines: [
      'lineNo', { key: 'productCode', title: '商品编码', width: 16 }, { key: 'productName', title: '商品名称', width: 30 }, 'qty', 'price', 'amount',
      { key: 'receivedQty', title: '已收数量', width: 10 }, { key: 'expectedDate', title: '预计到货', width: 12, from: 'doc' }, { key: 'remark', title: '备注', width: 30, from: 'doc' },
    ],
  },
  route: '/procurement/purchaseOrder/{id}',
});
