// The document engine (DESIGN §4.6): from one DocumentDefinition it serves list, get, save, remove, each
// transition and the document chain as ops named `<type>.<op>` (bound by the catalog like any `op:`).
// What every document gets without writing it:
// - numbers from the per-company sequence (prefix + company date + counter), taken in the creating
//   transaction: no temporary numbers;
// - optimistic locking: every update names the version it read; a transition is one conditional UPDATE
//   on (id, status[, version]) per possible source status, so of two clerks confirming at once exactly
//   one changes the row and the other is told the state the document is in now;
// - header and line fields parsed by the resource field types, references checked against the company;
// - the audit trail (field changes on save, status changes on transitions) in the same transaction;
// - `get` answers the actions the caller may take now (status × rights), which the `document` screen
//   kind draws, so screens do not restate the server's status rules.
import { sql } from 'kysely';
import type { Catalog, EndpointEntry, Family } from '../../core/catalog.ts';
import type { AuditAction } from '../../core/audit-actions.ts';
import type { DocumentAction, DocumentPermissions } from '../../core/document-actions.ts';
import { companyDateRange, formatDate } from '../../core/format.ts';
import type { AuditChange, AuditEntry, CallContext, InputSchema, OpHandler } from '../catalog/context.ts';
import { acceptingFilters } from '../catalog/list-filters.ts';
import type { Tenant } from '../catalog/tenant.ts';
import type { DB } from '../db/connection.ts';
import { insertMany } from '../db/raw-sql.ts';
import { nextDocumentNo } from '../domain/sequence.ts';
import { postMoves as ledgerPost, type StockMove } from '../domain/stock/ledger.ts';
import { ApiError, bizError, validationError, type FieldError } from '../http/errors.ts';
import { keptList } from '../resources/page-cache.ts';
import { display, expose, sameStored, scaleOf } from '../resources/fields.ts';
import { fileDate, xlsxDownload, type XlsxCell, type XlsxColumn } from '../files/xlsx.ts';
import type { FileResponse } from '../http/file-response.ts';
import type { Field, Resource, ResourceRegistry } from '../resources/types.ts';
import { definitionProblems, sentLines, type DocumentDefinition, type ExportColumn, type LineAt, type Row, type TransitionDef, type TransitionRun } from './definition.ts';

const defaultLineAt = (i: number): LineAt => ({ label: `第 ${i + 1} 行`, field: `lines.${i}` });
import { checkReferences, labelColumns, parseRecord, resolveFields, snake, type RefCheck, type ReferencedRows } from './fields.ts';

export interface EngineDeps {
  catalog: Catalog;
  resources: ResourceRegistry;
}

const ID = { type: 'integer', minimum: 1, maximum: 2_147_483_647 } as const;
export const ENGINE_ID_INPUT: InputSchema = { type: 'object', required: ['id'], properties: { id: { ...ID, title: '单据' } } };
export const ENGINE_ID_VERSION_INPUT: InputSchema = {
  type: 'object', required: ['id'], properties: { id: { ...ID, title: '单据' }, version: { ...ID, title: '版本' } },
};

const isUniqueViolation = (e: unknown) => ['23505', 'SQLITE_CONSTRAINT_UNIQUE'].includes(String((e as { code?: string })?.code));
const tzOf = (ctx: CallContext) => ctx.caller?.company.timeZone ?? 8;
const mayUse = (ctx: CallContext, right: string | undefined) => !right || right === '1' || !!ctx.caller?.allRights || !!ctx.caller?.rights.has(right);


/** One document type, resolved against the resources and the catalog. */
/** What `get` answers: the header fields with the caller's actions, and the lines. */
export type DocumentView = Row & DocumentPermissions & { lines: Row[] };

/** Field errors of two checks as one list in the order of the form (header, then line by line), each once. */
function mergeFieldErrors(a: FieldError[], b: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  const all = [...a, ...b].filter((e) => !seen.has(`${e.field}\u0000${e.message}`) && seen.add(`${e.field}\u0000${e.message}`));
  const place = (e: FieldError) => { const m = /^lines\.(\d+)\./.exec(e.field); return m ? Number(m[1]) : -1; };
  return all.map((e, i) => ({ e, i })).sort((x, y) => place(x.e) - place(y.e) || x.i - y.i).map((x) => x.e).slice(0, 200);
}

export class DocumentType {
  readonly header: Field[];
  readonly lineFields: Field[];
  readonly lineParent: string;
  /** the line table and its columns as insertLines writes them (snake case) */
  private readonly lineTable: string;
  private readonly lineColumns: readonly string[];
  /** op name → the catalog entry that binds it */
  readonly entries = new Map<string, { family: Family; entry: EndpointEntry }>();
  private readonly refs: Map<string, Resource>;
  /** the distinct stamps of the transitions (confirmed, posted…) */
  readonly stamps: string[];

  constructor(readonly def: DocumentDefinition, private readonly deps: EngineDeps) {
    const problems = definitionProblems(def);
    if (problems.length) throw new Error(problems.join('\n'));
    this.header = resolveFields(def.header, deps.resources, `单据定义 ${def.type} 表头`);
    this.lineFields = resolveFields(def.lines.fields, deps.resources, `单据定义 ${def.type} 明细`);
    this.lineParent = def.lines.parent ?? 'docId';
    this.lineTable = snake(def.lines.table);
    this.lineColumns = ['company_id', snake(this.lineParent), 'line_no', ...this.lineFields.map((f) => snake(f.column))];
    this.stamps = [...new Set(Object.values(def.transitions).flatMap((t) => (t.stamp ? [t.stamp] : [])))];
    this.refs = new Map();
    for (const f of [...this.header, ...this.lineFields]) if (f.type === 'reference') this.refs.set(f.resource!, deps.resources.get(f.resource!)!);
    for (const [family, list] of Object.entries(deps.catalog.families) as [Family, EndpointEntry[]][]) {
      for (const entry of list) {
        const m = /^op:([^.]+)\.(.+)$/.exec(entry.handler);
        if (m && m[1] === def.type) this.entries.set(m[2]!, { family, entry });
      }
    }
  }

