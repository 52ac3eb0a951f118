// Which actions a user may use at all: registered, right held (its own permission, or else the right
// of the endpoint it calls, from the catalog), company flag on. `when` is checked later, per row or
// record, because it depends on the data.
import { apiRight, passesStatic, type RenderEnv } from '../env';
import { actions } from '../registries';
import type { ActionSchema, FormPart, ListApi } from '../types';
import type { ActionDef } from './types';

/** What owns the actions: a list, a detail or document screen. */
export interface ActionOwner {
  api?: Partial<ListApi>;
  forms?: Record<string, FormPart>;
}

export interface UsableAction {
  action: ActionSchema;
  path: string;
  def: ActionDef;
}

/** The endpoint an action calls, for its default right. */
function actionApi(action: ActionSchema, part: ActionOwner): string | undefined {
  if (typeof action.api === 'string') return action.api;
  if (action.action === 'export') return part.api?.export;
  if (action.action === 'import') return part.api?.import;
  if (action.action === 'call') return part.api?.remove;
  if (action.action === 'list') return (action.list as { api?: { list?: string } } | undefined)?.api?.list;
  if (action.action === 'form') {
    const form = typeof action.form === 'string' ? part.forms?.[action.form] : (action.form as FormPart | undefined);
    return form?.api?.save;
  }
  return undefined;
}

/**
 * Actions this user may use at all (registered, right held, flag on); `when` is checked per row. An
 * action without its own permission needs the right of the endpoint it calls.
 */
export function usableActions(list: readonly ActionSchema[] | undefined, base: string, env: RenderEnv, part: ActionOwner): UsableAction[] {
  const out: UsableAction[] = [];
  (list ?? []).forEach((action, i) => {
    const def = actions.peek(action.action);
    if (!def || !passesStatic(action, env)) return;
    if (action.permission === undefined) {
      const right = apiRight(actionApi(action, part));
      if (right && !env.hasRight(right)) return;
    }
    out.push({ action, path: `${base}[${i}]`, def });
  });
  return out;
}

