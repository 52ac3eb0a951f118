// 单据对比 (cdm 019813–019814): two documents of one type, by number, compared field by field (header
// fields in the definition's order, references by their label, enums by their text) and line by line
// (matched by line number; a line only one side has shows as 新增 / 缺少). Served from the document
// engine's own `get`, so every engine document type can be compared.
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import type { DocumentType } from '../../documents/engine.ts';
import { bizError, validationError } from '../../http/errors.ts';
import { tz } from '../procurement/common.ts';
import { TypedTenant } from '../../db/typed.ts';

type Row = Record<string, unknown>;

export function docTypeOptions(ctx: CallContext) {
  return [...ctx.documents.values()].map((t) => ({ value: t.def.type, label: t.def.title })).sort((a, b) => a.label.localeCompare(b.label, 'zh'));
}

export const DIFF_INPUT: InputSchema = {
  type: 'object',
  properties: {
    page: { type: 'integer', minimum: 1, default: 1 },
    pageSize: { type: 'integer', minimum: 1, maximum: 5000, default: 500 },
    type: { type: ['string', 'null'], maxLength: 50, title: '单据类型' },
    left: { type: ['string', 'null'], maxLength: 50, title: '单号一' },
    right: { type: ['string', 'null'], maxLength: 50, title: '单号二' },
    leftVersion: { type: ['integer', 'null'], minimum: 1, maximum: 100000, title: '版本一' },
    rightVersion: { type: ['integer', 'null'], minimum: 1, maximum: 100000, title: '版本二' },
    onlyDifferent: { type: ['boolean', 'null'], title: '只看不同' },
  },
};

