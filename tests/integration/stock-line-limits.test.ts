// Every stock posting path at its line limit with all-distinct products (SQLite, or PostgreSQL when
// DATABASE_URL is set). The ledger reads the products, warehouses and locations a posting names in
// chunks of 500; a posting naming more than 500 products must still find every one of them — drafts
// posted later, and cancellations of posted documents, included (issue 19 item 11).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedScale } from '../../scripts/lib/seed-scale.ts';
import { MAX_DOC_LINES } from '../../src/server/domain/stock/documents.ts';
import { verifyStock } from '../../src/server/domain/stock/verify.ts';
import { ok, startTestServer, type TestServer } from './helpers.ts';

/** Line limit of purchase orders, receiving notes and putaways (their input schemas' maxItems). */
const PROCUREMENT_LINES = 2000;

let t: TestServer;
let token: string;
let wh: number;
let products: number[];

beforeAll(async () => {
  t = await startTestServer();
  token = await t.login();
  // One bulk seed of distinct products, as many as the largest document may hold.
  // (some seeded products are locked or stopped: seed a few more than needed)
  await seedScale(t.database.db, { company: 'demo', products: MAX_DOC_LINES + 2000, suppliers: 1, clients: 0, dialect: t.database.dialect });
  const company = await t.database.db.selectFrom('company').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow();
  const rows = await t.database.db.selectFrom('product').select('id')
    .where('companyId', '=', company.id).where('locked', '=', 0).where('status', '<>', 'stopped')
    .orderBy('id').limit(MAX_DOC_LINES).execute();
  products = rows.map((r) => Number(r.id));
  wh = (await ok(t.call('cdm', '011001', { page: 1, pageSize: 5 }, token))).list[0].id;
}, 300_000);

afterAll(async () => {
  await t?.close();
});

const call = (code: string, body: unknown) => ok(t.call('oms', code, body, token));

async function verifyClean() {
  const r = await verifyStock(t.database.db);
  expect(r.differences.map((d) => d.message)).toEqual([]);
}

describe('stock postings naming more than 500 distinct products', () => {
  it(`has ${MAX_DOC_LINES} distinct products to post`, () => {
    expect(products).toHaveLength(MAX_DOC_LINES);
  });

  it(`opening stock: a ${MAX_DOC_LINES}-line draft posts, and its posting cancels`, async () => {
    const draft = await call('022603', { warehouseId: wh, lines: products.map((productId) => ({ productId, qty: 10 })) });
    expect(draft.status).toBe('draft');
    const posted = await call('022604', { id: draft.id, version: draft.version });
    expect(posted.status).toBe('posted');
    const cancelled = await call('022605', { id: posted.id, version: posted.version });
    expect(cancelled.status).toBe('cancelled');
    // Stock for the documents below.
    await call('022603', { warehouseId: wh, lines: products.map((productId) => ({ productId, qty: 10 })), post: true });
  }, 120_000);

  it(`adjustment: a ${MAX_DOC_LINES}-line draft posts, and its posting cancels`, async () => {
    const draft = await call('022703', { warehouseId: wh, reason: 'loss', lines: products.map((productId) => ({ productId, qty: -1 })) });
    const posted = await call('022704', { id: draft.id, version: draft.version });
    expect(posted.status).toBe('posted');
    const cancelled = await call('022705', { id: posted.id, version: posted.version });
    expect(cancelled.status).toBe('cancelled');
    await verifyClean();
  }, 120_000);

  it(`receiving note and putaway of ${PROCUREMENT_LINES} lines: drafts post, posted ones cancel`, async () => {
    const lines = products.slice(0, PROCUREMENT_LINES);
    const supplier = (await ok(t.call('cdm', '011601', { page: 1, pageSize: 1 }, token))).list[0];
    const po = await call('020203', { supplierId: supplier.id, warehouseId: wh, lines: lines.map((productId) => ({ productId, qty: 5, price: '1' })) });
    await call('020205', { id: po.id, version: po.version });
    const orderLines = (await call('020202', { id: po.id })).lines as Array<{ id: number }>;
    expect(orderLines).toHaveLength(PROCUREMENT_LINES);
    const shelf = (await ok(t.call('cdm', '011103', { warehouseId: wh, lcCode: 'LIMIT-01' }, token))).id;

    const note = await call('021403', { orderId: po.id, lines: orderLines.map((l) => ({ orderLineId: l.id, countedQty: 5 })) });
    const postedNote = await call('021404', { id: note.id, version: note.version });
    expect(postedNote.status).toBe('posted');
    const noteLines = (await call('021402', { id: note.id })).lines as Array<{ id: number }>;
    expect(noteLines).toHaveLength(PROCUREMENT_LINES);

    const putaway = await call('021503', { receivingNoteId: note.id, lines: noteLines.map((l) => ({ receivingLineId: l.id, toLocationId: shelf, qty: 5 })) });
    const postedPutaway = await call('021504', { id: putaway.id, version: putaway.version });
    expect(postedPutaway.status).toBe('posted');
    const cancelledPutaway = await call('021505', { id: putaway.id, version: postedPutaway.version });
    expect(cancelledPutaway.status).toBe('cancelled');
    const cancelledNote = await call('021405', { id: note.id, version: postedNote.version });
    expect(cancelledNote.status).toBe('cancelled');
    await verifyClean();
  }, 180_000);
});
