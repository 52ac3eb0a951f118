// Opening stock from a spreadsheet (.xlsx/.xls): one upload becomes one draft 期初库存单, all lines or
// none, with a row-by-row error report (COMMON_IMPORT_4012). The warehouse comes with the call
// (query parameter `warehouseId`); location codes are matched by their lookup key (spec §3).
import type { CallContext } from '../../catalog/context.ts';
import { ApiError, bizError, validationError } from '../../http/errors.ts';
import { cellTextAt, headerIndex, headerProblems, importFailed, normHeader, readUploadedSpreadsheet, xlsxDownload, type CellValue } from '../../files/xlsx.ts';
import { MAX_DOC_LINES, type LineInput, type LineSource } from './documents.ts';
import { lookupKeyOf } from './locations.ts';
import { TypedTenant } from '../../db/typed.ts';


const COLUMNS = {
  productCode: '商品编码',
  productName: '商品名称',
  lcCode: '库位编码',
  qty: '数量（最小单位）',
  big: '大包装数',
  mid: '中包装数',
  small: '最小单位数',
  remark: '备注',
} as const;

/** An integer cell; undefined when empty, NaN when not a whole number. */
function intCell(c: CellValue | undefined): number | undefined {
  if (c === null || c === undefined || (typeof c === 'string' && !c.trim())) return undefined;
  const n = typeof c === 'number' ? c : /^[+-]?\d+$/.test(String(c).trim().replace(/,/g, '')) ? Number(String(c).trim().replace(/,/g, '')) : NaN;
  return Number.isSafeInteger(n) ? n : NaN;
}

function positiveId(raw: unknown): number | undefined {
  const s = typeof raw === 'string' ? raw.trim() : typeof raw === 'number' ? String(raw) : '';
  return /^\d{1,12}$/.test(s) && Number(s) > 0 ? Number(s) : undefined;
}

