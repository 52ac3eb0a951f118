// 金额大写 (src/core/rmb-capital.ts): the amount in Chinese capitals as the printed invoice writes it.
import { describe, expect, it } from 'vitest';
import { rmbCapital, rmbCapitalText } from '../../src/core/rmb-capital.ts';

describe('rmbCapital', () => {
  it.each([
    [0, '零元整'],
    [5, '伍分'],
    [50, '伍角整'],
    [100, '壹元整'],
    [1005, '壹拾元零伍分'],
    [1050, '壹拾元伍角整'],
    [1234567, '壹万贰仟叁佰肆拾伍元陆角柒分'],
    [10000000, '壹拾万元整'],
    [10001000, '壹拾万零壹拾元整'],
    [100100, '壹仟零壹元整'],
    [1000100, '壹万零壹元整'],
    [10100000, '壹拾万壹仟元整'],
    [11300, '壹佰壹拾叁元整'],
    [20050000, '贰拾万零伍佰元整'],
    [10000000000, '壹亿元整'],
    [10000100000, '壹亿零壹仟元整'],
    [123456789012, '壹拾贰亿叁仟肆佰伍拾陆万柒仟捌佰玖拾元壹角贰分'],
    [-1050, '负壹拾元伍角整'],
  ])('%i cents → %s', (cents, text) => {
    expect(rmbCapital(cents)).toBe(text);
  });

  it('reads money texts and refuses what is not a whole number of cents', () => {
    expect(rmbCapitalText('1130.00')).toBe('壹仟壹佰叁拾元整');
    expect(rmbCapitalText('-3.05')).toBe('负叁元零伍分');
    expect(rmbCapitalText('7.5')).toBe('柒元伍角整');
    expect(() => rmbCapital(1.5)).toThrow(RangeError);
    expect(() => rmbCapitalText('1.234')).toThrow(RangeError);
  });
});
