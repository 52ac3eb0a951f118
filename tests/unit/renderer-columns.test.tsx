// @vitest-environment jsdom
// Per-user column preferences: saved to the server per list name (oms 023402, only what the user
// changed), read back (023401) before the table first draws, merged over the schema so a column added
// later still shows, and reset to the schema default. Plus the pure merge rules.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { act } from 'react';
import ListScreen from '../../src/client/renderer/kinds/ListScreen';
import {
  applyPrefs,
  moveColumn,
  parsePrefs,
  serialisePrefs,
  setFixed,
  setHidden,
  setWidth,
  EMPTY_PREFS,
  type ColumnDefault,
} from '../../src/client/renderer/data/columnConfig';
import type { ScreenFile, ScreenRoute } from '../../src/client/router/screenTypes';
import { button, click, headers, login, mount, polyfillDom, resetAll, rows, server, settle, unmount, until, wait } from './renderer-harness';

beforeAll(polyfillDom);
beforeEach(resetAll);
afterEach(unmount);

const meta: ScreenRoute = { file: 'test/cols', route: '/test', title: '测试', permission: '1', menu: { group: 'baseConfig', order: 1 } };
const file = (columns: unknown[]): ScreenFile =>
  ({ route: '/test', title: '列测试', permission: '1', menu: { group: 'baseConfig', order: 1 }, hidden: false, children: false, kind: 'list', name: 'test.cols', api: { list: 'cdm:012101' }, columns }) as ScreenFile;
const three = [
  { field: 'code', title: '代码', width: 100 },
  { field: 'name', title: '名称', width: 160 },
  { field: 'remark', title: '备注', width: 200 },
];
const data = [{ id: 1, code: 'A', name: '甲', remark: 'r', extra: 'x' }];

describe('column preferences (pure)', () => {
  const defaults: ColumnDefault[] = [{ key: 'a', width: 100 }, { key: 'b' }, { key: 'c', hidden: true }, { key: 'd', fixed: 'right' }];

  it('stores only what differs from the schema', () => {
    let p = setHidden(EMPTY_PREFS, defaults, 'b', true);
    p = setHidden(p, defaults, 'c', true); // already the default: nothing stored
    p = setWidth(p, defaults, 'a', 100); // the default width: nothing stored
    p = setWidth(p, defaults, 'b', 240.4);
    p = setFixed(p, defaults, 'd', null);
    expect(p.columns).toEqual({ b: { hidden: true, width: 240 }, d: { fixed: null } });
    expect(setHidden(p, defaults, 'b', false).columns.b).toEqual({ width: 240 });
  });

  it('moving stores the new order; a column added to the schema later follows its schema neighbour', () => {
    const p = moveColumn(EMPTY_PREFS, defaults, 0, 2); // b c a d
    expect(applyPrefs(defaults, p).map((c) => c.key)).toEqual(['b', 'c', 'a', 'd']);
    const later: ColumnDefault[] = [...defaults.slice(0, 1), { key: 'new' }, ...defaults.slice(1)];
    expect(applyPrefs(later, p).map((c) => c.key)).toEqual(['b', 'c', 'a', 'new', 'd']);
    const first: ColumnDefault[] = [{ key: 'zero' }, ...defaults];
    expect(applyPrefs(first, p).map((c) => c.key)[0]).toBe('zero');
  });

  it('fixed columns keep to their edges', () => {
    const p = setFixed(EMPTY_PREFS, defaults, 'c', 'left');
    expect(applyPrefs(defaults, p).map((c) => `${c.key}${c.fixed ? `:${c.fixed}` : ''}`)).toEqual(['c:left', 'a', 'b', 'd:right']);
  });

  it('reads stored text tolerantly and saves only columns the schema still has', () => {
    expect(parsePrefs('not json')).toEqual(EMPTY_PREFS);
    expect(parsePrefs(null)).toEqual(EMPTY_PREFS);
    expect(parsePrefs('{"columns":{"a":{"hidden":"yes","width":5,"order":1}}}').columns).toEqual({ a: { order: 1 } });
    const p = { v: 1 as const, columns: { a: { hidden: true }, gone: { width: 300 } } };
    expect(JSON.parse(serialisePrefs(p, defaults))).toEqual({ v: 1, columns: { a: { hidden: true } } });
  });
});

