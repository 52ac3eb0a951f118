// Computed line cells of documents (src/client/renderer/document/lines.ts): the exact product of two
// fields, less a discount in percent when the column names one, rounded half-up as the server rounds.
import { describe, expect, it } from 'vitest';
import { lineValue } from '../../src/client/renderer/document/lines';
import { linesToSave } from '../../src/client/renderer/document/saveBody';

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

describe('lines brought in from another document, and amounts that follow quantities (issue 30)', () => {
  const columns = [
    { field: 'productCode', title: '商品编码' },
    { field: 'qty', title: '冲红数量', editor: 'number' },
    { field: 'amount', title: '冲红金额', editor: 'money', decimals: 2, follows: ['qty', 'unitAmount'] as [string, string] },
    { field: 'remark', title: '备注', editor: 'input' },
  ];

  it('an amount follows the quantity while it is empty, and is its own once typed', () => {
    // 274.08 left on 333 units: 100 of them are 82.31 (the server's share, half up)
    const unit = '0.823063063063';
    expect(lineValue({ qty: 100, unitAmount: unit }, columns[2]!)).toBe('82.31');
    expect(lineValue({ qty: 333, unitAmount: unit }, columns[2]!)).toBe('274.08');
    expect(lineValue({ qty: 100, unitAmount: unit, amount: '80.00' }, columns[2]!)).toBe('80.00');
    expect(lineValue({ qty: '', unitAmount: unit }, columns[2]!)).toBeUndefined();
  });

  it('a brought-in line whose quantities are left empty is not saved; typed lines (0 too: a short pick) and the clerk\'s own are', () => {
    const lines = [
      { __fromSource: true, invoiceLineId: 1, productCode: 'A', qty: 2, unitAmount: '1.5' },
      { __fromSource: true, invoiceLineId: 2, productCode: 'B', qty: '', remark: '不退' },
      { __fromSource: true, invoiceLineId: 3, productCode: 'C', qty: 0 },
      { invoiceLineId: 4, productCode: 'D', qty: '' },
    ];
    const saved = linesToSave(lines, columns);
    expect(saved.map((l) => l.invoiceLineId)).toEqual([1, 3, 4]);
    // an amount left to follow is sent as nothing: the server computes the same share
    expect(saved[0]).not.toHaveProperty('amount');
    expect(saved[0]).not.toHaveProperty('__fromSource');
  });
});
