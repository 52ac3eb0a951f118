// Receiving notes and putaways across real server processes on one database (SQLite file or PostgreSQL):
// - kill -9 in the middle of posting a 200-line receiving note, and a 200-line putaway, leaves all of the
//   document's effects or none (note status, order lines' received quantities, receiving lines' put-away
//   quantities, ledger rows, balances), a ledger that verifies, and a document that posts after a restart;
// - receipts, putaways and adjustments on the same products, many at once from two server processes
//   (each with its own connections), keep the ledger, balances and totals equal and never negative.
//
// How the crash tests know they killed inside the transaction (and so can fail): the posting server runs
// with TEST_HOOK_STOCK_POST_DELAY_MS, which makes postMoves pause after the balance updates and before the
// ledger rows (ledger.ts). The kill comes during that pause, and right before it the test asserts that a
// write transaction is open on the database: on SQLite another connection cannot take the write lock
// (BEGIN IMMEDIATE → SQLITE_BUSY), on PostgreSQL a backend with a transaction id sits idle in its
// transaction. At that moment the note's status, the order lines (or receiving lines) and the balances
// are already updated inside the transaction; a posting that were not one transaction would leave them.
import SQLite from 'better-sqlite3';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyStock } from '../../src/server/domain/stock/verify.ts';
import { ok, startTestServer, type TestServer } from './helpers.ts';
import { loginAt, post, sameDatabaseEnv, spawnServer, type SpawnedServer } from '../support/spawn-server.ts';

const RN = { get: '021402', save: '021403', post: '021404' };
const PA = { get: '021502', save: '021503', suggest: '021506' };


let owner: TestServer;
let token: string;
let wh: number;
let supplierId: number;
let receivingLoc: number;
let storage: number[];
let env: Record<string, string>;
let a: SpawnedServer;
let b: SpawnedServer;


const db = () => owner.database.db;
const isPg = () => owner.database.dialect === 'postgres';

let seq = 0;
/** Products with a default location in the warehouse (spread over the storage locations). */
async function products(n: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i += 50) {
    const batch = await Promise.all(Array.from({ length: Math.min(50, n - i) }, async () => {
      const code = `PPR${String(++seq).padStart(5, '0')}`;
      const p = await ok(owner.call('cdm', '010203', { code, name: `收货进程测试${code}`, unitSmall: '个' }, token));
      await ok(owner.call('cdm', '011203', { productId: p.id, warehouseId: wh, locationId: storage[seq % storage.length] }, token));
      return p.id as number;
    }));
    ids.push(...batch);
  }
  return ids;
}

async function confirmedOrder(ps: number[], qty: number): Promise<{ id: number; lines: Array<{ id: number; productId: number }> }> {
  const po = await ok(owner.call('oms', '020203', { supplierId, warehouseId: wh, expectedDate: '2026-12-01', lines: ps.map((productId) => ({ productId, qty, price: '1' })) }, token));
  await ok(owner.call('oms', '020205', { id: po.id, version: po.version }, token));
  const got = await ok(owner.call('oms', '020202', { id: po.id }, token));
  return { id: got.id, lines: got.lines.map((l: any) => ({ id: l.id, productId: l.productId })) };
}

async function movesOf(docType: string, docId?: number): Promise<number> {
  let q = db().selectFrom('stockMove').select((eb) => eb.fn.countAll().as('n')).where('docType', '=', docType);
  if (docId !== undefined) q = q.where('docId', '=', docId);
  return Number((await q.executeTakeFirst())?.n ?? 0);
}

/** On-hand per product at one location (0 when there is no balance row). */
async function onHands(ids: number[], locationId: number): Promise<number[]> {
  const rows = await db().selectFrom('stockBalance').select(['productId', 'onHand'])
    .where('productId', 'in', ids).where('warehouseId', '=', wh).where('locationId', '=', locationId).execute();
  const by = new Map(rows.map((r) => [Number(r.productId), Number(r.onHand)]));
  return ids.map((id) => by.get(id) ?? 0);
}

