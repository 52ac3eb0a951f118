// The chain a document belongs to (order → plan → task → receiving → putaway → invoice), each linked to
// its screen: one call ({docNo} by default), drawn as an indented table.
import { Divider, Table, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { OK } from '../../../core/codes';
import { actionCall } from '../actions/actionCall';
import { fillBody } from '../template';

type Row = Record<string, unknown>;

export function RelatedDocuments({ api, body, record }: { api: string; body: Record<string, unknown>; record: Row }) {
  const [rows, setRows] = useState<Row[] | null>(null);
  const key = JSON.stringify(fillBody(body, record));
  useEffect(() => {
    let live = true;
    void actionCall<{ chain?: Row[]; list?: Row[] }>(api, JSON.parse(key) as Row).then((env) => {
      if (live) setRows(env.code === OK ? (env.data?.chain ?? env.data?.list ?? []) : []);
    });
    return () => {
      live = false;
    };
  }, [api, key]);
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
