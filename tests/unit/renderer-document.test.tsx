// @vitest-environment jsdom
// The document kind on the real procurement schemas: a new receiving note opened from a link
// (?orderId=) brings in the order's open lines, quantities in big/mid/small with exact totals, a save
// body without table bookkeeping; a posted note is read-only; a purchase order line picks its product
// through the lookup editor, which fills name, units and price; a table without a lookup cell (lines
// only from the source) offers no 添加行.
import { act } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import DocumentScreen from '../../src/client/renderer/kinds/DocumentScreen';
import type { ScreenFile, ScreenRoute } from '../../src/client/router/screenTypes';
import receivingNote from '../../schemas/screens/entrepot/receivingNoteDetail.json';
import purchaseOrder from '../../schemas/screens/procurement/purchaseOrder-byId.json';
import { button, buttons, click, headers, inputOf, login, mount, polyfillDom, resetAll, rows, server, settle, text, type, unmount, until } from './renderer-harness';

beforeAll(polyfillDom);
beforeEach(resetAll);
afterEach(unmount);

const meta = (file: string, route: string): ScreenRoute => ({ file, route, title: '测试', permission: '1', menu: { group: 'entrepot', order: 1 } });
const totals = () => [...document.querySelectorAll('.renderer-total')].map((e) => e.textContent);
const box = (label: string) => document.querySelector(`input[aria-label="${label}"]`) as HTMLInputElement;

const ORDER_SOURCE = {
  orderId: 5,
  orderDocNo: 'CG20261121-0001',
  supplierName: '甲供应商',
  warehouseId: 1,
  warehouseName: '一号仓',
  lines: [
    { orderLineId: 11, productId: 101, productCode: 'P-1', productName: '螺丝', unitBig: '箱', unitMid: '盒', unitSmall: '个', bigQty: 100, midQty: 10, orderedQty: 300, receivedQty: 50, openQty: 250 },
    { orderLineId: 12, productId: 102, productCode: 'P-2', productName: '螺母', unitBig: null, unitMid: null, unitSmall: '个', bigQty: 1, midQty: 1, orderedQty: 20, receivedQty: 20, openQty: 0 },
    { orderLineId: 13, productId: 103, productCode: 'P-3', productName: '垫片', unitBig: null, unitMid: null, unitSmall: '片', bigQty: 1, midQty: 1, orderedQty: 7, receivedQty: 0, openQty: 7 },
  ],
};

describe('document kind: receiving note', () => {
  it('a new note from ?orderId= brings in the open lines; big/mid/small entry; the save body is header + lines only', async () => {
    login(['entrepot.receivingNoteDetail', 'entrepot.receivingNote.edit']);
    server.on('021406', () => ({ data: [{ id: 5, label: 'CG20261121-0001 甲供应商' }] }));
    server.on('021407', () => ({ data: ORDER_SOURCE }));
    server.on('021403', () => ({ data: { id: 77, docNo: 'SH20261121-0001', status: 'draft', version: 1 } }));
    const file = receivingNote as unknown as ScreenFile;
    await mount(<DocumentScreen meta={meta('entrepot/receivingNoteDetail', file.route)} file={file} />, { path: '/entrepot/receivingNoteDetail/new?orderId=5', route: '/entrepot/receivingNoteDetail/:id' });
    await until(() => rows().length === 2, 'lines from the order');
    expect(server.last('021407')).toEqual({ orderId: 5 });
    expect(server.bodies('021402')).toHaveLength(0); // nothing to load for a new note
    expect(rows().map((r) => r[1])).toEqual(['P-1', 'P-3']); // the fully received line is left out
    expect(inputOf('供应商').value).toBe('甲供应商');
    // its lines come only from the order (no lookup cell to pick a product): editable, but no 添加行
    expect(document.querySelectorAll('.ant-table-tbody input').length).toBeGreaterThan(0);
    expect(buttons('添加行')).toHaveLength(0);
    // 250 open = 2 箱 5 盒; the second product has only its small unit.
    expect([box('实收（大包装）').value, box('实收（中包装）').value, box('实收（最小单位）').value]).toEqual(['2', '5', '']);
    expect(document.querySelectorAll('input[aria-label="实收（大包装）"]')).toHaveLength(1);
    expect(totals()[0]).toBe('257');
    await type(box('实收（最小单位）'), '3');
    expect(totals()[0]).toBe('260');
    await type(document.querySelectorAll<HTMLInputElement>('input[aria-label="破损"]')[0]!, '4');
    expect(totals()[1]).toBe('4');
    await click(button('保存'));
    await until(() => server.bodies('021403').length === 1, 'save');
    const body = server.last('021403');
    expect(body).toMatchObject({ orderId: 5, lines: [{ orderLineId: 11, countedQty: 253, big: 2, mid: 5, small: 3, damagedQty: 4 }, { orderLineId: 13, countedQty: 7 }] });
    expect(JSON.stringify(body)).not.toContain('__key');
    expect(body.id).toBeUndefined();
  });

  it('a posted note is read-only: no save, no inputs in the lines, and the actions of its state', async () => {
    login(['entrepot.receivingNoteDetail', 'entrepot.receivingNote.edit', 'entrepot.receivingNote.post', 'entrepot.receivingNote.cancel', 'entrepot.putaway.edit']);
    server.on('021406', () => ({ data: [] }));
    server.on('021402', () => ({
      data: {
        id: 9, docNo: 'SH-9', status: 'posted', version: 2, orderId: 5, supplierName: '甲供应商', warehouseName: '一号仓', totalQty: 7,
        // what the document engine answers for a posted note (its buttons)
        editable: false, removable: false, governed: ['oms:021404', 'oms:021405', '/entrepot/putawayDetail/new?receivingNoteId={id}'],
        actions: [
          { name: 'cancel', label: '作废', api: 'oms:021405', confirm: '确定作废收货单“{docNo}”？已过账的收货单将冲回库存。', danger: true },
          { name: 'followUp:上架', label: '上架', to: '/entrepot/putawayDetail/new?receivingNoteId={id}' },
        ],
        lines: [{ id: 1, orderLineId: 13, productCode: 'P-3', productName: '垫片', orderedQty: 7, countedQty: 7, damagedQty: 0, qty: 7, putawayQty: 0, unitSmall: '片', bigQty: 1, midQty: 1 }],
      },
    }));
    const file = receivingNote as unknown as ScreenFile;
    await mount(<DocumentScreen meta={meta('entrepot/receivingNoteDetail', file.route)} file={file} />, { path: '/entrepot/receivingNoteDetail/9', route: '/entrepot/receivingNoteDetail/:id' });
    await until(() => rows().length === 1, 'lines');
    expect(buttons('保存')).toHaveLength(0);
    expect(document.querySelectorAll('.ant-table-tbody input')).toHaveLength(0);
    expect(text()).toContain('已过账');
    expect(buttons('上架')).toHaveLength(1);
    expect(buttons('作废')).toHaveLength(1);
    expect(buttons('过账')).toHaveLength(0);
    expect(buttons('添加行')).toHaveLength(0);
  });
});

