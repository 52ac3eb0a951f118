// @vitest-environment jsdom
// Session store: login → tokens + 990104 object in localStorage (a reload keeps the user logged in),
// logout, rights ('1' always), currency map, personnel, the React hook and the permission component.
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { AxiosHeaders, type InternalAxiosRequestConfig } from 'axios';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { http, setLoginNavigator, setPresenter, type Presenter } from '../../src/client/request';
import {
  Permission,
  STORAGE_KEYS,
  getAccessToken,
  getCurrencyMap,
  getPersonnel,
  getRefreshToken,
  getSession,
  getTimeZone,
  hasFlag,
  hasRight,
  isLoggedIn,
  loadSession,
  login,
  logout,
  setSession,
  useCurrencyMap,
  usePermission,
  useSession,
  type SessionInfo,
} from '../../src/client/session';
import { resetSessionLatch } from '../../src/client/session/storage';

const SESSION: SessionInfo = {
  functionRights: ['commodity.list', 'procurement.list'],
  companyName: '演示贸易有限公司',
  employeeName: '张三',
  companyId: 1,
  companyCode: 'DEMO',
  defaultLanguage: 'zh-CN',
  timeZone: 8,
  userName: 'zhangsan',
  accountId: 11,
  warehouseCode: 'WH01',
  warehouseId: 3,
  purchasePriceId: 5,
  salePriceId: 6,
  currencyList: [
    { id: 1, currencyName: '人民币', currencyCharacter: '¥', code: 'CNY' },
    { id: 2, currencyName: '美元', currencyCharacter: '$', code: 'USD' },
  ],
  currencyId: 1,
  currencyCharacter: '¥',
  receMultiple: 1.1,
  addRooType: 0,
  limitMultiple: 0.8,
  ceilingMultiple: 1.5,
  containerType: ['20GP', '40HQ'],
  personnel: [{ id: 21, name: '李四' }],
  flags: { presale: true, multiCurrency: false },
};

interface Sent {
  url: string;
  headers: Record<string, string>;
  body: unknown;
}
let sent: Sent[] = [];
let reply: (s: Sent) => { code: string; msg: string; data: unknown } = () => ({ code: '200', msg: '', data: null });

beforeAll(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  http.defaults.adapter = async (config: InternalAxiosRequestConfig) => {
    const s: Sent = {
      url: config.url ?? '',
      headers: Object.fromEntries(Object.entries(AxiosHeaders.from(config.headers).toJSON()).map(([k, v]) => [k, String(v)])),
      body: typeof config.data === 'string' ? JSON.parse(config.data) : config.data,
    };
    sent.push(s);
    return { data: reply(s), status: 200, statusText: 'OK', headers: AxiosHeaders.from({}), config };
  };
});

const toasts: [string, string][] = [];
let logins = 0;
beforeEach(() => {
  localStorage.clear();
  resetSessionLatch();
  sent = [];
  toasts.length = 0;
  logins = 0;
  const fake: Presenter = {
    toast: (k, t) => toasts.push([k, t]),
    serverError: () => undefined,
    overlay: () => undefined,
    saveFile: () => undefined,
  };
  setPresenter(fake);
  setLoginNavigator(() => {
    logins += 1;
  });
  reply = (s) => {
    if (s.url === '/auth/public/990103') {
      const b = s.body as Record<string, unknown>;
      return b.password === 'secret'
        ? { code: '200', msg: '', data: { accessToken: 'AT', refreshToken: 'RT' } }
        : { code: 'AUTH_LOGIN_4033', msg: '用户名或密码错误', data: null };
    }
    if (s.url === '/auth/api/990104') return { code: '200', msg: '', data: SESSION };
    return { code: '200', msg: '', data: null };
  };
});

