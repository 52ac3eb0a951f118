// 单据编号规则 (cdm 0191): the number series documents are numbered in, the checks a rule meets, the
// rules list with the next number of each, and the preview the rule form shows while it is typed.
// A series is the built-in prefix its documents hand to nextDocumentNo (domain/sequence.ts): every engine
// document type (its definition's `prefix`), and the few numbered outside the engine (卸柜记录, the two
// repeal desks). Types that share a built-in prefix share one series (期初余额 and 期初库存单 both QC).
import type { CallContext } from '../../catalog/context.ts';
import { allDocumentDefinitions } from '../../documents/index.ts';
import type { FieldError } from '../../http/errors.ts';
import { exposeRows, listQuery, type ListInput, type Row } from '../../resources/query.ts';
import type { Resource, ResourceRegistry } from '../../resources/types.ts';
import { WITHDRAWING_PREFIX } from '../procurement/container.ts';
import { REPEAL_TITLE } from '../procurement/repeal.ts';
import { SALES_REPEAL_TITLE } from '../sales/repeal.ts';
import { builtInRule, numberParts, peekDocumentNo, type DatePart, type NumberRule } from '../sequence.ts';

/** Numbered outside the document engine: their prefixes as their callers pass them. */
const OTHER_SERIES: Array<[string, string]> = [
  [WITHDRAWING_PREFIX, '卸柜记录'],
  ['CX', REPEAL_TITLE],
  ['XC', SALES_REPEAL_TITLE],
];

let series: Map<string, string> | undefined;

/** Every number series: built-in prefix → the documents it numbers (titles joined by 、). */
export function numberSeries(): Map<string, string> {
  if (series) return series;
  const titles = new Map<string, string[]>();
  const add = (prefix: string, title: string) => {
    const list = titles.get(prefix) ?? [];
    if (!list.includes(title)) list.push(title);
    titles.set(prefix, list);
  };
  for (const d of allDocumentDefinitions()) add(d.prefix, d.title);
  for (const [prefix, title] of OTHER_SERIES) add(prefix, title);
  series = new Map([...titles.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([p, t]) => [p, t.join('、')]));
  return series;
}

/** Options of the rule form's series select: {value, label} with the documents and the built-in prefix. */
export function seriesOptions(): Array<{ value: string; label: string }> {
  return [...numberSeries().entries()].map(([value, title]) => ({ value, label: `${title}（${value}）` }));
}

const DATE_PARTS: readonly DatePart[] = ['yyyymmdd', 'yymmdd', 'yyyymm', 'none'];
const PREFIX = /^[A-Z][A-Z0-9]{0,9}$/;

interface RuleRow { id?: unknown; series?: unknown; prefix?: unknown; enabled?: unknown }

/**
 * The checks of a rule beyond its fields': the series exists, and its prefix numbers no other series —
 * neither another series' built-in prefix nor the prefix of another series' enabled rule — so two kinds
 * of documents never count in one counter and never show the same-looking numbers.
 */
export function checkNumberRule(rule: RuleRow, others: RuleRow[]): FieldError[] {
  const errors: FieldError[] = [];
  const all = numberSeries();
  const s = String(rule.series ?? '');
  if (!all.has(s)) errors.push({ field: 'series', message: `编号系列“${s}”不存在，请从列表中选择` });
  const prefix = String(rule.prefix ?? '');
  const on = rule.enabled === undefined || rule.enabled === 1 || rule.enabled === true;
  if (!on) return errors;
  const builtInOwner = prefix !== s && all.has(prefix) ? prefix : undefined;
  if (builtInOwner) errors.push({ field: 'prefix', message: `前缀“${prefix}”是${all.get(builtInOwner)}的内置前缀，请换一个前缀` });
  const taken = others.find((o) => String(o.series) !== s && String(o.prefix) === prefix && (o.enabled === 1 || o.enabled === true));
  if (!builtInOwner && taken) errors.push({ field: 'prefix', message: `前缀“${prefix}”已用于${all.get(String(taken.series)) ?? taken.series}的编号规则，请换一个前缀` });
  return errors;
}

