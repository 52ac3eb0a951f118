// Product downloads: the change log (from the audit trail) as a sheet, label data of chosen products as a
// sheet, and the images of chosen products as one zip named by product code.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import { companyDateRange } from '../../../core/format.ts';
import type { CallContext } from '../../catalog/context.ts';
import { TypedTenant } from '../../db/typed.ts';
import { fileDate, xlsxDownload, type XlsxCell, type XlsxColumn } from '../../files/xlsx.ts';
import { bizError, validationError } from '../../http/errors.ts';
import { FileResponse } from '../../http/file-response.ts';
import { notFound } from '../../resources/index.ts';
import { realDate } from '../../resources/fields.ts';
import type { Resource } from '../../resources/types.ts';
import { mediaStore } from '../../storage/media-store.ts';
import { ACTIONS, formatAt, pagedRows, safeName, tz } from './sheet-export.ts';

// archiver ships no types and is not imported anywhere else; a narrow local interface is enough.
type ZipArchive = Readable & {
  append(source: Buffer | Readable | string, data: { name: string }): ZipArchive;
  file(path: string, data: { name: string }): ZipArchive;
  finalize(): Promise<void>;
};
const archiver = createRequire(import.meta.url)('archiver') as (format: 'zip', options?: { zlib?: { level: number }; store?: boolean }) => ZipArchive;

export interface ProductLogInput { productId?: number; from?: string; to?: string }

/** 商品变更记录: the audit entries of one product (or all), newest first, one sheet row per changed field. */
export async function productLogExport(ctx: CallContext, product: Resource, input: ProductLogInput): Promise<FileResponse> {
  const tenant = TypedTenant.of(ctx.tenant);
  let q = tenant.select('auditLog').selectAll().where('entity', '=', product.name);
  let label = '全部商品';
  if (input.productId !== undefined) {
    const row = await tenant.select('product').select(['code', 'name']).where('id', '=', input.productId).executeTakeFirst();
    // A removed product keeps its log; only an id never seen in this company is an error.
    const logged = row ?? await tenant.select('auditLog').select('id').where('entity', '=', product.name).where('recordId', '=', String(input.productId)).limit(1).executeTakeFirst();
    if (!logged) throw notFound(product);
    if (row) label = String(row.code);
    q = q.where('recordId', '=', String(input.productId));
  }
  for (const [k, v] of [['from', input.from], ['to', input.to]] as const) {
    if (!v) continue;
    const m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(v);
    if (!m || !realDate(Number(m[1]), Number(m[2]), Number(m[3]))) throw validationError([{ field: k, message: `${k === 'from' ? '开始日期' : '结束日期'}不是有效的日期（YYYY-MM-DD）` }]);
    const [start, end] = companyDateRange(v, v, tz(ctx));
    q = k === 'from' ? q.where('at', '>=', start) : q.where('at', '<=', end);
  }
  q = q.orderBy('at', 'desc').orderBy('id', 'desc');
  const columns: XlsxColumn[] = [
    { header: '时间', width: 20 }, { header: '操作人', width: 12 }, { header: 'IP', width: 16 }, { header: '操作', width: 8 },
    { header: '商品编号', width: 10 }, { header: '商品', width: 24 }, { header: '字段', width: 14 }, { header: '原值', width: 24 }, { header: '新值', width: 24 },
  ];
  const show = (v: unknown): XlsxCell => (v === null || v === undefined ? null : typeof v === 'object' ? JSON.stringify(v) : typeof v === 'number' || typeof v === 'boolean' ? String(v) : String(v));
  return xlsxDownload(`商品变更记录_${safeName(label)}_${fileDate(tz(ctx))}.xlsx`, async (book) => {
    const sheet = book.addSheet('商品变更记录', columns);
    await pagedRows((limit, offset) => q.limit(limit).offset(offset).execute(), (rows) => {
      for (const r of rows) {
        const base: XlsxCell[] = [r.at ? formatAt(r.at, tz(ctx)) : null, show(r.userName), show(r.ip), ACTIONS[String(r.action)] ?? show(r.action), show(r.recordId), show(r.recordLabel)];
        let changes: Array<{ field?: string; title?: string; from?: unknown; to?: unknown }> = [];
        try { changes = JSON.parse(String(r.changes ?? '[]')); } catch { changes = []; }
        if (!changes.length) sheet.addRow([...base, null, null, null]);
        for (const c of changes) sheet.addRow([...base, c.title ?? c.field ?? null, show(c.from), show(c.to)]);
      }
    }, book.drain);
  });
}

/** 商品标签: label data (code, name, barcode, pack sizes, units) of the chosen products. */
export async function productLabelExport(ctx: CallContext, product: Resource, ids: number[]): Promise<FileResponse> {
  const rows = await TypedTenant.of(ctx.tenant).select('product')
    .select(['code', 'name', 'barcode', 'specification', 'unitSmall', 'unitMid', 'unitBig', 'midQty', 'bigQty'])
    .where('id', 'in', ids).orderBy('code').execute();
  if (!rows.length) throw notFound(product);
  const columns: XlsxColumn[] = [
    { header: '商品编码', width: 16 }, { header: '商品名称', width: 30 }, { header: '条码', width: 18 }, { header: '规格', width: 20 },
    { header: '箱规', width: 12 }, { header: '小单位', width: 8 }, { header: '中单位', width: 8 }, { header: '大单位', width: 8 },
  ];
  return xlsxDownload(`商品标签_${fileDate(tz(ctx))}.xlsx`, async (book) => {
    const sheet = book.addSheet('商品标签', columns);
    for (const r of rows) {
      sheet.addRow([r.code, r.name, r.barcode, r.specification, `${Number(r.midQty ?? 1)}/${Number(r.bigQty ?? 1)}`, r.unitSmall, r.unitMid, r.unitBig]);
    }
  });
}

/** The images of the chosen products in one zip, each named by its product code; IMAGE_NONE_4053 when none has one. */
export async function productImagesZip(ctx: CallContext, ids: number[]): Promise<FileResponse> {
  const rows = await TypedTenant.of(ctx.tenant).select('product')
    .innerJoin('media', (j) => j.onRef('media.id', '=', 'product.imageId').onRef('media.companyId', '=', 'product.companyId'))
    .select(['product.code', 'media.storedName', 'media.ext'])
    .where('product.id', 'in', ids).orderBy('product.code').execute();
  const store = mediaStore(ctx.config.dataDir);
  const files: Array<{ path: string; name: string }> = [];
  const used = new Set<string>();
  for (const r of rows) {
    let file: string;
    try { file = store.pathOf(String(r.storedName)); } catch { continue; }
    if (!fs.existsSync(file)) continue;
    const ext = String(r.ext ?? '').replace(/[^a-z0-9]/gi, '').slice(0, 8);
    let name = `${safeName(r.code)}${ext ? `.${ext}` : ''}`;
    for (let i = 2; used.has(name); i++) name = `${safeName(r.code)}_${i}${ext ? `.${ext}` : ''}`;
    used.add(name);
    files.push({ path: file, name });
  }
  if (!files.length) throw bizError('IMAGE_NONE_4053');
  // Images are compressed already: store them, do not deflate again.
  const zip = archiver('zip', { store: true });
  zip.on('warning', (e) => console.error('[images zip warning]', e));
  zip.on('error', (e) => { console.error('[images zip failed]', e); zip.destroy(e); });
  for (const f of files) zip.file(f.path, { name: f.name });
  void zip.finalize().catch(() => undefined);
  return new FileResponse(`商品图片_${fileDate(tz(ctx))}.zip`, 'application/zip', zip);
}
