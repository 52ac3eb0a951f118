// Quantities are stored in small units (integers). Screens show and take them as big/mid/small: a big
// pack (carton) holds `bigQty` small units, a mid pack (inner box) `midQty` (product.big_qty/mid_qty).

export interface PackSizes {
  /** small units per big pack (1 when the product has no big pack) */
  bigQty: number;
  /** small units per mid pack (1 when the product has no mid pack) */
  midQty: number;
  unitBig?: string | null;
  unitMid?: string | null;
  unitSmall?: string | null;
}

export interface UnitSplit {
  big: number;
  mid: number;
  small: number;
  /** e.g. "3箱2盒5个"; a negative quantity starts with "-" */
  text: string;
}

const packOf = (n: unknown) => (Number.isSafeInteger(Number(n)) && Number(n) > 0 ? Number(n) : 1);

/** Splits a small-unit quantity into big/mid/small (the sign applies to every part). */
export function splitUnits(qty: number, p: PackSizes): UnitSplit {
  const big = packOf(p.bigQty);
  const mid = packOf(p.midQty);
  const sign = qty < 0 ? -1 : 1;
  let rest = Math.abs(qty);
  const useBig = big > 1 && !!p.unitBig;
  const useMid = mid > 1 && !!p.unitMid && (!useBig || mid < big);
  const b = useBig ? Math.floor(rest / big) : 0;
  rest -= b * big;
  const m = useMid ? Math.floor(rest / mid) : 0;
  rest -= m * mid;
  const parts: string[] = [];
  if (b) parts.push(`${b}${p.unitBig}`);
  if (m) parts.push(`${m}${p.unitMid}`);
  if (rest || !parts.length) parts.push(`${rest}${p.unitSmall ?? ''}`);
  const text = (sign < 0 && qty !== 0 ? '-' : '') + parts.join('');
  // (no inner helper: the server runs under tsx, which wraps every function made per call in __name —
  // 1.5 % of an inventory page's time, three splits per row)
  return { big: b === 0 ? 0 : sign * b, mid: m === 0 ? 0 : sign * m, small: rest === 0 ? 0 : sign * rest, text };
}

/** big/mid/small as entered → small units; undefined when the result is not a safe integer. */
export function toSmallUnits(parts: { big?: number | null; mid?: number | null; small?: number | null }, p: PackSizes): number | undefined {
  const total = (parts.big ?? 0) * packOf(p.bigQty) + (parts.mid ?? 0) * packOf(p.midQty) + (parts.small ?? 0);
  return Number.isSafeInteger(total) ? total : undefined;
}
