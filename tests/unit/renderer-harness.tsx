// Shared harness of the renderer tests (jsdom): a fake server behind the request core's axios instance
// (every request recorded, answers by endpoint code), a recording presenter (toasts, saved files), a
// logged-in session with chosen rights and flags, and small DOM helpers that look for what a user
// sees (texts, buttons, inputs).

import { AxiosHeaders, type InternalAxiosRequestConfig } from 'axios';
import { ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { act, type ReactElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { http, setPresenter, type Presenter } from '../../src/client/request';
import { resetSessionLatch, setTokens } from '../../src/client/session/storage';
import { setSession } from '../../src/client/session';
import type { SessionInfo } from '../../src/client/session';
import { invalidateOptions } from '../../src/client/renderer/data/options';

export interface Sent {
  url: string;
  code: string;
  body: unknown;
  data: unknown;
}

export type Answer = { code?: string; msg?: string; data?: unknown } | Promise<{ code?: string; msg?: string; data?: unknown }>;
export type Handler = (body: any, req: Sent) => Answer | undefined;

export const server = {
  sent: [] as Sent[],
  handlers: new Map<string, Handler>(),
  on(code: string, h: Handler) {
    this.handlers.set(code, h);
  },
  bodies(code: string): any[] {
    return this.sent.filter((s) => s.code === code).map((s) => s.body);
  },
  last(code: string): any {
    const list = this.bodies(code);
    return list[list.length - 1];
  },
};

export const seen = { toasts: [] as [string, string][], files: [] as string[] };

function installFakes() {
  http.defaults.adapter = async (config: InternalAxiosRequestConfig) => {
    let body: unknown = config.data;
    if (typeof body === 'string') {
      try {
        body = JSON.parse(body);
      } catch {
        // keep text
      }
    }
    const url = config.url ?? '';
    const code = url.split('/').pop() ?? '';
    const req: Sent = { url, code, body, data: config.data };
    server.sent.push(req);
    const h = server.handlers.get(code);
    const answer = (await (h ? h(body, req) : undefined)) ?? { data: null };
    const envelope = { code: answer.code ?? '200', msg: answer.msg ?? '', data: answer.data ?? null };
    return { data: envelope, status: 200, statusText: 'OK', headers: AxiosHeaders.from({ 'content-type': 'application/json' }), config };
  };
  const fake: Presenter = {
    toast: (kind, text) => seen.toasts.push([kind, text]),
    serverError: () => undefined,
    overlay: () => undefined,
    saveFile: (_blob, name) => seen.files.push(name),
  };
  setPresenter(fake);
}

export function polyfillDom() {
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
  // antd measures scrollbars with getComputedStyle on pseudo elements, which jsdom does not implement.
  const original = window.getComputedStyle;
  window.getComputedStyle = ((el: Element) => original(el)) as typeof window.getComputedStyle;
}

export const baseSession: SessionInfo = {
  functionRights: [],
  companyName: '演示公司',
  employeeName: '管理员',
  companyId: 1,
  companyCode: 'DEMO',
  defaultLanguage: 'zh-CN',
  timeZone: 8,
  userName: 'admin',
  accountId: 7,
  warehouseCode: 'W1',
  warehouseId: 1,
  purchasePriceId: null,
  salePriceId: null,
  currencyList: [
    { id: 1, currencyName: '人民币', currencyCharacter: '¥', code: 'CNY' },
    { id: 2, currencyName: '美元', currencyCharacter: '$', code: 'USD' },
  ],
  currencyId: 1,
  currencyCharacter: '¥',
  receMultiple: 1,
  addRooType: 0,
  limitMultiple: 1,
  ceilingMultiple: 1,
  containerType: [],
  personnel: [],
  flags: {},
};

export function login(rights: string[], flags: Record<string, boolean> = {}) {
  setTokens({ accessToken: 'A1', refreshToken: 'R1' });
  setSession({ ...baseSession, functionRights: rights, flags });
}

let root: Root | null = null;
let host: HTMLElement | null = null;

export function resetAll() {
  server.sent = [];
  server.handlers.clear();
  seen.toasts = [];
  seen.files = [];
  localStorage.clear();
  resetSessionLatch();
  invalidateOptions();
  installFakes();
}

export async function mount(element: ReactElement, { path = '/', route = '*' }: { path?: string; route?: string } = {}) {
  host = document.createElement('div');
  document.body.appendChild(host);
  root = createRoot(host);
  await act(async () => {
    root!.render(
      <ConfigProvider locale={zhCN}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path={route} element={element} />
          </Routes>
        </MemoryRouter>
      </ConfigProvider>,
    );
  });
  await settle();
}

export async function unmount() {
  await act(async () => {
    root?.unmount();
  });
  host?.remove();
  root = null;
  host = null;
  document.body.innerHTML = '';
}

export const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function settle(ms = 30) {
  for (let i = 0; i < 3; i++) {
    await act(async () => {
      await wait(ms);
    });
  }
}

/** Wait until `check` holds (polling inside act), or fail with `what`. */
export async function until(check: () => boolean, what: string, timeout = 15_000) {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeout) throw new Error(`等待超时：${what}`);
    await act(async () => {
      await wait(20);
    });
  }
}

