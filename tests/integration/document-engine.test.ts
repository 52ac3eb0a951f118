// The document engine over HTTP with a document type declared in one file (tests/fixtures/documents/
// transfer-order.ts) and nothing else: its tables, catalog codes and rights come from the definition.
// Save (numbers, versions, field and reference checks), the actions `get` offers per status and right,
// confirm → post (ledger moves) → repeal (reversed), one winner of two concurrent confirms, the audit
// trail, the document chain (/docRelate) and company isolation — on SQLite and PostgreSQL.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startTestServer, type TestServer } from './helpers.ts';
import { transferOrder } from '../fixtures/documents/transfer-order.ts';

const TO = { list: '029901', get: '029902', save: '029903', remove: '029904', relate: '029905', confirm: '029906', post: '029907', cancel: '029908', repeal: '029909', export: '029910' };

let t: TestServer;
let admin: string;
let wh: number;
let locA: number;
let locB: number;
let productId: number;

async function onHand(locationId: number) {
  const row = await t.database.db.selectFrom('stockBalance').select(['onHand']).where('productId', '=', productId).where('warehouseId', '=', wh).where('locationId', '=', locationId).executeTakeFirst();
  return row ? Number(row.onHand) : 0;
}

const draft = (lines = [{ productId, fromLocationId: locA, toLocationId: locB, qty: 30 }], extra: Record<string, unknown> = {}) =>
  t.call('oms', TO.save, { warehouseId: wh, transferDate: '2026-11-26', remark: '移到拣货位', lines, ...extra }, admin);

beforeAll(async () => {
  t = await startTestServer({}, undefined, { documents: [transferOrder] });
  admin = await t.login();
  wh = (await ok(t.call('cdm', '011003', { code: 'YKW', name: '移库仓' }, admin))).id;
  locA = (await ok(t.call('cdm', '011103', { warehouseId: wh, lcCode: 'A-01-01' }, admin))).id;
  locB = (await ok(t.call('cdm', '011103', { warehouseId: wh, lcCode: 'C-02-03' }, admin))).id;
  productId = (await ok(t.call('cdm', '010203', { code: 'YK0001', name: '移库商品', unitSmall: '个' }, admin))).id;
  await ok(t.call('oms', '022603', { warehouseId: wh, lines: [{ productId, locationId: locA, qty: 100 }], post: true }, admin));
});
afterAll(async () => t?.close());

