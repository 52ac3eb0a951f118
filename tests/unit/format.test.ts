import { describe, expect, it } from 'vitest';
import {
  companyDateRange,
  companyDayRange,
  formatDate,
  formatMoney,
  formatNumber,
  formatTime,
  sumExact,
  toDecimal,
} from '../../src/core/format';

describe('formatTime (company time zone)', () => {
  it('shifts a UTC instant by the company hours', () => {
    expect(formatTime('2024-05-01T16:30:00Z', 8)).toBe('2024-05-02 00:30:00');
    expect(formatTime('2024-05-01T16:30:00.000Z', -5)).toBe('2024-05-01 11:30:00');
    expect(formatTime('2024-05-01T00:00:00Z', 5.5, 'HH:mm')).toBe('05:30');
  });
  it('reads strings without offset as UTC and numbers as epoch ms', () => {
    expect(formatTime('2024-05-01 10:00:00', 8)).toBe('2024-05-01 18:00:00');
    expect(formatTime(Date.UTC(2024, 0, 31, 20), 8)).toBe('2024-02-01 04:00:00');
  });
  it('gives an empty string for empty or invalid input', () => {
    expect(formatTime(null, 8)).toBe('');
    expect(formatTime('', 8)).toBe('');
    expect(formatTime('not a date', 8)).toBe('');
  });
  it('formatDate uses the date pattern', () => {
    expect(formatDate('2024-12-31T20:00:00Z', 8)).toBe('2025-01-01');
  });
});

describe('companyDayRange / companyDateRange', () => {
  it('gives the UTC bounds of a company-local day', () => {
    expect(companyDayRange('2024-05-01', 8)).toEqual(['2024-04-30T16:00:00.000Z', '2024-05-01T15:59:59.999Z']);
    expect(companyDayRange('2024-05-01', 0)).toEqual(['2024-05-01T00:00:00.000Z', '2024-05-01T23:59:59.999Z']);
    expect(companyDayRange('2024-05-01', -3)).toEqual(['2024-05-01T03:00:00.000Z', '2024-05-02T02:59:59.999Z']);
  });
  it('accepts a day with a time part, or a Date by its calendar day', () => {
    expect(companyDayRange('2024-5-1 13:00', 8)[0]).toBe('2024-04-30T16:00:00.000Z');
    expect(companyDayRange(new Date(2024, 4, 1, 12), 8)[0]).toBe('2024-04-30T16:00:00.000Z');
  });
  it('spans several days and crosses a month end', () => {
    expect(companyDateRange('2024-02-28', '2024-03-01', 8)).toEqual([
      '2024-02-27T16:00:00.000Z',
      '2024-03-01T15:59:59.999Z',
    ]);
  });
  it('rejects text that is not a date', () => {
    expect(() => companyDayRange('yesterday', 8)).toThrow(RangeError);
  });
});

describe('formatNumber / formatMoney', () => {
  it('defaults to 2 decimals with thousands separators', () => {
    expect(formatNumber(1234567.891)).toBe('1,234,567.89');
    expect(formatNumber('0')).toBe('0.00');
    expect(formatNumber(12)).toBe('12.00');
    expect(formatNumber('-1234.5')).toBe('-1,234.50');
  });
  it('rounds half away from zero exactly (no float error)', () => {
    expect(formatNumber(1.005)).toBe('1.01');
    expect(formatNumber('2.675')).toBe('2.68');
    expect(formatNumber('-2.675')).toBe('-2.68');
    expect(formatNumber(0.1 + 0.2)).toBe('0.30');
    expect(formatNumber('-0.001')).toBe('0.00');
  });
  it('never loses cents on big money strings', () => {
    expect(formatNumber('98765432109876543.21')).toBe('98,765,432,109,876,543.21');
    expect(formatNumber('1,234.5')).toBe('1,234.50');
  });
  it('honours other decimal counts', () => {
    expect(formatNumber('3.14159', 4)).toBe('3.1416');
    expect(formatNumber(1234.5, 0)).toBe('1,235');
  });
  it('gives an empty string for empty or non-numeric input', () => {
    expect(formatNumber(null)).toBe('');
    expect(formatNumber('')).toBe('');
    expect(formatNumber('abc')).toBe('');
    expect(formatNumber(Number.NaN)).toBe('');
    expect(toDecimal(Infinity)).toBeUndefined();
  });
  it('formatMoney puts the currency character in front of the sign-less amount', () => {
    expect(formatMoney('1234.5', '¥')).toBe('¥1,234.50');
    expect(formatMoney(-3, '$')).toBe('-$3.00');
    expect(formatMoney(null, '$')).toBe('');
  });
  it('sumExact adds to the cent', () => {
    expect(sumExact(['0.10', '0.20', 0.3, null, ''])).toBe('0.60');
    expect(sumExact(Array.from({ length: 1000 }, () => '0.01'))).toBe('10.00');
  });
});