  get title() { return this.def.title; }
  statusLabel(s: string) { return this.def.statuses[s]?.label ?? s; }
  apiOf(op: string) { const e = this.entries.get(op); return e ? `${e.family}:${e.entry.code}` : undefined; }
  rightOf(op: string) { return this.entries.get(op)?.entry.permission; }
  transitionRight(name: string, t: TransitionDef) { return t.right ?? this.rightOf(name); }
  /** The screen of one document: `{id}` and `{docNo}` filled in (a document shown only in its list opens the list on its number). */
  routeOf(r: Row) { return (this.def.routeFor?.(r) ?? this.def.route).replace('{id}', String(r.id)).replace('{docNo}', encodeURIComponent(String(r.docNo))); }

  /** Every table a list page reads (kept pages are dropped when one of them is written). */
  listTables(): string[] {
    return [...new Set([this.def.table, 'account', 'company', ...[...this.refs.values()].map((r) => r.table), ...(this.def.listReads ?? [])])];
  }

  /** Joins the row each reference field names (same company) and selects its label and `reads` columns. */
  private withReferences(q: any, table: string, fields: Field[], reads: Record<string, string[]> | undefined): { q: any; cols: string[] } {
    const cols: string[] = [];
    for (const f of fields) {
      if (f.type !== 'reference') continue;
      const r = this.refs.get(f.resource!)!;
      const alias = `r_${f.name}`;
      q = q.leftJoin(`${r.table} as ${alias}`, (j: any) => j.onRef(`${alias}.id`, '=', `${table}.${f.column}`).onRef(`${alias}.companyId`, '=', `${table}.companyId`));
      for (const [col, as] of labelColumns(f, r, alias, reads?.[f.name])) cols.push(`${col} as ${as}`);
    }
    return { q, cols };
  }

  /** Header rows with their reference labels and the creator's name. */
  labelled(tenant: Tenant) {
    const h = this.def.table;
    let { q, cols } = this.withReferences(tenant.select(h), h, this.header, this.def.reads);
    q = q.leftJoin('account as creator', (j: any) => j.onRef('creator.id', '=', `${h}.createdBy`).onRef('creator.companyId', '=', `${h}.companyId`));
    // who took each stamped step (postedBy → postedByName)
    for (const stamp of this.stamps) {
      const alias = `by_${stamp}`;
      q = q.leftJoin(`account as ${alias}`, (j: any) => j.onRef(`${alias}.id`, '=', `${h}.${stamp}By`).onRef(`${alias}.companyId`, '=', `${h}.companyId`));
      cols.push(`${alias}.userName as ${stamp}ByName`);
    }
    return q.selectAll(h).select([...cols, 'creator.userName as createdByName'] as any);
  }

  /** A header row as the API shows it. */
  view(r: Row): Row {
    const status = String(r.status);
    const out: Row = {
      id: Number(r.id), docNo: String(r.docNo), docType: this.def.type, status, statusText: this.statusLabel(status), version: Number(r.version),
      createdAt: r.createdAt ?? null, createdBy: r.createdBy == null ? null : Number(r.createdBy), createdByName: r.createdByName ?? null, updatedAt: r.updatedAt ?? null,
      route: this.routeOf(r),
    };
    for (const f of this.header) {
      out[f.name] = expose(f, r[f.column]);
      if (f.type === 'enum') out[`${f.name}Text`] = display(f, out[f.name]);
      if (f.type === 'reference') {
        const res = this.refs.get(f.resource!)!;
        for (const [, as, rf] of labelColumns(f, res, '', this.def.reads?.[f.name])) out[as] = rf ? expose(rf, r[as]) : r[as] ?? null;
      }
    }
    for (const stamp of this.def.stampsAlso ?? []) out[`${stamp}At`] = r[`${stamp}At`] ?? null;
    for (const stamp of this.stamps) { out[`${stamp}At`] = r[`${stamp}At`] ?? null; out[`${stamp}By`] = r[`${stamp}By`] == null ? null : Number(r[`${stamp}By`]); out[`${stamp}ByName`] = r[`${stamp}ByName`] ?? null; }
    return out;
  }

  async lines(tenant: Tenant, id: number): Promise<Row[]> {
    const l = this.def.lines.table;
    const { q, cols } = this.withReferences(tenant.select(l), l, this.lineFields, this.def.lines.reads);
    const rows = (await q.selectAll(l).select(cols as any).where(`${l}.${this.lineParent}`, '=', id).orderBy(`${l}.lineNo`).execute()) as Row[];
    return rows.map((r) => {
      const out: Row = { id: Number(r.id), lineNo: Number(r.lineNo) };
      for (const f of this.lineFields) {
        out[f.name] = expose(f, r[f.column]);
        if (f.type === 'reference') for (const [, as, rf] of labelColumns(f, this.refs.get(f.resource!)!, '', this.def.lines.reads?.[f.name])) out[as] = rf ? expose(rf, r[as]) : r[as] ?? null;
      }
      return out;
    });
  }

