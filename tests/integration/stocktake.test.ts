// Stocktaking (盘点, /entrepot/takeStock) on a real database (SQLite, or PostgreSQL when DATABASE_URL is
// set): a take made from the book, blind counting (a counter's answers never carry the book), count entries
// that add up, stock moving while the count is open (the difference is taken against the book at count
// time and posted against the current balance), posting all or nothing, verify clean, rights and company
// isolation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyStock } from '../../src/server/domain/stock/verify.ts';
import { ok, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let admin: string;
let counter: string;
let viewer: string;
let demo2: string;
let wh: number;
let whDemo2: number;

const TAKE = { list: '024201', get: '024202', save: '024203', post: '024204', cancel: '024205', sheet: '024206', count: '024207', variances: '024208' };
const ADJ_SAVE = '022703';
const INIT_SAVE = '022603';

let seq = 0;
async function product(extra: Record<string, unknown> = {}, token = admin): Promise<{ id: number; code: string }> {
  const code = `PD${String(++seq).padStart(4, '0')}`;
  const p = await ok(t.call('cdm', '010203', { code, name: `盘点测试商品${seq}`, unitBig: '箱', unitMid: '盒', unitSmall: '个', midQty: 6, bigQty: 24, price: '2.50', ...extra }, token));
  return { id: p.id, code };
}
const location = async (lcCode: string, zone: string, warehouseId = wh, token = admin) =>
  (await ok(t.call('cdm', '011103', { warehouseId, lcCode, zone }, token))).id as number;
const stockIn = (productId: number, locationId: number, qty: number, token = admin, warehouseId = wh) =>
  ok(t.call('oms', INIT_SAVE, { warehouseId, lines: [{ productId, locationId, qty }], post: true }, token));
const adjust = (productId: number, locationId: number, qty: number) =>
  ok(t.call('oms', ADJ_SAVE, { warehouseId: wh, reason: 'other', lines: [{ productId, locationId, qty }], post: true }, admin));
async function onHand(productId: number, locationId: number) {
  const r = await t.database.db.selectFrom('stockBalance').select('onHand').where('productId', '=', productId).where('locationId', '=', locationId).executeTakeFirst();
  return Number(r?.onHand ?? 0);
}
async function verifyClean() {
  const r = await verifyStock(t.database.db, {});
  expect(r.differences.map((d) => d.message)).toEqual([]);
}
/** Every key anywhere in a JSON answer (to prove the book never reaches a counter). */
function keysOf(v: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(v)) v.forEach((x) => keysOf(x, out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) { out.add(k); keysOf(x, out); }
  return out;
}
const BOOK_KEYS = ['bookQty', 'book', 'bookUnits', 'diffQty', 'diff', 'diffUnits', 'diffValue', 'diffLines', 'unitPrice', 'movedSince', 'onHand'];

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login('demo', 'admin', 'demo123');
  demo2 = await t.login('demo2', 'admin', 'demo123');
  wh = (await ok(t.call('cdm', '011003', { code: 'PDW', name: '盘点仓' }, admin))).id;
  whDemo2 = (await ok(t.call('cdm', '011001', { page: 1, pageSize: 10 }, demo2))).list[0].id;
  // a counter: sees the takes and counts, never the book
  const countRole = await ok(t.call('cdm', '013303', { name: '盘点员', rights: ['entrepot.takeStock', 'entrepot.takeStock.count'] }, admin));
  await ok(t.call('cdm', '013403', { userName: 'counter', password: 'secret-111', roleIds: [countRole.id] }, admin));
  counter = await t.login('demo', 'counter', 'secret-111');
  const viewRole = await ok(t.call('cdm', '013303', { name: '盘点查看', rights: ['entrepot.takeStock'] }, admin));
  await ok(t.call('cdm', '013403', { userName: 'takeviewer', password: 'secret-111', roleIds: [viewRole.id] }, admin));
  viewer = await t.login('demo', 'takeviewer', 'secret-111');
});
afterAll(async () => t?.close());

