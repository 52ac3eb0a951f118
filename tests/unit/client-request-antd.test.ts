// @vitest-environment jsdom
// The antd presenter: what the user actually sees in the DOM for a '500' (modal title, message, copy
// and close buttons, the 复制成功 toast), the toast durations, and the full-screen processing overlay.
import { act } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AxiosHeaders, type InternalAxiosRequestConfig } from 'axios';
import {
  OVERLAY_TEXT,
  SERVER_ERROR_TITLE,
  antdPresenter,
  callApi,
  createAntdPresenter,
  getPresenter,
  http,
  setLoginNavigator,
} from '../../src/client/request';
import { resetSessionLatch, setTokens } from '../../src/client/session/storage';

beforeAll(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  window.matchMedia ??= ((q: string) => ({
    matches: false,
    media: q,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  })) as unknown as typeof window.matchMedia;
});

const writeText = vi.fn(async (_: string) => undefined);
beforeEach(() => {
  writeText.mockClear();
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  localStorage.clear();
  resetSessionLatch();
  setTokens({ accessToken: 'A1', refreshToken: 'R1' });
});

afterEach(async () => {
  await act(async () => {
    document.body.querySelectorAll('button').forEach((b) => {
      if (b.textContent?.replace(/\s/g, '') === '关闭') b.click();
    });
    await wait(400);
  });
});

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function settle(ms = 50): Promise<void> {
  await act(async () => {
    await wait(ms);
  });
}

function buttonByText(text: string): HTMLButtonElement | undefined {
  return [...document.body.querySelectorAll('button')].find((b) => b.textContent?.replace(/\s/g, '') === text) as
    | HTMLButtonElement
    | undefined;
}

describe('antd presenter', () => {
  it('is the default presenter', () => {
    expect(getPresenter()).toBe(antdPresenter);
  });

  it("a '500' answer shows the modal with title, message, 复制 and 关闭; copying toasts 复制成功", async () => {
    http.defaults.adapter = async (config: InternalAxiosRequestConfig) => ({
      data: { code: '500', msg: '服务器内部错误，错误编号 ERR-2024-XYZ', data: null },
      status: 500,
      statusText: 'Internal Server Error',
      headers: AxiosHeaders.from({ 'content-type': 'application/json' }),
      config,
    });
    const res = await callApi('oms', '023804', {});
    expect(res.code).toBe('500');
    await settle();
    const text = document.body.textContent ?? '';
    expect(text).toContain(SERVER_ERROR_TITLE);
    expect(text).toContain('异常信息-请点击复制异常信息给开发人员');
    expect(text).toContain('服务器内部错误，错误编号 ERR-2024-XYZ');
    const copy = buttonByText('复制');
    expect(copy).toBeDefined();
    expect(buttonByText('关闭')).toBeDefined();

    await act(async () => {
      copy!.click();
      await wait(20);
    });
    expect(writeText).toHaveBeenCalledWith('服务器内部错误，错误编号 ERR-2024-XYZ');
    await settle();
    expect(document.body.textContent).toContain('复制成功');

    // only one such modal at a time
    antdPresenter.serverError(SERVER_ERROR_TITLE, 'second');
    await settle();
    expect(document.body.textContent).not.toContain('second');

    await act(async () => {
      buttonByText('关闭')!.click();
      await wait(400);
    });
    expect(document.body.textContent).not.toContain('ERR-2024-XYZ');

    // once closed, the next server error opens a new modal
    await act(async () => {
      antdPresenter.serverError(SERVER_ERROR_TITLE, 'third E-3');
      await wait(50);
    });
    expect(document.body.textContent).toContain('third E-3');
  });

  it('error toasts stay until dismissed (duration 0); other toasts last 5 s', () => {
    const open = vi.fn();
    const destroy = vi.fn();
    const p = createAntdPresenter({ message: { open, destroy } as never });
    p.toast('error', '编码已存在');
    p.toast('success', '保存成功');
    expect(open.mock.calls[0]![0]).toMatchObject({ type: 'error', duration: 0 });
    expect(open.mock.calls[1]![0]).toMatchObject({ type: 'success', content: '保存成功', duration: 5 });
    // clicking the error toast dismisses it
    open.mock.calls[0]![0].onClick();
    expect(destroy).toHaveBeenCalledWith(open.mock.calls[0]![0].key);
  });

  it('an error toast has a close control that dismisses it; the same message twice is one toast, not two', async () => {
    const notices = () => [...document.querySelectorAll('.ant-message-notice')].filter((n) => n.textContent?.includes('库存不足'));
    await act(async () => {
      antdPresenter.toast('error', '库存不足');
      antdPresenter.toast('error', '库存不足');
      await wait(50);
    });
    expect(notices()).toHaveLength(1);
    const close = notices()[0]!.querySelector('button[aria-label="关闭"]') as HTMLButtonElement | null;
    expect(close).not.toBeNull();
    await act(async () => {
      close!.click();
      await wait(600);
    });
    expect(notices()).toHaveLength(0);
  });

  it('a newer toast of a kind replaces the one on screen: two refused navigations leave one warning, the second', async () => {
    const notices = () => [...document.querySelectorAll('.ant-message-notice')].map((n) => n.textContent ?? '').filter((t) => t.includes('没有权限'));
    await act(async () => {
      antdPresenter.toast('warning', '没有权限访问：采购订单');
      antdPresenter.toast('warning', '没有权限访问：销售订单');
      await wait(50);
    });
    expect(notices()).toEqual(['没有权限访问：销售订单']);
  });

  it('a network failure shows 后台接口无响应 in the page', async () => {
    http.defaults.adapter = async () => {
      throw Object.assign(new Error('Network Error'), { code: 'ERR_NETWORK', isAxiosError: true });
    };
    await act(async () => {
      await callApi('oms', '023802', { net: 1 });
      await wait(50);
    });
    expect(document.body.textContent).toContain('后台接口无响应');
  });

  it('overlay codes show a full-screen 处理中… while running', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    http.defaults.adapter = async (config: InternalAxiosRequestConfig) => {
      await gate;
      return { data: { code: '200', msg: '', data: null }, status: 200, statusText: 'OK', headers: AxiosHeaders.from({}), config };
    };
    let p: Promise<unknown> = Promise.resolve();
    await act(async () => {
      p = callApi('cdm', '010206', {}, { file: new File(['x'], 'a.xlsx') });
      await wait(50);
    });
    expect(OVERLAY_TEXT).toBe('处理中…');
    expect(document.body.textContent).toContain('处理中…');
    expect(document.body.querySelector('.ant-spin-fullscreen')).not.toBeNull();
    release();
    await act(async () => {
      await p;
    });
    await settle();
    expect(document.body.textContent).not.toContain('处理中…');
  });

  it('the login navigator is injectable (the router registers react-router navigation)', async () => {
    const seen: string[] = [];
    const restore = setLoginNavigator((path) => seen.push(path));
    http.defaults.adapter = async (config: InternalAxiosRequestConfig) => ({
      data: { code: '5011', msg: '', data: null },
      status: 200,
      statusText: 'OK',
      headers: AxiosHeaders.from({}),
      config,
    });
    await callApi('oms', '023802', {});
    expect(seen).toEqual(['/login']);
    restore();
  });
});