export async function importInitLines(ctx: CallContext): Promise<Record<string, unknown>> {
  const warehouseId = positiveId(ctx.query.warehouseId);
  const upload = await readUploadedSpreadsheet(ctx);
  if (!warehouseId) throw validationError([{ field: 'warehouseId', message: '请选择仓库（warehouseId）' }]);
  const wh = await TypedTenant.of(ctx.tenant).select('warehouse').select('id').where('id', '=', warehouseId).executeTakeFirst();
  if (!wh) throw validationError([{ field: 'warehouseId', message: '仓库不存在' }]);
  const rows = upload.sheet.rows.filter((x) => x.cells.some((c) => c !== null && !(typeof c === 'string' && !c.trim())));
  if (!rows.length) throw bizError('COMMON_IMPORT_EMPTY_4014');
  const errors: Array<{ row: number; field: string; message: string }> = [];
  const fail = () => importFailed(errors);
  for (const p of headerProblems(upload.sheet, rows[0], Object.values(COLUMNS))) errors.push({ ...p, field: '' });
  if (errors.length) throw fail();
  const header = headerIndex(rows[0].cells);
  const col = (k: keyof typeof COLUMNS) => header.get(normHeader(COLUMNS[k]));
  if (col('productCode') === undefined) {
    errors.push({ row: rows[0].row, field: 'productCode', message: `缺少必填列“${COLUMNS.productCode}”，请使用期初库存导入模板` });
    throw fail();
  }
  if (col('qty') === undefined && col('big') === undefined && col('mid') === undefined && col('small') === undefined) {
    errors.push({ row: rows[0].row, field: 'qty', message: `缺少数量列：“${COLUMNS.qty}”或“${COLUMNS.big}/${COLUMNS.mid}/${COLUMNS.small}”` });
    throw fail();
  }
  const data = rows.slice(1);
  if (!data.length) { errors.push({ row: rows[0].row + 1, field: '', message: '文件中没有数据行' }); throw fail(); }
  if (data.length > MAX_DOC_LINES) throw bizError('COMMON_IMPORT_ROWS_4017', { max: MAX_DOC_LINES, count: data.length });

  const cell = (r: (typeof data)[number], k: keyof typeof COLUMNS) => { const i = col(k); return i === undefined ? undefined : r.cells[i]; };
  // Codes → ids in the company (products by code, locations by lookup key in the warehouse).
  const codes = [...new Set(data.map((r) => cellTextAt(r, col('productCode'))).filter(Boolean))];
  const products = new Map<string, number>();
  for (let i = 0; i < codes.length; i += 500) {
    const found = await TypedTenant.of(ctx.tenant).select('product').select(['id', 'code']).where('code', 'in', codes.slice(i, i + 500)).execute();
    for (const p of found) products.set(String(p.code), Number(p.id));
  }
  const keys = [...new Set(data.map((r) => lookupKeyOf(cellTextAt(r, col('lcCode')))).filter(Boolean))];
  const locations = new Map<string, number>();
  for (let i = 0; i < keys.length; i += 500) {
    const found = await TypedTenant.of(ctx.tenant).select('location').select(['id', 'lookupKey']).where('warehouseId', '=', warehouseId).where('lookupKey', 'in', keys.slice(i, i + 500)).execute();
    for (const l of found) locations.set(String(l.lookupKey), Number(l.id));
  }
  const lines: LineInput[] = [];
  const sources: LineSource[] = [];
  for (const r of data) {
    const err = (field: string, message: string) => errors.push({ row: r.row, field, message: `第 ${r.row} 行：${message}` });
    const code = cellTextAt(r, col('productCode'));
    const productId = code ? products.get(code) : undefined;
    if (!code) { err('productCode', `${COLUMNS.productCode}不能为空`); continue; }
    if (!productId) { err('productCode', `商品编码“${code.slice(0, 40)}”不存在`); continue; }
    const lc = cellTextAt(r, col('lcCode'));
    let locationId: number | null = null;
    if (lc) {
      const id = locations.get(lookupKeyOf(lc));
      if (!id) { err('lcCode', `库位“${lc.slice(0, 40)}”在所选仓库中不存在`); continue; }
      locationId = id;
    }
    const nums = { qty: intCell(cell(r, 'qty')), big: intCell(cell(r, 'big')), mid: intCell(cell(r, 'mid')), small: intCell(cell(r, 'small')) };
    const badNum = (Object.keys(nums) as Array<keyof typeof nums>).find((k) => Number.isNaN(nums[k]));
    if (badNum) { err(badNum, `${COLUMNS[badNum]}必须是整数`); continue; }
    const remark = cellTextAt(r, col('remark'));
    lines.push({ productId, locationId, qty: nums.qty ?? null, big: nums.big ?? null, mid: nums.mid ?? null, small: nums.small ?? null, remark: remark ? remark.slice(0, 200) : null });
    sources.push({ label: `第 ${r.row} 行`, field: `row${r.row}` });
  }
  if (errors.length) throw fail();
  try {
    return await ctx.documents.get('stockInit')!.save(ctx, { warehouseId, remark: `导入：${upload.fileName}`.slice(0, 500), lines }, {}, (i) => sources[i]!);
  } catch (e) {
    // Line checks name the spreadsheet row; report them as an import failure.
    const list = e instanceof ApiError && e.code === 'COMMON_VALIDATION_4000' ? (e.data as { errors?: Array<{ field: string; message: string }> } | null)?.errors : undefined;
    if (!list) throw e;
    for (const x of list) {
      const m = /^row(\d+)\.(\w+)$/.exec(x.field);
      errors.push({ row: m ? Number(m[1]) : 0, field: m ? m[2]! : x.field, message: x.message });
    }
    throw fail();
  }
}

export function initTemplate() {
  return xlsxDownload('期初库存导入模板.xlsx', async (book) => {
    book.addSheet('期初库存', [
      { header: COLUMNS.productCode, width: 16, highlight: true, numFmt: '@' }, { header: COLUMNS.productName, width: 30, numFmt: '@' }, { header: COLUMNS.lcCode, width: 14, numFmt: '@' },
      { header: COLUMNS.qty, width: 16 }, { header: COLUMNS.big, width: 10 }, { header: COLUMNS.mid, width: 10 }, { header: COLUMNS.small, width: 12 },
      { header: COLUMNS.remark, width: 30 },
    ]);
    const notes = book.addSheet('填写说明', [{ header: '列名', width: 18 }, { header: '说明', width: 80 }]);
    notes.addRow([COLUMNS.productCode, '必填，按编码匹配本公司商品']);
    notes.addRow([COLUMNS.productName, '仅供参考，导入时忽略']);
    notes.addRow([COLUMNS.lcCode, '所选仓库中的库位编码（如 A-01-02-S；按去掉 -、S、Z、A、B 后的查询键匹配）；公司要求指定库位时必填']);
    notes.addRow([COLUMNS.qty, '正整数，最小单位；填了此列时忽略大/中/最小单位数']);
    notes.addRow([`${COLUMNS.big}/${COLUMNS.mid}/${COLUMNS.small}`, '不填“数量（最小单位）”时，按商品箱规换算：大包装数 × 大包装含量 + 中包装数 × 中包装含量 + 最小单位数']);
    notes.addRow(['重复', '同一商品同一库位只能出现一行']);
    notes.addRow(['出错处理', '任何一行有错误时不会生成单据，错误报告会列出行号和原因；导入成功后生成一张草稿期初库存单，核对后过账']);
  });
}
