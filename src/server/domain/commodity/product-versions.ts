// 商品版本 (productVersion): a product's versions, newest first, from its audit trail, and a field-by-field
// comparison of two of them (diffInfo).
import type { CallContext } from '../../catalog/context.ts';
import { TypedTenant } from '../../db/typed.ts';
import { validationError } from '../../http/errors.ts';
import { fetchRow } from '../../resources/index.ts';
import { display } from '../../resources/fields.ts';
import type { Field, Resource, ResourceRegistry } from '../../resources/types.ts';
import { productOf, text, type Paging } from './product-query.ts';
import { SORT_FIELD } from './product-sort.ts';

type Row = Record<string, unknown>;

interface Change { field?: string; title?: string; from?: unknown; to?: unknown }

interface Version {
  version: number;
  auditId: number | null;
  at: string | null;
  userName: string | null;
  action: string | null;
  changes: Change[];
}

export interface VersionInput extends Paging {
  productId?: number | null;
  productCode?: string | null;
  fromVersion?: number | null;
  toVersion?: number | null;
  onlyChanged?: boolean | null;
}

/** What a reader sees of a field (labels for references, enums and booleans), as the audit log writes it. */
function shownFields(product: Resource): Field[] {
  return product.fields.filter((f) => f.type !== 'password' && f.type !== 'json');
}

function parseChanges(v: unknown): Change[] {
  let list: unknown = v;
  if (typeof v === 'string') {
    try { list = JSON.parse(v); } catch { return []; }
  }
  return Array.isArray(list) ? (list as Change[]) : [];
}

/** A change entry that only moved the product in the display order (no product version). */
const sortOnly = (changes: Change[]) => changes.length > 0 && changes.every((c) => c.field === SORT_FIELD);

/**
 * The versions of a product, newest first. Every create/update of the product writes one audit entry and
 * (updates) adds one to its version, so the newest update entry made the current version, the one before
 * it the version before, and so on; a product created by import has no entry for version 1.
 */
async function productHistory(ctx: CallContext, tenant: TypedTenant, reg: ResourceRegistry, product: Resource, row: { id: number; version: number }): Promise<{ current: Row; versions: Version[] }> {
  const exposed = (await fetchRow(reg, product, ctx.tenant, Number(row.id)))!;
  const current: Row = {};
  for (const f of shownFields(product)) {
    current[f.name] = f.type === 'reference' ? (exposed[f.labelAs!] ?? exposed[f.name] ?? null) : display(f, exposed[f.name]);
  }
  const entries = await tenant.select('auditLog').select(['id', 'at', 'userName', 'action', 'changes'])
    .where('entity', '=', product.name).where('recordId', '=', String(row.id)).where('action', 'in', ['create', 'update'])
    .orderBy('id', 'desc').limit(5000).execute();
  const latest = Number(row.version);
  const byVersion = new Map<number, Version>();
  let v = latest;
  for (const e of entries) {
    const changes = parseChanges(e.changes);
    if (e.action === 'update' && sortOnly(changes)) continue;
    const version = e.action === 'create' ? 1 : v--;
    if (version < 1 || byVersion.has(version)) continue;
    byVersion.set(version, { version, auditId: Number(e.id), at: text(e.at), userName: text(e.userName), action: text(e.action), changes });
  }
  const versions: Version[] = [];
  for (let k = latest; k >= 1; k--) versions.push(byVersion.get(k) ?? { version: k, auditId: null, at: null, userName: null, action: null, changes: [] });
  return { current, versions };
}

/** The fields as they were at a version: the current values with every later change undone. */
function stateAt(product: Resource, current: Row, versions: Version[], k: number): Row {
  const state = { ...current };
  for (const v of versions) {
    if (v.version <= k) break;
    for (const c of v.changes) if (c.field && product.fieldMap.has(c.field)) state[c.field] = c.from ?? null;
  }
  return state;
}

const shown = (v: unknown): string | null => (v === null || v === undefined || v === '' ? null : typeof v === 'object' ? JSON.stringify(v) : String(v));

const ACTION_TEXT: Record<string, string> = { create: '新增', update: '修改' };

export async function versionList(ctx: CallContext, reg: ResourceRegistry, product: Resource, input: VersionInput) {
  if (!input.productId && !input.productCode?.trim()) return { list: [], total: 0, page: 1, pageSize: input.pageSize };
  const tenant = TypedTenant.of(ctx.tenant);
  const row = await productOf(tenant, input);
  const { versions } = await productHistory(ctx, tenant, reg, product, row);
  const start = (input.page - 1) * input.pageSize;
  return {
    total: versions.length, page: input.page, pageSize: input.pageSize,
    list: versions.slice(start, start + input.pageSize).map((v) => ({
      id: v.version, version: v.version, current: v.version === Number(row.version),
      at: v.at, userName: v.userName, action: v.action,
      actionText: v.action ? ACTION_TEXT[v.action] ?? v.action : v.version === 1 ? '新增（导入或初始数据）' : '（无记录）',
      changes: v.changes,
    })),
  };
}

export async function versionDiff(ctx: CallContext, reg: ResourceRegistry, product: Resource, input: VersionInput) {
  if (!input.productId && !input.productCode?.trim()) return { list: [], total: 0, page: 1, pageSize: input.pageSize };
  const tenant = TypedTenant.of(ctx.tenant);
  const row = await productOf(tenant, input);
  const latest = Number(row.version);
  const to = input.toVersion ?? latest;
  const from = input.fromVersion ?? Math.max(1, to - 1);
  const errors = [];
  if (to > latest) errors.push({ field: 'toVersion', message: `目标版本不能大于当前版本 ${latest}` });
  if (from > latest) errors.push({ field: 'fromVersion', message: `对比版本不能大于当前版本 ${latest}` });
  if (errors.length) throw validationError(errors);
  const { current, versions } = await productHistory(ctx, tenant, reg, product, row);
  const a = stateAt(product, current, versions, from);
  const b = stateAt(product, current, versions, to);
  const rows = shownFields(product).map((f) => {
    const before = shown(a[f.name]);
    const after = shown(b[f.name]);
    return { field: f.name, title: f.title, before, after, changed: before !== after };
  }).filter((r) => !input.onlyChanged || r.changed);
  const info = (k: number) => versions.find((v) => v.version === k);
  return {
    total: rows.length, page: 1, pageSize: rows.length,
    list: rows,
    productId: Number(row.id), productCode: row.code, productName: row.name,
    fromVersion: from, toVersion: to, currentVersion: latest,
    fromAt: info(from)?.at ?? null, toAt: info(to)?.at ?? null,
  };
}
