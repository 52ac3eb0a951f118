// A row of actions for one record (detail and document screens): each shown while its `when` holds on
// the record (e.g. 确认 only in state draft).
import { Space } from 'antd';
import { holds, type RenderEnv } from '../env';
import type { ActionScope, Row } from './types';
import type { UsableAction } from './usable';

export function ActionBar({ list, env, scope, record }: { list: UsableAction[]; env: RenderEnv; scope: ActionScope; record: Row }) {
  const shown = list.filter((a) => holds(a.action.when, env, record));
  if (!shown.length) return null;
  return (
    <Space wrap className="renderer-action-bar">
      {shown.map(({ action, path, def }) => {
        const C = def.component;
        return <C key={path} action={action} path={path} scope={scope} record={record} />;
      })}
    </Space>
  );
}
