// The audit trail of one record as a list part: cdm 019702 (auditLog.list) filtered by entity and
// record id, newest first. Shared by the detail `audit` section and the document kind.
import { AUDIT_ACTION_OPTIONS } from '../../../core/audit-actions';
import { getEndpoint, parseApiRef } from '../../request';
import type { RenderEnv } from '../env';
import type { ListPart } from '../types';

export const AUDIT_LIST = 'cdm:019702';

/** Every action the server records, by its label (one registry with the server's audit entries). */
export const AUDIT_ACTIONS = AUDIT_ACTION_OPTIONS;

export function auditPart(api: string = AUDIT_LIST): ListPart {
  return {
    name: 'auditTrail',
    api: { list: api },
    columns: [
      { field: 'at', title: '时间', type: 'datetime', width: 170 },
      { field: 'userName', title: '操作人', width: 120 },
      { field: 'action', title: '操作', type: 'enum', options: AUDIT_ACTIONS, width: 90 },
      { field: 'changes', title: '字段变化', type: 'changes', width: 420 },
    ],
    defaultSort: { field: 'at', order: 'descend' },
    pageSize: 10,
    virtual: false,
  };
}

export function auditFilters(entity: string, recordId: unknown): Record<string, unknown> {
  return { entity, recordId: recordId === undefined || recordId === null ? '' : String(recordId) };
}

/** Whether the user holds the right the audit list code needs (endpoint catalog). */
export function mayReadAudit(ref: string, env: RenderEnv): boolean {
  try {
    const { family, code } = parseApiRef(ref);
    return env.hasRight(getEndpoint(family, code).permission);
  } catch {
    return false;
  }
}
