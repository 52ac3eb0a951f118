// bench:render — the baseline: a hand-written ProTable with the same columns, asking the same list code
// through the same request core.
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { Tag } from 'antd';
import { callApiRef } from '../../src/client/request';
import { formatMoney, formatTime } from '../../src/core/format';
import { currencies, STATUS_OPTIONS, type BenchRow } from './data';
import { n, SCROLL_Y, virtual } from './params';

const statusLabel = new Map(STATUS_OPTIONS.map((o) => [o.value, o]));
const charOf = new Map(currencies.map((c) => [c.id, c.currencyCharacter]));

export default function proTablePage() {
  // What a developer would write by hand for the same list: ProTable asking the same list code.
  const columns: ProColumns<BenchRow>[] = [
    { dataIndex: 'code', title: '商品编码', width: 140, sorter: true },
    { dataIndex: 'name', title: '商品名称', width: 180 },
    { dataIndex: 'status', title: '状态', width: 100, render: (_, r) => { const o = statusLabel.get(r.status); return o?.color ? <Tag color={o.color}>{o.label}</Tag> : (o?.label ?? r.status); } },
    { dataIndex: 'enabled', title: '启用', width: 80, align: 'center', render: (_, r) => (r.enabled ? <Tag color="green">是</Tag> : <Tag>否</Tag>) },
    { dataIndex: 'qty', title: '数量', width: 100, align: 'right', valueType: 'digit' },
    { dataIndex: 'amount', title: '金额', width: 130, align: 'right', render: (_, r) => formatMoney(r.amount, charOf.get(r.currencyId) ?? '') },
    { dataIndex: 'day', title: '日期', width: 110 },
    { dataIndex: 'createdAt', title: '创建时间', width: 170, render: (_, r) => formatTime(r.createdAt, 8) },
  ];
  return (
    <ProTable<BenchRow>
      rowKey="id"
      columns={columns}
      request={async (params) => {
        const env = await callApiRef<{ list: BenchRow[]; total: number }>('cdm:012101', { page: params.current ?? 1, pageSize: params.pageSize ?? n });
        return { data: env.data?.list ?? [], total: env.data?.total ?? 0, success: env.code === '200' };
      }}
      search={false}
      options={false}
      virtual={virtual}
      scroll={{ x: 1010, y: virtual ? SCROLL_Y : undefined }}
      pagination={{ pageSize: n, pageSizeOptions: [n], showSizeChanger: false }}
    />
  );
}

