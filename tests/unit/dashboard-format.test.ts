// How the wall writes figures: separators, 万 from a million (so a tile never overflows), the change in
// percent against the compared figure, and nothing invented when there is nothing to compare with.
import { describe, expect, it } from 'vitest';
import { changeOf, fillFigures, showValue } from '../../src/client/renderer/dashboard/format';

describe('dashboard figures as shown', () => {
  it('money with separators below a million, in 万 from a million; counts and percents', () => {
    expect(showValue('999999.99', 'money')).toEqual({ text: '999,999.99', suffix: '' });
    expect(showValue('1000000.00', 'money')).toEqual({ text: '100.00', suffix: '万' });
    expect(showValue('123456789.01', 'money')).toEqual({ text: '12,345.68', suffix: '万' });
    expect(showValue('-2500000', 'money')).toEqual({ text: '-250.00', suffix: '万' });
    expect(showValue(12345, 'count')).toEqual({ text: '12,345', suffix: '' });
    expect(showValue(87.456, 'percent')).toEqual({ text: '87.5', suffix: '%' });
    expect(showValue(undefined, 'money')).toEqual({ text: '—', suffix: '' });
    expect(showValue('上海市', 'text')).toEqual({ text: '上海市', suffix: '' });
  });

  it('the change against the compared figure, exact, with its direction', () => {
    expect(changeOf('112.50', '100.00')).toEqual({ direction: 'up', text: '12.5%' });
    expect(changeOf('60.00', '100.00')).toEqual({ direction: 'down', text: '40.0%' });
    expect(changeOf(3, 3)).toEqual({ direction: 'flat', text: '0.0%' });
    expect(changeOf('10.00', '0.00')).toEqual({ direction: 'new', text: '' });
    expect(changeOf('0.00', '0.00')).toEqual({ direction: 'flat', text: '0.0%' });
    expect(changeOf('5.00', '-5.00')).toEqual({ direction: 'up', text: '200.0%' });
    expect(changeOf(undefined, '1')).toEqual({ direction: 'flat', text: '' });
  });

  it('figures in a tile\'s note or aside are written as tiles write them', () => {
    const data = { ordersMonth: 12345, receiptsMonth: '2500000.00', small: '1234.5', name: '甲' };
    expect(fillFigures('本月 {ordersMonth|count} 单', data)).toBe('本月 12,345 单');
    expect(fillFigures('本月 {receiptsMonth|money} · {small|money}', data, '¥')).toBe('本月 ¥250.00万 · ¥1,234.50');
    expect(fillFigures('{name} {missing|money}', data, '¥')).toBe('甲 —');
  });
});
