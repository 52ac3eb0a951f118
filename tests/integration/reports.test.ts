// The purchase report (cdm 019601/019602) and the stock report (019603/019604) on a real database
// (SQLite, or PostgreSQL when DATABASE_URL is set): exact base-currency amounts by supplier, product and
// month, the company-day boundary of receipts, filters, order and paging with totals over every group,
// the .xlsx with its 合计 line, rights, companies kept apart and Chinese messages for bad input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startTestServer, type TestServer } from './helpers.ts';
import { xlsxRows } from './trade-flow.ts';

let t: TestServer;
let demo: string;
let demo2: string;
let clerk: string;
let wh: number;
let supA: { id: number; code: string };
let supB: { id: number; code: string };
let usdId: number;
let catTop: number;
let catChild: number;
let p1: { id: number; code: string };
let p2: { id: number; code: string };
let p3: { id: number; code: string };

const PO = { get: '020202', save: '020203', confirm: '020205', cancel: '020206' };
const RN = { get: '021402', save: '021403' };
const PI = { save: '020303', post: '020304' };
const R = { purchase: '019601', purchaseExport: '019602', stock: '019603', stockExport: '019604' };


async function order(supplierId: number, orderDate: string, lines: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}, confirm = true) {
  const po = await ok(t.call('oms', PO.save, { supplierId, warehouseId: wh, orderDate, lines, ...extra }, demo));
  if (confirm) await ok(t.call('oms', PO.confirm, { id: po.id, version: po.version }, demo));
  return ok(t.call('oms', PO.get, { id: po.id }, demo));
}

/** Receives the given quantities of an order's lines, then moves the posting to `postedAt` (UTC). */
async function receive(o: any, qtys: number[], postedAt: string) {
  const rn = await ok(t.call('oms', RN.save, { orderId: o.id, post: true, lines: o.lines.map((l: any, i: number) => ({ orderLineId: l.id, countedQty: qtys[i] })).filter((l: any) => l.countedQty > 0) }, demo));
  await t.database.db.updateTable('receivingNote').set({ postedAt }).where('id', '=', rn.id).execute();
  return ok(t.call('oms', RN.get, { id: rn.id }, demo));
}

const report = (body: Record<string, unknown>, token = demo) => t.call('cdm', R.purchase, { page: 1, pageSize: 50, ...body }, token);
const rowsOf = (data: any, fields: string[]) => data.list.map((r: any) => fields.map((f) => r[f]));
const MEASURES = ['orderedQty', 'orderedAmount', 'receivedQty', 'receivedAmount', 'invoicedQty', 'invoicedAmount'];


beforeAll(async () => {
  t = await startTestServer({ LOGIN_MAX_FAILURES: '1000', LOGIN_MAX_FAILURES_PER_IP: '100000' });
  demo = await t.login('demo', 'admin', 'demo123');
  demo2 = await t.login('demo2', 'admin', 'demo123');
  clerk = await t.login('demo', 'clerk', 'demo123');
  // A warehouse of their own keeps the seeded stock out of the assertions.
  wh = (await ok(t.call('cdm', '011003', { code: 'RPTW', name: '报表测试仓' }, demo))).id;
  supA = { ...(await ok(t.call('cdm', '011603', { code: 'RPTA', name: '报表供应商甲' }, demo))), code: 'RPTA' };
  supB = { ...(await ok(t.call('cdm', '011603', { code: 'RPTB', name: '报表供应商乙' }, demo))), code: 'RPTB' };
  usdId = (await ok(t.call('cdm', '012101', { page: 1, pageSize: 10 }, demo))).list.find((c: any) => c.code === 'USD').id;
  catTop = (await ok(t.call('cdm', '010403', { code: 'RPTC0', name: '报表大类' }, demo))).id;
  catChild = (await ok(t.call('cdm', '010403', { code: 'RPTC1', name: '报表小类', parentId: catTop }, demo))).id;
  const product = async (code: string, extra: Record<string, unknown>) => ({ ...(await ok(t.call('cdm', '010203', { code, name: `报表商品${code}`, unitSmall: '个', ...extra }, demo))), code });
  p1 = await product('RPT1', { price: '2.50', categoryId: catChild });
  p2 = await product('RPT2', { price: '0.10' });
  p3 = await product('RPT3', { price: '0.33', categoryId: catTop });

  // March, supplier A (CNY): 10 × 1.2345 = 12.345 → 12.35; 3 × 0.005 = 0.015 → 0.02 (per line, half up)
  const o1 = await order(supA.id, '2026-03-10', [{ productId: p1.id, qty: 10, price: '1.2345' }, { productId: p2.id, qty: 3, price: '0.005' }]);
  // received on the company's 31 March (UTC+8): 15:59 UTC is 23:59 there
  const n1 = await receive(o1, [10, 3], '2026-03-31T15:59:00.000Z');
  // invoiced: 7 × 1.2345 = 8.6415 → 8.64
  const inv = await ok(t.call('oms', PI.save, { supplierId: supA.id, invoiceNo: 'RPT-INV-1', invoiceDate: '2026-03-20', lines: [{ receivingLineId: n1.lines[0].id, qty: 7 }] }, demo));
  await ok(t.call('oms', PI.post, { id: inv.id, version: inv.version }, demo));
  // April, supplier B in USD at 7.1234: 4 × 2.5 = 10.00 USD → 71.234 → 71.23 CNY; 2 × 0.3333 = 0.6666 → 0.67 USD → 4.77 CNY
  const o2 = await order(supB.id, '2026-04-02', [{ productId: p1.id, qty: 4, price: '2.5' }, { productId: p3.id, qty: 2, price: '0.3333' }], { currencyId: usdId });
  // received at 16:00 UTC on 31 March = 1 April 00:00 in company time: an April receipt
  await receive(o2, [4, 0], '2026-03-31T16:00:00.000Z');
  // Neither a draft nor a cancelled order counts.
  await order(supA.id, '2026-03-11', [{ productId: p1.id, qty: 1000, price: 1 }], {}, false);
  const cancelled = await order(supA.id, '2026-03-12', [{ productId: p1.id, qty: 2000, price: 1 }]);
  await ok(t.call('oms', PO.cancel, { id: cancelled.id, version: cancelled.version }, demo));
});

