// Computed line cells of documents (src/client/renderer/document/lines.ts): the exact product of two
// fields, less a discount in percent when the column names one, rounded half-up as the server rounds.
import { describe, expect, it } from 'vitest';
import { lineValue } from '../../src/client/renderer/document/lines';

const amount = { field: 'amount', title: '金额', product: ['qty', 'price'] as [string, string], decimals: 2 };

describe('computed line cells', () => {
  it('multiplies exactly and rounds half-up', () => {
    expect(lineValue({ qty: 3, price: '0.335' }, amount)).toBe('1.01');
    expect(lineValue({ qty: 32, price: '12.5' }, amount)).toBe('400.00');
    expect(lineValue({ qty: '', price: '1' }, amount)).toBeUndefined();
  });

  it('takes a discount in percent off when the column names one; an empty discount is none', () => {
    const discounted = { ...amount, discount: 'discount' };
    expect(lineValue({ qty: 32, price: '12.5', discount: '10' }, discounted)).toBe('360.00');
    expect(lineValue({ qty: 3, price: '0.335', discount: '' }, discounted)).toBe('1.01');
    // 7 × 1.99 × 0.875 = 12.18875 → 12.19
    expect(lineValue({ qty: 7, price: '1.99', discount: '12.5' }, discounted)).toBe('12.19');
    expect(lineValue({ qty: 1, price: '1', discount: 'x' }, discounted)).toBeUndefined();
  });
});
