// A document type declared once (DESIGN §4.6): its statuses, transitions, fields, lines, hooks and links.
// The engine (engine.ts) serves list, get (with the actions the caller may take now), save, remove, each
// transition and the document chain from this one definition; the tables of a `managed` definition are
// created from it too (tables.ts). Field declarations are the resource field types of
// schemas/resources (FieldDef), parsed and shown by the same code (resources/fields.ts).
import type { Family } from '../../core/catalog.ts';
import { AUDIT_ACTION_LABELS } from '../../core/audit-actions.ts';
import type { BusinessCode } from '../../core/codes.ts';
import type { AuditChange, CallContext } from '../catalog/context.ts';
import type { Tenant } from '../catalog/tenant.ts';
import type { DB } from '../db/connection.ts';
import type { StockMove } from '../domain/stock/ledger.ts';
import type { FieldDef } from '../resources/types.ts';

export type Row = Record<string, unknown>;

/**
 * The lines of a call's body as sent (before the engine parses them into stored lines): a hook reading
 * the raw values (big/mid/small, the source line ids) declares the shape it reads. Not an array → none.
 */
export function sentLines<T extends object = Row>(input: Row): T[] {
  return Array.isArray(input.lines) ? (input.lines as T[]) : [];
}

/** What cancelling a document would undo and what stands in its way (the repeal desk's preview; `get`'s cancelEffect). */
export interface RepealPreview {
  cancellable: boolean;
  effect: string;
  blockers: Array<{ docType: string; docTypeText: string; docNo: string }>;
}

export interface StatusDef {
  label: string;
  /** antd tag colour of the status */
  color?: string;
}

/** What a transition's hook gets: the transaction, the document as the status update left it, its lines. */
export interface TransitionRun {
  ctx: CallContext;
  db: DB;
  tenant: Tenant;
  def: DocumentDefinition;
  /** the transition's name */
  name: string;
  /** the status the document was in */
  from: string;
  /** header row after the update (camelCase columns) */
  doc: Row;
  lines(): Promise<Row[]>;
  /**
   * The line rows as stored (camelCase columns, no labels): what a posting needs, read cheaply — or, when
   * a save posts in the same call (saveThen), the lines it has just written, with whatever else the
   * validate hook put on them (not read back).
   */
  storedLines(): Promise<Row[]>;
  /** Posts stock moves of this document (docType/docId filled in) through the ledger, in this transaction. */
  postMoves(moves: Array<Omit<StockMove, 'docType' | 'docId'>>): Promise<void>;
  /** Appends moves that undo every ledger move this document posted so far (kind `reverse`). */
  reverseMoves(): Promise<void>;
  /** the call's input ({id, version} and the transition's own `input` properties) */
  input: Row;
  /** more changes the audit entry of the transition records after the status change (e.g. a reason) */
  audit: AuditChange[];
}

/** What a transition's `before` hook gets: the transaction and the document as read, not yet changed. */
export interface TransitionBefore {
  ctx: CallContext;
  db: DB;
  tenant: Tenant;
  def: DocumentDefinition;
  name: string;
  id: number;
  /** the version the caller named, if any */
  version?: number;
  /** header row as read in the transaction (camelCase columns) */
  doc: Row;
  input: Row;
}

export interface TransitionDef {
  /** the button and audit text, e.g. 确认 */
  label: string;
  from: string[];
  to: string;
  /** Right needed; default: the permission of the catalog entry bound to `op:<type>.<name>`. */
  right?: string;
  /** Confirmation asked before the call; `{docNo}` and `{title}` are filled in. */
  confirm?: string;
  overlay?: boolean;
  danger?: boolean;
  /** `<stamp>At` / `<stamp>By` columns set by the transition (e.g. confirmed → confirmedAt, confirmedBy). */
  stamp?: string;
  /** Extra conditions of the conditional update per source status (column → value that must hold). */
  onlyWhen?: Record<string, Record<string, unknown>>;
  /**
   * Offered (by `get` and each list row) only when this holds for the document as shown — after the
   * `present` hook, so it may read what that hook computed (open follow-up documents, say). Only hides
   * the button: the transition itself still refuses with its own message when called anyway.
   */
  offerWhen?(doc: Row): boolean;
  /** Inputs of the call besides {id, version} (JSON-schema properties checked with the body; `required` among them). */
  input?: { properties: Record<string, Record<string, unknown>>; required?: string[] };
  /**
   * Runs inside the transition's transaction BEFORE the conditional status update, on the row as read:
   * takes row locks of other documents in the order other paths take them (the status update locks this
   * row, so locking here first keeps one order and no deadlock on PostgreSQL), and refusals that must
   * come before the status change. A document in a status the transition does not leave from, or of
   * another version, should be let through untouched: the conditional update refuses it with the usual
   * message.
   */
  before?(b: TransitionBefore): Promise<void>;
  /**
   * Runs inside the transition's transaction after the status changed; throwing rolls all of it back.
   * What it returns is added to the answer (e.g. the number of a document it created).
   */
  run?(t: TransitionRun): Promise<void | Row>;
}

