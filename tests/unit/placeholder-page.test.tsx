// @vitest-environment jsdom
// A screen not built yet names itself by its title, never by its route.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import PlaceholderPage from '../../src/client/router/PlaceholderPage';
import type { ScreenFile, ScreenRoute } from '../../src/client/router/screenTypes';
import { mount, polyfillDom, resetAll, text, unmount } from './renderer-harness';

beforeAll(polyfillDom);
beforeEach(resetAll);
afterEach(unmount);

describe('placeholder page', () => {
  it('shows the screen title and says it is being built; no route', async () => {
    const meta: ScreenRoute = { file: 'baseConfig/customsList', route: '/baseConfig/customsList', title: '报关资料', permission: 'baseConfig.customsList', menu: { group: 'baseConfig', order: 1 } };
    await mount(<PlaceholderPage meta={meta} file={{ ...meta, kind: 'placeholder', hidden: false, children: false } as unknown as ScreenFile} />);
    expect(text()).toContain('报关资料');
    expect(text()).toContain('正在建设中');
    expect(text()).not.toContain('/baseConfig/customsList');
  });
});
