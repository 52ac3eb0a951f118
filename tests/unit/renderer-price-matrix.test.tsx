// @vitest-environment jsdom
// Renderer capabilities behind the price matrix, against a fake server: columns made from the list's
// answer (dynamicColumns), cells edited in place (editable: save on Enter/blur, keep the old value and
// show the server's message on refusal), toolbar forms prefilled from the selection or the list's
// conditions, and the real 价格管理 screen drawn from its schema.
import { act } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import ListScreen from '../../src/client/renderer/kinds/ListScreen';
import { expandDynamicColumns, withDynamicColumns } from '../../src/client/renderer/list/dynamicColumns';
import { editFilter } from '../../src/client/renderer/list/EditableCell';
import { makeEnv } from '../../src/client/renderer/env';
import type { ScreenFile, ScreenRoute } from '../../src/client/router/screenTypes';
import priceManager from '../../schemas/screens/commodity/priceManager.json';
import { http } from '../../src/client/request';
import { baseSession, button, buttons, chooseFile, click, headers, login, mount, polyfillDom, resetAll, rows, server, settle, text, toasts, type, unmount, until } from './renderer-harness';

beforeAll(polyfillDom);
beforeEach(resetAll);
afterEach(unmount);

const meta = (file: string): ScreenRoute => ({ file, route: '/test', title: '测试', permission: '1', menu: { group: 'commodity', order: 1 } });
const screen = (extra: Record<string, unknown>): ScreenFile =>
  ({ route: '/test', title: '价格矩阵', permission: '1', menu: { group: 'commodity', order: 1 }, hidden: false, children: false, kind: 'list', ...extra }) as ScreenFile;

const titles = [
  { id: 1, name: '零售价', label: '零售价', currencyCharacter: '¥', enabled: true },
  { id: 2, name: '出口价', label: '出口价', currencyCharacter: '$', enabled: true },
  { id: 3, name: '旧价', label: '旧价（停用）', currencyCharacter: '¥', enabled: false },
];
const products = () => [
  { id: 11, code: 'A100', name: '螺丝', p1: '9.99', p2: null, p3: '1.00' },
  { id: 12, code: 'A200', name: '螺母', p1: '0.50', p2: '0.10', p3: null },
];

const matrix = (extra: Record<string, unknown> = {}) =>
  screen({
    name: 'test.matrix',
    api: { list: 'cdm:014030' },
    columns: [
      { field: 'code', title: '商品编码' },
      { field: 'name', title: '商品名称' },
    ],
    dynamicColumns: {
      from: 'priceTitles',
      field: 'p{id}',
      title: '{label}',
      type: 'money',
      currency: '{currencyCharacter}',
      editable: {
        api: 'cdm:014031',
        body: { productId: '{id}', priceTitleId: '{column.id}', price: '{value}', expected: '{previous}' },
        when: { 'column.enabled': true },
        result: 'price',
      },
    },
    ...extra,
  });

/** The matrix answer: only the lists asked for (filters.priceTitleIds, or the ids typed as "1,3"), like the server. */
function serveMatrix() {
  server.on('014030', (body) => {
    const raw = body?.filters?.priceTitleIds;
    const wanted: number[] | undefined = typeof raw === 'string' ? raw.split(',').map(Number) : raw;
    const shown = wanted ? titles.filter((x) => wanted.includes(x.id)) : titles;
    return { data: { list: products(), total: 2, page: 1, pageSize: 20, priceTitles: shown } };
  });
}

const cell = (row: number, col: number) => document.querySelectorAll('.ant-table-tbody tr.ant-table-row')[row]!.querySelectorAll('td')[col] as HTMLElement;
const editor = () => document.querySelector('.renderer-editable-input') as HTMLInputElement | null;

async function press(input: HTMLInputElement, key: string) {
  await act(async () => {
    input.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
  });
  await settle(10);
}

