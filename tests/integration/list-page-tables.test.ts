// A kept list page (resources/page-cache.ts) is trusted while the tables it declares are unwritten, so
// it must declare every table it reads. Each kept list runs here with a keyword, filters and a sort while
// SQLite's statements are observed; the tables named after FROM and JOIN in what ran must all be
// declared. (SQLite only: the statements are observed through better-sqlite3; PostgreSQL runs the same
// queries.)
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFlags } from '../../src/core/flags.ts';
import type { CallContext, Caller, OpHandler } from '../../src/server/catalog/context.ts';
import { allDocumentDefinitions, loadDocumentTypes, withDocumentEndpoints } from '../../src/server/documents/index.ts';
import { buildRightsCatalog } from '../../src/server/catalog/rights-catalog.ts';
import { loadCatalog } from '../../src/server/catalog/load-catalog.ts';
import { Tenant } from '../../src/server/catalog/tenant.ts';
import { validateInput } from '../../src/server/catalog/validate-input.ts';
import { inTransaction } from '../../src/server/http/transaction.ts';
import { writeAudit } from '../../src/server/http/logs.ts';
import { allOps } from '../../src/server/ops/index.ts';
import { loadResources, resourceResolver } from '../../src/server/resources/index.ts';
import { KEPT_LISTS, pageTables } from '../../src/server/resources/page-cache.ts';
import { isPostgres, startTestServer, type TestServer } from './helpers.ts';

const READ = /\b(?:from|join)\s+"?([A-Za-z_][A-Za-z0-9_]*)"?/gi;
/** Names after FROM/JOIN that are not tables: SQL functions and aliases of our own subqueries. */
const NOT_TABLES = new Set(['json_each', 'json_array_elements_text', 'v', 'x']);

let t: TestServer;
let companyId: number;
let accountId: number;
const seen: string[] = [];
let observing = false;
const restore: Array<() => void> = [];