/** What a save's hook gets: the parsed header and lines, changeable before they are written. */
export interface SaveRun {
  ctx: CallContext;
  def: DocumentDefinition;
  /** the raw input */
  input: Row;
  /** parsed header values (stored form) */
  header: Row;
  /** parsed line values (stored form), in order */
  lines: Row[];
  /** existing document id when updating */
  id?: number;
  /** where each line sits, for messages ("第 3 行", or a spreadsheet row of an import) */
  lineAt(i: number): LineAt;
  /**
   * Reference fields whose rows the hook has judged itself (whether a disabled one may be used, and
   * whatever else it refuses): the engine still checks each id is the caller's company's, but not
   * whether it is enabled.
   */
  verified: Set<string>;
  /**
   * Rows of `names` tables the hook has read, by table (purchaseOrder → {id, label: its docNo}): the
   * audit trail names them without reading them again.
   */
  named: Record<string, { id: number; label: string }>;
}

/** A line's place in messages and field paths. */
export interface LineAt {
  label: string;
  field: string;
}

/** What a save's in-transaction hook gets: the document as written, before its lines are replaced. */
export interface SavingRun extends SaveRun {
  db: DB;
  tenant: Tenant;
  /** the document's id (new or existing) */
  docId: number;
  /** true: the document was just created */
  created: boolean;
}

export interface DocumentHooks {
  /**
   * Completes the raw input of a save before anything is parsed (runs outside the transaction): a
   * document made from a source document may be sent without lines, which the hook brings in. With it
   * the save's input does not require `lines`. Throw validationError / bizError to refuse.
   */
  prepare?(ctx: CallContext, input: Row): Promise<void>;
  /**
   * Runs inside the save's transaction after the header row is written and before the lines are
   * replaced (the old ones are still there on an update): claims and quantities held elsewhere.
   */
  saving?(run: SavingRun): Promise<void>;
  /**
   * Checks and completes a save before the transaction (throw validationError / bizError to refuse):
   * runs after the field types are parsed and before the generic reference checks (existence, enabled),
   * so a document can refuse a disabled supplier with its own code. Values it puts on `header` and
   * `lines` (computed totals, rates) are written too.
   */
  validate?(run: SaveRun): Promise<void>;
  /**
   * A unique index refused the save's write (two saves passed the validate hook's own check at once):
   * the document's refusal for it (undefined lets the database error through).
   */
  conflict?(ctx: CallContext, input: Row, header: Row): Promise<Error | undefined>;
  /** Adds computed values to documents as the API shows them (lines only for get, undefined in lists). */
  present?(ctx: CallContext, docs: Row[], lines?: Row[]): void | Promise<void>;
  /**
   * Documents that follow this one in the chain without a header link to it (a receipt settles an
   * invoice through the allocation ledger): their type and ids, drawn below it by `relate`.
   */
  chainDown?(ctx: CallContext, doc: Row): Promise<Array<{ type: string; ids: number[] }>>;
}

export interface LineDef {
  /** camelCase table name */
  table: string;
  /** column holding the document id (default docId) */
  parent?: string;
  /** fewest lines (default 1); 0: `lines` may be left out of a save, the validate hook makes them */
  min?: number;
  max: number;
  fields: Record<string, FieldDef>;
  /** more columns of a referenced row shown with each line: reference field → columns of its resource */
  reads?: Record<string, string[]>;
  /** more indexes of the line table (camelCase fields or the parent column; company_id comes first), for lookups by a field */
  indexes?: string[][];
  /**
   * Inputs of a line that are not stored as they come (e.g. big/mid/small packs the validate hook turns
   * into a quantity): JSON-schema properties checked with the request body.
   */
  inputs?: Record<string, Record<string, unknown>>;
}

