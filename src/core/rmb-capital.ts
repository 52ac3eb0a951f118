// An amount in Chinese capital numerals (金额大写), as written on invoices and cheques: 壹万贰仟叁佰肆拾伍元陆角柒分,
// 整 after a whole yuan amount, 零 for skipped places (one 零 per run of zeros, none at the end of a section),
// 负 before a negative amount. Takes the amount in cents (an integer: money is never a binary float here).
const DIGITS = ['零', '壹', '贰', '叁', '肆', '伍', '陆', '柒', '捌', '玖'];
const PLACES = ['', '拾', '佰', '仟'];
const SECTIONS = ['', '万', '亿', '万亿'];

/** 0–9999 → e.g. 贰仟零伍 (no leading 零). */
function section(n: number): string {
  let out = '';
  let zero = false;
  for (let p = 3; p >= 0; p--) {
    const d = Math.floor(n / 10 ** p) % 10;
    if (d === 0) {
      if (out) zero = true;
      continue;
    }
    if (zero) out += '零';
    zero = false;
    out += DIGITS[d]! + PLACES[p]!;
  }
  return out;
}

/** The yuan part (a non-negative safe integer) in capitals, e.g. 100010 → 壹拾万零壹拾. */
function yuanText(yuan: number): string {
  if (yuan === 0) return '';
  const parts: number[] = [];
  for (let v = yuan; v > 0; v = Math.floor(v / 10_000)) parts.push(v % 10_000);
  let out = '';
  let needZero = false;
  for (let i = parts.length - 1; i >= 0; i--) {
    const n = parts[i]!;
    if (n === 0) {
      if (out) needZero = true;
      continue;
    }
    // a section below 1000 after a higher one: the thousands place is skipped
    if (out && (needZero || n < 1000)) out += '零';
    needZero = false;
    out += section(n) + SECTIONS[i]!;
  }
  return out;
}

/**
 * Cents → 大写, e.g. 1234567 → 壹万贰仟叁佰肆拾伍元陆角柒分; 100 → 壹元整; 0 → 零元整; 5 → 伍分; 1005 → 壹拾元零伍分;
 * −1050 → 负壹拾元伍角整.
 */
export function rmbCapital(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`rmbCapital: ${cents} is not a whole number of cents`);
  if (cents === 0) return '零元整';
  const negative = cents < 0;
  const abs = Math.abs(cents);
  const yuan = Math.floor(abs / 100);
  const jiao = Math.floor(abs / 10) % 10;
  const fen = abs % 10;
  let out = yuanText(yuan);
  if (out) out += '元';
  if (jiao === 0 && fen === 0) out += '整';
  else {
    // 零 between the yuan and the fen when the jiao is 0 (壹拾元零伍分)
    if (jiao) out += `${DIGITS[jiao]!}角`;
    else if (out) out += '零';
    if (fen) out += `${DIGITS[fen]!}分`;
    else out += '整';
  }
  return (negative ? '负' : '') + out;
}

/** A money text with 2 decimals ("1234.50", "-3.05") in 大写. */
export function rmbCapitalText(amount: string): string {
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(amount.trim());
  if (!m) throw new RangeError(`rmbCapitalText: ${amount} is not an amount`);
  const cents = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0') || 0);
  return rmbCapital(m[1] ? -cents : cents);
}
