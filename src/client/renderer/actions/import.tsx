// import: opens the import dialog (ImportModal.tsx) on the list's import and template codes.
import { UploadOutlined } from '@ant-design/icons';
import { useState } from 'react';
import { ActionButton } from './ActionButton';
import { ImportModal } from './ImportModal';
import type { ActionDef, ActionProps } from './types';

function ImportAction({ action, inline, scope }: ActionProps) {
  const [open, setOpen] = useState(false);
  const api = String(action.api ?? scope.api?.import ?? '');
  const template = (action.template as string | undefined) ?? scope.api?.template;
  return (
    <>
      <ActionButton action={action} inline={inline} icon={<UploadOutlined />} onRun={() => setOpen(true)} />
      {open && <ImportModal title={action.title} api={api} template={template} titles={scope.titles} onClose={() => setOpen(false)} onDone={() => scope.refresh()} />}
    </>
  );
}

const importAction: ActionDef = {
  component: ImportAction,
  check: (a, s, path) => (typeof a.api === 'string' || s.api?.import ? [] : [{ path: `${path}.api`, message: 'import 操作缺少导入接口（api 或列表的 api.import）' }]),
};
export default importAction;
