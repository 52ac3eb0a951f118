// The README's demo logins table says what the seed grants: the clerk row lists exactly the rights the
// seed gives role 采购员, and the admin rows say 管理员 holds all rights as the seed makes it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLERK_RIGHTS, FINANCE_RIGHTS, SALES_RIGHTS, STORE_RIGHTS } from '../../src/server/db/seed';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const row = (user: string, company = 'demo') => readme.split('\n').find((l) => l.startsWith(`| \`${company}\``) && l.includes(`| \`${user}\` |`)) ?? '';

describe('README rights table', () => {
  it('the clerk row lists exactly the rights the seed grants', () => {
    const rightsCell = row('clerk').split('|')[4] ?? '';
    const listed = [...rightsCell.replace(/\(.*\)/, '').matchAll(/`([a-zA-Z_.]+)`/g)].map((m) => m[1]);
    expect(listed.sort()).toEqual([...CLERK_RIGHTS].sort());
  });
  it('the sales row lists exactly the rights the seed grants', () => {
    const rightsCell = row('sales').split('|')[4] ?? '';
    const listed = [...rightsCell.replace(/\(.*\)/, '').matchAll(/`([a-zA-Z_.]+)`/g)].map((m) => m[1]);
    expect(listed.sort()).toEqual([...SALES_RIGHTS].sort());
  });
  it('the store row lists exactly the rights the seed grants', () => {
    const rightsCell = row('store').split('|')[4] ?? '';
    const listed = [...rightsCell.replace(/\(.*\)/, '').matchAll(/`([a-zA-Z_.]+)`/g)].map((m) => m[1]);
    expect(listed.sort()).toEqual([...STORE_RIGHTS].sort());
  });
  it('the finance row lists exactly the rights the seed grants', () => {
    const rightsCell = row('finance').split('|')[4] ?? '';
    const listed = [...rightsCell.replace(/\(.*\)/, '').matchAll(/`([a-zA-Z_.]+)`/g)].map((m) => m[1]);
    expect(listed.sort()).toEqual([...FINANCE_RIGHTS].sort());
  });
  it('the admin rows say every right', () => {
    expect(row('admin')).toContain('every right');
    expect(row('admin', 'demo2')).toContain('every right');
  });
});
