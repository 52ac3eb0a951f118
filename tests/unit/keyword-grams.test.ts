// The bigrams of the keyword index (resources/keyword-grams.ts) and which columns the product's index
// covers: a keyword's grams are always among the grams of a text that contains it (as LIKE or ILIKE
// compare), so the index can only narrow a search, never lose a row.
import { describe, expect, it } from 'vitest';
import { gramsOf, gramText, keywordGrams } from '../../src/server/resources/keyword-grams.ts';
import { keywordIndexOf, PRODUCT_KEYWORDS } from '../../src/server/resources/keyword-index.ts';
import { loadResources } from '../../src/server/resources/index.ts';

const texts = (grams: Iterable<number>) => [...grams].map(gramText).sort();

describe('grams', () => {
  it('are the distinct lowercased character pairs of each text, none across two texts', () => {
    expect(texts(gramsOf(['LED灯', 'Led']))).toEqual(['d灯', 'ed', 'le'].sort());
    expect(texts(gramsOf(['螺丝螺丝']))).toEqual(['丝螺', '螺丝'].sort());
    expect(texts(gramsOf(['ab', 'cd']))).toEqual(['ab', 'cd']);
    expect(gramsOf([null, undefined, '', 'x']).size).toBe(0);
    expect(texts(gramsOf(['M3×10']))).toEqual(['m3', '3×', '×1', '10'].sort());
  });

  it('a keyword of one character has none (searched without the index)', () => {
    expect(keywordGrams('螺')).toBeNull();
    expect(keywordGrams('x')).toBeNull();
    expect(keywordGrams('😀')).toBeNull();
    expect(keywordGrams('螺丝')).toHaveLength(1);
    expect(keywordGrams('螺丝钉')).toHaveLength(2);
  });

  it('of a keyword are among those of every text containing it, either case of its letters', () => {
    const alphabet = ['a', 'B', 'c', 'D', '螺', '丝', '钉', ' ', '-', '%', '1', '😀', 'Ä', 'ä', 'İ', 'i', 'Σ'];
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const word = (n: number) => Array.from({ length: n }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join('');
    const flip = (s: string) => [...s].map((c) => (/[a-z]/i.test(c) && rnd() < 0.5 ? (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) : c)).join('');
    for (let i = 0; i < 2000; i++) {
      const keyword = word(2 + Math.floor(rnd() * 4));
      const text = word(Math.floor(rnd() * 6)) + flip(keyword) + word(Math.floor(rnd() * 6));
      const have = gramsOf([word(3), text]);
      for (const g of keywordGrams(keyword)!) expect(have.has(g), `${keyword} in ${text}`).toBe(true);
    }
    // Upper- and lowercase of a non-ASCII letter meet too (ILIKE on PostgreSQL).
    expect(keywordGrams('äb')).toEqual(keywordGrams('ÄB'));
  });
});

describe('the product index', () => {
  it('covers exactly the product\'s searchable fields (the 013 migration and the seed index these columns)', () => {
    const product = loadResources().get('product')!;
    expect(keywordIndexOf(product)).toEqual(PRODUCT_KEYWORDS);
    expect(product.fields.filter((f) => f.searchable).map((f) => f.column)).toEqual(PRODUCT_KEYWORDS.columns);
  });

  it('only resources that declare one have an index', () => {
    const reg = loadResources();
    const withIndex = [...reg.resources.values()].filter((r) => keywordIndexOf(r)).map((r) => r.name);
    expect(withIndex).toEqual(['product']);
  });
});