describe('stocktaking', () => {
  it('makes the sheet from the book in walking order; a counter counts blind; entries add up; variances and posting move only differences', async () => {
    const a = await location('K-01-01', 'K');
    const b = await location('K-02-01', 'K');
    const c = await location('M-01-01', 'M');
    const p1 = await product();
    const p2 = await product();
    await stockIn(p1.id, b, 50);
    await stockIn(p1.id, a, 30);
    await stockIn(p2.id, a, 10);
    await stockIn(p2.id, c, 7);

    const made = await ok(t.call('oms', TAKE.save, { warehouseId: wh, zone: 'k', remark: '月末盘点' }, admin));
    expect(made).toMatchObject({ status: 'counting', zone: 'K', lineCount: 3 });
    // zone M (p2 at M-01-01) is outside; lines in walking order K-01-01 (p1, p2) then K-02-01
    const sheet = await ok(t.call('oms', TAKE.sheet, { id: made.id, page: 1, pageSize: 50 }, counter));
    expect(sheet.list.map((l: any) => `${l.lcCode}/${l.productCode}`)).toEqual([`K-01-01/${p1.code}`, `K-01-01/${p2.code}`, `K-02-01/${p1.code}`]);
    for (const k of BOOK_KEYS) expect(keysOf(sheet).has(k)).toBe(false);

    // the document itself, to a counter: no book either
    const asCounter = await ok(t.call('oms', TAKE.get, { id: made.id }, counter));
    for (const k of BOOK_KEYS) expect(keysOf(asCounter).has(k)).toBe(false);
    expect(asCounter.lines).toHaveLength(3);
    // and the variances are refused to a counter
    expect((await t.call('oms', TAKE.variances, { id: made.id, page: 1, pageSize: 50 }, counter)).code).not.toBe('200');

    const [l1, l2, l3] = sheet.list;
    // two counters count p1 at K-01-01: 1 箱 and then 6 个 → 24 + 6 = 30, added up, not replaced
    const e1 = await ok(t.call('oms', TAKE.count, { id: made.id, lineId: l1.id, big: 1 }, counter));
    const e2 = await ok(t.call('oms', TAKE.count, { id: made.id, lineId: l1.id, small: 6 }, admin));
    expect(e1).toMatchObject({ countedQty: 24, countCount: 1 });
    expect(e2).toMatchObject({ countedQty: 30, countCount: 2, countedUnits: '1箱1盒' });
    for (const k of BOOK_KEYS) expect(keysOf(e1).has(k)).toBe(false);
    // p2 at K-01-01: 8 of 10 (a loss); p1 at K-02-01: 2 箱 3 个 = 51 of 50 (a gain)
    await ok(t.call('oms', TAKE.count, { id: made.id, lineId: l2.id, qty: 8 }, counter));
    // not every line counted yet: posting is refused and nothing moves
    const early = await t.call('oms', TAKE.post, { id: made.id }, admin);
    expect(early.code).toBe('STOCKTAKE_UNCOUNTED_4251');
    expect(early.msg).toContain('1 行未盘点');
    await ok(t.call('oms', TAKE.count, { id: made.id, lineId: l3.id, big: 2, small: 3 }, counter));
    // a correction below zero is refused
    expect((await t.call('oms', TAKE.count, { id: made.id, lineId: l2.id, qty: -9 }, counter)).code).toBe('STOCKTAKE_COUNT_NEGATIVE_4253');

    const v = await ok(t.call('oms', TAKE.variances, { id: made.id, page: 1, pageSize: 50 }, admin));
    expect(v.list.map((l: any) => [l.bookQty, l.countedQty, l.diffQty, l.diffValue])).toEqual([[30, 30, 0, '0.00'], [10, 8, -2, '-5.00'], [50, 51, 1, '2.50']]);
    expect(v.list[2].book).toMatchObject({ big: 2, mid: 0, small: 2 });
    expect(v.list[2].diff).toMatchObject({ big: 0, mid: 0, small: 1, text: '1个' });
    expect(v.summary).toMatchObject({ lines: 3, countedLines: 3, diffLines: 2, diffValue: '-2.50' });
    const only = await ok(t.call('oms', TAKE.variances, { id: made.id, onlyDiff: true, page: 1, pageSize: 50 }, admin));
    expect(only.total).toBe(2);

    const posted = await ok(t.call('oms', TAKE.post, { id: made.id }, admin));
    expect(posted).toMatchObject({ status: 'posted', diffLines: 2 });
    expect(await onHand(p1.id, a)).toBe(30);
    expect(await onHand(p2.id, a)).toBe(8);
    expect(await onHand(p1.id, b)).toBe(51);
    expect(await onHand(p2.id, c)).toBe(7);
    // only the differences are on the ledger (two moves of kind count); the zero line stays as proof
    const moves = await t.database.db.selectFrom('stockMove').select(['qty', 'kind']).where('docType', '=', 'stockTake').where('docId', '=', made.id).orderBy('id').execute();
    expect(moves.map((m) => [Number(m.qty), m.kind])).toEqual([[-2, 'count'], [1, 'count']]);
    const doc = await ok(t.call('oms', TAKE.get, { id: made.id }, admin));
    expect(doc.lines.map((l: any) => l.diffQty)).toEqual([0, -2, 1]);
    expect(doc).toMatchObject({ diffLines: 2, diffValue: '-2.50' });
    // counting after the posting is refused, and posting twice is too
    expect((await t.call('oms', TAKE.count, { id: made.id, lineId: l1.id, qty: 1 }, counter)).code).toBe('STOCK_DOC_STATUS_4078');
    expect((await t.call('oms', TAKE.post, { id: made.id }, admin)).code).toBe('STOCK_DOC_STATUS_4078');
    await verifyClean();
  });

  it('stock moving while the count is open: compared against the book when the place was counted, posted against the balance now', async () => {
    const loc = await location('C-01-01', 'C');
    const p = await product();
    await stockIn(p.id, loc, 100);
    const take = await ok(t.call('oms', TAKE.save, { warehouseId: wh, productCodes: p.code }, admin));
    const [line] = (await ok(t.call('oms', TAKE.sheet, { id: take.id, page: 1, pageSize: 50 }, counter))).list;
    // before the count 20 go out: the counter finds 78 of the 80 then on the book (2 lost)
    await adjust(p.id, loc, -20);
    await ok(t.call('oms', TAKE.count, { id: take.id, lineId: line.id, qty: 78 }, counter));
    // after the count 5 more go out and 40 come in
    await adjust(p.id, loc, -5);
    await adjust(p.id, loc, 40);
    const v = await ok(t.call('oms', TAKE.variances, { id: take.id, page: 1, pageSize: 50 }, admin));
    expect(v.list[0]).toMatchObject({ bookQty: 80, countedQty: 78, diffQty: -2, movedSince: 35 });
    await ok(t.call('oms', TAKE.post, { id: take.id }, admin));
    // 80 counted as 78, then −5 + 40: 113 (not 78, and not 115)
    expect(await onHand(p.id, loc)).toBe(113);
    await verifyClean();
  });

  it('posts all or nothing: one line that cannot move leaves every balance and the take as they were', async () => {
    const l1 = await location('D-01-01', 'D');
    const l2 = await location('D-01-02', 'D');
    const p = await product();
    await stockIn(p.id, l1, 10);
    await stockIn(p.id, l2, 10);
    const take = await ok(t.call('oms', TAKE.save, { warehouseId: wh, zone: 'D' }, admin));
    const sheet = (await ok(t.call('oms', TAKE.sheet, { id: take.id, page: 1, pageSize: 50 }, counter))).list;
    await ok(t.call('oms', TAKE.count, { id: take.id, lineId: sheet[0].id, qty: 12 }, counter)); // +2 at D-01-01
    await ok(t.call('oms', TAKE.count, { id: take.id, lineId: sheet[1].id, qty: 1 }, counter)); // −9 at D-01-02
    // meanwhile 5 leave D-01-02: −9 against the 5 there now cannot go through
    await adjust(p.id, l2, -5);
    const refused = await t.call('oms', TAKE.post, { id: take.id }, admin);
    expect(refused.code).toBe('STOCK_NOT_ENOUGH_4071');
    expect(await onHand(p.id, l1)).toBe(10);
    expect(await onHand(p.id, l2)).toBe(5);
    const still = await ok(t.call('oms', TAKE.get, { id: take.id }, admin));
    expect(still.status).toBe('counting');
    expect(still.lines.map((l: any) => l.diffQty)).toEqual([null, null]);
    expect(await t.database.db.selectFrom('stockMove').select('id').where('docType', '=', 'stockTake').where('docId', '=', take.id).execute()).toEqual([]);
    // the 5 come back (a returned pick): now the take posts, −9 against 10
    await adjust(p.id, l2, 5);
    await ok(t.call('oms', TAKE.post, { id: take.id }, admin));
    expect(await onHand(p.id, l1)).toBe(12);
    expect(await onHand(p.id, l2)).toBe(1);
    await verifyClean();
  });

  it('adds a line for a product found where the sheet does not list it, by scanned codes (location lookup key of spec §3)', async () => {
    const l1 = await location('E-01-01', 'E');
    const l2 = await location('E-01-02', 'E');
    const p = await product({ barcode: '6901234567892' });
    await stockIn(p.id, l1, 4);
    const take = await ok(t.call('oms', TAKE.save, { warehouseId: wh, zone: 'E' }, admin));
    expect(take.lineCount).toBe(1);
    const added = await ok(t.call('oms', TAKE.count, { id: take.id, productCode: '6901234567892', locationCode: 'e0102', qty: 3 }, counter));
    expect(added).toMatchObject({ lcCode: 'E-01-02', countedQty: 3, added: true, lineNo: 2 });
    const again = await ok(t.call('oms', TAKE.count, { id: take.id, productCode: p.code, locationCode: 'E-01-02', qty: 2 }, counter));
    expect(again).toMatchObject({ lineNo: 2, countedQty: 5, added: false });
    await ok(t.call('oms', TAKE.count, { id: take.id, productCode: p.code, locationCode: 'E-01-01', qty: 4 }, counter));
    // a second open take over the same place is refused
    const overlap = await t.call('oms', TAKE.save, { warehouseId: wh, productCodes: p.code }, admin);
    expect(overlap.code).toBe('STOCKTAKE_OVERLAP_4252');
    await ok(t.call('oms', TAKE.post, { id: take.id }, admin));
    expect(await onHand(p.id, l2)).toBe(5);
    await verifyClean();
  });

  it('checks rights and keeps companies apart', async () => {
    const loc = await location('F-01-01', 'F');
    const p = await product();
    await stockIn(p.id, loc, 3);
    const take = await ok(t.call('oms', TAKE.save, { warehouseId: wh, zone: 'F' }, admin));
    const line = (await ok(t.call('oms', TAKE.sheet, { id: take.id, page: 1, pageSize: 50 }, counter))).list[0];
    // the counter may not create, post or cancel; the viewer may not count
    expect((await t.call('oms', TAKE.save, { warehouseId: wh, zone: 'F' }, counter)).code).not.toBe('200');
    expect((await t.call('oms', TAKE.post, { id: take.id }, counter)).code).not.toBe('200');
    expect((await t.call('oms', TAKE.cancel, { id: take.id }, counter)).code).not.toBe('200');
    expect((await t.call('oms', TAKE.count, { id: take.id, lineId: line.id, qty: 1 }, viewer)).code).not.toBe('200');
    // the viewer sees the take, without the book
    const seen = await ok(t.call('oms', TAKE.get, { id: take.id }, viewer));
    for (const k of BOOK_KEYS) expect(keysOf(seen).has(k)).toBe(false);
    // another company sees nothing of it and cannot count it, nor make a take on this warehouse
    expect((await t.call('oms', TAKE.get, { id: take.id }, demo2)).code).toBe('COMMON_NOT_FOUND_4004');
    expect((await t.call('oms', TAKE.sheet, { id: take.id, page: 1, pageSize: 50 }, demo2)).code).toBe('COMMON_NOT_FOUND_4004');
    expect((await t.call('oms', TAKE.count, { id: take.id, lineId: line.id, qty: 1 }, demo2)).code).toBe('COMMON_NOT_FOUND_4004');
    expect((await t.call('oms', TAKE.variances, { id: take.id, page: 1, pageSize: 50 }, demo2)).code).toBe('COMMON_NOT_FOUND_4004');
    expect((await t.call('oms', TAKE.save, { warehouseId: wh }, demo2)).code).not.toBe('200');
    const list2 = await ok(t.call('oms', TAKE.list, { page: 1, pageSize: 50 }, demo2));
    expect(list2.list.map((r: any) => r.id)).not.toContain(take.id);
    // demo2's own take of its own stock works beside it
    const p2 = await product({}, demo2);
    const loc2 = await location('A-01-01', 'A', whDemo2, demo2);
    await stockIn(p2.id, loc2, 1, demo2, whDemo2);
    const own = await ok(t.call('oms', TAKE.save, { warehouseId: whDemo2 }, demo2));
    expect(own.lineCount).toBe(1);
    // cancelling leaves the stock alone
    await ok(t.call('oms', TAKE.count, { id: take.id, lineId: line.id, qty: 1 }, counter));
    await ok(t.call('oms', TAKE.cancel, { id: take.id }, admin));
    expect(await onHand(p.id, loc)).toBe(3);
    await verifyClean();
  });

  it('two entries of one line at once both count', async () => {
    const loc = await location('G-01-01', 'G');
    const p = await product();
    await stockIn(p.id, loc, 40);
    const take = await ok(t.call('oms', TAKE.save, { warehouseId: wh, zone: 'G' }, admin));
    const line = (await ok(t.call('oms', TAKE.sheet, { id: take.id, page: 1, pageSize: 50 }, counter))).list[0];
    const answers = await Promise.all(Array.from({ length: 8 }, () => t.call('oms', TAKE.count, { id: take.id, lineId: line.id, qty: 5 }, counter)));
    expect(answers.map((r) => r.code)).toEqual(Array(8).fill('200'));
    const sheet = await ok(t.call('oms', TAKE.sheet, { id: take.id, page: 1, pageSize: 50 }, counter));
    expect(sheet.list[0]).toMatchObject({ countedQty: 40, countCount: 8 });
    const entries = await t.database.db.selectFrom('stockTakeCount').select(['qty', 'bookQty']).where('takeId', '=', take.id).execute();
    expect(entries.map((e) => [Number(e.qty), Number(e.bookQty)])).toEqual(Array(8).fill([5, 40]));
  });
});