  /** What the caller may do with a document in its status now. */
  actions(ctx: CallContext, status: string, doc?: Row): DocumentPermissions {
    const editable = this.def.editable.includes(status) && mayUse(ctx, this.def.rights?.edit ?? this.rightOf('save')) && !!this.apiOf('save');
    const removable = (this.def.removable ?? []).includes(status) && mayUse(ctx, this.rightOf('remove')) && !!this.apiOf('remove');
    const actions: DocumentAction[] = [];
    for (const [name, t] of Object.entries(this.def.transitions)) {
      const api = this.apiOf(name);
      if (!api || !t.from.includes(status) || !mayUse(ctx, this.transitionRight(name, t))) continue;
      if (t.offerWhen && doc !== undefined && !t.offerWhen(doc)) continue;
      actions.push({ name, label: t.label, api, confirm: t.confirm, danger: t.danger, overlay: t.overlay });
    }
    for (const u of this.def.followUps ?? []) {
      if (u.statuses.includes(status) && mayUse(ctx, u.right) && (!u.when || (doc !== undefined && u.when(doc)))) actions.push({ name: `followUp:${u.label}`, label: u.label, to: u.to });
    }
    if (removable) actions.push({ name: 'remove', label: '删除', api: this.apiOf('remove')!, confirm: `确定删除${this.def.title}“{docNo}”？`, danger: true });
    // every call and link the server decides on, offered now or not: a screen's own button for one of
    // them shows only when the server offers it
    const governed = [
      ...Object.keys(this.def.transitions).flatMap((n) => (this.apiOf(n) ? [this.apiOf(n)!] : [])),
      ...(this.apiOf('remove') ? [this.apiOf('remove')!] : []),
      ...(this.def.followUps ?? []).map((u) => u.to),
    ];
    return { editable, removable, actions, governed };
  }

  /** Why a conditional update changed nothing: not found, wrong status, or someone else's edit. */
  async refusal(tenant: Tenant, id: number, version: number | undefined, expected: string[], action: string): Promise<ApiError> {
    const doc = (await tenant.select(this.def.table).select(['id', 'docNo', 'status', 'version']).where('id', '=', id).executeTakeFirst()) as Row | undefined;
    if (!doc) return bizError('COMMON_NOT_FOUND_4004', { entity: this.def.title });
    if (!expected.includes(String(doc.status))) {
      return bizError(this.def.statusCode ?? 'DOCUMENT_STATUS_4131', { doc: this.def.title, docNo: String(doc.docNo), status: this.statusLabel(String(doc.status)), action }, { id, status: doc.status });
    }
    return bizError('COMMON_VERSION_CONFLICT_4009', { entity: this.def.title });
  }

  // ---- save ----------------------------------------------------------------------------------------

  /** Field types, required fields and line limits (no database reads). */
  parse(input: Row, lineAt: (i: number) => LineAt = defaultLineAt): { header: Row; lines: Row[] } {
    const errors: FieldError[] = [];
    const header = parseRecord(this.header, input, errors);
    const raw = sentLines(input);
    const { min = 1, max } = this.def.lines;
    if (raw.length < min) errors.push({ field: 'lines', message: min === 1 ? '请至少添加一行明细' : `明细至少 ${min} 行` });
    if (raw.length > max) errors.push({ field: 'lines', message: `明细最多 ${max} 行` });
    const lines = raw.slice(0, max).map((l, i) => parseRecord(this.lineFields, l && typeof l === 'object' ? l : {}, errors, `${lineAt(i).field}.`, (m) => `${lineAt(i).label}：${m}`));
    if (errors.length) throw validationError(errors.slice(0, 200));
    return { header, lines };
  }

  /** Every referenced row exists in the caller's company and is enabled (a field the hook verified: in the company). */
  async checkReferences(ctx: CallContext, header: Row, lines: Row[], lineAt: (i: number) => LineAt = defaultLineAt, verified: ReadonlySet<string> | 'company' = new Set(), known?: ReferencedRows, into?: FieldError[]): Promise<Map<string, Map<number, string>>> {
    const errors: FieldError[] = into ?? [];
    const checks = new Map<string, RefCheck>();
    const use = (f: Field, id: unknown, path: string, message: (m: string) => string) => {
      if (id === null || id === undefined) return;
      let c = checks.get(f.name);
      if (!c) checks.set(f.name, (c = { field: f, resource: this.refs.get(f.resource!)!, uses: new Map(), companyOnly: verified === 'company' || verified.has(f.name) }));
      const list = c.uses.get(Number(id)) ?? [];
      list.push({ path, message });
      c.uses.set(Number(id), list);
    };
    for (const f of this.header) if (f.type === 'reference' && f.writable) use(f, header[f.column], f.name, (m) => m);
    lines.forEach((l, i) => { for (const f of this.lineFields) if (f.type === 'reference' && f.writable) use(f, l[f.column], `${lineAt(i).field}.${f.name}`, (m) => `${lineAt(i).label}：${m}`); });
    const labels = await checkReferences(ctx.tenant, [...checks.values()], errors, known);
    if (errors.length && !into) throw validationError(errors.slice(0, 200));
    return labels;
  }