async function summaries(ids: number[]): Promise<number[]> {
  const rows = await db().selectFrom('stockSummary').select(['productId', 'onHand']).where('productId', 'in', ids).where('warehouseId', '=', wh).execute();
  const by = new Map(rows.map((r) => [Number(r.productId), Number(r.onHand)]));
  return ids.map((id) => by.get(id) ?? 0);
}

async function receivedOf(orderId: number): Promise<{ status: string; receivedQty: number; lines: number[] }> {
  const po = await db().selectFrom('purchaseOrder').select(['status', 'receivedQty']).where('id', '=', orderId).executeTakeFirstOrThrow();
  const lines = await db().selectFrom('purchaseOrderLine').select('receivedQty').where('orderId', '=', orderId).orderBy('lineNo').execute();
  return { status: String(po.status), receivedQty: Number(po.receivedQty), lines: lines.map((l) => Number(l.receivedQty)) };
}

async function putawayQtys(noteId: number): Promise<number[]> {
  const rows = await db().selectFrom('receivingNoteLine').select('putawayQty').where('noteId', '=', noteId).orderBy('lineNo').execute();
  return rows.map((r) => Number(r.putawayQty));
}

async function verifyClean() {
  const r = await verifyStock(db());
  expect(r.differences.map((d) => d.message)).toEqual([]);
}

