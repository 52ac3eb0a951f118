// The stock ledger end to end on a real database (SQLite, or PostgreSQL when DATABASE_URL is set):
// warehouses and locations (lookup key of spec §3), default locations, opening stock and adjustment
// documents, the conditional-update guarantees under concurrency, reservations, negative stock, company
// isolation, the inventory reads and the verification of balances against the ledger.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postMoves, type StockMove } from '../../src/server/domain/stock/ledger.ts';
import { lookupKeyOf } from '../../src/server/domain/stock/locations.ts';
import { verifyStock } from '../../src/server/domain/stock/verify.ts';
import { inTransaction } from '../../src/server/http/transaction.ts';
import { splitUnits } from '../../src/core/stock-units.ts';
import { ok, startTestServer, type TestServer } from './helpers.ts';
import { makeXlsx, multipart } from '../fixtures/spreadsheets.ts';

let t: TestServer;
let demo: string;
let demo2: string;
let demoId: number;
let demo2Id: number;
let wh1: number;
let wh2: number;
let wh2Demo2: number;

const WH = { list: '011001', get: '011002', save: '011003', remove: '011004', export: '011005', options: '011006' };
const LOC = { list: '011101', get: '011102', save: '011103', remove: '011104', export: '011105', import: '011106', template: '011107', options: '011108', lookup: '011109' };
const DEF = { list: '011201', save: '011203' };
const STOCK = { inventory: '011301', distribution: '011302', movements: '011303', verify: '019401' };
const INIT = { list: '022601', get: '022602', save: '022603', post: '022604', cancel: '022605', import: '022606', template: '022607' };
const ADJ = { list: '022701', get: '022702', save: '022703', post: '022704', cancel: '022705', reasons: '022706' };


let seq = 0;
async function product(token = demo, extra: Record<string, unknown> = {}): Promise<{ id: number; code: string }> {
  const code = `STK${String(++seq).padStart(4, '0')}`;
  const p = await ok(t.call('cdm', '010203', { code, name: `库存测试商品${seq}`, unitBig: '箱', unitMid: '盒', unitSmall: '个', midQty: 6, bigQty: 24, ...extra }, token));
  return { id: p.id, code };
}

async function location(warehouseId: number, lcCode: string, extra: Record<string, unknown> = {}, token = demo): Promise<number> {
  return (await ok(t.call('cdm', LOC.save, { warehouseId, lcCode, ...extra }, token))).id;
}

const adjust = (lines: Array<{ productId: number; locationId?: number | null; qty: number }>, opts: { warehouseId?: number; token?: string; post?: boolean; reason?: string } = {}) =>
  t.call('oms', ADJ.save, { warehouseId: opts.warehouseId ?? wh1, reason: opts.reason ?? 'loss', lines, post: opts.post ?? true }, opts.token ?? demo);

const init = (lines: Array<{ productId: number; locationId?: number | null; qty?: number; big?: number; mid?: number; small?: number }>, opts: { warehouseId?: number; token?: string; post?: boolean } = {}) =>
  t.call('oms', INIT.save, { warehouseId: opts.warehouseId ?? wh1, lines, post: opts.post ?? true }, opts.token ?? demo);

async function balance(productId: number, warehouseId = wh1, locationId: number | null = null) {
  const row = await t.database.db.selectFrom('stockBalance').select(['onHand', 'reserved'])
    .where('productId', '=', productId).where('warehouseId', '=', warehouseId).where('locationId', '=', locationId ?? 0).executeTakeFirst();
  return row ? { onHand: Number(row.onHand), reserved: Number(row.reserved) } : undefined;
}

async function ledgerSum(productId: number) {
  const rows = await t.database.db.selectFrom('stockMove').select(['qty', 'reservedQty']).where('productId', '=', productId).execute();
  return { rows: rows.length, qty: rows.reduce((s, r) => s + Number(r.qty), 0), reserved: rows.reduce((s, r) => s + Number(r.reservedQty), 0) };
}

async function setFlags(token: string, flags: Record<string, boolean>) {
  const s = await ok(t.call('cdm', '013601', {}, token));
  await ok(t.call('cdm', '013602', { version: s.version, flags }, token));
}

async function verifyClean(companyId?: number) {
  const r = await verifyStock(t.database.db, { companyId });
  expect(r.differences.map((d) => d.message)).toEqual([]);
  return r;
}

beforeAll(async () => {
  t = await startTestServer();
  demo = await t.login('demo', 'admin', 'demo123');
  demo2 = await t.login('demo2', 'admin', 'demo123');
  const companies = await t.database.db.selectFrom('company').select(['id', 'code']).execute();
  demoId = Number(companies.find((c) => c.code === 'demo')!.id);
  demo2Id = Number(companies.find((c) => c.code === 'demo2')!.id);
  wh1 = (await ok(t.call('cdm', WH.list, { page: 1, pageSize: 10 }, demo))).list[0].id;
  wh2 = (await ok(t.call('cdm', WH.save, { code: 'WH02', name: '二号仓库' }, demo))).id;
  wh2Demo2 = (await ok(t.call('cdm', WH.list, { page: 1, pageSize: 10 }, demo2))).list[0].id;
});

