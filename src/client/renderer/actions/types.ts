// What an action type provides: a button component, and a schema check run before the screen draws
// (so a call without a code is an error box with its path, not a dead button).

import type { ComponentType, Key } from 'react';
import type { SchemaProblem } from '../registry';
import type { ActionSchema, FormPart, ListApi } from '../types';

export type Row = Record<string, unknown>;

/** What the screen around an action offers it. */
export interface ActionScope {
  /** The list's codes (defaults for export, import, template and remove). */
  api?: Partial<ListApi>;
  /** Named forms of the screen. */
  forms?: Record<string, FormPart>;
  rowKey: string;
  /** Reload the data after a change. */
  refresh(): void;
  /** The current list conditions, for export. */
  exportBody?(): Record<string, unknown>;
  /** How many rows the list's conditions keep (export decides whether to run in the background). */
  listTotal?(): number;
  /** Chinese titles of the screen's fields (import error reports name fields by their key). */
  titles?: Record<string, string>;
}

export interface ActionProps {
  action: ActionSchema;
  /** Schema path of the action, e.g. `rowActions[1]`. */
  path: string;
  scope: ActionScope;
  /** Row actions and record screens: the row or record. */
  record?: Row;
  /** Bulk actions: the selected rows. */
  selection?: { keys: Key[]; rows: Row[] };
  /** Drawn inside a table row (small link buttons). */
  inline?: boolean;
}

export interface ActionDef {
  component: ComponentType<ActionProps>;
  check?(action: ActionSchema, scope: Pick<ActionScope, 'api' | 'forms'>, path: string): SchemaProblem[];
}

/** The form an action names (a name in `forms`, or inline). */
export function formOf(action: ActionSchema, forms: Record<string, FormPart> | undefined): FormPart | undefined {
  const f = action.form;
  if (typeof f === 'string') return forms?.[f];
  if (f && typeof f === 'object') return f as FormPart;
  return undefined;
}
