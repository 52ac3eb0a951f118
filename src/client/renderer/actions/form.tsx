// form: open a schema form in a modal or drawer — a new record from the toolbar, the row's record from
// a row action (loaded with the form's get code unless load: false), or with `prefill` a new record
// whose values start from the row (新增下级: {"parentId": "{id}"}) — and refresh after saving. On the
// toolbar `prefill` sees the selection ({ids}, {rows}, {count}) and the list's current conditions
// ({conditions.filters}, {conditions.keyword}): a bulk change for the chosen rows or for all listed.
import { PlusOutlined, SearchOutlined, SettingOutlined } from '@ant-design/icons';
import { useMemo, useState } from 'react';
import { FormModal } from '../form/FormModal';
import { fillBody } from '../template';
import type { FormPart } from '../types';
import { ActionButton } from './ActionButton';
import { formOf, type ActionDef, type ActionProps } from './types';

function FormAction({ action, path, record, selection, inline, scope }: ActionProps) {
  const [open, setOpen] = useState(false);
  const named = formOf(action, scope.forms);
  const prefill = action.prefill && typeof action.prefill === 'object' ? (action.prefill as Record<string, unknown>) : null;
  // 新增下级: a new record whose values start from the row.
  const part = useMemo<FormPart | undefined>(
    () => (named && prefill && open ? { ...named, initialValues: { ...(named.initialValues ?? {}), ...(fillBody(prefill, record ?? listContext(selection, scope)) as Record<string, unknown>) } } : named),
    [named, prefill, record, open, selection, scope],
  );
  if (!part) return null; // reported by the schema check
  const formPath = typeof action.form === 'string' ? `forms.${action.form}` : `${path}.form`;
  const editsRow = !!record && !prefill;
  const load = action.load !== false && !!part.api?.get;
  const id = record ? record[scope.rowKey] : undefined;
  return (
    <>
      <ActionButton action={action} inline={inline} record={record} disabled={action.bulk === true && !selection?.keys.length} icon={part.resultText ? <SearchOutlined /> : part.singleton ? <SettingOutlined /> : record ? undefined : <PlusOutlined />} onRun={() => setOpen(true)} />
      {open && (
        <FormModal
          part={part}
          path={formPath}
          title={part.title ?? action.title}
          mode={action.mode === 'drawer' ? 'drawer' : 'modal'}
          width={typeof action.width === 'number' ? action.width : undefined}
          recordId={editsRow && load ? id : undefined}
          record={editsRow && !load ? record : null}
          onClose={() => setOpen(false)}
          onSaved={() => scope.refresh()}
        />
      )}
    </>
  );
}

/** What a toolbar form's prefill reads: the selected rows and the conditions the list now applies. */
function listContext(selection: ActionProps['selection'], scope: ActionProps['scope']): Record<string, unknown> {
  return { ids: selection?.keys ?? [], rows: selection?.rows ?? [], count: selection?.keys.length ?? 0, conditions: scope.exportBody?.() ?? {} };
}

const form: ActionDef = {
  component: FormAction,
  check: (a, s, path) => {
    if (formOf(a, s.forms)) return [];
    return [{ path: `${path}.form`, message: typeof a.form === 'string' ? `表单 "${a.form}" 未在 forms 中定义` : 'form 操作缺少表单 form' }];
  },
};
export default form;
