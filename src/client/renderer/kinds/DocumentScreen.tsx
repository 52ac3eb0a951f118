// The `document` screen kind: a header form, an editable line table with exact totals, the state and an
// action bar whose actions follow the state (`when`), the document chain and the record's audit trail
// (cdm 019702 by entity and record id).
//
// New documents: the route has no id (or the id `new`); `prefill` header fields come from the URL query
// (?orderId=12) and `lines.source` brings lines in from another document when its trigger field is
// chosen. Saving sends {id?, version?, ...header, [lines.field]: lines}; server field errors land on
// header fields (line errors name their row in the message). After saving, a new document opens at
// `afterSave`; an existing one is loaded again. `editable` says when an existing one may still change
// (a confirmed order is read-only); without the save right the document is read-only too.

import { Button, Card, Divider, Result, Space, Spin, Tag } from 'antd';
import { onFieldValueChange, onFormValuesChange } from '@formily/core';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { announceHeading } from '../../router/pageHeading';
import { OK, isSilentCode } from '../../../core/codes';
import { toast } from '../../request';
import { actionCall } from '../actions/actionCall';
import type { ScreenProps } from '../../router/screenProps';
import { ActionBar } from '../actions/ActionBar';
import type { ActionScope } from '../actions/types';
import { usableActions } from '../actions/usable';
import { loadOptions, staticOptions } from '../data/options';
import { auditFilters, auditPart, mayReadAudit } from '../detail/auditPart';
import { SectionList } from '../detail/SectionList';
import { actionProblems, actionUses, sectionUses } from '../detail/prepare';
import { LineTable, newLineKey } from '../document/LineTable';
import type { Line } from '../document/lines';
import { ChainButtons, RelatedDocuments, useChain } from '../document/RelatedDocuments';
import { StatusBar } from '../document/StatusBar';
import { linesToSave } from '../document/saveBody';
import { governedOf, mergeActions, serverActionSchemas, serverActionsOf } from '../document/serverActions';
import { loadSource } from '../document/source';
import { apiRight, holds, useRenderEnv } from '../env';
import { applyServerErrors, SchemaFormView, serverFieldErrors, useSchemaForm } from '../form/SchemaForm';
import { afterPaint, focusFirstField, focusFirstInvalid, useSaveShortcut } from '../form/keyboard';
import { formUses } from '../form/useFormReady';
import { trackUnsaved } from '../form/unsavedChanges';
import { ListView } from '../list/ListView';
import { resolveAll, type SchemaProblem } from '../registry';
import { columnTypes, lineEditors } from '../registries';
import { SchemaProblems } from '../SchemaProblems';
import { fillRoute } from '../template';
import { SAVED_TEXT } from '../texts';
import type { DocumentScreenPart, OptionItem } from '../types';
import { useRecord, type Row } from './useRecord';

async function prepareDocument(part: DocumentScreenPart): Promise<SchemaProblem[]> {
  const uses = [
    ...formUses(part.header, 'header'),
    ...part.lines.columns.map((c, i) => ({ registry: columnTypes, type: c.type ?? 'text', path: `lines.columns[${i}].type` })),
    ...part.lines.columns.flatMap((c, i) => (c.editor ? [{ registry: lineEditors, type: c.editor, path: `lines.columns[${i}].editor` }] : [])),
    ...actionUses(part.actions, 'actions', part.forms),
    // the actions a document's `get` answers are calls and links
    ...actionUses([{ action: 'call', title: '', api: part.api.get }, { action: 'link', title: '', to: '/' }], 'actions', part.forms),
  ];
  // the read-only sections under the lines, as the detail kind prepares them
  const sectionProblems: SchemaProblem[] = [];
  sectionUses(part.sections ?? [], 'sections', uses, sectionProblems);
  const problems = [...sectionProblems, ...(await resolveAll(uses))];
  part.lines.columns.forEach((c, i) => {
    const check = c.editor ? lineEditors.peek(c.editor)?.check : undefined;
    if (check) problems.push(...check(c, `lines.columns[${i}]`));
  });
  return [...problems, ...actionProblems(part.actions, 'actions', { api: part.api, forms: part.forms })];
}

const keyed = (lines: Line[]) => lines.map((l) => (l.id === undefined && l.__key === undefined ? { ...l, __key: newLineKey() } : l));
const plain = (values: unknown) => JSON.parse(JSON.stringify(values ?? {})) as Row;

interface BodyProps {
  part: DocumentScreenPart;
  record: Row | null;
  prefill: Row;
  screenTitle: string;
  scope: ActionScope;
  onSaved(saved: Row, wasNew: boolean): void;
}