/** Series titles on exposed rule rows (list, get, export). */
export function decorateNumberRules(rows: Row[]): void {
  const all = numberSeries();
  for (const row of rows) row.seriesName = all.get(String(row.series)) ?? String(row.series);
}

const tzOf = (ctx: CallContext) => ctx.caller?.company.timeZone ?? 8;

/** The rules list (cdm 019101): the generic list of the resource, each row with the next number it hands out. */
export async function listNumberRules(ctx: CallContext, reg: ResourceRegistry, r: Resource, input: ListInput) {
  const query = listQuery(reg, r, ctx.tenant, input, { dialect: ctx.database.dialect, tzHours: tzOf(ctx) });
  const offset = (input.page - 1) * input.pageSize;
  const raw = await query.page(input.pageSize, offset);
  // a short page that holds rows tells the total without counting
  const total = raw.length > 0 && raw.length < input.pageSize ? offset + raw.length : await query.count();
  const list = await exposeRows(reg, r, ctx.tenant, raw);
  decorateNumberRules(list);
  const now = new Date();
  for (const row of list) {
    // a rule switched off leaves its series on the built-in rule: that is what the next document gets
    const rule: NumberRule = row.enabled ? { prefix: String(row.prefix), datePart: row.datePart as DatePart, serialWidth: Number(row.serialWidth) } : builtInRule(String(row.series));
    row.nextNo = await peekDocumentNo(ctx.db, ctx.tenant.companyId, rule, tzOf(ctx), now);
  }
  return { list, total, page: input.page, pageSize: input.pageSize };
}

export interface PreviewInput { series?: string | null; prefix?: string | null; datePart?: string | null; serialWidth?: number | string | null; enabled?: unknown }

/**
 * What the rule being typed would make (cdm 019106, the form's preview: {body, format: 'text'}): the next
 * number now, the built-in one it replaces, and when its counter starts again.
 */
export async function previewNumberRule(ctx: CallContext, input: PreviewInput) {
  const all = numberSeries();
  const s = String(input.series ?? '').trim();
  if (!all.has(s)) return { body: '请选择编号系列', format: 'text' };
  const prefix = String(input.prefix ?? '').trim();
  const datePart = (DATE_PARTS as readonly string[]).includes(String(input.datePart)) ? (input.datePart as DatePart) : 'yyyymmdd';
  const width = Number(input.serialWidth ?? 4);
  const problems: string[] = [];
  if (!PREFIX.test(prefix)) problems.push('前缀须为 1–10 位大写字母或数字，以字母开头');
  if (!Number.isInteger(width) || width < 3 || width > 8) problems.push('流水号位数须为 3–8');
  // asked again as the clerk types: what is not yet a rule is said in the preview, not refused
  if (problems.length) return { body: problems.join('；'), format: 'text' };
  const now = new Date();
  const builtIn = await peekDocumentNo(ctx.db, ctx.tenant.companyId, builtInRule(s), tzOf(ctx), now);
  const rule: NumberRule = { prefix, datePart, serialWidth: width };
  const next = await peekDocumentNo(ctx.db, ctx.tenant.companyId, rule, tzOf(ctx), now);
  const restart = datePart === 'yyyymmdd' || datePart === 'yymmdd' ? '每天从 1 重新计数' : datePart === 'yyyymm' ? '每月从 1 重新计数' : '连续计数，不重新开始';
  const head = numberParts(rule, tzOf(ctx), now).head;
  return {
    body: `${all.get(s)}的下一个编号：${next}\n（${head} + ${width} 位流水号，${restart}；内置规则下一个编号为 ${builtIn}）`,
    format: 'text',
    nextNo: next,
  };
}
