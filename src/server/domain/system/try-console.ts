// 接口调试 (cdm 019803–019804): the endpoint catalog for the API console. The console sends the request
// itself, from the browser with the user's own session (the server checks rights as for any call): these
// codes only list what may be tried and describe one code — name, right (and whether the caller holds
// it), method, body description — with a JSON body prefilled from that description.
import type { Catalog, EndpointEntry, Family } from '../../../core/catalog.ts';
import { holdsRight } from '../../auth/caller.ts';
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import { bizError } from '../../http/errors.ts';

const FAMILIES: Family[] = ['cdm', 'oms', 'auth', 'storage'];

/** JSON calls only (no file uploads, no file answers), never the public login codes. */
function tryable(e: EndpointEntry): boolean {
  return e.body !== 'multipart' && e.response === 'json' && e.permission !== 'public';
}

export const TRY_LIST_INPUT: InputSchema = {
  type: 'object',
  properties: { keyword: { type: ['string', 'null'], maxLength: 50, title: '关键字' }, id: { type: ['string', 'null'], maxLength: 20 } },
};

export function tryEndpoints(ctx: CallContext, catalog: Catalog, input: { keyword?: string | null; id?: string | null }) {
  const kw = (input.keyword ?? '').trim().toLowerCase();
  const list: Array<{ value: string; label: string; held: boolean }> = [];
  for (const family of FAMILIES) {
    for (const e of catalog.families[family] ?? []) {
      if (!tryable(e)) continue;
      const value = `${family}:${e.code}`;
      if (input.id && input.id !== value) continue;
      const label = `${value} ${e.name}`;
      if (kw && !label.toLowerCase().includes(kw)) continue;
      list.push({ value, label, held: holdsRight(ctx.caller!, e.permission) });
    }
  }
  list.sort((a, b) => a.value.localeCompare(b.value));
  return list;
}

/** Sample values for the fields a description's leading `{a, b?, c: x|y, d: {…}}` names. */
export function bodyTemplate(description: string | undefined): Record<string, unknown> {
  const text = description?.trim() ?? '';
  if (!text.startsWith('{')) return {};
  let depth = 0;
  let end = -1;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) { end = i; break; }
  }
  if (end < 0) return {};
  return objectOf(text.slice(1, end));
}

function splitTop(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if ('{[(（'.includes(ch)) depth++;
    if ('}])）'.includes(ch)) depth--;
    if ((ch === ',' || ch === '，') && depth === 0) { out.push(cur); cur = ''; } else cur += ch;
  }
  if (cur.trim()) out.push(cur);
  return out;
}

function objectOf(inner: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const part of splitTop(inner)) {
    const m = /^\s*([A-Za-z_][\w]*)(\??)\s*(?::\s*([\s\S]*))?$/.exec(part.replace(/（[^）]*）/g, ''));
    if (!m) continue;
    const [, name, , spec = ''] = m;
    out[name!] = sample(name!, spec.trim());
  }
  return out;
}

function sample(name: string, spec: string): unknown {
  if (spec.startsWith('{')) return objectOf(spec.slice(1, spec.lastIndexOf('}')));
  if (spec.startsWith('[')) return [];
  if (name === 'page') return 1;
  if (name === 'pageSize') return 20;
  if (/^ids$|Ids$|^lines$/.test(name)) return [];
  if (/\|/.test(spec)) return spec.split('|')[0]!.trim().replace(/['"]/g, '');
  if (name === 'id' || name.endsWith('Id')) return null;
  return null;
}

export const TRY_DESCRIBE_INPUT: InputSchema = {
  type: 'object', required: ['api'],
  properties: { api: { type: 'string', maxLength: 20, title: '接口' } },
};

export function tryDescribe(ctx: CallContext, catalog: Catalog, input: { api: string }) {
  const [family, code] = input.api.split(':') as [Family, string];
  const e = FAMILIES.includes(family) ? (catalog.families[family] ?? []).find((x) => x.code === code) : undefined;
  if (!e || !tryable(e)) throw bizError('COMMON_NOT_FOUND_4004', { entity: `接口 ${input.api.slice(0, 20)}` });
  const held = holdsRight(ctx.caller!, e.permission);
  const right = e.permission === '1' ? '所有登录用户' : e.permission;
  const isList = /\.list$/.test(e.handler) || /列表|查询/.test(e.name);
  const template = e.body === 'none' ? {} : { ...(isList ? { page: 1, pageSize: 20 } : {}), ...bodyTemplate(e.description) };
  const lines = [
    `${input.api} ${e.name}（${e.method}${e.idempotent ? '，幂等：自动带 Idempotency-Key' : ''}）`,
    `所需权限：${right}${held ? '（你有此权限）' : '（你没有此权限，发送会被拒绝）'}`,
    e.description ? `说明：${e.description}` : '说明：无',
  ];
  return { name: e.name, body: lines.join('\n'), format: 'text', template: JSON.stringify(template, null, 2), held, permission: e.permission };
}
