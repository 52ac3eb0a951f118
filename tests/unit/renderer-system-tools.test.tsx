// @vitest-environment jsdom
// The renderer capabilities of the system tools (issue 17), each once: the `json` widget (prefilled from a
// code's template, parse errors, 格式化), the `apiCall` widget (sends what the form holds with the user's
// session and shows the envelope), a form without submit buttons (`noSubmit`) and a list that asks for
// its page again by itself (`autoRefresh`, the interval driven by hand: no real waiting).
import { act } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import FormScreen from '../../src/client/renderer/kinds/FormScreen';
import ListScreen from '../../src/client/renderer/kinds/ListScreen';
import { jsonError } from '../../src/client/renderer/widgets/json';
import { widgets } from '../../src/client/renderer/registries';
import type { ScreenFile, ScreenRoute } from '../../src/client/router/screenTypes';
import { button, buttons, click, formItem, login, mount, polyfillDom, resetAll, server, text, type, unmount, until } from './renderer-harness';

beforeAll(polyfillDom);
beforeEach(resetAll);
afterEach(async () => {
  vi.restoreAllMocks();
  await unmount();
});

const meta: ScreenRoute = { file: 'test/try', route: '/test/try', title: '接口调试', permission: '1', menu: { group: 'system', order: 1 } };
const file = (extra: Record<string, unknown>) =>
  ({ route: '/test/try', title: '接口调试', permission: '1', menu: { group: 'system', order: 1 }, hidden: false, children: false, ...extra }) as unknown as ScreenFile;

const consoleForm = (initialValues: Record<string, unknown>) => file({
  kind: 'form', noSubmit: true, initialValues,
  fields: [
    { field: 'api', title: '接口', widget: 'input' },
    { field: 'body', title: '请求体', widget: 'json', api: 'cdm:019804', body: { api: '{api}' } },
    { field: 'answer', title: '答复', widget: 'apiCall', body: { api: '{api}', body: '{body}' } },
  ],
});

describe('json and apiCall widgets, noSubmit', () => {
  it('are registered', () => {
    for (const w of ['json', 'apiCall']) expect(widgets.has(w), w).toBe(true);
    expect(jsonError('{"a": 1}')).toBeNull();
    expect(jsonError('')).toBeNull();
    expect(jsonError('{a: 1}')).toMatch(/^JSON 格式错误：/);
  });

  it('prefills the body from the chosen code, sends it with the session and shows the envelope; no 保存 button', async () => {
    login([]);
    server.on('019804', (b) => ({ data: { template: JSON.stringify({ page: 1, pageSize: 20, for: b.api }) } }));
    server.on('019503', () => ({ data: { list: [], total: 0 } }));
    await mount(<FormScreen meta={meta} file={consoleForm({ api: 'cdm:019503' })} />);
    await until(() => buttons('发送').length === 1, 'console drawn');
    const area = () => formItem('请求体').querySelector('textarea') as HTMLTextAreaElement;
    await until(() => area().value.includes('"for":"cdm:019503"'), 'template prefilled');
    expect(server.last('019804')).toEqual({ api: 'cdm:019503' });
    expect(buttons('保存')).toHaveLength(0);
    expect(buttons('重置')).toHaveLength(0);

    await type(area(), '{"page": 2,');
    await until(() => text().includes('JSON 格式错误'), 'parse error shown');
    await click(button('发送'));
    expect(server.bodies('019503')).toHaveLength(0);

    await type(area(), '{"page":2,"pageSize":5}');
    await click(button('格式化'));
    await until(() => area().value === '{\n  "page": 2,\n  "pageSize": 5\n}', 'formatted');
    await click(button('发送'));
    await until(() => server.bodies('019503').length === 1, 'sent');
    expect(server.last('019503')).toEqual({ page: 2, pageSize: 5 });
    await until(() => text().includes('code 200') && text().includes('"total": 0'), 'envelope shown');
  });

  it('shows a refusal as the server answered it', async () => {
    login([]);
    server.on('019804', () => ({ data: { template: '{}' } }));
    server.on('019401', () => ({ code: 'COMMON_NO_RIGHT_4003', msg: '无权限执行“库存数据校验”，请联系管理员授权', data: null }));
    await mount(<FormScreen meta={meta} file={consoleForm({ api: 'cdm:019401', body: '{}' })} />);
    await until(() => buttons('发送').length === 1, 'console drawn');
    await click(button('发送'));
    await until(() => text().includes('code COMMON_NO_RIGHT_4003'), 'refusal shown');
    expect(text()).toContain('无权限执行“库存数据校验”');
  });
});

describe('list autoRefresh', () => {
  it('asks for the page again at each interval while the tab is visible', async () => {
    login([]);
    // each answer names how many times the page was asked for: the screen shows which request it drew
    let asked = 0;
    server.on('019501', () => ({ data: { list: [{ id: 'a', host: `h${++asked}` }], total: 1 } }));
    const timers: Array<{ fn: () => void; ms: number }> = [];
    const real = window.setInterval.bind(window);
    vi.spyOn(window, 'setInterval').mockImplementation(((fn: () => void, ms?: number) => {
      if (ms === 7000) {
        timers.push({ fn, ms });
        return 424242 as unknown as ReturnType<typeof setInterval>;
      }
      return real(fn, ms);
    }) as typeof setInterval);
    await mount(<ListScreen meta={meta} file={file({ kind: 'list', api: { list: 'cdm:019501' }, rowKey: 'id', autoRefresh: 7, columns: [{ field: 'host', title: '主机' }] })} />);
    await until(() => asked > 0 && text().includes(`h${asked}`), 'first page');
    const before = server.bodies('019501').length;
    expect(timers).toHaveLength(1);
    timers[0]!.fn();
    await until(() => server.bodies('019501').length === before + 1, 'asked again');
    await until(() => text().includes(`h${asked}`), 'second page drawn');
    // hidden: the tick asks for nothing — React's act runs the tick's state updates and effects to the end (a
    // refresh would have sent its request by then), no waiting on a clock
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    await act(async () => { timers[0]!.fn(); });
    expect(server.bodies('019501')).toHaveLength(before + 1);
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
  });
});
