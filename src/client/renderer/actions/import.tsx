// import: opens the import dialog (ImportModal.tsx) on the list's import and template codes. A `body`
// template ("{field}" from the row) gives the codes' extra params, e.g. {"priceTitleId": "{id}"} to
// import the prices of the row's price list.
import { UploadOutlined } from '@ant-design/icons';
import { useState } from 'react';
import { ActionButton } from './ActionButton';
import { fillBody } from '../template';
import { ImportModal, type ImportModalProps } from './ImportModal';
import type { ActionDef, ActionProps } from './types';

function ImportAction({ action, inline, scope, record }: ActionProps) {
  const [open, setOpen] = useState(false);
  const api = String(action.api ?? scope.api?.import ?? '');
  const template = (action.template as string | undefined) ?? scope.api?.template;
  const extra = action.body && typeof action.body === 'object' ? (fillBody(action.body, record) as ImportModalProps['extra']) : undefined;
  return (
    <>
      <ActionButton action={action} inline={inline} icon={<UploadOutlined />} onRun={() => setOpen(true)} />
      {open && <ImportModal title={action.title} api={api} template={template} extra={extra} titles={scope.titles} onClose={() => setOpen(false)} onDone={() => scope.refresh()} />}
    </>
  );
}

const importAction: ActionDef = {
  component: ImportAction,
  check: (a, s, path) => (typeof a.api === 'string' || s.api?.import ? [] : [{ path: `${path}.api`, message: 'import 操作缺少导入接口（api 或列表的 api.import）' }]),
};
export default importAction;
