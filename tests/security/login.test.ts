// Issue 19, items 6, 7 and 8: login throttling that nobody can turn against a user, the IP whitelist
// checked before the password, the password policy wherever a password is set, and an absolute session
// lifetime that refreshing does not extend. Time is the test's: Date is faked (timers stay real).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ok, startTestServer, type TestServer } from '../integration/helpers.ts';

let t: TestServer;
let now = Date.parse('2026-11-26T08:00:00Z');

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => t?.close());
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(now);
});
afterEach(() => {
  now = Date.now() + 24 * 3600_000; // each test starts a day later: the last one's failures are forgotten
  vi.useRealTimers();
});

const advance = (ms: number) => vi.setSystemTime(Date.now() + ms);
const login = (userName: string, password: string, ip: string, companyCode = 'demo') =>
  t.call('auth', '990103', { type: 0, companyCode, userName, password }, null, { public: true, ip });

/** A fresh account of the demo company (no rights needed to log in). */
async function account(userName: string, password: string) {
  const token = await t.login('demo', 'admin', 'demo123');
  return ok(t.call('cdm', '013403', { userName, password }, token));
}

describe('item 6: throttled by account and source, with growing delays', () => {
  it('makes one source wait longer after each failure, refusing even the right password meanwhile', async () => {
    await account('delay.user', 'Delay-user-2026');
    const ip = '10.1.0.1';
    for (let i = 0; i < 5; i++) expect((await login('delay.user', `wrong-${i}`, ip)).code).toBe('AUTH_LOGIN_4033');
    const waits: string[] = [];
    for (let i = 0; i < 14; i++) {
      const refused = await login('delay.user', 'Delay-user-2026', ip);
      expect(refused.code).toBe('AUTH_LOGIN_LOCKED_4034');
      waits.push(refused.msg.replace(/^登录失败次数过多，请 (.*)后再试$/, '$1'));
      const seconds = Math.min(900, 2 ** i);
      advance(seconds * 1000 - 1);
      expect((await login('delay.user', 'Delay-user-2026', ip)).code, 'a millisecond early').toBe('AUTH_LOGIN_LOCKED_4034');
      advance(1);
      expect((await login('delay.user', `wrong-again-${i}`, ip)).code).toBe('AUTH_LOGIN_4033');
    }
    expect(waits).toEqual(['1 秒', '2 秒', '4 秒', '8 秒', '16 秒', '32 秒', '2 分钟', '3 分钟', '5 分钟', '9 分钟', '15 分钟', '15 分钟', '15 分钟', '15 分钟']);
    advance(900_000);
    expect((await login('delay.user', 'Delay-user-2026', ip)).code).toBe('200');
  });

  it('never locks the real user out from elsewhere: the right password from the usual address still works', async () => {
    await account('victim', 'Sturdy-pass-2026');
    const office = '10.2.0.10';
    expect((await login('victim', 'Sturdy-pass-2026', office)).code).toBe('200');
    advance(3600_000);
    // One attacker hammers from one address, then a botnet tries from 40 more.
    for (let i = 0; i < 30; i++) await login('victim', `guess-${i}`, '10.66.0.1');
    for (let i = 0; i < 40; i++) await login('victim', `guess-b${i}`, `10.77.0.${i + 1}`);
    expect((await login('victim', 'Sturdy-pass-2026', '10.66.0.1')).code, 'the attacker waits').toBe('AUTH_LOGIN_LOCKED_4034');
    expect((await login('victim', 'Sturdy-pass-2026', '10.88.0.1')).code, 'a new address waits: many sources are guessing').toBe('AUTH_LOGIN_LOCKED_4034');
    expect((await login('victim', 'Sturdy-pass-2026', office)).code, 'the office gets in at once').toBe('200');
    // and a wrong password at the office is just wrong, not a lock
    expect((await login('victim', 'typo', office)).code).toBe('AUTH_LOGIN_4033');
  });

  it('counts an IPv6 /64 as one source: hopping addresses inside it gains nothing', async () => {
    await account('v6.user', 'Six-user-2026');
    for (let i = 1; i <= 5; i++) expect((await login('v6.user', `wrong-${i}`, `2001:db8:1:2::${i.toString(16)}`)).code).toBe('AUTH_LOGIN_4033');
    expect((await login('v6.user', 'Six-user-2026', '2001:db8:1:2:abcd::99')).code).toBe('AUTH_LOGIN_LOCKED_4034');
    expect((await login('v6.user', 'Six-user-2026', '2001:db8:1:3::1')).code, 'another /64').toBe('200');
  });

  it('slows down one address trying many accounts, and nobody else', async () => {
    const sprayer = '10.3.0.1';
    for (let i = 0; i < 30; i++) expect((await login(`user${i}`, 'Password1!', sprayer)).code).toBe('AUTH_LOGIN_4033');
    expect((await login('admin', 'demo123', sprayer)).code).toBe('AUTH_LOGIN_LOCKED_4034');
    expect((await login('admin', 'demo123', '10.3.0.2')).code).toBe('200');
  });
});