describe('dynamic columns', () => {
  it('makes one column per answer item, templates filled, duplicates and items failing `when` left out', () => {
    const env = makeEnv({ ...baseSession, functionRights: [] });
    const cols = expandDynamicColumns(
      { from: 'data.items', field: 'p{id}', title: '{name}', type: 'money', when: { enabled: true }, editable: { api: 'cdm:014031', body: { v: '{value}' } } },
      { data: { items: [{ id: 1, name: '甲', enabled: true }, { id: 1, name: '重复', enabled: true }, { id: 2, name: '乙', enabled: false }] } },
      env,
    );
    expect(cols.map((c) => [c.field, c.title, c.type])).toEqual([['p1', '甲', 'money']]);
    // nested templates (the editable body) keep their placeholders for the cell
    expect(cols[0]!.editable!.body).toEqual({ v: '{value}' });
    expect(cols[0]!.source).toEqual({ id: 1, name: '甲', enabled: true });
    const part = { api: { list: 'cdm:014030' }, columns: [{ field: 'a', title: 'A' }, { field: 'b', title: 'B' }], dynamicColumns: { from: 'x', field: 'p{id}', title: '{id}', after: 'a' } };
    expect(withDynamicColumns(part.columns, part, { x: [{ id: 7 }] }).map((c) => c.field)).toEqual(['a', 'p7', 'b']);
    expect(withDynamicColumns(part.columns, part, null).map((c) => c.field)).toEqual(['a', 'b']);
    expect(editFilter({ field: 'p1', title: 'x', type: 'money' }, { api: 'cdm:014031' })).toBe('decimals:2');
  });

  it('draws the answer’s columns after the schema’s, with their currency, and follows a new answer', async () => {
    login([]);
    serveMatrix();
    await mount(<ListScreen meta={meta('test/matrix')} file={matrix({ filters: [{ field: 'priceTitleIds', title: '价格表', widget: 'input' }] })} />);
    await until(() => rows().length === 2, 'rows');
    expect(headers()).toEqual(['商品编码', '商品名称', '零售价', '出口价', '旧价（停用）']);
    expect(rows()[0]).toEqual(['A100', '螺丝', '¥9.99', '-', '¥1.00']);
    expect(rows()[1]).toEqual(['A200', '螺母', '¥0.50', '$0.10', '-']);
    // without the edit right no cell is editable
    expect(document.querySelector('.renderer-editable-cell')).toBeNull();
    await type(document.querySelector('.renderer-filter-bar input') as HTMLInputElement, '3,1');
    await click(button('查询'));
    await until(() => headers().length === 4, 'columns of the new answer');
    expect(headers()).toEqual(['商品编码', '商品名称', '零售价', '旧价（停用）']);
    expect(rows()[0]).toEqual(['A100', '螺丝', '¥9.99', '¥1.00']);
  });

  it('a schema mistake in dynamicColumns is an error box naming its path', async () => {
    login([]);
    serveMatrix();
    await mount(<ListScreen meta={meta('test/matrix')} file={matrix({ dynamicColumns: { from: 'priceTitles', field: 'price', title: '{label}' } })} />);
    await until(() => rows().length === 2, 'rows');
    expect(document.querySelector('[role="alert"]')?.textContent).toContain('dynamicColumns.field: 动态列的字段模板需要占位符');
  });
});

