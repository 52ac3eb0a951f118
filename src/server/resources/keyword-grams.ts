// Bigrams of the keyword index (product_keyword): the writers store the grams of each searchable text,
// the lists look up the grams of the keyword. Both sides must cut text the same way, hence one module.
//
// A gram is two consecutive code points of the lowercased text, as one 32-bit signed integer: the low
// 16 bits of the first code point, then those of the second (exact for every character of the Basic
// Multilingual Plane — all of Chinese in use, Latin, digits; a rarer character shares its gram with
// another, which only adds candidates). Each field is cut on its own, so no gram spans two fields.
// Lowercasing is per code point and simple (one code point stays one): if a text contains the keyword
// as LIKE (ASCII letters either case) or ILIKE (lower() of both sides) compares, its grams then contain
// all the keyword's grams — the index only narrows the candidates, the LIKE test still decides.
const folded = new Map<number, number>();

/** The code point's lowercase, when that is one code point (İ → i, as PostgreSQL's lower() does). */
function fold(cp: number): number {
  if (cp < 128) return cp >= 65 && cp <= 90 ? cp + 32 : cp;
  let f = folded.get(cp);
  if (f === undefined) {
    f = String.fromCodePoint(cp).toLowerCase().codePointAt(0)!;
    if (folded.size < 100_000) folded.set(cp, f);
  }
  return f;
}

/** Adds the grams of one text to `out`. */
function addGrams(text: string, out: Set<number>): void {
  let prev = -1;
  for (let i = 0; i < text.length; i++) {
    let cp = text.charCodeAt(i);
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        cp = (cp - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
        i++;
      }
    }
    cp = fold(cp);
    if (prev >= 0) out.add(((prev & 0xffff) << 16) | (cp & 0xffff));
    prev = cp;
  }
}

/** The distinct grams of a row's searchable texts (null and empty ones add nothing). */
export function gramsOf(texts: Iterable<unknown>): Set<number> {
  const out = new Set<number>();
  for (const t of texts) if (t !== null && t !== undefined && t !== '') addGrams(String(t), out);
  return out;
}

/**
 * The distinct grams of a keyword (trimmed by the caller); null when it has fewer than two code points
 * — a one-character keyword has no gram and is searched without the index.
 */
export function keywordGrams(keyword: string): number[] | null {
  const grams = gramsOf([keyword]);
  return grams.size ? [...grams] : null;
}

/** A gram back as its two characters (for tests and debugging). */
export function gramText(gram: number): string {
  return String.fromCharCode((gram >>> 16) & 0xffff, gram & 0xffff);
}