describe('column preferences (on the screen)', () => {
  it('hiding a column in the settings saves {listName, configContent} with only that change', async () => {
    login([]);
    server.on('012101', () => ({ data: { list: data, total: 1 } }));
    await mount(<ListScreen meta={meta} file={file(three)} />);
    await until(() => rows().length === 1, 'rows');
    expect(server.bodies('023401')).toEqual([{ listName: 'test.cols' }]);
    await click(button('列设置'));
    const panel = document.querySelector('.renderer-column-settings')!;
    const nameBox = panel.querySelector('[data-column-key="name"] input[type="checkbox"]') as HTMLInputElement;
    await click(nameBox);
    expect(headers()).toEqual(['代码', '备注']);
    await act(async () => {
      await wait(500);
    });
    await until(() => server.bodies('023402').length === 1, 'save');
    const saved = server.last('023402');
    expect(saved.listName).toBe('test.cols');
    expect(JSON.parse(saved.configContent)).toEqual({ v: 1, columns: { name: { hidden: true } } });
  });

  it('moving a column saves the order; 重置 saves an empty configuration and restores the schema order', async () => {
    login([]);
    server.on('012101', () => ({ data: { list: data, total: 1 } }));
    await mount(<ListScreen meta={meta} file={file(three)} />);
    await until(() => rows().length === 1, 'rows');
    await click(button('列设置'));
    const panel = () => document.querySelector('.renderer-column-settings')!;
    await click(panel().querySelector('[data-column-key="remark"] button[aria-label="上移"]'));
    expect(headers()).toEqual(['代码', '备注', '名称']);
    await act(async () => {
      await wait(500);
    });
    await until(() => server.bodies('023402').length === 1, 'save');
    expect(JSON.parse(server.last('023402').configContent).columns).toEqual({ code: { order: 0 }, remark: { order: 1 }, name: { order: 2 } });
    await click(button('重置', panel()));
    expect(headers()).toEqual(['代码', '名称', '备注']);
    await act(async () => {
      await wait(500);
    });
    await until(() => server.bodies('023402').length === 2, 'reset save');
    expect(JSON.parse(server.last('023402').configContent)).toEqual({ v: 1, columns: {} });
  });

  it('restores the saved configuration before the table first draws, and a column added to the schema since still shows', async () => {
    login([]);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    server.on('012101', () => ({ data: { list: data, total: 1 } }));
    server.on('023401', async (body) => {
      await gate;
      expect(body).toEqual({ listName: 'test.cols' });
      return {
        data: {
          listName: 'test.cols',
          configContent: JSON.stringify({ v: 1, columns: { code: { order: 2, width: 180 }, name: { order: 0, hidden: true }, remark: { order: 1, fixed: 'left' } } }),
        },
      };
    });
    const withNew = [...three.slice(0, 2), { field: 'extra', title: '新增列' }, three[2]];
    await mount(<ListScreen meta={meta} file={file(withNew)} />);
    await settle();
    // The list answered already, but nothing is drawn until the preferences are known.
    expect(server.bodies('012101')).toHaveLength(1);
    expect(document.querySelector('.ant-table')).toBeNull();
    release();
    await until(() => rows().length === 1, 'rows');
    // remark fixed left first; name hidden; extra (new, after name in the schema) stays next to its schema neighbour.
    expect(headers()).toEqual(['备注', '新增列', '代码']);
    const codeCol = [...document.querySelectorAll('col')].map((c) => (c as HTMLElement).style.width);
    expect(codeCol).toContain('180px');
  });

  it('dragging a header edge resizes the column and saves its width once, on release', async () => {
    login([]);
    server.on('012101', () => ({ data: { list: data, total: 1 } }));
    await mount(<ListScreen meta={meta} file={file(three)} />);
    await until(() => rows().length === 1, 'rows');
    const handle = document.querySelectorAll('.renderer-col-resize')[1] as HTMLElement;
    await act(async () => {
      handle.dispatchEvent(new MouseEvent('pointerdown', { bubbles: true, clientX: 300 }) as PointerEvent);
      handle.dispatchEvent(new MouseEvent('pointermove', { bubbles: true, clientX: 340 }));
      handle.dispatchEvent(new MouseEvent('pointerup', { bubbles: true, clientX: 340 }));
      await wait(600);
    });
    await until(() => server.bodies('023402').length === 1, 'save');
    expect(JSON.parse(server.last('023402').configContent).columns).toEqual({ name: { width: 200 } });
  });
});
