// The commodity, warehouse, partner and system-tool screens (issue 5): drawn by the renderer (not the
// 建设中 placeholder), and every button that calls a code carries exactly that code's right.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findEndpoint, type Family } from '../../src/core/catalog';
import { loadCatalog, SCHEMAS_DIR } from '../../src/server/catalog/load-catalog';

const catalog = loadCatalog();
const screens = path.join(SCHEMAS_DIR, 'screens');
type Json = Record<string, unknown>;
const read = (file: string): Json => JSON.parse(fs.readFileSync(path.join(screens, file), 'utf8')) as Json;

const DRAWN: Record<string, string> = {
  'procurement/supplier.json': 'list',
  'market/client.json': 'list',
  'commodity/list.json': 'list',
  'commodity/goodsDetail.json': 'detail',
  'commodity/classify.json': 'list',
  'commodity/priceManager.json': 'list',
  'commodity/inventory.json': 'list',
  'commodity/log.json': 'detail',
  'entrepot/list.json': 'list',
  'entrepot/location.json': 'list',
  'entrepot/defaultLocation.json': 'list',
  'entrepot/inventoryDistribution.json': 'list',
  'entrepot/inventoryAdjustRecord.json': 'list',
  'entrepot/inventoryInitRecord.json': 'list',
  'entrepot/inventoryInitRecordDetail.json': 'document',
  'system/operationHistory.json': 'list',
  'system/errorManager.json': 'list',
  'system/verification.json': 'list',
};

function rightOf(ref: string): string | undefined {
  const [family, code] = ref.split(':') as [Family, string];
  return findEndpoint(catalog, family, code)?.permission;
}

/** Every action anywhere in a screen file (toolbar, rowActions, actions, nested lists). */
function actionsOf(node: unknown, out: Json[] = []): Json[] {
  if (Array.isArray(node)) for (const n of node) actionsOf(n, out);
  else if (node && typeof node === 'object') {
    const o = node as Json;
    if (typeof o.action === 'string' && typeof o.title === 'string') out.push(o);
    for (const v of Object.values(o)) actionsOf(v, out);
  }
  return out;
}

describe('issue 5 screens', () => {
  it.each(Object.entries(DRAWN))('%s is a %s screen', (file, kind) => {
    expect(read(file).kind).toBe(kind);
  });

  it.each(Object.keys(DRAWN))('%s: buttons calling a code carry its right', (file) => {
    const screen = read(file);
    const api = (screen.api ?? {}) as Record<string, string>;
    for (const a of actionsOf(screen)) {
      const ref = a.action === 'call' ? (a.api as string)
        : a.action === 'export' ? ((a.api as string | undefined) ?? api.export)
        : a.action === 'import' ? ((a.api as string | undefined) ?? api.import)
        : undefined;
      if (!ref) continue;
      expect(rightOf(ref), `${file} ${String(a.title)} → ${ref}`).toBeDefined();
      expect(a.permission, `${file} ${String(a.title)} → ${ref}`).toBe(rightOf(ref));
    }
  });

  it('every code a screen names exists in the catalog', () => {
    for (const file of Object.keys(DRAWN)) {
      const text = fs.readFileSync(path.join(screens, file), 'utf8');
      for (const m of text.matchAll(/"((?:cdm|oms|storage|auth):\d{6})"/g)) expect(rightOf(m[1]!), `${file} ${m[1]}`).toBeDefined();
    }
  });
});