  /**
   * Creates (with a new number) or updates a document in an editable status; lines are replaced.
   * `extra`: header values set by trusted server code (e.g. what a copy was copied from).
   */
  async save(ctx: CallContext, input: Row & { id?: number; version?: number }, extra: Row = {}, lineAt: (i: number) => LineAt = defaultLineAt) {
    const caller = ctx.caller!;
    if (input.id !== undefined && input.version === undefined) throw validationError([{ field: 'version', message: '版本不能为空，请刷新后重试' }]);
    // a document made from its source may be given without lines: the hook completes the input first
    if (this.def.hooks?.prepare) await this.def.hooks.prepare(ctx, input);
    const { header, lines } = this.parse(input, lineAt);
    const verified = new Set<string>();
    const named: Record<string, { id: number; label: string }> = {};
    // the ids the caller sent are the caller's company's before any hook reads or judges them (a hook that
    // forgot to read one cannot pass it on); what a hook fills in is checked after it, the rest not read again
    const referenced: ReferencedRows = new Map();
    const outside: FieldError[] = [];
    await this.checkReferences(ctx, header, lines, lineAt, 'company', referenced, outside);
    try {
      await this.def.hooks?.validate?.({ ctx, def: this.def, input, header, lines, id: input.id, lineAt, verified, named });
    } catch (e) {
      // the hook's field errors and the references' together, as one refusal listing everything (any other
      // refusal of the hook waits until the references are right: it may come of the missing row itself)
      const theirs = e instanceof ApiError && e.code === 'COMMON_VALIDATION_4000' ? ((e.data as { errors?: FieldError[] })?.errors ?? []) : undefined;
      if (!outside.length) throw e;
      throw validationError(mergeFieldErrors(outside, theirs ?? []));
    }
    if (outside.length) throw validationError(outside.slice(0, 200));
    const labels = await this.checkReferences(ctx, header, lines, lineAt, verified, referenced);
    const then = this.def.saveThen && input[this.def.saveThen.flag] === true ? this.def.saveThen.transition : undefined;
    // saving and posting at once needs the posting's right too (the save's code checks only its own)
    if (then && !mayUse(ctx, this.transitionRight(then, this.def.transitions[then]!))) {
      throw bizError('COMMON_NO_RIGHT_4003', { name: `${this.def.transitions[then]!.label}${this.def.title}` });
    }
    Object.assign(header, extra);
    const before = input.id !== undefined ? ((await ctx.tenant.select(this.def.table).selectAll().where('id', '=', input.id).executeTakeFirst()) as Row | undefined) : undefined;
    const now = new Date().toISOString();
    return ctx.transaction(async (db, tenant) => {
      let id: number;
      let docNo: string;
      let version = 1;
      let status = this.def.initial ?? 'draft';
      if (input.id !== undefined) {
        const updated = (await tenant.update(this.def.table).set({ ...header, updatedAt: now, updatedBy: caller.accountId, version: sql`${sql.ref('version')} + 1` })
          .where('id', '=', input.id).where('status', 'in', this.def.editable).where('version', '=', input.version!)
          .returning(['id', 'docNo', 'version', 'status']).executeTakeFirst()) as Row | undefined;
        if (!updated) throw await this.refusal(tenant, input.id, input.version, this.def.editable, '修改');
        id = Number(updated.id);
        docNo = String(updated.docNo);
        version = Number(updated.version);
        status = String(updated.status);
        await this.def.hooks?.saving?.({ ctx, def: this.def, input, header, lines, id: input.id, lineAt, verified, named, db, tenant, docId: id, created: false });
        await tenant.delete(this.def.lines.table).where(this.lineParent, '=', id).execute();
      } else {
        docNo = await nextDocumentNo(db, tenant.companyId, this.def.prefix, tzOf(ctx));
        const defaults = Object.fromEntries(this.header.filter((f) => f.default !== undefined && header[f.column] === undefined).map((f) => [f.column, f.default]));
        const inserted = (await tenant.insert(this.def.table, {
          ...defaults, ...header, docNo, status, version: 1, createdAt: now, createdBy: caller.accountId, updatedAt: now, updatedBy: caller.accountId,
        }).returning('id').executeTakeFirstOrThrow()) as Row;
        id = Number(inserted.id);
        await this.def.hooks?.saving?.({ ctx, def: this.def, input, header, lines, id: undefined, lineAt, verified, named, db, tenant, docId: id, created: true });
      }
      await this.insertLines(db, tenant.companyId, id, lines);
      // references by their labels (the earlier one read now: it may have been renamed since)
      const shown = async (f: Field, v: unknown) => {
        const link = this.def.names?.[f.name];
        // named by the validate hook, which read the row (the value it names now is the one just written)
        const read = link ? named[link.table] : undefined;
        if (read && read.id === Number(v)) return read.label;
        if (link && v != null) {
          const r = (await tenant.select(link.table).select(link.column).where('id', '=', Number(v)).executeTakeFirst()) as Row | undefined;
          return r ? String(r[link.column]) : Number(v);
        }
        if (f.type !== 'reference' || v == null) return display(f, expose(f, v));
        const known = labels.get(f.name)?.get(Number(v));
        if (known !== undefined) return known;
        const res = this.refs.get(f.resource!)!;
        const r = (await tenant.select(res.table).select(res.labelField).where('id', '=', Number(v)).executeTakeFirst()) as Row | undefined;
        return r ? String(r[res.labelField]) : Number(v);
      };
      const changes = [];
      const audited = this.def.audit ? this.def.audit.map((n) => this.header.find((f) => f.name === n)!) : this.header;
      for (const f of audited) {
        if (!(f.column in header) || sameStored(f, before?.[f.column], header[f.column])) continue;
        changes.push({ field: f.name, title: f.title, from: before ? await shown(f, before[f.column]) : null, to: await shown(f, header[f.column]) });
      }
      // the line count, unless a lineCount field of the header already said it
      if (!this.def.audit && !changes.some((c) => c.field === 'lineCount')) changes.push({ field: 'lineCount', title: '明细行数', from: null, to: lines.length });
      const entry: AuditEntry = { action: input.id !== undefined ? 'update' : 'create', entity: this.def.type, recordId: id, recordLabel: docNo, changes };
      // saved and then posted: both entries go in as one statement, with the transition's
      if (!then) await ctx.audit(entry, db);
      const answer: Row = { id, docNo, status, statusText: this.statusLabel(status), version };
      for (const f of this.header) if (f.column in header) answer[f.name] = expose(f, header[f.column]);
      if (then) {
        // the lines as just written: the posting need not read them back (what the validate hook put
        // on a line besides its fields, e.g. a product code it read, comes along)
        // (insertLines completed them in place: copying each — a validate hook may have hung many values
        // on it — was the save-and-post path's costliest line in bench:stock's profile)
        Object.assign(answer, await this.apply(ctx, db, tenant, then, { id, version }, lines, entry));
      }
      return answer;
    }).catch(async (e: unknown) => {
      // two saves passed the hook's own uniqueness check at once: the index refused one, in the document's words
      if (this.def.hooks?.conflict && isUniqueViolation(e)) throw (await this.def.hooks.conflict(ctx, input, header)) ?? e;
      throw e;
    });
  }

