// refresh: reload the data.
import { ReloadOutlined } from '@ant-design/icons';
import { ActionButton } from './ActionButton';
import type { ActionDef, ActionProps } from './types';

function RefreshAction({ action, inline, scope }: ActionProps) {
  return <ActionButton action={action} inline={inline} icon={<ReloadOutlined />} onRun={() => scope.refresh()} />;
}

const refresh: ActionDef = { component: RefreshAction };
export default refresh;