const squash = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, '');

export function text(): string {
  return document.body.textContent ?? '';
}

export function buttons(label: string, scope: ParentNode = document.body): HTMLButtonElement[] {
  return [...scope.querySelectorAll('button')].filter((b) => squash(b.textContent) === squash(label) || b.getAttribute('aria-label') === label) as HTMLButtonElement[];
}

export function button(label: string, scope: ParentNode = document.body): HTMLButtonElement {
  const b = buttons(label, scope)[0];
  if (!b) throw new Error(`找不到按钮：${label}`);
  return b;
}

export async function click(el: Element | null | undefined) {
  if (!el) throw new Error('click: 没有元素');
  await act(async () => {
    (el as HTMLElement).click();
  });
  await settle(10);
}

/** Column titles of the (first) table, in order. */
export function headers(scope: ParentNode = document.body): string[] {
  return [...scope.querySelectorAll('.ant-table-thead th')].map((th) => squash(th.textContent)).filter(Boolean);
}

/** Rows of the (first) table as cell texts. */
export function rows(scope: ParentNode = document.body): string[][] {
  return [...scope.querySelectorAll('.ant-table-tbody tr.ant-table-row')].map((tr) => [...tr.querySelectorAll('td')].map((td) => squash(td.textContent)));
}

/** Type into an input the way React sees it. */
export async function type(input: HTMLInputElement | HTMLTextAreaElement, value: string) {
  const proto = input instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  const setter = Object.getOwnPropertyDescriptor(proto, 'value')!.set!;
  await act(async () => {
    setter.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await settle(10);
}

/** The form item (label + control + messages) whose label reads `label`. */
export function formItem(label: string, scope: ParentNode = document.body): HTMLElement {
  const labels = [...scope.querySelectorAll('label, .ant-formily-item-label-content, .ant-formily-item-label')];
  const l = labels.find((x) => squash(x.textContent).replace(/[:：*]/g, '') === label);
  const item = l?.closest('.ant-formily-item, .ant-form-item') as HTMLElement | null;
  if (!item) throw new Error(`找不到表单项：${label}`);
  return item;
}

export function inputOf(label: string, scope: ParentNode = document.body): HTMLInputElement {
  const el = formItem(label, scope).querySelector('input, textarea');
  if (!el) throw new Error(`表单项没有输入框：${label}`);
  return el as HTMLInputElement;
}

/** Choose a file in an antd Upload. */
export async function chooseFile(input: HTMLInputElement, file: File) {
  await act(async () => {
    Object.defineProperty(input, 'files', { value: [file], configurable: true });
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await settle(20);
}

export function toasts(kind?: string): string[] {
  return seen.toasts.filter(([k]) => !kind || k === kind).map(([, t]) => t);
}
