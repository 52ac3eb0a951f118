// @vitest-environment jsdom
// The request core against a fake server (an axios adapter). Assertions are on what the user would
// see: toasts, the server-error modal, the overlay, downloads, navigation to /login, and on what went
// over the wire (URL, method, headers, body), including how many refresh calls were made.
import { AxiosError, AxiosHeaders, type InternalAxiosRequestConfig } from 'axios';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CLIENT_DUPLICATE,
  CLIENT_FILE_ERROR,
  CLIENT_NETWORK,
  DEFAULT_LOADING_TEXT,
  EXPORT_FAILED_TEXT,
  NETWORK_ERROR_TEXT,
  REQUEST_TIMEOUT_MS,
  SERVER_ERROR_TITLE,
  TEMPLATE_FAILED_TEXT,
  ApiError,
  UnknownEndpointError,
  api,
  callApi,
  callApiData,
  callApiRef,
  fileNameFromDisposition,
  http,
  imageUrl,
  setLoginNavigator,
  setPresenter,
  uploadFile,
  type Presenter,
} from '../../src/client/request';
import {
  STORAGE_KEYS,
  getAccessToken,
  getRefreshToken,
  resetSessionLatch,
  setTokens,
  preserveOnClear,
} from '../../src/client/session/storage';

// ---- harness ------------------------------------------------------------------------------------

interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  params: Record<string, string> | undefined;
  body: unknown;
  rawData: unknown;
}
interface Reply {
  status?: number;
  data?: unknown;
  headers?: Record<string, string>;
}
type Handler = (req: Sent) => Reply | 'network' | Promise<Reply | 'network'>;

let sent: Sent[] = [];
let handler: Handler = () => ({ data: { code: '200', msg: '', data: null } });

http.defaults.adapter = async (config: InternalAxiosRequestConfig) => {
  const headers = Object.fromEntries(
    Object.entries(AxiosHeaders.from(config.headers).toJSON()).map(([k, v]) => [k, String(v)]),
  );
  let body: unknown = config.data;
  if (typeof body === 'string') {
    try {
      body = JSON.parse(body);
    } catch {
      // keep text
    }
  }
  const req: Sent = {
    method: (config.method ?? 'get').toUpperCase(),
    url: config.url ?? '',
    headers,
    params: config.params as Record<string, string> | undefined,
    body,
    rawData: config.data,
  };
  sent.push(req);
  const reply = await handler(req);
  if (reply === 'network') throw new AxiosError('Network Error', AxiosError.ERR_NETWORK, config);
  return {
    data: reply.data,
    status: reply.status ?? 200,
    statusText: 'OK',
    headers: AxiosHeaders.from(reply.headers ?? { 'content-type': 'application/json' }),
    config,
  };
};

const ok = (data: unknown = null): Reply => ({ data: { code: '200', msg: '', data } });
const env = (code: string, msg = '', data: unknown = null): Reply => ({ data: { code, msg, data } });
const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

interface Seen {
  toasts: [string, string][];
  modals: [string, string][];
  overlay: boolean[];
  files: [string, Blob][];
  logins: number;
}
let seen: Seen;
let restorePresenter: () => void = () => undefined;
let restoreNavigator: () => void = () => undefined;

beforeEach(() => {
  localStorage.clear();
  resetSessionLatch();
  sent = [];
  handler = () => ok();
  seen = { toasts: [], modals: [], overlay: [], files: [], logins: 0 };
  const fake: Presenter = {
    toast: (kind, text) => seen.toasts.push([kind, text]),
    serverError: (title, message) => seen.modals.push([title, message]),
    overlay: (active) => seen.overlay.push(active),
    saveFile: (blob, name) => seen.files.push([name, blob]),
  };
  restorePresenter = setPresenter(fake);
  restoreNavigator = setLoginNavigator(() => {
    seen.logins += 1;
  });
  setTokens({ accessToken: 'A1', refreshToken: 'R1' });
});

afterEach(() => {
  restorePresenter();
  restoreNavigator();
});

function refreshCalls(): Sent[] {
  return sent.filter((s) => s.url === '/auth/public/990103' && (s.body as { type?: number })?.type === 1);
}

