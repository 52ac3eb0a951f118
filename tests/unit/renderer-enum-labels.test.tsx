// @vitest-environment jsdom
// Enumerated values are read by their labels on every screen kind: 商品详情 shows 状态 在售 (as the list
// does), and a document's 操作记录 names every action the server records (确认, 过账, 作废 …), not
// its code.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AUDIT_ACTION_LABELS } from '../../src/core/audit-actions';
import DetailScreen from '../../src/client/renderer/kinds/DetailScreen';
import DocumentScreen from '../../src/client/renderer/kinds/DocumentScreen';
import type { ScreenFile, ScreenRoute } from '../../src/client/router/screenTypes';
import goodsDetail from '../../schemas/screens/commodity/goodsDetail.json';
import receivingNote from '../../schemas/screens/entrepot/receivingNoteDetail.json';
import deliverGoodsDetail from '../../schemas/screens/entrepot/deliverGoodsDetail.json';
import orderDetail from '../../schemas/screens/market/orderDetail.json';
import { click, headers, login, mount, polyfillDom, resetAll, rows, server, text, unmount, until } from './renderer-harness';

beforeAll(polyfillDom);
beforeEach(resetAll);
afterEach(unmount);

const meta = (file: string, route: string): ScreenRoute => ({ file, route, title: '测试', permission: '1', menu: { group: 'commodity', order: 1 } });

describe('enumerated values by label', () => {
  it('商品详情 shows 状态 by its label', async () => {
    login(['commodity.goodsDetail']);
    server.on('013801', () => ({ data: { productStatus: [{ value: 'onSale', label: '在售' }, { value: 'stopped', label: '停售' }] } }));
    server.on('010202', () => ({ data: { id: 3, code: 'DM-1001', name: '螺栓', status: 'onSale', locked: false, version: 1 } }));
    const file = goodsDetail as unknown as ScreenFile;
    await mount(<DetailScreen meta={meta('commodity/goodsDetail', file.route)} file={file} />, { path: '/commodity/goodsDetail/3', route: '/commodity/goodsDetail/:id' });
    await until(() => text().includes('DM-1001'), 'record');
    await until(() => text().includes('在售'), 'status label');
    expect(text()).not.toContain('onSale');
  });

  it("a document's 操作记录 names each recorded action by its label", async () => {
    login(['entrepot.receivingNoteDetail', 'system.operationHistory']);
    server.on('021406', () => ({ data: [] }));
    server.on('021402', () => ({ data: { id: 9, docNo: 'SH-9', status: 'posted', version: 2, orderId: 5, lines: [] } }));
    const actions = Object.keys(AUDIT_ACTION_LABELS);
    const all = actions.map((action, i) => ({ id: i + 1, at: '2026-11-01T00:00:00Z', userName: 'admin', action, changes: [] }));
    server.on('019702', (b) => ({ data: { list: all.slice((b.page - 1) * b.pageSize, b.page * b.pageSize), total: all.length } }));
    const file = receivingNote as unknown as ScreenFile;
    await mount(<DocumentScreen meta={meta('entrepot/receivingNoteDetail', file.route)} file={file} />, { path: '/entrepot/receivingNoteDetail/9', route: '/entrepot/receivingNoteDetail/:id' });
    const auditRows = () => rows().filter((r) => r.includes('admin')).map((r) => r[2]);
    await until(() => auditRows().length === 10, 'audit rows, page 1');
    const shown = auditRows();
    // every page of 10 in turn (the last one holds the rest)
    for (let page = 2; (page - 1) * 10 < actions.length; page++) {
      const before = auditRows()[0];
      await click(document.querySelector('.ant-pagination-next button, li.ant-pagination-next'));
      await until(() => auditRows()[0] !== before && auditRows().length === Math.min(10, actions.length - (page - 1) * 10), `audit rows, page ${page}`);
      shown.push(...auditRows());
    }
    expect(shown).toEqual(Object.values(AUDIT_ACTION_LABELS));
    for (const code of ['confirm', 'post', 'cancel']) expect(shown).not.toContain(code);
  });
});

describe('a document state tag', () => {
  it('never shows the stored code, not even on the first paint after 发货', async () => {
    login(['entrepot.deliverGoodsList', 'entrepot.deliverGoodsDetail', 'system.operationHistory']);
    server.on('024102', () => ({ data: { id: 7, docNo: 'DN-7', status: 'posted', version: 3, taskId: 5, lines: [] } }));
    server.on('019702', () => ({ data: { list: [], total: 0 } }));
    // every tag text ever painted, however briefly
    const painted: string[] = [];
    const seen = new MutationObserver(() => document.querySelectorAll('.ant-tag').forEach((t) => painted.push(t.textContent ?? '')));
    seen.observe(document.body, { childList: true, subtree: true, characterData: true });
    const file = deliverGoodsDetail as unknown as ScreenFile;
    await mount(<DocumentScreen meta={meta('entrepot/deliverGoodsDetail', file.route)} file={file} />, { path: '/entrepot/deliverGoodsDetail/7', route: '/entrepot/deliverGoodsDetail/:id' });
    await until(() => text().includes('DN-7'), 'record');
    await until(() => painted.includes('已发货'), 'state label');
    seen.disconnect();
    expect(painted).not.toContain('posted');
  });
});

