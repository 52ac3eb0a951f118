// Auth paths and envelope codes, as a client sees them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, startTestServer, type TestServer } from './helpers.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ ACCESS_TOKEN_TTL: '60', LOGIN_MAX_FAILURES: '3' });
});
afterAll(async () => s?.close());

const login = (body: Record<string, unknown>, ip?: string) => s.call('auth', '990103', body, null, { public: true, ip });

describe('login (990103 type 0)', () => {
  it('returns a token pair for the demo admin', async () => {
    const r = await login({ type: 0, companyCode: 'demo', userName: 'admin', password: 'demo123' });
    expect(r.code).toBe('200');
    expect(r.data.accessToken).toMatch(/^[\w-]{40,}$/);
    expect(r.data.refreshToken).toMatch(/^[\w-]{40,}$/);
    expect(r.data.refreshToken).not.toBe(r.data.accessToken);
  });

  it('answers AUTH_LOGIN_4033 for a wrong password and for an unknown company alike', async () => {
    const wrong = await login({ type: 0, companyCode: 'demo', userName: 'clerk', password: 'nope' }, '10.9.9.1');
    const unknown = await login({ type: 0, companyCode: 'nosuch', userName: 'admin', password: 'demo123' }, '10.9.9.1');
    expect(wrong).toEqual({ code: 'AUTH_LOGIN_4033', msg: '用户名或密码错误', data: null });
    expect(unknown.code).toBe('AUTH_LOGIN_4033');
  });

  it('names the missing field in Chinese', async () => {
    const r = await login({ type: 0, userName: 'admin', password: 'x' });
    expect(r.code).toBe('COMMON_VALIDATION_4000');
    expect(r.msg).toContain('公司代码不能为空');
  });

  it('makes an address wait after repeated failures, even for the right password (tests/security/login.test.ts)', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await login({ type: 0, companyCode: 'demo2', userName: 'admin', password: 'bad' + i }, '10.8.0.1')).code).toBe('AUTH_LOGIN_4033');
    }
    const r = await login({ type: 0, companyCode: 'demo2', userName: 'admin', password: 'demo123' }, '10.8.0.1');
    expect(r.code).toBe('AUTH_LOGIN_LOCKED_4034');
    expect(r.msg).toMatch(/登录失败次数过多/);
    await s.database.db.deleteFrom('loginFailure').execute(); // let later tests log in as demo2/admin
  });

  it('keeps a user from one company out of another company', async () => {
    const r = await login({ type: 0, companyCode: 'demo2', userName: 'clerk', password: 'demo123' });
    expect(r.code).toBe('AUTH_LOGIN_4033');
  });
});

describe('session (990104)', () => {
  it('holds every field the spec lists', async () => {
    const token = await s.login();
    const r = await s.call('auth', '990104', {}, token);
    expect(r.code).toBe('200');
    for (const f of ['functionRights', 'companyName', 'employeeName', 'companyId', 'companyCode', 'defaultLanguage', 'timeZone', 'userName', 'accountId',
      'warehouseCode', 'warehouseId', 'purchasePriceId', 'salePriceId', 'currencyList', 'currencyMap', 'currencyCharacter', 'currencyId', 'receMultiple',
      'addRooType', 'limitMultiple', 'ceilingMultiple', 'containerType', 'personnel', 'flags']) {
      expect(r.data, f).toHaveProperty(f);
    }
    expect(r.data.companyName).toBe('演示贸易有限公司');
    expect(r.data.timeZone).toBe(8);
    expect(r.data.currencyList.map((c: any) => c.code)).toEqual(['CNY', 'USD', 'EUR']);
    expect(r.data.currencyMap[r.data.currencyId].code).toBe('CNY');
    expect(r.data.functionRights).toContain('baseConfig.currency');
    expect(r.data.warehouseCode).toBe('WH01');
    // /navigation says 当前仓库 主仓库, not its code (issue 33 item 6)
    expect(r.data.warehouseName).toBe('主仓库');
  });

  it('gives the clerk only the clerk role rights', async () => {
    const token = await s.login('demo', 'clerk');
    const r = await s.call('auth', '990104', {}, token);
    expect(r.data.functionRights).toContain('procurement.supplier');
    expect(r.data.functionRights).not.toContain('baseConfig.currency');
  });

  it('accepts the token in the body on a retry (990104 and 990106)', async () => {
    const token = await s.login();
    const r = await s.call('auth', '990104', { token }, null);
    expect(r.code).toBe('200');
    const out = await s.call('auth', '990106', { token }, null);
    expect(out.code).toBe('200');
    expect((await s.call('auth', '990104', {}, token)).code).toBe('5011');
  });

  it('does not accept a body token on other codes', async () => {
    const token = await s.login();
    expect((await s.call('cdm', '013801', { token }, null)).code).toBe('5012');
  });
});

