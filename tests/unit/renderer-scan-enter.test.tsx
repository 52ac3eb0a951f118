// @vitest-environment jsdom
// Enter at 0 ms after typing (a barcode scanner ends its code with Enter) takes the exact match of what
// was typed, and nothing when there is none — for each kind of lookup the renderer draws: the `lookup`
// line editor (a product on a purchase order line, searched on the server) and the `select` widget with
// remote options (the supplier on the order's header, options still on their way). Issue 22 item 1: at
// 0 ms the line stayed empty, at 100 ms it took the first product of the previous search, and a line
// holding KP904292 kept it when KP904293 + Enter was scanned.
import { act } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import DocumentScreen from '../../src/client/renderer/kinds/DocumentScreen';
import type { ScreenFile, ScreenRoute } from '../../src/client/router/screenTypes';
import purchaseOrder from '../../schemas/screens/procurement/purchaseOrder-byId.json';
import { button, buttons, click, formItem, login, mount, polyfillDom, resetAll, server, settle, unmount, until as untilWithin } from './renderer-harness';

beforeAll(() => {
  polyfillDom();
  // jsdom computes a style by matching every rule antd injects (seconds for each list opened, most of the
  // time of this file); nothing here reads a computed style, so the element's own style stands in.
  window.getComputedStyle = ((el: Element) => (el as HTMLElement).style) as typeof window.getComputedStyle;
});
beforeEach(resetAll);
afterEach(unmount);
const realFrames = window.requestAnimationFrame;

// These tests wait on nothing but the app's own work: no wait is a timing assumption, so on a loaded
// machine (the whole suite on 2 CPUs) they may take long rather than fail.
const SLOW_MACHINE_MS = 90_000;
const until = (check: () => boolean, what: string) => untilWithin(check, what, SLOW_MACHINE_MS);
afterEach(() => {
  window.requestAnimationFrame = realFrames; // held frames never outlive a failed test
});

const meta: ScreenRoute = { file: 'procurement/purchaseOrder-byId', route: '/procurement/purchaseOrder/:id', title: '测试', permission: '1', menu: { group: 'procurement', order: 1 } };

const product = (id: number, code: string, barcode = '') => ({ id, label: `${code} 商品${id}`, code, barcode, name: `商品${id}`, unitSmall: '个', bigQty: 1, midQty: 1, price: '1.00' });
const P457551 = product(1, 'KP457551');
const P904292 = product(2, 'KP904292', '6901234567892');
const P9042921 = product(3, 'KP9042921');
const P904293 = product(4, 'KP904293');
const P990001 = product(5, 'KP990001');

/** What the product search answers per keyword: partial matches first, as a LIKE search could. */
function productSearch(keyword: string) {
  if (keyword === 'KP904292' || keyword === '6901234567892') return [P9042921, P904292];
  if (keyword === 'KP904293') return [P904293];
  if (keyword === 'KP99') return [P990001];
  return [P457551, P904292, P9042921, P904293, P990001];
}

/** Types `text` and presses Enter in the same turn: no time for a debounced search to run. */
async function scan(input: HTMLInputElement, text: string) {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  await act(async () => {
    setter.call(input, text);
    input.dispatchEvent(new Event('input', { bubbles: true }));
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', code: 'Enter', keyCode: 13, which: 13, bubbles: true, cancelable: true }));
  });
}

async function focusSelect(input: HTMLInputElement) {
  await act(async () => {
    input.focus();
    input.dispatchEvent(new FocusEvent('focus', { bubbles: true }));
    input.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
  });
}

/**
 * Holds the animation frames asked from now on (a paint that comes late, as on a loaded machine) until
 * release() runs them.
 */
function holdFrames() {
  const held: FrameRequestCallback[] = [];
  window.requestAnimationFrame = (cb) => held.push(cb);
  return {
    async release() {
      window.requestAnimationFrame = realFrames;
      await act(async () => {
        for (const cb of held.splice(0)) cb(performance.now());
      });
      await settle();
    },
  };
}

/** The label of the box holding the caret. */
const caretIn = () => document.activeElement?.getAttribute('aria-label') ?? '';
const chosenIn = (scope: Element | null) => (scope?.querySelector('.ant-select-selection-item')?.textContent ?? '').trim();

