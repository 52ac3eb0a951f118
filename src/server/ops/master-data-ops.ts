// Hand-written master-data calls (product lookups and files, category tree, exchange rate of a day,
// dictionaries, price-list and presale files). Every query is scoped by the caller's company.
import fs from 'node:fs';
import { buildTree } from '../domain/tree.ts';
import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { companyDateRange } from '../../core/format.ts';
import type { CallContext, OpHandler } from '../catalog/context.ts';
import type { Tenant } from '../catalog/tenant.ts';
import { bizError, validationError } from '../http/errors.ts';
import { FileResponse } from '../http/file-response.ts';
import { fileDate, xlsxDownload, type XlsxCell, type XlsxColumn } from '../files/xlsx.ts';
import { takeSequenceValue } from '../domain/sequence.ts';
import { fetchRow, notFound } from '../resources/index.ts';
import { formatChanges, realDate } from '../resources/fields.ts';
import type { Resource, ResourceRegistry } from '../resources/types.ts';
import { mediaStore } from '../storage/media-store.ts';
import type { OpsDeps } from './index.ts';

type Row = Record<string, unknown>;

// archiver ships no types and is not imported anywhere else; a narrow local interface is enough.
type ZipArchive = Readable & {
  append(source: Buffer | Readable | string, data: { name: string }): ZipArchive;
  file(path: string, data: { name: string }): ZipArchive;
  finalize(): Promise<void>;
};
const archiver = createRequire(import.meta.url)('archiver') as (format: 'zip', options?: { zlib?: { level: number }; store?: boolean }) => ZipArchive;

const money = (v: unknown): number | null => (v === null || v === undefined ? null : new Decimal(String(v)).div(100).toNumber());
const moneyText = (v: unknown): string | null => (v === null || v === undefined ? null : new Decimal(String(v)).div(100).toFixed(2));
const MONEY_FMT = '#,##0.00';
const tz = (ctx: CallContext) => ctx.caller?.company.timeZone ?? 8;
const PAGE = 2000;

function header(ctx: CallContext, name: string): string | undefined {
  const v = ctx.headers[name.toLowerCase()];
  const s = Array.isArray(v) ? v[0] : v;
  return typeof s === 'string' && s.trim() ? s.trim() : undefined;
}

function positiveId(raw: unknown): number | undefined {
  const s = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
  if (!/^\d{1,15}$/.test(s)) return undefined;
  const n = Number(s);
  return n > 0 ? n : undefined;
}

/** The price list named by the `priceTitleId` header, in the caller's company. */
async function priceTitleOf(ctx: CallContext): Promise<Row> {
  const id = positiveId(header(ctx, 'priceTitleId'));
  if (!id) throw bizError('COMMON_HEADER_4016', { name: 'priceTitleId' });
  const row = await ctx.tenant.select('priceTitle')
    .leftJoin('currency', (j) => j.onRef('currency.id', '=', 'priceTitle.currencyId').onRef('currency.companyId', '=', 'priceTitle.companyId'))
    .select(['priceTitle.id', 'priceTitle.code', 'priceTitle.name', 'priceTitle.kind', 'priceTitle.enabled', 'currency.currencyName'])
    .where('priceTitle.id', '=', id).executeTakeFirst();
  if (!row) throw bizError('COMMON_NOT_FOUND_4004', { entity: '价格表' });
  return row as Row;
}

/** The presale plan named by `pptId` (query or header), in the caller's company. */
async function presalePlanOf(ctx: CallContext): Promise<Row> {
  const id = positiveId(ctx.query.pptId ?? header(ctx, 'pptId'));
  if (!id) throw bizError('COMMON_HEADER_4016', { name: 'pptId' });
  const row = await ctx.tenant.select('presalePlan').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw bizError('COMMON_NOT_FOUND_4004', { entity: '预售计划' });
  return row as Row;
}