describe('every engine document: a status bar and the chain as buttons, from the engine answer (issue 30)', () => {
  const flow = [
    { value: 'draft', label: '草稿', color: 'default' },
    { value: 'posted', label: '已发货', color: 'blue' },
    { value: 'signed', label: '已签收', color: 'green' },
    { value: 'cancelled', label: '已作废', color: 'red' },
  ];
  const chain = [
    { docType: 'salesOrder', docTypeText: '销售订单', id: 1, number: 'SO-1', status: 'shipped', statusText: '已发货', route: '/market/saleOrderDetail/1', level: 0 },
    { docType: 'deliveryPlan', docTypeText: '发货计划', id: 2, number: 'DP-1', status: 'confirmed', statusText: '已确认', route: '/market/deliveryPlan/2', level: 1 },
    { docType: 'deliveryNote', docTypeText: '送货单', id: 7, number: 'DN-7', status: 'posted', statusText: '已发货', route: '/entrepot/deliverGoodsDetail/7', level: 2 },
    { docType: 'salesInvoice', docTypeText: '销售发票', id: 4, number: 'SI-4', status: 'posted', statusText: '已过账', route: '/market/invoiceDetail/4', level: 3 },
    { docType: 'salesInvoice', docTypeText: '销售发票', id: 5, number: 'SI-5', status: 'draft', statusText: '草稿', route: '/market/invoiceDetail/5', level: 3 },
  ];
  const mountNote = async (status: string) => {
    login(['entrepot.deliverGoodsList', 'entrepot.deliverGoodsDetail']);
    server.on('024102', () => ({ data: { id: 7, docNo: 'DN-7', docType: 'deliveryNote', status, version: 3, taskId: 5, lines: [], statusFlow: flow, relateApi: 'oms:024108' } }));
    server.on('024108', () => ({ data: { chain } }));
    const file = { ...(deliverGoodsDetail as unknown as ScreenFile), related: undefined } as unknown as ScreenFile;
    await mount(<DocumentScreen meta={meta('entrepot/deliverGoodsDetail', file.route)} file={file} />, { path: '/entrepot/deliverGoodsDetail/7', route: '/entrepot/deliverGoodsDetail/:id' });
    await until(() => text().includes('DN-7'), 'record');
  };
  const bar = () => [...document.querySelectorAll('.renderer-status-bar li')].map((li) => `${li.textContent}:${li.className}`);

  it('the states in order, the current one marked, the exit left out; the other documents of the chain with their counts', async () => {
    await mountNote('posted');
    expect(bar()).toEqual(['草稿:is-done', '已发货:is-current', '已签收:is-ahead']);
    expect(document.querySelector('.renderer-status-bar [aria-current="step"]')?.textContent).toBe('已发货');
    await until(() => document.querySelectorAll('.renderer-chain-buttons button').length === 3, 'chain buttons');
    expect([...document.querySelectorAll('.renderer-chain-buttons button')].map((b) => b.textContent?.replace(/\s+/g, ''))).toEqual(['销售订单1', '发货计划1', '销售发票2']);
    expect(server.bodies('024108')).toEqual([{ id: 7 }]);
  });

  it('a cancelled document shows its exit as the current state, the steps it never took as neither done nor ahead', async () => {
    await mountNote('cancelled');
    expect(bar()).toEqual(['草稿:is-off', '已发货:is-off', '已签收:is-off', '已作废:is-current is-exit']);
  });
});

describe('progress columns wait until the document has progressed (issue 30)', () => {
  const lineOf = (over: Record<string, unknown>) => ({ id: 1, lineNo: 1, productId: 3, productCode: 'DM-1001', productName: '螺栓', qty: 10, price: '2.0000', amount: '20.00', reservedQty: 10, pickedQty: 0, packedQty: 0, loadedQty: 0, shippedQty: 0, signedQty: 0, returnedQty: 0, presaleQty: 0, ...over });
  const open = async (lines: unknown[]) => {
    login(['market.list', 'market.orderDetail']);
    server.on('020902', () => ({ data: { id: 5, docNo: 'SO-5', status: 'confirmed', version: 2, clientId: 1, warehouseId: 1, lines } }));
    const file = orderDetail as unknown as ScreenFile;
    await mount(<DocumentScreen meta={meta('market/orderDetail', file.route)} file={file} />, { path: '/market/orderDetail/5', route: '/market/orderDetail/:id' });
    await until(() => text().includes('SO-5'), 'record');
    await until(() => headers().includes('单价'), 'line table');
  };

  it('a confirmed order not yet shipped shows 已预留 but no 已拣货 … 已退货 columns', async () => {
    await open([lineOf({})]);
    expect(headers()).toContain('已预留');
    for (const t of ['已拣货', '已装箱', '已装车', '已发货', '已签收', '已退货', '其中预售']) expect(headers()).not.toContain(t);
  });

  it('once one line has shipped, 已拣货 and 已发货 appear for every line; what nothing reached stays hidden', async () => {
    await open([lineOf({}), lineOf({ id: 2, lineNo: 2, pickedQty: 4, shippedQty: 4 })]);
    expect(headers()).toEqual(expect.arrayContaining(['已拣货', '已发货']));
    expect(headers()).not.toContain('已退货');
  });
});