function observeStatements(): void {
  const probe = new SQLite(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, (...a: unknown[]) => unknown>;
  probe.close();
  for (const m of ['all', 'get', 'run', 'iterate']) {
    const orig = proto[m];
    proto[m] = function (this: { source: string }, ...args: unknown[]) {
      if (observing) seen.push(this.source);
      return orig.apply(this, args);
    };
    restore.push(() => { proto[m] = orig; });
  }
}

function tablesRead(sqlTexts: string[]): string[] {
  const out = new Set<string>();
  for (const s of sqlTexts) for (const m of s.matchAll(READ)) if (!NOT_TABLES.has(m[1].toLowerCase())) out.add(m[1].toLowerCase());
  return [...out].sort();
}

function contextFor(): CallContext {
  const db = t.database.db;
  const tenant = new Tenant(db, companyId);
  const caller: Caller = {
    sessionId: 'test', accountId, userName: 'admin', allRights: true, rights: new Set(), withheld: new Set(), wall: false,
    company: { id: companyId, code: 'demo', name: 'demo', timeZone: 8, flags: parseFlags('{}'), operator: false },
  };
  return {
    family: 'cdm', entry: { code: '000000', name: 'test', method: 'POST', body: 'json', response: 'json', permission: '1', handler: 'test' },
    database: t.database, db, config: { ...t.config, listPageCache: false }, ip: '127.0.0.1', userAgent: 'vitest', headers: {}, query: {}, token: null, caller, tenant, documents: new Map(),
    transaction: (fn) => inTransaction(db, (trx) => fn(trx, tenant.with(trx))),
    audit: (e, d) => writeAudit(d ?? db, caller, '127.0.0.1', 'test', e),
  };
}

/** The tables one handler call read. */
async function readBy(handler: OpHandler, body: unknown): Promise<string[]> {
  seen.length = 0;
  observing = true;
  try {
    await handler.run(contextFor(), validateInput(handler.input, body));
  } finally {
    observing = false;
  }
  return tablesRead(seen);
}

/**
 * Inputs for each kept list (keptList): the plain first page, and one with every filter it has set
 * to something that exists. A list kept without inputs here fails the test.
 */
async function samplesOf(): Promise<Record<string, unknown[]>> {
  const token = await t.login('demo', 'admin', 'demo123');
  const ok = async (family: 'cdm' | 'oms', code: string, body: unknown) => {
    const r = await t.call(family, code, body, token);
    if (r.code !== '200') throw new Error(`${code} ${r.code} ${r.msg}`);
    return r.data;
  };
  const category = await ok('cdm', '010403', { code: 'KPC1', name: '保留页类别' });
  const supplier = await ok('cdm', '011603', { code: 'KPS1', name: '保留页供应商' });
  const product = await ok('cdm', '010203', { code: 'KPP1', name: '保留页商品', categoryId: category.id, price: '2' });
  const wh = (await ok('cdm', '011001', { page: 1, pageSize: 1 })).list[0].id;
  const order = await ok('oms', '020203', { supplierId: supplier.id, warehouseId: wh, lines: [{ productId: product.id, qty: 10, price: '2' }] });
  await ok('oms', '020205', { id: order.id, version: order.version });
  // Documents to list (an empty page skips the queries that name its rows' references).
  const orderLine = (await ok('oms', '020202', { id: order.id })).lines[0];
  const location = await ok('cdm', '011103', { warehouseId: wh, lcCode: 'KP-01' });
  await ok('cdm', '011203', { productId: product.id, warehouseId: wh, locationId: location.id });
  const note = await ok('oms', '021403', { orderId: order.id, post: true, lines: [{ orderLineId: orderLine.id, countedQty: 4 }] });
  const putaway = await ok('oms', '021503', { receivingNoteId: note.id, post: true });
  const box = await ok('oms', '021603', { containerNo: 'KPCU1234565', containerType: '40HQ', eta: '2026-12-20' });
  const order2 = await ok('oms', '020203', { supplierId: supplier.id, warehouseId: wh, lines: [{ productId: product.id, qty: 10, price: '2' }] });
  await ok('oms', '020205', { id: order2.id, version: order2.version });
  const line2 = (await ok('oms', '020202', { id: order2.id })).lines[0];
  const plan = await ok('oms', '021203', { orderId: order2.id, containerId: box.id, lines: [{ orderLineId: line2.id, qty: 5 }] });
  const task = (await ok('oms', '021204', { id: plan.id, version: plan.version })).taskDocNo as string;
  const init = await ok('oms', '022603', { warehouseId: wh, post: true, lines: [{ productId: product.id, locationId: location.id, qty: 5 }] });
  const adjust = await ok('oms', '022703', { warehouseId: wh, reason: 'loss', post: true, lines: [{ productId: product.id, locationId: location.id, qty: -1 }] });
  const ret = await ok('oms', '021703', { receivingNoteId: note.id, reason: '质量问题' });
  const noteLine = (await ok('oms', '021402', { id: note.id })).lines[0];
  const invoice = await ok('oms', '020303', { supplierId: supplier.id, invoiceNo: 'KP-INV-1', post: true, lines: [{ receivingLineId: noteLine.id, qty: 1 }] });
  const client = (await ok('cdm', '011701', { page: 1, pageSize: 1 })).list[0];
  const staff = (await ok('cdm', '013201', { page: 1, pageSize: 1 })).list[0];
  const so = await ok('oms', '020903', { clientId: client.id, salesmanId: staff.id, warehouseId: wh, lines: [{ productId: product.id, qty: 2 }] });
  await ok('oms', '020905', { id: so.id, version: so.version });
  const soLine = (await ok('oms', '020902', { id: so.id })).lines[0];
  const dp = await ok('oms', '020703', { orderId: so.id, transportMode: 'truck', lines: [{ orderLineId: soLine.id, qty: 1 }] });
  const take = await ok('oms', '024203', { warehouseId: wh, productCodes: 'KPP1' });
  // the outbound floor: a second order's plan confirmed (its task), picked and shipped
  const so2 = await ok('oms', '020903', { clientId: client.id, warehouseId: wh, lines: [{ productId: product.id, qty: 1 }] });
  await ok('oms', '020905', { id: so2.id, version: so2.version });
  const so2Line = (await ok('oms', '020902', { id: so2.id })).lines[0];
  const dp2 = await ok('oms', '020703', { orderId: so2.id, lines: [{ orderLineId: so2Line.id, qty: 1 }] });
  const ot = await ok('oms', '020705', { id: dp2.id, version: dp2.version });
  await ok('oms', '021307', { id: ot.taskId, assigneeId: staff.id });
  const pk = await ok('oms', '024003', { taskIds: [ot.taskId], pickerId: staff.id, post: true });
  // packed into a carton, loaded, shipped by the note made from the loading list; a pick-up task of the note
  const ct = await ok('oms', '021903', { taskId: ot.taskId, weight: '1', volume: '0.01', seal: true });
  const ll = await ok('oms', '021913', { warehouseId: wh, mode: 'truck', vehicleNo: '浙A00001', lines: [{ cartonId: ct.id }], load: true });
  const dn = await ok('oms', '024103', { loadingListId: ll.id, post: true });
  const th = await ok('oms', '021923', { deliveryNoteId: dn.id });
  const mt = await ok('oms', '022013', { warehouseId: wh, productId: product.id, qty: 5, assigneeId: staff.id });
  const zn = await ok('oms', '022023', { warehouseId: wh, elevatorCode: 'VL1', trayNo: 'T1', mode: 'pick', productId: product.id, qty: 1 });
  // sales invoices: the shipped line invoiced, and a red invoice (an allowance) against it
  const siLine = (await ok('oms', '022406', { clientId: client.id })).list[0];
  const si = await ok('oms', '022403', { clientId: client.id, post: true, lines: [{ deliveryLineId: siLine.deliveryLineId, qty: 1, price: '2' }] });
  const siDoc = await ok('oms', '022402', { id: si.id });
  const hz = await ok('oms', '022414', { invoiceId: si.id, reason: 'allowance', post: true, lines: [{ invoiceLineId: siDoc.lines[0].id, amount: '0.50' }] });
  const zk = await ok('oms', '022423', { clientId: client.id, post: true, lines: [{ invoiceId: si.id, amount: '0.50' }] });
  const pf = await ok('oms', '022433', { orderId: so.id, mode: 'qty' });
  // an issued proforma withdrawn in part (形式发票红冲)
  const pfIssued = await ok('oms', '022433', { orderId: so.id, mode: 'qty', confirm: true });
  const pfc = await ok('oms', '022453', { proformaId: pfIssued.id, reason: 'other' });
  const sr = await ok('oms', '021103', { orderId: so2.id, returnDate: '2026-01-02', lines: [{ orderLineId: so2Line.id, qty: 1 }] });
  const ob = await ok('oms', '026213', { side: 'receivable', clientId: client.id, amount: '100', post: true });
  const receipt = await ok('oms', '026003', { direction: 'receipt', clientId: client.id, amount: '50', post: true });
  const refund = await ok('oms', '026403', { partyType: 'client', clientId: client.id, post: true, lines: [{ payDocumentId: receipt.id, amount: '10' }] });
  const day = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  const docs = (docNo: string) => ({ page: 1, pageSize: 5, docNo, warehouseId: wh, status: 'posted', dateFrom: '2020-01-01', dateTo: day });
  return {
    'stock.inventory': [{ page: 1, pageSize: 5 }, { page: 2, pageSize: 5, keyword: '螺丝', warehouseId: wh, onlyInStock: true, categoryId: category.id, productId: product.id }],
    'stock.distribution': [{ page: 1, pageSize: 5 }, { page: 2, pageSize: 5, keyword: '螺丝', productId: product.id, warehouseId: wh, lcCode: 'A-01', zone: 'A', onlyInStock: false }],
    'purchaseOrder.list': [{ page: 1, pageSize: 5 }, { page: 1, pageSize: 5, docNo: order.docNo, supplierId: supplier.id, warehouseId: wh, status: 'confirmed', dateFrom: '2020-01-01', dateTo: day }],
    'receivingNote.list': [{ page: 1, pageSize: 5 }, docs(note.docNo)],
    'putaway.list': [{ page: 1, pageSize: 5 }, docs(putaway.docNo)],
    'inboundPlan.list': [{ page: 1, pageSize: 5 }, { page: 1, pageSize: 5, docNo: plan.docNo, orderId: order2.id, containerId: box.id, warehouseId: wh, status: 'confirmed', dateFrom: '2020-01-01', dateTo: '2030-01-01' }],
    'inboundTask.list': [{ page: 1, pageSize: 5 }, { page: 1, pageSize: 5, docNo: task, orderId: order2.id, planId: plan.id, containerId: box.id, warehouseId: wh, status: 'open', dateFrom: '2020-01-01', dateTo: day }],
    'stockInit.list': [{ page: 1, pageSize: 5 }, docs(init.docNo)],
    'purchaseInvoice.list': [{ page: 1, pageSize: 5 }, {
      page: 1, pageSize: 5, docNo: invoice.docNo, supplierId: supplier.id, status: 'posted', dateFrom: '2020-01-01', dateTo: day, invoiceDate: ['2020-01-01', day],
    }],
    'returnPlan.list': [{ page: 1, pageSize: 5 }, { page: 1, pageSize: 5, docNo: ret.docNo, supplierId: supplier.id, warehouseId: wh, status: 'draft', dateFrom: '2020-01-01', dateTo: day }],
    'salesOrder.list': [{ page: 1, pageSize: 5 }, { page: 1, pageSize: 5, docNo: so.docNo, clientId: client.id, salesmanId: staff.id, warehouseId: wh, status: 'confirmed', dateFrom: '2020-01-01', dateTo: day }],
    'deliveryPlan.list': [{ page: 1, pageSize: 5 }, { page: 1, pageSize: 5, docNo: dp.docNo, orderId: so.id, clientId: client.id, warehouseId: wh, transportMode: 'truck', status: 'draft', dateFrom: '2020-01-01', dateTo: day }],
    'outboundTask.list': [{ page: 1, pageSize: 5 }, { page: 1, pageSize: 5, docNo: ot.taskDocNo, orderId: so2.id, planId: dp2.id, clientId: client.id, warehouseId: wh, assigneeId: staff.id, status: 'done', dateFrom: '2020-01-01', dateTo: day }, { page: 1, pageSize: 5, toDeliver: true }],
    'pickingOrder.list': [{ page: 1, pageSize: 5 }, { page: 1, pageSize: 5, docNo: pk.docNo, warehouseId: wh, taskId: ot.taskId, pickerId: staff.id, status: 'posted', dateFrom: '2020-01-01', dateTo: day }],
    'deliveryNote.list': [{ page: 1, pageSize: 5 }, { page: 1, pageSize: 5, docNo: dn.docNo, taskId: ot.taskId, loadingListId: ll.id, orderId: so2.id, clientId: client.id, warehouseId: wh, status: 'posted', dateFrom: '2020-01-01', dateTo: day }],
    'carton.list': [{ page: 1, pageSize: 5 }, { page: 1, pageSize: 5, docNo: ct.docNo, taskId: ot.taskId, orderId: so2.id, clientId: client.id, warehouseId: wh, loadingListId: ll.id, status: 'shipped', dateFrom: '2020-01-01', dateTo: day }],
    'loadingList.list': [{ page: 1, pageSize: 5 }, { page: 1, pageSize: 5, docNo: ll.docNo, warehouseId: wh, mode: 'truck', status: 'shipped', dateFrom: '2020-01-01', dateTo: day }],
    'liftingTask.list': [{ page: 1, pageSize: 5 }, { page: 1, pageSize: 5, docNo: th.docNo, clientId: client.id, warehouseId: wh, deliveryNoteId: dn.id, status: 'open', dateFrom: '2020-01-01', dateTo: day }],
    'markerTask.list': [{ page: 1, pageSize: 5 }, { page: 1, pageSize: 5, docNo: mt.docNo, warehouseId: wh, productId: product.id, assigneeId: staff.id, status: 'open', dateFrom: '2020-01-01', dateTo: day }],
    'elevatorTask.list': [{ page: 1, pageSize: 5 }, { page: 1, pageSize: 5, docNo: zn.docNo, warehouseId: wh, elevatorCode: 'VL1', productId: product.id, mode: 'pick', status: 'queued', dateFrom: '2020-01-01', dateTo: day }],
    'salesInvoice.list': [{ page: 1, pageSize: 5 }, {
      page: 1, pageSize: 5, docNo: si.docNo, clientId: client.id, status: 'posted', dateFrom: '2020-01-01', dateTo: day, invoiceDate: ['2020-01-01', day],
    }],
    'salesCredit.list': [{ page: 1, pageSize: 5 }, { page: 1, pageSize: 5, docNo: hz.docNo, invoiceId: si.id, clientId: client.id, status: 'posted', dateFrom: '2020-01-01', dateTo: day }],
    'salesDiscount.list': [{ page: 1, pageSize: 5 }, { page: 1, pageSize: 5, docNo: zk.docNo, clientId: client.id, status: 'posted', dateFrom: '2020-01-01', dateTo: day }],
    'prepaymentInvoice.list': [{ page: 1, pageSize: 5 }, { page: 1, pageSize: 5, docNo: 'YS', orderId: so.id, clientId: client.id, status: 'posted', dateFrom: '2020-01-01', dateTo: day }],
    'proformaCredit.list': [{ page: 1, pageSize: 5 }, { page: 1, pageSize: 5, docNo: pfc.docNo, proformaId: pfIssued.id, clientId: client.id, status: 'draft', dateFrom: '2020-01-01', dateTo: day }],
    'proformaInvoice.list': [{ page: 1, pageSize: 5 }, { page: 1, pageSize: 5, docNo: pf.docNo, orderId: so.id, clientId: client.id, status: 'draft', dateFrom: '2020-01-01', dateTo: day }],
    'salesReturn.list': [{ page: 1, pageSize: 5 }, { page: 1, pageSize: 5, docNo: sr.docNo, orderId: so2.id, clientId: client.id, warehouseId: wh, status: 'draft', dateFrom: '2020-01-01', dateTo: day }],
    'stockAdjust.list': [{ page: 1, pageSize: 5 }, { ...docs(adjust.docNo), reason: 'loss' }],
    'stockTake.list': [{ page: 1, pageSize: 5 }, { ...docs(take.docNo), status: 'counting' }],
    'openingBalance.list': [{ page: 1, pageSize: 5 }, { page: 1, pageSize: 5, docNo: ob.docNo, side: 'receivable', clientId: client.id, status: 'posted', dateFrom: '2020-01-01', dateTo: day }],
    'advanceRefund.list': [{ page: 1, pageSize: 5 }, {
      page: 1, pageSize: 5, docNo: refund.docNo, partyType: 'client', clientId: client.id, supplierId: null, currencyId: null, method: null, status: 'posted', dateFrom: '2020-01-01', dateTo: day,
    }],
    'payDocument.list': [{ page: 1, pageSize: 5 }, {
      page: 1, pageSize: 5, docNo: receipt.docNo, direction: 'receipt', clientId: client.id, currencyId: null, method: null, status: 'posted', dateFrom: '2020-01-01', dateTo: day,
    }],
    'report.purchase': ['supplier', 'product', 'month'].flatMap((groupBy) => [
      { page: 1, pageSize: 5, groupBy },
      { page: 1, pageSize: 5, groupBy, dateRange: ['2020-01-01', day], supplierId: supplier.id, warehouseId: wh, productId: product.id, product: 'KPP' },
    ]),
    'report.stock': ['warehouse', 'category'].flatMap((groupBy) => [
      { page: 1, pageSize: 5, groupBy },
      { page: 1, pageSize: 5, groupBy, warehouseId: wh, categoryId: category.id, onlyInStock: false },
    ]),
    'report.sale': ['day', 'week', 'month', 'client', 'product', 'category', 'staff', 'warehouse'].flatMap((groupBy) => [
      { page: 1, pageSize: 5, groupBy },
      { page: 1, pageSize: 5, groupBy, dateRange: ['2020-01-01', day], clientId: client.id, salesmanId: staff.id, warehouseId: wh, categoryId: category.id, product: 'KPP' },
    ]),
    'report.presale': ['plan', 'product', 'client', 'day', 'week', 'month'].flatMap((groupBy) => [
      { page: 1, pageSize: 5, groupBy },
      { page: 1, pageSize: 5, groupBy, dateRange: ['2020-01-01', day], clientId: client.id, warehouseId: wh, product: 'KPP' },
    ]),
    'report.invoicing': ['day', 'week', 'month', 'client', 'product'].flatMap((groupBy) => [
      { page: 1, pageSize: 5, groupBy },
      { page: 1, pageSize: 5, groupBy, dateRange: ['2020-01-01', day], clientId: client.id, product: 'KPP' },
    ]),
    'report.receivable': ['month', 'week', 'client'].flatMap((groupBy) => [
      { page: 1, pageSize: 5, groupBy },
      { page: 1, pageSize: 5, groupBy, dateRange: ['2020-01-01', day], clientId: client.id, sourceType: 'salesInvoice', onlyOpen: true },
    ]),
    'report.payable': ['month', 'week', 'supplier'].flatMap((groupBy) => [
      { page: 1, pageSize: 5, groupBy },
      { page: 1, pageSize: 5, groupBy, dateRange: ['2020-01-01', day], supplierId: supplier.id, sourceType: 'purchaseInvoice', onlyOpen: true },
    ]),
    'report.closings': [{ page: 1, pageSize: 5 }, { page: 2, pageSize: 5 }],
    'report.cash': ['day', 'week', 'month', 'method'].flatMap((groupBy) => [
      { page: 1, pageSize: 5, groupBy },
      { page: 1, pageSize: 5, groupBy, dateRange: ['2020-01-01', day], method: 'bank' },
    ]),
    'report.directSelling': ['day', 'week', 'month', 'client', 'product', 'category', 'staff', 'warehouse'].flatMap((groupBy) => [
      { page: 1, pageSize: 5, groupBy },
      { page: 1, pageSize: 5, groupBy, dateRange: ['2020-01-01', day], channel: 'direct', clientId: client.id, salesmanId: staff.id, warehouseId: wh, categoryId: category.id, product: 'KPP' },
    ]),
    'report.otherMoves': ['type', 'day', 'week', 'month', 'product', 'category', 'warehouse'].flatMap((groupBy) => [
      { page: 1, pageSize: 5, groupBy },
      { page: 1, pageSize: 5, groupBy, dateRange: [day, day], moveType: 'adjust', warehouseId: wh, categoryId: category.id, product: 'KPP' },
    ]),
  };
}

beforeAll(async () => {
  // no heartbeat while statements are observed (the start-up beat has been written when the server is up)
  t = await startTestServer({ HEARTBEAT_SECONDS: '86400' });
  const c = await t.database.db.selectFrom('company').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow();
  companyId = Number(c.id);
  const a = await t.database.db.selectFrom('account').select('id').where('companyId', '=', companyId).where('userName', '=', 'admin').executeTakeFirstOrThrow();
  accountId = Number(a.id);
  if (!isPostgres()) observeStatements();
});

afterAll(async () => {
  for (const r of restore) r();
  await t?.close();
});

describe.skipIf(isPostgres())('kept list pages declare every table they read', () => {
  it('every generic resource list, with a keyword, filters and each sort', async () => {
    const reg = loadResources();
    const resolve = resourceResolver(reg);
    let checked = 0;
    for (const r of reg.resources.values()) {
      const list = resolve(r.name, 'list');
      if (!list) continue;
      const declared = pageTables(reg, r);
      const filterable = r.fields.find((f) => f.filterable && f.type === 'string' && !f.format && !f.pattern);
      const bodies = [
        { page: 1, pageSize: 5 },
        { page: 1, pageSize: 5, keyword: '测试ab', ...(filterable ? { filters: { [filterable.name]: 'x' } } : {}) },
        { page: 3, pageSize: 5, keyword: 'ab', sort: { field: r.defaultSort?.field ?? 'id', order: 'descend' }, withTotals: true },
      ];
      for (const body of bodies) {
        const read = await readBy(list, body);
        expect(read.length, `${r.name} read nothing?`).toBeGreaterThan(0);
        expect(read.filter((x) => !declared.includes(x)), `${r.name} ${JSON.stringify(body)} reads undeclared tables`).toEqual([]);
      }
      checked++;
    }
    expect(checked).toBeGreaterThan(15);
  });

  it('every hand-written kept list, with every filter set', async () => {
    const definitions = allDocumentDefinitions();
    const catalog = withDocumentEndpoints(loadCatalog(), definitions);
    const resources = loadResources();
    const ops = allOps({ catalog, rights: buildRightsCatalog(catalog), resources, documents: loadDocumentTypes(catalog, resources, definitions) });
    const samples = await samplesOf();
    expect([...KEPT_LISTS.keys()].sort()).toEqual(Object.keys(samples).sort());
    for (const [op, declared] of KEPT_LISTS) {
      for (const body of samples[op]) {
        const read = await readBy(ops[op], body);
        expect(read.length, `${op} read nothing?`).toBeGreaterThan(0);
        expect(read.filter((x) => !declared.includes(x)).join(', '), `${op} ${JSON.stringify(body)} reads undeclared tables`).toBe('');
      }
    }
  });
});