describe('document kind: many lines', () => {
  it('a document above 100 lines (virtual rows) still shows its totals row', async () => {
    login(['entrepot.receivingNoteDetail']);
    server.on('021406', () => ({ data: [] }));
    const lines = Array.from({ length: 150 }, (_, i) => ({ id: i + 1, orderLineId: 1000 + i, productCode: `P-${i}`, productName: '螺丝', orderedQty: 3, countedQty: i + 1, damagedQty: 0, qty: i + 1, putawayQty: 0, unitSmall: '个', bigQty: 1, midQty: 1 }));
    server.on('021402', () => ({ data: { id: 9, docNo: 'SH-9', status: 'posted', version: 2, orderId: 5, lines } }));
    const file = receivingNote as unknown as ScreenFile;
    await mount(<DocumentScreen meta={meta('entrepot/receivingNoteDetail', file.route)} file={file} />, { path: '/entrepot/receivingNoteDetail/9', route: '/entrepot/receivingNoteDetail/:id' });
    await until(() => document.querySelectorAll('.renderer-total').length > 0, 'totals row');
    // 1 + 2 + … + 150
    expect(totals()[0]).toBe('11,325');
  });
});

describe('document kind: purchase order lines', () => {
  it('the product lookup asks with the chosen supplier and fills the line: name, units, price; amount is exact', async () => {
    login(['procurement.purchaseOrder', 'procurement.purchaseOrder.edit']);
    server.on('011611', () => ({ data: [{ id: 3, label: '甲供应商' }] }));
    server.on('011006', () => ({ data: [{ id: 1, label: '一号仓' }] }));
    server.on('012108', () => ({ data: [] }));
    server.on('014208', () => ({ data: [] }));
    server.on('020210', () => ({
      data: { list: [{ id: 101, label: 'P-1 螺丝', code: 'P-1', name: '螺丝', specification: 'M6', unitBig: '箱', unitMid: null, unitSmall: '个', bigQty: 24, midQty: 1, price: '0.3333' }] },
    }));
    const file = purchaseOrder as unknown as ScreenFile;
    await mount(<DocumentScreen meta={meta('procurement/purchaseOrder-byId', file.route)} file={file} />, { path: '/procurement/purchaseOrder/new', route: '/procurement/purchaseOrder/:id' });
    await until(() => buttons('添加行').length === 1, 'an empty order');
    expect(headers()).toContain('商品');
    await click(button('添加行'));
    const search = document.querySelector('input[aria-label="商品"]') as HTMLInputElement;
    await act(async () => {
      search.focus();
      search.dispatchEvent(new FocusEvent('focus', { bubbles: true }));
      search.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
    });
    await type(search, 'P-1');
    await until(() => server.bodies('020210').some((b) => b.keyword === 'P-1'), 'product search');
    await until(() => document.querySelectorAll('.ant-select-item-option').length > 0, 'options');
    await click(document.querySelector('.ant-select-item-option'));
    await settle();
    expect(rows()[0]).toContain('M6');
    expect(document.querySelectorAll('input[aria-label="数量（中包装）"]')).toHaveLength(0); // no mid pack
    await type(box('数量（大包装）'), '3');
    await type(box('数量（最小单位）'), '1');
    // 3 箱 × 24 + 1 = 73 个 × 0.3333 = 24.3309 → 24.33
    expect(totals()).toEqual(['73', '24.33']);
    const price = [...document.querySelectorAll<HTMLInputElement>('input[aria-label="单价"]')][0]!;
    expect(price.value).toBe('0.3333');
  });
});
