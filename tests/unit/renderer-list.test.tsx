// @vitest-environment jsdom
// The list kind against a fake server: what the user sees (columns, cells, buttons, error boxes,
// toasts) and what goes over the wire (list bodies for filters, sort, paging; export; bulk calls).
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { act } from 'react';
import ListScreen from '../../src/client/renderer/kinds/ListScreen';
import type { ScreenFile, ScreenRoute } from '../../src/client/router/screenTypes';
import currencyScreen from '../../schemas/screens/baseConfig/currency.json';
import {
  button,
  buttons,
  click,
  headers,
  login,
  mount,
  polyfillDom,
  resetAll,
  rows,
  server,
  settle,
  text,
  toasts,
  type,
  unmount,
  until,
} from './renderer-harness';

beforeAll(polyfillDom);
beforeEach(resetAll);
afterEach(unmount);

const meta = (file: string): ScreenRoute => ({ file, route: '/test', title: '测试', permission: '1', menu: { group: 'baseConfig', order: 1 } });
const screen = (extra: Record<string, unknown>): ScreenFile =>
  ({ route: '/test', title: '测试列表', permission: '1', menu: { group: 'baseConfig', order: 1 }, hidden: false, children: false, kind: 'list', ...extra }) as ScreenFile;

const orders = [
  { id: 1, no: 'PO-001', amount: '1234.5', currencyId: 2, status: 'draft', paid: true, createdAt: '2024-05-01T16:30:00Z', qty: 3 },
  { id: 2, no: 'PO-002', amount: '0.1', currencyId: 1, status: 'confirmed', paid: false, createdAt: '2024-05-02T01:00:00Z', qty: 4 },
  { id: 3, no: 'PO-003', amount: '0.2', currencyId: 1, status: 'closed', paid: 0, createdAt: null, qty: 5 },
];

const orderList = (extra: Record<string, unknown> = {}) =>
  screen({
    name: 'test.orders',
    api: { list: 'cdm:012101', export: 'cdm:012105', remove: 'cdm:012104' },
    columns: [
      { field: 'no', title: '单号', sortable: true, link: '/baseConfig/currency/{id}' },
      { field: 'amount', title: '金额', type: 'money', currencyField: 'currencyId', sortable: true },
      { field: 'status', title: '状态', type: 'enum', dict: 'orderStatus' },
      { field: 'paid', title: '已付', type: 'boolean' },
      { field: 'createdAt', title: '创建时间', type: 'datetime' },
      { field: 'qty', title: '数量', type: 'number' },
    ],
    ...extra,
  });

function serveOrders(list = orders, total = list.length) {
  server.on('012101', () => ({ data: { list, total, page: 1, pageSize: 20 } }));
  server.on('013801', () => ({ data: { orderStatus: [{ value: 'draft', label: '草稿' }, { value: 'confirmed', label: '已确认', color: 'green' }] } }));
}

describe('list: columns and cells', () => {
  it('draws the schema titles in order and formats each type (money with its currency, enum from the dictionary, boolean, company time)', async () => {
    login([]);
    serveOrders();
    await mount(<ListScreen meta={meta('test/orders')} file={orderList()} />);
    await until(() => rows().length === 3, 'rows');
    expect(headers()).toEqual(['单号', '金额', '状态', '已付', '创建时间', '数量']);
    expect(rows()[0]).toEqual(['PO-001', '$1,234.50', '草稿', '是', '2024-05-0200:30:00', '3']);
    expect(rows()[1]).toEqual(['PO-002', '¥0.10', '已确认', '否', '2024-05-0209:00:00', '4']);
    expect(rows()[2]).toEqual(['PO-003', '¥0.20', 'closed', '否', '-', '5']);
    const link = document.querySelector('.ant-table-tbody a') as HTMLAnchorElement;
    expect(link.getAttribute('href')).toBe('/baseConfig/currency/1');
    // the dictionary was fetched once, with no body (013801 is a no-body POST)
    expect(server.bodies('013801')).toHaveLength(1);
  });

  it('an unknown column type is an error box naming its schema path; the other columns still draw', async () => {
    login([]);
    serveOrders();
    const file = orderList();
    (file.columns as any[])[3] = { field: 'paid', title: '已付', type: 'foo' };
    await mount(<ListScreen meta={meta('test/orders')} file={file} />);
    await until(() => rows().length === 3, 'rows');
    expect(document.querySelector('[role="alert"]')?.textContent).toContain('columns[3].type: 未知的列类型 "foo"');
    expect(headers()).toEqual(['单号', '金额', '状态', '创建时间', '数量']);
  });

  it('sums declared totals exactly over the page (0.1 + 0.2 = 0.30, not 0.30000000000000004)', async () => {
    login([]);
    serveOrders(orders.slice(1));
    await mount(<ListScreen meta={meta('test/orders')} file={orderList({ totals: { fields: ['amount', 'qty'] } })} />);
    await until(() => rows().length === 2, 'rows');
    const totals = [...document.querySelectorAll('.renderer-total')].map((e) => e.textContent);
    expect(totals).toEqual(['¥0.30', '9']);
    expect(text()).toContain('本页合计');
  });
});