/** A header field that points at another document (its source): feeds the document chain. */
export interface LinkDef {
  field: string;
  type: string;
}

/**
 * A way on from a document (e.g. 收货 from a confirmed purchase order): offered by `get` as a link while
 * the document is in one of `statuses` and the caller holds `right`.
 */
export interface FollowUpDef {
  label: string;
  /** route template, `{field}` from the document */
  to: string;
  statuses: string[];
  right: string;
  /** offered only when this holds for the document as `get` shows it (e.g. something is left to plan) */
  when?(doc: Row): boolean;
}

/**
 * A column of the document export (one row per line): a header or line field by name (a reference shows
 * its label, an enum its label, money as a number), or any property of the document as `get` shows it
 * (`{key: 'supplierName', title: '供应商'}`); `from` reads a document property among the line columns.
 */
export type ExportColumn = string | { key: string; title: string; width?: number; numFmt?: string; from?: 'doc' | 'line' };

export interface EndpointCodes {
  family: Family;
  /** op name (list, get, save, remove, relate or a transition) → code */
  codes: Record<string, string>;
}

export interface DocumentDefinition {
  /** the type name: audit entity, ledger docType, op prefix (`op:<type>.<op>`) */
  type: string;
  title: string;
  /** document number prefix (per-company, per-day sequence) */
  prefix: string;
  /** camelCase table name of the header */
  table: string;
  /** true: the engine creates (and extends) the tables from the fields; false: migrations own them */
  managed?: boolean;
  /** more indexes of a managed header table (camelCase fields, `status` or a transition's `<stamp>At`; company_id comes first), created when missing */
  indexes?: string[][];
  statuses: Record<string, StatusDef>;
  /** status of a new document (default draft) */
  initial?: string;
  /** statuses in which save may change the document */
  editable: string[];
  /** statuses in which the document may be deleted (default: none) */
  removable?: string[];
  /**
   * rights of reading and saving (defaults: the catalog entries' permissions); `also`: rights the hooks
   * check themselves (code → name), added to the rights catalog so roles can grant them
   */
  rights?: { read?: string; edit?: string; also?: Record<string, string> };
  header: Record<string, FieldDef>;
  /** more columns of a referenced row shown with the header: reference field → columns of its resource */
  reads?: Record<string, string[]>;
  lines: LineDef;
  transitions: Record<string, TransitionDef>;
  hooks?: DocumentHooks;
  links?: LinkDef[];
  /** links to the documents that follow this one, offered by status and right */
  followUps?: FollowUpDef[];
  /** header fields the list filters on (equality; `docNo` contains and a date field's range are built in) */
  listFilters?: string[];
  /** header fields the list's number filter (`docNo`, contains) also matches, e.g. the supplier's invoice number */
  docNoAlso?: string[];
  /**
   * List conditions beyond the built-in ones (a date range sent as one array, say): more inputs
   * (JSON-schema properties, also taken by the export) and how they narrow the list's query.
   */
  listWhere?: { input: Record<string, Record<string, unknown>>; apply(q: any, input: Row, ctx: CallContext): any };
  /** date field of the list's dateFrom/dateTo filter (`createdAt`: the day it was made, company time) */
  dateField?: string;
  /**
   * How integer fields that point at rows outside the resources (other documents, containers) are named
   * in the audit trail: field → table and the column that names the row (orderId → purchaseOrder.docNo).
   */
  names?: Record<string, { table: string; column: string }>;
  /** header fields the audit trail records on save, in this order (default: every field that changed, and the line count) */
  audit?: string[];
  /** times set outside the transitions (by other documents), shown with the document: done → doneAt */
  stampsAlso?: string[];
  /** tables the hooks read for a list (present) besides those the engine joins: kept list pages watch them */
  listReads?: string[];
  /** `save` with this input flag true also runs this transition, in the same transaction */
  saveThen?: { flag: string; transition: string };
  /** the code of a status refusal (default DOCUMENT_STATUS_4131; same message parameters) */
  statusCode?: BusinessCode;
  /** the export: document columns, then line columns (default: every exported header and line field) */
  export?: { header?: ExportColumn[]; lines?: ExportColumn[] };
  /**
   * What cancelling the document undoes, told before it is done: the repeal desk's preview of this type
   * (engineTarget(definition) needs nothing else), and — while `cancel` is offered — `get`'s `cancelEffect`
   * (the effect and what stands in its way, in one text) for the 作废 confirmation (`confirm: '…{cancelEffect}'`).
   * `columns`: header fields `describe` reads of the row besides id, docNo and status.
   */
  repeal?: {
    columns: string[];
    describe(tenant: Tenant, f: { type: string; id: number; docNo: string; status: string; row: Row }): Promise<RepealPreview>;
  };
  /** the screen that opens one document, `{id}` (and `{docNo}`) filled in */
  route: string;
  /**
   * A route template of its own for some records (e.g. a receiving note of a sales return opens on 退货收货, not on
   * the purchase layout); undefined: `route`. Given the stored header row.
   */
  routeFor?(row: Row): string | undefined;
  /** catalog entries generated from the definition (documents the JSON catalog does not list) */
  endpoints?: EndpointCodes;
}

