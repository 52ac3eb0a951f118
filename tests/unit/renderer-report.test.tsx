// @vitest-environment jsdom
// The report kind against a fake server, drawn from the real purchase report screen file: the grouping
// choice (its label columns, its value sent with every call, the search kept and the order reset when it
// changes), both totals rows (本页合计 from the page, 全部合计 from the server), the chart of the rows
// shown, export now or in the export centre; and the export centre screen's own download.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import ReportScreen, { reportListPart, reportProblems } from '../../src/client/renderer/kinds/ReportScreen';
import ListScreen from '../../src/client/renderer/kinds/ListScreen';
import { EXPORT_CENTRE_TEXT, runsInBackground } from '../../src/client/renderer/actions/export';
import { allTotalText } from '../../src/client/renderer/list/TotalsRow';
import type { RenderEnv } from '../../src/client/renderer/env';
import type { ReportScreenPart } from '../../src/client/renderer/types';
import type { ScreenFile, ScreenRoute } from '../../src/client/router/screenTypes';
import purchaseScreen from '../../schemas/screens/reportForms/purchase_new.json';
import downloadScreen from '../../schemas/screens/reportForms/download.json';
import financeScreen from '../../schemas/screens/reportForms/finance.json';
import { chartsDrawn, recordCharts } from './chart-recorder';
import { button, buttons, click, headers, login, mount, polyfillDom, resetAll, rows, server, text, toasts, type, unmount, until } from './renderer-harness';

beforeAll(() => {
  polyfillDom();
  recordCharts();
});
beforeEach(resetAll);
afterEach(unmount);

const meta = (file: string): ScreenRoute => ({ file, route: '/test', title: '测试', permission: '1', menu: { group: 'reportForms', order: 1 } });
const purchase = () => purchaseScreen as unknown as ScreenFile;

const bySupplier = {
  list: [
    { key: '3', supplierId: 3, supplierCode: 'S03', supplierName: '甲厂', label: '甲厂', orderedQty: 13, orderedAmount: '0.10', receivedQty: 13, receivedAmount: '12.37', invoicedQty: 7, invoicedAmount: '8.64' },
    { key: '4', supplierId: 4, supplierCode: 'S04', supplierName: '乙厂', label: '乙厂', orderedQty: 6, orderedAmount: '0.20', receivedQty: 4, receivedAmount: '71.23', invoicedQty: 0, invoicedAmount: '0.00' },
  ],
  total: 57,
  totals: { orderedQty: 1234567, orderedAmount: '98765432.10', receivedQty: 17, receivedAmount: '83.60', invoicedQty: 7, invoicedAmount: '8.64' },
};
const byMonth = {
  list: [
    { key: '2026-03', month: '2026-03', label: '2026-03', orderedQty: 13, orderedAmount: '12.37', receivedQty: 13, receivedAmount: '12.37', invoicedQty: 7, invoicedAmount: '8.64' },
    { key: '2026-04', month: '2026-04', label: '2026-04', orderedQty: 6, orderedAmount: '76.00', receivedQty: 4, receivedAmount: '71.23', invoicedQty: 0, invoicedAmount: '0.00' },
  ],
  total: 2,
  totals: { orderedQty: 19, orderedAmount: '88.37', receivedQty: 17, receivedAmount: '83.60', invoicedQty: 7, invoicedAmount: '8.64' },
};

function serveReport() {
  server.on('019601', (body) => ({ data: body.groupBy === 'month' ? byMonth : bySupplier }));
}

/** The summary rows under the table, as cell texts. */
function summaryRows(): string[][] {
  return [...document.querySelectorAll('.ant-table-summary tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').replace(/\s+/g, '')));
}

async function choose(label: string) {
  const option = [...document.querySelectorAll('.renderer-report-groupings label')].find((l) => l.textContent === label);
  if (!option) throw new Error(`找不到汇总方式：${label}`);
  await click(option.querySelector('input'));
}