describe('token envelope codes', () => {
  it('5012 for a missing, unknown or expired access token', async () => {
    expect((await s.call('auth', '990104', {}, null)).code).toBe('5012');
    expect((await s.call('auth', '990104', {}, 'garbage')).code).toBe('5012');
    const short = await startTestServer({ ACCESS_TOKEN_TTL: '1' });
    try {
      const token = await short.login();
      expect((await short.call('auth', '990104', {}, token)).code).toBe('200');
      advanceClock(1200);
      expect((await short.call('auth', '990104', {}, token)).code).toBe('5012');
    } finally {
      await short.close();
    }
  });

  it('refresh rotates the pair; reusing the old refresh token ends the session with 5011', async () => {
    const first = await s.loginPair();
    const r = await login({ type: 1, refreshToken: first.refreshToken });
    expect(r.code).toBe('200');
    expect(r.data.refreshToken).not.toBe(first.refreshToken);
    expect((await s.call('auth', '990104', {}, r.data.accessToken)).code).toBe('200');
    // the stale access token no longer works
    expect((await s.call('auth', '990104', {}, first.accessToken)).code).toBe('5012');
    const replay = await login({ type: 1, refreshToken: first.refreshToken });
    expect(replay.code).toBe('5011');
    // the whole session is over, including the pair the rotation issued
    expect((await s.call('auth', '990104', {}, r.data.accessToken)).code).toBe('5011');
    expect((await login({ type: 1, refreshToken: r.data.refreshToken })).code).toBe('5011');
  });

  it('5011 when the refresh token has expired', async () => {
    const short = await startTestServer({ REFRESH_TOKEN_TTL: '1' });
    try {
      const pair = await short.loginPair();
      advanceClock(1200);
      expect((await short.call('auth', '990103', { type: 1, refreshToken: pair.refreshToken }, null, { public: true })).code).toBe('5011');
    } finally {
      await short.close();
    }
  });

  it('5011 after logout, and after a password change for every session of the account', async () => {
    // A fresh account: a password set now follows the policy (demo123 would no longer be accepted).
    expect((await s.call('cdm', '013403', { userName: 'changer', password: 'First-pass-1' }, await s.login())).code).toBe('200');
    const a = await s.login('demo', 'changer', 'First-pass-1');
    const b = await s.login('demo', 'changer', 'First-pass-1');
    const changed = await s.call('auth', '990107', { oldPassword: 'First-pass-1', newPassword: 'Second-pass-2' }, a);
    expect(changed.code).toBe('200');
    expect((await s.call('auth', '990104', {}, b)).code).toBe('5011');
    expect((await s.call('auth', '990104', {}, a)).code).toBe('5011');
    expect((await login({ type: 0, companyCode: 'demo', userName: 'changer', password: 'First-pass-1' })).code).toBe('AUTH_LOGIN_4033');
    const c = await s.login('demo', 'changer', 'Second-pass-2');
    expect((await s.call('auth', '990107', { oldPassword: 'wrong', newPassword: 'First-pass-1' }, c)).code).toBe('AUTH_PASSWORD_4036');
    expect((await s.call('auth', '990107', { oldPassword: 'Second-pass-2', newPassword: 'First-pass-1' }, c)).code).toBe('200');
  });

  it('5019 for a disabled account, on its live session and on login', async () => {
    const admin = await s.login();
    const clerk = await s.login('demo', 'clerk');
    const list = await s.call('cdm', '013401', { page: 1, pageSize: 50 }, admin);
    const clerkId = list.data.list.find((a: any) => a.userName === 'clerk').id;
    expect((await s.call('cdm', '013409', { id: clerkId, enabled: false }, admin)).code).toBe('200');
    expect((await s.call('auth', '990104', {}, clerk)).code).toBe('5019');
    expect((await login({ type: 0, companyCode: 'demo', userName: 'clerk', password: 'demo123' })).code).toBe('5019');
    expect((await s.call('cdm', '013409', { id: clerkId, enabled: true }, admin)).code).toBe('200');
    expect((await login({ type: 0, companyCode: 'demo', userName: 'clerk', password: 'demo123' })).code).toBe('200');
  });

  it('5019 for a disabled company', async () => {
    const token = await s.login('demo2');
    await s.database.db.updateTable('company').set({ enabled: 0 }).where('code', '=', 'demo2').execute();
    try {
      advanceClock(1100); // the per-process caller cache lives at most a second
      expect((await s.call('auth', '990104', {}, token)).code).toBe('5019');
    } finally {
      await s.database.db.updateTable('company').set({ enabled: 1 }).where('code', '=', 'demo2').execute();
    }
  });
});

