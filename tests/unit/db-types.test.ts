// src/server/db/types.ts (the table types domain code queries through, ./typed.ts) is generated from the
// migrations and the managed document definitions by `npm run db:types`. Regenerated here: a migration,
// a managed document field or a hand edit that the committed file does not match fails, naming the table.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DB_TYPES_FILE, generateDbTypes } from '../../scripts/lib/db-types.ts';
import type { TypedTenant } from '../../src/server/db/typed.ts';

const root = path.resolve(import.meta.dirname, '../..');

/** interface name → its body, to name what differs */
function tables(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(/export interface (\w+) \{\n([\s\S]*?)\n\}/g)) out.set(m[1], m[2]);
  return out;
}

describe('db types: src/server/db/types.ts matches the migrations', () => {
  it('regenerates to the committed file (run `npm run db:types` after a migration)', async () => {
    const fresh = await generateDbTypes();
    const committed = fs.readFileSync(path.join(root, DB_TYPES_FILE), 'utf8');
    const a = tables(committed);
    const b = tables(fresh);
    const differ = [...new Set([...a.keys(), ...b.keys()])].filter((k) => a.get(k) !== b.get(k));
    expect(differ, 'tables whose committed types differ from the schema').toEqual([]);
    expect(committed).toBe(fresh);
  }, 60_000);

  it('covers migration tables and the tables managed document definitions create at start-up', async () => {
    const t = tables(await generateDbTypes());
    expect(t.get('ProductTable')).toContain('sortNo: number | null;');
    expect(t.get('StockMoveTable')).toContain('docType: string;');
    // sales_order is a managed: true definition (documents/types/sales-order.ts): no migration creates it
    expect(t.get('SalesOrderTable')).toContain('docNo: string;');
    expect(t.get('DB')).toContain('salesOrder: SalesOrderTable;');
  }, 60_000);
});

// Checked by `npm run typecheck` (never run): the typed view refuses a table or column no migration made,
// and rows read through it carry the columns' types. If TypedTenant lost its types, the @ts-expect-error
// lines would stop being errors and the typecheck would fail.
export async function typedViewGuard(t: TypedTenant): Promise<[string, number | null]> {
  // @ts-expect-error no migration makes this table
  void t.select('noSuchTable');
  // @ts-expect-error product has no such column
  void t.select('product').select('noSuchColumn');
  // @ts-expect-error an insert names only the table's columns
  void t.insert('category', { code: 'x', name: 'x', createdAt: '', updatedAt: '', noSuchColumn: 1 });
  // @ts-expect-error a required column (name) cannot be left out
  void t.insert('category', { code: 'x', createdAt: '', updatedAt: '' });
  void t.insert('category', [{ code: 'x', name: 'x', createdAt: '', updatedAt: '' }]);
  const r = await t.select('product').select(['code', 'sortNo']).executeTakeFirstOrThrow();
  return [r.code, r.sortNo];
}