/** File-name-safe text (keeps Chinese). */
const safeName = (s: unknown) => String(s ?? '').replace(/[\\/:*?"<>|\x00-\x1f]/g, '_').slice(0, 60) || '未命名';

const ACTIONS: Record<string, string> = { create: '新增', update: '修改', remove: '删除', import: '导入' };

/** Streams rows of a paged query into one sheet. */
async function pagedRows(query: () => { limit(n: number): { offset(n: number): { execute(): Promise<Row[]> } } }, each: (rows: Row[]) => void | Promise<void>, drain: () => Promise<void>): Promise<void> {
  for (let offset = 0; offset < 1_000_000; offset += PAGE) {
    const rows = await query().limit(PAGE).offset(offset).execute();
    await each(rows);
    if (rows.length < PAGE) break;
    await drain();
  }
}

const categoryTree = (rows: Row[]) => buildTree(rows);

/** Next product code from the company's sequence: a conditional increment, so two callers never share one. */
async function nextProductCode(ctx: CallContext): Promise<string> {
  return ctx.transaction(async (db, tenant) => {
    // First use: start after the largest code of the form P000123 already in the company.
    const start = async () => {
      const top = await tenant.select('product').select('code').where('code', '>=', 'P000000').where('code', '<=', 'P999999')
        .where(sql<boolean>`length(${sql.ref('code')}) = 7`).orderBy('code', 'desc').limit(1).executeTakeFirst();
      return top && /^P\d{6}$/.test(String(top.code)) ? Number(String(top.code).slice(1)) + 1 : 1;
    };
    for (let attempt = 0; attempt < 100; attempt++) {
      const value = await takeSequenceValue(db, tenant.companyId, 'productCode', start);
      const code = `P${String(value).padStart(6, '0')}`;
      const taken = await tenant.select('product').select('id').where('code', '=', code).executeTakeFirst();
      if (!taken) return code;
    }
    throw new Error('product code sequence: no free code after 100 attempts');
  });
}

async function productLog(ctx: CallContext, product: Resource, input: { productId?: number; from?: string; to?: string }) {
  let q = ctx.tenant.select('auditLog').selectAll().where('entity', '=', product.name);
  let label = '全部商品';
  if (input.productId !== undefined) {
    const row = await ctx.tenant.select('product').select(['code', 'name']).where('id', '=', input.productId).executeTakeFirst();
    // A removed product keeps its log; only an id never seen in this company is an error.
    const logged = row ?? await ctx.tenant.select('auditLog').select('id').where('entity', '=', product.name).where('recordId', '=', String(input.productId)).limit(1).executeTakeFirst();
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
    await pagedRows(() => q, (rows) => {
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

function formatAt(at: unknown, tzHours: number): string {
  const t = Date.parse(String(at));
  if (Number.isNaN(t)) return String(at ?? '');
  const d = new Date(t + tzHours * 3_600_000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
}

async function imagesZip(ctx: CallContext, ids: number[]): Promise<FileResponse> {
  const rows = (await ctx.tenant.select('product')
    .innerJoin('media', (j) => j.onRef('media.id', '=', 'product.imageId').onRef('media.companyId', '=', 'product.companyId'))
    .select(['product.code', 'media.storedName', 'media.ext'])
    .where('product.id', 'in', ids).orderBy('product.code').execute()) as Row[];
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

/** Dictionaries: enums declared in resource files (field.dict), then the company's own dictionary items. */
async function allDictionaries(ctx: CallContext, reg: ResourceRegistry) {
  const out: Record<string, Array<{ value: string; label: string }>> = {};
  for (const r of reg.resources.values()) {
    for (const f of r.fields) if (f.type === 'enum' && f.dict) out[f.dict] = f.values!.map((v) => ({ value: v.value, label: v.label }));
  }
  const items = (await ctx.tenant.select('dictItem').select(['dictCode', 'value', 'label']).where('enabled', '=', 1)
    .orderBy('dictCode').orderBy('sort').orderBy('value').execute()) as Row[];
  const company: typeof out = {};
  for (const i of items) (company[String(i.dictCode)] ??= []).push({ value: String(i.value), label: String(i.label) });
  return { ...out, ...company };
}

/** The purchase price list prices are compared with: the caller's default, else the company's first. */
async function comparisonList(ctx: CallContext, tenant: Tenant, exclude: number): Promise<Row | undefined> {
  const account = await tenant.select('account').select('purchasePriceId').where('id', '=', ctx.caller!.accountId).executeTakeFirst();
  const pick = async (id?: unknown) => {
    let q = tenant.select('priceTitle').select(['id', 'name']).where('kind', '=', 'purchase').where('id', '!=', exclude);
    if (id !== undefined) q = q.where('id', '=', id as number);
    else q = q.where('enabled', '=', 1).orderBy('code');
    return (await q.limit(1).executeTakeFirst()) as Row | undefined;
  };
  return (account?.purchasePriceId ? await pick(account.purchasePriceId) : undefined) ?? (await pick());
}

export function masterDataOps(deps: OpsDeps): Record<string, OpHandler> {
  const reg = deps.resources;
  const product = reg.get('product')!;
  const idList = { type: 'array', minItems: 1, maxItems: 1000, items: { type: 'integer', minimum: 1 }, title: '所选商品' };

  return {
    'product.lookup': {
      input: { type: 'object', required: ['code'], properties: { code: { type: 'string', minLength: 1, maxLength: 50, title: '商品编码或条码' } } },
      async run(ctx, input: { code: string }) {
        const code = input.code.trim();
        if (!code) throw validationError([{ field: 'code', message: '商品编码或条码不能为空' }]);
        const hit = (await ctx.tenant.select('product').select('id').where('code', '=', code).executeTakeFirst())
          ?? (await ctx.tenant.select('product').select('id').where('barcode', '=', code).orderBy('code').limit(1).executeTakeFirst());
        if (!hit) throw bizError('PRODUCT_NOT_EXIST_4001');
        return fetchRow(reg, product, ctx.tenant, Number(hit.id));
      },
    },

    'product.unitOptions': {
      async run(ctx) {
        const rows = (await ctx.tenant.select('dictItem').select(['value', 'label']).where('dictCode', '=', 'unit').where('enabled', '=', 1)
          .orderBy('sort').orderBy('value').execute()) as Row[];
        return rows.map((r) => ({ value: String(r.value), label: String(r.label) }));
      },
    },

    'product.nextCode': {
      async run(ctx) {
        return { code: await nextProductCode(ctx) };
      },
    },

    'product.imagesZip': {
      input: { type: 'object', required: ['ids'], properties: { ids: idList } },
      run: (ctx, input: { ids: number[] }) => imagesZip(ctx, [...new Set(input.ids)]),
    },

    'product.logExport': {
      input: {
        type: 'object',
        properties: {
          productId: { type: 'integer', minimum: 1, title: '商品' },
          from: { type: 'string', maxLength: 10, title: '开始日期' },
          to: { type: 'string', maxLength: 10, title: '结束日期' },
        },
      },
      run: (ctx, input: { productId?: number; from?: string; to?: string }) => productLog(ctx, product, input),
    },

    'product.labelExport': {
      input: { type: 'object', required: ['ids'], properties: { ids: idList } },
      async run(ctx, input: { ids: number[] }) {
        const rows = (await ctx.tenant.select('product')
          .select(['code', 'name', 'barcode', 'specification', 'unitSmall', 'unitMid', 'unitBig', 'midQty', 'bigQty'])
          .where('id', 'in', [...new Set(input.ids)]).orderBy('code').execute()) as Row[];
        if (!rows.length) throw notFound(product);
        const columns: XlsxColumn[] = [
          { header: '商品编码', width: 16 }, { header: '商品名称', width: 30 }, { header: '条码', width: 18 }, { header: '规格', width: 20 },
          { header: '箱规', width: 12 }, { header: '小单位', width: 8 }, { header: '中单位', width: 8 }, { header: '大单位', width: 8 },
        ];
        return xlsxDownload(`商品标签_${fileDate(tz(ctx))}.xlsx`, async (book) => {
          const sheet = book.addSheet('商品标签', columns);
          for (const r of rows) {
            sheet.addRow([r.code, r.name, r.barcode, r.specification, `${Number(r.midQty ?? 1)}/${Number(r.bigQty ?? 1)}`, r.unitSmall, r.unitMid, r.unitBig] as XlsxCell[]);
          }
        });
      },
    },

    'category.tree': {
      async run(ctx) {
        const rows = (await ctx.tenant.select('category').select(['id', 'parentId', 'code', 'name', 'sort']).execute()) as Row[];
        return categoryTree(rows);
      },
    },

    'exchangeRate.on': {
      input: {
        type: 'object', required: ['currencyId', 'date'],
        properties: { currencyId: { type: 'integer', minimum: 1, title: '币种' }, date: { type: 'string', maxLength: 10, title: '日期' } },
      },
      async run(ctx, input: { currencyId: number; date: string }) {
        const m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(input.date.trim());
        const date = m ? realDate(Number(m[1]), Number(m[2]), Number(m[3])) : undefined;
        if (!date) throw validationError([{ field: 'date', message: '日期不是有效的日期（YYYY-MM-DD）' }]);
        const currency = await ctx.tenant.select('currency').select(['id', 'code', 'currencyName', 'isBase']).where('id', '=', input.currencyId).executeTakeFirst();
        if (!currency) throw bizError('COMMON_NOT_FOUND_4004', { entity: '币种' });
        const base = { currencyId: Number(currency.id), currencyCode: String(currency.code), currencyName: String(currency.currencyName) };
        if (Number(currency.isBase) === 1) return { ...base, rateDate: date, rate: '1.000000', isBase: true };
        const rate = await ctx.tenant.select('exchangeRate').select(['rateDate', 'rate']).where('currencyId', '=', input.currencyId)
          .where('rateDate', '<=', date).orderBy('rateDate', 'desc').limit(1).executeTakeFirst();
        if (!rate) throw bizError('EXCHANGE_RATE_NOT_FOUND_4051', { currency: base.currencyName, date }, { currencyId: base.currencyId, date });
        return { ...base, rateDate: String(rate.rateDate), rate: new Decimal(String(rate.rate)).div(1_000_000).toFixed(6), isBase: false };
      },
    },

    'dictionary.all': {
      run: (ctx) => allDictionaries(ctx, reg),
    },

    'price.export': {
      async run(ctx) {
        const title = await priceTitleOf(ctx);
        const q = () => ctx.tenant.select('productPrice')
          .innerJoin('product', (j) => j.onRef('product.id', '=', 'productPrice.productId').onRef('product.companyId', '=', 'productPrice.companyId'))
          .select(['product.code', 'product.name', 'product.specification', 'product.unitSmall', 'productPrice.price', 'productPrice.updatedAt'])
          .where('productPrice.priceTitleId', '=', title.id as number).orderBy('product.code').orderBy('productPrice.id');
        const columns: XlsxColumn[] = [
          { header: '商品编码', width: 16 }, { header: '商品名称', width: 30 }, { header: '规格', width: 20 }, { header: '单位', width: 8 },
          { header: '价格', width: 14, numFmt: MONEY_FMT }, { header: '币种', width: 10 }, { header: '更新时间', width: 20 },
        ];
        return xlsxDownload(`${safeName(title.name)}价格_${fileDate(tz(ctx))}.xlsx`, async (book) => {
          const sheet = book.addSheet(safeName(title.name), columns);
          await pagedRows(q as never, (rows) => {
            for (const r of rows) sheet.addRow([r.code, r.name, r.specification, r.unitSmall, money(r.price), title.currencyName, formatAt(r.updatedAt, tz(ctx))] as XlsxCell[]);
          }, book.drain);
        });
      },
    },

    'price.template': {
      async run(ctx) {
        const title = await priceTitleOf(ctx);
        const q = () => ctx.tenant.select('product')
          .leftJoin('productPrice', (j) => j.onRef('productPrice.productId', '=', 'product.id').onRef('productPrice.companyId', '=', 'product.companyId')
            .on('productPrice.priceTitleId', '=', title.id as number))
          .select(['product.code', 'product.name', 'product.specification', 'productPrice.price'])
          .orderBy('product.code').orderBy('product.id');
        return xlsxDownload(`${safeName(title.name)}价格导入模板.xlsx`, async (book) => {
          const sheet = book.addSheet('价格', [
            { header: '商品编码', width: 16, highlight: true, numFmt: '@' }, { header: '商品名称', width: 30, numFmt: '@' }, { header: '规格', width: 20 },
            { header: '价格', width: 14, numFmt: MONEY_FMT, highlight: true },
          ]);
          await pagedRows(q as never, (rows) => {
            for (const r of rows) sheet.addRow([r.code, r.name, r.specification, money(r.price)] as XlsxCell[]);
          }, book.drain);
          const notes = book.addSheet('填写说明', [{ header: '项目', width: 14 }, { header: '说明', width: 70 }]);
          notes.addRow(['价格表', `${String(title.name)}（${String(title.code)}），币种：${String(title.currencyName ?? '未设置')}`]);
          notes.addRow(['商品编码', '必填，按编码匹配本公司商品']);
          notes.addRow(['价格', '必填，金额，最多 2 位小数；留空的行不会修改价格']);
          notes.addRow(['商品名称、规格', '仅供参考，导入时忽略']);
        });
      },
    },

    'price.changeExport': {
      async run(ctx) {
        const title = await priceTitleOf(ctx);
        // Price changes are audited as entity 'productPrice', recordId '<priceTitleId>:<productId>',
        // recordLabel = product code, changes [{field:'price', from, to}] (amounts as decimal strings).
        const q = () => ctx.tenant.select('auditLog').selectAll().where('entity', '=', 'productPrice')
          .where('recordId', 'like', `${Number(title.id)}:%`).orderBy('at', 'desc').orderBy('id', 'desc');
        return xlsxDownload(`${safeName(title.name)}调价记录_${fileDate(tz(ctx))}.xlsx`, async (book) => {
          const sheet = book.addSheet('调价记录', [
            { header: '时间', width: 20 }, { header: '操作人', width: 12 }, { header: '操作', width: 8 }, { header: '商品编码', width: 16 },
            { header: '原价', width: 14, numFmt: MONEY_FMT }, { header: '新价', width: 14, numFmt: MONEY_FMT }, { header: '调整幅度', width: 12 },
          ]);
          await pagedRows(q as never, (rows) => {
            for (const r of rows) {
              let changes: Array<{ field?: string; from?: unknown; to?: unknown }> = [];
              try { changes = JSON.parse(String(r.changes ?? '[]')); } catch { changes = []; }
              const c = changes.find((x) => x.field === 'price');
              const num = (v: unknown) => { try { return v === null || v === undefined || v === '' ? undefined : new Decimal(String(v)); } catch { return undefined; } };
              const from = num(c?.from);
              const to = num(c?.to);
              const pct = from && to && !from.isZero() ? `${to.minus(from).div(from).times(100).toFixed(2)}%` : null;
              sheet.addRow([formatAt(r.at, tz(ctx)), r.userName as string, ACTIONS[String(r.action)] ?? String(r.action), r.recordLabel as string,
                from ? from.toNumber() : null, to ? to.toNumber() : null, pct] as XlsxCell[]);
              if (!c && changes.length) sheet.addRow([null, null, null, null, null, null, formatChanges(changes)]);
            }
          }, book.drain);
        });
      },
    },

    'price.compareExport': {
      async run(ctx) {
        const title = await priceTitleOf(ctx);
        const other = await comparisonList(ctx, ctx.tenant, Number(title.id));
        const q = () => {
          let b = ctx.tenant.select('productPrice')
            .innerJoin('product', (j) => j.onRef('product.id', '=', 'productPrice.productId').onRef('product.companyId', '=', 'productPrice.companyId'));
          b = other
            ? b.leftJoin('productPrice as cmp', (j) => j.onRef('cmp.productId', '=', 'product.id').onRef('cmp.companyId', '=', 'product.companyId').on('cmp.priceTitleId', '=', other.id as number))
              .select(['cmp.price as cost'] as never)
            : b.select(['product.price as cost'] as never);
          return b.select(['product.code', 'product.name', 'product.specification', 'productPrice.price'])
            .where('productPrice.priceTitleId', '=', title.id as number).orderBy('product.code').orderBy('productPrice.id');
        };
        const costTitle = other ? `${String(other.name)}` : '参考价';
        return xlsxDownload(`${safeName(title.name)}价格对比_${fileDate(tz(ctx))}.xlsx`, async (book) => {
          const sheet = book.addSheet('价格对比', [
            { header: '商品编码', width: 16 }, { header: '商品名称', width: 30 }, { header: '规格', width: 20 },
            { header: `${String(title.name)}`, width: 14, numFmt: MONEY_FMT }, { header: `采购价（${costTitle}）`, width: 16, numFmt: MONEY_FMT },
            { header: '差额', width: 14, numFmt: MONEY_FMT }, { header: '毛利率', width: 10 },
          ]);
          await pagedRows(q as never, (rows) => {
            for (const r of rows) {
              const price = r.price === null || r.price === undefined ? undefined : new Decimal(String(r.price));
              const cost = r.cost === null || r.cost === undefined ? undefined : new Decimal(String(r.cost));
              const diff = price && cost ? price.minus(cost) : undefined;
              const margin = diff && price && !price.isZero() ? `${diff.div(price).times(100).toFixed(2)}%` : null;
              sheet.addRow([r.code, r.name, r.specification, money(r.price), money(r.cost), diff ? diff.div(100).toNumber() : null, margin] as XlsxCell[]);
            }
          }, book.drain);
        });
      },
    },

    'presale.itemsExport': {
      async run(ctx) {
        const plan = await presalePlanOf(ctx);
        const q = () => ctx.tenant.select('presaleItem')
          .innerJoin('product', (j) => j.onRef('product.id', '=', 'presaleItem.productId').onRef('product.companyId', '=', 'presaleItem.companyId'))
          .select(['product.code', 'product.name', 'product.specification', 'product.unitSmall', 'presaleItem.qty', 'presaleItem.price'])
          .where('presaleItem.planId', '=', plan.id as number).orderBy('product.code').orderBy('presaleItem.id');
        return xlsxDownload(`${safeName(plan.name)}预售商品_${fileDate(tz(ctx))}.xlsx`, async (book) => {
          const sheet = book.addSheet('预售商品', [
            { header: '商品编码', width: 16 }, { header: '商品名称', width: 30 }, { header: '规格', width: 20 }, { header: '单位', width: 8 },
            { header: '数量', width: 10 }, { header: '预售价', width: 14, numFmt: MONEY_FMT },
          ]);
          await pagedRows(q as never, (rows) => {
            for (const r of rows) sheet.addRow([r.code, r.name, r.specification, r.unitSmall, Number(r.qty), money(r.price)] as XlsxCell[]);
          }, book.drain);
        });
      },
    },

    'presale.itemsTemplate': {
      async run(ctx) {
        const plan = await presalePlanOf(ctx);
        const rows = (await ctx.tenant.select('presaleItem')
          .innerJoin('product', (j) => j.onRef('product.id', '=', 'presaleItem.productId').onRef('product.companyId', '=', 'presaleItem.companyId'))
          .select(['product.code', 'product.name', 'presaleItem.qty', 'presaleItem.price'])
          .where('presaleItem.planId', '=', plan.id as number).orderBy('product.code').limit(100_000).execute()) as Row[];
        return xlsxDownload(`${safeName(plan.name)}预售商品导入模板.xlsx`, async (book) => {
          const sheet = book.addSheet('预售商品', [
            { header: '商品编码', width: 16, highlight: true, numFmt: '@' }, { header: '商品名称', width: 30, numFmt: '@' },
            { header: '数量', width: 10, highlight: true }, { header: '预售价', width: 14, numFmt: MONEY_FMT, highlight: true },
          ]);
          for (const r of rows) sheet.addRow([r.code, r.name, Number(r.qty), money(r.price)] as XlsxCell[]);
          const notes = book.addSheet('填写说明', [{ header: '项目', width: 14 }, { header: '说明', width: 70 }]);
          notes.addRow(['预售计划', `${String(plan.name)}（${String(plan.code)}）`]);
          notes.addRow(['商品编码', '必填，按编码匹配本公司商品']);
          notes.addRow(['数量', '必填，正整数（最小单位）']);
          notes.addRow(['预售价', `必填，金额，最多 2 位小数（如 ${moneyText(1999)}）`]);
          notes.addRow(['商品名称', '仅供参考，导入时忽略']);
        });
      },
    },

    'presale.whitelistExport': {
      async run(ctx) {
        const plan = await presalePlanOf(ctx);
        const q = () => ctx.tenant.select('presaleWhitelist')
          .innerJoin('client', (j) => j.onRef('client.id', '=', 'presaleWhitelist.clientId').onRef('client.companyId', '=', 'presaleWhitelist.companyId'))
          .select(['client.code', 'client.name', 'client.contact', 'client.phone'])
          .where('presaleWhitelist.planId', '=', plan.id as number).orderBy('client.code').orderBy('presaleWhitelist.id');
        return xlsxDownload(`${safeName(plan.name)}预售白名单_${fileDate(tz(ctx))}.xlsx`, async (book) => {
          const sheet = book.addSheet('预售白名单', [{ header: '客户编码', width: 16 }, { header: '客户名称', width: 30 }, { header: '联系人', width: 12 }, { header: '电话', width: 16 }]);
          await pagedRows(q as never, (rows) => {
            for (const r of rows) sheet.addRow([r.code, r.name, r.contact, r.phone] as XlsxCell[]);
          }, book.drain);
        });
      },
    },
  };
}
