// Labels (product, location, document) and what their QR code opens (/qrCodeLoad).
//
// A QR code carries a signed token, not a bare id: `<kind><companyId>-<id>.<signature>`, the signature an
// HMAC-SHA256 (first 128 bits) of the part before the dot under the company's own random label key
// (company.label_key, made on first use). The public call that /qrCodeLoad makes without a login trusts
// the company and the row only through that signature, so a token cannot be made up for another row or
// another company, and it answers no more than the label itself prints: the code and the name. A
// logged-in caller of the same company gets the stock and the detail page on top (labelStock).
import crypto from 'node:crypto';
import type { CallContext } from '../../catalog/context.ts';
import { Tenant } from '../../catalog/tenant.ts';
import type { DB } from '../../db/connection.ts';
import { holdsRight } from '../../auth/caller.ts';
import { bizError, validationError } from '../../http/errors.ts';
import { stockRows } from './scan.ts';
import { TypedTenant, typed } from '../../db/typed.ts';

type Row = Record<string, unknown>;

export type LabelKind = 'product' | 'location' | 'document';
type QrKind = 'product' | 'location' | 'carton';
const KIND_CHAR: Record<QrKind, string> = { product: 'P', location: 'L', carton: 'C' };
const KIND_TEXT: Record<string, string> = { product: '商品', location: '库位', document: '单据', carton: '纸箱' };

/** The right product and location labels need (reading what they print); a document's is its own read right. */
const LABEL_RIGHTS: Record<'product' | 'location', string[]> = {
  product: ['commodity.list', 'commodity.list.export'],
  location: ['entrepot.location'],
};

async function labelKey(untypedDb: DB, companyId: number, create: boolean): Promise<Buffer | undefined> {
  const db = typed(untypedDb);
  const read = async () => await db.selectFrom('company').select('labelKey').where('id', '=', companyId).executeTakeFirst();
  let row = await read();
  if (!row) return undefined;
  if (row.labelKey == null && create) {
    // set once: two first uses at once both read back the one that won
    await db.updateTable('company').set({ labelKey: crypto.randomBytes(32).toString('base64url') }).where('id', '=', companyId).where('labelKey', 'is', null).execute();
    row = await read();
  }
  return row?.labelKey == null ? undefined : Buffer.from(String(row.labelKey), 'base64url');
}

const sign = (key: Buffer, payload: string) => crypto.createHmac('sha256', key).update(payload).digest().subarray(0, 16).toString('base64url');

export function signLabel(key: Buffer, kind: QrKind, companyId: number, id: number): string {
  const payload = `${KIND_CHAR[kind]}${companyId}-${id}`;
  return `${payload}.${sign(key, payload)}`;
}

/** The row a token names, when its signature holds; undefined for anything else (never a reason). */
export async function verifyLabel(db: DB, token: string): Promise<{ kind: QrKind; companyId: number; id: number } | undefined> {
  const m = /^([PLC])([1-9]\d{0,9})-([1-9]\d{0,12})\.([A-Za-z0-9_-]{22})$/.exec(token.trim());
  if (!m) return undefined;
  const companyId = Number(m[2]);
  const id = Number(m[3]);
  if (!Number.isSafeInteger(companyId) || companyId > 2_147_483_647 || !Number.isSafeInteger(id)) return undefined;
  const key = await labelKey(db, companyId, false);
  if (!key) return undefined;
  const want = Buffer.from(sign(key, `${m[1]}${companyId}-${id}`));
  const got = Buffer.from(m[4]!);
  if (want.length !== got.length || !crypto.timingSafeEqual(want, got)) return undefined;
  return { kind: m[1] === 'P' ? 'product' : m[1] === 'C' ? 'carton' : 'location', companyId, id };
}

