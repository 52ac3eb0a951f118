// A kept list page (resources/page-cache.ts) is trusted while the tables it declares are unwritten, so
// it must declare every table it reads. Each kept list runs here with a keyword, filters and a sort while
// SQLite's statements are observed; the tables named after FROM and JOIN in what ran must all be
// declared. (SQLite only: the statements are observed through better-sqlite3; PostgreSQL runs the same
// queries.)
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFlags } from '../../src/core/flags.ts';
import type { CallContext, Caller, OpHandler } from '../../src/server/catalog/context.ts';
import { buildRightsCatalog } from '../../src/server/catalog/rights-catalog.ts';
import { loadCatalog } from '../../src/server/catalog/load-catalog.ts';
import { Tenant } from '../../src/server/catalog/tenant.ts';
import { validateInput } from '../../src/server/catalog/validate-input.ts';
import { inTransaction } from '../../src/server/http/transaction.ts';
import { writeAudit } from '../../src/server/http/logs.ts';
import { allOps } from '../../src/server/ops/index.ts';
import { DISTRIBUTION_TABLES, INVENTORY_TABLES } from '../../src/server/domain/stock/inventory.ts';
import { loadResources, resourceResolver } from '../../src/server/resources/index.ts';
import { pageTables } from '../../src/server/resources/page-cache.ts';
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
    sessionId: 'test', accountId, userName: 'admin', allRights: true, rights: new Set(),
    company: { id: companyId, code: 'demo', name: 'demo', timeZone: 8, flags: parseFlags('{}') },
  };
  return {
    family: 'cdm', entry: { code: '000000', name: 'test', method: 'POST', body: 'json', response: 'json', permission: '1', handler: 'test' },
    database: t.database, db, config: { ...t.config, listPageCache: false }, ip: '127.0.0.1', userAgent: 'vitest', headers: {}, query: {}, token: null, caller, tenant,
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

beforeAll(async () => {
  t = await startTestServer();
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

  it('the inventory and stock-by-location lists', async () => {
    const catalog = loadCatalog();
    const ops = allOps({ catalog, rights: buildRightsCatalog(catalog), resources: loadResources() });
    const cat = await t.database.db.selectFrom('category').select('id').where('companyId', '=', companyId).executeTakeFirst();
    for (const body of [{ page: 1, pageSize: 5 }, { page: 2, pageSize: 5, keyword: '螺丝', warehouseId: 1, onlyInStock: true, ...(cat ? { categoryId: Number(cat.id) } : {}) }]) {
      const read = await readBy(ops['stock.inventory'], body);
      expect(read.filter((x) => !INVENTORY_TABLES.includes(x)), `inventory ${JSON.stringify(body)}`).toEqual([]);
    }
    for (const body of [{ page: 1, pageSize: 5 }, { page: 2, pageSize: 5, keyword: '螺丝', warehouseId: 1, lcCode: 'A-01', zone: 'A', onlyInStock: false }]) {
      const read = await readBy(ops['stock.distribution'], body);
      expect(read.filter((x) => !DISTRIBUTION_TABLES.includes(x)), `distribution ${JSON.stringify(body)}`).toEqual([]);
    }
  });
});
