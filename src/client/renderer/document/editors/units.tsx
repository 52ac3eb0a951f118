// units: a quantity entered as big/mid/small packs (箱/盒/个) for the line's product. The line carries
// the pack sizes and unit names (bigQty, midQty, unitBig, unitMid, unitSmall — filled by the product
// lookup or sent by the server); the editor writes big, mid, small and the total in small units into the
// column's field, which the amount and the totals use. A product without a pack level shows only the
// boxes it has. The total is exact integer arithmetic; a total beyond safe integers is left empty.
import { Space } from 'antd';
import { memo } from 'react';
import { splitUnits, toSmallUnits } from '../../../../core/stock-units';
import { NumberText } from '../../../widgets/NumberText';
import type { Line } from '../lines';
import type { LineEditorDef, LineEditorProps } from './types';

const num = (v: unknown) => (v === undefined || v === null || v === '' ? undefined : Number(v));

function packsOf(line: Line) {
  return { bigQty: Number(line.bigQty ?? 1) || 1, midQty: Number(line.midQty ?? 1) || 1, unitBig: line.unitBig as string | null, unitMid: line.unitMid as string | null, unitSmall: line.unitSmall as string | null };
}

/** The parts a line shows: what was typed, else the split of its saved total. */
function partsOf(line: Line, field: string): { big?: number; mid?: number; small?: number } {
  if (line.big !== undefined || line.mid !== undefined || line.small !== undefined) return { big: num(line.big), mid: num(line.mid), small: num(line.small) };
  const total = num(line[field]);
  if (total === undefined) return {};
  const s = splitUnits(total, packsOf(line));
  return { big: s.big || undefined, mid: s.mid || undefined, small: s.small || undefined };
}

const UnitsCell = memo(function UnitsCell({ column, line, index, onPatch }: LineEditorProps) {
  const packs = packsOf(line);
  const useBig = packs.bigQty > 1 && !!packs.unitBig;
  const useMid = packs.midQty > 1 && !!packs.unitMid;
  const parts = partsOf(line, column.field);
  const edit = (key: 'big' | 'mid' | 'small', value: number | undefined) => {
    const next = { ...parts, [key]: value };
    const empty = next.big === undefined && next.mid === undefined && next.small === undefined;
    const total = empty ? undefined : toSmallUnits(next, packs);
    onPatch(index, { big: next.big, mid: next.mid, small: next.small, [column.field]: total });
  };
  const box = (key: 'big' | 'mid' | 'small', unit: string | null | undefined, title: string) => (
    <NumberText
      key={key}
      size="small"
      title={title}
      aria-label={`${column.title}（${title}）`}
      style={{ width: 84 }}
      suffix={<span style={{ color: '#595959' }}>{unit ?? ''}</span>}
      value={parts[key]}
      onValue={(v) => edit(key, v as number | undefined)}
    />
  );
  return (
    <Space.Compact size="small">
      {useBig && box('big', packs.unitBig, '大包装')}
      {useMid && box('mid', packs.unitMid, '中包装')}
      {box('small', packs.unitSmall, '最小单位')}
    </Space.Compact>
  );
});

const units: LineEditorDef = { component: UnitsCell };
export default units;