describe('editable cells', () => {
  const canEdit = ['commodity.priceManager', 'commodity.priceManager.edit'];

  it('click → input with the money filter; Enter saves through the code and shows the stored value', async () => {
    login(canEdit);
    serveMatrix();
    server.on('014031', (body) => ({ data: { productId: body.productId, priceTitleId: body.priceTitleId, price: '10.50', changed: true } }));
    await mount(<ListScreen meta={meta('test/matrix')} file={matrix()} />);
    await until(() => rows().length === 2, 'rows');
    // the stopped list's cells are not editable; the others are
    expect(cell(0, 4).querySelector('.renderer-editable-cell')).toBeNull();
    await click(cell(0, 2).querySelector('.renderer-editable-cell'));
    const input = editor()!;
    expect(input.value).toBe('9.99');
    await type(input, '10.5元x');
    expect(input.value).toBe('10.5');
    await press(input, 'Enter');
    await until(() => server.bodies('014031').length === 1, 'save');
    expect(server.last('014031')).toEqual({ productId: 11, priceTitleId: 1, price: '10.5', expected: '9.99' });
    await until(() => !editor(), 'editor closed');
    expect(rows()[0]![2]).toBe('¥10.50');
    // the blur that follows Enter does not save again
    await settle();
    expect(server.bodies('014031')).toHaveLength(1);
  });

  it('a refusal keeps the old value and shows the server’s message (also for codes the core hands back silently)', async () => {
    login(canEdit);
    serveMatrix();
    server.on('014031', () => ({ code: 'PRODUCT_PRICE_TITLE_STATUS_4005', msg: '价格表已停用' }));
    await mount(<ListScreen meta={meta('test/matrix')} file={matrix()} />);
    await until(() => rows().length === 2, 'rows');
    await click(cell(1, 3).querySelector('.renderer-editable-cell'));
    await type(editor()!, '3');
    await act(async () => {
      editor()!.dispatchEvent(new FocusEvent('focusout', { bubbles: true }));
    });
    await until(() => server.bodies('014031').length === 1, 'save on blur');
    expect(server.last('014031')).toEqual({ productId: 12, priceTitleId: 2, price: '3', expected: '0.10' });
    await until(() => !editor(), 'editor closed');
    expect(rows()[1]![3]).toBe('$0.10');
    expect(toasts('error')).toEqual(['价格表已停用']);

    // a code the request core toasts itself is not shown twice
    server.on('014031', () => ({ code: 'COMMON_VALIDATION_4000', msg: '价格最多 2 位小数', data: { errors: [{ field: 'price', message: '价格最多 2 位小数' }] } }));
    await click(cell(1, 3).querySelector('.renderer-editable-cell'));
    await type(editor()!, '4');
    await press(editor()!, 'Enter');
    await until(() => server.bodies('014031').length === 2, 'second save');
    await until(() => !editor(), 'editor closed again');
    expect(rows()[1]![3]).toBe('$0.10');
    expect(toasts('error')).toEqual(['价格表已停用', '价格最多 2 位小数']);
  });

  it('Esc gives up; an unchanged value is not sent; clearing sends an empty value', async () => {
    login(canEdit);
    serveMatrix();
    server.on('014031', () => ({ data: { price: null } }));
    await mount(<ListScreen meta={meta('test/matrix')} file={matrix()} />);
    await until(() => rows().length === 2, 'rows');
    await click(cell(0, 2).querySelector('.renderer-editable-cell'));
    await type(editor()!, '1');
    await press(editor()!, 'Escape');
    expect(editor()).toBeNull();
    expect(rows()[0]![2]).toBe('¥9.99');
    await click(cell(0, 2).querySelector('.renderer-editable-cell'));
    await type(editor()!, '9.990');
    await press(editor()!, 'Enter');
    expect(server.bodies('014031')).toHaveLength(0);
    await click(cell(0, 2).querySelector('.renderer-editable-cell'));
    await type(editor()!, '');
    await press(editor()!, 'Enter');
    await until(() => server.bodies('014031').length === 1, 'clear');
    expect(server.last('014031')).toMatchObject({ price: '', expected: '9.99' });
    await until(() => rows()[0]![2] === '-', 'emptied cell');
  });
});

describe('toolbar forms prefilled from the list', () => {
  const withForms = () =>
    matrix({
      keyword: true,
      filters: [{ field: 'status', title: '状态', widget: 'input' }],
      toolbar: [
        { action: 'form', title: '按条件调价', form: 'adjust', prefill: { filters: '{conditions.filters}', keyword: '{conditions.keyword}' } },
        { action: 'form', title: '调整所选', bulk: true, form: 'adjust', prefill: { productIds: '{ids}' } },
      ],
      forms: { adjust: { title: '批量调价', api: { save: 'cdm:014032' }, successText: '已调整 {changed} 个价格', fields: [{ field: 'percent', title: '调整幅度', widget: 'input', required: true }] } },
    });

  it('a toolbar form sends the conditions the list now applies; a bulk one the chosen rows', async () => {
    login(['commodity.priceManager', 'commodity.priceManager.edit']);
    serveMatrix();
    server.on('014032', () => ({ data: { changed: 2 } }));
    await mount(<ListScreen meta={meta('test/matrix')} file={withForms()} />);
    await until(() => rows().length === 2, 'rows');
    const inputs = [...document.querySelectorAll('.renderer-filter-bar input')] as HTMLInputElement[];
    await type(inputs[0]!, '螺');
    await type(inputs[1]!, 'onSale');
    await click(button('查询'));
    await until(() => server.bodies('014030').length === 2, 'search');
    await click(button('按条件调价'));
    const modal = () => document.querySelector('.ant-modal') as HTMLElement;
    await type(modal().querySelector('input') as HTMLInputElement, '5');
    await click(button('保存', modal()));
    await until(() => server.bodies('014032').length === 1, 'adjust');
    expect(server.last('014032')).toEqual({ filters: { status: 'onSale' }, keyword: '螺', percent: '5' });
    await until(() => toasts('success').includes('已调整 2 个价格'), 'toast');

    expect(button('调整所选').disabled).toBe(true);
    const box = document.querySelectorAll('.ant-table-tbody tr.ant-table-row .ant-checkbox-input')[1] as HTMLInputElement;
    await click(box);
    await click(button('调整所选'));
    await until(() => !!document.querySelector('.ant-modal input'), 'second form');
    await type([...document.querySelectorAll('.ant-modal input')].at(-1) as HTMLInputElement, '-3.5');
    await click(buttons('保存').at(-1));
    await until(() => server.bodies('014032').length === 2, 'bulk adjust');
    expect(server.last('014032')).toEqual({ productIds: [12], percent: '-3.5' });
  });
});

