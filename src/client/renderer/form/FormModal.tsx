// A schema form in an antd Modal or Drawer with a formily FormProvider (not FormDialog.Portal, see
// DESIGN §1). Editing loads the record first (the form's api.get with {id}; a singleton form's with
// {}); saving goes through useSchemaForm; closing with unsaved changes asks first. A query form
// (resultText) stays open after submitting and shows the answer; a read-only form only closes.
// Keyboard: the first field has the caret on open; Ctrl+S or Enter in a single-line field saves; a
// refused save puts the caret in the first field in error; closing gives focus back to the control
// that opened the form. A new record can be saved with 保存并新增 (clerks entering a series): saved,
// the list refreshed, and an empty form ready with the caret in its first field.

import { Alert, Button, Drawer, Modal, Space, Spin } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { OK } from '../../../core/codes';
import { actionCall } from '../actions/actionCall';
import { SchemaProblems } from '../SchemaProblems';
import type { FormPart } from '../types';
import { SchemaFormView, useSchemaForm, type Row } from './SchemaForm';
import { afterPaint, focusFirstField, isSubmitEnter, useSaveShortcut } from './keyboard';
import { confirmLeave } from './unsavedChanges';
import { useFormReady } from './useFormReady';
import { useFormSave } from './useFormSave';

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
  /** The user may not submit (no right to the save code): fields read-only, only 关闭. */
  readOnly?: boolean;
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

function FormBody({ part, record, title, mode, width, onClose, onSaved, readOnly, onAgain }: Omit<FormModalProps, 'path' | 'recordId'> & { mode: 'modal' | 'drawer'; onAgain(): void }) {
  const handle = useSchemaForm(part, record);
  const box = useRef<HTMLDivElement>(null);
  const { saving, result, save: submit } = useFormSave(handle, part, box, onSaved);
  const locked = readOnly === true || part.readOnly === true;
  // A series of new records: offered on a new record of an ordinary form (not a query, not settings).
  const again = !record && !locked && !part.resultText && !part.singleton && part.saveAndNew !== false;
  useEffect(() => afterPaint(() => focusFirstField(box.current)), []);
  const close = async () => {
    if (await confirmLeave(handle.isDirty)) onClose();
  };
  const save = async (thenNew = false) => {
    if (!(await submit())) return;
    if (thenNew) onAgain();
    else onClose();
  };
  useSaveShortcut(() => void save(), !locked);
  const footer = locked ? (
    <Button onClick={onClose}>关闭</Button>
  ) : (
    <Space>
      <Button onClick={() => void close()}>{part.resultText ? '关闭' : '取消'}</Button>
      {again && (
        <Button loading={saving} onClick={() => void save(true)}>
          保存并新增
        </Button>
      )}
      <Button type="primary" loading={saving} onClick={() => void save()} title="Ctrl+S">
        {part.submitText ?? '保存'}
      </Button>
    </Space>
  );
  return (
    <Frame mode={mode} title={title} width={width ?? part.width} onClose={() => void close()} footer={footer}>
      <div
        ref={box}
        onKeyDown={(e) => {
          if (locked || !isSubmitEnter(e.nativeEvent)) return;
          e.preventDefault();
          void save();
        }}
      >
        <SchemaFormView handle={handle} part={part} editing={!!record} defaultColumns={mode === 'drawer' ? 2 : 1} readOnly={locked} />
      </div>
      {result && <Alert className="renderer-form-result" type="success" showIcon message={result} />}
    </Frame>
  );
}

export function FormModal(props: FormModalProps) {
  const { part, path, recordId, mode = 'modal', title, width, onClose } = props;
  const problems = useFormReady(part, path);
  const getRef = part.api?.get;
  const mustLoad = ((recordId !== undefined && recordId !== null) || part.singleton === true) && !!getRef;
  const [record, setRecord] = useState<Row | null | undefined>(mustLoad ? undefined : (props.record ?? null));
  // 保存并新增: each round is a new, empty form.
  const [round, setRound] = useState(0);
  // The control that opened the form gets the focus back when it closes (saved, cancelled or failed
  // to load): the modal is unmounted at once, so antd's own return of focus never happens.
  const [opener] = useState(() => (typeof document === 'undefined' ? null : (document.activeElement as HTMLElement | null)));
  useEffect(
    () => () => {
      if (opener && opener !== document.body) afterPaint(() => opener.isConnected && opener.focus());
    },
    [opener],
  );
  useEffect(() => {
    if (!mustLoad) return;
    let live = true;
    void actionCall<Row>(getRef!, part.singleton ? {} : { id: recordId }).then((env) => {
      if (!live) return;
      if (env.code === OK && env.data) setRecord(env.data);
      else onClose();
    });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [mustLoad, getRef, recordId, part.singleton]);

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
  return <FormBody key={round} {...props} mode={mode} record={record} onAgain={() => setRound((r) => r + 1)} />;
}
