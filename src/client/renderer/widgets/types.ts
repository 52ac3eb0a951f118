// What a widget is: one React component used both in list filters (antd Form) and in forms (formily
// Field). Both hand it `value` and `onChange`; widgets call onChange with plain JSON values (strings,
// numbers, booleans, arrays of them) — never dayjs objects or events — so filters go to the server and
// forms are saved without conversion.

import type { ComponentType } from 'react';
import type { OptionsSource, RemoteTree } from '../types';

export interface WidgetSchema extends OptionsSource {
  field: string;
  title: string;
  widget?: string;
  filter?: string;
  placeholder?: string;
  multiple?: boolean;
  decimals?: number;
  min?: number | string;
  max?: number | string;
  maxLength?: number;
  tree?: RemoteTree;
  accept?: string;
  maxCount?: number;
  api?: string;
  trueText?: string;
  falseText?: string;
  /** htmlPreview: body template filled from the form values; the field holding the format. */
  body?: Record<string, unknown>;
  formatField?: string;
  showPlaceholders?: boolean;
  /** htmlPreview: form fields of which at least one must be filled before the preview is asked for. */
  needs?: string[];
  /** textarea: rows shown at least; htmlPreview: height in px. */
  rows?: number;
  height?: number;
}

export interface WidgetProps {
  value?: unknown;
  onChange?: (value: unknown) => void;
  disabled?: boolean;
  readOnly?: boolean;
  schema: WidgetSchema;
  /** filter: compact, clearable; form: full width. */
  mode: 'form' | 'filter';
}

export interface WidgetDef {
  component: ComponentType<WidgetProps>;
  /** Chooses rather than types: the required message says 请选择 instead of 请输入. */
  choice?: boolean;
  /** The value is a list ([from, to] or several items): empty means []. */
  list?: boolean;
  /** Needs more room than one filter column gives (a date range shows two whole dates): a list's filter bar gives it more. */
  wide?: boolean;
}

export function placeholderOf(schema: WidgetSchema, choice: boolean): string {
  return schema.placeholder ?? `${choice ? '请选择' : '请输入'}${schema.title}`;
}