afterAll(async () => {
  await t?.close();
});

describe('purchase report', () => {
  it('sums ordered, received and invoiced quantities and base-currency amounts by supplier, with totals over every group', async () => {
    const data = await ok(report({ groupBy: 'supplier', filters: { warehouseId: wh } }));
    expect(rowsOf(data, ['supplierCode', 'supplierName', ...MEASURES])).toEqual([
      ['RPTA', '报表供应商甲', 13, '12.37', 13, '12.37', 7, '8.64'],
      ['RPTB', '报表供应商乙', 6, '76.00', 4, '71.23', 0, '0.00'],
    ]);
    expect(data.total).toBe(2);
    expect(data.totals).toEqual({ orderedQty: 19, orderedAmount: '88.37', receivedQty: 17, receivedAmount: '83.60', invoicedQty: 7, invoicedAmount: '8.64' });
    expect(data.list[0]).toMatchObject({ key: String(supA.id), supplierId: supA.id, label: '报表供应商甲' });
  });

  it('groups by product and by month; a receipt falls in the company-time month of its posting', async () => {
    const byProduct = await ok(report({ groupBy: 'product', filters: { warehouseId: wh } }));
    expect(rowsOf(byProduct, ['productCode', 'unitSmall', ...MEASURES])).toEqual([
      ['RPT1', '个', 14, '83.58', 14, '83.58', 7, '8.64'],
      ['RPT2', '个', 3, '0.02', 3, '0.02', 0, '0.00'],
      ['RPT3', '个', 2, '4.77', 0, '0.00', 0, '0.00'],
    ]);
    const byMonth = await ok(report({ groupBy: 'month', filters: { warehouseId: wh } }));
    expect(rowsOf(byMonth, ['month', ...MEASURES])).toEqual([
      ['2026-03', 13, '12.37', 13, '12.37', 7, '8.64'],
      ['2026-04', 6, '76.00', 4, '71.23', 0, '0.00'],
    ]);
    // the date range is in company days too: 31 March ends at 15:59:59.999 UTC
    const march = await ok(report({ groupBy: 'month', filters: { warehouseId: wh, dateRange: ['2026-03-01', '2026-03-31'] } }));
    expect(rowsOf(march, ['month', 'receivedQty'])).toEqual([['2026-03', 13]]);
    const april = await ok(report({ groupBy: 'supplier', filters: { warehouseId: wh, dateRange: ['2026-04-01', null] } }));
    expect(rowsOf(april, ['supplierCode', 'orderedQty', 'receivedQty', 'invoicedQty'])).toEqual([['RPTB', 6, 4, 0]]);
  });

  it('filters by supplier and product, orders by a measure, pages with totals over all groups', async () => {
    const onlyB = await ok(report({ groupBy: 'product', filters: { warehouseId: wh, supplierId: supB.id } }));
    expect(rowsOf(onlyB, ['productCode', 'orderedAmount'])).toEqual([['RPT1', '71.23'], ['RPT3', '4.77']]);
    const onlyP2 = await ok(report({ groupBy: 'supplier', filters: { warehouseId: wh, productId: p2.id } }));
    expect(rowsOf(onlyP2, ['supplierCode', 'orderedQty', 'receivedAmount'])).toEqual([['RPTA', 3, '0.02']]);
    const page2 = await ok(report({ groupBy: 'product', page: 2, pageSize: 1, sort: { field: 'orderedAmount', order: 'descend' }, filters: { warehouseId: wh } }));
    expect(rowsOf(page2, ['productCode'])).toEqual([['RPT3']]);
    expect(page2.total).toBe(3);
    expect(page2.totals.orderedAmount).toBe('88.37');
  });

  it('filters by the product a user types (code, barcode or part of a name), in every grouping, with exact totals', async () => {
    // RPT1 by its code: both suppliers, each measure only of that product
    const bySupplier = await ok(report({ groupBy: 'supplier', filters: { warehouseId: wh, product: ' RPT1 ' } }));
    expect(rowsOf(bySupplier, ['supplierCode', ...MEASURES])).toEqual([
      ['RPTA', 10, '12.35', 10, '12.35', 7, '8.64'],
      ['RPTB', 4, '71.23', 4, '71.23', 0, '0.00'],
    ]);
    expect(bySupplier.totals).toEqual({ orderedQty: 14, orderedAmount: '83.58', receivedQty: 14, receivedAmount: '83.58', invoicedQty: 7, invoicedAmount: '8.64' });
    const byProduct = await ok(report({ groupBy: 'product', filters: { warehouseId: wh, product: 'rpt1' } }));
    expect(rowsOf(byProduct, ['productCode', ...MEASURES])).toEqual([['RPT1', 14, '83.58', 14, '83.58', 7, '8.64']]);
    expect(byProduct.totals).toEqual(bySupplier.totals);
    const byMonth = await ok(report({ groupBy: 'month', filters: { warehouseId: wh, product: 'RPT1' } }));
    expect(rowsOf(byMonth, ['month', 'orderedQty', 'orderedAmount'])).toEqual([['2026-03', 10, '12.35'], ['2026-04', 4, '71.23']]);
    // part of the name finds every product named so; with a supplier, only that supplier's lines
    const named = await ok(report({ groupBy: 'product', filters: { warehouseId: wh, product: '报表商品' } }));
    expect(named.totals).toEqual({ orderedQty: 19, orderedAmount: '88.37', receivedQty: 17, receivedAmount: '83.60', invoicedQty: 7, invoicedAmount: '8.64' });
    const bRpt3 = await ok(report({ groupBy: 'supplier', filters: { warehouseId: wh, supplierId: supB.id, product: 'RPT3' } }));
    expect(rowsOf(bRpt3, ['supplierCode', 'orderedQty', 'orderedAmount', 'receivedQty'])).toEqual([['RPTB', 2, '4.77', 0]]);
    // nothing found: no groups and zero totals; a typed wildcard finds nothing either
    for (const product of ['没有这个商品', '%', '_']) {
      const none = await ok(report({ groupBy: 'supplier', filters: { warehouseId: wh, product } }));
      expect([none.list, none.total, none.totals.orderedAmount]).toEqual([[], 0, '0.00']);
    }
    expect((await report({ filters: { product: 'x'.repeat(51) } })).msg).toBe('商品长度不能超过 50 个字符');
    // the export takes the same condition
    const res = await t.raw('cdm', R.purchaseExport, { groupBy: 'supplier', filters: { warehouseId: wh, product: 'RPT1' } }, demo);
    expect((await xlsxRows(res.rawPayload)).at(-1)).toEqual(['合计', null, 14, 83.58, 14, 83.58, 7, 8.64]);
  });

  it('refuses bad conditions in Chinese, another company sees nothing, the right is needed', async () => {
    const bad = await report({ filters: { dateRange: ['2026-02-30', null] } });
    expect(bad.code).toBe('COMMON_VALIDATION_4000');
    expect(bad.msg).toBe('开始日期不是有效的日期（YYYY-MM-DD）');
    const reversed = await report({ filters: { dateRange: ['2026-05-01', '2026-04-01'] } });
    expect(reversed.msg).toBe('开始日期不能晚于结束日期');
    expect((await report({ groupBy: 'week' })).msg).toBe('汇总方式取值不正确');
    expect((await report({ sort: { field: 'secret' } })).msg).toBe('不能按“secret”排序');
    // another company's supplier is unknown here
    expect((await report({ filters: { supplierId: supA.id } }, demo2)).msg).toBe('供应商不存在');
    const other = await ok(report({ groupBy: 'supplier' }, demo2));
    expect(other.list.filter((r: any) => String(r.supplierCode).startsWith('RPT'))).toEqual([]);
    expect((await report({}, clerk)).code).toBe('COMMON_NO_RIGHT_4003');
  });

  it('exports every group and the 合计 line as .xlsx', async () => {
    const res = await t.raw('cdm', R.purchaseExport, { groupBy: 'supplier', filters: { warehouseId: wh } }, demo);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(decodeURIComponent(String(res.headers['content-disposition']))).toMatch(/采购报表_按供应商_\d{8}\.xlsx/);
    expect(await xlsxRows(res.rawPayload)).toEqual([
      ['供应商编码', '供应商', '订购数量', '订购金额', '收货数量', '收货金额', '开票数量', '开票金额'],
      ['RPTA', '报表供应商甲', 13, 12.37, 13, 12.37, 7, 8.64],
      ['RPTB', '报表供应商乙', 6, 76, 4, 71.23, 0, 0],
      ['合计', null, 19, 88.37, 17, 83.6, 7, 8.64],
    ]);
  });
});