describe('the 价格管理 screen', () => {
  it('draws the matrix from its schema: product columns, one editable column per price list, its toolbar', async () => {
    login(['commodity.priceManager', 'commodity.priceManager.edit', 'commodity.priceManager.import', 'commodity.priceManager.export']);
    serveMatrix();
    server.on('013801', () => ({ data: { priceTitleKind: [{ value: 'sale', label: '销售价' }], productStatus: [{ value: 'onSale', label: '在售' }] } }));
    await mount(<ListScreen meta={meta('commodity/priceManager')} file={priceManager as unknown as ScreenFile} />);
    await until(() => rows().length === 2, 'rows');
    expect(server.bodies('014030')[0]).toEqual({ page: 1, pageSize: 50, sort: { field: 'code', order: 'ascend' } });
    expect(headers()).toEqual(expect.arrayContaining(['商品编码', '商品名称', '参考价', '零售价', '出口价', '旧价（停用）']));
    expect(document.querySelectorAll('.renderer-editable-cell').length).toBe(4);
    for (const b of ['批量调价', '调整所选', '价格表管理']) expect(buttons(b)).toHaveLength(1);
    expect(text()).not.toContain('未知');
  });

  it('价格表管理 opens the price lists in a drawer; 导入价格 uploads for the row’s list (header priceTitleId) and the matrix reloads on closing', async () => {
    login(['commodity.priceManager', 'commodity.priceManager.edit', 'commodity.priceManager.import', 'commodity.priceManager.export']);
    serveMatrix();
    server.on('013801', () => ({ data: { priceTitleKind: [{ value: 'sale', label: '销售价' }] } }));
    server.on('014001', () => ({ data: { list: [{ id: 1, code: 'SP01', name: '零售价', kind: 'sale', enabled: true }, { id: 3, code: 'SP09', name: '旧价', kind: 'sale', enabled: false }], total: 2 } }));
    server.on('014034', () => ({ data: { created: 1, updated: 2, unchanged: 0 } }));
    // The headers each call went out with (the harness records bodies only).
    const sentHeaders: Array<[string, unknown]> = [];
    const inner = http.defaults.adapter as (c: any) => Promise<any>;
    http.defaults.adapter = (config: any) => {
      sentHeaders.push([String(config.url).split('/').pop()!, config.headers?.priceTitleId]);
      return inner(config);
    };
    await mount(<ListScreen meta={meta('commodity/priceManager')} file={priceManager as unknown as ScreenFile} />);
    await until(() => rows().length === 2, 'rows');
    await click(button('价格表管理'));
    const drawer = () => document.querySelector('.ant-drawer') as HTMLElement;
    await until(() => !!drawer() && rows(drawer()).length === 2, 'price lists');
    // only the enabled list offers 导入价格
    expect(buttons('导入价格', drawer())).toHaveLength(1);
    await click(button('导入价格', drawer()));
    await until(() => !!document.querySelector('.ant-modal input[type="file"]'), 'import dialog');
    await chooseFile(document.querySelector('.ant-modal input[type="file"]') as HTMLInputElement, new File(['x'], '零售价.xlsx'));
    await click(button('导入', document.querySelector('.ant-modal') as HTMLElement));
    await until(() => toasts('success').includes('导入成功：新增 1 行，更新 2 行'), 'import toast');
    expect(sentHeaders.filter(([code]) => code === '014034')).toEqual([['014034', '1']]);
    const before = server.bodies('014030').length;
    await click(drawer().querySelector('.ant-drawer-close'));
    await until(() => server.bodies('014030').length === before + 1, 'matrix reloaded');
  });
});
