// The actions a document's `get` answers (the document engine: status × the caller's rights), turned into
// the renderer's own action schemas: transitions and removal become `call` actions sending {id, version},
// follow-up documents become `link` actions. Screens therefore do not restate the server's status rules;
// an action the screen file also lists (same api) is drawn once, from the server's answer.
import type { ActionSchema, CallAction, LinkAction } from '../types';

export interface ServerAction {
  name: string;
  label: string;
  api?: string;
  to?: string;
  confirm?: string;
  danger?: boolean;
  overlay?: boolean;
}

export function serverActionsOf(record: Record<string, unknown> | null | undefined): ServerAction[] | undefined {
  const list = record?.actions;
  return Array.isArray(list) ? (list as ServerAction[]).filter((a) => a && typeof a.label === 'string' && (typeof a.api === 'string' || typeof a.to === 'string')) : undefined;
}

/** Schemas for the server's actions; `afterRemove` is where a removed document's screen goes. */
export function serverActionSchemas(list: ServerAction[], afterRemove?: string): ActionSchema[] {
  return list.map((a): ActionSchema => {
    if (a.to) return { action: 'link', title: a.label, to: a.to } satisfies LinkAction;
    const call: CallAction = {
      action: 'call', title: a.label, api: a.api!, body: { id: '{id}', version: '{version}' },
      success: a.name === 'remove' ? '已删除' : `已${a.label}`,
      ...(a.confirm ? { confirm: a.confirm } : {}),
      ...(a.danger ? { danger: true } : {}),
      ...(a.name === 'remove' && afterRemove ? { then: afterRemove } : {}),
    };
    return call;
  });
}

/** The screen's own actions without those the server answered for (same endpoint), after the server's. */
export function mergeActions(server: ActionSchema[], own: readonly ActionSchema[] | undefined): ActionSchema[] {
  const apis = new Set(server.flatMap((a) => (typeof a.api === 'string' ? [a.api] : [])));
  const links = new Set(server.flatMap((a) => (a.action === 'link' ? [String(a.to)] : [])));
  return [...server, ...(own ?? []).filter((a) => !(typeof a.api === 'string' && apis.has(a.api)) && !(a.action === 'link' && links.has(String(a.to))))];
}
