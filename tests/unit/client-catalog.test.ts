// The client bundle's catalog drops only what the client never reads.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clientCatalogJson, ENDPOINT_FILE } from '../../scripts/client-catalog';

const text = readFileSync(new URL('../../schemas/endpoints/oms.json', import.meta.url), 'utf8');

describe('client catalog', () => {
  it('keeps every transport fact and leaves out description and handler', () => {
    const full = JSON.parse(text).endpoints as Record<string, unknown>[];
    const slim = JSON.parse(clientCatalogJson(text)).endpoints as Record<string, unknown>[];
    expect(slim).toHaveLength(full.length);
    expect(full.some((e) => e.description)).toBe(true);
    slim.forEach((e, i) => {
      const { description: _d, handler: _h, ...rest } = full[i]!;
      expect(e).toEqual(rest);
    });
    expect(clientCatalogJson(text).length).toBeLessThan(text.length * 0.8);
  });

  it('applies to the four family files only', () => {
    expect(ENDPOINT_FILE.test('/w/schemas/endpoints/oms.json')).toBe(true);
    expect(ENDPOINT_FILE.test('/w/schemas/screens/market/list.json')).toBe(false);
  });
});