function shown(view: Row, name: string, type: string): string {
  const v = view[name];
  if (type === 'enum' && view[`${name}Text`] != null) return String(view[`${name}Text`]);
  if (type === 'reference' && name.endsWith('Id')) {
    const base = name.slice(0, -2);
    const label = [view[`${base}Code`], view[`${base}Name`]].filter((x) => x != null && x !== '').join(' ');
    if (label) return label;
  }
  if (v === null || v === undefined || v === '') return '';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

async function byNumber(ctx: CallContext, t: DocumentType, docNo: string, field: string): Promise<Row & { lines: Row[] }> {
  // (the document type's table, named at run time: the untyped view)
  const r: Row | undefined = await ctx.tenant.select(t.def.table).select('id').where('docNo', '=', docNo.trim()).executeTakeFirst();
  if (!r) throw validationError([{ field, message: `${t.def.title} ${docNo.trim()} 不存在` }]);
  return t.get(ctx, Number(r.id));
}

export interface DiffInput { page: number; pageSize: number; type?: string | null; left?: string | null; right?: string | null; leftVersion?: number | null; rightVersion?: number | null; onlyDifferent?: boolean | null }

const ACTION_TEXT: Record<string, string> = {
  create: '新增', update: '修改', remove: '删除', import: '导入', state: '状态变更', confirm: '确认', post: '过账', cancel: '作废', close: '关闭',
  ship: '发运', arrive: '到港', startUnloading: '开始拆柜', unload: '拆柜完成', repeal: '撤销', reopen: '重新打开', reverse: '冲销', override: '超限放行',
  change: '订单变更', assign: '分派', sign: '签收', seal: '封箱', load: '装车', collect: '提货', finish: '完成', call: '呼叫', atPort: '到位',
};

const text = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

// Second mode: two versions of ONE document from its audit trail. Version n is the document as it stood
// after its n-th audit entry (新增, each 修改, each transition). The trail keeps the header fields that
// changed (as shown then) and the line count, not the lines: a field's value at version n is what its last
// change at or before n set, else what its first later change started from, else (never changed) today's.
async function diffVersions(ctx: CallContext, t: DocumentType, input: DiffInput) {
  const doc = await byNumber(ctx, t, input.left!, 'left');
  const entries = await TypedTenant.of(ctx.tenant).select('auditLog').select(['id', 'at', 'userName', 'action', 'changes'])
    .where('entity', '=', t.def.type).where('recordId', '=', String(doc.id)).orderBy('id').execute();
  const n = entries.length;
  if (!n) throw validationError([{ field: 'left', message: `${t.def.title} ${doc.docNo} 没有操作记录，无法按版本比较` }]);
  const lv = input.leftVersion ?? Math.max(1, n - 1);
  const rv = input.rightVersion ?? n;
  for (const [v, field] of [[lv, 'leftVersion'], [rv, 'rightVersion']] as const) {
    if (v > n) throw validationError([{ field, message: `${t.def.title} ${doc.docNo} 没有第 ${v} 版（共 ${n} 版）` }]);
  }
  const changes = entries.map((e) => {
    let list: unknown;
    try { list = JSON.parse(String(e.changes ?? '[]')); } catch { list = []; }
    return Array.isArray(list) ? (list as { field?: string; title?: string; from?: unknown; to?: unknown }[]) : [];
  });
  const at = (field: string, v: number, today: string): string => {
    for (let i = v - 1; i >= 0; i--) { const c = changes[i]!.find((x) => x.field === field); if (c) return text(c.to); }
    for (let i = v; i < n; i++) { const c = changes[i]!.find((x) => x.field === field); if (c) return text(c.from); }
    return today;
  };
  const local = (at: unknown) => { const d = new Date(String(at)); return Number.isNaN(d.getTime()) ? String(at) : new Date(d.getTime() + tz(ctx) * 3_600_000).toISOString().slice(0, 19).replace('T', ' '); };
  const label = (v: number) => { const e = entries[v - 1]!; return `第 ${v} 版 · ${local(e.at)} ${e.userName ?? ''} ${ACTION_TEXT[String(e.action)] ?? String(e.action)}`.replace(/ +/g, ' '); };
  const out: Row[] = [{ key: 'version', place: '版本', field: '版本', left: label(lv), right: label(rv), same: false, diff: '', version: true }];
  const push = (title: string, l: string, r: string) => out.push({ key: `${out.length}`, place: '表头', field: title, left: l, right: r, same: l === r, diff: l === r ? '' : '不同' });
  push('状态', at('status', lv, String(doc.statusText)), at('status', rv, String(doc.statusText)));
  // the fields the trail keeps: the definition's audit list, else every field a user enters; and any the
  // trail did record (a figure the system keeps, such as 已预留, is not shown as if it were history)
  const inTrail = new Set(changes.flatMap((list) => list.map((c) => c.field)));
  const tracked = (name: string, readonly?: boolean) => inTrail.has(name) || (t.def.audit ? t.def.audit.includes(name) : !readonly);
  const seen = new Set(['status']);
  for (const [name, f] of Object.entries(t.def.header)) {
    seen.add(name);
    if (!tracked(name, f.readonly)) continue;
    const today = shown(doc, name, f.type);
    push(f.title ?? name, at(name, lv, today), at(name, rv, today));
  }
  // what the trail records beyond the header fields (the line count, a transition's own notes)
  for (const list of changes) for (const c of list) {
    if (!c.field || seen.has(c.field)) continue;
    seen.add(c.field);
    const today = c.field === 'lineCount' ? String(doc.lines.length) : '';
    push(c.title ?? c.field, at(c.field, lv, today), at(c.field, rv, today));
  }
  const list = input.onlyDifferent ? out.filter((r) => r.version || !r.same) : out;
  return {
    list: list.slice((input.page - 1) * input.pageSize, input.page * input.pageSize), total: list.length, page: input.page, pageSize: input.pageSize,
    different: out.filter((r) => !r.version && !r.same).length, leftDocNo: doc.docNo, rightDocNo: doc.docNo, versions: n, leftVersion: lv, rightVersion: rv,
  };
}

export async function diffDocuments(ctx: CallContext, input: DiffInput) {
  if (!input.type || !input.left?.trim()) return { list: [], total: 0, page: 1, pageSize: input.pageSize };
  const t = ctx.documents.get(input.type);
  if (!t) throw bizError('COMMON_NOT_FOUND_4004', { entity: `单据类型 ${input.type.slice(0, 30)}` });
  // no second number, the same number, or a version asked: two versions of the first document
  if (!input.right?.trim() || input.right.trim() === input.left.trim() || input.leftVersion != null || input.rightVersion != null) return diffVersions(ctx, t, input);
  const a = await byNumber(ctx, t, input.left, 'left');
  const b = await byNumber(ctx, t, input.right, 'right');
  const out: Row[] = [];
  const push = (place: string, title: string, l: string, r: string) => out.push({ key: `${out.length}`, place, field: title, left: l, right: r, same: l === r, diff: l === r ? '' : '不同' });
  push('表头', '状态', String(a.statusText), String(b.statusText));
  for (const [name, f] of Object.entries(t.def.header)) push('表头', f.title ?? name, shown(a, name, f.type), shown(b, name, f.type));
  const la = new Map(a.lines.map((l) => [Number(l.lineNo), l]));
  const lb = new Map(b.lines.map((l) => [Number(l.lineNo), l]));
  const nos = [...new Set([...la.keys(), ...lb.keys()])].sort((x, y) => x - y);
  for (const no of nos) {
    const x = la.get(no), y = lb.get(no);
    for (const [name, f] of Object.entries(t.def.lines.fields)) {
      push(`第 ${no} 行`, f.title ?? name, x ? shown(x, name, f.type) : '（无此行）', y ? shown(y, name, f.type) : '（无此行）');
    }
  }
  for (const r of out) if (String(r.left) === '（无此行）' || String(r.right) === '（无此行）') r.diff = String(r.left) === '（无此行）' ? '新增' : '缺少';
  const list = input.onlyDifferent ? out.filter((r) => !r.same) : out;
  return {
    list: list.slice((input.page - 1) * input.pageSize, input.page * input.pageSize), total: list.length, page: input.page, pageSize: input.pageSize,
    different: out.filter((r) => !r.same).length, leftDocNo: a.docNo, rightDocNo: b.docNo,
  };
}
