// @vitest-environment jsdom
// The inbound task page on its real schema: a task still receiving offers 关闭, which asks for the
// reason in a form and sends {id, version, reason} to oms 021304; a closed task shows why and by whom,
// and offers neither 收货 nor 关闭. The buttons are the ones the server's answer offers (the document
// engine's `actions`); the screen's 关闭 form stands for the close call the server governs.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import DocumentScreen from '../../src/client/renderer/kinds/DocumentScreen';
import type { ScreenFile, ScreenRoute } from '../../src/client/router/screenTypes';
import inboundTask from '../../schemas/screens/entrepot/inboundTaskDetail.json';
import { buttons, click, inputOf, login, mount, polyfillDom, resetAll, rows, server, text, toasts, type, unmount, until } from './renderer-harness';

beforeAll(polyfillDom);
beforeEach(resetAll);
afterEach(unmount);

const file = inboundTask as unknown as ScreenFile;
const meta: ScreenRoute = { file: 'entrepot/inboundTaskDetail', route: file.route, title: '入库任务详情', permission: '1', menu: { group: 'entrepot', order: 1 } };
const RIGHTS = ['entrepot.inboundTaskDetail', 'entrepot.inboundTask.close', 'entrepot.inboundTask.cancel', 'entrepot.receivingNote.edit'];

const RECEIVE = '/entrepot/receivingNoteDetail/new?orderId={orderId}&taskId={id}';
// what the engine answers for a task the caller may close, cancel (open only) and receive against
const GOVERNED = ['oms:021303', 'oms:021304', RECEIVE];
const OFFERED = [
  { name: 'close', label: '关闭', api: 'oms:021304' },
  { name: 'followUp:收货', label: '收货', to: RECEIVE },
];

const task = (extra: Record<string, unknown>) => ({
  editable: false, removable: false, actions: OFFERED, governed: GOVERNED,
  id: 7, docNo: 'RT202611210001', status: 'receiving', version: 3, planDocNo: 'RP202611210001', orderId: 5, orderDocNo: 'CG-5', supplierName: '甲供应商',
  warehouseName: '一号仓', totalQty: 78, receivedQty: 20, openQty: 58, releasedQty: 0, closeReason: null, closedByName: null, closedAt: null,
  lines: [{ id: 1, productCode: 'P-1', productName: '螺丝', qty: 48, units: { text: '2箱' }, receivedQty: 20, openQty: 28, openUnits: { text: '1箱4个' }, releasedQty: 0 }],
  receivingNotes: [],
  ...extra,
});

async function open() {
  await mount(<DocumentScreen meta={meta} file={file} />, { path: '/entrepot/inboundTaskDetail/7', route: file.route });
  await until(() => rows().length === 1, 'task lines');
}

describe('inbound task: closing a short delivery', () => {
  it('asks for the reason and sends it with the id and version', async () => {
    login(RIGHTS);
    server.on('021302', () => ({ data: task({}) }));
    server.on('021304', () => ({ data: { id: 7, docNo: 'RT202611210001', status: 'closed', version: 4, releasedQty: 58 } }));
    await open();
    expect(buttons('收货')).toHaveLength(1);
    await click(buttons('关闭')[0]);
    await until(() => text().includes('关闭入库任务'), 'the close form');
    expect(inputOf('未收数量').value).toBe('58');
    // the reason is required before anything is sent
    await click(buttons('关闭').at(-1));
    await until(() => text().includes('关闭原因'), 'validation');
    expect(server.bodies('021304')).toHaveLength(0);
    await type(inputOf('关闭原因') as unknown as HTMLTextAreaElement, '供应商短交');
    await click(buttons('关闭').at(-1));
    await until(() => server.bodies('021304').length === 1, 'close call');
    expect(server.last('021304')).toMatchObject({ id: 7, version: 3, reason: '供应商短交' });
    await until(() => toasts().some((t) => t.includes('已关闭入库任务 RT202611210001，释放未收数量 58')), 'success toast');
  });

  it('a closed task says why and by whom, and offers neither 收货 nor 关闭', async () => {
    login(RIGHTS);
    server.on('021302', () => ({ data: task({ status: 'closed', actions: [], version: 4, openQty: 0, releasedQty: 58, closeReason: '供应商短交', closedByName: 'admin', closedAt: '2026-11-21T08:00:00.000Z' }) }));
    await open();
    expect(text()).toContain('已关闭');
    expect(inputOf('关闭原因').value).toBe('供应商短交');
    expect(inputOf('关闭人').value).toBe('admin');
    expect(buttons('收货')).toHaveLength(0);
    expect(buttons('关闭')).toHaveLength(0);
    expect(buttons('作废')).toHaveLength(0);
  });
});
