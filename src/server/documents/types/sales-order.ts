// 销售订单 on the document engine (DESIGN §4.4, issue 13): draft → confirmed (stock committed to the
// order) → partlyShipped → shipped → closed; cancelled from draft, or from confirmed while nothing has
// shipped; a cancelled order can be reopened as a draft (its confirmation checks credit again).
// - Prices: per small unit with up to 4 decimals (× 10^4), a discount in percent (× 10^2), line amount =
//   qty × price × (1 − discount) rounded half-up to the cent; the list price of the order's price list is
//   kept on the line. A net price outside list × limitMultiple … list × ceilingMultiple (company
//   settings, 0 = not checked) is refused on save — the one path every line price is written through
//   (new, edit, copy, import) — unless the caller holds market.order.override; the override is written to
//   the audit trail (超限放行) naming each line.
// - Credit: confirming checks the client's open receivables (finance open items) and open orders
//   (confirmed, partly shipped, shipped, in company currency) plus this one against the client's credit
//   limit (0 = no limit), with the client row locked so two confirmations for one client are checked one
//   after the other; override as above. Until sales invoices exist, shipped orders count as open too.
// - Reservation: confirming commits each line's quantity to the order in its warehouse through the ledger
//   (stock_summary.committed, guarded: available = on hand − reserved − committed, so two confirmations
//   for the last units cannot both pass), recorded on the line (reservedQty) so cancelling or closing
//   releases exactly what is held.
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { splitUnits } from '../../../core/stock-units.ts';
import { holdsRight } from '../../auth/caller.ts';
import type { Tenant } from '../../catalog/tenant.ts';
import { isSqlite, runSql } from '../../db/raw-sql.ts';
import { bizError, validationError, type FieldError } from '../../http/errors.ts';
import { rateOn, today, type Row } from '../../domain/procurement/common.ts';
import { tradeLineQty } from '../../domain/procurement/purchase-order.ts';
import { decidePresale, returnPresale } from '../../domain/sales/presale-lines.ts';
import { checkBounds, listPrices, netPrice, priceBounds, salePriceListId, type BoundBreach } from '../../domain/sales/pricing.ts';
import { pickPromotion, promotionsFor } from '../../domain/sales/promotions.ts';
import { MAX_MOVE_QTY } from '../../domain/stock/ledger.ts';
import { packInputs } from '../pack-inputs.ts';
import { orderLineStages } from '../../domain/outbound/cartons.ts';
import { openOrderExposure } from '../../domain/sales/invoice.ts';
import { defineDocument, sentLines, type TransitionRun } from '../definition.ts';
import { TypedTenant, typed } from '../../db/typed.ts';

export const SO_TITLE = '销售订单';
export const OVERRIDE_RIGHT = 'market.order.override';
const OPEN_STATUSES = ['confirmed', 'partlyShipped', 'shipped'];

/** The bounds a save passed by override, kept from validate to the in-transaction audit. */
const overridden = new WeakMap<Row, BoundBreach[]>();

const cents = (v: unknown) => new Decimal(String(v ?? 0)).div(100).toFixed(2);

/** A line of the raw input: the packs the validate hook turns into a quantity, and the mark of a gift line. */
interface SentLine { giftOf?: unknown; qty?: unknown; big?: unknown; mid?: unknown; small?: unknown }

/** What the credit check and the client lock need of a transition (an order change gives the same). */
export type OrderRun = Pick<TransitionRun, 'ctx' | 'db' | 'tenant' | 'doc'>;

