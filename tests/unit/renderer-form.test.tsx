// @vitest-environment jsdom
// Forms (formily from the schema) opened from the currency list, the form kind, the import dialog,
// and the CSP promise: no `{{ }}` compilation, no Function constructor while forms render and save.
import { Schema } from '@formily/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import ListScreen from '../../src/client/renderer/kinds/ListScreen';
import FormScreen from '../../src/client/renderer/kinds/FormScreen';
import { hasUnsavedChanges } from '../../src/client/renderer/form/unsavedChanges';
import { validateValue } from '../../src/client/renderer/form/rules';
import type { ScreenFile, ScreenRoute } from '../../src/client/router/screenTypes';
import currencyScreen from '../../schemas/screens/baseConfig/currency.json';
import {
  button,
  buttons,
  chooseFile,
  click,
  formItem,
  inputOf,
  login,
  mount,
  polyfillDom,
  resetAll,
  rows,
  server,
  settle,
  text,
  toasts,
  type,
  unmount,
  until,
} from './renderer-harness';

beforeAll(polyfillDom);
beforeEach(resetAll);
afterEach(unmount);

const all = ['baseConfig.currency', 'baseConfig.currency.edit', 'baseConfig.currency.remove', 'baseConfig.currency.export', 'baseConfig.currency.import'];
const meta: ScreenRoute = { file: 'baseConfig/currency', route: '/baseConfig/currency', title: '币种', permission: 'baseConfig.currency', menu: { group: 'baseConfig', order: 10 } };
const usd = { id: 2, code: 'USD', currencyName: '美元', currencyCharacter: '$', isBase: false, enabled: true, remark: '', version: 3 };

async function openCurrencyList() {
  login(all);
  server.on('012101', () => ({ data: { list: [usd], total: 1 } }));
  await mount(<ListScreen meta={meta} file={currencyScreen as unknown as ScreenFile} />);
  await until(() => rows().length === 1, 'rows');
}

const modal = () => document.querySelector('.ant-modal') as HTMLElement;

describe('forms opened from the list', () => {
  it('新增 opens an empty form in a modal; 保存 with nothing typed shows the required messages and sends nothing', async () => {
    await openCurrencyList();
    await click(button('新增'));
    await until(() => !!modal()?.querySelector('input'), 'modal form');
    expect(modal().textContent).toContain('币种代码');
    await click(button('保存', modal()));
    await until(() => text().includes('请输入币种代码'), 'required message');
    expect(formItem('币种代码', modal()).textContent).toContain('请输入币种代码');
    expect(formItem('币种名称', modal()).textContent).toContain('请输入币种名称');
    expect(server.bodies('012103')).toHaveLength(0);
  });

  it('the pattern message of the schema is shown; a valid form is saved with its values', async () => {
    await openCurrencyList();
    await click(button('新增'));
    await until(() => !!modal()?.querySelector('input'), 'modal form');
    await type(inputOf('币种代码', modal()), 'EU-R');
    // the input filter (intAndLetter) already removed the '-', so the pattern holds
    expect(inputOf('币种代码', modal()).value).toBe('EUR');
    await type(inputOf('币种名称', modal()), '  欧元');
    expect(inputOf('币种名称', modal()).value).toBe('欧元');
    server.on('012103', (body) => ({ data: { id: 9, version: 1, ...body } }));
    await click(button('保存', modal()));
    await until(() => server.bodies('012103').length === 1, 'save');
    expect(server.last('012103')).toEqual({ code: 'EUR', currencyName: '欧元', isBase: false, enabled: true });
    await until(() => toasts('success').includes('保存成功'), 'toast');
    await until(() => server.bodies('012101').length === 2, 'list reload');
  });

  it('编辑 loads the record (get by id), keeps the code read-only and sends id and version', async () => {
    await openCurrencyList();
    server.on('012102', (body) => (body.id === 2 ? { data: usd } : { code: 'COMMON_NOT_FOUND_4004', msg: '币种不存在或已被删除' }));
    server.on('012103', (body) => ({ data: body }));
    await click(button('编辑'));
    await until(() => !!modal()?.querySelector('input') && inputOf('币种名称', modal()).value === '美元', 'loaded form');
    expect(server.last('012102')).toEqual({ id: 2 });
    expect(inputOf('币种代码', modal()).readOnly).toBe(true);
    expect(inputOf('币种代码', modal()).value).toBe('USD');
    expect(inputOf('币种名称', modal()).readOnly).toBe(false);
    await type(inputOf('币种名称', modal()), '美金');
    await click(button('保存', modal()));
    await until(() => server.bodies('012103').length === 1, 'save');
    expect(server.last('012103')).toMatchObject({ id: 2, version: 3, code: 'USD', currencyName: '美金' });
  });

  it('a server field error (COMMON_VALIDATION_4000) is shown on its field and cleared when the user edits it', async () => {
    await openCurrencyList();
    await click(button('新增'));
    await until(() => !!modal()?.querySelector('input'), 'modal form');
    await type(inputOf('币种代码', modal()), 'USD');
    await type(inputOf('币种名称', modal()), '美元');
    server.on('012103', () => ({
      code: 'COMMON_VALIDATION_4000',
      msg: '币种代码“USD”已存在',
      data: { errors: [{ field: 'code', message: '币种代码“USD”已存在' }, { field: 'nope', message: '其他错误' }] },
    }));
    await click(button('保存', modal()));
    await until(() => formItem('币种代码', modal()).textContent!.includes('币种代码“USD”已存在'), 'field error');
    expect(modal().textContent).toContain('其他错误');
    expect(modal()).not.toBeNull(); // the form stays open
    await type(inputOf('币种代码', modal()), 'USX');
    await settle();
    expect(formItem('币种代码', modal()).textContent).not.toContain('已存在');
  });

  it('a unique-key refusal (COMMON_UNIQUE_4011 naming its field) is shown on that field too', async () => {
    await openCurrencyList();
    await click(button('新增'));
    await until(() => !!modal()?.querySelector('input'), 'modal form');
    await type(inputOf('币种代码', modal()), 'USD');
    await type(inputOf('币种名称', modal()), '美元');
    server.on('012103', () => ({ code: 'COMMON_UNIQUE_4011', msg: '币种代码“USD”已存在', data: { field: 'code', fields: ['code'] } }));
    await click(button('保存', modal()));
    await until(() => formItem('币种代码', modal()).textContent!.includes('币种代码“USD”已存在'), 'field error');
    expect(toasts('error')).toContain('币种代码“USD”已存在');
  });

  it('closing a changed form asks first (unsaved changes)', async () => {
    await openCurrencyList();
    await click(button('新增'));
    await until(() => !!modal()?.querySelector('input'), 'modal form');
    expect(hasUnsavedChanges()).toBe(false);
    await type(inputOf('币种名称', modal()), '日元');
    expect(hasUnsavedChanges()).toBe(true);
    await click(button('取消', modal()));
    await until(() => text().includes('有未保存的修改'), 'confirm');
    await click(buttons('留下').at(-1));
    expect(document.querySelector('.ant-modal input')).not.toBeNull();
  });

  it('`disabled` conditions are evaluated on the form values (no expressions)', async () => {
    await openCurrencyList();
    await click(button('新增'));
    await until(() => !!modal()?.querySelector('input'), 'modal form');
    const enabledSwitch = () => formItem('启用', modal()).querySelector('button[role="switch"]') as HTMLButtonElement;
    expect(enabledSwitch().disabled).toBe(false);
    await click(formItem('本位币', modal()).querySelector('button[role="switch"]'));
    await until(() => enabledSwitch().disabled, 'disabled by isBase');
  });
});

