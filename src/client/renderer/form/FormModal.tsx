// A schema form in an antd Modal or Drawer with a formily FormProvider (not FormDialog.Portal, see
// DESIGN §1). Editing loads the record first (the form's api.get with {id}); saving goes through
// useSchemaForm; closing with unsaved changes asks first.

import { Button, Drawer, Modal, Space, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { OK } from '../../../core/codes';
import { callApiRef, toast } from '../../request';
import { SchemaProblems } from '../SchemaProblems';
import { SAVED_TEXT } from '../texts';
import type { FormPart } from '../types';
import { SchemaFormView, useSchemaForm, type Row } from './SchemaForm';
import { confirmLeave } from './unsavedChanges';
import { useFormReady } from './useFormReady';

export interface FormModalProps {
  part: FormPart;
  /** Schema path of the form, for error boxes. */
  path: string;
  title: string;
  mode?: 'modal' | 'drawer';
  width?: number;
  /** Edit: the id to load with the form's get code … */
  recordId?: unknown;
  /** … or the record itself (no get code, or load: false). */
  record?: Row | null;
  onClose(): void;
  onSaved(row: Row): void;
}

function Frame({ mode, title, width, onClose, footer, children }: { mode: 'modal' | 'drawer'; title: string; width?: number; onClose(): void; footer: React.ReactNode; children: React.ReactNode }) {
  if (mode === 'drawer') {
    return (
      <Drawer open title={title} width={width ?? 720} onClose={onClose} maskClosable={false} extra={footer} destroyOnHidden>
        {children}
      </Drawer>
    );
  }
  return (
    <Modal open title={title} width={width ?? 560} onCancel={onClose} maskClosable={false} footer={footer} destroyOnHidden>
      {children}
    </Modal>
  );
}

function FormBody({ part, record, title, mode, width, onClose, onSaved }: Omit<FormModalProps, 'path' | 'recordId'> & { mode: 'modal' | 'drawer' }) {
  const handle = useSchemaForm(part, record);
  const [saving, setSaving] = useState(false);
  const close = async () => {
    if (await confirmLeave(handle.isDirty)) onClose();
  };
  const save = async () => {
    setSaving(true);
    const row = await handle.submit();
    setSaving(false);
    if (!row) return;
    toast.success(SAVED_TEXT);
    onSaved(row);
    onClose();
  };
  const footer = (
    <Space>
      <Button onClick={() => void close()}>取消</Button>
      <Button type="primary" loading={saving} onClick={() => void save()}>
        保存
      </Button>
    </Space>
  );
  return (
    <Frame mode={mode} title={title} width={width ?? part.width} onClose={() => void close()} footer={footer}>
      <SchemaFormView handle={handle} part={part} editing={!!record} defaultColumns={mode === 'drawer' ? 2 : 1} />
    </Frame>
  );
}

export function FormModal(props: FormModalProps) {
  const { part, path, recordId, mode = 'modal', title, width, onClose } = props;
  const problems = useFormReady(part, path);
  const getRef = part.api?.get;
  const mustLoad = recordId !== undefined && recordId !== null && !!getRef;
  const [record, setRecord] = useState<Row | null | undefined>(mustLoad ? undefined : (props.record ?? null));
  useEffect(() => {
    if (!mustLoad) return;
    let live = true;
    void callApiRef<Row>(getRef!, { id: recordId }).then((env) => {
      if (!live) return;
      if (env.code === OK && env.data) setRecord(env.data);
      else onClose();
    });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [mustLoad, getRef, recordId]);

  if (!problems || record === undefined) {
    return (
      <Frame mode={mode} title={title} width={width} onClose={onClose} footer={null}>
        <Spin style={{ display: 'block', margin: '40px auto' }} />
      </Frame>
    );
  }
  if (problems.length) {
    return (
      <Frame mode={mode} title={title} width={width} onClose={onClose} footer={null}>
        <SchemaProblems problems={problems} />
      </Frame>
    );
  }
  return <FormBody {...props} mode={mode} record={record} />;
}