// ---- transport facts from the catalog -----------------------------------------------------------

describe('transport (facts from the catalog)', () => {
  it('uses a 6,000,000 ms timeout and exports the default button loading text', () => {
    expect(http.defaults.timeout).toBe(6_000_000);
    expect(REQUEST_TIMEOUT_MS).toBe(6_000_000);
    expect(DEFAULT_LOADING_TEXT).toBe('操作执行中');
  });

  it('posts JSON to /{family}/api/{code} with the token header', async () => {
    const res = await callApi('oms', '023401', { listName: 'purchaseOrderList' });
    expect(res).toEqual({ code: '200', msg: '', data: null });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ method: 'POST', url: '/oms/api/023401', body: { listName: 'purchaseOrderList' } });
    expect(sent[0]!.headers.token).toBe('A1');
    expect(seen.toasts).toEqual([]);
  });

  it('sends an empty JSON object when a json call has no body', async () => {
    await api.cdm('010201');
    expect(sent[0]).toMatchObject({ url: '/cdm/api/010201', body: {} });
  });

  it('public auth codes go to /auth/public without a token; others to /auth/api with one', async () => {
    await callApi('auth', '990103', { type: 0, companyCode: 'C', userName: 'u', password: 'p' });
    await callApi('auth', '990104', {});
    expect(sent[0]!.url).toBe('/auth/public/990103');
    expect(sent[0]!.headers.token).toBeUndefined();
    expect(sent[1]!.url).toBe('/auth/api/990104');
    expect(sent[1]!.headers.token).toBe('A1');
  });

  it('GET calls with no payload and none-body POSTs send no body', async () => {
    await callApi('cdm', '010214');
    await callApi('cdm', '010226', { ignored: true });
    expect(sent[0]).toMatchObject({ method: 'GET', url: '/cdm/api/010214' });
    expect(sent[0]!.rawData).toBeUndefined();
    expect(sent[1]).toMatchObject({ method: 'POST', url: '/cdm/api/010226' });
    expect(sent[1]!.rawData).toBeUndefined();
  });

  it('priceTitleId travels as a header; pptId as query parameter and header', async () => {
    handler = () => ({ data: new Blob(['x']), headers: { 'content-disposition': 'attachment; filename="a.xlsx"' } });
    await callApi('cdm', '014019', { keyword: 'a' }, { extra: { priceTitleId: 7 } });
    await callApi('cdm', '014811', { pptId: 9, keyword: 'b' });
    expect(sent[0]!.headers.priceTitleId).toBe('7');
    expect(sent[0]!.params).toBeUndefined();
    expect(sent[1]!.headers.pptId).toBe('9');
    expect(sent[1]!.params).toEqual({ pptId: '9' });
  });

  it('uploads multipart/form-data with the field `file`', async () => {
    handler = () => ok({ mediaId: 'm1' });
    const file = new File(['hello'], '图片.png', { type: 'image/png' });
    const res = await uploadFile(file);
    expect(res.data).toEqual({ mediaId: 'm1' });
    expect(sent[0]).toMatchObject({ method: 'POST', url: '/storage/api/980107' });
    const form = sent[0]!.rawData as FormData;
    expect(form).toBeInstanceOf(FormData);
    expect((form.get('file') as File).name).toBe('图片.png');
    expect(sent[0]!.headers['Content-Type'] ?? '').not.toContain('application/json');
  });

  it('resource imports send the file and the other body fields as form fields', async () => {
    const file = new File(['x'], 'p.xlsx');
    await callApi('cdm', '010206', { mode: 'append' }, { file });
    const form = sent[0]!.rawData as FormData;
    expect(form.get('mode')).toBe('append');
    expect((form.get('file') as File).name).toBe('p.xlsx');
  });

  it('imageUrl builds /storage/api/980106?mediaId={id}_{size}&token={token}, size 80 by default', () => {
    expect(imageUrl('abc')).toBe('/storage/api/980106?mediaId=abc_80&token=A1');
    expect(imageUrl(12, 400)).toBe('/storage/api/980106?mediaId=12_400&token=A1');
  });

  it('refuses a code the catalog does not list', async () => {
    await expect(callApi('oms', '999999')).rejects.toBeInstanceOf(UnknownEndpointError);
    expect(sent).toHaveLength(0);
  });

  it('callApiRef reads "family:code" references', async () => {
    await callApiRef('oms:023802', { id: 1 });
    expect(sent[0]!.url).toBe('/oms/api/023802');
    expect(() => callApiRef('oms-023802')).toThrow();
  });
});

