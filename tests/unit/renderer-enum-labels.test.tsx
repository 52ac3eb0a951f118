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
import { click, login, mount, polyfillDom, resetAll, rows, server, text, unmount, until } from './renderer-harness';

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