describe('report kind', () => {
  it('draws the first grouping: its label columns, the measures, 本页合计 and the server’s 全部合计; the call asks for totals and sends the grouping', async () => {
    login([]);
    serveReport();
    await mount(<ReportScreen meta={meta('reportForms/purchase_new')} file={purchase()} />);
    await until(() => rows().length === 2, 'rows');
    expect(headers()).toEqual(['供应商编码', '供应商', '订购数量', '订购金额', '收货数量', '收货金额', '开票数量', '开票金额']);
    expect(rows()[0]).toEqual(['S03', '甲厂', '13', '0.10', '13', '12.37', '7', '8.64']);
    expect(server.bodies('019601')).toEqual([{ groupBy: 'supplier', page: 1, pageSize: 50, withTotals: true }]);
    // 0.10 + 0.20 on the page is 0.30 exactly; the server's totals are shown as they came
    expect(summaryRows()).toEqual([
      ['本页合计', '', '19', '0.30', '17', '83.60', '7', '8.64'],
      ['全部合计', '', '1,234,567', '98,765,432.10', '17', '83.60', '7', '8.64'],
    ]);
    expect(text()).toContain('共 57 条');
    // the chart: bars (the schema names no part for suppliers), a series per measure over the groups shown
    expect(chartsDrawn()).toEqual([
      {
        type: 'bar',
        data: {
          labels: ['甲厂', '乙厂'],
          series: [
            { name: '订购金额', values: [0.1, 0.2] },
            { name: '收货金额', values: [12.37, 71.23] },
            { name: '开票金额', values: [8.64, 0] },
          ],
        },
        height: 260,
      },
    ]);
  });

  it('财务报表 says what its columns count: 收款 / 付款 are the 收付款单 alone, the refunds apart (issue 33 §5)', async () => {
    login([]);
    server.on('023127', () => ({ data: { list: [{ key: '2026-11-27', day: '2026-11-27', label: '2026-11-27', receiptCount: 0, receiptAmount: '0.00', paymentCount: 0, paymentAmount: '0.00', refundInAmount: '0.00', refundOutAmount: '100.00', netAmount: '-100.00' }], total: 1, totals: {} } }));
    await mount(<ReportScreen meta={meta('reportForms/finance')} file={financeScreen as unknown as ScreenFile} />);
    await until(() => rows().length === 1, 'rows');
    expect(headers()).toEqual(expect.arrayContaining(['收款金额', '付款金额', '供应商退款（收）', '退客户款（付）', '净收款']));
    const notes = [...document.querySelectorAll('.renderer-column-note')].map((n) => n.getAttribute('aria-label'));
    expect(notes).toEqual(expect.arrayContaining(['已过账付款单（与收付款单列表一致）', '已过账退款单：退还客户的预收款', '收款 + 供应商退款 − 付款 − 退客户款']));
    expect(rows()[0]).toEqual(expect.arrayContaining(['0.00', '100.00', '-100.00']));
  });

  it('another grouping: its columns, its value sent, the typed search kept, the old order dropped; months as a line', async () => {
    login([]);
    serveReport();
    const file = { ...purchase(), keyword: true } as ScreenFile;
    await mount(<ReportScreen meta={meta('reportForms/purchase_new')} file={file} />);
    await until(() => rows().length === 2, 'rows');
    await type(document.querySelector('.renderer-filter-bar input') as HTMLInputElement, '五金');
    await click(button('查询'));
    await until(() => server.bodies('019601').length === 2, 'search');
    const th = [...document.querySelectorAll('.ant-table-thead th')].find((t) => t.textContent === '供应商编码')!;
    await click(th.querySelector('.ant-table-column-sorters') ?? th);
    await until(() => server.bodies('019601').length === 3, 'sorted');
    expect(server.last('019601').sort).toEqual({ field: 'supplierCode', order: 'ascend' });

    await choose('按月份');
    await until(() => headers()[0] === '月份', 'month columns');
    expect(server.last('019601')).toEqual({ groupBy: 'month', page: 1, pageSize: 50, keyword: '五金', withTotals: true });
    expect(server.bodies('019601').every((b) => !(b.groupBy === 'month' && b.sort))).toBe(true);
    expect(headers()).toEqual(['月份', '订购数量', '订购金额', '收货数量', '收货金额', '开票数量', '开票金额']);
    expect((document.querySelector('.renderer-filter-bar input') as HTMLInputElement).value).toBe('五金');
    expect(summaryRows()[1]).toEqual(['全部合计', '19', '88.37', '17', '83.60', '7', '8.64']);
    // months: the part the schema names for them (types.month = line), over the month rows
    await until(() => chartsDrawn()[0]?.type === 'line', 'line chart');
    expect(chartsDrawn()).toMatchObject([{ type: 'line', data: { labels: ['2026-03', '2026-04'], series: [{ name: '订购金额', values: [12.37, 76] }, {}, {}] } }]);
  });

  it('导出 downloads now with the grouping and conditions; 后台导出 starts an export-centre job and says where to find it', async () => {
    login(['reportForms.purchase_new.export']);
    serveReport();
    server.on('019901', () => ({ data: { id: 9, status: 'queued' } }));
    await mount(<ReportScreen meta={meta('reportForms/purchase_new')} file={purchase()} />);
    await until(() => rows().length === 2, 'rows');
    await click(button('导出'));
    await until(() => server.bodies('019602').length === 1, 'export');
    expect(server.last('019602')).toEqual({ groupBy: 'supplier' });
    expect(server.bodies('019901')).toHaveLength(0);
    await click(button('后台导出'));
    await until(() => server.bodies('019901').length === 1, 'job');
    expect(server.last('019901')).toEqual({ api: 'cdm:019602', body: { groupBy: 'supplier' } });
    expect(toasts('success')).toContain(EXPORT_CENTRE_TEXT);
  });

  it('a user without the export right sees no export buttons', async () => {
    login([]);
    serveReport();
    await mount(<ReportScreen meta={meta('reportForms/purchase_new')} file={purchase()} />);
    await until(() => rows().length === 2, 'rows');
    expect(buttons('导出')).toHaveLength(0);
    expect(buttons('后台导出')).toHaveLength(0);
  });

  it('schema mistakes of the report are an error box with their paths', async () => {
    login([]);
    serveReport();
    const bad = { ...purchase(), groupings: [], chart: { series: [{ field: 'nope', name: 'x' }] } } as unknown as ScreenFile;
    await mount(<ReportScreen meta={meta('reportForms/purchase_new')} file={bad} />);
    await until(() => !!document.querySelector('[role="alert"]'), 'error box');
    expect(text()).toContain('groupings: 报表至少需要一种汇总方式');
    expect(text()).toContain('chart.series[0].field: 图表字段 "nope" 不是报表的列');
  });
});