afterAll(async () => {
  await t?.close();
});

describe('locations and their lookup key (spec §3)', () => {
  it('normalises by removing -, S, Z, A and B', () => {
    expect(lookupKeyOf('A-01-02-S')).toBe('0102');
    expect(lookupKeyOf('a-01-02-s')).toBe('0102');
    expect(lookupKeyOf(' Z-B-10-3 ')).toBe('103');
    expect(lookupKeyOf('C-01-X')).toBe('C01X');
  });

  it('stores the key, finds a location by any spelling of it, and refuses a code whose key clashes', async () => {
    const id = await location(wh1, 'A-01-02-S', { zone: 'A', row: '01', column: '02', level: '1', type: 'storage', capacity: 500 });
    const got = await ok(t.call('cdm', LOC.get, { id }, demo));
    expect(got).toMatchObject({ lcCode: 'A-01-02-S', lookupKey: '0102', zone: 'A', row: '01', column: '02', level: '1', type: 'storage', capacity: 500, status: 'enabled', warehouseName: '主仓库' });
    for (const typed of ['A-01-02-S', 'a-01-02-s', '0102', 'A0102', '01-02', 'S0102Z']) {
      expect((await ok(t.call('cdm', LOC.lookup, { code: typed }, demo))).id, typed).toBe(id);
    }
    const clash = await t.call('cdm', LOC.save, { warehouseId: wh1, lcCode: 'B-01-02' }, demo);
    expect(clash.code).toBe('COMMON_VALIDATION_4000');
    expect(clash.msg).toContain('A-01-02-S');
    expect(clash.msg).toContain('0102');
    // Same code again: the ordinary unique message.
    expect((await t.call('cdm', LOC.save, { warehouseId: wh1, lcCode: 'A-01-02-S' }, demo)).code).toBe('COMMON_UNIQUE_4011');
    // A key of nothing cannot be looked up.
    const empty = await t.call('cdm', LOC.save, { warehouseId: wh1, lcCode: 'SZAB' }, demo);
    expect(empty.code).toBe('COMMON_VALIDATION_4000');
    expect(empty.msg).toContain('为空');
    // Lower case is not a stored code.
    expect((await t.call('cdm', LOC.save, { warehouseId: wh1, lcCode: 'a-9' }, demo)).code).toBe('COMMON_VALIDATION_4000');
    // The same key in another warehouse is fine; a lookup without a warehouse is then ambiguous.
    const other = await location(wh2, 'B-01-02');
    expect((await t.call('cdm', LOC.lookup, { code: '0102' }, demo)).code).toBe('STOCK_LOCATION_AMBIGUOUS_4080');
    expect((await ok(t.call('cdm', LOC.lookup, { code: '0102', warehouseId: wh2 }, demo))).id).toBe(other);
    expect((await t.call('cdm', LOC.lookup, { code: 'Q-99' }, demo)).code).toBe('STOCK_LOCATION_NOT_FOUND_4079');
    // Renaming recomputes the key.
    const renamed = await ok(t.call('cdm', LOC.save, { id: other, version: 1, lcCode: 'B-07-01' }, demo));
    expect(renamed.lookupKey).toBe('0701');
    // Another company sees none of it.
    expect((await t.call('cdm', LOC.lookup, { code: '0102' }, demo2)).code).toBe('STOCK_LOCATION_NOT_FOUND_4079');
    expect((await t.call('cdm', LOC.get, { id }, demo2)).code).toBe('COMMON_NOT_FOUND_4004');
  });

  it('imports locations all or nothing, clashing keys inside the file included', async () => {
    const bad = await makeXlsx([['仓库', '库位编码', '库区'], ['WH01', 'C-01-01', 'C'], ['WH01', 'C0101', 'C']]);
    const { payload, headers } = multipart('库位.xlsx', bad);
    const r = await t.call('cdm', LOC.import, undefined, demo, { payload, headers });
    expect(r.code).toBe('COMMON_IMPORT_4012');
    expect(JSON.stringify(r.data.errors)).toContain('第 3 行');
    expect((await ok(t.call('cdm', LOC.list, { page: 1, pageSize: 50, filters: { zone: 'C' } }, demo))).total).toBe(0);
    const good = await makeXlsx([['仓库', '库位编码', '库区', '库位类型', '状态'], ['WH01', 'C-01-01', 'C', '拣货位', '启用'], ['主仓库', 'C-01-02', 'C', '存储位', '锁定']]);
    const up = multipart('库位.xlsx', good);
    expect(await ok(t.call('cdm', LOC.import, undefined, demo, { payload: up.payload, headers: up.headers }))).toMatchObject({ created: 2 });
    const list = await ok(t.call('cdm', LOC.list, { page: 1, pageSize: 50, filters: { zone: 'C' } }, demo));
    expect(list.list.map((x: any) => [x.lcCode, x.lookupKey, x.type, x.status])).toEqual([['C-01-01', 'C0101', 'picking', 'enabled'], ['C-01-02', 'C0102', 'storage', 'locked']]);
    // Options: enabled locations of one warehouse by default.
    const opts = await ok(t.call('cdm', LOC.options, { warehouseId: wh1, keyword: 'c-01' }, demo));
    expect(opts.map((o: any) => o.label)).toEqual(['C-01-01']);
  });

  it('keeps one default location per product and warehouse, in that warehouse', async () => {
    const p = await product();
    const locA = await location(wh1, 'D-01-01');
    const locB = await location(wh2, 'D-01-01');
    const wrong = await t.call('cdm', DEF.save, { productId: p.id, warehouseId: wh1, locationId: locB }, demo);
    expect(wrong.code).toBe('COMMON_VALIDATION_4000');
    expect(wrong.msg).toContain('不属于所选仓库');
    const saved = await ok(t.call('cdm', DEF.save, { productId: p.id, warehouseId: wh1, locationId: locA }, demo));
    expect(saved).toMatchObject({ productId: p.id, warehouseId: wh1, locationId: locA, lcCode: 'D-01-01' });
    expect((await t.call('cdm', DEF.save, { productId: p.id, warehouseId: wh1, locationId: locA }, demo)).code).toBe('COMMON_UNIQUE_4011');
    expect((await t.call('cdm', DEF.save, { productId: p.id, warehouseId: wh2Demo2, locationId: locA }, demo2)).code).toBe('COMMON_VALIDATION_4000');
  });
});