describe('rights', () => {
  it('refuses a caller without the right, with the call named in Chinese, and changes nothing', async () => {
    const clerk = await s.login('demo', 'clerk');
    const r = await s.call('cdm', '012103', { code: 'JPY', currencyName: '日元', currencyCharacter: '¥' }, clerk);
    expect(r.code).toBe('COMMON_NO_RIGHT_4003');
    expect(r.msg).toBe('无权限执行“保存币种”，请联系管理员授权');
    const admin = await s.login();
    const list = await s.call('cdm', '012101', { page: 1, pageSize: 100 }, admin);
    expect(list.data.list.map((c: any) => c.code)).not.toContain('JPY');
  });
});

describe('call families and malformed requests', () => {
  it('an unknown code is a business error in every family', async () => {
    const token = await s.login();
    for (const fam of ['cdm', 'oms', 'auth', 'storage'] as const) {
      const r = await s.call(fam, '999999', {}, token);
      expect(r.code, fam).toBe('COMMON_API_NOT_EXIST_4005');
    }
    const res = await s.app.inject({ method: 'POST', url: '/cdm/nothing/here' });
    expect(JSON.parse(res.body).code).toBe('COMMON_API_NOT_EXIST_4005');
  });

  it('a public code is not reachable under /auth/api and a private one not under /auth/public', async () => {
    // Under /auth/api a caller proves who it is first (tests/security/http-surface.test.ts).
    expect((await s.call('auth', '990103', { type: 0 }, null)).code).toBe('5012');
    expect((await s.call('auth', '990103', { type: 0 }, await s.login())).code).toBe('COMMON_API_NOT_EXIST_4005');
    expect((await s.call('auth', '990104', {}, null, { public: true })).code).toBe('COMMON_API_NOT_EXIST_4005');
  });

  it('malformed JSON, a JSON array and a wrong method get clear messages', async () => {
    const token = await s.login();
    const bad = await s.call('cdm', '012101', undefined, token, { payload: '{"page":', headers: { 'content-type': 'application/json' } });
    expect(bad.code).toBe('COMMON_BAD_REQUEST_4001');
    expect(bad.msg).toContain('JSON');
    const arr = await s.call('cdm', '012101', [1, 2], token);
    expect(arr.code).toBe('COMMON_BAD_REQUEST_4001');
    const get = await s.call('cdm', '012101', undefined, token, { method: 'GET' });
    expect(get.code).toBe('COMMON_METHOD_4006');
  });

  it('serves the catalog (token required) and an OpenAPI document generated from it', async () => {
    const token = await s.login();
    const noToken = await s.app.inject({ method: 'GET', url: '/api/catalog' });
    expect(JSON.parse(noToken.body).code).toBe('5012');
    const cat = JSON.parse((await s.app.inject({ method: 'GET', url: '/api/catalog', headers: { token } })).body);
    expect(cat.data.families.cdm.find((e: any) => e.code === '010213').dedupe).toBe(false);
    const doc = JSON.parse((await s.app.inject({ method: 'GET', url: '/api/openapi.json', headers: { token } })).body);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/cdm/api/010214'].get.summary).toBeTruthy();
    expect(doc.paths['/cdm/api/014811'].post.parameters.map((p: any) => p.in).sort()).toEqual(['header', 'query']);
    expect(doc.paths['/auth/public/990103'].post.security).toEqual([]);
  });
});
