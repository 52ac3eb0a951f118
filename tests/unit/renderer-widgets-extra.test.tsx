// @vitest-environment jsdom
// The widgets and the chart added for the basic-settings screens, on their own: tags, keyValue,
// htmlPreview (the sandboxed frame and what it asks for), and the chart section's request body. Each is
// used from a schema form or section with no screen code.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import FormScreen from '../../src/client/renderer/kinds/FormScreen';
import { escapeHtml, previewBody, previewDocument, PREVIEW_CSP } from '../../src/client/renderer/widgets/htmlPreview';
import { objectOf, pairsOf } from '../../src/client/renderer/widgets/keyValue';
import { tagList } from '../../src/client/renderer/widgets/tags';
import { chartBody } from '../../src/client/renderer/detail/chart';
import { actions, sections, widgets } from '../../src/client/renderer/registries';
import type { ScreenFile, ScreenRoute } from '../../src/client/router/screenTypes';
import { button, click, formItem, login, mount, polyfillDom, resetAll, server, text, type, unmount, until } from './renderer-harness';

beforeAll(polyfillDom);
beforeEach(resetAll);
afterEach(unmount);

const meta: ScreenRoute = { file: 'test/form', route: '/test/form', title: '测试表单', permission: '1', menu: { group: 'baseConfig', order: 1 } };
const formFile = (extra: Record<string, unknown>) =>
  ({ route: '/test/form', title: '测试表单', permission: '1', menu: { group: 'baseConfig', order: 1 }, hidden: false, children: false, kind: 'form', ...extra }) as unknown as ScreenFile;

describe('registered', () => {
  it('the new widgets, the list action and the chart section are in their registries', () => {
    for (const w of ['password', 'tags', 'keyValue', 'htmlPreview']) expect(widgets.has(w), w).toBe(true);
    expect(actions.has('list')).toBe(true);
    expect(sections.has('chart')).toBe(true);
  });
});

describe('tags', () => {
  it('reads arrays as they are and texts split at commas, semicolons and spaces', () => {
    expect(tagList(['a@x.com', '', null, 'b@x.com'])).toEqual(['a@x.com', 'b@x.com']);
    expect(tagList('a@x.com, b@x.com；c@x.com  d@x.com')).toEqual(['a@x.com', 'b@x.com', 'c@x.com', 'd@x.com']);
    expect(tagList(undefined)).toEqual([]);
  });

  it('shows the list in a form and saves it as an array', async () => {
    login([]);
    server.on('013602', (b) => ({ data: b }));
    await mount(<FormScreen meta={meta} file={formFile({ api: { save: 'cdm:013602' }, initialValues: { containerTypes: ['20GP', '40HQ'] }, fields: [{ field: 'containerTypes', title: '柜型', widget: 'tags' }] })} />);
    await until(() => text().includes('40HQ'), 'tags');
    expect(formItem('柜型').querySelectorAll('.ant-select-selection-item')).toHaveLength(2);
    await click(button('保存'));
    await until(() => server.bodies('013602').length === 1, 'save');
    expect(server.last('013602')).toEqual({ containerTypes: ['20GP', '40HQ'] });
  });
});

describe('keyValue', () => {
  it('pairs ↔ object; unnamed pairs are not emitted', () => {
    expect(pairsOf({ a: 1, b: null })).toEqual([{ key: 'a', value: '1' }, { key: 'b', value: '' }]);
    expect(pairsOf(['x'])).toEqual([]);
    expect(objectOf([{ key: ' a ', value: '1' }, { key: '', value: '2' }, { key: 'a', value: '3' }])).toEqual({ a: '3' });
    expect(objectOf([{ key: '', value: '2' }])).toBeUndefined();
  });

  it('adds rows, edits names and values, and saves a plain object', async () => {
    login([]);
    server.on('014311', (b) => ({ data: b }));
    await mount(<FormScreen meta={meta} file={formFile({ api: { save: 'cdm:014311' }, initialValues: { params: { orderNo: 'PO1' } }, fields: [{ field: 'params', title: '参数', widget: 'keyValue' }] })} />);
    await until(() => !!document.querySelector('input[aria-label="参数参数名1"]'), 'rows');
    expect((document.querySelector('input[aria-label="参数参数值1"]') as HTMLInputElement).value).toBe('PO1');
    await click(button('添加参数'));
    await type(document.querySelector('input[aria-label="参数参数名2"]') as HTMLInputElement, 'amount');
    await type(document.querySelector('input[aria-label="参数参数值2"]') as HTMLInputElement, '12.50');
    await click(button('保存'));
    await until(() => server.bodies('014311').length === 1, 'save');
    expect(server.last('014311')).toEqual({ params: { orderNo: 'PO1', amount: '12.50' } });
  });
});