async function openOrder(suppliers: () => unknown) {
  login(['procurement.purchaseOrder', 'procurement.purchaseOrder.edit']);
  server.on('011611', suppliers as never);
  server.on('011006', () => ({ data: [{ id: 1, label: '一号仓' }] }));
  server.on('012108', () => ({ data: [] }));
  server.on('014208', () => ({ data: [] }));
  server.on('020210', (body) => ({ data: { list: productSearch(String(body.keyword ?? '')) } }));
  const file = purchaseOrder as unknown as ScreenFile;
  await mount(<DocumentScreen meta={meta} file={file} />, { path: '/procurement/purchaseOrder/new', route: '/procurement/purchaseOrder/:id' });
  await until(() => buttons('添加行').length === 1, 'an empty order');
}

describe('Enter at 0 ms resolves what was typed', { timeout: 3 * SLOW_MACHINE_MS }, () => {
  it('lookup line editor (商品): the exact code or barcode, also over a product already on the line; nothing when none matches', async () => {
    await openOrder(() => ({ data: [] }));
    await click(button('添加行'));
    const cell = () => document.querySelector('.renderer-line-table tr.ant-table-row td:nth-child(2)')!;
    const search = () => cell().querySelector('input[aria-label="商品"]') as HTMLInputElement;
    await focusSelect(search());
    // The search of the focus (every product, KP457551 first) is shown and highlighted.
    await until(() => document.querySelectorAll('.ant-select-item-option').length === 5, 'the first search');

    await scan(search(), 'KP904292');
    await until(() => chosenIn(cell()) !== '', 'a product on the line');
    expect(chosenIn(cell())).toBe('KP904292 商品2');
    expect(server.bodies('020210').map((b) => b.keyword)).toContain('KP904292');
    await until(() => caretIn() === '数量（最小单位）', 'the caret moved on to the quantity');

    // A line that holds KP904292: scanning KP904293 takes KP904293.
    await focusSelect(search());
    await scan(search(), 'KP904293');
    await until(() => chosenIn(cell()) === 'KP904293 商品4', 'the second scan replaces the product');
    await until(() => caretIn() === '数量（最小单位）', 'the caret moved on again');

    // A barcode is a code too. The caret's move to the next cell after it waits for a paint; on a busy
    // machine that paint comes late — here, only after the next scan (the frames are held till then).
    const frames = holdFrames();
    await focusSelect(search());
    await scan(search(), '6901234567892');
    await until(() => chosenIn(cell()) === 'KP904292 商品2', 'the product of the barcode');

    // No exact match: nothing is chosen, the list stays open and says why — also when the move on that
    // the barcode's Enter asked for comes now: it is stale (the clerk scanned into the cell again) and
    // must not take the caret away and close the list.
    await focusSelect(search());
    await scan(search(), 'KP99');
    await until(() => !!document.querySelector('.renderer-lookup-missing'), 'the no-match message');
    await frames.release();
    expect(caretIn()).toBe('商品');
    expect(document.querySelector('.renderer-lookup-missing')!.textContent).toBe('没有编码或条码为“KP99”的商品，请从列表中选择');
    await settle();
    expect(chosenIn(cell())).toBe('KP904292 商品2');
    expect(document.querySelector('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')?.textContent).toContain('KP990001');
  });

  it('remote select (供应商): the code typed before the options arrived; nothing when none matches', async () => {
    let answer: (v: unknown) => void = () => undefined;
    const arrived = new Promise((r) => (answer = r));
    await openOrder(() => arrived.then(() => ({ data: [{ id: 3, label: '甲供应商', code: 'KS0003' }, { id: 4, label: '乙供应商', code: 'KS0004' }, { id: 5, label: '乙供应商二厂', code: 'KS00045' }] })));
    const field = () => formItem('供应商');
    const input = () => field().querySelector('input') as HTMLInputElement;
    await focusSelect(input());
    await scan(input(), 'ks0004');
    await act(async () => answer(undefined));
    await until(() => chosenIn(field()) !== '', 'a supplier chosen');
    expect(chosenIn(field())).toBe('乙供应商');

    // A name typed whole is exact too; a part that leaves two options takes neither.
    await focusSelect(input());
    await scan(input(), '乙供应商二');
    await until(() => chosenIn(field()) === '乙供应商二厂', 'the only option left');
    await focusSelect(input());
    await scan(input(), 'KS000');
    await settle();
    expect(chosenIn(field())).toBe('乙供应商二厂');
    expect(document.querySelectorAll('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').length).toBe(3);
  });
});
