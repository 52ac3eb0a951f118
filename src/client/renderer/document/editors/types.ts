// Line editors: the editable cells of a document's line table, registered by name like widgets. Lines
// are plain objects in React state; an editor reports a patch for its line (one or more fields).
import type { ComponentType } from 'react';
import type { SchemaProblem } from '../../registry';
import type { LineColumn } from '../../types';
import type { Line } from '../lines';

export interface LineEditorProps {
  column: LineColumn;
  line: Line;
  index: number;
  /** The header form's current values (lookups may send them). */
  header: Record<string, unknown>;
  onPatch(index: number, patch: Line): void;
  /** The editor is done with an Enter (a lookup resolved it): focus moves on from `from`. */
  onEnterDone?(from: HTMLElement): void;
}

export interface LineEditorDef {
  component: ComponentType<LineEditorProps>;
  /** Schema problems of a column using this editor (path = the column's path). */
  check?(column: LineColumn, path: string): SchemaProblem[];
}
