// What a document's save sends: header values, then its lines with computed cells filled and the
// table's own bookkeeping (keys of unsaved lines, `__*`) left out. A line nobody typed anything into
// (the empty line Enter adds after the last one) is not a line.
import type { LineColumn } from '../types';
import { withComputed, type Line } from './lines';

export function linesToSave(lines: readonly Line[], columns: readonly LineColumn[]): Line[] {
  return withComputed(lines, columns)
    .map((l) => Object.fromEntries(Object.entries(l).filter(([k, v]) => !k.startsWith('__') && v !== undefined && v !== '')))
    .filter((l) => Object.values(l).some((v) => v !== null));
}