async function describe(untypedTenant: Tenant, kind: QrKind, id: number): Promise<{ code: string; name: string } | undefined> {
  const tenant = TypedTenant.of(untypedTenant);
  if (kind === 'carton') {
    // a carton: its number and whose goods it carries (the client), nothing of its contents without a login
    const c = await tenant.select('carton').leftJoin('client', (j) => j.onRef('client.id', '=', 'carton.clientId').onRef('client.companyId', '=', 'carton.companyId'))
      .select(['carton.docNo', 'client.name as clientName']).where('carton.id', '=', id).executeTakeFirst();
    return c ? { code: String(c.docNo), name: `纸箱 ${String(c.clientName ?? '')}`.trim() } : undefined;
  }
  if (kind === 'product') {
    const p = await tenant.select('product').select(['code', 'name']).where('id', '=', id).executeTakeFirst();
    return p ? { code: String(p.code), name: String(p.name) } : undefined;
  }
  const l = await tenant.select('location')
    .innerJoin('warehouse', (j) => j.onRef('warehouse.id', '=', 'location.warehouseId').onRef('warehouse.companyId', '=', 'location.companyId'))
    .select(['location.lcCode', 'warehouse.name as warehouseName']).where('location.id', '=', id).executeTakeFirst();
  return l ? { code: String(l.lcCode), name: `${String(l.warehouseName)} ${String(l.lcCode)}` } : undefined;
}

export const PEEK_INPUT = { type: 'object', required: ['id'], properties: { id: { type: 'string', minLength: 1, maxLength: 80, title: '标签' } } };

/** The public call of /qrCodeLoad: what the label is — its kind, code and name, nothing else. */
export async function peekLabel(ctx: CallContext, input: { id: string }) {
  const hit = await verifyLabel(ctx.db, input.id);
  const found = hit ? await describe(new Tenant(ctx.db, hit.companyId), hit.kind, hit.id) : undefined;
  if (!hit || !found) throw bizError('LABEL_TOKEN_INVALID_4254');
  return { token: input.id.trim(), kind: hit.kind, kindText: KIND_TEXT[hit.kind], code: found.code, name: found.name };
}

/** Any of these lets a logged-in caller see the stock behind a label (the /qrCodeLoad stock section asks the same). */
const STOCK_RIGHTS = ['commodity.inventory', 'entrepot.inventoryDistribution', 'ipad'];

export const LABEL_STOCK_INPUT = {
  type: 'object', required: ['t'],
  properties: {
    t: { type: 'string', minLength: 1, maxLength: 80, title: '标签' },
    page: { type: 'integer', minimum: 1, maximum: 100_000, default: 1, title: '页码' },
    pageSize: { type: 'integer', minimum: 1, maximum: 500, default: 50, title: '每页条数' },
  },
};

/** A logged-in caller of the label's company: the stock by location of the labelled product or place. */
export async function labelStock(ctx: CallContext, input: { t: string; page: number; pageSize: number }) {
  const hit = await verifyLabel(ctx.db, input.t);
  // another company's label is as unknown as a forged one
  if (!hit || hit.companyId !== ctx.caller!.company.id) throw bizError('LABEL_TOKEN_INVALID_4254');
  if (!STOCK_RIGHTS.some((r) => holdsRight(ctx.caller!, r))) throw bizError('COMMON_NO_RIGHT_4003', { name: '查看标签库存' });
  const found = await describe(ctx.tenant, hit.kind, hit.id);
  if (!found) throw bizError('LABEL_TOKEN_INVALID_4254');
  if (hit.kind === 'carton') return cartonContents(ctx, hit.id, found, input);
  const route = hit.kind === 'product' ? `/commodity/goodsDetail/${hit.id}` : `/entrepot/inventoryDistribution`;
  const rows = await stockRows(ctx.tenant, hit.kind === 'product' ? { kind: 'product', productIds: [hit.id], locationIds: [] } : { kind: 'location', productIds: [], locationIds: [hit.id] });
  const page = rows.slice((input.page - 1) * input.pageSize, input.page * input.pageSize).map((r) => ({
    ...r, route: hit.kind === 'product' ? route : `/commodity/goodsDetail/${Number(r.productId)}`,
  }));
  return { list: page, total: rows.length, kind: hit.kind, code: found.code, name: found.name, route };
}

export const LABEL_DATA_INPUT = {
  type: 'object', required: ['kind', 'ids'],
  properties: {
    kind: { enum: ['product', 'location', 'document'], title: '标签类型' },
    docType: { type: 'string', maxLength: 40, title: '单据类型' },
    ids: { type: 'array', minItems: 1, maxItems: 2000, items: { type: 'integer', minimum: 1, maximum: 2_147_483_647 }, title: '编号' },
  },
};

/**
 * What the labels print, one per id, in code order: the title and the lines of text, the value of the
 * Code 128 barcode, and (products, locations) the signed token the QR code opens. Product labels carry
 * what the label export (010259) puts in its sheet: code, name, barcode, specification, packs and units.
 * A document label (any engine document: a take, a carton, a delivery note) carries its number as the
 * barcode, for the paper that travels with the goods.
 */