/** Products of the lines that cannot be sold now (locked, stopped): the first one refuses. */
export async function refuseUnsellable(untypedTenant: Tenant, orderId: number) {
  const tenant = TypedTenant.of(untypedTenant);
  const bad = await tenant.select('salesOrderLine').innerJoin('product', (j) => j.onRef('product.id', '=', 'salesOrderLine.productId').onRef('product.companyId', '=', 'salesOrderLine.companyId'))
    .select(['salesOrderLine.lineNo', 'salesOrderLine.productId', 'product.code', 'product.locked', 'product.status']).where('salesOrderLine.orderId', '=', orderId)
    .where((eb) => eb.or([eb('product.locked', '=', 1), eb('product.status', '=', 'stopped')])).orderBy('salesOrderLine.lineNo').limit(1).executeTakeFirst();
  if (!bad) return;
  const where = { line: Number(bad.lineNo), productId: Number(bad.productId), productCode: String(bad.code) };
  if (Number(bad.locked) === 1) throw bizError('PRODUCT_LOCK_4006', {}, where);
  throw bizError('SALES_PRODUCT_STOPPED_4142', { code: String(bad.code) }, where);
}

/** The client row, locked on PostgreSQL until the transaction ends (SQLite has one writer anyway). */
export async function lockedClient(t: OrderRun): Promise<Row> {
  const tenant = TypedTenant.of(t.tenant);
  const id = Number(t.doc.clientId);
  if (!isSqlite(t.db)) await runSql(t.db, 'select 1 from client where company_id = ? and id = ? for update', [tenant.companyId, id]);
  return await tenant.select('client').select(['id', 'name', 'enabled', 'creditLimit']).where('id', '=', id).executeTakeFirstOrThrow();
}

/** The client's open receivables + open orders (this one apart) + this order against its limit; `at` names the check in the audit trail (e.g. 发货). */
export async function checkCredit(t: OrderRun, client: Row, at = '') {
  const tenant = TypedTenant.of(t.tenant);
  const limit = Number(client.creditLimit ?? 0);
  if (!(limit > 0)) return;
  // open orders less what of them posted sales invoices already carry as receivables (counted once, below)
  const openCents = await openOrderExposure(t.tenant, Number(client.id), OPEN_STATUSES, Number(t.doc.id));
  // the client's open receivables (finance open items, company currency)
  const due = await tenant.select('openItem').select(sql<number>`coalesce(sum(${sql.ref('amountBase')} - ${sql.ref('allocatedBase')}), 0)`.as('due'))
    .where('partyType', '=', 'client').where('partyId', '=', Number(client.id)).where('status', '=', 'open').executeTakeFirst();
  const receivable = Number(due?.due ?? 0);
  const amount = Number(t.doc.totalAmountBase ?? 0);
  if (receivable + openCents + amount <= limit) return;
  const figures = { name: String(client.name), limit: cents(limit), receivable: cents(receivable), open: cents(openCents), amount: cents(amount), total: cents(receivable + openCents + amount) };
  if (!holdsRight(t.ctx.caller!, OVERRIDE_RIGHT)) throw bizError('SALES_CREDIT_LIMIT_4145', figures, { id: Number(t.doc.id), clientId: Number(client.id), ...figures });
  await t.ctx.audit({
    action: 'override', entity: 'salesOrder', recordId: Number(t.doc.id), recordLabel: String(t.doc.docNo),
    changes: [{ field: 'creditLimit', title: at ? `信用额度（${at}）` : '信用额度', from: `额度 ${figures.limit}`, to: `应收 ${figures.receivable} + 未结订单 ${figures.open} + 本单 ${figures.amount} = ${figures.total}` }],
  }, t.db);
}

