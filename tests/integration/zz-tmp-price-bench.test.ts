import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from './helpers.ts';
let t: TestServer; let demo: string;
beforeAll(async () => { t = await startTestServer(); demo = await t.login('demo', 'admin', 'demo123'); });
afterAll(async () => { await t?.close(); });
it('bench', async () => {
  const companyId = Number((await t.database.db.selectFrom('company').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id);
  const now = new Date().toISOString();
  const rows = Array.from({ length: 20000 }, (_, i) => ({ companyId, code: `BX${String(i).padStart(6, '0')}`, name: `商品${i}`, price: 100 + i, version: 1, createdAt: now, updatedAt: now }));
  for (let i = 0; i < rows.length; i += 500) await t.database.db.insertInto('product').values(rows.slice(i, i + 500)).execute();
  const sp = Number((await t.database.db.selectFrom('priceTitle').select('id').where('code', '=', 'SP01').where('companyId', '=', companyId).executeTakeFirstOrThrow()).id);
  let r = await t.call('cdm', '014032', { priceTitleId: sp, basis: 'reference', percent: '5', keyword: 'BX' }, demo);
  const plan = await sql`explain analyze select product.id, tp.price from product left join product_price as tp on tp.product_id = product.id and tp.company_id = product.company_id and tp.price_title_id = ${sp} where product.company_id = ${companyId} and (product.code ilike '%BX%' or product.name ilike '%BX%' or product.barcode = 'BX') order by product.code, product.id`.execute(t.database.db);
  console.log((plan.rows as any[]).map((x) => Object.values(x)[0]).join('\n'));
  expect(r.code).toBe('200');
}, 600000);