describe('item 7: the IP whitelist is checked before the password', () => {
  it('answers right and wrong passwords and unknown users alike from outside the whitelist', async () => {
    const demo2 = await t.login('demo2', 'admin', 'demo123');
    const settings = await ok(t.call('cdm', '013601', {}, demo2));
    const company = await t.database.db.selectFrom('company').select('id').where('code', '=', 'demo2').executeTakeFirstOrThrow();
    await t.database.db.insertInto('ipWhitelist').values({ companyId: company.id, cidr: '10.50.0.0/16', enabled: 1, version: 1, createdAt: 'x', updatedAt: 'x' }).execute();
    await ok(t.call('cdm', '013602', { version: settings.version, flags: { ipWhitelist: true } }, demo2, { ip: '10.50.0.1' }));
    const outside = '192.168.9.9';
    const right = await login('admin', 'demo123', outside, 'demo2');
    const wrong = await login('admin', 'not-the-password', outside, 'demo2');
    const nobody = await login('nobody', 'whatever', outside, 'demo2');
    expect(right.code).toBe('5019');
    expect(wrong).toEqual(right);
    expect(nobody).toEqual(right);
    expect((await login('admin', 'demo123', '10.50.3.4', 'demo2')).code).toBe('200');
    expect((await login('admin', 'wrong', '10.50.3.4', 'demo2')).code).toBe('AUTH_LOGIN_4033');
  });
});

describe('item 8: password policy wherever a password is set', () => {
  const weak: Array<[string, RegExp]> = [
    ['short7x', /至少 8 个字符/],
    ['12345678', /过于常见/],
    ['password', /过于常见/],
    ['aaaaaaaaaa', /过于常见/],
    ['abcdefghij', /过于常见/],
    ['qwertyuiop', /过于常见/],
  ];

  it('990107 (change own password) refuses short, common and patterned passwords with the reason, and keeps the old one', async () => {
    await account('policy.user', 'Policy-user-2026');
    const token = await t.login('demo', 'policy.user', 'Policy-user-2026');
    for (const [pw, why] of weak) {
      const r = await t.call('auth', '990107', { oldPassword: 'Policy-user-2026', newPassword: pw }, token);
      expect(r.code, pw).toBe('AUTH_PASSWORD_WEAK_4037');
      expect(r.msg, pw).toMatch(why);
    }
    expect((await t.call('auth', '990107', { oldPassword: 'Policy-user-2026', newPassword: 'x-policy.user-x' }, token)).msg).toBe('新密码不能包含用户名');
    expect((await t.call('auth', '990107', { oldPassword: 'Policy-user-2026', newPassword: 'Policy-user-2026' }, token)).msg).toBe('新密码不能与原密码相同');
    expect((await t.call('auth', '990104', {}, token)).code, 'the session lives on').toBe('200');
    await t.login('demo', 'policy.user', 'Policy-user-2026');
    await ok(t.call('auth', '990107', { oldPassword: 'Policy-user-2026', newPassword: '绿色-仓库-2026' }, token));
    await t.login('demo', 'policy.user', '绿色-仓库-2026');
  });

  it('account save (013403) and reset (013408) apply the same policy', async () => {
    const admin = await t.login('demo', 'admin', 'demo123');
    for (const [pw, why] of weak) {
      const r = await t.call('cdm', '013403', { userName: 'weak.new', password: pw }, admin);
      expect(r.code, pw).toBe('COMMON_VALIDATION_4000');
      expect(r.msg, pw).toMatch(why);
    }
    expect((await t.call('cdm', '013403', { userName: 'weak.new', password: 'my-weak.new-1' }, admin)).msg).toBe('密码不能包含用户名');
    const acc = await account('weak.new', 'Strong-enough-1');
    for (const [pw, why] of weak) {
      const reset = await t.call('cdm', '013408', { id: acc.id, password: pw }, admin);
      expect(reset.code, pw).toBe('COMMON_VALIDATION_4000');
      expect(reset.msg, pw).toMatch(why);
      const save = await t.call('cdm', '013403', { id: acc.id, version: acc.version, password: pw }, admin);
      expect(save.msg, pw).toMatch(why);
    }
    await t.login('demo', 'weak.new', 'Strong-enough-1');
  });

  it('does not apply at login: the demo passwords set before the policy still log in', async () => {
    expect((await login('admin', 'demo123', '127.0.0.1')).code).toBe('200');
    expect((await login('clerk', 'demo123', '127.0.0.1')).code).toBe('200');
  });
});

describe('item 8: a session ends 12 hours after its login, however often it is refreshed', () => {
  it('caps every token at the session end and ends the session there with 5011', async () => {
    const start = Date.now();
    let pair = await t.loginPair('demo', 'admin', 'demo123');
    // refresh every 25 minutes, as the client does before its 30-minute access token runs out
    for (let at = 25; at < 12 * 60; at += 25) {
      vi.setSystemTime(start + at * 60_000);
      const r = await t.call('auth', '990103', { type: 1, refreshToken: pair.refreshToken }, null, { public: true });
      expect(r.code, `refresh at ${at} min`).toBe('200');
      pair = r.data;
    }
    // 11 h 40 min in: the access token just issued lasts 20 minutes, not 30
    vi.setSystemTime(start + 12 * 3600_000 - 1000);
    expect((await t.call('cdm', '010201', { page: 1 }, pair.accessToken)).code).toBe('200');
    vi.setSystemTime(start + 12 * 3600_000 + 1000);
    expect((await t.call('cdm', '010201', { page: 1 }, pair.accessToken)).code).toBe('5012');
    const refreshed = await t.call('auth', '990103', { type: 1, refreshToken: pair.refreshToken }, null, { public: true });
    expect(refreshed.code).toBe('5011');
  });

  it('ends a session refreshed just before its 12 hours on its next refresh, with the reason', async () => {
    const start = Date.now();
    const pair = await t.loginPair('demo', 'admin', 'demo123');
    vi.setSystemTime(start + 12 * 3600_000 - 60_000);
    const last = await ok(t.call('auth', '990103', { type: 1, refreshToken: pair.refreshToken }, null, { public: true }));
    vi.setSystemTime(start + 12 * 3600_000);
    const r = await t.call('auth', '990103', { type: 1, refreshToken: last.refreshToken }, null, { public: true });
    expect(r).toMatchObject({ code: '5011', msg: '登录已满 12 小时，为了安全请重新登录' });
  });
});