describe('documents on the ledger', () => {
  it('posts opening stock, refuses an adjustment beyond what is there and leaves no trace of it', async () => {
    const p = await product();
    const posted = await ok(init([{ productId: p.id, qty: 20 }]));
    expect(posted).toMatchObject({ status: 'posted', lineCount: 1, totalQty: 20 });
    expect(posted.docNo).toMatch(/^QC\d{8}\d{4}$/);
    expect(await balance(p.id)).toEqual({ onHand: 20, reserved: 0 });
    const docsBefore = (await ok(t.call('oms', ADJ.list, { page: 1, pageSize: 100 }, demo))).total;
    const refused = await adjust([{ productId: p.id, qty: -5 }, { productId: (await product()).id, qty: 3 }, { productId: p.id, qty: 0 }]);
    expect(refused.code).toBe('COMMON_VALIDATION_4000'); // a zero line
    const tooMuch = await adjust([{ productId: p.id, qty: 7 }, { productId: p.id, locationId: await location(wh1, 'E-01-01'), qty: -1 }]);
    expect(tooMuch.code).toBe('STOCK_NOT_ENOUGH_4071');
    expect(tooMuch.msg).toBe(`商品 ${p.code} 在 主仓库/E-01-01 的可用库存不足：现有 0，已预留 0，需要 1`);
    expect(await balance(p.id)).toEqual({ onHand: 20, reserved: 0 });
    expect((await ok(t.call('oms', ADJ.list, { page: 1, pageSize: 100 }, demo))).total).toBe(docsBefore);
    expect(await ledgerSum(p.id)).toEqual({ rows: 1, qty: 20, reserved: 0 });
    await verifyClean(demoId);
  });

  it('50 concurrent adjustments of −1 on an on-hand of 20: exactly 20 succeed, balance 0, verify clean', async () => {
    const p = await product();
    await ok(init([{ productId: p.id, qty: 20 }]));
    const results = await Promise.all(Array.from({ length: 50 }, () => adjust([{ productId: p.id, qty: -1 }])));
    const codes = results.map((r) => r.code);
    expect(codes.filter((c) => c === '200')).toHaveLength(20);
    expect(codes.filter((c) => c !== '200').every((c) => c === 'STOCK_NOT_ENOUGH_4071')).toBe(true);
    expect(await balance(p.id)).toEqual({ onHand: 0, reserved: 0 });
    expect(await ledgerSum(p.id)).toEqual({ rows: 21, qty: 0, reserved: 0 });
    // Document numbers stay unique under concurrency.
    const nos = results.filter((r) => r.code === '200').map((r) => r.data.docNo);
    expect(new Set(nos).size).toBe(20);
    await verifyClean();
  });

  it('concurrent multi-line documents over the same products in opposite orders neither deadlock nor drift', async () => {
    const ps = await Promise.all(Array.from({ length: 4 }, () => product()));
    await ok(init(ps.map((p) => ({ productId: p.id, qty: 100 }))));
    const docs = Array.from({ length: 40 }, (_, i) => {
      const order = i % 2 ? [...ps].reverse() : ps;
      return adjust(order.map((p, j) => ({ productId: p.id, qty: j % 2 ? -3 : 2 })));
    });
    const results = await Promise.all(docs);
    expect(results.map((r) => r.code).every((c) => c === '200')).toBe(true);
    for (const p of ps) {
      const b = await balance(p.id);
      const s = await ledgerSum(p.id);
      expect(b!.onHand).toBe(s.qty);
    }
    await verifyClean();
  });

  it('draft → posted with versions; posting twice or editing a posted document is refused', async () => {
    const p = await product();
    const draft = await ok(init([{ productId: p.id, big: 1, mid: 2, small: 3 }], { post: false }));
    expect(draft).toMatchObject({ status: 'draft', totalQty: 24 + 12 + 3, version: 1 });
    expect(await balance(p.id)).toBeUndefined();
    const edited = await ok(t.call('oms', INIT.save, { id: draft.id, version: 1, warehouseId: wh1, lines: [{ productId: p.id, qty: 50 }] }, demo));
    expect(edited).toMatchObject({ id: draft.id, docNo: draft.docNo, version: 2, totalQty: 50 });
    expect((await t.call('oms', INIT.save, { id: draft.id, version: 1, warehouseId: wh1, lines: [{ productId: p.id, qty: 5 }] }, demo)).code).toBe('COMMON_VERSION_CONFLICT_4009');
    expect((await t.call('oms', INIT.post, { id: draft.id, version: 1 }, demo)).code).toBe('COMMON_VERSION_CONFLICT_4009');
    const posted = await ok(t.call('oms', INIT.post, { id: draft.id, version: 2 }, demo));
    expect(posted).toMatchObject({ status: 'posted', version: 3 });
    const again = await t.call('oms', INIT.post, { id: draft.id }, demo);
    expect(again.code).toBe('STOCK_DOC_STATUS_4078');
    expect(again.msg).toBe(`期初库存单 ${draft.docNo} 当前状态为“已过账”，不能过账`);
    expect((await t.call('oms', INIT.save, { id: draft.id, version: 3, warehouseId: wh1, lines: [{ productId: p.id, qty: 5 }] }, demo)).code).toBe('STOCK_DOC_STATUS_4078');
    expect(await balance(p.id)).toEqual({ onHand: 50, reserved: 0 });
    const doc = await ok(t.call('oms', INIT.get, { id: draft.id }, demo));
    expect(doc).toMatchObject({ status: 'posted', statusText: '已过账', warehouseName: '主仓库', createdByName: 'admin', postedByName: 'admin' });
    expect(doc.lines[0]).toMatchObject({ productCode: p.code, qty: 50, units: { big: 2, mid: 0, small: 2, text: '2箱2个' } });
    // The audit trail has each action.
    const audit = await t.database.db.selectFrom('auditLog').select('action').where('entity', '=', 'stockInit').where('recordId', '=', String(draft.id)).orderBy('id').execute();
    expect(audit.map((a) => a.action)).toEqual(['create', 'update', 'post']);
  });

  it('cancels a draft; cancels a posted document with reversing moves, refused when its stock is gone', async () => {
    const p = await product();
    const d1 = await ok(init([{ productId: p.id, qty: 10 }], { post: false }));
    expect(await ok(t.call('oms', INIT.cancel, { id: d1.id }, demo))).toMatchObject({ status: 'cancelled' });
    expect((await t.call('oms', INIT.post, { id: d1.id }, demo)).code).toBe('STOCK_DOC_STATUS_4078');
    const d2 = await ok(init([{ productId: p.id, qty: 10 }]));
    const a = await ok(adjust([{ productId: p.id, qty: -4 }]));
    const refused = await t.call('oms', INIT.cancel, { id: d2.id }, demo);
    expect(refused.code).toBe('STOCK_NOT_ENOUGH_4071');
    expect(await balance(p.id)).toEqual({ onHand: 6, reserved: 0 });
    expect(await ok(t.call('oms', ADJ.cancel, { id: a.id }, demo))).toMatchObject({ status: 'cancelled' });
    expect(await balance(p.id)).toEqual({ onHand: 10, reserved: 0 });
    expect(await ok(t.call('oms', INIT.cancel, { id: d2.id }, demo))).toMatchObject({ status: 'cancelled' });
    expect(await balance(p.id)).toEqual({ onHand: 0, reserved: 0 });
    expect((await t.call('oms', INIT.cancel, { id: d2.id }, demo)).code).toBe('STOCK_DOC_STATUS_4078');
    const moves = await ok(t.call('cdm', STOCK.movements, { productId: p.id, page: 1, pageSize: 50 }, demo));
    expect(moves.list.map((m: any) => [m.kind, m.qty, m.docNo])).toEqual([
      ['reverse', -10, d2.docNo], ['reverse', 4, a.docNo], ['adjust', -4, a.docNo], ['init', 10, d2.docNo],
    ]);
    await verifyClean();
  });

  it('checks lines: products and locations of the company and warehouse, duplicates, locked locations, location-required flag', async () => {
    const p = await product();
    const locked = await location(wh1, 'F-01-01', { status: 'locked' });
    const inWh2 = await location(wh2, 'F-01-02');
    const r = await init([{ productId: p.id, qty: 1 }, { productId: 999999, qty: 1 }, { productId: p.id, qty: 2 }, { productId: p.id, locationId: locked, qty: 1 }, { productId: p.id, locationId: inWh2, qty: 1 }]);
    expect(r.code).toBe('COMMON_VALIDATION_4000');
    expect(r.msg).toContain('第 2 行：商品不存在');
    expect(r.msg).toContain('第 3 行');
    expect(r.msg).toContain('重复');
    expect(r.msg).toContain('第 4 行：库位 F-01-01 已锁定');
    expect(r.msg).toContain('第 5 行：库位 F-01-02 不属于仓库 主仓库');
    expect((await init([{ productId: p.id, qty: -1 }])).msg).toContain('期初数量必须大于 0');
    expect((await adjust([{ productId: p.id, qty: 1 }], { reason: 'nonsense' })).code).toBe('COMMON_VALIDATION_4000');
    await setFlags(demo, { locationRequired: true });
    try {
      const needLoc = await init([{ productId: p.id, qty: 1 }]);
      expect(needLoc.code).toBe('COMMON_VALIDATION_4000');
      expect(needLoc.msg).toContain('未指定库位');
      // The ledger itself refuses too (a later document type that forgot the check).
      await expect(inTransaction(t.database.db, (trx) => postMoves(trx, { companyId: demoId, accountId: null }, [{ productId: p.id, warehouseId: wh1, qty: 1, kind: 'adjust', docType: 'test', docId: 1 }])))
        .rejects.toMatchObject({ code: 'STOCK_LOCATION_REQUIRED_4074' });
      const withLoc = await location(wh1, 'F-02-01');
      expect(await ok(init([{ productId: p.id, locationId: withLoc, qty: 5 }]))).toMatchObject({ status: 'posted' });
    } finally {
      await setFlags(demo, { locationRequired: false });
    }
  });

  it('adjustment reasons: defaults until the company defines its own dictionary', async () => {
    const defaults = await ok(t.call('oms', ADJ.reasons, undefined, demo));
    expect(defaults.map((r: any) => r.value)).toContain('loss');
    await ok(t.call('cdm', '013804', { dictCode: 'stockAdjustReason', value: 'qc', label: '质检报废' }, demo2));
    const own = await ok(t.call('oms', ADJ.reasons, undefined, demo2));
    expect(own).toEqual([{ value: 'qc', label: '质检报废' }]);
    const p2 = await product(demo2);
    expect((await adjust([{ productId: p2.id, qty: 1 }], { warehouseId: wh2Demo2, token: demo2, reason: 'loss' })).code).toBe('COMMON_VALIDATION_4000');
    const d = await ok(adjust([{ productId: p2.id, qty: 1 }], { warehouseId: wh2Demo2, token: demo2, reason: 'qc' }));
    expect((await ok(t.call('oms', ADJ.get, { id: d.id }, demo2))).reasonLabel).toBe('质检报废');
  });

  it('imports opening stock lines from a spreadsheet into one draft, all or nothing', async () => {
    const p1 = await product();
    const p2 = await product();
    await location(wh1, 'G-01-01');
    const bad = await makeXlsx([['商品编码', '库位编码', '数量（最小单位）'], [p1.code, 'G-01-01', 5], ['NOPE', '', 1], [p2.code, 'G-99', 2], [p2.code, '', 1.5]]);
    const up = multipart('期初.xlsx', bad);
    const r = await t.call('oms', INIT.import, undefined, demo, { payload: up.payload, headers: up.headers, query: { warehouseId: String(wh1) } });
    expect(r.code).toBe('COMMON_IMPORT_4012');
    expect(r.data.errors.map((e: any) => e.row)).toEqual([3, 4, 5]);
    const good = await makeXlsx([['商品编码', '商品名称', '库位编码', '大包装数', '中包装数', '最小单位数'], [p1.code, 'x', 'g0101', 1, 0, 0], [p2.code, 'y', '', 0, 1, 1]]);
    const up2 = multipart('期初.xlsx', good);
    const draft = await ok(t.call('oms', INIT.import, undefined, demo, { payload: up2.payload, headers: up2.headers, query: { warehouseId: String(wh1) } }));
    expect(draft).toMatchObject({ status: 'draft', lineCount: 2, totalQty: 24 + 7 });
    const doc = await ok(t.call('oms', INIT.get, { id: draft.id }, demo));
    expect(doc.lines.map((l: any) => [l.productCode, l.lcCode, l.qty])).toEqual([[p1.code, 'G-01-01', 24], [p2.code, null, 7]]);
    const noWh = multipart('期初.xlsx', good);
    expect((await t.call('oms', INIT.import, undefined, demo, { payload: noWh.payload, headers: noWh.headers })).code).toBe('COMMON_VALIDATION_4000');
    const tpl = await t.raw('oms', INIT.template, {}, demo);
    expect(String(tpl.headers['content-type'])).toContain('spreadsheetml');
  });
});

