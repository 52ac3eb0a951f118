// @vitest-environment jsdom
// Every way into a document brings its lines, or the button is not offered: a confirmed purchase order
// planned in full offers 收货 (which brings the task's lines) but not 入库计划 (which would open empty).
// The server decides what a document offers (its `actions`: inbound-plan.test.ts holds it to the order's
// unplanned quantity); the screen draws exactly that, with the routes filled from the document.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import DocumentScreen from '../../src/client/renderer/kinds/DocumentScreen';
import type { ScreenFile, ScreenRoute } from '../../src/client/router/screenTypes';
import purchaseOrder from '../../schemas/screens/procurement/purchaseOrder-byId.json';
import { buttons, login, mount, polyfillDom, resetAll, rows, server, unmount, until } from './renderer-harness';

beforeAll(polyfillDom);
beforeEach(resetAll);
afterEach(unmount);

const meta = (file: string, route: string): ScreenRoute => ({ file, route, title: '采购订单详情', permission: '1', menu: { group: 'procurement', order: 1 } });
const order = (unplannedQty: number) => ({
  id: 4, docNo: 'CG-4', status: 'confirmed', version: 2, supplierId: 1, supplierName: '甲', warehouseId: 1, currencyId: 1, unplannedQty, editable: false,
  actions: [
    { name: 'followUp:收货', label: '收货', to: '/entrepot/receivingNoteDetail/new?orderId={id}' },
    ...(unplannedQty > 0 ? [{ name: 'followUp:入库计划', label: '入库计划', to: '/procurement/treasuryPlanOrder?orderId={id}' }] : []),
  ],
  governed: ['/entrepot/receivingNoteDetail/new?orderId={id}', '/procurement/treasuryPlanOrder?orderId={id}'],
  lines: [{ id: 1, lineNo: 1, productId: 3, productCode: 'P-1', productName: '螺丝', qty: 10, receivedQty: 0, openQty: 10, price: '1.0000', amount: '10.00', bigQty: 1, midQty: 1, unitSmall: '个' }],
});

async function open(unplannedQty: number) {
  login(['procurement.purchaseOrder', 'procurement.purchaseOrder.edit', 'entrepot.receivingNote.edit', 'procurement.treasuryPlan.edit']);
  server.on('020202', () => ({ data: order(unplannedQty) }));
  const file = purchaseOrder as unknown as ScreenFile;
  await mount(<DocumentScreen meta={meta('procurement/purchaseOrder-byId', file.route)} file={file} />, { path: '/procurement/purchaseOrder/4', route: '/procurement/purchaseOrder/:id' });
  await until(() => rows().length >= 1, 'lines');
}

describe('ways into a document', () => {
  it('a confirmed order with quantities left to plan offers 收货 and 入库计划', async () => {
    await open(10);
    expect(buttons('收货')).toHaveLength(1);
    expect(buttons('入库计划')).toHaveLength(1);
  });
  it('an order planned in full offers 收货 but not 入库计划', async () => {
    await open(0);
    expect(buttons('收货')).toHaveLength(1);
    expect(buttons('入库计划')).toHaveLength(0);
  });
});
