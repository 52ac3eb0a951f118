// @vitest-environment jsdom
// A document on the engine carries the actions its caller may take now (`actions` in its `get`), and the
// document kind draws exactly those: the purchase order screen no longer says when 确认 or 作废 apply.
// A transition sends {id, version} to the code the server named; 删除 goes to the screen's afterRemove.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import DocumentScreen from '../../src/client/renderer/kinds/DocumentScreen';
import type { ScreenFile, ScreenRoute } from '../../src/client/router/screenTypes';
import purchaseOrder from '../../schemas/screens/procurement/purchaseOrder-byId.json';
import { button, buttons, click, login, mount, polyfillDom, resetAll, rows, server, settle, until, unmount } from './renderer-harness';

beforeAll(polyfillDom);
beforeEach(resetAll);
afterEach(unmount);

const meta = (file: string, route: string): ScreenRoute => ({ file, route, title: '测试', permission: '1', menu: { group: 'procurement', order: 1 } });

const order = (status: string, actions: unknown[], editable: boolean) => ({
  data: {
    id: 4, docNo: 'CG202611260001', status, version: 3, editable, supplierId: 3, supplierName: '甲供应商', warehouseId: 1, warehouseName: '一号仓',
    currencyId: 1, totalAmount: '12.00', actions,
    lines: [{ id: 1, lineNo: 1, productId: 101, productCode: 'P-1', productName: '螺丝', qty: 12, price: '1.0000', amount: '12.00', receivedQty: 0, openQty: 12, unitSmall: '个', bigQty: 1, midQty: 1 }],
  },
});

function options() {
  server.on('011611', () => ({ data: [{ id: 3, label: '甲供应商' }] }));
  server.on('011006', () => ({ data: [{ id: 1, label: '一号仓' }] }));
  server.on('012108', () => ({ data: [] }));
  server.on('014208', () => ({ data: [] }));
}

async function open() {
  const file = purchaseOrder as unknown as ScreenFile;
  await mount(<DocumentScreen meta={meta('procurement/purchaseOrder-byId', file.route)} file={file} />, { path: '/procurement/purchaseOrder/4', route: '/procurement/purchaseOrder/:id' });
  await until(() => rows().length === 1, 'lines');
}

describe('document kind: the actions the server answers', () => {
  it('draws the server’s transitions and follow-ups, not the screen’s guesses, and calls the code it named', async () => {
    login(['procurement.purchaseOrder', 'procurement.purchaseOrder.edit', 'procurement.purchaseOrder.confirm', 'procurement.purchaseOrder.cancel']);
    options();
    server.on('020202', () => order('confirmed', [
      { name: 'cancel', label: '作废', api: 'oms:020206', confirm: '确定作废采购订单“{docNo}”？', danger: true },
      { name: 'followUp:收货', label: '收货', to: '/entrepot/receivingNoteDetail/new?orderId={id}' },
    ], false));
    server.on('020206', () => ({ data: { id: 4, status: 'cancelled', version: 4 } }));
    await open();
    expect(buttons('作废')).toHaveLength(1);
    expect(buttons('收货')).toHaveLength(1);
    expect(buttons('确认')).toHaveLength(0);
    expect(buttons('关闭')).toHaveLength(0);
    expect(buttons('删除')).toHaveLength(0);
    // the server said the confirmed order is not editable: no save
    expect(buttons('保存')).toHaveLength(0);
    await click(button('作废'));
    await settle();
    const ok = [...document.querySelectorAll('.ant-popover button, .ant-modal button')].find((b) => /确\s*定|是|OK/.test(b.textContent ?? '')) as HTMLButtonElement | undefined;
    expect(ok, 'a confirmation with the document number').toBeTruthy();
    expect(document.body.textContent).toContain('确定作废采购订单“CG202611260001”？');
    await click(ok);
    await until(() => server.bodies('020206').length === 1, 'the cancel call');
    expect(server.last('020206')).toEqual({ id: 4, version: 3 });
  });

  it('a draft the server lets the caller change shows 保存 and its own actions only', async () => {
    login(['procurement.purchaseOrder', 'procurement.purchaseOrder.edit', 'procurement.purchaseOrder.confirm']);
    options();
    server.on('020202', () => order('draft', [{ name: 'confirm', label: '确认', api: 'oms:020205', confirm: '确定确认采购订单“{docNo}”？' }], true));
    await open();
    expect(buttons('保存')).toHaveLength(1);
    expect(buttons('确认')).toHaveLength(1);
    expect(buttons('作废')).toHaveLength(0);
    expect(buttons('再次采购')).toHaveLength(1); // the screen's own action stays
  });
});

describe('mergeActions: the server decides which, the screen how', () => {
  it('draws an offered action as the screen words it, hides what the server governs but does not offer, keeps the rest', async () => {
    const { mergeActions, serverActionSchemas } = await import('../../src/client/renderer/document/serverActions');
    const own = [
      { action: 'call', title: '确认', api: 'oms:021204', success: '已确认，入库任务已生成', when: { status: 'draft' } },
      { action: 'call', title: '作废', api: 'oms:021205', danger: true, when: { status: ['draft', 'confirmed'] } },
      { action: 'link', title: '单据关联', to: '/docRelate?docNo={docNo}' },
    ];
    const server = serverActionSchemas([{ name: 'confirm', label: '确认', api: 'oms:021204' }]);
    const merged = mergeActions(server, own, ['oms:021204', 'oms:021205']);
    expect(merged.map((a) => [a.title, a.success ?? null, 'when' in a])).toEqual([['确认', '已确认，入库任务已生成', false], ['单据关联', null, false]]);
  });

  it('a form action stands for the call its form saves with (a transition that asks for a reason)', async () => {
    const { mergeActions, serverActionSchemas } = await import('../../src/client/renderer/document/serverActions');
    const own = [{ action: 'form', title: '关闭', form: 'close', load: false }];
    const forms = { close: { api: { save: 'oms:021304' }, fields: [] } } as never;
    const offered = mergeActions(serverActionSchemas([{ name: 'close', label: '关闭', api: 'oms:021304' }]), own, ['oms:021304'], forms);
    expect(offered.map((a) => [a.action, a.title])).toEqual([['form', '关闭']]);
    expect(mergeActions([], own, ['oms:021304'], forms)).toEqual([]);
  });
});

describe('list rows of documents on the engine', () => {
  it('show a governed row action only while the row offers it; other actions follow their when', async () => {
    const { offeredOnRow } = await import('../../src/client/renderer/document/serverActions');
    const confirm = { action: 'call', title: '确认', api: 'oms:020205' };
    const copy = { action: 'call', title: '再次采购', api: 'oms:020208' };
    const draft = { id: 1, status: 'draft', actions: [{ name: 'confirm', label: '确认', api: 'oms:020205' }], governed: ['oms:020205', 'oms:020206'] };
    const confirmed = { id: 2, status: 'confirmed', actions: [{ name: 'cancel', label: '作废', api: 'oms:020206' }], governed: ['oms:020205', 'oms:020206'] };
    expect(offeredOnRow(confirm, draft)).toBe(true);
    expect(offeredOnRow(confirm, confirmed)).toBe(false);
    expect(offeredOnRow(copy, confirmed)).toBeUndefined();
    expect(offeredOnRow(confirm, { id: 3, status: 'draft' })).toBeUndefined(); // not from the engine: `when` decides
  });
});
