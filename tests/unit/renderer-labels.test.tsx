// @vitest-environment jsdom
// The `labels` action (src/client/renderer/actions/labels.tsx) and the touch page option: selected rows
// → the label data call → a printable sheet of labels, each with a Code 128 barcode (bwip-js) and, when
// the data carries a token, a QR code (qrcode) that opens /qrCodeLoad; A4 sheets of ten or 100 × 50 mm
// stock; a `touch` screen draws large controls.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import ListScreen from '../../src/client/renderer/kinds/ListScreen';
import ScreenPage from '../../src/client/router/ScreenPage';
import { qrUrl } from '../../src/client/renderer/labels/codes';
import type { ScreenFile, ScreenRoute } from '../../src/client/router/screenTypes';
import { button, click, login, mount, polyfillDom, resetAll, rows, server, text, unmount, until } from './renderer-harness';

beforeAll(polyfillDom);
beforeEach(resetAll);
afterEach(unmount);

const meta: ScreenRoute = { file: 'test/labels', route: '/test', title: '测试', permission: '1', menu: { group: 'entrepot', order: 1 } };
const screen = {
  route: '/test', title: '库位', permission: '1', menu: { group: 'entrepot', order: 1 }, hidden: false, children: false, kind: 'list',
  api: { list: 'cdm:011101' },
  columns: [{ field: 'lcCode', title: '库位' }],
  toolbar: [{ action: 'labels', title: '打印库位标签', bulk: true, api: 'oms:024211', body: { kind: 'location', ids: '{ids}' }, heading: '库位标签（{count} 个）' }],
} as unknown as ScreenFile;

const labels = (n: number) => Array.from({ length: n }, (_, i) => ({
  title: '库位', code: `K-01-${String(i + 1).padStart(2, '0')}`, name: '主仓库', lines: ['库区：K'], barcode: `K-01-${String(i + 1).padStart(2, '0')}`, qr: i === 0 ? 'L1-5.AAAAAAAAAAAAAAAAAAAAAA' : null,
}));

describe('labels action', () => {
  it('prints the selected rows as labels with Code 128 and QR codes, on A4 sheets or 100 × 50 mm stock', async () => {
    login([]);
    server.on('011101', () => ({ data: { list: Array.from({ length: 12 }, (_, i) => ({ id: i + 1, lcCode: `K-01-${i + 1}` })), total: 12 } }));
    server.on('024211', (body) => ({ data: { kindText: '库位', labels: labels(body.ids.length) } }));
    await mount(<ListScreen meta={meta} file={screen} />);
    await until(() => rows().length === 12, 'rows');
    const boxes = [...document.querySelectorAll('.ant-table-thead .ant-checkbox-input')] as HTMLInputElement[];
    await click(boxes[0]);
    await click(button('打印库位标签'));
    await until(() => document.querySelectorAll('[data-testid="label"]').length === 12, 'labels');
    expect(server.last('024211')).toEqual({ kind: 'location', ids: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] });
    expect(text()).toContain('库位标签（12 个）');
    // every label has its bars; the first also its QR code, once drawn
    const first = document.querySelector('[data-testid="label"]')!;
    expect(first.textContent).toContain('K-01-01');
    expect(first.querySelector('.label-barcode-bars svg')).not.toBeNull();
    await until(() => !!first.querySelector('.label-qr svg'), 'qr drawn');
    expect(document.querySelectorAll('.label-qr').length).toBe(1);
    // A4: ten to a sheet (two sheets); label stock: one page of labels, the page size set for print
    expect(document.querySelectorAll('.label-page-a4').length).toBe(2);
    expect(document.head.querySelector('style[data-labels]')?.textContent).toContain('A4');
    await click([...document.querySelectorAll('.ant-radio-button-wrapper')].find((e) => e.textContent?.includes('100 × 50'))!);
    expect(document.querySelectorAll('.label-page-roll').length).toBe(1);
    expect(document.head.querySelector('style[data-labels]')?.textContent).toContain('100mm 50mm');
    expect(document.body.classList.contains('labels-open')).toBe(true);
    await click(button('关闭'));
    expect(document.querySelectorAll('[data-testid="label"]').length).toBe(0);
    expect(document.body.classList.contains('labels-open')).toBe(false);
    expect(document.head.querySelector('style[data-labels]')).toBeNull();
  });

  it('a QR code opens /qrCodeLoad with the token', () => {
    expect(qrUrl('P1-5.abc_DEF-1', 'https://wms.example')).toBe('https://wms.example/qrCodeLoad?t=P1-5.abc_DEF-1');
  });
});

describe('touch pages', () => {
  it('draws a touch screen with large controls and marks the body while it is open', async () => {
    login([]);
    server.on('024209', () => ({ data: { list: [], total: 0 } }));
    const touchMeta: ScreenRoute = { ...meta, file: 'standalone/ipad' };
    await mount(<ScreenPage meta={touchMeta} />);
    await until(() => !!document.querySelector('.screen-touch'), 'touch page');
    expect(document.body.classList.contains('touch-page')).toBe(true);
    await until(() => !!document.querySelector('.screen-touch .ant-input-lg, .screen-touch .ant-input-affix-wrapper-lg'), 'large input');
    await unmount();
    expect(document.body.classList.contains('touch-page')).toBe(false);
  });
});