describe('the floor: scanning and labels', () => {
  it('finds stock by location from a scanned product code, barcode or location code (spec §3 lookup key)', async () => {
    const loc = await location('H-01-02', 'H');
    const p = await product({ barcode: '6900000000017' });
    await stockIn(p.id, loc, 30);
    for (const keyword of [p.code, '6900000000017']) {
      const r = await ok(t.call('oms', '024209', { keyword, page: 1, pageSize: 50 }, admin));
      expect(r.found).toBe('product');
      expect(r.list.map((x: any) => [x.lcCode, x.onHand, x.onHandUnits])).toEqual([['H-01-02', 30, '1箱1盒']]);
    }
    const byLocation = await ok(t.call('oms', '024209', { keyword: 'h0102', page: 1, pageSize: 50 }, admin));
    expect(byLocation).toMatchObject({ found: 'location', total: 1 });
    expect(byLocation.list[0]).toMatchObject({ productCode: p.code, onHand: 30, reserved: 0, reservedUnits: '0个' });
    expect(await ok(t.call('oms', '024209', { keyword: 'NO-SUCH-THING', page: 1, pageSize: 50 }, admin))).toMatchObject({ found: 'none', total: 0 });
    // another company's codes find nothing
    expect(await ok(t.call('oms', '024209', { keyword: p.code, page: 1, pageSize: 50 }, demo2))).toMatchObject({ found: 'none', total: 0 });
  });

  it('labels carry a signed QR token: without a login it tells only code and name; forged or foreign tokens are refused', async () => {
    const loc = await location('H-02-01', 'H');
    const p = await product({ barcode: '6900000000024', specification: '10 × 20' });
    await stockIn(p.id, loc, 5);
    const labels = await ok(t.call('oms', '024211', { kind: 'product', ids: [p.id] }, admin));
    expect(labels.labels[0]).toMatchObject({ code: p.code, name: `盘点测试商品${seq}`, barcode: '6900000000024' });
    expect(labels.labels[0].lines).toEqual(['规格：10 × 20', '箱规：6/24', '单位：个/盒/箱', '条码：6900000000024']);
    const token: string = labels.labels[0].qr;
    // public: code and name, nothing more
    const peek = await ok(t.call('auth', '990120', { id: token }, null, { public: true }));
    expect(peek).toEqual({ token, kind: 'product', kindText: '商品', code: p.code, name: `盘点测试商品${seq}` });
    // a token for another id or another company, made without the key, is refused
    const [payload, sig] = token.split('.');
    const forged = [`${payload!.replace(/-\d+$/, `-${p.id + 1}`)}.${sig}`, `${payload!.replace(/^P\d+/, 'P999')}.${sig}`, `${payload}.${'A'.repeat(22)}`, 'P1-1', String(p.id)];
    for (const f of forged) {
      const r = await t.call('auth', '990120', { id: f }, null, { public: true });
      expect(r.code).toBe('LABEL_TOKEN_INVALID_4254');
      expect(r.data).toBeNull();
    }
    // logged in, same company: the stock and the detail page
    const stock = await ok(t.call('oms', '024212', { t: token, page: 1, pageSize: 50 }, admin));
    expect(stock).toMatchObject({ kind: 'product', code: p.code, route: `/commodity/goodsDetail/${p.id}`, total: 1 });
    expect(stock.list[0]).toMatchObject({ lcCode: 'H-02-01', onHand: 5 });
    // another company's login gets nothing from it
    expect((await t.call('oms', '024212', { t: token, page: 1, pageSize: 50 }, demo2)).code).toBe('LABEL_TOKEN_INVALID_4254');
    // location labels too
    const locLabel = (await ok(t.call('oms', '024211', { kind: 'location', ids: [loc] }, admin))).labels[0];
    expect(locLabel).toMatchObject({ code: 'H-02-01', barcode: 'H-02-01' });
    expect(await ok(t.call('auth', '990120', { id: locLabel.qr }, null, { public: true }))).toMatchObject({ kind: 'location', code: 'H-02-01', name: '盘点仓 H-02-01' });
    // a counter without product rights may not print product labels
    expect((await t.call('oms', '024211', { kind: 'product', ids: [p.id] }, counter)).code).toBe('COMMON_NO_RIGHT_4003');
    // ids of another company are not found
    expect((await t.call('oms', '024211', { kind: 'product', ids: [p.id] }, demo2)).code).not.toBe('200');
    // a document label (any engine document): its number as the barcode, no QR; the document's read right
    const take = await ok(t.call('oms', TAKE.save, { warehouseId: wh, zone: 'H' }, admin));
    const docLabel = await ok(t.call('oms', '024211', { kind: 'document', docType: 'stockTake', ids: [take.id] }, counter));
    expect(docLabel).toMatchObject({ kindText: '盘点单', labels: [{ title: '盘点单', code: take.docNo, barcode: take.docNo, name: '盘点仓', lines: ['状态：盘点中'], qr: null }] });
    expect((await t.call('oms', '024211', { kind: 'document', docType: 'purchaseOrder', ids: [take.id] }, counter)).code).toBe('COMMON_NO_RIGHT_4003');
    expect((await t.call('oms', '024211', { kind: 'document', docType: 'nothing', ids: [take.id] }, admin)).code).toBe('COMMON_VALIDATION_4000');
    expect((await t.call('oms', '024211', { kind: 'document', docType: 'stockTake', ids: [take.id] }, demo2)).code).toBe('COMMON_NOT_FOUND_4004');
  });
});

