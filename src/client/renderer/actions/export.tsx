// export: a download through the list's file code with the conditions now applied (keyword, filters,
// sort; no paging). The request core saves the file under the server's name and shows 导出失败，请联系
// 管理员 when it fails. Big exports run in the export centre instead (`async: true`, or a number: when the
// list holds more rows than that): the same code and body become a background job (cdm 019901) and the
// user is told where to fetch the file. A row action may name its own body ({"id": "{id}"}), e.g. the
// export centre's own download of a finished job.
import { DownloadOutlined } from '@ant-design/icons';
import { OK } from '../../../core/codes';
import { toast } from '../../request';
import { actionCall } from './actionCall';
import { fillBody } from '../template';
import { ActionButton } from './ActionButton';
import type { ActionDef, ActionProps, Row } from './types';

/** The export centre: starting a job, and where its files are fetched. */
export const EXPORT_JOB_START = 'cdm:019901';
export const EXPORT_CENTRE_TEXT = '已创建导出任务，完成后请到“报表 → 导出中心”下载文件';

/** Whether this export runs in the background: always, or above a number of rows. */
export function runsInBackground(async: unknown, total: number | undefined): boolean {
  if (async === true) return true;
  return typeof async === 'number' && total !== undefined && total > async;
}

function ExportAction({ action, inline, scope, record }: ActionProps) {
  const ref = String(action.api ?? scope.api?.export ?? '');
  const run = async () => {
    const body = record && action.body ? (fillBody(action.body, record as Row) as Row) : (scope.exportBody?.() ?? {});
    if (!runsInBackground(action.async, scope.listTotal?.())) return actionCall(ref, body);
    const env = await actionCall(EXPORT_JOB_START, { api: ref, body });
    if (env.code === OK) toast.success(EXPORT_CENTRE_TEXT);
    return env;
  };
  return <ActionButton action={action} inline={inline} record={record} icon={<DownloadOutlined />} onRun={run} />;
}

const exportAction: ActionDef = {
  component: ExportAction,
  check: (a, s, path) => (typeof a.api === 'string' || s.api?.export ? [] : [{ path: `${path}.api`, message: 'export 操作缺少导出接口（api 或列表的 api.export）' }]),
};
export default exportAction;
