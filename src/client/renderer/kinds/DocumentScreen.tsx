// The `document` screen kind (skeleton, issue 4): a header form, an editable line table with exact
// totals, the state and an action bar whose actions follow the state (`when`), and the record's audit
// trail (cdm 019702 by entity and record id). Saving sends {id?, version?, ...header, [lines.field]:
// lines}; server field errors land on header fields. The document flows of later issues fill in
// state machines, related documents and line pickers.

import { Button, Card, Divider, Result, Space, Spin, Tag } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { OK } from '../../../core/codes';
import { callApiRef, toast } from '../../request';
import type { ScreenProps } from '../../router/screenProps';
import { ActionBar } from '../actions/ActionBar';
import type { ActionScope } from '../actions/types';
import { usableActions } from '../actions/usable';
import { loadOptions } from '../data/options';
import { auditFilters, auditPart, mayReadAudit } from '../detail/auditPart';
import { actionProblems, actionUses } from '../detail/prepare';
import { LineTable } from '../document/LineTable';
import { withComputed, type Line } from '../document/lines';
import { applyServerErrors, SchemaFormView, serverFieldErrors, useSchemaForm } from '../form/SchemaForm';
import { formUses } from '../form/useFormReady';
import { useRenderEnv } from '../env';
import { ListView } from '../list/ListView';
import { resolveAll, type SchemaProblem } from '../registry';
import { columnTypes } from '../registries';
import { SchemaProblems } from '../SchemaProblems';
import { SAVED_TEXT } from '../texts';
import type { DocumentScreenPart, OptionItem } from '../types';
import { useRecord, type Row } from './useRecord';

async function prepareDocument(part: DocumentScreenPart): Promise<SchemaProblem[]> {
  const uses = [
    ...formUses(part.header, 'header'),
    ...part.lines.columns.map((c, i) => ({ registry: columnTypes, type: c.type ?? 'text', path: `lines.columns[${i}].type` })),
    ...actionUses(part.actions, 'actions', part.forms),
  ];
  const problems = await resolveAll(uses);
  return [...problems, ...actionProblems(part.actions, 'actions', { api: part.api, forms: part.forms })];
}

function DocumentBody({ part, record, onSaved, screenTitle, scope }: { part: DocumentScreenPart; record: Row | null; onSaved(row: Row): void; screenTitle: string; scope: ActionScope }) {
  const env = useRenderEnv();
  const header = useMemo(() => ({ ...part.header, api: undefined }), [part.header]);
  const handle = useSchemaForm(header, record);
  const [lines, setLines] = useState<Line[]>(() => (Array.isArray(record?.[part.lines.field]) ? (record![part.lines.field] as Line[]) : []));
  const [saving, setSaving] = useState(false);
  const [stateOptions, setStateOptions] = useState<OptionItem[]>([]);
  useEffect(() => {
    if (part.state) void loadOptions(part.state).then(setStateOptions);
  }, [part.state]);
  const actionList = useMemo(() => usableActions(part.actions, 'actions', env, { api: part.api, forms: part.forms }), [part, env]);

  const save = async () => {
    if (!part.api.save) return;
    const values = await handle.submit(); // header validation only (no save code on the header part)
    if (!values) return;
    setSaving(true);
    const body: Row = { ...values, [part.lines.field]: withComputed(lines, part.lines.columns) };
    if (record?.id !== undefined) body.id = record.id;
    if (record?.version !== undefined) body.version = record.version;
    const res = await callApiRef<Row>(part.api.save, body);
    setSaving(false);
    if (res.code === OK) {
      toast.success(SAVED_TEXT);
      onSaved(res.data ?? body);
    } else applyServerErrors(handle.form, serverFieldErrors(res.msg, res.data));
  };

  const stateValue = part.state && record ? record[part.state.field] : undefined;
  const stateLabel = stateOptions.find((o) => String(o.value) === String(stateValue));
  return (
    <Card
      variant="borderless"
      className="renderer-screen renderer-document-screen"
      title={
        <Space>
          {screenTitle}
          {stateValue !== undefined && <Tag color={stateLabel?.color ?? 'blue'}>{stateLabel?.label ?? String(stateValue)}</Tag>}
        </Space>
      }
      extra={
        <Space>
          {record && <ActionBar list={actionList} env={env} scope={scope} record={record} />}
          {part.api.save && (
            <Button type="primary" loading={saving} onClick={() => void save()}>
              保存
            </Button>
          )}
        </Space>
      }
    >
      <SchemaFormView handle={handle} part={header} editing={!!record} defaultColumns={3} />
      <Divider orientation="left">明细</Divider>
      <LineTable columns={part.lines.columns} lines={lines} rowKey={part.lines.rowKey ?? 'id'} totals={part.lines.totals} env={env} readOnly={!part.api.save} onChange={setLines} />
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
  const { id, record, reload, replace } = useRecord(part.api?.get, part.idParam);
  const [problems, setProblems] = useState<SchemaProblem[] | null>(null);
  useEffect(() => {
    let live = true;
    void prepareDocument(part).then((p) => live && setProblems(p));
    return () => {
      live = false;
    };
  }, [part]);
  const scope: ActionScope = useMemo(() => ({ api: part.api, forms: part.forms, rowKey: 'id', refresh: reload }), [part, reload]);
  if (!problems || record === undefined) return <Spin style={{ display: 'block', margin: '48px auto' }} />;
  if (record === null && id !== undefined) return <Result status="warning" title="单据不存在或已被删除" />;
  return (
    <>
      <SchemaProblems problems={problems} />
      <DocumentBody key={String(record?.version ?? 'new')} part={part} record={record} onSaved={replace} screenTitle={file.title} scope={scope} />
    </>
  );
}
