// Choices for selects, enum columns and filters: static lists, dictionaries (cdm 013801, one call for
// all dictionaries, cached for the session) and remote option codes (cached briefly, shared by every
// select on the screen asking for the same code and body).

import { OK } from '../../../core/codes';
import { api } from '../../request';
import { actionCall } from '../actions/actionCall';
import { getAccessToken } from '../../session/storage';
import type { OptionItem, OptionsSource, RemoteOptions, RemoteTree } from '../types';

export const DICTIONARY_CODE = '013801';
const REMOTE_TTL_MS = 60_000;

type DictMap = Record<string, OptionItem[]>;

let dictCache: { token: string | null; promise: Promise<DictMap> } | null = null;
const remoteCache = new Map<string, { at: number; promise: Promise<unknown> }>();

/** Forget cached choices (after saving a dictionary item or an option source). */
export function invalidateOptions(): void {
  dictCache = null;
  remoteCache.clear();
}

function asItem(row: Record<string, unknown>, labelKey?: string, valueKey?: string): OptionItem | null {
  const value = valueKey ? row[valueKey] : (row.value ?? row.id ?? row.code);
  const label = labelKey ? row[labelKey] : (row.label ?? row.name ?? row.title ?? value);
  if (value === undefined || value === null) return null;
  const item: OptionItem = { value: value as OptionItem['value'], label: String(label ?? '') };
  if (typeof row.color === 'string') item.color = row.color;
  for (const k of ['code', 'barcode'] as const) {
    const v = row[k];
    if ((typeof v === 'string' || typeof v === 'number') && String(v) !== '' && String(v) !== item.label) item[k] = String(v);
  }
  return item;
}

function rowsOf(data: unknown): Record<string, unknown>[] {
  if (Array.isArray(data)) return data as Record<string, unknown>[];
  if (data && typeof data === 'object' && Array.isArray((data as { list?: unknown }).list)) {
    return (data as { list: Record<string, unknown>[] }).list;
  }
  return [];
}

/**
 * Accepts both shapes 013801 may answer: {dictCode: [{value,label}]} or a flat list of
 * {dictCode, value, label} rows (in display order).
 */
export function normaliseDictionaries(data: unknown): DictMap {
  const out: DictMap = {};
  if (Array.isArray(data)) {
    for (const row of data as Record<string, unknown>[]) {
      const code = String(row.dictCode ?? row.code ?? '');
      const item = asItem({ ...row, code: undefined });
      if (!code || !item) continue;
      (out[code] ??= []).push(item);
    }
    return out;
  }
  if (data && typeof data === 'object') {
    for (const [code, list] of Object.entries(data as Record<string, unknown>)) {
      out[code] = rowsOf(list).map((r) => asItem(r)).filter((x): x is OptionItem => x !== null);
    }
  }
  return out;
}

export function loadDictionaries(): Promise<DictMap> {
  const token = getAccessToken();
  if (dictCache && dictCache.token === token) return dictCache.promise;
  const promise = api.cdm(DICTIONARY_CODE).then((env) => {
    if (env.code !== OK) {
      dictCache = null; // try again next time
      return {};
    }
    return normaliseDictionaries(env.data);
  });
  dictCache = { token, promise };
  return promise;
}

function remote(ref: string, body: Record<string, unknown> | undefined): Promise<unknown> {
  const key = `${ref} ${JSON.stringify(body ?? {})}`;
  const hit = remoteCache.get(key);
  if (hit && Date.now() - hit.at < REMOTE_TTL_MS) return hit.promise;
  const promise = actionCall(ref, body ?? {}).then((env) => {
    if (env.code !== OK) {
      remoteCache.delete(key);
      return [];
    }
    return env.data;
  });
  remoteCache.set(key, { at: Date.now(), promise });
  return promise;
}

export async function loadRemoteOptions(src: RemoteOptions): Promise<OptionItem[]> {
  const data = await remote(src.api, src.body);
  return rowsOf(data)
    .map((r) => asItem(r, src.label, src.value))
    .filter((x): x is OptionItem => x !== null);
}

/**
 * Choices a remote code answers for one search (`extra` merged into the source's body: {keyword} or
 * {id}). Never cached: each search asks afresh, so a product created a moment ago is found.
 */
export async function searchRemoteOptions(src: RemoteOptions, extra: Record<string, unknown>): Promise<OptionItem[]> {
  const env = await actionCall(src.api, { ...(src.body ?? {}), ...extra });
  if (env.code !== OK) return [];
  return rowsOf(env.data)
    .map((r) => asItem(r, src.label, src.value))
    .filter((x): x is OptionItem => x !== null);
}

/** The choices of a source; [] when it names none. */
export async function loadOptions(src: OptionsSource): Promise<OptionItem[]> {
  if (Array.isArray(src.options)) return src.options;
  if (src.options && typeof src.options === 'object') return loadRemoteOptions(src.options);
  if (src.dict) return (await loadDictionaries())[src.dict] ?? [];
  return [];
}

/** The choices known without a call (a static list), so a first paint never shows a raw code. */
export function staticOptions(src: OptionsSource | undefined): OptionItem[] {
  return src && Array.isArray(src.options) ? src.options : [];
}

export function hasOptions(src: OptionsSource): boolean {
  return !!src.options || !!src.dict;
}

export interface TreeNode {
  value: string | number;
  title: string;
  children?: TreeNode[];
}

/** A tree for tree selects: nested rows (children) or flat rows with a parent field. */
export async function loadTree(src: RemoteTree): Promise<TreeNode[]> {
  const rows = rowsOf(await remote(src.api, src.body));
  const labelKey = src.label ?? 'name';
  const valueKey = src.value ?? 'id';
  const childrenKey = src.children ?? 'children';
  const toNode = (r: Record<string, unknown>): TreeNode => {
    const node: TreeNode = { value: r[valueKey] as string | number, title: String(r[labelKey] ?? r[valueKey] ?? '') };
    const kids = r[childrenKey];
    if (Array.isArray(kids) && kids.length) node.children = (kids as Record<string, unknown>[]).map(toNode);
    return node;
  };
  if (!src.parentField) return rows.map(toNode);
  const byId = new Map<string, TreeNode>();
  for (const r of rows) byId.set(String(r[valueKey]), { value: r[valueKey] as string | number, title: String(r[labelKey] ?? '') });
  const roots: TreeNode[] = [];
  for (const r of rows) {
    const node = byId.get(String(r[valueKey]))!;
    const parent = r[src.parentField];
    const p = parent === null || parent === undefined || parent === '' ? undefined : byId.get(String(parent));
    if (p && p !== node) (p.children ??= []).push(node);
    else roots.push(node);
  }
  return roots;
}
