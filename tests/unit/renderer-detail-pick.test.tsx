// @vitest-environment jsdom
// A detail screen whose record is chosen on the screen (`pick`), the `lookup` widget searching the
// server as the clerk types or scans, and the `table` section drawing arrays the record carries — as the
// price query (/price, schemas/screens/common/price.json) uses them.
import { act } from 'react';
import { useLocation } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import DetailScreen from '../../src/client/renderer/kinds/DetailScreen';
import type { ScreenFile, ScreenRoute } from '../../src/client/router/screenTypes';
import priceScreen from '../../schemas/screens/common/price.json';
import { login, mount, polyfillDom, resetAll, rows, server, settle, text, unmount, until } from './renderer-harness';

beforeAll(polyfillDom);
beforeEach(resetAll);
afterEach(unmount);

const meta: ScreenRoute = { file: 'common/price', route: '/price', title: '价格查询', permission: 'price', menu: { group: 'common', order: 40 } };

const SCREW = { id: 1, code: 'PQ01', barcode: '6901234500011', label: '查价十字螺丝（M4×20）' };
const SCREW2 = { id: 3, code: 'PQ011', barcode: null, label: '查价十字螺丝加长' };
const NUT = { id: 2, code: 'PQ02', barcode: null, label: '查价六角螺母' };

function search(body: { keyword?: string; id?: number }) {
  if (body.id) return [SCREW, NUT, SCREW2].filter((p) => p.id === body.id);
  const k = body.keyword ?? '';
  // A LIKE search: partial matches in code order, the exact one not necessarily first.
  return [SCREW, SCREW2, NUT].filter((p) => p.code.includes(k) || p.label.includes(k) || p.barcode === k);
}

const record = (id: number) => ({
  id, code: id === 1 ? 'PQ01' : 'PQ02', barcode: id === 1 ? '6901234500011' : null, name: id === 1 ? '查价十字螺丝' : '查价六角螺母',
  specification: 'M4×20', categoryName: '紧固件', brand: null, status: 'onSale', referencePrice: '1.50',
  priceLists: [
    { id: 11, kindText: '销售价', priceTitleCode: 'SP01', priceTitleName: '标准销售价', currencyName: '人民币', price: '12.50', enabled: true, updatedAt: null },
    { id: 12, kindText: '销售价', priceTitleCode: 'SP02', priceTitleName: '批发价', currencyName: '人民币', price: null, enabled: true, updatedAt: null },
  ],
  purchases: id === 1 ? [
    { id: 21, orderDate: '2026-05-12', docNo: 'PO202605120001', route: '/procurement/purchaseOrder/7', supplierName: '查价供应商', currencyName: '人民币', price: '1.0012', qty: 100, statusText: '已确认' },
  ] : [],
  sales: [],
  competitors: [],
});

/** Shows the URL's query, as the user's address bar would. */
function Where() {
  return <div id="where">{useLocation().search}</div>;
}

const where = () => document.getElementById('where')!.textContent;
const picker = () => document.querySelector('.renderer-detail-pick input') as HTMLInputElement;
const table = (i: number) => document.querySelectorAll('.renderer-record-table')[i]!;

/** Types `typed` and presses Enter in the same turn, as a barcode scanner does. */
async function scan(input: HTMLInputElement, typed: string) {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  await act(async () => {
    input.focus();
    setter.call(input, typed);
    input.dispatchEvent(new Event('input', { bubbles: true }));
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', code: 'Enter', keyCode: 13, which: 13, bubbles: true, cancelable: true }));
  });
  await settle();
}

async function open(path = '/price') {
  login(['price']);
  server.on('022502', (body) => ({ data: search(body) }));
  server.on('022501', (body) => ({ data: record(body.id) }));
  await mount(<><DetailScreen meta={meta} file={priceScreen as unknown as ScreenFile} /><Where /></>, { path });
  await until(() => !!picker(), 'picker');
}

describe('detail screen with a picker (price query)', () => {
  it('asks nothing until a product is chosen; a scanned code takes its product, puts it in the URL and draws the record', async () => {
    await open();
    expect(text()).toContain('输入或扫描商品编码、条码，或输入商品名称');
    expect(server.bodies('022501')).toEqual([]);
    expect(document.activeElement).toBe(picker()); // ready for a scanner

    // PQ01 is a part of PQ011 too: the exact code wins, not the first row.
    await scan(picker(), 'PQ01');
    await until(() => where() === '?productId=1', 'the URL names the product');
    expect(server.bodies('022502')).toContainEqual({ keyword: 'PQ01' });
    await until(() => document.querySelectorAll('.renderer-record-table').length === 4, 'tables');
    expect(server.bodies('022501')).toEqual([{ id: 1 }]);
    expect(text()).toContain('价格查询 - 查价十字螺丝');
    expect(text()).toContain('紧固件');

    // Tables from the record's arrays, each cell by its column type; an empty price says so.
    expect(rows(table(0))).toEqual([
      ['销售价', 'SP01', '标准销售价', '人民币', '12.50', '启用', '-'],
      ['销售价', 'SP02', '批发价', '人民币', '未定价', '启用', '-'],
    ]);
    expect(rows(table(1))).toEqual([['2026-05-12', 'PO202605120001', '查价供应商', '人民币', '1.0012', '100', '已确认']]);
    expect(table(1).querySelector('a')!.getAttribute('href')).toBe('/procurement/purchaseOrder/7');
    expect(table(2).textContent).toContain('没有销售记录');
    expect(table(3).textContent).toContain('没有关联的竞品');
  });

  it('a scanned text naming no product exactly (several partial matches) chooses nothing', async () => {
    await open();
    await scan(picker(), '查价');
    await settle();
    expect(where()).toBe('');
    expect(server.bodies('022501')).toEqual([]);
    // One row left by the text is taken, as a select does.
    await scan(picker(), '螺母');
    await until(() => where() === '?productId=2', 'the only match taken');
  });

  it('opened with ?productId= it loads that record and shows the product in the picker', async () => {
    await open('/price?productId=2');
    await until(() => text().includes('价格查询 - 查价六角螺母'), 'record');
    expect(server.bodies('022501')).toEqual([{ id: 2 }]);
    expect(server.bodies('022502')).toContainEqual({ id: 2 });
    await until(() => (document.querySelector('.renderer-detail-pick .ant-select-selection-item')?.textContent ?? '') === '查价六角螺母', 'picker label');
    expect(table(1).textContent).toContain('没有采购记录');
  });
});