/** Whether some connection holds an open write transaction on the test database right now. */
async function writeTransactionOpen(): Promise<boolean> {
  if (isPg()) {
    const r = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid() and state like 'idle in transaction%' and backend_xid is not null`.execute(db());
    return Number(r.rows[0]?.n ?? 0) > 0;
  }
  const probe = new SQLite(path.join(owner.config.dataDir, 'app.sqlite'), { timeout: 0 });
  try {
    probe.exec('begin immediate');
    probe.exec('rollback');
    return false;
  } catch (e) {
    if ((e as { code?: string }).code === 'SQLITE_BUSY') return true;
    throw e;
  } finally {
    probe.close();
  }
}

beforeAll(async () => {
  owner = await startTestServer(); // creates, migrates and seeds the database
  token = await owner.login();
  wh = (await ok(owner.call('cdm', '011001', { page: 1, pageSize: 5 }, token))).list[0].id;
  supplierId = (await ok(owner.call('cdm', '011601', { page: 1, pageSize: 5 }, token))).list[0].id;
  receivingLoc = (await ok(owner.call('cdm', '011103', { warehouseId: wh, lcCode: 'PR-RECV', type: 'receiving' }, token))).id;
  storage = [];
  for (const lcCode of ['PR-S-01', 'PR-S-02', 'PR-S-03']) storage.push((await ok(owner.call('cdm', '011103', { warehouseId: wh, lcCode }, token))).id);
  env = sameDatabaseEnv(owner);
  [a, b] = await Promise.all([spawnServer(env), spawnServer(env)]);
});

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await owner?.close();
});

describe('kill -9 in the middle of posting a 200-line document', () => {
  /**
   * Posts `body` to `code` through a process that pauses inside postMoves (`moves` × `delayMs`), checks
   * that the write transaction is open, and kills the process (SIGKILL) during the pause.
   */
  async function crashWhilePosting(code: string, body: unknown, moves: number, delayMs: number): Promise<void> {
    const slow = await spawnServer({ ...env, TEST_HOOK_STOCK_POST_DELAY_MS: String(delayMs) });
    try {
      const t = await loginAt(slow.url);
      const pending = post(`${slow.url}/oms/api/${code}`, body, t).catch((e: Error) => ({ code: 'connection lost', msg: e.message, data: null }));
      const deadline = Date.now() + 30_000;
      // The pause (moves × delayMs, ≥ 3 s here) starts when the balances have changed: kill somewhere inside it,
      // counting from its start as this process reads it (a late read of the output must not let the posting finish).
      while (!slow.output().includes(`[test-hook] balances changed (${moves} moves)`)) {
        if (Date.now() > deadline) throw new Error(`posting did not start:\n${slow.output()}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      // the pause lasts seconds from here: killing at once lands inside it, with no guessed sleep
      expect(await writeTransactionOpen(), 'the posting transaction is open when the process is killed').toBe(true);
      slow.child.kill('SIGKILL');
      const answer = await pending;
      expect(answer.code).toBe('connection lost');
    } finally {
      await slow.stop();
    }
    // PostgreSQL ends the dead client's transaction when it sees the connection gone.
    for (let i = 0; i < 250 && (await writeTransactionOpen()); i++) await new Promise((r) => setTimeout(r, 20));
    expect(await writeTransactionOpen()).toBe(false);
  }

  /** A normal server process on the same database, started after the crash. */
  async function afterRestart<T>(fn: (url: string, token: string) => Promise<T>): Promise<T> {
    const s = await spawnServer(env);
    try {
      return await fn(s.url, await loginAt(s.url));
    } finally {
      await s.stop();
    }
  }

  it('a receiving note: none of it after the crash (status, received quantities, ledger, balances), all of it when posted after a restart', async () => {
    const ps = await products(200);
    const order = await confirmedOrder(ps, 10);
    // 2 of each already received: the crashed posting must leave exactly this.
    const first = await ok(owner.call('oms', RN.save, { orderId: order.id, post: true, lines: order.lines.map((l) => ({ orderLineId: l.id, countedQty: 2, locationId: receivingLoc })) }, token));
    const draft = await ok(owner.call('oms', RN.save, { orderId: order.id, lines: order.lines.map((l) => ({ orderLineId: l.id, countedQty: 3, locationId: receivingLoc })) }, token));
    const before = await receivedOf(order.id);
    expect(before).toEqual({ status: 'partlyReceived', receivedQty: 400, lines: ps.map(() => 2) });
    const ledgerBefore = await movesOf('receivingNote');

    await crashWhilePosting(RN.post, { id: draft.id }, 200, 15);

    expect((await ok(owner.call('oms', RN.get, { id: draft.id }, token))).status).toBe('draft');
    expect(await receivedOf(order.id)).toEqual(before);
    expect(await movesOf('receivingNote', draft.id)).toBe(0);
    expect(await movesOf('receivingNote')).toBe(ledgerBefore);
    expect(await onHands(ps, receivingLoc)).toEqual(ps.map(() => 2));
    expect(await summaries(ps)).toEqual(ps.map(() => 2));
    await verifyClean();

    const posted = await afterRestart((url, t) => post(`${url}/oms/api/${RN.post}`, { id: draft.id }, t));
    expect(posted.code, posted.msg).toBe('200');
    expect(posted.data).toMatchObject({ status: 'posted', totalQty: 600 });
    expect(await receivedOf(order.id)).toEqual({ status: 'partlyReceived', receivedQty: 1000, lines: ps.map(() => 5) });
    expect(await movesOf('receivingNote', draft.id)).toBe(200);
    expect(await movesOf('receivingNote', first.id)).toBe(200);
    expect(await onHands(ps, receivingLoc)).toEqual(ps.map(() => 5));
    await verifyClean();
  }, 180_000);

  it('a putaway saved and posted at once: no putaway, nothing put away or moved after the crash; all of it after a restart', async () => {
    const ps = await products(200);
    const order = await confirmedOrder(ps, 10);
    const note = await ok(owner.call('oms', RN.save, { orderId: order.id, post: true, lines: order.lines.map((l, i) => ({ orderLineId: l.id, countedQty: 1 + (i % 9), locationId: receivingLoc })) }, token));
    const qtys = ps.map((_, i) => 1 + (i % 9));
    const suggested = await ok(owner.call('oms', PA.suggest, { receivingNoteId: note.id }, token));
    const targets = suggested.lines.map((l: any) => l.suggestedLocationId as number);
    expect(targets.every((x: number | null) => x !== null && storage.includes(x))).toBe(true);
    const ledgerBefore = await movesOf('putaway');
    const putawaysBefore = Number((await db().selectFrom('putaway').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);

    // 200 lines → 400 moves (out of the receiving place, into the suggested location).
    await crashWhilePosting(PA.save, { receivingNoteId: note.id, post: true }, 400, 8);

    expect(Number((await db().selectFrom('putaway').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0)).toBe(putawaysBefore);
    expect(await db().selectFrom('putaway').select('id').where('receivingNoteId', '=', note.id).execute()).toEqual([]);
    expect(await putawayQtys(note.id)).toEqual(ps.map(() => 0));
    expect(await movesOf('putaway')).toBe(ledgerBefore);
    expect(await onHands(ps, receivingLoc)).toEqual(qtys);
    for (const s of storage) expect(await onHands(ps, s)).toEqual(ps.map(() => 0));
    expect(await summaries(ps)).toEqual(qtys);
    await verifyClean();

    const posted = await afterRestart((url, t) => post(`${url}/oms/api/${PA.save}`, { receivingNoteId: note.id, post: true }, t));
    expect(posted.code, posted.msg).toBe('200');
    expect(posted.data).toMatchObject({ status: 'posted', totalQty: qtys.reduce((s, q) => s + q, 0) });
    expect(await putawayQtys(note.id)).toEqual(qtys);
    expect(await movesOf('putaway', posted.data.id)).toBe(400);
    expect(await onHands(ps, receivingLoc)).toEqual(ps.map(() => 0));
    const atTargets = await Promise.all(ps.map(async (p, i) => (await onHands([p], targets[i]!))[0]));
    expect(atTargets).toEqual(qtys);
    expect(await summaries(ps)).toEqual(qtys);
    await verifyClean();
  }, 180_000);
});

