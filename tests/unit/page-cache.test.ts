// keptPage (resources/page-cache.ts): a page is read once per write state of its tables — kept for the
// next request, shared by requests that arrive while it is being read — and read again after a write.
import { describe, expect, it } from 'vitest';
import type { CallContext } from '../../src/server/catalog/context.ts';
import { TableWrites } from '../../src/server/db/table-writes.ts';
import { JsonText } from '../../src/server/http/json-text.ts';
import { keptPage, pageCacheOf } from '../../src/server/resources/page-cache.ts';

function context(listPageCache = true, writes = new TableWrites()) {
  const ctx = { database: { writes }, config: { listPageCache }, tenant: { companyId: 1 }, caller: { accountId: 7 } } as unknown as CallContext;
  let reads = 0;
  let value = 'v1';
  const read = async () => {
    reads++;
    await new Promise((r) => setTimeout(r, 20)); // a reading that takes a while (PostgreSQL round trips)
    return { value };
  };
  const ask = async (input: unknown = { page: 1 }) => JSON.parse(((await keptPage(ctx, 'test', ['product'], input, read)) as JsonText).text ?? 'null');
  return { writes, ask, reads: () => reads, set: (v: string) => { value = v; }, ctx, read };
}

describe('keptPage', () => {
  it('reads a page once for everyone who asks while it is being read, then keeps it', async () => {
    const c = context();
    const answers = await Promise.all(Array.from({ length: 10 }, () => c.ask()));
    expect(answers).toEqual(Array.from({ length: 10 }, () => ({ value: 'v1' })));
    expect(c.reads()).toBe(1);
    expect(await c.ask()).toEqual({ value: 'v1' });
    expect(c.reads()).toBe(1);
    expect(await c.ask({ page: 2 })).toEqual({ value: 'v1' });
    expect(c.reads()).toBe(2);
  });

  it('reads again after a write to one of its tables, not after a write elsewhere', async () => {
    const c = context();
    await c.ask();
    c.writes.noteSql('update "stock_move" set qty = 1');
    expect(await c.ask()).toEqual({ value: 'v1' });
    expect(c.reads()).toBe(1);
    c.set('v2');
    c.writes.noteSql('update "product" set name = ?');
    const again = await Promise.all([c.ask(), c.ask()]);
    expect(again).toEqual([{ value: 'v2' }, { value: 'v2' }]);
    expect(c.reads()).toBe(2);
  });

  it('keeps nothing when switched off, or while other processes cannot be heard', async () => {
    const off = context(false);
    await off.ask();
    const data = await keptPage(off.ctx, 'test', ['product'], { page: 1 }, off.read);
    expect(data).toEqual({ value: 'v1' });
    expect(off.reads()).toBe(2);
    const deaf = context();
    deaf.writes.trusted = false;
    await Promise.all([deaf.ask(), deaf.ask()]);
    await deaf.ask();
    expect(deaf.reads()).toBe(3);
  });

  it('keeps a page per caller: another account of the same company gets its own reading', async () => {
    const c = context();
    await c.ask();
    await c.ask();
    expect(c.reads()).toBe(1);
    const other = { ...c.ctx, caller: { accountId: 8 } } as unknown as CallContext;
    await keptPage(other, 'test', ['product'], { page: 1 }, c.read);
    expect(c.reads()).toBe(2);
  });

  it('with counts kept in the database (PostgreSQL), a page is served only while the counts of its tables are unchanged', async () => {
    let counts = new Map([['product', 1]]);
    let countReads = 0;
    const c = context(true, new TableWrites(() => 0, async () => { countReads++; return counts; }));
    await c.ask();
    await c.ask();
    expect(c.reads()).toBe(1);
    expect(countReads).toBe(2); // one count per request: another process may have written meanwhile
    counts = new Map([['product', 2]]);
    await c.ask();
    expect(c.reads()).toBe(2);
    counts = new Map([['product', 2], ['*', 1]]);
    await c.ask();
    expect(c.reads()).toBe(3);
  });

  it('counts a total once for everyone who asks while it is being counted, again under a new write state', async () => {
    const c = context();
    const cache = pageCacheOf(c.ctx.database);
    let counts = 0;
    const count = async () => { counts++; await new Promise((r) => setTimeout(r, 20)); return 42; };
    expect(await Promise.all([cache.countOnce('k', 't1', count), cache.countOnce('k', 't1', count)])).toEqual([42, 42]);
    expect(counts).toBe(1);
    expect(await cache.countOnce('k', 't2', count)).toBe(42);
    expect(counts).toBe(2);
    cache.rememberTotal('k', 't2', 42);
    expect(cache.total('k', 't2')).toBe(42);
    expect(cache.total('k', 't3')).toBeUndefined();
  });
});
