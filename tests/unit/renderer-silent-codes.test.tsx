// @vitest-environment jsdom
// Spec §8's silent codes are silent only in the request core: the action that made the call shows
// them. A real document screen (the receiving note) answers its 过账 with each silent code in turn and
// the clerk reads the message; a save refused about a line names the line; a refusal naming a field of
// the form lands on that field and nowhere else. No renderer module calls the request core around the
// action layer (so no new action can forget).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BUSINESS_CODES, SILENT_CODES, isSilentCode } from '../../src/core/codes';
import DocumentScreen from '../../src/client/renderer/kinds/DocumentScreen';
import { FormModal } from '../../src/client/renderer/form/FormModal';
import type { ScreenFile, ScreenRoute } from '../../src/client/router/screenTypes';
import receivingNote from '../../schemas/screens/entrepot/receivingNoteDetail.json';
import { button, buttons, click, formItem, login, mount, polyfillDom, resetAll, rows, seen, server, unmount, until } from './renderer-harness';

beforeAll(polyfillDom);
beforeEach(resetAll);
afterEach(unmount);

const meta = (file: string, route: string): ScreenRoute => ({ file, route, title: '收货单', permission: '1', menu: { group: 'entrepot', order: 1 } });

const DRAFT = {
  id: 9, docNo: 'SH-9', status: 'draft', version: 2, orderId: 5, supplierName: '甲供应商', warehouseName: '一号仓', totalQty: 7,
  // what the document engine answers for a draft (its buttons)
  editable: true, removable: false, governed: ['oms:021404', 'oms:021405', '/entrepot/putawayDetail/new?receivingNoteId={id}'],
  actions: [
    { name: 'post', label: '过账', api: 'oms:021404', confirm: '确定过账收货单“{docNo}”？过账后货物计入库存。', overlay: true },
    { name: 'cancel', label: '作废', api: 'oms:021405', confirm: '确定作废收货单“{docNo}”？已过账的收货单将冲回库存。', danger: true, overlay: true },
  ],
  lines: [
    { id: 1, orderLineId: 12, productCode: 'P-2', productName: '螺母', orderedQty: 5, countedQty: 5, damagedQty: 0, qty: 5, unitSmall: '个', bigQty: 1, midQty: 1 },
    { id: 2, orderLineId: 13, productCode: 'P-3', productName: '垫片', orderedQty: 7, countedQty: 7, damagedQty: 0, qty: 7, unitSmall: '片', bigQty: 1, midQty: 1 },
  ],
};

// Every silent code the spec names, and every PRODUCT_* code of the registry.
const silentCodes = [...new Set([...SILENT_CODES, ...Object.keys(BUSINESS_CODES).filter((c) => c.startsWith('PRODUCT_'))])];
const errorToasts = () => seen.toasts.filter(([k]) => k === 'error').map(([, t]) => t);

async function openDraftNote() {
  login(['entrepot.receivingNoteDetail', 'entrepot.receivingNote.edit', 'entrepot.receivingNote.post']);
  server.on('021406', () => ({ data: [] }));
  server.on('021402', () => ({ data: DRAFT }));
  const file = receivingNote as unknown as ScreenFile;
  await mount(<DocumentScreen meta={meta('entrepot/receivingNoteDetail', file.route)} file={file} />, { path: '/entrepot/receivingNoteDetail/9', route: '/entrepot/receivingNoteDetail/:id' });
  await until(() => rows().length === 2, 'lines');
}

describe('silent codes are shown by the action that made the call', () => {
  it('过账 refused with each silent code of spec §8 shows its message', async () => {
    expect(silentCodes.length).toBeGreaterThanOrEqual(18);
    await openDraftNote();
    for (const code of silentCodes) {
      expect(isSilentCode(code)).toBe(true);
      seen.toasts = [];
      const msg = `拒绝：${code}`;
      server.on('021404', () => ({ code, msg }));
      await click(button('过账'));
      await click(buttons('确定').at(-1));
      await until(() => errorToasts().length > 0, `message for ${code}`);
      expect(errorToasts()).toEqual([msg]);
    }
    expect(server.bodies('021404')).toHaveLength(silentCodes.length);
    // One confirm dialog per code (about 30): ~15 s on a quiet machine, past a minute on a loaded one.
  }, 240_000);

  it('a silent refusal without a message shows the registry text; one about a line names the line and product', async () => {
    await openDraftNote();
    server.on('021404', () => ({ code: 'PRODUCT_LOCK_4006', msg: '' }));
    await click(button('过账'));
    await click(buttons('确定').at(-1));
    await until(() => errorToasts().length > 0, 'registry text');
    expect(errorToasts()).toEqual(['商品已锁定，不能操作']);

    seen.toasts = [];
    server.on('021403', () => ({ code: 'PRODUCT_LOCK_4006', msg: '商品已锁定，不能操作', data: { line: 2, productId: 103, productCode: 'P-3' } }));
    await click(button('保存'));
    await until(() => errorToasts().length > 0, 'line message');
    expect(errorToasts()).toEqual(['第 2 行（商品 P-3）：商品已锁定，不能操作']);
  });

  it('a silent refusal naming a field of the form is shown at that field, not as a message', async () => {
    login(['1']);
    server.on('010203', () => ({ code: 'PRODUCT_BOX_SPEC_4004', msg: '箱规格式错误，应为“中包装数/大包装数”', data: { field: 'boxSpec' } }));
    const part = { api: { save: 'cdm:010203' }, fields: [{ field: 'boxSpec', title: '箱规', widget: 'input' }] } as never;
    await mount(<FormModal part={part} path="form" title="商品" onClose={() => undefined} onSaved={() => undefined} />);
    await click(buttons('确定').at(-1) ?? button('保存'));
    await until(() => server.bodies('010203').length === 1, 'save');
    await until(() => (formItem('箱规').textContent ?? '').includes('箱规格式错误'), 'field error');
    expect(errorToasts()).toEqual([]);
  });

  it('no renderer module calls the request core around the action layer', () => {
    const root = join(__dirname, '../../src/client/renderer');
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const n of readdirSync(dir)) {
        const p = join(dir, n);
        if (statSync(p).isDirectory()) walk(p);
        else if (/\.tsx?$/.test(n)) files.push(p);
      }
    };
    walk(root);
    const bypass = files.filter((f) => !f.endsWith(join('actions', 'actionCall.ts')) && /\bcallApiRef\b|\bcallApi\b|\bapi\.(cdm|oms|auth|storage)\(/.test(readFileSync(f, 'utf8')));
    // widgets/apiCall.tsx is the API console's 发送 (接口调试): it shows the whole envelope it got — a silent code
    // included — so nothing is left unseen; kinds/DashboardScreen.tsx is the unattended wall's refresh: every
    // answer but OK (a silent code included) shows as its 数据更新失败 mark, quietly, with no one to close a toast
    expect(bypass.map((f) => f.slice(root.length + 1))).toEqual(['data/columnConfigStore.ts', 'data/options.ts', 'kinds/DashboardScreen.tsx', 'widgets/apiCall.tsx']);
  });
});