describe('reservations and negative stock', () => {
  const move = (m: Partial<StockMove> & { productId: number }): StockMove => ({ warehouseId: wh1, kind: 'adjust', docType: 'test', docId: 1, ...m });
  const post = (moves: StockMove[]) => inTransaction(t.database.db, (trx) => postMoves(trx, { companyId: demoId, accountId: null }, moves));

  it('reserves up to on hand, keeps reserved stock from other outbound moves, releases no more than reserved', async () => {
    const p = await product();
    await ok(init([{ productId: p.id, qty: 10 }]));
    await expect(post([move({ productId: p.id, reserved: 11, kind: 'reserve' })])).rejects.toMatchObject({ code: 'STOCK_RESERVE_NOT_ENOUGH_4072' });
    const r = await post([move({ productId: p.id, reserved: 7, kind: 'reserve' })]);
    expect(r.balances).toEqual([{ productId: p.id, warehouseId: wh1, locationId: null, onHand: 10, reserved: 7 }]);
    await expect(post([move({ productId: p.id, reserved: 4, kind: 'reserve' })])).rejects.toMatchObject({ code: 'STOCK_RESERVE_NOT_ENOUGH_4072' });
    // Only 3 are available: an adjustment of −4 would take reserved stock.
    const taken = await adjust([{ productId: p.id, qty: -4 }]);
    expect(taken.code).toBe('STOCK_NOT_ENOUGH_4071');
    expect(taken.msg).toContain('现有 10，已预留 7，需要 4');
    await ok(adjust([{ productId: p.id, qty: -3 }]));
    await expect(post([move({ productId: p.id, reserved: -8, kind: 'release' })])).rejects.toMatchObject({ code: 'STOCK_RELEASE_4073' });
    // Shipping consumes the reservation: on hand and reserved go down together.
    await post([move({ productId: p.id, qty: -5, reserved: -5, kind: 'ship' })]);
    await post([move({ productId: p.id, reserved: -2, kind: 'release' })]);
    expect(await balance(p.id)).toEqual({ onHand: 2, reserved: 0 });
    const inv = await ok(t.call('cdm', STOCK.inventory, { page: 1, pageSize: 10, productId: p.id }, demo));
    expect(inv.list[0]).toMatchObject({ onHand: 2, reserved: 0, available: 2, inbound: 0 });
    await verifyClean();
  });

  it('a whole move list rolls back when one move is refused', async () => {
    const p = await product();
    const q = await product();
    await ok(init([{ productId: p.id, qty: 5 }, { productId: q.id, qty: 5 }]));
    await expect(post([move({ productId: p.id, qty: -5 }), move({ productId: q.id, qty: -6 })])).rejects.toMatchObject({ code: 'STOCK_NOT_ENOUGH_4071' });
    expect(await balance(p.id)).toEqual({ onHand: 5, reserved: 0 });
    expect(await ledgerSum(p.id)).toMatchObject({ rows: 1, qty: 5 });
  });

  it('lets stock go negative only while the company flag allows it; verify reports negatives the flag forbids', async () => {
    const p = await product();
    expect((await adjust([{ productId: p.id, qty: -3 }])).code).toBe('STOCK_NOT_ENOUGH_4071');
    await setFlags(demo, { negativeStock: true });
    try {
      await ok(adjust([{ productId: p.id, qty: -3 }]));
      expect(await balance(p.id)).toEqual({ onHand: -3, reserved: 0 });
      // Reservations stay bounded by what is on hand.
      await expect(post([move({ productId: p.id, reserved: 1, kind: 'reserve' })])).rejects.toMatchObject({ code: 'STOCK_RESERVE_NOT_ENOUGH_4072' });
      await verifyClean(demoId);
    } finally {
      await setFlags(demo, { negativeStock: false });
    }
    const r = await verifyStock(t.database.db, { companyId: demoId });
    expect(r.differences).toHaveLength(1);
    expect(r.differences[0]).toMatchObject({ kind: 'negative', productCode: p.code, actualOnHand: -3 });
    await ok(adjust([{ productId: p.id, qty: 3 }], { reason: 'gain' }));
    await verifyClean(demoId);
  });
});

