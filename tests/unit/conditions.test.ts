// The schema condition language (src/core/conditions.ts): every operator, nesting, missing fields,
// flags and rights, and the problems reported for malformed conditions.
import { describe, expect, it } from 'vitest';
import { compareDecimalStrings, conditionProblems, evaluate, readPath, type Condition } from '../../src/core/conditions';

const row = {
  status: 'draft',
  qty: 5,
  amount: '1200.50',
  enabled: true,
  tags: [],
  note: '  ',
  createdAt: '2024-05-01T10:00:00Z',
  supplier: { id: 12, name: '甲公司' },
  zero: 0,
};
const env = {
  data: row,
  flags: { presale: true, multiCurrency: false },
  hasRight: (code: string) => ['baseConfig.currency.edit', 'a.b'].includes(code),
};
const ev = (c: Condition | null | undefined) => evaluate(c, env);

describe('conditions: shorthand and constants', () => {
  it('no condition is true; booleans are constants', () => {
    expect(ev(undefined)).toBe(true);
    expect(ev(null)).toBe(true);
    expect(ev(true)).toBe(true);
    expect(ev(false)).toBe(false);
    expect(ev({})).toBe(true);
  });
  it('{field: value} is equality; several keys must all hold; an array means in', () => {
    expect(ev({ status: 'draft' })).toBe(true);
    expect(ev({ status: 'confirmed' })).toBe(false);
    expect(ev({ status: 'draft', qty: 5 })).toBe(true);
    expect(ev({ status: 'draft', qty: 6 })).toBe(false);
    expect(ev({ status: ['draft', 'confirmed'] })).toBe(true);
    expect(ev({ status: ['closed'] })).toBe(false);
  });
  it('numbers and numeric strings compare equal; booleans match 1/0 and "true"', () => {
    expect(ev({ qty: '5' })).toBe(true);
    expect(ev({ 'supplier.id': '12' })).toBe(true);
    expect(ev({ enabled: 1 })).toBe(true);
    expect(ev({ enabled: 'true' })).toBe(true);
    expect(ev({ enabled: false })).toBe(false);
    expect(ev({ zero: false })).toBe(true);
  });
  it('a missing field equals nothing but null never matches a value', () => {
    expect(ev({ missing: 'x' })).toBe(false);
    expect(ev({ missing: null })).toBe(false);
    expect(evaluate({ status: 'draft' }, {})).toBe(false);
    expect(evaluate({ status: 'draft' }, { data: null })).toBe(false);
  });
  it('an object value in the shorthand is not understood and is false', () => {
    expect(evaluate({ status: { eq: 'draft' } } as unknown as Condition, env)).toBe(false);
  });
});

describe('conditions: field operators', () => {
  const f = (field: string, op: string, value?: unknown) => ev({ field, op, value } as Condition);
  it('eq / ne (default op is eq)', () => {
    expect(ev({ field: 'status', value: 'draft' })).toBe(true);
    expect(f('status', 'eq', 'draft')).toBe(true);
    expect(f('status', 'ne', 'draft')).toBe(false);
    expect(f('status', 'ne', 'closed')).toBe(true);
    expect(f('missing', 'ne', 'closed')).toBe(true);
    expect(f('missing', 'eq', 'closed')).toBe(false);
  });
  it('in / nin', () => {
    expect(f('status', 'in', ['draft', 'x'])).toBe(true);
    expect(f('status', 'in', ['x'])).toBe(false);
    expect(f('status', 'nin', ['x'])).toBe(true);
    expect(f('status', 'nin', ['draft'])).toBe(false);
    expect(f('status', 'in', 'draft')).toBe(false);
    expect(f('missing', 'in', ['draft'])).toBe(false);
    expect(f('missing', 'nin', ['draft'])).toBe(true);
  });
  it('gt / gte / lt / lte on numbers, money strings (exact) and ISO dates', () => {
    expect(f('qty', 'gt', 4)).toBe(true);
    expect(f('qty', 'gt', 5)).toBe(false);
    expect(f('qty', 'gte', 5)).toBe(true);
    expect(f('qty', 'lt', 10)).toBe(true);
    expect(f('qty', 'lte', 4)).toBe(false);
    expect(f('amount', 'gt', '1200.5')).toBe(false);
    expect(f('amount', 'gte', '1200.5')).toBe(true);
    expect(f('amount', 'gt', '999.99')).toBe(true);
    expect(f('amount', 'lt', '1200.51')).toBe(true);
    expect(f('createdAt', 'gt', '2024-04-30')).toBe(true);
    expect(f('createdAt', 'lt', '2024-04-30')).toBe(false);
  });
  it('comparisons with a missing or empty side are false', () => {
    expect(f('missing', 'gt', 1)).toBe(false);
    expect(f('missing', 'lt', 1)).toBe(false);
    expect(f('qty', 'gt', null)).toBe(false);
  });
  it('empty / notEmpty: undefined, null, blank text, empty arrays and objects are empty', () => {
    expect(f('missing', 'empty')).toBe(true);
    expect(f('note', 'empty')).toBe(true);
    expect(f('tags', 'empty')).toBe(true);
    expect(f('status', 'empty')).toBe(false);
    expect(f('zero', 'empty')).toBe(false);
    expect(f('status', 'notEmpty')).toBe(true);
    expect(f('missing', 'notEmpty')).toBe(false);
  });
  it('dotted paths read nested values', () => {
    expect(f('supplier.name', 'eq', '甲公司')).toBe(true);
    expect(f('supplier.missing.deeper', 'empty')).toBe(true);
    expect(readPath({ a: [{ b: 1 }] }, 'a.0.b')).toBe(1);
  });
  it('an unknown operator or a bad field is false', () => {
    expect(f('status', 'like', 'dr%')).toBe(false);
    expect(ev({ field: '', value: 'x' } as Condition)).toBe(false);
  });
});

