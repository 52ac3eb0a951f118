// The `form` screen kind: one form on a page. With the route parameter (default :id) — or, for a
// route without one, the query parameter of that name (?id=12) — it edits that record (loaded with
// api.get); without, it creates one. A singleton form edits the one record api.get answers with no id
// (the company settings). After saving it stays (showing the saved record, new version included) or
// goes to `afterSave` with {field} placeholders from the saved row; a query form (resultText) shows
// the answer under the form; a read-only form (readOnly) has no buttons.
// Leaving with unsaved changes warns (see form/unsavedChanges.ts).

import { Alert, Button, Card, Result, Space, Spin } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { OK } from '../../../core/codes';
import { actionCall } from '../actions/actionCall';
import type { ScreenProps } from '../../router/screenProps';
import { useSaveShortcut } from '../form/keyboard';
import { SchemaFormView, useSchemaForm, type Row } from '../form/SchemaForm';
import { useFormReady } from '../form/useFormReady';
import { useFormSave } from '../form/useFormSave';
import { SchemaProblems } from '../SchemaProblems';
import { fillRoute } from '../template';
import type { FormScreenPart } from '../types';

function PageForm({ part, record, onSaved }: { part: FormScreenPart; record: Row | null; onSaved(row: Row): void }) {
  const handle = useSchemaForm(part, record);
  const locked = part.readOnly === true;
  const box = useRef<HTMLDivElement>(null);
  const { saving, result, save } = useFormSave(handle, part, box, onSaved);
  // Ctrl+S saves the page's form (a modal opened over it takes Ctrl+S while it is open).
  useSaveShortcut(() => void save(), !locked && part.noSubmit !== true);
  return (
    <div ref={box}>
      <SchemaFormView handle={handle} part={part} editing={!!record} defaultColumns={2} readOnly={locked} />
      {!locked && part.noSubmit !== true && (
        <Space style={{ marginTop: 8 }}>
          <Button type="primary" loading={saving} title="Ctrl+S" onClick={() => void save()}>
            {part.submitText ?? '保存'}
          </Button>
          <Button onClick={() => handle.form.reset()}>重置</Button>
        </Space>
      )}
      {result && <Alert className="renderer-form-result" style={{ marginTop: 16 }} type="success" showIcon message={result} />}
    </div>
  );
}

/** A new record's starting values from the URL query (queryValues: {field: 'string' | 'number'}). */
export function valuesFromQuery(spec: FormScreenPart['queryValues'], search: URLSearchParams): Row {
  const out: Row = {};
  for (const [field, type] of Object.entries(spec ?? {})) {
    const raw = search.get(field);
    if (raw === null || raw === '') continue;
    if (type === 'number') {
      const n = Number(raw);
      if (Number.isFinite(n)) out[field] = n;
    } else out[field] = raw;
  }
  return out;
}

export default function FormScreen({ file }: ScreenProps) {
  const [search] = useSearchParams();
  const fromQuery = JSON.stringify(valuesFromQuery((file as unknown as FormScreenPart).queryValues, search));
  const part = useMemo(() => {
    const p = file as unknown as FormScreenPart;
    const extra = JSON.parse(fromQuery) as Row;
    return Object.keys(extra).length ? { ...p, initialValues: { ...(p.initialValues ?? {}), ...extra } } : p;
  }, [file, fromQuery]);
  const params = useParams();
  const navigate = useNavigate();
  const idParam = part.idParam ?? 'id';
  const id = params[idParam] ?? search.get(idParam) ?? undefined;
  const loads = !!part.api?.get && (part.singleton === true || id !== undefined);
  const problems = useFormReady(part, '');
  const [record, setRecord] = useState<Row | null | undefined>(loads ? undefined : null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (!loads) {
      setRecord(null);
      return;
    }
    let live = true;
    setRecord(undefined);
    setFailed(false);
    void actionCall<Row>(part.api!.get!, part.singleton ? {} : { id }).then((res) => {
      if (!live) return;
      if (res.code === OK && res.data) setRecord(res.data);
      else setFailed(true);
    });
    return () => {
      live = false;
    };
  }, [id, loads, part.api, part.singleton]);

  if (failed) return <Result status="warning" title="记录不存在或已被删除" />;
  if (!problems || record === undefined) return <Spin style={{ display: 'block', margin: '48px auto' }} />;
  return (
    <Card variant="borderless" title={file.title} className="renderer-screen renderer-form-screen">
      <SchemaProblems problems={problems} />
      <PageForm
        key={String(record?.version ?? record?.id ?? 'new')}
        part={part}
        record={record}
        onSaved={(row) => {
          if (part.afterSave) navigate(fillRoute(part.afterSave, row));
          else setRecord(row);
        }}
      />
    </Card>
  );
}