describe('company isolation', () => {
  it('demo2 cannot post against demo\'s product, warehouse or location, nor read its stock', async () => {
    const p = await product();
    const loc = await location(wh1, 'H-01-01');
    await ok(init([{ productId: p.id, locationId: loc, qty: 9 }]));
    const p2 = await product(demo2);
    const reason = (await ok(t.call('oms', ADJ.reasons, undefined, demo2)))[0].value as string;
    const adjust2 = (lines: Parameters<typeof adjust>[0], warehouseId: number) => adjust(lines, { warehouseId, token: demo2, reason });
    const wrongWh = await adjust2([{ productId: p2.id, qty: 1 }], wh1);
    expect(wrongWh.code).toBe('COMMON_VALIDATION_4000');
    expect(wrongWh.msg).toContain('仓库不存在');
    const wrongProduct = await adjust2([{ productId: p.id, qty: -1 }], wh2Demo2);
    expect(wrongProduct.msg).toContain('商品不存在');
    const wrongLoc = await adjust2([{ productId: p2.id, locationId: loc, qty: 1 }], wh2Demo2);
    expect(wrongLoc.msg).toContain('库位不存在');
    // The ledger service itself refuses, whatever a document forgot to check.
    const as2 = { companyId: demo2Id, accountId: null };
    await expect(inTransaction(t.database.db, (trx) => postMoves(trx, as2, [{ productId: p.id, warehouseId: wh2Demo2, qty: -1, kind: 'adjust', docType: 'test', docId: 1 }])))
      .rejects.toMatchObject({ code: 'PRODUCT_NOT_EXIST_4001' });
    // Products a caller vouches for (read through its company) are not read again; every other one is.
    await expect(inTransaction(t.database.db, (trx) => postMoves(trx, as2, [
      { productId: p2.id, warehouseId: wh2Demo2, qty: -1000, kind: 'adjust', docType: 'test', docId: 1 },
    ], { knownProducts: new Map([[p2.id, 'VOUCHED']]) }))).rejects.toMatchObject({ code: 'STOCK_NOT_ENOUGH_4071', message: expect.stringContaining('商品 VOUCHED 在') });
    await expect(inTransaction(t.database.db, (trx) => postMoves(trx, as2, [
      { productId: p2.id, warehouseId: wh2Demo2, qty: 1, kind: 'adjust', docType: 'test', docId: 1 },
      { productId: p.id, warehouseId: wh2Demo2, qty: 1, kind: 'adjust', docType: 'test', docId: 1 },
    ], { knownProducts: new Map([[p2.id, String(p2.code)]]) }))).rejects.toMatchObject({ code: 'PRODUCT_NOT_EXIST_4001' });
    await expect(inTransaction(t.database.db, (trx) => postMoves(trx, as2, [{ productId: p2.id, warehouseId: wh1, qty: 1, kind: 'adjust', docType: 'test', docId: 1 }])))
      .rejects.toMatchObject({ code: 'COMMON_NOT_FOUND_4004' });
    await expect(inTransaction(t.database.db, (trx) => postMoves(trx, as2, [{ productId: p2.id, warehouseId: wh2Demo2, locationId: loc, qty: 1, kind: 'adjust', docType: 'test', docId: 1 }])))
      .rejects.toMatchObject({ code: 'COMMON_NOT_FOUND_4004' });
    expect(await balance(p.id, wh1, loc)).toEqual({ onHand: 9, reserved: 0 });
    // Reads are scoped too.
    expect((await ok(t.call('cdm', STOCK.inventory, { page: 1, pageSize: 50, productId: p.id }, demo2))).total).toBe(0);
    expect((await t.call('cdm', STOCK.movements, { productId: p.id }, demo2)).code).toBe('PRODUCT_NOT_EXIST_4001');
    const docs = await ok(t.call('oms', INIT.list, { page: 1, pageSize: 100 }, demo));
    expect((await t.call('oms', INIT.get, { id: docs.list[0].id }, demo2)).code).toBe('COMMON_NOT_FOUND_4004');
    expect((await t.call('oms', INIT.post, { id: docs.list[0].id }, demo2)).code).toBe('COMMON_NOT_FOUND_4004');
    // A warehouse, product or location with stock cannot be removed.
    expect((await t.call('cdm', LOC.remove, { ids: [loc] }, demo)).code).toBe('COMMON_REFERENCED_4010');
    expect((await t.call('cdm', '010204', { ids: [p.id] }, demo)).code).toBe('COMMON_REFERENCED_4010');
    expect((await t.call('cdm', WH.remove, { ids: [wh1] }, demo)).code).toBe('COMMON_REFERENCED_4010');
    // Only a draft uses these: still refused (the draft's product by name, its location by the foreign key).
    const pDraft = await product();
    const locDraft = await location(wh1, 'H-09-09');
    await ok(init([{ productId: pDraft.id, locationId: locDraft, qty: 1 }], { post: false }));
    expect((await t.call('cdm', LOC.remove, { ids: [locDraft] }, demo)).code).toBe('COMMON_REFERENCED_4010');
    const removeProduct = await t.call('cdm', '010204', { ids: [pDraft.id] }, demo);
    expect(removeProduct.code).toBe('COMMON_REFERENCED_4010');
    expect(removeProduct.msg).toContain('期初库存单');
  });
});

