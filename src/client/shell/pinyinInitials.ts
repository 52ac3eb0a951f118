// Pinyin initials of Chinese text without a dictionary: Chinese collation (zh, pinyin order — what
// browsers' ICU and Node ship) sorts characters by their reading, so the first character of each
// initial's range tells which initial a character falls under (采购订单 → cgdd). Latin letters and
// digits stay as they are; other characters are dropped. Polyphonic characters take their first reading.

const collator = new Intl.Collator('zh-Hans-CN-u-co-pinyin', { sensitivity: 'base' });
// The first character reading with each initial, in pinyin order (no words start with i, u, v).
// (The first level-1 GB2312 character of each initial: exact for everyday characters, which is what
// screen titles are made of.)
const BOUNDS: [string, string][] = [
  ['a', '啊'], ['b', '芭'], ['c', '擦'], ['d', '搭'], ['e', '蛾'], ['f', '发'], ['g', '噶'], ['h', '哈'],
  ['j', '机'], ['k', '喀'], ['l', '垃'], ['m', '妈'], ['n', '拿'], ['o', '哦'], ['p', '啪'], ['q', '期'],
  ['r', '然'], ['s', '撒'], ['t', '塌'], ['w', '挖'], ['x', '昔'], ['y', '压'], ['z', '匝'],
];
const HAN = /\p{Script=Han}/u;

function initialOf(ch: string): string {
  if (/[a-z0-9]/i.test(ch)) return ch.toLowerCase();
  if (!HAN.test(ch)) return '';
  let found = '';
  for (const [letter, first] of BOUNDS) {
    if (collator.compare(ch, first) >= 0) found = letter;
    else break;
  }
  return found;
}

const cache = new Map<string, string>();

/** "新建采购订单" → "xjcgdd". */
export function pinyinInitials(text: string): string {
  let hit = cache.get(text);
  if (hit === undefined) {
    hit = [...text].map(initialOf).join('');
    cache.set(text, hit);
  }
  return hit;
}
