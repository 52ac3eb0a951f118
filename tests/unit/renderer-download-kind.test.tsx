// @vitest-environment jsdom
// The `download` screen kind (/a/{id}) drawn from its real screen file without a login: the page asks for
// the route's id and shows the file's name, its facts (an instant in the viewer's time zone, named) and the
// 下载 button; a refused link (expired, revoked…) is the page's content, with no message flying past; a
// download refused after the page opened (someone took the last one) turns the page into that refusal.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import DownloadScreen from '../../src/client/renderer/kinds/DownloadScreen';
import type { ScreenFile, ScreenRoute } from '../../src/client/router/screenTypes';
import page from '../../schemas/screens/standalone/a.json';
import { button, buttons, click, mount, polyfillDom, resetAll, seen, server, text, unmount, until } from './renderer-harness';

beforeAll(polyfillDom);
beforeEach(resetAll);
afterEach(unmount);

const file = page as unknown as ScreenFile;
const meta: ScreenRoute = { file: 'standalone/a', route: file.route, title: file.title, permission: 'public', menu: { group: 'standalone', order: 50 } };
const ID = 'Gkr3B2xP1JqYfDD4ewEZaG';
const INFO = { id: ID, fileName: '部门_20261127.xlsx', fileSize: 6400, fileSizeText: '6.3 KB', expiresAt: '2026-11-28T01:27:00.000Z', maxDownloads: 3, remaining: 1, remainingText: '1 次' };

const open = () => mount(<DownloadScreen meta={meta} file={file} />, { path: `/a/${ID}`, route: '/a/:id' });

describe('download kind', () => {
  it('asks for the route id without a token and shows the file, its facts and the button', async () => {
    server.on('980204', () => ({ data: INFO }));
    await open();
    await until(() => text().includes('部门_20261127.xlsx'), 'file name');
    expect(server.last('980204')).toEqual({ id: ID });
    expect(server.sent[0]!.url).toBe('/storage/public/980204');
    expect(text()).toContain('6.3 KB');
    expect(text()).toContain('1 次');
    expect(text()).toMatch(/有效期至2026-11-2\d \d{2}:\d{2}（UTC[+-]\d+(:\d{2})?）/);
    expect(document.querySelector('h1')?.textContent).toBe('部门_20261127.xlsx');
    expect(buttons('下载')).toHaveLength(1);
  });

  it('makes a refused link the page itself, with no message besides', async () => {
    server.on('980204', () => ({ code: 'SHARE_EXPIRED_4302', msg: '链接已过期，请联系分享人重新分享' }));
    await open();
    await until(() => text().includes('链接已过期，请联系分享人重新分享'), 'refusal');
    expect(buttons('下载')).toHaveLength(0);
    expect(seen.toasts).toEqual([]);
  });

  it('turns into the refusal when the download is refused after the page opened', async () => {
    server.on('980204', () => ({ data: INFO }));
    server.on('980205', () => ({ code: 'SHARE_EXHAUSTED_4304', msg: '链接的下载次数已用完（共 3 次），请联系分享人重新分享' }));
    await open();
    await until(() => buttons('下载').length === 1, 'button');
    await click(button('下载'));
    await until(() => text().includes('链接的下载次数已用完（共 3 次）'), 'refusal');
    expect(server.last('980205')).toEqual({ id: ID });
    expect(server.sent.find((s) => s.code === '980205')!.url).toBe('/storage/public/980205');
    expect(buttons('下载')).toHaveLength(0);
    expect(seen.toasts).toEqual([]);
  });
});