// ---- answers and what the user sees -------------------------------------------------------------

describe('answers (spec §8)', () => {
  it("'200': nothing is shown", async () => {
    handler = () => ok({ rows: [] });
    const res = await callApi('oms', '023804', {});
    expect(res.data).toEqual({ rows: [] });
    expect(seen).toMatchObject({ toasts: [], modals: [], logins: 0 });
  });

  it('a business code shows the server message as an error toast (which stays: kind error)', async () => {
    handler = () => env('COMMON_UNIQUE_4011', '编码“A1”已存在');
    const res = await callApi('oms', '023402', { a: 1 });
    expect(res.code).toBe('COMMON_UNIQUE_4011');
    expect(seen.toasts).toEqual([['error', '编码“A1”已存在']]);
  });

  it('silent codes are handed back with no toast', async () => {
    for (const code of ['AUTH_LOGIN_4033', 'PLO_ADD_ERROR_4016', 'INVOICE_QTY_ERROR_4020', 'PRODUCT_LOCK_4006']) {
      handler = () => env(code, '某错误');
      const res = await callApi('oms', '023402', { code });
      expect(res).toMatchObject({ code, msg: '某错误' });
    }
    expect(seen.toasts).toEqual([]);
  });

  it("'500' opens the modal titled 异常信息-请点击复制异常信息给开发人员 with the server message", async () => {
    handler = () => ({ status: 500, data: { code: '500', msg: '服务器内部错误（错误编号 E-42）', data: null } });
    const res = await callApi('oms', '023804', {});
    expect(res.code).toBe('500');
    expect(SERVER_ERROR_TITLE).toBe('异常信息-请点击复制异常信息给开发人员');
    expect(seen.modals).toEqual([['异常信息-请点击复制异常信息给开发人员', '服务器内部错误（错误编号 E-42）']]);
    expect(seen.toasts).toEqual([]);
  });

  it('network failure shows 后台接口无响应', async () => {
    handler = () => 'network';
    const res = await callApi('oms', '023804', {});
    expect(res.code).toBe(CLIENT_NETWORK);
    expect(seen.toasts).toEqual([['error', '后台接口无响应']]);
    expect(NETWORK_ERROR_TEXT).toBe('后台接口无响应');
  });

  it("a quiet call (the wall screen's refresh) shows no toast and no modal, yet a session that ended still goes to /login", async () => {
    handler = () => 'network';
    expect((await callApi('oms', '023804', {}, { quiet: true })).code).toBe(CLIENT_NETWORK);
    handler = () => ({ status: 500, data: { code: '500', msg: 'E-43', data: null } });
    expect((await callApi('oms', '023804', {}, { quiet: true })).code).toBe('500');
    handler = () => env('COMMON_NO_RIGHT_4003', '无权限');
    expect((await callApi('oms', '023804', {}, { quiet: true })).code).toBe('COMMON_NO_RIGHT_4003');
    expect(seen.toasts).toEqual([]);
    expect(seen.modals).toEqual([]);
    handler = () => env('5011', '登录已失效');
    expect((await callApi('oms', '023804', {}, { quiet: true })).code).toBe('5011');
    expect(seen.logins).toBe(1);
  });

  it('a body that is not an envelope (e.g. a proxy error page) counts as no answer', async () => {
    handler = () => ({ status: 502, data: '<html>Bad Gateway</html>', headers: { 'content-type': 'text/html' } });
    const res = await callApi('oms', '023804', {});
    expect(res.code).toBe(CLIENT_NETWORK);
    expect(seen.toasts).toEqual([['error', '后台接口无响应']]);
  });

  it('callApiData resolves data on 200 and rejects with ApiError otherwise', async () => {
    handler = () => ok({ n: 1 });
    await expect(callApiData('oms', '023802', {})).resolves.toEqual({ n: 1 });
    handler = () => env('AUTH_LOGIN_4033', '用户名或密码错误');
    await expect(callApiData('oms', '023802', {})).rejects.toMatchObject({
      name: 'ApiError',
      code: 'AUTH_LOGIN_4033',
      message: '用户名或密码错误',
    });
    expect(new ApiError({ code: 'X', msg: '', data: null }).message).toBe('X');
  });
});