function DocumentBody({ part, record, prefill, screenTitle, scope, onSaved }: BodyProps) {
  const env = useRenderEnv();
  const header = useMemo(() => ({ ...part.header, api: undefined }), [part.header]);
  const handle = useSchemaForm(header, record);
  const [lines, setLines] = useState<Line[]>(() => keyed(Array.isArray(record?.[part.lines.field]) ? (record![part.lines.field] as Line[]) : []));
  const [headerValues, setHeaderValues] = useState<Row>(() => ({ ...(record ?? {}), ...prefill }));
  const [saving, setSaving] = useState(false);
  // (static state labels from the first paint: a remount after 发货 / 过账 must not flash the raw `posted`)
  const [stateOptions, setStateOptions] = useState<OptionItem[]>(() => staticOptions(part.state));
  const sourceTurn = useRef(0);
  // Line edits count as unsaved changes too (the header form tracks its own fields).
  const linesTouched = useRef(false);
  const linesSaved = useRef(false);
  useEffect(() => trackUnsaved(() => linesTouched.current && !linesSaved.current), []);
  const editLines = (next: Line[]) => {
    linesTouched.current = true;
    setLines(next);
  };
  const sourceKey = useRef(JSON.stringify(record && part.lines.source ? (record[part.lines.source.trigger] ?? null) : null));

  const mayWrite = !!part.api.save && env.hasRight(apiRight(part.api.save));
  // A document on the engine says itself whether the caller may change it now (status × rights).
  const editable = mayWrite && (!record || (typeof record.editable === 'boolean' ? record.editable : holds(part.editable, env, record)));

  useEffect(() => {
    if (part.state) void loadOptions(part.state).then(setStateOptions);
  }, [part.state]);

  // Header values for lookups and the line source; prefilled fields of a new document.
  useEffect(() => {
    const form = handle.form;
    const source = part.lines.source;
    const pull = async (values: Row) => {
      if (!source) return;
      // The trigger field reports its first value when it mounts too: one load per value chosen.
      const key = JSON.stringify(values[source.trigger] ?? null);
      if (key === sourceKey.current) return;
      sourceKey.current = key;
      const turn = ++sourceTurn.current;
      if (values[source.trigger] === undefined || values[source.trigger] === null || values[source.trigger] === '') {
        setLines([]);
        return;
      }
      const got = await loadSource(source, values);
      if (!got || turn !== sourceTurn.current) return;
      for (const [k, v] of Object.entries(got.header)) form.setValuesIn(k, v);
      setLines(keyed(got.lines));
    };
    form.addEffects('document', () => {
      onFormValuesChange((f) => setHeaderValues(plain(f.values)));
      if (source && editable) onFieldValueChange(source.trigger, (field) => void pull(plain(field.form.values)));
    });
    if (!record && Object.keys(prefill).length) {
      form.setInitialValues(prefill);
      if (source && prefill[source.trigger] !== undefined) void pull(plain(form.values));
    }
    return () => form.removeEffects('document');
  }, [handle.form]); // eslint-disable-line react-hooks/exhaustive-deps

  const actionList = useMemo(() => {
    const fromServer = serverActionsOf(record);
    const list = fromServer ? mergeActions(serverActionSchemas(fromServer, part.afterRemove), part.actions, governedOf(record), part.forms) : part.actions;
    return usableActions(list, 'actions', env, { api: part.api, forms: part.forms });
  }, [part, env, record]);

  const box = useRef<HTMLDivElement>(null);
  // A document open for editing has the caret in its first header field (a new order: 供应商).
  useEffect(() => {
    if (editable) afterPaint(() => focusFirstField(box.current));
  }, []); // eslint-disable-line react-hooks/exhaustive-deps
  const save = async () => {
    if (!part.api.save || saving) return;
    const values = await handle.submit(); // header validation only (no save code on the header part)
    if (!values) {
      afterPaint(() => focusFirstInvalid(box.current));
      return;
    }
    setSaving(true);
    const body: Row = { ...values, [part.lines.field]: linesToSave(lines, part.lines.columns) };
    if (record?.id !== undefined) body.id = record.id;
    if (record?.version !== undefined) body.version = record.version;
    // Header field errors go on their fields; a silent refusal about a line or naming no header field
    // is shown as a message by actionCall (with the line it names).
    const placeOnHeader = (e: { msg: string; data: unknown }) => {
      const errors = serverFieldErrors(e.msg, e.data);
      return errors.length > 0 && applyServerErrors(handle.form, errors).length === 0;
    };
    // (finally: a call that throws — a code the client's catalog lacks — must not leave 保存 spinning)
    const res = await actionCall<Row>(part.api.save, body, { inline: placeOnHeader }).finally(() => setSaving(false));
    if (res.code === OK) {
      toast.success(SAVED_TEXT);
      handle.markSaved();
      linesSaved.current = true;
      onSaved(res.data ?? {}, !record);
    } else if (!isSilentCode(res.code)) {
      applyServerErrors(handle.form, serverFieldErrors(res.msg, res.data));
      afterPaint(() => focusFirstInvalid(box.current));
    }
  };
  // Ctrl+S saves from anywhere on the document (the 保存 button sits at the top of a long page).
  useSaveShortcut(() => void save(), editable);

  // the document's own name where its kind says more than the route (a 收付款单 is a 收款单 or a 付款单)
  const location = useLocation();
  const kindValue = part.titleBy ? (record ?? headerValues)[part.titleBy.field] : undefined;
  const heading = (kindValue != null ? part.titleBy?.values[String(kindValue)] : undefined) ?? screenTitle;
  const docNo = record?.docNo;
  useEffect(() => {
    if (heading !== screenTitle) announceHeading(`${location.pathname}${location.search}`, `${heading}（${docNo != null ? String(docNo) : '新建'}）`);
  }, [heading, screenTitle, docNo, location.pathname, location.search]);
  // the status bar and the chain buttons: from the engine's answer, else the schema's state and related call
  const flow = Array.isArray(record?.statusFlow) ? (record.statusFlow as OptionItem[]) : stateOptions;
  // (the schema's chain call when the caller may use it, else the engine's own: a clerk without the
  // purchase-wide 单据关联 right still sees the chain of the documents they read)
  const useSchemaChain = !!part.related && env.hasRight(apiRight(part.related.api));
  const chainApi = useSchemaChain ? part.related!.api : typeof record?.relateApi === 'string' ? record.relateApi : undefined;
  const chainBody = useSchemaChain ? (part.related!.body ?? { docNo: '{docNo}' }) : { id: '{id}' };
  const chain = useChain(chainApi, chainBody, record ?? undefined);
  const stateValue = part.state && record ? record[part.state.field] : undefined;
  const stateLabel = stateOptions.find((o) => String(o.value) === String(stateValue));
  // a label not (yet) known: the server's statusText, else nothing — never the stored code
  const stateText = stateLabel?.label ?? (typeof record?.statusText === 'string' ? record.statusText : '');
  return (
    <Card
      variant="borderless"
      className="renderer-screen renderer-document-screen"
      title={
        <Space>
          {heading}
          {record?.docNo !== undefined && <span className="renderer-document-no">{String(record.docNo)}</span>}
          {stateValue !== undefined && stateText !== '' && <Tag color={stateLabel?.color ?? 'blue'}>{stateText}</Tag>}
        </Space>
      }
      extra={
        <Space className="renderer-document-actions">
          {record && <ActionBar list={actionList} env={env} scope={scope} record={record} />}
          {editable && (
            <Button type="primary" loading={saving} onClick={() => void save()} title="Ctrl+S">
              保存
            </Button>
          )}
        </Space>
      }
    >
      {record && (
        <div className="renderer-document-bar">
          <ChainButtons rows={chain} record={record} />
          <StatusBar flow={flow} current={record[part.state?.field ?? 'status']} />
        </div>
      )}
      <div ref={box}>
        <SchemaFormView handle={handle} part={header} editing={!!record} defaultColumns={3} readOnly={!editable} />
        <Divider orientation="left">明细</Divider>
        <LineTable columns={part.lines.columns} lines={lines} rowKey={part.lines.rowKey ?? 'id'} totals={part.lines.totals} env={env} readOnly={!editable} header={headerValues} onChange={editLines} />
      </div>
      {part.sections?.length && record ? <SectionList list={part.sections} base="sections" record={record} scope={scope} screenName={screenTitle} /> : null}
      {record && <RelatedDocuments rows={chain} record={record} />}
      {part.audit && record && mayReadAudit(part.audit.api ?? 'cdm:019702', env) && (
        <>
          <Divider orientation="left">操作记录</Divider>
          <ListView part={auditPart(part.audit.api)} listName="auditTrail" fixedFilters={auditFilters(part.audit.entity, record.id)} path="audit" />
        </>
      )}
    </Card>
  );
}

