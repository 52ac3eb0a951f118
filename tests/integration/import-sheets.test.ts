// Imports from spreadsheets made by LibreOffice, .xlsx and .xls (issue 20 items 10–12):
// - text columns (codes, barcodes, HS codes) are read as the sheet shows them: a code 0010001 held as
//   the number 10001 with the format "0000000" stays 0010001; the templates format those columns as text;
// - a header whose merged cells span several columns is refused naming the cells (商品名称 merged over
//   英文名称 silently dropped every 英文名称);
// - errors are listed in row order, each with its field's title from the resource.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convert, fods, SOFFICE } from '../fixtures/libreoffice.ts';
import { makeXlsx, multipart } from '../fixtures/spreadsheets.ts';
import { startTestServer, type TestServer } from './helpers.ts';

const IMPORT = '010206';
const TEMPLATE = '010245';

let t: TestServer;
let token: string;

beforeAll(async () => {
  t = await startTestServer();
  token = await t.login();
});

afterAll(async () => {
  await t?.close();
});

const upload = (body: Buffer, fileName: string) => {
  const { payload, headers } = multipart(fileName, body);
  return t.call('cdm', IMPORT, undefined, token, { payload, headers });
};

async function product(code: string) {
  return t.database.db.selectFrom('product').select(['code', 'name', 'nameEn', 'barcode', 'hsCode']).where('code', '=', code).executeTakeFirst();
}

describe.skipIf(!SOFFICE)('imports of LibreOffice files', () => {
  for (const [kind, prefix] of [['xlsx', '001'], ['xls', '002']] as const) {
    it(`.${kind}: codes, barcodes and HS codes keep their leading zeros, number cells with a zero-padded format or text cells`, async () => {
      const file = convert(fods([
        ['商品编码', '商品名称', '条码', '海关编码'],
        [{ number: Number(`${prefix}0001`), format: '0000000' }, '十字螺丝', { number: 690123456789, format: '0000000000000' }, { number: 101210010, format: '0000000000' }],
        [`${prefix}0002`, '六角螺母', '0690123456796', '0101210020'],
      ]), kind);
      const r = await upload(file, `商品.${kind}`);
      expect(r).toMatchObject({ code: '200', data: { created: 2 } });
      expect(await product(`${prefix}0001`)).toEqual({ code: `${prefix}0001`, name: '十字螺丝', nameEn: null, barcode: '0690123456789', hsCode: '0101210010' });
      expect(await product(`${prefix}0002`)).toEqual({ code: `${prefix}0002`, name: '六角螺母', nameEn: null, barcode: '0690123456796', hsCode: '0101210020' });
      expect(await product(String(Number(`${prefix}0001`)))).toBeUndefined();
    }, 60_000);

    it(`.${kind}: a header cell merged over two columns is refused naming the cells, and nothing is written`, async () => {
      const file = convert(fods([
        ['商品编码', { text: '商品名称', span: 2 }, '条码'],
        [`M${prefix}01`, '合并表头', 'merged header', '123'],
      ]), kind);
      const r = await upload(file, `商品.${kind}`);
      expect(r.code).toBe('COMMON_IMPORT_4012');
      expect(r.data.errors).toEqual([{ row: 1, field: '', message: '第 1 行：表头单元格 B1:C1 是合并单元格（跨 2 列），每列只能对应一个字段，请取消合并后重新导入' }]);
      expect(await product(`M${prefix}01`)).toBeUndefined();
    }, 60_000);
  }

  it('errors are listed in row order, each with the field title of the resource', async () => {
    const file = convert(fods([
      ['商品编码', '商品名称', '商品类别'],
      ['ORDER-1', '类别不对', '没有这个类别'], // found when references are looked up (a later check)
      ['ORDER 2', '编码不对', ''], // found when the cell is read (the first check)
      ['', '没有编码', ''], // found when required fields are checked
    ]), 'xlsx');
    const r = await upload(file, '商品.xlsx');
    expect(r.code).toBe('COMMON_IMPORT_4012');
    const errors = r.data.errors as Array<{ row: number; field: string; title?: string; message: string }>;
    expect(errors.map((e) => [e.row, e.field, e.title])).toEqual([[2, 'categoryId', '商品类别'], [3, 'code', '商品编码'], [4, 'code', '商品编码']]);
    expect(errors[0].message).toBe('第 2 行：商品类别“没有这个类别”不存在');
  }, 60_000);
});

describe('the product import template', () => {
  it('formats its text columns as text, and a code typed into it keeps its leading zeros', async () => {
    const res = await t.raw('cdm', TEMPLATE, {}, token);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    const header = (ws.getRow(1).values as unknown[]).slice(1).map((v) => (typeof v === 'object' && v && 'richText' in v ? (v as { richText: Array<{ text: string }> }).richText.map((x) => x.text).join('') : String(v)).replace(/^\*/, ''));
    const format = (title: string) => ws.getColumn(header.indexOf(title) + 1).numFmt;
    for (const title of ['商品编码', '条码', '海关编码', '商品名称']) expect(format(title), title).toBe('@');
    expect(format('中包装数量')).not.toBe('@');
    // What Excel or LibreOffice stores when 0030001 is typed into a text-formatted cell: the text.
    const row = ws.getRow(2);
    row.getCell(header.indexOf('商品编码') + 1).value = '0030001';
    row.getCell(header.indexOf('商品名称') + 1).value = '模板商品';
    row.getCell(header.indexOf('条码') + 1).value = '0690000000017';
    row.commit();
    const filled = Buffer.from(await wb.xlsx.writeBuffer());
    expect(await upload(filled, '商品导入模板.xlsx')).toMatchObject({ code: '200', data: { created: 1 } });
    expect(await product('0030001')).toMatchObject({ code: '0030001', barcode: '0690000000017' });
  });
});

describe('a header that does not map one column to one field', () => {
  it('a field title in two columns is refused naming both cells; unknown columns may repeat', async () => {
    const file = await makeXlsx([
      ['商品编码', '商品名称', '说明', '商品名称', '说明'],
      ['DUP-01', '第一列名称', 'x', '第二列名称', 'y'],
    ]);
    const r = await upload(file, '商品.xlsx');
    expect(r.code).toBe('COMMON_IMPORT_4012');
    expect(r.data.errors).toEqual([{ row: 1, field: '', message: '第 1 行：表头“商品名称”出现在 B1、D1，每个字段只能有一列，请删除多余的列后重新导入' }]);
    expect(await product('DUP-01')).toBeUndefined();
  });
});