/** Commits every line's quantity to the order in its warehouse (the ledger refuses what is not available). */
async function reserve(t: TransitionRun) {
  const lines = await t.storedLines();
  const warehouseId = Number(t.doc.warehouseId);
  // what is short may be ordered against expected arrivals by a whitelisted client (presale-lines.ts)
  const presale = await decidePresale(t.db, t.tenant, { clientId: Number(t.doc.clientId), warehouseId, orderDate: String(t.doc.orderDate) },
    lines.map((l) => ({ id: Number(l.id), productId: Number(l.productId), qty: Number(l.qty) })));
  await t.postMoves(lines.map((l) => ({
    productId: Number(l.productId), warehouseId, committed: Number(l.qty), kind: 'reserve' as const, docLine: Number(l.lineNo),
    ...(presale.allowance.has(Number(l.productId)) ? { allowance: presale.allowance.get(Number(l.productId)) } : {}),
  })));
  await t.tenant.update('salesOrderLine').set((eb) => ({ reservedQty: eb.ref('qty'), presaleQty: 0, presalePlanId: null })).where('orderId', '=', Number(t.doc.id)).execute();
  for (const [id, p] of presale.lines) await t.tenant.update('salesOrderLine').set({ presaleQty: p.presaleQty, presalePlanId: p.planId }).where('id', '=', id).execute();
  await t.tenant.update('salesOrder').set({ reservedQty: Number(t.doc.totalQty) }).where('id', '=', Number(t.doc.id)).execute();
}

/** Open outbound plans still hold lines of the order: they go first. */
async function refuseIfOpenPlans(t: TransitionRun) {
  const tenant = TypedTenant.of(t.tenant);
  const plans = await tenant.select('deliveryPlan').select('docNo').where('orderId', '=', Number(t.doc.id)).where('status', 'in', ['draft', 'confirmed']).orderBy('id').limit(3).execute();
  if (plans.length) throw bizError('SALES_OPEN_PLANS_4148', { docNo: String(t.doc.docNo), plans: plans.map((p) => String(p.docNo)).join('、') }, { id: Number(t.doc.id), plans: plans.map((p) => String(p.docNo)) });
}

/** Gives back exactly what the lines still hold. */
async function release(t: TransitionRun) {
  await refuseIfOpenPlans(t);
  const stored = await t.storedLines();
  await returnPresale(t.tenant, stored.filter((l) => Number(l.reservedQty) > 0));
  const lines = stored.filter((l) => Number(l.reservedQty) > 0);
  const warehouseId = Number(t.doc.warehouseId);
  await t.postMoves(lines.map((l) => ({ productId: Number(l.productId), warehouseId, committed: -Number(l.reservedQty), kind: 'release' as const, docLine: Number(l.lineNo) })));
  if (lines.length) await t.tenant.update('salesOrderLine').set({ reservedQty: 0 }).where('orderId', '=', Number(t.doc.id)).execute();
  await t.tenant.update('salesOrder').set({ reservedQty: 0 }).where('id', '=', Number(t.doc.id)).execute();
}