describe("'5011' and '5019': clear local storage and go to /login once", () => {
  for (const code of ['5011', '5019']) {
    it(`${code}: ten requests failing together → storage cleared, one navigation`, async () => {
      localStorage.setItem('some.other', 'x');
      handler = async () => {
        await tick(5);
        return env(code, code === '5019' ? '当前 IP 不在公司白名单内' : '登录已失效');
      };
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => callApi('oms', '023802', { i })));
      expect(results.every((r) => r.code === code)).toBe(true);
      expect(seen.logins).toBe(1);
      expect(getAccessToken()).toBeNull();
      expect(getRefreshToken()).toBeNull();
      expect(localStorage.getItem('some.other')).toBeNull();
      // no error toasts; the server's reason once, as a (non-error) warning
      expect(seen.toasts).toEqual([['warning', code === '5019' ? '当前 IP 不在公司白名单内' : '登录已失效']]);
    });
  }

  it('the latch re-arms after a new login', async () => {
    handler = () => env('5011');
    await callApi('oms', '023802', {});
    await callApi('oms', '023802', { again: true });
    expect(seen.logins).toBe(1);
    setTokens({ accessToken: 'A9', refreshToken: 'R9' });
    await callApi('oms', '023802', {});
    expect(seen.logins).toBe(2);
  });

  it('keys registered with preserveOnClear survive', async () => {
    preserveOnClear('keep.me', 'keepPrefix.*');
    localStorage.setItem('keep.me', '1');
    localStorage.setItem('keepPrefix.a', '2');
    localStorage.setItem('drop.me', '3');
    handler = () => env('5019');
    await callApi('oms', '023802', {});
    expect(localStorage.getItem('keep.me')).toBe('1');
    expect(localStorage.getItem('keepPrefix.a')).toBe('2');
    expect(localStorage.getItem('drop.me')).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
  });

  it('on a public call (login) 5019 is shown as an error toast, without navigation', async () => {
    handler = () => env('5019', '账号已停用');
    const res = await callApi('auth', '990103', { type: 0, userName: 'x' });
    expect(res.code).toBe('5019');
    expect(seen.toasts).toEqual([['error', '账号已停用']]);
    expect(seen.logins).toBe(0);
  });
});

// ---- 5012: refresh once, queue, replay ----------------------------------------------------------