export async function labelData(ctx: CallContext, input: { kind: LabelKind; docType?: string; ids: number[] }) {
  const caller = ctx.caller!;
  if (input.kind !== 'document' && !LABEL_RIGHTS[input.kind].some((r) => holdsRight(caller, r))) throw bizError('COMMON_NO_RIGHT_4003', { name: `打印${KIND_TEXT[input.kind]}标签` });
  const ids = [...new Set(input.ids)];
  const tenant = TypedTenant.of(ctx.tenant);
  const companyId = caller.company.id;
  if (input.kind === 'document') return documentLabels(ctx, input.docType, ids);
  const key = (await labelKey(ctx.db, companyId, true))!;
  if (input.kind === 'product') {
    const rows = await tenant.select('product')
      .select(['id', 'code', 'name', 'barcode', 'specification', 'unitSmall', 'unitMid', 'unitBig', 'midQty', 'bigQty'])
      .where('id', 'in', ids).orderBy('code').execute();
    if (rows.length !== ids.length) throw bizError('PRODUCT_NOT_EXIST_4001');
    return {
      kind: input.kind, kindText: KIND_TEXT[input.kind],
      labels: rows.map((r) => ({
        title: '商品', code: String(r.code), name: String(r.name),
        lines: [
          r.specification ? `规格：${String(r.specification)}` : null,
          `箱规：${Number(r.midQty ?? 1)}/${Number(r.bigQty ?? 1)}`,
          `单位：${[r.unitSmall, r.unitMid, r.unitBig].filter(Boolean).join('/')}`,
          r.barcode ? `条码：${String(r.barcode)}` : null,
        ].filter((x): x is string => !!x),
        barcode: String(r.barcode || r.code),
        qr: signLabel(key, 'product', companyId, Number(r.id)),
      })),
    };
  }
  const rows = await tenant.select('location')
    .innerJoin('warehouse', (j) => j.onRef('warehouse.id', '=', 'location.warehouseId').onRef('warehouse.companyId', '=', 'location.companyId'))
    .select(['location.id', 'location.lcCode', 'location.zone', 'location.type', 'warehouse.name as warehouseName'])
    .where('location.id', 'in', ids).orderBy('warehouse.name').orderBy('location.lcCode').execute();
  if (rows.length !== ids.length) throw validationError([{ field: 'ids', message: '库位不存在' }]);
  return {
    kind: input.kind, kindText: KIND_TEXT[input.kind],
    labels: rows.map((r) => ({
      title: '库位', code: String(r.lcCode), name: String(r.warehouseName),
      lines: [r.zone ? `库区：${String(r.zone)}` : null].filter((x): x is string => !!x),
      barcode: String(r.lcCode),
      qr: signLabel(key, 'location', companyId, Number(r.id)),
    })),
  };
}

/** A carton's label scanned by a logged-in caller: what it holds (product and quantity), its page. */
async function cartonContents(ctx: CallContext, id: number, found: { code: string; name: string }, input: { page: number; pageSize: number }) {
  const rows = await TypedTenant.of(ctx.tenant).select('cartonLine')
    .innerJoin('product', (j) => j.onRef('product.id', '=', 'cartonLine.productId').onRef('product.companyId', '=', 'cartonLine.companyId'))
    .select(['cartonLine.id', 'cartonLine.productId', 'cartonLine.qty', 'product.code', 'product.name', 'product.unitSmall'])
    .where('cartonLine.cartonId', '=', id).orderBy('cartonLine.lineNo').execute();
  const route = `/entrepot/cardboardDetail/${id}`;
  const list = rows.slice((input.page - 1) * input.pageSize, input.page * input.pageSize).map((r) => ({
    key: `c${Number(r.id)}`, productId: Number(r.productId), productCode: String(r.code), productName: String(r.name), warehouseName: null, lcCode: found.code,
    onHand: Number(r.qty), onHandUnits: `${Number(r.qty)}${String(r.unitSmall ?? '')}`, reserved: 0, reservedUnits: null, route: `/commodity/goodsDetail/${Number(r.productId)}`,
  }));
  return { list, total: rows.length, kind: 'carton', code: found.code, name: found.name, route };
}