describe('a document type declared in one definition', () => {
  it('is in the catalog with its rights, and its list is empty', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/catalog', headers: { token: admin } });
    const entries = res.body;
    expect(entries).toContain('029907');
    expect(entries).toContain('过账移库单');
    const page = await ok(t.call('oms', TO.list, { page: 1, pageSize: 20 }, admin));
    expect(page).toMatchObject({ total: 0, list: [] });
  });

  it('saves a draft with a number from the sequence, refuses bad input in Chinese and changes nothing', async () => {
    const bad = await t.call('oms', TO.save, { warehouseId: wh, lines: [{ productId, fromLocationId: locA, toLocationId: locA, qty: 0 }, { productId: 999999, fromLocationId: locA, toLocationId: locB, qty: 5 }] }, admin);
    expect(bad.code).toBe('COMMON_VALIDATION_4000');
    expect(bad.msg).toContain('第 1 行：数量');
    const bad2 = await t.call('oms', TO.save, { warehouseId: wh, lines: [{ productId: 999999, fromLocationId: locA, toLocationId: locB, qty: 5 }] }, admin);
    expect(bad2.msg).toContain('第 1 行：商品不存在');
    const same = await t.call('oms', TO.save, { warehouseId: wh, lines: [{ productId, fromLocationId: locA, toLocationId: locA, qty: 5 }] }, admin);
    expect(same.msg).toContain('第 1 行：移入库位不能与移出库位相同');
    const empty = await t.call('oms', TO.save, { warehouseId: wh, lines: [] }, admin);
    expect(empty.msg).toContain('请至少添加一行明细');
    expect((await ok(t.call('oms', TO.list, { page: 1, pageSize: 20 }, admin))).total).toBe(0);

    const saved = await ok(draft());
    expect(saved.docNo).toMatch(/^YK\d{8}0001$/);
    expect(saved).toMatchObject({ status: 'draft', statusText: '草稿', version: 1 });
    const doc = await ok(t.call('oms', TO.get, { id: saved.id }, admin));
    expect(doc).toMatchObject({ docNo: saved.docNo, warehouseName: '移库仓', editable: true, transferDate: '2026-11-26' });
    expect(doc.lines).toEqual([expect.objectContaining({ lineNo: 1, productId, productName: '移库商品', productCode: 'YK0001', fromLocationName: 'A-01-01', toLocationName: 'C-02-03', qty: 30 })]);
    expect(doc.actions.map((a: any) => [a.label, a.api])).toEqual([['确认', 'oms:029906'], ['作废', 'oms:029908'], ['删除', 'oms:029904']]);
  });

  it('updates only with the version it read, and only while editable', async () => {
    const saved = await ok(draft());
    const stale = await t.call('oms', TO.save, { id: saved.id, version: 7, warehouseId: wh, lines: [{ productId, fromLocationId: locA, toLocationId: locB, qty: 1 }] }, admin);
    expect(stale.code).toBe('COMMON_VERSION_CONFLICT_4009');
    const noVersion = await t.call('oms', TO.save, { id: saved.id, warehouseId: wh, lines: [{ productId, fromLocationId: locA, toLocationId: locB, qty: 1 }] }, admin);
    expect(noVersion.msg).toContain('版本不能为空');
    const v2 = await ok(t.call('oms', TO.save, { id: saved.id, version: 1, warehouseId: wh, remark: '改了', lines: [{ productId, fromLocationId: locA, toLocationId: locB, qty: 2 }] }, admin));
    expect(v2).toMatchObject({ id: saved.id, docNo: saved.docNo, version: 2 });
    await ok(t.call('oms', TO.confirm, { id: saved.id, version: 2 }, admin));
    const locked = await t.call('oms', TO.save, { id: saved.id, version: 3, warehouseId: wh, lines: [{ productId, fromLocationId: locA, toLocationId: locB, qty: 3 }] }, admin);
    expect(locked.code).toBe('DOCUMENT_STATUS_4131');
    expect(locked.msg).toBe(`移库单 ${saved.docNo} 当前状态为“已确认”，不能修改`);
    const cancelled = await ok(t.call('oms', TO.cancel, { id: saved.id, version: 3 }, admin));
    expect(cancelled.status).toBe('cancelled');
  });

  it('confirm → post moves the stock; repeal moves it back; each status offers its own actions', async () => {
    const saved = await ok(draft());
    const confirmed = await ok(t.call('oms', TO.confirm, { id: saved.id, version: 1 }, admin));
    expect(confirmed).toMatchObject({ status: 'confirmed', version: 2 });
    let doc = await ok(t.call('oms', TO.get, { id: saved.id }, admin));
    expect(doc.editable).toBe(false);
    expect(doc.actions.map((a: any) => a.label)).toEqual(['过账', '作废']);
    expect(doc.confirmedAt).toBeTruthy();

    await ok(t.call('oms', TO.post, { id: saved.id, version: 2 }, admin));
    expect([await onHand(locA), await onHand(locB)]).toEqual([70, 30]);
    doc = await ok(t.call('oms', TO.get, { id: saved.id }, admin));
    expect(doc.actions.map((a: any) => a.label)).toEqual(['撤销']);

    const twice = await t.call('oms', TO.post, { id: saved.id }, admin);
    expect(twice.code).toBe('DOCUMENT_STATUS_4131');
    expect([await onHand(locA), await onHand(locB)]).toEqual([70, 30]);

    await ok(t.call('oms', TO.repeal, { id: saved.id, version: 3 }, admin));
    expect([await onHand(locA), await onHand(locB)]).toEqual([100, 0]);
    doc = await ok(t.call('oms', TO.get, { id: saved.id }, admin));
    expect(doc).toMatchObject({ status: 'cancelled', statusText: '已作废', actions: [] });

    const audit = await ok(t.call('cdm', '019702', { page: 1, pageSize: 50, filters: { entity: 'transferOrder', recordId: String(saved.id) } }, admin));
    const trail = audit.list.map((r: any) => r.action).reverse();
    expect(trail).toEqual(['create', 'confirm', 'post', 'repeal']);
  });

  it('a posting the stock cannot cover changes nothing', async () => {
    const saved = await ok(draft([{ productId, fromLocationId: locA, toLocationId: locB, qty: 101 }]));
    await ok(t.call('oms', TO.confirm, { id: saved.id, version: 1 }, admin));
    const r = await t.call('oms', TO.post, { id: saved.id, version: 2 }, admin);
    expect(r.code).toBe('STOCK_NOT_ENOUGH_4071');
    expect((await ok(t.call('oms', TO.get, { id: saved.id }, admin))).status).toBe('confirmed');
    expect([await onHand(locA), await onHand(locB)]).toEqual([100, 0]);
  });

  it('of two clerks confirming at once exactly one succeeds', async () => {
    const saved = await ok(draft());
    const both = await Promise.all([t.call('oms', TO.confirm, { id: saved.id, version: 1 }, admin), t.call('oms', TO.confirm, { id: saved.id, version: 1 }, admin)]);
    expect(both.map((r) => r.code).sort()).toEqual(['200', 'DOCUMENT_STATUS_4131']);
  });

  it('the document chain finds it by number, another company does not see it, and rights decide the actions', async () => {
    const saved = await ok(draft());
    const chain = await ok(t.call('oms', '025001', { docNo: saved.docNo }, admin));
    expect(chain.chain).toEqual([expect.objectContaining({ docType: 'transferOrder', docTypeText: '移库单', number: saved.docNo, statusText: '草稿', route: `/entrepot/transferOrderDetail/${saved.id}` })]);
    // the screen's status bar and chain buttons come with the document, from the definition (issue 30)
    const doc = await ok(t.call('oms', TO.get, { id: saved.id }, admin));
    expect(doc.statusFlow.map((s: any) => s.label)).toEqual(Object.values(transferOrder.statuses).map((s) => s.label));
    expect(doc.relateApi).toBe(`oms:${TO.relate}`);
    const other = await t.login('demo2');
    expect((await t.call('oms', TO.get, { id: saved.id }, other)).code).toBe('COMMON_NOT_FOUND_4004');
    expect((await t.call('oms', TO.confirm, { id: saved.id, version: 1 }, other)).code).toBe('COMMON_NOT_FOUND_4004');
    expect((await ok(t.call('oms', TO.list, { page: 1, pageSize: 20 }, other))).total).toBe(0);
    const clerk = await t.login('demo', 'clerk');
    expect((await t.call('oms', TO.get, { id: saved.id }, clerk)).code).toBe('COMMON_NO_RIGHT_4003');
  });

  it('removes a draft and nothing else', async () => {
    const saved = await ok(draft());
    await ok(t.call('oms', TO.confirm, { id: saved.id, version: 1 }, admin));
    expect((await t.call('oms', TO.remove, { id: saved.id }, admin)).code).toBe('DOCUMENT_STATUS_4131');
    const d2 = await ok(draft());
    await ok(t.call('oms', TO.remove, { id: d2.id, version: 1 }, admin));
    expect((await t.call('oms', TO.get, { id: d2.id }, admin)).code).toBe('COMMON_NOT_FOUND_4004');
  });

  it('lists with filters, newest first', async () => {
    const page = await ok(t.call('oms', TO.list, { page: 1, pageSize: 5, filters: { status: 'draft', warehouseId: wh } }, admin));
    expect(page.total).toBeGreaterThan(0);
    expect(page.list.every((r: any) => r.status === 'draft' && r.warehouseName === '移库仓')).toBe(true);
    const ids = page.list.map((r: any) => r.id);
    expect([...ids].sort((a: number, b: number) => b - a)).toEqual(ids);
    // each row says what the caller may do with it now, like get
    expect(page.list[0].actions.map((a: any) => a.label)).toEqual(['确认', '作废', '删除']);
    expect(page.list[0].governed).toEqual(expect.arrayContaining(['oms:029906', 'oms:029907', 'oms:029904']));
    expect(page.list[0].editable).toBe(true);
    const none = await ok(t.call('oms', TO.list, { page: 1, pageSize: 5, dateFrom: '2030-01-01' }, admin));
    expect(none.total).toBe(0);
  });

  it('exports the filtered documents with their lines, references and statuses by label', async () => {
    const saved = await ok(draft([{ productId, fromLocationId: locA, toLocationId: locB, qty: 7 }], { remark: '导出测试' }));
    const file = await t.raw('oms', TO.export, { docNo: saved.docNo }, admin);
    expect(String(file.headers['content-type'])).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    const plain = (v: unknown) => (v && typeof v === 'object' && 'richText' in v ? (v as { richText: Array<{ text: string }> }).richText.map((x) => x.text).join('') : v);
    const row = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1).map(plain);
    expect(row(1)).toEqual(['单号', '状态', '仓库', '移库日期', '备注', '行号', '商品', '移出库位', '移入库位', '数量']);
    expect(row(2)).toEqual([saved.docNo, '草稿', '移库仓', '2026-11-26', '导出测试', 1, '移库商品', 'A-01-01', 'C-02-03', 7]);
    expect(sheet.rowCount).toBe(2);
  });
});
