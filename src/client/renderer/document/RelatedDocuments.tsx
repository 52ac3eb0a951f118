// The chain a document belongs to (order → plan → task → receiving → putaway → invoice), each linked to
// its screen: one call ({docNo} by default, or {id} for the engine's own relate code), drawn twice — as
// buttons with counts at the top of the document (Odoo's smart buttons: 发货计划 1 · 送货单 2) and as an
// indented table under it.
import { DownOutlined } from '@ant-design/icons';
import { Button, Divider, Dropdown, Space, Table, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { OK } from '../../../core/codes';
import { actionCall } from '../actions/actionCall';
import { fillBody } from '../template';

type Row = Record<string, unknown>;

/** The chain rows of `record` from `api` (null while they load, [] when there is none or the call failed). */
export function useChain(api: string | undefined, body: Record<string, unknown>, record: Row | undefined): Row[] | null {
  const [rows, setRows] = useState<Row[] | null>(null);
  const key = api && record ? JSON.stringify(fillBody(body, record)) : '';
  useEffect(() => {
    if (!api || !key) return;
    let live = true;
    void actionCall<{ chain?: Row[]; list?: Row[] }>(api, JSON.parse(key) as Row).then((env) => {
      if (live) setRows(env.code === OK ? (env.data?.chain ?? env.data?.list ?? []) : []);
    });
    return () => {
      live = false;
    };
  }, [api, key]);
  return api && record ? rows : [];
}

const isSelf = (r: Row, record: Row) => String(r.number) === String(record.docNo) && (r.docType === undefined || record.docType === undefined || r.docType === record.docType);

/** The other documents of the chain, grouped by kind in chain order: one button each, with its count. */
export function ChainButtons({ rows, record }: { rows: Row[] | null; record: Row }) {
  const navigate = useNavigate();
  if (!rows) return null;
  const groups = new Map<string, Row[]>();
  for (const r of rows) {
    if (isSelf(r, record)) continue;
    const kind = String(r.docTypeText ?? r.docType);
    groups.set(kind, [...(groups.get(kind) ?? []), r]);
  }
  if (!groups.size) return null;
  return (
    <Space size={4} wrap className="renderer-chain-buttons" aria-label="关联单据">
      {[...groups].map(([kind, list]) => {
        const label = (
          <>
            {kind} <b className="renderer-chain-count">{list.length}</b>
          </>
        );
        if (list.length === 1 && typeof list[0]!.route === 'string') {
          return (
            <Button key={kind} size="small" onClick={() => navigate(String(list[0]!.route))} title={`${kind} ${String(list[0]!.number)}（${String(list[0]!.statusText ?? '')}）`}>
              {label}
            </Button>
          );
        }
        const items = list.map((r) => ({ key: `${String(r.docType)}:${String(r.id)}`, label: `${String(r.number)}　${String(r.statusText ?? r.status ?? '')}`, disabled: typeof r.route !== 'string' }));
        return (
          <Dropdown key={kind} trigger={['click']} menu={{ items, onClick: ({ key }) => { const r = list.find((x) => `${String(x.docType)}:${String(x.id)}` === key); if (typeof r?.route === 'string') navigate(r.route); } }}>
            <Button size="small">
              {label} <DownOutlined />
            </Button>
          </Dropdown>
        );
      })}
    </Space>
  );
}

export function RelatedDocuments({ rows, record }: { rows: Row[] | null; record: Row }) {
  if (!rows || rows.length < 2) return null;
  return (
    <>
      <Divider orientation="left">关联单据</Divider>
      <Table<Row>
        size="small"
        className="renderer-related-documents"
        rowKey={(r) => `${String(r.docType)}:${String(r.id)}`}
        pagination={false}
        dataSource={rows}
        columns={[
          { key: 'type', title: '单据类型', width: 140, render: (_, r) => <span style={{ paddingLeft: Number(r.level ?? 0) * 16 }}>{String(r.docTypeText ?? r.docType)}</span> },
          {
            key: 'number',
            title: '单号',
            width: 200,
            render: (_, r) => (String(r.number) === String(record.docNo) ? <b>{String(r.number)}</b> : typeof r.route === 'string' ? <Link to={r.route}>{String(r.number)}</Link> : String(r.number)),
          },
          { key: 'status', title: '状态', width: 100, render: (_, r) => <Tag>{String(r.statusText ?? r.status)}</Tag> },
          { key: 'from', title: '来源单号', render: (_, r) => String(r.from ?? '') },
        ]}
      />
    </>
  );
}
