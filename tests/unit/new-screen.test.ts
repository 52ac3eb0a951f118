// `npm run new-screen`: a list + form pair for a resource that passes `npm run schemas:check` as written.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { newScreen } from '../../scripts/new-screen.ts';
import { SCHEMAS_DIR } from '../../src/server/catalog/load-catalog.ts';
import { checkSchemas, formatProblem } from '../../src/server/catalog/schema-check.ts';

const roots: string[] = [];
afterEach(() => { for (const d of roots.splice(0)) fs.rmSync(d, { recursive: true, force: true }); });

/** A copy of schemas/ to generate into. */
function copy(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'new-screen-'));
  roots.push(root);
  fs.cpSync(SCHEMAS_DIR, root, { recursive: true });
  return root;
}

function write(result: ReturnType<typeof newScreen>): void {
  for (const f of result.files) {
    fs.mkdirSync(path.dirname(f.file), { recursive: true });
    fs.writeFileSync(f.file, f.content);
  }
}

const read = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));

describe('new-screen', () => {
  it('writes a list and a form page that pass the schema check, for every kind of resource', () => {
    const root = copy();
    const dir = path.join(root, 'screens');
    const before = checkSchemas(root).map(formatProblem);
    for (const [target, resource] of [
      ['reportForms/genCustoms', 'customsCode'], ['reportForms/genRise', 'companyRise'], ['reportForms/genTemplates', 'emailTemplate'],
      ['reportForms/genMails', 'emailHistory'], ['reportForms/genRates', 'exchangeRate'], ['reportForms/genAccounts', 'account'],
      ['reportForms/genDepartments', 'department'], ['reportForms/genProducts', 'product'], ['reportForms/genAudit', 'auditLog'],
    ]) write(newScreen({ target, resource, dir, title: `生成：${resource}` }));
    expect(checkSchemas(root).map(formatProblem)).toEqual(before);

    const list = read(path.join(dir, 'reportForms/genRates.json'));
    expect(list).toMatchObject({
      $schema: '../../meta/screen.schema.json', route: '/reportForms/genRates', title: '生成：exchangeRate', permission: 'reportForms.genRates',
      menu: { group: 'reportForms', order: 900 }, hidden: false, kind: 'list', name: 'reportForms.genRates',
      api: { list: 'cdm:012501', get: 'cdm:012502', save: 'cdm:012503', remove: 'cdm:012504', export: 'cdm:012505', import: 'cdm:012506', template: 'cdm:012507' },
      defaultSort: { field: 'rateDate', order: 'descend' },
    });
    // a reference shows its label and filters by id through the target's options code
    expect(list.columns.map((c: any) => c.field)).toEqual(['currencyName', 'rateDate', 'rate', 'remark', 'updatedAt']);
    expect(list.filters).toEqual([{ field: 'currencyId', title: '币种', widget: 'select', options: { api: 'cdm:012108' } }]);
    expect(list.columns.find((c: any) => c.field === 'rate')).toMatchObject({ type: 'number', decimals: 6, search: true });
    expect(list.toolbar.map((a: any) => [a.title, a.permission])).toEqual([
      ['新增', 'baseConfig.exchange.edit'], ['导出', 'baseConfig.exchange.export'], ['导入', 'baseConfig.exchange.import'], ['批量删除', 'baseConfig.exchange.remove'],
    ]);
    expect(list.forms.edit.fields.map((f: any) => [f.field, f.widget, f.required ?? false])).toEqual([
      ['currencyId', 'select', true], ['rateDate', 'date', true], ['rate', 'number', true], ['remark', 'textarea', false],
    ]);
    const page = read(path.join(dir, 'reportForms/genRatesDetail.json'));
    expect(page).toMatchObject({ route: '/reportForms/genRatesDetail/:id', hidden: true, kind: 'form', api: { get: 'cdm:012502', save: 'cdm:012503' }, afterSave: '/reportForms/genRates' });
    expect(page.fields).toEqual(list.forms.edit.fields);

    // a readonly resource gets a list only, without write actions
    const mails = newScreen({ target: 'reportForms/genMails2', resource: 'emailHistory', dir, title: '邮件记录草稿' });
    expect(mails.files).toHaveLength(1);
    const mailList = JSON.parse(mails.files[0].content);
    expect(mailList.toolbar).toEqual([{ action: 'export', title: '导出', permission: 'baseConfig.emailHistory.export' }]);
    expect(mailList.rowActions).toBeUndefined();
    expect(mailList.columns.find((c: any) => c.field === 'status')).toMatchObject({ type: 'enum', dict: 'emailStatus', search: true });
  });

  it('takes over a placeholder screen, keeping its route, title and menu place, and picks the codes of its right', () => {
    const root = copy();
    const dir = path.join(root, 'screens');
    // The real screens are finished: put placeholders back in the copy, to be taken over.
    for (const name of ['customsList', 'dynamicExchange']) {
      const f = path.join(dir, 'baseConfig', `${name}.json`);
      const { $schema, route, title, permission, menu, hidden, children } = read(f);
      fs.writeFileSync(f, JSON.stringify({ $schema, route, title, permission, menu, hidden, children, kind: 'placeholder' }, null, 2));
    }
    const placeholder = read(path.join(dir, 'baseConfig/customsList.json'));
    expect(placeholder.kind).toBe('placeholder');
    const result = newScreen({ target: 'baseConfig/customsList', resource: 'customsCode', dir });
    write(result);
    const list = read(path.join(dir, 'baseConfig/customsList.json'));
    expect(list).toMatchObject({ route: placeholder.route, title: placeholder.title, permission: placeholder.permission, menu: placeholder.menu, kind: 'list' });
    expect(read(path.join(dir, 'baseConfig/customsListDetail.json')).menu.order).toBe(placeholder.menu.order + 1);

    // two list codes serve exchange rates; the dynamicExchange screen gets the one under its own right
    const dyn = JSON.parse(newScreen({ target: 'baseConfig/dynamicExchange', resource: 'exchangeRate', dir }).files[0].content);
    expect(dyn.title).toBe(read(path.join(dir, 'baseConfig/dynamicExchange.json')).title);
    expect(dyn.api.list).toBe('cdm:012510');
    expect(dyn.api.export).toBe('cdm:012511');
    expect(checkSchemas(root).map(formatProblem)).toEqual(checkSchemas(copy()).map(formatProblem));
  });

  it('refuses a title another menu entry already shows, and locks a unique code on edit', () => {
    const dir = path.join(copy(), 'screens');
    // customsCode's own title is 海关编码…: whatever it is, a menu entry holding it makes the default refused
    const exchangeTitle = read(path.join(dir, 'baseConfig/exchange.json')).title;
    expect(() => newScreen({ target: 'reportForms/genRates', resource: 'exchangeRate', dir })).toThrow(new RegExp(`标题“${exchangeTitle}”已是菜单项 baseConfig/exchange\\.json 的标题.*--title`));
    expect(() => newScreen({ target: 'reportForms/genRates', resource: 'exchangeRate', dir, title: exchangeTitle })).toThrow(/已是菜单项/);
    const ok = newScreen({ target: 'reportForms/genRates', resource: 'exchangeRate', dir, title: '汇率草稿' });
    expect(JSON.parse(ok.files[0].content).title).toBe('汇率草稿');
    // the currency code is unique on its own: typed when created, locked when edited
    const currencies = JSON.parse(newScreen({ target: 'reportForms/genCurrencies', resource: 'currency', dir, title: '币种草稿' }).files[0].content);
    expect(currencies.forms.edit.fields.find((f: any) => f.field === 'code')).toMatchObject({ readonlyOnEdit: true });
    expect(currencies.forms.edit.fields.find((f: any) => f.field === 'currencyName').readonlyOnEdit).toBeUndefined();
  });

  it('refuses to overwrite a real screen without --force, and explains bad arguments', () => {
    const dir = path.join(copy(), 'screens');
    expect(() => newScreen({ target: 'baseConfig/currency', resource: 'currency', dir })).toThrow(/已存在且不是占位页面.*--force/);
    expect(newScreen({ target: 'baseConfig/currency', resource: 'currency', dir, force: true }).files[0].replaced).toBe(true);
    expect(() => newScreen({ target: 'currency', resource: 'currency', dir })).toThrow(/<模块>\/<名称>/);
    expect(() => newScreen({ target: 'nowhere/x', resource: 'currency', dir })).toThrow(/不是菜单分组之一/);
    expect(() => newScreen({ target: 'system/x', resource: 'nope', dir })).toThrow(/资源 nope 不存在/);
  });

  it('runs as `npm run new-screen -- <module>/<name> --resource <resource>`', () => {
    const root = copy();
    const dir = path.join(root, 'screens');
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/new-screen.ts', 'system/genIps', '--resource', 'ipWhitelist', '--dir', dir, '--title', '白名单草稿'], { encoding: 'utf8' });
    expect(out).toContain('已生成');
    expect(read(path.join(dir, 'system/genIps.json')).title).toBe('白名单草稿');
    expect(read(path.join(dir, 'system/genIpsDetail.json')).title).toBe('白名单草稿详情');
    expect(checkSchemas(root).map(formatProblem)).toEqual(checkSchemas(copy()).map(formatProblem));
    let failed = '';
    try {
      execFileSync(process.execPath, ['--import', 'tsx', 'scripts/new-screen.ts', 'system/genIps', '--resource', 'ipWhitelist', '--dir', dir], { encoding: 'utf8', stdio: 'pipe' });
    } catch (e) {
      failed = String((e as { stderr?: string }).stderr);
    }
    expect(failed).toContain('--force');
  });
});
