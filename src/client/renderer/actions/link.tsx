// link: go to a route, with {field} placeholders filled from the row or record.
import { useNavigate } from 'react-router-dom';
import { fillRoute } from '../template';
import { ActionButton } from './ActionButton';
import type { ActionDef, ActionProps } from './types';

function LinkAction({ action, record, inline }: ActionProps) {
  const navigate = useNavigate();
  const to = fillRoute(String(action.to ?? ''), record);
  return (
    <ActionButton
      action={action}
      inline={inline}
      record={record}
      onRun={() => {
        if (action.newTab) window.open(to, '_blank', 'noopener');
        else navigate(to);
      }}
    />
  );
}

const link: ActionDef = {
  component: LinkAction,
  check: (a, _s, path) => (typeof a.to === 'string' && a.to ? [] : [{ path: `${path}.to`, message: 'link 操作缺少路由 to' }]),
};
export default link;
