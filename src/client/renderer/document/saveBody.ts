// What a document's save sends: header values, then its lines with computed cells filled and the
// table's own bookkeeping (keys of unsaved lines, `__*`) left out. A line nobody typed anything into
// (the empty line Enter adds after the last one) is not a line, nor is a line brought in from another
// document whose quantities the clerk left empty (lines.ts leftEmpty).
import type { LineColumn } from '../types';
import { leftEmpty, withComputed, type Line } from './lines';

export function linesToSave(lines: readonly Line[], columns: readonly LineColumn[]): Line[] {
  return withComputed(lines.filter((l) => !leftEmpty(l, columns)), columns)
    .map((l) => Object.fromEntries(Object.entries(l).filter(([k, v]) => !k.startsWith('__') && v !== undefined && v !== '')))
    .filter((l) => Object.values(l).some((v) => v !== null));
}