describe('conditions: combinators, flags, rights', () => {
  it('all / any / not, nested', () => {
    expect(ev({ all: [{ status: 'draft' }, { field: 'qty', op: 'gt', value: 1 }] })).toBe(true);
    expect(ev({ all: [{ status: 'draft' }, { field: 'qty', op: 'gt', value: 10 }] })).toBe(false);
    expect(ev({ any: [{ status: 'closed' }, { field: 'qty', op: 'gt', value: 1 }] })).toBe(true);
    expect(ev({ any: [{ status: 'closed' }, { status: 'x' }] })).toBe(false);
    expect(ev({ not: { status: 'closed' } })).toBe(true);
    expect(ev({ not: { status: 'draft' } })).toBe(false);
    expect(
      ev({ all: [{ any: [{ status: 'x' }, { not: { field: 'note', op: 'notEmpty' } }] }, { not: { any: [{ flag: 'multiCurrency' }, false] } }] }),
    ).toBe(true);
    expect(ev({ all: [] })).toBe(true);
    expect(ev({ any: [] })).toBe(false);
  });
  it('flags: on is true; off or unknown or without flags is false', () => {
    expect(ev({ flag: 'presale' })).toBe(true);
    expect(ev({ flag: 'multiCurrency' })).toBe(false);
    expect(ev({ flag: 'nope' })).toBe(false);
    expect(evaluate({ flag: 'presale' }, {})).toBe(false);
  });
  it('rights: held is true; an array means any; without a checker false', () => {
    expect(ev({ right: 'baseConfig.currency.edit' })).toBe(true);
    expect(ev({ right: 'baseConfig.currency.remove' })).toBe(false);
    expect(ev({ right: ['x', 'a.b'] })).toBe(true);
    expect(ev({ right: [] })).toBe(false);
    expect(evaluate({ right: 'a.b' }, { data: row })).toBe(false);
  });
  it('malformed combinators are false', () => {
    expect(evaluate({ all: 'x' } as unknown as Condition, env)).toBe(false);
    expect(evaluate({ any: {} } as unknown as Condition, env)).toBe(false);
    expect(evaluate('status' as unknown as Condition, env)).toBe(false);
    expect(evaluate([] as unknown as Condition, env)).toBe(false);
  });
  it('never compiles strings: an expression-looking value is compared as text', () => {
    expect(ev({ status: '{{ true }}' })).toBe(false);
    expect(evaluate({ status: '{{ true }}' }, { data: { status: '{{ true }}' } })).toBe(true);
  });
});

describe('conditions: problems and exact comparison', () => {
  it('reports malformed parts with their path', () => {
    expect(conditionProblems({ status: 'draft' })).toEqual([]);
    expect(conditionProblems({ all: [{ field: 'a', op: 'like' }, { any: 3 }] })).toEqual([
      'when.all[0].op: 未知的条件运算符 "like"',
      'when.all[1].any: 必须是条件数组',
    ]);
    expect(conditionProblems({ field: 'a', op: 'in', value: 'x' }, 'rowActions[0].when')).toEqual([
      'rowActions[0].when.value: in 需要数组',
    ]);
    expect(conditionProblems('x')).toEqual(['when: 条件必须是对象或布尔值']);
    expect(conditionProblems({ not: { flag: 3 } })).toEqual(['when.not.flag: 必须是公司开关名称']);
    expect(conditionProblems({ right: [1] })).toEqual(['when.right: 必须是权限编码或其数组']);
    expect(conditionProblems({ status: { a: 1 } })).toEqual(['when.status: 简写的值必须是标量或数组']);
  });
  it('compares decimal strings exactly', () => {
    expect(compareDecimalStrings('10.10', '9.9')).toBe(1);
    expect(compareDecimalStrings('-0.00', '0')).toBe(0);
    expect(compareDecimalStrings('-1.5', '-1.25')).toBe(-1);
    expect(compareDecimalStrings('0.1', '0.10')).toBe(0);
    expect(compareDecimalStrings('12345678901234567890.01', '12345678901234567890.001')).toBe(1);
    expect(compareDecimalStrings('007', '7')).toBe(0);
  });
});
