// export: a synchronous download through the list's file code with the conditions now applied
// (keyword, filters, sort; no paging). The request core saves the file under the server's name and
// shows 导出失败，请联系管理员 when it fails. (Big exports go through the export centre later.)
import { DownloadOutlined } from '@ant-design/icons';
import { callApiRef } from '../../request';
import { ActionButton } from './ActionButton';
import type { ActionDef, ActionProps } from './types';

function ExportAction({ action, inline, scope }: ActionProps) {
  const ref = String(action.api ?? scope.api?.export ?? '');
  return <ActionButton action={action} inline={inline} icon={<DownloadOutlined />} onRun={() => callApiRef(ref, scope.exportBody?.() ?? {})} />;
}

const exportAction: ActionDef = {
  component: ExportAction,
  check: (a, s, path) => (typeof a.api === 'string' || s.api?.export ? [] : [{ path: `${path}.api`, message: 'export 操作缺少导出接口（api 或列表的 api.export）' }]),
};
export default exportAction;