describe('single-piece scan records (单件扫描记录)', () => {
  it('records what was scanned, where, by whom and when; moves no stock; other companies see none', async () => {
    const loc = await location('H-03-01', 'H');
    const p = await product({ barcode: '6900000000031' });
    await stockIn(p.id, loc, 2);
    const r1 = await ok(t.call('oms', '024213', { code: '6900000000031', locationCode: 'h0301' }, admin));
    expect(r1).toMatchObject({ productCode: p.code, lcCode: 'H-03-01', qty: 1, code: '6900000000031' });
    await ok(t.call('oms', '024213', { code: p.code, qty: 3, remark: '破损待检' }, admin));
    const list = await ok(t.call('oms', '024214', { keyword: p.code, page: 1, pageSize: 10 }, admin));
    expect(list.total).toBe(2);
    expect(list.list.map((r: any) => [r.code, r.lcCode, r.qty, r.userName, r.remark])).toEqual([
      [p.code, null, 3, 'admin', '破损待检'],
      ['6900000000031', 'H-03-01', 1, 'admin', null],
    ]);
    expect((await ok(t.call('oms', '024214', { keyword: p.code, dateFrom: '2020-01-01', dateTo: '2020-01-02', page: 1, pageSize: 10 }, admin))).total).toBe(0);
    expect((await ok(t.call('oms', '024214', { filters: { keyword: p.code, dateFrom: '2020-01-01' }, page: 1, pageSize: 10 }, admin))).total).toBe(2);
    expect(await onHand(p.id, loc)).toBe(2);
    // unknown product or place: refused, nothing recorded; bad dates: a message, not a 500
    expect((await t.call('oms', '024213', { code: 'NO-SUCH' }, admin)).code).toBe('PRODUCT_NOT_EXIST_4001');
    expect((await t.call('oms', '024213', { code: p.code, locationCode: 'ZZ-99' }, admin)).code).toBe('STOCK_LOCATION_NOT_FOUND_4079');
    expect((await t.call('oms', '024214', { dateFrom: '2020-13-45', page: 1, pageSize: 10 }, admin)).code).toBe('COMMON_VALIDATION_4000');
    // rights and companies
    expect((await t.call('oms', '024213', { code: p.code }, counter)).code).toBe('COMMON_NO_RIGHT_4003');
    expect((await ok(t.call('oms', '024214', { keyword: p.code, page: 1, pageSize: 10 }, demo2))).total).toBe(0);
    expect((await t.call('oms', '024213', { code: p.code }, demo2)).code).toBe('PRODUCT_NOT_EXIST_4001');
  });
});
