// The company IP whitelist: addresses and CIDR ranges, IPv4 and IPv6, proxies trusted only when configured.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, startTestServer, type TestServer } from './helpers.ts';
import { ipAllowed, parseCidr } from '../../src/server/auth/ip-whitelist.ts';

describe('matching', () => {
  it('matches addresses and ranges', () => {
    const list = ['10.0.0.0/8', '192.168.1.7', '2001:db8::/32'];
    expect(ipAllowed('10.200.3.4', list)).toBe(true);
    expect(ipAllowed('::ffff:10.1.1.1', list)).toBe(true);
    expect(ipAllowed('192.168.1.7', list)).toBe(true);
    expect(ipAllowed('192.168.1.8', list)).toBe(false);
    expect(ipAllowed('2001:db8:1::5', list)).toBe(true);
    expect(ipAllowed('2001:db9::5', list)).toBe(false);
    expect(ipAllowed('not-an-ip', list)).toBe(false);
  });
  it('rejects malformed entries', () => {
    for (const bad of ['10.0.0.0/33', '300.1.1.1', '1.2.3.4/x', 'abc', '1.2.3.4/8/9', '']) expect(parseCidr(bad), bad).toBeNull();
  });
});

describe('enforcement', () => {
  let s: TestServer;
  let admin: string;
  const enable = async (on: boolean) => {
    const settings = await s.call('cdm', '013601', {}, admin, { ip: '10.1.1.1' });
    const r = await s.call('cdm', '013602', { version: settings.data.version, flags: { ipWhitelist: on } }, admin, { ip: '10.1.1.1' });
    expect(r.code).toBe('200');
    advanceClock(1100);
  };
  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
    await s.database.db.insertInto('ipWhitelist').values([
      { companyId: 1, cidr: '10.0.0.0/8', enabled: 1, version: 1, createdAt: 'x', updatedAt: 'x' },
      { companyId: 1, cidr: '2001:db8::/32', enabled: 1, version: 1, createdAt: 'x', updatedAt: 'x' },
    ]).execute();
    await enable(true);
  });
  afterAll(async () => s?.close());

  it('lets whitelisted addresses through and refuses others with 5019', async () => {
    expect((await s.call('auth', '990104', {}, admin, { ip: '10.20.30.40' })).code).toBe('200');
    expect((await s.call('auth', '990104', {}, admin, { ip: '2001:db8::1' })).code).toBe('200');
    const denied = await s.call('auth', '990104', {}, admin, { ip: '192.168.5.5' });
    expect(denied.code).toBe('5019');
    expect(denied.msg).toContain('192.168.5.5');
  });

  it('refuses a login from outside the whitelist', async () => {
    const r = await s.call('auth', '990103', { type: 0, companyCode: 'demo', userName: 'admin', password: 'demo123' }, null, { public: true, ip: '172.16.0.1' });
    expect(r.code).toBe('5019');
  });

  it('does not apply to another company', async () => {
    const other = await s.login('demo2');
    expect((await s.call('auth', '990104', {}, other, { ip: '172.16.0.1' })).code).toBe('200');
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY says so', async () => {
    const forged = await s.call('auth', '990104', {}, admin, { ip: '192.168.5.5', headers: { 'x-forwarded-for': '10.1.2.3' } });
    expect(forged.code).toBe('5019');
    const proxied = await startTestServer({ TRUST_PROXY: '127.0.0.1' }, { dataDir: s.config.dataDir, databaseUrl: s.config.databaseUrl });
    try {
      const ok = await proxied.call('auth', '990104', {}, admin, { ip: '127.0.0.1', headers: { 'x-forwarded-for': '10.1.2.3' } });
      expect(ok.code).toBe('200');
      const notOk = await proxied.call('auth', '990104', {}, admin, { ip: '127.0.0.1', headers: { 'x-forwarded-for': '8.8.8.8' } });
      expect(notOk.code).toBe('5019');
    } finally {
      await proxied.app.close();
      await proxied.database.close();
    }
  });
});