describe('import', () => {
  async function openImport() {
    await openCurrencyList();
    await click(button('导入'));
    await until(() => !!document.querySelector('.ant-modal input[type="file"]'), 'import dialog');
    return document.querySelector('.ant-modal input[type="file"]') as HTMLInputElement;
  }

  it('a .txt file is refused with 附件格式错误，请重新上传！ and nothing is sent', async () => {
    const input = await openImport();
    expect(input.accept).toBe('.xlsx,.xls');
    await chooseFile(input, new File(['a,b'], 'rates.txt', { type: 'text/plain' }));
    expect(toasts('warning')).toContain('附件格式错误，请重新上传！');
    await click(button('导入', modal()));
    expect(toasts('warning')).toContain('请上传附件！');
    expect(server.bodies('012106')).toHaveLength(0);
  });

  it('导入 with no file chosen says 请上传附件！; 下载模板 calls the template code', async () => {
    await openImport();
    await click(button('导入', modal()));
    expect(toasts('warning')).toEqual(['请上传附件！']);
    await click(button('下载模板', modal()));
    await until(() => server.bodies('012107').length === 1, 'template');
  });

  it("the server's row-by-row errors are listed in a table; nothing else changes", async () => {
    const input = await openImport();
    await chooseFile(input, new File(['x'], '币种.xlsx'));
    server.on('012106', () => ({
      code: 'COMMON_IMPORT_4012',
      msg: '导入失败：共 2 行有错误，未写入任何数据',
      data: { errors: [{ row: 3, field: 'code', message: '币种代码“USD”已存在' }, { row: 5, field: 'currencyName', message: '第 5 行：币种名称不能为空' }] },
    }));
    await click(button('导入', modal()));
    await until(() => text().includes('以下行有错误'), 'error table');
    const cells = [...modal().querySelectorAll('.ant-table-tbody tr.ant-table-row')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent));
    expect(cells).toEqual([
      ['3', '币种代码', '币种代码“USD”已存在'],
      ['5', '币种名称', '第 5 行：币种名称不能为空'],
    ]);
    const sent = server.sent.find((s) => s.code === '012106')!;
    expect(sent.data).toBeInstanceOf(FormData);
    expect(((sent.data as FormData).get('file') as File).name).toBe('币种.xlsx');
  });

  it("the error table names a field by the title the server sends (the resource's, as in its message), not the screen's column title", async () => {
    const input = await openImport();
    await chooseFile(input, new File(['x'], '币种.xlsx'));
    server.on('012106', () => ({
      code: 'COMMON_IMPORT_4012',
      msg: '导入失败：共 1 行有错误，未写入任何数据',
      data: { errors: [{ row: 2, field: 'code', title: '币种代码（ISO）', message: '第 2 行：币种代码（ISO）格式不正确' }] },
    }));
    await click(button('导入', modal()));
    await until(() => text().includes('以下行有错误'), 'error table');
    const cells = [...modal().querySelectorAll('.ant-table-tbody tr.ant-table-row')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent));
    expect(cells).toEqual([['2', '币种代码（ISO）', '第 2 行：币种代码（ISO）格式不正确']]);
  });

  it('a good file is imported, the result toasted and the list reloaded', async () => {
    const input = await openImport();
    await chooseFile(input, new File(['x'], 'ok.xls'));
    server.on('012106', () => ({ data: { created: 2, updated: 1 } }));
    await click(button('导入', modal()));
    await until(() => toasts('success').includes('导入成功：新增 2 行，更新 1 行'), 'toast');
    await until(() => server.bodies('012101').length === 2, 'reload');
  });
});