describe("'5012': refresh once and replay", () => {
  /** A fake auth server: token `valid` is accepted; refresh rotates to A{n}/R{n}. */
  function authServer(opts: { delay?: number; refreshReply?: (body: Record<string, unknown>) => Reply } = {}) {
    let valid = 'A2';
    let n = 2;
    return (req: Sent): Promise<Reply> | Reply => {
      if (req.url === '/auth/public/990103') {
        const body = req.body as Record<string, unknown>;
        if (opts.refreshReply) return opts.refreshReply(body);
        n += 1;
        valid = `A${n}`;
        const reply = ok({ accessToken: valid, refreshToken: `R${n}` });
        return opts.delay ? tick(opts.delay).then(() => reply) : reply;
      }
      const tokenOk = req.headers.token === valid || (req.body as { token?: string } | undefined)?.token === valid;
      return tokenOk ? ok({ url: req.url, token: req.headers.token }) : env('5012', '令牌已失效');
    };
  }

  it('ten requests failing with 5012 at once cause exactly one refresh, then all succeed', async () => {
    const server = authServer({ delay: 10 });
    handler = async (req) => {
      await tick(1);
      return server(req);
    };
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => callApi('oms', '023802', { i })));
    expect(refreshCalls()).toHaveLength(1);
    expect(refreshCalls()[0]!.body).toEqual({ type: 1, refreshToken: 'R1' });
    expect(results.map((r) => r.code)).toEqual(Array(10).fill('200'));
    expect(getAccessToken()).toBe('A3');
    expect(getRefreshToken()).toBe('R3'); // rotation: the new refresh token is stored
    // every replay carried the new token
    expect(sent.filter((s) => s.url === '/oms/api/023802' && s.headers.token === 'A3')).toHaveLength(10);
    expect(seen.toasts).toEqual([]);
    expect(seen.logins).toBe(0);
  });

  it('requests started while the refresh runs wait for it and are sent once, with the new token', async () => {
    let releaseRefresh: () => void = () => undefined;
    const gate = new Promise<void>((r) => (releaseRefresh = r));
    const server = authServer();
    handler = async (req) => {
      if (req.url === '/auth/public/990103') await gate;
      return server(req);
    };
    const first = callApi('oms', '023802', { first: true });
    await tick(5); // first got 5012; the refresh is now held open
    expect(refreshCalls()).toHaveLength(1);
    const later = [callApi('oms', '023804', { a: 1 }), callApi('cdm', '010201', { b: 2 })];
    await tick(5);
    expect(sent.filter((s) => s.url !== '/auth/public/990103' && s.url !== '/oms/api/023802')).toHaveLength(0);
    releaseRefresh();
    const results = await Promise.all([first, ...later]);
    expect(results.map((r) => r.code)).toEqual(['200', '200', '200']);
    const laterSent = sent.filter((s) => s.url === '/oms/api/023804' || s.url === '/cdm/api/010201');
    expect(laterSent.map((s) => s.headers.token)).toEqual(['A3', 'A3']);
  });

  it('a request that used a stale token is retried with the current one, without a refresh', async () => {
    handler = (req) => (req.headers.token === 'A1' ? env('5012') : ok());
    // The stored token changes while the request is in flight (another request or tab refreshed).
    const p = callApi('oms', '023802', {});
    setTokens({ accessToken: 'A5', refreshToken: 'R5' });
    const res = await p;
    expect(res.code).toBe('200');
    expect(refreshCalls()).toHaveLength(0);
    expect(sent.map((s) => s.headers.token)).toEqual(['A1', 'A5']);
  });

  it('990104 and 990106 carry the token in the body when retried', async () => {
    handler = authServer();
    await callApi('auth', '990104', {});
    const tries = sent.filter((s) => s.url === '/auth/api/990104');
    expect(tries).toHaveLength(2);
    expect((tries[0]!.body as Record<string, unknown>).token).toBeUndefined();
    expect(tries[1]!.body).toEqual({ token: 'A3' });
    sent = [];
    setTokens({ accessToken: 'old' });
    await callApi('auth', '990106', {});
    const out = sent.filter((s) => s.url === '/auth/api/990106');
    expect(out[1]!.body).toMatchObject({ token: 'A4' });
    // other codes never put the token in the body
    sent = [];
    setTokens({ accessToken: 'old2' });
    await callApi('oms', '023802', { x: 1 });
    expect(sent.filter((s) => s.url === '/oms/api/023802').map((s) => s.body)).toEqual([{ x: 1 }, { x: 1 }]);
  });

  it('a refresh answered without accessToken clears storage and goes to /login, once', async () => {
    handler = authServer({ refreshReply: () => env('5011', '登录已失效，请重新登录') });
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => callApi('oms', '023802', { i })));
    expect(refreshCalls()).toHaveLength(1);
    expect(results.every((r) => r.code !== '200')).toBe(true);
    expect(seen.logins).toBe(1);
    expect(getAccessToken()).toBeNull();
    expect(getRefreshToken()).toBeNull();
    expect(seen.toasts.filter(([k]) => k === 'error')).toEqual([]);
  });

  it('a refresh answered 200 but without accessToken also ends the session', async () => {
    handler = authServer({ refreshReply: () => ok({}) });
    await callApi('oms', '023802', {});
    expect(seen.logins).toBe(1);
    expect(getRefreshToken()).toBeNull();
  });

  it('with no refresh token stored there is nothing to refresh: straight to /login', async () => {
    localStorage.removeItem(STORAGE_KEYS.refreshToken);
    handler = authServer();
    await callApi('oms', '023802', {});
    expect(refreshCalls()).toHaveLength(0);
    expect(seen.logins).toBe(1);
  });

  it('a refresh that gets no answer keeps the tokens and shows 后台接口无响应', async () => {
    const server = authServer();
    handler = (req) => (req.url === '/auth/public/990103' ? 'network' : server(req));
    const res = await callApi('oms', '023802', {});
    expect(res.code).toBe('5012');
    expect(seen.toasts).toEqual([['error', '后台接口无响应']]);
    expect(seen.logins).toBe(0);
    expect(getRefreshToken()).toBe('R1');
  });

  it('a server that keeps answering 5012 after refreshing does not loop: the session ends', async () => {
    handler = (req) =>
      req.url === '/auth/public/990103'
        ? ok({ accessToken: `A${sent.length}`, refreshToken: `R${sent.length}` })
        : env('5012');
    const res = await callApi('oms', '023802', {});
    expect(res.code).toBe('5012');
    expect(sent.filter((s) => s.url === '/oms/api/023802').length).toBeLessThanOrEqual(3);
    expect(seen.logins).toBe(1);
  });
});