  /**
   * Every line field: the parsed ones, those a hook computed, the defaults of the rest. Each line is
   * completed in place as it is written (line number and defaults), so a posting in the same transaction
   * reads the lines as stored without reading them back.
   */
  private async insertLines(db: DB, companyId: number, id: number, lines: Row[]) {
    const fields = this.lineFields;
    const rows = new Array<unknown[]>(lines.length);
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i]!;
      l.lineNo = i + 1;
      const row: unknown[] = [companyId, id, i + 1];
      for (const f of fields) row.push(l[f.column] = l[f.column] ?? f.default ?? null);
      rows[i] = row;
    }
    await insertMany(db, this.lineTable, this.lineColumns, rows);
  }

  async remove(ctx: CallContext, input: { id: number; version?: number }) {
    const removable = this.def.removable ?? [];
    return ctx.transaction(async (db, tenant) => {
      // The claim of the row and the status check are one statement.
      let q = tenant.update(this.def.table).set({ version: sql`${sql.ref('version')} + 1` }).where('id', '=', input.id).where('status', 'in', removable.length ? removable : ['\u0000']);
      if (input.version !== undefined) q = q.where('version', '=', input.version);
      const doc = (await q.returning(['id', 'docNo']).executeTakeFirst()) as Row | undefined;
      if (!doc) throw await this.refusal(tenant, input.id, input.version, removable, '删除');
      await tenant.delete(this.def.lines.table).where(this.lineParent, '=', input.id).execute();
      await tenant.delete(this.def.table).where('id', '=', input.id).execute();
      await ctx.audit({ action: 'remove', entity: this.def.type, recordId: input.id, recordLabel: String(doc.docNo) }, db);
      return { id: input.id, docNo: String(doc.docNo) };
    });
  }

  // ---- transitions ---------------------------------------------------------------------------------

  async transition(ctx: CallContext, name: string, input: Row & { id: number; version?: number }) {
    return ctx.transaction((db, tenant) => this.apply(ctx, db, tenant, name, input));
  }

  /**
   * A transition inside the caller's transaction: the before hook, the conditional update, the hook, the
   * audit. `written`: the lines a save in this transaction has just written (saveThen).
   */
  async apply(ctx: CallContext, db: DB, tenant: Tenant, name: string, input: Row & { id: number; version?: number }, written?: Row[], saved?: AuditEntry) {
    const t = this.def.transitions[name]!;
    const caller = ctx.caller!;
    const now = new Date().toISOString();
    let from: string | undefined;
    let doc: Row | undefined;
    if (t.before) {
      const read = (await tenant.select(this.def.table).selectAll().where('id', '=', input.id).executeTakeFirst()) as Row | undefined;
      if (!read) throw bizError('COMMON_NOT_FOUND_4004', { entity: this.def.title });
      await t.before({ ctx, db, tenant, def: this.def, name, id: input.id, version: input.version, doc: read, input });
    }
    // Writes first (the SQLite write lock before any read); at most one source status matches.
    for (const f of t.from) {
      const set: Row = { status: t.to, updatedAt: now, updatedBy: caller.accountId, version: sql`${sql.ref('version')} + 1` };
      if (t.stamp) { set[`${t.stamp}At`] = now; set[`${t.stamp}By`] = caller.accountId; }
      let q = tenant.update(this.def.table).set(set).where('id', '=', input.id).where('status', '=', f);
      if (input.version !== undefined) q = q.where('version', '=', input.version);
      for (const [col, v] of Object.entries(t.onlyWhen?.[f] ?? {})) q = q.where(col, '=', v);
      doc = (await q.returningAll().executeTakeFirst()) as Row | undefined;
      if (doc) { from = f; break; }
    }
    if (!doc || !from) throw await this.refusal(tenant, input.id, input.version, t.from, t.label);
    const id = input.id;
    const audit: AuditChange[] = [];
    const run: TransitionRun = {
      ctx, db, tenant, def: this.def, name, from, doc, input, audit,
      lines: () => this.lines(tenant, id),
      storedLines: async () => written ?? (await tenant.select(this.def.lines.table).selectAll().where(this.lineParent, '=', id).orderBy('lineNo').execute()) as Row[],
      postMoves: async (moves) => {
        if (moves.length) await ledgerPost(db, caller, moves.map((m) => ({ ...m, docType: this.def.type, docId: id } as StockMove)));
      },
      reverseMoves: async () => {
        const posted = (await tenant.select('stockMove').select(['productId', 'warehouseId', 'locationId', 'qty', 'reservedQty', 'committedQty', 'docLine'])
          .where('docType', '=', this.def.type).where('docId', '=', id).orderBy('id').execute()) as Row[];
        const moves: StockMove[] = posted.filter((m) => Number(m.qty) !== 0 || Number(m.reservedQty) !== 0 || Number(m.committedQty) !== 0).map((m) => ({
          productId: Number(m.productId), warehouseId: Number(m.warehouseId), locationId: m.locationId == null ? null : Number(m.locationId),
          qty: -Number(m.qty), reserved: -Number(m.reservedQty), committed: -Number(m.committedQty), kind: 'reverse', docType: this.def.type, docId: id, docLine: m.docLine == null ? null : Number(m.docLine),
        }));
        if (moves.length) await ledgerPost(db, caller, moves);
      },
    };
    const extra = (await t.run?.(run)) ?? {};
    const entry: AuditEntry = { action: name as AuditAction, entity: this.def.type, recordId: id, recordLabel: String(doc.docNo), changes: [{ field: 'status', title: '状态', from: this.statusLabel(from), to: this.statusLabel(t.to) }, ...audit] };
    await ctx.audit(saved ? [saved, entry] : entry, db);
    return { ...extra, id, docNo: String(doc.docNo), status: t.to, statusText: this.statusLabel(t.to), version: Number(doc.version) };
  }

  // ---- export --------------------------------------------------------------------------------------

  /** Columns of the export, each with how it reads its cell from the document and the line. */
  exportColumns(): Array<XlsxColumn & { cell(doc: Row, line: Row): XlsxCell }> {
    const resolve = (c: ExportColumn, fields: Field[], from: 'doc' | 'line') => {
      const key = typeof c === 'string' ? c : c.key;
      const f = typeof c !== 'string' && c.from && c.from !== from ? undefined : fields.find((x) => x.name === key);
      const title = typeof c === 'string' ? (f?.title ?? (key === 'docNo' ? '单号' : key === 'statusText' ? '状态' : key === 'lineNo' ? '行号' : key)) : c.title;
      const numFmt = typeof c !== 'string' && c.numFmt ? c.numFmt : f?.type === 'money' ? '#,##0.00' : f?.type === 'decimal' ? `0.${'0'.repeat(scaleOf(f))}` : undefined;
      const side = typeof c !== 'string' && c.from ? c.from : from;
      const pick = (doc: Row, line: Row) => (side === 'doc' ? doc : line);
      const cell = (doc: Row, line: Row): XlsxCell => {
        const row = pick(doc, line);
        if (f?.type === 'reference') return (row[f.labelAs!] as XlsxCell) ?? null;
        if (f?.type === 'enum' || f?.type === 'boolean') return display(f, row[key]) as XlsxCell;
        if (f?.type === 'money' || f?.type === 'decimal') return row[key] == null ? null : Number(row[key]);
        const v = row[key];
        return v === undefined ? null : (v as XlsxCell);
      };
      return { header: title, width: typeof c !== 'string' && c.width ? c.width : Math.max(8, Math.min(30, title.length * 2 + 4)), ...(numFmt ? { numFmt } : {}), cell };
    };
    const header = this.def.export?.header ?? ['docNo', 'statusText', ...this.header.filter((f) => f.exported).map((f) => f.name)];
    const lines = this.def.export?.lines ?? ['lineNo', ...this.lineFields.filter((f) => f.exported).map((f) => f.name)];
    return [...header.map((c) => resolve(c, this.header, 'doc')), ...lines.map((c) => resolve(c, this.lineFields, 'line'))];
  }

  /** The filtered documents (newest first, at most 20,000) with their lines as .xlsx, one row per line. */
  async export(ctx: CallContext, input: Row): Promise<FileResponse> {
    const ids: number[] = [];
    for (let page = 1; ids.length < 20_000; page++) {
      const got = await this.list(ctx, { ...input, page, pageSize: 500 });
      for (const r of got.list) ids.push(Number(r.id));
      if (got.list.length < 500) break;
    }
    const columns = this.exportColumns();
    return xlsxDownload(`${this.def.title}_${fileDate(tzOf(ctx))}.xlsx`, async (book) => {
      const sheet = book.addSheet(this.def.title, columns);
      for (const id of ids) {
        const doc = await this.get(ctx, id);
        for (const line of doc.lines) sheet.addRow(columns.map((c) => c.cell(doc, line)));
        await book.drain();
      }
    });
  }

  // ---- reads ---------------------------------------------------------------------------------------

  /** A document as its screen shows it: header (labelled, presented), the caller's actions now, its lines. */
  async get(ctx: CallContext, id: number): Promise<DocumentView> {
    const doc = (await this.labelled(ctx.tenant).where(`${this.def.table}.id`, '=', id).executeTakeFirst()) as Row | undefined;
    if (!doc) throw bizError('COMMON_NOT_FOUND_4004', { entity: this.def.title });
    const view = this.view(doc);
    const lines = await this.lines(ctx.tenant, id);
    await this.def.hooks?.present?.(ctx, [view], lines);
    const offered = this.actions(ctx, String(doc.status), view);
    // what 作废 would undo, told before it is confirmed (definition-level repeal preview)
    if (this.def.repeal && offered.actions.some((a) => a.name === 'cancel')) {
      const d = await this.def.repeal.describe(ctx.tenant, { type: this.def.type, id, docNo: String(view.docNo), status: String(view.status), row: view });
      view.cancelEffect = d.blockers.length ? `${d.effect}；不能作废：已有后续单据 ${d.blockers.map((b) => `${b.docTypeText} ${b.docNo}`).join('、')}` : d.effect;
    }
    return { ...view, ...offered, ...this.bearings(ctx), lines };
  }

  /**
   * What every document screen draws without a line in its schema (issue 30): the states in their order
   * for the status bar (red ones — 作废, 已冲销 — are exits, drawn only when current), and the call that
   * lists the document's chain for its buttons (发货计划 1 · 送货单 2 …) when the caller may use it.
   */
  bearings(ctx: CallContext): { statusFlow: Array<{ value: string; label: string; color?: string }>; relateApi: string | null } {
    const statusFlow = Object.entries(this.def.statuses).map(([value, s]) => ({ value, label: s.label, ...(s.color ? { color: s.color } : {}) }));
    const relate = this.apiOf('relate');
    return { statusFlow, relateApi: relate && mayUse(ctx, this.rightOf('relate')) ? relate : null };
  }

  listInput(): InputSchema {
    const props: Record<string, unknown> = {
      page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1, title: '页码' },
      pageSize: { type: 'integer', minimum: 1, maximum: 500, default: 20, title: '每页条数' },
      docNo: { type: ['string', 'null'], maxLength: 50, title: '单号' },
      status: { enum: [...Object.keys(this.def.statuses), null], title: '状态' },
    };
    for (const name of this.def.listFilters ?? []) {
      const f = this.header.find((x) => x.name === name)!;
      props[name] = f.type === 'reference' || f.type === 'integer' ? { type: ['integer', 'null'], maximum: ID.maximum, minimum: f.type === 'reference' ? 1 : undefined, title: f.title }
        : f.type === 'enum' ? { enum: [...f.values!.map((v) => v.value), null], title: f.title }
          : { type: ['string', 'null'], maxLength: 100, title: f.title };
    }
    Object.assign(props, this.def.listWhere?.input ?? {});
    if (this.def.dateField) {
      props.dateFrom = { type: ['string', 'null'], format: 'date', title: '开始日期' };
      props.dateTo = { type: ['string', 'null'], format: 'date', title: '结束日期' };
    }
    return { type: 'object', properties: JSON.parse(JSON.stringify(props)) };
  }

  async list(ctx: CallContext, input: Row & { page: number; pageSize: number }) {
    const h = this.def.table;
    let where = ctx.tenant.select(h);
    const docNo = typeof input.docNo === 'string' ? input.docNo.trim() : '';
    if (docNo) {
      const like = `%${docNo.replace(/[\\%_]/g, '')}%`;
      const cols = [`${h}.docNo`, ...(this.def.docNoAlso ?? []).map((n) => `${h}.${this.header.find((f) => f.name === n)!.column}`)];
      where = where.where((eb: any) => eb.or(cols.map((c) => eb(c, 'like', like))));
    }
    if (input.status) where = where.where(`${h}.status`, '=', input.status);
    for (const name of this.def.listFilters ?? []) {
      const v = input[name];
      if (v === null || v === undefined || v === '') continue;
      const f = this.header.find((x) => x.name === name)!;
      where = where.where(`${h}.${f.column}`, '=', v);
    }
    if (this.def.dateField === 'createdAt') {
      // the days of the company's calendar, as UTC stamps
      if (input.dateFrom) where = where.where(`${h}.createdAt`, '>=', companyDateRange(String(input.dateFrom), String(input.dateFrom), tzOf(ctx))[0]);
      if (input.dateTo) where = where.where(`${h}.createdAt`, '<=', companyDateRange(String(input.dateTo), String(input.dateTo), tzOf(ctx))[1]);
    } else if (this.def.dateField) {
      const col = `${h}.${this.header.find((x) => x.name === this.def.dateField)!.column}`;
      if (input.dateFrom) where = where.where(col, '>=', input.dateFrom);
      if (input.dateTo) where = where.where(col, '<=', input.dateTo);
    }
    if (this.def.listWhere) where = this.def.listWhere.apply(where, input, ctx);
    const counted = (await where.select((eb: any) => eb.fn.countAll().as('total')).executeTakeFirst()) as Row | undefined;
    const total = Number(counted?.total ?? 0);
    const offset = (input.page - 1) * input.pageSize;
    let rows: Row[] = [];
    if (total > offset) {
      const ids = ((await where.select(`${h}.id`).orderBy(`${h}.id`, 'desc').limit(input.pageSize).offset(offset).execute()) as Row[]).map((r) => Number(r.id));
      if (ids.length) rows = (await this.labelled(ctx.tenant).where(`${h}.id`, 'in', ids).orderBy(`${h}.id`, 'desc').execute()) as Row[];
    }
    const list = rows.map((r) => this.view(r));
    await this.def.hooks?.present?.(ctx, list);
    // each row says which of its buttons the caller may use now (a list draws only those it offers)
    for (const row of list) {
      const { actions, governed, editable } = this.actions(ctx, String(row.status), row);
      row.actions = actions;
      row.governed = governed;
      // whether save may change it now (a list's edit form asks this instead of restating the statuses)
      row.editable = editable;
    }
    return { list, total, page: input.page, pageSize: input.pageSize };
  }

  /** The chain a document belongs to: its sources (links) up, and documents linking to it down. */
  async relate(ctx: CallContext, id: number, types: Map<string, DocumentType>) {
    const doc = (await ctx.tenant.select(this.def.table).selectAll().where('id', '=', id).executeTakeFirst()) as Row | undefined;
    if (!doc) throw bizError('COMMON_NOT_FOUND_4004', { entity: this.def.title });
    const item = (t: DocumentType, r: Row, from: string | null, level: number) => ({
      docType: t.def.type, docTypeText: t.def.title, id: Number(r.id), number: String(r.docNo), status: String(r.status), statusText: t.statusLabel(String(r.status)),
      route: t.routeOf(r), from, level,
    });
    // up: follow the first link of each document to its source
    const ups: Array<{ t: DocumentType; r: Row }> = [];
    let cur: { t: DocumentType; r: Row } = { t: this, r: doc };
    for (let depth = 0; depth < 10; depth++) {
      const link = (cur.t.def.links ?? []).find((l) => cur.r[cur.t.header.find((f) => f.name === l.field)!.column] != null && types.has(l.type));
      if (!link) break;
      const st = types.get(link.type)!;
      // the whole row: its own links lead further up (task → plan → order)
      const sr = (await ctx.tenant.select(st.def.table).selectAll().where('id', '=', Number(cur.r[cur.t.header.find((f) => f.name === link.field)!.column])).executeTakeFirst()) as Row | undefined;
      if (!sr) break;
      ups.unshift({ t: st, r: sr });
      cur = { t: st, r: sr };
    }
    const chain = ups.map((u, i) => item(u.t, u.r, i ? String(ups[i - 1]!.r.docNo) : null, i));
    chain.push(item(this, doc, ups.length ? String(ups[ups.length - 1]!.r.docNo) : null, ups.length));
    // down: documents whose links point at this one (one level per call of each type; recursive)
    const down = async (t: DocumentType, r: Row, level: number) => {
      for (const other of types.values()) {
        for (const l of other.def.links ?? []) {
          if (l.type !== t.def.type) continue;
          const col = other.header.find((f) => f.name === l.field)!.column;
          const rows = (await ctx.tenant.select(other.def.table).select(['id', 'docNo', 'status']).where(col, '=', Number(r.id)).orderBy('id').limit(200).execute()) as Row[];
          for (const x of rows) { chain.push(item(other, x, String(r.docNo), level)); await down(other, x, level + 1); }
        }
      }
      for (const more of (await t.def.hooks?.chainDown?.(ctx, r)) ?? []) {
        const other = types.get(more.type);
        if (!other || !more.ids.length) continue;
        const rows = (await ctx.tenant.select(other.def.table).select(['id', 'docNo', 'status']).where('id', 'in', more.ids.slice(0, 200)).orderBy('id').execute()) as Row[];
        for (const x of rows) { chain.push(item(other, x, String(r.docNo), level)); await down(other, x, level + 1); }
      }
    };
    await down(this, doc, ups.length + 1);
    return { docNo: String(doc.docNo), found: { docType: this.def.type, id }, chain, list: chain, total: chain.length };
  }
}