describe('reads', () => {
  it('inventory per product × warehouse with filters and big/mid/small; distribution by location', async () => {
    const cat = await ok(t.call('cdm', '010403', { code: 'INVC', name: '库存类别' }, demo));
    const sub = await ok(t.call('cdm', '010403', { code: 'INVC1', name: '库存子类', parentId: cat.id }, demo));
    const p = await product(demo, { name: '库存列表螺丝钉', categoryId: sub.id });
    const l1 = await location(wh1, 'J-01-01', { zone: 'J' });
    const l2 = await location(wh1, 'J-01-02', { zone: 'J' });
    await ok(init([{ productId: p.id, locationId: l1, qty: 30 }, { productId: p.id, locationId: l2, qty: 20 }]));
    await ok(init([{ productId: p.id, qty: 5 }], { warehouseId: wh2 }));
    const byKeyword = await ok(t.call('cdm', STOCK.inventory, { page: 1, pageSize: 50, keyword: '列表螺丝' }, demo));
    expect(byKeyword.list.map((r: any) => [r.warehouseName, r.onHand, r.units.onHand.text])).toEqual([['主仓库', 50, '2箱2个'], ['二号仓库', 5, '5个']]);
    const byCategory = await ok(t.call('cdm', STOCK.inventory, { page: 1, pageSize: 50, categoryId: cat.id, warehouseId: wh2 }, demo));
    expect(byCategory.list.map((r: any) => [r.productCode, r.warehouseCode, r.available])).toEqual([[p.code, 'WH02', 5]]);
    await ok(adjust([{ productId: p.id, qty: -5 }], { warehouseId: wh2 }));
    expect((await ok(t.call('cdm', STOCK.inventory, { page: 1, pageSize: 50, productId: p.id, onlyInStock: true }, demo))).total).toBe(1);
    expect((await ok(t.call('cdm', STOCK.inventory, { page: 1, pageSize: 50, productId: p.id }, demo))).total).toBe(2);
    const dist = await ok(t.call('cdm', STOCK.distribution, { page: 1, pageSize: 50, productId: p.id }, demo));
    expect(dist.list.map((r: any) => [r.lcCode, r.onHand])).toEqual([['J-01-01', 30], ['J-01-02', 20]]);
    const byCode = await ok(t.call('cdm', STOCK.distribution, { page: 1, pageSize: 50, lcCode: 'j0102' }, demo));
    expect(byCode.list.map((r: any) => [r.productCode, r.onHand])).toEqual([[p.code, 20]]);
    // Latin keywords match case-insensitively; keywords without letters by plain substring.
    const latin = await product(demo, { name: 'QxLamp 库存灯' });
    await ok(init([{ productId: latin.id, qty: 1 }]));
    for (const kw of ['qxlamp', 'QXLAMP', 'Lamp 库存']) {
      expect((await ok(t.call('cdm', STOCK.inventory, { page: 1, pageSize: 50, keyword: kw }, demo))).list.map((r: any) => r.productId), kw).toEqual([latin.id]);
    }
    expect((await ok(t.call('cdm', STOCK.inventory, { page: 1, pageSize: 50, keyword: latin.code.slice(-4) }, demo))).list.map((r: any) => r.productId)).toContain(latin.id);
    const page2 = await ok(t.call('cdm', STOCK.inventory, { page: 2, pageSize: 1, keyword: '列表螺丝' }, demo));
    expect(page2).toMatchObject({ total: 2, page: 2 });
    expect(page2.list).toHaveLength(1);
    expect(splitUnits(-31, { bigQty: 24, midQty: 6, unitBig: '箱', unitMid: '盒', unitSmall: '个' })).toEqual({ big: -1, mid: -1, small: -1, text: '-1箱1盒1个' });
  });
});