export default function DocumentScreen({ file }: ScreenProps) {
  const part = useMemo(() => file as unknown as DocumentScreenPart, [file]);
  const { id, record, reload } = useRecord(part.api?.get, part.idParam);
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const [problems, setProblems] = useState<SchemaProblem[] | null>(null);
  useEffect(() => {
    let live = true;
    void prepareDocument(part).then((p) => live && setProblems(p));
    return () => {
      live = false;
    };
  }, [part]);
  const prefill = useMemo(() => {
    const out: Row = {};
    for (const name of part.prefill ?? []) {
      const v = search.get(name);
      if (v !== null && v !== '') out[name] = /^\d{1,15}$/.test(v) ? Number(v) : v;
    }
    return out;
  }, [part.prefill, search]);
  const scope: ActionScope = useMemo(() => ({ api: part.api, forms: part.forms, rowKey: 'id', refresh: reload }), [part, reload]);
  if (!problems || record === undefined) return <Spin style={{ display: 'block', margin: '48px auto' }} />;
  if (record === null && id !== undefined) return <Result status="warning" title="单据不存在或已被删除" />;
  const onSaved = (saved: Row, wasNew: boolean) => {
    if (wasNew && part.afterSave) navigate(fillRoute(part.afterSave, saved), { replace: true });
    else reload();
  };
  return (
    <>
      <SchemaProblems problems={problems} />
      <DocumentBody key={`${String(record?.id ?? 'new')}:${String(record?.version ?? '')}`} part={part} record={record} prefill={prefill} onSaved={onSaved} screenTitle={file.title} scope={scope} />
    </>
  );
}
