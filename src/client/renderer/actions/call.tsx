// call: one endpoint call (after a confirmation when the schema asks), then a success toast and a
// refresh. Row actions send {id} by default, bulk actions {ids}; a `body` template may say otherwise
// ("{field}" placeholders from the row, or {ids} and {rows} of the selection).
import { useNavigate } from 'react-router-dom';
import { OK } from '../../../core/codes';
import { toast } from '../../request';
import { actionCall } from './actionCall';
import { fillBody, fillRoute, fillText } from '../template';
import { ActionButton } from './ActionButton';
import type { ActionDef, ActionProps, Row } from './types';

function CallAction({ action, record, selection, inline, scope }: ActionProps) {
  const navigate = useNavigate();
  const bulk = action.bulk === true;
  const data: Row = bulk ? { ids: selection?.keys ?? [], rows: selection?.rows ?? [], count: selection?.keys.length ?? 0 } : (record ?? {});
  const fallback = bulk ? { ids: '{ids}' } : { id: `{${scope.rowKey}}` };
  return (
    <ActionButton
      action={action}
      inline={inline}
      record={data}
      disabled={bulk && !selection?.keys.length}
      onRun={async () => {
        const body = fillBody(action.body ?? fallback, data);
        const env = await actionCall(String(action.api ?? scope.api?.remove ?? ''), body);
        if (env.code !== OK) return;
        toast.success(fillText(typeof action.success === 'string' ? action.success : '操作成功', data));
        if (typeof action.then === 'string') navigate(fillRoute(action.then, (env.data ?? {}) as Row));
        else scope.refresh();
      }}
    />
  );
}

const call: ActionDef = {
  component: CallAction,
  check: (a, s, path) => (typeof a.api === 'string' || s.api?.remove ? [] : [{ path: `${path}.api`, message: 'call 操作缺少接口 api' }]),
};
export default call;