// ---- duplicate requests -------------------------------------------------------------------------

describe('duplicate requests', () => {
  it('an identical request in flight is dropped: it resolves to CLIENT_DUPLICATE, nothing is sent, no toast', async () => {
    handler = async () => {
      await tick(5);
      return ok();
    };
    const [a, b, c] = await Promise.all([
      callApi('oms', '023402', { x: 1, y: [1, 2] }),
      callApi('oms', '023402', { y: [1, 2], x: 1 }), // same body, other key order
      callApi('oms', '023402', { x: 2, y: [1, 2] }), // different body: sent
    ]);
    expect(a.code).toBe('200');
    expect(b).toEqual({ code: CLIENT_DUPLICATE, msg: '', data: null });
    expect(c.code).toBe('200');
    expect(sent).toHaveLength(2);
    expect(seen.toasts).toEqual([]);
  });

  it('the same request may be sent again once the first has finished', async () => {
    await callApi('oms', '023402', { x: 1 });
    await callApi('oms', '023402', { x: 1 });
    expect(sent).toHaveLength(2);
  });

  it('010213 (dedupe:false in the catalog) is never dropped', async () => {
    handler = async () => {
      await tick(5);
      return ok();
    };
    const results = await Promise.all([1, 2, 3].map(() => callApi('cdm', '010213', { code: 'SKU1' })));
    expect(results.map((r) => r.code)).toEqual(['200', '200', '200']);
    expect(sent).toHaveLength(3);
  });

  it('a dropped duplicate does not end the first request', async () => {
    handler = async () => {
      await tick(5);
      return env('COMMON_UNIQUE_4011', '重复');
    };
    const [a, b] = await Promise.all([callApi('oms', '023402', { z: 1 }), callApi('oms', '023402', { z: 1 })]);
    expect(a.code).toBe('COMMON_UNIQUE_4011');
    expect(b.code).toBe(CLIENT_DUPLICATE);
    expect(seen.toasts).toEqual([['error', '重复']]);
  });
});

// ---- overlay ------------------------------------------------------------------------------------

describe('processing overlay', () => {
  it('overlay:true codes hold the overlay while they run (ref-counted)', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    handler = async (req) => {
      if (req.url === '/cdm/api/010206') await gate;
      return ok();
    };
    const p1 = callApi('cdm', '010206', {}, { file: new File(['1'], 'a.xlsx') });
    const p2 = callApi('cdm', '011606', {}, { file: new File(['2'], 'b.xlsx') });
    await tick(5);
    expect(seen.overlay).toEqual([true]); // shown once though two calls hold it
    await p2;
    expect(seen.overlay).toEqual([true]);
    release();
    await p1;
    expect(seen.overlay).toEqual([true, false]);
  });

  it('ordinary codes do not show it, and it is released on failure', async () => {
    await callApi('oms', '023402', {});
    expect(seen.overlay).toEqual([]);
    handler = () => 'network';
    await callApi('cdm', '010206', {}, { file: new File(['1'], 'a.xlsx') });
    expect(seen.overlay).toEqual([true, false]);
  });
});