/** Checks a definition's inner references; returns the problems (none: fine). */
export function definitionProblems(def: DocumentDefinition): string[] {
  const out: string[] = [];
  const where = `单据定义 ${def.type}`;
  const statuses = Object.keys(def.statuses);
  const has = (s: string) => statuses.includes(s);
  if (!has(def.initial ?? 'draft')) out.push(`${where}: 初始状态 ${def.initial ?? 'draft'} 未声明`);
  for (const s of [...def.editable, ...(def.removable ?? [])]) if (!has(s)) out.push(`${where}: 状态 ${s} 未声明`);
  for (const [name, t] of Object.entries(def.transitions)) {
    for (const s of [...t.from, t.to]) if (!has(s)) out.push(`${where}: 动作 ${name} 的状态 ${s} 未声明`);
    if (['list', 'get', 'save', 'remove', 'relate', 'export'].includes(name)) out.push(`${where}: 动作名 ${name} 与引擎操作重名`);
    // the audit trail records a transition under its name: it needs a label there
    if (!(name in AUDIT_ACTION_LABELS)) out.push(`${where}: 动作名 ${name} 不在操作记录的动作表中（src/core/audit-actions.ts）`);
  }
  for (const f of [...(def.listFilters ?? []), ...(def.docNoAlso ?? [])]) if (!def.header[f]) out.push(`${where}: 筛选字段 ${f} 不是表头字段`);
  if (def.saveThen && !def.transitions[def.saveThen.transition]) out.push(`${where}: saveThen 的动作 ${def.saveThen.transition} 未声明`);
  if (def.dateField && def.dateField !== 'createdAt' && def.header[def.dateField]?.type !== 'date') out.push(`${where}: dateField ${def.dateField} 不是日期字段`);
  for (const u of def.followUps ?? []) for (const s of u.statuses) if (!has(s)) out.push(`${where}: 后续单据 ${u.label} 的状态 ${s} 未声明`);
  for (const f of [...(def.audit ?? []), ...Object.keys(def.names ?? {})]) if (!def.header[f]) out.push(`${where}: 字段 ${f} 不是表头字段`);
  for (const l of def.links ?? []) if (!def.header[l.field]) out.push(`${where}: 关联字段 ${l.field} 不是表头字段`);
  // an index may also name the status or a transition's time stamp (postedAt: read by the instant a document was posted)
  const stampAt = new Set(['status', ...Object.values(def.transitions).flatMap((t) => (t.stamp ? [`${t.stamp}At`] : [])), ...(def.stampsAlso ?? []).map((s) => `${s}At`)]);
  for (const cols of def.indexes ?? []) for (const f of cols) if (!def.header[f] && !stampAt.has(f)) out.push(`${where}: 索引字段 ${f} 不是表头字段`);
  for (const cols of def.lines.indexes ?? []) for (const f of cols) if (!def.lines.fields[f] && f !== (def.lines.parent ?? 'docId')) out.push(`${where}: 索引字段 ${f} 不是明细字段`);
  if (!/^[A-Z]{1,4}$/.test(def.prefix)) out.push(`${where}: 单号前缀应为 1–4 个大写字母`);
  return out;
}

export function defineDocument(def: DocumentDefinition): DocumentDefinition {
  return def;
}