describe('report pieces', () => {
  const report = purchaseScreen as unknown as ReportScreenPart;

  it('a grouping’s list: its label columns first, 全部合计 on by default, the grouping’s own order', () => {
    const part = reportListPart({ ...report, totals: { fields: ['orderedQty'] } }, { ...report.groupings[2]!, defaultSort: { field: 'month', order: 'descend' } });
    expect(part.columns.map((c) => c.field)).toEqual(['month', 'orderedQty', 'orderedAmount', 'receivedQty', 'receivedAmount', 'invoicedQty', 'invoicedAmount']);
    expect(part.totals).toEqual({ all: true, fields: ['orderedQty'] });
    expect(part.defaultSort).toEqual({ field: 'month', order: 'descend' });
    expect('groupings' in part || 'chart' in part).toBe(false);
    expect(reportProblems(report)).toEqual([]);
    expect(reportProblems({ ...report, defaultGrouping: 'week' })).toEqual([{ path: 'defaultGrouping', message: '汇总方式 "week" 不存在' }]);
  });

  it('background exports: always, or above the row count', () => {
    expect(runsInBackground(true, 1)).toBe(true);
    expect(runsInBackground(5000, 5000)).toBe(false);
    expect(runsInBackground(5000, 5001)).toBe(true);
    expect(runsInBackground(undefined, 10 ** 9)).toBe(false);
  });

  it('a 全部合计 money column with a currency per row shows only while the conditions hold one currency', () => {
    const env = { currencies: { '2': { currencyCharacter: '$' } } } as unknown as RenderEnv;
    const col = { field: 'amount', title: '金额', type: 'money', currencyField: 'currencyId' };
    expect(allTotalText(col, { amount: '1234.5' }, env, {})).toBe('-');
    expect(allTotalText(col, { amount: '1234.5' }, env, { currencyId: 2 })).toBe('$1,234.50');
    expect(allTotalText(col, { amount: '1234.5' }, env, { currencyId: [2] })).toBe('$1,234.50');
    expect(allTotalText(col, { amount: '1' }, env, { currencyId: [1, 2] })).toBe('-');
    expect(allTotalText({ field: 'qty', title: '数量', type: 'number' }, { qty: 9007199254740993 }, env)).toBe('9,007,199,254,740,992');
    expect(allTotalText({ field: 'qty', title: '数量', type: 'number' }, { qty: '9007199254740993' }, env)).toBe('9,007,199,254,740,993');
    expect(allTotalText({ field: 'qty', title: '数量', type: 'number' }, {}, env)).toBe('-');
    expect(allTotalText({ field: 'qty', title: '数量', type: 'number' }, null, env)).toBe('');
  });
});

describe('export centre screen', () => {
  it('lists the jobs; 下载 only for finished ones, sending the job id to the download code', async () => {
    login([]);
    server.on('019902', () => ({
      data: {
        list: [
          { id: 12, name: '导出部门', status: 'done', rowCount: 2, fileSizeText: '6.1 KB', fileName: '部门_20260601.xlsx', error: null, createdAt: '2026-06-01T01:00:00Z', finishedAt: '2026-06-01T01:00:02Z' },
          { id: 11, name: '导出采购报表', status: 'failed', rowCount: null, fileSizeText: null, fileName: null, error: '不能按“secret”筛选', createdAt: '2026-06-01T00:00:00Z', finishedAt: null },
          { id: 10, name: '导出商品', status: 'running', rowCount: null, fileSizeText: null, fileName: null, error: null, createdAt: '2026-06-01T00:00:00Z', finishedAt: null },
        ],
        total: 3,
      },
    }));
    await mount(<ListScreen meta={meta('reportForms/download')} file={downloadScreen as unknown as ScreenFile} />);
    await until(() => rows().length === 3, 'rows');
    expect(rows().map((r) => r.slice(0, 5))).toEqual([
      ['12', '导出部门', '已完成', '2', '6.1KB'],
      ['11', '导出采购报表', '失败', '-', '-'],
      ['10', '导出商品', '导出中', '-', '-'],
    ]);
    const trs = document.querySelectorAll('.ant-table-tbody tr.ant-table-row');
    expect(buttons('下载', trs[1]!)).toHaveLength(0);
    expect(buttons('下载', trs[2]!)).toHaveLength(0);
    expect(buttons('删除', trs[1]!)).toHaveLength(1);
    expect(buttons('删除', trs[2]!)).toHaveLength(0);
    await click(button('下载', trs[0]!));
    await until(() => server.bodies('019903').length === 1, 'download');
    expect(server.last('019903')).toEqual({ id: 12 });
  });
});