// ---- file responses -----------------------------------------------------------------------------

describe('file responses', () => {
  it('downloads with the UTF-8 file name of Content-Disposition', async () => {
    const blob = new Blob(['PK...'], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
    handler = () => ({
      data: blob,
      headers: {
        'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        'content-disposition': `attachment; filename="print-records.xlsx"; filename*=UTF-8''${encodeURIComponent('打印记录 2024.xlsx')}`,
      },
    });
    const res = await callApi('oms', '023805', { from: '2024-01-01' });
    expect(res).toEqual({ code: '200', msg: '', data: { fileName: '打印记录 2024.xlsx', size: blob.size } });
    expect(seen.files.map(([n]) => n)).toEqual(['打印记录 2024.xlsx']);
    expect(seen.toasts).toEqual([]);
  });

  it('a file call answered with a JSON envelope is handled as that error', async () => {
    handler = () => ({
      status: 200,
      data: new Blob([JSON.stringify({ code: 'COMMON_NO_RIGHT_4003', msg: '无权限执行“导出打印记录”，请联系管理员授权', data: null })], {
        type: 'application/json',
      }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    const res = await callApi('oms', '023805', {});
    expect(res.code).toBe('COMMON_NO_RIGHT_4003');
    expect(seen.toasts).toEqual([['error', '无权限执行“导出打印记录”，请联系管理员授权']]);
    expect(seen.files).toEqual([]);
  });

  it('a file call answered 500 opens the server-error modal', async () => {
    handler = () => ({
      status: 500,
      data: new Blob([JSON.stringify({ code: '500', msg: 'E-77', data: null })]),
      headers: { 'content-type': 'application/json' },
    });
    await callApi('oms', '023805', {});
    expect(seen.modals).toEqual([[SERVER_ERROR_TITLE, 'E-77']]);
  });

  it('a file call answered 5012 refreshes and downloads on replay', async () => {
    handler = (req) => {
      if (req.url === '/auth/public/990103') return ok({ accessToken: 'A2', refreshToken: 'R2' });
      if (req.headers.token !== 'A2')
        return { data: new Blob([JSON.stringify({ code: '5012', msg: '', data: null })]), headers: { 'content-type': 'application/json' } };
      return { data: new Blob(['x']), headers: { 'content-disposition': 'attachment; filename="x.xlsx"' } };
    };
    const res = await callApi('oms', '023805', {});
    expect(res.code).toBe('200');
    expect(refreshCalls()).toHaveLength(1);
    expect(seen.files.map(([n]) => n)).toEqual(['x.xlsx']);
  });

  it('an export that fails without an envelope shows 导出失败，请联系管理员', async () => {
    handler = () => ({ status: 502, data: new Blob(['<html>bad gateway</html>']), headers: { 'content-type': 'text/html' } });
    const res = await callApi('oms', '023805', {});
    expect(res.code).toBe(CLIENT_FILE_ERROR);
    expect(seen.toasts).toEqual([['error', '导出失败，请联系管理员']]);
    expect(EXPORT_FAILED_TEXT).toBe('导出失败，请联系管理员');
    seen.toasts = [];
    handler = () => 'network';
    await callApi('oms', '023805', { again: 1 });
    expect(seen.toasts).toEqual([['error', '导出失败，请联系管理员']]);
  });

  it('a template download (catalog name contains 模板, or option) that fails shows 下载失败', async () => {
    handler = () => 'network';
    await callApi('cdm', '010245', {});
    expect(seen.toasts).toEqual([['error', '下载失败']]);
    seen.toasts = [];
    await callApi('oms', '023805', {}, { template: true });
    expect(seen.toasts).toEqual([['error', TEMPLATE_FAILED_TEXT]]);
  });

  it('falls back to the given file name, then the catalog name', async () => {
    handler = () => ({ data: new Blob(['x']), headers: { 'content-type': 'application/octet-stream' } });
    await callApi('oms', '023805', {}, { fileName: 'records.xlsx' });
    await callApi('oms', '023805', { other: 1 });
    expect(seen.files.map(([n]) => n)).toEqual(['records.xlsx', '导出打印记录']);
  });
});

describe('fileNameFromDisposition', () => {
  it('prefers filename* (RFC 5987) and decodes it', () => {
    expect(fileNameFromDisposition(`attachment; filename="a.xlsx"; filename*=UTF-8''%E5%95%86%E5%93%81.xlsx`)).toBe('商品.xlsx');
    expect(fileNameFromDisposition(`attachment; filename*=utf-8'zh'%E5%95%86.csv`)).toBe('商.csv');
  });
  it('reads plain filename, quoted or not, and percent-encoded names', () => {
    expect(fileNameFromDisposition('attachment; filename="report 1.xlsx"')).toBe('report 1.xlsx');
    expect(fileNameFromDisposition('attachment; filename=report.zip')).toBe('report.zip');
    expect(fileNameFromDisposition('attachment; filename="%E5%95%86.xlsx"')).toBe('商.xlsx');
  });
  it('null without a name', () => {
    expect(fileNameFromDisposition('attachment')).toBeNull();
    expect(fileNameFromDisposition(undefined)).toBeNull();
  });
});

describe('idempotency keys (catalog idempotent: true)', () => {
  const keyOf = (s: Sent) => s.headers['Idempotency-Key'];
  const po = (qty: number) => ({ supplierId: 1, warehouseId: 1, lines: [{ productId: 1, qty }] });

  it('a document-creating call carries an Idempotency-Key; a list does not', async () => {
    await callApi('oms', '020203', po(1));
    await callApi('oms', '020201', { pageNum: 1 });
    expect(keyOf(sent[0]!)).toMatch(/^[0-9a-f]{32}$/);
    expect(keyOf(sent[1]!)).toBeUndefined();
  });

  it('the key is kept across the core’s own retry after a 5012 refresh', async () => {
    let first = true;
    handler = (req) => {
      if (req.url === '/auth/public/990103') return ok({ accessToken: 'A2', refreshToken: 'R2' });
      if (first) {
        first = false;
        return env('5012', '令牌已失效');
      }
      return ok({ id: 1 });
    };
    const res = await callApi('oms', '020203', po(1));
    expect(res.code).toBe('200');
    const posts = sent.filter((s) => s.url === '/oms/api/020203');
    expect(posts).toHaveLength(2);
    expect(keyOf(posts[1]!)).toBe(keyOf(posts[0]!));
    expect(posts[1]!.headers.token).toBe('A2');
  });

  it('each answered submission gets a new key (two deliberate saves are two documents)', async () => {
    await callApi('oms', '020203', po(2));
    await callApi('oms', '020203', po(2));
    expect(keyOf(sent[1]!)).not.toBe(keyOf(sent[0]!));
  });

  it('a server refusal is an answer too: the corrected submission gets a new key', async () => {
    handler = () => env('COMMON_VALIDATION_4000', '请填写数量');
    await callApi('oms', '020203', po(3));
    handler = () => ok({ id: 1 });
    await callApi('oms', '020203', po(3));
    expect(keyOf(sent[1]!)).not.toBe(keyOf(sent[0]!));
  });

  it('after a lost answer (network), clicking again on the same content reuses the key; other content does not', async () => {
    handler = () => 'network';
    expect((await callApi('oms', '020203', po(4))).code).toBe(CLIENT_NETWORK);
    handler = () => ok({ id: 1 });
    await callApi('oms', '020203', po(4));
    await callApi('oms', '020203', po(4));
    await callApi('oms', '020203', po(5));
    expect(keyOf(sent[1]!)).toBe(keyOf(sent[0]!));
    // answered now: the next click is a new submission
    expect(keyOf(sent[2]!)).not.toBe(keyOf(sent[0]!));
    expect(keyOf(sent[3]!)).not.toBe(keyOf(sent[2]!));
  });

  it('a key the caller keeps (per form) is sent as given', async () => {
    await callApi('oms', '020205', { id: 9, version: 1 }, { idempotencyKey: 'form-7f3a9c2e' });
    expect(keyOf(sent[0]!)).toBe('form-7f3a9c2e');
  });
});
