// Lines brought in from another document (a receiving note from its purchase order, a putaway from its
// receiving note): one call with a body filled from the header, rows picked by `keep`, fields mapped.
import { OK } from '../../../core/codes';
import { evaluate, readPath } from '../../../core/conditions';
import { actionCall } from '../actions/actionCall';
import { fillBody } from '../template';
import type { LineSource } from '../types';
import type { Line } from './lines';

export interface SourceResult {
  lines: Line[];
  header: Record<string, unknown>;
}

export function mapSourceRows(source: LineSource, data: unknown): SourceResult {
  const rows = readPath(data, source.path ?? 'lines');
  const lines = (Array.isArray(rows) ? (rows as Line[]) : [])
    .filter((r) => source.keep === undefined || evaluate(source.keep, { data: r }))
    // (`optional`: marked, so a brought-in line left empty is dropped at save — saveBody.ts)
    .map((r) => {
      const line: Line = Object.fromEntries(Object.entries(source.map).map(([to, from]) => [to, readPath(r, from)]));
      return source.optional ? { ...line, __fromSource: true } : line;
    });
  const header = Object.fromEntries(Object.entries(source.header ?? {}).map(([to, from]) => [to, readPath(data, from)]));
  return { lines, header };
}

/** null when the call failed (the request core has told the user). */
export async function loadSource(source: LineSource, headerValues: Record<string, unknown>): Promise<SourceResult | null> {
  const env = await actionCall(source.api, fillBody(source.body, headerValues));
  return env.code === OK ? mapSourceRows(source, env.data) : null;
}