describe('htmlPreview', () => {
  it('the frame document carries its own CSP; text is escaped, HTML kept for the sandbox to neuter', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    const html = previewDocument('<p>hi<script>alert(1)</script></p>', 'html');
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${PREVIEW_CSP}">`);
    expect(html).toContain('<p>hi<script>alert(1)</script></p>');
    expect(PREVIEW_CSP).toContain("default-src 'none'");
    expect(PREVIEW_CSP).not.toContain('script-src');
    const text = previewDocument('a <b> & c', 'text');
    expect(text).toContain('<pre');
    expect(text).toContain('a &lt;b&gt; &amp; c');
  });

  it('the body asked for leaves out empty values, and is nothing when nothing is filled', () => {
    const t = { templateId: '{templateId}', subject: '{subject}', params: '{params}' };
    expect(previewBody(t, { templateId: 3, subject: '  ', params: {} })).toEqual({ templateId: 3 });
    expect(previewBody(t, { subject: 'Hi', params: { a: '1' } })).toEqual({ subject: 'Hi', params: { a: '1' } });
    expect(previewBody(t, {})).toBeNull();
  });

  it("a form's preview asks once the typing settles and shows the answer in a sandboxed frame", async () => {
    login([]);
    server.on('014309', (b) => ({ data: { subject: b.subject, body: `<b>${b.body}</b>`, format: 'html', placeholders: ['name'], missing: ['name'] } }));
    await mount(
      <FormScreen
        meta={meta}
        file={formFile({
          api: { save: 'cdm:014303' },
          fields: [
            { field: 'subject', title: '主题' },
            { field: 'body', title: '正文', widget: 'textarea' },
          ],
          preview: { api: 'cdm:014309', body: { subject: '{subject}', body: '{body}' }, showPlaceholders: true },
        })}
      />,
    );
    await until(() => text().includes('填写后显示预览'), 'empty preview');
    const subject = formItem('主题').querySelector('input') as HTMLInputElement;
    const body = formItem('正文').querySelector('textarea') as HTMLTextAreaElement;
    await type(subject, '你好 {name}');
    await type(body, 'x');
    await type(body, 'xy');
    await until(() => !!document.querySelector('iframe'), 'frame', 3000);
    // The preview waits for typing to settle: never a call per keystroke (at most one per pause between
    // the three edits on a slow machine), and the last call carries the settled values.
    await until(() => server.bodies('014309').at(-1)?.body === 'xy', 'settled preview', 3000);
    const calls = server.bodies('014309');
    expect(calls.length).toBeLessThanOrEqual(3);
    expect(calls.at(-1)).toEqual({ subject: '你好 {name}', body: 'xy' });
    await until(() => !!document.querySelector('iframe')?.getAttribute('srcdoc')?.includes('<b>xy</b>'), 'settled frame', 3000);
    const frame = document.querySelector('iframe')!;
    expect(frame.getAttribute('sandbox')).toBe('');
    expect(frame.getAttribute('srcdoc')).toContain('<b>xy</b>');
    expect(text()).toContain('占位符：{name}');
    expect(text()).not.toContain('缺少参数');
  });
});

describe('chart section body', () => {
  it('is the template filled from the conditions, empty values left out', () => {
    expect(chartBody({ currencyId: '{currencyId}', from: '{rateDate.0}', to: '{rateDate.1}' }, { currencyId: 2, rateDate: ['2026-01-01', null] })).toEqual({ currencyId: 2, from: '2026-01-01' });
  });
});