describe('form kind', () => {
  const formFile = {
    route: '/baseConfig/currencyEdit/:id',
    title: '币种编辑',
    permission: '1',
    menu: { group: 'baseConfig', order: 1 },
    hidden: true,
    children: false,
    kind: 'form',
    api: { get: 'cdm:012102', save: 'cdm:012103' },
    fields: [
      { field: 'code', title: '币种代码', required: true, readonlyOnEdit: true },
      { field: 'rate', title: '汇率', widget: 'money', decimals: 4, min: '0.0001', max: '1000' },
      { field: 'note', title: '说明', visible: { field: 'code', op: 'eq', value: 'USD' } },
    ],
  } as unknown as ScreenFile;
  const formMeta: ScreenRoute = { file: 'baseConfig/currencyEdit', route: formFile.route, title: '币种编辑', permission: '1', menu: { group: 'baseConfig', order: 1 } };

  it('loads the record of the route id, shows `visible` fields by condition, and saves', async () => {
    login([]);
    server.on('012102', () => ({ data: { id: 5, code: 'USD', rate: '7.1000', version: 2 } }));
    server.on('012103', (b) => ({ data: { ...b, version: 3 } }));
    await mount(<FormScreen meta={formMeta} file={formFile} />, { path: '/baseConfig/currencyEdit/5', route: '/baseConfig/currencyEdit/:id' });
    await until(() => text().includes('说明'), 'form');
    expect(server.last('012102')).toEqual({ id: '5' });
    await click(button('保存'));
    await until(() => server.bodies('012103').length === 1, 'save');
    expect(server.last('012103')).toEqual({ id: 5, version: 2, code: 'USD', rate: '7.1000' });
  });

  it('min/max rules compare exact decimals and show their messages', () => {
    const f = { field: 'rate', title: '汇率', widget: 'money', min: '0.0001', max: '1000' };
    expect(validateValue(f, '0.00001')).toBe('汇率须在 0.0001 到 1000 之间');
    expect(validateValue(f, '1000.0001')).toBe('汇率须在 0.0001 到 1000 之间');
    expect(validateValue({ ...f, min: undefined }, '1000.0001')).toBe('汇率不能大于 1000');
    expect(validateValue(f, '1000')).toBeUndefined();
    expect(validateValue({ field: 'c', title: '代码', maxLength: 3 }, 'ABCD')).toBe('代码最多 3 个字符');
    expect(validateValue({ field: 'c', title: '代码', pattern: '^[A-Z]+$', patternMessage: '只能大写' }, 'ab')).toBe('只能大写');
    expect(validateValue({ field: 'c', title: '代码', rules: [{ pattern: '^A', message: '以 A 开头' }] }, 'BA')).toBe('以 A 开头');
  });
});

describe('no code from schemas (CSP without unsafe-eval)', () => {
  it("formily's expression compiler is replaced: {{ }} stays text", () => {
    expect(Schema.compile('{{ 1 + 1 }}')).toBe('{{ 1 + 1 }}');
    expect(Schema.compile({ a: '{{ window.alert(1) }}' })).toEqual({ a: '{{ window.alert(1) }}' });
  });

  it('opening, filling and saving a form never constructs a Function', async () => {
    const original = globalThis.Function;
    const calls: unknown[][] = [];
    const trap = new Proxy(original, {
      construct(target, args) {
        calls.push(args);
        return Reflect.construct(target, args);
      },
      apply(target, thisArg, args) {
        calls.push(args);
        return Reflect.apply(target, thisArg, args);
      },
    });
    await openCurrencyList();
    globalThis.Function = trap;
    try {
      await click(button('新增'));
      await until(() => !!modal()?.querySelector('input'), 'modal form');
      await type(inputOf('币种代码', modal()), 'GBP');
      await type(inputOf('币种名称', modal()), '英镑');
      server.on('012103', (b) => ({ data: b }));
      await click(button('保存', modal()));
      await until(() => server.bodies('012103').length === 1, 'save');
    } finally {
      globalThis.Function = original;
    }
    expect(calls).toEqual([]);
  });
});
