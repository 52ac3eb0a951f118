// bench:render ?mode=doc — our document line table (LineTable with its registered editors) holding the
// lines in page state, as DocumentScreen does, with columns like a purchase order's.
import { useMemo, useState } from 'react';
import type { Line } from '../../src/client/renderer/document/lines';
import { LineTable } from '../../src/client/renderer/document/LineTable';
import { makeEnv } from '../../src/client/renderer/env';
import { resolveAll } from '../../src/client/renderer/registry';
import { columnTypes, lineEditors } from '../../src/client/renderer/registries';
import type { LineColumn, TotalsSchema } from '../../src/client/renderer/types';
import { makeDocLines } from './docData';
import { n } from './params';

const columns: LineColumn[] = [
  { field: 'productName', title: '商品', width: 200 },
  { field: 'qty', title: '数量', editor: 'units', type: 'number', width: 270 },
  { field: 'price', title: '单价', editor: 'money', type: 'money', decimals: 4, width: 120 },
  { field: 'amount', title: '金额', type: 'money', product: ['qty', 'price'], decimals: 2, width: 130 },
  { field: 'remark', title: '备注', editor: 'input', width: 180 },
];
const totals: TotalsSchema = { fields: ['qty', 'amount'], label: '合计' };

/** What DocumentScreen does before drawing: load every column type and line editor the columns name. */
export async function prepare(): Promise<void> {
  const problems = await resolveAll([
    ...columns.map((c, i) => ({ registry: columnTypes, type: c.type ?? 'text', path: `columns[${i}].type` })),
    ...columns.flatMap((c, i) => (c.editor ? [{ registry: lineEditors, type: c.editor, path: `columns[${i}].editor` }] : [])),
  ]);
  if (problems.length) throw new Error(problems.map((p) => `${p.path}: ${p.message}`).join('; '));
}

export default function docPage() {
  const [lines, setLines] = useState<Line[]>(() => makeDocLines(n) as unknown as Line[]);
  const env = useMemo(() => makeEnv(null), []);
  return <LineTable columns={columns} lines={lines} rowKey="id" totals={totals} env={env} readOnly={false} onChange={setLines} />;
}