export const salesOrder = defineDocument({
  type: 'salesOrder',
  title: SO_TITLE,
  prefix: 'SO',
  table: 'salesOrder',
  managed: true,
  // sales by order date (reports); 数据大屏 reads a month of orders from this index alone (it holds every
  // column the wall sums or groups by), never visiting the order rows
  indexes: [['orderDate', 'status', 'clientId', 'exchangeRate', 'totalAmountBase', 'deliveryAddress']],
  statuses: {
    draft: { label: '草稿', color: 'default' },
    confirmed: { label: '已确认', color: 'blue' },
    partlyShipped: { label: '部分发货', color: 'orange' },
    shipped: { label: '已发货', color: 'green' },
    closed: { label: '已关闭', color: 'purple' },
    cancelled: { label: '已作废', color: 'red' },
  },
  editable: ['draft'],
  removable: ['draft'],
  rights: { read: 'market.list', edit: 'market.order.edit', also: { [OVERRIDE_RIGHT]: '销售订单超限放行（价格上下限、信用额度）' } },
  header: {
    clientId: { type: 'reference', resource: 'client', title: '客户', required: true },
    salesmanId: { type: 'reference', resource: 'staff', title: '业务员' },
    warehouseId: { type: 'reference', resource: 'warehouse', title: '发货仓库', required: true },
    currencyId: { type: 'reference', resource: 'currency', title: '币种' },
    orderDate: { type: 'date', title: '订单日期' },
    priceTitleId: { type: 'reference', resource: 'priceTitle', title: '价格表' },
    companyRiseId: { type: 'reference', resource: 'companyRise', title: '公司抬头' },
    deliveryAddress: { type: 'string', title: '收货地址', maxLength: 200 },
    deliveryDate: { type: 'date', title: '交货日期' },
    paymentTerms: { type: 'string', title: '付款条件', maxLength: 100 },
    facilitatorId: { type: 'reference', resource: 'facilitator', title: '服务商' },
    backOrderPolicy: {
      type: 'enum', title: '欠货处理',
      values: [{ value: 'keep', label: '保留欠货' }, { value: 'cancel', label: '取消欠货' }, { value: 'complete', label: '整单发货' }],
    },
    remark: { type: 'string', title: '备注', maxLength: 500 },
    exchangeRate: { type: 'decimal', scale: 6, title: '汇率', readonly: true },
    rateDate: { type: 'date', title: '汇率日期', readonly: true },
    lineCount: { type: 'integer', title: '明细行数', readonly: true },
    totalQty: { type: 'integer', title: '数量合计', readonly: true },
    totalAmount: { type: 'money', title: '金额合计', readonly: true },
    totalAmountBase: { type: 'money', title: '本位币金额', readonly: true },
    reservedQty: { type: 'integer', title: '已预留', readonly: true, default: 0 },
    shippedQty: { type: 'integer', title: '已发货', readonly: true, default: 0 },
  },
  lines: {
    table: 'salesOrderLine',
    parent: 'orderId',
    max: 2000,
    // 数据大屏's best-selling products: the lines of a month's orders summed from this index alone
    indexes: [['orderId', 'productId', 'qty', 'amount']],
    fields: {
      productId: { type: 'reference', resource: 'product', title: '商品', required: true },
      // in small units, or entered as big/mid/small packs (turned into small units by the hook)
      qty: { type: 'integer', title: '数量', min: 0, max: MAX_MOVE_QTY },
      // empty: the list price
      price: { type: 'decimal', scale: 4, title: '单价', min: 0, max: '1000000000' },
      discount: { type: 'decimal', scale: 2, title: '折扣(%)', min: 0, max: 100, default: 0 },
      listPrice: { type: 'decimal', scale: 4, title: '价格表价', readonly: true },
      amount: { type: 'money', title: '金额', readonly: true },
      reservedQty: { type: 'integer', title: '已预留', readonly: true, default: 0 },
      shippedQty: { type: 'integer', title: '已发货', readonly: true, default: 0 },
      // ordered against expected arrivals (presale-lines.ts), and under which presale plan
      presaleQty: { type: 'integer', title: '预售数量', readonly: true, default: 0 },
      presalePlanId: { type: 'integer', title: '预售计划', readonly: true },
      // held by outbound plans (delivery-plan.ts takes and gives it back)
      plannedQty: { type: 'integer', title: '已计划', readonly: true, default: 0 },
      // held by sales returns not cancelled (domain/sales/sales-return.ts takes and gives it back); never above shipped
      returnedQty: { type: 'integer', title: '已退货', readonly: true, default: 0 },
      // the promotion the line picked up (promotions.ts) and, on a gift line, the line that earned it
      promotionId: { type: 'integer', title: '促销活动', readonly: true },
      promotionText: { type: 'string', title: '促销', readonly: true, maxLength: 300 },
      giftOf: { type: 'integer', title: '赠品（所属行）', readonly: true },
      remark: { type: 'string', title: '备注', maxLength: 200 },
    },
    reads: { productId: ['specification', 'unitBig', 'unitMid', 'unitSmall', 'bigQty', 'midQty'] },
    inputs: packInputs,
  },
  hooks: {
    async validate({ ctx, input, header, lines, verified }) {
      const tenant = TypedTenant.of(ctx.tenant);
      const client = await tenant.select('client').select(['id', 'name', 'enabled', 'currencyId', 'priceTitleId', 'address', 'backOrderPolicy']).where('id', '=', Number(header.clientId)).executeTakeFirst();
      if (!client) throw validationError([{ field: 'clientId', message: '客户不存在' }]);
      if (Number(client.enabled) !== 1) throw bizError('SALES_CLIENT_DISABLED_4141', { name: String(client.name) }, { clientId: Number(header.clientId) });
      const wh = await tenant.select('warehouse').select(['id', 'name', 'enabled']).where('id', '=', Number(header.warehouseId)).executeTakeFirst();
      if (!wh) throw validationError([{ field: 'warehouseId', message: '仓库不存在' }]);
      if (Number(wh.enabled) !== 1) throw bizError('STOCK_WAREHOUSE_DISABLED_4077', { warehouse: String(wh.name) });
      // the currency: chosen, else the client's, else the company's
      let currencyId = header.currencyId ?? client.currencyId ?? undefined;
      if (currencyId == null) {
        const company = await typed(ctx.db).selectFrom('company').select('currencyId').where('id', '=', tenant.companyId).executeTakeFirst();
        currencyId = company?.currencyId ?? undefined;
      }
      if (currencyId == null) throw validationError([{ field: 'currencyId', message: '币种不能为空' }]);
      header.currencyId = Number(currencyId);
      header.orderDate ??= today(ctx);
      const { rate, rateDate } = await rateOn(ctx.tenant, Number(currencyId), String(header.orderDate));
      header.exchangeRate = rate;
      header.rateDate = rateDate;
      header.deliveryAddress ??= client.address ?? null;
      header.backOrderPolicy ??= client.backOrderPolicy ?? 'keep';
      // the price list: chosen, else the client's, else the clerk's or the company's sale list
      const priceTitleId = await salePriceListId(ctx, header.priceTitleId ?? client.priceTitleId);
      if (priceTitleId !== undefined) {
        const list = await tenant.select('priceTitle').select(['name', 'enabled']).where('id', '=', priceTitleId).executeTakeFirst();
        if (!list) throw validationError([{ field: 'priceTitleId', message: '价格表不存在' }]);
        if (Number(list.enabled) !== 1) throw bizError('SALES_PRICE_LIST_4146', { name: String(list.name) }, { priceTitleId });
        header.priceTitleId = priceTitleId;
      }

      const products = new Map<number, Row>();
      const ids = [...new Set(lines.map((l) => Number(l.productId)))];
      for (let i = 0; i < ids.length; i += 500) {
        const rows = await tenant.select('product').select(['id', 'code', 'status', 'locked', 'bigQty', 'midQty', 'unitBig', 'unitMid'])
          .where('id', 'in', ids.slice(i, i + 500)).execute();
        for (const r of rows) products.set(Number(r.id), r);
      }
      const listed = await listPrices(ctx.tenant, { priceTitleId, productIds: [...products.keys()], currencyId: Number(currencyId), date: String(header.orderDate), orderRate: rate });
      const bounds = await priceBounds(ctx);
      // gift lines are made again from the lines that earn them: what was sent as one is dropped
      const sent = sentLines<SentLine>(input);
      const paid = lines.map((_l, i) => i).filter((i) => sent[i]?.giftOf == null);
      const raw = paid.map((i) => sent[i]!);
      lines.splice(0, lines.length, ...paid.map((i) => lines[i]!));
      if (!lines.length) throw validationError([{ field: 'lines', message: '请至少添加一行明细' }]);
      const promos = await promotionsFor(ctx.tenant, { productIds: [...products.keys()], clientPriceTitleId: client.priceTitleId == null ? null : Number(client.priceTitleId), date: String(header.orderDate) });
      const gifts = new Map<Row, Row>();
      const errors: FieldError[] = [];
      const breaches: BoundBreach[] = [];
      lines.forEach((l, k) => {
        // numbered as the clerk's screen numbers them (gift lines included)
        const i = paid[k]!;
        const err = (f: string, message: string) => errors.push({ field: `lines.${i}.${f}`, message: `第 ${i + 1} 行：${message}` });
        const where = { line: i + 1, productId: Number(l.productId) };
        const p = products.get(Number(l.productId));
        const qty = tradeLineQty(l, raw[k]!, p, where, (code) => bizError('SALES_PRODUCT_STOPPED_4142', { code }, where), err);
        if (qty === undefined || !p) return;
        const list = listed.get(Number(l.productId));
        let price = l.price == null ? list?.toDecimalPlaces(4, Decimal.ROUND_HALF_UP) : new Decimal(Number(l.price)).div(10_000);
        if (price === undefined) { err('price', '单价不能为空（商品在价格表中没有价格）'); return; }
        // a promotion when the price is the list price or the one the promotion gives (promotions.ts)
        l.promotionId = null;
        l.promotionText = null;
        l.giftOf = null;
        if (list !== undefined) {
          const listPrice = list.toDecimalPlaces(4, Decimal.ROUND_HALF_UP);
          const picked = pickPromotion(promos.get(Number(l.productId)), { price: listPrice, qty, orderRate: new Decimal(rate), floor: bounds.low.gt(0) ? list.times(bounds.low) : undefined });
          if (picked && (price.eq(listPrice) || price.eq(picked.price))) {
            price = picked.price;
            l.promotionId = picked.promotion.id;
            l.promotionText = picked.text;
            if (picked.giftQty > 0) {
              if (qty + picked.giftQty > MAX_MOVE_QTY) { err('qty', '数量超出范围'); return; }
              gifts.set(l, { productId: l.productId, qty: picked.giftQty, price: 0, discount: 0, listPrice: listPrice.times(10_000).toNumber(), amount: 0,
                promotionId: picked.promotion.id, promotionText: `赠品：${picked.text}`, remark: null });
            }
          }
        }
        const discount = new Decimal(Number(l.discount ?? 0)).div(100);
        const net = netPrice(price, discount);
        const breach = checkBounds(i + 1, String(p.code), net, list, bounds);
        if (breach) breaches.push(breach);
        const amount = net.times(qty).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).times(100);
        if (amount.greaterThan(Number.MAX_SAFE_INTEGER / 1000)) { err('qty', '金额超出范围'); return; }
        l.qty = qty;
        l.price = price.times(10_000).toNumber();
        l.discount = discount.times(100).toNumber();
        l.listPrice = list === undefined ? null : list.toDecimalPlaces(4, Decimal.ROUND_HALF_UP).times(10_000).toNumber();
        l.amount = amount.toNumber();
      });
      if (errors.length) throw validationError(errors.slice(0, 200));
      // each gift line right after the line that earned it, which it names by number
      if (gifts.size) {
        const withGifts: Row[] = [];
        for (const l of lines) {
          withGifts.push(l);
          const g = gifts.get(l);
          if (g) withGifts.push({ ...g, giftOf: withGifts.length });
        }
        if (withGifts.length > 2000) throw validationError([{ field: 'lines', message: '明细最多 2000 行（含赠品行）' }]);
        lines.splice(0, lines.length, ...withGifts);
      }
      if (breaches.length) {
        if (!holdsRight(ctx.caller!, OVERRIDE_RIGHT)) {
          const b = breaches[0]!;
          throw bizError(b.kind === 'low' ? 'SALES_PRICE_LOW_4143' : 'SALES_PRICE_HIGH_4144', { line: b.line, code: b.code, price: b.price, bound: b.bound, list: b.list, multiple: b.multiple },
            { line: b.line, field: `lines.${b.line - 1}.price`, breaches });
        }
        overridden.set(header, breaches);
      }
      for (const f of ['clientId', 'warehouseId', 'productId']) verified.add(f);
      const totalQty = lines.reduce((s, l) => s + Number(l.qty), 0);
      const totalAmount = lines.reduce((s, l) => s + Number(l.amount), 0);
      if (!Number.isSafeInteger(totalQty) || totalAmount > Number.MAX_SAFE_INTEGER / 1000) throw validationError([{ field: 'lines', message: '合计超出范围' }]);
      const totalAmountBase = new Decimal(totalAmount).times(rate).div(1_000_000).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
      Object.assign(header, { lineCount: lines.length, totalQty, totalAmount, totalAmountBase });
    },
    async saving({ ctx, header, db, tenant: untypedTenant, docId }) {
      const tenant = TypedTenant.of(untypedTenant);
      const breaches = overridden.get(header);
      if (!breaches) return;
      const doc = await tenant.select('salesOrder').select('docNo').where('id', '=', docId).executeTakeFirst();
      await ctx.audit({
        action: 'override', entity: 'salesOrder', recordId: docId, recordLabel: doc ? String(doc.docNo) : null,
        changes: breaches.map((b) => ({
          field: `lines.${b.line - 1}.price`, title: `第 ${b.line} 行 ${b.code} 成交价`,
          from: `${b.kind === 'low' ? '最低售价' : '最高售价'} ${b.bound}`, to: b.price,
        })),
      }, db);
    },
    async present(ctx, docs, lines) {
      // open outbound plans (draft or confirmed) of confirmed / partly shipped orders: 作废 and 关闭 are
      // not offered while they hold lines (the transitions refuse them with SALES_OPEN_PLANS_4148)
      const tenant = TypedTenant.of(ctx.tenant);
      const busy = docs.filter((d) => d.status === 'confirmed' || d.status === 'partlyShipped').map((d) => Number(d.id));
      const open = new Map<number, number>();
      if (busy.length) {
        for (const r of await tenant.select('deliveryPlan').select(['orderId']).select((eb) => eb.fn.countAll().as('n'))
          .where('orderId', 'in', busy).where('status', 'in', ['draft', 'confirmed']).groupBy('orderId').execute()) open.set(Number(r.orderId), Number(r.n));
      }
      for (const d of docs) d.openPlanCount = open.get(Number(d.id)) ?? 0;
      // what outbound plans can still take (发货计划 is offered only while something is left)
      if (lines) for (const doc of docs) doc.unplannedQty = lines.reduce((s, l) => s + Math.max(0, Number(l.qty) - Number(l.shippedQty) - Number(l.plannedQty ?? 0)), 0);
      // what sales returns can still take (退货 is offered only while something shipped is not returned)
      if (lines) for (const doc of docs) doc.returnableQty = lines.reduce((s, l) => s + Math.max(0, Number(l.shippedQty) - Number(l.returnedQty ?? 0)), 0);
      for (const l of lines ?? []) l.returnedQty = Number(l.returnedQty ?? 0);
      for (const l of lines ?? []) {
        const qty = Number(l.qty);
        l.units = splitUnits(qty, { bigQty: Number(l.bigQty), midQty: Number(l.midQty), unitBig: l.unitBig as string | null, unitMid: l.unitMid as string | null, unitSmall: l.unitSmall as string | null });
        l.openQty = Math.max(0, qty - Number(l.shippedQty));
      }
      // each line at every stage of the warehouse floor: reserved, picked, packed, loaded, delivered (shipped), signed for
      if (lines?.length && docs[0]?.status !== 'draft') {
        const stages = await orderLineStages(ctx.tenant, lines.map((l) => Number(l.id)));
        for (const l of lines) Object.assign(l, stages.get(Number(l.id)) ?? {});
      }
      // what the warehouse can still promise, shown while the order is a draft (get only)
      const doc = docs[0];
      if (lines?.length && doc && doc.status === 'draft') {
        const ids = [...new Set(lines.map((l) => Number(l.productId)))];
        const stock = new Map<number, number>();
        for (let i = 0; i < ids.length; i += 500) {
          const rows = await tenant.select('stockSummary').select(['productId', 'onHand', 'reserved', 'committed'])
            .where('warehouseId', '=', Number(doc.warehouseId)).where('productId', 'in', ids.slice(i, i + 500)).execute();
          for (const r of rows) stock.set(Number(r.productId), Number(r.onHand) - Number(r.reserved) - Number(r.committed));
        }
        for (const l of lines) l.available = stock.get(Number(l.productId)) ?? 0;
      }
    },
  },
  transitions: {
    confirm: {
      label: '确认', from: ['draft'], to: 'confirmed', right: 'market.order.confirm', stamp: 'confirmed', overlay: true,
      confirm: '确定确认销售订单“{docNo}”？确认后预留库存，不能再修改。',
      async run(t) {
        const client = await lockedClient(t);
        if (Number(client.enabled) !== 1) throw bizError('SALES_CLIENT_DISABLED_4141', { name: String(client.name) }, { id: Number(t.doc.id) });
        await refuseUnsellable(t.tenant, Number(t.doc.id));
        await checkCredit(t, client);
        await reserve(t);
      },
    },
    cancel: {
      label: '作废', from: ['draft', 'confirmed'], to: 'cancelled', right: 'market.order.confirm', stamp: 'cancelled', danger: true, overlay: true,
      // a confirmed order can be cancelled only while nothing has shipped
      onlyWhen: { confirmed: { shippedQty: 0 } },
      offerWhen: (doc) => Number(doc.openPlanCount ?? 0) === 0,
      confirm: '确定作废销售订单“{docNo}”？已预留的库存将释放。', run: release,
    },
    close: {
      label: '关闭', from: ['partlyShipped'], to: 'closed', right: 'market.order.confirm', stamp: 'closed',
      offerWhen: (doc) => Number(doc.openPlanCount ?? 0) === 0,
      confirm: '确定关闭销售订单“{docNo}”？未发货部分不再发货，预留的库存将释放。', run: release,
    },
    reopen: {
      label: '重新打开', from: ['cancelled'], to: 'draft', right: 'market.order.confirm',
      onlyWhen: { cancelled: { shippedQty: 0 } },
      confirm: '将已作废的销售订单“{docNo}”恢复为草稿？再次确认时重新检查信用额度并预留库存。',
    },
  },
  followUps: [
    {
      label: '发货计划', to: '/market/deliveryPlanOrder?orderId={id}', statuses: ['confirmed', 'partlyShipped'], right: 'market.deliveryPlan.edit',
      when: (doc) => Number(doc.unplannedQty) > 0,
    },
    {
      label: '退货', to: '/market/salesReturnDetail/new?orderId={id}', statuses: ['partlyShipped', 'shipped', 'closed'], right: 'market.salesReturn.edit',
      when: (doc) => Number(doc.returnableQty) > 0,
    },
    // money asked before delivery (预收款发票), deducted on the order's invoices once paid
    { label: '开预收款发票', to: '/market/invoicePrepaymentAdd?orderId={id}', statuses: ['confirmed', 'partlyShipped'], right: 'market.invoicePrepaymentAdd' },
  ],
  // what the audit trail records on save (the rate and base amount follow from these)
  audit: ['clientId', 'warehouseId', 'salesmanId', 'currencyId', 'orderDate', 'deliveryDate', 'priceTitleId', 'deliveryAddress', 'backOrderPolicy', 'facilitatorId', 'paymentTerms', 'lineCount', 'totalQty', 'totalAmount', 'remark'],
  listFilters: ['clientId', 'warehouseId', 'salesmanId'],
  // present counts the open outbound plans of each row
  listReads: ['deliveryPlan'],
  dateField: 'orderDate',
  export: {
    header: ['docNo', 'statusText', 'orderDate', 'clientId', 'salesmanId', 'warehouseId', 'currencyId', 'exchangeRate'],
    lines: [
      'lineNo', { key: 'productCode', title: '商品编码', width: 16 }, { key: 'productName', title: '商品名称', width: 30 }, 'qty', 'listPrice', 'price', 'discount', 'amount',
      'reservedQty', 'shippedQty', { key: 'deliveryDate', title: '交货日期', width: 12, from: 'doc' }, { key: 'remark', title: '备注', width: 30, from: 'doc' },
    ],
  },
  route: '/market/orderDetail/{id}',
});
