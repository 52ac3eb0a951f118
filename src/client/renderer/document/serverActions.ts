// The actions a document's `get` answers (the document engine: status × the caller's rights), turned into
// the renderer's own action schemas: transitions and removal become `call` actions sending {id, version},
// follow-up documents become `link` actions. Screens therefore do not restate the server's status rules;
// an action the screen file also lists (same api) is drawn once, from the server's answer.
import type { DocumentAction } from '../../../core/document-actions';
import type { ActionSchema, CallAction, FormAction, FormPart, LinkAction } from '../types';

type ServerAction = DocumentAction;

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

/** A screen's named forms: a form action stands for the call its form saves with (e.g. 关闭 asking a reason). */
type Forms = Record<string, FormPart> | undefined;

const keyOf = (a: ActionSchema, forms?: Forms) => {
  if (a.action === 'link') return `link:${String(a.to)}`;
  if (typeof a.api === 'string') return `api:${a.api}`;
  const form = a.action === 'form' ? (a as FormAction).form : undefined;
  const save = typeof form === 'string' ? forms?.[form]?.api?.save : typeof form === 'object' ? form.api?.save : undefined;
  return save ? `api:${save}` : undefined;
};

/**
 * The buttons of a document the server answers for: each action it offers, drawn as the screen's own
 * button for the same call or link when the screen has one (its wording, success text and `then` kept,
 * its `when` dropped: the server decided), else as generated; then the screen's other actions, less
 * those the server governs (`governed`: every call and link it decides on) but does not offer now. A
 * form action counts as the call its form saves with (`forms`: the screen's named forms).
 */
export function mergeActions(server: ActionSchema[], own: readonly ActionSchema[] | undefined, governed: readonly string[] = [], forms?: Forms): ActionSchema[] {
  const mine = own ?? [];
  const offered = new Set(server.map((a) => keyOf(a)));
  const ruled = new Set([...governed.map((g) => (g.startsWith('/') ? `link:${g}` : `api:${g}`)), ...offered]);
  const drawn = server.map((s) => {
    const same = mine.find((a) => keyOf(a, forms) === keyOf(s));
    if (!same) return s;
    const { when: _when, ...rest } = same;
    return rest as ActionSchema;
  });
  return [...drawn, ...mine.filter((a) => !ruled.has(keyOf(a, forms)!))];
}

export function governedOf(record: Record<string, unknown> | null | undefined): string[] {
  return Array.isArray(record?.governed) ? (record!.governed as unknown[]).filter((g): g is string => typeof g === 'string') : [];
}

/**
 * Whether a list row shows one of the screen's row actions: for a call or link the server governs, only
 * while the row's `actions` offer it; undefined for the others (their own `when` decides).
 */
export function offeredOnRow(action: ActionSchema, row: Record<string, unknown>, forms?: Forms): boolean | undefined {
  const server = serverActionsOf(row);
  if (!server) return undefined;
  const key = keyOf(action, forms);
  if (!key) return undefined;
  const governed = new Set(governedOf(row).map((g) => (g.startsWith('/') ? `link:${g}` : `api:${g}`)));
  if (!governed.has(key)) return undefined;
  return serverActionSchemas(server).some((s) => keyOf(s) === key);
}