describe('receipts, putaways and adjustments at once from two server processes', () => {
  it('keeps every balance equal to its ledger, never negative, and never receives or puts away more than allowed', async () => {
    const ps = await products(6);
    const targets = await Promise.all(ps.map(async (p) => Number((await db().selectFrom('defaultLocation').select('locationId').where('productId', '=', p).where('warehouseId', '=', wh).executeTakeFirstOrThrow()).locationId)));
    // Opening stock: 20 of each at its storage location.
    await ok(owner.call('oms', '022603', { warehouseId: wh, lines: ps.map((p, i) => ({ productId: p, locationId: targets[i], qty: 20 })), post: true }, token));
    const order = await confirmedOrder(ps, 100);
    const company = await db().selectFrom('company').select('receMultiple').where('code', '=', 'demo').executeTakeFirstOrThrow();
    expect(String(company.receMultiple)).toBe('1.1');
    // Receipts of the same order serialise on it: each of 6 passes while the order is still open
    // (received < 100) and the line stays within 100 × 1.1 — 17 of them (6 × 17 = 102); then the order is
    // received and the rest are refused.
    const fit = 17;
    const receivable = 6 * fit;
    const [ta, tb] = await Promise.all([loginAt(a.url), loginAt(b.url)]);
    const via = (i: number) => (i % 2 ? { url: a.url, t: ta } : { url: b.url, t: tb });

    // Receipts of 6 of every line (lines in turned orders), each followed by two racing putaways of the
    // whole note (one per process): 30 receipts ask for 180.
    const receiptCodes: string[] = [];
    const putawayCodes: string[][] = [];
    const receiptsAndPutaways = Array.from({ length: 30 }, async (_, i) => {
      const lines = order.lines.map((l) => ({ orderLineId: l.id, countedQty: 6, locationId: receivingLoc }));
      if (i % 3 === 1) lines.reverse();
      const { url, t } = via(i);
      const r = await post(`${url}/oms/api/${RN.save}`, { orderId: order.id, post: true, lines }, t);
      receiptCodes.push(r.code);
      if (r.code !== '200') return;
      const pas = await Promise.all([a, b].map((s, k) => post(`${s.url}/oms/api/${PA.save}`, { receivingNoteId: r.data.id, post: true }, k ? ta : tb)));
      putawayCodes.push(pas.map((x) => x.code));
    });
    // Adjustments taking 5 of every product from its storage location (40 × 5 = 200, more than the
    // 20 + 102 + 10 there will ever be, so some must be refused), and some putting 1 back.
    const adjustCodes: string[] = [];
    const adjustments = Array.from({ length: 50 }, async (_, i) => {
      const qty = i % 5 === 4 ? 1 : -5;
      const order = i % 2 ? [...ps.keys()].reverse() : [...ps.keys()];
      const { url, t } = via(i + 1);
      const r = await post(`${url}/oms/api/022703`, { warehouseId: wh, reason: 'loss', lines: order.map((k) => ({ productId: ps[k], locationId: targets[k], qty })), post: true }, t);
      adjustCodes.push(`${qty}:${r.code}`);
    });
    await Promise.all([...receiptsAndPutaways, ...adjustments]);

    // Exactly as many receipts as fit, the rest refused: the order is received (or, had one crossed
    // 110, over-receipt).
    expect(receiptCodes.filter((c) => c === '200'), receiptCodes.join(',')).toHaveLength(fit);
    expect(receiptCodes.filter((c) => c !== '200').every((c) => c === 'PURCHASE_DOC_STATUS_4091' || c === 'PURCHASE_OVER_RECEIPT_4094'), receiptCodes.join(',')).toBe(true);
    expect(await receivedOf(order.id)).toEqual({ status: 'received', receivedQty: 6 * receivable, lines: ps.map(() => receivable) });
    // Each note put away exactly once: the racing second putaway is refused (over, or nothing left).
    expect(putawayCodes).toHaveLength(fit);
    for (const codes of putawayCodes) {
      expect(codes.filter((c) => c === '200'), codes.join(',')).toHaveLength(1);
      expect(['PURCHASE_PUTAWAY_OVER_4095', 'COMMON_VALIDATION_4000']).toContain(codes.find((c) => c !== '200'));
    }
    const open = await db().selectFrom('receivingNoteLine').innerJoin('receivingNote', 'receivingNote.id', 'receivingNoteLine.noteId')
      .select(['receivingNoteLine.qty', 'receivingNoteLine.putawayQty']).where('receivingNote.orderId', '=', order.id).execute();
    expect(open).toHaveLength(6 * fit);
    expect(open.every((l) => Number(l.putawayQty) === Number(l.qty))).toBe(true);
    // Adjustments: either posted or refused for want of stock, whole documents only.
    const taken = adjustCodes.filter((c) => c === '-5:200').length;
    const given = adjustCodes.filter((c) => c === '1:200').length;
    const refused = adjustCodes.filter((c) => !c.endsWith(':200'));
    expect(refused.every((c) => c === '-5:STOCK_NOT_ENOUGH_4071'), adjustCodes.join(',')).toBe(true);
    expect(refused.length).toBeGreaterThan(0);
    expect(given).toBe(10);
    expect(taken).toBeGreaterThanOrEqual(4); // the opening 20 of each could always be taken
    // Balances: nothing left at the receiving place; storage = 20 + received − 5 × taken + given.
    expect(await onHands(ps, receivingLoc)).toEqual(ps.map(() => 0));
    const stored = await Promise.all(ps.map(async (p, i) => (await onHands([p], targets[i]!))[0]));
    expect(stored).toEqual(ps.map(() => 20 + receivable - 5 * taken + given));
    expect(stored.every((q) => q! >= 0)).toBe(true);
    expect(await summaries(ps)).toEqual(stored);
    await verifyClean();
  }, 180_000);
});