describe('verification', () => {
  it('finds a tampered balance and a tampered summary, in the API and in `npm run verify`', async () => {
    const p = await product();
    await ok(init([{ productId: p.id, qty: 8 }]));
    const clean = await ok(t.call('cdm', STOCK.verify, {}, demo));
    expect(clean).toMatchObject({ total: 0, differences: [] });
    expect(clean.moves).toBeGreaterThan(0);
    await t.database.db.updateTable('stockBalance').set({ onHand: 9 }).where('productId', '=', p.id).execute();
    await t.database.db.updateTable('stockSummary').set({ reserved: 1 }).where('productId', '=', p.id).execute();
    const found = await ok(t.call('cdm', STOCK.verify, {}, demo));
    expect(found.total).toBe(2);
    expect(found.differences.map((d: any) => [d.kind, d.productCode, d.expectedOnHand, d.actualOnHand])).toEqual(
      expect.arrayContaining([['ledger', p.code, 8, 9], ['summary', p.code, 9, 8]]),
    );
    // Another company's check does not see them.
    expect((await ok(t.call('cdm', STOCK.verify, {}, demo2))).total).toBe(0);
    const run = await runVerify();
    expect(run.code).toBe(1);
    expect(run.out).toContain(p.code);
    expect(run.out).toContain('发现 2 个差异');
    await t.database.db.updateTable('stockBalance').set({ onHand: 8 }).where('productId', '=', p.id).execute();
    await t.database.db.updateTable('stockSummary').set({ reserved: 0 }).where('productId', '=', p.id).execute();
    const again = await runVerify();
    expect(again.out).toContain('没有差异');
    expect(again.code).toBe(0);
  });
});

function runVerify(): Promise<{ code: number | null; out: string }> {
  const root = path.resolve(import.meta.dirname, '../..');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/verify.ts'], {
      cwd: root, env: { ...process.env, DATA_DIR: t.config.dataDir, DATABASE_URL: t.config.databaseUrl ?? '' }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code) => resolve({ code, out }));
  });
}
