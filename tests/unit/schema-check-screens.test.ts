// `npm run schemas:check` catches each kind of mistake in a screen file, naming file and JSON pointer.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMAS_DIR } from '../../src/server/catalog/load-catalog.ts';
import { checkSchemas, formatProblem } from '../../src/server/catalog/schema-check.ts';

let root: string;
const currencyFile = () => path.join(root, 'screens/baseConfig/currency.json');
let original: string;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'screens-check-'));
  fs.cpSync(SCHEMAS_DIR, root, { recursive: true });
  original = fs.readFileSync(currencyFile(), 'utf8');
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** Applies an edit to the currency screen, runs the check, restores the file, returns the lines. */
function linesAfter(edit: (screen: any) => void): string[] {
  const screen = JSON.parse(original);
  edit(screen);
  fs.writeFileSync(currencyFile(), JSON.stringify(screen));
  try {
    return checkSchemas(root).map(formatProblem);
  } finally {
    fs.writeFileSync(currencyFile(), original);
  }
}

describe('screen mistakes', () => {
  it('the real schemas pass', () => {
    expect(checkSchemas(root)).toEqual([]);
  });
  it('a meta-schema violation (unknown kind)', () => {
    expect(linesAfter((s) => { s.kind = 'grid'; }).join('\n')).toMatch(/currency\.json#\/kind: /);
  });
  it('an endpoint code not in the catalog', () => {
    expect(linesAfter((s) => { s.api.export = 'cdm:019999'; })).toContainEqual(expect.stringMatching(/currency\.json#\/api\/export: 接口 cdm:019999 不在接口目录中$/));
  });
  it('a permission no screen or endpoint declares', () => {
    expect(linesAfter((s) => { s.toolbar[0].permission = 'baseConfig.currency.fly'; }))
      .toContainEqual(expect.stringMatching(/currency\.json#\/toolbar\/0\/permission: 权限 baseConfig\.currency\.fly 不在权限目录中/));
  });
  it('a dictionary that does not exist', () => {
    expect(linesAfter((s) => { s.columns[3] = { ...s.columns[3], type: 'enum', dict: 'noSuchDict' }; }))
      .toContainEqual(expect.stringMatching(/currency\.json#\/columns\/3\/dict: 字典 noSuchDict 不存在/));
  });
  it('a link to no route', () => {
    expect(linesAfter((s) => { s.rowActions[0] = { action: 'link', title: '查看', to: '/baseConfig/nowhere/{id}' }; }))
      .toContainEqual(expect.stringMatching(/currency\.json#\/rowActions\/0\/to: 链接 \/baseConfig\/nowhere\/\{id\} 不指向任何路由/));
  });
  it('a column, filter or form field the resource does not have', () => {
    const lines = linesAfter((s) => {
      s.columns[1].field = 'currencyNmae';
      s.forms.edit.fields[2].field = 'symbol';
    });
    expect(lines).toContainEqual(expect.stringMatching(/currency\.json#\/columns\/1\/field: 字段 currencyNmae 不在资源 currency 中/));
    expect(lines).toContainEqual(expect.stringMatching(/currency\.json#\/forms\/edit\/fields\/2\/field: 字段 symbol 不在资源 currency 中/));
  });
  it('a route used twice', () => {
    const copy = path.join(root, 'screens/baseConfig/currencyCopy.json');
    fs.writeFileSync(copy, original);
    try {
      expect(checkSchemas(root).map(formatProblem)).toContainEqual(expect.stringMatching(/currencyCopy\.json#\/route: 路由 \/baseConfig\/currency 与 .* 重复/));
    } finally {
      fs.rmSync(copy);
    }
  });
  it('a file that is not JSON', () => {
    fs.writeFileSync(currencyFile(), '{"route": ');
    try {
      expect(checkSchemas(root).map(formatProblem)).toContainEqual(expect.stringMatching(/currency\.json#\/: 不是合法的 JSON/));
    } finally {
      fs.writeFileSync(currencyFile(), original);
    }
  });
});

/** Edits another screen file (relative to schemas/screens), runs the check, restores it. */
function linesAfterEditing(file: string, edit: (screen: any) => void): string[] {
  const full = path.join(root, 'screens', file);
  const before = fs.readFileSync(full, 'utf8');
  const screen = JSON.parse(before);
  edit(screen);
  fs.writeFileSync(full, JSON.stringify(screen));
  try {
    return checkSchemas(root).map(formatProblem);
  } finally {
    fs.writeFileSync(full, before);
  }
}

describe('what the server would refuse at run time, or show raw', () => {
  it('a column over an enumerated value without labels (no dict, no options)', () => {
    expect(linesAfterEditing('commodity/list.json', (s) => { delete s.columns[10].dict; s.columns[10].type = 'text'; }))
      .toContainEqual(expect.stringMatching(/commodity\/list\.json#\/columns\/10: 字段 status（状态）是枚举值，需要 dict 或 options 才能显示为文字（资源字段的字典：productStatus）$/));
  });
  it('a form field over an enumerated value without labels', () => {
    expect(linesAfterEditing('commodity/list.json', (s) => {
      const form = Object.values(s.forms ?? {})[0] as any;
      const status = form.fields.find((x: any) => x.field === 'status');
      delete status.dict;
    })).toContainEqual(expect.stringMatching(/commodity\/list\.json#\/forms\/\w+\/fields\/\d+: 字段 status（状态）是枚举值/));
  });
  it('a list filter (or a searchable column) on a field the resource does not filter on', () => {
    expect(linesAfterEditing('procurement/supplier.json', (s) => { s.filters.push({ field: 'address', title: '地址', widget: 'input' }); }))
      .toContainEqual(expect.stringMatching(/supplier\.json#\/filters\/\d+\/field: 资源 supplier 不能按字段 address（地址）筛选（资源字段需 filterable: true）$/));
    expect(linesAfterEditing('procurement/supplier.json', (s) => { s.columns[5].search = true; }))
      .toContainEqual(expect.stringMatching(/supplier\.json#\/columns\/5\/search: 资源 supplier 不能按字段 address（地址）筛选/));
  });
  it('a sortable column the resource cannot sort by', () => {
    expect(linesAfterEditing('baseConfig/role.json', (s) => { s.columns.push({ field: 'rights', title: '权限', sortable: true }); }))
      .toContainEqual(expect.stringMatching(/role\.json#\/columns\/4\/sortable: 资源 role 不能按字段 rights（.*）排序/));
  });
  it("a list's default sort, and a list action's bound filter, the resource would refuse", () => {
    expect(linesAfterEditing('baseConfig/role.json', (s) => { s.defaultSort = { field: 'rights', order: 'ascend' }; }))
      .toContainEqual(expect.stringMatching(/role\.json#\/defaultSort\/field: 资源 role 不能按字段 rights 排序/));
    expect(linesAfterEditing('commodity/competing.json', (s) => { s.rowActions[1].bind = { ...s.rowActions[1].bind, remark: 'name' }; }))
      .toContainEqual(expect.stringMatching(/competing\.json#\/rowActions\/1\/bind\/remark: 资源 competitorPrice 不能按字段 remark/));
  });
});