/** Today in the company's time zone (a date field's default). */
export const companyToday = (ctx: CallContext) => formatDate(new Date().toISOString(), tzOf(ctx));

/** The ops of every document type: `<type>.list|get|save|remove|relate|<transition>`. */
export function documentOps(types: Map<string, DocumentType>): Record<string, OpHandler> {
  const ops: Record<string, OpHandler> = {};
  for (const t of types.values()) {
    const p = t.def.type;
    const saveInput: InputSchema = {
      // lines may be left out where the prepare hook brings them in from the source, or where a document
      // may have none (its validate hook then makes them)
      type: 'object', required: t.def.hooks?.prepare || t.def.lines.min === 0 ? [] : ['lines'],
      properties: {
        id: { ...ID, title: t.def.title }, version: { ...ID, title: '版本' },
        ...(t.def.saveThen ? { [t.def.saveThen.flag]: { type: 'boolean', title: `保存后立即${t.def.transitions[t.def.saveThen.transition]!.label}` } } : {}),
        lines: { type: 'array', maxItems: t.def.lines.max, items: { type: 'object', properties: { ...(t.def.lines.inputs ?? {}) } }, title: '明细' },
      },
    };
    ops[`${p}.list`] = acceptingFilters(keptList(`${p}.list`, t.listTables(), t.listInput(), (ctx, input: Row & { page: number; pageSize: number }) => t.list(ctx, input)));
    ops[`${p}.get`] = { input: ENGINE_ID_INPUT, run: (ctx, input: { id: number }) => t.get(ctx, input.id) };
    ops[`${p}.save`] = { input: saveInput, run: (ctx, input: Row & { id?: number; version?: number }) => t.save(ctx, input) };
    if (t.def.removable?.length) ops[`${p}.remove`] = { input: ENGINE_ID_VERSION_INPUT, run: (ctx, input: { id: number; version?: number }) => t.remove(ctx, input) };
    const exportInput = t.listInput() as { properties: Record<string, unknown> };
    const { page: _p, pageSize: _s, ...conditions } = exportInput.properties;
    ops[`${p}.export`] = acceptingFilters({ input: { type: 'object', properties: conditions }, run: (ctx, input: Row) => t.export(ctx, input) });
    ops[`${p}.relate`] = { input: ENGINE_ID_INPUT, run: (ctx, input: { id: number }) => t.relate(ctx, input.id, types) };
    for (const name of Object.keys(t.def.transitions)) {
      const own = t.def.transitions[name]!.input;
      const input: InputSchema = own ? {
        type: 'object', required: ['id', ...(own.required ?? [])],
        properties: { ...(ENGINE_ID_VERSION_INPUT.properties as Record<string, unknown>), ...own.properties },
      } : ENGINE_ID_VERSION_INPUT;
      ops[`${p}.${name}`] = { input, run: (ctx, body: Row & { id: number; version?: number }) => t.transition(ctx, name, body) };
    }
  }
  // Only ops the catalog binds: an op without a code would stop start-up (catalog/bind.ts).
  return Object.fromEntries(Object.entries(ops).filter(([name]) => {
    const dot = name.indexOf('.');
    return types.get(name.slice(0, dot))!.entries.has(name.slice(dot + 1));
  }));
}

/** Finds a document of any engine type by its number (for /docRelate). */
export async function findByNumber(ctx: CallContext, types: Map<string, DocumentType>, docNo: string): Promise<{ type: DocumentType; id: number } | undefined> {
  for (const t of types.values()) {
    const r = (await ctx.tenant.select(t.def.table).select(['id']).where('docNo', '=', docNo).executeTakeFirst()) as Row | undefined;
    if (r) return { type: t, id: Number(r.id) };
  }
  return undefined;
}