/** Labels of engine documents of one type: number (barcode), title, warehouse, status; the type's read right. */
async function documentLabels(ctx: CallContext, docType: string | undefined, ids: number[]) {
  const type = docType ? ctx.documents.get(docType) : undefined;
  if (!type) throw validationError([{ field: 'docType', message: `单据类型“${String(docType ?? '').slice(0, 40)}”不存在` }]);
  const right = type.rightOf('get') ?? type.rightOf('list');
  if (!right || !holdsRight(ctx.caller!, right)) throw bizError('COMMON_NO_RIGHT_4003', { name: `打印${type.title}标签` });
  const table = type.def.table;
  const hasWarehouse = 'warehouseId' in type.def.header;
  // (the table is the document type's, named at run time: the untyped view)
  let q = ctx.tenant.select(table).select([`${table}.id`, `${table}.docNo`, `${table}.status`]).where(`${table}.id`, 'in', ids);
  if (hasWarehouse) {
    q = q.leftJoin('warehouse', (j: any) => j.onRef('warehouse.id', '=', `${table}.warehouseId`).onRef('warehouse.companyId', '=', `${table}.companyId`)).select('warehouse.name as warehouseName') as typeof q;
  }
  const rows: Row[] = await q.orderBy(`${table}.docNo`).execute();
  if (rows.length !== ids.length) throw bizError('COMMON_NOT_FOUND_4004', { entity: type.title });
  // a carton's label also carries a QR code opening /qrCodeLoad, its box number and what it weighs
  if (docType === 'carton') return cartonLabels(ctx, type, rows);
  return {
    kind: 'document', kindText: type.title,
    labels: rows.map((r) => ({
      title: type.title, code: String(r.docNo), name: hasWarehouse ? String(r.warehouseName ?? '') : type.title,
      lines: [`状态：${type.statusLabel(String(r.status))}`], barcode: String(r.docNo), qr: null,
    })),
  };
}

async function cartonLabels(ctx: CallContext, type: { title: string; statusLabel(s: string): string }, rows: Row[]) {
  const companyId = ctx.caller!.company.id;
  const key = (await labelKey(ctx.db, companyId, true))!;
  const more = new Map((await TypedTenant.of(ctx.tenant).select('carton').leftJoin('client', (j) => j.onRef('client.id', '=', 'carton.clientId').onRef('client.companyId', '=', 'carton.companyId'))
    .leftJoin('outboundTask', (j) => j.onRef('outboundTask.id', '=', 'carton.taskId').onRef('outboundTask.companyId', '=', 'carton.companyId'))
    .select(['carton.id', 'carton.taskId', 'carton.weight', 'carton.volume', 'carton.totalQty', 'client.name as clientName', 'outboundTask.docNo as taskDocNo'])
    .where('carton.id', 'in', rows.map((r) => Number(r.id))).execute()).map((r) => [Number(r.id), r]));
  const taskIds = [...new Set([...more.values()].map((r) => Number(r.taskId)))];
  const boxes = new Map<number, number[]>();
  for (const r of await TypedTenant.of(ctx.tenant).select('carton').select(['id', 'taskId']).where('taskId', 'in', taskIds).where('status', '<>', 'cancelled').orderBy('id').execute()) {
    boxes.set(Number(r.taskId), [...(boxes.get(Number(r.taskId)) ?? []), Number(r.id)]);
  }
  return {
    kind: 'document', kindText: type.title,
    labels: rows.map((r) => {
      const m = more.get(Number(r.id));
      const box = boxes.get(Number(m?.taskId)) ?? [];
      const n = box.indexOf(Number(r.id));
      return {
        title: type.title, code: String(r.docNo), name: String(m?.clientName ?? ''),
        lines: [
          n >= 0 ? `箱号：第 ${n + 1} / ${box.length} 箱` : null,
          m?.taskDocNo ? `出库任务：${String(m.taskDocNo)}` : null,
          `数量：${Number(m?.totalQty ?? 0)}`,
          m?.weight != null ? `毛重：${(Number(m.weight) / 1000).toFixed(3)} kg` : null,
          m?.volume != null ? `体积：${(Number(m.volume) / 1000).toFixed(3)} m³` : null,
        ].filter((x): x is string => !!x),
        barcode: String(r.docNo), qr: signLabel(key, 'carton', companyId, Number(r.id)),
      };
    }),
  };
}