describe('list: big pages', () => {
  it('keeps the totals row on a page drawn with virtual rows (above 100 rows)', async () => {
    login([]);
    const many = Array.from({ length: 150 }, (_, i) => ({ id: i + 1, no: `PO-${i + 1}`, amount: '0.1', currencyId: 1, status: 'draft', paid: false, createdAt: '2024-05-01T16:30:00Z', qty: i + 1 }));
    serveOrders(many);
    await mount(<ListScreen meta={meta('test/orders')} file={orderList({ totals: { fields: ['amount', 'qty'] }, pageSize: 200 })} />);
    await until(() => document.querySelectorAll('.renderer-total').length > 0, 'totals row');
    expect([...document.querySelectorAll('.renderer-total')].map((e) => e.textContent)).toEqual(['¥15.00', '11,325']);
  });
});

describe('list: server-side filters, sort and paging', () => {
  const filtered = () =>
    orderList({
      keyword: true,
      filters: [
        { field: 'no', title: '单号', widget: 'input', filter: 'intAndLetter' },
        { field: 'status', title: '状态', widget: 'select', options: [{ value: 'draft', label: '草稿' }] },
        { field: 'createdAt', title: '创建时间', widget: 'dateRange' },
      ],
    });

  it('the first call asks for page 1 with the default page size and sort', async () => {
    login([]);
    serveOrders();
    await mount(<ListScreen meta={meta('test/orders')} file={orderList({ defaultSort: { field: 'no', order: 'descend' } })} />);
    await until(() => rows().length === 3, 'rows');
    expect(server.bodies('012101')).toEqual([{ page: 1, pageSize: 20, sort: { field: 'no', order: 'descend' } }]);
  });

  it('查询 sends the filter values (input filter applied, empty ones left out) and the keyword, from page 1', async () => {
    login([]);
    serveOrders();
    await mount(<ListScreen meta={meta('test/orders')} file={filtered()} />);
    await until(() => rows().length === 3, 'rows');
    const inputs = [...document.querySelectorAll('.renderer-filter-bar input')] as HTMLInputElement[];
    await type(inputs[0]!, ' 甲 ');
    await type(inputs[1]!, 'PO-00１');
    expect(inputs[1]!.value).toBe('PO001');
    await click(button('查询'));
    await until(() => server.bodies('012101').length === 2, 'second list call');
    expect(server.last('012101')).toEqual({ page: 1, pageSize: 20, keyword: '甲', filters: { no: 'PO001' } });
  });

  it('重置 clears the conditions and searches again', async () => {
    login([]);
    serveOrders();
    await mount(<ListScreen meta={meta('test/orders')} file={filtered()} />);
    await until(() => rows().length === 3, 'rows');
    const inputs = [...document.querySelectorAll('.renderer-filter-bar input')] as HTMLInputElement[];
    await type(inputs[1]!, 'X1');
    await click(button('查询'));
    await until(() => server.bodies('012101').length === 2, 'filtered call');
    await click(button('重置'));
    await until(() => server.bodies('012101').length === 3, 'reset call');
    expect(server.last('012101')).toEqual({ page: 1, pageSize: 20 });
  });

  it('clicking a sortable header sorts on the server: ascend, then descend', async () => {
    login([]);
    serveOrders();
    await mount(<ListScreen meta={meta('test/orders')} file={orderList()} />);
    await until(() => rows().length === 3, 'rows');
    const th = () => [...document.querySelectorAll('.ant-table-thead th')].find((t) => t.textContent?.includes('金额'))!;
    await click(th().querySelector('.ant-table-column-sorters') ?? th());
    await until(() => server.bodies('012101').length === 2, 'sorted call');
    expect(server.last('012101')).toEqual({ page: 1, pageSize: 20, sort: { field: 'amount', order: 'ascend' } });
    await click(th().querySelector('.ant-table-column-sorters') ?? th());
    await until(() => server.bodies('012101').length === 3, 'sorted call 2');
    expect(server.last('012101').sort).toEqual({ field: 'amount', order: 'descend' });
  });

  it('paging asks the server for the chosen page, keeping filters and sort', async () => {
    login([]);
    serveOrders(orders, 45);
    await mount(<ListScreen meta={meta('test/orders')} file={orderList({ defaultSort: { field: 'no', order: 'ascend' } })} />);
    await until(() => rows().length === 3, 'rows');
    expect(text()).toContain('共 45 条');
    await click(document.querySelector('.ant-pagination-item-3'));
    await until(() => server.bodies('012101').length === 2, 'page 3');
    expect(server.last('012101')).toEqual({ page: 3, pageSize: 20, sort: { field: 'no', order: 'ascend' } });
  });
});

