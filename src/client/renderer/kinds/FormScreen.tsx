// The `form` screen kind: one form on a page. With the route parameter (default :id) it edits that
// record (loaded with api.get); without, it creates one. After saving it stays (showing the saved
// record, new version included) or goes to `afterSave` with {field} placeholders from the saved row.
// Leaving with unsaved changes warns (see form/unsavedChanges.ts).

import { Button, Card, Result, Space, Spin } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { OK } from '../../../core/codes';
import { callApiRef, toast } from '../../request';
import type { ScreenProps } from '../../router/screenProps';
import { SchemaFormView, useSchemaForm, type Row } from '../form/SchemaForm';
import { useFormReady } from '../form/useFormReady';
import { SchemaProblems } from '../SchemaProblems';
import { fillRoute } from '../template';
import { SAVED_TEXT } from '../texts';
import type { FormScreenPart } from '../types';

function PageForm({ part, record, onSaved }: { part: FormScreenPart; record: Row | null; onSaved(row: Row): void }) {
  const handle = useSchemaForm(part, record);
  const [saving, setSaving] = useState(false);
  return (
    <>
      <SchemaFormView handle={handle} part={part} editing={!!record} defaultColumns={2} />
      <Space style={{ marginTop: 8 }}>
        <Button
          type="primary"
          loading={saving}
          onClick={async () => {
            setSaving(true);
            const row = await handle.submit();
            setSaving(false);
            if (row) {
              toast.success(SAVED_TEXT);
              onSaved(row);
            }
          }}
        >
          保存
        </Button>
        <Button onClick={() => handle.form.reset()}>重置</Button>
      </Space>
    </>
  );
}

export default function FormScreen({ file }: ScreenProps) {
  const part = useMemo(() => file as unknown as FormScreenPart, [file]);
  const params = useParams();
  const navigate = useNavigate();
  const id = params[part.idParam ?? 'id'];
  const problems = useFormReady(part, '');
  const [record, setRecord] = useState<Row | null | undefined>(id !== undefined && part.api?.get ? undefined : null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (id === undefined || !part.api?.get) return;
    let live = true;
    setRecord(undefined);
    void callApiRef<Row>(part.api.get, { id }).then((env) => {
      if (!live) return;
      if (env.code === OK && env.data) setRecord(env.data);
      else setFailed(true);
    });
    return () => {
      live = false;
    };
  }, [id, part.api?.get]);

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