describe('stock report', () => {
  const stock = (body: Record<string, unknown>, token = demo) => ok(t.call('cdm', R.stock, { page: 1, pageSize: 50, ...body }, token));

  it('sums on hand, reserved, available and value at reference price by warehouse', async () => {
    const data = await stock({ groupBy: 'warehouse', filters: { warehouseId: wh } });
    // p1: 10 + 4 = 14 × 2.50 = 35.00; p2: 3 × 0.10 = 0.30
    expect(rowsOf(data, ['warehouseCode', 'warehouseName', 'productCount', 'onHand', 'reserved', 'available', 'value'])).toEqual([
      ['RPTW', '报表测试仓', 2, 17, 0, 17, '35.30'],
    ]);
    expect(data.totals).toEqual({ productCount: 2, onHand: 17, reserved: 0, available: 17, value: '35.30' });
    // all warehouses (whatever else the company holds): totals add up the groups exactly
    const all = await stock({ groupBy: 'warehouse' });
    expect(all.list.some((r: any) => r.warehouseCode === 'RPTW')).toBe(true);
    const sum = all.list.reduce((s: bigint, r: any) => s + BigInt(r.value.replace('.', '')), 0n);
    expect(all.totals.value.replace('.', '')).toBe(String(sum));
  });

  it('groups by category (未分类 for products without one) and filters a category with those below it', async () => {
    const data = await stock({ groupBy: 'category', filters: { warehouseId: wh } });
    expect(rowsOf(data, ['categoryCode', 'categoryName', 'onHand', 'value'])).toEqual([
      [null, '未分类', 3, '0.30'],
      ['RPTC1', '报表小类', 14, '35.00'],
    ]);
    const top = await stock({ groupBy: 'category', filters: { categoryId: catTop } });
    expect(rowsOf(top, ['categoryCode', 'onHand'])).toEqual([['RPTC1', 14]]);
    expect((await t.call('cdm', R.stock, { filters: { categoryId: 999999 } }, demo)).msg).toBe('商品类别不存在');
    expect((await t.call('cdm', R.stock, { groupBy: 'colour' }, demo)).msg).toBe('汇总方式取值不正确');
  });

  it('exports the stock report with its 合计 line', async () => {
    const res = await t.raw('cdm', R.stockExport, { groupBy: 'category', filters: { warehouseId: wh } }, demo);
    expect(await xlsxRows(res.rawPayload)).toEqual([
      ['类别编码', '商品类别', '商品数', '现有数量', '预留数量', '可用数量', '库存金额（参考价）'],
      [null, '未分类', 1, 3, 0, 3, 0.3],
      ['RPTC1', '报表小类', 1, 14, 0, 14, 35],
      ['合计', null, 2, 17, 0, 17, 35.3],
    ]);
  });
});
