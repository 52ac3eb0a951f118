// bench:render ?mode=docbase — the baseline for the document bench: the same line table written by hand
// as a careful developer would (rows in a state array, memoised cells with a stable patch callback,
// antd virtual rows above 100 lines, totals in a fixed summary row, exact money with decimal.js).
import { DeleteOutlined } from '@ant-design/icons';
import { Button, Input, Space, Table } from 'antd';
import type { ColumnType } from 'antd/es/table';
import Decimal from 'decimal.js';
import { memo, useCallback, useMemo, useState } from 'react';
import { formatMoney, formatNumber } from '../../src/core/format';
import { DOC_SCROLL_Y, makeDocLines, type DocLine } from './docData';
import { n } from './params';

interface Row extends DocLine {
  big: string;
  mid: string;
  small: string;
}
type Patch = (index: number, patch: Partial<Row>) => void;

function toRows(lines: DocLine[]): Row[] {
  return lines.map((l) => {
    const big = Math.floor(l.qty / l.bigQty);
    const mid = Math.floor((l.qty - big * l.bigQty) / l.midQty);
    const small = l.qty - big * l.bigQty - mid * l.midQty;
    return { ...l, big: big ? String(big) : '', mid: mid ? String(mid) : '', small: small ? String(small) : '' };
  });
}

const ints = (s: string) => s.replace(/\D/g, '');
const decimals4 = (s: string) => s.replace(/[^\d.]/g, '').replace(/^(\d*\.?\d{0,4}).*$/, '$1');
const amountOf = (r: Row) => new Decimal(r.qty).times(r.price || 0).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
const unit = (u: string) => <span style={{ color: '#8c8c8c' }}>{u}</span>;

const QtyCell = memo(function QtyCell({ row, index, onPatch }: { row: Row; index: number; onPatch: Patch }) {
  const edit = (key: 'big' | 'mid' | 'small', text: string) => {
    const next = { big: row.big, mid: row.mid, small: row.small, [key]: ints(text) };
    onPatch(index, { ...next, qty: Number(next.big || 0) * row.bigQty + Number(next.mid || 0) * row.midQty + Number(next.small || 0) });
  };
  return (
    <Space.Compact size="small">
      <Input size="small" style={{ width: 84 }} aria-label="数量（大包装）" suffix={unit(row.unitBig)} value={row.big} onChange={(e) => edit('big', e.target.value)} />
      <Input size="small" style={{ width: 84 }} aria-label="数量（中包装）" suffix={unit(row.unitMid)} value={row.mid} onChange={(e) => edit('mid', e.target.value)} />
      <Input size="small" style={{ width: 84 }} aria-label="数量（最小单位）" suffix={unit(row.unitSmall)} value={row.small} onChange={(e) => edit('small', e.target.value)} />
    </Space.Compact>
  );
});

const PriceCell = memo(function PriceCell({ price, index, onPatch }: { price: string; index: number; onPatch: Patch }) {
  return <Input size="small" aria-label="单价" value={price} onChange={(e) => onPatch(index, { price: decimals4(e.target.value) })} />;
});

const RemarkCell = memo(function RemarkCell({ remark, index, onPatch }: { remark: string; index: number; onPatch: Patch }) {
  return <Input size="small" aria-label="备注" value={remark} onChange={(e) => onPatch(index, { remark: e.target.value })} />;
});

export default function docBaselinePage() {
  const [rows, setRows] = useState<Row[]>(() => toRows(makeDocLines(n)));
  const onPatch = useCallback<Patch>((index, patch) => setRows((prev) => prev.map((r, i) => (i === index ? { ...r, ...patch } : r))), []);
  const remove = useCallback((index: number) => setRows((prev) => prev.filter((_r, i) => i !== index)), []);

  const columns = useMemo<ColumnType<Row>[]>(
    () => [
      { key: '__no', title: '行', width: 48, align: 'center', render: (_v, _r, i) => i + 1 },
      { key: 'productName', dataIndex: 'productName', title: '商品', width: 200 },
      { key: 'qty', title: '数量', width: 270, render: (_v, r, i) => <QtyCell row={r} index={i} onPatch={onPatch} /> },
      { key: 'price', title: '单价', width: 120, render: (_v, r, i) => <PriceCell price={r.price} index={i} onPatch={onPatch} /> },
      { key: 'amount', title: '金额', width: 130, align: 'right', render: (_v, r) => formatMoney(amountOf(r).toFixed(2), '', 2) },
      { key: 'remark', title: '备注', width: 180, render: (_v, r, i) => <RemarkCell remark={r.remark} index={i} onPatch={onPatch} /> },
      { key: '__remove', title: '', width: 48, render: (_v, _r, i) => <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label={`删除第 ${i + 1} 行`} onClick={() => remove(i)} /> },
    ],
    [onPatch, remove],
  );
  const total = useMemo(() => {
    let qty = 0;
    let amount = new Decimal(0);
    for (const r of rows) {
      qty += r.qty;
      amount = amount.plus(amountOf(r));
    }
    return { qty: formatNumber(qty, 0), amount: formatMoney(amount.toFixed(2), '', 2) };
  }, [rows]);
  const virtual = rows.length > 100;

  return (
    <Table<Row>
      size="small"
      rowKey="id"
      columns={columns}
      dataSource={rows}
      pagination={false}
      virtual={virtual}
      scroll={{ x: columns.reduce((s, c) => s + Number(c.width), 0), y: virtual ? DOC_SCROLL_Y : undefined }}
      summary={() => (
        <Table.Summary fixed={virtual ? 'bottom' : undefined}>
          <Table.Summary.Row>
            <Table.Summary.Cell index={0} />
            <Table.Summary.Cell index={1}>合计</Table.Summary.Cell>
            <Table.Summary.Cell index={2} align="right"><span className="renderer-total" data-field="qty">{total.qty}</span></Table.Summary.Cell>
            <Table.Summary.Cell index={3} />
            <Table.Summary.Cell index={4} align="right"><span className="renderer-total" data-field="amount">{total.amount}</span></Table.Summary.Cell>
            <Table.Summary.Cell index={5} />
            <Table.Summary.Cell index={6} />
          </Table.Summary.Row>
        </Table.Summary>
      )}
    />
  );
}