describe('list: actions gated by rights, flags and conditions', () => {
  const currencies = [
    { id: 1, code: 'CNY', currencyName: '人民币', currencyCharacter: '¥', isBase: true, enabled: true, version: 1 },
    { id: 2, code: 'USD', currencyName: '美元', currencyCharacter: '$', isBase: false, enabled: true, version: 3 },
  ];
  const serveCurrencies = () => server.on('012101', () => ({ data: { list: currencies, total: 2 } }));
  const all = ['baseConfig.currency', 'baseConfig.currency.edit', 'baseConfig.currency.remove', 'baseConfig.currency.export', 'baseConfig.currency.import'];

  it('a user with every right sees 新增, 导出, 导入, 批量删除 and per row 编辑 and 删除', async () => {
    login(all);
    serveCurrencies();
    await mount(<ListScreen meta={meta('baseConfig/currency')} file={currencyScreen as unknown as ScreenFile} />);
    await until(() => rows().length === 2, 'rows');
    for (const b of ['新增', '导出', '导入', '批量删除']) expect(buttons(b)).toHaveLength(1);
    expect(buttons('编辑')).toHaveLength(2);
  });

  it('a user without the edit/remove/export/import rights sees none of those buttons', async () => {
    login(['baseConfig.currency']);
    serveCurrencies();
    await mount(<ListScreen meta={meta('baseConfig/currency')} file={currencyScreen as unknown as ScreenFile} />);
    await until(() => rows().length === 2, 'rows');
    for (const b of ['新增', '导出', '导入', '批量删除', '编辑', '删除']) expect(buttons(b)).toHaveLength(0);
    expect(document.querySelector('.ant-table-selection-column')).toBeNull();
    expect(headers()).not.toContain('操作');
  });

  it('`when` hides 删除 on the base currency row only', async () => {
    login(all);
    serveCurrencies();
    await mount(<ListScreen meta={meta('baseConfig/currency')} file={currencyScreen as unknown as ScreenFile} />);
    await until(() => rows().length === 2, 'rows');
    const trs = [...document.querySelectorAll('.ant-table-tbody tr.ant-table-row')];
    expect(buttons('删除', trs[0]!)).toHaveLength(0);
    expect(buttons('删除', trs[1]!)).toHaveLength(1);
  });

  it('a flag-gated action shows only while the company flag is on', async () => {
    serveOrders();
    const file = orderList({ toolbar: [{ action: 'refresh', title: '预售刷新', flag: 'presale' }] });
    login([]);
    await mount(<ListScreen meta={meta('test/orders')} file={file} />);
    await until(() => rows().length === 3, 'rows');
    expect(buttons('预售刷新')).toHaveLength(0);
    await unmount();
    login([], { presale: true });
    await mount(<ListScreen meta={meta('test/orders')} file={file} />);
    await until(() => rows().length === 3, 'rows');
    expect(buttons('预售刷新')).toHaveLength(1);
  });

  it('an action without its own permission needs the right of the endpoint it calls', async () => {
    serveOrders();
    const file = orderList({ toolbar: [{ action: 'export', title: '导出' }] });
    login([]);
    await mount(<ListScreen meta={meta('test/orders')} file={file} />);
    await until(() => rows().length === 3, 'rows');
    expect(buttons('导出')).toHaveLength(0);
    await unmount();
    login(['baseConfig.currency.export']);
    await mount(<ListScreen meta={meta('test/orders')} file={file} />);
    await until(() => rows().length === 3, 'rows');
    expect(buttons('导出')).toHaveLength(1);
  });

  it('删除 asks first, then calls remove with the row id, toasts and reloads', async () => {
    login(all);
    serveCurrencies();
    await mount(<ListScreen meta={meta('baseConfig/currency')} file={currencyScreen as unknown as ScreenFile} />);
    await until(() => rows().length === 2, 'rows');
    const tr = document.querySelectorAll('.ant-table-tbody tr.ant-table-row')[1]!;
    await click(button('删除', tr));
    expect(text()).toContain('确定删除币种“美元”？');
    expect(server.bodies('012104')).toHaveLength(0);
    await click(buttons('确定').at(-1));
    await until(() => server.bodies('012104').length === 1, 'remove call');
    expect(server.last('012104')).toEqual({ id: 2 });
    await until(() => server.bodies('012101').length === 2, 'reload');
    expect(toasts('success')).toContain('已删除');
  });

  it('bulk 批量删除 sends the selected ids', async () => {
    login(all);
    serveCurrencies();
    await mount(<ListScreen meta={meta('baseConfig/currency')} file={currencyScreen as unknown as ScreenFile} />);
    await until(() => rows().length === 2, 'rows');
    expect(button('批量删除').disabled).toBe(true);
    const boxes = () => [...document.querySelectorAll('.ant-table-tbody tr.ant-table-row .ant-checkbox-input')] as HTMLInputElement[];
    await click(boxes()[0]);
    await click(boxes()[1]);
    expect(text()).toContain('已选 2 项');
    await click(button('批量删除'));
    expect(text()).toContain('确定删除选中的 2 个币种？');
    await click(buttons('确定').at(-1));
    await until(() => server.bodies('012104').length === 1, 'bulk call');
    expect(server.last('012104')).toEqual({ ids: [1, 2] });
    expect(toasts('success')).toContain('已删除 2 个币种');
  });

  it('导出 downloads through the file code with the conditions now applied (no paging)', async () => {
    login(all);
    serveCurrencies();
    await mount(<ListScreen meta={meta('baseConfig/currency')} file={currencyScreen as unknown as ScreenFile} />);
    await until(() => rows().length === 2, 'rows');
    const kw = document.querySelector('.renderer-filter-bar input') as HTMLInputElement;
    await type(kw, '美');
    await click(button('查询'));
    await until(() => server.bodies('012101').length === 2, 'search');
    await click(button('导出'));
    await until(() => server.bodies('012105').length === 1, 'export');
    expect(server.last('012105')).toEqual({ keyword: '美', sort: { field: 'code', order: 'ascend' } });
  });
});

describe('list: large pages', () => {
  it('a page of 1,000 rows draws virtual rows (only what is on screen is in the DOM)', async () => {
    login([]);
    const many = Array.from({ length: 1000 }, (_, i) => ({ ...orders[0], id: i + 1, no: `PO-${i + 1}` }));
    serveOrders(many, 1000);
    await mount(<ListScreen meta={meta('test/orders')} file={orderList({ pageSize: 1000 })} />);
    await until(() => !!document.querySelector('.ant-table'), 'table');
    await settle();
    expect(document.querySelector('.ant-table-wrapper')?.className + (document.querySelector('.ant-table')?.className ?? '')).toMatch(/virtual/);
    expect(document.querySelectorAll('.ant-table-tbody-virtual .ant-table-row, .ant-table-row').length).toBeLessThan(200);
    await act(async () => undefined);
  });
});