describe('login / loadSession / logout', () => {
  it('login stores the tokens and the session object', async () => {
    const res = await login({ companyCode: 'DEMO', userName: 'zhangsan', password: 'secret' });
    expect(res.code).toBe('200');
    expect(sent[0]).toMatchObject({
      url: '/auth/public/990103',
      body: { type: 0, companyCode: 'DEMO', userName: 'zhangsan', password: 'secret' },
    });
    expect(sent[0]!.headers.token).toBeUndefined();
    expect(sent[1]).toMatchObject({ url: '/auth/api/990104', body: {} });
    expect(sent[1]!.headers.token).toBe('AT');
    expect(getAccessToken()).toBe('AT');
    expect(getRefreshToken()).toBe('RT');
    expect(isLoggedIn()).toBe(true);
    expect(getSession()).toEqual(SESSION);
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.session)!)).toEqual(SESSION);
  });

  it('a wrong password is handed back silently (AUTH_LOGIN_4033) and stores nothing', async () => {
    const res = await login({ companyCode: 'DEMO', userName: 'zhangsan', password: 'wrong' });
    expect(res).toMatchObject({ code: 'AUTH_LOGIN_4033', msg: '用户名或密码错误' });
    expect(toasts).toEqual([]);
    expect(isLoggedIn()).toBe(false);
    expect(getSession()).toBeNull();
    expect(sent).toHaveLength(1);
  });

  it('a reload keeps the user logged in: state is read back from localStorage', async () => {
    await login({ companyCode: 'DEMO', userName: 'zhangsan', password: 'secret' });
    vi.resetModules();
    const fresh = await import('../../src/client/session');
    expect(fresh.getAccessToken()).toBe('AT');
    expect(fresh.getSession()?.companyName).toBe('演示贸易有限公司');
    expect(fresh.hasRight('commodity.list')).toBe(true);
  });

  it('loadSession refreshes the stored object', async () => {
    localStorage.setItem(STORAGE_KEYS.accessToken, 'AT');
    reply = () => ({ code: '200', msg: '', data: { ...SESSION, functionRights: ['x'] } });
    await loadSession();
    expect(getSession()?.functionRights).toEqual(['x']);
  });

  it('logout calls 990106, then clears local storage and goes to /login', async () => {
    await login({ companyCode: 'DEMO', userName: 'zhangsan', password: 'secret' });
    await logout();
    expect(sent.at(-1)).toMatchObject({ url: '/auth/api/990106', body: {} });
    expect(sent.at(-1)!.headers.token).toBe('AT');
    expect(getAccessToken()).toBeNull();
    expect(getSession()).toBeNull();
    expect(localStorage.length).toBe(0);
    expect(logins).toBe(1);
  });

  it('logout still clears when 990106 gets no answer', async () => {
    await login({ companyCode: 'DEMO', userName: 'zhangsan', password: 'secret' });
    const adapter = http.defaults.adapter;
    http.defaults.adapter = async () => {
      throw Object.assign(new Error('Network Error'), { code: 'ERR_NETWORK' });
    };
    try {
      await logout();
    } finally {
      http.defaults.adapter = adapter;
    }
    expect(getAccessToken()).toBeNull();
    expect(logins).toBe(1);
  });
});

describe('rights, currencies, personnel, flags', () => {
  beforeEach(() => setSession(SESSION));

  it("hasRight: held codes, code '1' always, empty code always", () => {
    expect(hasRight('commodity.list')).toBe(true);
    expect(hasRight('finance.workBench')).toBe(false);
    expect(hasRight('1')).toBe(true);
    expect(hasRight(1)).toBe(true);
    expect(hasRight(undefined)).toBe(true);
    expect(hasRight(['finance.workBench', 'procurement.list'])).toBe(true);
    setSession(null);
    expect(hasRight('commodity.list')).toBe(false);
    expect(hasRight('1')).toBe(true);
  });

  it('currency map by id, personnel list, time zone, flags', () => {
    expect(getCurrencyMap()['2']?.currencyName).toBe('美元');
    expect(getCurrencyMap()[String(1)]?.currencyCharacter).toBe('¥');
    expect(getPersonnel()).toEqual([{ id: 21, name: '李四' }]);
    expect(getTimeZone()).toBe(8);
    expect(hasFlag('presale')).toBe(true);
    expect(hasFlag('multiCurrency')).toBe(false);
    expect(hasFlag('unknown')).toBe(false);
  });
});

describe('React: useSession, usePermission, <Permission>', () => {
  let root: Root;
  let host: HTMLElement;
  beforeEach(() => {
    host = document.createElement('div');
    document.body.appendChild(host);
    root = createRoot(host);
  });
  afterEach(() => {
    act(() => root.unmount());
    host.remove();
  });

  it('re-renders on login and logout', async () => {
    function Who() {
      const s = useSession();
      const currencies = useCurrencyMap();
      const canList = usePermission('commodity.list');
      return createElement(
        'span',
        null,
        s ? `${s.employeeName}@${s.companyName}:${Object.keys(currencies).length}:${canList}` : '未登录',
      );
    }
    act(() => root.render(createElement(Who)));
    expect(host.textContent).toBe('未登录');
    await act(async () => {
      await login({ companyCode: 'DEMO', userName: 'zhangsan', password: 'secret' });
    });
    expect(host.textContent).toBe('张三@演示贸易有限公司:2:true');
    await act(async () => {
      await logout();
    });
    expect(host.textContent).toBe('未登录');
  });

  it('<Permission> shows children only with the right; code 1 always', () => {
    setSession(SESSION);
    act(() =>
      root.render(
        createElement(
          'div',
          null,
          createElement(Permission, { code: 'commodity.list' }, createElement('button', null, '新增')),
          createElement(Permission, { code: 'finance.workBench' }, createElement('button', null, '删除')),
          createElement(Permission, { code: 'finance.workBench', fallback: '无' }, createElement('button', null, 'X')),
          createElement(Permission, { code: '1' }, createElement('button', null, '查询')),
        ),
      ),
    );
    const labels = [...host.querySelectorAll('button')].map((b) => b.textContent);
    expect(labels).toEqual(['新增', '查询']);
    expect(host.textContent).toContain('无');
  });

  it('reacts to another tab logging out (storage event)', () => {
    setSession(SESSION);
    function Who() {
      return createElement('span', null, useSession()?.userName ?? '未登录');
    }
    act(() => root.render(createElement(Who)));
    expect(host.textContent).toBe('zhangsan');
    act(() => {
      localStorage.clear();
      window.dispatchEvent(new StorageEvent('storage', { key: null }));
    });
    expect(host.textContent).toBe('未登录');
  });
});
